/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-module-table.h: the writer's view of every process's mapped code.
 *
 * Semantics of the seed's ModuleTable: areas with end <= start are ignored,
 * an identical active module is reused, the most recently defined active
 * module containing an address wins, exec deactivates a process's modules,
 * fork clones them for the child. Every change goes to the spool through
 * the writer given to the call. */
#pragma once

#include "sp-spool-error.h"
#include "sp-spool-format.h"
#include "sp-spool-writer.h"

typedef struct _SpModuleTable SpModuleTable;

SpModuleTable *sp_module_table_new (void);

void sp_module_table_free (SpModuleTable *table);

/* Defines module (its path is copied) unless an identical active one
 * exists. *id is the module's id, or SP_SPOOL_NO_ID for an empty area. */
bool sp_module_table_intern (SpModuleTable *table,
                             SpSpoolWriter *writer,
                             const SpModule *module,
                             uint32_t *id,
                             SpSpoolError *err);

/* All non-kernel modules of pid stop applying (exec). Writes a
 * MODULE_DEACTIVATE record only if one was active. */
bool sp_module_table_deactivate_process (SpModuleTable *table,
                                         SpSpoolWriter *writer,
                                         int32_t pid,
                                         SpSpoolError *err);

/* child gets copies of parent's active non-kernel modules (fork). */
bool sp_module_table_clone_process (SpModuleTable *table,
                                    SpSpoolWriter *writer,
                                    int32_t parent_pid,
                                    int32_t child_pid,
                                    SpSpoolError *err);

/* A frame for abs_ip of pid in mode (user or kernel): in the module that
 * contains it, or without a module. */
SpFrame sp_module_table_resolve_frame (SpModuleTable *table,
                                       int32_t pid,
                                       uint64_t abs_ip,
                                       SpFrameMode mode);

size_t sp_module_table_get_n_modules (const SpModuleTable *table);

const SpModule *sp_module_table_get_module (const SpModuleTable *table,
                                            uint32_t id);

bool sp_module_table_is_active (const SpModuleTable *table,
                                uint32_t id);
