/* smprof-profile.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-aggregate.h"
#include "smprof-estimated-tree.h"
#include "smprof-profile-private.h"
#include "smprof-transform.h"

struct _SmprofProfile
{
  GObject                parent_instance;

  SmprofJob             *job;
  SmprofProfiler         profiler;
  char                 **node_ids;
  GPtrArray             *records;     /* SmprofRecord, aggregated, in order */
  SmprofCprofileProfile *cprofile;    /* cProfile only, and not transformed */
  SmprofCallTree        *tree;
  GArray                *functions;   /* SmprofFunctionRow */
  double                 total_time;
  GPtrArray             *transforms;  /* SmprofTransform, applied in order */
  SmprofProfile         *upright;     /* an inverted profile's tree the right way up */
};

G_DEFINE_FINAL_TYPE (SmprofProfile, smprof_profile, G_TYPE_OBJECT)

static void
smprof_profile_finalize (GObject *object)
{
  SmprofProfile *self = SMPROF_PROFILE (object);

  g_clear_pointer (&self->tree, smprof_call_tree_free);
  g_clear_pointer (&self->transforms, g_ptr_array_unref);
  g_clear_object (&self->upright);
  g_clear_pointer (&self->cprofile, smprof_cprofile_profile_free);
  g_clear_pointer (&self->functions, g_array_unref);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_object (&self->job);

  G_OBJECT_CLASS (smprof_profile_parent_class)->finalize (object);
}

static void
smprof_profile_class_init (SmprofProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_profile_finalize;
}

static void
smprof_profile_init (SmprofProfile *self)
{
  self->functions = g_array_new (FALSE, FALSE, sizeof (SmprofFunctionRow));
  self->transforms = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_transform_unref);
}

/* A function's total in a sampled tree counts each stack once: a frame whose
 * function is already on the stack above it is inside that outer frame's time.
 * @counted: (nullable): rows whose call counts still hold, or %NULL. */
static void
build_rows_from_tree (SmprofProfile *self,
                      SmprofProfile *counted)
{
  guint n_nodes = smprof_call_tree_get_n_nodes (self->tree);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (self->tree);
  g_autoptr(GHashTable) row_of_func = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);

  for (guint i = 0; counted != NULL && i < counted->functions->len; i++)
    g_hash_table_insert (counts, GUINT_TO_POINTER (g_array_index (counted->functions, SmprofFunctionRow, i).func + 1),
                         &g_array_index (counted->functions, SmprofFunctionRow, i));

  for (guint32 i = 1; i < n_nodes; i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (self->tree, i);
      gpointer found = g_hash_table_lookup (row_of_func, GUINT_TO_POINTER (node->func + 1));
      SmprofFunctionRow *row;
      gboolean nested = FALSE;

      /* The frame of time an estimate could not place is not a function. */
      if (smprof_function_is_unattributed (table, node->func))
        continue;

      if (found == NULL)
        {
          const SmprofFunctionRow *before = g_hash_table_lookup (counts, GUINT_TO_POINTER (node->func + 1));
          SmprofFunctionRow fresh = { node->func, -1, -1, 0, 0 };

          if (before != NULL)
            {
              fresh.ncalls = before->ncalls;
              fresh.pcalls = before->pcalls;
            }

          g_array_append_val (self->functions, fresh);
          found = GUINT_TO_POINTER (self->functions->len);
          g_hash_table_insert (row_of_func, GUINT_TO_POINTER (node->func + 1), found);
        }

      for (guint32 up = node->parent; up != SMPROF_CALL_TREE_ROOT && !nested;
           up = smprof_call_tree_get_node (self->tree, up)->parent)
        nested = smprof_call_tree_get_node (self->tree, up)->func == node->func;

      row = &g_array_index (self->functions, SmprofFunctionRow, GPOINTER_TO_UINT (found) - 1);
      row->tottime += node->self;
      if (!nested)
        row->cumtime += node->total;
    }
}

/* Takes @cprofile: the function rows and the estimated tree come from it
 * alone, so the tree of a selection is the same however its stats were summed
 * (record by record here, by the range index's prefix sums in the viewer). */
static void
finish_cprofile (SmprofProfile         *self,
                 SmprofCprofileProfile *cprofile)
{
  self->cprofile = cprofile;
  self->tree = smprof_call_tree_new_estimated (cprofile);
  self->total_time = smprof_cprofile_profile_get_total_tt (self->cprofile);

  for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (self->cprofile); i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (self->cprofile, i);
      SmprofFunctionRow row = { entry->func, entry->nc, entry->cc, entry->tt, entry->ct };

      g_array_append_val (self->functions, row);
    }
}

/* Takes @tree, sorted: the function rows come from it. */
static void
finish_pyinstrument (SmprofProfile  *self,
                     SmprofCallTree *tree)
{
  self->tree = tree;
  self->total_time = smprof_call_tree_get_node (self->tree, SMPROF_CALL_TREE_ROOT)->total;
  build_rows_from_tree (self, NULL);
}

/**
 * smprof_profile_new:
 * @job: the job
 * @profiler: which profiler's records @records are
 * @node_ids: the nodes @records were selected from
 * @records: (element-type SmprofRecord): selected records whose stats are
 *   loaded (smprof_job_load_stats()), in record order
 *
 * Aggregates @records: the pstats merge and its estimated tree for cProfile,
 * the merged tree and a function table derived from it for Pyinstrument. This
 * does all the work at once; call it from a worker thread.
 *
 * Returns: (transfer full): the profile, immutable and safe to read from any thread
 */
SmprofProfile *
smprof_profile_new (SmprofJob          *job,
                    SmprofProfiler      profiler,
                    const char * const *node_ids,
                    GPtrArray          *records)
{
  SmprofProfile *self;

  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);
  g_return_val_if_fail (node_ids != NULL, NULL);
  g_return_val_if_fail (records != NULL, NULL);

  self = g_object_new (SMPROF_TYPE_PROFILE, NULL);
  self->job = g_object_ref (job);
  self->profiler = profiler;
  self->node_ids = g_strdupv ((char **) node_ids);
  self->records = smprof_aggregate_loaded (records);

  if (profiler == SMPROF_PROFILER_CPROFILE)
    finish_cprofile (self, smprof_aggregate_cprofile (job, self->records));
  else
    finish_pyinstrument (self, smprof_aggregate_pyinstrument (job, self->records));

  return self;
}

/*
 * _smprof_profile_new_summed:
 * @job: the job
 * @profiler: which profiler's records @records are
 * @node_ids: the nodes @records were selected from
 * @records: (transfer full) (element-type SmprofRecord): the loaded records
 *   that were summed, in record order
 * @cprofile: (transfer full) (nullable): their merged stats, for cProfile
 * @tree: (transfer full) (nullable): their merged tree, for Pyinstrument
 *
 * A profile of sums made elsewhere (the range index's), completed as
 * smprof_profile_new() completes its own.
 */
SmprofProfile *
_smprof_profile_new_summed (SmprofJob             *job,
                            SmprofProfiler         profiler,
                            const char * const    *node_ids,
                            GPtrArray             *records,
                            SmprofCprofileProfile *cprofile,
                            SmprofCallTree        *tree)
{
  SmprofProfile *self;

  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);
  g_return_val_if_fail ((profiler == SMPROF_PROFILER_CPROFILE) == (cprofile != NULL), NULL);
  g_return_val_if_fail ((profiler == SMPROF_PROFILER_PYINSTRUMENT) == (tree != NULL), NULL);

  self = g_object_new (SMPROF_TYPE_PROFILE, NULL);
  self->job = g_object_ref (job);
  self->profiler = profiler;
  self->node_ids = g_strdupv ((char **) node_ids);
  self->records = records;

  if (profiler == SMPROF_PROFILER_CPROFILE)
    finish_cprofile (self, cprofile);
  else
    finish_pyinstrument (self, tree);

  return self;
}

/**
 * smprof_profile_new_transformed:
 * @base: a profile, maybe transformed already
 * @transforms: (element-type SmprofTransform) (nullable): what to apply to
 *   @base's tree, in order
 * @inverted: whether the tree is to be read bottom-up
 *
 * The same selection, its call tree reshaped: each transform applies to the
 * tree the previous one left (those of @base first), and the inverted tree,
 * if asked for, is made from the result. The function table follows the
 * reshaped tree: self time summed over a function's frames, cumulative time
 * over its outermost ones; call counts stay where every call of the function
 * is still there (not after a focus), and are unknown (-1) otherwise. An
 * inverted profile's table, callers and callees are those of its tree the
 * right way up.
 *
 * Returns: (transfer full): the new profile
 */
SmprofProfile *
smprof_profile_new_transformed (SmprofProfile *base,
                                GPtrArray     *transforms,
                                gboolean       inverted)
{
  SmprofProfile *self;
  SmprofCallTree *tree;
  gboolean counts_hold = TRUE;

  g_return_val_if_fail (SMPROF_IS_PROFILE (base), NULL);

  if (base->upright != NULL)
    base = base->upright;

  if (transforms == NULL || transforms->len == 0)
    {
      if (!inverted)
        return g_object_ref (base);
    }

  self = g_object_new (SMPROF_TYPE_PROFILE, NULL);
  self->job = g_object_ref (base->job);
  self->profiler = base->profiler;
  self->node_ids = g_strdupv (base->node_ids);
  self->records = g_ptr_array_ref (base->records);

  for (guint i = 0; i < base->transforms->len; i++)
    g_ptr_array_add (self->transforms, smprof_transform_ref (g_ptr_array_index (base->transforms, i)));

  if (transforms != NULL && transforms->len > 0)
    {
      tree = smprof_transform_apply (g_ptr_array_index (transforms, 0), base->tree);
      for (guint i = 0; i < transforms->len; i++)
        {
          SmprofTransform *transform = g_ptr_array_index (transforms, i);

          if (i > 0)
            {
              SmprofCallTree *next = smprof_transform_apply (transform, tree);

              smprof_call_tree_free (tree);
              tree = next;
            }
          counts_hold &= !smprof_transform_changes_calls (transform);
          g_ptr_array_add (self->transforms, smprof_transform_ref (transform));
        }

      self->tree = tree;
      self->total_time = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->total;
      for (guint i = 0; i < base->transforms->len; i++)
        counts_hold &= !smprof_transform_changes_calls (g_ptr_array_index (base->transforms, i));
      build_rows_from_tree (self, counts_hold && base->profiler == SMPROF_PROFILER_CPROFILE ? base : NULL);
    }
  else
    {
      /* Inverting alone: the same rows and totals as @base. */
      self->tree = smprof_call_tree_new_inverted (base->tree);
      self->total_time = base->total_time;
      g_array_append_vals (self->functions, base->functions->data, base->functions->len);
      self->upright = g_object_ref (base);
      return self;
    }

  if (inverted)
    {
      SmprofProfile *upright = self;

      self = g_object_new (SMPROF_TYPE_PROFILE, NULL);
      self->job = g_object_ref (upright->job);
      self->profiler = upright->profiler;
      self->node_ids = g_strdupv (upright->node_ids);
      self->records = g_ptr_array_ref (upright->records);
      for (guint i = 0; i < upright->transforms->len; i++)
        g_ptr_array_add (self->transforms, smprof_transform_ref (g_ptr_array_index (upright->transforms, i)));
      self->tree = smprof_call_tree_new_inverted (upright->tree);
      self->total_time = upright->total_time;
      g_array_append_vals (self->functions, upright->functions->data, upright->functions->len);
      self->upright = upright;
    }

  return self;
}

/**
 * smprof_profile_get_transforms:
 * @self: a profile
 *
 * Returns: (transfer none) (element-type SmprofTransform): the transforms
 *   applied to the selection's tree, in order; empty for an aggregate
 */
GPtrArray *
smprof_profile_get_transforms (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return self->transforms;
}

/* Whether the call tree reads bottom-up: self time at the roots, callers below. */
gboolean
smprof_profile_is_inverted (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), FALSE);

  return self->upright != NULL;
}

/**
 * smprof_profile_get_upright:
 * @self: a profile
 *
 * Returns: (transfer none): the profile whose tree reads top-down: @self, or
 *   the one an inverted profile was made from
 */
SmprofProfile *
smprof_profile_get_upright (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return self->upright != NULL ? self->upright : self;
}

SmprofJob *
smprof_profile_get_job (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return self->job;
}

SmprofProfiler
smprof_profile_get_profiler (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

const char * const *
smprof_profile_get_node_ids (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return (const char * const *) self->node_ids;
}

/**
 * smprof_profile_get_records:
 * @self: a profile
 *
 * Returns: (transfer none) (element-type SmprofRecord): the records summed
 */
GPtrArray *
smprof_profile_get_records (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return self->records;
}

/* cProfile: pstats' total_tt; Pyinstrument: the sampled time of the roots. */
double
smprof_profile_get_total_time (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), 0);

  return self->total_time;
}

/* cProfile trees are estimated from the call graph; Pyinstrument's are sampled. */
gboolean
smprof_profile_is_estimated (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), FALSE);

  return self->profiler == SMPROF_PROFILER_CPROFILE;
}

SmprofCallTree *
smprof_profile_get_call_tree (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return self->tree;
}

/**
 * smprof_profile_get_cprofile:
 * @self: a profile
 *
 * Returns: (transfer none) (nullable): the merged pstats, for cProfile profiles
 */
SmprofCprofileProfile *
smprof_profile_get_cprofile (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return self->cprofile;
}

guint
smprof_profile_get_n_functions (SmprofProfile *self)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), 0);

  return self->functions->len;
}

const SmprofFunctionRow *
smprof_profile_get_function (SmprofProfile *self,
                             guint          index)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->functions->len, NULL);

  return &g_array_index (self->functions, SmprofFunctionRow, index);
}

static void
add_edge (GArray     *rows,
          GHashTable *index,
          guint32     func,
          gint64      ncalls,
          double      tottime,
          double      cumtime)
{
  gpointer found = g_hash_table_lookup (index, GUINT_TO_POINTER (func + 1));
  SmprofEdgeRow *row;

  if (found == NULL)
    {
      SmprofEdgeRow fresh = { func, ncalls < 0 ? -1 : 0, 0, 0 };

      g_array_append_val (rows, fresh);
      found = GUINT_TO_POINTER (rows->len);
      g_hash_table_insert (index, GUINT_TO_POINTER (func + 1), found);
    }

  row = &g_array_index (rows, SmprofEdgeRow, GPOINTER_TO_UINT (found) - 1);
  if (row->ncalls >= 0 && ncalls >= 0)
    row->ncalls += ncalls;
  row->tottime += tottime;
  row->cumtime += cumtime;
}

/* Callers (@up) or callees of @func, with the time spent in the callee. */
static GArray *
dup_edges (SmprofProfile *self,
           guint32        func,
           gboolean       up)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (SmprofEdgeRow));
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);

  if (self->cprofile != NULL)
    {
      for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (self->cprofile); i++)
        {
          const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (self->cprofile, i);

          if (up && entry->func != func)
            continue;

          for (guint c = 0; c < entry->callers->len; c++)
            {
              const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);

              if (up)
                add_edge (rows, index, caller->caller, caller->nc, caller->tt, caller->ct);
              else if (caller->caller == func)
                add_edge (rows, index, entry->func, caller->nc, caller->tt, caller->ct);
            }
        }
    }
  else
    {
      for (guint32 i = 1; i < smprof_call_tree_get_n_nodes (self->tree); i++)
        {
          const SmprofCallTreeNode *node = smprof_call_tree_get_node (self->tree, i);
          const SmprofCallTreeNode *parent;

          if (node->parent == SMPROF_CALL_TREE_ROOT)
            continue;

          parent = smprof_call_tree_get_node (self->tree, node->parent);
          if (up && node->func == func)
            add_edge (rows, index, parent->func, -1, node->self, node->total);
          else if (!up && parent->func == func)
            add_edge (rows, index, node->func, -1, node->self, node->total);
        }
    }

  return rows;
}

/**
 * smprof_profile_dup_callers:
 * @self: a profile
 * @func: a function id
 *
 * Returns: (transfer full) (element-type SmprofEdgeRow): who called @func, with
 *   the time spent in @func on those calls
 */
GArray *
smprof_profile_dup_callers (SmprofProfile *self,
                            guint32        func)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return dup_edges (smprof_profile_get_upright (self), func, TRUE);
}

/**
 * smprof_profile_dup_callees:
 * @self: a profile
 * @func: a function id
 *
 * Returns: (transfer full) (element-type SmprofEdgeRow): what @func called, with
 *   the time spent in each callee on those calls
 */
GArray *
smprof_profile_dup_callees (SmprofProfile *self,
                            guint32        func)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (self), NULL);

  return dup_edges (smprof_profile_get_upright (self), func, FALSE);
}
