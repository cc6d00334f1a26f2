/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-output.c: checking the output path, creating and placing the spool. */
#include "sp-output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-offcpu.h"
#include "sp-spool-format.h"

/* Read too: the recorder checks that the spool still begins as it wrote it. */
#define CREATE_FLAGS     (O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)
#define CREATE_MODE      0666
#define TEMP_ATTEMPTS    100
#define SIDE_FILE_HEADER "# stackpulse side file"
/* What begins_with can compare (the magic ends in NULs). */
#define SP_OFFCPU_MAGIC_PREFIX "SPOFF1"

/* ---- Names ------------------------------------------------------------- */

/* Splits path into its folder (opened) and its last name. */
static bool
open_folder (SpOutput *out,
             char *message,
             size_t message_size)
{
  const char *slash = strrchr (out->path, '/');
  const char *base = slash != NULL ? slash + 1 : out->path;
  char *folder;

  if (*base == '\0' || strcmp (base, ".") == 0 || strcmp (base, "..") == 0)
    {
      snprintf (message, message_size, "'%s' names a folder, not a file", out->path);
      return false;
    }
  folder = slash == NULL ? strdup (".") : slash == out->path ? strdup ("/")
                                                               : strndup (out->path, (size_t) (slash - out->path));
  out->name = strdup (base);
  if (folder == NULL || out->name == NULL || asprintf (&out->meta_name, "%s.meta", base) < 0
      || asprintf (&out->meta_path, "%s.meta", out->path) < 0)
    {
      free (folder);
      out->meta_name = out->meta_path = NULL;
      snprintf (message, message_size, "out of memory");
      return false;
    }
  out->dir_fd = open (folder, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (out->dir_fd < 0)
    snprintf (message, message_size, "cannot create '%s': folder '%s': %s", out->path, folder, strerror (errno));
  else
    out->real_folder = realpath (folder, NULL);
  free (folder);
  return out->dir_fd >= 0;
}

int
sp_output_create_temp (int dir_fd,
                       const char *base,
                       char *name,
                       size_t name_size)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  for (int attempt = 0; attempt < TEMP_ATTEMPTS; attempt++)
    {
      unsigned char random[6];
      char suffix[sizeof random + 1];
      int fd;

      if (getrandom (random, sizeof random, 0) != (ssize_t) sizeof random)
        return -1;
      for (size_t i = 0; i < sizeof random; i++)
        suffix[i] = letters[random[i] % (sizeof letters - 1)];
      suffix[sizeof random] = '\0';
      if ((size_t) snprintf (name, name_size, ".%s.%s", base, suffix) >= name_size)
        {
          errno = ENAMETOOLONG;
          return -1;
        }
      fd = openat (dir_fd, name, CREATE_FLAGS, CREATE_MODE);
      if (fd >= 0 || errno != EEXIST)
        return fd;
    }
  errno = EEXIST;
  return -1;
}

/* ---- What must not be replaced ------------------------------------------ */

/* path as the command sees it: relative to the folder it runs in. */
static bool
stat_in (const char *directory,
         const char *path,
         struct stat *st)
{
  char *full = NULL;
  bool ok;

  if (directory != NULL && path[0] != '/')
    {
      if (asprintf (&full, "%s/%s", directory, path) < 0)
        return false;
      path = full;
    }
  ok = stat (path, st) == 0;
  free (full);
  return ok;
}

/* The file execvp would run for name (which has no slash): the first
 * executable one along PATH. */
static bool
stat_on_path (const char *directory,
              const char *name,
              struct stat *st)
{
  const char *path = getenv ("PATH");
  char *copy = strdup (path != NULL ? path : "/bin:/usr/bin");
  char *saveptr = NULL;
  bool found = false;

  for (char *dir = strtok_r (copy, ":", &saveptr); copy != NULL && dir != NULL && !found;
       dir = strtok_r (NULL, ":", &saveptr))
    {
      char *candidate;

      if (asprintf (&candidate, "%s/%s", dir, name) < 0)
        break;
      found = stat_in (directory, candidate, st) && S_ISREG (st->st_mode) && (st->st_mode & 0111) != 0;
      free (candidate);
    }
  free (copy);
  return found;
}

static bool
same_file (const struct stat *a,
           const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* What file (described in what) is the one at st: the recorder, the
 * program, a file on the command line (also after "--option="), an
 * attached process's program. */
static bool
is_an_input (const struct stat *st,
             const SpOutputInputs *inputs,
             char *what,
             size_t what_size)
{
  struct stat input;
  char link[64];

  if (stat ("/proc/self/exe", &input) == 0 && same_file (st, &input))
    return snprintf (what, what_size, "stackpulse-record itself") > 0;
  for (size_t i = 0; inputs->command != NULL && inputs->command[i] != NULL; i++)
    {
      const char *arg = inputs->command[i];
      const char *value = arg[0] == '-' && strchr (arg, '=') != NULL ? strchr (arg, '=') + 1 : NULL;
      bool found = i == 0 && strchr (arg, '/') == NULL ? stat_on_path (inputs->directory, arg, &input)
                                                        : stat_in (inputs->directory, arg, &input);

      if ((found && same_file (st, &input))
          || (value != NULL && stat_in (inputs->directory, value, &input) && same_file (st, &input)))
        return snprintf (what, what_size, i == 0 ? "the program to record (%s)" : "a file the command names (%s)",
                         arg) > 0;
    }
  for (size_t i = 0; i < inputs->n_pids; i++)
    {
      snprintf (link, sizeof link, "/proc/%d/exe", (int) inputs->pids[i]);
      if (stat (link, &input) == 0 && same_file (st, &input))
        return snprintf (what, what_size, "the program of process %d", (int) inputs->pids[i]) > 0;
    }
  return false;
}

/* path as the command sees it (relative to directory, or here), with its
 * folder resolved (realpath) and its last name kept: a file that does not
 * exist yet has a name all the same. NULL when its folder does not exist
 * or it names no file. */
static char *
resolve_in (const char *directory,
            const char *path)
{
  char *full = NULL, *folder, *real, *resolved = NULL;
  const char *slash, *base;

  if ((path[0] == '/' || directory == NULL) ? asprintf (&full, "%s", path) < 0
                                          : asprintf (&full, "%s/%s", directory, path) < 0)
    return NULL;
  slash = strrchr (full, '/');
  base = slash != NULL ? slash + 1 : full;
  folder = slash == NULL ? strdup (".") : slash == full ? strdup ("/") : strndup (full, (size_t) (slash - full));
  real = folder != NULL && *base != '\0' && strcmp (base, ".") != 0 && strcmp (base, "..") != 0
         ? realpath (folder, NULL) : NULL;
  if (real != NULL && asprintf (&resolved, "%s/%s", strcmp (real, "/") == 0 ? "" : real, base) < 0)
    resolved = NULL;
  free (real);
  free (folder);
  free (full);
  return resolved;
}

static bool
names_path (const char *directory,
            const char *arg,
            const char *path)
{
  char *resolved = resolve_in (directory, arg);
  bool same = resolved != NULL && strcmp (resolved, path) == 0;

  free (resolved);
  return same;
}

/* Whether the command line names path (the output's or its side file's,
 * resolved), also a file that does not exist yet: the command would read
 * or write the recording while it is written. The program's name without
 * a slash is looked up along PATH, not here. */
static bool
command_names (const SpOutputInputs *inputs,
               const char *path,
               const char **arg_found)
{
  for (size_t i = 0; inputs->command != NULL && inputs->command[i] != NULL; i++)
    {
      const char *arg = inputs->command[i];
      const char *equals = arg[0] == '-' ? strchr (arg, '=') : NULL;

      if ((i > 0 || strchr (arg, '/') != NULL) && names_path (inputs->directory, arg, path))
        *arg_found = arg;
      else if (equals != NULL && names_path (inputs->directory, equals + 1, path))
        *arg_found = arg;
      else
        continue;
      return true;
    }
  return false;
}

/* Refuses an output (or side file) the command line names by its path. */
static bool
check_not_named (const SpOutput *out,
                 const char *name,
                 const char *path,
                 const SpOutputInputs *inputs,
                 char *message,
                 size_t message_size)
{
  char *full = NULL;
  const char *arg = NULL;
  bool named;

  if (out->real_folder == NULL
      || asprintf (&full, "%s/%s", strcmp (out->real_folder, "/") == 0 ? "" : out->real_folder, name) < 0)
    return true;
  named = command_names (inputs, full, &arg);
  free (full);
  if (named)
    snprintf (message, message_size, "'%s' is %s (%s): not writing the recording there", path,
              arg == inputs->command[0] ? "the program to record" : "a file the command names", arg);
  return !named;
}

/* Whether name in the folder is empty or begins with prefix. */
static bool
begins_with (int dir_fd,
             const char *name,
             const char *prefix)
{
  size_t len = strlen (prefix);
  char head[64];
  struct stat st;
  ssize_t n;
  int fd = openat (dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

  if (fd < 0)
    return false;
  n = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) ? read (fd, head, len) : -1;
  close (fd);
  return n == 0 || (n == (ssize_t) len && memcmp (head, prefix, len) == 0);
}

/* Whether the recorder of that pid still runs here: /proc/PID/stat names
 * a stackpulse-record that is not a zombie (the rule of
 * data/sp-recording-state.c; a pid reused by another program is not it). */
static bool
recorder_alive (long pid)
{
  char path[64], stat[512];
  const char *open_paren, *close_paren;
  ssize_t n;
  int fd;

  snprintf (path, sizeof path, "/proc/%ld/stat", pid);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  n = read (fd, stat, sizeof stat - 1);
  close (fd);
  if (n <= 0)
    return false;
  stat[n] = '\0';
  open_paren = strchr (stat, '(');
  close_paren = strrchr (stat, ')');
  if (open_paren == NULL || close_paren == NULL || close_paren < open_paren || close_paren[1] != ' '
      || close_paren[2] == 'Z' || close_paren[2] == 'X')
    return false;
  return strncmp (open_paren + 1, "stackpulse-rec", strlen ("stackpulse-rec")) == 0;
}

/* The recorder still writing the recording whose side file is name: its
 * [recording] says complete=false, this host and a recorder_pid that
 * lives. 0 when none. */
static long
live_recorder_of (int dir_fd,
                  const char *name)
{
  char text[8192], host[256] = "";
  const char *complete = NULL, *hostname = NULL, *pid_text = NULL;
  ssize_t n;
  long pid;
  int fd = openat (dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

  if (fd < 0)
    return 0;
  n = read (fd, text, sizeof text - 1);
  close (fd);
  if (n <= 0)
    return 0;
  text[n] = '\0';
  /* Its first group is [recording]: up to the next one. */
  for (char *saveptr = NULL, *line = strtok_r (text, "\n", &saveptr); line != NULL;
       line = strtok_r (NULL, "\n", &saveptr))
    {
      if (line[0] == '[' && strcmp (line, "[recording]") != 0)
        break;
      if (strncmp (line, "complete=", 9) == 0)
        complete = line + 9;
      else if (strncmp (line, "hostname=", 9) == 0)
        hostname = line + 9;
      else if (strncmp (line, "recorder_pid=", 13) == 0)
        pid_text = line + 13;
    }
  if (complete == NULL || strcmp (complete, "false") != 0 || hostname == NULL || pid_text == NULL
      || gethostname (host, sizeof host - 1) != 0 || strcmp (hostname, host) != 0)
    return 0;
  pid = strtol (pid_text, NULL, 10);
  return pid > 0 && pid != (long) getpid () && recorder_alive (pid) ? pid : 0;
}

/* Whether a recorder writes the file at name now: it holds the spool it
 * writes locked (LOCK_EX) from its creation on, also before its side file
 * says so, and a lock cannot be shared with it. */
static bool
locked_by_recorder (int dir_fd,
                    const char *name)
{
  int fd = openat (dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  bool locked;

  if (fd < 0)
    return false;
  locked = flock (fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close (fd);
  return locked;
}

/* One of the two files a recording is. */
typedef struct {
  const char *name;    /* in the output's folder */
  const char *path;    /* for messages */
  const char *prefix;  /* what such a file begins with */
  const char *kind;    /* what it is called */
} OutputFile;

/* An existing file may be replaced when it is a regular file, no input,
 * and empty or what its kind begins with. */
static bool
check_existing (const SpOutput *out,
                const OutputFile *file,
                const SpOutputInputs *inputs,
                bool *exists,
                char *message,
                size_t message_size)
{
  const char *path = file->path;
  struct stat st;
  char what[4200];

  *exists = false;
  if (fstatat (out->dir_fd, file->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    {
      if (errno == ENOENT)
        return true;
      snprintf (message, message_size, "cannot create '%s': %s", path, strerror (errno));
      return false;
    }
  *exists = true;
  if (S_ISLNK (st.st_mode))
    snprintf (message, message_size, "'%s' is a symbolic link: the recorder does not write through links "
              "(name the file itself, or a new one)", path);
  else if (S_ISDIR (st.st_mode))
    snprintf (message, message_size, "'%s' is a folder: name a file in it", path);
  else if (!S_ISREG (st.st_mode))
    snprintf (message, message_size, "'%s' is not a regular file: a recording is a spool with its side file "
              "beside it, name a file", path);
  else if (is_an_input (&st, inputs, what, sizeof what))
    snprintf (message, message_size, "'%s' is %s: not writing the recording over it", path, what);
  else if (!begins_with (out->dir_fd, file->name, file->prefix))
    snprintf (message, message_size, "'%s' exists and is not a stackpulse %s: not replacing it "
              "(remove it, or name another file)", path, file->kind);
  else
    return true;
  return false;
}

/* ---- Creating, placing, removing -------------------------------------- */

bool
sp_output_open (SpOutput *out,
                const char *path,
                const SpOutputInputs *inputs,
                char *message,
                size_t message_size)
{
  char temp[4096];
  bool meta_exists;
  long recorder;
  struct stat st;

  memset (out, 0, sizeof *out);
  out->path = path;
  out->dir_fd = out->spool_fd = out->offcpu_fd = -1;
  if (!open_folder (out, message, message_size))
    return false;

  OutputFile spool = { out->name, out->path, SP_SPOOL_MAGIC, "recording" };
  OutputFile meta = { out->meta_name, out->meta_path, SIDE_FILE_HEADER, "side file" };

  if (!check_not_named (out, out->name, out->path, inputs, message, message_size)
      || !check_not_named (out, out->meta_name, out->meta_path, inputs, message, message_size)
      || !check_existing (out, &spool, inputs, &out->replacing, message, message_size)
      || !check_existing (out, &meta, inputs, &meta_exists, message, message_size))
    return false;
  recorder = meta_exists ? live_recorder_of (out->dir_fd, out->meta_name) : 0;
  if (recorder != 0)
    {
      snprintf (message, message_size, "'%s' is being recorded by stackpulse-record (pid %ld): not replacing "
                "it (wait for it to end, or name another file)", path, recorder);
      return false;
    }
  if (out->replacing && locked_by_recorder (out->dir_fd, out->name))
    {
      snprintf (message, message_size, "'%s' is being recorded by another stackpulse-record: not replacing "
                "it (wait for it to end, or name another file)", path);
      return false;
    }
  if (!out->replacing)
    out->spool_fd = openat (out->dir_fd, out->name, CREATE_FLAGS, CREATE_MODE);
  else if ((out->spool_fd = sp_output_create_temp (out->dir_fd, out->name, temp, sizeof temp)) >= 0)
    out->temp_name = strdup (temp);
  if (out->spool_fd < 0)
    {
      snprintf (message, message_size, "cannot create '%s': %s", path,
                errno == EEXIST ? "it appeared while the recorder was starting" : strerror (errno));
      return false;
    }
  /* Held as long as the file is open: no other recorder replaces it,
   * even before its side file names this recorder. Only a recorder's
   * short look (LOCK_SH) can be in the way, so this waits for it. */
  while (flock (out->spool_fd, LOCK_EX) != 0 && errno == EINTR)
    ;
  if (fstat (out->spool_fd, &st) == 0)
    {
      out->spool_dev = st.st_dev;
      out->spool_ino = st.st_ino;
    }
  return true;
}

bool
sp_output_open_offcpu (SpOutput *out,
                       const SpOutputInputs *inputs,
                       char *message,
                       size_t message_size)
{
  char temp[4096], *path = NULL;
  bool exists, ok;

  if (asprintf (&out->offcpu_name, "%s.offcpu", out->name) < 0 || asprintf (&path, "%s.offcpu", out->path) < 0)
    {
      out->offcpu_name = NULL;
      snprintf (message, message_size, "out of memory");
      return false;
    }

  OutputFile companion = { out->offcpu_name, path, SP_OFFCPU_MAGIC_PREFIX, "off-CPU stream" };

  ok = check_not_named (out, out->offcpu_name, path, inputs, message, message_size)
       && check_existing (out, &companion, inputs, &exists, message, message_size);
  if (ok && !exists)
    out->offcpu_fd = openat (out->dir_fd, out->offcpu_name, CREATE_FLAGS, CREATE_MODE);
  else if (ok && (out->offcpu_fd = sp_output_create_temp (out->dir_fd, out->offcpu_name, temp, sizeof temp)) >= 0)
    out->offcpu_temp_name = strdup (temp);
  if (ok && out->offcpu_fd < 0)
    {
      snprintf (message, message_size, "cannot create '%s': %s", path,
                errno == EEXIST ? "it appeared while the recorder was starting" : strerror (errno));
      ok = false;
    }
  free (path);
  return ok;
}

/* The companion replaces an earlier one at its name, if any; it stays
 * beside the spool when the spool could not take its name. */
static void
commit_offcpu (SpOutput *out)
{
  char *name;
  struct stat st;

  if (out->offcpu_name == NULL && out->temp_name == NULL)
    {
      /* A recording without one replaced one with one: the old companion
       * would be taken for this spool's. Only a regular file that is one. */
      if (asprintf (&name, "%s.offcpu", out->name) < 0)
        return;
      if (fstatat (out->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG (st.st_mode) && st.st_size > 0
          && begins_with (out->dir_fd, name, SP_OFFCPU_MAGIC_PREFIX))
        unlinkat (out->dir_fd, name, 0);
      free (name);
      return;
    }
  if (out->offcpu_name == NULL)
    return;  /* the old recording stays, with its companion */
  if (out->offcpu_temp_name != NULL && out->temp_name == NULL
      && renameat (out->dir_fd, out->offcpu_temp_name, out->dir_fd, out->offcpu_name) == 0)
    {
      free (out->offcpu_temp_name);
      out->offcpu_temp_name = NULL;
    }
  else if (out->temp_name != NULL && asprintf (&name, "%s.offcpu", out->temp_name) >= 0)
    {
      /* Where the spool stays, under the name that goes with it. */
      if (renameat (out->dir_fd, out->offcpu_temp_name != NULL ? out->offcpu_temp_name : out->offcpu_name,
                    out->dir_fd, name) == 0)
        {
          free (out->offcpu_temp_name);
          out->offcpu_temp_name = NULL;
          free (out->offcpu_name);
          out->offcpu_name = name;
        }
      else
        free (name);
    }
}

bool
sp_output_still_ours (const SpOutput *out)
{
  const char *name = out->temp_name != NULL ? out->temp_name : out->name;
  struct stat there;

  return fstatat (out->dir_fd, name, &there, AT_SYMLINK_NOFOLLOW) == 0 && there.st_dev == out->spool_dev
         && there.st_ino == out->spool_ino;
}

bool
sp_output_spool_intact (const SpOutput *out,
                        uint64_t written)
{
  char head[SP_SPOOL_MAGIC_LEN];
  struct stat st;

  if (written < sizeof head)
    return true;
  return fstat (out->spool_fd, &st) == 0 && (uint64_t) st.st_size >= written
         && pread (out->spool_fd, head, sizeof head, 0) == (ssize_t) sizeof head
         && memcmp (head, SP_SPOOL_MAGIC, sizeof head) == 0;
}

void
sp_output_forsake_spool (SpOutput *out)
{
  int null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);

  if (null_fd >= 0)
    {
      dup2 (null_fd, out->spool_fd);
      close (null_fd);
    }
}

bool
sp_output_commit (SpOutput *out,
                  char *message,
                  size_t message_size)
{
  char *meta_name;

  if (out->temp_name == NULL)
    {
      commit_offcpu (out);
      return true;
    }
  if (renameat (out->dir_fd, out->temp_name, out->dir_fd, out->name) == 0)
    {
      free (out->temp_name);
      out->temp_name = NULL;
      commit_offcpu (out);
      return true;
    }
  commit_offcpu (out);
  /* The recording goes on where it is: say where, and put its side file
   * beside it. */
  snprintf (message, message_size, "cannot replace '%s' (%s): the recording is in '%s' in the same folder",
            out->path, strerror (errno), out->temp_name);
  if (asprintf (&meta_name, "%s.meta", out->temp_name) >= 0)
    {
      free (out->meta_name);
      out->meta_name = meta_name;
      free (out->meta_path);
      out->meta_path = strdup (meta_name);
    }
  free (out->name);
  out->name = out->temp_name;
  out->temp_name = NULL;
  return false;
}

bool
sp_output_truncate_spool (const SpOutput *out,
                          uint64_t size)
{
  const char *name = out->temp_name != NULL ? out->temp_name : out->name;
  int fd = openat (out->dir_fd, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  bool ok;

  if (fd < 0)
    return false;
  ok = fstat (fd, &st) == 0 && st.st_dev == out->spool_dev && st.st_ino == out->spool_ino
       && ftruncate (fd, (off_t) size) == 0;
  close (fd);
  return ok;
}

void
sp_output_discard (SpOutput *out)
{
  const char *name = out->temp_name != NULL ? out->temp_name : out->name;
  struct stat ours, there;

  const char *offcpu = out->offcpu_temp_name != NULL ? out->offcpu_temp_name : out->offcpu_name;

  /* Only the file this run created, if it is still the one there (known
   * by the device and inode it was created with: the writer may have
   * closed spool_fd already). */
  if (name != NULL && out->spool_ino != 0 && fstatat (out->dir_fd, name, &there, AT_SYMLINK_NOFOLLOW) == 0
      && there.st_dev == out->spool_dev && there.st_ino == out->spool_ino)
    unlinkat (out->dir_fd, name, 0);
  if (out->offcpu_fd >= 0 && offcpu != NULL && fstat (out->offcpu_fd, &ours) == 0
      && fstatat (out->dir_fd, offcpu, &there, AT_SYMLINK_NOFOLLOW) == 0 && same_file (&ours, &there))
    unlinkat (out->dir_fd, offcpu, 0);
}

void
sp_output_clear (SpOutput *out)
{
  if (out->dir_fd >= 0)
    close (out->dir_fd);
  free (out->meta_path);
  free (out->name);
  free (out->meta_name);
  free (out->temp_name);
  free (out->real_folder);
  free (out->offcpu_name);
  free (out->offcpu_temp_name);
  memset (out, 0, sizeof *out);
  out->dir_fd = out->spool_fd = out->offcpu_fd = -1;
}
