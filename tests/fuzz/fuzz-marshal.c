/* fuzz-marshal.c: smprof_marshal_parse() on arbitrary bytes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Checks that a decoded document only points inside itself and its input.
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-marshal.h"
#include "smprof-types.h"

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = fuzz_bytes (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofMarshal) doc = smprof_marshal_parse (bytes, &error);
  const char *start;
  gsize length;

  if (doc == NULL)
    {
      fuzz_check_error (error, SMPROF_FORMAT_ERROR);
      FUZZ_CHECK (g_str_has_prefix (error->message, "byte "));
      return 0;
    }

  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (doc->root < doc->n_values);
  start = g_bytes_get_data (doc->bytes, &length);

  for (guint i = 0; i < doc->n_values; i++)
    {
      const SmprofMarshalValue *value = &doc->values[i];
      gsize n_items = 0;

      FUZZ_CHECK (value->offset < length);

      switch (value->type)
        {
        case SMPROF_MARSHAL_STRING:
          FUZZ_CHECK (value->length == 0 ||
                      (value->v.s >= start && value->v.s + value->length <= start + length));
          break;
        case SMPROF_MARSHAL_TUPLE:
          n_items = value->length;
          break;
        case SMPROF_MARSHAL_DICT:
          n_items = (gsize) value->length * 2;
          break;
        case SMPROF_MARSHAL_NONE:
        case SMPROF_MARSHAL_BOOL:
        case SMPROF_MARSHAL_INT:
        case SMPROF_MARSHAL_FLOAT:
          break;
        default:
          FUZZ_CHECK (!"unknown value type");
        }

      if (n_items > 0)
        {
          FUZZ_CHECK ((gsize) value->v.items + n_items <= doc->n_items);
          for (gsize k = 0; k < n_items; k++)
            FUZZ_CHECK (doc->items[value->v.items + k] < doc->n_values);
        }
    }

  return 0;
}
