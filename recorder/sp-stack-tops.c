/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-stack-tops.c: a tid -> stack top table under a mutex. */
#include "sp-stack-tops.h"

#include <stdlib.h>
#include <string.h>

#include "sp-array.h"

void
sp_stack_tops_init (SpStackTops *tops)
{
  memset (tops, 0, sizeof *tops);
  pthread_mutex_init (&tops->lock, NULL);
  sp_intern_table_init (&tops->index, 1);
}

void
sp_stack_tops_clear (SpStackTops *tops)
{
  sp_intern_table_clear (&tops->index);
  free (tops->tops);
  pthread_mutex_destroy (&tops->lock);
  memset (tops, 0, sizeof *tops);
}

void
sp_stack_tops_set (SpStackTops *tops,
                   int32_t tid,
                   uint64_t top)
{
  uint64_t key = (uint32_t) tid;
  bool added = false;
  int64_t id;

  pthread_mutex_lock (&tops->lock);
  /* A thread never seen needs no entry to say it is unknown. */
  id = top != 0 ? sp_intern_table_intern (&tops->index, &key, &added) : sp_intern_table_lookup (&tops->index, &key);
  if (id >= 0 && sp_array_reserve ((void **) &tops->tops, &tops->capacity, (size_t) id + 1, sizeof (uint64_t)))
    {
      /* Ids come in order, but one whose entry memory refused is unknown. */
      while (tops->n_tops <= (size_t) id)
        tops->tops[tops->n_tops++] = 0;
      tops->tops[id] = top;
    }
  pthread_mutex_unlock (&tops->lock);
}

uint64_t
sp_stack_tops_get (SpStackTops *tops,
                   int32_t tid)
{
  uint64_t key = (uint32_t) tid;
  uint64_t top = 0;
  int64_t id;

  pthread_mutex_lock (&tops->lock);
  id = sp_intern_table_lookup (&tops->index, &key);
  if (id >= 0 && (size_t) id < tops->n_tops)
    top = tops->tops[id];
  pthread_mutex_unlock (&tops->lock);
  return top;
}
