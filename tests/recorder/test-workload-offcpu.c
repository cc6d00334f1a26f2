/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-workload-offcpu.c: sp-work-offcpu's own report makes sense.
 *
 * The off-CPU tests (issue 13) will compare a recording's per-thread
 * off-CPU and wall time with the clocks the workload prints, so those
 * clocks must first be right: every thread reported once, wall time about
 * the run's length, CPU time never more than wall time, and the blocked
 * threads mostly off the CPU. The bounds allow for a loaded machine (two
 * cores shared by other tests): the spinner may get far less than a whole
 * core, but always far more than a thread that sleeps. No perf needed. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECONDS 1.0

static const char *const names[] = {
  "off-spin", "off-sleep", "off-pipe", "off-feeder", "off-lock", "off-holder",
};
#define N_THREADS G_N_ELEMENTS (names)

typedef struct {
  gboolean seen;
  int      tid;
  double   cpu_s;
  double   wall_s;
} ThreadClocks;

static int
name_index (const char *name)
{
  for (guint i = 0; i < N_THREADS; i++)
    if (strcmp (names[i], name) == 0)
      return (int) i;
  return -1;
}

/* Parses "SP-THREAD name=N tid=T cpu_s=C wall_s=W" into clocks[N]. */
static void
parse_thread_line (const char *line,
                   ThreadClocks *clocks)
{
  char name[32];
  ThreadClocks one = { TRUE, 0, 0, 0 };
  int index;

  g_assert_cmpint (sscanf (line, "SP-THREAD name=%31s tid=%d cpu_s=%lf wall_s=%lf",
                           name, &one.tid, &one.cpu_s, &one.wall_s), ==, 4);
  index = name_index (name);
  g_assert_cmpint (index, >=, 0);
  g_assert_false (clocks[index].seen);
  clocks[index] = one;
}

static void
run_workload (ThreadClocks *clocks,
              gboolean *saw_work_line)
{
  const char *workload = g_getenv ("SP_WORK_OFFCPU");
  g_autofree char *seconds = g_strdup_printf ("%g", SECONDS);
  const char *argv[] = { workload, seconds, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  int status;

  g_assert_nonnull (workload);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "SP-THREAD "))
      parse_thread_line (lines[i], clocks);
    else if (g_str_has_prefix (lines[i], "SP-WORK offcpu threads=6 "))
      *saw_work_line = TRUE;
}

static void
test_clocks (void)
{
  ThreadClocks clocks[N_THREADS] = { 0 };
  gboolean saw_work_line = FALSE;
  double spin_share, sleep_share;

  run_workload (clocks, &saw_work_line);
  g_assert_true (saw_work_line);
  for (guint i = 0; i < N_THREADS; i++)
    {
      g_test_message ("%s: tid %d, cpu %.3f s, wall %.3f s", names[i], clocks[i].tid,
                      clocks[i].cpu_s, clocks[i].wall_s);
      g_assert_true (clocks[i].seen);
      g_assert_cmpint (clocks[i].tid, >, 0);
      for (guint j = 0; j < i; j++)
        g_assert_cmpint (clocks[i].tid, !=, clocks[j].tid);
      /* Each runs until the same deadline; the pipe reader and feeder may
       * overrun it by a feeding period or so. */
      g_assert_cmpfloat (clocks[i].wall_s, >=, SECONDS * 0.9);
      g_assert_cmpfloat (clocks[i].wall_s, <=, SECONDS + 0.5);
      g_assert_cmpfloat (clocks[i].cpu_s, >=, 0);
      g_assert_cmpfloat (clocks[i].cpu_s, <=, clocks[i].wall_s + 0.01);
    }

  /* The blocked threads are mostly off the CPU... */
  for (guint i = 1; i < N_THREADS - 1; i++)
    g_assert_cmpfloat (clocks[i].cpu_s, <, clocks[i].wall_s * 0.5);
  sleep_share = clocks[1].cpu_s / clocks[1].wall_s;
  g_assert_cmpfloat (sleep_share, <, 0.1);
  g_assert_cmpfloat (clocks[2].cpu_s / clocks[2].wall_s, <, 0.1);
  g_assert_cmpfloat (clocks[3].cpu_s / clocks[3].wall_s, <, 0.1);
  g_assert_cmpfloat (clocks[4].cpu_s / clocks[4].wall_s, <, 0.1);
  /* ...and the spinners on it whenever the machine lets them. */
  spin_share = clocks[0].cpu_s / clocks[0].wall_s;
  g_assert_cmpfloat (clocks[0].cpu_s, >, 0.05);
  g_assert_cmpfloat (spin_share, >, sleep_share * 10);
  g_assert_cmpfloat (clocks[5].cpu_s, >, clocks[4].cpu_s);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/workload-offcpu/clocks", test_clocks);
  return g_test_run ();
}
