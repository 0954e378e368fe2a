/* test-viewer-host.c: what the viewer offers a page through the plugin API
 * (SmvHost): toasts over the page, and the page's banner
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A data source defined here, registered on the extension point as a plugin
 * would, opens anything into a document whose page is a plain box: the
 * window under test is the viewer's own.
 */

#include "smv-application.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "viewer-test-utils.h"

/* ------------------------------------------------------------------------ */
/* A data source that opens anything                                        */

#define TEST_TYPE_SOURCE (test_source_get_type ())
G_DECLARE_FINAL_TYPE (TestSource, test_source, TEST, SOURCE, GObject)

struct _TestSource
{
  GObject parent_instance;
};

static void test_source_iface_init (SmvDataSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestSource, test_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMV_TYPE_DATA_SOURCE, test_source_iface_init))

static const char * const *
test_source_get_uri_schemes (SmvDataSource *source)
{
  static const char * const schemes[] = { "test", NULL };

  return schemes;
}

static void
test_source_open_async (SmvDataSource       *source,
                        GFile               *location,
                        SmvProgress         *progress,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source, cancellable, callback, user_data);
  g_autofree char *uri = g_file_get_uri (location);

  g_task_return_pointer (task,
                         g_object_new (SMV_TYPE_DOCUMENT, "location", location, "title", uri, NULL),
                         g_object_unref);
}

static SmvDocument *
test_source_open_finish (SmvDataSource  *source,
                         GAsyncResult   *result,
                         GError        **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static GtkWidget *
test_source_create_page (SmvDataSource *source,
                         SmvDocument   *document)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_set_name (page, "test-page");
  gtk_box_append (GTK_BOX (page), gtk_label_new (smv_document_get_title (document)));

  return page;
}

static void
test_source_iface_init (SmvDataSourceInterface *iface)
{
  iface->get_uri_schemes = test_source_get_uri_schemes;
  iface->open_async = test_source_open_async;
  iface->open_finish = test_source_open_finish;
  iface->create_page = test_source_create_page;
}

static void
test_source_class_init (TestSourceClass *klass)
{
}

static void
test_source_init (TestSource *self)
{
}

/* ------------------------------------------------------------------------ */

static SmvSourceRegistry *
test_registry (void)
{
  static gsize registered = 0;
  const char *dirs[] = { NULL };

  if (g_once_init_enter (&registered))
    {
      smv_data_source_ensure_extension_point ();
      g_io_extension_point_implement (SMV_DATA_SOURCE_EXTENSION_POINT_NAME, TEST_TYPE_SOURCE, "test", 0);
      g_once_init_leave (&registered, 1);
    }

  return smv_source_registry_new (dirs);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
shows_document (gpointer data)
{
  return g_strcmp0 (smv_window_get_view_name (data), "document") == 0;
}

static SmvWindow *
open_test_document (SmvSourceRegistry *registry,
                    const char        *uri)
{
  g_autoptr(GFile) location = g_file_new_for_uri (uri);
  SmvWindow *window = smv_window_new (NULL, registry, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  smv_window_open (window, location);
  g_assert_true (viewer_test_wait (shows_document, window, 5000));
  g_assert_nonnull (smv_window_get_page (window));

  return window;
}

/* The label showing @text below @root, if any. */
static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (root)), text) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

typedef struct
{
  GtkWidget  *root;
  const char *text;
} Shown;

/* @text is on screen: a mapped label inside the window's area. */
static gboolean
label_shown (gpointer data)
{
  Shown *shown = data;
  GtkWidget *label = find_label (shown->root, shown->text);
  graphene_rect_t bounds;

  if (label == NULL || !gtk_widget_is_drawable (label) || gtk_widget_get_width (label) == 0)
    return FALSE;
  if (!gtk_widget_compute_bounds (label, shown->root, &bounds))
    return FALSE;

  return bounds.origin.x >= 0 && bounds.origin.y >= 0 &&
         bounds.origin.x + bounds.size.width <= gtk_widget_get_width (shown->root) &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (shown->root);
}

static gboolean
label_gone (gpointer data)
{
  Shown *shown = data;

  return find_label (shown->root, shown->text) == NULL;
}

static void
test_find (void)
{
  g_autoptr(SmvSourceRegistry) registry = test_registry ();
  g_autoptr(GtkWidget) loose = g_object_ref_sink (gtk_label_new ("not in a window"));
  SmvWindow *window;
  GtkWidget *page;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  /* A page nobody shows has no host. */
  g_assert_null (smv_host_find (loose));

  window = open_test_document (registry, "test://one");
  page = smv_window_get_page (window);
  g_assert_true (SMV_IS_HOST (window));
  g_assert_true (smv_host_find (page) == SMV_HOST (window));
  /* ... and a widget deep inside the page finds it too. */
  g_assert_true (smv_host_find (gtk_widget_get_first_child (page)) == SMV_HOST (window));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_toast (void)
{
  g_autoptr(SmvSourceRegistry) registry = test_registry ();
  SmvWindow *window;
  AdwToast *toast;
  Shown shown;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_test_document (registry, "test://toast");
  toast = adw_toast_new ("Exported “job.svg”");
  adw_toast_set_timeout (toast, 1);
  smv_host_add_toast (smv_host_find (smv_window_get_page (window)), toast);

  /* On screen, over the page, inside the window... */
  shown = (Shown) { GTK_WIDGET (window), "Exported “job.svg”" };
  g_assert_true (viewer_test_wait (label_shown, &shown, 5000));
  g_assert_true (gtk_widget_is_ancestor (find_label (GTK_WIDGET (window), shown.text),
                                         GTK_WIDGET (smv_window_get_toast_overlay (window))));
  g_object_unref (viewer_test_render (GTK_WIDGET (window), "viewer-toast.png"));
  /* ... and gone by itself after its timeout. */
  g_assert_true (viewer_test_wait (label_gone, &shown, 10000));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_banner (void)
{
  g_autoptr(SmvSourceRegistry) registry = test_registry ();
  g_autoptr(GFile) other = g_file_new_for_uri ("test://other");
  SmvWindow *window;
  GtkInfoBar *page_banner;
  SmvHost *host;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_test_document (registry, "test://banner");
  host = smv_host_find (smv_window_get_page (window));
  page_banner = smv_window_get_page_banner (window);
  g_assert_false (gtk_info_bar_get_revealed (page_banner));

  smv_host_show_banner (host, SMV_BANNER_ERROR, "Could not export “job.svg”", "No space left on device");
  g_assert_true (gtk_info_bar_get_revealed (page_banner));
  g_assert_cmpint (gtk_info_bar_get_message_type (page_banner), ==, GTK_MESSAGE_ERROR);
  g_assert_cmpstr (viewer_test_label_text (GTK_WIDGET (window), "page-banner-title"), ==, "Could not export “job.svg”");
  g_assert_cmpstr (viewer_test_label_text (GTK_WIDGET (window), "page-banner-detail"), ==, "No space left on device");
  g_assert_true (gtk_widget_get_visible (viewer_test_find (GTK_WIDGET (window), "page-banner-detail")));
  /* The window's own banner is another one, untouched. */
  g_assert_false (gtk_info_bar_get_revealed (smv_window_get_banner (window)));
  viewer_test_spin (300);
  g_assert_true (gtk_widget_is_drawable (viewer_test_find (GTK_WIDGET (window), "page-banner-title")));

  /* A warning without detail replaces it. */
  smv_host_show_banner (host, SMV_BANNER_WARNING, "Some steps were left out", NULL);
  g_assert_cmpint (gtk_info_bar_get_message_type (page_banner), ==, GTK_MESSAGE_WARNING);
  g_assert_cmpstr (viewer_test_label_text (GTK_WIDGET (window), "page-banner-title"), ==, "Some steps were left out");
  g_assert_false (gtk_widget_get_visible (viewer_test_find (GTK_WIDGET (window), "page-banner-detail")));

  /* The page hides it... */
  smv_host_hide_banner (host);
  g_assert_false (gtk_info_bar_get_revealed (page_banner));

  /* ... or the user closes it... */
  smv_host_show_banner (host, SMV_BANNER_INFO, "Nothing to compare yet", NULL);
  g_assert_cmpint (gtk_info_bar_get_message_type (page_banner), ==, GTK_MESSAGE_INFO);
  gtk_info_bar_response (page_banner, GTK_RESPONSE_CLOSE);
  g_assert_false (gtk_info_bar_get_revealed (page_banner));

  /* ... and another document takes it away with the page. */
  smv_host_show_banner (host, SMV_BANNER_ERROR, "Could not export", NULL);
  smv_window_open (window, other);
  g_assert_true (viewer_test_wait (shows_document, window, 5000));
  viewer_test_spin (100);
  g_assert_false (gtk_info_bar_get_revealed (page_banner));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  viewer_test_init (&argc, &argv);

  g_test_add_func ("/viewer/host/find", test_find);
  g_test_add_func ("/viewer/host/toast", test_toast);
  g_test_add_func ("/viewer/host/banner", test_banner);

  return g_test_run ();
}
