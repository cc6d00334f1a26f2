/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-file-kind.h: whether a file the user opens is a perf.data file.
 *
 * The window converts a perf.data file (stackpulse-record --input) before
 * it opens it, whatever its name: a perf.data renamed *.spool is one all
 * the same. Everything else goes to the spool reader, which says what a
 * file that is no spool looks like (sp-file-kind.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether path is a regular file that begins with perf's "PERFILE2" in
 * this machine's byte order: a perf.data in file mode or in pipe mode
 * (`perf record -o -`), whose headers begin alike. FALSE for everything
 * else, other byte order and perf's old format included, and for a file
 * that cannot be read (opening it then says why). Never blocks on a FIFO. */
gboolean sp_file_kind_is_perf_data (const char *path);

G_END_DECLS
