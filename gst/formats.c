/* SPDX-License-Identifier: BSD-2-Clause */
/* The plugin's format lists, from libwai's codec table (wai_capability_at):
 * no format is written out in gst/. A capability is carried when libwai
 * decodes it bit-exactly (tier decode-equivalence) and its format has a
 * magic a typefinder can find it by; its payloads go to waidec when they
 * decode to frames or pictures, to waiaudiodec when to samples, and to no
 * element otherwise (WIS1's planes). Adding a capability to the table adds
 * it here (docs/architecture.md, "Adding a capability"). */
#include <string.h>

#include "gstwai.h"

static gboolean has_magic(wai_format f) {
    const char *name = wai_format_name(f);
    return name && strlen(name) == 4 && wai_format_detect((const uint8_t *)name, 4) == f;
}

static gboolean carried(const wai_capability *c) {
    return c->tier && strcmp(c->tier, "decode-equivalence") == 0 && wai_capability_has_decoder(c) &&
           has_magic(c->format);
}

static wai_gst_element element_of(const wai_capability *c) {
    switch (wai_capability_output(c)) {
    case WAI_OUTPUT_FRAME:
    case WAI_OUTPUT_IMAGE: return WAI_GST_VIDEO;
    case WAI_OUTPUT_PCM: return WAI_GST_AUDIO;
    default: return WAI_GST_NONE;
    }
}

/* Whether c's payloads belong in which's list (WAI_GST_ALL: every one
 * carried). */
static gboolean in_list(const wai_capability *c, wai_gst_element which) {
    return carried(c) && (which == WAI_GST_ALL || element_of(c) == which);
}

/* The formats of which's list, each once, in the table's order. */
static GPtrArray *formats_of(wai_gst_element which) {
    GPtrArray *out = g_ptr_array_new();
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        const char *f = wai_format_name(c->format);
        gboolean seen = FALSE;
        for (guint k = 0; k < out->len && !seen; k++) seen = g_str_equal(out->pdata[k], f);
        if (!seen && in_list(c, which)) g_ptr_array_add(out, (gpointer)f);
    }
    return out;
}

GstCaps *wai_gst_caps(wai_gst_element which) {
    GPtrArray *fs = formats_of(which);
    GValue list = G_VALUE_INIT, one = G_VALUE_INIT;
    g_value_init(&list, GST_TYPE_LIST);
    g_value_init(&one, G_TYPE_STRING);
    for (guint k = 0; k < fs->len; k++) {
        g_value_set_string(&one, fs->pdata[k]);
        gst_value_list_append_value(&list, &one);
    }
    GstStructure *s = gst_structure_new_empty("application/x-wai");
    gst_structure_take_value(s, "format", &list);
    g_value_unset(&one);
    g_ptr_array_unref(fs);
    GstCaps *caps = gst_caps_new_empty();
    gst_caps_append_structure(caps, s);
    return caps;
}

char *wai_gst_format_list(wai_gst_element which, const char *sep, gboolean lower) {
    GPtrArray *fs = formats_of(which);
    g_ptr_array_add(fs, NULL);
    char *joined = g_strjoinv(sep, (char **)fs->pdata);
    g_ptr_array_unref(fs);
    if (lower) {
        char *l = g_ascii_strdown(joined, -1);
        g_free(joined);
        joined = l;
    }
    return joined;
}

const wai_capability *wai_gst_carried(const guint8 *data, gsize len) {
    const wai_capability *c = wai_capability_detect(data, len);
    return c && carried(c) ? c : NULL;
}

wai_gst_element wai_gst_element_for(const char *format) {
    for (size_t i = 0; format && i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        if (carried(c) && g_str_equal(wai_format_name(c->format), format)) return element_of(c);
    }
    return WAI_GST_NONE;
}

gboolean wai_gst_frame_form(const char *format) {
    for (size_t i = 0; format && i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        if (g_str_equal(wai_format_name(c->format), format) && c->frame_form) return TRUE;
    }
    return FALSE;
}

const char *wai_gst_element_name(wai_gst_element e) {
    return e == WAI_GST_VIDEO ? "waidec" : e == WAI_GST_AUDIO ? "waiaudiodec" : NULL;
}
