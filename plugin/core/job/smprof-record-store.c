/* smprof-record-store.c: where a job's records and their strings live
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-job-private.h"
#include "smprof-record-store-private.h"

/* A job lists its records on a worker thread, and a thread's malloc heap
 * grows by exactly what each request needs: tens of thousands of records,
 * each with its own strings, grew it a page at a time, one mprotect() each
 * (about 5,500 on opening a 256-node job, as many again on each refresh).
 * Each takes the process's memory map lock for writing, which the main
 * thread may then wait for when it touches a new page. Records are made in
 * blocks, and their interval names and node ids in large chunks, instead;
 * their paths are the listing's own, taken over (a copy would only grow
 * the heap more).
 *
 * Records, and every string they point to, live as long as the array that
 * lists them (a page may keep it after the job is gone), so the store is
 * counted: one reference for the job and one for each record. */
#define RECORDS_PER_BLOCK   512
#define STRINGS_CHUNK_SIZE  (64 * 1024)

struct _SmprofRecordStore
{
  gint          ref_count;
  GPtrArray    *blocks;     /* StoredRecord[RECORDS_PER_BLOCK] */
  guint         n_used;     /* records handed out of the last block */
  GStringChunk *strings;
};

/* A record and where it came from: the records array's free function has
 * only the record to go by. */
typedef struct
{
  SmprofRecord       record;
  SmprofRecordStore *store;
} StoredRecord;

SmprofRecordStore *
_smprof_record_store_new (void)
{
  SmprofRecordStore *self = g_new0 (SmprofRecordStore, 1);

  self->ref_count = 1;
  self->blocks = g_ptr_array_new_with_free_func (g_free);
  self->n_used = RECORDS_PER_BLOCK;
  self->strings = g_string_chunk_new (STRINGS_CHUNK_SIZE);

  return self;
}

void
_smprof_record_store_unref (SmprofRecordStore *self)
{
  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;

  g_ptr_array_unref (self->blocks);
  g_string_chunk_free (self->strings);
  g_free (self);
}

/* A zeroed record, which _smprof_record_release() gives back. Not thread
 * safe: one thread lists a job. */
SmprofRecord *
_smprof_record_store_add (SmprofRecordStore *self)
{
  StoredRecord *stored;

  if (self->n_used == RECORDS_PER_BLOCK)
    {
      g_ptr_array_add (self->blocks, g_new0 (StoredRecord, RECORDS_PER_BLOCK));
      self->n_used = 0;
    }

  stored = (StoredRecord *) g_ptr_array_index (self->blocks, self->blocks->len - 1) + self->n_used++;
  stored->store = self;
  g_atomic_int_inc (&self->ref_count);

  return &stored->record;
}

/* A copy of @string that lives as long as the store. */
char *
_smprof_record_store_add_string (SmprofRecordStore *self,
                                 const char        *string)
{
  return g_string_chunk_insert (self->strings, string);
}

/* The one copy of @string in the store, for the strings records share. */
const char *
_smprof_record_store_intern (SmprofRecordStore *self,
                             const char        *string)
{
  return g_string_chunk_insert_const (self->strings, string);
}

/* Drops @record's stats, its path and its hold on its store. */
void
_smprof_record_release (gpointer record)
{
  StoredRecord *stored = record;

  g_free (stored->record.path);
  if (stored->record.stats != NULL)
    _smprof_record_stats_unref (stored->record.stats);
  _smprof_record_store_unref (stored->store);
}
