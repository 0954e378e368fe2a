/* smv-color-scheme.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include "smv-color-scheme.h"

/* GTK 4.8 without libadwaita does not follow the desktop's dark style by
 * itself. This does what libadwaita's style manager does, on plain GTK: read
 * org.freedesktop.appearance color-scheme from the settings portal (and follow
 * its SettingChanged signal); without a portal, read
 * org.gnome.desktop.interface color-scheme from GSettings when that schema has
 * the key; and set gtk-application-prefer-dark-theme to match. "No
 * preference" restores whatever GtkSettings said at start-up (settings.ini),
 * and a GTK_THEME in the environment wins over everything. */

#define PORTAL_BUS_NAME       "org.freedesktop.portal.Desktop"
#define PORTAL_OBJECT_PATH    "/org/freedesktop/portal/desktop"
#define PORTAL_SETTINGS_IFACE "org.freedesktop.portal.Settings"
#define APPEARANCE_NAMESPACE  "org.freedesktop.appearance"
#define COLOR_SCHEME_KEY      "color-scheme"

typedef enum
{
  SCHEME_DEFAULT,
  SCHEME_PREFER_DARK,
  SCHEME_PREFER_LIGHT,
} Scheme;

struct _SmvColorScheme
{
  GObject       parent_instance;

  GtkSettings  *settings;
  GDBusProxy   *portal;
  GSettings    *interface_settings;
  GCancellable *cancellable;
  const char   *origin;
  gboolean      initial_dark;
  gboolean      dark;
};

G_DEFINE_FINAL_TYPE (SmvColorScheme, smv_color_scheme, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DARK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
apply (SmvColorScheme *self,
       Scheme          scheme,
       const char     *origin)
{
  gboolean dark;

  switch (scheme)
    {
    case SCHEME_PREFER_DARK:
      dark = TRUE;
      break;
    case SCHEME_PREFER_LIGHT:
      dark = FALSE;
      break;
    case SCHEME_DEFAULT:
    default:
      dark = self->initial_dark;
      break;
    }

  self->origin = origin;
  g_debug ("Colour scheme %d from %s: %s", scheme, origin, dark ? "dark" : "light");

  g_object_set (self->settings, "gtk-application-prefer-dark-theme", dark, NULL);
  if (dark != self->dark)
    {
      self->dark = dark;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
    }
}

static void
changed_interface_settings_cb (SmvColorScheme *self,
                               const char     *key,
                               GSettings      *settings)
{
  apply (self, g_settings_get_enum (settings, COLOR_SCHEME_KEY), "gsettings");
}

static void
use_gsettings (SmvColorScheme *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, "org.gnome.desktop.interface", TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, COLOR_SCHEME_KEY))
    return;

  self->interface_settings = g_settings_new_full (schema, NULL, NULL);
  g_signal_connect_object (self->interface_settings, "changed::" COLOR_SCHEME_KEY,
                           G_CALLBACK (changed_interface_settings_cb), self, G_CONNECT_SWAPPED);
  changed_interface_settings_cb (self, COLOR_SCHEME_KEY, self->interface_settings);
}

/* The portal answers Read with (v) holding v holding u: unwrap every level. */
static gboolean
scheme_from_variant (GVariant *value,
                     Scheme   *scheme)
{
  g_autoptr(GVariant) inner = g_variant_ref (value);

  while (g_variant_is_of_type (inner, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *child = g_variant_get_variant (inner);

      g_variant_unref (inner);
      inner = child;
    }

  if (!g_variant_is_of_type (inner, G_VARIANT_TYPE_UINT32))
    return FALSE;

  *scheme = MIN (g_variant_get_uint32 (inner), SCHEME_PREFER_LIGHT);
  return TRUE;
}

static void
portal_signal_cb (SmvColorScheme *self,
                  const char     *sender_name,
                  const char     *signal_name,
                  GVariant       *parameters,
                  GDBusProxy     *proxy)
{
  const char *namespace;
  const char *key;
  g_autoptr(GVariant) value = NULL;
  Scheme scheme;

  if (g_strcmp0 (signal_name, "SettingChanged") != 0 ||
      !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(ssv)")))
    return;

  g_variant_get (parameters, "(&s&sv)", &namespace, &key, &value);
  if (g_strcmp0 (namespace, APPEARANCE_NAMESPACE) == 0 &&
      g_strcmp0 (key, COLOR_SCHEME_KEY) == 0 &&
      scheme_from_variant (value, &scheme))
    apply (self, scheme, "portal");
}

static void
portal_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SmvColorScheme) self = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  Scheme scheme;

  reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (reply != NULL && scheme_from_variant (reply, &scheme))
    {
      g_signal_connect_object (self->portal, "g-signal", G_CALLBACK (portal_signal_cb), self, G_CONNECT_SWAPPED);
      apply (self, scheme, "portal");
      return;
    }

  g_debug ("No colour scheme from the settings portal (%s); trying GSettings",
           error != NULL ? error->message : "unexpected reply");
  g_clear_object (&self->portal);
  use_gsettings (self);
}

static void
portal_proxy_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(SmvColorScheme) self = user_data;
  g_autoptr(GError) error = NULL;

  self->portal = g_dbus_proxy_new_for_bus_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (self->portal == NULL)
    {
      g_debug ("No session bus for the settings portal (%s); trying GSettings", error->message);
      use_gsettings (self);
      return;
    }

  g_dbus_proxy_call (self->portal, "Read",
                     g_variant_new ("(ss)", APPEARANCE_NAMESPACE, COLOR_SCHEME_KEY),
                     G_DBUS_CALL_FLAGS_NONE, 2000, self->cancellable,
                     portal_read_cb, g_object_ref (self));
}

static void
smv_color_scheme_dispose (GObject *object)
{
  SmvColorScheme *self = SMV_COLOR_SCHEME (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->portal);
  g_clear_object (&self->interface_settings);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (smv_color_scheme_parent_class)->dispose (object);
}

static void
smv_color_scheme_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SmvColorScheme *self = SMV_COLOR_SCHEME (object);

  switch (prop_id)
    {
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smv_color_scheme_class_init (SmvColorSchemeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = smv_color_scheme_dispose;
  object_class->get_property = smv_color_scheme_get_property;

  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smv_color_scheme_init (SmvColorScheme *self)
{
  self->cancellable = g_cancellable_new ();
  self->origin = "none";
}

/**
 * smv_color_scheme_new:
 * @settings: the display's settings
 *
 * Starts following the desktop's colour scheme; the answer arrives
 * asynchronously.
 *
 * Returns: (transfer full): the follower
 */
SmvColorScheme *
smv_color_scheme_new (GtkSettings *settings)
{
  SmvColorScheme *self;

  g_return_val_if_fail (GTK_IS_SETTINGS (settings), NULL);

  self = g_object_new (SMV_TYPE_COLOR_SCHEME, NULL);
  self->settings = g_object_ref (settings);
  g_object_get (settings, "gtk-application-prefer-dark-theme", &self->initial_dark, NULL);
  self->dark = self->initial_dark;

  if (g_getenv ("GTK_THEME") != NULL)
    {
      self->origin = "GTK_THEME";
      return self;
    }

  g_dbus_proxy_new_for_bus (G_BUS_TYPE_SESSION,
                            (G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                             G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION),
                            NULL,
                            PORTAL_BUS_NAME, PORTAL_OBJECT_PATH, PORTAL_SETTINGS_IFACE,
                            self->cancellable, portal_proxy_cb, g_object_ref (self));

  return self;
}

gboolean
smv_color_scheme_get_dark (SmvColorScheme *self)
{
  g_return_val_if_fail (SMV_IS_COLOR_SCHEME (self), FALSE);

  return self->dark;
}

/**
 * smv_color_scheme_get_origin:
 * @self: the follower
 *
 * Returns: where the current choice came from: "portal", "gsettings",
 *   "GTK_THEME" or "none"
 */
const char *
smv_color_scheme_get_origin (SmvColorScheme *self)
{
  g_return_val_if_fail (SMV_IS_COLOR_SCHEME (self), NULL);

  return self->origin;
}
