/* smprof-job-page.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-aggregate.h"
#include "smprof-job-page-private.h"
#include "smprof-ui.h"
#include "smprof-ui-format.h"

/* The page of one job: a header (name, nodes, profiler, Export), presets on
 * the left, the timeline with its toolbar, a status line, and the Functions /
 * Call tree / Flame graph views showing SmprofJobPage:profile (the visible
 * one at once, the others when shown).
 *
 * The page owns the selection. Whatever changes it (a preset, the node
 * choice, the profiler, the timeline, the public API) queues one update; the
 * update selects, reads the stats files it needs and aggregates on a worker
 * thread, and only the newest answer is kept: a generation counter and a
 * cancellable drop the others, so a drag on the timeline never waits for a
 * stale aggregate. A dragged time range is summed by the job's range index
 * once it is built (a few milliseconds whatever the range), else as any
 * other selection.
 *
 * The timeline and the page mirror each other: a drag or a click on the
 * timeline becomes the page's selection (exactly the intervals the timeline
 * outlines), and a preset, the step range or the node choice outline their
 * intervals on the timeline. `timeline_syncing` keeps the echo out. */

G_DEFINE_FINAL_TYPE (SmprofJobPage, smprof_job_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_JOB,
  PROP_PROFILE,
  PROP_BUSY,
  N_PROPS
};

enum {
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* smprof_job_load_stats() fills records in place, so two aggregates of one
 * job (or an aggregate and the range index) must not read files at the same
 * time; stale ones give way quickly. */
static GMutex aggregate_lock;

static void queue_update   (SmprofJobPage *self);
static void sync_timeline  (SmprofJobPage *self);

/* ------------------------------------------------------------------------ */
/* The worker: select, read, aggregate                                      */

typedef struct
{
  SmprofJob           *job;
  SmprofProfiler       profiler;
  char               **node_ids;
  SmprofJobPagePreset  preset;
  SmprofSelection      selection;
  GPtrArray           *explicit_records;
  SmprofRangeIndex    *range_index;      /* set when the index sums this range */
  char               **range_node_ids;
  char                *description;
  char                *slug;
  guint                generation;
} Request;

typedef struct
{
  GPtrArray     *selected;
  SmprofProfile *profile;
  gboolean       from_index;
} Answer;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_clear_object (&request->job);
  g_clear_pointer (&request->node_ids, g_strfreev);
  g_clear_pointer (&request->explicit_records, g_ptr_array_unref);
  g_clear_object (&request->range_index);
  g_clear_pointer (&request->range_node_ids, g_strfreev);
  g_clear_pointer (&request->description, g_free);
  g_clear_pointer (&request->slug, g_free);
  g_free (request);
}

static void
answer_free (gpointer data)
{
  Answer *answer = data;

  g_clear_pointer (&answer->selected, g_ptr_array_unref);
  g_clear_object (&answer->profile);
  g_free (answer);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Answer, answer_free)

static gboolean
is_forward_pass (const SmprofRecord *record)
{
  return record->name.start_phase == SMPROF_PHASE_STEP_START &&
         record->name.end_phase == SMPROF_PHASE_FORWARD_PASS_END;
}

/* The records a selection names; a copy of @explicit_records when set. Cheap
 * enough for the main thread too (one pass over the job's records). */
static GPtrArray *
select_for (SmprofJob              *job,
            SmprofProfiler          profiler,
            const char * const     *node_ids,
            SmprofJobPagePreset     preset,
            const SmprofSelection  *selection,
            GPtrArray              *explicit_records)
{
  GPtrArray *records = smprof_job_get_records (job, profiler);
  GPtrArray *selected;
  GPtrArray *kept;

  if (explicit_records != NULL)
    return g_ptr_array_copy (explicit_records, NULL, NULL);

  selected = smprof_select (records, node_ids, selection);
  if (preset != SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES && preset != SMPROF_JOB_PAGE_PRESET_REST_OF_STEP)
    return selected;

  kept = g_ptr_array_new ();
  for (guint i = 0; i < selected->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (selected, i);

      if (is_forward_pass (record) == (preset == SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES))
        g_ptr_array_add (kept, record);
    }
  g_ptr_array_unref (selected);

  return kept;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* The nodes a set of records covers, sorted. */
static char **
dup_record_node_ids (GPtrArray *records)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (g_hash_table_add (seen, (gpointer) record->node_id))
        g_ptr_array_add (ids, g_strdup (record->node_id));
    }

  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_add (ids, NULL);

  return (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
}

static void
aggregate_in_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  Request *request = task_data;
  g_autoptr(Answer) answer = g_new0 (Answer, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GMutexLocker) locker = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  answer->selected = select_for (request->job, request->profiler, (const char * const *) request->node_ids,
                                 request->preset, &request->selection, request->explicit_records);

  /* A dragged range: the index has every stats file in memory already. */
  if (request->range_index != NULL && answer->selected->len > 0)
    {
      answer->profile = smprof_range_index_aggregate (request->range_index,
                                                      (const char * const *) request->range_node_ids,
                                                      request->selection.start_us,
                                                      request->selection.end_us);
      answer->from_index = TRUE;
      g_task_return_pointer (task, g_steal_pointer (&answer), answer_free);
      return;
    }

  locker = g_mutex_locker_new (&aggregate_lock);
  if (g_task_return_error_if_cancelled (task))
    return;

  if (answer->selected->len > 0)
    {
      g_auto(GStrv) node_ids = NULL;

      if (!smprof_job_load_stats (request->job, answer->selected, cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }

      if (request->explicit_records != NULL)
        node_ids = dup_record_node_ids (answer->selected);
      else
        node_ids = g_strdupv (request->node_ids);

      answer->profile = smprof_profile_new (request->job, request->profiler,
                                            (const char * const *) node_ids, answer->selected);
    }

  g_task_return_pointer (task, g_steal_pointer (&answer), answer_free);
}

/* The range index: built once, on a worker, after the first aggregate has
 * read the stats it needs (under the same lock, so no file is read twice). */
static void
build_index_in_thread (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  SmprofJob *job = task_data;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&aggregate_lock);
  g_autoptr(GError) error = NULL;
  SmprofRangeIndex *index;

  index = smprof_range_index_new (job, SMPROF_PROFILER_CPROFILE, NULL, cancellable, &error);
  if (index == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, index, g_object_unref);
}

static void
build_index_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  g_autoptr(SmprofRangeIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  index = g_task_propagate_pointer (G_TASK (result), &error);
  if (index == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No range index, dragged ranges aggregate as any selection: %s", error->message);
      return;
    }

  g_clear_object (&self->index_cancellable);
  g_set_object (&self->range_index, index);
}

static void
maybe_build_index (SmprofJobPage *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->index_started || !smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE))
    return;

  self->index_started = TRUE;
  self->index_cancellable = g_cancellable_new ();

  task = g_task_new (self, self->index_cancellable, build_index_cb, g_object_ref (self));
  g_task_set_source_tag (task, maybe_build_index);
  g_task_set_priority (task, G_PRIORITY_LOW);
  g_task_set_task_data (task, g_object_ref (self->job), g_object_unref);
  g_task_run_in_thread (task, build_index_in_thread);
}

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
static char *
dup_description (SmprofJobPage *self,
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
static char *
dup_slug (SmprofJobPage *self,
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
/* Showing the answer                                                       */

static void
set_busy (SmprofJobPage *self,
          gboolean       busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), busy);
  gtk_spinner_set_spinning (self->busy_spinner, busy);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->views_stack), GTK_ACCESSIBLE_STATE_BUSY, busy, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static char *
describe_nodes (SmprofJobPage *self,
                GPtrArray     *records)
{
  g_auto(GStrv) ids = dup_record_node_ids (records);
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

static void
update_status (SmprofJobPage *self)
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

/* The visible view shows the profile; the others catch up when shown, so a
 * drag costs one view's update on the main thread, not three. */
static void
sync_visible_view (SmprofJobPage *self)
{
  GtkWidget *visible = gtk_stack_get_visible_child (self->views_stack);

  if (visible == GTK_WIDGET (self->functions_slot))
    smprof_function_table_set_profile (self->function_table, self->profile);
  else if (visible == GTK_WIDGET (self->call_tree_slot))
    smprof_call_tree_view_set_profile (self->call_tree_view, self->profile);
  else if (visible == GTK_WIDGET (self->flame_graph_slot))
    smprof_flame_graph_view_set_profile (self->flame_graph_view, self->profile);
}

static void
visible_view_changed_cb (SmprofJobPage *self,
                         GParamSpec    *pspec,
                         GtkStack      *stack)
{
  sync_visible_view (self);
}

static void
aggregate_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  Request *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(Answer) answer = NULL;
  g_autoptr(GError) error = NULL;

  answer = g_task_propagate_pointer (G_TASK (result), &error);

  /* A newer update replaced this one: drop it. */
  if (request->generation != self->generation)
    return;

  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);

  if (answer == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Could not aggregate the selection: %s"), error->message);

          _smprof_job_page_show_error (self, message);
        }
      return;
    }

  g_clear_pointer (&self->selected_records, g_ptr_array_unref);
  self->selected_records = g_steal_pointer (&answer->selected);
  g_set_object (&self->profile, answer->profile);
  self->profile_from_index = answer->from_index;
  g_free (self->profile_description);
  self->profile_description = g_steal_pointer (&request->description);
  g_free (self->profile_slug);
  self->profile_slug = g_steal_pointer (&request->slug);

  update_status (self);
  _smprof_job_page_update_export_actions (self);
  sync_visible_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);

  /* The job's stats for this selection are read now: index the rest. */
  if (self->profiler == SMPROF_PROFILER_CPROFILE)
    maybe_build_index (self);
}

static const char * const *
current_node_ids (SmprofJobPage *self)
{
  return (const char * const *) (self->node_ids != NULL ? self->node_ids : self->all_node_ids);
}

/* Whether the range index can sum this selection: a time range, on all the
 * index's nodes or some of them. */
static gboolean
can_use_index (SmprofJobPage *self)
{
  return self->range_index != NULL &&
         self->profiler == SMPROF_PROFILER_CPROFILE &&
         self->preset == SMPROF_JOB_PAGE_PRESET_NONE &&
         self->has_query &&
         self->selection.kind == SMPROF_SELECT_OVERLAP;
}

static gboolean
start_update (gpointer data)
{
  SmprofJobPage *self = data;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) records = NULL;
  Request *request;

  self->update_source = 0;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->generation++;

  request = g_new0 (Request, 1);
  request->job = g_object_ref (self->job);
  request->profiler = self->profiler;
  request->node_ids = g_strdupv ((char **) current_node_ids (self));
  request->preset = self->preset;
  request->selection = self->selection;
  if (self->explicit_records != NULL)
    request->explicit_records = g_ptr_array_ref (self->explicit_records);
  if (can_use_index (self))
    {
      request->range_index = g_object_ref (self->range_index);
      request->range_node_ids = g_strdupv (self->query_node_ids != NULL ? self->query_node_ids
                                                                         : (char **) current_node_ids (self));
    }
  request->generation = self->generation;

  /* Described now, with the selection it describes. */
  records = select_for (self->job, self->profiler, current_node_ids (self), self->preset, &self->selection,
                        self->explicit_records);
  request->description = dup_description (self, records);
  request->slug = dup_slug (self, records);

  task = g_task_new (self, self->cancellable, aggregate_cb, g_object_ref (self));
  g_task_set_source_tag (task, start_update);
  g_task_set_task_data (task, request, request_free);
  g_task_run_in_thread (task, aggregate_in_thread);

  return G_SOURCE_REMOVE;
}

/* Many changes in one main-loop turn (a drag) make one update. */
static void
queue_update (SmprofJobPage *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);

  if (self->update_source == 0)
    self->update_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, start_update, self, NULL);
  set_busy (self, TRUE);
}

/* ------------------------------------------------------------------------ */
/* The timeline                                                             */

/* The page's selection, outlined on the timeline. The whole job is no
 * selection there (nothing outlined: everything counts). */
static void
sync_timeline (SmprofJobPage *self)
{
  if (smprof_timeline_get_layout (self->timeline) == NULL)
    return;

  self->timeline_syncing = TRUE;

  if (self->preset == SMPROF_JOB_PAGE_PRESET_WHOLE_JOB)
    smprof_timeline_clear_selection (self->timeline);
  else if (self->explicit_records != NULL)
    smprof_timeline_select_records (self->timeline, self->explicit_records);
  else if (self->preset == SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES ||
           self->preset == SMPROF_JOB_PAGE_PRESET_REST_OF_STEP)
    {
      g_autoptr(GPtrArray) records = select_for (self->job, self->profiler, current_node_ids (self),
                                                 self->preset, &self->selection, NULL);

      smprof_timeline_select_records (self->timeline, records);
    }
  else
    /* NULL: the shown nodes, which are the chosen ones */
    smprof_timeline_set_selection (self->timeline, &self->selection, NULL);

  self->timeline_syncing = FALSE;
}

static void
clear_query (SmprofJobPage *self)
{
  self->has_query = FALSE;
  g_clear_pointer (&self->query_node_ids, g_strfreev);
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
}

static void sync_preset_row      (SmprofJobPage       *self);
static void selection_for_preset (SmprofJobPage       *self,
                                  SmprofJobPagePreset  preset,
                                  SmprofSelection     *selection);

/* A drag, a click, Shift+click, the keyboard or Escape on the timeline: the
 * page aggregates exactly the intervals the timeline outlines. */
static void
timeline_selection_changed_cb (SmprofJobPage  *self,
                               SmprofTimeline *timeline)
{
  SmprofTimelineSelection *selection;

  if (self->timeline_syncing)
    return;

  selection = smprof_timeline_get_selection (timeline);
  clear_query (self);

  if (selection == NULL)
    {
      /* Nothing selected: everything counts. */
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
      selection_for_preset (self, self->preset, &self->selection);
    }
  else if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY &&
           smprof_timeline_selection_get_query (selection)->kind == SMPROF_SELECT_ALL &&
           g_strv_equal (smprof_timeline_selection_get_node_ids (selection), current_node_ids (self)))
    {
      /* Ctrl+A */
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
      selection_for_preset (self, self->preset, &self->selection);
    }
  else
    {
      self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
      self->explicit_records = g_ptr_array_copy (smprof_timeline_selection_get_records (selection), NULL, NULL);

      if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY)
        {
          const char * const *ids = smprof_timeline_selection_get_node_ids (selection);

          self->has_query = TRUE;
          self->selection = *smprof_timeline_selection_get_query (selection);
          if (!g_strv_equal (ids, current_node_ids (self)))
            self->query_node_ids = g_strdupv ((char **) ids);
        }
    }

  sync_preset_row (self);
  queue_update (self);
}

static void
timeline_notify_selection_cb (SmprofJobPage  *self,
                              GParamSpec     *pspec,
                              SmprofTimeline *timeline)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.zoom-to-selection",
                                 smprof_timeline_get_selection (timeline) != NULL);
}

/* ------------------------------------------------------------------------ */
/* The header, nodes and profiler                                           */

static void
update_header (SmprofJobPage *self)
{
  SmprofSource *source = smprof_job_get_source (self->job);
  g_autofree char *location = smprof_source_dup_location (source);
  g_autofree char *name = g_path_get_basename (location);
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  guint n_nodes = g_strv_length (self->all_node_ids);
  g_autofree char *nodes = NULL;
  g_autofree char *intervals = NULL;
  g_autofree char *summary = NULL;

  gtk_label_set_label (self->job_name_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->job_name_label), location);

  nodes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", n_nodes), n_nodes);
  intervals = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", records->len),
                               records->len);

  if (n_nodes > 1 && records->len % n_nodes == 0)
    {
      guint each = records->len / n_nodes;
      g_autofree char *per_node = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u per node", "%u per node", each),
                                                   each);

      /* Translators: "2 nodes · 82 intervals (41 per node)" */
      summary = g_strdup_printf (_("%s · %s (%s)"), nodes, intervals, per_node);
    }
  else
    /* Translators: "2 nodes · 82 intervals" */
    summary = g_strdup_printf (_("%s · %s"), nodes, intervals);

  gtk_label_set_label (self->job_summary_label, summary);
}

static void
update_node_model (SmprofJobPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->node_model));

  self->syncing = TRUE;
  gtk_string_list_splice (self->node_model, 0, n, NULL);
  gtk_string_list_append (self->node_model, _("All nodes"));
  for (guint i = 0; self->all_node_ids[i] != NULL; i++)
    gtk_string_list_append (self->node_model, self->all_node_ids[i]);
  gtk_drop_down_set_selected (self->node_dropdown, 0);
  self->syncing = FALSE;

  smprof_node_chooser_set_node_ids (self->node_chooser, (const char * const *) self->all_node_ids);
  smprof_node_chooser_set_chosen (self->node_chooser, (const char * const *) self->node_ids);
}

/* "Choose nodes…": several nodes, or all of them when all are checked. */
static void
node_chooser_changed_cb (SmprofJobPage     *self,
                         SmprofNodeChooser *chooser)
{
  g_auto(GStrv) chosen = smprof_node_chooser_dup_chosen (chooser);

  smprof_job_page_set_node_ids (self, (const char * const *) chosen);
}

static void
node_selected_cb (SmprofJobPage *self,
                  GParamSpec    *pspec,
                  GtkDropDown   *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;

  if (selected == 0)
    smprof_job_page_set_node_ids (self, NULL);
  else
    {
      const char *ids[] = { self->all_node_ids[selected - 1], NULL };

      smprof_job_page_set_node_ids (self, ids);
    }
}

static void
update_step_range (SmprofJobPage *self)
{
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  gint64 lowest = G_MAXINT64;
  gint64 highest = G_MININT64;

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->name.start_mode == SMPROF_MODE_TRAIN && record->name.start_step != SMPROF_STEP_ANY_START)
        {
          lowest = MIN (lowest, record->name.start_step);
          highest = MAX (highest, record->name.start_step);
        }
    }

  self->syncing = TRUE;
  if (lowest > highest)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->steps_row), FALSE);
      lowest = highest = 0;
    }
  else
    gtk_widget_set_sensitive (GTK_WIDGET (self->steps_row), TRUE);

  gtk_adjustment_configure (self->first_step_adjustment, lowest, lowest, highest, 1, 10, 0);
  gtk_adjustment_configure (self->last_step_adjustment, highest, lowest, highest, 1, 10, 0);
  self->first_step = lowest;
  self->last_step = highest;
  self->syncing = FALSE;
}

static void
set_profiler_internal (SmprofJobPage  *self,
                       SmprofProfiler  profiler)
{
  self->profiler = profiler;

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  self->all_node_ids = smprof_job_dup_node_ids (self->job, profiler);
  g_clear_pointer (&self->node_ids, g_strfreev);

  /* Records belong to one profiler: an explicit set does not carry over. */
  if (self->explicit_records != NULL || self->has_query)
    {
      clear_query (self);
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
    }

  self->syncing = TRUE;
  gtk_toggle_button_set_active (profiler == SMPROF_PROFILER_CPROFILE ? self->cprofile_button : self->pyinstrument_button,
                                TRUE);
  self->syncing = FALSE;

  /* The timeline shows the profiler's intervals, every node; its selection
   * is cleared, and the page sets its own again afterwards. */
  self->timeline_syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, NULL);
  smprof_timeline_set_profiler (self->timeline, profiler);
  self->timeline_syncing = FALSE;

  update_header (self);
  update_node_model (self);
  update_step_range (self);
  _smprof_job_page_update_modes (self);
}

static void
profiler_toggled_cb (SmprofJobPage   *self,
                     GtkToggleButton *button)
{
  if (self->syncing || !gtk_toggle_button_get_active (button))
    return;

  smprof_job_page_set_profiler (self,
                                button == self->cprofile_button
                                ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT);
}

/* ------------------------------------------------------------------------ */
/* Presets                                                                  */

static GtkListBoxRow *
row_for_preset (SmprofJobPage       *self,
                SmprofJobPagePreset  preset)
{
  switch (preset)
    {
    case SMPROF_JOB_PAGE_PRESET_WHOLE_JOB:
      return self->whole_job_row;
    case SMPROF_JOB_PAGE_PRESET_INITIALIZATION:
      return self->initialization_row;
    case SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP:
      return self->training_loop_row;
    case SMPROF_JOB_PAGE_PRESET_FINALIZATION:
      return self->finalization_row;
    case SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES:
      return self->forward_passes_row;
    case SMPROF_JOB_PAGE_PRESET_REST_OF_STEP:
      return self->rest_of_step_row;
    case SMPROF_JOB_PAGE_PRESET_STEPS:
      return self->steps_row;
    case SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES:
      return self->mode_pair_row;
    case SMPROF_JOB_PAGE_PRESET_NONE:
    default:
      return NULL;
    }
}

static void
selection_for_preset (SmprofJobPage       *self,
                      SmprofJobPagePreset  preset,
                      SmprofSelection     *selection)
{
  memset (selection, 0, sizeof *selection);

  switch (preset)
    {
    case SMPROF_JOB_PAGE_PRESET_INITIALIZATION:
      selection->kind = SMPROF_SELECT_INITIALIZATION;
      break;
    case SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP:
    case SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES:
    case SMPROF_JOB_PAGE_PRESET_REST_OF_STEP:
      selection->kind = SMPROF_SELECT_TRAINING_LOOP;
      break;
    case SMPROF_JOB_PAGE_PRESET_FINALIZATION:
      selection->kind = SMPROF_SELECT_FINALIZATION;
      break;
    case SMPROF_JOB_PAGE_PRESET_STEPS:
      smprof_selection_init_step (selection, self->first_step);
      selection->end_step = self->last_step;
      break;
    case SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES:
      _smprof_job_page_mode_pair_selection (self, selection);
      break;
    case SMPROF_JOB_PAGE_PRESET_WHOLE_JOB:
    case SMPROF_JOB_PAGE_PRESET_NONE:
    default:
      selection->kind = SMPROF_SELECT_ALL;
      break;
    }
}

static void
sync_preset_row (SmprofJobPage *self)
{
  GtkListBoxRow *row = row_for_preset (self, self->preset);

  self->syncing = TRUE;
  if (row != NULL)
    gtk_list_box_select_row (self->presets_list, row);
  else
    gtk_list_box_unselect_all (self->presets_list);
  self->syncing = FALSE;
}

static void
preset_row_selected_cb (SmprofJobPage *self,
                        GtkListBoxRow *row,
                        GtkListBox    *list)
{
  static const SmprofJobPagePreset presets[] = {
    SMPROF_JOB_PAGE_PRESET_WHOLE_JOB,
    SMPROF_JOB_PAGE_PRESET_INITIALIZATION,
    SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP,
    SMPROF_JOB_PAGE_PRESET_FINALIZATION,
    SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES,
    SMPROF_JOB_PAGE_PRESET_REST_OF_STEP,
    SMPROF_JOB_PAGE_PRESET_STEPS,
    SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES,
  };

  if (self->syncing || row == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (row_for_preset (self, presets[i]) == row)
      {
        smprof_job_page_set_preset (self, presets[i]);
        return;
      }
}

static void
step_range_changed_cb (SmprofJobPage  *self,
                       GtkSpinButton  *spin)
{
  gint64 first = (gint64) gtk_adjustment_get_value (self->first_step_adjustment);
  gint64 last = (gint64) gtk_adjustment_get_value (self->last_step_adjustment);

  if (self->syncing)
    return;

  smprof_job_page_set_step_range (self, first, MAX (first, last));
}

static void
error_bar_response_cb (SmprofJobPage *self,
                       int            response,
                       GtkInfoBar    *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

static void
preset_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  int preset = g_variant_get_int32 (parameter);

  if (preset > SMPROF_JOB_PAGE_PRESET_NONE && preset <= SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES &&
      gtk_widget_get_sensitive (GTK_WIDGET (row_for_preset (self, preset))))
    smprof_job_page_set_preset (self, preset);
}

static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *child = gtk_stack_get_child_by_name (self->views_stack, name);

  if (child == NULL)
    return;

  gtk_stack_set_visible_child (self->views_stack, child);

  /* Focus follows when it was in the views already. */
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->views_stack)) &&
      !gtk_widget_is_ancestor (focus, child))
    gtk_widget_child_focus (child, GTK_DIR_TAB_FORWARD);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  if (g_str_equal (action_name, "job-page.zoom-in"))
    smprof_timeline_zoom_in (self->timeline);
  else if (g_str_equal (action_name, "job-page.zoom-out"))
    smprof_timeline_zoom_out (self->timeline);
  else if (g_str_equal (action_name, "job-page.zoom-fit"))
    smprof_timeline_zoom_reset (self->timeline);
  else
    smprof_timeline_zoom_to_selection (self->timeline);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
smprof_job_page_constructed (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->constructed (object);

  g_assert (SMPROF_IS_JOB (self->job));

  gtk_widget_set_visible (self->profiler_box,
                          smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE) &&
                          smprof_job_has_profiler (self->job, SMPROF_PROFILER_PYINSTRUMENT));

  /* cProfile when there is any, as the command line does. The timeline gets
   * its profiler before the job, so it lays out the job once. */
  set_profiler_internal (self,
                         smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE) ||
                         !smprof_job_has_profiler (self->job, SMPROF_PROFILER_PYINSTRUMENT)
                         ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT);
  smprof_timeline_set_job (self->timeline, self->job);

  smprof_job_page_set_preset (self, SMPROF_JOB_PAGE_PRESET_WHOLE_JOB);
  update_status (self);
}

static void
smprof_job_page_dispose (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);
  GtkWidget *child;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->index_cancellable != NULL)
    g_cancellable_cancel (self->index_cancellable);
  g_clear_object (&self->index_cancellable);
  g_clear_handle_id (&self->update_source, g_source_remove);
  self->generation++;

  _smprof_job_page_export_dispose (self);
  _smprof_job_page_refresh_dispose (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_JOB_PAGE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  _smprof_job_page_modes_dispose (self);

  g_clear_object (&self->node_model);
  g_clear_object (&self->profile);
  g_clear_object (&self->range_index);
  g_clear_pointer (&self->selected_records, g_ptr_array_unref);
  clear_query (self);
  g_clear_object (&self->job);
  g_clear_object (&self->retired_job);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->dispose (object);
}

static void
smprof_job_page_finalize (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_pointer (&self->profile_description, g_free);
  g_clear_pointer (&self->profile_slug, g_free);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->finalize (object);
}

static void
smprof_job_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      g_value_set_object (value, self->job);
      break;

    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_job_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      self->job = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_job_page_class_init (SmprofJobPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const views[] = { "functions", "call-tree", "flame-graph" };

  object_class->constructed = smprof_job_page_constructed;
  object_class->dispose = smprof_job_page_dispose;
  object_class->finalize = smprof_job_page_finalize;
  object_class->get_property = smprof_job_page_get_property;
  object_class->set_property = smprof_job_page_set_property;

  /**
   * SmprofJobPage:job:
   *
   * The job, indexed (smprof_job_load() done).
   */
  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL,
                         SMPROF_TYPE_JOB,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofJobPage:profile:
   *
   * The aggregate of the current selection, or %NULL while nothing is
   * selected. Notified on the main thread whenever a new aggregate is ready,
   * once the visible view shows it.
   */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         SMPROF_TYPE_PROFILE,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofJobPage:busy:
   *
   * Whether a new aggregate is queued or being computed.
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SmprofJobPage::selection-changed:
   *
   * The selection, the nodes or the profiler changed; a new
   * #SmprofJobPage:profile follows once it is computed.
   */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (SMPROF_TYPE_TIMELINE);
  g_type_ensure (SMPROF_TYPE_NODE_CHOOSER);
  g_type_ensure (SMPROF_TYPE_FUNCTION_TABLE);
  g_type_ensure (SMPROF_TYPE_CALL_TREE_VIEW);
  g_type_ensure (SMPROF_TYPE_FLAME_GRAPH_VIEW);

  smprof_ui_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-job-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, job_name_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, job_summary_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, node_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, node_chooser);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, profiler_box);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, cprofile_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, pyinstrument_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, export_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, toast_revealer);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, toast_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, presets_list);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, whole_job_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, initialization_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, training_loop_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, finalization_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, forward_passes_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, rest_of_step_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, steps_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, first_step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, last_step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, views_stack);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, functions_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, call_tree_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, flame_graph_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, function_table);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, flame_graph_view);
  gtk_widget_class_bind_template_callback (widget_class, preset_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_range_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, profiler_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, timeline_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, timeline_notify_selection_cb);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);

  /* Presets: Alt+1 … Alt+8 */
  gtk_widget_class_install_action (widget_class, "job-page.preset", "i", preset_action);
  for (int preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB; preset <= SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES; preset++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + preset - SMPROF_JOB_PAGE_PRESET_WHOLE_JOB,
                                         GDK_ALT_MASK, "job-page.preset", "i", preset);

  /* Views: Ctrl+1 Functions, Ctrl+2 Call tree, Ctrl+3 Flame graph */
  gtk_widget_class_install_action (widget_class, "job-page.show-view", "s", show_view_action);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_CONTROL_MASK,
                                           "job-page.show-view", "s", views[i]);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_1 + i, GDK_CONTROL_MASK,
                                           "job-page.show-view", "s", views[i]);
    }

  /* The timeline's toolbar (the timeline's own shortcuts work while it has
   * the focus; these work from the buttons). */
  gtk_widget_class_install_action (widget_class, "job-page.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-to-selection", NULL, zoom_action);

  _smprof_job_page_class_export_init (widget_class);
  _smprof_job_page_class_modes_init (widget_class);
}

static void
smprof_job_page_init (SmprofJobPage *self)
{
  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  self->selection.kind = SMPROF_SELECT_ALL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->node_model = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->node_dropdown, G_LIST_MODEL (self->node_model));
  g_signal_connect_object (self->node_dropdown, "notify::selected",
                           G_CALLBACK (node_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->node_chooser, "changed",
                           G_CALLBACK (node_chooser_changed_cb), self, G_CONNECT_SWAPPED);
  _smprof_job_page_modes_init (self);

  g_signal_connect_object (self->views_stack, "notify::visible-child",
                           G_CALLBACK (visible_view_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.zoom-to-selection", FALSE);
  _smprof_job_page_update_export_actions (self);
  _smprof_job_page_refresh_init (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */

/**
 * smprof_job_page_new:
 * @job: an indexed job
 *
 * Returns: (transfer floating): the page, aggregating the whole job
 */
GtkWidget *
smprof_job_page_new (SmprofJob *job)
{
  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);

  return g_object_new (SMPROF_TYPE_JOB_PAGE, "job", job, NULL);
}

/**
 * smprof_job_page_get_job:
 * @self: a job page
 *
 * Returns: (transfer none): the job
 */
SmprofJob *
smprof_job_page_get_job (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->job;
}

SmprofProfiler
smprof_job_page_get_profiler (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

/**
 * smprof_job_page_set_profiler:
 * @self: a job page
 * @profiler: the profiler whose records to show
 *
 * Switches profiler, on the page and on the timeline; the node choice goes
 * back to all nodes, presets keep, other selections become the whole job.
 */
void
smprof_job_page_set_profiler (SmprofJobPage  *self,
                              SmprofProfiler  profiler)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (profiler < SMPROF_N_PROFILERS);

  if (profiler == self->profiler)
    return;

  set_profiler_internal (self, profiler);
  if (self->preset == SMPROF_JOB_PAGE_PRESET_NONE)
    self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
  selection_for_preset (self, self->preset, &self->selection);
  sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
}

/**
 * smprof_job_page_get_node_ids:
 * @self: a job page
 *
 * Returns: (transfer none): the nodes the selection covers, sorted
 */
const char * const *
smprof_job_page_get_node_ids (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return current_node_ids (self);
}

/* After the node choice changed: a timeline range applies to the new nodes;
 * chosen intervals on nodes no longer chosen drop out. */
static void
follow_node_choice (SmprofJobPage *self)
{
  if (self->preset != SMPROF_JOB_PAGE_PRESET_NONE)
    return;

  if (self->has_query)
    {
      g_clear_pointer (&self->query_node_ids, g_strfreev);
      g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
      return;
    }

  if (self->explicit_records != NULL)
    {
      const char * const *ids = current_node_ids (self);
      GPtrArray *kept = g_ptr_array_new ();

      for (guint i = 0; i < self->explicit_records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (self->explicit_records, i);

          if (g_strv_contains (ids, record->node_id))
            g_ptr_array_add (kept, record);
        }
      g_ptr_array_unref (self->explicit_records);
      self->explicit_records = kept;

      if (kept->len == 0)
        {
          clear_query (self);
          self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
          selection_for_preset (self, self->preset, &self->selection);
          sync_preset_row (self);
        }
    }
}

/**
 * smprof_job_page_set_node_ids:
 * @self: a job page
 * @node_ids: (nullable): the nodes to aggregate, one or several; %NULL for all
 *
 * The timeline shows those nodes only. A preset or a dragged range applies
 * to the new nodes; intervals picked on the timeline keep those of the
 * chosen nodes.
 */
void
smprof_job_page_set_node_ids (SmprofJobPage      *self,
                              const char * const *node_ids)
{
  guint selected = 0;

  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  g_clear_pointer (&self->node_ids, g_strfreev);
  if (node_ids != NULL)
    self->node_ids = g_strdupv ((char **) node_ids);

  /* The drop-down shows "All nodes" or one node; several show as none. */
  if (node_ids != NULL)
    {
      selected = GTK_INVALID_LIST_POSITION;
      if (g_strv_length ((char **) node_ids) == 1)
        for (guint i = 0; self->all_node_ids[i] != NULL; i++)
          if (g_strcmp0 (self->all_node_ids[i], node_ids[0]) == 0)
            selected = i + 1;
    }
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->node_dropdown, selected);
  self->syncing = FALSE;
  smprof_node_chooser_set_chosen (self->node_chooser, node_ids);

  self->timeline_syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, node_ids);
  self->timeline_syncing = FALSE;

  follow_node_choice (self);
  sync_timeline (self);
  queue_update (self);
}

SmprofJobPagePreset
smprof_job_page_get_preset (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_JOB_PAGE_PRESET_NONE);

  return self->preset;
}

/**
 * smprof_job_page_set_preset:
 * @self: a job page
 * @preset: a preset, not %SMPROF_JOB_PAGE_PRESET_NONE
 *
 * Selects the intervals of @preset on the chosen nodes, and outlines them on
 * the timeline (the whole job is no outline).
 */
void
smprof_job_page_set_preset (SmprofJobPage       *self,
                            SmprofJobPagePreset  preset)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (preset > SMPROF_JOB_PAGE_PRESET_NONE && preset <= SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES);

  self->preset = preset;
  clear_query (self);
  selection_for_preset (self, preset, &self->selection);
  sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
}

/**
 * smprof_job_page_set_step_range:
 * @self: a job page
 * @first_step: the first train step
 * @last_step: the last train step, included
 *
 * Selects train steps @first_step to @last_step (the Steps preset).
 */
void
smprof_job_page_set_step_range (SmprofJobPage *self,
                                gint64         first_step,
                                gint64         last_step)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (first_step <= last_step);

  self->first_step = first_step;
  self->last_step = last_step;

  self->syncing = TRUE;
  gtk_adjustment_set_value (self->first_step_adjustment, first_step);
  gtk_adjustment_set_value (self->last_step_adjustment, last_step);
  self->syncing = FALSE;

  smprof_job_page_set_preset (self, SMPROF_JOB_PAGE_PRESET_STEPS);
}

/**
 * smprof_job_page_get_selection:
 * @self: a job page
 *
 * The query behind the current selection. For the Forward passes and Rest of
 * step presets it is the training loop, which the page then splits; after
 * smprof_job_page_select_records() or a click on the timeline it is
 * meaningless. Use smprof_job_page_get_selected_records() for the exact
 * intervals.
 *
 * Returns: (transfer none): the query
 */
const SmprofSelection *
smprof_job_page_get_selection (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return &self->selection;
}

/**
 * smprof_job_page_set_selection:
 * @self: a job page
 * @selection: a query, such as a %SMPROF_SELECT_OVERLAP time range
 *
 * Selects the intervals of the chosen nodes that @selection matches, and
 * outlines them on the timeline; the presets list shows no preset.
 */
void
smprof_job_page_set_selection (SmprofJobPage         *self,
                               const SmprofSelection *selection)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (selection != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  clear_query (self);
  self->selection = *selection;
  self->has_query = TRUE;
  sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
}

/**
 * smprof_job_page_select_records:
 * @self: a job page
 * @records: (element-type SmprofRecord): records of the page's job and
 *   profiler, in record order
 *
 * Aggregates exactly @records, whatever the node choice, and outlines them
 * on the timeline.
 */
void
smprof_job_page_select_records (SmprofJobPage *self,
                                GPtrArray     *records)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (records != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  clear_query (self);
  self->explicit_records = g_ptr_array_copy (records, NULL, NULL);
  sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
}

/**
 * smprof_job_page_get_selected_records:
 * @self: a job page
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   intervals the current #SmprofJobPage:profile aggregates, unreadable ones
 *   included, in record order; %NULL before the first answer
 */
GPtrArray *
smprof_job_page_get_selected_records (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->selected_records;
}

/**
 * smprof_job_page_get_profile:
 * @self: a job page
 *
 * Returns: (transfer none) (nullable): the aggregate of the selection
 */
SmprofProfile *
smprof_job_page_get_profile (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->profile;
}

/**
 * smprof_job_page_dup_selection_description:
 * @self: a job page
 *
 * What #SmprofJobPage:profile aggregates, in words: the preset, the steps,
 * the modes and phases, or the time range ("whole job", "train steps 3
 * (stepstart) – 5 (stepend)", "time … s – … s (1.20 s to 3.40 s after the
 * job's start)"). The exports' subtitles name it, with the job and nodes.
 *
 * Returns: (transfer full) (nullable): the description, %NULL before the
 *   first answer
 */
char *
smprof_job_page_dup_selection_description (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return g_strdup (self->profile_description);
}

gboolean
smprof_job_page_get_busy (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), FALSE);

  return self->busy;
}

/**
 * smprof_job_page_get_timeline:
 * @self: a job page
 *
 * Returns: (transfer none): the page's timeline
 */
SmprofTimeline *
smprof_job_page_get_timeline (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->timeline;
}

/**
 * smprof_job_page_get_slot:
 * @self: a job page
 * @name: "timeline", "functions", "call-tree" or "flame-graph"
 *
 * The box a view is in: the timeline with its toolbar, the function table,
 * the call tree or the flame graph view.
 *
 * Returns: (transfer none) (nullable): the slot
 */
GtkBox *
smprof_job_page_get_slot (SmprofJobPage *self,
                          const char    *name)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (g_str_equal (name, "timeline"))
    return self->timeline_slot;
  if (g_str_equal (name, "functions"))
    return self->functions_slot;
  if (g_str_equal (name, "call-tree"))
    return self->call_tree_slot;
  if (g_str_equal (name, "flame-graph"))
    return self->flame_graph_slot;

  return NULL;
}

gboolean
_smprof_job_page_used_range_index (SmprofJobPage *self)
{
  return self->profile_from_index;
}

/* ------------------------------------------------------------------------ */
/* Live refresh (smprof-job-page-refresh.c)                                 */

/* The records of @job with the paths of @records, in @records' order; those
 * that are gone are left out. */
static GPtrArray *
records_in_job (SmprofJob      *job,
                SmprofProfiler  profiler,
                GPtrArray      *records)
{
  GPtrArray *all = smprof_job_get_records (job, profiler);
  g_autoptr(GHashTable) by_path = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (all, i);

      g_hash_table_insert (by_path, record->path, record);
    }

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);
      SmprofRecord *same = g_hash_table_lookup (by_path, record->path);

      if (same != NULL)
        g_ptr_array_add (found, same);
    }

  return found;
}

static gboolean
same_paths (GPtrArray *a,
            GPtrArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return FALSE;

  for (guint i = 0; i < a->len; i++)
    if (g_strcmp0 (((SmprofRecord *) g_ptr_array_index (a, i))->path,
                   ((SmprofRecord *) g_ptr_array_index (b, i))->path) != 0)
      return FALSE;

  return TRUE;
}

/**
 * _smprof_job_page_swap_job:
 * @self: a job page
 * @job: the same job, listed again (it may hold more intervals)
 *
 * Shows @job in place of the page's job, keeping what the user chose: the
 * profiler, the nodes, the selection (intervals picked on the timeline are
 * found again by their paths; a preset or a range is asked of @job, so it
 * takes in the new intervals it covers), the timeline's zoom and scroll. The
 * selection is aggregated again only when it now names other intervals.
 */
void
_smprof_job_page_swap_job (SmprofJobPage *self,
                           SmprofJob     *job)
{
  g_auto(GStrv) node_ids = NULL;
  g_auto(GStrv) visible_nodes = NULL;
  g_autoptr(GPtrArray) records = NULL;
  double view_start, view_end;
  gint64 first_step = self->first_step, last_step = self->last_step;
  SmprofProfiler profiler = self->profiler;

  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (SMPROF_IS_JOB (job));

  if (job == self->job || !smprof_job_has_profiler (job, profiler))
    return;

  node_ids = g_strdupv (self->node_ids);
  visible_nodes = g_strdupv ((char **) smprof_timeline_get_visible_nodes (self->timeline));
  smprof_timeline_get_visible_range (self->timeline, &view_start, &view_end);

  /* The range index sums the old job's intervals: build it again later. */
  if (self->index_cancellable != NULL)
    g_cancellable_cancel (self->index_cancellable);
  g_clear_object (&self->index_cancellable);
  g_clear_object (&self->range_index);
  self->index_started = FALSE;

  /* The profile and the selected records still point into the old job
   * until the next aggregate replaces them: keep it until then. */
  g_clear_object (&self->retired_job);
  self->retired_job = g_steal_pointer (&self->job);
  self->job = g_object_ref (job);

  if (self->explicit_records != NULL)
    {
      GPtrArray *found = records_in_job (job, profiler, self->explicit_records);

      g_ptr_array_unref (self->explicit_records);
      self->explicit_records = found;
    }

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  self->all_node_ids = smprof_job_dup_node_ids (job, profiler);
  update_header (self);
  update_node_model (self);
  /* The drop-down shows one node; several show in the node chooser only. */
  if (node_ids != NULL && g_strv_length (node_ids) == 1)
    for (guint i = 0; self->all_node_ids[i] != NULL; i++)
      if (strcmp (self->all_node_ids[i], node_ids[0]) == 0)
        {
          self->syncing = TRUE;
          gtk_drop_down_set_selected (self->node_dropdown, i + 1);
          self->syncing = FALSE;
        }
  if (node_ids != NULL && g_strv_length (node_ids) > 1)
    {
      self->syncing = TRUE;
      gtk_drop_down_set_selected (self->node_dropdown, GTK_INVALID_LIST_POSITION);
      self->syncing = FALSE;
    }

  update_step_range (self);
  _smprof_job_page_update_modes (self);
  self->syncing = TRUE;
  gtk_adjustment_set_value (self->first_step_adjustment, first_step);
  gtk_adjustment_set_value (self->last_step_adjustment, last_step);
  self->first_step = (gint64) gtk_adjustment_get_value (self->first_step_adjustment);
  self->last_step = (gint64) gtk_adjustment_get_value (self->last_step_adjustment);
  self->syncing = FALSE;

  self->timeline_syncing = TRUE;
  smprof_timeline_set_job (self->timeline, job);
  smprof_timeline_set_visible_nodes (self->timeline, (const char * const *) visible_nodes);
  smprof_timeline_set_visible_range (self->timeline, view_start, view_end);
  self->timeline_syncing = FALSE;
  sync_timeline (self);

  records = select_for (job, profiler, current_node_ids (self), self->preset, &self->selection,
                        self->explicit_records);
  if (same_paths (records, self->selected_records))
    {
      /* The same intervals: the profile stands; only the records move to the new job. */
      g_clear_pointer (&self->selected_records, g_ptr_array_unref);
      self->selected_records = g_steal_pointer (&records);
    }
  else
    queue_update (self);
}
