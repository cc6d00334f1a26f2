/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-batch-list-model.c: changes held back and passed on as one
 * (sp-batch-list-model.h). */
#include "sp-batch-list-model.h"

struct _SpBatchListModel
{
  GObject parent_instance;

  /* Owned references */
  GListModel *model;

  guint n_items;   /* the length the list's users were told */
  guint holds;     /* hold calls not released yet */
  guint limit;     /* at most this many of the model's items passed on; G_MAXUINT: all */
};

static void sp_batch_list_model_list_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpBatchListModel, sp_batch_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sp_batch_list_model_list_init))

static GType
sp_batch_list_model_get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
sp_batch_list_model_get_n_items (GListModel *list)
{
  return SP_BATCH_LIST_MODEL (list)->n_items;
}

static gpointer
sp_batch_list_model_get_item (GListModel *list,
                              guint position)
{
  SpBatchListModel *self = SP_BATCH_LIST_MODEL (list);

  if (self->model == NULL || position >= self->n_items)
    return NULL;
  return g_list_model_get_item (self->model, position);
}

static void
sp_batch_list_model_list_init (GListModelInterface *iface)
{
  iface->get_item_type = sp_batch_list_model_get_item_type;
  iface->get_n_items = sp_batch_list_model_get_n_items;
  iface->get_item = sp_batch_list_model_get_item;
}

/* The length the list has: the model's, up to the limit. */
static guint
limited_n_items (SpBatchListModel *self)
{
  guint n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;

  return MIN (n, self->limit);
}

static void pass_on_all (SpBatchListModel *self);

static void
model_items_changed (GListModel *model,
                     guint position,
                     guint removed,
                     guint added,
                     SpBatchListModel *self)
{
  if (self->holds > 0)
    return;
  /* A change under a limit (the user opened a row while the first ones
   * were passed on): the rest of the list comes with it. */
  if (self->limit != G_MAXUINT)
    {
      self->limit = G_MAXUINT;
      pass_on_all (self);
      return;
    }
  self->n_items = self->n_items - removed + added;
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/* One change of the whole list, from what its users were told to what the
 * model has now. */
static void
pass_on_all (SpBatchListModel *self)
{
  guint removed = self->n_items;

  self->n_items = limited_n_items (self);
  if (removed > 0 || self->n_items > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->n_items);
}

static void
sp_batch_list_model_dispose (GObject *object)
{
  SpBatchListModel *self = SP_BATCH_LIST_MODEL (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed, self);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (sp_batch_list_model_parent_class)->dispose (object);
}

static void
sp_batch_list_model_class_init (SpBatchListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sp_batch_list_model_dispose;
}

static void
sp_batch_list_model_init (SpBatchListModel *self)
{
  self->limit = G_MAXUINT;
}

SpBatchListModel *
sp_batch_list_model_new (GListModel *model)
{
  SpBatchListModel *self;

  g_return_val_if_fail (model == NULL || G_IS_LIST_MODEL (model), NULL);

  self = g_object_new (SP_TYPE_BATCH_LIST_MODEL, NULL);
  sp_batch_list_model_set_model (self, model);
  return self;
}

GListModel *
sp_batch_list_model_get_model (SpBatchListModel *self)
{
  g_return_val_if_fail (SP_IS_BATCH_LIST_MODEL (self), NULL);

  return self->model;
}

void
sp_batch_list_model_set_model (SpBatchListModel *self,
                               GListModel *model)
{
  g_return_if_fail (SP_IS_BATCH_LIST_MODEL (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));
  g_return_if_fail (self->holds == 0);

  if (self->model == model)
    return;
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect (model, "items-changed", G_CALLBACK (model_items_changed), self);
  pass_on_all (self);
}

void
sp_batch_list_model_hold (SpBatchListModel *self)
{
  g_return_if_fail (SP_IS_BATCH_LIST_MODEL (self));

  self->holds++;
}

void
sp_batch_list_model_release (SpBatchListModel *self)
{
  g_return_if_fail (SP_IS_BATCH_LIST_MODEL (self));
  g_return_if_fail (self->holds > 0);

  if (--self->holds == 0)
    pass_on_all (self);
}

void
sp_batch_list_model_set_limit (SpBatchListModel *self,
                               guint limit)
{
  guint old_n_items;

  g_return_if_fail (SP_IS_BATCH_LIST_MODEL (self));

  self->limit = limit;
  /* Held: the release passes the list on as it is then. */
  if (self->holds > 0)
    return;
  old_n_items = self->n_items;
  self->n_items = limited_n_items (self);
  if (self->n_items > old_n_items)
    g_list_model_items_changed (G_LIST_MODEL (self), old_n_items, 0, self->n_items - old_n_items);
  else if (self->n_items < old_n_items)
    g_list_model_items_changed (G_LIST_MODEL (self), self->n_items, old_n_items - self->n_items, 0);
}

gboolean
sp_batch_list_model_is_limited (SpBatchListModel *self)
{
  g_return_val_if_fail (SP_IS_BATCH_LIST_MODEL (self), FALSE);

  return self->n_items < (self->model != NULL ? g_list_model_get_n_items (self->model) : 0);
}
