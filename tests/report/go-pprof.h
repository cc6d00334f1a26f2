/* SPDX-License-Identifier: GPL-3.0-or-later */
/* go-pprof.h: Debian's `go tool pprof` (golang-go) from a test, offline.
 *
 * pprof is the reader the pprof export must satisfy, so the tests run the
 * real one: with HOME, GOPATH and GOCACHE in a temporary folder and no
 * module proxy, it needs no network for -top, -raw or -traces. Where go
 * is missing a case skips, saying so, except under CI, where it fails. */
#pragma once

#include <glib.h>

/* Sets up go's environment once (its folders go with sp_test_go_tear_down). */
void sp_test_go_set_up (void);
void sp_test_go_tear_down (void);

/* For a case that runs go: TRUE when it may, else the case is skipped
 * (or, under CI, fails). */
gboolean sp_test_case_needs_go (void);

/* `go tool pprof ARGS... FILE` in dir: asserts exit 0, returns stdout. */
char *sp_test_pprof (const char *dir,
                     const char *first,
                     ...) G_GNUC_NULL_TERMINATED;

typedef struct {
  double  flat_pct;
  char   *name;       /* " (inline)" taken off */
} SpPprofRow;

/* The rows of -top ("flat flat% sum% cum cum%  name"). */
GPtrArray *sp_test_parse_pprof_top (const char *text);

/* Whether the environment variable CI says this is CI. */
gboolean sp_test_ci_is_set (void);
