/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-unprivileged.c: stackpulse-record as an ordinary user.
 *
 * Run as nobody (setpriv --reuid=65534 --regid=65534 --clear-groups when
 * the test runs as root, as in CI), the recorder must either record user
 * stacks of its own child, with kernel stacks left out and a warning, or
 * explain why it cannot (kernel.perf_event_paranoid). With paranoid 2 or
 * less, sampling one's own children is allowed, so it must record. The
 * recorder and the workload are copied into the test's folder, which
 * nobody can reach, whatever the build folder's permissions. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "record-run.h"
#include "record-stacks.h"

#define NOBODY "65534"

static int
perf_event_paranoid (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &text, NULL, NULL))
    return 2;
  return (int) g_ascii_strtoll (text, NULL, 10);
}

/* Copies from into dir, executable by all, and returns the copy's path. */
static char *
copy_program (const char *from,
              const char *dir)
{
  g_autofree char *name = g_path_get_basename (from);
  char *to = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  g_file_get_contents (from, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, (gssize) len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (to, 0755), ==, 0);
  return to;
}

/* What a successful unprivileged recording must hold. */
static void
check_user_stacks (SpTestRecording *rec,
                   const char *workload,
                   int paranoid)
{
  g_autoptr (SpElfSymbols) workload_symbols = sp_elf_symbols_load (workload);
  SpElfSymbols *symbols[] = { workload_symbols, NULL };
  g_autoptr (GPtrArray) reports = NULL;
  const SpThreadReport *alpha;
  gsize n, with;

  sp_test_recording_load (rec);
  reports = sp_test_parse_thread_reports (rec->result->out);
  alpha = sp_test_find_report (reports, "sp-alpha", -1);
  n = sp_test_count_samples (rec->reader, alpha->pid, (guint64) alpha->tid);
  with = sp_test_count_samples_with (rec->reader, symbols, alpha->pid, (guint64) alpha->tid,
                                     "alpha_leaf;compute_alpha;worker_main");
  g_test_message ("sp-alpha: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " samples on its call path", with, n);
  sp_test_assert_plausible_samples (alpha, n, 1000);
  g_assert_cmpuint (with * 2, >=, n);
  if (paranoid >= 2)
    {
      /* Kernel sampling is refused: user stacks only, and it says so. */
      g_assert_false (sp_test_has_kernel_frames (rec->reader));
      sp_test_assert_meta_string (rec, "recording", "kernel_stacks", "false");
      g_assert_nonnull (strstr (rec->result->err, "kernel stacks are not permitted"));
    }
}

static void
test_user_stacks (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *recorder = copy_program (sp_test_recorder (), dir);
  g_autofree char *built_workload = sp_test_workload ("threads");
  g_autofree char *workload = copy_program (built_workload, dir);
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *const record[] = { recorder, "-o", "out.spool", "-F", "1000", "--", workload, "0.4", NULL };
  g_autoptr (SpTestRecording) rec = NULL;
  SpChildResult *result;
  int paranoid = perf_event_paranoid ();

  /* nobody writes the spool here; the captured output is ours. */
  g_assert_cmpint (g_chmod (dir, 0777), ==, 0);
  if (getuid () == 0)
    {
      const char *const drop[] = { "--reuid=" NOBODY, "--regid=" NOBODY, "--clear-groups", NULL };

      g_assert_nonnull (setpriv);
      g_ptr_array_add (argv, setpriv);
      for (const char *const *arg = drop; *arg != NULL; arg++)
        g_ptr_array_add (argv, (char *) *arg);
    }
  for (const char *const *arg = record; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);

  result = sp_test_run (dir, "record", (const char *const *) argv->pdata);
  rec = sp_test_recording_new (g_steal_pointer (&dir), result);
  g_test_message ("perf_event_paranoid %d; exit status %d; stderr:\n%s", paranoid,
                  rec->result->exit_code, rec->result->err);
  if (rec->result->exit_code == 0)
    check_user_stacks (rec, workload, paranoid);
  else
    {
      /* It may refuse, but must say why, and only where the kernel does. */
      g_assert_nonnull (strstr (rec->result->err, "perf_event_paranoid"));
      g_assert_cmpint (paranoid, >, 2);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;

  g_test_add_func ("/recorder/unprivileged/user-stacks", test_user_stacks);
  return g_test_run ();
}
