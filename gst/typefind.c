/* SPDX-License-Identifier: BSD-2-Clause */
/* The typefinder: a payload's first bytes name its format (WIV1, WIF1,
 * WIH1, WIA1, WIS1, WIC1, WCF1, WIM1), as wai_capability_detect reads
 * them; the caps are application/x-wai with that format. */
#include "gstwai.h"

static const char *const formats[] = {"WIV1", "WIF1", "WIH1", "WIA1", "WIS1", "WIC1", "WCF1", "WIM1"};

static void find(GstTypeFind *tf, gpointer unused) {
    (void)unused;
    const guint8 *data = gst_type_find_peek(tf, 0, 8);
    if (!data) return;
    const char *f = wai_gst_format_of(data, 8);
    for (gsize i = 0; f && i < G_N_ELEMENTS(formats); i++)
        if (g_str_equal(f, formats[i])) {
            gst_type_find_suggest_simple(tf, GST_TYPE_FIND_MAXIMUM, "application/x-wai", "format",
                                         G_TYPE_STRING, f, NULL);
            return;
        }
}

gboolean wai_gst_typefind_register(GstPlugin *plugin) {
    return gst_type_find_register(plugin, "application/x-wai", GST_RANK_PRIMARY, find,
                                  "wiv1,wif1,wih1,wia1,wis1,wic1,wcf1,wim1",
                                  gst_caps_from_string(WAI_GST_CAPS), NULL, NULL);
}
