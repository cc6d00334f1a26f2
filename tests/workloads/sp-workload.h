/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-workload.h: what the recorder's test workloads share.
 *
 * Each workload burns CPU in functions with known names and call paths,
 * and prints one line per thread when it is done:
 *
 *   thread NAME pid=P tid=T cpu_ns=N
 *
 * so a test can compare the samples of a thread with the CPU time it
 * really used. SP_WORK_FN keeps a function a frame of its own: the
 * workloads are built with -fno-inline and frame pointers, and this
 * also stops GCC from cloning a function under another name.
 *
 * Leaf functions keep their sum in a volatile local: GCC (12, -O1) does
 * not set up the frame pointer in a leaf that needs no stack, even with
 * -fno-omit-frame-pointer, and a sample there would then lose its
 * caller (the chain goes from the leaf straight to the caller's caller). */
#pragma once

#include <stdint.h>

#if defined(__clang__)
#define SP_WORK_FN __attribute__ ((noinline, used))
#else
#define SP_WORK_FN __attribute__ ((noinline, noclone, used))
#endif

/* Where the leaves put their results, so no loop is optimized away. */
extern volatile uint64_t sp_work_sink;

/* CLOCK_MONOTONIC in seconds. */
double sp_work_now (void);

/* Parses "[--ready FILE] SECONDS [MORE...]": returns the seconds and sets
 * *ready (or NULL) and *rest to the arguments after SECONDS. Exits with
 * status 2 and a usage line on bad arguments. */
double sp_work_parse_args (int argc,
                           char **argv,
                           const char *usage,
                           const char **ready,
                           char ***rest);

/* Prints the "thread ..." line of the calling thread, and flushes. */
void sp_work_report_thread (void);

/* Writes the ready file the tests wait for: "main PID", then "NAME TID"
 * for each of the n threads (sp_work_write_file). */
void sp_work_write_ready (const char *path,
                          int n,
                          const char *const *names,
                          const int *tids);

/* Writes text to path atomically (a temporary file, then rename), so a
 * test that polls for path never reads half of it. */
void sp_work_write_file (const char *path,
                         const char *text);
