/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-heap.h: malloc set up for a window whose workers build large
 * arrays while its main thread draws. */
#pragma once

/* Call once, early (sp_application_new does). */
void sp_window_heap_prepare (void);
