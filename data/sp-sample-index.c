/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-sample-index.c: the time order in blocks shared between versions.
 *
 * Samples arrive nearly in time order, so a new sample is appended and
 * moved back past the few later ones that came before it (insertion).
 * Storage is a list of blocks of BLOCK_SIZE positions; a block that a
 * snapshot shares is copied before it is written (its reference count
 * says so), so the blocks a snapshot holds never change. Snapshots are
 * made by the updating thread only: another thread can only drop its
 * references, never add one the updater would not see.
 *
 * Over a finished reader, which never changes again, a position keeps
 * only its sample's distance from it (1 byte) and reads the time and
 * the thread from the reader's columns: issue 18's 50M-sample window
 * had 300 MB of positions that repeated the reader, and on a host where
 * first touching memory costs 2 ms a MB, writing them was half a second. */
#include "sp-sample-index.h"

#define BLOCK_BITS 16
#define BLOCK_SIZE ((gsize) 1 << BLOCK_BITS)
#define FIRST_CAPACITY 1024
#define MAX_MOVES_PER_SAMPLE 16
/* Times are offsets from a base per 256 positions: 2.1 s either way
 * holds 256 samples of any rate above 120 Hz. */
#define BASE_BITS 8
#define N_BASES (BLOCK_SIZE >> BASE_BITS)

/* A position, in the narrowest form all of its block's fit: over a
 * finished reader 1 byte while samples are at most 127 positions from
 * their place in the file; else 6 bytes while threads fit 8 bits and
 * distances do, 8 bytes with 16 bits for both, 16 whole. */
typedef enum {
  FORM_SHIFT,
  FORM_NARROW,
  FORM_COMPACT,
  FORM_WHOLE,
} Form;

typedef struct __attribute__ ((packed)) {
  gint32  time;      /* from its base */
  guint8  thread;
  gint8   sample;    /* the sample's number minus the position */
} Narrow;

typedef struct {
  gint32  time;
  guint16 thread;
  gint16  sample;
} Compact;

typedef struct {
  guint64 time;
  guint32 thread;
  guint32 sample;
} Whole;

G_STATIC_ASSERT (sizeof (Narrow) == 6);

static const gsize form_size[] = { sizeof (gint8), sizeof (Narrow), sizeof (Compact), sizeof (Whole) };

struct _SpSampleIndex
{
  gatomicrefcount ref_count;
  gboolean        frozen;     /* a snapshot */
  GPtrArray      *blocks;     /* Block *; block b holds positions [b * BLOCK_SIZE, ...) */
  gsize           n;
  GArray         *first_ns;   /* guint64 per thread, G_MAXUINT64 when none */
  GArray         *last_ns;
  GArray         *n_samples;  /* guint64 per thread */
  struct _Block  *tail;       /* the last block when the index alone holds it, else NULL */
  guint64         last_time;  /* of the last position */
  /* Over a finished reader: the reader, and what keeps it alive (a
   * snapshot holds a reference on the owner; the index itself does not). */
  const SpSpoolReader *reader;
  gpointer        owner;
  gpointer      (*owner_ref) (gpointer owner);
  GDestroyNotify  owner_unref;
  gboolean        holds_owner;
};

typedef struct _Block {
  gatomicrefcount ref_count;
  gsize           capacity;
  guint64         base_ns[N_BASES];
  gboolean        has_base[N_BASES];   /* set by the first write of its positions */
  Form            form;
  Form            spill;               /* the form its positions need off the reader */
  gsize           written;             /* positions [0, written) were written */
  const SpSpoolReader *reader;         /* for FORM_SHIFT: finished, so never changes */
  gpointer        positions;           /* capacity of the form's struct */
} Block;

/* ---- Blocks ------------------------------------------------------------ */

static Block *
block_new (gsize capacity,
           const SpSpoolReader *reader)
{
  Block *block = g_new0 (Block, 1);

  g_atomic_ref_count_init (&block->ref_count);
  block->capacity = capacity;
  block->reader = reader;
  block->form = reader != NULL ? FORM_SHIFT : FORM_NARROW;
  block->spill = FORM_NARROW;
  block->positions = g_malloc (capacity * form_size[block->form]);
  return block;
}

static void
block_unref (gpointer data)
{
  Block *block = data;

  if (!g_atomic_ref_count_dec (&block->ref_count))
    return;
  g_free (block->positions);
  g_free (block);
}

static Block *
block_copy (const Block *block,
            gsize used,
            gsize capacity)
{
  Block *copy = g_memdup2 (block, sizeof *block);

  g_atomic_ref_count_init (&copy->ref_count);
  copy->capacity = capacity;
  copy->positions = g_malloc (capacity * form_size[block->form]);
  memcpy (copy->positions, block->positions, used * form_size[block->form]);
  return copy;
}

/* Position i of block (its first position is first). */
static inline void
block_get (const Block *block,
           gsize first,
           gsize i,
           guint64 *time,
           guint32 *thread,
           guint32 *sample)
{
  guint64 base = block->base_ns[i >> BASE_BITS];

  switch (block->form)
    {
    case FORM_SHIFT:
      {
        gsize s = (gsize) ((gint64) (first + i) + ((const gint8 *) block->positions)[i]);

        *time = sp_spool_reader_get_sample_timestamp (block->reader, s);
        *thread = sp_spool_reader_get_sample_thread (block->reader, s);
        *sample = (guint32) s;
        return;
      }
    case FORM_NARROW:
      {
        const Narrow *p = (const Narrow *) block->positions + i;

        *time = base + (guint64) (gint64) p->time;
        *thread = p->thread;
        *sample = (guint32) ((gint64) (first + i) + p->sample);
        return;
      }
    case FORM_COMPACT:
      {
        const Compact *p = (const Compact *) block->positions + i;

        *time = base + (guint64) (gint64) p->time;
        *thread = p->thread;
        *sample = (guint32) ((gint64) (first + i) + p->sample);
        return;
      }
    case FORM_WHOLE:
    default:
      {
        const Whole *p = (const Whole *) block->positions + i;

        *time = p->time;
        *thread = p->thread;
        *sample = p->sample;
        return;
      }
    }
}

/* Writes position i in the block's form, which the caller made fit. */
static inline void
block_put (Block *block,
           gsize i,
           gint64 offset,
           gint64 distance,
           guint64 time,
           guint32 thread,
           guint32 sample)
{
  if (block->form == FORM_SHIFT)
    ((gint8 *) block->positions)[i] = (gint8) distance;
  else if (block->form == FORM_NARROW)
    ((Narrow *) block->positions)[i] = (Narrow) { (gint32) offset, (guint8) thread, (gint8) distance };
  else if (block->form == FORM_COMPACT)
    ((Compact *) block->positions)[i] = (Compact) { (gint32) offset, (guint16) thread, (gint16) distance };
  else
    ((Whole *) block->positions)[i] = (Whole) { time, thread, sample };
}

/* Rewrites the written positions in a wider form (the others are
 * written before they are read). */
static void
block_widen (Block *block,
             gsize first,
             Form form)
{
  Block wider = *block;

  wider.form = form;
  wider.positions = g_malloc (block->capacity * form_size[form]);
  for (gsize i = 0; i < block->written; i++)
    {
      guint64 time, base = block->base_ns[i >> BASE_BITS];
      guint32 thread, sample;

      block_get (block, first, i, &time, &thread, &sample);
      block_put (&wider, i, (gint64) (time - base), (gint64) sample - (gint64) (first + i), time, thread, sample);
    }
  g_free (block->positions);
  block->positions = wider.positions;
  block->form = form;
}

static inline void
block_set (Block *block,
           gsize first,
           gsize i,
           guint64 time,
           guint32 thread,
           guint32 sample)
{
  gsize b = i >> BASE_BITS;
  gint64 offset, distance;
  Form needed;

  if (!block->has_base[b])
    {
      block->base_ns[b] = time;
      block->has_base[b] = TRUE;
    }
  offset = (gint64) (time - block->base_ns[b]);
  distance = (gint64) sample - (gint64) (first + i);
  if (offset != (gint32) offset)
    needed = FORM_WHOLE;
  else if (thread <= G_MAXUINT8 && distance == (gint8) distance)
    needed = FORM_NARROW;
  else if (thread <= G_MAXUINT16 && distance == (gint16) distance)
    needed = FORM_COMPACT;
  else
    needed = FORM_WHOLE;
  /* Off the reader, a position needs the form its time and thread need,
   * whichever position it was that made the block leave the reader. */
  block->spill = MAX (block->spill, needed);
  if (block->form == FORM_SHIFT && distance == (gint8) distance)
    needed = FORM_SHIFT;
  else
    needed = MAX (needed, block->spill);
  if (G_UNLIKELY (needed > block->form))
    block_widen (block, first, needed);
  block_put (block, i, offset, distance, time, thread, sample);
  block->written = MAX (block->written, i + 1);
}

/* The block grown to capacity positions (its form, used ones kept). */
static void
block_grow (Block *block,
            gsize used,
            gsize capacity)
{
  block->positions = g_realloc (block->positions, capacity * form_size[block->form]);
  block->capacity = capacity;
}

/* How many positions of block b are in use. */
static gsize
block_used (const SpSampleIndex *index,
            guint b)
{
  return MIN (index->n - (gsize) b * BLOCK_SIZE, BLOCK_SIZE);
}

/* Block b, made the index's own (copied when a snapshot shares it) with
 * room for `need` positions. */
static Block *
block_for_write (SpSampleIndex *index,
                 guint b,
                 gsize need)
{
  Block *block = g_ptr_array_index (index->blocks, b);
  gsize capacity = block->capacity;

  while (capacity < need)
    capacity = MIN (capacity * 2, BLOCK_SIZE);
  if (g_atomic_ref_count_compare (&block->ref_count, 1))
    {
      if (capacity != block->capacity)
        block_grow (block, block_used (index, b), capacity);
      return block;
    }
  block = block_copy (block, block_used (index, b), capacity);
  block_unref (g_ptr_array_index (index->blocks, b));
  g_ptr_array_index (index->blocks, b) = block;
  return block;
}

static void
set_entry (SpSampleIndex *index,
           gsize pos,
           guint64 time,
           guint32 thread,
           guint32 sample)
{
  Block *block = block_for_write (index, (guint) (pos >> BLOCK_BITS), (pos & (BLOCK_SIZE - 1)) + 1);

  block_set (block, pos & ~(BLOCK_SIZE - 1), pos & (BLOCK_SIZE - 1), time, thread, sample);
}

static inline const Block *
block_at (const SpSampleIndex *index,
          gsize pos)
{
  return g_ptr_array_index (index->blocks, pos >> BLOCK_BITS);
}

static inline void
entry_at (const SpSampleIndex *index,
          gsize pos,
          guint64 *time,
          guint32 *thread,
          guint32 *sample)
{
  block_get (block_at (index, pos), pos & ~(BLOCK_SIZE - 1), pos & (BLOCK_SIZE - 1), time, thread, sample);
}

static inline guint64
time_at (const SpSampleIndex *index,
         gsize pos)
{
  const Block *block = block_at (index, pos);
  gsize i = pos & (BLOCK_SIZE - 1);
  guint64 base = block->base_ns[i >> BASE_BITS];

  switch (block->form)
    {
    case FORM_SHIFT:
      return sp_spool_reader_get_sample_timestamp (
        block->reader, (gsize) ((gint64) pos + ((const gint8 *) block->positions)[i]));
    case FORM_NARROW: return base + (guint64) (gint64) ((const Narrow *) block->positions)[i].time;
    case FORM_COMPACT: return base + (guint64) (gint64) ((const Compact *) block->positions)[i].time;
    case FORM_WHOLE:
    default: return ((const Whole *) block->positions)[i].time;
    }
}

/* ---- The index ---------------------------------------------------------- */

SpSampleIndex *
sp_sample_index_new (void)
{
  SpSampleIndex *index = g_new0 (SpSampleIndex, 1);

  g_atomic_ref_count_init (&index->ref_count);
  index->blocks = g_ptr_array_new_with_free_func (block_unref);
  index->first_ns = g_array_new (FALSE, FALSE, sizeof (guint64));
  index->last_ns = g_array_new (FALSE, FALSE, sizeof (guint64));
  index->n_samples = g_array_new (FALSE, TRUE, sizeof (guint64));
  return index;
}

SpSampleIndex *
sp_sample_index_new_over (const SpSpoolReader *reader,
                          gpointer owner,
                          gpointer (*owner_ref) (gpointer owner),
                          GDestroyNotify owner_unref)
{
  SpSampleIndex *index;

  g_return_val_if_fail (sp_spool_reader_is_finished (reader), NULL);
  index = sp_sample_index_new ();
  index->reader = reader;
  index->owner = owner;
  index->owner_ref = owner_ref;
  index->owner_unref = owner_unref;
  return index;
}

SpSampleIndex *
sp_sample_index_ref (SpSampleIndex *index)
{
  g_atomic_ref_count_inc (&index->ref_count);
  return index;
}

void
sp_sample_index_unref (SpSampleIndex *index)
{
  if (index == NULL || !g_atomic_ref_count_dec (&index->ref_count))
    return;
  g_ptr_array_unref (index->blocks);
  g_array_unref (index->first_ns);
  g_array_unref (index->last_ns);
  g_array_unref (index->n_samples);
  /* After the blocks: they point into the reader the owner keeps. */
  if (index->holds_owner)
    index->owner_unref (index->owner);
  g_free (index);
}

SpSampleIndex *
sp_sample_index_snapshot (SpSampleIndex *index)
{
  SpSampleIndex *copy;

  if (index->frozen)
    return sp_sample_index_ref (index);
  index->tail = NULL;
  copy = sp_sample_index_new ();
  copy->frozen = TRUE;
  copy->n = index->n;
  if (index->reader != NULL)
    {
      copy->reader = index->reader;
      copy->owner = index->owner_ref (index->owner);
      copy->owner_ref = index->owner_ref;
      copy->owner_unref = index->owner_unref;
      copy->holds_owner = TRUE;
    }
  for (guint b = 0; b < index->blocks->len; b++)
    {
      Block *block = g_ptr_array_index (index->blocks, b);

      g_atomic_ref_count_inc (&block->ref_count);
      g_ptr_array_add (copy->blocks, block);
    }
  g_array_append_vals (copy->first_ns, index->first_ns->data, index->first_ns->len);
  g_array_append_vals (copy->last_ns, index->last_ns->data, index->last_ns->len);
  g_array_append_vals (copy->n_samples, index->n_samples->data, index->n_samples->len);
  return copy;
}

/* Room in the per-thread spans for every thread the reader has. */
static void
add_threads (SpSampleIndex *index,
             const SpSpoolReader *reader)
{
  gsize n_threads = sp_spool_reader_get_n_threads (reader);

  while (index->first_ns->len < n_threads)
    {
      guint64 none = G_MAXUINT64, zero = 0;

      g_array_append_val (index->first_ns, none);
      g_array_append_val (index->last_ns, zero);
    }
  g_array_set_size (index->n_samples, index->first_ns->len);
}

/* The threads' first and last times and counts, with n samples more. */
static void
add_to_spans (SpSampleIndex *index,
              const guint64 *ts,
              const guint32 *thread,
              gsize n)
{
  guint64 *first = (guint64 *) (gpointer) index->first_ns->data;
  guint64 *last = (guint64 *) (gpointer) index->last_ns->data;
  guint64 *count = (guint64 *) (gpointer) index->n_samples->data;

  for (gsize i = 0; i < n; i++)
    {
      first[thread[i]] = MIN (first[thread[i]], ts[i]);
      last[thread[i]] = MAX (last[thread[i]], ts[i]);
      count[thread[i]]++;
    }
}

static void
update_spans (SpSampleIndex *index,
              const SpSpoolReader *reader,
              gsize first,
              gsize last)
{
  guint64 ts[SP_SPOOL_SAMPLE_BATCH];
  guint32 thread[SP_SPOOL_SAMPLE_BATCH];

  for (gsize start = first; start < last; start += SP_SPOOL_SAMPLE_BATCH)
    {
      gsize batch = MIN (last - start, SP_SPOOL_SAMPLE_BATCH);

      sp_spool_reader_copy_sample_timestamps (reader, start, batch, ts);
      sp_spool_reader_copy_sample_threads (reader, start, batch, thread);
      add_to_spans (index, ts, thread, batch);
    }
}

/* Room for one more position at the end. */
static void
grow (SpSampleIndex *index)
{
  gsize used = index->n & (BLOCK_SIZE - 1);

  if (used == 0)
    g_ptr_array_add (index->blocks, block_new (FIRST_CAPACITY, index->reader));
  else
    block_for_write (index, index->blocks->len - 1, used + 1);
  index->n++;
}

/* Appends a sample no earlier than the last: the common case, kept cheap
 * (one block check per block, not per sample: only this thread makes
 * snapshots, so a block it owns stays its own until the next one). */
static inline void
append (SpSampleIndex *index,
        guint64 time,
        guint32 thread,
        guint32 sample,
        gsize coming)
{
  gsize i = index->n & (BLOCK_SIZE - 1);
  Block *block = index->tail;

  if (i == 0)
    {
      /* Sized for the samples on their way: a file opened whole fills
       * its blocks without growing them. */
      block = block_new (CLAMP (coming, FIRST_CAPACITY, BLOCK_SIZE), index->reader);
      g_ptr_array_add (index->blocks, block);
    }
  else if (block == NULL || i >= block->capacity)
    block = block_for_write (index, index->blocks->len - 1, MIN (i + MAX (coming, i), BLOCK_SIZE));
  index->tail = block;
  block_set (block, index->n - i, i, time, thread, sample);
  index->last_time = time;
  index->n++;
}

typedef struct {
  guint64 time;
  guint32 sample;
  guint32 thread;
} Entry;

static gint
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->sample < y->sample ? -1 : x->sample > y->sample;
}

/* Far from sorted (a hand-made file): sort every sample at once. */
static void
sort_all (SpSampleIndex *index,
          const SpSpoolReader *reader,
          gsize n)
{
  g_autofree Entry *entries = g_new (Entry, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    {
      SpSample sample;

      sp_spool_reader_get_sample (reader, i, &sample);
      entries[i] = (Entry) { sample.timestamp_ns, (guint32) i, sample.thread };
    }
  qsort (entries, n, sizeof (Entry), compare_entries);
  g_ptr_array_set_size (index->blocks, 0);
  index->n = 0;
  index->tail = NULL;
  for (gsize i = 0; i < n; i++)
    append (index, entries[i].time, entries[i].thread, entries[i].sample, n - i);
}

/* Takes in sample i: appended when no earlier than the last position,
 * else moved back past the later ones that came before it. FALSE when
 * the moves so far say the file is far from sorted. */
static inline gboolean
take_sample (SpSampleIndex *index,
             gsize i,
             guint64 time,
             guint32 thread,
             gsize n,
             gsize *moves)
{
  gsize j = index->n;

  if (j == 0 || index->last_time <= time)
    {
      append (index, time, thread, (guint32) i, n - i);
      return TRUE;
    }
  /* A late sample: the slow path may copy blocks, the tail among them. */
  index->tail = NULL;
  grow (index);
  while (j > 0 && time_at (index, j - 1) > time && *moves <= MAX_MOVES_PER_SAMPLE * n)
    {
      Entry moved;

      entry_at (index, j - 1, &moved.time, &moved.thread, &moved.sample);
      set_entry (index, j, moved.time, moved.thread, moved.sample);
      j--;
      (*moves)++;
    }
  if (*moves > MAX_MOVES_PER_SAMPLE * n)
    return FALSE;
  set_entry (index, j, time, thread, (guint32) i);
  return TRUE;
}

void
sp_sample_index_update (SpSampleIndex *index,
                        const SpSpoolReader *reader)
{
  gsize n = sp_spool_reader_get_n_samples (reader);
  gsize old = index->n;
  gsize moves = 0;
  guint64 ts[SP_SPOOL_SAMPLE_BATCH];
  guint32 thread[SP_SPOOL_SAMPLE_BATCH];

  g_return_if_fail (!index->frozen);
  g_return_if_fail (index->reader == NULL || index->reader == reader);
  add_threads (index, reader);
  if (n <= old)
    return;
  /* Each batch decoded once, for the spans and the order. */
  for (gsize start = old; start < n; start += SP_SPOOL_SAMPLE_BATCH)
    {
      gsize batch = MIN (n - start, SP_SPOOL_SAMPLE_BATCH);

      sp_spool_reader_copy_sample_timestamps (reader, start, batch, ts);
      sp_spool_reader_copy_sample_threads (reader, start, batch, thread);
      add_to_spans (index, ts, thread, batch);
      for (gsize k = 0; k < batch; k++)
        if (!take_sample (index, start + k, ts[k], thread[k], n, &moves))
          {
            update_spans (index, reader, start + batch, n);
            sort_all (index, reader, n);
            return;
          }
    }
}

gsize
sp_sample_index_get_n_samples (const SpSampleIndex *index)
{
  return index->n;
}

guint
sp_sample_index_get_n_threads (const SpSampleIndex *index)
{
  return index->first_ns->len;
}

/* A run of a FORM_SHIFT block: the samples it names lie within 128 of
 * its positions, so the reader's columns there are decoded at once. */
static void
run_from_reader (const Block *block,
                 gsize pos,
                 gsize i,
                 SpSampleRun *run)
{
  enum { REACH = 128, SPAN = SP_SAMPLE_RUN_MAX + 2 * REACH };
  const gint8 *distance = (const gint8 *) block->positions + i;
  gsize lo = pos > REACH ? pos - REACH : 0;
  gsize hi = MIN (pos + run->n + REACH, sp_spool_reader_get_n_samples (block->reader));
  guint64 ts[SPAN];
  guint32 thread[SPAN];

  sp_spool_reader_copy_sample_timestamps (block->reader, lo, hi - lo, ts);
  sp_spool_reader_copy_sample_threads (block->reader, lo, hi - lo, thread);
  for (gsize k = 0; k < run->n; k++)
    {
      gsize s = (gsize) ((gint64) (pos + k) + distance[k]);

      run->time[k] = ts[s - lo];
      run->thread[k] = thread[s - lo];
      run->sample[k] = (guint32) s;
    }
}

void
sp_sample_index_get_run (const SpSampleIndex *index,
                         gsize pos,
                         gsize end,
                         SpSampleRun *run)
{
  const Block *block = block_at (index, pos);
  gsize first = pos & ~(BLOCK_SIZE - 1);
  gsize i = pos & (BLOCK_SIZE - 1);

  g_assert (pos < end && end <= index->n);
  run->n = MIN (MIN (end - pos, BLOCK_SIZE - i), SP_SAMPLE_RUN_MAX);
  /* The common forms decoded in loops of their own. */
  if (block->form == FORM_SHIFT)
    run_from_reader (block, pos, i, run);
  else if (block->form == FORM_NARROW)
    for (gsize k = 0; k < run->n; k++)
      {
        const Narrow *p = (const Narrow *) block->positions + i + k;

        run->time[k] = block->base_ns[(i + k) >> BASE_BITS] + (guint64) (gint64) p->time;
        run->thread[k] = p->thread;
        run->sample[k] = (guint32) ((gint64) (pos + k) + p->sample);
      }
  else
    for (gsize k = 0; k < run->n; k++)
      block_get (block, first, i + k, &run->time[k], &run->thread[k], &run->sample[k]);
}

guint32
sp_sample_index_get_sample (const SpSampleIndex *index,
                            gsize pos)
{
  guint64 time;
  guint32 thread, sample;

  g_return_val_if_fail (pos < index->n, 0);
  entry_at (index, pos, &time, &thread, &sample);
  return sample;
}

static gsize
lower_bound (const SpSampleIndex *index,
             guint64 t)
{
  gsize lo = 0, hi = index->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (time_at (index, mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
sp_sample_index_find_range (const SpSampleIndex *index,
                            guint64 from_ns,
                            guint64 to_ns,
                            gsize *first,
                            gsize *last)
{
  *first = lower_bound (index, from_ns);
  *last = to_ns == G_MAXUINT64 ? index->n : lower_bound (index, to_ns);
  if (*last < *first)
    *last = *first;
}

guint64
sp_sample_index_get_thread_samples (const SpSampleIndex *index,
                                    guint32 thread)
{
  return thread < index->n_samples->len ? g_array_index (index->n_samples, guint64, thread) : 0;
}

gboolean
sp_sample_index_get_thread_span (const SpSampleIndex *index,
                                 guint32 thread,
                                 guint64 *first_ns,
                                 guint64 *last_ns)
{
  if (thread >= index->first_ns->len || g_array_index (index->first_ns, guint64, thread) == G_MAXUINT64)
    return FALSE;
  *first_ns = g_array_index (index->first_ns, guint64, thread);
  *last_ns = g_array_index (index->last_ns, guint64, thread);
  return TRUE;
}

gboolean
sp_sample_index_get_time_span (const SpSampleIndex *index,
                               guint64 *first_ns,
                               guint64 *last_ns)
{
  guint64 first = G_MAXUINT64, last = 0;

  for (guint t = 0; t < index->first_ns->len; t++)
    {
      first = MIN (first, g_array_index (index->first_ns, guint64, t));
      last = MAX (last, g_array_index (index->last_ns, guint64, t));
    }
  if (first == G_MAXUINT64)
    return FALSE;
  *first_ns = first;
  *last_ns = last;
  return TRUE;
}
