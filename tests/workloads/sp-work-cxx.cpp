// SPDX-License-Identifier: GPL-3.0-or-later
// sp-work-cxx: a C++ program for the conformance matrix, whose functions
// have the names C++ gives (namespaces, templates, std::string in the
// parameter list: names with spaces in them).
//
//   sp-work-cxx SECONDS
//
// main → sp_work::run for SECONDS on two threads:
//   main thread: sp_work::run → sp_work::count_vowels(std::string const&)
//   std::thread: sp_work::Accumulator<double>::add_squares
// Built with -fno-inline, so each function is a frame of its own.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#if defined(__clang__)
#define SP_WORK_FN __attribute__ ((noinline, used))
#else
#define SP_WORK_FN __attribute__ ((noinline, noclone, used))
#endif

namespace sp_work {

volatile unsigned long sink;

using Clock = std::chrono::steady_clock;

SP_WORK_FN std::size_t
count_vowels (const std::string &text)
{
  std::size_t n = 0;

  for (int round = 0; round < 200; round++)
    for (char c : text)
      n += c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
  return n;
}

template <typename T>
struct Accumulator
{
  T total {};

  SP_WORK_FN void add_squares (int n);
};

template <typename T>
void
Accumulator<T>::add_squares (int n)
{
  volatile T sum = total;

  for (int i = 0; i < n; i++)
    sum = sum + static_cast<T> (i) * static_cast<T> (i);
  total = sum;
}

SP_WORK_FN void
run (double seconds)
{
  Clock::time_point until = Clock::now () + std::chrono::duration_cast<Clock::duration> (
                                               std::chrono::duration<double> (seconds));
  std::thread worker ([until] {
    Accumulator<double> accumulator;

    while (Clock::now () < until)
      accumulator.add_squares (20000);
    sink = sink + static_cast<unsigned long> (accumulator.total);
  });
  std::string text = "the quick brown fox jumps over the lazy dog, again and again";

  while (Clock::now () < until)
    sink = sink + count_vowels (text);
  worker.join ();
}

} // namespace sp_work

int
main (int argc,
      char **argv)
{
  if (argc != 2)
    {
      std::fprintf (stderr, "usage: sp-work-cxx SECONDS\n");
      return 2;
    }
  sp_work::run (std::atof (argv[1]));
  return 0;
}
