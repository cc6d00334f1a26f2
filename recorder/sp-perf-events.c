/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-events.c: perf_event_open, ring buffers, and the reasons the
 * kernel gives when it says no. */
#include "sp-perf-events.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sp-perf-access.h"

/* A sampling ring holds this long of samples at the frequency asked for:
 * the thread that drains the rings (sp-ring-drain.c) wakes when one is a
 * quarter full, or every 50 ms, and has the rest of this to be scheduled
 * on a busy machine before the kernel has to drop samples. */
#define RING_FILL_MS       200
/* 512 KiB per CPU at least: 4 kHz of deep frame-pointer stacks for 100 ms. */
#define RING_PAGES_DEFAULT 128
/* 16 MiB per CPU at most (the kernel's copies go to colder caches in a
 * bigger ring, and it is locked memory): 200 ms of 16 KiB copies at 4 kHz. */
#define RING_PAGES_MAX     4096
/* Callchain entries a sample is reckoned to carry: the kernel's frames,
 * or in fp mode a deep user stack. */
#define CALLCHAIN_ESTIMATE 32
#define RING_PAGES_MIN     8
/* 32 KiB per CPU: about 700 switch records, 1/4 of them a wakeup. */
#define RING_PAGES_RECORDS_LIMITED 8
/* 2 MiB per CPU: 40 ms of switch records at 400,000 switches a second. */
#define RING_PAGES_CGROUP_RECORDS 512

static long
perf_event_open (struct perf_event_attr *attr,
                 pid_t pid,
                 int cpu,
                 int group_fd,
                 unsigned long flags)
{
  return syscall (SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* One event of task tid on cpu, or with a cgroup (sp_perf_events_add_cgroup)
 * of every task in it there. */
static int
open_event (const SpPerfEvents *events,
            struct perf_event_attr *attr,
            pid_t tid,
            int cpu)
{
  if (events->cgroup_fd >= 0)
    return (int) perf_event_open (attr, events->cgroup_fd, cpu, -1, PERF_FLAG_FD_CLOEXEC | PERF_FLAG_PID_CGROUP);
  return (int) perf_event_open (attr, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int
read_sysctl_int (const char *path,
                 int fallback)
{
  FILE *file = fopen (path, "re");
  int value = fallback;

  if (file != NULL)
    {
      if (fscanf (file, "%d", &value) != 1)
        value = fallback;
      fclose (file);
    }
  return value;
}

unsigned
sp_perf_max_stack (void)
{
  int value = read_sysctl_int ("/proc/sys/kernel/perf_event_max_stack", 127);

  return value > 0 ? (unsigned) value : 127;
}

size_t
sp_perf_events_sample_bytes (const SpPerfConfig *config)
{
  /* header, ip, pid/tid, time; the callchain's count and entries */
  size_t bytes = 8 + 8 + 8 + 8 + 8 + 8 * CALLCHAIN_ESTIMATE;

  /* the registers' ABI and values; the copy's size, bytes and dyn_size */
  if (config->call_graph != SP_CALL_GRAPH_FP)
    bytes += 8 + 8 * (size_t) __builtin_popcountll (config->regs_mask) + 8 + config->stack_size + 8;
  return bytes;
}

/* What a user without CAP_IPC_LOCK may lock in perf rings, in pages:
 * perf_event_mlock_kb per online CPU, and RLIMIT_MEMLOCK beyond that
 * (SIZE_MAX: no limit). */
static size_t
lockable_pages (void)
{
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  size_t page_kb = (size_t) sysconf (_SC_PAGESIZE) / 1024;
  size_t pages = (size_t) read_sysctl_int ("/proc/sys/kernel/perf_event_mlock_kb", 516) / page_kb
                 * (size_t) (cpus > 0 ? cpus : 1);
  struct rlimit limit;

  if (getrlimit (RLIMIT_MEMLOCK, &limit) == 0)
    {
      if (limit.rlim_cur == RLIM_INFINITY)
        return SIZE_MAX;
      pages += (size_t) (limit.rlim_cur / (rlim_t) sysconf (_SC_PAGESIZE));
    }
  return pages;
}

/* Each sampling ring's pages (a power of two): RING_FILL_MS of samples at
 * the frequency, within RING_PAGES_DEFAULT and RING_PAGES_MAX; without
 * root, an even share of what the user may lock among every CPU's rings
 * (with --off-cpu the switch rings are as big, and the rings of switch
 * records are opened first), so that no CPU gets a ring the others had
 * no room left for. */
static size_t
ring_pages_for (const SpPerfConfig *config)
{
  long cpus = sysconf (_SC_NPROCESSORS_CONF);
  size_t page_size = (size_t) sysconf (_SC_PAGESIZE);
  uint64_t want = (uint64_t) config->frequency_hz * sp_perf_events_sample_bytes (config) * RING_FILL_MS / 1000;
  size_t pages = RING_PAGES_DEFAULT, lockable, rings, share;

  while (pages < RING_PAGES_MAX && (uint64_t) pages * page_size < want)
    pages *= 2;
  if (geteuid () == 0 || (lockable = lockable_pages ()) == SIZE_MAX)
    return pages;
  cpus = cpus > 0 ? cpus : 1;
  rings = (size_t) cpus * (config->off_cpu ? 2 : 1);
  if (config->off_cpu)
    lockable -= lockable > (size_t) cpus * (RING_PAGES_RECORDS_LIMITED + 1) ? (size_t) cpus * (RING_PAGES_RECORDS_LIMITED + 1)
                                                                          : lockable;
  share = lockable / rings;
  /* The ring's first page is the kernel's header. */
  while (pages > RING_PAGES_MIN && pages + 1 > share)
    pages /= 2;
  return pages;
}

void
sp_perf_events_init (SpPerfEvents *events,
                     const SpPerfConfig *config)
{
  long n = sysconf (_SC_NPROCESSORS_CONF);

  memset (events, 0, sizeof *events);
  events->config = *config;
  events->n_cpus = n > 0 ? (int) n : 1;
  events->ring_fd_of_cpu = malloc (sizeof (int) * (size_t) events->n_cpus);
  events->rings = calloc ((size_t) events->n_cpus, sizeof (SpPerfRing));
  events->switch_ring_fd_of_cpu = malloc (sizeof (int) * (size_t) events->n_cpus);
  events->switch_rings = calloc ((size_t) events->n_cpus, sizeof (SpPerfRing));
  events->record_ring_fd_of_cpu = malloc (sizeof (int) * (size_t) events->n_cpus);
  events->record_rings = calloc ((size_t) events->n_cpus, sizeof (SpPerfRing));
  for (int cpu = 0; cpu < events->n_cpus; cpu++)
    events->ring_fd_of_cpu[cpu] = events->switch_ring_fd_of_cpu[cpu] = events->record_ring_fd_of_cpu[cpu] = -1;
  events->cgroup_fd = -1;
  events->ring_pages = ring_pages_for (config);
  /* Switch records are 48 bytes: without CAP_IPC_LOCK (not root) their
   * rings stay small, opened before the sampling rings, they would take
   * the user's locked-memory allowance (perf_event_mlock_kb) from them. */
  events->record_ring_pages = geteuid () == 0 ? RING_PAGES_DEFAULT : RING_PAGES_RECORDS_LIMITED;
}

uint64_t
sp_perf_events_sample_type (const SpPerfConfig *config)
{
  uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;

  if (config->call_graph != SP_CALL_GRAPH_FP)
    type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  return type;
}

static void
fill_attr (const SpPerfEvents *events,
           struct perf_event_attr *attr,
           bool kernel,
           bool switch_records)
{
  memset (attr, 0, sizeof *attr);
  attr->size = sizeof *attr;
  attr->type = PERF_TYPE_SOFTWARE;
  attr->config = PERF_COUNT_SW_CPU_CLOCK;
  attr->freq = 1;
  attr->sample_freq = events->config.frequency_hz;
  attr->sample_type = sp_perf_events_sample_type (&events->config);
  if (events->config.call_graph != SP_CALL_GRAPH_FP)
    {
      /* User frames come from the copy; the kernel's chain is its own part. */
      attr->sample_regs_user = events->config.regs_mask;
      attr->sample_stack_user = events->config.stack_size;
      attr->exclude_callchain_user = 1;
    }
  attr->disabled = 1;
  attr->inherit = !events->per_cpu;
  attr->enable_on_exec = events->config.enable_on_exec;
  /* mmap2 alone yields no mapping records here; mmap turns them on. */
  attr->mmap = 1;
  attr->mmap2 = 1;
  attr->comm = 1;
  attr->comm_exec = 1;
  attr->task = 1;
  if (events->task_records_apart)
    attr->mmap = attr->mmap2 = attr->comm = attr->comm_exec = attr->task = 0;
  attr->sample_id_all = 1;
  attr->use_clockid = 1;
  attr->clockid = CLOCK_MONOTONIC;
  attr->exclude_hv = 1;
  attr->exclude_kernel = !kernel;
  attr->exclude_callchain_kernel = !kernel;
  attr->watermark = 1;
  attr->wakeup_watermark = (uint32_t) (events->ring_pages * (size_t) sysconf (_SC_PAGESIZE) / 4);
  /* A record at every switch-out and switch-in of every followed thread,
   * for any user who may sample it (docs/OFF-CPU.md): on the events whose
   * rings carry them. */
  attr->context_switch = switch_records;
}

/* The context-switches event: one sample per switch-out, taken in the
 * thread switching out, with the on-CPU samples' callchain and stack copy.
 * The switch happens in the kernel, so it fires only with exclude_kernel
 * off; the kernel's frames are kept only with kernel stacks. The task
 * records (mappings, names, forks) come from the cpu-clock events. */
static void
fill_switch_attr (const SpPerfEvents *events,
                  struct perf_event_attr *attr)
{
  fill_attr (events, attr, true, false);
  attr->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
  attr->freq = 0;
  attr->sample_period = 1;
  attr->exclude_callchain_kernel = !events->config.kernel_stacks;
  attr->mmap = attr->mmap2 = attr->comm = attr->comm_exec = attr->task = 0;
  if (events->config.call_graph != SP_CALL_GRAPH_FP && events->config.switch_stack_size < events->config.stack_size)
    {
      /* A shorter copy than a running stack's (--off-cpu-stack-size),
       * unwound as far as it goes, and the kernel's frame-pointer chain to
       * go on from where it ends. */
      attr->sample_stack_user = events->config.switch_stack_size;
      attr->exclude_callchain_user = 0;
    }
}

/* An event that never samples (dummy), only there for the switch records,
 * in rings of their own. */
static void
fill_switch_record_attr (const SpPerfEvents *events,
                         struct perf_event_attr *attr)
{
  fill_attr (events, attr, false, true);
  attr->wakeup_watermark = (uint32_t) (events->record_ring_pages * (size_t) sysconf (_SC_PAGESIZE) / 4);
  attr->config = PERF_COUNT_SW_DUMMY;
  attr->freq = 0;
  attr->sample_period = 1;
  attr->mmap = attr->mmap2 = attr->comm = attr->comm_exec = attr->task = 0;
}

static void
explain_open_failure (int err,
                      pid_t tid,
                      char *message,
                      size_t size)
{
  int paranoid = sp_perf_paranoid ();

  if (err == EACCES || err == EPERM)
    snprintf (message, size,
              "the kernel refused to sample task %d (%s).\n"
              "kernel.perf_event_paranoid is %d: sampling your own processes needs 2 or less,\n"
              "other users' processes need root or CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8).\n"
              "Fix: run as root, grant CAP_PERFMON, or: sudo sysctl kernel.perf_event_paranoid=1",
              (int) tid, strerror (err), paranoid);
  else if (err == ESRCH)
    snprintf (message, size, "task %d does not exist (any more)", (int) tid);
  else if (err == ENOENT || err == EOPNOTSUPP)
    snprintf (message, size, "this kernel has no cpu-clock software event (%s)", strerror (err));
  else if (err == ENOSYS)
    snprintf (message, size, "this kernel has no perf_event support (perf_event_open: %s)", strerror (err));
  else
    snprintf (message, size, "perf_event_open for task %d failed: %s", (int) tid, strerror (err));
}

static bool
remember_fd (SpPerfEvents *events,
             int fd)
{
  if (events->n_fds == events->fds_capacity)
    {
      size_t capacity = events->fds_capacity ? events->fds_capacity * 2 : 16;
      int *fds = realloc (events->fds, capacity * sizeof (int));

      if (fds == NULL)
        return false;
      events->fds = fds;
      events->fds_capacity = capacity;
    }
  events->fds[events->n_fds++] = fd;
  return true;
}

/* One kind of event's rings: one per CPU, shared by its events there. */
typedef struct {
  int        *fd_of_cpu;
  SpPerfRing *rings;
  size_t     *n_rings;
  size_t     *pages;      /* their size, halved while the locked-memory limit is in the way */
} RingSet;

/* The first event of a CPU gets the ring; smaller rings are tried when the
 * locked-memory limit (perf_event_mlock_kb) is in the way. */
static bool
attach_ring_of (SpPerfEvents *events,
                RingSet set,
                int cpu,
                int fd,
                char *message,
                size_t size)
{
  int err;

  if (set.fd_of_cpu[cpu] >= 0)
    {
      if (ioctl (fd, PERF_EVENT_IOC_SET_OUTPUT, set.fd_of_cpu[cpu]) == 0)
        return true;
      snprintf (message, size, "cannot share the ring buffer of CPU %d: %s", cpu, strerror (errno));
      return false;
    }
  while ((err = sp_perf_ring_map (&set.rings[*set.n_rings], fd, *set.pages)) == EPERM && *set.pages > RING_PAGES_MIN)
    *set.pages /= 2;
  if (err != 0)
    {
      snprintf (message, size,
                "cannot map a perf ring buffer (%s): the locked-memory limit is too low.\n"
                "kernel.perf_event_mlock_kb is %d KiB; raise it (sudo sysctl kernel.perf_event_mlock_kb=2048),\n"
                "or run as root",
                strerror (err), read_sysctl_int ("/proc/sys/kernel/perf_event_mlock_kb", 516));
      return false;
    }
  (*set.n_rings)++;
  set.fd_of_cpu[cpu] = fd;
  return true;
}

static bool
attach_ring (SpPerfEvents *events,
             int cpu,
             int fd,
             char *message,
             size_t size)
{
  return attach_ring_of (events, (RingSet) { events->ring_fd_of_cpu, events->rings, &events->n_rings,
                                             &events->ring_pages }, cpu, fd,
                         message, size);
}

/* A sampling event opened on cpu: closed with the others, writing into
 * the CPU's ring. */
static bool
keep_sampling_event (SpPerfEvents *events,
                     int cpu,
                     int fd,
                     char *message,
                     size_t size)
{
  if (!remember_fd (events, fd))
    {
      close (fd);
      snprintf (message, size, "out of memory");
      return false;
    }
  return attach_ring (events, cpu, fd, message, size);
}

static int
open_one (SpPerfEvents *events,
          pid_t tid,
          int cpu,
          bool switch_records)
{
  struct perf_event_attr attr;
  bool kernel = events->config.kernel_stacks && !events->kernel_refused;
  int fd;

  fill_attr (events, &attr, kernel, switch_records);
  fd = open_event (events, &attr, tid, cpu);
  if (fd < 0 && kernel && (errno == EACCES || errno == EPERM))
    {
      /* Kernel stacks refused: user stacks may still be allowed. */
      fill_attr (events, &attr, false, switch_records);
      fd = open_event (events, &attr, tid, cpu);
      if (fd >= 0)
        events->kernel_refused = true;
    }
  return fd;
}

bool
sp_perf_events_add_task (SpPerfEvents *events,
                         pid_t tid,
                         bool switch_records,
                         char *message,
                         size_t size)
{
  int opened = 0;

  if (switch_records)
    events->switch_records_shared = true;
  for (int cpu = 0; cpu < events->n_cpus; cpu++)
    {
      int fd = open_one (events, tid, cpu, switch_records);

      if (fd < 0 && errno == ENODEV)
        continue;  /* offline CPU */
      if (fd < 0)
        {
          explain_open_failure (errno, tid, message, size);
          return false;
        }
      if (!keep_sampling_event (events, cpu, fd, message, size))
        return false;
      opened++;
    }
  if (opened == 0)
    {
      snprintf (message, size, "no CPU could be sampled");
      return false;
    }
  return true;
}

/* An off-CPU event of tid on cpu, in that CPU's switch ring: its fd,
 * -ENODEV for an offline CPU, or -1 with why in *err. An event opened
 * whose ring could not be had writes nowhere. */
static int
open_in_ring_set (SpPerfEvents *events,
                  RingSet set,
                  struct perf_event_attr *attr,
                  pid_t tid,
                  int cpu,
                  int *err)
{
  char message[512];
  int fd = open_event (events, attr, tid, cpu);

  if (fd < 0 && errno == ENODEV)
    return -ENODEV;
  *err = fd < 0 ? errno : ENOMEM;
  if (fd < 0 || !remember_fd (events, fd))
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return attach_ring_of (events, set, cpu, fd, message, sizeof message) ? fd : -1;
}

/* The context-switches event (switch records and stacked samples); a
 * refusal, or a ring that cannot be had, costs the stacks from then on,
 * not the recording. */
static int
open_switch_sampler (SpPerfEvents *events,
                     pid_t tid,
                     int cpu)
{
  struct perf_event_attr attr;
  int fd;

  fill_switch_attr (events, &attr);
  fd = open_in_ring_set (events, (RingSet) { events->switch_ring_fd_of_cpu, events->switch_rings,
                                             &events->n_switch_rings, &events->ring_pages },
                         &attr, tid, cpu, &events->switch_errno);
  if (fd == -1)
    events->switch_refused = true;
  return fd;
}

/* The sched_switch tracepoint with the stack, the CPU, the cgroup's
 * running time and the tracepoint's fields (SP_SWITCH_TRACEPOINT_*). */
static void
fill_sched_switch_attr (const SpPerfEvents *events,
                        struct perf_event_attr *attr)
{
  fill_switch_attr (events, attr);
  attr->type = PERF_TYPE_TRACEPOINT;
  attr->config = events->sched_switch.id;
  attr->sample_type |= SP_SWITCH_TRACEPOINT_SAMPLE_TYPE;
  attr->read_format = SP_SWITCH_TRACEPOINT_READ_FORMAT;
}

/* The tracepoint's filters that split its samples by prev_state's task
 * bits (sp-sched-switch.c): a thread that blocked, one preempted (or
 * yielding, still runnable). Each switch-out passes exactly one. */
#define SCHED_SWITCH_BLOCKED_FILTER  "prev_state & 127"
#define SCHED_SWITCH_RUNNABLE_FILTER "!(prev_state & 127)"

/* Whether this kernel takes a filter (the negation came with its filter
 * parser's rewrite, 4.17): tried on an event of this thread that is never
 * enabled (an event takes one filter, once). */
static bool
sched_switch_filter_works (const SpPerfEvents *events,
                           const char *filter)
{
  struct perf_event_attr attr;
  bool works;
  int fd;

  fill_sched_switch_attr (events, &attr);
  fd = (int) perf_event_open (&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    return false;
  works = ioctl (fd, PERF_EVENT_IOC_SET_FILTER, filter) == 0;
  close (fd);
  return works;
}

/* One of a CPU's sched_switch events, with its filter (NULL: none). */
static int
open_sched_switch_event (SpPerfEvents *events,
                         int cpu,
                         const char *filter,
                         bool kernel_frames)
{
  struct perf_event_attr attr;
  int fd;

  fill_sched_switch_attr (events, &attr);
  if (!kernel_frames)
    attr.exclude_callchain_kernel = 1;
  /* Sized as the switch records' rings were (2 MiB): a ring sized for
   * the sampling rate would fill in a fraction of a millisecond at the
   * switch rates these samples come at, and a loss here is a switch. */
  fd = open_in_ring_set (events, (RingSet) { events->switch_ring_fd_of_cpu, events->switch_rings,
                                             &events->n_switch_rings, &events->record_ring_pages },
                         &attr, -1, cpu, &events->switch_errno);
  if (fd >= 0 && filter != NULL && ioctl (fd, PERF_EVENT_IOC_SET_FILTER, filter) != 0)
    {
      events->switch_errno = errno;
      return -1;  /* (open, but never enabled without its filter: see the caller) */
    }
  return fd;
}

/* A cgroup's switch-outs as sched_switch tracepoint samples (with the
 * stack, like the context-switches samples'), and the running time of the
 * cgroup on the CPU at each: the switch-ins follow from it
 * (sp-offcpu-recording.c).
 *
 * Where the kernel takes filters, two events per CPU: a blocked thread's
 * samples with the kernel's frames (what it waits in: a pipe, a futex, the
 * disk), a preempted thread's without (they are the scheduler's own path,
 * exit_to_user_mode_loop or irqentry_exit, and walking them is most of what
 * such a sample costs the program: docs/OFF-CPU.md). Both count their
 * running time from the same enabling, before the launch runs: one clock
 * (sp_perf_events_enable comes before sp_launch_release). */
static int
open_sched_switch_sampler (SpPerfEvents *events,
                           int cpu)
{
  int fd;

  if (!events->switch_tracepoint_split)
    return open_sched_switch_event (events, cpu, NULL, events->config.kernel_stacks);
  fd = open_sched_switch_event (events, cpu, SCHED_SWITCH_BLOCKED_FILTER, events->config.kernel_stacks);
  if (fd < 0)
    return fd;
  return open_sched_switch_event (events, cpu, SCHED_SWITCH_RUNNABLE_FILTER, false);
}

/* The switch records, in their own rings. */
static int
open_switch_records (SpPerfEvents *events,
                     pid_t tid,
                     int cpu)
{
  struct perf_event_attr attr;
  int err;

  fill_switch_record_attr (events, &attr);
  return open_in_ring_set (events, (RingSet) { events->record_ring_fd_of_cpu, events->record_rings,
                                               &events->n_record_rings, &events->record_ring_pages },
                           &attr, tid, cpu, &err);
}

bool
sp_perf_events_add_switch_task (SpPerfEvents *events,
                                pid_t tid)
{
  int opened = 0;

  for (int cpu = 0; cpu < events->n_cpus; cpu++)
    {
      int fd = open_switch_records (events, tid, cpu);

      if (fd == -ENODEV)
        continue;  /* offline CPU */
      if (fd >= 0)
        opened++;
      else if (opened == 0)
        return false;  /* nothing of tid yet: its sampling events take the records */
      else
        fprintf (stderr, "stackpulse-record: warning: the switch records of task %d on CPU %d cannot be had: %s\n",
                 (int) tid, cpu, strerror (errno));
      /* The stacks: a refusal costs them, not the records. */
      if (fd >= 0 && !events->switch_refused)
        open_switch_sampler (events, tid, cpu);
    }
  return true;
}

/* -a: the kernel's refusal to sample a whole CPU, and what allows it. */
static void
explain_cpu_failure (int err,
                     int cpu,
                     char *message,
                     size_t size)
{
  if (err == EACCES || err == EPERM)
    snprintf (message, size,
              "the kernel refused to sample every process on CPU %d (%s).\n"
              "kernel.perf_event_paranoid is %d: recording the whole system needs 0 or less,\n"
              "or root, or CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8).\n"
              "Fix: run as root (sudo, pkexec), grant CAP_PERFMON, or: sudo sysctl kernel.perf_event_paranoid=0",
              cpu, strerror (err), sp_perf_paranoid ());
  else
    explain_open_failure (err, -1, message, size);
}

/* -a: the task, mapping and name records of a CPU on a dummy event (it
 * never samples) in the CPU's ring of records, so that a flood of stack
 * copies in its sampling ring costs samples, never the records that name
 * processes and map their code. */
static int
open_task_records (SpPerfEvents *events,
                   int cpu,
                   bool switch_records)
{
  struct perf_event_attr attr;
  int err;

  fill_attr (events, &attr, false, false);
  attr.wakeup_watermark = (uint32_t) (events->record_ring_pages * (size_t) sysconf (_SC_PAGESIZE) / 4);
  attr.config = PERF_COUNT_SW_DUMMY;
  attr.freq = 0;
  attr.sample_period = 1;
  attr.mmap = attr.mmap2 = attr.comm = attr.comm_exec = attr.task = 1;
  attr.context_switch = switch_records;
  return open_in_ring_set (events, (RingSet) { events->record_ring_fd_of_cpu, events->record_rings,
                                               &events->n_record_rings, &events->record_ring_pages },
                           &attr, -1, cpu, &err);
}

bool
sp_perf_events_add_cpu (SpPerfEvents *events,
                        int cpu,
                        char *message,
                        size_t size)
{
  int fd;

  if (cpu < 0 || cpu >= events->n_cpus)
    {
      snprintf (message, size, "CPU %d is not one of this machine's %d", cpu, events->n_cpus);
      return false;
    }
  /* Every task on the CPU (pid -1): nothing to inherit, no exec to wait for. */
  events->config.enable_on_exec = false;
  events->per_cpu = true;
  /* Decided at the first CPU (a kernel before 4.3 has no dummy event:
   * then the sampling events carry the records), the same for all. */
  if (events->n_rings == 0)
    {
      /* -a with stack copies: 16 MiB per CPU whatever the frequency (a
       * second at 1 kHz): every process on the machine competes with the
       * drain's thread for the CPU (docs/SYSTEM-WIDE.md). */
      if (events->config.call_graph != SP_CALL_GRAPH_FP && events->ring_pages < RING_PAGES_MAX)
        events->ring_pages = RING_PAGES_MAX;
      events->task_records_apart = open_task_records (events, cpu, false) >= 0;
    }
  else if (events->task_records_apart && open_task_records (events, cpu, false) < 0)
    {
      snprintf (message, size, "cannot open the task records of CPU %d: %s", cpu, strerror (errno));
      return false;
    }
  fd = open_one (events, -1, cpu, false);
  if (fd < 0)
    {
      explain_cpu_failure (errno, cpu, message, size);
      return false;
    }
  return keep_sampling_event (events, cpu, fd, message, size);
}

/* Frame-pointer stacks only: with a stack copy at every switch-out a
 * switch-heavy program fills the switch rings faster than they are read,
 * and a lost sched_switch sample is a lost switch (its thread's state
 * wrong until it switches again), where a lost context-switches sample is
 * a switch-out without its stack: the switch records keep the states
 * whole (docs/OFF-CPU.md). */
static bool
want_switch_tracepoint (SpPerfEvents *events)
{
  if (events->config.call_graph != SP_CALL_GRAPH_FP)
    {
      snprintf (events->switch_tracepoint_refused, sizeof events->switch_tracepoint_refused,
                "stack copies at every switch-out (--call-graph %s) could overflow its rings and lose switches",
                events->config.call_graph == SP_CALL_GRAPH_DWARF ? "dwarf" : "auto");
      return false;
    }
  if (!sp_sched_switch_format_read (&events->sched_switch, events->switch_tracepoint_refused,
                                    sizeof events->switch_tracepoint_refused))
    return false;
  events->switch_tracepoint_split = sched_switch_filter_works (events, SCHED_SWITCH_BLOCKED_FILTER)
                                    && sched_switch_filter_works (events, SCHED_SWITCH_RUNNABLE_FILTER);
  return true;
}

/* The first CPU's refusal of the tracepoint (an older kernel, tracefs
 * without it) falls back to switch records; a later CPU's stops the
 * cgroup (one CPU without switch-outs would be wrong, not poorer). */
static bool
open_cgroup_switch_tracepoint (SpPerfEvents *events,
                               int cpu,
                               char *message,
                               size_t size)
{
  int fd = open_sched_switch_sampler (events, cpu);

  if (fd >= 0 || fd == -ENODEV)
    return true;
  if (events->n_switch_rings == 0)
    {
      snprintf (events->switch_tracepoint_refused, sizeof events->switch_tracepoint_refused,
                "the kernel refused the sched_switch tracepoint on CPU %d: %s", cpu, strerror (events->switch_errno));
      events->switch_tracepoint = false;
      return true;
    }
  snprintf (message, size, "cannot open the sched_switch tracepoint on CPU %d: %s", cpu,
            strerror (events->switch_errno));
  return false;
}

bool
sp_perf_events_add_cgroup (SpPerfEvents *events,
                           int cgroup_fd,
                           const int *cpus,
                           size_t n_cpus,
                           char *message,
                           size_t size)
{
  events->cgroup_fd = cgroup_fd;
  /* Root (no locked-memory limit): the switch records of every task of
   * the cgroup on a CPU share one ring with its task records. */
  if (events->config.off_cpu)
    events->record_ring_pages = RING_PAGES_CGROUP_RECORDS;
  events->per_cpu = true;
  events->task_records_apart = true;
  events->config.enable_on_exec = false;
  events->switch_tracepoint = events->config.off_cpu && want_switch_tracepoint (events);
  for (size_t i = 0; i < n_cpus; i++)
    {
      int cpu = cpus[i];
      int fd;

      if (cpu < 0 || cpu >= events->n_cpus)
        continue;
      if (events->switch_tracepoint && !open_cgroup_switch_tracepoint (events, cpu, message, size))
        return false;
      fd = open_task_records (events, cpu, events->config.off_cpu && !events->switch_tracepoint);
      if (fd == -ENODEV)
        continue;  /* offline CPU */
      if (fd < 0)
        {
          snprintf (message, size, "cannot open the task records of the cgroup on CPU %d: %s", cpu,
                    strerror (errno));
          return false;
        }
      fd = open_one (events, -1, cpu, false);
      if (fd < 0)
        {
          explain_cpu_failure (errno, cpu, message, size);
          return false;
        }
      if (!keep_sampling_event (events, cpu, fd, message, size))
        return false;
      if (events->config.off_cpu && !events->switch_refused && !events->switch_tracepoint)
        open_switch_sampler (events, -1, cpu);
    }
  if (events->n_rings == 0)
    {
      snprintf (message, size, "no CPU could be sampled");
      return false;
    }
  return true;
}

SpSampleLayout
sp_perf_events_switch_layout (const SpPerfEvents *events,
                              const SpSampleLayout *layout)
{
  SpSampleLayout switch_layout = *layout;

  if (events->switch_tracepoint)
    {
      switch_layout.sample_type |= SP_SWITCH_TRACEPOINT_SAMPLE_TYPE;
      switch_layout.read_format = SP_SWITCH_TRACEPOINT_READ_FORMAT;
    }
  return switch_layout;
}

bool
sp_perf_events_enable (SpPerfEvents *events)
{
  for (size_t i = 0; i < events->n_fds; i++)
    if (ioctl (events->fds[i], PERF_EVENT_IOC_ENABLE, 0) != 0)
      return false;
  return true;
}

void
sp_perf_events_disable (SpPerfEvents *events)
{
  for (size_t i = 0; i < events->n_fds; i++)
    ioctl (events->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

void
sp_perf_events_close (SpPerfEvents *events)
{
  for (size_t i = 0; i < events->n_rings; i++)
    sp_perf_ring_unmap (&events->rings[i]);
  for (size_t i = 0; i < events->n_switch_rings; i++)
    sp_perf_ring_unmap (&events->switch_rings[i]);
  free (events->switch_rings);
  free (events->switch_ring_fd_of_cpu);
  for (size_t i = 0; i < events->n_record_rings; i++)
    sp_perf_ring_unmap (&events->record_rings[i]);
  free (events->record_rings);
  free (events->record_ring_fd_of_cpu);
  for (size_t i = 0; i < events->n_fds; i++)
    close (events->fds[i]);
  free (events->fds);
  free (events->rings);
  free (events->ring_fd_of_cpu);
  memset (events, 0, sizeof *events);
  events->cgroup_fd = -1;
}
