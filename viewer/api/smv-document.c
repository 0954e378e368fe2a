/* smv-document.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-viewer-api.h"

/**
 * SmvDocument:
 *
 * What a data source opened: the base class of the objects
 * [method@Smv.DataSource.open_finish] returns.
 *
 * The viewer shows [property@Smv.Document:title] and
 * [property@Smv.Document:subtitle] in its header bar, lists
 * [property@Smv.Document:problems] in a banner (and keeps the banner in step
 * when the data source adds problems later, for example while reading files
 * a selection needs), and hands the document back to
 * [method@Smv.DataSource.create_page] for the widget it shows.
 *
 * A document is used from the main thread only.
 */
typedef struct
{
  GFile      *location;
  char       *title;
  char       *subtitle;
  GListStore *problems;
} SmvDocumentPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (SmvDocument, smv_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LOCATION,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_PROBLEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
smv_document_dispose (GObject *object)
{
  SmvDocument *self = SMV_DOCUMENT (object);
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_clear_object (&priv->location);
  g_clear_object (&priv->problems);

  G_OBJECT_CLASS (smv_document_parent_class)->dispose (object);
}

static void
smv_document_finalize (GObject *object)
{
  SmvDocument *self = SMV_DOCUMENT (object);
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_clear_pointer (&priv->title, g_free);
  g_clear_pointer (&priv->subtitle, g_free);

  G_OBJECT_CLASS (smv_document_parent_class)->finalize (object);
}

static void
smv_document_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SmvDocument *self = SMV_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_LOCATION:
      g_value_set_object (value, smv_document_get_location (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, smv_document_get_title (self));
      break;

    case PROP_SUBTITLE:
      g_value_set_string (value, smv_document_get_subtitle (self));
      break;

    case PROP_PROBLEMS:
      g_value_set_object (value, smv_document_get_problems (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smv_document_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SmvDocument *self = SMV_DOCUMENT (object);
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_LOCATION:
      priv->location = g_value_dup_object (value);
      break;

    case PROP_TITLE:
      smv_document_set_title (self, g_value_get_string (value));
      break;

    case PROP_SUBTITLE:
      smv_document_set_subtitle (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smv_document_class_init (SmvDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = smv_document_dispose;
  object_class->finalize = smv_document_finalize;
  object_class->get_property = smv_document_get_property;
  object_class->set_property = smv_document_set_property;

  /**
   * SmvDocument:location:
   *
   * What was opened: a local folder, or a URI such as `sftp://host/job/`.
   */
  properties[PROP_LOCATION] =
    g_param_spec_object ("location", NULL, NULL,
                         G_TYPE_FILE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * SmvDocument:title:
   *
   * A short name for the document, such as a job name.
   */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmvDocument:subtitle:
   *
   * One line about what the document holds, such as "2 nodes · 82 intervals".
   */
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmvDocument:problems:
   *
   * The [class@Smv.Problem]s found so far, in the order they were found. The
   * list only grows.
   */
  properties[PROP_PROBLEMS] =
    g_param_spec_object ("problems", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smv_document_init (SmvDocument *self)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  priv->problems = g_list_store_new (SMV_TYPE_PROBLEM);
}

/**
 * smv_document_get_location:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): what was opened
 */
GFile *
smv_document_get_location (SmvDocument *self)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_return_val_if_fail (SMV_IS_DOCUMENT (self), NULL);

  return priv->location;
}

/**
 * smv_document_get_title:
 * @self: a document
 *
 * Returns: (nullable): a short name for the document
 */
const char *
smv_document_get_title (SmvDocument *self)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_return_val_if_fail (SMV_IS_DOCUMENT (self), NULL);

  return priv->title;
}

/**
 * smv_document_set_title:
 * @self: a document
 * @title: (nullable): a short name for the document
 */
void
smv_document_set_title (SmvDocument *self,
                        const char  *title)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_return_if_fail (SMV_IS_DOCUMENT (self));

  if (g_strcmp0 (title, priv->title) != 0)
    {
      g_free (priv->title);
      priv->title = g_strdup (title);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
}

/**
 * smv_document_get_subtitle:
 * @self: a document
 *
 * Returns: (nullable): one line about what the document holds
 */
const char *
smv_document_get_subtitle (SmvDocument *self)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_return_val_if_fail (SMV_IS_DOCUMENT (self), NULL);

  return priv->subtitle;
}

/**
 * smv_document_set_subtitle:
 * @self: a document
 * @subtitle: (nullable): one line about what the document holds
 */
void
smv_document_set_subtitle (SmvDocument *self,
                           const char  *subtitle)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_return_if_fail (SMV_IS_DOCUMENT (self));

  if (g_strcmp0 (subtitle, priv->subtitle) != 0)
    {
      g_free (priv->subtitle);
      priv->subtitle = g_strdup (subtitle);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
    }
}

/**
 * smv_document_get_problems:
 * @self: a document
 *
 * Returns: (transfer none): a list of [class@Smv.Problem], which grows as
 *   problems are found
 */
GListModel *
smv_document_get_problems (SmvDocument *self)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_return_val_if_fail (SMV_IS_DOCUMENT (self), NULL);

  return G_LIST_MODEL (priv->problems);
}

/**
 * smv_document_add_problem:
 * @self: a document
 * @path: the file or folder that was skipped
 * @message: what is wrong with it, translated
 *
 * Appends a problem to [property@Smv.Document:problems]. Call it from the main
 * thread; the viewer updates its banner.
 */
void
smv_document_add_problem (SmvDocument *self,
                          const char  *path,
                          const char  *message)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);
  g_autoptr(SmvProblem) problem = NULL;

  g_return_if_fail (SMV_IS_DOCUMENT (self));

  problem = smv_problem_new (path, message);
  g_list_store_append (priv->problems, problem);
}

/**
 * smv_document_clear_problems:
 * @self: a document
 *
 * Empties [property@Smv.Document:problems], for a data source that read its
 * data again (a job listed anew finds its problems anew). Call it from the
 * main thread.
 */
void
smv_document_clear_problems (SmvDocument *self)
{
  SmvDocumentPrivate *priv = smv_document_get_instance_private (self);

  g_return_if_fail (SMV_IS_DOCUMENT (self));

  g_list_store_remove_all (priv->problems);
}
