/* SPDX-License-Identifier: GPL-3.0-or-later */
/* debuginfod-server.h: a real debuginfod server on 127.0.0.1, for tests.
 *
 * Builds a small C program with -g in a temporary folder, splits its debug
 * info off (objcopy --only-keep-debug) and strips the program (strip
 * --strip-all: its build-id stays, no .gnu_debuglink is added, and the
 * stripped copy lies in another folder, so that no debug file is found
 * beside it), then serves the folder holding the debug file and the
 * source (at the path the DWARF names) with `debuginfod -F`, on a free
 * port of 127.0.0.1, and waits until the server answers for both. The
 * source at the DWARF path is a symbolic link: the server serves the file
 * it leads to (debuginfod records a source's real path when it scans), so
 * a test can remove the link to have the source only on the server. The
 * server dies with the test process (PR_SET_PDEATHSIG) even when an
 * assertion aborts it. */
#pragma once

#include <glib.h>

typedef struct {
  char  *dir;          /* the temporary folder, removed by _stop */
  char  *served;       /* dir/served: hot.c, hot.debug */
  char  *program;      /* dir/bin/hot, stripped */
  char  *source_path;  /* dir/served/hot.c, as DWARF names it: a link to source_file */
  char  *source_file;  /* dir/src/hot.c, which the server serves */
  char  *source_text;
  char  *build_id;     /* hexadecimal */
  char  *url;          /* http://127.0.0.1:PORT */
  char  *cache;        /* dir/cache: a DEBUGINFOD_CACHE_PATH of its own */
  GPid   pid;
} SpTestDebuginfod;

/* Whether `debuginfod` is on PATH; FALSE with the reason to skip. */
gboolean sp_test_debuginfod_available (char **reason);

/* Builds, splits and serves as above; fails the test when the server does
 * not answer within 30 s. */
SpTestDebuginfod *sp_test_debuginfod_start (void);

/* Sets DEBUGINFOD_URLS to the server and DEBUGINFOD_CACHE_PATH to cache
 * (for this process and the programs it starts). */
void sp_test_debuginfod_use (SpTestDebuginfod *server,
                             const char *cache);

/* Whether the source is at the path DWARF names (the link is there) or
 * only on the server (the link is removed). Shown at the start. */
void sp_test_debuginfod_show_source (SpTestDebuginfod *server,
                                     gboolean shown);

/* Kills the server and removes the folder. */
void sp_test_debuginfod_stop (SpTestDebuginfod *server);
