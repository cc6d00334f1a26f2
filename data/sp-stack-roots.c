/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-stack-roots.c: the outer ends of the stacks, judged (see the header). */
#include "sp-stack-roots.h"

#include <string.h>

#include "sp-spool-reader.h"

gboolean
sp_stack_roots_is_thread_root (const char *name)
{
  static const char *const roots[] = {
    "_start", "__libc_start_main", "__libc_start_call_main",
    "start_thread", "clone3", "clone", "__clone", "__clone3",
    "runtime.goexit", "runtime.mstart", "runtime.clone", "runtime.rt0_go",
  };
  gsize len = strlen (name);

  /* Go names its assembly functions' ABI0 entry points "NAME.abi0". */
  if (g_str_has_suffix (name, ".abi0"))
    len -= strlen (".abi0");
  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    if (strlen (roots[i]) == len && strncmp (name, roots[i], len) == 0)
      return TRUE;
  return FALSE;
}

/* The real (outermost, not inlined) function of a frame. */
static const char *
frame_function (SpProfile *profile,
                guint32 frame_id,
                gint32 pid,
                gboolean is_leaf)
{
  const guint32 *ids;
  guint n = sp_profile_get_frame_functions (profile, frame_id, pid, is_leaf, &ids);

  return n > 0 ? sp_profile_get_function (profile, ids[n - 1])->name : "";
}

typedef enum {
  VERDICT_UNKNOWN,
  VERDICT_ROOTED,
  VERDICT_BROKEN,
  VERDICT_KERNEL_ONLY,
} Verdict;

/* The verdict on a stack from its outermost node and the one after it
 * (SP_SPOOL_NO_ID for a stack of one frame). */
static Verdict
judge (SpProfile *profile,
       gint32 pid,
       guint32 stack_id,
       guint32 outer,
       guint32 second)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  const SpFrame *outer_frame = &frames[nodes[outer].frame_id];
  gboolean outer_exact;

  if (outer_frame->mode == SP_FRAME_KERNEL)
    return VERDICT_KERNEL_ONLY;
  if (outer_frame->mode != SP_FRAME_USER)
    return VERDICT_BROKEN;
  /* The outermost frame is exact as the leaf, or under a kernel frame. */
  outer_exact = sp_profile_frame_is_exact (profile, second != SP_SPOOL_NO_ID ? nodes[second].frame_id : SP_SPOOL_NO_ID,
                                           nodes[outer].frame_id);
  if (sp_stack_roots_is_thread_root (frame_function (profile, nodes[outer].frame_id, pid, outer_exact)))
    return VERDICT_ROOTED;
  if (second != SP_SPOOL_NO_ID && frames[nodes[second].frame_id].mode == SP_FRAME_USER)
    {
      const char *callee = frame_function (profile, nodes[second].frame_id, pid, stack_id == second);

      /* What the entry calls: then the outermost frame is the entry. */
      if (g_str_equal (callee, "__libc_start_main") || g_str_equal (callee, "_dl_start"))
        return VERDICT_ROOTED;
    }
  return VERDICT_BROKEN;
}

/* For every node, its stack's outermost node and the one after it. Nodes
 * come after their prefix, so one forward pass sees every prefix first. */
static void
find_outer_nodes (const SpSpoolReader *reader,
                  guint32 *outer,
                  guint32 *second)
{
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  gsize n = sp_spool_reader_get_n_stack_nodes (reader);

  for (gsize i = 0; i < n; i++)
    {
      guint32 prefix = nodes[i].prefix;

      if (prefix == SP_SPOOL_NO_ID)
        {
          outer[i] = (guint32) i;
          second[i] = SP_SPOOL_NO_ID;
        }
      else if (nodes[prefix].prefix == SP_SPOOL_NO_ID)
        {
          outer[i] = prefix;
          second[i] = (guint32) i;
        }
      else
        {
          outer[i] = outer[prefix];
          second[i] = second[prefix];
        }
    }
}

/* Verdicts kept per pair of outer nodes, at the second one (or the
 * outermost, for stacks of one frame): the second names its outer. A
 * frame without a module may resolve differently in another process
 * (SPOOL-FORMAT.md), and the second frame is read exactly when it is the
 * leaf: a pair is judged per process and leafness, the first of them in
 * an array, any other in a table. */
typedef struct {
  guint8     *verdict;     /* per node: VERDICT_UNKNOWN until judged */
  gint32     *pid;
  guint8     *leaf;
  GHashTable *others;      /* (key << 33 | leaf << 32 | pid) -> verdict */
} Verdicts;

static Verdict
verdict_of (SpProfile *profile,
            Verdicts *verdicts,
            guint32 stack,
            gint32 pid,
            const guint32 *outer,
            const guint32 *second)
{
  guint32 key = second[stack] != SP_SPOOL_NO_ID ? second[stack] : outer[stack];
  guint8 leaf = stack == second[stack];
  guint64 other;
  gpointer found;
  Verdict verdict;

  if (verdicts->verdict[key] == VERDICT_UNKNOWN)
    {
      verdicts->verdict[key] = (guint8) judge (profile, pid, stack, outer[stack], second[stack]);
      verdicts->pid[key] = pid;
      verdicts->leaf[key] = leaf;
    }
  if (verdicts->pid[key] == pid && verdicts->leaf[key] == leaf)
    return verdicts->verdict[key];
  other = (guint64) key << 33 | (guint64) leaf << 32 | (guint32) pid;
  if (g_hash_table_lookup_extended (verdicts->others, &other, NULL, &found))
    return GPOINTER_TO_UINT (found);
  verdict = judge (profile, pid, stack, outer[stack], second[stack]);
  g_hash_table_insert (verdicts->others, g_memdup2 (&other, sizeof other), GUINT_TO_POINTER (verdict));
  return verdict;
}

void
sp_stack_roots_count (SpProfile *profile,
                      const SpStackCounts *counts,
                      SpStackRoots *roots)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  gsize n_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  g_autofree guint32 *outer = g_new (guint32, MAX (n_nodes, 1));
  g_autofree guint32 *second = g_new (guint32, MAX (n_nodes, 1));
  g_autofree guint8 *verdict = g_new0 (guint8, MAX (n_nodes, 1));
  g_autofree gint32 *pid = g_new (gint32, MAX (n_nodes, 1));
  g_autofree guint8 *leaf = g_new (guint8, MAX (n_nodes, 1));
  g_autoptr (GHashTable) others = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  Verdicts verdicts = { verdict, pid, leaf, others };

  memset (roots, 0, sizeof *roots);
  find_outer_nodes (reader, outer, second);
  for (guint i = 0; i < counts->stacks->len; i++)
    {
      const SpStackCount *c = &g_array_index (counts->stacks, SpStackCount, i);
      Verdict v;

      if (c->stack >= n_nodes)
        continue;
      v = verdict_of (profile, &verdicts, c->stack, c->pid, outer, second);
      if (v == VERDICT_KERNEL_ONLY)
        continue;
      roots->n_stacks += c->count;
      roots->n_rooted += v == VERDICT_ROOTED ? c->count : 0;
    }
}

double
sp_stack_roots_rooted_percent (const SpStackRoots *roots)
{
  return roots->n_stacks > 0 ? 100.0 * (double) roots->n_rooted / (double) roots->n_stacks : 0.0;
}

double
sp_stack_roots_broken_percent (const SpStackRoots *roots)
{
  return roots->n_stacks > 0 ? 100.0 * (double) (roots->n_stacks - roots->n_rooted) / (double) roots->n_stacks : 0.0;
}
