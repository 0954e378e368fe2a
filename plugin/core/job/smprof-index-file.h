/* smprof-index-file.h: the files of the persistent parsed index, one job's
 * function keys and one node's parsed stats, as they lie on disk
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-function-keys.h"
#include "smprof-pstats.h"

G_BEGIN_DECLS

/* A job's cache is two kinds of files (smprof-index-cache.c says where they
 * live and when they are read and written):
 *
 *   a keys file: the job's function keys, in the order of their ids, with
 *     a "lineage" (random, made when a keys file is started afresh); for
 *     every n, a checksum of the first n keys (a chain) is worked out from
 *     them;
 *   a node file per node folder: its intervals' stats arrays in a compact
 *     form (smprof-index-arrays.c) read back into SmprofPstats' arrays,
 *     with function ids that are positions in a keys file of its lineage.
 *     It names the lineage, how many keys it uses and the chain at that
 *     count, so a keys file written since by another process (which may
 *     have added other keys) is noticed.
 *
 * Both are native-endian (a cache is read by the machine that wrote it; the
 * byte order and the arrays' layout are in the header, and anything else is
 * a miss), versioned, and checked: the header and tables by one checksum,
 * each interval's arrays by their own, which is verified (with everything
 * the arrays say: ids, caller runs, totals) the first time the interval is
 * used. A file that fails a check is not used; an interval that fails is a
 * miss, read from its stats file. */

/* 2: each interval's arrays compact (1 held them as SmprofPstats does) */
#define SMPROF_INDEX_FILE_VERSION 2

#define SMPROF_INDEX_KEYS_MAGIC "SMPRFKEY"
#define SMPROF_INDEX_NODE_MAGIC "SMPRFNOD"

/* The order of these bytes tells a file of another byte order. */
#define SMPROF_INDEX_BYTE_ORDER 0x01020304u

typedef struct
{
  char    magic[8];
  guint32 version;
  guint32 byte_order;
  guint64 file_size;
  guint64 lineage[2];
  guint32 n_keys;
  guint32 identity_length;    /* the identity is the first string */
  guint64 strings_offset;     /* NUL-terminated strings, right after the header */
  guint64 strings_size;
  guint64 keys_offset;        /* SmprofIndexKey[n_keys], 8-aligned after the strings, to the end */
  guint64 checksum;           /* see _smprof_index_file_checksum() */
} SmprofIndexKeysHeader;

typedef struct
{
  guint32 file_offset;        /* in the strings */
  guint32 file_length;
  guint32 name_offset;
  guint32 name_length;
  gint64  line;
} SmprofIndexKey;

typedef struct
{
  char    magic[8];
  guint32 version;
  guint32 byte_order;
  guint32 func_size;          /* sizeof (SmprofFuncStat) */
  guint32 caller_size;        /* sizeof (SmprofCallerStat) */
  guint64 file_size;
  guint64 lineage[2];         /* of the keys file its ids are positions in */
  guint64 keys_chain;         /* that file's chain at n_keys (the seed when 0) */
  guint32 n_keys;             /* its ids are below this */
  guint32 n_intervals;
  guint32 identity_length;    /* the identity is the first string */
  guint32 reserved;
  guint64 strings_offset;     /* right after the header */
  guint64 strings_size;
  guint64 intervals_offset;   /* SmprofIndexInterval[n_intervals], by name, 8-aligned */
  guint64 data_offset;        /* the arrays, right after the intervals */
  guint64 data_size;
  guint64 checksum;           /* of bytes [0, data_offset): _smprof_index_file_checksum() */
} SmprofIndexNodeHeader;

typedef struct
{
  guint32 name_offset;        /* the interval folder name, in the strings */
  guint32 name_length;
  guint64 size;               /* the stats file's size and version when it was read */
  guint64 version;
  guint64 data_offset;        /* its arrays (smprof-index-arrays.c), in the data */
  guint64 data_length;        /* their size */
  guint32 n_funcs;
  guint32 n_callers;
  gint64  total_calls;
  gint64  prim_calls;
  double  total_tt;
  guint64 checksum;           /* of the arrays */
} SmprofIndexInterval;

/* smprof-index-arrays.c: the most bytes a function or a caller takes */
#define SMPROF_INDEX_FUNC_MAX_BYTES   48
#define SMPROF_INDEX_CALLER_MAX_BYTES 48

guint64 _smprof_index_checksum      (const void *data,
                                     gsize       size,
                                     guint64     seed);
guint64 _smprof_index_file_checksum (const void *header,
                                     gsize       header_size,
                                     gsize       checksum_offset,
                                     const void *rest,
                                     gsize       rest_size);
guint64 _smprof_index_chain_next (guint64     previous,
                                  const char *file,
                                  gint64      line,
                                  const char *name);
gboolean _smprof_index_check_string (const char *strings,
                                     guint64     strings_size,
                                     guint32     offset,
                                     guint32     length);

#define SMPROF_INDEX_CHAIN_SEED G_GUINT64_CONSTANT (0x736d70726f66696b)

/* smprof-index-keys.c */
typedef struct _SmprofIndexKeys SmprofIndexKeys;

SmprofIndexKeys *_smprof_index_keys_new         (GBytes              *bytes,
                                                 const char          *identity,
                                                 GError             **error);
void             _smprof_index_keys_free        (SmprofIndexKeys     *self);
guint            _smprof_index_keys_get_n_keys  (SmprofIndexKeys     *self);
const guint64   *_smprof_index_keys_get_lineage (SmprofIndexKeys     *self);
guint64          _smprof_index_keys_get_chain   (SmprofIndexKeys     *self,
                                                 guint                n_keys);
void             _smprof_index_keys_get_key     (SmprofIndexKeys     *self,
                                                 guint                index,
                                                 const char         **file,
                                                 gsize               *file_length,
                                                 gint64              *line,
                                                 const char         **name,
                                                 gsize               *name_length);
GBytes          *_smprof_index_keys_build       (const char          *identity,
                                                 const guint64       *lineage,
                                                 SmprofFunctionKeys  *table,
                                                 guint                n_keys);

/* smprof-index-file.c: a node file */
typedef struct _SmprofIndexFile SmprofIndexFile;

/* One interval to write: its stats, with ids that are the table's, or
 * @remap's images when @remap is set. */
typedef struct
{
  const char             *interval;
  guint64                 size;
  guint64                 version;
  const SmprofFuncStat   *funcs;
  guint                   n_funcs;
  const SmprofCallerStat *callers;
  guint                   n_callers;
  gint64                  total_calls;
  gint64                  prim_calls;
  double                  total_tt;
  const guint32          *remap;
} SmprofIndexEntry;

SmprofIndexFile *_smprof_index_file_new           (GBytes            *bytes,
                                                   const char        *identity,
                                                   GError           **error);
void             _smprof_index_file_free          (SmprofIndexFile   *self);
const guint64   *_smprof_index_file_get_lineage   (SmprofIndexFile   *self);
guint            _smprof_index_file_get_n_keys    (SmprofIndexFile   *self);
guint64          _smprof_index_file_get_keys_chain (SmprofIndexFile  *self);
guint            _smprof_index_file_get_n_intervals (SmprofIndexFile *self);
const SmprofIndexInterval *_smprof_index_file_get_interval (SmprofIndexFile *self,
                                                            guint            index);
const char      *_smprof_index_file_get_interval_name (SmprofIndexFile *self,
                                                       guint            index);
gboolean         _smprof_index_file_find          (SmprofIndexFile   *self,
                                                   const char        *interval,
                                                   guint             *index);
gboolean         _smprof_index_file_check         (SmprofIndexFile   *self,
                                                   guint              index,
                                                   GError           **error);
SmprofPstats    *_smprof_index_file_read          (SmprofIndexFile   *self,
                                                   guint              index,
                                                   const guint32     *remap,
                                                   GError           **error);
gboolean         _smprof_index_file_write         (const char        *path,
                                                   const char        *identity,
                                                   const guint64     *lineage,
                                                   guint              n_keys,
                                                   guint64            keys_chain,
                                                   SmprofIndexEntry  *entries,
                                                   guint              n_entries,
                                                   guint64            max_size,
                                                   GError           **error);
gsize            _smprof_index_arrays_encode      (guint8            *out,
                                                   const SmprofIndexEntry *entry,
                                                   guint              n_keys,
                                                   gboolean          *bad);
gboolean         _smprof_index_arrays_decode      (const guint8      *data,
                                                   gsize              length,
                                                   guint              n_keys,
                                                   const guint32     *remap,
                                                   SmprofFuncStat    *funcs,
                                                   guint              n_funcs,
                                                   SmprofCallerStat  *callers,
                                                   guint              n_callers,
                                                   SmprofPstats      *totals);
gboolean         _smprof_index_write_bytes        (const char        *path,
                                                   GBytes            *bytes,
                                                   GError           **error);
GBytes          *_smprof_index_map                (const char        *path,
                                                   gboolean           populate,
                                                   GError           **error);
int              _smprof_index_open_temporary     (const char        *path,
                                                   char             **temporary,
                                                   GError           **error);
gboolean         _smprof_index_commit             (int                fd,
                                                   char              *temporary,
                                                   const char        *path,
                                                   gboolean           ok,
                                                   GError           **error);
void             _smprof_index_seal               (guint8            *data,
                                                   gsize              size);

G_END_DECLS
