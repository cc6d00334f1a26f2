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

void
sp_stack_roots_count (SpProfile *profile,
                      SpStackRoots *roots)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  gsize n_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  gsize n_samples = sp_spool_reader_get_n_samples (reader);
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  g_autofree guint32 *outer = g_new (guint32, MAX (n_nodes, 1));
  g_autofree guint32 *second = g_new (guint32, MAX (n_nodes, 1));
  /* One verdict per pair of outer nodes, kept at the second one (or the
   * outermost, for stacks of one frame): the second names its outer. A
   * frame without a module may resolve differently in another process
   * (SPOOL-FORMAT.md); the first sample's process judges it. */
  g_autofree guint8 *verdicts = g_new0 (guint8, MAX (n_nodes, 1));

  memset (roots, 0, sizeof *roots);
  find_outer_nodes (reader, outer, second);
  for (gsize i = 0; i < n_samples; i++)
    {
      guint32 stack = stacks[i];
      guint32 key;

      if (stack == SP_SPOOL_NO_ID || stack >= n_nodes)
        continue;
      key = second[stack] != SP_SPOOL_NO_ID ? second[stack] : outer[stack];
      if (verdicts[key] == VERDICT_UNKNOWN)
        {
          SpSample sample;

          sp_spool_reader_get_sample (reader, i, &sample);
          verdicts[key] = judge (profile, threads[sample.thread].pid, stack, outer[stack], second[stack]);
        }
      if (verdicts[key] == VERDICT_KERNEL_ONLY)
        continue;
      roots->n_stacks++;
      roots->n_rooted += verdicts[key] == VERDICT_ROOTED;
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
