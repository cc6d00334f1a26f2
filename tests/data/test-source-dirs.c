/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-source-dirs.c: finding a source file DWARF names where the build
 * path no longer exists, through the folder the user picked
 * (data/sp-source-dirs.c): the prefix it stands for, remembered in the
 * key file and used for the other files built there, and every path it
 * tried. Files made here in a temporary folder. */
#include <glib.h>
#include <glib/gstdio.h>

#include "sp-source-dirs.h"

typedef struct {
  char *dir;       /* the test's folder */
  char *ini;       /* its key file */
  char *checkout;  /* where the sources are now */
} Fixture;

static void
write_file (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "int main (void) { return 0; }\n", -1, NULL));
}

static void
fixture_init (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *parse = NULL, *render = NULL;

  f->dir = g_dir_make_tmp ("stackpulse-source-dirs-XXXXXX", &error);
  g_assert_no_error (error);
  f->ini = g_build_filename (f->dir, "config", "source-dirs.ini", NULL);
  f->checkout = g_build_filename (f->dir, "checkout", NULL);
  parse = g_build_filename (f->checkout, "src", "parse.c", NULL);
  render = g_build_filename (f->checkout, "src", "gfx", "render.c", NULL);
  write_file (parse);
  write_file (render);
}

/* What fixture_init and the tests made, deepest first. */
static void
fixture_clear (Fixture *f)
{
  static const char *const made[] = {
    "checkout/src/gfx/render.c", "checkout/src/gfx", "checkout/src/parse.c", "checkout/src",
    "checkout/include/work.h", "checkout/include", "checkout",
    "config/source-dirs.ini", "config",
  };

  for (guint i = 0; i < G_N_ELEMENTS (made); i++)
    {
      g_autofree char *path = g_build_filename (f->dir, made[i], NULL);

      g_remove (path);
    }
  g_assert_cmpint (g_rmdir (f->dir), ==, 0);
  g_free (f->dir);
  g_free (f->ini);
  g_free (f->checkout);
}

/* Not there, nothing remembered: it says where it looked. */
static void
test_missing (void)
{
  Fixture f;
  g_autoptr (SpSourceDirs) dirs = NULL;
  g_autoptr (GPtrArray) looked = g_ptr_array_new_with_free_func (g_free);
  const char *extra[] = { "/nowhere/recordings", NULL };
  char *found;

  fixture_init (&f);
  dirs = sp_source_dirs_load (f.ini);
  found = sp_source_dirs_find (dirs, "/build/app-1.2/src/parse.c", extra, looked);
  g_assert_null (found);
  /* As named, then each tail under the recording's folder. */
  g_assert_cmpuint (looked->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (looked, 0), ==, "/build/app-1.2/src/parse.c");
  g_assert_cmpstr (g_ptr_array_index (looked, 1), ==, "/nowhere/recordings/build/app-1.2/src/parse.c");
  g_assert_cmpstr (g_ptr_array_index (looked, 4), ==, "/nowhere/recordings/parse.c");
  fixture_clear (&f);
}

/* The folder picked for one file stands for the build path's prefix: the
 * other files built there are found too, also by the next window (a new
 * load of the key file). */
static void
test_remember_prefix (void)
{
  Fixture f;
  g_autoptr (SpSourceDirs) dirs = NULL;
  g_autoptr (SpSourceDirs) again = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *prefix = NULL, *found = NULL, *expected = NULL;

  fixture_init (&f);
  dirs = sp_source_dirs_load (f.ini);
  g_assert_true (sp_source_dirs_remember (dirs, "/build/app-1.2/src/parse.c", f.checkout, &prefix, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (prefix, ==, "/build/app-1.2");
  again = sp_source_dirs_load (f.ini);
  found = sp_source_dirs_find (again, "/build/app-1.2/src/gfx/render.c", NULL, NULL);
  expected = g_build_filename (f.checkout, "src", "gfx", "render.c", NULL);
  g_assert_cmpstr (found, ==, expected);
  /* Another build folder is not this one, even where a name starts alike. */
  g_assert_null (sp_source_dirs_find (again, "/build/app-1.25/src/parse.c", NULL, NULL));
  fixture_clear (&f);
}

/* The folder picked ends like the build folder ("proj/src" moved to
 * "checkout/src"): what is remembered is the part that differs, so a file
 * of the build's other folder ("proj/include/work.h") is found too. */
static void
test_remember_moved_project (void)
{
  Fixture f;
  g_autoptr (SpSourceDirs) dirs = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *picked = NULL, *wanted = NULL, *header = NULL, *prefix = NULL, *found = NULL;
  g_autofree char *expected_prefix = NULL, *wanted_header = NULL;

  fixture_init (&f);
  header = g_build_filename (f.checkout, "include", "work.h", NULL);
  write_file (header);
  picked = g_build_filename (f.checkout, "src", NULL);
  wanted = g_build_filename (f.dir, "proj", "src", "parse.c", NULL);
  dirs = sp_source_dirs_load (f.ini);
  g_assert_true (sp_source_dirs_remember (dirs, wanted, picked, &prefix, &error));
  g_assert_no_error (error);
  expected_prefix = g_build_filename (f.dir, "proj", NULL);
  g_assert_cmpstr (prefix, ==, expected_prefix);
  wanted_header = g_build_filename (f.dir, "proj", "include", "work.h", NULL);
  found = sp_source_dirs_find (dirs, wanted_header, NULL, NULL);
  g_assert_cmpstr (found, ==, header);
  fixture_clear (&f);
}

/* Each path tried is listed once; a path under the extra folder (the
 * recording's, often the working folder) is not glued onto it whole; a
 * relative path (a relative DW_AT_comp_dir) is looked for under the
 * folders only, not as named (under the working folder). */
static void
test_looked_once (void)
{
  Fixture f;
  g_autoptr (SpSourceDirs) dirs = NULL;
  g_autoptr (GPtrArray) looked = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) relative = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *wanted = NULL, *glued = NULL, *found = NULL, *expected = NULL;
  const char *extra[] = { NULL, NULL };

  fixture_init (&f);
  dirs = sp_source_dirs_load (f.ini);
  extra[0] = f.dir;
  wanted = g_build_filename (f.dir, "gone", "parse.c", NULL);
  g_assert_null (sp_source_dirs_find (dirs, wanted, extra, looked));
  glued = g_strconcat (f.dir, wanted, NULL);
  for (guint i = 0; i < looked->len; i++)
    {
      g_assert_cmpstr (g_ptr_array_index (looked, i), !=, glued);
      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (g_ptr_array_index (looked, i), !=, g_ptr_array_index (looked, j));
    }
  g_assert_cmpstr (g_ptr_array_index (looked, 0), ==, wanted);
  extra[0] = f.checkout;
  found = sp_source_dirs_find (dirs, "src/parse.c", extra, relative);
  expected = g_build_filename (f.checkout, "src", "parse.c", NULL);
  g_assert_cmpstr (found, ==, expected);
  g_assert_cmpuint (relative->len, ==, 1);
  fixture_clear (&f);
}

/* A copy made before a pick sees what was remembered until then only:
 * the worker's copy does not change under it. */
static void
test_copy (void)
{
  Fixture f;
  g_autoptr (SpSourceDirs) dirs = NULL;
  g_autoptr (SpSourceDirs) copy = NULL;
  g_autofree char *found = NULL;

  fixture_init (&f);
  dirs = sp_source_dirs_load (f.ini);
  copy = sp_source_dirs_copy (dirs);
  g_assert_true (sp_source_dirs_remember (dirs, "/b/src/parse.c", f.checkout, NULL, NULL));
  g_assert_null (sp_source_dirs_find (copy, "/b/src/parse.c", NULL, NULL));
  found = sp_source_dirs_find (dirs, "/b/src/parse.c", NULL, NULL);
  g_assert_nonnull (found);
  fixture_clear (&f);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/source-dirs/missing", test_missing);
  g_test_add_func ("/data/source-dirs/remember-prefix", test_remember_prefix);
  g_test_add_func ("/data/source-dirs/copy", test_copy);
  g_test_add_func ("/data/source-dirs/looked-once", test_looked_once);
  g_test_add_func ("/data/source-dirs/remember-moved-project", test_remember_moved_project);
  return g_test_run ();
}
