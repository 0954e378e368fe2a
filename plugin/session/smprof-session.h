/* smprof-session.h: what one job page shows, without a widget: the job, the
 * profiler, the nodes, the selection and its aggregate, the comparison and
 * the per-step statistics
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-diff.h"
#include "smprof-job.h"
#include "smprof-profile.h"
#include "smprof-query.h"
#include "smprof-range-index.h"
#include "smprof-step-stats.h"
#include "smprof-transform.h"

G_BEGIN_DECLS

/**
 * SmprofPreset:
 * @SMPROF_PRESET_NONE: the selection came from elsewhere (the timeline,
 *   smprof_session_set_selection(), smprof_session_select_records())
 * @SMPROF_PRESET_WHOLE_JOB: every interval
 * @SMPROF_PRESET_INITIALIZATION: intervals starting at phase `start`
 * @SMPROF_PRESET_TRAINING_LOOP: neither initialization nor finalization
 * @SMPROF_PRESET_FINALIZATION: the other intervals ending at phase `end`
 * @SMPROF_PRESET_FORWARD_PASSES: training-loop intervals from step start to
 *   forward pass end
 * @SMPROF_PRESET_REST_OF_STEP: the training loop without the forward passes
 * @SMPROF_PRESET_STEPS: steps N to M of the job's step mode (TRAIN, or
 *   GLOBAL for jobs that only have that), smdebug's by-step rule (step start
 *   to step end)
 * @SMPROF_PRESET_BETWEEN_MODES: intervals from one mode to another,
 *   smdebug's fetch_profile_stats_between_modes
 */
typedef enum
{
  SMPROF_PRESET_NONE,
  SMPROF_PRESET_WHOLE_JOB,
  SMPROF_PRESET_INITIALIZATION,
  SMPROF_PRESET_TRAINING_LOOP,
  SMPROF_PRESET_FINALIZATION,
  SMPROF_PRESET_FORWARD_PASSES,
  SMPROF_PRESET_REST_OF_STEP,
  SMPROF_PRESET_STEPS,
  SMPROF_PRESET_BETWEEN_MODES,
} SmprofPreset;

#define SMPROF_PRESET_LAST SMPROF_PRESET_BETWEEN_MODES

#define SMPROF_TYPE_PRESET (smprof_preset_get_type ())
GType smprof_preset_get_type (void) G_GNUC_CONST;

#define SMPROF_TYPE_SESSION (smprof_session_get_type ())

G_DECLARE_FINAL_TYPE (SmprofSession, smprof_session, SMPROF, SESSION, GObject)

SmprofSession         *smprof_session_new                  (SmprofJob              *job);
void                   smprof_session_cancel               (SmprofSession          *self);

/* The job and what is chosen in it */
SmprofJob             *smprof_session_get_job              (SmprofSession          *self);
SmprofProfiler         smprof_session_get_profiler         (SmprofSession          *self);
void                   smprof_session_set_profiler         (SmprofSession          *self,
                                                            SmprofProfiler          profiler);
const char * const    *smprof_session_get_all_node_ids     (SmprofSession          *self);
const char * const    *smprof_session_get_chosen_node_ids  (SmprofSession          *self);
const char * const    *smprof_session_get_node_ids         (SmprofSession          *self);
void                   smprof_session_set_node_ids         (SmprofSession          *self,
                                                            const char * const     *node_ids);
double                 smprof_session_get_origin_us        (SmprofSession          *self);

/* The selection */
SmprofPreset           smprof_session_get_preset           (SmprofSession          *self);
void                   smprof_session_set_preset           (SmprofSession          *self,
                                                            SmprofPreset            preset);
gboolean               smprof_session_preset_available     (SmprofSession          *self,
                                                            SmprofPreset            preset);
SmprofMode             smprof_session_get_step_mode        (SmprofSession          *self);
gboolean               smprof_session_get_step_bounds      (SmprofSession          *self,
                                                            gint64                 *lowest,
                                                            gint64                 *highest);
void                   smprof_session_get_step_range       (SmprofSession          *self,
                                                            gint64                 *first_step,
                                                            gint64                 *last_step);
void                   smprof_session_set_step_range       (SmprofSession          *self,
                                                            gint64                  first_step,
                                                            gint64                  last_step);
GArray                *smprof_session_get_pair_modes       (SmprofSession          *self);
void                   smprof_session_get_mode_pair        (SmprofSession          *self,
                                                            SmprofMode             *start_mode,
                                                            SmprofMode             *end_mode);
void                   smprof_session_set_mode_pair        (SmprofSession          *self,
                                                            SmprofMode              start_mode,
                                                            SmprofMode              end_mode);
const SmprofSelection *smprof_session_get_selection        (SmprofSession          *self);
void                   smprof_session_set_selection        (SmprofSession          *self,
                                                            const SmprofSelection  *selection);
void                   smprof_session_select_range         (SmprofSession          *self,
                                                            const SmprofSelection  *query,
                                                            const char * const     *node_ids,
                                                            GPtrArray              *records);
void                   smprof_session_select_records       (SmprofSession          *self,
                                                            GPtrArray              *records);
GPtrArray             *smprof_session_get_explicit_records (SmprofSession          *self);
GPtrArray             *smprof_session_dup_selection_records (SmprofSession         *self);

/* The answer: the aggregate of the selection */
gboolean               smprof_session_get_busy             (SmprofSession          *self);
guint                  smprof_session_get_files_to_read    (SmprofSession          *self);
guint                  smprof_session_get_files_read       (SmprofSession          *self);
SmprofProfile         *smprof_session_get_profile          (SmprofSession          *self);
GPtrArray             *smprof_session_get_selected_records (SmprofSession          *self);
const char * const    *smprof_session_get_selected_node_ids (SmprofSession         *self);
const char            *smprof_session_get_selected_steps   (SmprofSession          *self);
const char            *smprof_session_get_description      (SmprofSession          *self);
const char            *smprof_session_get_slug             (SmprofSession          *self);
gboolean               smprof_session_get_from_range_index (SmprofSession          *self);
SmprofRangeIndex      *smprof_session_get_range_index      (SmprofSession          *self);
void                   smprof_session_wait_async           (SmprofSession          *self,
                                                            GCancellable           *cancellable,
                                                            GAsyncReadyCallback     callback,
                                                            gpointer                user_data);
SmprofProfile         *smprof_session_wait_finish          (SmprofSession          *self,
                                                            GAsyncResult           *result,
                                                            GError                **error);

/* Time per step: of the selection (only while wanted), and of the whole job */
gboolean               smprof_session_get_want_step_stats  (SmprofSession          *self);
void                   smprof_session_set_want_step_stats  (SmprofSession          *self,
                                                            gboolean                want);
SmprofStepStats       *smprof_session_get_step_stats       (SmprofSession          *self);
SmprofStepStats       *smprof_session_get_job_step_stats   (SmprofSession          *self);
double                 smprof_session_get_outlier_threshold (SmprofSession         *self);
void                   smprof_session_set_outlier_threshold (SmprofSession         *self,
                                                            double                 threshold);
gboolean               smprof_session_get_finding_outliers (SmprofSession          *self);

/* Comparing two selections: A, then B (the answers that follow) */
gboolean               smprof_session_get_comparing        (SmprofSession          *self);
gboolean               smprof_session_get_compare_waiting  (SmprofSession          *self);
gboolean               smprof_session_compare_current      (SmprofSession          *self);
void                   smprof_session_compare_records      (SmprofSession          *self,
                                                            GPtrArray              *a_records,
                                                            const char             *a_label,
                                                            GPtrArray              *b_records,
                                                            const char             *b_label);
gboolean               smprof_session_compare_outlier      (SmprofSession          *self,
                                                            guint                   step);
gboolean               smprof_session_compare_node         (SmprofSession          *self,
                                                            const char             *node_id);
void                   smprof_session_swap_comparison      (SmprofSession          *self);
void                   smprof_session_close_comparison     (SmprofSession          *self);
SmprofDiffNormalize    smprof_session_get_compare_normalize (SmprofSession         *self);
void                   smprof_session_set_compare_normalize (SmprofSession         *self,
                                                            SmprofDiffNormalize     normalize);
SmprofDiff            *smprof_session_get_diff             (SmprofSession          *self);
SmprofProfile         *smprof_session_get_compare_profile  (SmprofSession          *self,
                                                            SmprofDiffSide          side);
GPtrArray             *smprof_session_get_compare_records  (SmprofSession          *self,
                                                            SmprofDiffSide          side);
const char            *smprof_session_get_compare_label    (SmprofSession          *self,
                                                            SmprofDiffSide          side);
const char            *smprof_session_get_compare_status   (SmprofSession          *self);

/* Reshaping the call tree: transforms applied in order (a breadcrumb) */
GPtrArray             *smprof_session_get_transforms       (SmprofSession          *self);
void                   smprof_session_push_transform       (SmprofSession          *self,
                                                            SmprofTransform        *transform);
gboolean               smprof_session_pop_transform        (SmprofSession          *self);
void                   smprof_session_truncate_transforms  (SmprofSession          *self,
                                                            guint                   n_transforms);
void                   smprof_session_clear_transforms     (SmprofSession          *self);
gboolean               smprof_session_get_hide_libraries   (SmprofSession          *self);
void                   smprof_session_set_hide_libraries   (SmprofSession          *self,
                                                            gboolean                hide);
SmprofProfile         *smprof_session_get_view_profile     (SmprofSession          *self);
char                  *smprof_session_describe_transform   (SmprofSession          *self,
                                                            guint                   index);
char                 **smprof_session_dup_transform_options (SmprofSession         *self);
char                  *smprof_session_dup_command_line     (SmprofSession          *self,
                                                            const char             *command,
                                                            const char             *output);

/* A job still training: list it again */
void                   smprof_session_swap_job             (SmprofSession          *self,
                                                            SmprofJob              *job);
void                   smprof_session_refresh_async        (SmprofSession          *self,
                                                            GCancellable           *cancellable,
                                                            GAsyncReadyCallback     callback,
                                                            gpointer                user_data);
gboolean               smprof_session_refresh_finish       (SmprofSession          *self,
                                                            GAsyncResult           *result,
                                                            GError                **error);

const char            *smprof_mode_get_label               (SmprofMode              mode);
char                  *smprof_session_describe_step        (const SmprofStep       *step);
char                  *smprof_session_describe_steps       (GPtrArray              *records);
char                 **smprof_records_dup_node_ids         (GPtrArray              *records);

G_END_DECLS
