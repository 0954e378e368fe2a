/* smprof-query.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-float.h"
#include "smprof-query.h"

/* smdebug's defaults for fetch_profile_stats_by_step. */
void
smprof_selection_init_step (SmprofSelection *selection,
                            gint64           start_step)
{
  memset (selection, 0, sizeof *selection);
  selection->kind = SMPROF_SELECT_STEP;
  selection->start_step = start_step;
  selection->end_step = start_step;
  selection->mode = SMPROF_MODE_TRAIN;
  selection->start_phase = SMPROF_PHASE_STEP_START;
  selection->end_phase = SMPROF_PHASE_STEP_END;
}

/* StepPythonProfileStats.in_step_interval, literally: strictly inside is in; past
 * a bound is out; touching a bound depends on the phases asked for. */
static gboolean
in_step_interval (const SmprofSelection *q,
                  const SmprofRecord    *r)
{
  gint64 rs = r->name.start_step;
  gint64 re = r->name.end_step;

  if (q->start_step < rs && q->end_step > re)
    return TRUE;

  if (q->start_step > rs || q->end_step < re)
    return FALSE;

  if (rs == q->start_step &&
      (q->start_phase == SMPROF_PHASE_STEP_END || q->start_phase == SMPROF_PHASE_FORWARD_PASS_END) &&
      r->name.start_phase != q->start_phase)
    return FALSE;

  if (re == q->end_step && q->end_phase == SMPROF_PHASE_STEP_START && r->name.end_phase != q->end_phase)
    return FALSE;

  return TRUE;
}

static gboolean
is_initialization (const SmprofRecord *record)
{
  return record->name.start_phase == SMPROF_PHASE_START;
}

static gboolean
is_finalization (const SmprofRecord *record)
{
  return record->name.end_phase == SMPROF_PHASE_END && !is_initialization (record);
}

gboolean
smprof_selection_matches (const SmprofSelection *selection,
                          const SmprofRecord    *record)
{
  const SmprofIntervalName *name = &record->name;

  switch (selection->kind)
    {
    case SMPROF_SELECT_ALL:
      return TRUE;

    case SMPROF_SELECT_STEP:
      return in_step_interval (selection, record) &&
             name->start_mode == selection->mode && name->end_mode == selection->mode;

    case SMPROF_SELECT_TIME:
      return (selection->start_us <= name->start_time_us && name->start_time_us <= selection->end_us) ||
             (selection->start_us <= name->end_time_us && name->end_time_us <= selection->end_us);

    case SMPROF_SELECT_OVERLAP:
      return name->start_time_us <= selection->end_us && name->end_time_us >= selection->start_us;

    case SMPROF_SELECT_BETWEEN_MODES:
      return name->start_mode == selection->start_mode && name->end_mode == selection->end_mode;

    case SMPROF_SELECT_PRE_STEP_ZERO:
      return name->start_phase == SMPROF_PHASE_START;

    case SMPROF_SELECT_POST_HOOK_CLOSE:
      return name->end_phase == SMPROF_PHASE_END;

    case SMPROF_SELECT_INITIALIZATION:
      return is_initialization (record);

    case SMPROF_SELECT_FINALIZATION:
      return is_finalization (record);

    case SMPROF_SELECT_TRAINING_LOOP:
      return !is_initialization (record) && !is_finalization (record);

    default:
      g_return_val_if_reached (FALSE);
    }
}

static void
append_step (GString *out,
             gint64   step)
{
  if (step == SMPROF_STEP_INFINITY)
    g_string_append (out, "∞");
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT, step);
}

/**
 * smprof_selection_describe:
 * @selection: a selection
 *
 * Returns: (transfer full): a short description for titles and status lines
 */
char *
smprof_selection_describe (const SmprofSelection *selection)
{
  GString *out = g_string_new (NULL);
  char a[SMPROF_FLOAT_BUF_SIZE], b[SMPROF_FLOAT_BUF_SIZE];

  switch (selection->kind)
    {
    case SMPROF_SELECT_ALL:
      g_string_append (out, _("all intervals"));
      break;
    case SMPROF_SELECT_STEP:
      g_string_append_printf (out, _("%s steps "), smprof_mode_to_string (selection->mode));
      append_step (out, selection->start_step);
      g_string_append_printf (out, " (%s) – ", smprof_phase_to_string (selection->start_phase));
      append_step (out, selection->end_step);
      g_string_append_printf (out, " (%s)", smprof_phase_to_string (selection->end_phase));
      break;
    case SMPROF_SELECT_TIME:
    case SMPROF_SELECT_OVERLAP:
      g_string_append_printf (out, _("time %s s – %s s"),
                              smprof_float_format_repr (a, selection->start_us / 1e6),
                              smprof_float_format_repr (b, selection->end_us / 1e6));
      break;
    case SMPROF_SELECT_BETWEEN_MODES:
      g_string_append_printf (out, _("from %s to %s"),
                              smprof_mode_to_string (selection->start_mode),
                              smprof_mode_to_string (selection->end_mode));
      break;
    case SMPROF_SELECT_PRE_STEP_ZERO:
      g_string_append (out, _("pre-step-zero"));
      break;
    case SMPROF_SELECT_POST_HOOK_CLOSE:
      g_string_append (out, _("post-hook-close"));
      break;
    case SMPROF_SELECT_INITIALIZATION:
      g_string_append (out, _("initialization"));
      break;
    case SMPROF_SELECT_TRAINING_LOOP:
      g_string_append (out, _("training loop"));
      break;
    case SMPROF_SELECT_FINALIZATION:
      g_string_append (out, _("finalization"));
      break;
    default:
      g_assert_not_reached ();
    }

  return g_string_free (out, FALSE);
}

/* Natural order, as the viewer lists nodes: "2-algo-3" before "10-algo-11". */
static int
compare_steps (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* "3–8, 10, 12–13" */
static void
append_ranges (GString *out,
               GArray  *steps)
{
  for (guint i = 0; i < steps->len;)
    {
      gint64 first = g_array_index (steps, gint64, i);
      guint j = i;

      while (j + 1 < steps->len && g_array_index (steps, gint64, j + 1) == g_array_index (steps, gint64, j) + 1)
        j++;
      if (i > 0)
        g_string_append (out, ", ");
      if (j == i)
        g_string_append_printf (out, "%lld", (long long) first);
      else
        g_string_append_printf (out, "%lld–%lld", (long long) first, (long long) g_array_index (steps, gint64, j));
      i = j + 1;
    }
}

/**
 * smprof_records_describe_steps:
 * @records: (element-type SmprofRecord): intervals
 *
 * What @records cover, in the training's own terms: the steps their start
 * labels name, mode by mode ("train steps 3–8, eval step 2"), and
 * pre-step-zero and post-hook-close; never times since the epoch, which
 * mean nothing to a reader of a report.
 *
 * Returns: (transfer full): the description, empty for no records
 */
char *
smprof_records_describe_steps (GPtrArray *records)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (records != NULL, g_string_free (out, FALSE));

  for (SmprofMode mode = SMPROF_MODE_TRAIN; mode <= SMPROF_MODE_POST_HOOK_CLOSE; mode++)
    {
      g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (gint64));
      gboolean any = FALSE;

      for (guint i = 0; i < records->len; i++)
        {
          const SmprofRecord *record = g_ptr_array_index (records, i);

          if (record->name.start_mode != mode)
            continue;
          any = TRUE;
          if (record->name.start_step >= 0 && record->name.start_step != SMPROF_STEP_INFINITY)
            g_array_append_val (steps, record->name.start_step);
        }
      if (!any)
        continue;

      if (out->len > 0)
        g_string_append (out, ", ");
      if (mode == SMPROF_MODE_PRE_STEP_ZERO)
        g_string_append (out, _("pre-step-zero"));
      else if (mode == SMPROF_MODE_POST_HOOK_CLOSE)
        g_string_append (out, _("post-hook-close"));
      else
        {
          guint n = 0;

          g_array_sort (steps, compare_steps);
          for (guint i = 0; i < steps->len; i++)
            if (i == 0 || g_array_index (steps, gint64, i) != g_array_index (steps, gint64, n - 1))
              g_array_index (steps, gint64, n++) = g_array_index (steps, gint64, i);
          g_array_set_size (steps, n);

          /* TRANSLATORS: a mode (train, eval, ...), then "step" or "steps" and their numbers */
          g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s step ", "%s steps ", MAX (n, 1)),
                                  smprof_mode_to_string (mode));
          append_ranges (out, steps);
        }
    }

  return g_string_free (out, FALSE);
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  return smprof_node_id_compare (*(const char * const *) a, *(const char * const *) b);
}

/**
 * smprof_node_choice_resolve:
 * @choice: the nodes asked for
 * @records: (element-type SmprofRecord): one profiler's records, in record order
 *
 * "any" is smdebug's rule: the node of the first record in record order.
 *
 * Returns: (transfer full): the node ids, possibly empty
 */
char **
smprof_node_choice_resolve (const SmprofNodeChoice *choice,
                            GPtrArray              *records)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  switch (choice->kind)
    {
    case SMPROF_NODES_ANY:
      if (records->len > 0)
        g_strv_builder_add (builder, ((SmprofRecord *) g_ptr_array_index (records, 0))->node_id);
      break;

    case SMPROF_NODES_ALL:
      {
        g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
        g_autoptr(GPtrArray) ids = g_ptr_array_new ();
        const char *last = NULL;

        for (guint i = 0; i < records->len; i++)
          {
            const char *id = ((SmprofRecord *) g_ptr_array_index (records, i))->node_id;

            if (id == last)
              continue;
            last = id;
            if (g_hash_table_add (seen, (gpointer) id))
              g_ptr_array_add (ids, (gpointer) id);
          }
        g_ptr_array_sort (ids, compare_ids);
        for (guint i = 0; i < ids->len; i++)
          g_strv_builder_add (builder, g_ptr_array_index (ids, i));
      }
      break;

    case SMPROF_NODES_LIST:
      g_strv_builder_addv (builder, (const char **) choice->ids);
      break;

    default:
      g_assert_not_reached ();
    }

  return g_strv_builder_end (builder);
}

/**
 * smprof_select:
 * @records: (element-type SmprofRecord): one profiler's records, in record order
 * @node_ids: the nodes to keep
 * @selection: the rule
 *
 * Returns: (transfer container) (element-type SmprofRecord): the matching
 *   records, in record order (the order smdebug aggregates them in)
 */
GPtrArray *
smprof_select (GPtrArray             *records,
               const char * const    *node_ids,
               const SmprofSelection *selection)
{
  GPtrArray *selected = g_ptr_array_new ();
  g_autoptr(GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  const char *last_wanted = NULL;

  /* A set, not g_strv_contains(): with 256 nodes a scan of the list per
   * record was 51,200 x 128 comparisons on the main thread.  Records of one
   * node share their node_id string, so the last match is tried first. */
  for (guint i = 0; node_ids[i] != NULL; i++)
    g_hash_table_add (wanted, (gpointer) node_ids[i]);

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (!smprof_selection_matches (selection, record))
        continue;
      if (record->node_id != last_wanted)
        {
          if (!g_hash_table_contains (wanted, record->node_id))
            continue;
          last_wanted = record->node_id;
        }
      g_ptr_array_add (selected, record);
    }

  return selected;
}
