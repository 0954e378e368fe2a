/* test-pstats.c: the marshal reader and the pstats reader on handcrafted
 * input, well-formed and hostile (real dumps: test-pstats-real.c)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "pstats-test-util.h"
#include "smprof-function-keys.h"
#include "smprof-marshal-writer.h"
#include "smprof-marshal.h"
#include "smprof-pstats.h"
#include "smprof-types.h"

/* Helpers */

static GBytes *
bytes_from (const GByteArray *array)
{
  return g_bytes_new (array->data, array->len);
}

static void
put_key (GByteArray *out,
         const char *file,
         gint32      line,
         const char *name)
{
  smprof_marshal_put_tuple (out, 3);
  smprof_marshal_put_string (out, file, strlen (file));
  smprof_marshal_put_int (out, line);
  smprof_marshal_put_string (out, name, strlen (name));
}

/* A function stat up to its callers dict, which the caller writes. */
static void
put_stat_head (GByteArray *out,
               gint32      cc,
               gint32      nc,
               double      tt,
               double      ct)
{
  smprof_marshal_put_tuple (out, 5);
  smprof_marshal_put_int (out, cc);
  smprof_marshal_put_int (out, nc);
  smprof_marshal_put_float (out, tt);
  smprof_marshal_put_float (out, ct);
}

static void
put_caller (GByteArray *out,
            gint32      nc,
            gint32      cc,
            double      tt,
            double      ct)
{
  smprof_marshal_put_tuple (out, 4);
  smprof_marshal_put_int (out, nc);
  smprof_marshal_put_int (out, cc);
  smprof_marshal_put_float (out, tt);
  smprof_marshal_put_float (out, ct);
}

/* Parses @array as pstats, expecting an error with @code whose message holds @part. */
static void
assert_pstats_fails (const GByteArray *array,
                     int               code,
                     const char       *part)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GBytes) bytes = bytes_from (array);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofPstats) stats = smprof_pstats_parse (bytes, table, &error);

  g_assert_null (stats);
  g_assert_error (error, SMPROF_FORMAT_ERROR, code);
  if (strstr (error->message, part) == NULL)
    g_error ("expected \"%s\" in \"%s\"", part, error->message);
}

/* The marshal reader */

static void
test_marshal_values (void)
{
  g_autoptr(GByteArray) in = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofMarshal) doc = NULL;
  const SmprofMarshalValue *root;
  const SmprofMarshalValue *v;

  /* (inner, None, 'x', r2, r1, 2^40, -2^40, MAX, MIN, 1.5, 2.5, True, u"é")
   * Only flagged objects take slots, in pre-order: slot 0 is the flagged
   * inner tuple, taken before its item 7 (slot 1). The flagged None takes
   * none, as in CPython, so 'x' is slot 2. */
  smprof_marshal_put_tuple (in, 13);
  smprof_marshal_flag_ref (in, smprof_marshal_put_tuple (in, 1));
  smprof_marshal_flag_ref (in, smprof_marshal_put_int (in, 7));
  smprof_marshal_flag_ref (in, smprof_marshal_put_none (in));
  smprof_marshal_flag_ref (in, smprof_marshal_put_string (in, "x", 1));
  smprof_marshal_put_ref (in, 2);
  smprof_marshal_put_ref (in, 1);
  smprof_marshal_put_long (in, G_GINT64_CONSTANT (1) << 40);
  smprof_marshal_put_long (in, -(G_GINT64_CONSTANT (1) << 40));
  smprof_marshal_put_long (in, G_MAXINT64);
  smprof_marshal_put_long (in, G_MININT64);
  smprof_marshal_put_float (in, 1.5);
  smprof_marshal_put_float_text (in, "2.5");
  smprof_marshal_put_bool (in, TRUE);
  smprof_marshal_put_string (in, "\xc3\xa9", 2);

  bytes = bytes_from (in);
  doc = smprof_marshal_parse (bytes, &error);
  g_assert_no_error (error);
  g_assert_nonnull (doc);

  root = &doc->values[doc->root];
  g_assert_cmpint (root->type, ==, SMPROF_MARSHAL_TUPLE);
  g_assert_cmpuint (root->length, ==, 13);
  g_assert_cmpuint (root->offset, ==, 0);

#define ITEM_INDEX(i) (doc->items[root->v.items + (i)])
#define ITEM(i) (&doc->values[ITEM_INDEX (i)])
  v = ITEM (0);
  g_assert_cmpint (v->type, ==, SMPROF_MARSHAL_TUPLE);
  g_assert_cmpuint (v->length, ==, 1);
  g_assert_cmpuint (v->offset, ==, 2);
  g_assert_cmpint (doc->values[doc->items[v->v.items]].type, ==, SMPROF_MARSHAL_INT);
  g_assert_cmpint (doc->values[doc->items[v->v.items]].v.i, ==, 7);
  g_assert_cmpint (ITEM (1)->type, ==, SMPROF_MARSHAL_NONE);
  v = ITEM (2);
  g_assert_cmpint (v->type, ==, SMPROF_MARSHAL_STRING);
  g_assert_cmpuint (v->length, ==, 1);
  g_assert_true (v->v.s[0] == 'x');
  /* Strings point into the input. */
  g_assert_true (v->v.s == (const char *) g_bytes_get_data (bytes, NULL) + v->offset + 2);
  g_assert_cmpuint (ITEM_INDEX (3), ==, ITEM_INDEX (2));
  g_assert_cmpuint (ITEM_INDEX (4), ==, doc->items[ITEM (0)->v.items]);
  g_assert_cmpint (ITEM (5)->v.i, ==, G_GINT64_CONSTANT (1) << 40);
  g_assert_cmpint (ITEM (6)->v.i, ==, -(G_GINT64_CONSTANT (1) << 40));
  g_assert_cmpint (ITEM (7)->v.i, ==, G_MAXINT64);
  g_assert_cmpint (ITEM (8)->v.i, ==, G_MININT64);
  g_assert_cmpint (ITEM (9)->type, ==, SMPROF_MARSHAL_FLOAT);
  g_assert_cmpfloat (ITEM (9)->v.f, ==, 1.5);
  g_assert_cmpint (ITEM (10)->type, ==, SMPROF_MARSHAL_FLOAT);
  g_assert_cmpfloat (ITEM (10)->v.f, ==, 2.5);
  g_assert_cmpint (ITEM (11)->type, ==, SMPROF_MARSHAL_BOOL);
  g_assert_cmpint (ITEM (11)->v.i, ==, 1);
  g_assert_cmpint (ITEM (12)->type, ==, SMPROF_MARSHAL_STRING);
  g_assert_cmpmem (ITEM (12)->v.s, ITEM (12)->length, "\xc3\xa9", 2);
#undef ITEM_INDEX
#undef ITEM
}

static void
assert_marshal_fails (const void *data,
                      gsize       length,
                      int         code,
                      const char *message)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, length);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofMarshal) doc = smprof_marshal_parse (bytes, &error);

  g_assert_null (doc);
  g_assert_error (error, SMPROF_FORMAT_ERROR, code);
  if (strstr (error->message, message) == NULL)
    g_error ("expected \"%s\" in \"%s\"", message, error->message);
}

static void
test_marshal_hostile (void)
{
  g_autoptr(GByteArray) deep = g_byte_array_new ();

  assert_marshal_fails ("", 0, SMPROF_FORMAT_ERROR_TRUNCATED, "byte 0: file ends");
  assert_marshal_fails ("(\x00\x00\x00\x80", 5, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 0: negative tuple length");
  assert_marshal_fails ("(\xff\xff\xff\x7f" "NNN", 8, SMPROF_FORMAT_ERROR_TRUNCATED,
                        "byte 0: file ends inside a tuple of 2147483647 items");
  assert_marshal_fails (")\x02)\x02NN", 6, SMPROF_FORMAT_ERROR_TRUNCATED,
                        "byte 2: file ends inside a tuple of 2 items");
  assert_marshal_fails ("a\x00\x00\x00\x40xyz", 8, SMPROF_FORMAT_ERROR_TRUNCATED,
                        "byte 0: file ends inside a string of 1073741824 bytes");
  assert_marshal_fails ("u\xff\xff\xff\xffxyz", 8, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 0: negative string length");
  assert_marshal_fails ("r\xff\xff\xff\xff", 5, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 0: back-reference to object 4294967295 of 0");
  assert_marshal_fails ("\xa9\x01r\x00\x00\x00\x00", 7, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 2: back-reference to a container that is still being read");
  assert_marshal_fails ("\xfbr\x00\x00\x00\x00N0", 8, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 1: back-reference to a container");
  assert_marshal_fails (")\x02N\x7f", 4, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 3: unknown marshal type 0x7f");
  assert_marshal_fails ("{0x", 3, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 2: 1 bytes after the end of the data");
  assert_marshal_fails ("0", 1, SMPROF_FORMAT_ERROR_CORRUPT, "byte 0: a NULL marker");
  assert_marshal_fails ("{N00", 4, SMPROF_FORMAT_ERROR_CORRUPT, "byte 2: a dict key has no value");
  assert_marshal_fails ("{NN", 3, SMPROF_FORMAT_ERROR_TRUNCATED, "byte 0: file ends inside a dict");
  assert_marshal_fails ("s\x00\x00\x00\x00", 5, SMPROF_FORMAT_ERROR_CORRUPT,
                        "unknown marshal type 0x73");
  assert_marshal_fails ("l\x06\x00\x00\x00\x01\x00\x01\x00\x01\x00\x01\x00\x01\x00\x01\x00", 17,
                        SMPROF_FORMAT_ERROR_CORRUPT, "does not fit in 64 bits");
  /* 2^63 is one past G_MAXINT64. */
  assert_marshal_fails ("l\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00", 15,
                        SMPROF_FORMAT_ERROR_CORRUPT, "does not fit in 64 bits");
  assert_marshal_fails ("l\x01\x00\x00\x00\x00\x00", 7, SMPROF_FORMAT_ERROR_CORRUPT,
                        "leading zero digit");
  assert_marshal_fails ("l\x01\x00\x00\x00\x00\x80", 7, SMPROF_FORMAT_ERROR_CORRUPT,
                        "digit 0x8000 out of range");
  assert_marshal_fails ("l\x00\x00\x00\x80", 5, SMPROF_FORMAT_ERROR_TRUNCATED,
                        "file ends inside an integer of 2147483648 digits");
  assert_marshal_fails ("f\x03" "1.x", 5, SMPROF_FORMAT_ERROR_CORRUPT, "not a number");
  assert_marshal_fails ("f\x09" "1.5", 5, SMPROF_FORMAT_ERROR_TRUNCATED,
                        "inside a float of 9 characters");
  assert_marshal_fails ("g\x00\x00", 3, SMPROF_FORMAT_ERROR_TRUNCATED, "inside a float");

  /* 100,000 nested one-item tuples, then None. */
  for (guint i = 0; i < 100000; i++)
    smprof_marshal_put_tuple (deep, 1);
  smprof_marshal_put_none (deep);
  assert_marshal_fails (deep->data, deep->len, SMPROF_FORMAT_ERROR_CORRUPT,
                        "byte 128: containers nested deeper than 64 levels");

  /* The same depth of dicts. */
  g_byte_array_set_size (deep, 0);
  for (guint i = 0; i < 100000; i++)
    smprof_marshal_flag_ref (deep, smprof_marshal_put_dict (deep));
  assert_marshal_fails (deep->data, deep->len, SMPROF_FORMAT_ERROR_CORRUPT, "nested deeper");
}

/* pstats on handcrafted input */

static void
test_pstats_empty (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GByteArray) in = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofPstats) stats = NULL;

  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  bytes = bytes_from (in);
  stats = smprof_pstats_parse (bytes, table, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stats);
  g_assert_cmpuint (stats->n_funcs, ==, 0);
  g_assert_cmpuint (stats->n_callers, ==, 0);
  g_assert_cmpint (stats->total_calls, ==, 0);
  g_assert_cmpint (stats->prim_calls, ==, 0);
  g_assert_cmpfloat (stats->total_tt, ==, 0.0);
  g_assert_cmpuint (smprof_function_keys_get_size (table), ==, 0);
}

static void
test_pstats_handcrafted (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GByteArray) in = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofPstats) stats = NULL;
  const SmprofCallerStat *caller;
  guint32 a, b, c, bad;

  /* { a: (1, 3, 0.1, 0.5, {a: (2, 0, 0.05, 0.05), b: 7}),
   *   b: (2, 2, 0.2, 0.4, {}),
   *   c: (1, 1, 0.3, 7, {r(a): ...}),
   *   bad-utf8: (1, 1, 0, 5, {}) }
   * The key a is flagged so that later uses are references; the last entry
   * has int times. */
  smprof_marshal_flag_ref (in, smprof_marshal_put_dict (in));     /* slot 0 */
  smprof_marshal_flag_ref (in, smprof_marshal_put_tuple (in, 3)); /* slot 1: key a */
  smprof_marshal_put_string (in, "a.py", 4);
  smprof_marshal_put_int (in, 10);
  smprof_marshal_put_string (in, "a", 1);
  put_stat_head (in, 1, 3, 0.1, 0.5);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_ref (in, 1);
  put_caller (in, 2, 0, 0.05, 0.05);
  put_key (in, "b.py", 20, "b");
  smprof_marshal_put_int (in, 7);                                 /* legacy caller value */
  smprof_marshal_put_dict_end (in);
  put_key (in, "b.py", 20, "b");
  put_stat_head (in, 2, 2, 0.2, 0.4);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  put_key (in, "~", 0, "<built-in method c>");
  put_stat_head (in, 1, 1, 0.3, 7.0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_ref (in, 1);
  put_caller (in, 1, 1, 0.3, 0.3);
  smprof_marshal_put_dict_end (in);
  /* A file name with a stray byte (in a short ASCII string, where no writer
   * puts one) and a name with a NUL, as a hostile or surrogate-carrying file
   * could hold them. */
  smprof_marshal_put_tuple (in, 3);
  g_byte_array_append (in, (const guint8 *) "z\x05" "x\xff.py", 7);
  smprof_marshal_put_long (in, 1 << 30);                          /* line 2^30 as a long */
  smprof_marshal_put_string (in, "n\0m", 3);
  smprof_marshal_put_tuple (in, 5);
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_int (in, 0);
  smprof_marshal_put_int (in, 5);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);

  bytes = bytes_from (in);
  stats = smprof_pstats_parse (bytes, table, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stats);
  pstats_test_assert_consistent (stats, table);

  g_assert_cmpuint (smprof_function_keys_get_size (table), ==, 4);
  a = smprof_function_keys_lookup (table, "a.py", 10, "a");
  b = smprof_function_keys_lookup (table, "b.py", 20, "b");
  c = smprof_function_keys_lookup (table, "~", 0, "<built-in method c>");
  bad = smprof_function_keys_lookup (table, "x\xef\xbf\xbd.py", 1 << 30, "n\xef\xbf\xbdm");
  g_assert_cmpuint (bad, !=, SMPROF_FUNC_NONE);

  g_assert_cmpuint (stats->n_funcs, ==, 4);
  g_assert_cmpuint (stats->n_callers, ==, 3);
  g_assert_cmpuint (stats->funcs[0].func, ==, a);
  g_assert_cmpuint (stats->funcs[1].func, ==, b);
  g_assert_cmpuint (stats->funcs[2].func, ==, c);
  g_assert_cmpuint (stats->funcs[3].func, ==, bad);

  g_assert_cmpint (stats->funcs[0].cc, ==, 1);
  g_assert_cmpint (stats->funcs[0].nc, ==, 3);
  g_assert_cmpfloat (stats->funcs[0].tt, ==, 0.1);
  g_assert_cmpfloat (stats->funcs[0].ct, ==, 0.5);
  g_assert_cmpuint (stats->funcs[0].first_caller, ==, 0);
  g_assert_cmpuint (stats->funcs[0].n_callers, ==, 2);

  /* The file says (nc, cc) in caller tuples. */
  caller = &stats->callers[0];
  g_assert_cmpuint (caller->caller, ==, a);
  g_assert_false (caller->legacy);
  g_assert_cmpint (caller->nc, ==, 2);
  g_assert_cmpint (caller->cc, ==, 0);
  g_assert_cmpfloat (caller->tt, ==, 0.05);
  caller = &stats->callers[1];
  g_assert_cmpuint (caller->caller, ==, b);
  g_assert_true (caller->legacy);
  g_assert_cmpint (caller->nc, ==, 7);
  g_assert_cmpint (caller->cc, ==, 7);
  g_assert_cmpfloat (caller->tt, ==, 0.0);
  g_assert_cmpfloat (caller->ct, ==, 0.0);

  g_assert_cmpuint (stats->funcs[1].n_callers, ==, 0);
  g_assert_cmpuint (stats->funcs[2].first_caller, ==, 2);
  g_assert_cmpuint (stats->callers[2].caller, ==, a);
  g_assert_cmpfloat (stats->funcs[3].tt, ==, 0.0);
  g_assert_cmpfloat (stats->funcs[3].ct, ==, 5.0);

  g_assert_cmpint (stats->total_calls, ==, 3 + 2 + 1 + 1);
  g_assert_cmpint (stats->prim_calls, ==, 1 + 2 + 1 + 1);
  /* Left to right, as pstats adds: 0.6000000000000001, not 0.6. */
  g_assert_cmpfloat (stats->total_tt, ==, 0.1 + 0.2 + 0.3 + 0);
  g_assert_cmpfloat (stats->total_tt, !=, 0.1 + (0.2 + 0.3));
}

/* A repeated key keeps its first position and takes the later value, as
 * marshal.loads builds the dict. */
static void
test_pstats_repeated_keys (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GByteArray) in = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofPstats) stats = NULL;
  guint32 a, b;

  smprof_marshal_put_dict (in);
  put_key (in, "a.py", 1, "a");
  put_stat_head (in, 1, 1, 1.0, 1.0);
  smprof_marshal_put_dict (in);
  put_key (in, "b.py", 2, "b");
  put_caller (in, 1, 1, 1.0, 1.0);
  smprof_marshal_put_dict_end (in);
  put_key (in, "b.py", 2, "b");
  put_stat_head (in, 2, 2, 2.0, 2.0);
  smprof_marshal_put_dict (in);
  put_key (in, "a.py", 1, "a");
  put_caller (in, 5, 5, 5.0, 5.0);
  put_key (in, "a.py", 1, "a");                     /* repeated caller */
  put_caller (in, 6, 6, 6.0, 6.0);
  smprof_marshal_put_dict_end (in);
  put_key (in, "a.py", 1, "a");                     /* repeated function */
  put_stat_head (in, 3, 4, 3.0, 3.0);
  smprof_marshal_put_dict (in);
  put_key (in, "a.py", 1, "a");
  put_caller (in, 3, 3, 3.0, 3.0);
  put_key (in, "b.py", 2, "b");
  put_caller (in, 4, 4, 4.0, 4.0);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);

  bytes = bytes_from (in);
  stats = smprof_pstats_parse (bytes, table, &error);
  g_assert_no_error (error);
  pstats_test_assert_consistent (stats, table);

  a = smprof_function_keys_lookup (table, "a.py", 1, "a");
  b = smprof_function_keys_lookup (table, "b.py", 2, "b");
  g_assert_cmpuint (stats->n_funcs, ==, 2);
  g_assert_cmpuint (stats->funcs[0].func, ==, a);
  g_assert_cmpint (stats->funcs[0].nc, ==, 4);
  g_assert_cmpuint (stats->funcs[0].n_callers, ==, 2);
  g_assert_cmpuint (stats->funcs[1].func, ==, b);
  g_assert_cmpuint (stats->funcs[1].n_callers, ==, 1);
  g_assert_cmpint (stats->callers[stats->funcs[1].first_caller].nc, ==, 6);
  g_assert_cmpuint (stats->n_callers, ==, 3);
  g_assert_cmpint (stats->callers[0].caller, ==, a);
  g_assert_cmpint (stats->callers[0].nc, ==, 3);
  g_assert_cmpint (stats->callers[1].caller, ==, b);
  g_assert_cmpint (stats->total_calls, ==, 6);
  g_assert_cmpfloat (stats->total_tt, ==, 5.0);
}

static void
test_pstats_wrong_types (void)
{
  g_autoptr(GByteArray) in = g_byte_array_new ();

  smprof_marshal_put_none (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte 0: a pstats file must hold a dict, found None");

  /* A key that is an int. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_int (in, 1);
  put_stat_head (in, 1, 1, 0, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte 1: a function key must be a (file, line, name) 3-tuple, found an int");

  /* A key whose line is a string. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_tuple (in, 3);
  smprof_marshal_put_string (in, "f", 1);
  smprof_marshal_put_string (in, "1", 1);
  smprof_marshal_put_string (in, "n", 1);
  put_stat_head (in, 1, 1, 0, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte 6: a function key's line must be an int, found a string");

  /* A stat 3-tuple: the key at byte 1 is 2 + 3 + 5 + 3 = 13 bytes long. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  put_key (in, "f", 1, "n");
  smprof_marshal_put_tuple (in, 3);
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_float (in, 0.5);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte 14: a function stat must be a 5-tuple, found a 3-tuple");

  /* A time that is a string. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  put_key (in, "f", 1, "n");
  smprof_marshal_put_tuple (in, 5);
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_string (in, "x", 1);
  smprof_marshal_put_float (in, 0.5);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte 26: a function's self time must be a number, found a string");

  /* Callers that are a tuple. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  put_key (in, "f", 1, "n");
  put_stat_head (in, 1, 1, 0, 0);
  smprof_marshal_put_tuple (in, 0);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "a function's callers must be a dict, found a 0-tuple");

  /* A caller value that is a float. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  put_key (in, "f", 1, "n");
  put_stat_head (in, 1, 1, 0, 0);
  smprof_marshal_put_dict (in);
  put_key (in, "f", 1, "n");
  smprof_marshal_put_float (in, 1.0);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "a caller stat must be a 4-tuple or an int, found a float");

  /* A caller 4-tuple with a float count. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  put_key (in, "f", 1, "n");
  put_stat_head (in, 1, 1, 0, 0);
  smprof_marshal_put_dict (in);
  put_key (in, "f", 1, "n");
  smprof_marshal_put_tuple (in, 4);
  smprof_marshal_put_float (in, 1.0);
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_float (in, 0.0);
  smprof_marshal_put_float (in, 0.0);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "a caller's call count must be an int, found a float");

  /* A key that is a reference to a file name already read, and checked. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_tuple (in, 3);
  smprof_marshal_flag_ref (in, smprof_marshal_put_string (in, "f", 1));
  smprof_marshal_put_int (in, 1);
  smprof_marshal_put_string (in, "n", 1);
  put_stat_head (in, 1, 1, 0, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_ref (in, 0);
  put_stat_head (in, 1, 1, 0, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  smprof_marshal_put_dict_end (in);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte 3: a function key must be a (file, line, name) 3-tuple, "
                       "found a string");

  /* Trailing garbage after a valid dict. */
  g_byte_array_set_size (in, 0);
  smprof_marshal_put_dict (in);
  smprof_marshal_put_dict_end (in);
  g_byte_array_append (in, (const guint8 *) "\x00", 1);
  assert_pstats_fails (in, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte 2: 1 bytes after the end of the data");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/marshal/values", test_marshal_values);
  g_test_add_func ("/marshal/hostile", test_marshal_hostile);
  g_test_add_func ("/pstats/empty", test_pstats_empty);
  g_test_add_func ("/pstats/handcrafted", test_pstats_handcrafted);
  g_test_add_func ("/pstats/repeated-keys", test_pstats_repeated_keys);
  g_test_add_func ("/pstats/wrong-types", test_pstats_wrong_types);

  return g_test_run ();
}
