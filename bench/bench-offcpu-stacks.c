/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-offcpu-stacks: how complete the switch-out stacks of a recording
 * are, counted per switch-out (bench/run-offcpu).
 *
 *   bench-offcpu-stacks SPOOL MODULE WAIT=LO-HI ROOT=LO-HI [ROOT=LO-HI...]
 *
 * Reads SPOOL and SPOOL.offcpu with codec/ and classifies every SWITCH_OUT
 * by its stack: none; one with a frame of MODULE (a path ending in it) in
 * a root range (the threads' entry functions: unwound to the root); and,
 * for blocked switch-outs, one with a frame in the WAIT range (the
 * function the workload blocks in). Ranges are MODULE-relative addresses
 * as `nm` prints them (hex; start inclusive, end exclusive), which is what
 * the spool's rel_ip is for a module mapped at its own file offsets.
 *
 * stackpulse-report's --metric off-cpu weighs stacks by time, and the
 * check wants a share of switch-outs comparable with perf script's events,
 * hence this count. Prints one line:
 *
 *   switch_outs=N blocked=N with_stack=N complete=N blocked_in_wait=N unresolved=N
 *
 * (unresolved: switch-outs naming a thread or stack the spool does not
 * define, which a sound recording never has). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp-offcpu.h"
#include "sp-spool-reader.h"

#define MAX_ROOTS 8

typedef struct {
  uint64_t lo;
  uint64_t hi;
} Range;

typedef struct {
  const char *module;
  Range       wait;
  Range       roots[MAX_ROOTS];
  int         n_roots;
} Query;

/* What one stack holds, worked out once per stack id. */
enum {
  STACK_UNKNOWN = 0,
  STACK_SEEN = 1,
  STACK_COMPLETE = 2,
  STACK_IN_WAIT = 4,
};

static bool
parse_range (const char *arg,
             const char *key,
             Range *range)
{
  size_t n = strlen (key);
  char *end;

  if (strncmp (arg, key, n) != 0)
    return false;
  range->lo = strtoull (arg + n, &end, 16);
  if (*end != '-')
    return false;
  range->hi = strtoull (end + 1, &end, 16);
  return *end == '\0' && range->lo < range->hi;
}

static bool
in_range (Range range,
          uint64_t ip)
{
  return ip >= range.lo && ip < range.hi;
}

static bool
module_matches (const SpModule *module,
                const char *suffix)
{
  size_t n = strlen (suffix);

  return module->path_len >= n && memcmp (module->path + module->path_len - n, suffix, n) == 0;
}

static unsigned
classify_stack (const SpSpoolReader *spool,
                int32_t pid,
                uint32_t stack,
                const Query *query)
{
  const SpModule *modules = sp_spool_reader_get_modules (spool);
  unsigned flags = STACK_SEEN;
  SpStackIter iter;
  uint32_t frame;

  sp_stack_iter_init (&iter, spool, stack);
  while (sp_stack_iter_next (&iter, &frame))
    {
      uint32_t module;
      uint64_t rel_ip;

      if (!sp_spool_reader_resolve_frame_module (spool, pid, frame, &module, &rel_ip)
          || !module_matches (&modules[module], query->module))
        continue;
      if (in_range (query->wait, rel_ip))
        flags |= STACK_IN_WAIT;
      for (int i = 0; i < query->n_roots; i++)
        if (in_range (query->roots[i], rel_ip))
          flags |= STACK_COMPLETE;
    }
  return flags;
}

typedef struct {
  uint64_t switch_outs;
  uint64_t blocked;
  uint64_t with_stack;
  uint64_t complete;
  uint64_t blocked_in_wait;
  uint64_t unresolved;    /* ids the spool does not define: a recorder bug */
} Tally;

static void
tally_switch_outs (const SpSpoolReader *spool,
                   const SpOffCpuReader *offcpu,
                   const Query *query,
                   Tally *tally)
{
  const SpOffCpuRecord *records = sp_offcpu_reader_get_records (offcpu);
  const SpThread *threads = sp_spool_reader_get_threads (spool);
  size_t n_stacks = sp_spool_reader_get_n_stack_nodes (spool);
  size_t n_threads = sp_spool_reader_get_n_threads (spool);
  unsigned char *stack_flags = calloc (n_stacks + 1, 1);

  for (size_t i = 0; i < sp_offcpu_reader_get_n_records (offcpu); i++)
    {
      const SpOffCpuRecord *record = &records[i];
      bool is_blocked = record->state == SP_OFFCPU_BLOCKED;
      unsigned flags;

      if (record->tag != SP_OFFCPU_SWITCH_OUT)
        continue;
      tally->switch_outs++;
      tally->blocked += is_blocked;
      if (record->stack == SP_SPOOL_NO_ID)
        continue;
      if (record->stack >= n_stacks || record->thread >= n_threads)
        {
          tally->unresolved++;
          continue;
        }
      if (stack_flags[record->stack] == STACK_UNKNOWN)
        stack_flags[record->stack] = classify_stack (spool, threads[record->thread].pid, record->stack, query);
      flags = stack_flags[record->stack];
      tally->with_stack++;
      tally->complete += (flags & STACK_COMPLETE) != 0;
      tally->blocked_in_wait += is_blocked && (flags & STACK_IN_WAIT) != 0;
    }
  free (stack_flags);
}

/* The whole companion, read as a follower that reaches the end. */
static SpOffCpuReader *
open_companion (const char *spool_path)
{
  SpSpoolError err = { 0 };
  char path[4096];
  SpOffCpuReader *offcpu;

  snprintf (path, sizeof path, "%s.offcpu", spool_path);
  offcpu = sp_offcpu_reader_open_follow (path, &err);
  if (offcpu != NULL && sp_offcpu_reader_update (offcpu, &err) && sp_offcpu_reader_finish (offcpu, &err))
    return offcpu;
  fprintf (stderr, "bench-offcpu-stacks: %s: %s\n", path, err.message);
  sp_offcpu_reader_free (offcpu);
  return NULL;
}

static int
count_switch_outs (const char *spool_path,
                   const Query *query)
{
  SpSpoolError err = { 0 };
  SpSpoolReader *spool = sp_spool_reader_open (spool_path, &err);
  SpOffCpuReader *offcpu;
  Tally tally = { 0 };

  if (spool == NULL)
    {
      fprintf (stderr, "bench-offcpu-stacks: %s: %s\n", spool_path, err.message);
      return 1;
    }
  offcpu = open_companion (spool_path);
  if (offcpu == NULL)
    {
      sp_spool_reader_free (spool);
      return 1;
    }
  tally_switch_outs (spool, offcpu, query, &tally);
  printf ("switch_outs=%" PRIu64 " blocked=%" PRIu64 " with_stack=%" PRIu64 " complete=%" PRIu64
          " blocked_in_wait=%" PRIu64 " unresolved=%" PRIu64 "\n", tally.switch_outs, tally.blocked,
          tally.with_stack, tally.complete, tally.blocked_in_wait, tally.unresolved);
  sp_offcpu_reader_free (offcpu);
  sp_spool_reader_free (spool);
  return 0;
}

int
main (int argc,
      char **argv)
{
  Query query = { 0 };

  if (argc < 5 || !parse_range (argv[3], "WAIT=", &query.wait))
    {
      fprintf (stderr, "usage: bench-offcpu-stacks SPOOL MODULE WAIT=LO-HI ROOT=LO-HI [ROOT=LO-HI...]\n");
      return 2;
    }
  query.module = argv[2];
  for (int i = 4; i < argc; i++)
    if (query.n_roots == MAX_ROOTS || !parse_range (argv[i], "ROOT=", &query.roots[query.n_roots++]))
      {
        fprintf (stderr, "bench-offcpu-stacks: bad or too many ROOT ranges: %s\n", argv[i]);
        return 2;
      }
  return count_switch_outs (argv[1], &query);
}
