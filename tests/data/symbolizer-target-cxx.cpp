// SPDX-License-Identifier: GPL-3.0-or-later
// symbolizer-target-cxx: C++ functions whose names the symbolizer must
// demangle. Prints "fn MANGLED-FREE-LABEL ADDRESS" lines and its maps, like
// symbolizer-target.c; the test holds the demangled names it expects.
// Lambdas inlined into sp_test::apply<int> and sp_test::plain_apply
// record a return address inside them ("ret SLOT ADDRESS LINE 0", LINE
// where the lambda is written): their operator() has no source position
// of its own in GCC's DWARF.
#include <cinttypes>
#include <cstdio>

#define TARGET_FN __attribute__ ((noinline, noclone, used))

volatile long sp_target_sink;

namespace sp_test {

struct Widget
{
  TARGET_FN static int make (int x);
};

int
Widget::make (int x)
{
  sp_target_sink += x;
  return x + 1;
}

TARGET_FN double
compute (int x,
         double y)
{
  sp_target_sink += x;
  return x * y;
}

template <typename T>
TARGET_FN T
twice (T value)
{
  sp_target_sink += 1;
  return value + value;
}

static uintptr_t lambda_return_address[2];
static int lambda_line[2];

TARGET_FN void
capture (int slot,
         int line)
{
  lambda_return_address[slot] = (uintptr_t) __builtin_return_address (0);
  lambda_line[slot] = line;
}

// In a template, GCC gives the lambda a linkage name; in a plain function
// it names the lambda's operator() "operator()" and nothing more.
template <typename T>
TARGET_FN T
apply (T x)
{
  auto step = [] (T value) __attribute__ ((always_inline)) { capture (0, __LINE__); return value * 3; };

  return step (x) + 1;
}

TARGET_FN int
plain_apply (int x)
{
  auto step = [] (int value) __attribute__ ((always_inline)) { capture (1, __LINE__); return value * 5; };

  return step (x) + 2;
}

} // namespace sp_test

int
main ()
{
  long (*twice_long) (long) = sp_test::twice<long>;
  char line[4096];
  FILE *maps;

  sp_test::Widget::make (1);
  sp_test::compute (2, 3.0);
  twice_long (4);
  sp_test::apply<int> (5);
  sp_test::plain_apply (6);

  std::printf ("fn make %" PRIxPTR "\n", (uintptr_t) &sp_test::Widget::make);
  std::printf ("fn compute %" PRIxPTR "\n", (uintptr_t) &sp_test::compute);
  std::printf ("fn twice %" PRIxPTR "\n", (uintptr_t) twice_long);
  for (int slot = 0; slot < 2; slot++)
    std::printf ("ret %d %" PRIxPTR " %d 0\n", slot, sp_test::lambda_return_address[slot], sp_test::lambda_line[slot]);
  maps = std::fopen ("/proc/self/maps", "r");
  if (maps == nullptr)
    return 2;
  while (std::fgets (line, sizeof line, maps) != nullptr)
    std::printf ("map %s", line);
  std::fclose (maps);
  return 0;
}
