/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-input-kind.h: what a file given to --input looks like when it is not
 * a perf.data file, from its first bytes, so that the refusal says what
 * to do instead (the viewer has its own table, data/sp-file-kind.c, which
 * uses GLib; the recorder may not). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "a stackpulse recording (open it with stackpulse)", "an ELF file (…)",
 * "a text file (it begins "…")", … into out; head holds the first len
 * bytes (len > 0). */
void sp_input_kind_describe (const uint8_t *head,
                             size_t len,
                             char *out,
                             size_t out_size);
