/* smprof-sagemaker-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-background.h"
#include "smprof-job-page.h"
#include "smprof-local-source.h"
#include "smprof-s3-source.h"
#include "smprof-sagemaker-document.h"
#include "smprof-sagemaker-preferences.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-layout.h"
#include "smprof-ui-settings.h"

/* Opens a job folder (the one holding framework/, or any folder below it down
 * to framework/<framework>/<profiler>) or an s3:// prefix. The worker thread lists the job and builds the index;
 * open_finish() and create_page() run on the main thread. Stats files are
 * read later, by the page, for what each selection needs. */
struct _SmprofSagemakerSource
{
  GObject parent_instance;
};

static void data_source_iface_init (SmvDataSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SmprofSagemakerSource, smprof_sagemaker_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMV_TYPE_DATA_SOURCE, data_source_iface_init))

/* The S3 source reports its listing (and the framework timelines' few
 * files) to the loading bar while the job opens; stats files are read later,
 * by the page, which says how far it is itself: after the open, the
 * source's reports go nowhere. */
typedef struct
{
  SmvProgress      *report;
  GMutex            lock;         /* the source's workers call back */
  gboolean          opened;
} S3Report;

static void
s3_report_free (gpointer data)
{
  S3Report *s3_report = data;

  g_clear_object (&s3_report->report);
  g_mutex_clear (&s3_report->lock);
  g_free (s3_report);
}

typedef struct
{
  GFile                 *location;
  SmvProgress           *progress;
  SmprofS3SourceOptions  s3_options;  /* from the settings, read on the main thread */
  S3Report              *s3_report;   /* owned by the job's S3 source */
} OpenData;

static void
open_data_free (gpointer data)
{
  OpenData *open = data;

  g_clear_object (&open->location);
  g_clear_object (&open->progress);
  g_free (open);
}

static char *
smprof_sagemaker_source_dup_name (SmvDataSource *source)
{
  return g_strdup (_("SageMaker Debugger profiles"));
}

static SmvDataSourceFlags
smprof_sagemaker_source_get_flags (SmvDataSource *source)
{
  return SMV_DATA_SOURCE_FLAGS_LOCAL_FOLDERS;
}

static const char * const *
smprof_sagemaker_source_get_uri_schemes (SmvDataSource *source)
{
  static const char * const schemes[] = { "s3", NULL };

  return schemes;
}

/* From the location's form alone, on the main thread while the user types:
 * any local path (whether it is a job is found on the worker thread, which
 * says what a job folder holds when it is not), or an s3:// URI. */
static gboolean
smprof_sagemaker_source_can_open (SmvDataSource *source,
                                  GFile         *location)
{
  g_autofree char *uri = NULL;

  if (g_file_is_native (location))
    return TRUE;

  uri = g_file_get_uri (location);

  return smprof_source_text_is_s3_uri (uri);
}

/* What a job folder holds, for the user who opened something else. */
static const char *
job_layout_hint (void)
{
  return _("A SageMaker Debugger job folder holds framework/, then one folder per framework, "
           "profiler and node, then one per interval: for example "
           "framework/pytorch/cprofile/0-algo-1/train-0-stepstart-…_train-0-stepend-…/python_stats "
           "(cProfile) or …/pyinstrument/0-algo-1/…/python_stats.json (Pyinstrument). "
           "Open the folder that holds framework/, or a folder below it.");
}

/* @location is a folder but no job: the core's reason, then the layout. */
static GError *
not_a_job_error (GFile      *location,
                 const char *reason)
{
  g_autofree char *name = g_file_get_parse_name (location);

  /* Translators: a folder, why it is not a job, then what a job folder holds */
  return g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” is not a job folder: %s %s"),
                      name, reason, job_layout_hint ());
}

static void
s3_progress_cb (SmprofS3Source         *source,
                const SmprofS3Progress *progress,
                gpointer                user_data)
{
  S3Report *s3_report = user_data;
  g_autofree char *text = NULL;
  gboolean opened;

  g_mutex_lock (&s3_report->lock);
  opened = s3_report->opened;
  g_mutex_unlock (&s3_report->lock);
  if (opened)
    return;

  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Listing S3: %llu stats file found",
                                       "Listing S3: %llu stats files found",
                                       progress->objects_listed),
                          (unsigned long long) progress->objects_listed);
  smv_progress_report (s3_report->report, -1, text);
}

static SmprofSource *
create_job_source (OpenData  *open,
                   GError   **error)
{
  g_autofree char *uri = NULL;
  SmprofSource *source;

  if (g_file_is_native (open->location))
    {
      g_autofree char *path = g_file_get_path (open->location);

      return smprof_local_source_new (path, error);
    }

  uri = g_file_get_uri (open->location);
  source = smprof_s3_source_new (uri, &open->s3_options, error);
  if (source != NULL)
    {
      open->s3_report = g_new0 (S3Report, 1);
      open->s3_report->report = g_object_ref (open->progress);
      g_mutex_init (&open->s3_report->lock);
      smprof_s3_source_set_progress_func (SMPROF_S3_SOURCE (source), s3_progress_cb,
                                          open->s3_report, s3_report_free);
    }

  return source;
}

static void
open_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  OpenData *open = task_data;
  g_autoptr(SmprofSource) job_source = NULL;
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *done = NULL;
  guint n_records = 0;

  smv_progress_report (open->progress, -1, _("Listing the job's intervals…"));

  job_source = create_job_source (open, &error);
  if (job_source == NULL)
    {
      /* A folder without framework/ (the core says so): tell what a job
       * folder holds. A missing path or a file keeps the core's message. */
      if (g_file_is_native (open->location) && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) &&
          g_file_query_file_type (open->location, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY)
        {
          g_task_return_error (task, not_a_job_error (open->location,
                                                      _("it holds no framework/ folder, and is not inside one.")));
          return;
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The index and every step of every node, for the timeline, as a live
   * refresh opens it again (smprof_job_open()). */
  job = smprof_job_open (job_source, NULL, NULL, cancellable, &error);
  if (job == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A local job's parsed stats are kept for the next opening, unless
   * SMPROF_NO_CACHE=1 (smprof_index_cache_new_default()). An S3 job's files
   * are in the S3 cache already. */
  if (SMPROF_IS_LOCAL_SOURCE (job_source))
    {
      g_autoptr(SmprofIndexCache) index_cache = smprof_index_cache_new_default ();

      if (index_cache != NULL)
        smprof_job_set_index_cache (job, index_cache);
    }

  /* No stats file is read here, on S3 either: the page shows the timeline
   * from the listing and reads what its selection needs first. */
  if (open->s3_report != NULL)
    {
      g_mutex_lock (&open->s3_report->lock);
      open->s3_report->opened = TRUE;
      g_mutex_unlock (&open->s3_report->lock);
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    n_records += smprof_job_get_records (job, p)->len;

  if (n_records == 0)
    {
      g_task_return_error (task, not_a_job_error (open->location,
                                                  _("it holds no cProfile or Pyinstrument interval folder "
                                                    "that could be used.")));
      return;
    }

  /* What the page asks for first, made here rather than on the main thread:
   * each is a pass over every record (51,200 on a 256-node job); the job
   * keeps them. */
  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    if (smprof_job_get_records (job, p)->len > 0)
      {
        g_object_unref (smprof_timeline_layout_dup_for_job (job, p));
        g_strfreev (smprof_job_dup_node_ids (job, p));
      }

  done = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Indexed %u interval", "Indexed %u intervals", n_records),
                          n_records);
  smv_progress_report (open->progress, 1.0, done);

  g_task_return_pointer (task, g_steal_pointer (&job), g_object_unref);
}

static void
smprof_sagemaker_source_open_async (SmvDataSource       *source,
                                    GFile               *location,
                                    SmvProgress         *progress,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GSettings) s3_settings = smprof_ui_settings_new ("s3");
  OpenData *open;

  task = g_task_new (source, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_sagemaker_source_open_async);

  open = g_new0 (OpenData, 1);
  open->location = g_object_ref (location);
  open->progress = g_object_ref (progress);
  /* read here: GSettings belongs to the main thread */
  smprof_ui_settings_get_s3_options (s3_settings, &open->s3_options);
  g_task_set_task_data (task, open, open_data_free);

  smv_progress_set_fraction (progress, 0.0);
  smv_progress_set_text (progress, _("Starting…"));

  smprof_task_run_awaited (task, open_in_thread);
}

static SmvDocument *
smprof_sagemaker_source_open_finish (SmvDataSource  *source,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  OpenData *open;
  g_autoptr(SmprofJob) job = NULL;

  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  open = g_task_get_task_data (G_TASK (result));
  job = g_task_propagate_pointer (G_TASK (result), error);
  if (job == NULL)
    return NULL;

  return SMV_DOCUMENT (smprof_sagemaker_document_new (open->location, job));
}

static void
page_job_changed_cb (SmprofJobPage           *page,
                     GParamSpec              *pspec,
                     SmprofSagemakerDocument *document)
{
  smprof_sagemaker_document_set_job (document, smprof_job_page_get_job (page));
}

static GtkWidget *
smprof_sagemaker_source_create_page (SmvDataSource *source,
                                     SmvDocument   *document)
{
  SmprofSagemakerDocument *self = SMPROF_SAGEMAKER_DOCUMENT (document);
  GtkWidget *page = smprof_job_page_new (smprof_sagemaker_document_get_job (self));

  /* Reading stats files for a selection can find unreadable ones. */
  g_signal_connect_object (page, "notify::profile",
                           G_CALLBACK (smprof_sagemaker_document_sync_problems),
                           document, G_CONNECT_SWAPPED);
  /* A live refresh gives the page a job listed anew. */
  g_signal_connect_object (page, "notify::job", G_CALLBACK (page_job_changed_cb), document, 0);

  return page;
}

static AdwPreferencesPage *
smprof_sagemaker_source_create_preferences_page (SmvDataSource *source)
{
  return smprof_sagemaker_preferences_new ();
}

/* The job page's keys, for the viewer's shortcuts window. */
static GtkShortcutsSection *
smprof_sagemaker_source_create_shortcuts_section (SmvDataSource *source)
{
  g_autoptr(GtkBuilder) builder = NULL;

  builder = gtk_builder_new_from_resource ("/io/github/smprof/Viewer/plugins/sagemaker/smprof-sagemaker-shortcuts.ui");

  return g_object_ref (GTK_SHORTCUTS_SECTION (gtk_builder_get_object (builder, "shortcuts_section")));
}

static void
data_source_iface_init (SmvDataSourceInterface *iface)
{
  iface->dup_name = smprof_sagemaker_source_dup_name;
  iface->get_flags = smprof_sagemaker_source_get_flags;
  iface->get_uri_schemes = smprof_sagemaker_source_get_uri_schemes;
  iface->can_open = smprof_sagemaker_source_can_open;
  iface->open_async = smprof_sagemaker_source_open_async;
  iface->open_finish = smprof_sagemaker_source_open_finish;
  iface->create_page = smprof_sagemaker_source_create_page;
  iface->create_preferences_page = smprof_sagemaker_source_create_preferences_page;
  iface->create_shortcuts_section = smprof_sagemaker_source_create_shortcuts_section;
}

static void
smprof_sagemaker_source_class_init (SmprofSagemakerSourceClass *klass)
{
}

static void
smprof_sagemaker_source_init (SmprofSagemakerSource *self)
{
}
