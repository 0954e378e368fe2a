/* smprof-sagemaker-document.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-sagemaker-document.h"
#include "smprof-ui-format.h"

/* The job, plus what the viewer shows about it: a title, a one-line summary,
 * and the job's problems, copied into the document's list as they appear
 * (indexing finds some; reading stats files for a selection finds more). */
struct _SmprofSagemakerDocument
{
  SmvDocument  parent_instance;

  SmprofJob   *job;
  guint        n_synced;   /* job problems already copied */
};

G_DEFINE_FINAL_TYPE (SmprofSagemakerDocument, smprof_sagemaker_document, SMV_TYPE_DOCUMENT)

static void
smprof_sagemaker_document_dispose (GObject *object)
{
  SmprofSagemakerDocument *self = SMPROF_SAGEMAKER_DOCUMENT (object);

  g_clear_object (&self->job);

  G_OBJECT_CLASS (smprof_sagemaker_document_parent_class)->dispose (object);
}

static void
smprof_sagemaker_document_class_init (SmprofSagemakerDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = smprof_sagemaker_document_dispose;
}

static void
smprof_sagemaker_document_init (SmprofSagemakerDocument *self)
{
}

static char *
dup_title (GFile *location)
{
  g_autofree char *basename = g_file_get_basename (location);

  if (basename == NULL || basename[0] == '\0' || g_str_equal (basename, "/"))
    return g_file_get_parse_name (location);

  return g_steal_pointer (&basename);
}

static char *
dup_summary (SmprofJob *job)
{
  g_autoptr(GHashTable) nodes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *node_text = NULL;
  g_autofree char *interval_text = NULL;
  g_autofree char *count_text = NULL;
  guint n_intervals = 0;

  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      g_auto(GStrv) ids = smprof_job_dup_node_ids (job, p);

      for (guint i = 0; ids[i] != NULL; i++)
        g_hash_table_add (nodes, g_strdup (ids[i]));
      n_intervals += smprof_job_get_records (job, p)->len;
    }

  node_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", g_hash_table_size (nodes)),
                               g_hash_table_size (nodes));
  count_text = smprof_ui_format_count (n_intervals);
  interval_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s interval", "%s intervals", n_intervals),
                                   count_text);

  /* Translators: "2 nodes · 82 intervals" */
  return g_strdup_printf (_("%s · %s"), node_text, interval_text);
}

/**
 * smprof_sagemaker_document_new:
 * @location: what the user opened
 * @job: the job, indexed
 *
 * Returns: (transfer full): the document, with the problems found so far
 */
SmprofSagemakerDocument *
smprof_sagemaker_document_new (GFile     *location,
                               SmprofJob *job)
{
  SmprofSagemakerDocument *self;
  g_autofree char *title = NULL;
  g_autofree char *summary = NULL;

  g_return_val_if_fail (G_IS_FILE (location), NULL);
  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);

  title = dup_title (location);
  summary = dup_summary (job);

  self = g_object_new (SMPROF_TYPE_SAGEMAKER_DOCUMENT,
                       "location", location,
                       "title", title,
                       "subtitle", summary,
                       NULL);
  self->job = g_object_ref (job);
  smprof_sagemaker_document_sync_problems (self);

  return self;
}

/**
 * smprof_sagemaker_document_get_job:
 * @self: a document
 *
 * Returns: (transfer none): the job
 */
SmprofJob *
smprof_sagemaker_document_get_job (SmprofSagemakerDocument *self)
{
  g_return_val_if_fail (SMPROF_IS_SAGEMAKER_DOCUMENT (self), NULL);

  return self->job;
}

/**
 * smprof_sagemaker_document_set_job:
 * @self: a document
 * @job: the job listed again (a live refresh)
 *
 * The document describes @job from now on: its summary, and its problems
 * instead of the earlier job's (a folder that had no stats file yet may have
 * one now; one that did not change is found again).
 */
void
smprof_sagemaker_document_set_job (SmprofSagemakerDocument *self,
                                   SmprofJob               *job)
{
  g_autofree char *summary = NULL;

  g_return_if_fail (SMPROF_IS_SAGEMAKER_DOCUMENT (self));
  g_return_if_fail (SMPROF_IS_JOB (job));

  if (!g_set_object (&self->job, job))
    return;

  summary = dup_summary (job);
  smv_document_set_subtitle (SMV_DOCUMENT (self), summary);

  smv_document_clear_problems (SMV_DOCUMENT (self));
  self->n_synced = 0;
  smprof_sagemaker_document_sync_problems (self);
}

/**
 * smprof_sagemaker_document_sync_problems:
 * @self: a document
 *
 * Copies the job's new problems into the document, on the main thread.
 */
void
smprof_sagemaker_document_sync_problems (SmprofSagemakerDocument *self)
{
  g_autoptr(GPtrArray) problems = NULL;

  g_return_if_fail (SMPROF_IS_SAGEMAKER_DOCUMENT (self));

  problems = smprof_job_dup_problems (self->job);
  for (guint i = self->n_synced; i < problems->len; i++)
    {
      const SmprofProblem *problem = g_ptr_array_index (problems, i);

      smv_document_add_problem (SMV_DOCUMENT (self), problem->path, problem->message);
    }
  self->n_synced = MAX (self->n_synced, problems->len);
}
