/* SPDX-License-Identifier: BSD-2-Clause */
/* The glue's results: JSON text and bytes (result.h). */
#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_put(text *t, const char *s, size_t n) {
    if (t->failed) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n + 1) cap *= 2;
        char *g = realloc(t->s, cap);
        if (!g) {
            t->failed = 1;
            return;
        }
        t->s = g, t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

void text_puts(text *t, const char *s) { text_put(t, s, strlen(s)); }

void text_putf(text *t, const char *fmt, unsigned long long a, unsigned long long b) {
    char buf[128];
    int n = snprintf(buf, sizeof buf, fmt, a, b);
    if (n > 0) text_put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void text_string(text *t, const char *s) {
    if (!s) {
        text_puts(t, "null");
        return;
    }
    text_puts(t, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            text_put(t, e, 2);
        } else if (c < 0x20) {
            text_putf(t, "\\u%04llx", c, 0);
        } else {
            text_put(t, (const char *)&c, 1);
        }
    }
    text_puts(t, "\"");
}

void text_cost(text *t, const wai_cost *c) {
    text_putf(t, "{\"output_bytes\": %llu, \"entropy_steps\": %llu", c->output_bytes,
              c->entropy_steps);
    text_putf(t, ", \"macs\": %llu, \"working_bytes\": %llu}", c->macs, c->working_bytes);
}

void text_digest(text *t, const uint8_t d[32]) {
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
    text_string(t, hex);
}

void text_report(text *t, const wai_dispatch_report *rep) {
    char *rj = NULL;
    if (rep && wai_dispatch_report_json_alloc(NULL, rep, &rj) == WAI_ok) text_puts(t, rj);
    else text_puts(t, "null");
    wai_dispatch_report_json_free(NULL, rj);
}

int result_keep(wai_web_result *r, const void *p, size_t n) {
    if (r->size + n > r->cap) {
        size_t cap = r->cap ? r->cap : 65536;
        while (cap < r->size + n) cap *= 2;
        uint8_t *g = realloc(r->data, cap);
        if (!g) return 0;
        r->data = g, r->cap = cap;
    }
    memcpy(r->data + r->size, p, n);
    r->size += n;
    return 1;
}

EXPORT(wai_web_result_json) const char *wai_web_result_json(const wai_web_result *r) {
    return r && r->json.s && !r->json.failed ? r->json.s : "{\"status\": \"out_of_memory\"}";
}
EXPORT(wai_web_result_data) const uint8_t *wai_web_result_data(const wai_web_result *r) {
    return r ? r->data : NULL;
}
EXPORT(wai_web_result_size) size_t wai_web_result_size(const wai_web_result *r) {
    return r ? r->size : 0;
}
EXPORT(wai_web_result_free) void wai_web_result_free(wai_web_result *r) {
    if (!r) return;
    free(r->json.s);
    free(r->data);
    free(r);
}

void glue_decoder_config(wai_decoder_config *c, const char *capability, const wai_set *set,
                         uint64_t max_cost, uint64_t max_memory) {
    wai_decoder_config_default(c);
    c->capability = capability;
    c->set = set;
    c->max_cost = max_cost;
    c->max_memory = max_memory;
}

wai_status glue_dispatch_options(wai_dispatch_options *o, wai_path *paths, const char *intent,
                                 const char *pin_tier, const char *offer) {
    wai_dispatch_options_default(o);
    o->intent = intent;
    o->pin_tier = pin_tier;
    o->offer.paths = paths;
    if (!offer || !*offer) return WAI_ok;
    return wai_dispatch_parse_offer(offer, paths, WAI_DISPATCH_MAX_PATHS, &o->offer.n);
}
