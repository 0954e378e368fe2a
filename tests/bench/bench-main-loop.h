/* bench-main-loop.h: what the viewer benchmarks share to watch the main
 * loop: its worst stall over a phase, waits that keep it running, frames
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef gboolean (*BenchCondition) (gpointer data);

void     bench_stalls_start   (void);
void     bench_stalls_begin   (void);
double   bench_stalls_end     (void);
gboolean bench_wait_for       (BenchCondition  condition,
                               gpointer        data,
                               guint           timeout_ms);
void     bench_spin           (guint           ms);
gboolean bench_flag_set       (gpointer        data);
void     bench_wait_frame     (GtkWidget      *widget);
char    *bench_load_average   (void);

G_END_DECLS
