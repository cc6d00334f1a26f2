/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-demangle.h: C++ and Rust symbol names as people write them.
 *
 * Used by the symbolizer for ELF, DWARF and perf-map names; libiberty does
 * the work (the demangler of binutils and GCC). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The demangled form of a C++ (Itanium ABI) or Rust (legacy or v0)
 * symbol, with parameter lists and without Rust's hash suffix; NULL when
 * symbol is not mangled (a C name) or not in a form libiberty knows.
 * Free with g_free. */
char *sp_demangle (const char *symbol);

G_END_DECLS
