/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profile-builder.h: profiles written from text, for data/ tests.
 *
 * "main;parse;lex 10" means 10 samples whose stack is main -> parse -> lex
 * (root first), as Hotspot's tests write trees. Each function name becomes
 * a kernel symbol in the side file, so the real symbolizer names the
 * frames; an optional "@TID" before the stack puts the samples on that
 * thread, "+MS" after the count spaces them MS milliseconds apart. */
#pragma once

#include "sp-profile.h"

/* Writes OUT.spool and OUT.spool.meta in a fresh temporary folder and
 * opens them; the folder goes when the test ends. */
SpProfile *profile_from_text (const char *const *lines);

/* The profile's tree as "a;b;c N" lines (self counts), sorted. */
char *collapsed_of (SpProfile *profile,
                    const void *filter);
