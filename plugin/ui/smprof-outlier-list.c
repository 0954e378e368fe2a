/* smprof-outlier-list.c: the outlier steps ranked by score, and the threshold that flags them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-outlier-item.h"
#include "smprof-outlier-list.h"

/* The job page's Ranking popover: the steps the stats flag, as outliers
 * against their node's steps or as stragglers against the other nodes, the
 * one that stands out most first (smprof_step_stats_dup_ranking(), the
 * order of `smprof outliers`), and the threshold of the rule. The list does
 * not flag anything itself: the threshold is a property the page binds to
 * the session's, which gives stats flagged again. Activating a row (Enter,
 * double-click) emits SmprofOutlierList::step-activated with the step's
 * index in the stats last given. */

struct _SmprofOutlierList
{
  GtkWidget       parent_instance;

  GtkAdjustment  *threshold_adjustment;
  GtkSpinButton  *threshold_spin;
  GtkLabel       *count_label;
  GtkColumnView  *column_view;
  GtkSingleSelection *selection;
  GListStore     *store;

  /* Rows for the store, waiting for the list to show */
  GPtrArray      *pending_rows;
};

enum {
  PROP_0,
  PROP_THRESHOLD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static guint step_activated_signal;

G_DEFINE_FINAL_TYPE (SmprofOutlierList, smprof_outlier_list, GTK_TYPE_WIDGET)

static void
row_activated_cb (SmprofOutlierList *self,
                  guint              position,
                  GtkColumnView     *column_view)
{
  g_autoptr(SmprofOutlierItem) item = g_list_model_get_item (G_LIST_MODEL (self->store), position);

  if (item != NULL)
    g_signal_emit (self, step_activated_signal, 0, smprof_outlier_item_get_index (item));
}

static void
threshold_changed_cb (SmprofOutlierList *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THRESHOLD]);
}

static void
smprof_outlier_list_dispose (GObject *object)
{
  GtkWidget *child;

  g_clear_pointer (&SMPROF_OUTLIER_LIST (object)->pending_rows, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), SMPROF_TYPE_OUTLIER_LIST);
  /* Template children without a bound field are not unparented for us. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (smprof_outlier_list_parent_class)->dispose (object);
}

static void
smprof_outlier_list_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SmprofOutlierList *self = SMPROF_OUTLIER_LIST (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD:
      g_value_set_double (value, smprof_outlier_list_get_threshold (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_outlier_list_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SmprofOutlierList *self = SMPROF_OUTLIER_LIST (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD:
      smprof_outlier_list_set_threshold (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The list lives in a popover that is closed most of the time, and a big
 * job's stats flag hundreds of steps: GTK 4.8's column view makes the cells
 * of ~200 rows even while nothing shows them, 25-60 ms of the main loop at
 * 256 nodes. Rows that come while the list is hidden wait until it shows,
 * or until someone asks for the model. */
static void
list_pending_rows (SmprofOutlierList *self)
{
  g_autoptr(GPtrArray) rows = g_steal_pointer (&self->pending_rows);

  if (rows != NULL)
    g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                         rows->pdata, rows->len);
}

static void
smprof_outlier_list_map (GtkWidget *widget)
{
  list_pending_rows (SMPROF_OUTLIER_LIST (widget));

  GTK_WIDGET_CLASS (smprof_outlier_list_parent_class)->map (widget);
}

static void
smprof_outlier_list_class_init (SmprofOutlierListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_outlier_list_dispose;
  object_class->get_property = smprof_outlier_list_get_property;
  object_class->set_property = smprof_outlier_list_set_property;
  widget_class->map = smprof_outlier_list_map;

  /* SmprofOutlierList:threshold: the spin button's value; it keeps to 2 to 20 */
  properties[PROP_THRESHOLD] =
    g_param_spec_double ("threshold", NULL, NULL, 0.0, G_MAXDOUBLE, SMPROF_STEP_OUTLIER_THRESHOLD,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SmprofOutlierList::step-activated:
   * @list: the list
   * @step: the row's step index in the stats
   *
   * A row was activated (Enter, double-click).
   */
  step_activated_signal =
    g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  g_type_ensure (SMPROF_TYPE_OUTLIER_ITEM);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-outlier-list.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofOutlierList, threshold_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofOutlierList, threshold_spin);
  gtk_widget_class_bind_template_child (widget_class, SmprofOutlierList, count_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofOutlierList, column_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofOutlierList, selection);
  gtk_widget_class_bind_template_child (widget_class, SmprofOutlierList, store);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
smprof_outlier_list_init (SmprofOutlierList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_adjustment_set_value (self->threshold_adjustment, SMPROF_STEP_OUTLIER_THRESHOLD);
  g_signal_connect_object (self->threshold_adjustment, "value-changed", G_CALLBACK (threshold_changed_cb), self,
                           G_CONNECT_SWAPPED);
  smprof_outlier_list_set_stats (self, NULL);
}

GtkWidget *
smprof_outlier_list_new (void)
{
  return g_object_new (SMPROF_TYPE_OUTLIER_LIST, NULL);
}

/**
 * smprof_outlier_list_set_stats:
 * @self: a list
 * @stats: (nullable): per-step statistics, flagged with the threshold shown
 *
 * Lists the steps @stats flags, ranked. The rows copy what they show.
 */
void
smprof_outlier_list_set_stats (SmprofOutlierList *self,
                               SmprofStepStats   *stats)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *count = NULL;

  g_return_if_fail (SMPROF_IS_OUTLIER_LIST (self));

  if (stats != NULL)
    {
      g_autoptr(GArray) ranking = smprof_step_stats_dup_ranking (stats, TRUE);

      for (guint r = 0; r < ranking->len; r++)
        g_ptr_array_add (items, smprof_outlier_item_new (stats, g_array_index (ranking, guint, r)));
    }

  g_clear_pointer (&self->pending_rows, g_ptr_array_unref);
  self->pending_rows = g_ptr_array_ref (items);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    list_pending_rows (self);

  if (stats == NULL)
    count = g_strdup (_("No statistics yet"));
  else if (items->len == 0)
    count = g_strdup (_("No step stands out at this threshold"));
  else
    /* Translators: the outlier list's count: slow steps and stragglers together */
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step flagged", "%u steps flagged", items->len),
                             items->len);
  gtk_label_set_label (self->count_label, count);
}

double
smprof_outlier_list_get_threshold (SmprofOutlierList *self)
{
  g_return_val_if_fail (SMPROF_IS_OUTLIER_LIST (self), SMPROF_STEP_OUTLIER_THRESHOLD);

  return gtk_adjustment_get_value (self->threshold_adjustment);
}

void
smprof_outlier_list_set_threshold (SmprofOutlierList *self,
                                   double             threshold)
{
  g_return_if_fail (SMPROF_IS_OUTLIER_LIST (self));

  /* The adjustment notifies through threshold_changed_cb when it changes. */
  gtk_adjustment_set_value (self->threshold_adjustment, threshold);
}

/**
 * smprof_outlier_list_focus_rows:
 * @self: a list
 *
 * Gives the keyboard to the rows (the selected one), when there are any.
 */
void
smprof_outlier_list_focus_rows (SmprofOutlierList *self)
{
  g_return_if_fail (SMPROF_IS_OUTLIER_LIST (self));

  if (g_list_model_get_n_items (G_LIST_MODEL (self->store)) > 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

/**
 * smprof_outlier_list_get_model:
 * @self: a list
 *
 * Returns: (transfer none): the rows, #SmprofOutlierItem, as shown (or as
 *   the list will show them: rows waiting for it to show are listed now)
 */
GListModel *
smprof_outlier_list_get_model (SmprofOutlierList *self)
{
  g_return_val_if_fail (SMPROF_IS_OUTLIER_LIST (self), NULL);

  list_pending_rows (self);

  return G_LIST_MODEL (self->store);
}
