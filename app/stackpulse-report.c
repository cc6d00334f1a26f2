/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stackpulse-report: text reports of a spool, for terminals and scripts.
 *
 * `dump` prints the canonical dump of ../shared/vectors/README.md through
 * the codec's whole-file reader: the same reader every other part uses. */
#include <stdio.h>
#include <string.h>

#include "sp-spool-dump.h"
#include "sp-spool-reader.h"

static int
usage (FILE *out,
       int status)
{
  fputs ("Usage: stackpulse-report COMMAND FILE.spool\n"
         "\n"
         "Commands:\n"
         "  dump FILE    every record of the spool as canonical text\n"
         "\n"
         "Record a spool with stackpulse-record; view it with stackpulse.\n", out);
  return status;
}

/* A rejected file: one line on stdout, exit 1, as the reference does. */
static int
dump (const char *path)
{
  static char buffer[1 << 16];
  SpSpoolError err;
  SpSpoolReader *reader = sp_spool_reader_open (path, &err);

  if (reader == NULL)
    {
      printf ("error: %s\n", err.message);
      return 1;
    }
  setvbuf (stdout, buffer, _IOFBF, sizeof buffer);
  if (!sp_spool_dump (reader, stdout))
    {
      sp_spool_reader_free (reader);
      fprintf (stderr, "stackpulse-report: cannot write the dump\n");
      return 2;
    }
  sp_spool_reader_free (reader);
  return 0;
}

int
main (int argc,
      char **argv)
{
  if (argc == 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    return usage (stdout, 0);
  if (argc == 3 && strcmp (argv[1], "dump") == 0)
    return dump (argv[2]);
  return usage (stderr, 2);
}
