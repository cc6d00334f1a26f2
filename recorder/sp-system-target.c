/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-system-target.c: CPUs and processes of the whole machine, from /sys
 * and /proc. */
#include "sp-system-target.h"

#include "sp-target.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* include/linux/sched.h: the task is a kernel thread. */
#define PF_KTHREAD 0x00200000u

size_t
sp_system_online_cpus (int *cpus,
                       size_t max)
{
  char text[1024];
  size_t n = 0;
  char *p = text;

  if (sp_proc_read_file ("/sys/devices/system/cpu/online", text, sizeof text) <= 0)
    return 0;
  while (*p >= '0' && *p <= '9')
    {
      long first = strtol (p, &p, 10);
      long last = first;

      if (*p == '-')
        last = strtol (p + 1, &p, 10);
      for (long cpu = first; cpu <= last && n < max; cpu++)
        cpus[n++] = (int) cpu;
      if (*p != ',')
        break;
      p++;
    }
  return n;
}

size_t
sp_system_foreach_process (SpSystemProcessFunc func,
                           void *user_data)
{
  DIR *dir = opendir ("/proc");
  struct dirent *entry;
  size_t count = 0;

  if (dir == NULL)
    return 0;
  while ((entry = readdir (dir)) != NULL)
    {
      char *end;
      long pid = strtol (entry->d_name, &end, 10);

      if (pid <= 0 || *end != '\0')
        continue;
      func ((pid_t) pid, user_data);
      count++;
    }
  closedir (dir);
  return count;
}

/* "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": flags is
 * the sixth field after the last ')' (a comm may hold one). */
bool
sp_system_is_kernel_thread (pid_t pid)
{
  char path[64];
  char stat[1024];
  const char *paren;
  unsigned long flags = 0;

  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  if (sp_proc_read_file (path, stat, sizeof stat) <= 0 || (paren = strrchr (stat, ')')) == NULL)
    return false;
  if (sscanf (paren + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
    return false;
  return (flags & PF_KTHREAD) != 0;
}

bool
sp_system_thread_name (pid_t pid,
                       pid_t tid,
                       char *out,
                       size_t size)
{
  char path[64];

  snprintf (path, sizeof path, "/proc/%d/task/%d/comm", (int) pid, (int) tid);
  if (sp_proc_read_file (path, out, size) <= 0)
    return false;
  out[strcspn (out, "\n")] = '\0';
  return true;
}

bool
sp_system_command_line (pid_t pid,
                        char *out,
                        size_t size)
{
  char path[64];
  ssize_t n;

  snprintf (path, sizeof path, "/proc/%d/cmdline", (int) pid);
  n = sp_proc_read_file (path, out, size);
  if (n <= 0)
    return false;
  /* The arguments end in NULs: spaces between them, none at the end. */
  while (n > 0 && out[n - 1] == '\0')
    n--;
  for (ssize_t i = 0; i < n; i++)
    if (out[i] == '\0')
      out[i] = ' ';
  out[n] = '\0';
  return n > 0;
}
