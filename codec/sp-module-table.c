/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-module-table.c: modules grouped by process, with a lazily sorted
 * address index per group, so that exec, fork and lookups cost what the
 * process has, not what the whole recording has. */
#include "sp-module-table.h"

#include <stdlib.h>
#include <string.h>

#include "sp-array.h"
#include "sp-intern-table.h"

typedef struct {
  uint64_t start;
  uint64_t end;
  uint32_t id;
} IndexEntry;

typedef struct {
  uint32_t   *active;       /* active modules (kernel ones too), id order */
  size_t      n_active;
  size_t      active_capacity;
  IndexEntry *index;        /* the ones lookups may find */
  size_t      n_index;
  size_t      index_capacity;
  bool        index_dirty;
  bool        has_overlaps; /* index stays in id order and is scanned */
} Group;

struct _SpModuleTable
{
  SpModule     *modules;    /* paths owned */
  bool         *active;
  size_t        n_modules;
  size_t        capacity;
  SpInternTable group_of_pid;
  Group        *groups;
  size_t        n_groups;
  size_t        groups_capacity;
  Group         kernel;     /* kernel modules of every pid */
  /* The last pid found and its group's index (a pid's index never
   * changes): a sample's frames are resolved one after the other, each
   * for the same pid. */
  int32_t       last_pid;
  int64_t       last_group; /* -1: none yet */
};

static bool
out_of_memory (SpSpoolError *err)
{
  sp_spool_error_set (err, SP_SPOOL_ERROR_NO_MEMORY, 0, 0, "out of memory in the module table");
  return false;
}

SpModuleTable *
sp_module_table_new (void)
{
  SpModuleTable *table = calloc (1, sizeof *table);

  if (table != NULL)
    {
      sp_intern_table_init (&table->group_of_pid, 1);
      table->last_group = -1;
    }
  return table;
}

static void
group_clear (Group *group)
{
  free (group->active);
  free (group->index);
}

void
sp_module_table_free (SpModuleTable *table)
{
  if (table == NULL)
    return;
  for (size_t i = 0; i < table->n_modules; i++)
    free ((char *) table->modules[i].path);
  for (size_t i = 0; i < table->n_groups; i++)
    group_clear (&table->groups[i]);
  group_clear (&table->kernel);
  free (table->modules);
  free (table->active);
  free (table->groups);
  sp_intern_table_clear (&table->group_of_pid);
  free (table);
}

/* The group of pid, created when create is set; NULL otherwise. */
static Group *
group_for_pid (SpModuleTable *table,
               int32_t pid,
               bool create)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  bool added;
  int64_t i;

  if (!create)
    {
      if (table->last_group >= 0 && table->last_pid == pid)
        return &table->groups[table->last_group];
      i = sp_intern_table_lookup (&table->group_of_pid, &key);
      if (i < 0)
        return NULL;
      table->last_pid = pid;
      table->last_group = i;
      return &table->groups[i];
    }
  if (!sp_array_reserve ((void **) &table->groups, &table->groups_capacity, table->n_groups + 1, sizeof (Group)))
    return NULL;
  i = sp_intern_table_intern (&table->group_of_pid, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    memset (&table->groups[table->n_groups++], 0, sizeof (Group));
  return &table->groups[i];
}

static bool
group_add (Group *group,
           uint32_t id)
{
  if (!sp_array_reserve ((void **) &group->active, &group->active_capacity, group->n_active + 1, sizeof (uint32_t)))
    return false;
  group->active[group->n_active++] = id;
  group->index_dirty = true;
  return true;
}

/* Room for one more module in both parallel arrays. */
static bool
reserve_module (SpModuleTable *table)
{
  size_t capacity = table->capacity;
  bool *active;

  if (table->n_modules < capacity)
    return true;
  if (!sp_array_reserve ((void **) &table->modules, &capacity, table->n_modules + 1, sizeof (SpModule)))
    return false;
  active = realloc (table->active, capacity * sizeof (bool));
  if (active == NULL)
    return false;
  table->active = active;
  table->capacity = capacity;
  return true;
}

static bool
same_module (const SpModule *a,
             const SpModule *b)
{
  return a->pid == b->pid
         && a->start == b->start
         && a->end == b->end
         && a->file_offset == b->file_offset
         && a->inode == b->inode
         && a->path_len == b->path_len
         && memcmp (a->path, b->path, a->path_len) == 0;
}

bool
sp_module_table_intern (SpModuleTable *table,
                        SpSpoolWriter *writer,
                        const SpModule *module,
                        uint32_t *id,
                        SpSpoolError *err)
{
  Group *group;
  SpModule copy = *module;
  uint32_t new_id;
  char *path;

  *id = SP_SPOOL_NO_ID;
  if (module->end <= module->start)
    return true;

  group = group_for_pid (table, module->pid, true);
  if (group == NULL)
    return out_of_memory (err);
  for (size_t i = 0; i < group->n_active; i++)
    if (same_module (&table->modules[group->active[i]], module))
      {
        *id = group->active[i];
        return true;
      }

  path = malloc (module->path_len + 1);
  if (path == NULL || !reserve_module (table))
    {
      free (path);
      return out_of_memory (err);
    }
  memcpy (path, module->path, module->path_len);
  path[module->path_len] = '\0';
  copy.path = path;

  new_id = table->n_modules >= UINT32_MAX ? UINT32_MAX : (uint32_t) table->n_modules;
  if (!sp_spool_writer_write_module (writer, new_id, &copy, err))
    {
      free (path);
      return false;
    }
  table->modules[table->n_modules] = copy;
  table->active[table->n_modules] = true;
  table->n_modules++;
  if (!group_add (group, new_id) || (copy.is_kernel && !group_add (&table->kernel, new_id)))
    return out_of_memory (err);
  *id = new_id;
  return true;
}

bool
sp_module_table_deactivate_process (SpModuleTable *table,
                                    SpSpoolWriter *writer,
                                    int32_t pid,
                                    SpSpoolError *err)
{
  Group *group = group_for_pid (table, pid, false);
  size_t kept = 0;

  if (group == NULL)
    return true;
  for (size_t i = 0; i < group->n_active; i++)
    {
      uint32_t id = group->active[i];

      if (table->modules[id].is_kernel)
        group->active[kept++] = id;
      else
        table->active[id] = false;
    }
  if (kept == group->n_active)
    return true;
  group->n_active = kept;
  group->index_dirty = true;
  return sp_spool_writer_write_module_deactivation (writer, pid, err);
}

bool
sp_module_table_clone_process (SpModuleTable *table,
                               SpSpoolWriter *writer,
                               int32_t parent_pid,
                               int32_t child_pid,
                               SpSpoolError *err)
{
  Group *parent = group_for_pid (table, parent_pid, false);
  uint32_t *inherited;
  size_t n = 0;
  bool ok = true;

  if (parent == NULL || parent->n_active == 0)
    return true;
  /* A snapshot: interning for the child may move the groups around. */
  inherited = malloc (parent->n_active * sizeof *inherited);
  if (inherited == NULL)
    return out_of_memory (err);
  for (size_t i = 0; i < parent->n_active; i++)
    if (!table->modules[parent->active[i]].is_kernel)
      inherited[n++] = parent->active[i];

  for (size_t i = 0; i < n && ok; i++)
    {
      SpModule copy = table->modules[inherited[i]];
      uint32_t id;

      copy.pid = child_pid;
      ok = sp_module_table_intern (table, writer, &copy, &id, err);
    }
  free (inherited);
  return ok;
}

static int
compare_entries (const void *a,
                 const void *b)
{
  const IndexEntry *x = a;
  const IndexEntry *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Sorted by start when no two areas overlap (binary search); otherwise
 * kept in id order and scanned from the newest. */
static bool
rebuild_index (const SpModuleTable *table,
               Group *group)
{
  group->n_index = 0;
  if (!sp_array_reserve ((void **) &group->index, &group->index_capacity, group->n_active, sizeof (IndexEntry)))
    return false;
  for (size_t i = 0; i < group->n_active; i++)
    {
      const SpModule *module = &table->modules[group->active[i]];

      if (module->is_kernel && group != &table->kernel)
        continue;
      group->index[group->n_index++] = (IndexEntry) { module->start, module->end, group->active[i] };
    }

  if (group->n_index > 1)
    qsort (group->index, group->n_index, sizeof (IndexEntry), compare_entries);
  group->has_overlaps = false;
  for (size_t i = 0; i + 1 < group->n_index; i++)
    if (group->index[i].end > group->index[i + 1].start)
      group->has_overlaps = true;
  if (group->has_overlaps)
    {
      /* Back to id order for the newest-first scan. */
      size_t n = 0;

      for (size_t i = 0; i < group->n_active; i++)
        {
          const SpModule *module = &table->modules[group->active[i]];

          if (!module->is_kernel || group == &table->kernel)
            group->index[n++] = (IndexEntry) { module->start, module->end, group->active[i] };
        }
    }
  group->index_dirty = false;
  return true;
}

static uint32_t
group_find (const Group *group,
            uint64_t address)
{
  size_t lo = 0;
  size_t hi = group->n_index;

  if (group->has_overlaps)
    {
      for (size_t i = group->n_index; i-- > 0;)
        if (group->index[i].start <= address && address < group->index[i].end)
          return group->index[i].id;
      return SP_SPOOL_NO_ID;
    }
  /* The first entry that starts after address; the one before may hold it. */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (group->index[mid].start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || address >= group->index[lo - 1].end)
    return SP_SPOOL_NO_ID;
  return group->index[lo - 1].id;
}

SpFrame
sp_module_table_resolve_frame (SpModuleTable *table,
                               int32_t pid,
                               uint64_t abs_ip,
                               SpFrameMode mode)
{
  SpFrame frame = { abs_ip, abs_ip, SP_SPOOL_NO_ID, mode };
  Group *group = NULL;
  uint32_t id;

  if (mode == SP_FRAME_KERNEL)
    group = &table->kernel;
  else if (mode == SP_FRAME_USER)
    group = group_for_pid (table, pid, false);
  if (group == NULL)
    return frame;
  /* Out of memory for the index: the frame stays without a module. */
  if (group->index_dirty && !rebuild_index (table, group))
    return frame;

  id = group_find (group, abs_ip);
  if (id != SP_SPOOL_NO_ID)
    {
      const SpModule *module = &table->modules[id];

      frame.module_id = id;
      frame.rel_ip = abs_ip - module->start + module->file_offset;
    }
  return frame;
}

size_t
sp_module_table_get_n_modules (const SpModuleTable *table)
{
  return table->n_modules;
}

const SpModule *
sp_module_table_get_module (const SpModuleTable *table,
                            uint32_t id)
{
  return id < table->n_modules ? &table->modules[id] : NULL;
}

bool
sp_module_table_is_active (const SpModuleTable *table,
                           uint32_t id)
{
  return id < table->n_modules && table->active[id];
}
