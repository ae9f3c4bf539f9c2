/* SPDX-License-Identifier: BSD-2-Clause */
/* What the elements share: refusals as element errors, the dispatch report
 * as an element message, the decoders' properties and the decoder made from
 * them (the context and its set from set-dir: set_dir.c). */
#include <string.h>

#include "gstwai.h"
#include "wai/wai_dispatch.h"

G_DEFINE_QUARK(wai-gst-status, wai_gst_status)

GstFlowReturn wai_gst_refuse_size(GstElement *e, guint64 size, guint64 bound, gboolean by_format,
                                  gboolean streamed) {
    wai_status st = by_format ? WAI_too_large : WAI_cost_over_limit;
    const char *code = wai_status_name(st);
    GST_ELEMENT_ERROR(e, STREAM, DECODE,
                      ("payload of %" G_GUINT64_FORMAT " bytes%s, past %s (%" G_GUINT64_FORMAT
                       " bytes), %s: refused: %s (%s)",
                       size, streamed ? " or more" : "",
                       by_format ? "the most any valid payload of its format holds"
                                 : "the decoder's max-memory",
                       bound, streamed ? "not read further" : "not read",
                       code, wai_status_meaning(st)),
                      ("wai-status=%s", code));
    return GST_FLOW_ERROR;
}

char *wai_gst_format_hint(const char *format) {
    wai_gst_element e = wai_gst_element_for(format);
    if (e == WAI_GST_NONE)
        return g_strdup_printf("no GStreamer element decodes %s payloads: use `wai decode`", format);
    char *takes = wai_gst_format_list(e, ", ", FALSE);
    char *hint = g_strdup_printf("link waiparse to %s, which decodes %s", wai_gst_element_name(e),
                                 takes);
    g_free(takes);
    return hint;
}

#define LIMITS_QUERY "wai-limits"

guint64 wai_gst_limits_ask(GstPad *src) {
    GstQuery *q = gst_query_new_custom(GST_QUERY_CUSTOM, gst_structure_new_empty(LIMITS_QUERY));
    guint64 max_memory = WAI_GST_DEFAULT_MAX_MEMORY;
    if (gst_pad_peer_query(src, q))
        gst_structure_get_uint64(gst_query_get_structure(q), "max-memory", &max_memory);
    gst_query_unref(q);
    return max_memory;
}

static gboolean sink_query(GstPad *pad, GstObject *parent, GstQuery *q) {
    const wai_gst_decoding *d = gst_pad_get_element_private(pad);
    const GstStructure *s = gst_query_get_structure(q);
    if (GST_QUERY_TYPE(q) == GST_QUERY_CUSTOM && s && gst_structure_has_name(s, LIMITS_QUERY)) {
        GstStructure *w = gst_query_writable_structure(q);
        gst_structure_set(w, "max-memory", G_TYPE_UINT64, d->max_memory, "max-cost", G_TYPE_UINT64,
                          d->max_cost, NULL);
        return TRUE;
    }
    return gst_pad_query_default(pad, parent, q);
}

GstFlowReturn wai_gst_refuse(GstElement *e, wai_status st, const char *what) {
    const char *code = wai_status_name(st);
    const char *meaning = wai_status_meaning(st);
    GST_ELEMENT_ERROR(e, STREAM, DECODE,
                      ("%s: refused: %s (%s)", what, code ? code : "?", meaning ? meaning : "?"),
                      ("wai-status=%s", code ? code : "?"));
    return GST_FLOW_ERROR;
}

void wai_gst_post_report(GstElement *e, const wai_decoder *d) {
    const wai_dispatch_report *r = wai_decoder_dispatch_report(d);
    if (!r) return;
    char buf[WAI_DISPATCH_REPORT_JSON_MAX];
    size_t n = 0;
    if (wai_dispatch_report_json(r, buf, sizeof buf, &n) != WAI_ok) return;
    GstStructure *s = gst_structure_new("wai-neural-dispatch", "report", G_TYPE_STRING, buf, NULL);
    gst_element_post_message(e, gst_message_new_element(GST_OBJECT(e), s));
}

enum { P_SET_DIR, P_THREADS, P_MAX_COST, P_MAX_MEMORY };

void wai_gst_decoding_install(GObjectClass *k, guint first) {
    const GParamFlags f = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
    g_object_class_install_property(
        k, first + P_SET_DIR,
        g_param_spec_string("set-dir", "Parameter set",
                            "the folder of a neural capability's parameter set: its members and the "
                            "files its listing names, read by name (never the whole folder)",
                            NULL, f));
    g_object_class_install_property(
        k, first + P_THREADS,
        g_param_spec_uint("threads", "Threads", "decode threads (0: one per core); the same bytes",
                          0, 256, 0, f));
    g_object_class_install_property(
        k, first + P_MAX_COST,
        g_param_spec_uint64("max-cost", "Cost limit",
                            "refuse a payload declaring more work (cost_over_limit); 0: no limit", 0,
                            G_MAXUINT64, 0, f));
    g_object_class_install_property(
        k, first + P_MAX_MEMORY,
        g_param_spec_uint64("max-memory", "Memory limit",
                            "refuse a payload (its bytes, the set's members and the working memory "
                            "it declares) past this many bytes (cost_over_limit), before reading "
                            "it; 0: no limit",
                            0, G_MAXUINT64, WAI_GST_DEFAULT_MAX_MEMORY, f));
}

void wai_gst_decoding_templates(GstElementClass *e, wai_gst_element which, const char *longname,
                                const char *klass, const char *what) {
    GstCaps *caps = wai_gst_caps(which);
    gst_element_class_add_pad_template(e, gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                                                               caps));
    gst_caps_unref(caps);
    char *formats = wai_gst_format_list(which, ", ", FALSE);
    char *description = g_strdup_printf("WAI payloads (%s) into %s, bit-exactly (libwai)", formats,
                                        what);
    gst_element_class_set_metadata(e, longname, klass, description, "libwai");
    g_free(description);
    g_free(formats);
}

void wai_gst_decoding_init(wai_gst_decoding *d, GstPad *sink) {
    memset(d, 0, sizeof *d);
    d->max_memory = WAI_GST_DEFAULT_MAX_MEMORY;
    gst_pad_set_element_private(sink, d);
    gst_pad_set_query_function(sink, sink_query);
}

gboolean wai_gst_decoding_set(wai_gst_decoding *d, guint first, guint id, const GValue *v) {
    switch (id - first) {
    case P_SET_DIR:
        g_free(d->set_dir);
        d->set_dir = g_value_dup_string(v);
        return TRUE;
    case P_THREADS: d->threads = g_value_get_uint(v); return TRUE;
    case P_MAX_COST: d->max_cost = g_value_get_uint64(v); return TRUE;
    case P_MAX_MEMORY: d->max_memory = g_value_get_uint64(v); return TRUE;
    default: return FALSE;
    }
}

gboolean wai_gst_decoding_get(const wai_gst_decoding *d, guint first, guint id, GValue *v) {
    switch (id - first) {
    case P_SET_DIR: g_value_set_string(v, d->set_dir); return TRUE;
    case P_THREADS: g_value_set_uint(v, d->threads); return TRUE;
    case P_MAX_COST: g_value_set_uint64(v, d->max_cost); return TRUE;
    case P_MAX_MEMORY: g_value_set_uint64(v, d->max_memory); return TRUE;
    default: return FALSE;
    }
}

gboolean wai_gst_decoding_open(GstElement *e, wai_gst_decoding *d) {
    if (d->dec) return TRUE;
    GError *why = NULL;
    if (!wai_gst_context(d->threads, d->set_dir, d->max_memory, &d->ctx, &d->set, &d->set_bytes,
                         &why)) {
        if (why && why->domain == WAI_GST_STATUS) {
            const char *code = wai_status_name((wai_status)why->code);
            GST_ELEMENT_ERROR(e, STREAM, DECODE,
                              ("set-dir: %s: refused: %s (%s)", why->message, code ? code : "?",
                               wai_status_meaning((wai_status)why->code)),
                              ("wai-status=%s", code ? code : "?"));
        } else {
            GST_ELEMENT_ERROR(e, RESOURCE, READ,
                              ("set-dir %s: %s", d->set_dir ? d->set_dir : "",
                               why ? why->message : "cannot read it"),
                              (NULL));
        }
        g_clear_error(&why);
        wai_gst_decoding_close(d);
        return FALSE;
    }
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.set = d->set;
    cfg.streaming = 1;
    if (d->max_cost) cfg.max_cost = d->max_cost;
    /* The set's members stay in memory through the decode: what is left
     * of the limit is the decode's. */
    if (d->max_memory) cfg.max_memory = d->max_memory - d->set_bytes;
    wai_status st = wai_decoder_create(d->ctx, &cfg, &d->dec);
    if (st != WAI_ok) {
        wai_gst_refuse(e, st, "the decoder");
        wai_gst_decoding_close(d);
        return FALSE;
    }
    return TRUE;
}

void wai_gst_decoding_close(wai_gst_decoding *d) {
    wai_decoder_destroy(d->dec);
    wai_set_destroy(d->set);
    wai_context_destroy(d->ctx);
    d->dec = NULL;
    d->set = NULL;
    d->ctx = NULL;
}

GstFlowReturn wai_gst_decoding_chain(GstElement *e, wai_gst_decoding *d, GstBuffer *buf,
                                     guint64 first, guint64 end, wai_gst_push push) {
    GstMapInfo m;
    if (!wai_gst_decoding_open(e, d) || !gst_buffer_map(buf, &m, GST_MAP_READ)) {
        gst_buffer_unref(buf);
        return GST_FLOW_ERROR;
    }
    GstFlowReturn ret = GST_FLOW_OK;
    const guint64 offset = GST_BUFFER_OFFSET_IS_VALID(buf) ? GST_BUFFER_OFFSET(buf) : 0;
    uint64_t skipped = 0, base = UINT64_MAX;
    wai_status st = wai_decoder_send(d->dec, m.data, m.size, NULL);
    wai_gst_post_report(e, d->dec);
    /* A seek's first frame: those before it decoded, not converted. */
    if (st == WAI_ok && first) st = wai_decoder_skip(d->dec, first, &skipped);
    while (st == WAI_ok && ret == GST_FLOW_OK) {
        wai_output o;
        st = wai_decoder_receive(d->dec, &o);
        if (st != WAI_ok || o.kind == WAI_OUTPUT_NONE) break;
        /* The decoder numbers outputs over its life; the payload's own
         * count from its first output, after the buffer's offset. */
        if (base == UINT64_MAX) base = o.index - skipped;
        o.index = offset + (o.index - base);
        if (o.index - offset >= end) break;
        ret = push(e, &o);
    }
    if (st != WAI_ok) ret = wai_gst_refuse(e, st, "decode");
    gst_buffer_unmap(buf, &m);
    gst_buffer_unref(buf);
    return ret;
}

GstClockTime wai_gst_frame_time(guint64 k, gint fps_n, gint fps_d) {
    return gst_util_uint64_scale(k, GST_SECOND * (guint64)fps_d, (guint64)fps_n);
}

guint64 wai_gst_frame_at(GstClockTime t, gint fps_n, gint fps_d) {
    guint64 k = gst_util_uint64_scale(t, (guint64)fps_n, GST_SECOND * (guint64)fps_d);
    while (wai_gst_frame_time(k + 1, fps_n, fps_d) <= t) k++;
    while (k && wai_gst_frame_time(k, fps_n, fps_d) > t) k--;
    return k;
}
