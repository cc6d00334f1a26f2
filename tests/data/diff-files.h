/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diff-files.h: copies of the symbolizer test targets at paths of a test's
 * own, for the comparison tests' matching rules (a library at another
 * path, renamed with the same build-id, another build). */
#pragma once

#include <glib.h>

/* A folder for the test's copies, removed when the test ends. */
char *diff_test_dir (void);

/* Copies the file $from_env names to dir/subdir/name (folders made as
 * needed); returns the copy's path. */
char *diff_test_copy (const char *dir,
                      const char *subdir,
                      const char *name,
                      const char *from_env);
