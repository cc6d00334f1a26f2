/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-background.c: a worker's nice value, raised once per thread. */
#include "sp-background.h"

#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

/* Above the process's own: 10 weighs a tenth of a nice-0 thread for
 * Linux's scheduler, yet gets every idle cycle. */
#define BACKGROUND_NICE 10

void
sp_background_thread_enter (void)
{
  static GPrivate lowered;
  int now;

  if (g_private_get (&lowered) != NULL)
    return;
  g_private_set (&lowered, GINT_TO_POINTER (1));
#ifdef __linux__
  /* PRIO_PROCESS with a thread id sets that thread only (Linux). */
  errno = 0;
  now = getpriority (PRIO_PROCESS, (id_t) gettid ());
  if (errno == 0)
    (void) setpriority (PRIO_PROCESS, (id_t) gettid (), MIN (now + BACKGROUND_NICE, 19));
#else
  (void) now;
#endif
}
