/* SPDX-License-Identifier: BSD-2-Clause */
/* waidec: WAI payloads (waiparse's buffers) into video/x-raw RGB frames.
 *
 * Each buffer is one payload, sent to one libwai decoder in order: a clip
 * (WIV1, WIC1) whose frames come out as they are decoded (a streaming
 * decoder: two frames of memory whatever the clip's length), a frame of a
 * frame stream (WIF1, WCF1), or a picture (WIH1, WIM1). Frame k of the
 * stream is timestamped k / framerate (the caps' framerate, waiparse's
 * property; default 25/1). A clip's segment (waiparse's, after a seek)
 * says which of its frames go out: those before its start are decoded
 * (each predicts the next) but not converted or pushed, and the decode
 * stops at its stop. A refusal is an element error carrying the
 * spec's code; a neural decode's dispatch report is posted as an element
 * message. Rows are copied to GStreamer's RGB stride (4-byte aligned),
 * into buffers of a pool (downstream's when the allocation query offers
 * one, else our own): a fresh 2.6 MiB buffer a 720p frame would fault its
 * pages in anew each frame. */
#include <string.h>

#include <gst/video/video.h>

#include "gstwai.h"

typedef struct WaiGstDec {
    GstElement element;
    GstPad *sink, *src;
    wai_gst_decoding wai;
    gint fps_n, fps_d;
    GstVideoInfo info;         /* the caps last sent (width 0: none) */
    GstEvent *segment;         /* upstream's, held until the first caps are sent */
    GstBufferPool *pool;       /* the frames' buffers, for the caps last sent */
    gboolean clip;             /* the caps' format is a clip's, not a frame form's */
    GstSegment seg;            /* upstream's last segment (TIME) */
} WaiGstDec;

typedef struct WaiGstDecClass {
    GstElementClass parent_class;
} WaiGstDecClass;

G_DEFINE_TYPE(WaiGstDec, wai_gst_dec, GST_TYPE_ELEMENT)

enum { PROP_0, PROP_FIRST };

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE("RGB")));

static GstClockTime frame_time(const WaiGstDec *d, guint64 k) {
    return wai_gst_frame_time(k, d->fps_n, d->fps_d);
}

static void drop_pool(WaiGstDec *d) {
    if (!d->pool) return;
    gst_buffer_pool_set_active(d->pool, FALSE);
    gst_object_unref(d->pool);
    d->pool = NULL;
}

/* A pool of frames for caps: downstream's if it offers one, else a video
 * pool of our own; at least two buffers, so one is written while the
 * other is shown. */
static gboolean make_pool(WaiGstDec *d, GstCaps *caps) {
    drop_pool(d);
    guint size = (guint)GST_VIDEO_INFO_SIZE(&d->info), min = 2, max = 0;
    GstQuery *q = gst_query_new_allocation(caps, TRUE);
    if (gst_pad_peer_query(d->src, q) && gst_query_get_n_allocation_pools(q) > 0) {
        guint s;
        gst_query_parse_nth_allocation_pool(q, 0, &d->pool, &s, &min, &max);
        if (min < 2) min = 2;
        if (max && max < min) max = min;
    }
    gst_query_unref(q);
    if (!d->pool) d->pool = gst_video_buffer_pool_new();
    GstStructure *c = gst_buffer_pool_get_config(d->pool);
    gst_buffer_pool_config_set_params(c, caps, size, min, max);
    if (!gst_buffer_pool_set_config(d->pool, c) || !gst_buffer_pool_set_active(d->pool, TRUE)) {
        drop_pool(d);
        return FALSE;
    }
    return TRUE;
}

/* Caps for a frame of this size, sent when the size is new. */
static gboolean negotiate(WaiGstDec *d, const wai_output *o) {
    if (GST_VIDEO_INFO_WIDTH(&d->info) == (gint)o->width &&
        GST_VIDEO_INFO_HEIGHT(&d->info) == (gint)o->height)
        return TRUE;
    gst_video_info_set_format(&d->info, GST_VIDEO_FORMAT_RGB, o->width, o->height);
    GST_VIDEO_INFO_FPS_N(&d->info) = d->fps_n;
    GST_VIDEO_INFO_FPS_D(&d->info) = d->fps_d;
    GstCaps *caps = gst_video_info_to_caps(&d->info);
    gboolean ok = gst_pad_set_caps(d->src, caps) && make_pool(d, caps);
    gst_caps_unref(caps);
    /* Caps before the segment, as GStreamer's sticky events are ordered. */
    if (ok && d->segment) ok = gst_pad_push_event(d->src, d->segment);
    d->segment = NULL;
    return ok;
}

static GstFlowReturn push_frame(WaiGstDec *d, const wai_output *o) {
    if (!negotiate(d, o)) return GST_FLOW_NOT_NEGOTIATED;
    GstBuffer *b = NULL;
    if (gst_buffer_pool_acquire_buffer(d->pool, &b, NULL) != GST_FLOW_OK) return GST_FLOW_FLUSHING;
    GstVideoFrame f;
    if (!gst_video_frame_map(&f, &d->info, b, GST_MAP_WRITE)) {
        if (b) gst_buffer_unref(b);
        return GST_FLOW_ERROR;
    }
    guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA(&f, 0);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f, 0);
    gsize row = (gsize)o->width * 3;
    if ((gsize)stride == row)
        memcpy(dst, o->data, row * o->height);
    else
        for (guint32 y = 0; y < o->height; y++)
            memcpy(dst + (gsize)y * stride, o->data + y * row, row);
    gst_video_frame_unmap(&f);
    GST_BUFFER_PTS(b) = frame_time(d, o->index);
    GST_BUFFER_DURATION(b) = frame_time(d, o->index + 1) - GST_BUFFER_PTS(b);
    GST_BUFFER_OFFSET(b) = o->index;
    return gst_pad_push(d->src, b);
}

static GstFlowReturn push(GstElement *e, const wai_output *o) { return push_frame((WaiGstDec *)e, o); }

static guint64 frame_at(const WaiGstDec *d, GstClockTime t) {
    return wai_gst_frame_at(t, d->fps_n, d->fps_d);
}

static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buf) {
    (void)pad;
    WaiGstDec *d = (WaiGstDec *)parent;
    guint64 first = 0, end = G_MAXUINT64;
    if (d->clip && d->seg.format == GST_FORMAT_TIME) {
        if (d->seg.start > 0) first = frame_at(d, d->seg.start);
        /* The first frame that starts at or after the stop. */
        if (GST_CLOCK_TIME_IS_VALID(d->seg.stop))
            end = d->seg.stop ? frame_at(d, d->seg.stop - 1) + 1 : 0;
    }
    return wai_gst_decoding_chain(GST_ELEMENT(parent), &d->wai, buf, first, end, push);
}

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *ev) {
    WaiGstDec *d = (WaiGstDec *)parent;
    if (GST_EVENT_TYPE(ev) == GST_EVENT_CAPS) {
        GstCaps *caps;
        gst_event_parse_caps(ev, &caps);
        const GstStructure *s = gst_caps_get_structure(caps, 0);
        gint n, dd;
        if (gst_structure_get_fraction(s, "framerate", &n, &dd) && n > 0 && dd > 0)
            d->fps_n = n, d->fps_d = dd;
        d->clip = !wai_gst_frame_form(gst_structure_get_string(s, "format"));
        gst_event_unref(ev);
        return TRUE; /* the src caps go out with the first frame */
    }
    if (GST_EVENT_TYPE(ev) == GST_EVENT_SEGMENT) gst_event_copy_segment(ev, &d->seg);
    if (GST_EVENT_TYPE(ev) == GST_EVENT_SEGMENT && GST_VIDEO_INFO_WIDTH(&d->info) == 0) {
        gst_event_replace(&d->segment, ev);
        gst_event_unref(ev);
        return TRUE;
    }
    return gst_pad_event_default(pad, parent, ev);
}

/* POSITION in frames (DEFAULT): the frame downstream shows, from its
 * position in time; the rest as GStreamer's default (upstream, waiparse,
 * answers DURATION and SEEKING; a sink answers POSITION in time). */
static gboolean src_query(GstPad *pad, GstObject *parent, GstQuery *q) {
    WaiGstDec *d = (WaiGstDec *)parent;
    GstFormat fmt;
    gint64 t;
    if (GST_QUERY_TYPE(q) == GST_QUERY_POSITION) {
        gst_query_parse_position(q, &fmt, NULL);
        if (fmt == GST_FORMAT_DEFAULT && gst_pad_peer_query_position(d->src, GST_FORMAT_TIME, &t) &&
            t >= 0) {
            gst_query_set_position(q, GST_FORMAT_DEFAULT, (gint64)frame_at(d, (GstClockTime)t));
            return TRUE;
        }
    }
    return gst_pad_query_default(pad, parent, q);
}

static void set_property(GObject *o, guint id, const GValue *v, GParamSpec *ps) {
    if (!wai_gst_decoding_set(&((WaiGstDec *)o)->wai, PROP_FIRST, id, v))
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void get_property(GObject *o, guint id, GValue *v, GParamSpec *ps) {
    if (!wai_gst_decoding_get(&((WaiGstDec *)o)->wai, PROP_FIRST, id, v))
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static GstStateChangeReturn change_state(GstElement *e, GstStateChange t) {
    WaiGstDec *d = (WaiGstDec *)e;
    GstStateChangeReturn r = GST_ELEMENT_CLASS(wai_gst_dec_parent_class)->change_state(e, t);
    if (t == GST_STATE_CHANGE_PAUSED_TO_READY) {
        wai_gst_decoding_close(&d->wai);
        drop_pool(d);
        gst_video_info_init(&d->info);
        gst_event_replace(&d->segment, NULL);
        gst_segment_init(&d->seg, GST_FORMAT_UNDEFINED);
    }
    return r;
}

static void finalize(GObject *o) {
    WaiGstDec *d = (WaiGstDec *)o;
    wai_gst_decoding_close(&d->wai);
    drop_pool(d);
    g_free(d->wai.set_dir);
    G_OBJECT_CLASS(wai_gst_dec_parent_class)->finalize(o);
}

static void wai_gst_dec_class_init(WaiGstDecClass *k) {
    GObjectClass *o = G_OBJECT_CLASS(k);
    GstElementClass *e = GST_ELEMENT_CLASS(k);
    o->set_property = set_property;
    o->get_property = get_property;
    o->finalize = finalize;
    e->change_state = change_state;
    wai_gst_decoding_install(o, PROP_FIRST);
    wai_gst_decoding_templates(e, WAI_GST_VIDEO, "WAI video decoder", "Codec/Decoder/Video",
                               "RGB frames");
    gst_element_class_add_static_pad_template(e, &src_template);
}

static void wai_gst_dec_init(WaiGstDec *d) {
    d->sink = gst_pad_new_from_template(
        gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(d), "sink"), "sink");
    d->src = gst_pad_new_from_static_template(&src_template, "src");
    gst_pad_set_chain_function(d->sink, chain);
    gst_pad_set_event_function(d->sink, sink_event);
    gst_pad_use_fixed_caps(d->src);
    gst_pad_set_query_function(d->src, src_query);
    gst_element_add_pad(GST_ELEMENT(d), d->sink);
    gst_element_add_pad(GST_ELEMENT(d), d->src);
    wai_gst_decoding_init(&d->wai, d->sink);
    gst_video_info_init(&d->info);
    d->fps_n = 25;
    d->fps_d = 1;
    gst_segment_init(&d->seg, GST_FORMAT_UNDEFINED);
}
