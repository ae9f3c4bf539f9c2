/* SPDX-License-Identifier: BSD-2-Clause */
/* neural-dispatch §5: the report as JSON text. One line, the members in
 * §5's table order and a path's members in §1's order, ", " and ": " as the
 * tool's other JSON, so the text of a report is one fixed string that tests
 * and receipts can compare byte for byte. */
#include "wai/wai_dispatch.h"

#include <string.h>

#include "common/alloc.h"

/* Appends to a caller's buffer, counting past its end so a second call can
 * be sized exactly. */
typedef struct sink {
    char *buf;
    size_t size, len;
} sink;

static void put(sink *s, const char *text) {
    for (; *text; text++, s->len++)
        if (s->len < s->size) s->buf[s->len] = *text;
}

static void put_char(sink *s, char c) {
    char t[2] = {c, '\0'};
    put(s, t);
}

/* An RFC 8259 string. Tokens need no escapes; a capability's name is the
 * registry's, escaped all the same so the text is JSON whatever it holds. */
static void put_string(sink *s, const char *v) {
    static const char hex[] = "0123456789abcdef";
    put_char(s, '"');
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\') {
            put_char(s, '\\');
            put_char(s, (char)*p);
        } else if (*p < 0x20) {
            char esc[7] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15], '\0'};
            put(s, esc);
        } else {
            put_char(s, (char)*p);
        }
    }
    put_char(s, '"');
}

static void put_u64(sink *s, uint64_t v) {
    char digits[21];
    size_t n = sizeof digits - 1;
    digits[n] = '\0';
    do {
        digits[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(s, digits + n);
}

static void put_member(sink *s, const char *name, const char *token) {
    put_string(s, name);
    put(s, ": ");
    put_string(s, token);
}

static void put_path_members(sink *s, const wai_path *p) {
    put_member(s, "unit", wai_unit_name(p->unit));
    put(s, ", ");
    put_member(s, "backend", wai_backend_name(p->backend));
    put(s, ", ");
    put_member(s, "arithmetic", wai_arithmetic_name(p->arithmetic));
}

static void put_placement(sink *s, const wai_placement *p) {
    if (!p->stated) {
        put(s, "null");
        return;
    }
    const char *names[4] = {"npu", "gpu", "cpu", "unknown"};
    const uint64_t counts[4] = {p->npu, p->gpu, p->cpu, p->unknown};
    put_char(s, '{');
    for (int i = 0; i < 4; i++) {
        if (i) put(s, ", ");
        put_string(s, names[i]);
        put(s, ": ");
        put_u64(s, counts[i]);
    }
    put_char(s, '}');
}

static int report_valid(const wai_dispatch_report *r) {
    if (!r->capability || !r->capability->name || !wai_tier_name(r->needed) ||
        r->n_refused > WAI_DISPATCH_MAX_PATHS || (r->n_refused && !r->refused))
        return 0;
    if (r->ran && (!wai_path_valid(&r->ran_path) || !wai_tier_name(r->held))) return 0;
    for (size_t i = 0; i < r->n_refused; i++)
        if (!wai_path_valid(&r->refused[i].path) ||
            wai_status_kind_of(r->refused[i].reason) != WAI_KIND_DISPATCH)
            return 0;
    return 1;
}

static void put_report(sink *s, const wai_dispatch_report *r) {
    put(s, "{");
    put_member(s, "kind", "wai-neural-dispatch/1");
    put(s, ", ");
    put_member(s, "capability", r->capability->name);
    put(s, ", ");
    put_member(s, "needed", wai_tier_name(r->needed));
    put(s, ", \"ran\": ");
    if (r->ran) {
        put_char(s, '{');
        put_path_members(s, &r->ran_path);
        put(s, ", ");
        put_member(s, "tier", wai_tier_name(r->held));
        put(s, ", \"placement\": ");
        put_placement(s, &r->placement);
        put_char(s, '}');
    } else {
        put(s, "null");
    }
    put(s, ", \"refused\": [");
    for (size_t i = 0; i < r->n_refused; i++) {
        put(s, i ? ", {" : "{");
        put_path_members(s, &r->refused[i].path);
        put(s, ", ");
        put_member(s, "reason", wai_status_name(r->refused[i].reason));
        put_char(s, '}');
    }
    put(s, "]}");
}

wai_status wai_dispatch_report_json(const wai_dispatch_report *r, char *buf, size_t size,
                                    size_t *len) {
    if (len) *len = 0;
    if (!r || !report_valid(r) || (!buf && size)) return WAI_invalid_argument;
    sink s = {buf, size, 0};
    put_report(&s, r);
    if (len) *len = s.len;
    if (s.len >= size) { /* no room for the text and its NUL: an empty string */
        if (size) buf[0] = '\0';
        return WAI_invalid_argument;
    }
    buf[s.len] = '\0';
    return WAI_ok;
}

wai_status wai_dispatch_report_json_alloc(const wai_allocator *alloc,
                                          const wai_dispatch_report *r, char **out) {
    if (!out) return WAI_invalid_argument;
    *out = NULL;
    size_t len;
    wai_status st = wai_dispatch_report_json(r, NULL, 0, &len);
    if (len == 0) return st; /* the report itself was refused */
    wai_allocator a;
    wai_allocator_resolve(alloc, &a);
    char *text = wai_alloc(&a, len + 1);
    if (!text) return WAI_out_of_memory;
    st = wai_dispatch_report_json(r, text, len + 1, NULL);
    if (st != WAI_ok) {
        wai_free(&a, text);
        return st;
    }
    *out = text;
    return WAI_ok;
}

void wai_dispatch_report_json_free(const wai_allocator *alloc, char *s) {
    wai_allocator a;
    wai_allocator_resolve(alloc, &a);
    wai_free(&a, s);
}
