/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-target.h: the processes a recording samples.
 *
 * Launch: the child is forked and held on a pipe until the events are in
 * place, then execs (the events count from that exec). Attach: the tasks
 * and executable mappings of running processes, from /proc. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sp-invoker.h"
#include "sp-spool-format.h"

typedef struct {
  pid_t pid;
  int   go_fd;     /* closing/writing it lets the child exec */
  int   error_fd;  /* the child writes errno here if exec fails */
} SpLaunch;

/* Forks the held child; stdin_null gives it /dev/null as standard input
 * (when the recorder's own stdin is its control channel); directory, when
 * not NULL, is where it runs; invoker, when active, whom it runs as. */
bool sp_launch_prepare (SpLaunch *launch,
                        char *const argv[],
                        const char *directory,
                        const SpInvoker *invoker,
                        bool stdin_null,
                        char *message,
                        size_t message_size);

/* What the child could not do before its program ran. */
typedef enum {
  SP_LAUNCH_STEP_USER,       /* become the invoker */
  SP_LAUNCH_STEP_DIRECTORY,  /* change to the directory */
  SP_LAUNCH_STEP_EXEC,
} SpLaunchStep;

/* Lets the child exec. Returns false with the step that failed and its
 * errno when it could not. */
bool sp_launch_release (SpLaunch *launch,
                        SpLaunchStep *failed_step,
                        int *failed_errno);

/* Kills and reaps a child that never got to exec. */
void sp_launch_abort (SpLaunch *launch);

typedef void (*SpTaskFunc) (pid_t pid, pid_t tid, const char *name, void *user_data);
/* module->path is NUL-terminated (and lives only during the call). */
typedef void (*SpMappingFunc) (const SpModule *module, void *user_data);

/* Calls func for every thread of pid; returns how many (0: no process). */
size_t sp_proc_foreach_task (pid_t pid,
                             SpTaskFunc func,
                             void *user_data);

/* Calls func for every executable mapping of pid; false if unreadable. */
bool sp_proc_foreach_mapping (pid_t pid,
                              SpMappingFunc func,
                              void *user_data);

bool sp_proc_exists (pid_t pid);

/* Up to size - 1 bytes of a /proc (or /sys) file, NUL-terminated: how
 * many, or -1 when it cannot be read. */
ssize_t sp_proc_read_file (const char *path,
                           char *buffer,
                           size_t size);

/* The state letter /proc gives thread tid of process pid ('R' running
 * or runnable, 'S' sleeping, 'D' waiting for the disk, …); '\0' when it
 * cannot be read. */
char sp_proc_task_state (pid_t pid,
                         pid_t tid);

/* Whether thread tid of process pid exists and has not exited (a zombie
 * no parent reaped yet has). */
bool sp_proc_task_alive (pid_t pid,
                         pid_t tid);
