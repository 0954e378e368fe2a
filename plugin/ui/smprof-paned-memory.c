/* smprof-paned-memory.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-paned-memory.h"
#include "smprof-ui-settings.h"

/* A paned's handle placed by a rule (a size that suits the content, or a
 * fraction of the paned) until the user drags it; from then on, where the
 * user left it, in every page of the process and, when the plugin's settings
 * have the key, in the next session too.
 *
 * A drag is told from the paned's own moves (clamping on a resize, or the
 * rule) by a gesture of our own that watches the handle being dragged:
 * GtkPaned notifies :position for all of them alike. */

typedef struct
{
  GtkPaned                *paned;      /* weak */
  char                    *key;
  SmprofPanedPositionFunc  func;
  gpointer                 user_data;
  GDestroyNotify           destroy;
  gboolean                 dragging;
  gboolean                 setting;
  int                      drag_start;
} PanedMemory;

/* Positions the user chose in this process, by key: used while the
 * settings lack the key (a host without the plugin's schema). */
static GHashTable *remembered;

static GSettings *
dup_settings_with_key (const char *key)
{
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  g_autoptr(GSettingsSchema) schema = NULL;

  if (settings == NULL)
    return NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  if (schema == NULL || !g_settings_schema_has_key (schema, key))
    return NULL;

  return g_steal_pointer (&settings);
}

static int
recall (const char *key)
{
  g_autoptr(GSettings) settings = dup_settings_with_key (key);
  gpointer value;

  if (settings != NULL)
    return g_settings_get_int (settings, key);

  if (remembered != NULL && g_hash_table_lookup_extended (remembered, key, NULL, &value))
    return GPOINTER_TO_INT (value);

  return -1;
}

static void
remember (const char *key,
          int         position)
{
  g_autoptr(GSettings) settings = dup_settings_with_key (key);

  if (settings != NULL)
    g_settings_set_int (settings, key, position);

  if (remembered == NULL)
    remembered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (remembered, g_strdup (key), GINT_TO_POINTER (position));
}

static void
memory_free (gpointer data)
{
  PanedMemory *memory = data;

  if (memory->destroy != NULL)
    memory->destroy (memory->user_data);
  g_free (memory->key);
  g_free (memory);
}

static void
set_position (PanedMemory *memory,
              int          position)
{
  memory->setting = TRUE;
  gtk_paned_set_position (memory->paned, position);
  memory->setting = FALSE;
}

/* The paned got a size (or another one): the rule, or the user's place. */
static void
place (PanedMemory *memory)
{
  int size, wanted;

  if (memory->dragging)
    return;

  size = gtk_orientable_get_orientation (GTK_ORIENTABLE (memory->paned)) == GTK_ORIENTATION_HORIZONTAL
         ? gtk_widget_get_width (GTK_WIDGET (memory->paned))
         : gtk_widget_get_height (GTK_WIDGET (memory->paned));
  if (size <= 0)
    return;

  wanted = recall (memory->key);
  if (wanted < 0)
    wanted = memory->func (memory->paned, size, memory->user_data);
  if (wanted >= 0 && wanted != gtk_paned_get_position (memory->paned))
    set_position (memory, wanted);
}

static void
max_position_cb (GtkPaned   *paned,
                 GParamSpec *pspec,
                 gpointer    data)
{
  place (data);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               gpointer        data)
{
  PanedMemory *memory = data;

  memory->dragging = TRUE;
  memory->drag_start = gtk_paned_get_position (memory->paned);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          x,
             double          y,
             gpointer        data)
{
  PanedMemory *memory = data;
  int position = gtk_paned_get_position (memory->paned);

  memory->dragging = FALSE;
  if (position != memory->drag_start)
    remember (memory->key, position);
}

/**
 * smprof_paned_memory_attach:
 * @paned: a paned
 * @key: the name its position is remembered under (a settings key of the
 *   plugin's schema when it has one)
 * @func: where the handle goes until the user moves it, given the paned's
 *   size along its orientation; -1 to leave it
 * @user_data: for @func
 * @destroy: (nullable): frees @user_data with the paned
 *
 * Places @paned's handle by @func as the paned gets its size, until the user
 * drags the handle; then where the user left it, for this paned and every
 * other attached under @key. smprof_paned_memory_update() places it again
 * (the content changed).
 */
void
smprof_paned_memory_attach (GtkPaned                *paned,
                            const char              *key,
                            SmprofPanedPositionFunc  func,
                            gpointer                 user_data,
                            GDestroyNotify           destroy)
{
  PanedMemory *memory;
  GtkGesture *gesture;

  g_return_if_fail (GTK_IS_PANED (paned));
  g_return_if_fail (key != NULL);
  g_return_if_fail (func != NULL);

  memory = g_new0 (PanedMemory, 1);
  memory->paned = paned;
  memory->key = g_strdup (key);
  memory->func = func;
  memory->user_data = user_data;
  memory->destroy = destroy;
  g_object_set_data_full (G_OBJECT (paned), "smprof-paned-memory", memory, memory_free);

  /* In the capture phase, never claiming: the paned's own gesture still
   * moves the handle. Presses away from the handle land in a child. */
  gesture = gtk_gesture_drag_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (gesture), GTK_PHASE_CAPTURE);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), memory);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), memory);
  gtk_widget_add_controller (GTK_WIDGET (paned), GTK_EVENT_CONTROLLER (gesture));

  g_signal_connect (paned, "notify::max-position", G_CALLBACK (max_position_cb), memory);
}

/**
 * smprof_paned_memory_update:
 * @paned: a paned given to smprof_paned_memory_attach()
 *
 * Places the handle again by its rule, unless the user placed it.
 */
void
smprof_paned_memory_update (GtkPaned *paned)
{
  PanedMemory *memory = g_object_get_data (G_OBJECT (paned), "smprof-paned-memory");

  g_return_if_fail (memory != NULL);

  place (memory);
}

/**
 * smprof_paned_memory_forget:
 * @key: a key of smprof_paned_memory_attach()
 *
 * Forgets the place the user chose, in this process and in the settings:
 * the rule applies again (the tests start from it).
 */
void
smprof_paned_memory_forget (const char *key)
{
  g_autoptr(GSettings) settings = dup_settings_with_key (key);

  if (settings != NULL)
    g_settings_reset (settings, key);
  if (remembered != NULL)
    g_hash_table_remove (remembered, key);
}
