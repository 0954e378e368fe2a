/* test-enums.c: the public enums' GTypes, as properties, .ui files and
 * settings use them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glib-mkenums registers the core's and the exports' enums; their nicks are
 * the names the command line, the settings schema and .ui files use. Checked
 * here: the nicks are the names the string functions give, the plugin's
 * colour-scheme enum is the palette's, and widgets built from .ui text take
 * enum properties by name.
 */

#include <gtk/gtk.h>

#include "smprof-compare-view.h"
#include "smprof-core-enums.h"
#include "smprof-diff-table.h"
#include "smprof-export-enums.h"
#include "smprof-export.h"
#include "smprof-flame-graph.h"
#include "smprof-timeline.h"
#include "smprof-ui.h"

/* Where the viewer keeps the flame graphs' colour scheme. */
#define SCHEMA_ID        "io.github.smprof.Viewer.Plugin.SageMaker"
#define COLOR_SCHEME_KEY "flame-graph-color-scheme"

typedef const char *(*ToString) (int value);

/* Every value of @type has a nick, and it is what @to_string gives. */
static void
assert_nicks (GType        type,
              ToString     to_string,
              guint        n_values,
              const char  *first_nick)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);

  g_assert_true (G_TYPE_IS_ENUM (type));
  g_assert_cmpuint (klass->n_values, ==, n_values);
  g_assert_cmpstr (klass->values[0].value_nick, ==, first_nick);

  for (guint i = 0; i < klass->n_values; i++)
    {
      const GEnumValue *value = &klass->values[i];

      g_assert_nonnull (value->value_nick);
      if (to_string != NULL)
        g_assert_cmpstr (value->value_nick, ==, to_string (value->value));
    }
}

static void
test_nicks (void)
{
  assert_nicks (SMPROF_TYPE_PROFILER, (ToString) smprof_profiler_to_string, SMPROF_N_PROFILERS, "cprofile");
  assert_nicks (SMPROF_TYPE_EXPORT_FORMAT, (ToString) smprof_export_format_to_string, SMPROF_EXPORT_N_FORMATS,
                "svg");
  assert_nicks (SMPROF_TYPE_FLAME_PALETTE, (ToString) smprof_flame_palette_to_string, SMPROF_FLAME_N_PALETTES,
                "default");
  assert_nicks (SMPROF_TYPE_DIFF_NORMALIZE, (ToString) smprof_diff_normalize_to_string, 4, "none");
  assert_nicks (SMPROF_TYPE_DIFF_METRIC, (ToString) smprof_diff_metric_to_string, 3, "tottime");
  /* the command line's names: --direction up|down, --sort absdelta|..., report --html */
  assert_nicks (SMPROF_TYPE_FLAME_DIRECTION, NULL, 2, "up");
  assert_nicks (SMPROF_TYPE_DIFF_COLUMN, NULL, 6, "absdelta");
  assert_nicks (SMPROF_TYPE_REPORT_FORMAT, NULL, 2, "folder");
  assert_nicks (SMPROF_TYPE_MODE, NULL, SMPROF_N_MODES, "train");

  /* what the command line parses, the enum knows by the same nick */
  for (int i = 0; i < 6; i++)
    {
      g_autoptr(GEnumClass) klass = g_type_class_ref (SMPROF_TYPE_DIFF_COLUMN);
      SmprofDiffColumn column;

      g_assert_true (smprof_diff_column_from_string (klass->values[i].value_nick, &column));
      g_assert_cmpint (column, ==, klass->values[i].value);
    }
}

/* The schema's enum is the palette's: same nicks, same values. */
static void
test_settings_enum (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) key = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GVariant) range = NULL;
  g_autoptr(GVariant) nicks = NULL;
  g_autoptr(GEnumClass) klass = g_type_class_ref (SMPROF_TYPE_FLAME_PALETTE);
  const char *kind;

  g_assert_nonnull (source);
  schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
  g_assert_nonnull (schema);
  key = g_settings_schema_get_key (schema, COLOR_SCHEME_KEY);
  range = g_settings_schema_key_get_range (key);
  g_variant_get (range, "(&sv)", &kind, &nicks);
  g_assert_cmpstr (kind, ==, "enum");
  g_assert_cmpuint (g_variant_n_children (nicks), ==, klass->n_values);

  settings = g_settings_new (SCHEMA_ID);
  for (guint i = 0; i < klass->n_values; i++)
    {
      g_assert_true (g_settings_set_string (settings, COLOR_SCHEME_KEY, klass->values[i].value_nick));
      g_assert_cmpint (g_settings_get_enum (settings, COLOR_SCHEME_KEY), ==, klass->values[i].value);
    }
  g_settings_reset (settings, COLOR_SCHEME_KEY);
}

static GObject *
build (const char *ui,
       const char *id)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new ();
  g_autoptr(GError) error = NULL;
  GObject *object;

  gtk_builder_add_from_string (builder, ui, -1, &error);
  g_assert_no_error (error);
  object = gtk_builder_get_object (builder, id);
  g_assert_nonnull (object);

  return g_object_ref_sink (object);
}

/* .ui files name the values of enum properties. */
static void
test_ui_names (void)
{
  const char *ui =
    "<interface>"
    "  <object class='SmprofTimeline' id='timeline'><property name='profiler'>pyinstrument</property></object>"
    "  <object class='SmprofFlameGraph' id='flame'><property name='color-scheme'>colorblind</property></object>"
    "  <object class='SmprofCompareView' id='compare'><property name='normalize'>interval</property></object>"
    "  <object class='SmprofDiffTable' id='table'><property name='metric'>ncalls</property></object>"
    "</interface>";
  g_autoptr(GObject) timeline = NULL;
  g_autoptr(GObject) flame = NULL;
  g_autoptr(GObject) compare = NULL;
  g_autoptr(GObject) table = NULL;
  SmprofProfiler profiler;
  SmprofDiffNormalize normalize;
  SmprofDiffMetric metric;
  SmprofFlamePalette palette;

  g_type_ensure (SMPROF_TYPE_TIMELINE);
  g_type_ensure (SMPROF_TYPE_FLAME_GRAPH);
  g_type_ensure (SMPROF_TYPE_COMPARE_VIEW);
  g_type_ensure (SMPROF_TYPE_DIFF_TABLE);

  timeline = build (ui, "timeline");
  flame = build (ui, "flame");
  compare = build (ui, "compare");
  table = build (ui, "table");

  g_object_get (timeline, "profiler", &profiler, NULL);
  g_assert_cmpint (profiler, ==, SMPROF_PROFILER_PYINSTRUMENT);
  g_object_get (flame, "color-scheme", &palette, NULL);
  g_assert_cmpint (palette, ==, SMPROF_FLAME_PALETTE_COLORBLIND);
  g_assert_cmpstr (smprof_flame_graph_get_color_scheme (SMPROF_FLAME_GRAPH (flame)), ==, "colorblind");
  g_object_get (compare, "normalize", &normalize, NULL);
  g_assert_cmpint (normalize, ==, SMPROF_DIFF_NORMALIZE_INTERVAL);
  g_object_get (table, "metric", &metric, NULL);
  g_assert_cmpint (metric, ==, SMPROF_DIFF_METRIC_NCALLS);
}

int
main (int   argc,
      char *argv[])
{
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);
  /* the compare view and the diff table find their templates there; nothing
   * else of the page is linked in to register it */
  smprof_ui_ensure_resources ();

  g_test_add_func ("/enums/nicks", test_nicks);
  g_test_add_func ("/enums/settings-enum", test_settings_enum);
  g_test_add_func ("/enums/ui-names", test_ui_names);

  return g_test_run ();
}
