/* SPDX-License-Identifier: GPL-3.0-or-later */
/* remove-tree.h: removing a test's temporary folder and what is in it. */
#pragma once

/* Removes path and everything under it; symbolic links are removed, not
 * followed. What cannot be removed is left. */
void sp_test_remove_tree (const char *path);
