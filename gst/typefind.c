/* SPDX-License-Identifier: BSD-2-Clause */
/* The typefinder: a payload's first bytes name its capability, as
 * wai_capability_detect reads them; the caps are application/x-wai with
 * its format, for every format the plugin carries (formats.c). */
#include "gstwai.h"

static void find(GstTypeFind *tf, gpointer unused) {
    (void)unused;
    const guint8 *data = gst_type_find_peek(tf, 0, 8);
    const wai_capability *cap = data ? wai_gst_carried(data, 8) : NULL;
    if (cap)
        gst_type_find_suggest_simple(tf, GST_TYPE_FIND_MAXIMUM, "application/x-wai", "format",
                                     G_TYPE_STRING, wai_format_name(cap->format), NULL);
}

gboolean wai_gst_typefind_register(GstPlugin *plugin) {
    char *extensions = wai_gst_format_list(WAI_GST_ALL, ",", TRUE);
    GstCaps *caps = wai_gst_caps(WAI_GST_ALL);
    gboolean ok = gst_type_find_register(plugin, "application/x-wai", GST_RANK_PRIMARY, find,
                                         extensions, caps, NULL, NULL);
    gst_caps_unref(caps);
    g_free(extensions);
    return ok;
}
