/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-utf8-private.h: UTF-8 validation with Rust's verdicts.
 *
 * Module paths must be UTF-8, and the reference reader reports a bad one
 * with Rust's Utf8Error wording, which depends on where the valid prefix
 * ends and how long the maximal invalid subsequence is. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  size_t valid_up_to;
  size_t error_len;     /* 1..3, or 0 when the input ends inside a sequence */
} SpUtf8Error;

bool _sp_utf8_validate (const uint8_t *bytes,
                        size_t len,
                        SpUtf8Error *error);
