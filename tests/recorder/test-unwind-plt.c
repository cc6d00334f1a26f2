/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-unwind-plt.c: where the return address is in a PLT stub that has
 * no CFI (LLD's and mold's).
 *
 * A sample in a hot stub stops at its jump through the GOT, which the
 * conformance matrix records; the lazy path (a first call, on its way to
 * ld.so) is too short to be sampled, so the unwinder's rule at every
 * instruction of the stubs is checked here against what the x86-64 ABI
 * says is on the stack: a program calling abs and labs through the PLT is
 * linked by LLD and by mold, objdump lists the instructions of its .plt,
 * and at each one the return address must lie above the words pushed so
 * far in its stub. In PLT0 those include the lazy entry's push of its
 * index (LLD); mold's entries pass the index in %r11 and PLT0 pushes it.
 * objdump names each stub with a label line, which starts a new one. */
#include <glib.h>
#include <string.h>

#include "record-run.h"
#include "sp-unwind-file.h"

static const char program_source[] =
  "#include <stdlib.h>\n"
  "int main (int argc, char **argv) { (void) argv; return abs (argc - 3) + (int) labs ((long) argc - 5); }\n";

typedef struct {
  const char *name;
  const char *linker;       /* its program, to skip when missing */
  const char *flag;
  gboolean    index_in_r11; /* entries pass the index in %r11, not on the stack */
} Linker;

static const Linker linkers[] = {
  { "lld", "ld.lld", "-fuse-ld=lld", FALSE },
  { "mold", "mold", "-fuse-ld=mold", TRUE },
};

static char *
build (const Linker *linker,
       const char *dir)
{
  g_autofree char *source = g_build_filename (dir, "plt.c", NULL);
  char *out = g_build_filename (dir, "plt", NULL);
  g_autofree char *gcc = g_find_program_in_path ("gcc");
  g_autoptr (SpChildResult) result = NULL;

  g_assert_true (g_file_set_contents (source, program_source, -1, NULL));
  result = sp_test_run (dir, "build",
                        (const char *const[]) { gcc, "-O2", "-fno-builtin", linker->flag, "-o", out, source, NULL });
  if (result->exit_code != 0)
    g_error ("%s: the build failed:\n%s%s", linker->name, result->out, result->err);
  return out;
}

/* objdump's listing of .plt: "  17e0:\tjmp ..." lines, and "... <name>:"
 * label lines that start a stub. */
static char *
disassemble_plt (const char *dir,
                 const char *program)
{
  g_autofree char *objdump = g_find_program_in_path ("objdump");
  g_autoptr (SpChildResult) result = NULL;

  g_assert_nonnull (objdump);
  result = sp_test_run (dir, "objdump",
                        (const char *const[]) { objdump, "-d", "--no-show-raw-insn", "-j", ".plt", program, NULL });
  g_assert_cmpint (result->exit_code, ==, 0);
  return g_strdup (result->out);
}

static void
test_linker (gconstpointer data)
{
  const Linker *linker = data;
  g_autofree char *dir = NULL;
  g_autofree char *program = NULL;
  g_autofree char *listing = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *gcc = g_find_program_in_path ("gcc");
  g_autofree char *linker_path = g_find_program_in_path (linker->linker);
  g_autoptr (GRegex) instruction = g_regex_new ("^ +([0-9a-f]+):\\s+(\\S+)", 0, 0, NULL);
  g_autoptr (GRegex) label = g_regex_new ("^[0-9a-f]+ <.*>:$", 0, 0, NULL);
  SpUnwindFile *file;
  int stub = -1;        /* 0: PLT0 */
  int pushed = 0;
  guint checked = 0;

  if (gcc == NULL || linker_path == NULL)
    {
      if (g_getenv ("CI") != NULL && *g_getenv ("CI") != '\0')
        g_error ("%s is not installed, but CI is set", linker->linker);
      g_test_skip ("gcc or the linker is not installed");
      return;
    }
  dir = sp_test_make_dir ();
  program = build (linker, dir);
  listing = disassemble_plt (dir, program);
  g_test_message ("%s", listing);
  file = sp_unwind_file_load (program, 0);
  g_assert_true (file->readable);

  lines = g_strsplit (listing, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) match = NULL;
      g_autofree char *address_text = NULL;
      g_autofree char *mnemonic = NULL;
      guint64 address;
      SpLeafRule rule;

      if (g_regex_match (label, lines[i], 0, NULL))
        {
          stub++;
          pushed = stub == 0 && !linker->index_in_r11 ? 1 : 0;
          continue;
        }
      if (!g_regex_match (instruction, lines[i], 0, &match))
        continue;
      address_text = g_match_info_fetch (match, 1);
      mnemonic = g_match_info_fetch (match, 2);
      if (g_str_equal (mnemonic, "int3"))
        continue;  /* padding, never run */
      address = g_ascii_strtoull (address_text, NULL, 16);
      rule = sp_unwind_file_leaf_rule (file, address);
      if (rule.base != SP_LEAF_RSP || rule.cfa_offset != 8 + 8 * pushed || rule.rbp_offset != 0)
        g_error ("%s: at %s (stub %d, %d words pushed): rule base %d, CFA %%rsp%+d, want %%rsp%+d",
                 linker->name, g_strstrip (lines[i]), stub, pushed, rule.base, rule.cfa_offset, 8 + 8 * pushed);
      checked++;
      if (g_str_equal (mnemonic, "push"))
        pushed++;
    }
  g_test_message ("%s: %u instructions in %d stubs", linker->name, checked, stub + 1);
  /* PLT0 and the two functions' stubs, at least. */
  g_assert_cmpint (stub + 1, >=, 3);
  sp_unwind_file_free (file);
  sp_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (linkers); i++)
    {
      g_autofree char *path = g_strdup_printf ("/recorder/unwind-plt/%s", linkers[i].name);

      g_test_add_data_func (path, &linkers[i], test_linker);
    }
  return g_test_run ();
}
