/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-dwarf-scopes.c: one compile unit's functions, indexed once.
 *
 * libdw's dwarf_getscopes walks the unit's DIE tree on every call, which
 * costs tens of microseconds per address in units that include large
 * headers. A profile asks for thousands of addresses in the same units,
 * so each unit is walked once here: every function with code (a
 * DW_TAG_subprogram, or a DW_TAG_inlined_subroutine inside one) becomes
 * a node, in depth-first order so that a function's inlined calls follow
 * it, with its address ranges. A lookup finds the real function by binary
 * search and then the deepest of its inlined calls that holds the
 * address. */
#include "sp-symbolizer-private.h"

#include <dwarf.h>

/* Deeper DIE nesting than this is damage, not code. */
#define MAX_NESTING 256
/* How many real functions a lookup steps back over to find one that
 * holds the address (nested functions overlap their parents). */
#define MAX_ROOT_STEPS 16

typedef struct {
  Dwarf_Die die;
  gint      parent;       /* the function it is inlined into; -1 for a real function */
  guint     depth;        /* DIE nesting: inner scopes are deeper */
  guint     first_range;
  guint     n_ranges;
  guint     subtree_end;  /* the node after its last inlined call */
} ScopeNode;

typedef struct {
  Dwarf_Addr low;
  Dwarf_Addr high;
  guint      node;
} ScopeRange;

struct _SpDwarfScopes {
  Dwarf_Off cu_offset;  /* the key in a module's table */
  GArray   *unit;       /* ScopeRange of the unit itself, by low address */
  GArray   *nodes;      /* ScopeNode, depth first */
  GArray   *ranges;     /* ScopeRange, in node order */
  GArray   *roots;      /* ScopeRange of real functions, by low address */
};

static void index_children (SpDwarfScopes *scopes, Dwarf_Die *parent_die, gint parent, guint depth);

static void
add_function (SpDwarfScopes *scopes,
              Dwarf_Die *die,
              gint parent,
              guint depth)
{
  ScopeNode node = { *die, parent, depth, scopes->ranges->len, 0, 0 };
  guint index = scopes->nodes->len;
  Dwarf_Addr base, low, high;
  ptrdiff_t offset = 0;

  while ((offset = dwarf_ranges (die, offset, &base, &low, &high)) > 0)
    {
      ScopeRange range = { low, high, index };

      if (low >= high)
        continue;
      g_array_append_val (scopes->ranges, range);
      if (parent < 0)
        g_array_append_val (scopes->roots, range);
    }
  /* No code (a declaration, an abstract instance): not a node, but it
   * may hold the code of local classes' member functions (lambdas). */
  node.n_ranges = scopes->ranges->len - node.first_range;
  if (node.n_ranges == 0)
    {
      index_children (scopes, die, parent, depth + 1);
      return;
    }

  g_array_append_val (scopes->nodes, node);
  index_children (scopes, die, (gint) index, depth + 1);
  g_array_index (scopes->nodes, ScopeNode, index).subtree_end = scopes->nodes->len;
}

static void
index_children (SpDwarfScopes *scopes,
                Dwarf_Die *parent_die,
                gint parent,
                guint depth)
{
  Dwarf_Die child;

  if (depth > MAX_NESTING || dwarf_child (parent_die, &child) != 0)
    return;
  do
    {
      switch (dwarf_tag (&child))
        {
        case DW_TAG_subprogram:
          add_function (scopes, &child, -1, depth);
          break;
        case DW_TAG_inlined_subroutine:
          /* Outside any function (damage) it has no caller to name. */
          add_function (scopes, &child, parent, depth);
          break;
        case DW_TAG_lexical_block:
        case DW_TAG_try_block:
        case DW_TAG_catch_block:
          index_children (scopes, &child, parent, depth + 1);
          break;
        /* Functions defined inside these are real functions of their own
         * (a lambda's operator() sits in a closure type inside the function
         * that wrote it). */
        case DW_TAG_namespace:
        case DW_TAG_module:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
          index_children (scopes, &child, -1, depth + 1);
          break;
        default:
          break;
        }
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

static int
compare_ranges (gconstpointer a,
                gconstpointer b)
{
  const ScopeRange *ra = a;
  const ScopeRange *rb = b;

  if (ra->low != rb->low)
    return ra->low < rb->low ? -1 : 1;
  return ra->node < rb->node ? 1 : ra->node > rb->node ? -1 : 0;
}

/* libdwfl hands out the unit with the nearest start below an address even
 * when no unit covers it (code from files without DWARF, such as
 * crtstuff), and libdw then answers with that unit's last line: the
 * unit's own ranges tell. */
static GArray *
unit_ranges (Dwarf_Die *cudie)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (ScopeRange));
  Dwarf_Addr base, low, high;
  ptrdiff_t offset = 0;

  while ((offset = dwarf_ranges (cudie, offset, &base, &low, &high)) > 0)
    {
      ScopeRange range = { low, high, 0 };

      if (low < high)
        g_array_append_val (ranges, range);
    }
  g_array_sort (ranges, compare_ranges);
  return ranges;
}

gboolean
_sp_dwarf_scopes_has_ranges (SpDwarfScopes *scopes)
{
  return scopes->unit->len > 0;
}

gboolean
_sp_dwarf_scopes_covers (SpDwarfScopes *scopes,
                         Dwarf_Addr address)
{
  const ScopeRange *ranges = (const ScopeRange *) (gconstpointer) scopes->unit->data;
  guint lo = 0;
  guint hi = scopes->unit->len;

  /* A unit that states no ranges is taken at its word. */
  if (hi == 0)
    return TRUE;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ranges[mid].low <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 && address < ranges[lo - 1].high;
}

SpDwarfScopes *
_sp_dwarf_scopes_new (Dwarf_Die *cudie)
{
  SpDwarfScopes *scopes = g_new0 (SpDwarfScopes, 1);

  scopes->cu_offset = dwarf_dieoffset (cudie);
  scopes->unit = unit_ranges (cudie);
  scopes->nodes = g_array_new (FALSE, FALSE, sizeof (ScopeNode));
  scopes->ranges = g_array_new (FALSE, FALSE, sizeof (ScopeRange));
  scopes->roots = g_array_new (FALSE, FALSE, sizeof (ScopeRange));
  index_children (scopes, cudie, -1, 0);
  /* By low address; at one address the later (nested) function first. */
  g_array_sort (scopes->roots, compare_ranges);
  return scopes;
}

void
_sp_dwarf_scopes_free (SpDwarfScopes *scopes)
{
  g_array_unref (scopes->unit);
  g_array_unref (scopes->nodes);
  g_array_unref (scopes->ranges);
  g_array_unref (scopes->roots);
  g_free (scopes);
}

Dwarf_Off *
_sp_dwarf_scopes_get_key (SpDwarfScopes *scopes)
{
  return &scopes->cu_offset;
}

static gboolean
node_contains (SpDwarfScopes *scopes,
               const ScopeNode *node,
               Dwarf_Addr address)
{
  for (guint i = 0; i < node->n_ranges; i++)
    {
      const ScopeRange *range = &g_array_index (scopes->ranges, ScopeRange, node->first_range + i);

      if (address >= range->low && address < range->high)
        return TRUE;
    }
  return FALSE;
}

/* The real function holding address, as a node index, or -1. */
static gint
find_root (SpDwarfScopes *scopes,
           Dwarf_Addr address)
{
  const ScopeRange *roots = (const ScopeRange *) (gconstpointer) scopes->roots->data;
  guint lo = 0;
  guint hi = scopes->roots->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (roots[mid].low <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo, steps = 0; i > 0 && steps < MAX_ROOT_STEPS; i--, steps++)
    if (address < roots[i - 1].high)
      return (gint) roots[i - 1].node;
  return -1;
}

guint
_sp_dwarf_scopes_lookup (SpDwarfScopes *scopes,
                         Dwarf_Addr address,
                         Dwarf_Die **dies,
                         guint max)
{
  const ScopeNode *nodes = (const ScopeNode *) (gconstpointer) scopes->nodes->data;
  gint root = find_root (scopes, address);
  gint best = root;
  guint n = 0;

  if (root < 0)
    return 0;
  /* Inlined calls nest: of those holding address, the deepest is the
   * innermost. */
  for (guint i = (guint) root + 1; i < nodes[root].subtree_end; i++)
    if (nodes[i].depth > nodes[best].depth && node_contains (scopes, &nodes[i], address))
      best = (gint) i;

  for (gint i = best; i >= 0 && n < max; i = nodes[i].parent)
    dies[n++] = (Dwarf_Die *) &nodes[i].die;
  return n;
}
