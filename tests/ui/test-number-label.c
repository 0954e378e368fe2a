/* test-number-label.c: figures drawn from cached glyphs look and measure as a label's
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-number-label.h"
#include "ui-test-util.h"

/* What the function table shows, in both locales' formats: figures,
 * separators, a call count with recursion, the dash of "no value", a French
 * narrow no-break space, and a character of another script that a font
 * may draw from a fallback. */
static const char * const texts[] = {
  "0.000", "5.070", "1,234,567", "12/34", "—", "1 234,5", "0,002", "", "Ω9", "12 %",
};

static GtkWidget *
make_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");

  return label;
}

/* A column of one kind of cell, each text a row. */
static GtkWidget *
make_column (gboolean number_labels)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    gtk_box_append (GTK_BOX (box), number_labels ? smprof_number_label_new (texts[i]) : make_label (texts[i]));

  return box;
}

/* Each text measures as a label of it does (the column view sizes its
 * columns and rows by these). */
static void
test_measure (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GtkWidget) number = g_object_ref_sink (smprof_number_label_new (texts[i]));
      g_autoptr(GtkWidget) label = g_object_ref_sink (make_label (texts[i]));
      int number_width, label_width, number_height, label_height;
      int number_baseline, label_baseline, unused;

      gtk_widget_measure (number, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &number_width, NULL, NULL);
      gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &label_width, NULL, NULL);
      gtk_widget_measure (number, GTK_ORIENTATION_VERTICAL, -1, NULL, &number_height, &unused, &number_baseline);
      gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, -1, NULL, &label_height, &unused, &label_baseline);
      g_test_message ("\"%s\": %d x %d (baseline %d), a label %d x %d (baseline %d)", texts[i],
                      number_width, number_height, number_baseline, label_width, label_height, label_baseline);

      g_assert_cmpint (ABS (number_width - label_width), <=, 1);
      g_assert_cmpint (number_height, ==, label_height);
      g_assert_cmpint (number_baseline, ==, label_baseline);
      g_assert_cmpstr (smprof_number_label_get_text (SMPROF_NUMBER_LABEL (number)), ==, texts[i]);
    }
}

/* Drawn, the figures are those a label draws, at the same place, in the
 * style's colour; a new text of the same width shows at once. */
static void
test_drawn_as_label (void)
{
  GtkWidget *numbers = make_column (TRUE);
  GtkWidget *labels = make_column (FALSE);
  GtkWidget *numbers_window, *labels_window;
  g_autoptr(GdkTexture) number_picture = NULL;
  g_autoptr(GdkTexture) label_picture = NULL;
  g_autoptr(GdkTexture) changed_picture = NULL;
  GtkWidget *first;
  int width, height;

  numbers_window = ui_test_present (numbers, 200, 300);
  labels_window = ui_test_present (labels, 200, 300);
  ui_test_settle ();

  number_picture = ui_test_render (numbers_window);
  label_picture = ui_test_render (labels_window);
  width = gdk_texture_get_width (number_picture);
  height = gdk_texture_get_height (number_picture);
  g_assert_cmpint (width, ==, gdk_texture_get_width (label_picture));
  g_assert_cmpint (height, ==, gdk_texture_get_height (label_picture));
  /* something is drawn: the background and the text's shades */
  g_assert_cmpuint (ui_test_count_colors (number_picture), >, 5);
  if (!ui_test_near_pixels (number_picture, label_picture, 0, 0, width, height, 8))
    {
      ui_test_save_local (number_picture, "number-labels.png");
      ui_test_save_local (label_picture, "labels.png");
      g_error ("the figures are not drawn as a label draws them (pictures in the test's folder)");
    }

  /* "0.000" becomes "9.999", as wide */
  first = gtk_widget_get_first_child (numbers);
  width = gtk_widget_get_width (first);
  smprof_number_label_set_text (SMPROF_NUMBER_LABEL (first), "9.999");
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_first_child (labels)), "9.999");
  ui_test_settle ();
  g_assert_cmpint (gtk_widget_get_width (first), ==, width);
  changed_picture = ui_test_render (numbers_window);
  g_clear_object (&label_picture);
  label_picture = ui_test_render (labels_window);
  g_assert_false (ui_test_same_pixels (changed_picture, number_picture, 0, 0, gdk_texture_get_width (number_picture),
                                       gdk_texture_get_height (number_picture)));
  g_assert_true (ui_test_near_pixels (changed_picture, label_picture, 0, 0, gdk_texture_get_width (number_picture),
                                      gdk_texture_get_height (number_picture), 8));

  gtk_window_destroy (GTK_WINDOW (numbers_window));
  gtk_window_destroy (GTK_WINDOW (labels_window));
}

/* A text grown wider asks for room: the column grows with it. */
static void
test_wider_text_resizes (void)
{
  GtkWidget *number = smprof_number_label_new ("1.0");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *window;
  int before;

  gtk_widget_set_halign (number, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), number);
  window = ui_test_present (box, 200, 40);
  ui_test_settle ();
  before = gtk_widget_get_width (number);

  smprof_number_label_set_text (SMPROF_NUMBER_LABEL (number), "1,234,567.0");
  ui_test_settle ();
  g_assert_cmpint (gtk_widget_get_width (number), >, before * 3);

  g_object_set (number, "text", NULL, NULL);
  g_assert_cmpstr (smprof_number_label_get_text (SMPROF_NUMBER_LABEL (number)), ==, "");
  ui_test_settle ();
  g_assert_cmpint (gtk_widget_get_width (number), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A cell follows its row's text, and stops when told to or when the row
 * goes away. */
static void
test_follow (void)
{
  g_autoptr(GtkWidget) number = g_object_ref_sink (smprof_number_label_new ("0"));
  GtkWidget *row = g_object_ref_sink (gtk_label_new ("1.250"));

  smprof_number_label_follow (SMPROF_NUMBER_LABEL (number), G_OBJECT (row), "label");
  g_assert_cmpstr (smprof_number_label_get_text (SMPROF_NUMBER_LABEL (number)), ==, "1.250");
  gtk_label_set_label (GTK_LABEL (row), "12,500");
  g_assert_cmpstr (smprof_number_label_get_text (SMPROF_NUMBER_LABEL (number)), ==, "12,500");

  smprof_number_label_follow (SMPROF_NUMBER_LABEL (number), NULL, NULL);
  gtk_label_set_label (GTK_LABEL (row), "3");
  g_assert_cmpstr (smprof_number_label_get_text (SMPROF_NUMBER_LABEL (number)), ==, "12,500");

  smprof_number_label_follow (SMPROF_NUMBER_LABEL (number), G_OBJECT (row), "label");
  g_assert_cmpstr (smprof_number_label_get_text (SMPROF_NUMBER_LABEL (number)), ==, "3");
  g_object_unref (row);
  smprof_number_label_follow (SMPROF_NUMBER_LABEL (number), NULL, NULL);
  g_assert_cmpstr (smprof_number_label_get_text (SMPROF_NUMBER_LABEL (number)), ==, "3");
}

int
main (int   argc,
      char *argv[])
{
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/number-label/measure", test_measure);
  g_test_add_func ("/number-label/drawn-as-label", test_drawn_as_label);
  g_test_add_func ("/number-label/wider-text-resizes", test_wider_text_resizes);
  g_test_add_func ("/number-label/follow", test_follow);

  return g_test_run ();
}
