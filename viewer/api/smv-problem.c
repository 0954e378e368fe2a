/* smv-problem.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-viewer-api.h"

/**
 * SmvProblem:
 *
 * One thing a data source skipped while opening a document: a file or folder
 * it could not use, and why.
 *
 * The viewer lists a document's problems in a banner above its page. Problems
 * never stop a document from opening; an error that does is returned by
 * [method@Smv.DataSource.open_finish] instead.
 */
struct _SmvProblem
{
  GObject  parent_instance;

  char    *path;
  char    *message;
};

G_DEFINE_FINAL_TYPE (SmvProblem, smv_problem, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
smv_problem_finalize (GObject *object)
{
  SmvProblem *self = SMV_PROBLEM (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->message, g_free);

  G_OBJECT_CLASS (smv_problem_parent_class)->finalize (object);
}

static void
smv_problem_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SmvProblem *self = SMV_PROBLEM (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smv_problem_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SmvProblem *self = SMV_PROBLEM (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;

    case PROP_MESSAGE:
      self->message = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smv_problem_class_init (SmvProblemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = smv_problem_finalize;
  object_class->get_property = smv_problem_get_property;
  object_class->set_property = smv_problem_set_property;

  /**
   * SmvProblem:path:
   *
   * The file or folder that was skipped, as the user would name it (often
   * relative to the document's location).
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * SmvProblem:message:
   *
   * What is wrong with [property@Smv.Problem:path], for a person, translated.
   */
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smv_problem_init (SmvProblem *self)
{
}

/**
 * smv_problem_new:
 * @path: the file or folder that was skipped
 * @message: what is wrong with it, translated
 *
 * Returns: (transfer full): a new problem
 */
SmvProblem *
smv_problem_new (const char *path,
                 const char *message)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (message != NULL, NULL);

  return g_object_new (SMV_TYPE_PROBLEM,
                       "path", path,
                       "message", message,
                       NULL);
}

/**
 * smv_problem_get_path:
 * @self: a problem
 *
 * Returns: the file or folder that was skipped
 */
const char *
smv_problem_get_path (SmvProblem *self)
{
  g_return_val_if_fail (SMV_IS_PROBLEM (self), NULL);

  return self->path;
}

/**
 * smv_problem_get_message:
 * @self: a problem
 *
 * Returns: what is wrong with the path, for a person
 */
const char *
smv_problem_get_message (SmvProblem *self)
{
  g_return_val_if_fail (SMV_IS_PROBLEM (self), NULL);

  return self->message;
}
