/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-convert.h: stackpulse-record --input perf.data -o OUT.spool.
 *
 * Reads a perf.data file (or perf's pipe mode on standard input) and
 * writes a spool and its side file through the same code a live recording
 * uses (SpRecording, in time order through SpEventQueue), DWARF samples
 * unwound by the recorder's own unwinder. docs/PERF-DATA.md has the
 * contract: progress lines, exit codes, what is read and what is skipped. */
#pragma once

/* Nothing could be converted, or the input was refused. */
#define SP_CONVERT_EXIT_FAILED 1

typedef struct {
  const char *input;        /* a path, or "-": standard input */
  const char *output;       /* OUT.spool */
  const char *event;        /* NULL: the sampling clock event */
  int         progress_fd;  /* key=value lines, or -1 */
} SpConvertOptions;

/* 0 when a spool was written (also from a damaged input: every record
 * before the damage), SP_CONVERT_EXIT_FAILED with a message on stderr,
 * 128+N when signal N (SIGTERM, SIGINT) stopped it: the spool it created
 * is removed then. */
int sp_perf_data_convert (const SpConvertOptions *options);
