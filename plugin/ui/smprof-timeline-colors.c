/* smprof-timeline-colors.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-timeline-private.h"

/* The colours and names the timeline gives modes and phases (mode colours and
 * labels are public: the job page and the compare view use them too), and
 * the accent colour of the selection and the keyboard focus. */

/* Mode colours: GNOME palette tones, a darker one for light backgrounds and a
 * lighter one for dark backgrounds, indexed by SmprofMode - 1. */
static const guint32 mode_colors[SMPROF_N_MODES][2] = {
  { 0x3584e4, 0x62a0ea },   /* train: blue */
  { 0x2ec27e, 0x33d17a },   /* eval: green */
  { 0x9141ac, 0xc061cb },   /* predict: purple */
  { 0xe66100, 0xffa348 },   /* global: orange */
  { 0xe5a50a, 0xf6d32d },   /* pre-step-zero: yellow */
  { 0x986a44, 0xb5835a },   /* post-hook-close: brown */
};

static const char * const mode_labels[SMPROF_N_MODES] = {
  N_("Train"),
  N_("Eval"),
  N_("Predict"),
  N_("Global"),
  N_("Pre-step-zero"),
  N_("Post-hook-close"),
};

static void
rgba_from_hex (guint32  hex,
               GdkRGBA *color)
{
  color->red = ((hex >> 16) & 0xff) / 255.0;
  color->green = ((hex >> 8) & 0xff) / 255.0;
  color->blue = (hex & 0xff) / 255.0;
  color->alpha = 1;
}

/**
 * smprof_timeline_get_mode_color:
 * @mode: a mode
 * @dark: whether the background is dark
 * @color: (out): the colour the timeline gives @mode's blocks
 */
void
smprof_timeline_get_mode_color (SmprofMode  mode,
                                gboolean    dark,
                                GdkRGBA    *color)
{
  g_return_if_fail (color != NULL);

  if (mode < SMPROF_MODE_TRAIN || mode > SMPROF_MODE_POST_HOOK_CLOSE)
    mode = SMPROF_MODE_GLOBAL;

  rgba_from_hex (mode_colors[mode - 1][dark ? 1 : 0], color);
}

/* A step in the strip under a node: its mode's colour, muted towards the
 * background so the profiled intervals above stay the strongest marks.
 * Opaque, so it reads the same on striped rows. */
void
_smprof_timeline_get_step_color (SmprofMode  mode,
                                 gboolean    dark,
                                 GdkRGBA    *color)
{
  double toward = dark ? 0.16 : 1.0;

  smprof_timeline_get_mode_color (mode, dark, color);
  color->red = 0.6 * color->red + 0.4 * toward;
  color->green = 0.6 * color->green + 0.4 * toward;
  color->blue = 0.6 * color->blue + 0.4 * toward;
}

/**
 * smprof_timeline_get_mode_label:
 *
 * Returns: the translated name the legend shows for @mode
 */
const char *
smprof_timeline_get_mode_label (SmprofMode mode)
{
  if (mode < SMPROF_MODE_TRAIN || mode > SMPROF_MODE_POST_HOOK_CLOSE)
    return "";

  return _(mode_labels[mode - 1]);
}

const char *
_smprof_timeline_phase_label (SmprofPhase phase)
{
  switch (phase)
    {
    case SMPROF_PHASE_START:
      return C_("phase", "start");
    case SMPROF_PHASE_STEP_START:
      return C_("phase", "step start");
    case SMPROF_PHASE_FORWARD_PASS_END:
      return C_("phase", "forward pass end");
    case SMPROF_PHASE_STEP_END:
      return C_("phase", "step end");
    case SMPROF_PHASE_END:
      return C_("phase", "end");
    default:
      return "";
    }
}

GdkRGBA
_smprof_timeline_accent_color (SmprofTimeline *self,
                               double          alpha)
{
  GdkRGBA accent;

  rgba_from_hex (self->dark ? 0x78aeed : 0x1c71d8, &accent);
  accent.alpha = alpha;

  return accent;
}
