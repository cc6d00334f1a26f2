/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-events.c: the events of a perf.data file by name, and
 * which one a conversion takes: the one asked for, else the sampling
 * clock event (cycles, cpu-clock, task-clock), else the first sampling
 * one. */
#include "sp-perf-data-file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf's names of the common events. */
char *
sp_perf_data_event_name (const struct perf_event_attr *attr)
{
  static const char *const hardware[] = { "cycles", "instructions", "cache-references", "cache-misses",
                                          "branches", "branch-misses", "bus-cycles" };
  static const char *const software[] = { "cpu-clock", "task-clock", "page-faults", "context-switches",
                                          "cpu-migrations", "minor-faults", "major-faults" };
  char name[64];

  if (attr->type == PERF_TYPE_HARDWARE && attr->config < sizeof hardware / sizeof *hardware)
    snprintf (name, sizeof name, "%s", hardware[attr->config]);
  else if (attr->type == PERF_TYPE_SOFTWARE && attr->config < sizeof software / sizeof *software)
    snprintf (name, sizeof name, "%s", software[attr->config]);
  else
    snprintf (name, sizeof name, "event type %u config 0x%llx", attr->type, (unsigned long long) attr->config);
  return strdup (name);
}

static bool
is_sampling (const struct perf_event_attr *attr)
{
  return attr->sample_period != 0;  /* or sample_freq: the same field */
}

static bool
is_clock_event (const struct perf_event_attr *attr)
{
  return (attr->type == PERF_TYPE_HARDWARE && attr->config == PERF_COUNT_HW_CPU_CYCLES)
         || (attr->type == PERF_TYPE_SOFTWARE
             && (attr->config == PERF_COUNT_SW_CPU_CLOCK || attr->config == PERF_COUNT_SW_TASK_CLOCK));
}

/* "cycles:u" is asked for as "cycles" too, when no event has that name. */
static long
find_named (const SpPerfData *data,
            const char *name)
{
  for (size_t i = 0; i < data->n_events; i++)
    if (strcmp (data->events[i].name, name) == 0)
      return (long) i;
  for (size_t i = 0; i < data->n_events; i++)
    if (strncmp (data->events[i].name, name, strlen (name)) == 0 && data->events[i].name[strlen (name)] == ':')
      return (long) i;
  return -1;
}

static long
default_event (const SpPerfData *data)
{
  for (size_t i = 0; i < data->n_events; i++)
    if (is_sampling (&data->events[i].attr) && is_clock_event (&data->events[i].attr))
      return (long) i;
  for (size_t i = 0; i < data->n_events; i++)
    if (is_sampling (&data->events[i].attr))
      return (long) i;
  return -1;
}

bool
sp_perf_data_name_events (SpPerfData *data)
{
  for (size_t i = 0; i < data->n_events; i++)
    {
      SpPerfDataEvent *e = &data->events[i];

      /* EVENT_DESC's names are in the attributes' order. */
      if (e->name == NULL && i < data->features.n_event_names && data->features.event_names[i] != NULL)
        e->name = strdup (data->features.event_names[i]);
      if (e->name == NULL && (e->name = sp_perf_data_event_name (&e->attr)) == NULL)
        return false;
    }
  return true;
}

long
sp_perf_data_choose_event (const SpPerfData *data,
                           const char *name)
{
  return name != NULL ? find_named (data, name) : default_event (data);
}

char *
sp_perf_data_list_events (const SpPerfData *data)
{
  size_t size = 1;
  char *list;

  for (size_t i = 0; i < data->n_events; i++)
    size += strlen (data->events[i].name) + 2;
  list = calloc (size, 1);
  for (size_t i = 0; list != NULL && i < data->n_events; i++)
    {
      if (i > 0)
        strcat (list, ", ");
      strcat (list, data->events[i].name);
    }
  return list;
}
