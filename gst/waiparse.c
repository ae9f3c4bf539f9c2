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
 * to us as above.
 *
 * A clip (WIV1, WIC1) is a player's to seek once it is in (docs/gstreamer.md,
 * "Seeking"): its frame count is its header's (wai_payload_outputs), so
 * DURATION and SEEKING are answered from then on, in TIME and DEFAULT; a
 * seek pushes the payload again, from our own task, after a segment whose
 * start is the frame asked for (waidec decodes the frames before it
 * without pushing them). A frame form's seeks and queries are upstream's.
 *
 * The limit holds before the bytes are gathered: once the magic is in,
 * the decoder downstream is asked its max-memory (wai_gst_limits_ask),
 * and a payload past it, or past the most a valid payload of its format
 * holds, is refused by upstream's size before a byte more is read, else
 * as soon as the bytes gathered pass it. */
#include <string.h>

#include <gst/base/gstadapter.h>

#include "gstwai.h"

typedef struct WaiGstParse {
    GstElement element;
    GstPad *sink, *src;
    gint fps_n, fps_d;     /* the framerate property */
    GstAdapter *adapter;   /* a whole payload, gathered */
    const char *format;    /* from the first bytes (static strings), or NULL */
    gboolean frame_form;   /* its capability's: one payload a buffer */
    guint64 bound;         /* the most bytes a payload may hold, once format is known */
    gboolean by_format;    /* bound is the format's own (too_large), not max-memory */
    gint64 size;           /* upstream's size in bytes (-1: it says none), once asked */
    gboolean size_asked;   /* size asked of upstream this stream (upstream_size) */
    guint64 frames;        /* frame-form buffers pushed */
    gboolean caps_sent;
    gboolean failed;       /* an error posted: the EOS that follows it is dropped */
    gboolean pulling;      /* pull mode: our stream-start goes first, as no source sends one */
    const char *capability; /* the detected capability's name (static), once format is */
    /* A clip, once pushed whole: kept for seeks. */
    GstBuffer *whole;
    guint64 n_frames;      /* its frames, from its header */
    GstSegment segment;    /* the last seek's (TIME) */
    guint32 seqnum;        /* the last seek's, for the events it causes */
    gboolean seeked;       /* a seek's segment is to go out before the payload */
} WaiGstParse;

typedef struct WaiGstParseClass {
    GstElementClass parent_class;
} WaiGstParseClass;

G_DEFINE_TYPE(WaiGstParse, wai_gst_parse, GST_TYPE_ELEMENT)

enum { PROP_0, PROP_FRAMERATE };

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

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
    return wai_gst_frame_time(k, p->fps_n, p->fps_d);
}

/* The format of data's magic, and the bound of its payloads; FALSE with
 * the element's error (bad_magic) when no magic is libwai's, or when the
 * plugin does not carry its capability (formats.c). */
static gboolean take_format(WaiGstParse *p, const guint8 *data, gsize len) {
    const wai_capability *found = len ? wai_capability_detect(data, len) : NULL;
    const wai_capability *cap = len ? wai_gst_carried(data, len) : NULL;
    if (found && !cap) {
        GST_ELEMENT_ERROR(p, STREAM, WRONG_TYPE,
                          ("a %s payload (%s): the plugin carries the capabilities libwai decodes "
                           "bit-exactly: use `wai decode`",
                           wai_format_name(found->format), found->name),
                          ("tier %s", found->tier ? found->tier : "?"));
        return FALSE;
    }
    if (!cap) {
        GST_ELEMENT_ERROR(p, STREAM, WRONG_TYPE,
                          (len ? "not a WAI payload: no magic libwai reads: refused: bad_magic"
                               : "the stream is empty: no WAI payload: refused: bad_magic"),
                          ("wai-status=bad_magic"));
        return FALSE;
    }
    p->format = wai_format_name(cap->format);
    p->frame_form = cap->frame_form;
    p->capability = cap->name;
    guint64 limit = wai_gst_limits_ask(p->src), spec = wai_payload_max_bytes(cap);
    p->by_format = limit == 0 || spec < limit;
    p->bound = p->by_format ? spec : limit;
    return TRUE;
}

/* Upstream's size in bytes, when it says one; else -1. Asked once a
 * stream, where it is first wanted (pulled: before a byte is read; pushed:
 * once the head is in), and kept until reset(). */
static gint64 upstream_size(WaiGstParse *p) {
    if (!p->size_asked) {
        p->size_asked = TRUE;
        if (!gst_pad_peer_query_duration(p->sink, GST_FORMAT_BYTES, &p->size)) p->size = -1;
    }
    return p->size;
}

/* Upstream's size, where it says one (a file), against the bound once the
 * format is taken: past it, refused unread (the element's error posted),
 * FALSE. A frame form pushed is held to it a buffer at a time (chain); one
 * pulled is one frame, the whole file. */
static gboolean size_within(WaiGstParse *p) {
    gint64 size = upstream_size(p);
    if (size <= 0 || (guint64)size <= p->bound || (p->frame_form && !p->pulling)) return TRUE;
    wai_gst_refuse_size(GST_ELEMENT(p), (guint64)size, p->bound, p->by_format, FALSE);
    return FALSE;
}

/* Downstream refused our caps: say which element takes the format. */
static GstFlowReturn not_taken(WaiGstParse *p) {
    char *hint = wai_gst_format_hint(p->format);
    GST_ELEMENT_ERROR(p, CORE, NEGOTIATION,
                      ("the element after waiparse does not take %s payloads: %s", p->format, hint),
                      ("downstream refused application/x-wai, format=%s (not-negotiated)",
                       p->format));
    g_free(hint);
    return GST_FLOW_ERROR;
}

static GstFlowReturn push_out(WaiGstParse *p, GstBuffer *buf) {
    if (!send_caps(p)) {
        gst_buffer_unref(buf);
        return not_taken(p);
    }
    GstFlowReturn r = gst_pad_push(p->src, buf);
    return r == GST_FLOW_NOT_NEGOTIATED ? not_taken(p) : r;
}

/* The first bytes a capability is told by (the magic, and a WIV1's or
 * WIF1's keyframe byte): gathered before the format is taken, as a pipe
 * may hand over fewer in its first buffer. */
#define HEAD_BYTES 8

/* The format from the bytes gathered so far (all of them at the end of
 * the stream, when fewer than HEAD_BYTES came); then the payload's size,
 * where upstream says one, against the bound. FALSE: refused, with the
 * element's error posted. */
static gboolean take_head(WaiGstParse *p) {
    gsize have = gst_adapter_available(p->adapter);
    gsize n = have < HEAD_BYTES ? have : HEAD_BYTES;
    const guint8 *head = n ? gst_adapter_map(p->adapter, n) : NULL;
    gboolean ok = take_format(p, head, n);
    if (head) gst_adapter_unmap(p->adapter);
    ok = ok && size_within(p);
    if (!ok) {
        gst_adapter_clear(p->adapter);
        p->failed = TRUE;
    }
    return ok;
}

static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buf) {
    (void)pad;
    WaiGstParse *p = (WaiGstParse *)parent;
    if (!p->format) {
        gst_adapter_push(p->adapter, buf);
        gsize have = gst_adapter_available(p->adapter);
        if (have < HEAD_BYTES) return GST_FLOW_OK;
        if (!take_head(p)) return GST_FLOW_ERROR;
        /* What was gathered is the first payload (a frame form's first
         * frame) or the start of the one payload. */
        buf = gst_adapter_take_buffer(p->adapter, have);
    }
    gsize n = gst_buffer_get_size(buf);
    if (!p->frame_form) {
        guint64 held = gst_adapter_available(p->adapter) + (guint64)n;
        if (held > p->bound) {
            gst_buffer_unref(buf);
            gst_adapter_clear(p->adapter);
            p->failed = TRUE;
            return wai_gst_refuse_size(GST_ELEMENT(p), held, p->bound, p->by_format, TRUE);
        }
        gst_adapter_push(p->adapter, buf); /* pushed whole at the end of the stream */
        return GST_FLOW_OK;
    }
    if (n > p->bound) {
        gst_buffer_unref(buf);
        p->failed = TRUE;
        return wai_gst_refuse_size(GST_ELEMENT(p), n, p->bound, p->by_format, FALSE);
    }
    buf = gst_buffer_make_writable(buf);
    GST_BUFFER_PTS(buf) = frame_time(p, p->frames);
    GST_BUFFER_DTS(buf) = GST_BUFFER_PTS(buf);
    GST_BUFFER_DURATION(buf) = frame_time(p, p->frames + 1) - GST_BUFFER_PTS(buf);
    GST_BUFFER_OFFSET(buf) = p->frames++;
    return push_out(p, buf);
}

/* A clip's frame count from its header, kept with the payload for
 * queries and seeks; a player hears that the duration is known. A payload
 * whose parse refuses keeps none: the decoder downstream refuses it. */
static void keep_clip(WaiGstParse *p, GstBuffer *whole) {
    GstMapInfo m;
    uint64_t n = 0;
    if (!gst_buffer_map(whole, &m, GST_MAP_READ)) return;
    wai_status st = wai_payload_outputs(p->capability, m.data, m.size, &n);
    gst_buffer_unmap(whole, &m);
    if (st != WAI_ok) return;
    GST_OBJECT_LOCK(p);
    gst_buffer_replace(&p->whole, whole);
    p->n_frames = n;
    GST_OBJECT_UNLOCK(p);
    gst_element_post_message(GST_ELEMENT(p), gst_message_new_duration_changed(GST_OBJECT(p)));
}

/* The gathered payload, pushed whole. */
static GstFlowReturn push_whole(WaiGstParse *p) {
    gsize n = gst_adapter_available(p->adapter);
    if (!n) return GST_FLOW_OK;
    GstBuffer *whole = gst_adapter_take_buffer(p->adapter, n); /* one buffer in: no copy */
    GST_BUFFER_PTS(whole) = GST_BUFFER_DTS(whole) = 0;
    GST_BUFFER_OFFSET(whole) = 0;
    if (!p->frame_form) keep_clip(p, whole);
    return push_out(p, whole);
}

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *ev) {
    WaiGstParse *p = (WaiGstParse *)parent;
    switch (GST_EVENT_TYPE(ev)) {
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
        gst_event_unref(ev); /* ours are sent with the first payload */
        return TRUE;
    case GST_EVENT_EOS: {
        /* An empty stream is an error, as an empty file is to `wai decode`;
         * an error posted ends the pipeline: no EOS after it. */
        GstFlowReturn r = GST_FLOW_ERROR;
        if (p->failed) {
            /* upstream's EOS after our refusal: said already */
        } else if (!p->format && take_head(p)) {
            /* fewer than HEAD_BYTES came, and they name a format */
            gsize have = gst_adapter_available(p->adapter);
            r = p->frame_form ? chain(pad, parent, gst_adapter_take_buffer(p->adapter, have))
                                      : GST_FLOW_OK;
        } else if (p->format) {
            r = GST_FLOW_OK;
        }
        if (r == GST_FLOW_OK) r = push_whole(p);
        if (r == GST_FLOW_ERROR) {
            gst_event_unref(ev);
            return FALSE;
        }
        if (r != GST_FLOW_OK) GST_DEBUG_OBJECT(p, "push refused: %s", gst_flow_get_name(r));
        return gst_pad_event_default(pad, parent, ev);
    }
    case GST_EVENT_FLUSH_STOP:
        gst_adapter_clear(p->adapter);
        return gst_pad_event_default(pad, parent, ev);
    default: return gst_pad_event_default(pad, parent, ev);
    }
}

/* Pull mode: the magic first, then the size against the bound, then the
 * whole file in one buffer through the push path's own steps (the chain,
 * then the end of the stream), then EOS downstream. */
static GstFlowReturn pull(WaiGstParse *p) {
    gint64 size = upstream_size(p);
    if (size < 0) {
        GST_ELEMENT_ERROR(p, STREAM, FAILED,
                          ("upstream can be pulled from but does not say its size in bytes"), (NULL));
        return GST_FLOW_ERROR;
    }
    GstBuffer *buf = NULL;
    GstFlowReturn r;
    if (size == 0) {
        take_format(p, NULL, 0); /* the empty file's error */
        return GST_FLOW_ERROR;
    }
    if ((r = gst_pad_pull_range(p->sink, 0, size < 16 ? (guint)size : 16, &buf)) != GST_FLOW_OK)
        return r;
    GstMapInfo m;
    gboolean ok = FALSE;
    if (gst_buffer_map(buf, &m, GST_MAP_READ)) {
        ok = take_format(p, m.data, m.size);
        gst_buffer_unmap(buf, &m);
    }
    gst_buffer_unref(buf);
    if (!ok || !size_within(p)) return GST_FLOW_ERROR;
    if ((guint64)size > G_MAXUINT) {
        GST_ELEMENT_ERROR(p, STREAM, FAILED,
                          ("%" G_GINT64_FORMAT " bytes: more than one pull reads (4 GiB - 1)", size),
                          (NULL));
        return GST_FLOW_ERROR;
    }
    buf = NULL; /* pull_range fills a buffer given: ask for a new one */
    if ((r = gst_pad_pull_range(p->sink, 0, (guint)size, &buf)) != GST_FLOW_OK) return r;
    if ((r = chain(p->sink, GST_OBJECT(p), buf)) != GST_FLOW_OK) return r;
    return push_whole(p);
}

static void pull_whole(gpointer data) {
    WaiGstParse *p = (WaiGstParse *)data;
    GstFlowReturn r = pull(p);
    gst_pad_pause_task(p->sink);
    /* An error downstream has been posted there and ends the pipeline: no
     * EOS after it (a sink prerolling on that EOS raced gst-launch's
     * shutdown on the error and hung it). */
    if (r == GST_FLOW_FLUSHING || r == GST_FLOW_ERROR) return;
    if (r != GST_FLOW_OK && r != GST_FLOW_EOS) GST_ELEMENT_FLOW_ERROR(p, r);
    gst_pad_push_event(p->src, gst_event_new_eos());
}

/* A new stream: nothing gathered, no format yet. */
static void reset(WaiGstParse *p) {
    gst_adapter_clear(p->adapter);
    GST_OBJECT_LOCK(p);
    gst_buffer_replace(&p->whole, NULL);
    p->n_frames = 0;
    GST_OBJECT_UNLOCK(p);
    p->seeked = FALSE;
    gst_segment_init(&p->segment, GST_FORMAT_TIME);
    p->format = NULL;
    p->frame_form = FALSE;
    p->size_asked = FALSE;
    p->frames = 0;
    p->caps_sent = FALSE;
    p->failed = FALSE;
}

/* ---- a clip's queries and seeks ----------------------------------------------- */

/* The clip's frame count once it is in (0: not yet, or no clip). */
static guint64 clip_frames(WaiGstParse *p) {
    GST_OBJECT_LOCK(p);
    guint64 n = p->whole ? p->n_frames : 0;
    GST_OBJECT_UNLOCK(p);
    return n;
}

/* v in fmt (TIME or DEFAULT) as time. */
static GstClockTime as_time(const WaiGstParse *p, GstFormat fmt, gint64 v) {
    if (v < 0) return GST_CLOCK_TIME_NONE;
    return fmt == GST_FORMAT_DEFAULT ? frame_time(p, (guint64)v) : (GstClockTime)v;
}

static guint64 frame_at(const WaiGstParse *p, GstClockTime t) {
    return wai_gst_frame_at(t, p->fps_n, p->fps_d);
}

static gboolean src_query(GstPad *pad, GstObject *parent, GstQuery *q) {
    WaiGstParse *p = (WaiGstParse *)parent;
    const guint64 n = clip_frames(p);
    GstFormat fmt;
    if (!n || (GST_QUERY_TYPE(q) != GST_QUERY_DURATION && GST_QUERY_TYPE(q) != GST_QUERY_SEEKING &&
               GST_QUERY_TYPE(q) != GST_QUERY_CONVERT))
        return gst_pad_query_default(pad, parent, q);
    const gint64 duration = (gint64)frame_time(p, n);
    switch (GST_QUERY_TYPE(q)) {
    case GST_QUERY_DURATION:
        gst_query_parse_duration(q, &fmt, NULL);
        if (fmt == GST_FORMAT_TIME) gst_query_set_duration(q, fmt, duration);
        else if (fmt == GST_FORMAT_DEFAULT) gst_query_set_duration(q, fmt, (gint64)n);
        else return gst_pad_query_default(pad, parent, q);
        return TRUE;
    case GST_QUERY_SEEKING:
        gst_query_parse_seeking(q, &fmt, NULL, NULL, NULL);
        if (fmt == GST_FORMAT_TIME) gst_query_set_seeking(q, fmt, TRUE, 0, duration);
        else if (fmt == GST_FORMAT_DEFAULT) gst_query_set_seeking(q, fmt, TRUE, 0, (gint64)n);
        else return gst_pad_query_default(pad, parent, q);
        return TRUE;
    default: { /* CONVERT, between frames and time */
        GstFormat to;
        gint64 v;
        gst_query_parse_convert(q, &fmt, &v, &to, NULL);
        if (fmt == to) gst_query_set_convert(q, fmt, v, to, v);
        else if (fmt == GST_FORMAT_DEFAULT && to == GST_FORMAT_TIME)
            gst_query_set_convert(q, fmt, v, to, v < 0 ? -1 : (gint64)frame_time(p, (guint64)v));
        else if (fmt == GST_FORMAT_TIME && to == GST_FORMAT_DEFAULT)
            gst_query_set_convert(q, fmt, v, to, v < 0 ? -1 : (gint64)frame_at(p, (GstClockTime)v));
        else return gst_pad_query_default(pad, parent, q);
        return TRUE;
    }
    }
}

/* The payload again after a seek, from the src pad's task: the seek's
 * segment, the payload (waidec pushes its frames from the segment's
 * start), then EOS, or SEGMENT_DONE for a segment seek. */
static void push_seeked(gpointer data) {
    WaiGstParse *p = (WaiGstParse *)data;
    GstFlowReturn r = GST_FLOW_OK;
    if (p->seeked) {
        GstEvent *seg = gst_event_new_segment(&p->segment);
        gst_event_set_seqnum(seg, p->seqnum);
        p->seeked = FALSE;
        if (!gst_pad_push_event(p->src, seg)) r = GST_FLOW_FLUSHING;
    }
    GST_OBJECT_LOCK(p);
    GstBuffer *whole = p->whole ? gst_buffer_ref(p->whole) : NULL;
    GST_OBJECT_UNLOCK(p);
    const guint64 n = p->n_frames;
    /* A start past the last frame pushes no frame (the end at once). */
    if (r == GST_FLOW_OK && whole && p->segment.start < frame_time(p, n)) r = gst_pad_push(p->src, whole);
    else if (whole) gst_buffer_unref(whole);
    gst_pad_pause_task(p->src);
    if (r == GST_FLOW_FLUSHING || r == GST_FLOW_ERROR || r == GST_FLOW_NOT_NEGOTIATED) return;
    if (r != GST_FLOW_OK && r != GST_FLOW_EOS) {
        GST_ELEMENT_FLOW_ERROR(p, r);
        return;
    }
    if (p->segment.flags & GST_SEGMENT_FLAG_SEGMENT) {
        const gint64 stop = GST_CLOCK_TIME_IS_VALID(p->segment.stop) ? (gint64)p->segment.stop
                                                                       : (gint64)frame_time(p, n);
        GstMessage *m = gst_message_new_segment_done(GST_OBJECT(p), GST_FORMAT_TIME, stop);
        gst_message_set_seqnum(m, p->seqnum);
        gst_element_post_message(GST_ELEMENT(p), m);
        GstEvent *done = gst_event_new_segment_done(GST_FORMAT_TIME, stop);
        gst_event_set_seqnum(done, p->seqnum);
        gst_pad_push_event(p->src, done);
        return;
    }
    GstEvent *eos = gst_event_new_eos();
    gst_event_set_seqnum(eos, p->seqnum);
    gst_pad_push_event(p->src, eos);
}

/* A seek on a clip that is in: rate 1.0, in TIME or DEFAULT (frames), to
 * the frame shown at its start (ACCURATE: from that time; KEY_UNIT: from
 * the frame's own start, every frame of a clip being one the payload
 * alone reaches), flushing or not, a segment seek or not. What pushes
 * (the pull task, upstream's thread at its end, an earlier seek's task)
 * is stopped first, under the pads' stream locks, as GStreamer's base
 * classes do. */
static gboolean do_seek(WaiGstParse *p, GstEvent *ev) {
    gdouble rate;
    GstFormat fmt;
    GstSeekFlags flags;
    GstSeekType start_type, stop_type;
    gint64 start, stop;
    gst_event_parse_seek(ev, &rate, &fmt, &flags, &start_type, &start, &stop_type, &stop);
    const guint64 n = clip_frames(p);
    if (!n || rate != 1.0 || (fmt != GST_FORMAT_TIME && fmt != GST_FORMAT_DEFAULT)) return FALSE;
    const GstClockTime duration = frame_time(p, n);
    GstClockTime t0 = as_time(p, fmt, start), t1 = as_time(p, fmt, stop);
    if (start_type == GST_SEEK_TYPE_END && GST_CLOCK_TIME_IS_VALID(t0))
        t0 = t0 < duration ? duration - t0 : 0; /* END: before the end */
    if (stop_type == GST_SEEK_TYPE_END && GST_CLOCK_TIME_IS_VALID(t1))
        t1 = t1 < duration ? duration - t1 : 0;
    if (start_type == GST_SEEK_TYPE_NONE || !GST_CLOCK_TIME_IS_VALID(t0)) t0 = p->segment.start;
    if (t0 > duration) t0 = duration;
    if (flags & GST_SEEK_FLAG_KEY_UNIT && t0 < duration) t0 = frame_time(p, frame_at(p, t0));
    if (stop_type == GST_SEEK_TYPE_NONE) t1 = p->segment.stop;
    if (GST_CLOCK_TIME_IS_VALID(t1) && t1 > duration) t1 = duration;
    const gboolean flush = (flags & GST_SEEK_FLAG_FLUSH) != 0;
    const guint32 seqnum = gst_event_get_seqnum(ev);
    if (flush) {
        GstEvent *fs = gst_event_new_flush_start();
        gst_event_set_seqnum(fs, seqnum);
        gst_pad_push_event(p->src, fs);
    }
    if (p->pulling) gst_pad_pause_task(p->sink);
    gst_pad_pause_task(p->src);
    GST_PAD_STREAM_LOCK(p->sink);
    GST_PAD_STREAM_LOCK(p->src);
    if (flush) {
        GstEvent *fs = gst_event_new_flush_stop(TRUE);
        gst_event_set_seqnum(fs, seqnum);
        gst_pad_push_event(p->src, fs);
    }
    gboolean update;
    gst_segment_do_seek(&p->segment, 1.0, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, t0,
                        GST_SEEK_TYPE_SET, GST_CLOCK_TIME_IS_VALID(t1) ? t1 : GST_CLOCK_TIME_NONE,
                        &update);
    p->segment.duration = duration;
    p->seqnum = seqnum;
    p->seeked = TRUE;
    gboolean ok = gst_pad_start_task(p->src, push_seeked, p, NULL);
    GST_PAD_STREAM_UNLOCK(p->src);
    GST_PAD_STREAM_UNLOCK(p->sink);
    return ok;
}

static gboolean src_event(GstPad *pad, GstObject *parent, GstEvent *ev) {
    WaiGstParse *p = (WaiGstParse *)parent;
    if (GST_EVENT_TYPE(ev) == GST_EVENT_SEEK && !p->frame_form && p->format) {
        gboolean ok = do_seek(p, ev);
        gst_event_unref(ev);
        return ok;
    }
    return gst_pad_event_default(pad, parent, ev);
}

static gboolean src_activate_mode(GstPad *pad, GstObject *parent, GstPadMode mode,
                                  gboolean active) {
    (void)parent;
    (void)mode;
    return active ? TRUE : gst_pad_stop_task(pad);
}

static GstStateChangeReturn change_state(GstElement *e, GstStateChange t) {
    if (t == GST_STATE_CHANGE_READY_TO_PAUSED) reset((WaiGstParse *)e);
    GstStateChangeReturn r = GST_ELEMENT_CLASS(wai_gst_parse_parent_class)->change_state(e, t);
    if (t == GST_STATE_CHANGE_PAUSED_TO_READY) reset((WaiGstParse *)e);
    return r;
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
    reset(p);
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
    gst_buffer_replace(&((WaiGstParse *)o)->whole, NULL);
    g_object_unref(((WaiGstParse *)o)->adapter);
    G_OBJECT_CLASS(wai_gst_parse_parent_class)->finalize(o);
}

static void wai_gst_parse_class_init(WaiGstParseClass *k) {
    GObjectClass *o = G_OBJECT_CLASS(k);
    GstElementClass *e = GST_ELEMENT_CLASS(k);
    o->set_property = set_property;
    o->get_property = get_property;
    o->finalize = finalize;
    e->change_state = change_state;
    g_object_class_install_property(
        o, PROP_FRAMERATE,
        gst_param_spec_fraction("framerate", "Frame rate",
                                "the frames' rate (a WAI payload carries none)", 1, G_MAXINT, G_MAXINT,
                                1, 25, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    gst_element_class_add_static_pad_template(e, &sink_template);
    GstCaps *caps = wai_gst_caps(WAI_GST_ALL);
    gst_element_class_add_pad_template(e, gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                                                               caps));
    gst_caps_unref(caps);
    gst_element_class_set_static_metadata(e, "WAI parser", "Codec/Parser",
                                          "A WAI payload file into timestamped payloads: a clip or a "
                                          "picture whole, a frame stream a frame a buffer",
                                          "libwai");
}

static void wai_gst_parse_init(WaiGstParse *p) {
    p->sink = gst_pad_new_from_static_template(&sink_template, "sink");
    p->src = gst_pad_new_from_template(
        gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(p), "src"), "src");
    gst_pad_set_chain_function(p->sink, chain);
    gst_pad_set_event_function(p->sink, sink_event);
    gst_pad_set_activate_function(p->sink, sink_activate);
    gst_pad_set_activatemode_function(p->sink, sink_activate_mode);
    gst_pad_use_fixed_caps(p->src);
    gst_pad_set_query_function(p->src, src_query);
    gst_pad_set_event_function(p->src, src_event);
    gst_pad_set_activatemode_function(p->src, src_activate_mode);
    gst_element_add_pad(GST_ELEMENT(p), p->sink);
    gst_element_add_pad(GST_ELEMENT(p), p->src);
    p->adapter = gst_adapter_new();
    p->fps_n = 25;
    p->fps_d = 1;
    gst_segment_init(&p->segment, GST_FORMAT_TIME);
}
