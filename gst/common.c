/* SPDX-License-Identifier: BSD-2-Clause */
/* What the elements share: the format of a magic, a context and its set
 * from a directory, refusals as element errors, the dispatch report as an
 * element message. */
#include <string.h>

#include "gstwai.h"
#include "wai/wai_backend.h"
#include "wai/wai_dispatch.h"

const char *wai_gst_format_of(const guint8 *data, gsize len) {
    const wai_capability *cap = wai_capability_detect(data, len);
    return cap ? wai_format_name(cap->format) : NULL;
}

/* Whether DIR/NAME may be read as a set's member: a regular file, or a
 * link to a name of the same folder (docs/spec-readings.md, L5a: a link
 * whose target holds a '/' may leave the set, where no pin vouches). */
static gboolean member_stays(const char *dir, const char *name) {
    char *target = g_strdup(name);
    for (int hop = 0; hop < 8; hop++) {
        char *path = g_build_filename(dir, target, NULL);
        gboolean link = g_file_test(path, G_FILE_TEST_IS_SYMLINK);
        gboolean regular = g_file_test(path, G_FILE_TEST_IS_REGULAR);
        char *next = link ? g_file_read_link(path, NULL) : NULL;
        g_free(path);
        g_free(target);
        if (!link) return regular;
        if (!next || strchr(next, '/') || strcmp(next, ".") == 0 || strcmp(next, "..") == 0) {
            g_free(next);
            return FALSE;
        }
        target = next;
    }
    g_free(target);
    return FALSE;
}

/* The names a set's folder is read for (L5a): every member some
 * capability's path reads, the listing, and every file the listing names. */
static GHashTable *member_names(const wai_context *ctx, const char *dir) {
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *cap = wai_capability_at(i);
        for (size_t k = 0; k < 4 && cap->set_members[k]; k++)
            g_hash_table_add(names, g_strdup(cap->set_members[k]));
        for (const char *const *e = wai_capability_encoder_members(cap); e && *e; e++)
            g_hash_table_add(names, g_strdup(*e));
        const char *p;
        for (size_t k = 0; (p = wai_context_program_member(ctx, cap, k)) != NULL; k++)
            g_hash_table_add(names, g_strdup(p));
    }
    g_hash_table_add(names, g_strdup(WAI_SET_LISTING));
    char *path = g_build_filename(dir, WAI_SET_LISTING, NULL);
    gchar *l = NULL;
    gsize len = 0;
    if (member_stays(dir, WAI_SET_LISTING) && g_file_get_contents(path, &l, &len, NULL)) {
        char name[256];
        size_t at = 0;
        while (wai_set_listing_next((const uint8_t *)l, len, &at, name, sizeof name) == WAI_ok)
            if (!strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
                g_hash_table_add(names, g_strdup(name));
    }
    g_free(l);
    g_free(path);
    return names;
}

gboolean wai_gst_context(guint threads, const char *set_dir, wai_context **ctx, wai_set **set,
                         GError **why) {
    *ctx = NULL;
    *set = NULL;
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = threads;
    if (wai_context_create(&s, ctx) != WAI_ok) {
        g_set_error(why, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "out of memory");
        return FALSE;
    }
    if (!set_dir) return TRUE;
    if (!g_file_test(set_dir, G_FILE_TEST_IS_DIR)) {
        g_set_error(why, G_FILE_ERROR, G_FILE_ERROR_NOTDIR, "not a folder");
        return FALSE;
    }
    if (wai_set_create(*ctx, set) != WAI_ok) {
        g_set_error(why, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "out of memory");
        return FALSE;
    }
    /* Only what a path may read, and what the listing names: a stray file
     * in the folder is never read (nor a link out of it). */
    GHashTable *names = member_names(*ctx, set_dir);
    GHashTableIter it;
    gpointer key;
    gboolean ok = TRUE;
    g_hash_table_iter_init(&it, names);
    while (ok && g_hash_table_iter_next(&it, &key, NULL)) {
        const char *name = key;
        if (!member_stays(set_dir, name)) continue;
        char *path = g_build_filename(set_dir, name, NULL);
        gchar *data = NULL;
        gsize len = 0;
        ok = g_file_get_contents(path, &data, &len, why) &&
             wai_set_add(*set, name, (const uint8_t *)data, len) == WAI_ok;
        if (ok == FALSE && why && !*why)
            g_set_error(why, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
                        "%s: cannot add it to the set", path);
        g_free(data);
        g_free(path);
    }
    g_hash_table_destroy(names);
    return ok;
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
                            "the directory of a neural capability's parameter set (its every file)",
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
                            "refuse a payload declaring more working memory (cost_over_limit); 0: "
                            "no limit",
                            0, G_MAXUINT64, (guint64)2 << 30, f));
}

void wai_gst_decoding_init(wai_gst_decoding *d) {
    memset(d, 0, sizeof *d);
    d->max_memory = (guint64)2 << 30;
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
    if (!wai_gst_context(d->threads, d->set_dir, &d->ctx, &d->set, &why)) {
        GST_ELEMENT_ERROR(e, RESOURCE, READ, ("set-dir %s: %s", d->set_dir ? d->set_dir : "",
                                              why ? why->message : "cannot read it"),
                          (NULL));
        g_clear_error(&why);
        wai_gst_decoding_close(d);
        return FALSE;
    }
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.set = d->set;
    cfg.streaming = 1;
    if (d->max_cost) cfg.max_cost = d->max_cost;
    if (d->max_memory) cfg.max_memory = d->max_memory;
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
                                     wai_gst_push push) {
    GstMapInfo m;
    if (!wai_gst_decoding_open(e, d) || !gst_buffer_map(buf, &m, GST_MAP_READ)) {
        gst_buffer_unref(buf);
        return GST_FLOW_ERROR;
    }
    GstFlowReturn ret = GST_FLOW_OK;
    wai_status st = wai_decoder_send(d->dec, m.data, m.size, NULL);
    wai_gst_post_report(e, d->dec);
    while (st == WAI_ok && ret == GST_FLOW_OK) {
        wai_output o;
        st = wai_decoder_receive(d->dec, &o);
        if (st != WAI_ok || o.kind == WAI_OUTPUT_NONE) break;
        ret = push(e, &o);
    }
    if (st != WAI_ok) ret = wai_gst_refuse(e, st, "decode");
    gst_buffer_unmap(buf, &m);
    gst_buffer_unref(buf);
    return ret;
}
