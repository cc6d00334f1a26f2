/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-cgroup.c: finding the perf_event cgroup hierarchy, making a cgroup
 * there for a launch, and taking it away again. */
#include "sp-cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
sp_cgroup_init (SpCgroup *cgroup)
{
  memset (cgroup, 0, sizeof *cgroup);
  cgroup->dir_fd = -1;
  cgroup->home_fd = -1;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void
unescape (char *s)
{
  char *out = s;

  for (const char *in = s; *in != '\0'; out++)
    {
      if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0'
          && in[3] <= '7')
        {
          *out = (char) ((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
          in += 4;
        }
      else
        *out = *in++;
    }
  *out = '\0';
}

static bool
has_option (const char *options,
            const char *name)
{
  size_t len = strlen (name);

  for (const char *p = options; p != NULL && *p != '\0'; p = strchr (p, ','), p = p != NULL ? p + 1 : NULL)
    if (strncmp (p, name, len) == 0 && (p[len] == ',' || p[len] == '\0' || p[len] == '\n'))
      return true;
  return false;
}

/* The mount point of the hierarchy with perf_event: a v1 mount of it, or
 * else the cgroup2 mount (where perf_event is always on). *v1 says which. */
static bool
find_hierarchy (char *mount_point,
                size_t size,
                bool *v1)
{
  FILE *file = fopen ("/proc/self/mountinfo", "re");
  char line[4096];
  bool found_v2 = false;

  *v1 = false;
  if (file == NULL)
    return false;
  while (fgets (line, sizeof line, file) != NULL)
    {
      char point[PATH_MAX], type[64], options[1024];
      const char *dash = strstr (line, " - ");

      /* ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
      if (dash == NULL || sscanf (line, "%*s %*s %*s %*s %4095s", point) != 1
          || sscanf (dash + 3, "%63s %*s %1023s", type, options) != 2)
        continue;
      if (strcmp (type, "cgroup") == 0 && has_option (options, "perf_event"))
        {
          unescape (point);
          snprintf (mount_point, size, "%s", point);
          *v1 = true;
          break;
        }
      if (strcmp (type, "cgroup2") == 0 && !found_v2)
        {
          unescape (point);
          snprintf (mount_point, size, "%s", point);
          found_v2 = true;
        }
    }
  fclose (file);
  return *v1 || found_v2;
}

/* A process's cgroup in that hierarchy (from /proc/PID/cgroup, "self"
 * for the recorder), without its leading '/'. */
static bool
find_cgroup_of (const char *pid,
                bool v1,
                char *home,
                size_t size)
{
  char proc_path[64];
  char line[PATH_MAX + 256];
  bool found = false;
  FILE *file;

  snprintf (proc_path, sizeof proc_path, "/proc/%s/cgroup", pid);
  file = fopen (proc_path, "re");
  if (file == NULL)
    return false;
  while (!found && fgets (line, sizeof line, file) != NULL)
    {
      char *controllers = strchr (line, ':');
      char *path;

      if (controllers == NULL || (path = strchr (controllers + 1, ':')) == NULL)
        continue;
      *controllers++ = '\0';
      *path++ = '\0';
      path[strcspn (path, "\n")] = '\0';
      /* v2: "0::/path"; v1: "N:cpu,perf_event:/path". */
      if (v1 ? has_option (controllers, "perf_event") : (strcmp (line, "0") == 0 && *controllers == '\0'))
        {
          snprintf (home, size, "%s", path[0] == '/' ? path + 1 : path);
          found = true;
        }
    }
  fclose (file);
  return found;
}

static bool
find_home (bool v1,
           char *home,
           size_t size)
{
  return find_cgroup_of ("self", v1, home, size);
}

bool
sp_cgroup_holds (const SpCgroup *cgroup,
                 pid_t pid,
                 char *where,
                 size_t where_size)
{
  char text[32], now[PATH_MAX];
  size_t len = strlen (cgroup->path) - 1;  /* without its leading '/' */

  snprintf (text, sizeof text, "%d", (int) pid);
  where[0] = '\0';
  if (!find_cgroup_of (text, cgroup->v1, now, sizeof now))
    return true;  /* gone: its exit is in the rings */
  if (strncmp (now, cgroup->path + 1, len) == 0 && (now[len] == '\0' || now[len] == '/'))
    return true;
  snprintf (where, where_size, "/%s", now);
  return false;
}

bool
sp_cgroup_create (SpCgroup *cgroup,
                  char *message,
                  size_t size)
{
  char mount_point[PATH_MAX];
  int mount_fd;
  bool v1;

  sp_cgroup_init (cgroup);
  if (geteuid () != 0)
    {
      snprintf (message, size, "not root");
      return false;
    }
  if (!find_hierarchy (mount_point, sizeof mount_point, &v1))
    {
      snprintf (message, size, "no cgroup hierarchy with perf_event is mounted");
      return false;
    }
  cgroup->v1 = v1;
  if (!find_home (v1, cgroup->home, sizeof cgroup->home))
    {
      snprintf (message, size, "this process's cgroup is not in /proc/self/cgroup");
      return false;
    }
  mount_fd = open (mount_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  cgroup->home_fd = mount_fd < 0 ? -1 : openat (mount_fd, cgroup->home[0] != '\0' ? cgroup->home : ".",
                                                O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (mount_fd >= 0)
    close (mount_fd);
  if (cgroup->home_fd < 0)
    {
      snprintf (message, size, "cannot open the cgroup /%s in %s: %s", cgroup->home, mount_point, strerror (errno));
      return false;
    }
  snprintf (cgroup->name, sizeof cgroup->name, "stackpulse-record.%d", (int) getpid ());
  if (snprintf (cgroup->path, sizeof cgroup->path, "%s%s/%s", cgroup->home[0] != '\0' ? "/" : "", cgroup->home,
                cgroup->name) >= (int) sizeof cgroup->path)
    {
      snprintf (message, size, "the recorder's cgroup's path is too long");
      cgroup->name[0] = '\0';
      sp_cgroup_remove (cgroup);
      return false;
    }
  /* A directory of that name is an earlier recorder's of the same pid,
   * killed before it could remove it: taken away only when empty. */
  if (mkdirat (cgroup->home_fd, cgroup->name, 0755) != 0
      && !(errno == EEXIST && unlinkat (cgroup->home_fd, cgroup->name, AT_REMOVEDIR) == 0
           && mkdirat (cgroup->home_fd, cgroup->name, 0755) == 0))
    {
      snprintf (message, size, "cannot make a cgroup in /%s: %s", cgroup->home, strerror (errno));
      cgroup->name[0] = '\0';
      sp_cgroup_remove (cgroup);
      return false;
    }
  cgroup->dir_fd = openat (cgroup->home_fd, cgroup->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (cgroup->dir_fd < 0)
    {
      snprintf (message, size, "cannot open the cgroup %s: %s", cgroup->path, strerror (errno));
      unlinkat (cgroup->home_fd, cgroup->name, AT_REMOVEDIR);
      cgroup->name[0] = '\0';
      sp_cgroup_remove (cgroup);
      return false;
    }
  return true;
}

/* Writes "PID\n" to the cgroup.procs file at path (relative to dir). */
static bool
write_pid (int dir,
           const char *path,
           pid_t pid)
{
  char text[32];
  int len = snprintf (text, sizeof text, "%d\n", (int) pid);
  int fd = openat (dir, path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  bool written;
  int err;

  if (fd < 0)
    return false;
  written = write (fd, text, (size_t) len) == len;
  err = errno;
  close (fd);
  errno = err;
  return written;
}

bool
sp_cgroup_add_process (SpCgroup *cgroup,
                       pid_t pid,
                       char *message,
                       size_t size)
{
  if (write_pid (cgroup->dir_fd, "cgroup.procs", pid))
    return true;
  snprintf (message, size, "cannot move process %d into the cgroup %s: %s", (int) pid, cgroup->path,
            strerror (errno));
  return false;
}

/* A cgroup's cgroup.procs, whole (a pid may be cut between two reads),
 * NUL-terminated; NULL when it cannot be read. */
static char *
read_procs (int dir)
{
  int fd = openat (dir, "cgroup.procs", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  size_t used = 0, capacity = 4096;
  char *text = fd >= 0 ? malloc (capacity) : NULL;
  ssize_t n;

  if (text == NULL)
    {
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  while ((n = read (fd, text + used, capacity - used - 1)) > 0)
    {
      used += (size_t) n;
      if (capacity - used - 1 == 0)
        {
          char *bigger = realloc (text, capacity * 2);

          if (bigger == NULL)
            break;
          text = bigger;
          capacity *= 2;
        }
    }
  close (fd);
  text[used] = '\0';
  return text;
}

/* Moves every process listed in the cgroup at dir back home; how many
 * were listed. */
static size_t
move_home (const SpCgroup *cgroup,
           int dir)
{
  char *text = read_procs (dir);
  size_t listed = 0;

  if (text == NULL)
    return 0;
  for (char *p = text, *end; *p != '\0'; p = end)
    {
      long pid = strtol (p, &end, 10);

      if (end == p)
        break;
      listed++;
      if (!write_pid (cgroup->home_fd, "cgroup.procs", (pid_t) pid) && errno != ESRCH)
        fprintf (stderr, "stackpulse-record: warning: cannot move process %ld back to the cgroup /%s: %s\n", pid,
                 cgroup->home, strerror (errno));
    }
  free (text);
  return listed;
}

/* Empties the cgroup name in parent (and the cgroups the recorded program
 * made in it, which must go for it to go) and removes it; depth: how far
 * below the recorder's own. */
static void
remove_tree (const SpCgroup *cgroup,
             int parent,
             const char *name,
             int depth)
{
  int dir = openat (parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *listing;
  struct dirent *entry;

  if (dir < 0)
    return;
  listing = depth < 16 ? fdopendir (dup (dir)) : NULL;
  while (listing != NULL && (entry = readdir (listing)) != NULL)
    if (entry->d_type == DT_DIR && strcmp (entry->d_name, ".") != 0 && strcmp (entry->d_name, "..") != 0)
      {
        remove_tree (cgroup, dir, entry->d_name, depth + 1);
        fprintf (stderr, "stackpulse-record: removed the cgroup %s/%s, which the recorded program made\n",
                 depth == 0 ? cgroup->path : "…", entry->d_name);
      }
  if (listing != NULL)
    closedir (listing);
  /* What forks while it is moved is listed in a next round. */
  for (int round = 0; round < 8 && move_home (cgroup, dir) > 0; round++)
    ;
  close (dir);
  /* A process on its way out still counts for a moment. */
  for (int tries = 0; unlinkat (parent, name, AT_REMOVEDIR) != 0; tries++)
    {
      if (errno != EBUSY || tries == 50)
        {
          fprintf (stderr, "stackpulse-record: warning: cannot remove the cgroup %s%s%s: %s\n", cgroup->path,
                   depth > 0 ? "/…/" : "", depth > 0 ? name : "", strerror (errno));
          break;
        }
      usleep (2000);
    }
}

void
sp_cgroup_remove (SpCgroup *cgroup)
{
  if (cgroup->dir_fd >= 0)
    {
      close (cgroup->dir_fd);
      cgroup->dir_fd = -1;
    }
  if (cgroup->home_fd >= 0 && cgroup->name[0] != '\0')
    remove_tree (cgroup, cgroup->home_fd, cgroup->name, 0);
  cgroup->name[0] = '\0';
  if (cgroup->home_fd >= 0)
    close (cgroup->home_fd);
  cgroup->home_fd = -1;
}
