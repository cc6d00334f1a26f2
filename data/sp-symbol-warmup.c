/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbol-warmup.c: a recording's modules read on a second thread while
 * the first reads the spool.
 *
 * Opening a recording whose symbols are not in the cache is two long
 * steps one after the other: reading the spool, then resolving its frames
 * (ELF symbol tables, and DWARF: decompressing and indexing the units
 * that hold the addresses). The frames a recording uses are nearly all in
 * the first part of its spool, so the second step can start from there,
 * on the other CPU. The symbolizer is the warm-up's until it is joined:
 * it is one thread's at a time, and the profile joins before it uses it. */
#include "sp-symbol-warmup.h"

#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The warm-up thread's nice value (Linux: per thread). */
#define WARMUP_NICE 10

typedef struct {
  guint    module;  /* into modules */
  guint64  rel_ip;
  gboolean exact;   /* read exact, else as a return address */
  guint32  weight;  /* samples that read it so */
} WarmFrame;

struct _SpSymbolWarmup
{
  GThread      *thread;
  SpSymbolizer *symbolizer;
  GArray       *modules;   /* SpModule, copies with their own paths */
  GArray       *frames;    /* WarmFrame */
  gint          cancelled;
};

/* Modules the symbolizer reads files of (sp-profile.c's resolve_frame
 * sends the others elsewhere: the kernel's symbols, JIT maps). */
static gboolean
has_module_file (const SpModule *module)
{
  return !module->is_kernel && module->path_len > 0 && module->path[0] != '[' && !g_str_has_prefix (module->path, "//anon")
         && !g_str_has_prefix (module->path, "/memfd:") && !g_str_has_prefix (module->path, "/dev/zero");
}

/* Only the frames that at least this share of the samples read so far
 * read the same way are warmed up, busiest first: the reports need those
 * (a tree hides nodes under 0.5%). And only the frames of modules the
 * symbol cache has no file for: a module resolved before has in the cache
 * the frames its reports needed, and the ones it misses are mostly frames
 * no report shows. Reading their DWARF would be work for nothing, which
 * the profile, taking the symbolizer back between two frames, may wait
 * for the end of (the first frame of a module's DWARF takes tens of ms:
 * with every busy frame of the deep benchmark's spool, a warm report took
 * 85 ms instead of 52). A module is thus read ahead on the first open of
 * the first recording that uses it. */
#define BUSY_SHARE 0.001

static gpointer
warm_up (gpointer data)
{
  SpSymbolWarmup *self = data;
  SpSymbolFrame symbols[SP_SYMBOL_WARMUP_MAX_INLINE];
  g_autofree gint8 *cold = g_new0 (gint8, MAX (self->modules->len, 1));

  /* Ahead of need, so behind whatever else runs: in the window, its main
   * thread drawing and the worker reading the spool come first. */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), WARMUP_NICE);

  for (guint i = 0; i < self->frames->len && !g_atomic_int_get (&self->cancelled); i++)
    {
      const WarmFrame *frame = &g_array_index (self->frames, WarmFrame, i);
      const SpModule *module = &g_array_index (self->modules, SpModule, frame->module);

      if (cold[frame->module] == 0)
        cold[frame->module] = sp_symbolizer_module_is_cached (self->symbolizer, module) ? -1 : 1;
      if (cold[frame->module] > 0)
        sp_symbolizer_resolve (self->symbolizer, module, frame->rel_ip, !frame->exact, symbols, G_N_ELEMENTS (symbols));
    }
  return NULL;
}

static gint
compare_weight_desc (gconstpointer a,
                     gconstpointer b)
{
  const WarmFrame *x = a;
  const WarmFrame *y = b;

  return x->weight > y->weight ? -1 : x->weight < y->weight;
}

/* How many samples read each frame exact (weights[2 f + 1]: the leaf, and
 * a user frame right under a kernel one) and as a return address
 * (weights[2 f]), as sp-call-tree.c reads them; a frame twice in a stack
 * counts twice. The samples are counted per stack node, then summed from
 * the leaves up (a node comes after its caller's). */
static guint32 *
frame_weights (const SpSpoolReader *reader)
{
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  gsize n_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  gsize n_samples = sp_spool_reader_get_n_samples (reader);
  g_autofree guint32 *under = g_new0 (guint32, MAX (n_nodes, 1));
  guint32 *weights = g_new0 (guint32, 2 * MAX (sp_spool_reader_get_n_frames (reader), 1));

  for (gsize i = 0; i < n_samples; i++)
    if (stacks[i] < n_nodes)
      under[stacks[i]]++;
  /* Before the sums: each node's own samples read it exact. */
  for (gsize n = 0; n < n_nodes; n++)
    weights[2 * nodes[n].frame_id + 1] += under[n];
  for (gsize n = n_nodes; n-- > 0;)
    {
      guint32 prefix = nodes[n].prefix;
      gboolean exact;

      if (prefix == SP_SPOOL_NO_ID)
        continue;
      exact = frames[nodes[n].frame_id].mode == SP_FRAME_KERNEL && frames[nodes[prefix].frame_id].mode == SP_FRAME_USER;
      weights[2 * nodes[prefix].frame_id + (exact ? 1 : 0)] += under[n];
      under[prefix] += under[n];
    }
  return weights;
}

SpSymbolWarmup *
sp_symbol_warmup_start (SpSymbolizer *symbolizer,
                        const SpSpoolReader *reader)
{
  const SpModule *modules = sp_spool_reader_get_modules (reader);
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  gsize n_modules = sp_spool_reader_get_n_modules (reader);
  g_autofree guint *copy_of = g_new (guint, MAX (n_modules, 1));
  g_autofree guint32 *weights = frame_weights (reader);
  guint32 busy = (guint32) MAX (BUSY_SHARE * (double) sp_spool_reader_get_n_samples (reader), 1);
  SpSymbolWarmup *self = g_new0 (SpSymbolWarmup, 1);

  self->symbolizer = symbolizer;
  self->modules = g_array_new (FALSE, FALSE, sizeof (SpModule));
  self->frames = g_array_new (FALSE, FALSE, sizeof (WarmFrame));
  for (gsize m = 0; m < n_modules; m++)
    {
      SpModule module = modules[m];

      copy_of[m] = G_MAXUINT;
      if (module.path == NULL || !has_module_file (&module))
        continue;
      module.path = g_strndup (module.path, module.path_len);
      copy_of[m] = self->modules->len;
      g_array_append_val (self->modules, module);
    }
  for (gsize f = 0; f < sp_spool_reader_get_n_frames (reader); f++)
    for (guint exact = 0; exact < 2; exact++)
      {
        WarmFrame frame = { G_MAXUINT, frames[f].rel_ip, exact, weights[2 * f + exact] };

        if (frames[f].mode == SP_FRAME_USER && frames[f].module_id < n_modules && frame.weight >= busy)
          frame.module = copy_of[frames[f].module_id];
        if (frame.module != G_MAXUINT)
          g_array_append_val (self->frames, frame);
      }
  g_array_sort (self->frames, compare_weight_desc);
  if (self->frames->len > 0)
    self->thread = g_thread_new ("sp-symbol-warmup", warm_up, self);
  return self;
}

void
sp_symbol_warmup_join (SpSymbolWarmup *self,
                       gboolean cancel)
{
  if (self == NULL)
    return;
  if (cancel)
    g_atomic_int_set (&self->cancelled, 1);
  if (self->thread != NULL)
    g_thread_join (self->thread);
  for (guint i = 0; i < self->modules->len; i++)
    g_free ((char *) g_array_index (self->modules, SpModule, i).path);
  g_array_unref (self->modules);
  g_array_unref (self->frames);
  g_free (self);
}

void
sp_symbol_warmup_finish (SpSymbolWarmup *self)
{
  sp_symbol_warmup_join (self, FALSE);
}
