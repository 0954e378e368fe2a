/* smprof-cprofile-profile.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-cprofile-profile-private.h"
#include "smprof-u64-map.h"

struct _SmprofCprofileProfile
{
  SmprofFunctionKeys *table;
  GArray             *entries;       /* SmprofProfileEntry, in merged dict order */
  GArray             *entry_of_func; /* func id -> entry index + 1, 0 when absent */
  /* (entry << 32 | caller func) -> the caller's slot in the entry's callers.
   * A whole job's add() looks up every caller edge of every interval,
   * millions of them: no allocation per key. */
  SmprofU64Map        caller_slots;
  gint64              total_calls;
  gint64              prim_calls;
  double              total_tt;
};

static void
clear_entry (gpointer data)
{
  SmprofProfileEntry *entry = data;

  g_clear_pointer (&entry->callers, g_array_unref);
}

SmprofCprofileProfile *
smprof_cprofile_profile_new (SmprofFunctionKeys *table)
{
  SmprofCprofileProfile *self = g_new0 (SmprofCprofileProfile, 1);

  self->table = table;
  self->entries = g_array_new (FALSE, TRUE, sizeof (SmprofProfileEntry));
  g_array_set_clear_func (self->entries, clear_entry);
  self->entry_of_func = g_array_new (FALSE, TRUE, sizeof (guint32));
  smprof_u64_map_init (&self->caller_slots, 128);

  return self;
}

void
smprof_cprofile_profile_free (SmprofCprofileProfile *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->entries);
  g_array_unref (self->entry_of_func);
  smprof_u64_map_clear (&self->caller_slots);
  g_free (self);
}

static SmprofProfileEntry *
ensure_entry (SmprofCprofileProfile *self,
              guint32                func,
              guint                  n_callers,
              guint32               *index)
{
  guint32 *slot;

  if (func >= self->entry_of_func->len)
    g_array_set_size (self->entry_of_func, MAX (func + 1, self->entry_of_func->len * 2));

  slot = &g_array_index (self->entry_of_func, guint32, func);
  if (*slot == 0)
    {
      SmprofProfileEntry entry = { func, 0, 0, 0, 0,
                                   g_array_sized_new (FALSE, FALSE, sizeof (SmprofCallerStat), n_callers) };

      g_array_append_val (self->entries, entry);
      *slot = self->entries->len;
    }

  *index = *slot - 1;
  return &g_array_index (self->entries, SmprofProfileEntry, *index);
}

/**
 * smprof_cprofile_profile_add:
 * @self: a profile
 * @stats: one interval's stats
 *
 * pstats.Stats.add() of one file: totals add the file's own totals; each
 * function's counts and times add; callers merge, new ones appended in the
 * file's order. Adding files in smdebug's record order gives smdebug's floats.
 */
void
smprof_cprofile_profile_add (SmprofCprofileProfile *self,
                             const SmprofPstats    *stats)
{
  self->total_calls += stats->total_calls;
  self->prim_calls += stats->prim_calls;
  self->total_tt += stats->total_tt;

  for (guint i = 0; i < stats->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &stats->funcs[i];
      guint32 index;
      SmprofProfileEntry *entry = ensure_entry (self, stat->func, stat->n_callers, &index);

      entry->cc += stat->cc;
      entry->nc += stat->nc;
      entry->tt += stat->tt;
      entry->ct += stat->ct;

      for (guint c = 0; c < stat->n_callers; c++)
        {
          const SmprofCallerStat *caller = &stats->callers[stat->first_caller + c];
          guint64 key = ((guint64) index << 32) | caller->caller;
          guint32 found = smprof_u64_map_lookup_or_insert (&self->caller_slots, key, entry->callers->len);

          if (found == SMPROF_U64_MAP_NONE)
            g_array_append_val (entry->callers, *caller);
          else
            {
              SmprofCallerStat *merged = &g_array_index (entry->callers, SmprofCallerStat, found);

              merged->nc += caller->nc;
              merged->cc += caller->cc;
              merged->tt += caller->tt;
              merged->ct += caller->ct;
            }
        }
    }
}

/* Builders for profiles summed some other way than add(), such as the range
 * index's prefix sums. They keep the profile as add() would leave it. */
void
_smprof_cprofile_profile_reserve (SmprofCprofileProfile *self,
                                  guint                  n_entries,
                                  guint                  n_callers,
                                  guint                  n_funcs)
{
  g_return_if_fail (self->entries->len == 0);

  g_array_unref (self->entries);
  self->entries = g_array_sized_new (FALSE, TRUE, sizeof (SmprofProfileEntry), n_entries);
  g_array_set_clear_func (self->entries, clear_entry);
  g_array_set_size (self->entry_of_func, MAX (self->entry_of_func->len, n_funcs));

  smprof_u64_map_clear (&self->caller_slots);
  smprof_u64_map_init (&self->caller_slots, MAX (128, n_callers + 1));
}

guint
_smprof_cprofile_profile_append_entry (SmprofCprofileProfile *self,
                                       guint32                func,
                                       guint                  n_callers,
                                       gint64                 cc,
                                       gint64                 nc,
                                       double                 tt,
                                       double                 ct)
{
  guint32 index;
  SmprofProfileEntry *entry = ensure_entry (self, func, n_callers, &index);

  g_return_val_if_fail (entry->callers->len == 0 && entry->nc == 0 && entry->cc == 0, index);

  entry->cc = cc;
  entry->nc = nc;
  entry->tt = tt;
  entry->ct = ct;

  return index;
}

void
_smprof_cprofile_profile_append_caller (SmprofCprofileProfile  *self,
                                        guint                   entry_index,
                                        const SmprofCallerStat *caller)
{
  SmprofProfileEntry *entry;
  guint64 key;

  g_return_if_fail (entry_index < self->entries->len);

  entry = &g_array_index (self->entries, SmprofProfileEntry, entry_index);
  key = ((guint64) entry_index << 32) | caller->caller;
  g_return_if_fail (smprof_u64_map_lookup (&self->caller_slots, key) == SMPROF_U64_MAP_NONE);

  smprof_u64_map_insert (&self->caller_slots, key, entry->callers->len);
  g_array_append_val (entry->callers, *caller);
}

void
_smprof_cprofile_profile_set_totals (SmprofCprofileProfile *self,
                                     gint64                 total_calls,
                                     gint64                 prim_calls,
                                     double                 total_tt)
{
  self->total_calls = total_calls;
  self->prim_calls = prim_calls;
  self->total_tt = total_tt;
}

guint
smprof_cprofile_profile_get_n_entries (SmprofCprofileProfile *self)
{
  return self->entries->len;
}

const SmprofProfileEntry *
smprof_cprofile_profile_get_entry (SmprofCprofileProfile *self,
                                   guint                  index)
{
  g_return_val_if_fail (index < self->entries->len, NULL);

  return &g_array_index (self->entries, SmprofProfileEntry, index);
}

gint64
smprof_cprofile_profile_get_total_calls (SmprofCprofileProfile *self)
{
  return self->total_calls;
}

gint64
smprof_cprofile_profile_get_prim_calls (SmprofCprofileProfile *self)
{
  return self->prim_calls;
}

double
smprof_cprofile_profile_get_total_tt (SmprofCprofileProfile *self)
{
  return self->total_tt;
}

SmprofFunctionKeys *
smprof_cprofile_profile_get_table (SmprofCprofileProfile *self)
{
  return self->table;
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  SmprofCprofileProfile *self = ((gpointer *) user_data)[0];
  SmprofSortKey key = GPOINTER_TO_INT (((gpointer *) user_data)[1]);
  const SmprofProfileEntry *x = &g_array_index (self->entries, SmprofProfileEntry, *(const guint *) a);
  const SmprofProfileEntry *y = &g_array_index (self->entries, SmprofProfileEntry, *(const guint *) b);

  switch (key)
    {
    case SMPROF_SORT_TOTTIME:
      return x->tt > y->tt ? -1 : x->tt < y->tt ? 1 : 0;
    case SMPROF_SORT_CUMTIME:
      return x->ct > y->ct ? -1 : x->ct < y->ct ? 1 : 0;
    case SMPROF_SORT_NCALLS:
      return x->nc > y->nc ? -1 : x->nc < y->nc ? 1 : 0;
    case SMPROF_SORT_PCALLS:
      return x->cc > y->cc ? -1 : x->cc < y->cc ? 1 : 0;
    case SMPROF_SORT_NONE:
    default:
      return 0;
    }
}

/**
 * smprof_cprofile_profile_sorted:
 * @self: a profile
 * @key: what to sort by, descending, ties in dict order (pstats' sort_stats)
 *
 * Returns: (transfer full) (element-type guint): entry indices
 */
GArray *
smprof_cprofile_profile_sorted (SmprofCprofileProfile *self,
                                SmprofSortKey          key)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->entries->len);
  gpointer data[2] = { self, GINT_TO_POINTER (key) };

  for (guint i = 0; i < self->entries->len; i++)
    g_array_append_val (order, i);

  if (key != SMPROF_SORT_NONE)
    g_array_sort_with_data (order, compare_entries, data);

  return order;
}

gboolean
smprof_sort_key_from_string (const char    *text,
                             SmprofSortKey *key)
{
  static const struct { const char *name; SmprofSortKey key; } names[] = {
    { "tottime", SMPROF_SORT_TOTTIME },
    { "cumtime", SMPROF_SORT_CUMTIME },
    { "ncalls", SMPROF_SORT_NCALLS },
    { "pcalls", SMPROF_SORT_PCALLS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (text, names[i].name) == 0)
      {
        *key = names[i].key;
        return TRUE;
      }

  return FALSE;
}
