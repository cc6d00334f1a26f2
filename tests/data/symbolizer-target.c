/* SPDX-License-Identifier: GPL-3.0-or-later */
/* symbolizer-target: a program whose code the symbolizer's test names.
 *
 * Built -O2 -g with frame pointers (and again without DWARF, and again
 * stripped). It runs a few calls that record their own return addresses
 * and the source lines they were written on, then prints, one per line:
 *
 *   fn NAME ADDRESS                    a function's entry
 *   ret SLOT ADDRESS LINE CALL_LINE    a return address, the line of its
 *                                      call, and for the inlined case the
 *                                      line the inlined function was
 *                                      called from (else 0)
 *   map LINE                           /proc/self/maps, line by line
 *
 * so that the test can compute each address's module and file offset the
 * way the recorder does. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define TARGET_FN __attribute__ ((noinline, noclone, used))

typedef struct {
  uintptr_t address;
  int       line;
  int       call_line;
} Capture;

/* Not static: the test looks these names up. */
void sp_target_capture (int slot, int line);
int  sp_target_leaf (int x);
int  sp_target_caller (int x);
void sp_target_outer (int x);
void sp_target_finish (int line) __attribute__ ((noreturn));
void sp_target_last_call (int x);

static Capture captures[3];
static int pending_call_line;
volatile int sp_target_sink;

/* Records where it was called from: the caller's return address. */
TARGET_FN void
sp_target_capture (int slot,
                   int line)
{
  captures[slot].address = (uintptr_t) __builtin_return_address (0);
  captures[slot].line = line;
  captures[slot].call_line = pending_call_line;
  pending_call_line = 0;
  sp_target_sink++;
}

TARGET_FN int
sp_target_leaf (int x)
{
  sp_target_sink += x;
  return x * 7;
}

TARGET_FN int
sp_target_caller (int x)
{
  int r = sp_target_leaf (x) + 1;

  sp_target_capture (0, __LINE__);
  sp_target_sink += r;
  return r;
}

/* Always inlined into sp_target_outer: its capture's return address lies
 * in sp_target_outer's code, but DWARF knows it as this function's. */
static inline __attribute__ ((always_inline)) void
sp_target_inlined (int x,
                   int call_line)
{
  sp_target_sink += x;
  pending_call_line = call_line;
  sp_target_capture (1, __LINE__);
  sp_target_sink += x * 2;
}

TARGET_FN void
sp_target_outer (int x)
{
  sp_target_sink += 1;
  sp_target_inlined (x, __LINE__);
  sp_target_sink += 3;
}

static void
print_maps (void)
{
  FILE *maps = fopen ("/proc/self/maps", "r");
  char line[4096];

  if (maps == NULL)
    exit (2);
  while (fgets (line, sizeof line, maps) != NULL)
    printf ("map %s", line);
  fclose (maps);
}

/* Never returns: the call to it is the last instruction of its caller, so
 * the return address points past the caller's code. */
TARGET_FN __attribute__ ((noreturn)) void
sp_target_finish (int line)
{
  captures[2].address = (uintptr_t) __builtin_return_address (0);
  captures[2].line = line;

  printf ("fn sp_target_leaf %" PRIxPTR "\n", (uintptr_t) sp_target_leaf);
  printf ("fn sp_target_caller %" PRIxPTR "\n", (uintptr_t) sp_target_caller);
  printf ("fn sp_target_outer %" PRIxPTR "\n", (uintptr_t) sp_target_outer);
  for (int i = 0; i < 3; i++)
    printf ("ret %d %" PRIxPTR " %d %d\n", i, captures[i].address, captures[i].line, captures[i].call_line);
  print_maps ();
  fflush (stdout);
  exit (0);
}

TARGET_FN void
sp_target_last_call (int x)
{
  sp_target_sink += x;
  sp_target_finish (__LINE__);
}

int
main (void)
{
  sp_target_caller (1);
  sp_target_outer (2);
  sp_target_last_call (3);
}
