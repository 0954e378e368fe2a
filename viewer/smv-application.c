/* smv-application.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-application.h"
#include "smv-preferences-window.h"
#include "smv-recent.h"
#include "smv-window.h"

/* An AdwApplication: libadwaita's style sheet, and its style manager, which
 * follows the desktop's light or dark preference (the settings portal, or
 * GSettings outside a sandbox) without any code here. */
struct _SmvApplication
{
  AdwApplication     parent_instance;

  SmvSourceRegistry *registry;
  SmvRecent         *recent;
};

G_DEFINE_FINAL_TYPE (SmvApplication, smv_application, ADW_TYPE_APPLICATION)

static SmvWindow *
new_window (SmvApplication *self)
{
  return smv_window_new (GTK_APPLICATION (self), self->registry, self->recent);
}

/* A window that shows nothing and opens nothing can take a new document. */
static SmvWindow *
find_idle_window (SmvApplication *self)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (SMV_IS_WINDOW (active) &&
      smv_window_get_document (SMV_WINDOW (active)) == NULL &&
      !smv_window_is_loading (SMV_WINDOW (active)))
    return SMV_WINDOW (active);

  return NULL;
}

static void
smv_application_activate (GApplication *application)
{
  SmvApplication *self = SMV_APPLICATION (application);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (new_window (self));

  gtk_window_present (window);
}

static void
smv_application_open (GApplication  *application,
                      GFile        **files,
                      int            n_files,
                      const char    *hint)
{
  SmvApplication *self = SMV_APPLICATION (application);

  for (int i = 0; i < n_files; i++)
    {
      SmvWindow *window = find_idle_window (self);

      if (window == NULL)
        window = new_window (self);

      gtk_window_present (GTK_WINDOW (window));
      smv_window_open (window, files[i]);
    }
}

/* The application's windows, the one the user was in (most recently
 * focused, GtkApplication's first) last. */
static GList *
dup_windows_active_last (SmvApplication *self)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  return g_list_reverse (windows);
}

/* Ctrl+Q and the menu's Quit close every window as its close button would,
 * so each saves its size on the way out (the active one last: the next
 * window opens at the size of the window the user quit from). */
static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  SmvApplication *self = SMV_APPLICATION (user_data);
  GList *windows = dup_windows_active_last (self);

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (windows);

  g_application_quit (G_APPLICATION (self));
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (new_window (SMV_APPLICATION (user_data))));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  SmvApplication *self = SMV_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  static const char *developers[] = { "The smprof authors", NULL };
  GtkWidget *window;

  /* The icon is in the resources too (smv-viewer.gresource.xml). */
  window = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                         "transient-for", parent,
                         "modal", parent != NULL,
                         "destroy-with-parent", TRUE,
                         "application-name", _("smprof"),
                         "application-icon", SMV_APPLICATION_ID,
                         "developer-name", _("The smprof authors"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Profiles of training jobs, by step, phase and node, "
                                       "read by data-source plugins."),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "copyright", "© 2026 The smprof authors",
                         "developers", developers,
                         /* Translators: your names, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
  gtk_window_present (GTK_WINDOW (window));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  SmvApplication *self = SMV_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (smv_preferences_window_new (parent, self->registry)));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "preferences", .activate = preferences_action },
  { .name = "new-window", .activate = new_window_action },
  { .name = "about", .activate = about_action },
};

static void
smv_application_startup (GApplication *application)
{
  SmvApplication *self = SMV_APPLICATION (application);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *new_window_accels[] = { "<Control>n", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  g_auto(GStrv) dirs = NULL;

  G_APPLICATION_CLASS (smv_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.new-window", new_window_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences", preferences_accels);

  dirs = smv_source_registry_dup_default_dirs ();
  self->registry = smv_source_registry_new ((const char * const *) dirs);
  self->recent = smv_recent_new_default ();

  /* Only plugins have settings to show. */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "preferences")),
                               smv_preferences_window_has_pages (self->registry));
}

/* Quit by other ways (the session ending, g_application_quit() from
 * elsewhere) leaves windows open: they save their sizes here. */
static void
smv_application_shutdown (GApplication *application)
{
  SmvApplication *self = SMV_APPLICATION (application);
  GList *windows = dup_windows_active_last (self);

  for (GList *l = windows; l != NULL; l = l->next)
    if (SMV_IS_WINDOW (l->data) && gtk_widget_get_realized (l->data))
      smv_window_save_state (l->data);
  g_list_free (windows);

  G_APPLICATION_CLASS (smv_application_parent_class)->shutdown (application);
}

static int
smv_application_handle_local_options (GApplication *application,
                                      GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("smprof-viewer %s\n", PACKAGE_VERSION);
      return 0;
    }

  return -1;
}

static void
smv_application_finalize (GObject *object)
{
  SmvApplication *self = SMV_APPLICATION (object);

  g_clear_object (&self->registry);
  g_clear_object (&self->recent);

  G_OBJECT_CLASS (smv_application_parent_class)->finalize (object);
}

static void
smv_application_class_init (SmvApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = smv_application_finalize;

  application_class->activate = smv_application_activate;
  application_class->open = smv_application_open;
  application_class->startup = smv_application_startup;
  application_class->shutdown = smv_application_shutdown;
  application_class->handle_local_options = smv_application_handle_local_options;
}

static void
smv_application_init (SmvApplication *self)
{
  static const GOptionEntry entries[] = {
    { "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, NULL, N_("Show the version and quit"), NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FOLDER|URI…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Open profiles with the installed data-source plugins."));
}

/**
 * smv_application_bind_textdomain:
 *
 * Binds the viewer's gettext domain (`smprof-viewer`) and makes it the
 * process's default; main() calls it after setlocale(). The catalogues are
 * the installed ones, or, when `SMPROF_LOCALEDIR` is set, those of that
 * folder: an uninstalled build's `po/locale`, which the tests and
 * `meson devenv` name. Plugins bind their own domains when they load.
 */
void
smv_application_bind_textdomain (void)
{
  const char *localedir = g_getenv ("SMPROF_LOCALEDIR");

  if (localedir == NULL || localedir[0] == '\0')
    localedir = LOCALEDIR;

  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

/**
 * smv_application_new:
 * @extra_flags: flags added to %G_APPLICATION_HANDLES_OPEN, such as
 *   %G_APPLICATION_NON_UNIQUE for tests
 *
 * Returns: (transfer full): the application
 */
SmvApplication *
smv_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (SMV_TYPE_APPLICATION,
                       "application-id", SMV_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | extra_flags,
                       NULL);
}

/**
 * smv_application_get_registry:
 * @self: the application
 *
 * Returns: (transfer none) (nullable): the data sources, once started up
 */
SmvSourceRegistry *
smv_application_get_registry (SmvApplication *self)
{
  g_return_val_if_fail (SMV_IS_APPLICATION (self), NULL);

  return self->registry;
}
