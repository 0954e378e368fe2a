/* smprof-job-page-status.c: the job page's selection in words: the status
 * line, and the description and file name slug for exports
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"
#include "smprof-ui-format.h"

/* ------------------------------------------------------------------------ */
/* The selection in words                                                   */

static char *
describe_steps (GPtrArray *records)
{
  gint64 first = G_MAXINT64;
  gint64 last = G_MININT64;

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->name.start_step != SMPROF_STEP_ANY_START)
        {
          first = MIN (first, record->name.start_step);
          last = MAX (last, record->name.start_step);
        }
      if (record->name.end_step != SMPROF_STEP_INFINITY)
        {
          first = MIN (first, record->name.end_step);
          last = MAX (last, record->name.end_step);
        }
    }

  if (first > last)
    return g_strdup (_("no steps"));
  if (first == last)
    /* Translators: one step number */
    return g_strdup_printf (_("step %lld"), (long long) first);

  /* Translators: a range of step numbers */
  return g_strdup_printf (_("steps %lld–%lld"), (long long) first, (long long) last);
}

static double
job_origin_us (SmprofJobPage *self)
{
  SmprofTimelineLayout *layout = smprof_timeline_get_layout (self->timeline);

  return layout != NULL ? smprof_timeline_layout_get_origin_us (layout) : 0;
}

/* What the selection is, for an export's subtitle: the preset, the steps,
 * the modes, the phases or the time range (smprof_selection_describe()). */
char *
_smprof_job_page_dup_description (SmprofJobPage *self,
                                  GPtrArray     *records)
{
  g_autofree char *query = NULL;

  switch (self->preset)
    {
    case SMPROF_JOB_PAGE_PRESET_WHOLE_JOB:
      return g_strdup (_("whole job"));
    case SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES:
      return g_strdup (_("forward passes (step start to forward pass end, training loop)"));
    case SMPROF_JOB_PAGE_PRESET_REST_OF_STEP:
      return g_strdup (_("rest of step (training loop without the forward passes)"));
    case SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES:
      return _smprof_job_page_dup_mode_pair_description (self);
    case SMPROF_JOB_PAGE_PRESET_INITIALIZATION:
    case SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP:
    case SMPROF_JOB_PAGE_PRESET_FINALIZATION:
    case SMPROF_JOB_PAGE_PRESET_STEPS:
      return smprof_selection_describe (&self->selection);
    case SMPROF_JOB_PAGE_PRESET_NONE:
    default:
      break;
    }

  if (self->explicit_records != NULL && !self->has_query)
    {
      g_autofree char *steps = describe_steps (records);

      /* Translators: intervals clicked on the timeline, then "steps 3–5" */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u chosen interval, %s", "%u chosen intervals, %s",
                                           records->len),
                              records->len, steps);
    }

  query = smprof_selection_describe (&self->selection);
  if (self->selection.kind == SMPROF_SELECT_OVERLAP)
    {
      double origin = job_origin_us (self);
      g_autofree char *from = smprof_ui_format_duration (MAX (0, self->selection.start_us - origin) / 1e6);
      g_autofree char *to = smprof_ui_format_duration (MAX (0, self->selection.end_us - origin) / 1e6);

      /* Translators: a time range, then when it starts and ends after the job's first interval */
      return g_strdup_printf (_("%s (%s to %s after the job’s start)"), query, from, to);
    }

  return g_steal_pointer (&query);
}

/* The same, short and safe for a file name: "steps-3-5", "time-1.2s-3.4s". */
char *
_smprof_job_page_dup_slug (SmprofJobPage *self,
                           GPtrArray     *records)
{
  static const char * const preset_slugs[] = {
    [SMPROF_JOB_PAGE_PRESET_WHOLE_JOB] = "whole-job",
    [SMPROF_JOB_PAGE_PRESET_INITIALIZATION] = "initialization",
    [SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP] = "training-loop",
    [SMPROF_JOB_PAGE_PRESET_FINALIZATION] = "finalization",
    [SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES] = "forward-passes",
    [SMPROF_JOB_PAGE_PRESET_REST_OF_STEP] = "rest-of-step",
  };
  GString *slug = g_string_new (NULL);
  const char * const *nodes = (const char * const *) self->node_ids;

  if (self->preset == SMPROF_JOB_PAGE_PRESET_STEPS)
    {
      if (self->first_step == self->last_step)
        g_string_append_printf (slug, "step-%" G_GINT64_FORMAT, self->first_step);
      else
        g_string_append_printf (slug, "steps-%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
                                self->first_step, self->last_step);
    }
  else if (self->preset == SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES)
    {
      g_autofree char *modes = _smprof_job_page_dup_mode_pair_slug (self);

      g_string_append (slug, modes);
    }
  else if (self->preset != SMPROF_JOB_PAGE_PRESET_NONE)
    g_string_append (slug, preset_slugs[self->preset]);
  else if (self->has_query && self->selection.kind == SMPROF_SELECT_OVERLAP)
    {
      double origin = job_origin_us (self);
      char from[G_ASCII_DTOSTR_BUF_SIZE], to[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (from, sizeof from, "%.3f", MAX (0, self->selection.start_us - origin) / 1e6);
      g_ascii_formatd (to, sizeof to, "%.3f", MAX (0, self->selection.end_us - origin) / 1e6);
      g_string_append_printf (slug, "time-%ss-%ss", from, to);
    }
  else
    g_string_append_printf (slug, "%u-intervals", records->len);

  if (nodes != NULL && g_strv_length ((char **) nodes) == 1)
    g_string_append_printf (slug, "-%s", nodes[0]);

  for (char *c = slug->str; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '.' && *c != '_')
      *c = '-';

  return g_string_free (slug, FALSE);
}

/* ------------------------------------------------------------------------ */
/* The status line                                                          */

static char *
describe_nodes (SmprofJobPage *self,
                GPtrArray     *records)
{
  g_auto(GStrv) ids = _smprof_job_page_dup_record_node_ids (records);
  guint n = g_strv_length (ids);
  g_autofree char *joined = NULL;

  if (n == 1)
    /* Translators: the one node aggregated */
    return g_strdup_printf (_("node %s"), ids[0]);

  /* Several nodes chosen by hand are named, however many. */
  if (n > 3 && self->node_ids == NULL)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", n), n);

  joined = g_strjoinv (", ", ids);
  /* Translators: how many nodes, then their names */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node (%s)", "%u nodes (%s)", n), n, joined);
}

void
_smprof_job_page_update_status (SmprofJobPage *self)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  guint n_selected;
  guint n_read;

  if (self->selected_records == NULL)
    {
      gtk_label_set_label (self->status_label, _("Computing…"));
      return;
    }

  n_selected = self->selected_records->len;
  if (n_selected == 0)
    {
      gtk_label_set_label (self->status_label, _("No interval matches this selection."));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), NULL);
      return;
    }

  n_read = self->profile != NULL ? smprof_profile_get_records (self->profile)->len : 0;

  g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", n_selected),
                                           n_selected));
  g_ptr_array_add (parts, describe_steps (self->selected_records));
  g_ptr_array_add (parts, describe_nodes (self, self->selected_records));

  if (self->profile != NULL && n_read > 0)
    {
      g_autofree char *total = smprof_ui_format_duration (smprof_profile_get_total_time (self->profile));

      /* Translators: the total time of the aggregated selection, as in "3.21 s total" */
      g_ptr_array_add (parts, g_strdup_printf (_("%s total"), total));
    }

  if (n_read < n_selected)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u unreadable", "%u unreadable",
                                                          n_selected - n_read),
                                             n_selected - n_read));

  if (self->profiler == SMPROF_PROFILER_CPROFILE)
    g_ptr_array_add (parts, g_strdup (_("cProfile, call trees estimated")));
  else
    g_ptr_array_add (parts, g_strdup (_("Pyinstrument, sampled")));

  g_ptr_array_add (parts, NULL);
  text = g_strjoinv (" · ", (char **) parts->pdata);
  gtk_label_set_label (self->status_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), self->profile_description);
}
