/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbol-cache-dir.c: the symbol cache's folder.
 *
 * $XDG_CACHE_HOME/stackpulse/symbols (else ~/.cache/…): the last two
 * folders are made 0700 if missing and opened without following a
 * symbolic link, and must be this user's; every file is then opened,
 * written, renamed and removed relative to that descriptor, with
 * O_NOFOLLOW, and made 0600. */
#include "sp-symbol-cache-dir-private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LOCK_NAME ".lock"
#define TEMP_PREFIX ".tmp-"
/* A temporary file this old was left by a writer that died. */
#define STALE_TEMP_SECONDS 3600

struct _SpSymbolCacheDir {
  int      fd;
  char    *path;
  guint64  max_bytes;
};

/* dir/name as a folder of this user's, made 0700 when missing; -1 when it
 * is anything else (a symbolic link included). */
static int
open_own_folder (int dir,
                 const char *name)
{
  struct stat st;
  int fd;

  if (mkdirat (dir, name, 0700) != 0 && errno != EEXIST)
    return -1;
  fd = openat (dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0 || st.st_uid != geteuid ())
    {
      close (fd);
      return -1;
    }
  return fd;
}

static guint64
max_from_environment (void)
{
  const char *max = g_getenv ("STACKPULSE_SYMBOL_CACHE_MAX");
  guint64 value = 0;

  if (max != NULL && g_ascii_string_to_unsigned (max, 10, 1, G_MAXUINT64, &value, NULL))
    return value;
  return SP_SYMBOL_CACHE_DEFAULT_MAX;
}

static char *
default_cache_home (void)
{
  const char *xdg = g_getenv ("XDG_CACHE_HOME");

  /* Read here rather than through g_get_user_cache_dir, which keeps the
   * first value it saw: tests give each case its own. */
  if (xdg != NULL && g_path_is_absolute (xdg))
    return g_strdup (xdg);
  return g_build_filename (g_get_home_dir (), ".cache", NULL);
}

SpSymbolCacheDir *
sp_symbol_cache_dir_open (const char *cache_home,
                          guint64 max_bytes)
{
  g_autofree char *home = cache_home != NULL ? g_strdup (cache_home) : default_cache_home ();
  SpSymbolCacheDir *dir;
  int home_fd;
  int stackpulse_fd;
  int fd;

  if (g_strcmp0 (g_getenv ("STACKPULSE_SYMBOL_CACHE"), "0") == 0)
    return NULL;
  if (g_mkdir_with_parents (home, 0700) != 0
      || (home_fd = open (home, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return NULL;
  stackpulse_fd = open_own_folder (home_fd, "stackpulse");
  close (home_fd);
  if (stackpulse_fd < 0)
    return NULL;
  fd = open_own_folder (stackpulse_fd, "symbols");
  close (stackpulse_fd);
  if (fd < 0)
    return NULL;
  /* Made by an older umask, or by hand: what was resolved stays private. */
  fchmod (fd, 0700);

  dir = g_new0 (SpSymbolCacheDir, 1);
  dir->fd = fd;
  dir->path = g_build_filename (home, "stackpulse", "symbols", NULL);
  dir->max_bytes = max_bytes > 0 ? max_bytes : max_from_environment ();
  return dir;
}

void
sp_symbol_cache_dir_free (SpSymbolCacheDir *dir)
{
  if (dir == NULL)
    return;
  close (dir->fd);
  g_free (dir->path);
  g_free (dir);
}

const char *
sp_symbol_cache_dir_get_path (SpSymbolCacheDir *dir)
{
  return dir->path;
}

int
_sp_symbol_cache_dir_fd (SpSymbolCacheDir *dir)
{
  return dir->fd;
}

guint64
_sp_symbol_cache_dir_max (SpSymbolCacheDir *dir)
{
  return dir->max_bytes;
}

int
_sp_symbol_cache_dir_lock (SpSymbolCacheDir *dir)
{
  int fd = openat (dir->fd, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);

  if (fd < 0)
    return -1;
  while (flock (fd, LOCK_EX) != 0)
    if (errno != EINTR)
      {
        close (fd);
        return -1;
      }
  return fd;
}

void
_sp_symbol_cache_dir_unlock (int lock)
{
  if (lock >= 0)
    close (lock);  /* releases the flock */
}

static gboolean
write_all (int fd,
           const guint8 *data,
           gsize size)
{
  while (size > 0)
    {
      gssize n = write (fd, data, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      size -= (gsize) n;
    }
  return TRUE;
}

/* A new temporary file, 0600, its name in *name. */
static int
create_temp (SpSymbolCacheDir *dir,
             char **name)
{
  for (guint attempt = 0; attempt < 16; attempt++)
    {
      g_autofree char *candidate = g_strdup_printf (TEMP_PREFIX "%d-%08x", (int) getpid (), g_random_int ());
      int fd = openat (dir->fd, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

      if (fd >= 0)
        {
          *name = g_steal_pointer (&candidate);
          return fd;
        }
      if (errno != EEXIST)
        return -1;
    }
  return -1;
}

gboolean
_sp_symbol_cache_dir_write (SpSymbolCacheDir *dir,
                            const char *name,
                            GBytes *bytes)
{
  g_autofree char *temp = NULL;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  int fd = create_temp (dir, &temp);
  gboolean written;

  if (fd < 0)
    return FALSE;
  written = write_all (fd, data, size);
  written = close (fd) == 0 && written;
  /* rename replaces the old file at once: a reader sees it whole, old or
   * new. */
  if (!written || renameat (dir->fd, temp, dir->fd, name) != 0)
    {
      unlinkat (dir->fd, temp, 0);
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  char   *name;
  gint64  used;   /* modification time, ns: set at each use */
  guint64 size;
} CacheEntry;

static void
cache_entry_clear (gpointer data)
{
  g_free (((CacheEntry *) data)->name);
}

static gint
compare_by_use (gconstpointer a,
                gconstpointer b)
{
  const CacheEntry *ea = a;
  const CacheEntry *eb = b;

  return ea->used < eb->used ? -1 : ea->used > eb->used;
}

/* The cache files (*.sym) of the folder; removes stale temporary files. */
static GArray *
list_files (SpSymbolCacheDir *dir,
            guint64 *total)
{
  GArray *files = g_array_new (FALSE, FALSE, sizeof (CacheEntry));
  int fd = openat (dir->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *listing = fd >= 0 ? fdopendir (fd) : NULL;
  struct dirent *dent;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  g_array_set_clear_func (files, cache_entry_clear);
  *total = 0;
  if (listing == NULL)
    {
      if (fd >= 0)
        close (fd);
      return files;
    }
  while ((dent = readdir (listing)) != NULL)
    {
      struct stat st;
      CacheEntry entry;

      if (fstatat (dir->fd, dent->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG (st.st_mode))
        continue;
      if (g_str_has_prefix (dent->d_name, TEMP_PREFIX))
        {
          if (now - st.st_mtim.tv_sec > STALE_TEMP_SECONDS)
            unlinkat (dir->fd, dent->d_name, 0);
          continue;
        }
      if (!g_str_has_suffix (dent->d_name, ".sym"))
        continue;
      entry.name = g_strdup (dent->d_name);
      entry.used = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
      entry.size = (guint64) st.st_size;
      *total += entry.size;
      g_array_append_val (files, entry);
    }
  closedir (listing);
  return files;
}

void
_sp_symbol_cache_dir_prune (SpSymbolCacheDir *dir,
                            const char *keep)
{
  guint64 total;
  g_autoptr (GArray) files = list_files (dir, &total);

  if (total <= dir->max_bytes)
    return;
  g_array_sort (files, compare_by_use);
  for (guint i = 0; i < files->len && total > dir->max_bytes; i++)
    {
      const CacheEntry *entry = &g_array_index (files, CacheEntry, i);

      if (g_str_equal (entry->name, keep))
        continue;
      if (unlinkat (dir->fd, entry->name, 0) == 0)
        total -= entry->size;
    }
}
