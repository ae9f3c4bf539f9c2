/* SPDX-License-Identifier: BSD-2-Clause */
/* The plugin: its elements and its typefinder. GST_PLUGIN_PATH pointing at
 * the build's gst/ folder finds it; no install needed. */
#include "gstwai.h"

static gboolean plugin_init(GstPlugin *plugin) {
    return wai_gst_typefind_register(plugin) &&
           gst_element_register(plugin, "waiparse", GST_RANK_PRIMARY, wai_gst_parse_get_type()) &&
           gst_element_register(plugin, "waidec", GST_RANK_PRIMARY, wai_gst_dec_get_type()) &&
           gst_element_register(plugin, "waiaudiodec", GST_RANK_PRIMARY,
                                wai_gst_audio_dec_get_type());
}

#define PACKAGE "libwai"
/* "BSD": GStreamer's word for the BSD-2-Clause licence (LICENSE). */
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, wai,
                  "libwai: WAI's integer codecs, decoded bit-exactly",
                  plugin_init, WAI_VERSION_STRING, "BSD", "libwai", "libwai")
