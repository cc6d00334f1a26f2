/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-target.c: fork/hold/exec, and reading /proc. */
#include "sp-target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child's last word before _exit when a step failed. */
static void __attribute__ ((noreturn))
child_failed (int error_fd,
              SpLaunchStep step,
              int err)
{
  int report[2] = { (int) step, err };

  (void) !write (error_fd, report, sizeof report);
  _exit (127);
}

/* In the child between fork and exec: only async-signal-safe calls. */
static void __attribute__ ((noreturn))
run_child (char *const argv[],
           const char *directory,
           const SpInvoker *invoker,
           int go_fd,
           int error_fd,
           bool stdin_null)
{
  sigset_t none;
  char byte;
  ssize_t n;
  int err;

  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  signal (SIGPIPE, SIG_DFL);

  /* Wait until the recorder says go; EOF means it gave up. */
  do
    n = read (go_fd, &byte, 1);
  while (n < 0 && errno == EINTR);
  if (n != 1)
    _exit (127);
  close (go_fd);
  if (stdin_null)
    {
      int fd = open ("/dev/null", O_RDONLY);

      if (fd >= 0)
        {
          dup2 (fd, STDIN_FILENO);
          close (fd);
        }
    }
  /* The user's rights before the folder: a folder the user may not
   * enter is refused as it would be without the recorder. */
  if (invoker != NULL && (err = sp_invoker_become (invoker)) != 0)
    child_failed (error_fd, SP_LAUNCH_STEP_USER, err);
  if (directory != NULL && chdir (directory) != 0)
    child_failed (error_fd, SP_LAUNCH_STEP_DIRECTORY, errno);
  execvp (argv[0], argv);
  child_failed (error_fd, SP_LAUNCH_STEP_EXEC, errno);
}

bool
sp_launch_prepare (SpLaunch *launch,
                   char *const argv[],
                   const char *directory,
                   const SpInvoker *invoker,
                   bool stdin_null,
                   char *message,
                   size_t size)
{
  int go[2];
  int error[2];

  if (pipe2 (go, O_CLOEXEC) != 0 || pipe2 (error, O_CLOEXEC) != 0)
    {
      snprintf (message, size, "cannot create a pipe: %s", strerror (errno));
      return false;
    }
  launch->pid = fork ();
  if (launch->pid < 0)
    {
      snprintf (message, size, "cannot fork: %s", strerror (errno));
      return false;
    }
  if (launch->pid == 0)
    {
      close (go[1]);
      close (error[0]);
      run_child (argv, directory, invoker, go[0], error[1], stdin_null);
    }
  close (go[0]);
  close (error[1]);
  launch->go_fd = go[1];
  launch->error_fd = error[0];
  return true;
}

bool
sp_launch_release (SpLaunch *launch,
                   SpLaunchStep *failed_step,
                   int *failed_errno)
{
  char go = 'g';
  int report[2] = { 0, 0 };
  ssize_t n;

  (void) !write (launch->go_fd, &go, 1);
  close (launch->go_fd);
  launch->go_fd = -1;
  /* EOF: exec closed the pipe (CLOEXEC), so it worked. */
  do
    n = read (launch->error_fd, report, sizeof report);
  while (n < 0 && errno == EINTR);
  close (launch->error_fd);
  launch->error_fd = -1;
  if (n == (ssize_t) sizeof report)
    {
      *failed_step = (SpLaunchStep) report[0];
      *failed_errno = report[1];
      waitpid (launch->pid, NULL, 0);
      return false;
    }
  return true;
}

void
sp_launch_abort (SpLaunch *launch)
{
  if (launch->go_fd >= 0)
    close (launch->go_fd);
  if (launch->error_fd >= 0)
    close (launch->error_fd);
  kill (launch->pid, SIGKILL);
  waitpid (launch->pid, NULL, 0);
}

ssize_t
sp_proc_read_file (const char *path,
                   char *buffer,
                   size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t n;

  if (fd < 0)
    return -1;
  n = read (fd, buffer, size - 1);
  close (fd);
  if (n >= 0)
    buffer[n] = '\0';
  return n;
}

/* Its first line. */
static bool
read_small_file (const char *path,
                 char *buffer,
                 size_t size)
{
  if (sp_proc_read_file (path, buffer, size) < 0)
    return false;
  buffer[strcspn (buffer, "\n")] = '\0';
  return true;
}

size_t
sp_proc_foreach_task (pid_t pid,
                      SpTaskFunc func,
                      void *user_data)
{
  char path[64];
  DIR *dir;
  struct dirent *entry;
  size_t count = 0;

  snprintf (path, sizeof path, "/proc/%d/task", (int) pid);
  dir = opendir (path);
  if (dir == NULL)
    return 0;
  while ((entry = readdir (dir)) != NULL)
    {
      char comm_path[128];
      char name[64] = "";
      pid_t tid = (pid_t) strtol (entry->d_name, NULL, 10);

      if (tid <= 0)
        continue;
      snprintf (comm_path, sizeof comm_path, "/proc/%d/task/%d/comm", (int) pid, (int) tid);
      read_small_file (comm_path, name, sizeof name);
      func (pid, tid, name, user_data);
      count++;
    }
  closedir (dir);
  return count;
}

/* "start-end perms offset dev inode   path" */
bool
sp_proc_foreach_mapping (pid_t pid,
                         SpMappingFunc func,
                         void *user_data)
{
  char path[64];
  FILE *maps;
  char *line = NULL;
  size_t line_size = 0;

  snprintf (path, sizeof path, "/proc/%d/maps", (int) pid);
  maps = fopen (path, "re");
  if (maps == NULL)
    return false;
  while (getline (&line, &line_size, maps) > 0)
    {
      uint64_t start, end, offset, inode;
      char perms[8];
      int name_at = 0;
      const char *name;

      if (sscanf (line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %" SCNu64 " %n",
                  &start, &end, perms, &offset, &inode, &name_at) < 5)
        continue;
      if (strchr (perms, 'x') == NULL)
        continue;
      line[strcspn (line, "\n")] = '\0';
      /* An anonymous mapping is named as perf names it in MMAP2 records. */
      name = name_at > 0 && line[name_at] != '\0' ? line + name_at : "//anon";
      func (&(SpModule) { start, end, offset, inode, name, strlen (name), (int32_t) pid, false }, user_data);
    }
  free (line);
  fclose (maps);
  return true;
}

bool
sp_proc_exists (pid_t pid)
{
  return kill (pid, 0) == 0 || errno == EPERM;
}

/* "tid (comm) S ...": the state follows the last ')' (comm may hold any). */
/* "pid (comm) S ...": the letter after the last parenthesis (a comm may
 * hold one). */
char
sp_proc_task_state (pid_t pid,
                    pid_t tid)
{
  char path[64];
  char stat[512];
  const char *paren;

  snprintf (path, sizeof path, "/proc/%d/task/%d/stat", (int) pid, (int) tid);
  if (!read_small_file (path, stat, sizeof stat) || (paren = strrchr (stat, ')')) == NULL || paren[1] != ' ')
    return '\0';
  return paren[2];
}

bool
sp_proc_task_alive (pid_t pid,
                    pid_t tid)
{
  char state = sp_proc_task_state (pid, tid);

  return state != '\0' && state != 'Z' && state != 'X';
}
