/* smprof-function-table.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-function-item.h"
#include "smprof-function-table-private.h"
#include "smprof-item-cell.h"
#include "smprof-number-label.h"
#include "smprof-sparkline.h"
#include "smprof-ui.h"
#include "smprof-ui-format.h"

GParamSpec *_smprof_function_table_properties[N_PROPS];
#define properties _smprof_function_table_properties
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SmprofFunctionTable, smprof_function_table, GTK_TYPE_WIDGET)

static void
fill_edges (SmprofFunctionTable *self,
            GListStore          *store,
            GArray              *edges)
{
  /* No profile (an empty selection): no edges, and no job to ask. */
  SmprofFunctionKeys *table = self->profile != NULL ? smprof_job_get_function_keys (smprof_profile_get_job (self->profile))
                                                 : NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; table != NULL && edges != NULL && i < edges->len; i++)
    {
      const SmprofEdgeRow *edge = &g_array_index (edges, SmprofEdgeRow, i);

      g_ptr_array_add (items, smprof_function_item_new (table, edge->func, edge->ncalls, edge->ncalls,
                                                        edge->tottime, edge->cumtime));
    }

  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       items->pdata, items->len);
}

static void
update_edges (SmprofFunctionTable *self)
{
  guint32 func = smprof_function_table_get_selected_func (self);
  g_autoptr(GArray) callers = NULL;
  g_autoptr(GArray) callees = NULL;

  if (self->profile != NULL && func != SMPROF_FUNC_NONE)
    {
      callers = smprof_profile_dup_callers (self->profile, func);
      callees = smprof_profile_dup_callees (self->profile, func);
    }

  fill_edges (self, self->callers_store, callers);
  fill_edges (self, self->callees_store, callees);
}

static void
update_count (SmprofFunctionTable *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  guint total = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  g_autofree char *shown_text = smprof_ui_format_count (shown);
  g_autofree char *total_text = smprof_ui_format_count (total);
  g_autofree char *text = NULL;

  if (shown == total)
    /* Translators: the number of rows of the function table */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s function", "%s functions", total),
                            total_text);
  else
    /* Translators: rows shown by the filter, and all rows, as in "12 of 1,234 functions" */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s function", "%s of %s functions", total),
                            shown_text, total_text);

  gtk_label_set_label (self->count_label, text);
}

/* Callers and callees take room only while a function is chosen, and not
 * after the user closed them for that function. */
static void
update_related (SmprofFunctionTable *self)
{
  guint32 func = smprof_function_table_get_selected_func (self);

  if (func == SMPROF_FUNC_NONE)
    self->related_hidden_func = SMPROF_FUNC_NONE;
  gtk_widget_set_visible (self->related_box, func != SMPROF_FUNC_NONE && func != self->related_hidden_func);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "function-table.hide-related",
                                 gtk_widget_get_visible (self->related_box));
}

static void
hide_related_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SmprofFunctionTable *self = SMPROF_FUNCTION_TABLE (widget);

  self->related_hidden_func = smprof_function_table_get_selected_func (self);
  update_related (self);
}

static void
selection_changed_cb (SmprofFunctionTable *self)
{
  if (self->following_selection)
    return;

  update_related (self);
  update_edges (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_FUNC]);
}

static guint
find_func (GListModel *model,
           guint32     func)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);

      if (smprof_function_item_get_func (item) == func)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

/* The rows a frame takes in while a first answer's rows come in. GTK 4.8's
 * column view binds and measures up to 200 rows at once, visible or not:
 * showing a first answer's rows took one frame of 52-55 ms on a 256-node job
 * under Xvfb (under 30 ms for 50 rows). The first rows are in the first frame,
 * the next ones a frame's worth later, as the rows below the view fill in. */
#define ROWS_PER_FRAME 50

static gboolean
grow_shown_cb (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  SmprofFunctionTable *self = SMPROF_FUNCTION_TABLE (widget);
  guint size = gtk_slice_list_model_get_size (self->shown_slice);
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->shown_store));

  /* Tick callbacks run before the frame's layout: the first one comes in
   * the frame that lays out the first rows, and adds nothing. */
  if (!self->grow_started)
    {
      self->grow_started = TRUE;
      return G_SOURCE_CONTINUE;
    }

  if (size < n_rows - MIN (n_rows, ROWS_PER_FRAME))
    {
      gtk_slice_list_model_set_size (self->shown_slice, size + ROWS_PER_FRAME);
      return G_SOURCE_CONTINUE;
    }

  self->grow_tick = 0;
  gtk_slice_list_model_set_size (self->shown_slice, G_MAXUINT);

  return G_SOURCE_REMOVE;
}

/* Every row in the column view's model now: for whoever asks for one by
 * its position. */
void
_smprof_function_table_show_all_rows (SmprofFunctionTable *self)
{
  if (self->grow_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->grow_tick);
  self->grow_tick = 0;
  gtk_slice_list_model_set_size (self->shown_slice, G_MAXUINT);
}

/* The column view shows row objects of its own (shown_store), as many as
 * the filtered rows, and each takes the figures of the sorted row at its
 * position. A new answer or a new order then changes the texts of rows
 * that stay where they are. When the rows themselves were replaced and
 * sorted, GTK 4.8's column view made new cells for every row that moved
 * within the ~200 it keeps bound and measured them all: 50-70 ms of a
 * 256-node job's drag, in the frame that shows the answer. */
void
_smprof_function_table_show_sorted_rows (SmprofFunctionTable *self)
{
  GListModel *sorted = G_LIST_MODEL (self->sort_model);
  GListModel *shown = G_LIST_MODEL (self->shown_store);
  guint n_sorted = g_list_model_get_n_items (sorted);
  guint n_shown = g_list_model_get_n_items (shown);
  guint32 selected_func = smprof_function_table_get_selected_func (self);
  guint selected = GTK_INVALID_LIST_POSITION;

  self->n_shown_syncs++;
  for (guint i = 0; i < MIN (n_sorted, n_shown); i++)
    {
      g_autoptr(SmprofFunctionItem) row = g_list_model_get_item (sorted, i);
      g_autoptr(SmprofFunctionItem) shown_row = g_list_model_get_item (shown, i);

      smprof_function_item_assign (shown_row, row);
    }

  /* An empty table that shows: its rows come in over a few frames. */
  if (n_shown == 0 && n_sorted > ROWS_PER_FRAME && self->grow_tick == 0 &&
      gtk_widget_get_mapped (GTK_WIDGET (self->column_view)))
    {
      gtk_slice_list_model_set_size (self->shown_slice, ROWS_PER_FRAME);
      self->grow_started = FALSE;
      self->grow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), grow_shown_cb, NULL, NULL);
    }

  if (n_sorted > n_shown)
    {
      g_autoptr(GPtrArray) added = g_ptr_array_new_full (n_sorted - n_shown, g_object_unref);

      for (guint i = n_shown; i < n_sorted; i++)
        {
          g_autoptr(SmprofFunctionItem) row = g_list_model_get_item (sorted, i);

          g_ptr_array_add (added, smprof_function_item_copy (row));
        }
      g_list_store_splice (self->shown_store, n_shown, 0, added->pdata, added->len);
    }
  else if (n_sorted < n_shown)
    g_list_store_splice (self->shown_store, n_sorted, n_shown - n_sorted, NULL, 0);

  if (selected_func != SMPROF_FUNC_NONE)
    selected = find_func (shown, selected_func);
  if (selected != GTK_INVALID_LIST_POSITION &&
      selected >= g_list_model_get_n_items (G_LIST_MODEL (self->selection)))
    _smprof_function_table_show_all_rows (self);
  if (selected != gtk_single_selection_get_selected (self->selection))
    {
      /* the same function, elsewhere; gone, it is no longer selected */
      self->following_selection = selected != GTK_INVALID_LIST_POSITION;
      gtk_single_selection_set_selected (self->selection, selected);
      self->following_selection = FALSE;
    }
}

static void
filter_changed_cb (SmprofFunctionTable *self)
{
  if (self->syncing_entry)
    return;

  smprof_function_table_set_filter_text (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

static void
filter_stop_cb (SmprofFunctionTable *self)
{
  smprof_function_table_set_filter_text (self, NULL);
}

static void
activate_cb (SmprofFunctionTable *self,
             guint                position)
{
  g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

  if (item != NULL)
    g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, smprof_function_item_get_func (item));
}

/* Going to a caller or callee makes it the selected function, so the user can
 * walk up and down the call graph. */
static void
edge_activate_cb (SmprofFunctionTable *self,
                  guint                position,
                  GtkColumnView       *view)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, position);

  if (item != NULL)
    smprof_function_table_set_selected_func (self, smprof_function_item_get_func (item));
}

static void
callers_activate_cb (SmprofFunctionTable *self,
                     guint                position)
{
  edge_activate_cb (self, position, self->callers_view);
}

static void
callees_activate_cb (SmprofFunctionTable *self,
                     guint                position)
{
  edge_activate_cb (self, position, self->callees_view);
}

static void
focus_filter_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SmprofFunctionTable *self = SMPROF_FUNCTION_TABLE (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}

/* GTK 4.8 has no gtk_column_view_scroll_to(): ask its list view. */
static void
scroll_to_position (SmprofFunctionTable *self,
                    guint                position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LIST_VIEW (child))
        {
          gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
          break;
        }
    }
}

/* The cells are made in code: a builder factory parses its template for
 * every cell, and a first answer binds ~200 rows of them. */
static void
set_cell_factories (SmprofFunctionTable *self)
{
  static const char * const label_columns[] = { "label_column", "callers_label_column", "callees_label_column" };
  static const struct { const char *column; const char *property; } columns[] = {
    { "ncalls_column", "ncalls-text" },
    { "tottime_column", "tottime-text" },
    { "tottime_percall_column", "tottime-percall-text" },
    { "cumtime_column", "cumtime-text" },
    { "cumtime_percall_column", "cumtime-percall-text" },
    { "steps_column", "step-count-text" },
    { "step_min_column", "step-min-text" },
    { "step_median_column", "step-median-text" },
    { "step_p95_column", "step-p95-text" },
    { "step_max_column", "step-max-text" },
    { "callers_ncalls_column", "ncalls-text" },
    { "callers_tottime_column", "tottime-text" },
    { "callers_cumtime_column", "cumtime-text" },
    { "callees_ncalls_column", "ncalls-text" },
    { "callees_tottime_column", "tottime-text" },
    { "callees_cumtime_column", "cumtime-text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GObject *column = gtk_widget_get_template_child (GTK_WIDGET (self), SMPROF_TYPE_FUNCTION_TABLE, columns[i].column);
      g_autoptr(GtkListItemFactory) factory = smprof_number_label_factory_new (columns[i].property);

      gtk_column_view_column_set_factory (GTK_COLUMN_VIEW_COLUMN (column), factory);
    }

  for (guint i = 0; i < G_N_ELEMENTS (label_columns); i++)
    {
      GObject *column = gtk_widget_get_template_child (GTK_WIDGET (self), SMPROF_TYPE_FUNCTION_TABLE, label_columns[i]);
      g_autoptr(GtkListItemFactory) factory = smprof_item_cell_label_factory_new ("label");

      gtk_column_view_column_set_factory (GTK_COLUMN_VIEW_COLUMN (column), factory);
    }
}

static void
smprof_function_table_dispose (GObject *object)
{
  SmprofFunctionTable *self = SMPROF_FUNCTION_TABLE (object);
  GtkWidget *child;

  if (self->grow_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->grow_tick);
  self->grow_tick = 0;
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->filter_model != NULL)
    g_signal_handlers_disconnect_by_data (self->filter_model, self);
  if (self->sort_model != NULL)
    g_signal_handlers_disconnect_by_data (self->sort_model, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_FUNCTION_TABLE);
  /* Template children without a bound field are not unparented for us. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->profile);
  g_clear_pointer (&self->rows_by_func, g_hash_table_unref);
  g_clear_object (&self->rows_job);
  g_clear_pointer (&self->step_index, g_hash_table_unref);
  g_clear_pointer (&self->step_stats, smprof_step_stats_free);
  g_clear_pointer (&self->zero_series, g_array_unref);

  G_OBJECT_CLASS (smprof_function_table_parent_class)->dispose (object);
}

static void
smprof_function_table_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  SmprofFunctionTable *self = SMPROF_FUNCTION_TABLE (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, smprof_function_table_get_profile (self));
      break;

    case PROP_SELECTED_FUNC:
      g_value_set_uint (value, smprof_function_table_get_selected_func (self));
      break;

    case PROP_FILTER_TEXT:
      g_value_set_string (value, smprof_function_table_get_filter_text (self));
      break;

    case PROP_STEP_STATS:
      g_value_set_pointer (value, smprof_function_table_get_step_stats (self));
      break;

    case PROP_SHOW_STEP_COLUMNS:
      g_value_set_boolean (value, smprof_function_table_get_show_step_columns (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_function_table_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  SmprofFunctionTable *self = SMPROF_FUNCTION_TABLE (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      smprof_function_table_set_profile (self, g_value_get_object (value));
      break;

    case PROP_SELECTED_FUNC:
      smprof_function_table_set_selected_func (self, g_value_get_uint (value));
      break;

    case PROP_FILTER_TEXT:
      smprof_function_table_set_filter_text (self, g_value_get_string (value));
      break;

    case PROP_SHOW_STEP_COLUMNS:
      smprof_function_table_set_show_step_columns (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_function_table_class_init (SmprofFunctionTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_function_table_dispose;
  object_class->get_property = smprof_function_table_get_property;
  object_class->set_property = smprof_function_table_set_property;

  /**
   * SmprofFunctionTable:profile:
   *
   * The aggregated selection whose functions are listed.
   */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         SMPROF_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFunctionTable:selected-func:
   *
   * The function id (in the job's function table) of the selected row, or
   * `SMPROF_FUNC_NONE`. Its callers and callees are listed beside the table.
   */
  properties[PROP_SELECTED_FUNC] =
    g_param_spec_uint ("selected-func", NULL, NULL,
                       0, G_MAXUINT32, SMPROF_FUNC_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFunctionTable:filter-text:
   *
   * Rows whose `filename:lineno(function)` contains this text, ignoring case,
   * are shown; %NULL or empty shows every row.
   */
  properties[PROP_FILTER_TEXT] =
    g_param_spec_string ("filter-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFunctionTable:step-stats:
   *
   * The #SmprofStepStats of the listed selection, whose per-step columns
   * show; %NULL while there are none. Set with
   * smprof_function_table_set_step_stats().
   */
  properties[PROP_STEP_STATS] =
    g_param_spec_pointer ("step-stats", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFunctionTable:show-step-columns:
   *
   * Whether the per-step columns show. Hidden at first: six more columns
   * would squeeze the function names at a usual window width; the "Per Step"
   * button beside the filter shows them.
   */
  properties[PROP_SHOW_STEP_COLUMNS] =
    g_param_spec_boolean ("show-step-columns", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SmprofFunctionTable::function-activated:
   * @self: the table
   * @func: the function id
   *
   * A row was activated (double click or Enter).
   */
  signals[FUNCTION_ACTIVATED] =
    g_signal_new ("function-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  smprof_ui_ensure_resources ();
  g_type_ensure (SMPROF_TYPE_FUNCTION_ITEM);
  g_type_ensure (SMPROF_TYPE_SPARKLINE);
  g_type_ensure (SMPROF_TYPE_NUMBER_LABEL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-function-table.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, count_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, steps_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, note_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, column_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, selection);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, shown_store);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, shown_slice);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, sort_model);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, filter_model);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, string_filter);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, store);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callers_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callers_selection);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callers_selection_sort);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callers_store);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callees_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callees_selection);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callees_selection_sort);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callees_store);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, ncalls_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, tottime_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, tottime_percall_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, cumtime_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, cumtime_percall_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, label_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, steps_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, step_min_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, step_median_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, step_p95_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, step_max_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, per_step_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callers_cumtime_column);
  gtk_widget_class_bind_template_child_full (widget_class, "callers_tottime_column", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "callers_label_column", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "callees_label_column", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "callees_tottime_column", FALSE, 0);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callees_cumtime_column);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_stop_cb);

  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, related_box);
  gtk_widget_class_install_action (widget_class, "function-table.hide-related", NULL, hide_related_action);
  gtk_widget_class_install_action (widget_class, "functions.filter", NULL, focus_filter_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "functions.filter", NULL);
  _smprof_function_table_class_init_menu (widget_class);

  gtk_widget_class_set_css_name (widget_class, "smproffunctions");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
smprof_function_table_init (SmprofFunctionTable *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  _smprof_function_table_init_menu (self);

  self->rows_by_func = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->step_index = g_hash_table_new (NULL, NULL);
  set_cell_factories (self);

  gtk_sort_list_model_set_sorter (self->sort_model, gtk_column_view_get_sorter (self->column_view));
  gtk_sort_list_model_set_sorter (self->callers_selection_sort, gtk_column_view_get_sorter (self->callers_view));
  gtk_sort_list_model_set_sorter (self->callees_selection_sort, gtk_column_view_get_sorter (self->callees_view));

  /* pstats' and the command line's default order */
  gtk_column_view_sort_by_column (self->column_view, self->cumtime_column, GTK_SORT_DESCENDING);
  gtk_column_view_sort_by_column (self->callers_view, self->callers_cumtime_column, GTK_SORT_DESCENDING);
  gtk_column_view_sort_by_column (self->callees_view, self->callees_cumtime_column, GTK_SORT_DESCENDING);

  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (self->filter_model, "items-changed",
                            G_CALLBACK (update_count), self);
  g_signal_connect_swapped (self->sort_model, "items-changed",
                            G_CALLBACK (_smprof_function_table_show_sorted_rows), self);
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (activate_cb), self);
  g_signal_connect_swapped (self->callers_view, "activate", G_CALLBACK (callers_activate_cb), self);
  g_signal_connect_swapped (self->callees_view, "activate", G_CALLBACK (callees_activate_cb), self);

  gtk_search_entry_set_key_capture_widget (self->filter_entry, GTK_WIDGET (self->column_view));

  g_object_bind_property (self, "show-step-columns", self->steps_button, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  self->related_hidden_func = SMPROF_FUNC_NONE;
  update_related (self);
  update_count (self);
}

GtkWidget *
smprof_function_table_new (void)
{
  return g_object_new (SMPROF_TYPE_FUNCTION_TABLE, NULL);
}

SmprofProfile *
smprof_function_table_get_profile (SmprofFunctionTable *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), NULL);

  return self->profile;
}

/**
 * smprof_function_table_set_profile:
 * @self: a function table
 * @profile: (nullable): the profile to list
 *
 * Lists one row per function of @profile. The selection is cleared; the
 * filter and the sort order are kept.
 */
void
smprof_function_table_set_profile (SmprofFunctionTable *self,
                                   SmprofProfile       *profile)
{
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GHashTable) rows = NULL;
  guint n_syncs;

  g_return_if_fail (SMPROF_IS_FUNCTION_TABLE (self));
  g_return_if_fail (profile == NULL || SMPROF_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  items = g_ptr_array_new ();
  rows = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);

  if (profile != NULL)
    {
      SmprofJob *job = smprof_profile_get_job (profile);
      SmprofFunctionKeys *table = smprof_job_get_function_keys (job);
      guint n = smprof_profile_get_n_functions (profile);

      /* Function numbers are the job's own: rows of another job mean
       * other functions. */
      if (job != self->rows_job)
        {
          g_hash_table_remove_all (self->rows_by_func);
          g_set_object (&self->rows_job, job);
        }

      for (guint i = 0; i < n; i++)
        {
          const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);
          SmprofFunctionItem *item;

          if (g_hash_table_steal_extended (self->rows_by_func, GUINT_TO_POINTER (row->func),
                                           NULL, (gpointer *) &item))
            smprof_function_item_set_values (item, row->ncalls, row->pcalls, row->tottime, row->cumtime);
          else
            item = smprof_function_item_new (table, row->func, row->ncalls, row->pcalls,
                                             row->tottime, row->cumtime);
          _smprof_function_table_apply_steps (self, item, job);
          g_hash_table_insert (rows, GUINT_TO_POINTER (row->func), item);
          g_ptr_array_add (items, item);
        }
    }
  else
    g_clear_object (&self->rows_job);

  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  n_syncs = self->n_shown_syncs;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
  /* Rows kept from the last answer took new figures where they were: when
   * none moved, the sorted rows did not change for the sort model. */
  if (self->n_shown_syncs == n_syncs)
    _smprof_function_table_show_sorted_rows (self);
  /* the rows of functions this selection does not have go */
  g_clear_pointer (&self->rows_by_func, g_hash_table_unref);
  self->rows_by_func = g_steal_pointer (&rows);

  _smprof_function_table_update_count_columns (self);
  gtk_widget_set_visible (GTK_WIDGET (self->note_label),
                          profile != NULL && smprof_profile_get_profiler (profile) == SMPROF_PROFILER_PYINSTRUMENT);
  gtk_label_set_label (self->note_label,
                       _("Sampled by Pyinstrument: there are no call counts, and times come from the "
                         "merged call tree"));

  update_edges (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

guint32
smprof_function_table_get_selected_func (SmprofFunctionTable *self)
{
  SmprofFunctionItem *item;

  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), SMPROF_FUNC_NONE);

  item = gtk_single_selection_get_selected_item (self->selection);

  return item != NULL ? smprof_function_item_get_func (item) : SMPROF_FUNC_NONE;
}

/**
 * smprof_function_table_set_selected_func:
 * @self: a function table
 * @func: a function id, or `SMPROF_FUNC_NONE` to clear the selection
 *
 * Selects the row of @func and scrolls to it; the filter is cleared when
 * it hides that row.
 */
void
smprof_function_table_set_selected_func (SmprofFunctionTable *self,
                                         guint32              func)
{
  guint position = GTK_INVALID_LIST_POSITION;

  g_return_if_fail (SMPROF_IS_FUNCTION_TABLE (self));

  if (func != SMPROF_FUNC_NONE)
    {
      _smprof_function_table_show_all_rows (self);
      position = find_func (G_LIST_MODEL (self->selection), func);

      if (position == GTK_INVALID_LIST_POSITION &&
          find_func (G_LIST_MODEL (self->store), func) != GTK_INVALID_LIST_POSITION)
        {
          smprof_function_table_set_filter_text (self, NULL);
          position = find_func (G_LIST_MODEL (self->selection), func);
        }
    }

  if (position == gtk_single_selection_get_selected (self->selection))
    return;

  gtk_single_selection_set_selected (self->selection, position);
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to_position (self, position);
}

const char *
smprof_function_table_get_filter_text (SmprofFunctionTable *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), NULL);

  return gtk_string_filter_get_search (self->string_filter);
}

/**
 * smprof_function_table_set_filter_text:
 * @self: a function table
 * @text: (nullable): what `filename:lineno(function)` must contain
 *
 * Filters the rows now (the entry's own changes are debounced).
 */
void
smprof_function_table_set_filter_text (SmprofFunctionTable *self,
                                       const char          *text)
{
  g_return_if_fail (SMPROF_IS_FUNCTION_TABLE (self));

  if (text != NULL && text[0] == '\0')
    text = NULL;

  if (g_strcmp0 (text, gtk_string_filter_get_search (self->string_filter)) == 0)
    return;

  gtk_string_filter_set_search (self->string_filter, text);

  /* Replacing the entry's text passes through an empty entry, which
   * GtkSearchEntry reports at once: ignore the entry while it follows us. */
  if (g_strcmp0 (text != NULL ? text : "", gtk_editable_get_text (GTK_EDITABLE (self->filter_entry))) != 0)
    {
      self->syncing_entry = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text != NULL ? text : "");
      self->syncing_entry = FALSE;
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_TEXT]);
}

/**
 * smprof_function_table_sort_by:
 * @self: a function table
 * @column: "ncalls", "tottime", "tottime-percall", "cumtime",
 *   "cumtime-percall", "label", or per step "steps", "step-min",
 *   "step-median", "step-p95", "step-max" and "per-step" (the sparkline,
 *   by max − median)
 * @order: the direction
 *
 * Sorts the table as a click on that column's header would.
 */
void
smprof_function_table_sort_by (SmprofFunctionTable *self,
                               const char          *column,
                               GtkSortType          order)
{
  const struct { const char *name; GtkColumnViewColumn *column; } columns[] = {
    { "ncalls", self->ncalls_column },
    { "tottime", self->tottime_column },
    { "tottime-percall", self->tottime_percall_column },
    { "cumtime", self->cumtime_column },
    { "cumtime-percall", self->cumtime_percall_column },
    { "label", self->label_column },
    { "steps", self->steps_column },
    { "step-min", self->step_min_column },
    { "step-median", self->step_median_column },
    { "step-p95", self->step_p95_column },
    { "step-max", self->step_max_column },
    { "per-step", self->per_step_column },
  };

  g_return_if_fail (SMPROF_IS_FUNCTION_TABLE (self));
  g_return_if_fail (column != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      if (strcmp (columns[i].name, column) == 0)
        {
          gtk_column_view_sort_by_column (self->column_view, columns[i].column, order);
          return;
        }
    }

  g_critical ("No column named “%s” in the function table", column);
}

/**
 * smprof_function_table_get_model:
 * @self: a function table
 *
 * The rows as shown, all of them: rows of a first answer still coming in
 * (a frame's worth at a time) are all shown at once.
 *
 * Returns: (transfer none): the rows as shown (filtered and sorted), each a
 *   #SmprofFunctionItem
 */
GListModel *
smprof_function_table_get_model (SmprofFunctionTable *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), NULL);

  _smprof_function_table_show_all_rows (self);
  return G_LIST_MODEL (self->selection);
}

/**
 * smprof_function_table_get_callers_model:
 * @self: a function table
 *
 * Returns: (transfer none): the callers of the selected function, each a
 *   #SmprofFunctionItem whose times are those of the selected function when
 *   called from it
 */
GListModel *
smprof_function_table_get_callers_model (SmprofFunctionTable *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), NULL);

  return G_LIST_MODEL (self->callers_selection);
}

/**
 * smprof_function_table_get_callees_model:
 * @self: a function table
 *
 * Returns: (transfer none): the functions the selected function calls, each
 *   a #SmprofFunctionItem with the callee's times on those calls
 */
GListModel *
smprof_function_table_get_callees_model (SmprofFunctionTable *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), NULL);

  return G_LIST_MODEL (self->callees_selection);
}

/**
 * smprof_function_table_show_related:
 * @self: a function table
 * @func: a function id
 * @callees: %TRUE for what @func called, %FALSE for its callers
 *
 * Selects @func's row and opens its callers and callees, even if the user
 * closed them for that function, with the focus in the list asked for (the
 * function menus' Show Callers and Show Callees).
 *
 * Returns: whether the table has a row for @func
 */
gboolean
smprof_function_table_show_related (SmprofFunctionTable *self,
                                    guint32              func,
                                    gboolean             callees)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), FALSE);

  smprof_function_table_set_selected_func (self, func);
  if (func == SMPROF_FUNC_NONE || smprof_function_table_get_selected_func (self) != func)
    return FALSE;

  self->related_hidden_func = SMPROF_FUNC_NONE;
  update_related (self);
  gtk_widget_grab_focus (GTK_WIDGET (callees ? self->callees_view : self->callers_view));

  return TRUE;
}
