/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-name-elide.c: names made shorter, as libiberty demangles them.
 *
 * Each case is a name and what each elision makes of it; the names are
 * real ones (from sp-work-templates, libstdc++, Rust's std). */
#include <glib.h>
#include <string.h>

#include "sp-name-elide.h"

typedef struct {
  const char *name;
  const char *no_templates;
  const char *no_parameters;
} Case;

static void
check (const Case *cases,
       gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *full = sp_name_elide (cases[i].name, SP_NAME_FULL);
      g_autofree char *no_templates = sp_name_elide (cases[i].name, SP_NAME_NO_TEMPLATE_ARGUMENTS);
      g_autofree char *no_parameters = sp_name_elide (cases[i].name, SP_NAME_NO_PARAMETERS);

      g_assert_cmpstr (full, ==, cases[i].name);
      g_assert_cmpstr (no_templates, ==, cases[i].no_templates);
      g_assert_cmpstr (no_parameters, ==, cases[i].no_parameters);
    }
}

static void
test_nested_templates (void)
{
  static const Case cases[] = {
    { "std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, "
      "std::vector<std::pair<int, double>, std::allocator<std::pair<int, double> > > >::operator[]"
      "(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&&)",
      "std::map<…>::operator[](std::__cxx11::basic_string<…>&&)",
      "std::map<…>::operator[](…)" },
    { "std::pair<int, double>& std::vector<std::pair<int, double>, std::allocator<std::pair<int, double> > >"
      "::emplace_back<std::pair<int, double> >(std::pair<int, double>&&)",
      "std::pair<…>& std::vector<…>::emplace_back<…>(std::pair<…>&&)",
      "std::pair<…>& std::vector<…>::emplace_back<…>(…)" },
    { "long sp_test::twice<long>(long)", "long sp_test::twice<…>(long)", "long sp_test::twice<…>(…)" },
    { "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::compare"
      "(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) const",
      "std::__cxx11::basic_string<…>::compare(std::__cxx11::basic_string<…> const&) const",
      "std::__cxx11::basic_string<…>::compare(…) const" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_operators (void)
{
  static const Case cases[] = {
    { "bool std::operator< <char, std::char_traits<char>, std::allocator<char> >"
      "(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, char const*)",
      "bool std::operator< <…>(std::__cxx11::basic_string<…> const&, char const*)",
      "bool std::operator< <…>(…)" },
    { "std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >"
      "(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
      "std::basic_ostream<…>& std::operator<< <…>(std::basic_ostream<…>&, char const*)",
      "std::basic_ostream<…>& std::operator<< <…>(…)" },
    { "Point::operator<(Point const&) const", "Point::operator<(Point const&) const",
      "Point::operator<(…) const" },
    { "Stream::operator<<(int)", "Stream::operator<<(int)", "Stream::operator<<(…)" },
    { "Matrix::operator>>=(int)", "Matrix::operator>>=(int)", "Matrix::operator>>=(…)" },
    { "std::less<std::__cxx11::basic_string<char> >::operator()(std::__cxx11::basic_string<char> const&) const",
      "std::less<…>::operator()(std::__cxx11::basic_string<…> const&) const",
      "std::less<…>::operator()(…) const" },
    { "Functor::operator()()", "Functor::operator()()", "Functor::operator()()" },
    { "Iterator<int>::operator->() const", "Iterator<…>::operator->() const", "Iterator<…>::operator->() const" },
    { "Compare<int>::operator<=>(Compare<int> const&) const", "Compare<…>::operator<=>(Compare<…> const&) const",
      "Compare<…>::operator<=>(…) const" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_lambdas (void)
{
  static const Case cases[] = {
    { "sp_templates::Table<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, "
      "std::pair<int, double> >::weigh()::{lambda(std::pair<int, double> const&)#1}::operator()"
      "(std::pair<int, double> const&) const",
      "sp_templates::Table<…>::weigh()::{lambda(std::pair<…> const&)#1}::operator()(std::pair<…> const&) const",
      "sp_templates::Table<…>::weigh()::{lambda(…)#1}::operator()(…) const" },
    { "main::{lambda(int)#1}::operator()(int) const", "main::{lambda(int)#1}::operator()(int) const",
      "main::{lambda(…)#1}::operator()(…) const" },
    { "run()::{lambda()#2}::operator()() const", "run()::{lambda()#2}::operator()() const",
      "run()::{lambda()#2}::operator()() const" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_rust (void)
{
  static const Case cases[] = {
    { "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop",
      "<alloc::vec::Vec<…> as core::ops::drop::Drop>::drop",
      "<alloc::vec::Vec<…> as core::ops::drop::Drop>::drop" },
    { "core::ptr::drop_in_place<alloc::vec::Vec<u8>>", "core::ptr::drop_in_place<…>",
      "core::ptr::drop_in_place<…>" },
    { "core::ptr::drop_in_place::<alloc::string::String>", "core::ptr::drop_in_place::<…>",
      "core::ptr::drop_in_place::<…>" },
    { "<<std::io::stdio::StdoutLock as std::io::Write>::write_fmt::Adapter<T> as core::fmt::Write>::write_str",
      "<<std::io::stdio::StdoutLock as std::io::Write>::write_fmt::Adapter<…> as core::fmt::Write>::write_str",
      "<<std::io::stdio::StdoutLock as std::io::Write>::write_fmt::Adapter<…> as core::fmt::Write>::write_str" },
    { "std::rt::lang_start::{{closure}}", "std::rt::lang_start::{{closure}}", "std::rt::lang_start::{{closure}}" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_plain_names (void)
{
  static const Case cases[] = {
    { "main", "main", "main" },
    { "__memcmp_evex_movbe", "__memcmp_evex_movbe", "__memcmp_evex_movbe" },
    { "sp_test::compute(int, double)", "sp_test::compute(int, double)", "sp_test::compute(…)" },
    { "(anonymous namespace)::helper(int)", "(anonymous namespace)::helper(int)",
      "(anonymous namespace)::helper(…)" },
    { "std::__cxx11::to_string[abi:cxx11](int)", "std::__cxx11::to_string[abi:cxx11](int)",
      "std::__cxx11::to_string[abi:cxx11](…)" },
    { "Widget::operator std::vector<int, std::allocator<int> >() const",
      "Widget::operator std::vector<…>() const", "Widget::operator std::vector<…>() const" },
    { "libstdc++.so.6.0.30+0x9cdd0", "libstdc++.so.6.0.30+0x9cdd0", "libstdc++.so.6.0.30+0x9cdd0" },
    { "[unknown]", "[unknown]", "[unknown]" },
    { "", "", "" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

/* Brackets that do not pair up are text: nothing is lost or read past. */
static void
test_unbalanced (void)
{
  static const Case cases[] = {
    { "broken<int(", "broken<int(", "broken<int(" },
    { "f(int", "f(int", "f(int" },
    { "a>b::c<d>", "a>b::c<…>", "a>b::c<…>" },
    { "x<y<z<w>>", "x<y<…>", "x<y<…>" },
  };
  GString *deep = g_string_new ("f");

  check (cases, G_N_ELEMENTS (cases));
  for (guint i = 0; i < 1000; i++)
    g_string_append (deep, "<a");
  for (guint i = 0; i < 1000; i++)
    g_string_append_c (deep, '>');
  for (SpNameElision e = SP_NAME_FULL; e < SP_NAME_N_ELISIONS; e++)
    {
      g_autofree char *elided = sp_name_elide (deep->str, e);

      g_assert_cmpuint (strlen (elided), <=, deep->len);
    }
  g_string_free (deep, TRUE);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/name-elide/nested-templates", test_nested_templates);
  g_test_add_func ("/data/name-elide/operators", test_operators);
  g_test_add_func ("/data/name-elide/lambdas", test_lambdas);
  g_test_add_func ("/data/name-elide/rust", test_rust);
  g_test_add_func ("/data/name-elide/plain-names", test_plain_names);
  g_test_add_func ("/data/name-elide/unbalanced", test_unbalanced);
  return g_test_run ();
}
