/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-profile-open.c: libFuzzer target for what stackpulse-report does
 * with a file: the whole open path, spool and side file.
 *
 * An input is a spool, then optionally SIDE_FILE_MARK and a side file.
 * Both are written to a temporary folder (OUT.spool, OUT.spool.meta) and
 * opened through data/ as stackpulse-report opens them: the file check,
 * the reader, the side file, the symbolizer (kernel symbols from the side
 * file, else a small kallsyms copy written here, so each run does not
 * read the machine's /proc/kallsyms; module paths are whatever the input
 * names), the trees, the summary, the reports and the export, all to
 * /dev/null; then again as the window follows a growing file. Beyond "no
 * crash, no sanitizer report, no hang": a file that is refused says why,
 * the summary agrees with the reader, and following reads what opening
 * read. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp-call-tree.h"
#include "sp-export.h"
#include "sp-filter.h"
#include "sp-function-list.h"
#include "sp-profile.h"
#include "sp-report.h"
#include "sp-spool-summary.h"

#define SIDE_FILE_MARK "\nSPULSE-SIDE-FILE\n"

#define CHECK(cond) \
  do { \
    if (!(cond)) \
      { \
        fprintf (stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond); \
        abort (); \
      } \
  } while (0)

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *spool_path;
static char *meta_path;
static FILE *dev_null;

static const char kallsyms[] =
  "ffffffff81000000 T _stext\n"
  "ffffffff81000100 t early_idt_handler_array\n"
  "ffffffff821fb620 T schedule\n"
  "ffffffff821fb6c0 W __entry_text_end\n"
  "ffffffffc0a01230 t nft_do_chain\t[nf_tables]\n";

static void
setup (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *kallsyms_path = NULL;

  if (spool_path != NULL)
    return;
  dir = g_dir_make_tmp ("sp-fuzz-open-XXXXXX", NULL);
  CHECK (dir != NULL);
  spool_path = g_build_filename (dir, "fuzz.spool", NULL);
  meta_path = g_strconcat (spool_path, ".meta", NULL);
  kallsyms_path = g_build_filename (dir, "kallsyms", NULL);
  CHECK (g_file_set_contents (kallsyms_path, kallsyms, -1, NULL));
  g_setenv ("STACKPULSE_KALLSYMS", kallsyms_path, TRUE);
  /* A module path in the input must not start a download. */
  g_unsetenv ("DEBUGINFOD_URLS");
  dev_null = fopen ("/dev/null", "w");
  CHECK (dev_null != NULL);
}

/* Without the fsync g_file_set_contents would do for each input. */
static void
put_file (const char *path,
          const void *bytes,
          size_t size)
{
  CHECK (g_file_set_contents_full (path, bytes, (gssize) size, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
}

static void
write_files (const uint8_t *data,
             size_t size)
{
  const uint8_t *mark = memmem (data, size, SIDE_FILE_MARK, strlen (SIDE_FILE_MARK));
  size_t spool_size = mark != NULL ? (size_t) (mark - data) : size;

  put_file (spool_path, data, spool_size);
  g_unlink (meta_path);
  if (mark != NULL)
    {
      const uint8_t *meta = mark + strlen (SIDE_FILE_MARK);

      put_file (meta_path, meta, (size_t) (data + size - meta));
    }
}

/* What the window and the report show of a profile. */
static void
use_profile (SpProfile *profile)
{
  g_autoptr (SpFilter) filter = sp_filter_new ();
  SpReportOptions top_down = { 0.5, 20, FALSE };
  SpReportOptions bottom_up = { 0.0, 0, TRUE };
  SpSpoolSummary summary;
  SpCallTree *tree;

  sp_profile_set_inline_frames (profile, TRUE);
  sp_profile_set_dwarf (profile, TRUE);
  sp_report_summary (profile, filter, dev_null);
  sp_report_top (profile, filter, &top_down, dev_null);
  sp_report_tree (profile, filter, &top_down, dev_null);
  sp_report_tree (profile, filter, &bottom_up, dev_null);
  CHECK (sp_export_collapsed (profile, filter, dev_null));
  tree = sp_call_tree_new (profile, filter, NULL, TRUE);
  sp_call_tree_free (tree);
  g_array_unref (sp_function_list_new (profile, filter, NULL));

  sp_spool_summary_from_profile (profile, &summary);
  CHECK (summary.n_samples == sp_spool_reader_get_n_samples (sp_profile_get_reader (profile)));
  CHECK ((summary.damage != NULL) == (sp_profile_get_damage (profile) != NULL));
  sp_spool_summary_clear (&summary);
}

/* Following the same file (as the window follows a recording) and
 * finishing reads the same records, and the same damage. */
static void
check_follow (SpProfile *whole)
{
  g_autoptr (GError) error = NULL;
  SpProfile *follow = sp_profile_open_follow (spool_path, &error);
  const SpSpoolReader *a = sp_profile_get_reader (whole);
  const SpSpoolReader *b;

  CHECK (follow != NULL);
  sp_profile_update (follow);
  sp_profile_finish (follow);
  b = sp_profile_get_reader (follow);
  CHECK (sp_spool_reader_get_n_samples (a) == sp_spool_reader_get_n_samples (b));
  CHECK (sp_spool_reader_get_n_frames (a) == sp_spool_reader_get_n_frames (b));
  CHECK (sp_spool_reader_get_n_modules (a) == sp_spool_reader_get_n_modules (b));
  CHECK (g_strcmp0 (sp_profile_get_damage (whole), sp_profile_get_damage (follow)) == 0);
  CHECK (g_strcmp0 (sp_profile_get_meta_problem (whole), sp_profile_get_meta_problem (follow)) == 0);
  sp_profile_unref (follow);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autoptr (GError) error = NULL;
  SpProfile *profile;

  setup ();
  write_files (data, size);
  profile = sp_profile_open (spool_path, &error);
  if (profile == NULL)
    {
      /* Refused: a message that names the file. */
      CHECK (error != NULL && strstr (error->message, spool_path) != NULL);
      return 0;
    }
  CHECK (error == NULL);
  /* A side file that is there was read, or said why not. */
  if (g_file_test (meta_path, G_FILE_TEST_EXISTS))
    CHECK ((sp_profile_get_meta (profile) != NULL) != (sp_profile_get_meta_problem (profile) != NULL));
  use_profile (profile);
  check_follow (profile);
  sp_profile_unref (profile);
  return 0;
}
