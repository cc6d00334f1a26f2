/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-invoker.c: the invoking user, from PKEXEC_UID or SUDO_UID. */
#include "sp-invoker.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <unistd.h>

/* Digits only, an id that fits (and is not -1, "no change" to the
 * kernel). */
static bool
parse_id (const char *text,
          unsigned long *id)
{
  char *end;

  if (text[0] < '0' || text[0] > '9')
    return false;
  errno = 0;
  *id = strtoul (text, &end, 10);
  return errno == 0 && *end == '\0' && *id < (unsigned long) (uid_t) -1;
}

/* The user's groups as login would set them: initgroups' list, read here
 * since the child may not read files between fork and exec. */
static bool
load_groups (SpInvoker *invoker)
{
  int n = 16;

  for (;;)
    {
      gid_t *groups = realloc (invoker->groups, (size_t) n * sizeof *groups);
      int want = n;

      if (groups == NULL)
        return false;
      invoker->groups = groups;
      if (getgrouplist (invoker->name, invoker->gid, groups, &want) >= 0)
        {
          invoker->n_groups = (size_t) want;
          return true;
        }
      if (want <= n)
        return false;
      n = want;
    }
}

static char *
copy_or_null (const char *text)
{
  return text != NULL ? strdup (text) : NULL;
}

/* An empty variable counts as unset (the tests' way to unset one). */
static const char *
getenv_set (const char *name)
{
  const char *value = getenv (name);

  return value != NULL && value[0] != '\0' ? value : NULL;
}

bool
sp_invoker_from_environment (SpInvoker *invoker,
                             char *message,
                             size_t size)
{
  const char *pkexec_uid = getenv_set ("PKEXEC_UID");
  const char *variable = pkexec_uid != NULL ? "PKEXEC_UID" : "SUDO_UID";
  const char *uid_text = pkexec_uid != NULL ? pkexec_uid : getenv_set ("SUDO_UID");
  const char *gid_text = pkexec_uid != NULL ? NULL : getenv_set ("SUDO_GID");
  unsigned long uid, gid = 0;
  struct passwd *pw;

  memset (invoker, 0, sizeof *invoker);
  if (uid_text == NULL || geteuid () != 0)
    return true;
  if (!parse_id (uid_text, &uid) || (gid_text != NULL && !parse_id (gid_text, &gid)))
    {
      snprintf (message, size, "%s=%s%s%s names no user id: the command would run as root", variable, uid_text,
                gid_text != NULL ? ", SUDO_GID=" : "", gid_text != NULL ? gid_text : "");
      return false;
    }
  if (uid == 0)
    return true;  /* root asked: root it stays */
  pw = getpwuid ((uid_t) uid);
  if (pw == NULL && gid_text == NULL)
    {
      snprintf (message, size, "%s=%lu is in no user database, so its group is unknown: the command would run as root",
                variable, uid);
      return false;
    }
  invoker->active = true;
  invoker->uid = (uid_t) uid;
  invoker->gid = gid_text != NULL ? (gid_t) gid : pw->pw_gid;
  if (pw != NULL)
    {
      invoker->name = strdup (pw->pw_name);
      invoker->home = copy_or_null (pw->pw_dir);
      invoker->shell = copy_or_null (pw->pw_shell);
    }
  if (invoker->name == NULL || !load_groups (invoker))
    {
      /* No name, no list: the primary group alone. */
      free (invoker->groups);
      invoker->groups = malloc (sizeof *invoker->groups);
      if (invoker->groups == NULL)
        {
          snprintf (message, size, "out of memory");
          sp_invoker_clear (invoker);
          return false;
        }
      invoker->groups[0] = invoker->gid;
      invoker->n_groups = 1;
    }
  return true;
}

void
sp_invoker_clear (SpInvoker *invoker)
{
  free (invoker->groups);
  free (invoker->name);
  free (invoker->home);
  free (invoker->shell);
  memset (invoker, 0, sizeof *invoker);
}

static bool
set_or_unset (const char *key,
              const char *value)
{
  return value != NULL ? setenv (key, value, 1) == 0 : unsetenv (key) == 0;
}

/* Root's own variables: the command is the user's, not root's (PKEXEC_UID
 * or SUDO_UID in its environment would make it believe it runs under
 * pkexec or sudo), and root's PATH is not the user's. */
static const char *const ROOT_ONLY_VARIABLES[] = {
  "PKEXEC_UID", "SUDO_UID", "SUDO_GID", "SUDO_USER", "SUDO_COMMAND",
};

#define SAFE_PATH "/usr/local/bin:/usr/bin:/bin"

bool
sp_invoker_set_environment (const SpInvoker *invoker)
{
  if (!invoker->active)
    return true;
  for (size_t i = 0; i < sizeof ROOT_ONLY_VARIABLES / sizeof ROOT_ONLY_VARIABLES[0]; i++)
    if (unsetenv (ROOT_ONLY_VARIABLES[i]) != 0)
      return false;
  /* Without a name, root's values would be wrong: none is better. */
  return set_or_unset ("HOME", invoker->home) && set_or_unset ("USER", invoker->name)
         && set_or_unset ("LOGNAME", invoker->name) && set_or_unset ("SHELL", invoker->shell)
         && setenv ("PATH", SAFE_PATH, 1) == 0;
}

int
sp_invoker_become (const SpInvoker *invoker)
{
  if (!invoker->active)
    return 0;
  if (setgroups (invoker->n_groups, invoker->groups) != 0
      || setresgid (invoker->gid, invoker->gid, invoker->gid) != 0
      || setresuid (invoker->uid, invoker->uid, invoker->uid) != 0)
    return errno;
  return 0;
}

/* The groups count in the file system's checks: the user's, for good
 * (root's rights rest on its capabilities, not its groups). */
void
sp_invoker_files_begin (const SpInvoker *invoker)
{
  if (invoker == NULL || !invoker->active)
    return;
  (void) !setgroups (invoker->n_groups, invoker->groups);
  setfsgid (invoker->gid);
  setfsuid (invoker->uid);
}

void
sp_invoker_files_end (const SpInvoker *invoker)
{
  if (invoker == NULL || !invoker->active)
    return;
  setfsuid (geteuid ());
  setfsgid (getegid ());
}
