/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-batch-list-model.c: a list model's changes held back and passed on
 * as one.
 *
 * As in GTK's list model tests, the list is printed ("1 2 3") and so are
 * the items-changed it emits ("0-2+3": at 0, 2 removed, 3 added), so each
 * check reads like the behaviour it pins. No display needed. */
#include <gtk/gtk.h>

#include "sp-batch-list-model.h"

static GObject *
number (guint n)
{
  g_autofree char *text = g_strdup_printf ("%u", n);

  return G_OBJECT (gtk_string_object_new (text));
}

static char *
list_text (GListModel *list)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (GtkStringObject) item = g_list_model_get_item (list, i);

      g_string_append_printf (text, "%s%s", i > 0 ? " " : "", gtk_string_object_get_string (item));
    }
  return g_string_free (text, FALSE);
}

static void
record_change (GListModel *list,
               guint position,
               guint removed,
               guint added,
               GString *changes)
{
  if (changes->len > 0)
    g_string_append_c (changes, ' ');
  g_string_append_printf (changes, "%u", position);
  if (removed > 0)
    g_string_append_printf (changes, "-%u", removed);
  if (added > 0)
    g_string_append_printf (changes, "+%u", added);
}

static GListStore *
store_of (guint n)
{
  GListStore *store = g_list_store_new (GTK_TYPE_STRING_OBJECT);

  for (guint i = 1; i <= n; i++)
    {
      g_autoptr (GObject) item = number (i);

      g_list_store_append (store, item);
    }
  return store;
}

#define assert_changes(changes, want)                \
  G_STMT_START {                                     \
    g_assert_cmpstr ((changes)->str, ==, (want));    \
    g_string_truncate ((changes), 0);                \
  } G_STMT_END

#define assert_list(list, want)                      \
  G_STMT_START {                                     \
    g_autofree char *got_ = list_text (list);        \
    g_assert_cmpstr (got_, ==, (want));              \
  } G_STMT_END

/* Not held, changes go through as they come. */
static void
test_pass_through (void)
{
  g_autoptr (GListStore) store = store_of (3);
  g_autoptr (SpBatchListModel) batch = sp_batch_list_model_new (G_LIST_MODEL (store));
  g_autoptr (GString) changes = g_string_new (NULL);
  g_autoptr (GObject) four = number (4);

  g_signal_connect (batch, "items-changed", G_CALLBACK (record_change), changes);
  assert_list (G_LIST_MODEL (batch), "1 2 3");
  g_list_store_remove (store, 1);
  g_list_store_append (store, four);
  assert_changes (changes, "1-1 2+1");
  assert_list (G_LIST_MODEL (batch), "1 3 4");
}

/* Held, the list keeps its length and says nothing; released, the whole
 * list changes at once, even when the model did not (its items' values
 * did). */
static void
test_hold (void)
{
  g_autoptr (GListStore) store = store_of (3);
  g_autoptr (SpBatchListModel) batch = sp_batch_list_model_new (G_LIST_MODEL (store));
  g_autoptr (GString) changes = g_string_new (NULL);
  g_autoptr (GObject) four = number (4);
  g_autoptr (GObject) five = number (5);

  g_signal_connect (batch, "items-changed", G_CALLBACK (record_change), changes);
  sp_batch_list_model_hold (batch);
  g_list_store_remove (store, 0);
  g_list_store_append (store, four);
  sp_batch_list_model_hold (batch);
  g_list_store_append (store, five);
  sp_batch_list_model_release (batch);
  assert_changes (changes, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (batch)), ==, 3);

  sp_batch_list_model_release (batch);
  assert_changes (changes, "0-3+4");
  assert_list (G_LIST_MODEL (batch), "2 3 4 5");

  sp_batch_list_model_hold (batch);
  sp_batch_list_model_release (batch);
  assert_changes (changes, "0-4+4");
}

static void
test_set_model (void)
{
  g_autoptr (GListStore) three = store_of (3);
  g_autoptr (GListStore) two = store_of (2);
  g_autoptr (SpBatchListModel) batch = sp_batch_list_model_new (NULL);
  g_autoptr (GString) changes = g_string_new (NULL);

  g_signal_connect (batch, "items-changed", G_CALLBACK (record_change), changes);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (batch)), ==, 0);
  sp_batch_list_model_set_model (batch, G_LIST_MODEL (three));
  sp_batch_list_model_set_model (batch, G_LIST_MODEL (two));
  sp_batch_list_model_set_model (batch, NULL);
  assert_changes (changes, "0+3 0-3+2 0-2");

  /* The old model's changes no longer come through. */
  g_list_store_remove (three, 0);
  assert_changes (changes, "");
}

/* Limited, only the model's first items are passed on; a larger limit
 * adds the next ones at the end; a change of the model passes on all. */
static void
test_limit (void)
{
  g_autoptr (GListStore) store = store_of (5);
  g_autoptr (SpBatchListModel) batch = sp_batch_list_model_new (NULL);
  g_autoptr (GString) changes = g_string_new (NULL);
  g_autoptr (GObject) six = number (6);

  g_signal_connect (batch, "items-changed", G_CALLBACK (record_change), changes);
  sp_batch_list_model_set_limit (batch, 2);
  sp_batch_list_model_set_model (batch, G_LIST_MODEL (store));
  assert_changes (changes, "0+2");
  assert_list (G_LIST_MODEL (batch), "1 2");
  g_assert_true (sp_batch_list_model_is_limited (batch));

  sp_batch_list_model_set_limit (batch, 4);
  assert_changes (changes, "2+2");
  assert_list (G_LIST_MODEL (batch), "1 2 3 4");

  g_list_store_append (store, six);
  assert_changes (changes, "0-4+6");
  assert_list (G_LIST_MODEL (batch), "1 2 3 4 5 6");
  g_assert_false (sp_batch_list_model_is_limited (batch));

  /* Held, a new limit waits for the release. */
  sp_batch_list_model_set_limit (batch, 3);
  assert_changes (changes, "3-3");
  sp_batch_list_model_hold (batch);
  sp_batch_list_model_set_limit (batch, G_MAXUINT);
  assert_changes (changes, "");
  sp_batch_list_model_release (batch);
  assert_changes (changes, "0-3+6");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/batch-list-model/pass-through", test_pass_through);
  g_test_add_func ("/ui/batch-list-model/hold", test_hold);
  g_test_add_func ("/ui/batch-list-model/set-model", test_set_model);
  g_test_add_func ("/ui/batch-list-model/limit", test_limit);
  return g_test_run ();
}
