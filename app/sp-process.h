/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process.h: a running process one could attach to, as /proc shows it.
 *
 * GLib only (no GTK): the process picker lists these, and tests read them
 * without a display. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SP_TYPE_PROCESS (sp_process_get_type ())

G_DECLARE_FINAL_TYPE (SpProcess, sp_process, SP, PROCESS, GObject)

int         sp_process_get_pid          (SpProcess *self);
guint       sp_process_get_uid          (SpProcess *self);
const char *sp_process_get_name         (SpProcess *self);  /* comm, or the program's file name it cuts short */
const char *sp_process_get_user         (SpProcess *self);  /* the uid's name, or the number */
const char *sp_process_get_command_line (SpProcess *self);  /* arguments joined by spaces */
double      sp_process_get_cpu_seconds  (SpProcess *self);  /* user + system time so far */
guint64     sp_process_get_start_time   (SpProcess *self);  /* clock ticks after boot */

/* Whether every word of search (split at spaces, case ignored) is part of
 * the pid, the name, the user or the command line. An empty search
 * matches. */
gboolean sp_process_matches (SpProcess *self,
                             const char *search);

/* Orders the current user's processes first, then the newest first: the
 * program one just started is at the top. */
int sp_process_compare (gconstpointer a,
                        gconstpointer b,
                        gpointer user_data);

/* The processes in proc_dir (NULL: /proc) that can be sampled: no kernel
 * threads, no zombies; sorted by sp_process_compare. */
GListStore *sp_process_list_running (const char *proc_dir);

/* The process pid, or NULL when it is gone (or not a process one could
 * sample). */
SpProcess *sp_process_new_for_pid (const char *proc_dir,
                                   int pid);

G_END_DECLS
