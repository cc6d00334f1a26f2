/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-search.h: which functions a search in the views names.
 *
 * The call tree views, the flame graph and the caller/callee view find
 * functions by one rule: the name contains the text, ignoring case
 * (both casefolded, so "STRASSE" finds "Straße"). Plain GLib over data/'s
 * profile, so it is tested without a display.
 *
 * Only functions below the count a call tree was made with
 * (SpCallTree.n_functions) are read: a live worker may be adding functions
 * to the profile while the main thread searches, and those below the
 * tree's count were whole when the tree was handed over. */
#pragma once

#include <glib.h>

#include "sp-profile.h"

G_BEGIN_DECLS

/* One gboolean per function id below n_functions (a tree's n_functions),
 * TRUE where the function's name contains text, ignoring case. Newly
 * allocated (g_free); never NULL, even for n_functions 0. */
gboolean *sp_function_search_match (SpProfile *profile,
                                    guint n_functions,
                                    const char *text);

/* Whether name contains folded_text (text already casefolded with
 * g_utf8_casefold), ignoring case. */
gboolean sp_function_search_name_matches (const char *name,
                                          const char *folded_text);

G_END_DECLS
