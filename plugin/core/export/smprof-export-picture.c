/* smprof-export-picture.c: the PNG and PDF flame graphs, drawn with cairo
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <cairo-pdf.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "smprof-export-picture.h"
#include "smprof-flame-cairo.h"

/* A PDF page is the picture with a margin around it, for printing. */
#define PDF_MARGIN   36.0

typedef struct
{
  GOutputStream *stream;
  GCancellable  *cancellable;
  GError        *error;
} CairoSink;

static cairo_status_t
cairo_sink_write (void                *closure,
                  const unsigned char *data,
                  unsigned int         length)
{
  CairoSink *sink = closure;

  if (sink->error != NULL)
    return CAIRO_STATUS_WRITE_ERROR;

  if (!g_output_stream_write_all (sink->stream, data, length, NULL, sink->cancellable, &sink->error))
    return CAIRO_STATUS_WRITE_ERROR;

  return CAIRO_STATUS_SUCCESS;
}

static gboolean
check_cairo (cairo_status_t   status,
             CairoSink       *sink,
             GError         **error)
{
  if (sink->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&sink->error));
      return FALSE;
    }

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_FAILED,
                   _("Could not draw the flame graph: %s"), cairo_status_to_string (status));
      return FALSE;
    }

  return TRUE;
}

/**
 * smprof_export_write_picture:
 * @layout: the frames
 * @render: what goes around them, and the picture's width
 * @format: %SMPROF_EXPORT_PNG or %SMPROF_EXPORT_PDF
 * @stream: where the file goes
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Returns: whether the picture was written whole
 */
gboolean
smprof_export_write_picture (SmprofFlameLayout              *layout,
                             const SmprofFlameRenderOptions *render,
                             SmprofExportFormat              format,
                             GOutputStream                  *stream,
                             GCancellable                   *cancellable,
                             GError                        **error)
{
  CairoSink sink = { stream, cancellable, NULL };
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;
  double height;

  g_return_val_if_fail (format == SMPROF_EXPORT_PNG || format == SMPROF_EXPORT_PDF, FALSE);

  height = ceil (smprof_flame_render_get_height (layout, render));

  if (format == SMPROF_EXPORT_PNG)
    surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) ceil (render->width), (int) height);
  else
    surface = cairo_pdf_surface_create_for_stream (cairo_sink_write, &sink, render->width + 2 * PDF_MARGIN,
                                                   height + 2 * PDF_MARGIN);

  cr = cairo_create (surface);
  if (format == SMPROF_EXPORT_PDF)
    {
      /* The margin is the picture's own background, so the page reads as one. */
      double grey = render->dark ? 0.14 : 0.98;

      cairo_set_source_rgb (cr, grey, grey, grey);
      cairo_paint (cr);
      cairo_translate (cr, PDF_MARGIN, PDF_MARGIN);
    }
  smprof_flame_render (layout, render, cr);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == SMPROF_EXPORT_PNG)
    status = cairo_surface_write_to_png_stream (surface, cairo_sink_write, &sink);

  /* A PDF is written out as its surface finishes. */
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  return check_cairo (status, &sink, error);
}
