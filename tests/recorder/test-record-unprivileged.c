/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-unprivileged.c: stackpulse-record as an ordinary user.
 *
 * Run as nobody (setpriv --reuid=65534 --regid=65534 --clear-groups when
 * the test runs as root, as in CI), the recorder must either record user
 * stacks of its own child, with kernel stacks left out and a warning, or
 * explain why it cannot (kernel.perf_event_paranoid). With paranoid 2 or
 * less, sampling one's own children is allowed, so it must record. The
 * recorder and the workload are copied into the test's folder, which
 * nobody can reach, whatever the build folder's permissions.
 *
 * Under pkexec (env -i with PKEXEC_UID stands in for it: root, a clean
 * environment) the recorder samples as root but runs the command as the
 * user who asked, and writes that user's files. */
#include <glib.h>
#include <glib/gstdio.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record-run.h"
#include "record-stacks.h"

#define NOBODY "65534"

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
  g_autofree char *recorder = sp_test_copy_program (sp_test_recorder (), dir);
  g_autofree char *built_workload = sp_test_workload ("threads");
  g_autofree char *workload = sp_test_copy_program (built_workload, dir);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *const record[] = { recorder, "-o", "out.spool", "-F", "1000", "--", workload, "0.4", NULL };
  g_autoptr (SpTestRecording) rec = NULL;
  SpChildResult *result;
  int paranoid = sp_test_perf_event_paranoid ();

  /* nobody writes the spool here; the captured output is ours. */
  g_assert_cmpint (g_chmod (dir, 0777), ==, 0);
  if (getuid () == 0)
    sp_test_add_as_nobody (argv);
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

/* A file the command wrote, without its last newline. */
static char *
read_trimmed (const char *dir,
              const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return g_strchomp (text);
}

/* What `id -G` prints for a user who logged in: the groups initgroups
 * gives, primary first. */
static char *
login_groups (const struct passwd *pw)
{
  gid_t groups[256];
  int n = G_N_ELEMENTS (groups);
  GString *text = g_string_new (NULL);

  g_assert_cmpint (getgrouplist (pw->pw_name, pw->pw_gid, groups, &n), >=, 0);
  g_string_append_printf (text, "%u", (unsigned) pw->pw_gid);
  for (int i = 0; i < n; i++)
    if (groups[i] != pw->pw_gid)
      g_string_append_printf (text, " %u", (unsigned) groups[i]);
  return g_string_free (text, FALSE);
}

static void
assert_owner (const char *path,
              uid_t uid,
              gid_t gid)
{
  struct stat st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_uid, ==, uid);
  g_assert_cmpuint (st.st_gid, ==, gid);
}

/* Records sh -c "id -u > uid; id -G > groups; env > env; exec WORKLOAD"
 * in a folder anyone may write, under env -i with pkexec_uid (NULL: none)
 * as PKEXEC_UID (and sudo's variables beside it). */
static SpTestRecording *
record_identity (const char *pkexec_uid)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *built_workload = sp_test_workload ("threads");
  g_autofree char *workload = sp_test_copy_program (built_workload, dir);
  g_autofree char *script = g_strdup_printf ("id -u > uid; id -G > groups; env > env; exec '%s' 0.4", workload);
  g_autofree char *uid_setting = g_strdup_printf ("PKEXEC_UID=%s", pkexec_uid);
  const char *const clean_root[] = {
    "/usr/bin/env", "-i", "HOME=/root", "USER=root", "LOGNAME=root", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL,
  };
  const char *const record[] = {
    sp_test_recorder (), "-o", "out.spool", "--env", "SP_MARK=kept", "--", "/bin/sh", "-c", script, NULL,
  };
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  SpChildResult *result;

  for (const char *const *arg = clean_root; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  if (pkexec_uid != NULL)
    {
      /* What sudo would have set too: none of it is the command's. */
      g_ptr_array_add (argv, uid_setting);
      g_ptr_array_add (argv, "SUDO_UID=65534");
      g_ptr_array_add (argv, "SUDO_GID=65534");
      g_ptr_array_add (argv, "SUDO_USER=nobody");
      g_ptr_array_add (argv, "SUDO_COMMAND=/bin/sh");
    }
  for (const char *const *arg = record; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (g_chmod (dir, 0777), ==, 0);
  result = sp_test_run (dir, "record", (const char *const *) argv->pdata);
  g_test_message ("PKEXEC_UID=%s: exit status %d; stderr:\n%s", pkexec_uid, result->exit_code, result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  return sp_test_recording_new (g_steal_pointer (&dir), result);
}

/* Before, the command ran as root, and so did whatever it started. */
static void
test_pkexec_runs_command_as_user (void)
{
  struct passwd *pw = getpwuid (65534);
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *uid = NULL;
  g_autofree char *groups = NULL;
  g_autofree char *expected_groups = NULL;
  g_autofree char *env_lines = NULL;
  g_autofree char *env = NULL;
  g_autofree char *home = NULL;
  g_autofree char *user = NULL;
  g_autoptr (GPtrArray) reports = NULL;
  const SpThreadReport *alpha;

  if (getuid () != 0 || pw == NULL)
    {
      g_test_skip ("needs root and a user 65534");
      return;
    }
  expected_groups = login_groups (pw);
  home = g_strdup_printf ("\nHOME=%s\n", pw->pw_dir);
  user = g_strdup_printf ("\nUSER=%s\n", pw->pw_name);
  rec = record_identity (NOBODY);
  uid = read_trimmed (rec->dir, "uid");
  groups = read_trimmed (rec->dir, "groups");
  env_lines = read_trimmed (rec->dir, "env");
  env = g_strconcat ("\n", env_lines, "\n", NULL);
  g_test_message ("id -u: %s; id -G: %s; env:%s", uid, groups, env);
  g_assert_cmpstr (uid, ==, NOBODY);
  g_assert_cmpstr (groups, ==, expected_groups);
  g_assert_nonnull (strstr (env, home));
  g_assert_nonnull (strstr (env, user));
  g_assert_nonnull (strstr (env, "\nSP_MARK=kept\n"));
  g_assert_null (strstr (env, "=root\n"));
  /* Root's variables stay root's, and so does its PATH. */
  g_assert_null (strstr (env, "\nPKEXEC_UID="));
  g_assert_null (strstr (env, "\nSUDO_"));
  g_assert_nonnull (strstr (env, "\nPATH=/usr/local/bin:/usr/bin:/bin\n"));

  /* Sampled with root's rights: kernel stacks, which nobody alone may
   * not have (perf_event_paranoid 2). */
  sp_test_recording_load (rec);
  g_assert_true (sp_test_has_kernel_frames (rec->reader));
  sp_test_assert_meta_string (rec, "recording", "kernel_stacks", "true");
  reports = sp_test_parse_thread_reports (rec->result->out);
  alpha = sp_test_find_report (reports, "sp-alpha", -1);
  /* A recorder starved of CPU (the sanitizer build beside a fuzzer) says
   * what it missed; those may be the thread's. */
  sp_test_assert_plausible_samples_missed (alpha, sp_test_count_samples (rec->reader, alpha->pid,
                                                                         (guint64) alpha->tid), 1000,
                                           g_key_file_get_uint64 (rec->meta, "recording", "lost_samples", NULL)
                                           + g_key_file_get_uint64 (rec->meta, "recording", "dropped_samples", NULL));
  /* The user's files, not root's. */
  assert_owner (rec->spool, pw->pw_uid, pw->pw_gid);
  assert_owner (rec->meta_path, pw->pw_uid, pw->pw_gid);
}

/* Root without pkexec or sudo stays root. */
static void
test_root_stays_root (void)
{
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *uid = NULL;

  if (getuid () != 0)
    {
      g_test_skip ("needs root");
      return;
    }
  rec = record_identity (NULL);
  uid = read_trimmed (rec->dir, "uid");
  g_assert_cmpstr (uid, ==, "0");
  assert_owner (rec->spool, 0, 0);
}

/* A PKEXEC_UID no user has: no group to run as, so no run at all. */
static void
test_pkexec_unknown_user (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *marker = g_build_filename (dir, "ran", NULL);
  g_autofree char *touch = g_strdup_printf ("touch '%s'", marker);
  const char *const argv[] = { "/usr/bin/env", "PKEXEC_UID=3999999999", sp_test_recorder (), "-o", "out.spool",
                               "--", "/bin/sh", "-c", touch, NULL };
  g_autoptr (SpChildResult) result = NULL;

  if (getuid () != 0 || getpwuid (3999999999u) != NULL)
    {
      g_test_skip ("needs root, and no user 3999999999");
      sp_test_remove_dir (dir);
      return;
    }
  result = sp_test_run (dir, "record", argv);
  g_test_message ("exit status %d; stderr:\n%s", result->exit_code, result->err);
  g_assert_cmpint (result->exit_code, ==, 125);
  g_assert_nonnull (strstr (result->err, "PKEXEC_UID=3999999999"));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  sp_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;

  g_test_add_func ("/recorder/unprivileged/user-stacks", test_user_stacks);
  g_test_add_func ("/recorder/unprivileged/pkexec-runs-command-as-user", test_pkexec_runs_command_as_user);
  g_test_add_func ("/recorder/unprivileged/root-stays-root", test_root_stays_root);
  g_test_add_func ("/recorder/unprivileged/pkexec-unknown-user", test_pkexec_unknown_user);
  return g_test_run ();
}
