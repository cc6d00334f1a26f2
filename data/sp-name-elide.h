/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-name-elide.h: C++ and Rust function names made shorter for narrow
 * places.
 *
 * A demangled C++ name is mostly template arguments and parameter types
 * (std::map<std::__cxx11::basic_string<char, …>, …>::operator[](…)); cut
 * at its end it loses the part that tells functions apart. The window
 * shows, where a name does not fit, the same name with its template
 * arguments and then its parameter lists elided, keeping every scope and
 * the function's own name: std::map<…>::operator[](…). The full name
 * stays in the tooltip. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How much of a name is left out, from nothing to most. */
typedef enum {
  SP_NAME_FULL,                  /* as it is */
  SP_NAME_NO_TEMPLATE_ARGUMENTS, /* every outermost <…> of template (or Rust generic) arguments */
  SP_NAME_NO_PARAMETERS,         /* and every parameter list, (…) */
  SP_NAME_N_ELISIONS
} SpNameElision;

/* name with what elision leaves out replaced by "…" ("<…>", "(…)").
 * Operators keep their brackets (operator<, operator<<, operator(),
 * operator[]), as do Rust's qualified paths (<T as Trait>::f, whose
 * generic arguments inside are elided) and C++'s (anonymous namespace);
 * an empty list stays "()"; a name whose brackets do not pair up keeps
 * the unpaired part as it is. Free with g_free. */
char *sp_name_elide (const char *name,
                     SpNameElision elision);

G_END_DECLS
