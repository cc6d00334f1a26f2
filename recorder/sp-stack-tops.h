/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-stack-tops.h: where each thread's stack ends, shared between threads.
 *
 * The unwinder learns a thread's stack top from its complete unwinds
 * (sp_unwinder_stack_top); the thread that drains the rings
 * (sp-ring-drain.c) cuts each sample's stack copy there before it is
 * queued. The unwinder's own tables belong to the thread that unwinds, so
 * it publishes the tops here, where a mutex guards them: a lookup or an
 * update per sample costs an uncontended lock. */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sp-intern-table.h"

typedef struct {
  pthread_mutex_t lock;
  SpInternTable   index;      /* tid -> tops[] */
  uint64_t       *tops;
  size_t          n_tops;     /* entries set (0 or a top) */
  size_t          capacity;
} SpStackTops;

void sp_stack_tops_init (SpStackTops *tops);
void sp_stack_tops_clear (SpStackTops *tops);

/* Thread tid's stack ends at top (0: unknown again, a thread that ended). */
void sp_stack_tops_set (SpStackTops *tops,
                        int32_t tid,
                        uint64_t top);

/* 0 while unknown. */
uint64_t sp_stack_tops_get (SpStackTops *tops,
                            int32_t tid);
