/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwind-maps.c: the files, processes (their executable mappings) and
 * threads the unwinder follows. */
#include "sp-unwinder-private.h"

#include <stdlib.h>
#include <string.h>

#include "sp-array.h"

static void
process_free (SpUnwindProcess *process)
{
  if (process == NULL)
    return;
  _sp_unwinder_dwarf_forget (process);
  free (process->maps);
  free (process);
}

void
_sp_unwinder_maps_clear (SpUnwinder *unwinder)
{
  for (size_t i = 0; i < unwinder->process_index.count; i++)
    process_free (unwinder->processes[i]);
  free (unwinder->processes);
  sp_intern_table_clear (&unwinder->process_index);
  for (size_t i = 0; i < unwinder->thread_index.count; i++)
    free (unwinder->threads[i].tail);
  free (unwinder->threads);
  sp_intern_table_clear (&unwinder->thread_index);
  for (size_t i = 0; i < unwinder->n_files; i++)
    sp_unwind_file_free (unwinder->files[i]);
  free (unwinder->files);
}

/* A file is known by path and inode: a path can name another file later
 * in a recording (a program rebuilt and run again). It is read when a
 * stack first runs through it (_sp_unwinder_mapping_at), once for every
 * process that maps it. */
SpUnwindFile *
_sp_unwinder_file_for (SpUnwinder *unwinder,
                       const char *path,
                       uint64_t inode)
{
  SpUnwindFile *file;

  for (size_t i = 0; i < unwinder->n_files; i++)
    if (unwinder->files[i]->inode == inode && strcmp (unwinder->files[i]->path, path) == 0)
      return unwinder->files[i];
  if (!sp_array_reserve ((void **) &unwinder->files, &unwinder->files_capacity, unwinder->n_files + 1,
                         sizeof (SpUnwindFile *))
      || (file = sp_unwind_file_new (path, inode)) == NULL)
    return NULL;
  unwinder->files[unwinder->n_files++] = file;
  return file;
}

void
_sp_unwinder_use_file (SpUnwinder *unwinder,
                       SpUnwindFile *file)
{
  SpUnwindFile *oldest = NULL;

  file->used = ++unwinder->file_clock;
  if (file->loaded)
    return;
  if (unwinder->n_loaded_files >= SP_UNWIND_MAX_LOADED_FILES)
    {
      for (size_t i = 0; i < unwinder->n_files; i++)
        if (unwinder->files[i]->loaded && (oldest == NULL || unwinder->files[i]->used < oldest->used))
          oldest = unwinder->files[i];
      if (oldest != NULL)
        {
          sp_unwind_file_unload (oldest);
          unwinder->n_loaded_files--;
          unwinder->stats.files_unloaded++;
        }
    }
  sp_unwind_file_ensure_loaded (file);
  unwinder->n_loaded_files++;
}

SpUnwindProcess *
_sp_unwinder_process_lookup (SpUnwinder *unwinder,
                             int32_t pid)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  int64_t i = sp_intern_table_lookup (&unwinder->process_index, &key);

  return i >= 0 ? unwinder->processes[i] : NULL;
}

SpUnwindProcess *
_sp_unwinder_process_for (SpUnwinder *unwinder,
                          int32_t pid)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  bool added;
  int64_t i;

  if (!sp_array_reserve ((void **) &unwinder->processes, &unwinder->processes_capacity,
                         unwinder->process_index.count + 1, sizeof (SpUnwindProcess *)))
    return NULL;
  i = sp_intern_table_intern (&unwinder->process_index, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    unwinder->processes[i] = NULL;
  if (unwinder->processes[i] == NULL)
    {
      unwinder->processes[i] = calloc (1, sizeof (SpUnwindProcess));
      if (unwinder->processes[i] != NULL)
        {
          unwinder->processes[i]->pid = pid;
          unwinder->processes[i]->unwinder = unwinder;
        }
    }
  return unwinder->processes[i];
}

static void
process_forget (SpUnwinder *unwinder,
                int32_t pid)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  int64_t i = sp_intern_table_lookup (&unwinder->process_index, &key);

  if (i >= 0)
    {
      process_free (unwinder->processes[i]);
      unwinder->processes[i] = NULL;
    }
}

SpUnwindThread *
_sp_unwinder_thread_lookup (const SpUnwinder *unwinder,
                            int32_t tid)
{
  uint64_t key = (uint64_t) (int64_t) tid;
  int64_t i = sp_intern_table_lookup (&unwinder->thread_index, &key);

  return i >= 0 ? &unwinder->threads[i] : NULL;
}

SpUnwindThread *
_sp_unwinder_thread_for (SpUnwinder *unwinder,
                         int32_t tid)
{
  uint64_t key = (uint64_t) (int64_t) tid;
  bool added;
  int64_t i;

  if (!sp_array_reserve ((void **) &unwinder->threads, &unwinder->threads_capacity,
                         unwinder->thread_index.count + 1, sizeof (SpUnwindThread)))
    return NULL;
  i = sp_intern_table_intern (&unwinder->thread_index, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    memset (&unwinder->threads[i], 0, sizeof (SpUnwindThread));
  return &unwinder->threads[i];
}

/* The mapping holding address, or NULL. */
const SpUnwindMapping *
_sp_unwinder_mapping_at (const SpUnwindProcess *process,
                         uint64_t address)
{
  size_t lo = 0;
  size_t hi = process->n_maps;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (process->maps[mid].start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || address >= process->maps[lo - 1].end)
    return NULL;
  _sp_unwinder_use_file (process->unwinder, process->maps[lo - 1].file);
  return &process->maps[lo - 1];
}

void
sp_unwinder_add_mapping (SpUnwinder *unwinder,
                         const SpModule *module)
{
  SpUnwindProcess *process = _sp_unwinder_process_for (unwinder, module->pid);
  uint64_t start = module->start;
  uint64_t end = module->end;
  uint64_t file_offset = module->file_offset;
  SpUnwindFile *file;
  size_t kept = 0;
  size_t at;

  if (process == NULL || start >= end)
    return;
  if (module->path[0] != '/' && strcmp (module->path, "[vdso]") != 0)
    return;  /* anonymous code (JIT), [vsyscall]: nothing to unwind with */
  file = _sp_unwinder_file_for (unwinder, module->path, module->inode);
  if (file == NULL)
    return;

  /* A new mapping replaces whatever it overlaps. */
  for (size_t i = 0; i < process->n_maps; i++)
    {
      SpUnwindMapping *m = &process->maps[i];

      if (m->start < end && start < m->end)
        {
          if (m->start == start && m->end == end && m->file == file && m->file_offset == file_offset)
            return;  /* seen before (attach reads /proc after enabling) */
          process->stale |= m->reported;
          continue;
        }
      process->maps[kept++] = *m;
    }
  process->n_maps = kept;
  if (!sp_array_reserve ((void **) &process->maps, &process->maps_capacity, process->n_maps + 1,
                         sizeof (SpUnwindMapping)))
    return;
  for (at = 0; at < process->n_maps && process->maps[at].start < start; at++)
    ;
  memmove (&process->maps[at + 1], &process->maps[at], (process->n_maps - at) * sizeof (SpUnwindMapping));
  process->maps[at] = (SpUnwindMapping) { start, end, file_offset, file, false };
  process->n_maps++;
}

void
sp_unwinder_fork (SpUnwinder *unwinder,
                  int32_t parent_pid,
                  int32_t pid)
{
  SpUnwindProcess *parent = _sp_unwinder_process_lookup (unwinder, parent_pid);
  SpUnwindProcess *child;

  if (parent_pid == pid)
    return;
  process_forget (unwinder, pid);
  child = _sp_unwinder_process_for (unwinder, pid);
  parent = _sp_unwinder_process_lookup (unwinder, parent_pid);  /* the table may have moved */
  if (child == NULL || parent == NULL || parent->n_maps == 0)
    return;
  child->maps = malloc (parent->n_maps * sizeof (SpUnwindMapping));
  if (child->maps == NULL)
    return;
  memcpy (child->maps, parent->maps, parent->n_maps * sizeof (SpUnwindMapping));
  child->n_maps = child->maps_capacity = parent->n_maps;
  for (size_t i = 0; i < child->n_maps; i++)
    child->maps[i].reported = false;
}

void
sp_unwinder_forget_process (SpUnwinder *unwinder,
                            int32_t pid)
{
  process_forget (unwinder, pid);
}

uint64_t
sp_unwinder_stack_top (const SpUnwinder *unwinder,
                       int32_t tid)
{
  const SpUnwindThread *thread = _sp_unwinder_thread_lookup (unwinder, tid);

  return thread != NULL ? thread->stack_top : 0;
}

void
sp_unwinder_share_stack_tops (SpUnwinder *unwinder,
                              SpStackTops *tops)
{
  unwinder->shared_tops = tops;
}

/* A complete unwind read nothing above the thread's outermost frame: the
 * highest word it read bounds what any later unwind of the thread needs
 * (with a margin for the words an outermost frame's CFI may look at). */
void
_sp_unwinder_learn_stack_top (SpUnwinder *unwinder,
                              int32_t tid,
                              uint64_t read_end)
{
  SpUnwindThread *thread = _sp_unwinder_thread_for (unwinder, tid);
  uint64_t top = read_end + 256;

  if (thread != NULL && top > thread->stack_top)
    {
      thread->stack_top = top;
      if (unwinder->shared_tops != NULL)
        sp_stack_tops_set (unwinder->shared_tops, tid, top);
    }
}

void
sp_unwinder_forget_thread (SpUnwinder *unwinder,
                           int32_t tid)
{
  SpUnwindThread *thread = _sp_unwinder_thread_lookup (unwinder, tid);

  if (thread != NULL)
    {
      thread->stack_top = 0;
      if (unwinder->shared_tops != NULL)
        sp_stack_tops_set (unwinder->shared_tops, tid, 0);
      if (thread->tail != NULL)
        thread->tail->valid = false;
    }
}
