/* viewer-test-utils.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "viewer-test-utils.h"

static gboolean have_display;

/**
 * viewer_test_init:
 *
 * g_test_init() with private XDG user folders (the recent-jobs file lands in
 * the build tree), the C locale (numbers with a decimal point), then GTK if
 * a display is there. Without one, the UI tests skip instead of failing.
 *
 * Returns: whether GTK could open the display
 */
/* Private XDG folders in the build tree, so the recent-jobs file and caches
 * never touch the user's; the system data folders stay, for the icon theme. */
static void
isolate_user_dirs (const char *program)
{
  const char *builddir = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *base = g_strdup_printf ("%s-xdg", program);
  g_autofree char *root = g_build_filename (builddir != NULL ? builddir : g_get_tmp_dir (), base, NULL);
  const char *names[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME" };
  const char *folders[] = { "data", "config", "cache", "state" };
  g_autofree char *recent = g_build_filename (root, "data", "smprof-viewer", "recent-jobs.ini", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (root, folders[i], NULL);

      g_mkdir_with_parents (path, 0700);
      g_setenv (names[i], path, TRUE);
    }
  g_remove (recent);
}

/* A display was given but refused the connection (seen once in CI under
 * AddressSanitizer while another test connected). GTK cannot be initialised
 * twice in a process, so the test starts again in a fresh one, a few times,
 * before it gives up and skips. */
#define DISPLAY_TRIES_VARIABLE "SMPROF_TEST_DISPLAY_TRIES"
#define MAX_DISPLAY_TRIES 5

static void
retry_in_new_process (char **original_argv)
{
  const char *tries = g_getenv (DISPLAY_TRIES_VARIABLE);
  guint64 n = tries != NULL ? g_ascii_strtoull (tries, NULL, 10) : 0;
  g_autofree char *next = NULL;

  if (n >= MAX_DISPLAY_TRIES)
    return;

  next = g_strdup_printf ("%" G_GUINT64_FORMAT, n + 1);
  g_setenv (DISPLAY_TRIES_VARIABLE, next, TRUE);
  g_printerr ("%s: the display refused a connection, starting again (%s of %d)\n",
              original_argv[0], next, MAX_DISPLAY_TRIES);
  fflush (stdout);
  g_usleep (G_USEC_PER_SEC / 2);
  execv ("/proc/self/exe", original_argv);
}

gboolean
viewer_test_init (int    *argc,
                  char ***argv)
{
  g_autofree char *program = g_path_get_basename ((*argv)[0]);
  /* g_test_init() takes its options out of argv: a new process needs them */
  g_auto(GStrv) original_argv = g_strdupv (*argv);

  isolate_user_dirs (program);
  g_test_init (argc, argv, NULL);
  gtk_disable_setlocale ();
  have_display = gtk_init_check ();
  /* libadwaita's style sheet and style manager, as AdwApplication sets up */
  if (have_display)
    adw_init ();

  if (!have_display && (g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL))
    retry_in_new_process (original_argv);

  return have_display;
}

gboolean
viewer_test_have_display (void)
{
  return have_display;
}

static gboolean
timeout_cb (gpointer data)
{
  gboolean *timed_out = data;

  *timed_out = TRUE;
  g_main_context_wakeup (NULL);

  return G_SOURCE_REMOVE;
}

/**
 * viewer_test_wait:
 * @condition: what to wait for
 * @data: its argument
 * @timeout_ms: how long to wait at most
 *
 * Runs the main context until @condition holds.
 *
 * Returns: whether it held before the time ran out
 */
gboolean
viewer_test_wait (ViewerTestCondition condition,
                  gpointer            data,
                  guint               timeout_ms)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (timeout_ms, timeout_cb, &timed_out);

  while (!condition (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (id);

  return condition (data);
}

static gboolean
never (gpointer data)
{
  return FALSE;
}

/* Runs the main context for @ms milliseconds. */
void
viewer_test_spin (guint ms)
{
  viewer_test_wait (never, NULL, ms);
}

/**
 * viewer_test_find:
 * @root: where to start
 * @name: a widget name (the "name" property in the .ui files)
 *
 * Returns: (transfer none) (nullable): the first widget named @name, depth first
 */
GtkWidget *
viewer_test_find (GtkWidget  *root,
                  const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = viewer_test_find (child, name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The text of the label named @name below @root; fails the test if absent. */
const char *
viewer_test_label_text (GtkWidget  *root,
                        const char *name)
{
  GtkWidget *label = viewer_test_find (root, name);

  g_assert_nonnull (label);
  g_assert_true (GTK_IS_LABEL (label));

  return gtk_label_get_label (GTK_LABEL (label));
}

/**
 * viewer_test_press_shortcut:
 * @widget: a widget with class shortcuts (key bindings)
 * @accelerator: a key, as gtk_shortcut_trigger_parse_string() reads it
 *
 * Activates the shortcut @widget's class binds to @accelerator, as the key
 * press would (GTK 4 has no public way to synthesise key events).
 *
 * Returns: whether a shortcut was found and activated
 */
gboolean
viewer_test_press_shortcut (GtkWidget  *widget,
                            const char *accelerator)
{
  g_autoptr(GtkShortcutTrigger) wanted = gtk_shortcut_trigger_parse_string (accelerator);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  g_assert_nonnull (wanted);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), wanted))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                                 GTK_SHORTCUT_ACTION_EXCLUSIVE, widget,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }

  return FALSE;
}

/* The status page named @name below @root; fails the test if absent. */
AdwStatusPage *
viewer_test_status_page (GtkWidget  *root,
                         const char *name)
{
  GtkWidget *page = viewer_test_find (root, name);

  g_assert_nonnull (page);
  g_assert_true (ADW_IS_STATUS_PAGE (page));

  return ADW_STATUS_PAGE (page);
}

static gboolean
transition_running (GtkWidget *widget)
{
  if (GTK_IS_STACK (widget) && gtk_stack_get_transition_running (GTK_STACK (widget)))
    return TRUE;
  if (GTK_IS_REVEALER (widget) &&
      gtk_revealer_get_child_revealed (GTK_REVEALER (widget)) != gtk_revealer_get_reveal_child (GTK_REVEALER (widget)))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (transition_running (child))
      return TRUE;

  return FALSE;
}

static gboolean
transitions_done (gpointer data)
{
  return !transition_running (data);
}

static void
after_paint_cb (GdkFrameClock *clock,
                gboolean      *painted)
{
  *painted = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* Runs the main loop until no stack or revealer in @widget is in the middle
 * of a transition, then until one more frame is painted (a widget paintable
 * shows the last frame). A crossfade draws a page at part opacity, and on a
 * busy machine the window's crossfade to the job page may still be running
 * when a test looks at its pixels. */
void
viewer_test_wait_transitions (GtkWidget *widget)
{
  GdkFrameClock *clock;
  gboolean painted = FALSE;
  gulong id;

  g_assert_true (viewer_test_wait (transitions_done, widget, 10000));

  clock = gtk_widget_get_frame_clock (widget);
  if (clock == NULL)
    return;
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &painted);
  gtk_widget_queue_draw (widget);
  g_assert_true (viewer_test_wait (flag_set, &painted, 10000));
  g_signal_handler_disconnect (clock, id);
}

/**
 * viewer_test_render:
 * @widget: a mapped, allocated widget
 * @png_name: (nullable): a PNG to write in the test's build folder
 *
 * Renders @widget with a standalone cairo renderer (toolchain.md §1).
 *
 * Returns: (transfer full): the pixels
 */
GdkTexture *
viewer_test_render (GtkWidget  *widget,
                    const char *png_name)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  GdkTexture *texture;

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  viewer_test_wait_transitions (widget);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  /* The paintable holds what the window last drew: none yet when a paint
   * was skipped (seen on a screen wider than the window); ask again. */
  for (guint tries = 0; node == NULL && tries < 20; tries++)
    {
      viewer_test_wait_transitions (widget);
      viewer_test_spin (100);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);

  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_renderer_unrealize (renderer);

  if (png_name != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                                png_name, NULL);

      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot: %s", path);
    }

  return texture;
}

/**
 * viewer_test_save_screenshot:
 * @texture: pixels
 * @name: a file name
 *
 * Saves @texture in $SMPROF_SCREENSHOTS_DIR when it is set (the README's
 * pictures: SMPROF_SCREENSHOTS_DIR=$PWD/data/screenshots).
 */
void
viewer_test_save_screenshot (GdkTexture *texture,
                             const char *name)
{
  const char *dir = g_getenv ("SMPROF_SCREENSHOTS_DIR");
  g_autofree char *path = NULL;

  if (dir == NULL || dir[0] == '\0')
    return;

  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot saved to %s", path);
}

/* One pixel as 0xAARRGGBB (premultiplied). */
guint32
viewer_test_pixel (GdkTexture *texture,
                   int         x,
                   int         y)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  guchar *pixels;
  guint32 value;

  /* downloaded once: a texture never changes */
  pixels = g_object_get_data (G_OBJECT (texture), "viewer-test-pixels");
  if (pixels == NULL)
    {
      pixels = g_malloc ((gsize) width * height * 4);
      gdk_texture_download (texture, pixels, (gsize) width * 4);
      g_object_set_data_full (G_OBJECT (texture), "viewer-test-pixels", pixels, g_free);
    }
  memcpy (&value, pixels + ((gsize) y * width + x) * 4, sizeof value);

  return value;
}

/**
 * viewer_test_count_colors:
 * @texture: pixels
 * @background: a colour as 0xAARRGGBB
 * @n_differing: (out): how many pixels differ from @background
 *
 * Returns: how many distinct colours the texture has
 */
guint
viewer_test_count_colors (GdkTexture *texture,
                          guint32     background,
                          guint      *n_differing)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) width * height);
  g_autoptr(GHashTable) colors = g_hash_table_new (NULL, NULL);

  gdk_texture_download (texture, (guchar *) pixels, (gsize) width * 4);

  *n_differing = 0;
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      g_hash_table_add (colors, GUINT_TO_POINTER (pixels[i]));
      if (pixels[i] != background)
        (*n_differing)++;
    }

  return g_hash_table_size (colors);
}
