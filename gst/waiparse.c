/* SPDX-License-Identifier: BSD-2-Clause */
/* waiparse: a WAI payload file into the buffers waidec decodes.
 *
 * A clip (WIV1, WIC1) or a picture (WIH1, WIM1), a WIA1 or a WIS1 is one
 * payload: the whole file is gathered and pushed as one buffer at the end of
 * the stream, timestamped 0 with the clip's duration. A frame form (WIF1,
 * WCF1) is one payload a buffer, as multifilesrc gives one file a buffer
 * (the frames `wai split` writes): each is pushed as it comes, frame k at
 * k / framerate. Caps: application/x-wai, format, framerate.
 *
 * Where upstream can be pulled from (filesrc), the file is read whole in
 * one pull: one buffer, read once, no gathering of 4 KiB blocks; a frame
 * form's file is then one frame. Else (a pipe, multifilesrc) it is pushed
 * to us as above. */
#include <string.h>

#include <gst/base/gstadapter.h>

#include "gstwai.h"

typedef struct WaiGstParse {
    GstElement element;
    GstPad *sink, *src;
    gint fps_n, fps_d;     /* the framerate property */
    GstAdapter *adapter;   /* a whole payload, gathered */
    const char *format;    /* from the first bytes (static strings), or NULL */
    guint64 frames;        /* frame-form buffers pushed */
    gboolean caps_sent;
    gboolean pulling;      /* pull mode: our stream-start goes first, as no source sends one */
} WaiGstParse;

typedef struct WaiGstParseClass {
    GstElementClass parent_class;
} WaiGstParseClass;

G_DEFINE_TYPE(WaiGstParse, wai_gst_parse, GST_TYPE_ELEMENT)

enum { PROP_0, PROP_FRAMERATE };

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(WAI_GST_CAPS));

static gboolean frame_form(const char *f) {
    return f && (g_str_equal(f, "WIF1") || g_str_equal(f, "WCF1"));
}

static gboolean send_caps(WaiGstParse *p) {
    if (p->caps_sent) return TRUE;
    GstCaps *caps = gst_caps_new_simple("application/x-wai", "format", G_TYPE_STRING, p->format,
                                        "framerate", GST_TYPE_FRACTION, p->fps_n, p->fps_d, NULL);
    GstSegment seg;
    gst_segment_init(&seg, GST_FORMAT_TIME);
    if (p->pulling) {
        gchar *id = gst_pad_create_stream_id(p->src, GST_ELEMENT(p), NULL);
        gst_pad_push_event(p->src, gst_event_new_stream_start(id));
        g_free(id);
    }
    gboolean ok = gst_pad_push_event(p->src, gst_event_new_caps(caps)) &&
                  gst_pad_push_event(p->src, gst_event_new_segment(&seg));
    gst_caps_unref(caps);
    p->caps_sent = ok;
    return ok;
}

static GstClockTime frame_time(const WaiGstParse *p, guint64 k) {
    return gst_util_uint64_scale(k, GST_SECOND * (guint64)p->fps_d, (guint64)p->fps_n);
}

static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buf) {
    (void)pad;
    WaiGstParse *p = (WaiGstParse *)parent;
    if (!p->format) {
        GstMapInfo m;
        if (gst_adapter_available(p->adapter) == 0 && gst_buffer_map(buf, &m, GST_MAP_READ)) {
            p->format = wai_gst_format_of(m.data, m.size);
            gst_buffer_unmap(buf, &m);
        }
        if (!p->format) {
            gst_buffer_unref(buf);
            GST_ELEMENT_ERROR(p, STREAM, WRONG_TYPE, ("not a WAI payload: no magic libwai reads"),
                              ("wai-status=bad_magic"));
            return GST_FLOW_ERROR;
        }
    }
    if (!frame_form(p->format)) {
        gst_adapter_push(p->adapter, buf); /* pushed whole at the end of the stream */
        return GST_FLOW_OK;
    }
    if (!send_caps(p)) {
        gst_buffer_unref(buf);
        return GST_FLOW_NOT_NEGOTIATED;
    }
    buf = gst_buffer_make_writable(buf);
    GST_BUFFER_PTS(buf) = frame_time(p, p->frames);
    GST_BUFFER_DTS(buf) = GST_BUFFER_PTS(buf);
    GST_BUFFER_DURATION(buf) = frame_time(p, p->frames + 1) - GST_BUFFER_PTS(buf);
    GST_BUFFER_OFFSET(buf) = p->frames++;
    return gst_pad_push(p->src, buf);
}

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *ev) {
    WaiGstParse *p = (WaiGstParse *)parent;
    switch (GST_EVENT_TYPE(ev)) {
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
        gst_event_unref(ev); /* ours are sent with the first payload */
        return TRUE;
    case GST_EVENT_EOS: {
        gsize n = gst_adapter_available(p->adapter);
        if (n && send_caps(p)) {
            GstBuffer *whole = gst_adapter_take_buffer(p->adapter, n);
            GST_BUFFER_PTS(whole) = GST_BUFFER_DTS(whole) = 0;
            GST_BUFFER_OFFSET(whole) = 0;
            if (gst_pad_push(p->src, whole) != GST_FLOW_OK) GST_DEBUG_OBJECT(p, "push refused");
        }
        return gst_pad_event_default(pad, parent, ev);
    }
    case GST_EVENT_FLUSH_STOP:
        gst_adapter_clear(p->adapter);
        return gst_pad_event_default(pad, parent, ev);
    default: return gst_pad_event_default(pad, parent, ev);
    }
}

/* Pull mode: the whole file in one buffer, through the push path's own
 * steps (the chain, then the end of the stream), then EOS downstream. */
static void pull_whole(gpointer data) {
    WaiGstParse *p = (WaiGstParse *)data;
    gint64 size = 0;
    GstBuffer *buf = NULL;
    GstFlowReturn r = GST_FLOW_ERROR;
    if (!gst_pad_peer_query_duration(p->sink, GST_FORMAT_BYTES, &size) || size <= 0 ||
        (guint64)size > G_MAXUINT) {
        GST_ELEMENT_ERROR(p, STREAM, FAILED, ("upstream does not say the file's size"), (NULL));
    } else if ((r = gst_pad_pull_range(p->sink, 0, (guint)size, &buf)) != GST_FLOW_OK) {
        if (r != GST_FLOW_FLUSHING) GST_ELEMENT_FLOW_ERROR(p, r);
    } else if ((r = chain(p->sink, GST_OBJECT(p), buf)) == GST_FLOW_OK) {
        gsize n = gst_adapter_available(p->adapter);
        if (n && send_caps(p)) {
            GstBuffer *whole = gst_adapter_take_buffer(p->adapter, n); /* the one buffer: no copy */
            GST_BUFFER_PTS(whole) = GST_BUFFER_DTS(whole) = 0;
            GST_BUFFER_OFFSET(whole) = 0;
            r = gst_pad_push(p->src, whole);
        }
    }
    gst_pad_pause_task(p->sink);
    /* An error downstream has been posted there and ends the pipeline: no
     * EOS after it (a sink prerolling on that EOS raced gst-launch's
     * shutdown on the error and hung it). */
    if (r == GST_FLOW_FLUSHING || r == GST_FLOW_ERROR) return;
    if (r != GST_FLOW_OK && r != GST_FLOW_EOS) GST_ELEMENT_FLOW_ERROR(p, r);
    gst_pad_push_event(p->src, gst_event_new_eos());
}

static gboolean sink_activate(GstPad *pad, GstObject *parent) {
    (void)parent;
    GstQuery *q = gst_query_new_scheduling();
    gboolean pull = gst_pad_peer_query(pad, q) &&
                    gst_query_has_scheduling_mode_with_flags(q, GST_PAD_MODE_PULL,
                                                             GST_SCHEDULING_FLAG_SEEKABLE);
    gst_query_unref(q);
    return gst_pad_activate_mode(pad, pull ? GST_PAD_MODE_PULL : GST_PAD_MODE_PUSH, TRUE);
}

static gboolean sink_activate_mode(GstPad *pad, GstObject *parent, GstPadMode mode,
                                   gboolean active) {
    WaiGstParse *p = (WaiGstParse *)parent;
    if (mode != GST_PAD_MODE_PULL) return TRUE;
    p->pulling = active;
    if (!active) return gst_pad_stop_task(pad);
    gst_adapter_clear(p->adapter);
    p->format = NULL;
    p->frames = 0;
    p->caps_sent = FALSE;
    return gst_pad_start_task(pad, pull_whole, p, NULL);
}

static void set_property(GObject *o, guint id, const GValue *v, GParamSpec *ps) {
    WaiGstParse *p = (WaiGstParse *)o;
    if (id == PROP_FRAMERATE) {
        p->fps_n = gst_value_get_fraction_numerator(v);
        p->fps_d = gst_value_get_fraction_denominator(v);
    } else G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void get_property(GObject *o, guint id, GValue *v, GParamSpec *ps) {
    WaiGstParse *p = (WaiGstParse *)o;
    if (id == PROP_FRAMERATE) gst_value_set_fraction(v, p->fps_n, p->fps_d);
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void finalize(GObject *o) {
    g_object_unref(((WaiGstParse *)o)->adapter);
    G_OBJECT_CLASS(wai_gst_parse_parent_class)->finalize(o);
}

static void wai_gst_parse_class_init(WaiGstParseClass *k) {
    GObjectClass *o = G_OBJECT_CLASS(k);
    GstElementClass *e = GST_ELEMENT_CLASS(k);
    o->set_property = set_property;
    o->get_property = get_property;
    o->finalize = finalize;
    g_object_class_install_property(
        o, PROP_FRAMERATE,
        gst_param_spec_fraction("framerate", "Frame rate",
                                "the frames' rate (a WAI payload carries none)", 1, G_MAXINT, G_MAXINT,
                                1, 25, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    gst_element_class_add_static_pad_template(e, &sink_template);
    gst_element_class_add_static_pad_template(e, &src_template);
    gst_element_class_set_static_metadata(e, "WAI parser", "Codec/Parser",
                                          "A WAI payload file into timestamped payloads: a clip or a "
                                          "picture whole, a frame stream a frame a buffer",
                                          "libwai");
}

static void wai_gst_parse_init(WaiGstParse *p) {
    p->sink = gst_pad_new_from_static_template(&sink_template, "sink");
    p->src = gst_pad_new_from_static_template(&src_template, "src");
    gst_pad_set_chain_function(p->sink, chain);
    gst_pad_set_event_function(p->sink, sink_event);
    gst_pad_set_activate_function(p->sink, sink_activate);
    gst_pad_set_activatemode_function(p->sink, sink_activate_mode);
    gst_pad_use_fixed_caps(p->src);
    gst_element_add_pad(GST_ELEMENT(p), p->sink);
    gst_element_add_pad(GST_ELEMENT(p), p->src);
    p->adapter = gst_adapter_new();
    p->fps_n = 25;
    p->fps_d = 1;
}
