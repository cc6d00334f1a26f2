// SPDX-License-Identifier: GPL-3.0-or-later
// sp-work-templates: C++ whose function names are long, for the window's
// name elision (a column too narrow for a name shows it shortened, the
// tooltip in full).
//
//   sp-work-templates SECONDS
//
// main → sp_templates::Table<std::string, std::pair<int, double>>::fill
// and → sp_templates::Table<…>::weigh, whose lambda (`{lambda(…)#1}`) is
// inlined into it: its samples name the lambda, and its tooltip must say
// where in this file the lambda is written.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "sp-workload.h"
}

namespace sp_templates {

template <typename Key, typename Value>
struct Table
{
  std::map<Key, std::vector<Value>> rows;

  SP_WORK_FN void fill (int n);
  SP_WORK_FN double weigh ();
};

template <typename Key, typename Value>
void
Table<Key, Value>::fill (int n)
{
  rows.clear ();
  for (int i = 0; i < n; i++)
    rows["key-" + std::to_string (i % 64)].push_back (Value (i, i * 0.5));
}

// The lambda is forced inline: its code sits in weigh, described by a
// DW_TAG_inlined_subroutine whose origin is the lambda's operator().
template <typename Key, typename Value>
double
Table<Key, Value>::weigh ()
{
  auto score = [] (const Value &value) __attribute__ ((always_inline)) {
    double sum = 0;

    for (int round = 0; round < 64; round++)
      sum += value.second * round + (value.first ^ round);
    return sum;
  };
  double total = 0;

  for (const auto &row : rows)
    for (const Value &value : row.second)
      total += score (value);
  return total;
}

} // namespace sp_templates

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS", &ready, &rest);
  double until = sp_work_now () + seconds;
  sp_templates::Table<std::string, std::pair<int, double>> table;

  if (ready != NULL)
    sp_work_write_file (ready, "ready\n");
  while (sp_work_now () < until)
    {
      table.fill (2000);
      sp_work_sink += (uint64_t) table.weigh ();
    }
  sp_work_report_thread ();
  return 0;
}
