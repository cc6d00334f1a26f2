/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-batch-list-model.h: a list model that passes on another's items and
 * can hold back its changes, to pass them on as one.
 *
 * The call tree view updates its rows for a new tree level by level, with
 * a splice or two in each expanded row's children: each splice went
 * through the sort model to the column view as an items-changed of its
 * own, and GTK 4.8 rebinds every row inside each one's range. Held back
 * and passed on as one change of the whole list, the sort model takes
 * fresh sort keys for all rows (the totals changed) and the column view
 * rebinds each row it shows once, reusing the widgets of the rows that
 * are still there. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SP_TYPE_BATCH_LIST_MODEL (sp_batch_list_model_get_type ())

G_DECLARE_FINAL_TYPE (SpBatchListModel, sp_batch_list_model, SP, BATCH_LIST_MODEL, GObject)

/* model may be NULL (an empty list). */
SpBatchListModel *sp_batch_list_model_new (GListModel *model);

GListModel *sp_batch_list_model_get_model (SpBatchListModel *self);
/* Replaces the model: one items-changed of the whole list. */
void sp_batch_list_model_set_model (SpBatchListModel *self,
                                    GListModel *model);

/* Until the matching release, the model's changes are held back: the
 * list keeps the length it had, and its items must not be read (they are
 * the model's, already changed). */
void sp_batch_list_model_hold (SpBatchListModel *self);
/* Passes the whole list on as changed, in one items-changed: the changes
 * held back and the items' own values, which the caller changed meanwhile
 * (a sort model above takes new sort keys for all of them). */
void sp_batch_list_model_release (SpBatchListModel *self);

/* Passes on only the model's first limit items (G_MAXUINT: all, as
 * new). A larger limit passes the next ones on, added at the end, and
 * rows already shown keep their positions: the call tree view hands a
 * first tree's rows to the column view a few dozen a frame (GTK 4.8 makes
 * and measures the row widgets of an items-changed in the same frame).
 * A change of the model lifts the limit: the whole list is passed on. */
void sp_batch_list_model_set_limit (SpBatchListModel *self,
                                    guint limit);
/* Whether some of the model's items are not passed on yet. */
gboolean sp_batch_list_model_is_limited (SpBatchListModel *self);

G_END_DECLS
