/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-demangle.c: libiberty's demanglers behind one GLib-style call. */
#include "sp-demangle.h"

#include <stdlib.h>
#include <libiberty/demangle.h>

char *
sp_demangle (const char *symbol)
{
  const int options = DMGL_PARAMS | DMGL_ANSI;
  char *demangled;
  char *copy;

  /* Itanium C++ and legacy Rust names start with _Z, Rust v0 with _R;
   * anything else is a C name (or a JIT's own text) and stays as it is. */
  if (symbol == NULL || symbol[0] != '_' || (symbol[1] != 'Z' && symbol[1] != 'R'))
    return NULL;

  /* Legacy Rust names are valid C++ names too ("…::h0123456789abcdef"):
   * ask the Rust demangler first, it refuses everything else. */
  demangled = rust_demangle (symbol, options);
  if (demangled == NULL)
    demangled = cplus_demangle (symbol, options | DMGL_GNU_V3);
  if (demangled == NULL)
    return NULL;

  /* libiberty allocates with malloc; callers free with g_free. */
  copy = g_strdup (demangled);
  free (demangled);
  return copy;
}
