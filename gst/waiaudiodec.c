/* SPDX-License-Identifier: BSD-2-Clause */
/* waiaudiodec: a WIA1 payload into audio/x-raw S16LE, one channel, at the
 * payload's own sample rate. A refusal is an element error carrying the
 * spec's code. */
#include <string.h>

#include <gst/audio/audio.h>

#include "gstwai.h"

typedef struct WaiGstAudioDec {
    GstElement element;
    GstPad *sink, *src;
    wai_gst_decoding wai;
    guint32 rate;              /* the caps last sent (0: none) */
    guint64 samples;           /* pushed so far: the next buffer's time */
    GstEvent *segment;         /* upstream's, held until the first caps are sent */
} WaiGstAudioDec;

typedef struct WaiGstAudioDecClass {
    GstElementClass parent_class;
} WaiGstAudioDecClass;

G_DEFINE_TYPE(WaiGstAudioDec, wai_gst_audio_dec, GST_TYPE_ELEMENT)

enum { PROP_0, PROP_FIRST };

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("audio/x-raw, format = (string) S16LE, layout = (string) interleaved, "
                    "rate = (int) [ 1, MAX ], channels = (int) 1"));

static GstFlowReturn push_pcm(WaiGstAudioDec *d, const wai_output *o) {
    /* A valid payload's rate may be any u32 (integer-payloads §5); caps
     * hold a gint: past it, the element refuses (docs/gstreamer.md). */
    if (o->sample_rate > (guint32)G_MAXINT) {
        GST_ELEMENT_ERROR(d, STREAM, FORMAT,
                          ("the payload's sample rate, %u Hz, is past the most GStreamer's audio "
                           "caps hold (%d Hz): `wai decode --format s16le` decodes it",
                           o->sample_rate, G_MAXINT),
                          ("sample rate %u > G_MAXINT", o->sample_rate));
        return GST_FLOW_ERROR;
    }
    if (d->rate != o->sample_rate) {
        GstCaps *caps = gst_caps_new_simple("audio/x-raw", "format", G_TYPE_STRING, "S16LE",
                                            "layout", G_TYPE_STRING, "interleaved", "rate",
                                            G_TYPE_INT, (gint)o->sample_rate, "channels",
                                            G_TYPE_INT, 1, NULL);
        gboolean ok = gst_pad_set_caps(d->src, caps);
        gst_caps_unref(caps);
        /* Caps before the segment, as GStreamer's sticky events are ordered. */
        if (ok && d->segment) ok = gst_pad_push_event(d->src, d->segment);
        d->segment = NULL;
        if (!ok) return GST_FLOW_NOT_NEGOTIATED;
        d->rate = o->sample_rate;
    }
    GstBuffer *b = gst_buffer_new_memdup(o->data, o->size);
    guint64 n = o->size / 2;
    GST_BUFFER_PTS(b) = gst_util_uint64_scale(d->samples, GST_SECOND, d->rate);
    GST_BUFFER_DURATION(b) = gst_util_uint64_scale(d->samples + n, GST_SECOND, d->rate) - GST_BUFFER_PTS(b);
    d->samples += n;
    return gst_pad_push(d->src, b);
}

static GstFlowReturn push(GstElement *e, const wai_output *o) { return push_pcm((WaiGstAudioDec *)e, o); }

static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buf) {
    (void)pad;
    return wai_gst_decoding_chain(GST_ELEMENT(parent), &((WaiGstAudioDec *)parent)->wai, buf, 0,
                                  G_MAXUINT64, push);
}

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *ev) {
    WaiGstAudioDec *d = (WaiGstAudioDec *)parent;
    if (GST_EVENT_TYPE(ev) == GST_EVENT_CAPS) {
        gst_event_unref(ev); /* the src caps go out with the first samples */
        return TRUE;
    }
    if (GST_EVENT_TYPE(ev) == GST_EVENT_SEGMENT && d->rate == 0) {
        gst_event_replace(&d->segment, ev);
        gst_event_unref(ev);
        return TRUE;
    }
    return gst_pad_event_default(pad, parent, ev);
}

static void set_property(GObject *o, guint id, const GValue *v, GParamSpec *ps) {
    if (!wai_gst_decoding_set(&((WaiGstAudioDec *)o)->wai, PROP_FIRST, id, v))
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void get_property(GObject *o, guint id, GValue *v, GParamSpec *ps) {
    if (!wai_gst_decoding_get(&((WaiGstAudioDec *)o)->wai, PROP_FIRST, id, v))
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static GstStateChangeReturn change_state(GstElement *e, GstStateChange t) {
    WaiGstAudioDec *d = (WaiGstAudioDec *)e;
    GstStateChangeReturn r = GST_ELEMENT_CLASS(wai_gst_audio_dec_parent_class)->change_state(e, t);
    if (t == GST_STATE_CHANGE_PAUSED_TO_READY) {
        wai_gst_decoding_close(&d->wai);
        d->rate = 0;
        d->samples = 0;
        gst_event_replace(&d->segment, NULL);
    }
    return r;
}

static void finalize(GObject *o) {
    WaiGstAudioDec *d = (WaiGstAudioDec *)o;
    wai_gst_decoding_close(&d->wai);
    g_free(d->wai.set_dir);
    G_OBJECT_CLASS(wai_gst_audio_dec_parent_class)->finalize(o);
}

static void wai_gst_audio_dec_class_init(WaiGstAudioDecClass *k) {
    GObjectClass *o = G_OBJECT_CLASS(k);
    GstElementClass *e = GST_ELEMENT_CLASS(k);
    o->set_property = set_property;
    o->get_property = get_property;
    o->finalize = finalize;
    e->change_state = change_state;
    wai_gst_decoding_install(o, PROP_FIRST);
    wai_gst_decoding_templates(e, WAI_GST_AUDIO, "WAI audio decoder", "Codec/Decoder/Audio",
                               "S16LE samples");
    gst_element_class_add_static_pad_template(e, &src_template);
}

static void wai_gst_audio_dec_init(WaiGstAudioDec *d) {
    d->sink = gst_pad_new_from_template(
        gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(d), "sink"), "sink");
    d->src = gst_pad_new_from_static_template(&src_template, "src");
    gst_pad_set_chain_function(d->sink, chain);
    gst_pad_set_event_function(d->sink, sink_event);
    gst_pad_use_fixed_caps(d->src);
    gst_element_add_pad(GST_ELEMENT(d), d->sink);
    gst_element_add_pad(GST_ELEMENT(d), d->src);
    wai_gst_decoding_init(&d->wai, d->sink);
}
