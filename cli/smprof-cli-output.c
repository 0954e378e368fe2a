/* smprof-cli-output.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "smprof-cli-output.h"
#include "smprof-stats-json.h"
#include "smprof-transform.h"

/* Control characters (C0, DEL, C1), bytes that are not UTF-8, and the
 * Unicode controls that reorder text are written as escapes, so that no name
 * from a job (a folder, a node, a function) can start a line, forge a
 * warning, or send a terminal an escape sequence. */
static gboolean
is_bidi_control (gunichar c)
{
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f;
}

static void
append_shown (GString    *out,
              const char *text)
{
  const char *p = text;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }

      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else if ((c >= 0x80 && c <= 0x9f) || is_bidi_control (c))
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);

      p = g_utf8_next_char (p);
    }
}

/* The last texts made by smprof_cli_shown(), freed as newer ones come. */
#define N_SHOWN 32

static char *shown_ring[N_SHOWN];
static guint shown_next;

/**
 * smprof_cli_shown:
 * @text: (nullable): a name from a job, or a message holding one
 *
 * @text as it may be written on a terminal: control characters and the
 * like escaped (`\n`, `\x1b`, `\u009b`), the rest as it is. For the
 * human output only: JSON escapes as JSON does.
 *
 * Returns: (transfer none): the text, valid until N_SHOWN more calls (for
 *   the arguments of one printf); main thread only
 */
const char *
smprof_cli_shown (const char *text)
{
  GString *out;

  if (text == NULL)
    return "(null)";

  out = g_string_sized_new (strlen (text));
  append_shown (out, text);

  g_free (shown_ring[shown_next]);
  shown_ring[shown_next] = g_string_free (out, FALSE);
  text = shown_ring[shown_next];
  shown_next = (shown_next + 1) % N_SHOWN;

  return text;
}

/* Node ids joined with ", ", each as smprof_cli_shown() shows it. */
char *
smprof_cli_dup_shown_list (const char * const *items)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; items != NULL && items[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_shown (out, items[i]);
    }

  return g_string_free (out, FALSE);
}

static void
format_boundary (char        *buffer,
                 gsize        size,
                 SmprofMode   mode,
                 gint64       step,
                 SmprofPhase  phase,
                 gboolean     is_end)
{
  if (step == (is_end ? SMPROF_STEP_INFINITY : SMPROF_STEP_ANY_START))
    g_snprintf (buffer, size, "%s-*-%s", smprof_mode_to_string (mode), smprof_phase_to_string (phase));
  else
    g_snprintf (buffer, size, "%s-%" G_GINT64_FORMAT "-%s",
                smprof_mode_to_string (mode), step, smprof_phase_to_string (phase));
}

void
smprof_cli_print_records (FILE      *stream,
                          GPtrArray *records)
{
  fprintf (stream, "%-24s %-30s %-30s %12s\n", _("NODE"), _("START"), _("END"), _("DURATION (ms)"));

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);
      const SmprofIntervalName *name = &record->name;
      char start[64], end[64];

      format_boundary (start, sizeof start, name->start_mode, name->start_step, name->start_phase, FALSE);
      format_boundary (end, sizeof end, name->end_mode, name->end_step, name->end_phase, TRUE);
      fprintf (stream, "%-24s %-30s %-30s %12.3f\n", smprof_cli_shown (record->node_id), start, end,
               (name->end_time_us - name->start_time_us) / 1000.0);
    }
}

static void
print_selection_header (FILE               *stream,
                        const char * const *node_ids,
                        GPtrArray          *records)
{
  g_autofree char *nodes = smprof_cli_dup_shown_list (node_ids);

  fprintf (stream, ngettext ("%u interval on %s\n", "%u intervals on %s\n", records->len),
           records->len, nodes);
}

static const char *
sort_description (SmprofSortKey sort)
{
  switch (sort)
    {
    case SMPROF_SORT_TOTTIME:
      return _("internal time");
    case SMPROF_SORT_CUMTIME:
      return _("cumulative time");
    case SMPROF_SORT_NCALLS:
      return _("call count");
    case SMPROF_SORT_PCALLS:
      return _("primitive call count");
    case SMPROF_SORT_NONE:
    default:
      return _("standard name");
    }
}

/* The table pstats.Stats.print_stats() prints, so that it reads as in a notebook. */
void
smprof_cli_print_cprofile (FILE                  *stream,
                           SmprofCprofileProfile *profile,
                           const char * const    *node_ids,
                           GPtrArray             *records,
                           SmprofSortKey          sort,
                           int                    limit)
{
  SmprofFunctionKeys *table = smprof_cprofile_profile_get_table (profile);
  g_autoptr(GArray) order = smprof_cprofile_profile_sorted (profile, sort);
  gint64 total_calls = smprof_cprofile_profile_get_total_calls (profile);
  gint64 prim_calls = smprof_cprofile_profile_get_prim_calls (profile);
  guint n = order->len;

  if (limit >= 0 && (guint) limit < n)
    n = limit;

  print_selection_header (stream, node_ids, records);
  fprintf (stream, "\n         %" G_GINT64_FORMAT " function calls", total_calls);
  if (total_calls != prim_calls)
    fprintf (stream, " (%" G_GINT64_FORMAT " primitive calls)", prim_calls);
  fprintf (stream, " in %.3f seconds\n\n", smprof_cprofile_profile_get_total_tt (profile));
  fprintf (stream, "   Ordered by: %s\n", sort_description (sort));
  if (n < order->len)
    fprintf (stream, "   List reduced from %u to %u due to restriction <%d>\n", order->len, n, limit);
  fprintf (stream, "\n   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n");

  for (guint i = 0; i < n; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, g_array_index (order, guint, i));
      g_autofree char *label = smprof_function_keys_dup_label (table, entry->func);
      g_autofree char *calls = NULL;

      if (entry->nc != entry->cc)
        calls = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, entry->nc, entry->cc);
      else
        calls = g_strdup_printf ("%" G_GINT64_FORMAT, entry->nc);

      fprintf (stream, "%9s %8.3f ", calls, entry->tt);
      if (entry->nc == 0)
        fprintf (stream, "%8s ", "");
      else
        fprintf (stream, "%8.3f ", entry->tt / entry->nc);
      fprintf (stream, "%8.3f ", entry->ct);
      if (entry->cc == 0)
        fprintf (stream, "%8s ", "");
      else
        fprintf (stream, "%8.3f ", entry->ct / entry->cc);
      fprintf (stream, "%s\n", smprof_cli_shown (label));
    }
  fprintf (stream, "\n");
}

/* Like pyinstrument's console view: total time, then the frame, indented. */
void
smprof_cli_print_tree (FILE               *stream,
                       SmprofCallTree     *tree,
                       const char * const *node_ids,
                       GPtrArray          *records,
                       const char         *reshaping,
                       gboolean            estimated,
                       int                 limit)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  const SmprofCallTreeNode *root = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT);
  guint32 current = root->first_child;
  guint depth = 0;
  int printed = 0;

  print_selection_header (stream, node_ids, records);
  if (reshaping != NULL)
    fprintf (stream, "%s\n", reshaping);
  fprintf (stream, estimated ? _("%.3f seconds, call tree estimated from cProfile’s call graph\n\n")
                             : _("%.3f seconds sampled\n\n"), root->total);

  while (current != SMPROF_CALL_TREE_NONE && (limit < 0 || printed < limit))
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, current);

      fprintf (stream, "%*s%.3f %s  %s:%" G_GINT64_FORMAT "\n", (int) depth * 2, "", node->total,
               smprof_cli_shown (smprof_function_keys_get_name (table, node->func)),
               smprof_cli_shown (smprof_function_keys_get_file (table, node->func)),
               smprof_function_keys_get_line (table, node->func));
      printed++;

      if (node->first_child != SMPROF_CALL_TREE_NONE)
        {
          current = node->first_child;
          depth++;
          continue;
        }

      while (node->next_sibling == SMPROF_CALL_TREE_NONE && node->parent != SMPROF_CALL_TREE_ROOT)
        {
          node = smprof_call_tree_get_node (tree, node->parent);
          depth--;
        }
      current = node->next_sibling;
    }
  fprintf (stream, "\n");
}

/* The transforms a reshaped profile went through, one line, or NULL. */
static char *
dup_reshaping (SmprofProfile *profile)
{
  GPtrArray *transforms = smprof_profile_get_transforms (profile);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  GString *out;

  if (transforms->len == 0 && !smprof_profile_is_inverted (profile))
    return NULL;

  out = g_string_new (NULL);
  for (guint i = 0; i < transforms->len; i++)
    {
      g_autofree char *text = smprof_transform_describe (g_ptr_array_index (transforms, i), table);

      g_string_append_printf (out, "%s%s", i == 0 ? "" : " › ", text);
    }
  if (smprof_profile_is_inverted (profile))
    g_string_append_printf (out, "%s%s", transforms->len == 0 ? "" : " › ", _("Inverted (callers below)"));

  return g_string_free (out, FALSE);
}

/* A reshaped profile's function table, as print_stats() lays it out; call
 * counts a focus made unknown are left blank. */
void
smprof_cli_print_functions (FILE          *stream,
                            SmprofProfile *profile,
                            SmprofSortKey  sort,
                            int            limit)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  g_autoptr(GArray) order = smprof_stats_json_dup_row_order (profile, sort);
  g_autofree char *reshaping = NULL;
  guint n = order->len;

  if (limit >= 0 && (guint) limit < n)
    n = limit;

  reshaping = dup_reshaping (profile);

  print_selection_header (stream, smprof_profile_get_node_ids (profile), smprof_profile_get_records (profile));
  if (reshaping != NULL)
    fprintf (stream, "%s\n", reshaping);
  fprintf (stream, _("\n         %.3f seconds\n\n"), smprof_profile_get_total_time (profile));
  fprintf (stream, "   Ordered by: %s\n", sort_description (sort));
  if (n < order->len)
    fprintf (stream, "   List reduced from %u to %u due to restriction <%d>\n", order->len, n, limit);
  fprintf (stream, "\n   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n");

  for (guint i = 0; i < n; i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, g_array_index (order, guint, i));
      g_autofree char *label = smprof_function_keys_dup_label (table, row->func);
      g_autofree char *calls = NULL;

      if (row->ncalls < 0)
        calls = g_strdup ("");
      else if (row->ncalls != row->pcalls)
        calls = g_strdup_printf ("%lld/%lld", (long long) row->ncalls, (long long) row->pcalls);
      else
        calls = g_strdup_printf ("%lld", (long long) row->ncalls);

      fprintf (stream, "%9s %8.3f ", calls, row->tottime);
      if (row->ncalls <= 0)
        fprintf (stream, "%8s ", "");
      else
        fprintf (stream, "%8.3f ", row->tottime / row->ncalls);
      fprintf (stream, "%8.3f ", row->cumtime);
      if (row->pcalls <= 0)
        fprintf (stream, "%8s ", "");
      else
        fprintf (stream, "%8.3f ", row->cumtime / row->pcalls);
      fprintf (stream, "%s\n", label);
    }
  fprintf (stream, "\n");
}

/* A profile's call tree, as smprof_cli_print_tree() prints a sampled one,
 * after the transforms it went through. */
void
smprof_cli_print_profile_tree (FILE          *stream,
                               SmprofProfile *profile,
                               int            limit)
{
  g_autofree char *reshaping = dup_reshaping (profile);

  smprof_cli_print_tree (stream, smprof_profile_get_call_tree (profile), smprof_profile_get_node_ids (profile),
                         smprof_profile_get_records (profile), reshaping, smprof_profile_is_estimated (profile),
                         limit);
}

/* Whether @selection is a time range, which pictures and reports say by the
 * steps and modes it selected rather than by seconds since the epoch. */
gboolean
smprof_cli_selection_is_time (const SmprofSelection *selection)
{
  return selection->kind == SMPROF_SELECT_TIME || selection->kind == SMPROF_SELECT_OVERLAP;
}

/* The words pictures and reports give a selection: NULL for a time range,
 * which they say by its intervals' steps (smprof_records_describe_steps()). */
char *
smprof_cli_dup_selection_words (const SmprofSelection *selection)
{
  return smprof_cli_selection_is_time (selection) ? NULL : smprof_selection_describe (selection);
}

/* Writes @text and frees it. Plural messages are formatted into a string
 * first: GCC 12 with the sanitizers takes ngettext() straight in fprintf()
 * for a null format. */
void
smprof_cli_fputs_free (FILE *stream,
                       char *text)
{
  fputs (text, stream);
  g_free (text);
}

/* Writes what @memory holds to stdout, for `-o -`; the files are written
 * whole first, so that a failed export prints nothing. */
gboolean
smprof_cli_write_to_stdout (GMemoryOutputStream  *memory,
                            GError              **error)
{
  gsize size = g_memory_output_stream_get_data_size (memory);

  if (fwrite (g_memory_output_stream_get_data (memory), 1, size, stdout) != size || fflush (stdout) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("could not write to standard output: %s"), g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}
