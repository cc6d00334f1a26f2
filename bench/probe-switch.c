/* SPDX-License-Identifier: GPL-3.0-or-later */
/* probe-switch: what perf_event_open gives for off-CPU profiling here, as
 * whoever runs it (issue 13, docs/OFF-CPU.md). Standalone: libc only.
 *
 *   probe-switch [OPTIONS] -- WORKLOAD SECONDS
 *
 * Runs WORKLOAD (a test workload: it must take "--ready FILE SECONDS" and
 * print "SP-THREAD name=N tid=T cpu_s=C wall_s=W" lines, as sp-work-offcpu
 * does) and records it with one kind of event:
 *   --event switch   (default) cpu-clock sampling at 1 kHz with
 *                    attr.context_switch = 1: PERF_RECORD_SWITCH records;
 *   --event cs       the software event context-switches, sample_period 1,
 *                    with PERF_SAMPLE_CALLCHAIN: a sample per switch-out.
 *   --attach         one event per thread once the workload is running,
 *                    without inherit (default: one event per CPU on the
 *                    process before exec, with inherit, covering later
 *                    threads);
 *   --kernel         exclude_kernel = 0 (default 1, what paranoid 2 needs);
 *   --user-stack     adds PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER
 *                    (4 KiB of stack), as DWARF unwinding needs;
 *   --switch         (with --event cs) context_switch = 1 on that event too;
 *   --show           prints the 50th callchain of each thread (past its start), its user
 *                    frames as FILE+0xOFFSET (for addr2line -f -e FILE).
 * It prints whether the events opened (errno if not), the records by type,
 * the switch records' misc flags, and per thread: the workload's own clocks
 * beside the off-CPU time the switch records add up to (switch-out to
 * switch-in, split by PERF_RECORD_MISC_SWITCH_OUT_PREEMPT into runnable
 * and blocked), and the samples with their callchains' depth. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 64
#define MAX_THREADS 64
#define STACK_BYTES 4096

typedef struct {
  int      tid;
  char     name[32];
  double   cpu_s, wall_s;           /* the workload's own clocks */
  uint64_t out, out_preempt, in;    /* switch records */
  uint64_t last_out_ns;
  int      last_out_preempt;
  double   blocked_s, runnable_s;   /* switch-out to switch-in */
  uint64_t samples, with_user, with_kernel, user_depth, stack_bytes;
} Thread;

static struct {
  int      event_cs, attach, kernel, user_stack, cs_switch, show;
  pid_t    pid;
  uint64_t sample_type;
  int      fds[MAX_EVENTS];
  void    *rings[MAX_EVENTS];
  size_t   ring_pages;
  int      n_events;
  Thread   threads[MAX_THREADS];
  int      n_threads;
  uint64_t by_type[32], lost;
} probe;

static Thread *
thread_for (int tid)
{
  for (int i = 0; i < probe.n_threads; i++)
    if (probe.threads[i].tid == tid)
      return &probe.threads[i];
  if (probe.n_threads == MAX_THREADS)
    return NULL;
  probe.threads[probe.n_threads].tid = tid;
  return &probe.threads[probe.n_threads++];
}

static void
fill_attr (struct perf_event_attr *attr,
           int inherit)
{
  memset (attr, 0, sizeof *attr);
  attr->size = sizeof *attr;
  attr->type = PERF_TYPE_SOFTWARE;
  probe.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
  if (probe.event_cs)
    {
      attr->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
      attr->sample_period = 1;
      probe.sample_type |= PERF_SAMPLE_CALLCHAIN;
      attr->context_switch = probe.cs_switch;
    }
  else
    {
      attr->config = PERF_COUNT_SW_CPU_CLOCK;
      attr->sample_period = 1000000;  /* ns: 1 kHz */
      attr->context_switch = 1;
    }
  if (probe.user_stack)
    {
      probe.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
      attr->sample_regs_user = 1ull << 6 | 1ull << 7 | 1ull << 8;  /* bp, sp, ip on x86-64 */
      attr->sample_stack_user = STACK_BYTES;
    }
  attr->sample_type = probe.sample_type;
  attr->sample_id_all = 1;
  attr->exclude_kernel = !probe.kernel;
  attr->exclude_hv = 1;
  attr->inherit = inherit;
  attr->disabled = 1;
  attr->enable_on_exec = inherit;
  attr->comm = 1;
  attr->task = 1;
  attr->wakeup_events = 1;
}

static int
open_event (int tid,
            int cpu,
            int inherit)
{
  struct perf_event_attr attr;
  int fd;
  void *ring;

  fill_attr (&attr, inherit);
  fd = (int) syscall (SYS_perf_event_open, &attr, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    {
      printf ("open: tid %d cpu %d: %s (errno %d)\n", tid, cpu, strerror (errno), errno);
      return -1;
    }
  ring = mmap (NULL, (probe.ring_pages + 1) * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (ring == MAP_FAILED)
    {
      printf ("mmap: tid %d: %s\n", tid, strerror (errno));
      close (fd);
      return -1;
    }
  probe.fds[probe.n_events] = fd;
  probe.rings[probe.n_events++] = ring;
  return fd;
}

static void
on_switch (const struct perf_event_header *header,
           const uint64_t *id)
{
  Thread *thread = thread_for ((int) (id[0] >> 32));
  uint64_t time = id[1];

  if (thread == NULL)
    return;
  if (header->misc & PERF_RECORD_MISC_SWITCH_OUT)
    {
      thread->out++;
      thread->last_out_preempt = (header->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
      thread->out_preempt += (uint64_t) thread->last_out_preempt;
      thread->last_out_ns = time;
      return;
    }
  thread->in++;
  if (thread->last_out_ns != 0)
    {
      double off = (double) (time - thread->last_out_ns) / 1e9;

      if (thread->last_out_preempt)
        thread->runnable_s += off;
      else
        thread->blocked_s += off;
    }
  thread->last_out_ns = 0;
}

/* Prints ip as FILE+0xOFFSET from the workload's maps now. */
static void
show_address (uint64_t ip)
{
  char path[64], line[512], file[400];
  unsigned long long start, end, offset;
  FILE *maps;

  snprintf (path, sizeof path, "/proc/%d/maps", (int) probe.pid);
  maps = fopen (path, "r");
  while (maps != NULL && fgets (line, sizeof line, maps) != NULL)
    if (sscanf (line, "%llx-%llx %*s %llx %*s %*s %399s", &start, &end, &offset, file) == 4
        && ip >= start && ip < end)
      {
        printf (" %s+0x%llx", file, ip - start + offset);
        fclose (maps);
        return;
      }
  printf (" 0x%llx", (unsigned long long) ip);
  if (maps != NULL)
    fclose (maps);
}

static void
show_callchain (int tid,
                const uint64_t *ips,
                uint64_t nr)
{
  int user = 0;

  printf ("callchain tid %d:", tid);
  for (uint64_t i = 0; i < nr; i++)
    if (ips[i] == PERF_CONTEXT_USER)
      user = 1, printf (" |user|");
    else if (ips[i] == PERF_CONTEXT_KERNEL)
      printf (" |kernel|");
    else if (user)
      show_address (ips[i]);
    else
      printf (" k");
  printf ("\n");
}

static void
on_sample (const uint64_t *p)
{
  Thread *thread;
  int user = 0;

  p++;                                  /* ip */
  thread = thread_for ((int) (*p++ >> 32));
  p++;                                  /* time */
  if (thread == NULL)
    return;
  thread->samples++;
  if (probe.sample_type & PERF_SAMPLE_CALLCHAIN)
    {
      uint64_t nr = *p++;

      if (probe.show && thread->samples == 50)
        show_callchain (thread->tid, p, nr);
      for (uint64_t i = 0; i < nr; i++, p++)
        if (*p == PERF_CONTEXT_USER)
          user = 1, thread->with_user++;
        else if (*p == PERF_CONTEXT_KERNEL)
          thread->with_kernel++;
        else if (user && *p < PERF_CONTEXT_MAX)
          thread->user_depth++;
    }
  if (probe.sample_type & PERF_SAMPLE_STACK_USER)
    {
      uint64_t abi = *p++;

      if (abi != PERF_SAMPLE_REGS_ABI_NONE)
        p += 3;
      uint64_t size = *p++;
      if (size != 0)
        {
          p += size / 8;
          thread->stack_bytes += *p;     /* dyn_size */
        }
    }
}

static void
on_record (const struct perf_event_header *header)
{
  const uint64_t *body = (const uint64_t *) (header + 1);

  probe.by_type[header->type < 32 ? header->type : 31]++;
  if (header->type == PERF_RECORD_SWITCH)
    on_switch (header, body);
  else if (header->type == PERF_RECORD_SAMPLE)
    on_sample (body);
  else if (header->type == PERF_RECORD_LOST)
    probe.lost += body[1];
}

static void
drain (void *ring)
{
  struct perf_event_mmap_page *meta = ring;
  unsigned char *data = (unsigned char *) ring + 4096;
  uint64_t size = probe.ring_pages * 4096;
  uint64_t head = __atomic_load_n (&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  static unsigned char copy[65536];

  while (tail < head)
    {
      struct perf_event_header *header = (void *) (data + tail % size);
      uint64_t at = tail % size;

      if (at + header->size <= size)
        on_record (header);
      else
        {
          memcpy (copy, data + at, size - at);
          memcpy (copy + (size - at), data, header->size - (size - at));
          on_record ((void *) copy);
        }
      tail += header->size;
    }
  __atomic_store_n (&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void
read_thread_lines (FILE *out)
{
  char line[256], name[32];
  int tid;
  double cpu, wall;

  while (fgets (line, sizeof line, out) != NULL)
    if (sscanf (line, "SP-THREAD name=%31s tid=%d cpu_s=%lf wall_s=%lf", name, &tid, &cpu, &wall) == 4)
      {
        Thread *thread = thread_for (tid);

        if (thread == NULL)
          continue;
        snprintf (thread->name, sizeof thread->name, "%s", name);
        thread->cpu_s = cpu;
        thread->wall_s = wall;
      }
}

static void
attach_threads (const char *ready)
{
  char line[128], name[32];
  int tid;
  FILE *file;

  while ((file = fopen (ready, "r")) == NULL)
    usleep (1000);
  while (fgets (line, sizeof line, file) != NULL)
    if (sscanf (line, "%31s %d", name, &tid) == 2)
      open_event (tid, -1, 0);
  fclose (file);
  for (int i = 0; i < probe.n_events; i++)
    ioctl (probe.fds[i], PERF_EVENT_IOC_ENABLE, 0);
}

static void
report (double seconds)
{
  static const char *types[32] = {
    [PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_SWITCH] = "SWITCH",
    [PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_COMM] = "COMM",
    [PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_FORK] = "FORK", [PERF_RECORD_LOST] = "LOST",
  };
  uint64_t out = 0, preempt = 0, in = 0;

  printf ("records:");
  for (int i = 0; i < 32; i++)
    if (probe.by_type[i] != 0)
      printf (" %s=%llu", types[i] ? types[i] : "other", (unsigned long long) probe.by_type[i]);
  printf (" lost=%llu\n", (unsigned long long) probe.lost);
  printf ("%-14s %7s %7s %7s %8s %8s %8s %9s %10s %8s %8s %7s %9s\n", "thread", "tid", "cpu_s",
          "wall_s", "w-c_s", "out", "preempt", "blocked_s", "runnable_s", "samples", "w/user",
          "udepth", "stack_B");
  for (int i = 0; i < probe.n_threads; i++)
    {
      Thread *t = &probe.threads[i];

      out += t->out, preempt += t->out_preempt, in += t->in;
      printf ("%-14s %7d %7.3f %7.3f %8.3f %8llu %8llu %9.3f %10.3f %8llu %8llu %7.1f %9.0f\n",
              t->name[0] ? t->name : "?", t->tid, t->cpu_s, t->wall_s, t->wall_s - t->cpu_s,
              (unsigned long long) t->out, (unsigned long long) t->out_preempt, t->blocked_s,
              t->runnable_s, (unsigned long long) t->samples, (unsigned long long) t->with_user,
              t->with_user ? (double) t->user_depth / (double) t->with_user : 0.0,
              t->samples ? (double) t->stack_bytes / (double) t->samples : 0.0);
    }
  printf ("switches: out=%llu (%.0f/s) preempt=%llu in=%llu; samples=%llu (%.0f/s)\n",
          (unsigned long long) out, (double) out / seconds, (unsigned long long) preempt,
          (unsigned long long) in, (unsigned long long) probe.by_type[PERF_RECORD_SAMPLE],
          (double) probe.by_type[PERF_RECORD_SAMPLE] / seconds);
}

static int
parse_options (int argc,
               char **argv)
{
  int i = 1;

  for (; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--event") == 0 && i + 1 < argc)
      probe.event_cs = strcmp (argv[++i], "cs") == 0;
    else if (strcmp (argv[i], "--attach") == 0)
      probe.attach = 1;
    else if (strcmp (argv[i], "--kernel") == 0)
      probe.kernel = 1;
    else if (strcmp (argv[i], "--user-stack") == 0)
      probe.user_stack = 1;
    else if (strcmp (argv[i], "--switch") == 0)
      probe.cs_switch = 1;
    else if (strcmp (argv[i], "--show") == 0)
      probe.show = 1;
    else
      break;
  if (i + 2 >= argc || strcmp (argv[i], "--") != 0)
    {
      fprintf (stderr, "usage: %s [--event switch|cs] [--attach] [--kernel] [--user-stack] [--switch] [--show] -- WORKLOAD SECONDS\n", argv[0]);
      exit (2);
    }
  return i + 1;
}

int
main (int argc,
      char **argv)
{
  int at = parse_options (argc, argv);
  char ready[64];
  int go[2], out[2], status;
  double seconds = strtod (argv[at + 1], NULL);
  pid_t pid;

  snprintf (ready, sizeof ready, "/tmp/probe-switch-%d.ready", (int) getpid ());
  unlink (ready);
  probe.ring_pages = probe.attach ? 16 : 64;
  if (pipe (go) != 0 || pipe (out) != 0)
    return 1;
  pid = probe.pid = fork ();
  if (pid == 0)
    {
      char byte;

      dup2 (out[1], 1);
      close (go[1]);
      if (read (go[0], &byte, 1) != 1)
        _exit (1);
      execl (argv[at], argv[at], "--ready", ready, argv[at + 1], (char *) NULL);
      _exit (127);
    }
  close (out[1]);
  printf ("uid=%d event=%s %s exclude_kernel=%d user_stack=%d\n", (int) getuid (),
          probe.event_cs ? "context-switches(period 1, callchain)" : "cpu-clock 1kHz + context_switch",
          probe.attach ? "attach per thread, no inherit" : "launch, inherit",
          !probe.kernel, probe.user_stack);
  /* The kernel maps no inherited event that follows a task on every CPU
   * (EINVAL): with inherit, one event per CPU, as the recorder does. */
  for (long cpu = 0; !probe.attach && cpu < sysconf (_SC_NPROCESSORS_ONLN); cpu++)
    if (open_event (pid, (int) cpu, 1) < 0)
      {
        kill (pid, SIGKILL);
        waitpid (pid, NULL, 0);
        return 1;
      }
  if (write (go[1], "g", 1) != 1)
    return 1;
  if (probe.attach)
    attach_threads (ready);
  while (waitpid (pid, &status, WNOHANG) == 0)
    {
      struct pollfd fds[MAX_EVENTS];

      for (int i = 0; i < probe.n_events; i++)
        fds[i] = (struct pollfd) { probe.fds[i], POLLIN, 0 };
      poll (fds, (nfds_t) probe.n_events, 10);
      for (int i = 0; i < probe.n_events; i++)
        drain (probe.rings[i]);
    }
  for (int i = 0; i < probe.n_events; i++)
    drain (probe.rings[i]);
  read_thread_lines (fdopen (out[0], "r"));
  unlink (ready);
  report (seconds);
  return 0;
}
