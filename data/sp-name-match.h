/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-name-match.h: how well a function's name answers a name someone typed.
 *
 * "lt" should find `<i32 as PartialOrd>::lt`, not every function with
 * "lt" inside; "spin" should find `spin.constprop.0`, not
 * `_raw_spin_unlock_irqrestore`. A name is matched in tiers, and only the
 * best tier that matches any function counts (sp_profile_find_functions):
 * the exact name (also as a mangled name, or with or without the space
 * after a parameter list's commas), then its last path component (after
 * `::`, or `.` for Go), then the name without a compiler suffix
 * (`.constprop.0`, `.isra.0`, `.part.0`, `.cold`, ...), then a substring. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SP_NAME_MATCH_EXACT,
  SP_NAME_MATCH_LAST_COMPONENT,
  SP_NAME_MATCH_WITHOUT_SUFFIX,
  SP_NAME_MATCH_SUBSTRING,
  SP_NAME_MATCH_NONE,
} SpNameMatch;

typedef struct _SpNameQuery SpNameQuery;

/* The name typed, prepared once for many functions. */
SpNameQuery *sp_name_query_new (const char *name);
void sp_name_query_free (SpNameQuery *self);

SpNameMatch sp_name_query_match (const SpNameQuery *self,
                                 const char *function);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpNameQuery, sp_name_query_free)

G_END_DECLS
