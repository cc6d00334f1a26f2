/* SPDX-License-Identifier: GPL-3.0-or-later */
/* debuginfod-server.c: a real debuginfod server on 127.0.0.1, for tests. */
#include "debuginfod-server.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libelf.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record-run.h"

#define READY_TIMEOUT_US (30 * G_USEC_PER_SEC)

/* Runs long enough for a few hundred samples at 1 kHz, in two named
 * functions that stay functions (no inlining). */
static const char hot_source[] =
  "#include <stdio.h>\n"
  "#include <time.h>\n"
  "\n"
  "static volatile double sink;\n"
  "\n"
  "__attribute__ ((noinline)) static double\n"
  "debuginfod_spin_inner (long n)\n"
  "{\n"
  "  double s = 0;\n"
  "  for (long i = 0; i < n; i++)\n"
  "    s += (double) i * 0.5 + sink;\n"
  "  return s;\n"
  "}\n"
  "\n"
  "__attribute__ ((noinline)) static double\n"
  "debuginfod_spin_outer (long n)\n"
  "{\n"
  "  return debuginfod_spin_inner (n) + 1;\n"
  "}\n"
  "\n"
  "int\n"
  "main (void)\n"
  "{\n"
  "  clock_t end = clock () + CLOCKS_PER_SEC * 3 / 10;\n"
  "  while (clock () < end)\n"
  "    sink += debuginfod_spin_outer (100000);\n"
  "  printf (\"%f\\n\", sink);\n"
  "  return 0;\n"
  "}\n";

gboolean
sp_test_debuginfod_available (char **reason)
{
  g_autofree char *path = g_find_program_in_path ("debuginfod");

  if (path == NULL)
    *reason = g_strdup ("the debuginfod server is not installed (Debian: apt install debuginfod)");
  return path != NULL;
}

/* argv[0] is looked for in PATH. */
static void
run_or_fail (const char *dir,
             const char *name,
             const char *const *argv)
{
  g_autofree char *program = g_find_program_in_path (argv[0]);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;

  if (program == NULL)
    g_error ("%s is not installed", argv[0]);
  g_ptr_array_add (args, program);
  for (guint i = 1; argv[i - 1] != NULL; i++)
    g_ptr_array_add (args, (char *) argv[i]);
  result = sp_test_run (dir, name, (const char *const *) args->pdata);

  if (result->exit_code != 0)
    g_error ("%s failed (exit status %d):\n%s", argv[0], result->exit_code, result->err);
}

static char *
read_build_id (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  const void *bits = NULL;
  ssize_t len;
  g_autoptr (GString) hex = g_string_new (NULL);

  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  len = dwelf_elf_gnu_build_id (elf, &bits);
  g_assert_cmpint (len, >, 0);
  for (ssize_t i = 0; i < len; i++)
    g_string_append_printf (hex, "%02x", ((const guint8 *) bits)[i]);
  elf_end (elf);
  close (fd);
  return g_string_free (g_steal_pointer (&hex), FALSE);
}

/* hot.c compiled as served/hot.c (so DWARF names that path), a symbolic
 * link to src/hot.c, its debug info split into served/hot.debug, the
 * program stripped into bin/. */
static void
build_program (SpTestDebuginfod *server)
{
  g_autofree char *bin = g_build_filename (server->dir, "bin", NULL);
  g_autofree char *full = g_build_filename (server->served, "hot", NULL);
  g_autofree char *debug = g_build_filename (server->served, "hot.debug", NULL);
  g_autofree char *src = g_build_filename (server->dir, "src", NULL);
  const char *cc = g_getenv ("CC") != NULL ? g_getenv ("CC") : "cc";

  g_assert_no_errno (g_mkdir_with_parents (server->served, 0755));
  g_assert_no_errno (g_mkdir_with_parents (bin, 0755));
  g_assert_no_errno (g_mkdir_with_parents (src, 0755));
  server->source_path = g_build_filename (server->served, "hot.c", NULL);
  server->source_file = g_build_filename (src, "hot.c", NULL);
  server->source_text = g_strdup (hot_source);
  g_assert_true (g_file_set_contents (server->source_file, hot_source, -1, NULL));
  sp_test_debuginfod_show_source (server, TRUE);
  server->program = g_build_filename (bin, "hot", NULL);
  run_or_fail (server->dir, "cc", (const char *const[]) { cc, "-g", "-O1", "-fno-omit-frame-pointer",
                                                           "-Wl,--build-id", "-o", full, server->source_path,
                                                           NULL });
  run_or_fail (server->dir, "objcopy", (const char *const[]) { "objcopy", "--only-keep-debug", full, debug, NULL });
  run_or_fail (server->dir, "strip", (const char *const[]) { "strip", "--strip-all", "-o", server->program, full,
                                                              NULL });
  g_assert_no_errno (g_unlink (full));
  server->build_id = read_build_id (server->program);
}

/* A port nobody listens on now. */
static guint16
free_port (void)
{
  g_autoptr (GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (socket);
  g_assert_true (g_socket_bind (socket, any_port, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* The server dies with the test, however the test ends. */
static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static void
spawn_server (SpTestDebuginfod *server,
              guint16 port)
{
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  g_autofree char *db = g_build_filename (server->dir, "debuginfod.sqlite", NULL);
  g_autofree char *log = g_build_filename (server->dir, "debuginfod.log", NULL);
  /* Not a federating server: it must not forward to the real ones. */
  g_auto (GStrv) env = g_environ_unsetenv (g_get_environ (), "DEBUGINFOD_URLS");
  const char *argv[] = { "debuginfod", "-p", port_text, "-d", db, "-F", server->served, NULL };
  g_autoptr (GError) error = NULL;
  int log_fd = open (log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  g_assert_cmpint (log_fd, >=, 0);
  g_spawn_async_with_fds (server->dir, (char **) argv, env, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                          die_with_parent, NULL, &server->pid, -1, log_fd, log_fd, &error);
  close (log_fd);
  g_assert_no_error (error);
  server->url = g_strdup_printf ("http://127.0.0.1:%u", port);
}

/* The status code of GET path, 0 when the server does not answer. */
static guint
http_status (guint16 port,
             const char *path)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autoptr (GSocketConnection) connection = NULL;
  g_autoptr (GDataInputStream) in = NULL;
  g_autofree char *request = g_strdup_printf ("GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
  g_autofree char *status = NULL;
  guint code = 0;

  g_socket_client_set_timeout (client, 5);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);
  if (connection == NULL
      || !g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), request,
                                     strlen (request), NULL, NULL, NULL))
    return 0;
  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  status = g_data_input_stream_read_line (in, NULL, NULL, NULL);
  if (status != NULL && g_str_has_prefix (status, "HTTP/"))
    sscanf (strchr (status, ' ') != NULL ? strchr (status, ' ') : "", " %u", &code);
  return code;
}

/* Until the first scan has indexed the debug file and the source. */
static void
wait_until_served (SpTestDebuginfod *server,
                   guint16 port)
{
  g_autofree char *debuginfo = g_strdup_printf ("/buildid/%s/debuginfo", server->build_id);
  g_autofree char *source = g_strdup_printf ("/buildid/%s/source%s", server->build_id, server->source_path);
  gint64 deadline = g_get_monotonic_time () + READY_TIMEOUT_US;

  while (http_status (port, debuginfo) != 200 || http_status (port, source) != 200)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("debuginfod on port %u did not serve %s within 30 s", port, debuginfo);
      g_usleep (G_USEC_PER_SEC / 10);
    }
}

SpTestDebuginfod *
sp_test_debuginfod_start (void)
{
  SpTestDebuginfod *server = g_new0 (SpTestDebuginfod, 1);
  guint16 port = free_port ();

  server->dir = sp_test_make_dir ();
  server->served = g_build_filename (server->dir, "served", NULL);
  server->cache = g_build_filename (server->dir, "cache", NULL);
  build_program (server);
  spawn_server (server, port);
  wait_until_served (server, port);
  return server;
}

void
sp_test_debuginfod_use (SpTestDebuginfod *server,
                        const char *cache)
{
  g_setenv ("DEBUGINFOD_URLS", server->url, TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
}

void
sp_test_debuginfod_show_source (SpTestDebuginfod *server,
                                gboolean shown)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) link = g_file_new_for_path (server->source_path);

  if (!shown)
    {
      g_assert_no_errno (g_unlink (server->source_path));
      return;
    }
  g_file_make_symbolic_link (link, server->source_file, NULL, &error);
  g_assert_no_error (error);
}

void
sp_test_debuginfod_stop (SpTestDebuginfod *server)
{
  if (server == NULL)
    return;
  kill (server->pid, SIGKILL);
  waitpid (server->pid, NULL, 0);
  g_spawn_close_pid (server->pid);
  sp_test_remove_dir (server->dir);
  g_free (server->dir);
  g_free (server->served);
  g_free (server->program);
  g_free (server->source_path);
  g_free (server->source_file);
  g_free (server->source_text);
  g_free (server->build_id);
  g_free (server->url);
  g_free (server->cache);
  g_free (server);
}
