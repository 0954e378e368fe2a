/* smprof-job-page.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-aggregate.h"
#include "smprof-job-page.h"
#include "smprof-ui.h"
#include "smprof-ui-format.h"

/* The page of one job: a header (name, nodes, profiler), presets on the
 * left, the timeline slot, a status line, and the Functions / Call tree /
 * Flame graph slots. Whatever changes the selection (a preset, the node
 * choice, the profiler, the timeline through the public API) queues one
 * update; the update selects, reads the stats files it needs and aggregates
 * on a worker thread, and only the newest answer is kept: a generation
 * counter and a cancellable drop the others, so a drag on the timeline never
 * waits for a stale aggregate. */
struct _SmprofJobPage
{
  GtkWidget            parent_instance;

  SmprofJob           *job;
  SmprofProfiler       profiler;
  char               **all_node_ids;     /* the profiler's nodes, sorted */
  char               **node_ids;         /* the chosen nodes; NULL for all */

  SmprofJobPagePreset  preset;
  SmprofSelection      selection;
  GPtrArray           *explicit_records; /* select_records(), or NULL */
  gint64               first_step;
  gint64               last_step;

  /* the newest answer */
  GPtrArray           *selected_records;
  SmprofProfile       *profile;

  /* the update in flight */
  GCancellable        *cancellable;
  guint                generation;
  guint                update_source;
  gboolean             busy;
  gboolean             syncing;          /* the page is setting its own widgets */

  GtkStringList       *node_model;

  /* template children */
  GtkLabel            *job_name_label;
  GtkLabel            *job_summary_label;
  GtkDropDown         *node_dropdown;
  GtkWidget           *profiler_box;
  GtkToggleButton     *cprofile_button;
  GtkToggleButton     *pyinstrument_button;
  GtkListBox          *presets_list;
  GtkListBoxRow       *whole_job_row;
  GtkListBoxRow       *initialization_row;
  GtkListBoxRow       *training_loop_row;
  GtkListBoxRow       *finalization_row;
  GtkListBoxRow       *forward_passes_row;
  GtkListBoxRow       *rest_of_step_row;
  GtkListBoxRow       *steps_row;
  GtkAdjustment       *first_step_adjustment;
  GtkAdjustment       *last_step_adjustment;
  GtkBox              *timeline_slot;
  GtkSpinner          *busy_spinner;
  GtkLabel            *status_label;
  GtkStack            *views_stack;
  GtkBox              *functions_slot;
  GtkBox              *call_tree_slot;
  GtkBox              *flame_graph_slot;
};

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
 * job must not read files at the same time; stale ones give way quickly. */
static GMutex aggregate_lock;

static void queue_update (SmprofJobPage *self);

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
  guint                generation;
} Request;

typedef struct
{
  GPtrArray     *selected;
  SmprofProfile *profile;
} Answer;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_clear_object (&request->job);
  g_clear_pointer (&request->node_ids, g_strfreev);
  g_clear_pointer (&request->explicit_records, g_ptr_array_unref);
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

static GPtrArray *
select_records (const Request *request)
{
  GPtrArray *records = smprof_job_get_records (request->job, request->profiler);
  GPtrArray *selected;
  GPtrArray *kept;

  if (request->explicit_records != NULL)
    return g_ptr_array_copy (request->explicit_records, NULL, NULL);

  selected = smprof_select (records, (const char * const *) request->node_ids, &request->selection);
  if (request->preset != SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES &&
      request->preset != SMPROF_JOB_PAGE_PRESET_REST_OF_STEP)
    return selected;

  kept = g_ptr_array_new ();
  for (guint i = 0; i < selected->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (selected, i);

      if (is_forward_pass (record) == (request->preset == SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES))
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
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&aggregate_lock);

  if (g_task_return_error_if_cancelled (task))
    return;

  answer->selected = select_records (request);
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

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
    return g_strdup_printf (_("step %" G_GINT64_FORMAT), first);

  /* Translators: a range of step numbers */
  return g_strdup_printf (_("steps %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT), first, last);
}

static char *
describe_nodes (GPtrArray *records)
{
  g_auto(GStrv) ids = dup_record_node_ids (records);
  guint n = g_strv_length (ids);
  g_autofree char *joined = NULL;

  if (n == 1)
    /* Translators: the one node aggregated */
    return g_strdup_printf (_("node %s"), ids[0]);

  if (n > 3)
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
      return;
    }

  n_read = self->profile != NULL ? smprof_profile_get_records (self->profile)->len : 0;

  g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", n_selected),
                                           n_selected));
  g_ptr_array_add (parts, describe_steps (self->selected_records));
  g_ptr_array_add (parts, describe_nodes (self->selected_records));

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
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), text);
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
        g_warning ("Could not aggregate the selection: %s", error->message);
      return;
    }

  g_clear_pointer (&self->selected_records, g_ptr_array_unref);
  self->selected_records = g_steal_pointer (&answer->selected);
  g_set_object (&self->profile, answer->profile);
  update_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

static const char * const *
current_node_ids (SmprofJobPage *self)
{
  return (const char * const *) (self->node_ids != NULL ? self->node_ids : self->all_node_ids);
}

static gboolean
start_update (gpointer data)
{
  SmprofJobPage *self = data;
  g_autoptr(GTask) task = NULL;
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
  request->generation = self->generation;

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
  if (self->explicit_records != NULL)
    {
      g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
      self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
    }

  self->syncing = TRUE;
  gtk_toggle_button_set_active (profiler == SMPROF_PROFILER_CPROFILE ? self->cprofile_button : self->pyinstrument_button,
                                TRUE);
  self->syncing = FALSE;

  update_header (self);
  update_node_model (self);
  update_step_range (self);
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
preset_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  int preset = g_variant_get_int32 (parameter);

  if (preset > SMPROF_JOB_PAGE_PRESET_NONE && preset <= SMPROF_JOB_PAGE_PRESET_STEPS &&
      gtk_widget_get_sensitive (GTK_WIDGET (row_for_preset (self, preset))))
    smprof_job_page_set_preset (self, preset);
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

  /* cProfile when there is any, as the command line does. */
  set_profiler_internal (self,
                         smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE) ||
                         !smprof_job_has_profiler (self->job, SMPROF_PROFILER_PYINSTRUMENT)
                         ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT);

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
  g_clear_handle_id (&self->update_source, g_source_remove);
  self->generation++;

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_JOB_PAGE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->node_model);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->selected_records, g_ptr_array_unref);
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
  g_clear_object (&self->job);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->dispose (object);
}

static void
smprof_job_page_finalize (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  g_clear_pointer (&self->node_ids, g_strfreev);

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
   * selected. Notified on the main thread whenever a new aggregate is ready;
   * the views bind to it.
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

  smprof_ui_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-job-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, job_name_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, job_summary_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, node_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, profiler_box);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, cprofile_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, pyinstrument_button);
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
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, views_stack);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, functions_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, call_tree_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, flame_graph_slot);
  gtk_widget_class_bind_template_callback (widget_class, preset_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_range_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, profiler_toggled_cb);

  gtk_widget_class_install_action (widget_class, "job-page.preset", "i", preset_action);
  for (int preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB; preset <= SMPROF_JOB_PAGE_PRESET_STEPS; preset++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + preset - SMPROF_JOB_PAGE_PRESET_WHOLE_JOB,
                                         GDK_ALT_MASK, "job-page.preset", "i", preset);
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
 * Switches profiler; the node choice goes back to all nodes, presets keep.
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
  if (self->preset != SMPROF_JOB_PAGE_PRESET_NONE)
    selection_for_preset (self, self->preset, &self->selection);
  sync_preset_row (self);
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

/**
 * smprof_job_page_set_node_ids:
 * @self: a job page
 * @node_ids: (nullable): the nodes to aggregate, one or several; %NULL for all
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
 * Selects the intervals of @preset on the chosen nodes.
 */
void
smprof_job_page_set_preset (SmprofJobPage       *self,
                            SmprofJobPagePreset  preset)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (preset > SMPROF_JOB_PAGE_PRESET_NONE && preset <= SMPROF_JOB_PAGE_PRESET_STEPS);

  self->preset = preset;
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
  selection_for_preset (self, preset, &self->selection);
  sync_preset_row (self);
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
 * smprof_job_page_select_records() it is meaningless. Use
 * smprof_job_page_get_selected_records() for the exact intervals.
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
 * @selection: a query, such as the timeline's %SMPROF_SELECT_OVERLAP range
 *
 * Selects the intervals of the chosen nodes that @selection matches; the
 * presets list shows no preset.
 */
void
smprof_job_page_set_selection (SmprofJobPage         *self,
                               const SmprofSelection *selection)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (selection != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  self->selection = *selection;
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
  sync_preset_row (self);
  queue_update (self);
}

/**
 * smprof_job_page_select_records:
 * @self: a job page
 * @records: (element-type SmprofRecord): records of the page's job and
 *   profiler, in record order (a click on the timeline, Shift to extend)
 *
 * Aggregates exactly @records, whatever the node choice.
 */
void
smprof_job_page_select_records (SmprofJobPage *self,
                                GPtrArray     *records)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (records != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
  self->explicit_records = g_ptr_array_copy (records, NULL, NULL);
  sync_preset_row (self);
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

gboolean
smprof_job_page_get_busy (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), FALSE);

  return self->busy;
}

/**
 * smprof_job_page_get_slot:
 * @self: a job page
 * @name: "timeline", "functions", "call-tree" or "flame-graph"
 *
 * The box a view goes in. It holds a placeholder label until a view is
 * appended; remove the placeholder first.
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
