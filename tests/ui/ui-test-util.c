/* ui-test-util.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdlib.h>

#include <gdk/x11/gdkx.h>

#include "smprof-job.h"
#include "smprof-local-source.h"
#include "smprof-query.h"
#include "ui-test-util.h"

/* A job of tests/data/real-smdebug, every interval of the default ("any")
 * node: what `smprof stats JOB --all` aggregates. */
SmprofProfile *
ui_test_load_profile (const char     *job_name,
                      SmprofProfiler  profiler)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", job_name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (path, &error);
  g_autoptr(SmprofJob) job = NULL;
  g_auto(GStrv) node_ids = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  SmprofNodeChoice choice = { SMPROF_NODES_ANY, NULL };
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  GPtrArray *records;

  g_assert_no_error (error);
  job = smprof_job_new (source);
  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);

  records = smprof_job_get_records (job, profiler);
  node_ids = smprof_node_choice_resolve (&choice, records);
  g_assert_nonnull (node_ids);

  selected = smprof_select (records, (const char * const *) node_ids, &all);
  g_assert_cmpuint (selected->len, >, 0);
  g_assert_true (smprof_job_load_stats (job, selected, NULL, &error));
  g_assert_no_error (error);

  return smprof_profile_new (job, profiler, (const char * const *) node_ids, selected);
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  g_main_context_wakeup (NULL);
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for a moment, so layout, list rows and frames settle. */
void
ui_test_settle (void)
{
  gboolean done = FALSE;

  g_timeout_add (150, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* @child alone in an undecorated window of that size, mapped and allocated. */
GtkWidget *
ui_test_present (GtkWidget *child,
                 int        width,
                 int        height)
{
  GtkWidget *window = gtk_window_new ();
  gboolean timed_out = FALSE;
  guint id;

  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));

  id = g_timeout_add (5000, timeout_cb, &timed_out);
  while (!timed_out && (!gtk_widget_get_mapped (child) || gtk_widget_get_width (child) == 0))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);

  ui_test_settle ();

  return window;
}

/* The widget as GTK last drew it, through a standalone cairo renderer. A
 * widget paintable replays the widget's last frame; when a state change (the
 * window taking focus) has just dropped it, wait for the next frame. */
GdkTexture *
ui_test_render (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  GskRenderNode *node = NULL;
  GdkTexture *texture;
  int width = 0, height = 0;

  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));

  for (guint attempt = 0; node == NULL && attempt < 40; attempt++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      if (attempt > 0)
        ui_test_settle ();

      width = gtk_widget_get_width (widget);
      height = gtk_widget_get_height (widget);
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);

  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);

  return texture;
}

/* 0xAARRGGBB (premultiplied, as gdk_texture_download() gives it). */
guint32
ui_test_pixel (GdkTexture *texture,
               int         x,
               int         y)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize) width * 4;
  guchar *data;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, width);
  g_assert_cmpint (y, <, height);

  /* A texture never changes: download it once, not once per pixel (a
   * window is megabytes, and tests read thousands of its pixels). */
  data = g_object_get_data (G_OBJECT (texture), "ui-test-pixels");
  if (data == NULL)
    {
      data = g_malloc (stride * height);
      gdk_texture_download (texture, data, stride);
      g_object_set_data_full (G_OBJECT (texture), "ui-test-pixels", data, g_free);
    }

  return *(guint32 *) (data + y * stride + x * 4);
}

/**
 * ui_test_collect_rows:
 * @widget: a widget holding list or column views
 * @rows: (element-type GtkWidget): where the visible row widgets of
 *   @widget's tree are added, in the order they are drawn
 */
void
ui_test_collect_rows (GtkWidget *widget,
                      GPtrArray *rows)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (g_str_equal (gtk_widget_get_css_name (child), "row") && gtk_widget_get_visible (child))
        g_ptr_array_add (rows, child);
      else
        ui_test_collect_rows (child, rows);
    }
}

guint
ui_test_count_colors (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize) width * 4;
  g_autofree guchar *data = g_malloc (stride * height);
  g_autoptr(GHashTable) colors = g_hash_table_new (NULL, NULL);

  gdk_texture_download (texture, data, stride);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      g_hash_table_add (colors, GUINT_TO_POINTER (*(guint32 *) (data + y * stride + x * 4)));

  return g_hash_table_size (colors);
}

/* Into the test's working directory only: for looking at a failure. */
void
ui_test_save_local (GdkTexture *texture,
                    const char *name)
{
  g_assert_true (gdk_texture_save_to_png (texture, name));
}

/* Into the test's working directory, and into $SMPROF_SCREENSHOTS_DIR when
 * set (the README's screenshots in data/screenshots/ come from there). */
void
ui_test_save (GdkTexture *texture,
              const char *name)
{
  const char *dir = g_getenv ("SMPROF_SCREENSHOTS_DIR");

  ui_test_save_local (texture, name);

  if (dir != NULL && dir[0] != '\0')
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot saved to %s", path);
    }
}

/* Whether @a and @b have the same pixels in the rectangle (@x, @y, @width,
 * @height); the first difference is reported. */
gboolean
ui_test_same_pixels (GdkTexture *a,
                     GdkTexture *b,
                     int         x,
                     int         y,
                     int         width,
                     int         height)
{
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  for (int j = y; j < y + height; j++)
    for (int i = x; i < x + width; i++)
      if (ui_test_pixel (a, i, j) != ui_test_pixel (b, i, j))
        {
          g_test_message ("pixel (%d, %d): %08x, then %08x", i, j, ui_test_pixel (a, i, j), ui_test_pixel (b, i, j));
          return FALSE;
        }

  return TRUE;
}

guint32
ui_test_rgb_to_pixel (const double rgb[3])
{
  guint32 r = (guint32) lround (rgb[0] * 255);
  guint32 g = (guint32) lround (rgb[1] * 255);
  guint32 b = (guint32) lround (rgb[2] * 255);

  return 0xff000000u | r << 16 | g << 8 | b;
}

gboolean
ui_test_pixel_near (guint32 a,
                    guint32 b,
                    int     tolerance)
{
  for (guint shift = 0; shift <= 24; shift += 8)
    if (abs ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > tolerance)
      return FALSE;

  return TRUE;
}

/* Whether every pixel of the area is within @tolerance of the other's, on
 * each channel; says how many differ at all, and by how much at most. */
gboolean
ui_test_near_pixels (GdkTexture *a,
                     GdkTexture *b,
                     int         x,
                     int         y,
                     int         width,
                     int         height,
                     int         tolerance)
{
  guint n_differ = 0;
  int worst = 0;

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  for (int j = y; j < y + height; j++)
    for (int i = x; i < x + width; i++)
      {
        guint32 pa = ui_test_pixel (a, i, j), pb = ui_test_pixel (b, i, j);

        if (pa == pb)
          continue;
        n_differ++;
        for (guint shift = 0; shift <= 24; shift += 8)
          worst = MAX (worst, abs ((int) ((pa >> shift) & 0xff) - (int) ((pb >> shift) & 0xff)));
      }

  g_test_message ("%u of %d pixels differ, by %d at most", n_differ, width * height, worst);
  return worst <= tolerance;
}

/* ------------------------------------------------------------------------ */
/* Real input: X events through xdotool (XTEST), the way a person's keys and
 * clicks arrive, so that every controller on the way sees them in order (a
 * paned's own key bindings, a list's focus handling), not only the one a
 * test would activate by hand. */

static gulong
x_window (GtkWidget *widget)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (widget));

  g_assert_true (GDK_IS_X11_SURFACE (surface));

  return gdk_x11_surface_get_xid (surface);
}

static void
run_xdotool (const char * const *args)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  g_strv_builder_add (builder, "xdotool");
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);

  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("xdotool %s failed: %s", args[0], err);
  ui_test_settle ();
}

/* The last key xdotool presses after a test's keys or clicks, which no
 * widget uses: once the window has it, it has had every event before it,
 * however busy the machine (xdotool returns before the server has sent
 * them all). */
#define SENTINEL_KEY     "XF86Launch9"
#define SENTINEL_KEYVAL  GDK_KEY_Launch9

static gboolean
sentinel_pressed_cb (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     gboolean              *seen)
{
  if (keyval != SENTINEL_KEYVAL)
    return FALSE;

  *seen = TRUE;
  return TRUE;
}

static GtkEventController *
watch_sentinel (GtkWidget *widget,
                gboolean  *seen)
{
  GtkEventController *controller = gtk_event_controller_key_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "key-pressed", G_CALLBACK (sentinel_pressed_cb), seen);
  gtk_widget_add_controller (widget, controller);

  return controller;
}

/* @popover (nullable): a popover the keys may open or act in; an open
 * popover holds the keyboard, so the sentinel may arrive there instead. */
static void
run_xdotool_keys_full (GtkWidget          *widget,
                       GtkPopover         *popover,
                       const char * const *args)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gboolean seen = FALSE;
  GtkEventController *controller = watch_sentinel (root, &seen);
  GtkEventController *popover_controller = popover != NULL ? watch_sentinel (GTK_WIDGET (popover), &seen) : NULL;

  run_xdotool (args);
  run_xdotool ((const char *[]) { "key", "--clearmodifiers", SENTINEL_KEY, NULL });
  while (!seen && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);

  gtk_widget_remove_controller (root, controller);
  if (popover_controller != NULL)
    gtk_widget_remove_controller (GTK_WIDGET (popover), popover_controller);
  g_assert_true (seen);
  ui_test_settle ();
}

static void
run_xdotool_keys (GtkWidget          *widget,
                  const char * const *args)
{
  run_xdotool_keys_full (widget, NULL, args);
}

/* Gives @widget's window the keyboard (there is no window manager under Xvfb). */
void
ui_test_x_focus (GtkWidget *widget)
{
  g_autofree char *id = g_strdup_printf ("%lu", x_window (widget));

  run_xdotool ((const char *[]) { "windowfocus", "--sync", id, NULL });
}

/* Presses @keys (xdotool's names, space-separated: "Tab Tab Return", "shift+F8"). */
void
ui_test_x_keys (GtkWidget  *widget,
                const char *keys)
{
  g_auto(GStrv) names = g_strsplit (keys, " ", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) args = NULL;

  ui_test_x_focus (widget);
  g_strv_builder_add_many (builder, "key", "--clearmodifiers", "--delay", "40", NULL);
  g_strv_builder_addv (builder, (const char **) names);
  args = g_strv_builder_end (builder);
  run_xdotool_keys (widget, (const char * const *) args);
}

/* ui_test_x_keys() for keys that open @popover or act in it. */
void
ui_test_x_keys_popover (GtkWidget  *widget,
                        GtkPopover *popover,
                        const char *keys)
{
  g_auto(GStrv) names = g_strsplit (keys, " ", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) args = NULL;

  ui_test_x_focus (widget);
  g_strv_builder_add_many (builder, "key", "--clearmodifiers", "--delay", "40", NULL);
  g_strv_builder_addv (builder, (const char **) names);
  args = g_strv_builder_end (builder);
  run_xdotool_keys_full (widget, popover, (const char * const *) args);
}

void
ui_test_x_type (GtkWidget  *widget,
                const char *text)
{
  ui_test_x_focus (widget);
  run_xdotool_keys (widget, (const char *[]) { "type", "--delay", "40", text, NULL });
}

/* Clicks at (@x, @y) in @widget's coordinates. */
void
ui_test_x_click (GtkWidget *widget,
                 double     x,
                 double     y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  g_autofree char *id = g_strdup_printf ("%lu", x_window (widget));
  g_autofree char *sx = NULL, *sy = NULL;
  graphene_point_t point;
  double dx, dy;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &point));
  gtk_native_get_surface_transform (native, &dx, &dy);
  sx = g_strdup_printf ("%d", (int) round (point.x + dx));
  sy = g_strdup_printf ("%d", (int) round (point.y + dy));
  ui_test_x_focus (widget);
  run_xdotool_keys (widget, (const char *[]) { "mousemove", "--window", id, "--sync", sx, sy, "click", "1", NULL });
}
