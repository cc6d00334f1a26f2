/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-probe.h: what bench-codec measures with, outside the codec.
 *
 * Clocks, the process's memory as /proc and malloc see it, and the two
 * probes that run in a fresh child process (a whole-file open, and a
 * follow of a file appended in chunks), so that each measurement starts
 * from an empty heap and its own peak RSS. A child prints "key value"
 * lines, which the parent reads back into a BenchKv. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CLOCK_MONOTONIC and this thread's CPU time, in seconds. */
double bench_wall_now (void);
double bench_cpu_now (void);

/* The order-sensitive checksum the writer and reader sides agree on. */
static inline uint64_t
bench_mix (uint64_t h,
           uint64_t v)
{
  h = (h ^ v) * UINT64_C (0x9E3779B97F4A7C15);
  return h ^ (h >> 29);
}

double bench_median (const double *values,
                     size_t n);

/* From /proc/self/status, in bytes. */
typedef struct {
  int64_t vm_rss;
  int64_t vm_hwm;
  int64_t rss_anon;
  int64_t rss_file;
} BenchStatus;

bool bench_read_status (BenchStatus *status);

/* Resets VmHWM to the current RSS (clear_refs 5). */
bool bench_reset_peak_rss (void);

/* Bytes malloc has handed out: mallinfo2 uordblks + hblkhd. */
int64_t bench_heap_in_use (void);

#define BENCH_KV_MAX 40

typedef struct {
  size_t n;
  char   keys[BENCH_KV_MAX][32];
  char   values[BENCH_KV_MAX][32];
} BenchKv;

/* Runs self with args (args[0] is the first argument, NULL-terminated; at
 * most 14 are passed) and collects the "key value" lines it prints. */
/* This program's own path (for running itself as a child), into self of
 * size bytes; false (with a message naming program) when /proc fails. */
bool bench_self_path (const char *program,
                      char *self,
                      size_t size);

bool bench_run_child (const char *self,
                      const char *const *args,
                      BenchKv *kv);

double bench_kv_double (const BenchKv *kv,
                        const char *key);
uint64_t bench_kv_u64 (const BenchKv *kv,
                       const char *key);

/* The child probes; each returns the process's exit status. */
int bench_open_only (const char *path);
int bench_child_open (const char *path);
int bench_child_follow (const char *src,
                        const char *dst,
                        size_t chunk);

/* A decimal number in [min, max]. */
bool bench_parse_number (const char *text,
                         unsigned long long min,
                         unsigned long long max,
                         unsigned long long *out);

/* Pins this process (and the children it starts) to CPU wanted, or the
 * last allowed one when wanted < 0. Returns the CPU, or -1. */
int bench_pin_to_one_cpu (int wanted);

/* A new empty file $TMPDIR/stackpulse-bench-XXXXXX.spool (malloc'd path),
 * or NULL. */
char *bench_temp_spool_path (void);

/* Unlinks path and also (either may be NULL) on ^C, SIGTERM or a closed
 * pipe; NULL, NULL forgets them. */
void bench_remove_on_signal (char *path,
                             char *also);
