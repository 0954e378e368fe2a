/* smv-document.h: what a data source opened
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#if !defined (SMV_INSIDE) && !defined (SMV_COMPILATION)
# error "Only <smprof-viewer-api.h> can be included directly."
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

#define SMV_TYPE_DOCUMENT (smv_document_get_type ())

G_DECLARE_DERIVABLE_TYPE (SmvDocument, smv_document, SMV, DOCUMENT, GObject)

/**
 * SmvDocumentClass:
 * @parent_class: the parent class
 *
 * The class of documents. Data sources subclass it to keep what they opened;
 * the viewer only reads the properties declared here.
 */
struct _SmvDocumentClass
{
  GObjectClass parent_class;

  /*< private >*/
  gpointer _reserved[16];
};

GFile      *smv_document_get_location (SmvDocument *self);
const char *smv_document_get_title    (SmvDocument *self);
void        smv_document_set_title    (SmvDocument *self,
                                       const char  *title);
const char *smv_document_get_subtitle (SmvDocument *self);
void        smv_document_set_subtitle (SmvDocument *self,
                                       const char  *subtitle);
GListModel *smv_document_get_problems (SmvDocument *self);
void        smv_document_add_problem  (SmvDocument *self,
                                       const char  *path,
                                       const char  *message);
void        smv_document_clear_problems (SmvDocument *self);

G_END_DECLS
