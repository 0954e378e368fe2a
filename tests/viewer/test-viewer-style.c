/* test-viewer-style.c: the viewer follows the desktop's light or dark
 * preference from the settings portal, at start and live
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test serves org.freedesktop.portal.Settings on the session bus itself
 * (dbus-run-session gives it a private bus), from a thread with its own
 * connection and main context: the viewer reads it synchronously at start
 * and must not wait on its own main loop. The answer to Read is what
 * xdg-desktop-portal sends, a (v) tuple whose variant holds a variant that
 * holds the uint32. The application is the viewer's own, opening the sample
 * job; the test looks at the colours of the rendered window.
 */

#include <string.h>

#include "smv-application.h"
#include "smv-window.h"
#include "viewer-test-utils.h"

#define PORTAL_BUS_NAME    "org.freedesktop.portal.Desktop"
#define PORTAL_OBJECT_PATH "/org/freedesktop/portal/desktop"
#define PORTAL_INTERFACE   "org.freedesktop.portal.Settings"
#define APPEARANCE         "org.freedesktop.appearance"

/* org.freedesktop.appearance color-scheme */
enum { NO_PREFERENCE = 0, PREFER_DARK = 1, PREFER_LIGHT = 2 };

static const char portal_xml[] =
  "<node>"
  "  <interface name='" PORTAL_INTERFACE "'>"
  "    <method name='ReadAll'>"
  "      <arg type='as' name='namespaces' direction='in'/>"
  "      <arg type='a{sa{sv}}' name='value' direction='out'/>"
  "    </method>"
  "    <method name='Read'>"
  "      <arg type='s' name='namespace' direction='in'/>"
  "      <arg type='s' name='key' direction='in'/>"
  "      <arg type='v' name='value' direction='out'/>"
  "    </method>"
  "    <signal name='SettingChanged'>"
  "      <arg type='s' name='namespace'/>"
  "      <arg type='s' name='key'/>"
  "      <arg type='v' name='value'/>"
  "    </signal>"
  "    <property name='version' type='u' access='read'/>"
  "  </interface>"
  "</node>";

typedef struct
{
  GThread         *thread;
  GMainContext    *context;
  GMainLoop       *loop;
  GDBusConnection *connection;
  GDBusNodeInfo   *info;
  guint            owner_id;
  guint            object_id;
  gint             color_scheme;   /* atomic */
  guint            n_reads;        /* atomic: Read calls for color-scheme */

  GMutex           lock;
  GCond            cond;
  int              state;          /* 0 starting, 1 name owned, -1 failed */
} FakePortal;

static FakePortal portal;

static void
portal_method_cb (GDBusConnection       *connection,
                  const char            *sender,
                  const char            *path,
                  const char            *interface,
                  const char            *method,
                  GVariant              *parameters,
                  GDBusMethodInvocation *invocation,
                  gpointer               user_data)
{
  if (g_strcmp0 (method, "Read") == 0)
    {
      const char *namespace;
      const char *key;

      g_variant_get (parameters, "(&s&s)", &namespace, &key);
      if (g_strcmp0 (namespace, APPEARANCE) == 0 && g_strcmp0 (key, "color-scheme") == 0)
        {
          guint32 scheme = (guint32) g_atomic_int_get (&portal.color_scheme);

          g_atomic_int_inc ((gint *) &portal.n_reads);
          g_dbus_method_invocation_return_value (invocation,
                                                 g_variant_new ("(v)",
                                                                g_variant_new_variant (g_variant_new_uint32 (scheme))));
          return;
        }

      g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.portal.Error.NotFound",
                                                  "Requested setting not found");
      return;
    }

  if (g_strcmp0 (method, "ReadAll") == 0)
    {
      g_auto(GVariantBuilder) all = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{sa{sv}}"));
      g_auto(GVariantBuilder) appearance = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{sv}"));

      g_variant_builder_add (&appearance, "{sv}", "color-scheme",
                             g_variant_new_uint32 ((guint32) g_atomic_int_get (&portal.color_scheme)));
      g_variant_builder_add (&all, "{s@a{sv}}", APPEARANCE, g_variant_builder_end (&appearance));
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(@a{sa{sv}})", g_variant_builder_end (&all)));
      return;
    }

  g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.DBus.Error.UnknownMethod", method);
}

static GVariant *
portal_get_property_cb (GDBusConnection  *connection,
                        const char       *sender,
                        const char       *path,
                        const char       *interface,
                        const char       *property,
                        GError          **error,
                        gpointer          user_data)
{
  return g_variant_new_uint32 (1);
}

static const GDBusInterfaceVTable portal_vtable = {
  .method_call = portal_method_cb,
  .get_property = portal_get_property_cb,
};

static void
set_state (int state)
{
  g_mutex_lock (&portal.lock);
  portal.state = state;
  g_cond_broadcast (&portal.cond);
  g_mutex_unlock (&portal.lock);
}

static void
name_acquired_cb (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  set_state (1);
}

static void
name_lost_cb (GDBusConnection *connection,
              const char      *name,
              gpointer         user_data)
{
  set_state (-1);
}

static gpointer
portal_thread (gpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;

  g_main_context_push_thread_default (portal.context);

  address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (address != NULL)
    portal.connection = g_dbus_connection_new_for_address_sync (address,
                                                                (G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                                 G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION),
                                                                NULL, NULL, &error);
  if (portal.connection == NULL)
    {
      g_printerr ("# no session bus for the fake portal: %s\n", error->message);
      set_state (-1);
      g_main_context_pop_thread_default (portal.context);
      return NULL;
    }

  portal.info = g_dbus_node_info_new_for_xml (portal_xml, &error);
  g_assert_no_error (error);
  portal.object_id = g_dbus_connection_register_object (portal.connection, PORTAL_OBJECT_PATH,
                                                        portal.info->interfaces[0], &portal_vtable,
                                                        NULL, NULL, &error);
  g_assert_no_error (error);
  portal.owner_id = g_bus_own_name_on_connection (portal.connection, PORTAL_BUS_NAME,
                                                  G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                                  name_acquired_cb, name_lost_cb, NULL, NULL);

  g_main_loop_run (portal.loop);

  g_bus_unown_name (portal.owner_id);
  g_dbus_connection_unregister_object (portal.connection, portal.object_id);
  g_dbus_connection_flush_sync (portal.connection, NULL, NULL);
  g_clear_object (&portal.connection);
  g_clear_pointer (&portal.info, g_dbus_node_info_unref);
  g_main_context_pop_thread_default (portal.context);

  return NULL;
}

/* Starts serving the portal; FALSE when there is no session bus. */
static gboolean
portal_start (guint32 color_scheme)
{
  int state;

  g_mutex_init (&portal.lock);
  g_cond_init (&portal.cond);
  portal.color_scheme = (gint) color_scheme;
  portal.context = g_main_context_new ();
  portal.loop = g_main_loop_new (portal.context, FALSE);
  portal.thread = g_thread_new ("fake-portal", portal_thread, NULL);

  g_mutex_lock (&portal.lock);
  while (portal.state == 0)
    g_cond_wait (&portal.cond, &portal.lock);
  state = portal.state;
  g_mutex_unlock (&portal.lock);

  return state > 0;
}

static void
portal_stop (void)
{
  g_main_loop_quit (portal.loop);
  g_thread_join (portal.thread);
  g_clear_pointer (&portal.loop, g_main_loop_unref);
  g_clear_pointer (&portal.context, g_main_context_unref);
}

/* What the desktop does when the user switches: SettingChanged, whose value
 * is the uint32 in a variant. */
static void
portal_change (guint32 color_scheme)
{
  g_autoptr(GError) error = NULL;

  g_atomic_int_set (&portal.color_scheme, (gint) color_scheme);
  g_dbus_connection_emit_signal (portal.connection, NULL, PORTAL_OBJECT_PATH, PORTAL_INTERFACE, "SettingChanged",
                                 g_variant_new ("(ssv)", APPEARANCE, "color-scheme",
                                                g_variant_new_uint32 (color_scheme)),
                                 &error);
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------------ */

static gboolean portal_running;

static double
luminance (guint32 pixel)
{
  double r = ((pixel >> 16) & 0xff) / 255.0;
  double g = ((pixel >> 8) & 0xff) / 255.0;
  double b = (pixel & 0xff) / 255.0;

  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/* The mean luminance of the rendered window, 0 (black) to 1 (white). */
static double
mean_luminance (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  double sum = 0;
  guint n = 0;

  for (int y = 0; y < height; y += 4)
    for (int x = 0; x < width; x += 4)
      {
        sum += luminance (viewer_test_pixel (texture, x, y));
        n++;
      }

  return sum / n;
}

static gboolean
shows_page (gpointer data)
{
  GtkWidget *page;
  gboolean busy = TRUE;

  if (g_strcmp0 (smv_window_get_view_name (data), "document") != 0)
    return FALSE;

  page = smv_window_get_page (data);
  g_object_get (page, "busy", &busy, NULL);

  return !busy && strstr (viewer_test_label_text (page, "status"), "interval") != NULL;
}

static gboolean
style_is (gpointer data)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ()) == GPOINTER_TO_INT (data);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static GdkTexture *
render (SmvWindow  *window,
        const char *png,
        double     *mean,
        double     *page_corner)
{
  GdkTexture *texture;
  GtkWidget *page = smv_window_get_page (window);
  graphene_point_t corner;

  g_assert_true (viewer_test_wait (is_mapped, window, 30000));
  viewer_test_spin (300);
  texture = viewer_test_render (GTK_WIDGET (window), png);
  *mean = mean_luminance (texture);

  /* A pixel of the page itself, near its bottom-left corner. */
  g_assert_true (gtk_widget_compute_point (page, GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (4, gtk_widget_get_height (page) - 4), &corner));
  *page_corner = luminance (viewer_test_pixel (texture, (int) corner.x, (int) corner.y));

  return texture;
}

static void
test_follows_portal (void)
{
  g_autofree char *job_path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autoptr(GFile) job = g_file_new_for_path (job_path);
  g_autoptr(SmvApplication) application = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) dark = NULL;
  g_autoptr(GdkTexture) light = NULL;
  GFile *files[] = { job };
  GtkWindow *window;
  double mean, corner;

  VIEWER_TEST_REQUIRE_DISPLAY ();
  if (!portal_running)
    {
      g_test_skip ("no session bus: run under dbus-run-session");
      return;
    }

  /* The viewer as a user starts it, opening a job. */
  application = smv_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);
  g_application_open (G_APPLICATION (application), files, 1, "");
  window = gtk_application_get_active_window (GTK_APPLICATION (application));
  if (window == NULL)
    window = g_list_nth_data (gtk_application_get_windows (GTK_APPLICATION (application)), 0);
  g_assert_true (SMV_IS_WINDOW (window));
  gtk_window_set_default_size (window, 1280, 800);
  g_assert_true (viewer_test_wait (shows_page, window, 60000));

  /* The portal was asked, and said "prefer dark": the style manager says
   * dark, and so do the pixels, of the window and of the page. */
  g_assert_cmpuint (g_atomic_int_get ((gint *) &portal.n_reads), >=, 1);
  g_assert_true (adw_style_manager_get_system_supports_color_schemes (adw_style_manager_get_default ()));
  g_assert_true (adw_style_manager_get_dark (adw_style_manager_get_default ()));
  dark = render (SMV_WINDOW (window), "viewer-dark.png", &mean, &corner);
  viewer_test_save_screenshot (dark, "viewer-dark.png");
  g_test_message ("prefer dark: mean luminance %.3f, page corner %.3f", mean, corner);
  g_assert_cmpfloat (mean, <, 0.35);
  g_assert_cmpfloat (corner, <, 0.3);

  /* The desktop switches back to no preference, which is light: the
   * window follows without being reopened. */
  portal_change (NO_PREFERENCE);
  g_assert_true (viewer_test_wait (style_is, GINT_TO_POINTER (FALSE), 10000));
  light = render (SMV_WINDOW (window), "viewer-light.png", &mean, &corner);
  g_test_message ("no preference: mean luminance %.3f, page corner %.3f", mean, corner);
  g_assert_cmpfloat (mean, >, 0.6);
  g_assert_cmpfloat (corner, >, 0.7);

  /* And "prefer dark" again, live. */
  portal_change (PREFER_DARK);
  g_assert_true (viewer_test_wait (style_is, GINT_TO_POINTER (TRUE), 10000));
  g_clear_object (&dark);
  dark = render (SMV_WINDOW (window), NULL, &mean, &corner);
  g_assert_cmpfloat (mean, <, 0.35);

  gtk_window_destroy (window);
  viewer_test_spin (100);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before libadwaita starts (viewer_test_init), which reads the portal once. */
  g_unsetenv ("GTK_THEME");
  g_unsetenv ("ADW_DISABLE_PORTAL");
  portal_running = portal_start (PREFER_DARK);

  viewer_test_init (&argc, &argv);

  g_test_add_func ("/viewer/style/follows-portal", test_follows_portal);

  status = g_test_run ();

  if (portal_running)
    portal_stop ();

  return status;
}
