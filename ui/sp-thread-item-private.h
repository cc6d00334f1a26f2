/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-item-private.h: one thread of the Threads page as a GObject.
 *
 * The thread list's rows are SpThreadRows (plain C, remade by every live
 * update); its column view needs GObject items whose properties its
 * sorters read. One item per thread lives as long as the list shows the
 * thread: an update copies the new row in and notifies only what changed,
 * so the cells (which follow their property) rewrite a label or two and
 * GTK keeps every row's widgets. */
#pragma once

#include <glib-object.h>

#include "sp-thread-rows.h"

G_BEGIN_DECLS

#define SP_TYPE_THREAD_ITEM (sp_thread_item_get_type ())
G_DECLARE_FINAL_TYPE (SpThreadItem, sp_thread_item, SP, THREAD_ITEM, GObject)

/* The properties, each a column's (its sorter's and its cells'):
 * "name" (string), "pid" (int), "tid", "samples", "cpu", "off-cpu",
 * "wall", "blocked", "runnable" (ns), "switches" (guint64), "shown"
 * (boolean). Without states (has_states FALSE) the off-CPU times and
 * the switches are 0. */
SpThreadItem *_sp_thread_item_new (const SpThreadRow *row,
                                   gboolean shown);

/* Copies row in (the same thread), notifying the properties it changes. */
void _sp_thread_item_set_row (SpThreadItem *self,
                              const SpThreadRow *row);

/* The row as last set; its name is the item's. */
const SpThreadRow *_sp_thread_item_get_row (SpThreadItem *self);

gboolean _sp_thread_item_get_shown (SpThreadItem *self);
void _sp_thread_item_set_shown (SpThreadItem *self,
                                gboolean shown);

/* "(unnamed)" for a thread without a name. */
const char *_sp_thread_item_get_name (SpThreadItem *self);

G_END_DECLS
