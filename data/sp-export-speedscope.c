/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export-speedscope.c: speedscope's JSON, written as it goes (GLib has
 * no JSON writer, and this one needs only objects, arrays, numbers and
 * escaped strings). */
#include "sp-export-speedscope.h"

#include "sp-stack-counts.h"
#include "sp-thread-stacks.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"

void
sp_json_append_string (GString *json,
                       const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);

  g_string_append_c (json, '"');
  for (const char *c = valid; *c != '\0'; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_printf (json, "\\%c", *c);
      else if (*c == '\n')
        g_string_append (json, "\\n");
      else if (*c == '\t')
        g_string_append (json, "\\t");
      else if ((guchar) *c < 0x20)
        g_string_append_printf (json, "\\u%04x", (guint) (guchar) *c);
      else
        g_string_append_c (json, *c);
    }
  g_string_append_c (json, '"');
}

typedef struct {
  SpProfile      *profile;
  const SpFilter *filter;
  GHashTable     *frames;     /* function id + 1 -> frame index + 1 */
  GArray         *functions;  /* frame index -> function id */
  GString        *profiles;   /* the "profiles" array's items */
} Speedscope;

static guint
frame_index (Speedscope *s,
             guint32 function)
{
  gpointer key = GUINT_TO_POINTER (function + 1);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (s->frames, key));

  if (index != 0)
    return index - 1;
  g_array_append_val (s->functions, function);
  g_hash_table_insert (s->frames, key, GUINT_TO_POINTER (s->functions->len));
  return s->functions->len - 1;
}

static void
append_frames (Speedscope *s,
               GString *json)
{
  g_string_append (json, "{\"frames\":[");
  for (guint i = 0; i < s->functions->len; i++)
    {
      const SpFunction *f = sp_profile_get_function (s->profile, g_array_index (s->functions, guint32, i));

      g_string_append (json, i > 0 ? ",\n{\"name\":" : "\n{\"name\":");
      sp_json_append_string (json, f->name);
      if (f->file != NULL)
        {
          g_string_append (json, ",\"file\":");
          sp_json_append_string (json, f->file);
          if (f->line > 0)
            g_string_append_printf (json, ",\"line\":%u", f->line);
        }
      g_string_append_c (json, '}');
    }
  g_string_append (json, "]}");
}

/* "worker (tid 1234)", or "tid 1234" for a thread without a name. */
static char *
thread_title (Speedscope *s,
              guint32 thread)
{
  guint64 tid;
  gint32 pid;
  const char *name;

  sp_profile_get_thread (s->profile, thread, &pid, &tid);
  name = sp_profile_get_thread_name (s->profile, tid);
  if (name == NULL || name[0] == '\0')
    return g_strdup_printf ("tid %" G_GUINT64_FORMAT " (pid %d)", tid, pid);
  return g_strdup_printf ("%s (tid %" G_GUINT64_FORMAT ", pid %d)", name, tid, pid);
}

/* One thread's profile from its stacks [first, last). */
static void
append_thread_profile (Speedscope *s,
                       const SpThreadStack *stacks,
                       guint n)
{
  g_autoptr (GString) samples = g_string_new ("[");
  g_autoptr (GString) weights = g_string_new ("[");
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *title = thread_title (s, stacks[0].thread);
  guint64 total = 0;
  guint n_samples = 0;

  for (guint i = 0; i < n; i++)
    {
      g_array_set_size (path, 0);
      sp_stack_path (s->profile, stacks[i].stack, stacks[i].pid, path);
      if (s->filter != NULL && !sp_filter_apply_transforms (s->filter, s->profile, path))
        continue;
      g_string_append (samples, n_samples > 0 ? ",\n[" : "\n[");
      for (guint j = 0; j < path->len; j++)
        g_string_append_printf (samples, j > 0 ? ",%u" : "%u", frame_index (s, g_array_index (path, guint32, j)));
      g_string_append_c (samples, ']');
      g_string_append_printf (weights, n_samples > 0 ? ",%" G_GUINT64_FORMAT : "%" G_GUINT64_FORMAT,
                              stacks[i].weight);
      total += stacks[i].weight;
      n_samples++;
    }
  if (n_samples == 0)
    return;
  g_string_append (s->profiles, s->profiles->len > 0 ? ",\n{\"type\":\"sampled\",\"name\":" : "\n{\"type\":\"sampled\",\"name\":");
  sp_json_append_string (s->profiles, title);
  g_string_append_printf (s->profiles, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" G_GUINT64_FORMAT
                          ",\n\"samples\":%s],\n\"weights\":%s]}",
                          s->filter != NULL && s->filter->metric != SP_METRIC_CPU ? "nanoseconds" : "none", total,
                          samples->str, weights->str);
}

static char *
document_name (SpProfile *profile)
{
  g_autofree char *base = g_path_get_basename (sp_profile_get_path (profile));

  return g_strdup_printf ("%s (stackpulse)", base);
}

gboolean
sp_export_speedscope (SpProfile *profile,
                      const SpFilter *filter,
                      FILE *out)
{
  guint64 total;
  g_autoptr (GArray) stacks = sp_thread_stacks_new (profile, filter, &total);
  g_autoptr (GHashTable) frames = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) functions = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GString) json = g_string_new ("{\"$schema\":\"" SCHEMA "\",\n\"exporter\":\"stackpulse " SP_VERSION "\",\n\"name\":");
  g_autofree char *name = document_name (profile);
  Speedscope s = { profile, filter, frames, functions, g_string_new (NULL) };

  for (guint first = 0, last; first < stacks->len; first = last)
    {
      const SpThreadStack *runs = (const SpThreadStack *) stacks->data;

      for (last = first + 1; last < stacks->len && runs[last].thread == runs[first].thread; last++)
        ;
      append_thread_profile (&s, runs + first, last - first);
    }
  sp_json_append_string (json, name);
  g_string_append (json, ",\"activeProfileIndex\":0,\n\"shared\":");
  append_frames (&s, json);
  g_string_append_printf (json, ",\n\"profiles\":[%s]}\n", s.profiles->str);
  g_string_free (s.profiles, TRUE);
  return fwrite (json->str, 1, json->len, out) == json->len && fflush (out) == 0 && !ferror (out);
}
