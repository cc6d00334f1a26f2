/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stackpulse-record: sample a command or running processes into a spool.
 *
 *   stackpulse-record -o OUT.spool [options] -- CMD [ARGS...]
 *   stackpulse-record -o OUT.spool [options] -p PID[,PID...]
 *   stackpulse-record --input perf.data -o OUT.spool [--event NAME]
 *   stackpulse-record -o OUT.spool [options] -a
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sp-huge-heap.h"
#include "sp-invoker.h"
#include "sp-perf-data-convert.h"
#include "sp-recorder.h"

#define EXIT_USAGE 2
#define MAX_PIDS   1024
#define MAX_ENV    256
/* About 31 years: its nanoseconds still fit in 64 bits. */
#define MAX_DURATION_S 1e9

#define USAGE_LINES \
  "Usage: stackpulse-record -o OUT.spool [OPTIONS] -- COMMAND [ARGS...]\n" \
  "       stackpulse-record -o OUT.spool [OPTIONS] -p PID[,PID...]\n" \
  "       stackpulse-record --input perf.data -o OUT.spool [--event NAME] [--progress-fd N]\n" \
  "       stackpulse-record -o OUT.spool [OPTIONS] -a\n"

static int
usage (FILE *out,
       int status)
{
  fputs (USAGE_LINES
         "\n"
         "Samples where a program spends its time, with full call stacks, into\n"
         "OUT.spool (and OUT.spool.meta). Open the result with stackpulse.\n"
         "\n"
         "  -o, --output FILE      the spool to write: a new file, or an earlier\n"
         "                         recording, replaced once the command runs\n"
         "  -F, --freq HZ          samples per second per CPU (default 1000)\n"
         "      --call-graph MODE  how user stacks are taken:\n"
         "                           auto   frame pointers where the chain can be\n"
         "                                  trusted, else DWARF (default)\n"
         "                           dwarf  unwind a copy of the stack with the CFI\n"
         "                           fp     the kernel walks frame pointers only\n"
         "      --stack-size BYTES user stack copied per sample in dwarf and auto\n"
         "                         modes (default 16384, at most 63488)\n"
         "      --no-kernel        user-space frames only\n"
         "      --off-cpu          also record when each thread blocks or is preempted,\n"
         "                         to FILE.offcpu, with the stack it waits in where\n"
         "                         kernel sampling is allowed (root, CAP_PERFMON or\n"
         "                         kernel.perf_event_paranoid <= 1)\n"
         "      --off-cpu-stack-size BYTES\n"
         "                         user stack copied per switch-out in dwarf and auto\n"
         "                         modes (default: --stack-size); where it runs out\n"
         "                         in frame-pointer code the stack goes on along the\n"
         "                         frame pointers (cheaper on programs that switch\n"
         "                         very often; see docs/OFF-CPU.md)\n"
         "      --no-cgroup        as root with --off-cpu, follow the launched command\n"
         "                         with per-task events, not with per-CPU events of a\n"
         "                         cgroup made for it (the default: far cheaper for\n"
         "                         programs that switch often; docs/OFF-CPU.md)\n"
         "      --duration SEC     stop after SEC seconds\n"
         "      --control-stdin    stop on a line \"stop\" or end of input on stdin\n"
         "      --progress-fd N    write key=value progress lines to fd N each second\n"
         "  -p, --pid PID[,PID]    attach to running processes instead of launching\n"
         "  -a, --all-cpus         record every process on every CPU until stopped or\n"
         "                         --duration (root, CAP_PERFMON or\n"
         "                         kernel.perf_event_paranoid <= 0; docs/SYSTEM-WIDE.md)\n"
         "      --env KEY=VALUE    set KEY in the launched command's environment\n"
         "                         (repeatable)\n"
         "  -C, --directory DIR    run the launched command in DIR\n"
         "  -h, --help             this help\n"
         "\n"
         "Converting perf.data (docs/PERF-DATA.md):\n"
         "      --input FILE       convert FILE, written by perf record, into OUT.spool\n"
         "                         (-: perf's pipe mode on standard input, as from\n"
         "                         perf record -o - ...); on the machine that recorded\n"
         "                         it, where its programs are. Exit 0 when a spool was\n"
         "                         written (a damaged file: the records before the\n"
         "                         damage), 1 when nothing could be converted\n"
         "      --event NAME       the event to convert (default: the sampling clock\n"
         "                         event: cycles, cpu-clock or task-clock)\n"
         "\n"
         "Developer checks:\n"
         "      --check-auto       with --call-graph auto, unwind every stack taken\n"
         "                         through frame pointers with DWARF too; count the\n"
         "                         differences in the side file ([unwinding]\n"
         "                         checked, check_mismatches) and print them on\n"
         "                         stderr (slow)\n"
         "      --queue-limit BYTES  bound the records waiting to be unwound to\n"
         "                         BYTES instead of a second of samples (side\n"
         "                         file: queue_limit_bytes); samples over it are\n"
         "                         dropped\n"
         "\n"
         "Run as root by pkexec or sudo (PKEXEC_UID or SUDO_UID set), the recorder\n"
         "samples as root but runs the command as that user, and the files it\n"
         "writes are that user's.\n"
         "\n"
         "A launched command is recorded until it and every process it started have\n"
         "ended (a stop or --duration ends them: SIGTERM, then SIGKILL after 3 s).\n"
         "Its exit status becomes stackpulse-record's (128+N after\n"
         "signal N); 127: the command cannot be run; 125: recording failed.\n", out);
  return status;
}

/* Digits only (strtoul would take a sign, spaces and wrap "-1" round), a
 * value from min to max. */
static bool
parse_unsigned (const char *text,
                unsigned long min,
                unsigned long max,
                unsigned long *value)
{
  char *end;

  if (text[0] < '0' || text[0] > '9')
    return false;
  errno = 0;
  *value = strtoul (text, &end, 10);
  return errno == 0 && *end == '\0' && *value >= min && *value <= max;
}

/* Seconds, more than 0 and at most MAX_DURATION_S: NaN, infinities and
 * values whose nanoseconds overflow 64 bits would stop the recording at
 * once. */
static bool
parse_seconds (const char *text,
               double *seconds)
{
  char *end;

  errno = 0;
  *seconds = strtod (text, &end);
  return errno == 0 && end != text && *end == '\0' && isfinite (*seconds) && *seconds > 0
         && *seconds <= MAX_DURATION_S;
}

static bool
pid_listed (const pid_t *pids,
            size_t n_pids,
            pid_t pid)
{
  for (size_t i = 0; i < n_pids; i++)
    if (pids[i] == pid)
      return true;
  return false;
}

/* A pid given twice would be sampled twice: every sample counted double.
 * On failure, *duplicate is the pid given twice, or 0. */
static bool
parse_pids (const char *text,
            pid_t *pids,
            size_t *n_pids,
            pid_t *duplicate)
{
  char *copy = strdup (text);
  char *saveptr = NULL;
  bool ok = copy != NULL;

  for (char *item = strtok_r (copy, ",", &saveptr); ok && item != NULL; item = strtok_r (NULL, ",", &saveptr))
    {
      unsigned long pid;

      ok = *n_pids < MAX_PIDS && parse_unsigned (item, 1, INT_MAX, &pid);
      if (ok && pid_listed (pids, *n_pids, (pid_t) pid))
        {
          *duplicate = (pid_t) pid;
          ok = false;
        }
      if (ok)
        pids[(*n_pids)++] = (pid_t) pid;
    }
  free (copy);
  return ok && *n_pids > 0;
}

/* The kernel refuses a frequency above its current limit with EINVAL,
 * which says nothing: say which limit. */
static bool
frequency_allowed (unsigned long hz)
{
  FILE *file = fopen ("/proc/sys/kernel/perf_event_max_sample_rate", "re");
  unsigned long limit = 0;
  bool known;

  if (file == NULL)
    return true;
  known = fscanf (file, "%lu", &limit) == 1;
  fclose (file);
  if (!known || hz <= limit)
    return true;
  fprintf (stderr, "stackpulse-record: -F %lu is above the kernel's limit, kernel.perf_event_max_sample_rate = %lu\n",
           hz, limit);
  return false;
}

/* The progress lines need a descriptor open for writing, now. */
static bool
parse_progress_fd (const char *text,
                   int *fd)
{
  unsigned long value;
  int flags;

  if (!parse_unsigned (text, 0, INT_MAX, &value))
    return false;
  flags = fcntl ((int) value, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
    return false;
  *fd = (int) value;
  return true;
}

/* The launched command inherits the recorder's environment, and the
 * recorder reads no variable after it started: setting them here is
 * enough. Only for a launch: an attached process keeps its own. */
static int
apply_launch_settings (const SpRecorderOptions *options,
                       char *const *env,
                       size_t n_env)
{
  struct stat st;

  if (options->command == NULL && (n_env > 0 || options->directory != NULL))
    {
      fprintf (stderr, "stackpulse-record: --env and --directory apply to a launched command, not to -p or -a\n");
      return EXIT_USAGE;
    }
  if (options->directory != NULL && stat (options->directory, &st) != 0)
    {
      fprintf (stderr, "stackpulse-record: --directory: '%s': %s\n", options->directory, strerror (errno));
      return SP_RECORDER_EXIT_NOT_FOUND;
    }
  if (options->directory != NULL && !S_ISDIR (st.st_mode))
    {
      fprintf (stderr, "stackpulse-record: --directory: '%s' is not a folder\n", options->directory);
      return SP_RECORDER_EXIT_NOT_FOUND;
    }
  for (size_t i = 0; i < n_env; i++)
    {
      char *equals = strchr (env[i], '=');

      *equals = '\0';
      if (setenv (env[i], equals + 1, 1) != 0)
        {
          fprintf (stderr, "stackpulse-record: --env: cannot set %s: %s\n", env[i], strerror (errno));
          return EXIT_USAGE;
        }
    }
  return 0;
}

int
main (int argc,
      char **argv)
{
  enum { OPT_CALL_GRAPH = 256, OPT_STACK_SIZE, OPT_NO_KERNEL, OPT_DURATION, OPT_CONTROL_STDIN, OPT_PROGRESS_FD,
         OPT_ENV, OPT_CHECK_AUTO, OPT_OFF_CPU, OPT_OFF_CPU_STACK_SIZE, OPT_INPUT, OPT_EVENT,
         OPT_NO_CGROUP, OPT_QUEUE_LIMIT };
  /* What a recording follows: -a, -p, or a command. */
  int n_targets;
  static const struct option long_options[] = {
    { "output", required_argument, NULL, 'o' },
    { "freq", required_argument, NULL, 'F' },
    { "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
    { "stack-size", required_argument, NULL, OPT_STACK_SIZE },
    { "no-kernel", no_argument, NULL, OPT_NO_KERNEL },
    { "duration", required_argument, NULL, OPT_DURATION },
    { "control-stdin", no_argument, NULL, OPT_CONTROL_STDIN },
    { "progress-fd", required_argument, NULL, OPT_PROGRESS_FD },
    { "pid", required_argument, NULL, 'p' },
    { "all-cpus", no_argument, NULL, 'a' },
    { "env", required_argument, NULL, OPT_ENV },
    { "directory", required_argument, NULL, 'C' },
    { "help", no_argument, NULL, 'h' },
    { "check-auto", no_argument, NULL, OPT_CHECK_AUTO },
    { "queue-limit", required_argument, NULL, OPT_QUEUE_LIMIT },
    { "off-cpu", no_argument, NULL, OPT_OFF_CPU },
    { "off-cpu-stack-size", required_argument, NULL, OPT_OFF_CPU_STACK_SIZE },
    { "no-cgroup", no_argument, NULL, OPT_NO_CGROUP },
    { "input", required_argument, NULL, OPT_INPUT },
    { "event", required_argument, NULL, OPT_EVENT },
    { NULL, 0, NULL, 0 },
  };
  static pid_t pids[MAX_PIDS];
  static char *env[MAX_ENV];
  size_t n_env = 0;
  SpRecorderOptions options = {
    .frequency_hz = 1000,
    .kernel_stacks = true,
    .progress_fd = -1,
    .call_graph = SP_CALL_GRAPH_AUTO,
    .stack_size = SP_STACK_SIZE_DEFAULT,
  };
  unsigned long value;
  pid_t duplicate = 0;
  SpConvertOptions convert = { NULL, NULL, NULL, -1 };
  /* An option of live recordings only, given: --input refuses it. */
  const char *recording_only = NULL;
  SpInvoker invoker;
  char message[256];
  int opt, status;

  while ((opt = getopt_long (argc, argv, "+o:F:p:aC:h", long_options, NULL)) != -1)
    {
      switch (opt)
        {
        case 'o':
          options.output = optarg;
          break;
        case 'F':
          recording_only = "-F";
          if (!parse_unsigned (optarg, 1, 100000, &value))
            {
              fprintf (stderr, "stackpulse-record: -F takes a frequency from 1 to 100000 Hz, not '%s'\n", optarg);
              return EXIT_USAGE;
            }
          if (!frequency_allowed (value))
            return EXIT_USAGE;
          options.frequency_hz = (unsigned) value;
          break;
        case OPT_CALL_GRAPH:
          recording_only = "--call-graph";
          if (strcmp (optarg, "fp") == 0)
            options.call_graph = SP_CALL_GRAPH_FP;
          else if (strcmp (optarg, "dwarf") == 0)
            options.call_graph = SP_CALL_GRAPH_DWARF;
          else if (strcmp (optarg, "auto") == 0)
            options.call_graph = SP_CALL_GRAPH_AUTO;
          else
            {
              fprintf (stderr, "stackpulse-record: --call-graph takes auto, dwarf or fp, not '%s'\n", optarg);
              return EXIT_USAGE;
            }
          break;
        case OPT_STACK_SIZE:
          recording_only = "--stack-size";
          if (!parse_unsigned (optarg, 64, SP_STACK_SIZE_MAX, &value))
            {
              fprintf (stderr, "stackpulse-record: --stack-size takes 64 to %u bytes, not '%s'\n", SP_STACK_SIZE_MAX,
                       optarg);
              return EXIT_USAGE;
            }
          options.stack_size = (uint32_t) (value & ~7ul);
          break;
        case OPT_OFF_CPU_STACK_SIZE:
          recording_only = "--off-cpu-stack-size";
          if (!parse_unsigned (optarg, 64, SP_STACK_SIZE_MAX, &value))
            {
              fprintf (stderr, "stackpulse-record: --off-cpu-stack-size takes 64 to %u bytes, not '%s'\n",
                       SP_STACK_SIZE_MAX, optarg);
              return EXIT_USAGE;
            }
          options.switch_stack_size = (uint32_t) (value & ~7ul);
          break;
        case OPT_NO_KERNEL:
          recording_only = "--no-kernel";
          options.kernel_stacks = false;
          break;
        case OPT_OFF_CPU:
          recording_only = "--off-cpu";
          options.off_cpu = true;
          break;
        case OPT_NO_CGROUP:
          recording_only = "--no-cgroup";
          options.per_task_events = true;
          break;
        case OPT_DURATION:
          recording_only = "--duration";
          if (!parse_seconds (optarg, &options.duration_s))
            {
              fprintf (stderr, "stackpulse-record: --duration takes a number of seconds, more than 0 and at most %.0f, "
                       "not '%s'\n", MAX_DURATION_S, optarg);
              return EXIT_USAGE;
            }
          break;
        case OPT_CONTROL_STDIN:
          recording_only = "--control-stdin";
          options.control_stdin = true;
          break;
        case OPT_PROGRESS_FD:
          if (!parse_progress_fd (optarg, &options.progress_fd))
            {
              fprintf (stderr, "stackpulse-record: --progress-fd takes a file descriptor open for writing, not '%s'\n",
                       optarg);
              return EXIT_USAGE;
            }
          break;
        case 'p':
          if (!parse_pids (optarg, pids, &options.n_pids, &duplicate))
            {
              if (duplicate != 0)
                fprintf (stderr, "stackpulse-record: -p: pid %d is given twice\n", (int) duplicate);
              else
                fprintf (stderr, "stackpulse-record: -p takes process ids, separated by commas, not '%s'\n", optarg);
              return EXIT_USAGE;
            }
          options.pids = pids;
          break;
        case 'a':
          options.system_wide = true;
          break;
        case OPT_ENV:
          recording_only = "--env";
          if (strchr (optarg, '=') == NULL || optarg[0] == '=' || n_env == MAX_ENV)
            {
              fprintf (stderr, "stackpulse-record: --env takes KEY=VALUE\n");
              return EXIT_USAGE;
            }
          env[n_env++] = optarg;
          break;
        case 'C':
          recording_only = "-C";
          options.directory = optarg;
          break;
        case OPT_CHECK_AUTO:
          recording_only = "--check-auto";
          options.check_auto = true;
          break;
        case OPT_QUEUE_LIMIT:
          recording_only = "--queue-limit";
          if (!parse_unsigned (optarg, 4096, ULONG_MAX, &value))
            {
              fprintf (stderr, "stackpulse-record: --queue-limit takes at least 4096 bytes, not '%s'\n", optarg);
              return EXIT_USAGE;
            }
          options.queue_limit = (size_t) value;
          break;
        case OPT_INPUT:
          convert.input = optarg;
          break;
        case OPT_EVENT:
          convert.event = optarg;
          break;
        case 'h':
          return usage (stdout, 0);
        default:
          return usage (stderr, EXIT_USAGE);
        }
    }
  if (optind < argc)
    options.command = argv + optind;
  if (convert.input != NULL || convert.event != NULL)
    {
      if (convert.input == NULL)
        {
          fprintf (stderr, "stackpulse-record: --event chooses the event of a perf.data file: it needs --input FILE\n");
          return EXIT_USAGE;
        }
      if (options.command != NULL || options.n_pids > 0 || options.system_wide)
        {
          fprintf (stderr, "stackpulse-record: --input FILE -o OUT.spool converts a perf.data file: it takes no "
                   "command, -p or -a\n");
          return EXIT_USAGE;
        }
      if (options.output == NULL)
        {
          fprintf (stderr, "stackpulse-record: --input FILE needs -o OUT.spool, where the recording goes\n");
          return EXIT_USAGE;
        }
      if (recording_only != NULL)
        {
          fprintf (stderr, "stackpulse-record: %s is for recording; --input converts what perf recorded, with the "
                   "options perf record was given\n", recording_only);
          return EXIT_USAGE;
        }
      convert.output = options.output;
      convert.progress_fd = options.progress_fd;
      /* A conversion's tables (the spool's stacks, the unwinder's
       * modules) are tens of MB whatever the file's size. */
      sp_huge_heap_prepare (64 << 20);
      return sp_perf_data_convert (&convert);
    }
  n_targets = (options.command != NULL) + (options.n_pids > 0) + options.system_wide;
  /* The help, and last (where a terminal leaves it in view) what is
   * wrong. */
  if (n_targets != 1 || options.output == NULL)
    {
      if (n_targets > 1)
        fprintf (stderr, "stackpulse-record: a recording follows one of: a command (after --), processes (-p) or "
                 "the whole system (-a); %s were given\n",
                 n_targets == 3 ? "all three"
                 : options.system_wide ? (options.command != NULL ? "-a and a command" : "-a and -p")
                                       : "-p and a command");
      else if (n_targets == 0)
        fprintf (stderr, "stackpulse-record: what to record? a command (after --), -p PID or -a\n");
      else
        fprintf (stderr, "stackpulse-record: -o OUT.spool is needed: where the recording goes\n");
      /* The usage lines, not the whole help: the line above stays in view. */
      fputs (USAGE_LINES "Run stackpulse-record --help for the options.\n", stderr);
      return EXIT_USAGE;
    }
  if (options.system_wide && options.off_cpu)
    {
      fprintf (stderr, "stackpulse-record: --off-cpu does not record the whole system yet (-a)\n");
      return EXIT_USAGE;
    }
  if (!sp_invoker_from_environment (&invoker, message, sizeof message))
    {
      fprintf (stderr, "stackpulse-record: %s\n", message);
      return SP_RECORDER_EXIT_FAILED;
    }
  options.invoker = &invoker;
  /* The user's HOME and names first, so that --env may still set them. */
  if (options.command != NULL && !sp_invoker_set_environment (&invoker))
    {
      fprintf (stderr, "stackpulse-record: cannot set the user's environment: %s\n", strerror (errno));
      status = SP_RECORDER_EXIT_FAILED;
    }
  else if ((status = apply_launch_settings (&options, env, n_env)) == 0)
    status = sp_recorder_run (&options);
  sp_invoker_clear (&invoker);
  return status;
}
