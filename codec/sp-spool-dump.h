/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-dump.h: the canonical text dump of a spool.
 *
 * The format of tests/vectors/README.md: every record as the reader
 * derived it, every sample with its stack resolved leaf first. Tests and
 * `stackpulse-report dump` compare readers through it. */
#pragma once

#include <stdio.h>

#include "sp-spool-reader.h"

/* Writes the dump of reader to out; false if writing failed. */
bool sp_spool_dump (const SpSpoolReader *reader,
                    FILE *out);
