/* SPDX-License-Identifier: BSD-2-Clause */
/* What every glue call hands back (wai_web.h's wai_web_result): a JSON
 * text, grown as it is written, and a buffer of bytes. */
#ifndef WAI_WEB_RESULT_H
#define WAI_WEB_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_decode.h"
#include "wai_web.h"

#define EXPORT(name) __attribute__((export_name(#name)))

typedef struct text {
    char *s;
    size_t len, cap;
    int failed; /* out of memory: the text stops growing */
} text;

void text_put(text *t, const char *s, size_t n);
void text_puts(text *t, const char *s);
/* fmt takes two unsigned long long values (use %llu, or one and ignore). */
void text_putf(text *t, const char *fmt, unsigned long long a, unsigned long long b);
void text_string(text *t, const char *s);  /* a JSON string, or null for NULL */
void text_cost(text *t, const wai_cost *c);
void text_digest(text *t, const uint8_t d[32]);
void text_report(text *t, const wai_dispatch_report *rep); /* its JSON, or null */

struct wai_web_result {
    text json;
    uint8_t *data; /* the outputs' bytes, one after another */
    size_t size, cap;
};

/* A call's dispatch options: intent and pin_tier as given, the offer
 * parsed into paths (offer NULL or empty: the default). */
wai_status glue_dispatch_options(wai_dispatch_options *o, wai_path *paths, const char *intent,
                                 const char *pin_tier, const char *offer);

/* A call's decoder config: the defaults, then what the page gave. */
void glue_decoder_config(wai_decoder_config *c, const char *capability, const wai_set *set,
                         uint64_t max_cost, uint64_t max_memory);

/* Appends n bytes to r's data; 0 when memory ran out. */
int result_keep(wai_web_result *r, const void *p, size_t n);

#endif
