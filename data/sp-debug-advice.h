/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-debug-advice.h: what to do about a module without debug info, said
 * for where it comes from: a distribution's package has a -dbgsym package
 * (or a debuginfod server); a program built here is built again with -g. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether path looks installed by the distribution's packages (/usr but
 * not /usr/local, /lib, /bin, /sbin): a guess from the path alone. */
gboolean sp_debug_is_packaged (const char *path);

/* "install its -dbgsym package" or "rebuild it with -g"; static. */
const char *sp_debug_info_advice (const char *path);

G_END_DECLS
