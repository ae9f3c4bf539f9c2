/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai's GStreamer 1.x plugin (docs/gstreamer.md): a typefinder for the
 * payloads' magics, waiparse (a clip or an image as one payload, a frame
 * stream as one payload a buffer, timestamped), waidec (payloads to
 * video/x-raw RGB) and waiaudiodec (WIA1 to S16LE). It reaches libwai
 * through its public API alone. */
#ifndef WAI_GST_GSTWAI_H
#define WAI_GST_GSTWAI_H

#include <gst/gst.h>

#include "wai/wai.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_set.h"

G_BEGIN_DECLS

GType wai_gst_parse_get_type(void);
GType wai_gst_dec_get_type(void);
GType wai_gst_audio_dec_get_type(void);

gboolean wai_gst_typefind_register(GstPlugin *plugin);

/* formats.c: the plugin's format lists, from libwai's codec table. Every
 * payload travels as application/x-wai with its format's magic. */
typedef enum wai_gst_element {
    WAI_GST_NONE,   /* no element decodes it (WIS1: planes) */
    WAI_GST_VIDEO,  /* waidec: frames and pictures */
    WAI_GST_AUDIO,  /* waiaudiodec: samples */
    WAI_GST_ALL     /* a list of every format the plugin carries */
} wai_gst_element;

/* application/x-wai with the formats of which's list. */
GstCaps *wai_gst_caps(wai_gst_element which);
/* "WIV1, WIF1, ..." (sep between, lower: in lower case); g_free it. */
char *wai_gst_format_list(wai_gst_element which, const char *sep, gboolean lower);
/* The capability data's first bytes name, when the plugin carries it. */
const wai_capability *wai_gst_carried(const guint8 *data, gsize len);
/* The element that decodes a format's payloads, and its name (NULL: none). */
wai_gst_element wai_gst_element_for(const char *format);
const char *wai_gst_element_name(wai_gst_element e);
/* A frame form's format (WIF1, WCF1): a payload a frame, no clip to seek in. */
gboolean wai_gst_frame_form(const char *format);

/* The one clock of waiparse and waidec: frame k's time at fps_n/fps_d
 * frames a second, and the frame shown at t (the last k whose time is at
 * most t; the scaled quotient corrected for frame_time's own rounding). */
GstClockTime wai_gst_frame_time(guint64 k, gint fps_n, gint fps_d);
guint64 wai_gst_frame_at(GstClockTime t, gint fps_n, gint fps_d);

/* The max-memory default of every binding (the tool's, Python's, npm's). */
#define WAI_GST_DEFAULT_MAX_MEMORY ((guint64)2 << 30)

/* Errors of the domain WAI_GST_STATUS carry a wai_status as their code. */
#define WAI_GST_STATUS (wai_gst_status_quark())
GQuark wai_gst_status_quark(void);

/* set_dir.c: a context and, from set_dir (NULL: none), a set of the
 * members some capability's path reads and those the listing names, each
 * read once by name (never the whole folder), a regular file, their total
 * within max_memory (0: no limit; else cost_over_limit before the member
 * is read); *set_bytes their total. FALSE with *why set when it fails. */
gboolean wai_gst_context(guint threads, const char *set_dir, guint64 max_memory, wai_context **ctx,
                         wai_set **set, guint64 *set_bytes, GError **why);

/* The limit a decoder downstream applies to a payload's bytes: waiparse
 * asks it (a custom query, "wai-limits") before it gathers a payload;
 * waidec and waiaudiodec answer with their max-memory. No answer (no
 * decoder linked yet, as in decodebin): the default. 0: no limit. */
guint64 wai_gst_limits_ask(GstPad *src);

/* A size refusal: size bytes (streamed: or more, read so far) past bound,
 * which is either the decoder's max-memory (cost_over_limit) or the most
 * any valid payload of its format holds (too_large). GST_FLOW_ERROR. */
GstFlowReturn wai_gst_refuse_size(GstElement *e, guint64 size, guint64 bound, gboolean by_format,
                                  gboolean streamed);

/* Why downstream refused a format's caps, in words a player can act on:
 * the element that decodes it, or the tool where no element does; g_free
 * it. */
char *wai_gst_format_hint(const char *format);

/* A refusal as the element's error: the spec's code and what it means in
 * the message, "wai-status=CODE" in the debug details; GST_FLOW_ERROR. */
GstFlowReturn wai_gst_refuse(GstElement *e, wai_status st, const char *what);

/* What waidec and waiaudiodec share: their properties (set-dir, threads,
 * max-cost, max-memory) and the context, set and decoder they make from
 * them at the first payload. */
typedef struct wai_gst_decoding {
    char *set_dir;
    guint threads;
    guint64 max_cost, max_memory;
    guint64 set_bytes;         /* the set's members, held through the decode */
    wai_context *ctx;
    wai_set *set;
    wai_decoder *dec;
} wai_gst_decoding;

/* A decoder's sink template (application/x-wai of which's formats) and its
 * metadata ("WAI payloads (WIV1, ...) into WHAT, bit-exactly"). */
void wai_gst_decoding_templates(GstElementClass *e, wai_gst_element which, const char *longname,
                                const char *klass, const char *what);

/* The four properties, ids first .. first + 3. */
void wai_gst_decoding_install(GObjectClass *k, guint first);
/* d's defaults, and sink's query function: it answers waiparse's
 * "wai-limits" from d (the rest as GStreamer's default does). */
void wai_gst_decoding_init(wai_gst_decoding *d, GstPad *sink);
/* TRUE when id is one of them (the value set or got). */
gboolean wai_gst_decoding_set(wai_gst_decoding *d, guint first, guint id, const GValue *v);
gboolean wai_gst_decoding_get(const wai_gst_decoding *d, guint first, guint id, GValue *v);
/* The decoder (streaming: a clip's frames come out as they are decoded),
 * made once; FALSE with the element's error posted. */
gboolean wai_gst_decoding_open(GstElement *e, wai_gst_decoding *d);
void wai_gst_decoding_close(wai_gst_decoding *d);

/* One output pushed downstream by the element that decoded it. */
typedef GstFlowReturn (*wai_gst_push)(GstElement *e, const wai_output *o);
/* A sink buffer (one payload) decoded: the decoder opened at the first,
 * the report posted, each output pushed as it comes (the payload stays
 * mapped while a clip's frames are stepped), a refusal as the element's
 * error. Outputs first .. end - 1 of the payload only (a seek's segment:
 * those before first decoded and not pushed; 0 and G_MAXUINT64: all),
 * each numbered (wai_output.index) from the buffer's offset. Takes buf. */
GstFlowReturn wai_gst_decoding_chain(GstElement *e, wai_gst_decoding *d, GstBuffer *buf,
                                     guint64 first, guint64 end, wai_gst_push push);

/* The decoder's wai-neural-dispatch/1 report, when it has one, posted as
 * an element message "wai-neural-dispatch" with field "report" (the JSON). */
void wai_gst_post_report(GstElement *e, const wai_decoder *d);

G_END_DECLS

#endif
