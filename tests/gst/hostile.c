/* SPDX-License-Identifier: BSD-2-Clause */
/* Hostile input through the GStreamer elements, in one process of our own
 * (not gst-launch, which cannot load a sanitized plugin): the elements are
 * compiled into this program and registered statically, so the ASan build
 * runs them under the sanitizers against the sanitized libwai.
 *
 *   wai_gst_hostile ROOT [ITERATIONS [SEED]]     (ROOT: the repository)
 *
 * Each iteration takes a seed payload (each format, with its set), mutates
 * it (bits flipped, cut, zeroed, bytes inserted, a region repeated, a
 * header word made huge) and runs it through waiparse and a decoder, with
 * limits drawn at random, either pushed in chunks of random sizes (a
 * GstHarness: waiparse gathers) or pulled whole (filesrc: waiparse pulls).
 * Invariants: nothing crashes or hangs; an unmutated seed decodes, to the
 * same bytes pushed and pulled; a payload past max-memory is refused
 * before it is gathered (its flow stops within one chunk of the limit).
 * Ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/check/gstharness.h>
#include <gst/gst.h>

#include "gstwai.h"

typedef struct seed {
    const char *file, *set_dir, *decoder;
} seed;

/* One seed a format; the sets are the corpus's small ones. */
static const seed SEEDS[] = {
    {"examples/hello.wiv1", NULL, "waidec"},
    {"tests/corpus/motion/valid/clip00/f000.wif1", NULL, "waidec"},
    {"examples/hello.wih1", "examples/hello_set", "waidec"},
    {"tests/corpus/neural/audio/clip0.wia1", "tests/corpus/neural/audio/set0", "waiaudiodec"},
    {"tests/corpus/json/splat.wis1", NULL, "waidec"}, /* no element takes it */
    {"tests/corpus/neural/cond/valid/one_frame/clip.wic1", "tests/corpus/neural/cond/valid/one_frame",
     "waidec"},
    {"tests/corpus/neural/mlic/valid/one_slice/image.wim1",
     "tests/corpus/neural/mlic/valid/one_slice", "waidec"},
};
#define N_SEEDS (sizeof SEEDS / sizeof SEEDS[0])

static unsigned passed, failed;

static void check(gboolean ok, const char *what, guint64 it) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("  FAIL %s (iteration %" G_GUINT64_FORMAT ")\n", what, it);
}

/* xorshift64*: a seeded stream, so an iteration replays alone. */
static guint64 rng_state;
static guint64 rnd(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}
static gsize below(gsize n) { return n ? (gsize)(rnd() % n) : 0; }

/* A mutation of data (len bytes) into a new GByteArray. */
static GByteArray *mutate(const guint8 *data, gsize len) {
    GByteArray *b = g_byte_array_new();
    g_byte_array_append(b, data, (guint)len);
    unsigned rounds = 1 + (unsigned)below(4);
    for (unsigned r = 0; r < rounds && b->len; r++) {
        gsize at = below(b->len);
        switch (below(7)) {
        case 0: b->data[at] ^= (guint8)(1u << below(8)); break;
        case 1: g_byte_array_set_size(b, (guint)at); break;
        case 2: b->data[at] = below(2) ? 0 : 0xff; break;
        case 3: { /* a header word made huge or zero */
            gsize w = 4 + 4 * below(8);
            if (w + 4 <= b->len) memset(b->data + w, below(2) ? 0xff : 0, 4);
            break;
        }
        case 4: { /* bytes inserted */
            guint8 junk[64];
            gsize n = 1 + below(sizeof junk);
            for (gsize k = 0; k < n; k++) junk[k] = (guint8)rnd();
            gsize old = b->len;
            g_byte_array_set_size(b, (guint)(old + n));
            memmove(b->data + at + n, b->data + at, old - at);
            memcpy(b->data + at, junk, n);
            break;
        }
        case 5: { /* a region repeated at the end */
            gsize n = below(b->len - at) + 1;
            GByteArray *copy = g_byte_array_sized_new((guint)n);
            g_byte_array_append(copy, b->data + at, (guint)n);
            g_byte_array_append(b, copy->data, copy->len);
            g_byte_array_unref(copy);
            break;
        }
        default: b->data[at] = (guint8)rnd(); break;
        }
    }
    return b;
}

/* The decoder's part of a pipeline: element and properties. */
static char *decoder_desc(const char *root, const seed *s, const char *decoder, guint64 max_memory,
                          guint64 max_cost) {
    char *set = s->set_dir ? g_strdup_printf(" set-dir=\"%s/%s\"", root, s->set_dir) : g_strdup("");
    char *d = g_strdup_printf("%s%s max-memory=%" G_GUINT64_FORMAT " max-cost=%" G_GUINT64_FORMAT,
                              decoder, set, max_memory, max_cost);
    g_free(set);
    return d;
}

/* FNV-1a over every output buffer: the decode's bytes, in order. */
typedef struct outcome {
    guint64 hash, buffers, bytes;
    gboolean refused; /* the flow stopped with an error (or no EOS came) */
    guint64 pushed;   /* bytes the harness pushed before its flow stopped */
} outcome;

static void fold(outcome *o, GstBuffer *b) {
    GstMapInfo m;
    if (!gst_buffer_map(b, &m, GST_MAP_READ)) return;
    for (gsize i = 0; i < m.size; i++) o->hash = (o->hash ^ m.data[i]) * UINT64_C(1099511628211);
    o->buffers++;
    o->bytes += m.size;
    gst_buffer_unmap(b, &m);
}

static outcome outcome_new(void) {
    outcome o;
    memset(&o, 0, sizeof o);
    o.hash = UINT64_C(14695981039346656037);
    return o;
}

/* Push mode: the bytes in chunks of random sizes (at most max_chunk; 0:
 * one buffer), then EOS. */
static outcome run_push(const guint8 *data, gsize len, const char *dec, gsize max_chunk) {
    outcome o = outcome_new();
    char *desc = g_strdup_printf("waiparse ! %s", dec);
    GstHarness *h = gst_harness_new_parse(desc);
    g_free(desc);
    gst_harness_set_src_caps_str(h, "application/octet-stream");
    GstFlowReturn r = GST_FLOW_OK;
    for (gsize at = 0; at < len && r == GST_FLOW_OK;) {
        gsize n = max_chunk ? 1 + below(max_chunk) : len; /* 0: one buffer */
        if (n > len - at) n = len - at;
        r = gst_harness_push(h, gst_buffer_new_memdup(data + at, n));
        at += n;
        o.pushed = at;
        GstBuffer *b;
        while ((b = gst_harness_try_pull(h)) != NULL) {
            fold(&o, b);
            gst_buffer_unref(b);
        }
    }
    if (r == GST_FLOW_OK) o.refused = !gst_harness_push_event(h, gst_event_new_eos());
    else o.refused = TRUE;
    GstBuffer *b;
    while ((b = gst_harness_try_pull(h)) != NULL) {
        fold(&o, b);
        gst_buffer_unref(b);
    }
    gst_harness_teardown(h);
    return o;
}

static void on_handoff(GstElement *sink, GstBuffer *b, GstPad *pad, gpointer user) {
    (void)sink;
    (void)pad;
    fold(user, b);
}

/* Pull mode: filesrc ! waiparse ! DEC ! fakesink, to EOS or an error. */
static outcome run_pull(const char *path, const char *dec, gboolean *hung) {
    outcome o = outcome_new();
    char *desc = g_strdup_printf("filesrc location=\"%s\" ! waiparse ! %s ! fakesink name=out "
                                 "signal-handoffs=true sync=false",
                                 path, dec);
    GError *err = NULL;
    GstElement *p = gst_parse_launch(desc, &err);
    g_free(desc);
    *hung = FALSE;
    if (!p || err) {
        g_clear_error(&err);
        if (p) gst_object_unref(p);
        o.refused = TRUE;
        *hung = TRUE; /* counted as a failure: the pipeline should always build */
        return o;
    }
    GstElement *sink = gst_bin_get_by_name(GST_BIN(p), "out");
    g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), &o);
    gst_object_unref(sink);
    gst_element_set_state(p, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *m = gst_bus_timed_pop_filtered(bus, 30 * GST_SECOND,
                                               GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!m) *hung = TRUE;
    o.refused = !m || GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR;
    if (m) gst_message_unref(m);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(p);
    return o;
}

static gboolean read_file(const char *path, guint8 **data, gsize *len) {
    gchar *d = NULL;
    if (!g_file_get_contents(path, &d, len, NULL)) return FALSE;
    *data = (guint8 *)d;
    return TRUE;
}

static gboolean register_elements(GstPlugin *plugin) {
    return gst_element_register(plugin, "waiparse", GST_RANK_NONE, wai_gst_parse_get_type()) &&
           gst_element_register(plugin, "waidec", GST_RANK_NONE, wai_gst_dec_get_type()) &&
           gst_element_register(plugin, "waiaudiodec", GST_RANK_NONE, wai_gst_audio_dec_get_type());
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: wai_gst_hostile ROOT [ITERATIONS [SEED]]\n");
        return 2;
    }
    const char *root = argv[1];
    guint64 iterations = argc > 2 ? g_ascii_strtoull(argv[2], NULL, 10) : 300;
    guint64 seed_value = argc > 3 ? g_ascii_strtoull(argv[3], NULL, 10) : 20261207;
    /* Our elements alone, from this program: no plugin loaded from a
     * path, a registry of our own (GStreamer's core elements come from
     * the system's, scanned into it). */
    char *tmp = g_dir_make_tmp("wai-gst-hostile-XXXXXX", NULL);
    if (!tmp) return 2;
    char *registry = g_build_filename(tmp, "registry.bin", NULL);
    g_setenv("GST_REGISTRY", registry, TRUE);
    g_unsetenv("GST_PLUGIN_PATH");
    gst_init(NULL, NULL);
    if (!gst_plugin_register_static(GST_VERSION_MAJOR, GST_VERSION_MINOR, "waitest",
                                    "libwai's elements, compiled in", register_elements, "0",
                                    "BSD", "libwai", "libwai", "libwai")) {
        fprintf(stderr, "wai_gst_hostile: cannot register the elements\n");
        return 2;
    }
    char *scratch = g_build_filename(tmp, "payload", NULL);

    /* Unmutated seeds: each decodes (but WIS1, which no element takes),
     * to the same bytes pushed in small chunks and pulled whole. */
    guint8 *seed_data[N_SEEDS];
    gsize seed_len[N_SEEDS];
    for (gsize s = 0; s < N_SEEDS; s++) {
        char *path = g_build_filename(root, SEEDS[s].file, NULL);
        if (!read_file(path, &seed_data[s], &seed_len[s])) {
            fprintf(stderr, "wai_gst_hostile: cannot read %s\n", path);
            return 2;
        }
        char *dec = decoder_desc(root, &SEEDS[s], SEEDS[s].decoder, WAI_GST_DEFAULT_MAX_MEMORY, 0);
        rng_state = seed_value + s + 1;
        /* A frame form is one payload a buffer: pushed whole. */
        gboolean frame = g_str_has_suffix(SEEDS[s].file, ".wif1");
        outcome push = run_push(seed_data[s], seed_len[s], dec, frame ? 0 : 37);
        gboolean hung;
        outcome pull = run_pull(path, dec, &hung);
        gboolean wis1 = g_str_has_suffix(SEEDS[s].file, ".wis1");
        char *what = g_strdup_printf(
            "%s: %s pushed and pulled (pushed: %s, %" G_GUINT64_FORMAT " buffers, %" G_GUINT64_FORMAT
            " bytes; pulled: %s, %" G_GUINT64_FORMAT " buffers, %" G_GUINT64_FORMAT " bytes)",
            SEEDS[s].file, wis1 ? "refused" : "decodes, the same bytes",
            push.refused ? "refused" : "ok", push.buffers, push.bytes, pull.refused ? "refused" : "ok",
            pull.buffers, pull.bytes);
        if (wis1)
            check(push.refused && pull.refused && !hung && push.buffers == 0, what, 0);
        else
            check(!push.refused && !pull.refused && push.buffers > 0 && push.hash == pull.hash &&
                      push.bytes == pull.bytes,
                  what, 0);
        g_free(what);
        g_free(dec);
        g_free(path);
    }

    /* A payload past max-memory, pushed: refused within one chunk of the
     * limit, nothing decoded. */
    {
        const guint64 limit = 4096;
        GByteArray *b = g_byte_array_new();
        g_byte_array_append(b, seed_data[0], (guint)seed_len[0]);
        g_byte_array_set_size(b, 1 << 20);
        char *dec = decoder_desc(root, &SEEDS[0], "waidec", limit, 0);
        outcome o = run_push(b->data, b->len, dec, 512);
        check(o.refused && o.buffers == 0 && o.pushed <= limit + 512,
              "1 MiB WIV1 past max-memory=4096: refused within a chunk", 0);
        /* The same with a queue between: the wai-limits query travels. */
        char *queued = g_strdup_printf("queue ! %s", dec);
        o = run_push(b->data, b->len, queued, 512);
        check(o.refused && o.buffers == 0 && o.pushed <= limit + 512,
              "the same through a queue: waiparse is told the limit", 0);
        g_free(queued);
        g_free(dec);
        g_byte_array_unref(b);
    }

    for (guint64 it = 0; it < iterations; it++) {
        rng_state = seed_value ^ (it * UINT64_C(0x9E3779B97F4A7C15)) ^ 1;
        const seed *s = &SEEDS[below(N_SEEDS)];
        gsize k = (gsize)(s - SEEDS);
        GByteArray *b = mutate(seed_data[k], seed_len[k]);
        static const guint64 memories[] = {0, 1000, 1u << 20, WAI_GST_DEFAULT_MAX_MEMORY};
        static const guint64 costs[] = {0, 1000, 100000000};
        /* Now and then the other decoder: a negotiation refusal. */
        const char *decoder = below(8) == 0 ? (g_str_equal(s->decoder, "waidec") ? "waiaudiodec"
                                                                                : "waidec")
                                            : s->decoder;
        char *dec = decoder_desc(root, s, decoder, memories[below(4)], costs[below(3)]);
        gboolean pull = below(3) == 0, hung = FALSE;
        if (pull) {
            if (!g_file_set_contents(scratch, (const gchar *)b->data, b->len, NULL)) {
                fprintf(stderr, "wai_gst_hostile: cannot write %s\n", scratch);
                return 2;
            }
            run_pull(scratch, dec, &hung);
        } else {
            /* A frame form mostly whole (one frame a buffer), else chunked. */
            gboolean frame = g_str_has_suffix(s->file, ".wif1") && below(4) != 0;
            run_push(b->data, b->len, dec, frame ? 0 : 1 + below(4096));
        }
        char *what = g_strdup_printf("%s mutated, %s, %s: no hang", s->file, pull ? "pulled" : "pushed",
                                     dec);
        check(!hung, what, it);
        g_free(what);
        g_free(dec);
        g_byte_array_unref(b);
    }

    for (gsize s = 0; s < N_SEEDS; s++) g_free(seed_data[s]);
    g_unlink(scratch);
    g_unlink(registry);
    g_rmdir(tmp);
    g_free(scratch);
    g_free(registry);
    g_free(tmp);
    printf("%u passed, %u failed\n", passed, failed);
    gst_deinit();
    return failed ? 1 : 0;
}
