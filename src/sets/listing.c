/* SPDX-License-Identifier: BSD-2-Clause */
/* A set's listing, written and checked (docs/spec-readings.md, L5).
 *
 * The one form, byte for byte (no whitespace, no newline):
 *   {"kind":"wai.prior.set","members":[M,M,...]}
 *   M = {"name":"NAME","bytes":N,"sha256":"HEX"}
 * one M a member other than the listing itself, in ascending byte order of
 * NAME (no name twice); NAME printable ASCII without '"' or '\', so it
 * needs no escape; N decimal, no leading zero; HEX 64 lowercase digits.
 * Checking walks that grammar, so anything not in the form fails. */
#include "sets/listing.h"

#include <string.h>

#include "sets/set.h"
#include "wai/wai_hash.h"

static const char HEAD[] = "{\"kind\":\"wai.prior.set\",\"members\":[";
static const char TAIL[] = "]}";

static int name_ok(const char *name) {
    if (!*name) return 0;
    for (const char *p = name; *p; p++)
        if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\') return 0;
    return 1;
}

/* ---- writing ------------------------------------------------------------- */

typedef struct out {
    char *buf;
    size_t size, at;
} out;

static void put(out *o, const char *s, size_t n) {
    if (o->at < o->size) memcpy(o->buf + o->at, s, o->size - o->at < n ? o->size - o->at : n);
    o->at += n;
}

static void put_s(out *o, const char *s) { put(o, s, strlen(s)); }

static void put_u64(out *o, uint64_t v) {
    char d[20];
    size_t n = 0;
    do d[sizeof d - ++n] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    put(o, d + sizeof d - n, n);
}

wai_status wai_set_listing_json(const wai_set *s, char *buf, size_t size, size_t *need) {
    if (!s || (size && !buf)) return WAI_invalid_argument;
    for (size_t i = 0; i < s->n; i++)
        if (!name_ok(s->members[i].name)) return WAI_invalid_argument;
    out o = {buf, size, 0};
    put_s(&o, HEAD);
    /* Ascending names without sorting the set: each round takes the least
     * name above the last one written (a set holds a handful). */
    const char *last = NULL;
    for (int first = 1;; first = 0) {
        const wai_set_member *next = NULL;
        for (size_t i = 0; i < s->n; i++) {
            const wai_set_member *m = &s->members[i];
            if (strcmp(m->name, WAI_SET_LISTING) == 0) continue;
            if (last && strcmp(m->name, last) <= 0) continue;
            if (!next || strcmp(m->name, next->name) < 0) next = m;
        }
        if (!next) break;
        char hex[65];
        wai_hex(next->sha256, 32, hex);
        put_s(&o, first ? "{\"name\":\"" : ",{\"name\":\"");
        put_s(&o, next->name);
        put_s(&o, "\",\"bytes\":");
        put_u64(&o, (uint64_t)next->len);
        put_s(&o, ",\"sha256\":\"");
        put(&o, hex, 64);
        put_s(&o, "\"}");
        last = next->name;
    }
    put_s(&o, TAIL);
    if (need) *need = o.at;
    if (o.at < size) buf[o.at] = '\0';
    return o.at < size ? WAI_ok : WAI_invalid_argument;
}

/* ---- checking -------------------------------------------------------------- */

typedef struct in {
    const uint8_t *p, *end;
} in;

static int take(in *r, const char *lit) {
    size_t n = strlen(lit);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, lit, n) != 0) return 0;
    r->p += n;
    return 1;
}

/* One entry: its name's span, length and digest. */
typedef struct entry {
    const uint8_t *name;
    size_t name_len;
    uint64_t bytes;
    uint8_t sha256[32];
} entry;

static int hex_value(uint8_t c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int take_entry(in *r, entry *e) {
    if (!take(r, "{\"name\":\"")) return 0;
    e->name = r->p;
    while (r->p < r->end && *r->p != '"') {
        if (*r->p < 0x20 || *r->p > 0x7e || *r->p == '\\') return 0;
        r->p++;
    }
    e->name_len = (size_t)(r->p - e->name);
    if (e->name_len == 0 || !take(r, "\",\"bytes\":")) return 0;
    /* Decimal, no leading zero, within u64. */
    const uint8_t *d = r->p;
    uint64_t v = 0;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        unsigned digit = (unsigned)(*r->p - '0');
        if (v > (UINT64_MAX - digit) / 10) return 0;
        v = v * 10 + digit;
        r->p++;
    }
    if (r->p == d || (*d == '0' && r->p - d > 1)) return 0;
    e->bytes = v;
    if (!take(r, ",\"sha256\":\"") || r->end - r->p < 64) return 0;
    for (int i = 0; i < 32; i++) {
        int hi = hex_value(r->p[2 * i]), lo = hex_value(r->p[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        e->sha256[i] = (uint8_t)(hi << 4 | lo);
    }
    r->p += 64;
    return take(r, "\"}");
}

wai_status wai_set_listing_next(const uint8_t *l, size_t len, size_t *at, char *name,
                                size_t size) {
    if (!l || !at || !name || !size || *at > len) return WAI_invalid_argument;
    in r = {l + *at, l + len};
    if (*at == 0) {
        if (!take(&r, HEAD) || take(&r, TAIL)) return WAI_set_incomplete; /* no entry */
    } else if (!take(&r, ",")) {
        return WAI_set_incomplete; /* the tail, or text out of the form */
    }
    entry e;
    if (!take_entry(&r, &e)) return WAI_set_incomplete;
    if (e.name_len >= size) return WAI_invalid_argument;
    memcpy(name, e.name, e.name_len);
    name[e.name_len] = '\0';
    *at = (size_t)(r.p - l);
    return WAI_ok;
}

/* a's name before b's, in byte order. */
static int name_before(const entry *a, const entry *b) {
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->name, b->name, n);
    return c < 0 || (c == 0 && a->name_len < b->name_len);
}

/* The set's member named by e (not the listing itself), or NULL. */
static const wai_set_member *member_of(const wai_set *set, const entry *e) {
    for (size_t i = 0; i < set->n; i++) {
        const wai_set_member *m = &set->members[i];
        if (strlen(m->name) == e->name_len && memcmp(m->name, e->name, e->name_len) == 0)
            return strcmp(m->name, WAI_SET_LISTING) == 0 ? NULL : m;
    }
    return NULL;
}

wai_status wai_listing_check(const uint8_t *l, size_t len, const wai_set *set, int whole) {
    if (!set) return WAI_set_incomplete;
    in r = {l, l + len};
    if (!take(&r, HEAD)) return WAI_set_incomplete;
    entry prev = {NULL, 0, 0, {0}}, e;
    int any = 0;
    size_t matched = 0, entries = 0;
    while (!take(&r, TAIL)) {
        if (any && !take(&r, ",")) return WAI_set_incomplete;
        if (!take_entry(&r, &e)) return WAI_set_incomplete;
        if (any && !name_before(&prev, &e)) return WAI_set_incomplete;
        if (e.name_len == sizeof WAI_SET_LISTING - 1 &&
            memcmp(e.name, WAI_SET_LISTING, e.name_len) == 0)
            return WAI_set_incomplete;
        /* A listed file the set does not hold is fine until a path reads it
         * (wai_set_find then says set_incomplete); one it holds must match. */
        const wai_set_member *m = member_of(set, &e);
        entries++;
        if (m) {
            if ((uint64_t)m->len != e.bytes || memcmp(m->sha256, e.sha256, 32) != 0)
                return WAI_set_incomplete;
            matched++;
        }
        prev = e;
        any = 1;
    }
    if (r.p != r.end) return WAI_set_incomplete;
    /* Names are unique on both sides, so the counts meeting means every
     * file the set holds, the listing aside, was listed. */
    size_t files = set->n - (wai_set_member_sha256(set, WAI_SET_LISTING) != NULL);
    return matched == files && (!whole || matched == entries) ? WAI_ok : WAI_set_incomplete;
}
