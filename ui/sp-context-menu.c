/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-context-menu.c: the views' right-click menu (sp-context-menu-private.h). */
#include "sp-context-menu-private.h"

#define CONTEXT_MENU "sp-context-menu"
#define CELL_ITEM "sp-context-menu-item"

typedef struct {
  GtkWidget           *popover;   /* the view's child */
  SpContextSelectFunc  select_at;
} ContextMenu;

/* On release, not press: a menu opened under the press got the release,
 * and GTK 4.8 lost count of the widgets the press made active ("Broken
 * accounting of active state") when the view itself, not a child of it,
 * was pressed (the flame graph). */
static void
right_released (GtkGestureClick *gesture,
                int n_press,
                double x,
                double y,
                gpointer user_data)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  ContextMenu *menu = g_object_get_data (G_OBJECT (view), CONTEXT_MENU);
  GdkRectangle at = { (int) x, (int) y, 1, 1 };

  if (menu == NULL || !menu->select_at (view, x, y))
    return;
  gtk_popover_set_pointing_to (GTK_POPOVER (menu->popover), &at);
  gtk_popover_popup (GTK_POPOVER (menu->popover));
  /* A tooltip already shown over the row asks again, and is told no. */
  gtk_widget_trigger_tooltip_query (view);
}

static void
context_menu_free (gpointer data)
{
  ContextMenu *menu = data;

  g_clear_pointer (&menu->popover, gtk_widget_unparent);
  g_free (menu);
}

void
_sp_context_menu_set_model (GtkWidget *view,
                            GMenuModel *model,
                            SpContextSelectFunc select_at)
{
  ContextMenu *menu = g_object_get_data (G_OBJECT (view), CONTEXT_MENU);
  GtkGesture *click;

  g_return_if_fail (GTK_IS_WIDGET (view));
  g_return_if_fail (model == NULL || select_at != NULL);

  if (model == NULL)
    {
      _sp_context_menu_clear (view);
      return;
    }
  if (menu != NULL)
    {
      gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (menu->popover), model);
      menu->select_at = select_at;
      return;
    }
  menu = g_new0 (ContextMenu, 1);
  menu->select_at = select_at;
  menu->popover = gtk_popover_menu_new_from_model (model);
  gtk_popover_set_has_arrow (GTK_POPOVER (menu->popover), FALSE);
  gtk_popover_set_position (GTK_POPOVER (menu->popover), GTK_POS_BOTTOM);
  gtk_widget_set_halign (menu->popover, GTK_ALIGN_START);
  gtk_widget_set_parent (menu->popover, view);
  g_object_set_data_full (G_OBJECT (view), CONTEXT_MENU, menu, context_menu_free);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "released", G_CALLBACK (right_released), NULL);
  g_object_set_data (G_OBJECT (view), CONTEXT_MENU "-gesture", click);
  gtk_widget_add_controller (view, GTK_EVENT_CONTROLLER (click));
}

gboolean
_sp_context_menu_is_open (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      ContextMenu *menu = g_object_get_data (G_OBJECT (widget), CONTEXT_MENU);

      if (menu != NULL)
        return gtk_widget_get_visible (menu->popover);
    }
  return FALSE;
}

void
_sp_context_menu_clear (GtkWidget *view)
{
  GtkEventController *click = g_object_get_data (G_OBJECT (view), CONTEXT_MENU "-gesture");

  if (click != NULL)
    gtk_widget_remove_controller (view, click);
  g_object_set_data (G_OBJECT (view), CONTEXT_MENU "-gesture", NULL);
  g_object_set_data (G_OBJECT (view), CONTEXT_MENU, NULL);
}

void
_sp_context_menu_remember_item (GtkWidget *cell,
                                GtkListItem *list_item)
{
  /* The list item outlives its child. */
  g_object_set_data (G_OBJECT (cell), CELL_ITEM, list_item);
}

guint
_sp_context_menu_row_at (GtkWidget *widget,
                         double x,
                         double y,
                         GtkColumnView **column_view)
{
  for (GtkWidget *at = gtk_widget_pick (widget, x, y, GTK_PICK_DEFAULT);
       at != NULL && at != widget;
       at = gtk_widget_get_parent (at))
    {
      GtkListItem *list_item = g_object_get_data (G_OBJECT (at), CELL_ITEM);

      if (list_item == NULL)
        continue;
      if (column_view != NULL)
        *column_view = GTK_COLUMN_VIEW (gtk_widget_get_ancestor (at, GTK_TYPE_COLUMN_VIEW));
      return gtk_list_item_get_position (list_item);
    }
  return GTK_INVALID_LIST_POSITION;
}

gboolean
_sp_context_menu_select_row_at (GtkWidget *view,
                                GtkSingleSelection *selection,
                                double x,
                                double y)
{
  guint position = _sp_context_menu_row_at (view, x, y, NULL);

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  gtk_single_selection_set_selected (selection, position);
  return TRUE;
}
