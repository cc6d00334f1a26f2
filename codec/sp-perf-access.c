/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-access.c: perf_event_paranoid, the capabilities that override
 * it, and the kernel's version. */
#include "sp-perf-access.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* linux/capability.h numbers (not every libc has CAP_PERFMON). */
#define SP_CAP_SYS_ADMIN 21
#define SP_CAP_PERFMON   38

int
sp_perf_paranoid (void)
{
  FILE *file = fopen ("/proc/sys/kernel/perf_event_paranoid", "re");
  int paranoid = 2;

  if (file == NULL)
    return paranoid;
  if (fscanf (file, "%d", &paranoid) != 1)
    paranoid = 2;
  fclose (file);
  return paranoid;
}

/* The effective capability set (/proc/self/status "CapEff:"), 0 when
 * unreadable. */
static uint64_t
effective_capabilities (void)
{
  FILE *file = fopen ("/proc/self/status", "re");
  char line[256];
  uint64_t caps = 0;

  if (file == NULL)
    return 0;
  while (fgets (line, sizeof line, file) != NULL)
    if (strncmp (line, "CapEff:", 7) == 0)
      {
        caps = strtoull (line + 7, NULL, 16);
        break;
      }
  fclose (file);
  return caps;
}

bool
sp_perf_kernel_sampling_allowed (void)
{
  uint64_t caps;

  if (sp_perf_paranoid () <= 1)
    return true;
  caps = effective_capabilities ();
  return (caps & (UINT64_C (1) << SP_CAP_PERFMON)) != 0 || (caps & (UINT64_C (1) << SP_CAP_SYS_ADMIN)) != 0;
}

bool
sp_perf_has_switch_records (void)
{
  struct utsname name;
  int major = 0, minor = 0;

  if (access ("/proc/sys/kernel/perf_event_paranoid", F_OK) != 0 || uname (&name) != 0
      || sscanf (name.release, "%d.%d", &major, &minor) != 2)
    return false;
  return major > 4 || (major == 4 && minor >= 3);
}

void
sp_perf_offcpu_stacks_reason (int paranoid,
                              char *reason,
                              size_t size)
{
  snprintf (reason, size, "context-switch samples need kernel sampling: kernel.perf_event_paranoid=%d "
            "(root, CAP_PERFMON, or perf_event_paranoid <= 1)", paranoid);
}
