/* test-marshal-writer.c: the marshal writer read back by the marshal reader
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pstats export and the pstats tests write with smprof-marshal-writer.c;
 * CPython's marshal reads the export in tests/export/test_export.py. Here
 * every value goes through smprof_marshal_parse() and comes back the same,
 * in the form CPython's marshal version 4 would use.
 */

#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "smprof-marshal-writer.h"
#include "smprof-marshal.h"

static SmprofMarshal *
parse (GByteArray *out)
{
  g_autoptr(GBytes) bytes = g_bytes_new (out->data, out->len);
  g_autoptr(GError) error = NULL;
  SmprofMarshal *doc = smprof_marshal_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);

  return doc;
}

/* The type byte at @offset (the writer's answer: read after the write,
 * which may move @out's data). */
static char
type_at (GByteArray *out,
         gsize       offset)
{
  return (char) out->data[offset];
}

static const SmprofMarshalValue *
item (const SmprofMarshal      *doc,
      const SmprofMarshalValue *container,
      guint                     i)
{
  g_assert_cmpuint (i, <, container->type == SMPROF_MARSHAL_DICT ? container->length * 2 : container->length);

  return &doc->values[doc->items[container->v.items + i]];
}

static void
assert_int (const SmprofMarshalValue *value,
            gint64                    expected)
{
  g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_INT);
  g_assert_cmpint (value->v.i, ==, expected);
}

static void
assert_string (const SmprofMarshalValue *value,
               const char               *expected,
               gsize                     length)
{
  g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_STRING);
  g_assert_cmpmem (value->v.s, value->length, expected, length);
}

/* Integers: 32 bits where they fit, the long form beyond, both ends of 64
 * bits; and the long form on demand, zero included. */
static void
test_ints (void)
{
  const gint64 values[] = {
    0, 1, -1, G_MAXINT32, G_MININT32, (gint64) G_MAXINT32 + 1, (gint64) G_MININT32 - 1,
    32767, 32768, -32768, G_GINT64_CONSTANT (1) << 40, -(G_GINT64_CONSTANT (1) << 40),
    G_MAXINT64, G_MININT64, G_MAXINT64 - 1, G_MININT64 + 1,
  };
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(SmprofMarshal) doc = NULL;
  const SmprofMarshalValue *root;

  smprof_marshal_put_tuple (out, G_N_ELEMENTS (values) * 2);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      gsize offset = smprof_marshal_put_int (out, values[i]);
      gboolean fits = values[i] >= G_MININT32 && values[i] <= G_MAXINT32;

      g_assert_cmpint (type_at (out, offset), ==, fits ? 'i' : 'l');
      g_assert_cmpint (type_at (out, smprof_marshal_put_long (out, values[i])), ==, 'l');
    }

  doc = parse (out);
  root = &doc->values[doc->root];
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      assert_int (item (doc, root, 2 * i), values[i]);
      assert_int (item (doc, root, 2 * i + 1), values[i]);
    }

  /* Zero's long form has no digits: 'l' and a count of 0. */
  g_byte_array_set_size (out, 0);
  smprof_marshal_put_long (out, 0);
  g_assert_cmpmem (out->data, out->len, "l\0\0\0\0", 5);
}

/* Floats: the 8 bytes go through, whatever they hold; and the text form of
 * old marshal versions. */
static void
test_floats (void)
{
  const double values[] = { 0.0, -0.0, 1.5, 0.1, -2.5e-300, DBL_MAX, DBL_MIN, 5e-324, INFINITY, -INFINITY, NAN };
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(SmprofMarshal) doc = NULL;
  const SmprofMarshalValue *root;

  smprof_marshal_put_tuple (out, G_N_ELEMENTS (values) + 2);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_assert_cmpint (type_at (out, smprof_marshal_put_float (out, values[i])), ==, 'g');
  g_assert_cmpint (type_at (out, smprof_marshal_put_float_text (out, "2.5")), ==, 'f');
  smprof_marshal_put_float_text (out, "-1e+300");

  doc = parse (out);
  root = &doc->values[doc->root];
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      const SmprofMarshalValue *value = item (doc, root, i);

      g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_FLOAT);
      g_assert_true (memcmp (&value->v.f, &values[i], sizeof (double)) == 0);
    }
  g_assert_cmpfloat (item (doc, root, G_N_ELEMENTS (values))->v.f, ==, 2.5);
  g_assert_cmpfloat (item (doc, root, G_N_ELEMENTS (values) + 1)->v.f, ==, -1e300);
}

/* Strings: short ASCII up to 255 bytes, UTF-8 beyond and for anything not
 * ASCII; bytes as given, NULs included. */
static void
test_strings (void)
{
  g_autofree char *ascii_255 = g_strnfill (255, 'a');
  g_autofree char *ascii_256 = g_strnfill (256, 'b');
  g_autofree char *long_utf8 = g_strnfill (70000, 'c');
  struct { const char *text; gsize length; char type; } strings[] = {
    { "", 0, 'z' },
    { "python_stats", 12, 'z' },
    { "a\0b", 3, 'z' },
    { ascii_255, 255, 'z' },
    { ascii_256, 256, 'u' },
    { "\xc3\xa9t\xc3\xa9", 6, 'u' },
    { long_utf8, 70000, 'u' },
  };
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(SmprofMarshal) doc = NULL;
  const SmprofMarshalValue *root;

  /* a first byte past the ASCII range makes it UTF-8 */
  long_utf8[0] = '\xc3';
  long_utf8[1] = '\xa9';

  smprof_marshal_put_tuple (out, G_N_ELEMENTS (strings));
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    g_assert_cmpint (type_at (out, smprof_marshal_put_string (out, strings[i].text, strings[i].length)),
                     ==, strings[i].type);

  doc = parse (out);
  root = &doc->values[doc->root];
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    assert_string (item (doc, root, i), strings[i].text, strings[i].length);
}

/* Containers: small and large tuples, dicts, None and the booleans, and
 * back-references to flagged values (None takes no slot, as in CPython). */
static void
test_containers (void)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(SmprofMarshal) doc = NULL;
  const SmprofMarshalValue *root, *v;

  smprof_marshal_put_tuple (out, 8);
  g_assert_cmpint (type_at (out, smprof_marshal_put_tuple (out, 0)), ==, ')');
  g_assert_cmpint (type_at (out, smprof_marshal_put_tuple (out, 300)), ==, '(');
  for (guint i = 0; i < 300; i++)
    smprof_marshal_put_int (out, i);
  smprof_marshal_flag_ref (out, smprof_marshal_put_tuple (out, 255));   /* slot 0 */
  for (guint i = 0; i < 255; i++)
    smprof_marshal_put_none (out);
  smprof_marshal_put_dict (out);
  smprof_marshal_flag_ref (out, smprof_marshal_put_string (out, "key", 3));   /* slot 1 */
  smprof_marshal_put_bool (out, TRUE);
  smprof_marshal_put_int (out, 2);
  smprof_marshal_put_bool (out, FALSE);
  smprof_marshal_put_dict_end (out);
  smprof_marshal_put_dict (out);
  smprof_marshal_put_dict_end (out);
  smprof_marshal_flag_ref (out, smprof_marshal_put_none (out));
  smprof_marshal_put_ref (out, 1);
  smprof_marshal_put_ref (out, 0);

  doc = parse (out);
  root = &doc->values[doc->root];
  g_assert_cmpint (root->type, ==, SMPROF_MARSHAL_TUPLE);
  g_assert_cmpuint (root->length, ==, 8);

  v = item (doc, root, 0);
  g_assert_cmpint (v->type, ==, SMPROF_MARSHAL_TUPLE);
  g_assert_cmpuint (v->length, ==, 0);

  v = item (doc, root, 1);
  g_assert_cmpuint (v->length, ==, 300);
  for (guint i = 0; i < 300; i++)
    assert_int (item (doc, v, i), i);

  v = item (doc, root, 2);
  g_assert_cmpuint (v->length, ==, 255);
  for (guint i = 0; i < 255; i++)
    g_assert_cmpint (item (doc, v, i)->type, ==, SMPROF_MARSHAL_NONE);

  v = item (doc, root, 3);
  g_assert_cmpint (v->type, ==, SMPROF_MARSHAL_DICT);
  g_assert_cmpuint (v->length, ==, 2);
  assert_string (item (doc, v, 0), "key", 3);
  g_assert_cmpint (item (doc, v, 1)->type, ==, SMPROF_MARSHAL_BOOL);
  g_assert_cmpint (item (doc, v, 1)->v.i, ==, 1);
  assert_int (item (doc, v, 2), 2);
  g_assert_cmpint (item (doc, v, 3)->v.i, ==, 0);

  v = item (doc, root, 4);
  g_assert_cmpint (v->type, ==, SMPROF_MARSHAL_DICT);
  g_assert_cmpuint (v->length, ==, 0);

  g_assert_cmpint (item (doc, root, 5)->type, ==, SMPROF_MARSHAL_NONE);
  /* the references are the very values flagged */
  g_assert_cmpuint (doc->items[root->v.items + 6], ==, doc->items[item (doc, root, 3)->v.items]);
  g_assert_cmpuint (doc->items[root->v.items + 7], ==, doc->items[root->v.items + 2]);
}

/* Random documents: a seeded generator writes one, and replays the same
 * choices over what the reader gives back. */
static void walk (GRand                    *rand,
                  guint                     depth,
                  GByteArray               *out,
                  const SmprofMarshal      *doc,
                  const SmprofMarshalValue *value);

static void
walk_items (GRand                    *rand,
            guint                     depth,
            guint                     n,
            GByteArray               *out,
            const SmprofMarshal      *doc,
            const SmprofMarshalValue *value)
{
  for (guint i = 0; i < n; i++)
    walk (rand, depth + 1, out, doc, value != NULL ? item (doc, value, i) : NULL);
}

/* Writes to @out if it is set, otherwise checks @value. */
static void
walk (GRand                    *rand,
      guint                     depth,
      GByteArray               *out,
      const SmprofMarshal      *doc,
      const SmprofMarshalValue *value)
{
  guint kind = g_rand_int_range (rand, 0, depth < 4 ? 7 : 5);

  switch (kind)
    {
    case 0:
      {
        guint64 bits = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
        /* every magnitude, either sign, both ends of 64 bits */
        gint64 i = (gint64) (bits >> g_rand_int_range (rand, 1, 64));

        if (g_rand_boolean (rand))
          i = -i - 1;

        if (out != NULL)
          smprof_marshal_put_int (out, i);
        else
          assert_int (value, i);
      }
      break;

    case 1:
      {
        double f = g_rand_double_range (rand, -1e6, 1e6);

        if (out != NULL)
          smprof_marshal_put_float (out, f);
        else
          {
            g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_FLOAT);
            g_assert_cmpfloat (value->v.f, ==, f);
          }
      }
      break;

    case 2:
      {
        char text[300];
        gsize length = g_rand_int_range (rand, 0, sizeof text);

        for (gsize i = 0; i < length; i++)
          text[i] = (char) g_rand_int_range (rand, 0, 256);
        if (out != NULL)
          smprof_marshal_put_string (out, text, length);
        else
          assert_string (value, text, length);
      }
      break;

    case 3:
      if (out != NULL)
        smprof_marshal_put_none (out);
      else
        g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_NONE);
      break;

    case 4:
      {
        gboolean b = g_rand_boolean (rand);

        if (out != NULL)
          smprof_marshal_put_bool (out, b);
        else
          {
            g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_BOOL);
            g_assert_cmpint (value->v.i, ==, b);
          }
      }
      break;

    case 5:
      {
        guint n = g_rand_int_range (rand, 0, 6);

        if (out != NULL)
          smprof_marshal_put_tuple (out, n);
        else
          {
            g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_TUPLE);
            g_assert_cmpuint (value->length, ==, n);
          }
        walk_items (rand, depth, n, out, doc, value);
      }
      break;

    default:
      {
        guint n = g_rand_int_range (rand, 0, 4);

        if (out != NULL)
          smprof_marshal_put_dict (out);
        else
          {
            g_assert_cmpint (value->type, ==, SMPROF_MARSHAL_DICT);
            g_assert_cmpuint (value->length, ==, n);
          }
        /* keys and values alike; a dict's keys need not be hashable here */
        walk_items (rand, depth, 2 * n, out, doc, value);
        if (out != NULL)
          smprof_marshal_put_dict_end (out);
      }
      break;
    }
}

static void
test_random_documents (void)
{
  for (guint32 seed = 1; seed <= 500; seed++)
    {
      g_autoptr(GRand) writer = g_rand_new_with_seed (seed);
      g_autoptr(GRand) checker = g_rand_new_with_seed (seed);
      g_autoptr(GByteArray) out = g_byte_array_new ();
      g_autoptr(SmprofMarshal) doc = NULL;

      walk (writer, 0, out, NULL, NULL);
      doc = parse (out);
      walk (checker, 0, NULL, doc, &doc->values[doc->root]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/marshal-writer/ints", test_ints);
  g_test_add_func ("/marshal-writer/floats", test_floats);
  g_test_add_func ("/marshal-writer/strings", test_strings);
  g_test_add_func ("/marshal-writer/containers", test_containers);
  g_test_add_func ("/marshal-writer/random-documents", test_random_documents);

  return g_test_run ();
}
