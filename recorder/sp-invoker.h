/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-invoker.h: who asked for a recording made with raised privileges.
 *
 * Under pkexec (PKEXEC_UID) or sudo (SUDO_UID, SUDO_GID) the recorder runs
 * as root so that perf_event lets it sample everything, kernel stacks
 * too; nothing else should run with those rights. The launched program
 * runs as the user who asked (ids, groups and the environment's HOME, USER,
 * LOGNAME and SHELL), and the files the recorder creates are that user's,
 * created with that user's rights. Without either variable, or when the
 * recorder is not root, there is no invoker and nothing changes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
  bool   active;
  uid_t  uid;
  gid_t  gid;
  gid_t *groups;        /* supplementary groups, gid among them */
  size_t n_groups;
  char  *name;          /* NULL when the user database does not know uid */
  char  *home;
  char  *shell;
} SpInvoker;

/* Reads the variables (and the user database). False, with a message,
 * when they name no user it can run the program as: better no recording
 * than a program run as root by mistake. */
bool sp_invoker_from_environment (SpInvoker *invoker,
                                  char *message,
                                  size_t size);

void sp_invoker_clear (SpInvoker *invoker);

/* HOME, USER, LOGNAME and SHELL as the user's login sets them (what
 * pkexec set them to is root's), PATH /usr/local/bin:/usr/bin:/bin, and
 * no PKEXEC_UID, SUDO_UID, SUDO_GID, SUDO_USER, SUDO_COMMAND; false when
 * the environment is full. */
bool sp_invoker_set_environment (const SpInvoker *invoker);

/* In the child, between fork and exec (async-signal-safe): groups, then
 * gid, then uid, real, effective and saved alike. Returns 0 or errno. */
int sp_invoker_become (const SpInvoker *invoker);

/* Files created between these two are the invoker's: the file system
 * checks and owns them as that user. No-ops without an invoker. */
void sp_invoker_files_begin (const SpInvoker *invoker);
void sp_invoker_files_end (const SpInvoker *invoker);
