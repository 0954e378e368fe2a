/* smprof-session-transforms.c: the transforms a page applies to its
 * selection's call tree, in order, and the profile they make
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-session-private.h"

/* The list is a stack the page's breadcrumb shows: a transform is pushed,
 * popped (undo), or the list cut back to a crumb. The reshaped profile is
 * made on the main thread as soon as the list or the aggregate changes:
 * reshaping walks the aggregate's call tree once per transform, far cheaper
 * than the aggregate itself, and doing it at once keeps the views, exports
 * and reports of one moment on the same tree. */

void
_smprof_session_transforms_init (SmprofSession *self)
{
  self->transforms = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_transform_unref);
}

void
_smprof_session_transforms_dispose (SmprofSession *self)
{
  g_clear_object (&self->view_profile);
  if (self->transforms != NULL)
    g_ptr_array_set_size (self->transforms, 0);
  g_clear_pointer (&self->transforms, g_ptr_array_unref);
}

/* Makes the view profile again from the aggregate and the list. */
void
_smprof_session_update_view_profile (SmprofSession *self)
{
  g_autoptr(SmprofProfile) view = NULL;

  if (self->profile != NULL)
    view = smprof_profile_new_transformed (self->profile, self->transforms, FALSE);

  if (view == self->view_profile)
    return;

  g_set_object (&self->view_profile, view);
  _smprof_session_notify (self, PROP_VIEW_PROFILE);
}

static void
transforms_changed (SmprofSession *self)
{
  g_signal_emit (self, _smprof_session_signals[SIGNAL_TRANSFORMS_CHANGED], 0);
  _smprof_session_update_view_profile (self);
}

/**
 * smprof_session_get_transforms:
 * @self: a session
 *
 * Returns: (transfer none) (element-type SmprofTransform): the transforms
 *   of the views, in the order they apply; do not change it
 */
GPtrArray *
smprof_session_get_transforms (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->transforms;
}

/**
 * smprof_session_push_transform:
 * @self: a session
 * @transform: what to apply after the others
 *
 * Adds @transform at the end of the list; the view profile follows.
 */
void
smprof_session_push_transform (SmprofSession   *self,
                               SmprofTransform *transform)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (transform != NULL);

  g_ptr_array_add (self->transforms, smprof_transform_ref (transform));
  transforms_changed (self);
}

/**
 * smprof_session_pop_transform:
 * @self: a session
 *
 * Undoes the last transform.
 *
 * Returns: whether there was one
 */
gboolean
smprof_session_pop_transform (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  if (self->transforms->len == 0)
    return FALSE;

  g_ptr_array_set_size (self->transforms, self->transforms->len - 1);
  transforms_changed (self);

  return TRUE;
}

/**
 * smprof_session_truncate_transforms:
 * @self: a session
 * @n_transforms: how many to keep
 *
 * Keeps the first @n_transforms (a breadcrumb's crumb); nothing happens if
 * there are no more than that.
 */
void
smprof_session_truncate_transforms (SmprofSession *self,
                                    guint          n_transforms)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));

  if (n_transforms >= self->transforms->len)
    return;

  g_ptr_array_set_size (self->transforms, n_transforms);
  transforms_changed (self);
}

/**
 * smprof_session_clear_transforms:
 * @self: a session
 *
 * Back to the full profile.
 */
void
smprof_session_clear_transforms (SmprofSession *self)
{
  smprof_session_truncate_transforms (self, 0);
}

static int
find_hide_libraries (SmprofSession *self)
{
  for (guint i = 0; i < self->transforms->len; i++)
    if (smprof_transform_get_kind (g_ptr_array_index (self->transforms, i)) == SMPROF_TRANSFORM_HIDE_LIBRARIES)
      return i;

  return -1;
}

/**
 * smprof_session_get_hide_libraries:
 * @self: a session
 *
 * Returns: whether a transform hides library frames
 */
gboolean
smprof_session_get_hide_libraries (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  return find_hide_libraries (self) >= 0;
}

/**
 * smprof_session_set_hide_libraries:
 * @self: a session
 * @hide: whether to hide library frames
 *
 * Pushes the transform that hides library frames, or takes it out of the
 * list wherever it is (the others stay, in their order): a switch the
 * user turns off without undoing what came after it.
 */
void
smprof_session_set_hide_libraries (SmprofSession *self,
                                   gboolean       hide)
{
  int index;

  g_return_if_fail (SMPROF_IS_SESSION (self));

  index = find_hide_libraries (self);
  if (hide && index < 0)
    {
      g_autoptr(SmprofTransform) transform = smprof_transform_new_hide_libraries ();

      smprof_session_push_transform (self, transform);
    }
  else if (!hide && index >= 0)
    {
      g_ptr_array_remove_index (self->transforms, index);
      transforms_changed (self);
    }
}

/**
 * smprof_session_get_view_profile:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the aggregate of the selection
 *   reshaped by the transforms (the aggregate itself when there are
 *   none), or %NULL before the first answer
 */
SmprofProfile *
smprof_session_get_view_profile (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->view_profile;
}

/**
 * smprof_session_describe_transform:
 * @self: a session
 * @index: which transform
 *
 * Returns: (transfer full): the transform in a few words ("Merge forward")
 */
char *
smprof_session_describe_transform (SmprofSession *self,
                                   guint          index)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);
  g_return_val_if_fail (index < self->transforms->len, NULL);

  return smprof_transform_describe (g_ptr_array_index (self->transforms, index),
                                    smprof_job_get_function_keys (self->job));
}

/**
 * smprof_session_dup_transform_options:
 * @self: a session
 *
 * Returns: (transfer full): the command line's options that apply the same
 *   transforms in the same order (`--merge FUNC`, ...), one per element
 */
char **
smprof_session_dup_transform_options (SmprofSession *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  for (guint i = 0; i < self->transforms->len; i++)
    {
      g_autofree char *option = smprof_transform_to_option (g_ptr_array_index (self->transforms, i),
                                                            smprof_job_get_function_keys (self->job));

      g_strv_builder_add (builder, option);
    }

  return g_strv_builder_end (builder);
}
