/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-plt: a program that spends a good share of its time in a PLT
 * stub, for the conformance matrix (built there with LLD and mold, which
 * give their PLT no CFI).
 *
 *   sp-work-plt SECONDS
 *
 * main → call_through_plt → abs@plt → abs in libc. Built with
 * -fno-builtin (else the compiler inlines abs) and never -fno-plt.
 *
 * Where a timer sample lands is the CPU's choice: on some x86 CPUs the
 * stub's jump held many samples as it was, on others (an AMD EPYC host)
 * 0 to 3 of 1,000. So before each call the PLT's cache lines are flushed:
 * the call then waits for the stub's bytes, and a CPU that reports the
 * instruction after the last one done puts most samples in the stub when
 * it has an instruction before its jump (mold's: endbr64, mov), and in abs
 * when the jump is all there is (LLD's). */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *plt;   /* the program's .plt, or NULL */
static size_t plt_size;

/* The .plt section of this program, from its section headers (libc only:
 * the workload links nothing else). */
static void
find_plt (void)
{
  FILE *f = fopen ("/proc/self/exe", "rb");
  Elf64_Ehdr eh;
  Elf64_Shdr *sections = NULL;
  char *names = NULL;

  if (f == NULL || fread (&eh, sizeof eh, 1, f) != 1 || eh.e_shentsize != sizeof (Elf64_Shdr)
      || eh.e_shstrndx >= eh.e_shnum)
    goto out;
  sections = calloc (eh.e_shnum, sizeof *sections);
  if (sections == NULL || fseek (f, (long) eh.e_shoff, SEEK_SET) != 0
      || fread (sections, sizeof *sections, eh.e_shnum, f) != eh.e_shnum)
    goto out;
  names = calloc (1, sections[eh.e_shstrndx].sh_size + 1);
  if (names == NULL || fseek (f, (long) sections[eh.e_shstrndx].sh_offset, SEEK_SET) != 0
      || fread (names, 1, sections[eh.e_shstrndx].sh_size, f) != sections[eh.e_shstrndx].sh_size)
    goto out;
  for (int i = 0; i < eh.e_shnum; i++)
    if (sections[i].sh_name < sections[eh.e_shstrndx].sh_size && strcmp (names + sections[i].sh_name, ".plt") == 0)
      {
        plt = (const char *) (_r_debug.r_map->l_addr + sections[i].sh_addr);
        plt_size = sections[i].sh_size;
      }
out:
  free (sections);
  free (names);
  if (f != NULL)
    fclose (f);
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

__attribute__ ((noinline)) long
call_through_plt (long n)
{
  long sum = 0;

  for (long i = 0; i < n; i++)
    {
      for (size_t at = 0; plt != NULL && at < plt_size; at += 64)
        __builtin_ia32_clflush (plt + at);
      sum += abs ((int) (i - n / 2));
    }
  return sum;
}

int
main (int argc,
      char **argv)
{
  double until = now () + (argc > 1 ? atof (argv[1]) : 1.0);
  long sum = 0;

  find_plt ();
  while (now () < until)
    sum += call_through_plt (100000);
  return sum == 42;
}
