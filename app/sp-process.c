/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process.c: reading /proc/PID/{stat,cmdline} for the process picker.
 *
 * A process may end while it is read: every read can fail, and such a
 * process is left out rather than shown half-known. */
#include "sp-process.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* include/linux/sched.h: a kernel thread, which has no user stack to
 * sample and cannot be attached to by pid in any useful way. */
#define PF_KTHREAD 0x00200000
#define TASK_COMM_LEN 16

struct _SpProcess
{
  GObject  parent_instance;

  int      pid;
  guint    uid;
  char    *name;
  char    *user;
  char    *command_line;
  char    *haystack;      /* "pid\nname\nuser\ncommand line", case-folded */
  double   cpu_seconds;
  guint64  start_time;
};

G_DEFINE_FINAL_TYPE (SpProcess, sp_process, G_TYPE_OBJECT)

static void
sp_process_finalize (GObject *object)
{
  SpProcess *self = SP_PROCESS (object);

  g_free (self->name);
  g_free (self->user);
  g_free (self->command_line);
  g_free (self->haystack);
  G_OBJECT_CLASS (sp_process_parent_class)->finalize (object);
}

static void
sp_process_class_init (SpProcessClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sp_process_finalize;
}

static void
sp_process_init (SpProcess *self)
{
}

int sp_process_get_pid (SpProcess *self) { return self->pid; }
guint sp_process_get_uid (SpProcess *self) { return self->uid; }
const char *sp_process_get_name (SpProcess *self) { return self->name; }
const char *sp_process_get_user (SpProcess *self) { return self->user; }
const char *sp_process_get_command_line (SpProcess *self) { return self->command_line; }
double sp_process_get_cpu_seconds (SpProcess *self) { return self->cpu_seconds; }
guint64 sp_process_get_start_time (SpProcess *self) { return self->start_time; }

gboolean
sp_process_matches (SpProcess *self,
                    const char *search)
{
  g_autofree char *folded = g_utf8_casefold (search, -1);
  g_auto (GStrv) words = g_strsplit_set (folded, " \t", -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && strstr (self->haystack, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

int
sp_process_compare (gconstpointer a,
                    gconstpointer b,
                    gpointer user_data)
{
  SpProcess *pa = SP_PROCESS ((gpointer) a);
  SpProcess *pb = SP_PROCESS ((gpointer) b);
  gboolean mine_a = pa->uid == getuid ();
  gboolean mine_b = pb->uid == getuid ();

  if (mine_a != mine_b)
    return mine_a ? -1 : 1;
  if (pa->start_time != pb->start_time)
    return pa->start_time > pb->start_time ? -1 : 1;
  return pb->pid - pa->pid;
}

/* ---- Reading /proc ---------------------------------------------------- */

typedef struct {
  char    *name;
  char     state;
  gulong   flags;
  guint64  cpu_ticks;
  guint64  start_time;
} Stat;

/* "PID (NAME) S PPID ...": the name may hold spaces and parentheses, so
 * the fields start after the last ')'. */
static gboolean
read_stat (const char *dir,
           Stat *stat)
{
  g_autofree char *path = g_build_filename (dir, "stat", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;
  char *open, *close;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  open = strchr (text, '(');
  close = strrchr (text, ')');
  if (open == NULL || close == NULL || close < open || close[1] != ' ')
    return FALSE;
  fields = g_strsplit (close + 2, " ", 21);
  if (g_strv_length (fields) < 20)
    return FALSE;
  stat->name = g_strndup (open + 1, (gsize) (close - open - 1));
  stat->state = fields[0][0];
  stat->flags = strtoul (fields[6], NULL, 10);
  stat->cpu_ticks = g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10);
  stat->start_time = g_ascii_strtoull (fields[19], NULL, 10);
  return TRUE;
}

/* The arguments, NUL-separated in the file, joined by spaces; program
 * gets the first one's file name. */
static char *
read_command_line (const char *dir,
                   char **program)
{
  g_autofree char *path = g_build_filename (dir, "cmdline", NULL);
  char *text = NULL;
  gsize length = 0;

  *program = NULL;
  if (!g_file_get_contents (path, &text, &length, NULL))
    return g_strdup ("");
  if (length > 0)
    *program = g_path_get_basename (text);
  while (length > 0 && text[length - 1] == '\0')
    length--;
  for (gsize i = 0; i < length; i++)
    if (text[i] == '\0' || text[i] == '\n')
      text[i] = ' ';
  text[length] = '\0';
  return text;
}

/* The kernel keeps 15 bytes of a name: "stackpulse-reco". When the
 * program's file name goes on from there, that is the name. */
static void
complete_name (char **name,
               const char *program)
{
  if (program != NULL && strlen (*name) == TASK_COMM_LEN - 1 && g_str_has_prefix (program, *name))
    {
      g_free (*name);
      *name = g_strdup (program);
    }
}

static char *
user_name (guint uid,
           GHashTable *names)
{
  const char *known = g_hash_table_lookup (names, GUINT_TO_POINTER (uid));
  struct passwd entry, *found = NULL;
  char buffer[1024];

  if (known == NULL)
    {
      if (getpwuid_r (uid, &entry, buffer, sizeof buffer, &found) == 0 && found != NULL)
        known = g_strdup (found->pw_name);
      else
        known = g_strdup_printf ("%u", uid);
      g_hash_table_insert (names, GUINT_TO_POINTER (uid), (char *) known);
    }
  return g_strdup (known);
}

static SpProcess *
read_process (const char *proc_dir,
              int pid,
              GHashTable *names)
{
  g_autofree char *pid_text = g_strdup_printf ("%d", pid);
  g_autofree char *dir = g_build_filename (proc_dir != NULL ? proc_dir : "/proc", pid_text, NULL);
  g_autofree char *haystack = NULL;
  g_autofree char *program = NULL;
  Stat stat_fields = { 0 };
  struct stat st;
  SpProcess *self;

  if (stat (dir, &st) != 0 || !read_stat (dir, &stat_fields))
    return NULL;
  if ((stat_fields.flags & PF_KTHREAD) != 0 || stat_fields.state == 'Z' || stat_fields.state == 'X')
    {
      g_free (stat_fields.name);
      return NULL;
    }
  self = g_object_new (SP_TYPE_PROCESS, NULL);
  self->pid = pid;
  self->uid = st.st_uid;
  self->name = stat_fields.name;
  self->user = user_name (st.st_uid, names);
  self->command_line = read_command_line (dir, &program);
  complete_name (&self->name, program);
  self->cpu_seconds = (double) stat_fields.cpu_ticks / (double) sysconf (_SC_CLK_TCK);
  self->start_time = stat_fields.start_time;
  haystack = g_strdup_printf ("%d\n%s\n%s\n%s", pid, self->name, self->user, self->command_line);
  self->haystack = g_utf8_casefold (haystack, -1);
  return self;
}

SpProcess *
sp_process_new_for_pid (const char *proc_dir,
                        int pid)
{
  g_autoptr (GHashTable) names = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  return read_process (proc_dir, pid, names);
}

GListStore *
sp_process_list_running (const char *proc_dir)
{
  g_autoptr (GHashTable) names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GDir) dir = g_dir_open (proc_dir != NULL ? proc_dir : "/proc", 0, NULL);
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);
  GListStore *store = g_list_store_new (SP_TYPE_PROCESS);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      char *end;
      long pid = strtol (entry, &end, 10);
      SpProcess *process;

      if (*end != '\0' || pid <= 0 || pid > G_MAXINT)
        continue;
      if ((process = read_process (proc_dir, (int) pid, names)) != NULL)
        g_ptr_array_add (found, process);
    }
  g_list_store_splice (store, 0, 0, found->pdata, found->len);
  g_list_store_sort (store, sp_process_compare, NULL);
  return store;
}
