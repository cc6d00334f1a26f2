/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pointer-test.c: XTEST pointer events (pointer-test.h). */
#include "pointer-test.h"

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <gdk/x11/gdkx.h>

#include "window-test.h"

/* Long enough for the X server and GTK to pass an event on. */
#define SETTLE_S 0.15

static Display *
xdisplay_of (GtkWidget *widget)
{
  return gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
}

gboolean
pointer_test_available (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  int event_base, error_base, major, minor;

  return GDK_IS_X11_DISPLAY (display)
         && XTestQueryExtension (gdk_x11_display_get_xdisplay (display), &event_base, &error_base, &major, &minor);
}

void
pointer_test_raise (GtkWindow *window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  XRaiseWindow (xdisplay_of (GTK_WIDGET (window)), gdk_x11_surface_get_xid (surface));
  XSync (xdisplay_of (GTK_WIDGET (window)), False);
  window_test_run (SETTLE_S);
}

void
pointer_test_screen_point (GtkWidget *widget,
                           double x,
                           double y,
                           int *root_x,
                           int *root_y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  Display *xdisplay = xdisplay_of (widget);
  graphene_point_t at;
  double surface_x, surface_y;
  Window child;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &at));
  gtk_native_get_surface_transform (native, &surface_x, &surface_y);
  XTranslateCoordinates (xdisplay, gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                         DefaultRootWindow (xdisplay), (int) (at.x + surface_x), (int) (at.y + surface_y),
                         root_x, root_y, &child);
}

void
pointer_test_move (GtkWidget *widget,
                   double x,
                   double y)
{
  Display *xdisplay = xdisplay_of (widget);
  int root_x, root_y;

  pointer_test_screen_point (widget, x, y, &root_x, &root_y);
  XTestFakeMotionEvent (xdisplay, -1, root_x, root_y, CurrentTime);
  XSync (xdisplay, False);
  window_test_run (SETTLE_S);
}

static void
button_event (GtkWidget *widget,
              guint button,
              gboolean press)
{
  Display *xdisplay = xdisplay_of (widget);

  XTestFakeButtonEvent (xdisplay, button, press, CurrentTime);
  XSync (xdisplay, False);
  window_test_run (SETTLE_S);
}

void
pointer_test_press (GtkWidget *widget,
                    guint button)
{
  button_event (widget, button, True);
}

void
pointer_test_release (GtkWidget *widget,
                      guint button)
{
  button_event (widget, button, False);
}

void
pointer_test_click (GtkWidget *widget,
                    double x,
                    double y,
                    guint button)
{
  pointer_test_move (widget, x, y);
  pointer_test_press (widget, button);
  pointer_test_release (widget, button);
}

/* Quicker than two clicks (each settles after its move, press and
 * release): within GTK's double-click time, 400 ms. */
void
pointer_test_double_click (GtkWidget *widget,
                           double x,
                           double y)
{
  Display *xdisplay = xdisplay_of (widget);

  pointer_test_move (widget, x, y);
  for (guint i = 0; i < 4; i++)
    {
      XTestFakeButtonEvent (xdisplay, GDK_BUTTON_PRIMARY, i % 2 == 0, CurrentTime);
      XSync (xdisplay, False);
      window_test_run (0.03);
    }
  window_test_run (SETTLE_S);
}

void
pointer_test_click_widget (GtkWidget *widget,
                           guint button)
{
  pointer_test_click (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0, button);
}

static void
key_event (Display *xdisplay,
           KeySym keysym,
           gboolean press)
{
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);

  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (xdisplay, code, press, CurrentTime);
  XSync (xdisplay, False);
  window_test_run (0.03);
}

void
pointer_test_key (GtkWidget *widget,
                  guint keyval,
                  GdkModifierType modifiers)
{
  static const struct { GdkModifierType mask; KeySym keysym; } held[] = {
    { GDK_CONTROL_MASK, XK_Control_L }, { GDK_ALT_MASK, XK_Alt_L }, { GDK_SHIFT_MASK, XK_Shift_L },
  };
  Display *xdisplay = xdisplay_of (widget);

  for (guint i = 0; i < G_N_ELEMENTS (held); i++)
    if (modifiers & held[i].mask)
      key_event (xdisplay, held[i].keysym, TRUE);
  /* GDK's key values are X keysyms. */
  key_event (xdisplay, keyval, TRUE);
  key_event (xdisplay, keyval, FALSE);
  for (guint i = G_N_ELEMENTS (held); i-- > 0;)
    if (modifiers & held[i].mask)
      key_event (xdisplay, held[i].keysym, FALSE);
  window_test_run (SETTLE_S);
}

guint
pointer_test_count_popups (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  Display *xdisplay = gdk_x11_display_get_xdisplay (display);
  Window root, parent, *children = NULL;
  unsigned int n_children = 0;
  guint n = 0;

  XQueryTree (xdisplay, DefaultRootWindow (xdisplay), &root, &parent, &children, &n_children);
  for (unsigned int i = 0; i < n_children; i++)
    {
      GdkSurface *surface = gdk_x11_surface_lookup_for_display (display, children[i]);

      if (surface != NULL && GDK_IS_POPUP (surface) && gdk_surface_get_mapped (surface))
        n++;
    }
  XFree (children);
  return n;
}
