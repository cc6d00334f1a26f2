/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-tree-expander.c: a tree row's indent and disclosure triangle, one
 * widget at any depth (sp-tree-expander.h). */
#include "sp-tree-expander.h"

/* A level of indent, and the triangle's square: GTK's 16 px icons. */
#define LEVEL_PX 16

struct _SpTreeExpander
{
  GtkWidget       parent_instance;

  /* Child widgets */
  GtkWidget      *child;

  /* Owned references */
  GtkTreeListRow *row;
  gulong          row_notify_id;
  guint           depth;   /* the row's, as laid out (a removed row's becomes 0) */
};

G_DEFINE_FINAL_TYPE (SpTreeExpander, sp_tree_expander, GTK_TYPE_WIDGET)

int
sp_tree_expander_get_child_offset (SpTreeExpander *self)
{
  g_return_val_if_fail (SP_IS_TREE_EXPANDER (self), 0);
  return (int) (self->depth + 1) * LEVEL_PX;
}

static gboolean
is_rtl (SpTreeExpander *self)
{
  return gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL;
}

/* The triangle's left edge, in the expander's coordinates. */
static int
triangle_x (SpTreeExpander *self)
{
  int x = (int) self->depth * LEVEL_PX;

  return is_rtl (self) ? gtk_widget_get_width (GTK_WIDGET (self)) - x - LEVEL_PX : x;
}

static gboolean
is_expandable (SpTreeExpander *self)
{
  return self->row != NULL && gtk_tree_list_row_is_expandable (self->row);
}

/* ------------------------------------------------------------------ */
/* Size, place and drawing */

static void
sp_tree_expander_measure (GtkWidget *widget,
                          GtkOrientation orientation,
                          int for_size,
                          int *minimum,
                          int *natural,
                          int *minimum_baseline,
                          int *natural_baseline)
{
  SpTreeExpander *self = SP_TREE_EXPANDER (widget);
  int offset = sp_tree_expander_get_child_offset (self);
  int child_min = 0, child_nat = 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      if (self->child != NULL)
        gtk_widget_measure (self->child, orientation, for_size, &child_min, &child_nat, NULL, NULL);
      *minimum = child_min + offset;
      *natural = child_nat + offset;
      return;
    }
  if (self->child != NULL)
    gtk_widget_measure (self->child, orientation, for_size < 0 ? -1 : MAX (for_size - offset, 0), &child_min,
                        &child_nat, minimum_baseline, natural_baseline);
  *minimum = MAX (child_min, LEVEL_PX);
  *natural = MAX (child_nat, LEVEL_PX);
}

static void
sp_tree_expander_size_allocate (GtkWidget *widget,
                                int width,
                                int height,
                                int baseline)
{
  SpTreeExpander *self = SP_TREE_EXPANDER (widget);
  int offset = sp_tree_expander_get_child_offset (self);
  int room = MAX (width - offset, 0);
  GtkAllocation child;

  if (self->child == NULL)
    return;
  /* All the room: a name label shows as much of its name as fits, and
   * its tooltip and menu are anywhere in the cell, as in a list without
   * indent. Not the child's natural width, which GTK keeps from the name
   * it measured: a row rebound to a longer name showed it cut short. */
  child = (GtkAllocation) { is_rtl (self) ? 0 : offset, 0, room, height };
  gtk_widget_size_allocate (self->child, &child, baseline);
}

static void
sp_tree_expander_snapshot (GtkWidget *widget,
                           GtkSnapshot *snapshot)
{
  SpTreeExpander *self = SP_TREE_EXPANDER (widget);

  if (is_expandable (self))
    {
      /* Right to left, the theme's pan-end-symbolic-rtl points left. */
      const char *name = gtk_tree_list_row_get_expanded (self->row) ? "pan-down-symbolic" : "pan-end-symbolic";
      GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (widget));
      g_autoptr (GtkIconPaintable) icon = gtk_icon_theme_lookup_icon (theme, name, NULL, LEVEL_PX,
                                                                      gtk_widget_get_scale_factor (widget),
                                                                      gtk_widget_get_direction (widget), 0);
      GdkRGBA colors[4];

      /* The text's colour, as GTK's own expander is drawn. */
      gtk_style_context_get_color (gtk_widget_get_style_context (widget), &colors[0]);
      colors[1] = colors[2] = colors[3] = colors[0];
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (triangle_x (self),
                                                              (gtk_widget_get_height (widget) - LEVEL_PX) / 2));
      gtk_symbolic_paintable_snapshot_symbolic (GTK_SYMBOLIC_PAINTABLE (icon), snapshot, LEVEL_PX, LEVEL_PX, colors,
                                                G_N_ELEMENTS (colors));
      gtk_snapshot_restore (snapshot);
    }
  if (self->child != NULL)
    gtk_widget_snapshot_child (widget, self->child, snapshot);
}

/* ------------------------------------------------------------------ */
/* Opening and closing */

static void
set_expanded (SpTreeExpander *self,
              gboolean expanded)
{
  if (is_expandable (self))
    gtk_tree_list_row_set_expanded (self->row, expanded);
}

static void
expand_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  set_expanded (SP_TREE_EXPANDER (widget), TRUE);
}

static void
collapse_activated (GtkWidget *widget,
                    const char *action_name,
                    GVariant *parameter)
{
  set_expanded (SP_TREE_EXPANDER (widget), FALSE);
}

static void
toggle_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  SpTreeExpander *self = SP_TREE_EXPANDER (widget);

  set_expanded (self, self->row != NULL && !gtk_tree_list_row_get_expanded (self->row));
}

static gboolean
on_triangle (SpTreeExpander *self,
             double x)
{
  int left = triangle_x (self);

  return is_expandable (self) && x >= left && x < left + LEVEL_PX;
}

/* A press on the triangle is the expander's: the row is not selected or
 * activated by it (a double click opens and closes, as GTK's does). */
static void
click_pressed (GtkGestureClick *gesture,
               int n_press,
               double x,
               double y,
               SpTreeExpander *self)
{
  if (on_triangle (self, x))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  else
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
}

static void
click_released (GtkGestureClick *gesture,
                int n_press,
                double x,
                double y,
                SpTreeExpander *self)
{
  if (on_triangle (self, x))
    gtk_widget_activate_action (GTK_WIDGET (self), "listitem.toggle-expand", NULL);
}

/* ------------------------------------------------------------------ */
/* The row */

/* expanded and expandable change the triangle; depth, the indent (a
 * row removed from its model drops to depth 0). */
static void
update_for_row (SpTreeExpander *self)
{
  guint depth = self->row != NULL ? gtk_tree_list_row_get_depth (self->row) : 0;

  if (is_expandable (self))
    gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_EXPANDED,
                                 gtk_tree_list_row_get_expanded (self->row), -1);
  else
    gtk_accessible_reset_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_EXPANDED);
  if (depth != self->depth)
    {
      self->depth = depth;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A row disposed (its model went) has dropped its handlers: ours too. */
static void
disconnect_row (SpTreeExpander *self)
{
  if (self->row != NULL && self->row_notify_id != 0 && g_signal_handler_is_connected (self->row, self->row_notify_id))
    g_signal_handler_disconnect (self->row, self->row_notify_id);
  self->row_notify_id = 0;
}

static void
row_changed (GtkTreeListRow *row,
             GParamSpec *pspec,
             SpTreeExpander *self)
{
  update_for_row (self);
}

void
sp_tree_expander_set_list_row (SpTreeExpander *self,
                               GtkTreeListRow *row)
{
  g_return_if_fail (SP_IS_TREE_EXPANDER (self));
  if (self->row == row)
    return;
  disconnect_row (self);
  g_set_object (&self->row, row);
  if (row != NULL)
    self->row_notify_id = g_signal_connect (row, "notify", G_CALLBACK (row_changed), self);
  update_for_row (self);
}

GtkTreeListRow *
sp_tree_expander_get_list_row (SpTreeExpander *self)
{
  g_return_val_if_fail (SP_IS_TREE_EXPANDER (self), NULL);
  return self->row;
}

void
sp_tree_expander_set_child (SpTreeExpander *self,
                            GtkWidget *child)
{
  g_return_if_fail (SP_IS_TREE_EXPANDER (self));
  g_clear_pointer (&self->child, gtk_widget_unparent);
  self->child = child;
  if (child != NULL)
    gtk_widget_set_parent (child, GTK_WIDGET (self));
}

GtkWidget *
sp_tree_expander_get_child (SpTreeExpander *self)
{
  g_return_val_if_fail (SP_IS_TREE_EXPANDER (self), NULL);
  return self->child;
}

/* ------------------------------------------------------------------ */

static void
sp_tree_expander_dispose (GObject *object)
{
  SpTreeExpander *self = SP_TREE_EXPANDER (object);

  disconnect_row (self);
  g_clear_object (&self->row);
  g_clear_pointer (&self->child, gtk_widget_unparent);
  G_OBJECT_CLASS (sp_tree_expander_parent_class)->dispose (object);
}

/* GtkTreeExpander's keys. */
static const struct {
  guint           keyval;
  GdkModifierType modifiers;
  const char     *action;
} keys[] = {
  { GDK_KEY_plus, 0, "listitem.expand" },
  { GDK_KEY_KP_Add, 0, "listitem.expand" },
  { GDK_KEY_asterisk, 0, "listitem.expand" },
  { GDK_KEY_KP_Multiply, 0, "listitem.expand" },
  { GDK_KEY_Right, GDK_SHIFT_MASK, "listitem.expand" },
  { GDK_KEY_KP_Right, GDK_SHIFT_MASK, "listitem.expand" },
  { GDK_KEY_minus, 0, "listitem.collapse" },
  { GDK_KEY_KP_Subtract, 0, "listitem.collapse" },
  { GDK_KEY_slash, 0, "listitem.collapse" },
  { GDK_KEY_KP_Divide, 0, "listitem.collapse" },
  { GDK_KEY_Left, GDK_SHIFT_MASK, "listitem.collapse" },
  { GDK_KEY_KP_Left, GDK_SHIFT_MASK, "listitem.collapse" },
};

static void
sp_tree_expander_class_init (SpTreeExpanderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_tree_expander_dispose;
  widget_class->measure = sp_tree_expander_measure;
  widget_class->size_allocate = sp_tree_expander_size_allocate;
  widget_class->snapshot = sp_tree_expander_snapshot;

  /* GtkTreeExpander's actions. */
  gtk_widget_class_install_action (widget_class, "listitem.expand", NULL, expand_activated);
  gtk_widget_class_install_action (widget_class, "listitem.collapse", NULL, collapse_activated);
  gtk_widget_class_install_action (widget_class, "listitem.toggle-expand", NULL, toggle_activated);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].keyval, keys[i].modifiers, keys[i].action, NULL);

  gtk_widget_class_set_css_name (widget_class, "treeexpander");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sp_tree_expander_init (SpTreeExpander *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  /* Focusable as GtkTreeExpander: a row given the focus passes it to its
   * first child that takes it, and the keys above reach the expander. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (click_pressed), self);
  g_signal_connect (click, "released", G_CALLBACK (click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
sp_tree_expander_new (void)
{
  return g_object_new (SP_TYPE_TREE_EXPANDER, NULL);
}
