// SPDX-License-Identifier: GPL-3.0-or-later
// symbolizer-target-cxx: C++ functions whose names the symbolizer must
// demangle. Prints "fn MANGLED-FREE-LABEL ADDRESS" lines and its maps, like
// symbolizer-target.c; the test holds the demangled names it expects.
// A lambda inlined into sp_test::apply records a return address inside
// it ("ret 0 ADDRESS LINE 0", LINE where the lambda is written): its
// operator() has no source position of its own in GCC's DWARF.
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

static uintptr_t lambda_return_address;
static int lambda_line;

TARGET_FN void
capture (int line)
{
  lambda_return_address = (uintptr_t) __builtin_return_address (0);
  lambda_line = line;
}

// A template, so that GCC gives the lambda a linkage name (and the
// profile a name more telling than "operator()").
template <typename T>
TARGET_FN T
apply (T x)
{
  auto step = [] (T value) __attribute__ ((always_inline)) { capture (__LINE__); return value * 3; };

  return step (x) + 1;
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

  std::printf ("fn make %" PRIxPTR "\n", (uintptr_t) &sp_test::Widget::make);
  std::printf ("fn compute %" PRIxPTR "\n", (uintptr_t) &sp_test::compute);
  std::printf ("fn twice %" PRIxPTR "\n", (uintptr_t) twice_long);
  std::printf ("ret 0 %" PRIxPTR " %d 0\n", sp_test::lambda_return_address, sp_test::lambda_line);
  maps = std::fopen ("/proc/self/maps", "r");
  if (maps == nullptr)
    return 2;
  while (std::fgets (line, sizeof line, maps) != nullptr)
    std::printf ("map %s", line);
  std::fclose (maps);
  return 0;
}
