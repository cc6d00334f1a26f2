/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-schedule.c: when each sample of the synthetic recording happens,
 * on which thread, with which stack.
 *
 * 16 threads tick every ~1 ms (each on a CPU some share of the time); in a
 * round, samples arrive in the order their per-CPU buffers are drained,
 * not quite in timestamp order, so some deltas are small and negative.
 * Each thread picks stacks of its process with Zipf popularity, ranked
 * differently per thread. The result is three plain arrays the writer loop
 * only indexes. */
#include "bench-synth-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool
setup_popularity (Process *proc,
                  Rng *rng)
{
  size_t n = proc->n_stacks;
  double sum = 0;

  proc->zipf_cdf = malloc (n * sizeof (double));
  proc->by_rank = malloc (n * sizeof (uint32_t));
  if (proc->zipf_cdf == NULL || proc->by_rank == NULL)
    return false;
  for (size_t i = 0; i < n; i++)
    {
      sum += 1.0 / pow ((double) (i + 1), ZIPF_S);
      proc->zipf_cdf[i] = sum;
      proc->by_rank[i] = (uint32_t) i;
    }
  for (size_t i = n - 1; i > 0; i--)
    {
      size_t j = rng_below (rng, i + 1);
      uint32_t t = proc->by_rank[i];

      proc->by_rank[i] = proc->by_rank[j];
      proc->by_rank[j] = t;
    }
  return true;
}

static void
setup_threads (BenchRecording *rec,
               Rng *rng)
{
  rec->n_threads = 0;
  for (size_t p = 0; p < N_PROCESSES; p++)
    {
      const Process *proc = &rec->processes[p];
      unsigned n = proc->shape->n_threads;

      for (unsigned local = 0; local < n && rec->n_threads < MAX_THREADS; local++)
        {
          Thread *thread = &rec->threads[rec->n_threads++];

          thread->pid = proc->shape->pid;
          thread->tid = (uint64_t) proc->shape->pid + (local ? 3 + local : 0);
          thread->process = (uint32_t) p;
          thread->rank_shift = (uint32_t) (local * proc->n_stacks / n);
          thread->busy = local == 0 ? 0.95 : 0.35 + 0.6 * rng_unit (rng);
          thread->phase_ns = rng_below (rng, PERIOD_NS);
        }
    }
  rec->shape.n_threads = rec->n_threads;
}

/* A pool stack for thread t, by Zipf rank within its process. */
static uint32_t
pick_stack (const BenchRecording *rec,
            const Thread *thread,
            Rng *rng)
{
  const Process *proc = &rec->processes[thread->process];
  double u = rng_unit (rng) * proc->zipf_cdf[proc->n_stacks - 1];
  size_t lo = 0;
  size_t hi = proc->n_stacks - 1;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (proc->zipf_cdf[mid] <= u)
        lo = mid + 1;
      else
        hi = mid;
    }
  lo = (lo + thread->rank_shift) % proc->n_stacks;
  return (uint32_t) (proc->first_stack + proc->by_rank[lo]);
}

typedef struct {
  uint64_t ts;
  uint64_t drained;   /* when its CPU's buffer hands it over */
  uint8_t  thread;
} Tick;

/* One 1 ms round: every busy thread's sample, in the order the per-CPU
 * buffers hand them over, which is not quite timestamp order. */
static size_t
make_round (const BenchRecording *rec,
            uint64_t base,
            Rng *rng,
            Tick *ticks)
{
  size_t n = 0;

  for (size_t t = 0; t < rec->n_threads; t++)
    {
      Tick tick;
      size_t i = n;

      if (rng_unit (rng) >= rec->threads[t].busy)
        continue;
      tick.ts = base + rec->threads[t].phase_ns + rng_below (rng, 2 * JITTER_NS + 1) - JITTER_NS;
      tick.drained = tick.ts + rng_below (rng, DRAIN_NS);
      tick.thread = (uint8_t) t;
      for (; i > 0 && ticks[i - 1].drained > tick.drained; i--)
        ticks[i] = ticks[i - 1];
      ticks[i] = tick;
      n++;
    }
  return n;
}

static bool
fill_schedule (BenchRecording *rec,
               size_t n_samples,
               Rng *rng)
{
  size_t n = 0;
  size_t negative = 0;
  uint64_t last = 0;

  rec->sample_ts = malloc (n_samples * sizeof (uint64_t));
  rec->sample_thread = malloc (n_samples);
  rec->sample_stack = malloc (n_samples * sizeof (uint32_t));
  if (rec->sample_ts == NULL || rec->sample_thread == NULL || rec->sample_stack == NULL)
    return false;
  for (uint64_t round = 0; n < n_samples; round++)
    {
      Tick ticks[MAX_THREADS];
      size_t m = make_round (rec, START_NS + round * PERIOD_NS, rng, ticks);

      for (size_t i = 0; i < m && n < n_samples; i++, n++)
        {
          rec->sample_ts[n] = ticks[i].ts;
          rec->sample_thread[n] = ticks[i].thread;
          rec->sample_stack[n] = pick_stack (rec, &rec->threads[ticks[i].thread], rng);
          negative += ticks[i].ts < last;
          last = ticks[i].ts;
        }
    }
  rec->n_samples = n_samples;
  rec->shape.negative_deltas = n_samples ? (double) negative / (double) n_samples : 0;
  rec->shape.schedule_bytes = n_samples * (sizeof (uint64_t) + 1 + sizeof (uint32_t));
  return true;
}

static int
compare_counts_desc (const void *a,
                     const void *b)
{
  uint32_t x = *(const uint32_t *) a;
  uint32_t y = *(const uint32_t *) b;

  return x > y ? -1 : x < y;
}

static bool
describe_popularity (BenchRecording *rec)
{
  BenchShape *shape = &rec->shape;
  uint32_t *counts = calloc (rec->n_stacks, sizeof (uint32_t));
  double depth_sum = 0;
  size_t covered = 0;

  if (counts == NULL)
    return false;
  for (size_t i = 0; i < rec->n_samples; i++)
    {
      uint32_t s = rec->sample_stack[i];

      counts[s]++;
      depth_sum += rec->frame_offsets[s + 1] - rec->frame_offsets[s];
    }
  qsort (counts, rec->n_stacks, sizeof (uint32_t), compare_counts_desc);
  for (size_t i = 0; i < rec->n_stacks && covered * 2 < rec->n_samples; i++)
    {
      covered += counts[i];
      shape->stacks_for_half = i + 1;
    }
  covered = 0;
  for (size_t i = 0; i < rec->n_stacks && i < 10; i++)
    covered += counts[i];
  shape->top1_share = (double) counts[0] / (double) rec->n_samples;
  shape->top10_share = (double) covered / (double) rec->n_samples;
  shape->mean_sample_depth = depth_sum / (double) rec->n_samples;
  free (counts);
  return true;
}

bool
_bench_schedule_make (BenchRecording *rec,
                      size_t n_samples,
                      Rng *rng)
{
  bool ok = true;

  setup_threads (rec, rng);
  for (size_t p = 0; ok && p < N_PROCESSES; p++)
    ok = setup_popularity (&rec->processes[p], rng);
  return ok && fill_schedule (rec, n_samples, rng) && describe_popularity (rec);
}
