/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui-watch.c: a program's window, watched from outside on the X
 * screen, the same way for any program (stackpulse, Hotspot).
 *
 * Starts the command, waits for its first top-level window to map, then
 * grabs that window's pixels every POLL_S seconds. A grab that differs
 * from the one before in more than BIG_CHANGE of its pixels is a big
 * change (a page replaced, data drawn; a blinking cursor or a spinner is
 * not). The program is taken to have shown its data at the last big
 * change after its first content (a loading page), once the window then
 * stayed still for `settle` seconds. Prints when the window mapped, first
 * had content, and that last big change, all from the moment before the
 * command was started; saves the last grab. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-gui.h"
#include "bench-probe.h"

#define POLL_S     0.05
#define BIG_CHANGE 0.02

typedef struct {
  Display *display;
  Window   window;
  XImage  *last;
  double   t_map;
  double   t_content;
  double   t_change;
  guint    n_changes;
} Watch;

static Window
largest_viewable (Display *display)
{
  Window root_return, parent, *children = NULL, best = None;
  unsigned n = 0;
  long best_area = 0;

  if (!XQueryTree (display, DefaultRootWindow (display), &root_return, &parent, &children, &n))
    return None;
  for (unsigned i = 0; i < n; i++)
    {
      XWindowAttributes a;

      if (XGetWindowAttributes (display, children[i], &a) && a.map_state == IsViewable && !a.override_redirect
          && (long) a.width * a.height > best_area && a.width > 1 && a.height > 1)
        {
          best = children[i];
          best_area = (long) a.width * a.height;
        }
    }
  if (children != NULL)
    XFree (children);
  return best;
}

/* The share of pixels that differ (1 when the size changed). */
static double
difference (XImage *a,
            XImage *b)
{
  guint64 differ = 0;

  if (a->width != b->width || a->height != b->height)
    return 1;
  for (int y = 0; y < a->height; y++)
    {
      const char *ra = a->data + (gsize) y * a->bytes_per_line;
      const char *rb = b->data + (gsize) y * b->bytes_per_line;

      /* Most rows are the same: compare them whole first. */
      if (memcmp (ra, rb, (gsize) a->width * a->bits_per_pixel / 8) == 0)
        continue;
      for (int x = 0; x < a->width; x++)
        differ += XGetPixel (a, x, y) != XGetPixel (b, x, y);
    }
  return (double) differ / ((double) a->width * a->height);
}

static gboolean
has_content (XImage *image)
{
  unsigned long first = XGetPixel (image, 0, 0);

  for (int y = 0; y < image->height; y += 4)
    for (int x = 0; x < image->width; x += 4)
      if (XGetPixel (image, x, y) != first)
        return TRUE;
  return FALSE;
}

static void
poll_window (Watch *w,
             double now)
{
  XWindowAttributes a;
  XImage *image;

  if (w->window == None)
    {
      w->window = largest_viewable (w->display);
      if (w->window == None)
        return;
      w->t_map = now;
    }
  if (!XGetWindowAttributes (w->display, w->window, &a) || a.map_state != IsViewable)
    return;
  image = XGetImage (w->display, w->window, 0, 0, a.width, a.height, AllPlanes, ZPixmap);
  if (image == NULL)
    return;
  if (w->t_content == 0 && has_content (image))
    w->t_content = now;
  else if (w->t_content > 0 && difference (w->last, image) > BIG_CHANGE)
    {
      w->t_change = now;
      w->n_changes++;
    }
  if (w->last != NULL)
    XDestroyImage (w->last);
  w->last = image;
}

static void
save_png (XImage *image,
          const char *path)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  guint8 *pixels = g_malloc ((gsize) image->width * image->height * 4);

  for (int y = 0; y < image->height; y++)
    for (int x = 0; x < image->width; x++)
      {
        unsigned long p = XGetPixel (image, x, y);
        guint8 *out = pixels + ((gsize) y * image->width + x) * 4;

        out[0] = (guint8) (p >> 16);
        out[1] = (guint8) (p >> 8);
        out[2] = (guint8) p;
        out[3] = 255;
      }
  bytes = g_bytes_new_take (pixels, (gsize) image->width * image->height * 4);
  texture = gdk_memory_texture_new (image->width, image->height, GDK_MEMORY_R8G8B8A8, bytes,
                                    (gsize) image->width * 4);
  if (!gdk_texture_save_to_png (texture, path))
    fprintf (stderr, "bench-gui: cannot save %s\n", path);
}

static void
end_program (pid_t pid)
{
  int status;

  kill (-pid, SIGTERM);
  for (int i = 0; i < 40; i++)
    {
      if (waitpid (pid, &status, WNOHANG) == pid)
        return;
      g_usleep (50000);
    }
  kill (-pid, SIGKILL);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
}

static void
forget_log (int fd,
            const char *path)
{
  if (fd < 0)
    return;
  close (fd);
  unlink (path);
}

int
bench_gui_child_watch (char **argv,
                       double settle,
                       double timeout,
                       const char *png)
{
  extern char **environ;
  Watch w = { XOpenDisplay (NULL), None };
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  double t0, now;
  pid_t pid;
  int status = 0;
  gboolean settled;
  g_autofree char *log_path = NULL;
  int log_fd;

  if (w.display == NULL)
    {
      fprintf (stderr, "bench-gui: cannot open the X display\n");
      return 1;
    }
  if (largest_viewable (w.display) != None)
    {
      fprintf (stderr, "bench-gui: another window is already on the screen\n");
      return 1;
    }
  /* Its own process group, so that its helpers end with it. */
  posix_spawnattr_init (&attr);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup (&attr, 0);
  /* Our standard output is for the figures; its chatter goes to a file,
   * shown if it exits while watched. */
  log_fd = g_file_open_tmp ("bench-gui-watch-XXXXXX.log", &log_path, NULL);
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  if (log_fd >= 0)
    posix_spawn_file_actions_adddup2 (&actions, log_fd, STDERR_FILENO);
  t0 = bench_wall_now ();
  if (posix_spawnp (&pid, argv[0], &actions, &attr, argv, environ) != 0)
    {
      fprintf (stderr, "bench-gui: cannot run %s\n", argv[0]);
      return 1;
    }
  posix_spawn_file_actions_destroy (&actions);
  posix_spawnattr_destroy (&attr);
  for (now = t0; now - t0 < timeout; now = bench_wall_now ())
    {
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          g_autofree char *said = NULL;

          g_file_get_contents (log_path, &said, NULL, NULL);
          fprintf (stderr, "bench-gui: %s exited (status %d) while watched; it said:\n%s\n", argv[0], status,
                   said != NULL ? said : "");
          forget_log (log_fd, log_path);
          return 1;
        }
      poll_window (&w, now);
      if (w.t_change > 0 && now - w.t_change >= settle)
        break;
      g_usleep ((gulong) (POLL_S * 1e6));
    }
  end_program (pid);
  forget_log (log_fd, log_path);
  if (w.last == NULL)
    {
      fprintf (stderr, "bench-gui: %s showed no window in %.0f s\n", argv[0], timeout);
      return 1;
    }
  settled = w.t_change > 0 && now - w.t_change >= settle;
  /* No change after the first content: that was all it showed. */
  if (w.t_change == 0)
    w.t_change = w.t_content;
  printf ("map %.6f\ncontent %.6f\nshown %.6f\nchanges %u\nsettled %d\n", w.t_map - t0,
          w.t_content > 0 ? w.t_content - t0 : 0, w.t_change > 0 ? w.t_change - t0 : 0, w.n_changes, settled);
  if (png != NULL)
    save_png (w.last, png);
  XDestroyImage (w.last);
  XCloseDisplay (w.display);
  return 0;
}
