/* smv-progress.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-viewer-api.h"

/**
 * SmvProgress:
 *
 * How far a data source got opening a document: a fraction and a short text
 * the viewer shows in its progress bar while
 * [method@Smv.DataSource.open_async] runs.
 *
 * The properties belong to the thread whose thread-default main context was
 * current when the object was created (the viewer's main thread): set them
 * there with [method@Smv.Progress.set_fraction] and
 * [method@Smv.Progress.set_text], or from any thread with
 * [method@Smv.Progress.report], which hands the update to that context.
 */
struct _SmvProgress
{
  GObject       parent_instance;

  GMainContext *context;
  double        fraction;
  char         *text;
};

G_DEFINE_FINAL_TYPE (SmvProgress, smv_progress, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FRACTION,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
smv_progress_finalize (GObject *object)
{
  SmvProgress *self = SMV_PROGRESS (object);

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (smv_progress_parent_class)->finalize (object);
}

static void
smv_progress_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SmvProgress *self = SMV_PROGRESS (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, smv_progress_get_fraction (self));
      break;

    case PROP_TEXT:
      g_value_set_string (value, smv_progress_get_text (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smv_progress_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SmvProgress *self = SMV_PROGRESS (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      smv_progress_set_fraction (self, g_value_get_double (value));
      break;

    case PROP_TEXT:
      smv_progress_set_text (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smv_progress_class_init (SmvProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = smv_progress_finalize;
  object_class->get_property = smv_progress_get_property;
  object_class->set_property = smv_progress_set_property;

  /**
   * SmvProgress:fraction:
   *
   * The part of the work done, from 0 to 1, or a negative number while the
   * amount of work is unknown (the viewer then pulses its progress bar).
   */
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL,
                         -1.0, 1.0, -1.0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmvProgress:text:
   *
   * What is being done, for a person, translated; or %NULL.
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smv_progress_init (SmvProgress *self)
{
  self->fraction = -1.0;
  self->context = g_main_context_ref_thread_default ();
}

/**
 * smv_progress_new:
 *
 * Creates a progress report owned by the calling thread's thread-default main
 * context.
 *
 * Returns: (transfer full): a new progress report, with an unknown fraction
 */
SmvProgress *
smv_progress_new (void)
{
  return g_object_new (SMV_TYPE_PROGRESS, NULL);
}

/**
 * smv_progress_get_fraction:
 * @self: a progress report
 *
 * Returns: the part of the work done, from 0 to 1, or a negative number if unknown
 */
double
smv_progress_get_fraction (SmvProgress *self)
{
  g_return_val_if_fail (SMV_IS_PROGRESS (self), -1.0);

  return self->fraction;
}

/**
 * smv_progress_set_fraction:
 * @self: a progress report
 * @fraction: from 0 to 1, or a negative number if unknown
 *
 * Sets [property@Smv.Progress:fraction]. Call it from the thread that owns
 * @self; from a worker thread, use [method@Smv.Progress.report].
 */
void
smv_progress_set_fraction (SmvProgress *self,
                           double       fraction)
{
  g_return_if_fail (SMV_IS_PROGRESS (self));

  if (fraction < 0)
    fraction = -1.0;
  else if (fraction > 1)
    fraction = 1.0;

  if (fraction != self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
}

/**
 * smv_progress_get_text:
 * @self: a progress report
 *
 * Returns: (nullable): what is being done
 */
const char *
smv_progress_get_text (SmvProgress *self)
{
  g_return_val_if_fail (SMV_IS_PROGRESS (self), NULL);

  return self->text;
}

/**
 * smv_progress_set_text:
 * @self: a progress report
 * @text: (nullable): what is being done, translated
 *
 * Sets [property@Smv.Progress:text]. Call it from the thread that owns
 * @self; from a worker thread, use [method@Smv.Progress.report].
 */
void
smv_progress_set_text (SmvProgress *self,
                       const char  *text)
{
  g_return_if_fail (SMV_IS_PROGRESS (self));

  if (g_strcmp0 (text, self->text) != 0)
    {
      g_free (self->text);
      self->text = g_strdup (text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
    }
}

typedef struct
{
  SmvProgress *self;
  double       fraction;
  char        *text;
} Report;

static void
report_free (gpointer data)
{
  Report *report = data;

  g_clear_object (&report->self);
  g_clear_pointer (&report->text, g_free);
  g_free (report);
}

static gboolean
report_in_owner (gpointer data)
{
  Report *report = data;

  g_object_freeze_notify (G_OBJECT (report->self));
  smv_progress_set_fraction (report->self, report->fraction);
  smv_progress_set_text (report->self, report->text);
  g_object_thaw_notify (G_OBJECT (report->self));

  return G_SOURCE_REMOVE;
}

/**
 * smv_progress_report:
 * @self: a progress report
 * @fraction: from 0 to 1, or a negative number if unknown
 * @text: (nullable): what is being done, translated
 *
 * Sets both properties, from any thread. When called from another thread than
 * the owner's, the change happens later, in the owner's main context, in the
 * order the reports were made.
 */
void
smv_progress_report (SmvProgress *self,
                     double       fraction,
                     const char  *text)
{
  Report *report;

  g_return_if_fail (SMV_IS_PROGRESS (self));

  report = g_new0 (Report, 1);
  report->self = g_object_ref (self);
  report->fraction = fraction;
  report->text = g_strdup (text);

  g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, report_in_owner, report, report_free);
}
