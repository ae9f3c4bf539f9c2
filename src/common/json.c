/* SPDX-License-Identifier: BSD-2-Clause */
/* The strict JSON reader (RFC 8259; spec-readings N3). See docs/json.md.
 *
 * The text is read twice by the same code. The first pass checks everything
 * but duplicate names and tallies what the tree needs: the node count, the
 * bytes of unescaped strings and number texts, and each container's child
 * count. The second pass fills nodes allocated once at their exact size, so
 * memory stays proportional to the input (no growing arrays of nodes whose
 * reallocation would briefly hold two copies), and a container's children
 * sit side by side for O(1) indexing. Duplicate names are found in the
 * second pass, where the unescaped names exist. */
#include "common/json.h"

#include <string.h>

#include "common/alloc.h"

/* Node flags. */
#define FLAG_TRUE 0x01u      /* BOOL: true */
#define FLAG_INTEGER 0x02u   /* NUMBER: no fraction, no exponent */
#define FLAG_NEGATIVE 0x04u  /* NUMBER: a leading minus sign */
#define FLAG_FITS_U64 0x08u  /* NUMBER: integer whose magnitude fits 64 bits */

/* Objects at most this size are checked for duplicates pair by pair; larger
 * ones are sorted, so checking stays O(n log n). */
#define SMALL_OBJECT 8

struct wai_json_value {
    uint8_t type;
    uint8_t flags;
    size_t len; /* string/text bytes, array elements, or object members */
    union {
        const char *bytes;           /* STRING: unescaped; NUMBER: source text */
        const wai_json_value *items; /* ARRAY: elements; OBJECT: key, value pairs */
    } u;
    union {
        uint64_t magnitude; /* NUMBER with FLAG_FITS_U64: |value| */
        size_t source_at;   /* STRING: offset of its opening quote, for errors */
    } extra;
};

struct wai_json_doc {
    wai_allocator allocator;
    wai_json_value *nodes;
    char *bytes;
};

typedef struct parser {
    const uint8_t *text;
    size_t len;
    size_t pos;
    size_t depth;
    int building; /* 0: the checking pass; 1: the building pass */
    wai_json_error err;
    size_t err_at;
    const wai_allocator *alloc;

    /* Tallied by the checking pass. */
    size_t n_nodes;
    size_t n_bytes;
    size_t max_members;
    size_t *child_counts; /* per container, in order of opening */
    size_t n_containers;
    size_t cap_containers;

    /* Filled by the building pass. */
    wai_json_value *nodes;
    size_t next_node;
    char *bytes;
    size_t next_byte;
    size_t next_container;
    struct sort_key *sort_keys; /* room for max_members keys */
} parser;

static int parse_value(parser *p, wai_json_value *out);

/* ---- small helpers ------------------------------------------------------ */

static int fail(parser *p, wai_json_error e, size_t at) {
    p->err = e;
    p->err_at = at;
    return 0;
}

static int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void skip_space(parser *p) {
    while (p->pos < p->len && is_space(p->text[p->pos])) p->pos++;
}

static int at_end(const parser *p) { return p->pos >= p->len; }

static uint8_t peek(const parser *p) { return p->text[p->pos]; }

static int is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* A number or literal must not run into more token-like bytes: "01",
 * "1.2.3", "1x" and "truex" are malformed tokens rather than a value with
 * trailing text. Any other byte ends the token and is judged by what may
 * follow a value. */
static int token_ends(const parser *p) {
    if (at_end(p)) return 1;
    uint8_t c = peek(p);
    int letter = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    return !(letter || is_digit(c) || c == '.' || c == '+' || c == '-' || c == '_' ||
             c >= 0x80);
}

/* Counts in the checking pass, which cannot overflow: each node and each
 * byte tallied stands for at least one byte of input or one node. */
static void tally_node(parser *p, size_t n) { p->n_nodes += n; }

static wai_json_value *take_nodes(parser *p, size_t n) {
    wai_json_value *first = p->nodes + p->next_node;
    p->next_node += n;
    return first;
}

static char *take_bytes(parser *p, size_t n) {
    char *first = p->bytes + p->next_byte;
    p->next_byte += n;
    return first;
}

/* ---- literals ----------------------------------------------------------- */

static int parse_literal(parser *p, const char *word, wai_json_type type, uint8_t flags,
                         wai_json_value *out) {
    size_t n = strlen(word);
    size_t start = p->pos;
    if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0)
        return fail(p, WAI_JSON_E_SYNTAX, start);
    p->pos += n;
    if (!token_ends(p)) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    if (out) {
        out->type = (uint8_t)type;
        out->flags = flags;
        out->len = 0;
        out->u.bytes = NULL;
        out->extra.magnitude = 0;
    }
    return 1;
}

/* ---- numbers ------------------------------------------------------------ */

/* Skips [0-9]*; returns how many digits. */
static size_t skip_digits(parser *p) {
    size_t start = p->pos;
    while (!at_end(p) && is_digit(peek(p))) p->pos++;
    return p->pos - start;
}

/* Reads the integer magnitude of text[0..n) exactly; 0 when past 64 bits. */
static int integer_magnitude(const uint8_t *digits, size_t n, uint64_t *out) {
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = (uint64_t)(digits[i] - '0');
        if (m > (UINT64_MAX - d) / 10) return 0;
        m = m * 10 + d;
    }
    *out = m;
    return 1;
}

static void fill_number(parser *p, size_t start, int negative, int integer,
                        wai_json_value *out) {
    size_t n = p->pos - start;
    char *text = take_bytes(p, n + 1);
    memcpy(text, p->text + start, n);
    text[n] = '\0';
    out->type = WAI_JSON_NUMBER;
    out->flags = 0;
    out->len = n;
    out->u.bytes = text;
    out->extra.magnitude = 0;
    if (!integer) return;
    out->flags |= FLAG_INTEGER;
    if (negative) out->flags |= FLAG_NEGATIVE;
    size_t skip = negative ? 1 : 0;
    uint64_t m;
    if (integer_magnitude(p->text + start + skip, n - skip, &m)) {
        out->flags |= FLAG_FITS_U64;
        out->extra.magnitude = m;
    }
}

/* -? (0|[1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)? */
static int parse_number(parser *p, wai_json_value *out) {
    size_t start = p->pos;
    int negative = 0, integer = 1;
    if (peek(p) == '-') {
        negative = 1;
        p->pos++;
    }
    if (at_end(p) || !is_digit(peek(p))) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    if (peek(p) == '0') {
        p->pos++;
        if (!at_end(p) && is_digit(peek(p))) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    } else {
        skip_digits(p);
    }
    if (!at_end(p) && peek(p) == '.') {
        integer = 0;
        p->pos++;
        if (skip_digits(p) == 0) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    }
    if (!at_end(p) && (peek(p) == 'e' || peek(p) == 'E')) {
        integer = 0;
        p->pos++;
        if (!at_end(p) && (peek(p) == '+' || peek(p) == '-')) p->pos++;
        if (skip_digits(p) == 0) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    }
    if (!token_ends(p)) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    if (p->building) fill_number(p, start, negative, integer, out);
    else p->n_bytes += p->pos - start + 1;
    return 1;
}

/* ---- strings ------------------------------------------------------------ */

static int hex_value(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Reads the 4 hex digits of a \u escape at text[at..at+4); -1 if not. */
static long read_hex4(const parser *p, size_t at) {
    if (p->len - at < 4) return -1;
    long v = 0;
    for (size_t i = 0; i < 4; i++) {
        int h = hex_value(p->text[at + i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Bytes of the UTF-8 encoding of code point cp (valid, not a surrogate). */
static size_t utf8_length(uint32_t cp) {
    if (cp < 0x80) return 1;
    if (cp < 0x800) return 2;
    if (cp < 0x10000) return 3;
    return 4;
}

static void utf8_write(uint32_t cp, char *out) {
    size_t n = utf8_length(cp);
    static const uint8_t lead[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
    for (size_t i = n - 1; i > 0; i--) {
        out[i] = (char)(0x80 | (cp & 0x3F));
        cp >>= 6;
    }
    out[0] = (char)(lead[n] | cp);
}

/* Reads a \u escape (pos at the backslash), combining a surrogate pair. */
static int read_unicode_escape(parser *p, uint32_t *cp) {
    size_t at = p->pos;
    long hi = read_hex4(p, at + 2);
    if (hi < 0) return fail(p, WAI_JSON_E_SYNTAX, at);
    p->pos = at + 6;
    if (hi >= 0xDC00 && hi <= 0xDFFF) return fail(p, WAI_JSON_E_UTF8, at);
    if (hi < 0xD800 || hi > 0xDBFF) {
        *cp = (uint32_t)hi;
        return 1;
    }
    /* A high surrogate counts only with a low one escaped right after it. */
    long lo = -1;
    if (p->len - p->pos >= 6 && p->text[p->pos] == '\\' && p->text[p->pos + 1] == 'u')
        lo = read_hex4(p, p->pos + 2);
    if (lo < 0xDC00 || lo > 0xDFFF) return fail(p, WAI_JSON_E_UTF8, at);
    p->pos += 6;
    *cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
    return 1;
}

/* Reads an escape (pos at the backslash) into *cp. */
static int read_escape(parser *p, uint32_t *cp) {
    size_t at = p->pos;
    if (p->len - at < 2) return fail(p, WAI_JSON_E_SYNTAX, at);
    switch (p->text[at + 1]) {
    case '"': *cp = '"'; break;
    case '\\': *cp = '\\'; break;
    case '/': *cp = '/'; break;
    case 'b': *cp = '\b'; break;
    case 'f': *cp = '\f'; break;
    case 'n': *cp = '\n'; break;
    case 'r': *cp = '\r'; break;
    case 't': *cp = '\t'; break;
    case 'u': return read_unicode_escape(p, cp);
    default: return fail(p, WAI_JSON_E_SYNTAX, at);
    }
    p->pos = at + 2;
    return 1;
}

size_t wai_utf8_sequence(const uint8_t *s, size_t avail) {
    uint8_t c = s[0];
    size_t n;
    uint8_t lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3;
    else if (c >= 0xF0 && c <= 0xF4) n = 4;
    else return 0;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (avail < n) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return n;
}

int wai_utf8_valid(const char *s, size_t n) {
    const uint8_t *b = (const uint8_t *)s;
    for (size_t i = 0, k; i < n; i += k)
        if (!(k = b[i] < 0x80 ? 1 : wai_utf8_sequence(b + i, n - i))) return 0;
    return 1;
}

/* Reads a string (pos at the opening quote). With out, writes the unescaped
 * bytes there; always sets *n to their count. */
static int scan_string(parser *p, char *out, size_t *n) {
    size_t count = 0;
    p->pos++;
    for (;;) {
        if (at_end(p)) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
        uint8_t c = peek(p);
        if (c == '"') break;
        if (c < 0x20) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
        if (c == '\\') {
            uint32_t cp;
            if (!read_escape(p, &cp)) return 0;
            if (out) utf8_write(cp, out + count);
            count += utf8_length(cp);
            continue;
        }
        size_t run = c < 0x80 ? 1 : wai_utf8_sequence(p->text + p->pos, p->len - p->pos);
        if (run == 0) return fail(p, WAI_JSON_E_UTF8, p->pos);
        if (out) memcpy(out + count, p->text + p->pos, run);
        count += run;
        p->pos += run;
    }
    p->pos++;
    *n = count;
    return 1;
}

static int parse_string(parser *p, wai_json_value *out) {
    size_t start = p->pos;
    size_t n;
    if (!p->building) {
        if (!scan_string(p, NULL, &n)) return 0;
        p->n_bytes += n + 1;
        return 1;
    }
    /* The building pass knows the text is valid, so the exact size is
     * whatever the checking pass tallied; write in place, then claim it. */
    char *dst = p->bytes + p->next_byte;
    if (!scan_string(p, dst, &n)) return 0;
    dst[n] = '\0';
    take_bytes(p, n + 1);
    out->type = WAI_JSON_STRING;
    out->flags = 0;
    out->len = n;
    out->u.bytes = dst;
    out->extra.source_at = start;
    return 1;
}

/* ---- containers --------------------------------------------------------- */

/* Records a container's child count in the checking pass; the building pass
 * reads them back in the same order. */
static int push_container(parser *p, size_t *slot) {
    if (p->n_containers == p->cap_containers) {
        size_t cap = p->cap_containers ? p->cap_containers * 2 : 16;
        size_t *grown = wai_alloc_array(p->alloc, cap, sizeof *grown);
        if (!grown) return fail(p, WAI_JSON_E_NOMEM, p->pos);
        if (p->n_containers) memcpy(grown, p->child_counts, p->n_containers * sizeof *grown);
        wai_free(p->alloc, p->child_counts);
        p->child_counts = grown;
        p->cap_containers = cap;
    }
    *slot = p->n_containers++;
    p->child_counts[*slot] = 0;
    return 1;
}

/* Opens a container: depth check, then its child slots. */
static int open_container(parser *p, wai_json_type type, wai_json_value *out,
                          size_t *slot, wai_json_value **children) {
    if (p->depth == WAI_JSON_MAX_DEPTH) return fail(p, WAI_JSON_E_DEPTH, p->pos);
    p->depth++;
    p->pos++;
    *children = NULL;
    if (!p->building) return push_container(p, slot);
    size_t count = p->child_counts[p->next_container++];
    size_t per_child = type == WAI_JSON_OBJECT ? 2 : 1;
    out->type = (uint8_t)type;
    out->flags = 0;
    out->len = count;
    out->u.items = NULL;
    out->extra.magnitude = 0;
    if (count) {
        *children = take_nodes(p, count * per_child);
        out->u.items = *children;
    }
    return 1;
}

/* After a member or element: ',' continues (returns 1), the closer ends
 * (returns 2), anything else is an error (returns 0). */
static int after_child(parser *p, uint8_t closer) {
    skip_space(p);
    if (at_end(p)) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    uint8_t c = peek(p);
    p->pos++;
    if (c == ',') return 1;
    if (c == closer) return 2;
    return fail(p, WAI_JSON_E_SYNTAX, p->pos - 1);
}

static int parse_array(parser *p, wai_json_value *out) {
    size_t slot = 0, count = 0;
    wai_json_value *items;
    if (!open_container(p, WAI_JSON_ARRAY, out, &slot, &items)) return 0;
    skip_space(p);
    if (!at_end(p) && peek(p) == ']') {
        p->pos++;
    } else {
        for (;;) {
            skip_space(p);
            if (!parse_value(p, items ? &items[count] : NULL)) return 0;
            count++;
            int next = after_child(p, ']');
            if (next == 0) return 0;
            if (next == 2) break;
        }
    }
    if (!p->building) {
        p->child_counts[slot] = count;
        tally_node(p, count);
    }
    p->depth--;
    return 1;
}

static int keys_equal(const wai_json_value *a, const wai_json_value *b) {
    return a->len == b->len && memcmp(a->u.bytes, b->u.bytes, a->len) == 0;
}

/* A key for sorting: its first 8 bytes as a big-endian number decide most
 * comparisons without touching the key bytes elsewhere in memory. */
typedef struct sort_key {
    uint64_t prefix;
    const wai_json_value *key;
} sort_key;

static uint64_t key_prefix(const wai_json_value *k) {
    uint64_t prefix = 0;
    for (size_t i = 0; i < 8; i++)
        prefix = (prefix << 8) | (i < k->len ? (uint8_t)k->u.bytes[i] : 0);
    return prefix;
}

/* Orders keys by bytes, then length, then position in the text. */
static int key_before(const sort_key *a, const sort_key *b) {
    if (a->prefix != b->prefix) return a->prefix < b->prefix;
    const wai_json_value *ka = a->key, *kb = b->key;
    size_t n = ka->len < kb->len ? ka->len : kb->len;
    int c = memcmp(ka->u.bytes, kb->u.bytes, n);
    if (c != 0) return c < 0;
    if (ka->len != kb->len) return ka->len < kb->len;
    return ka->extra.source_at < kb->extra.source_at;
}

static void sift_down(sort_key *heap, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && key_before(&heap[child], &heap[child + 1])) child++;
        if (!key_before(&heap[root], &heap[child])) return;
        sort_key t = heap[root];
        heap[root] = heap[child];
        heap[child] = t;
        root = child;
    }
}

/* Heapsort: in place, O(n log n) whatever the keys, and no allocation. */
static void sort_keys(sort_key *keys, size_t n) {
    for (size_t i = n / 2; i-- > 0;) sift_down(keys, i, n);
    for (size_t end = n; end-- > 1;) {
        sort_key t = keys[0];
        keys[0] = keys[end];
        keys[end] = t;
        sift_down(keys, 0, end);
    }
}

/* Finds the first member (in text order) whose name an earlier member has;
 * returns its key's offset, or SIZE_MAX when every name is distinct. */
static size_t first_duplicate(parser *p, const wai_json_value *pairs, size_t count) {
    size_t found = SIZE_MAX;
    if (count <= SMALL_OBJECT) {
        for (size_t j = 1; j < count && found == SIZE_MAX; j++)
            for (size_t i = 0; i < j; i++)
                if (keys_equal(&pairs[2 * i], &pairs[2 * j])) {
                    found = pairs[2 * j].extra.source_at;
                    break;
                }
        return found;
    }
    sort_key *keys = p->sort_keys;
    for (size_t i = 0; i < count; i++) {
        keys[i].key = &pairs[2 * i];
        keys[i].prefix = key_prefix(keys[i].key);
    }
    sort_keys(keys, count);
    /* In each run of equal names every key but the first is a repeat; the
     * earliest repeat in the text is the one to report. */
    for (size_t i = 1; i < count; i++)
        if (keys_equal(keys[i - 1].key, keys[i].key) && keys[i].key->extra.source_at < found)
            found = keys[i].key->extra.source_at;
    return found;
}

static int parse_member(parser *p, wai_json_value *pair) {
    skip_space(p);
    if (at_end(p) || peek(p) != '"') return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    if (!parse_string(p, pair ? &pair[0] : NULL)) return 0;
    skip_space(p);
    if (at_end(p) || peek(p) != ':') return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    p->pos++;
    skip_space(p);
    return parse_value(p, pair ? &pair[1] : NULL);
}

static int parse_object(parser *p, wai_json_value *out) {
    size_t slot = 0, count = 0;
    wai_json_value *pairs;
    if (!open_container(p, WAI_JSON_OBJECT, out, &slot, &pairs)) return 0;
    skip_space(p);
    if (!at_end(p) && peek(p) == '}') {
        p->pos++;
    } else {
        for (;;) {
            if (!parse_member(p, pairs ? &pairs[2 * count] : NULL)) return 0;
            count++;
            int next = after_child(p, '}');
            if (next == 0) return 0;
            if (next == 2) break;
        }
    }
    if (!p->building) {
        p->child_counts[slot] = count;
        tally_node(p, 2 * count);
        if (count > p->max_members) p->max_members = count;
    } else if (count > 1) {
        size_t dup = first_duplicate(p, pairs, count);
        if (dup != SIZE_MAX) return fail(p, WAI_JSON_E_DUPLICATE, dup);
    }
    p->depth--;
    return 1;
}

/* ---- values and passes -------------------------------------------------- */

/* out is NULL in the checking pass. */
static int parse_value(parser *p, wai_json_value *out) {
    if (at_end(p)) return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    switch (peek(p)) {
    case '{': return parse_object(p, out);
    case '[': return parse_array(p, out);
    case '"': return parse_string(p, out);
    case 't': return parse_literal(p, "true", WAI_JSON_BOOL, FLAG_TRUE, out);
    case 'f': return parse_literal(p, "false", WAI_JSON_BOOL, 0, out);
    case 'n': return parse_literal(p, "null", WAI_JSON_NULL, 0, out);
    default:
        if (peek(p) == '-' || is_digit(peek(p))) return parse_number(p, out);
        return fail(p, WAI_JSON_E_SYNTAX, p->pos);
    }
}

static int parse_document(parser *p, wai_json_value *root) {
    p->pos = 0;
    p->depth = 0;
    if (p->len >= 3 && p->text[0] == 0xEF && p->text[1] == 0xBB && p->text[2] == 0xBF)
        return fail(p, WAI_JSON_E_UTF8, 0);
    skip_space(p);
    if (!parse_value(p, root)) return 0;
    skip_space(p);
    if (!at_end(p)) return fail(p, WAI_JSON_E_TRAILING, p->pos);
    if (!p->building) tally_node(p, 1);
    return 1;
}

static void free_doc(wai_json_doc *doc) {
    const wai_allocator *a = &doc->allocator;
    wai_free(a, doc->nodes);
    wai_free(a, doc->bytes);
    wai_free(a, doc);
}

/* Allocates the document at the sizes the checking pass tallied. */
static wai_json_doc *alloc_doc(parser *p) {
    wai_json_doc *doc = wai_alloc(p->alloc, sizeof *doc);
    if (!doc) return NULL;
    doc->allocator = *p->alloc;
    doc->bytes = NULL;
    doc->nodes = wai_alloc_array(p->alloc, p->n_nodes, sizeof *doc->nodes);
    if (p->n_bytes) doc->bytes = wai_alloc(p->alloc, p->n_bytes);
    if (!doc->nodes || (p->n_bytes && !doc->bytes)) {
        free_doc(doc);
        return NULL;
    }
    return doc;
}

static wai_json_error build(parser *p, wai_json_doc *doc) {
    if (p->max_members > SMALL_OBJECT) {
        p->sort_keys = wai_alloc_array(p->alloc, p->max_members, sizeof *p->sort_keys);
        if (!p->sort_keys) return WAI_JSON_E_NOMEM;
    }
    p->building = 1;
    p->nodes = doc->nodes;
    p->bytes = doc->bytes;
    p->next_node = 1; /* node 0 is the root */
    p->next_byte = 0;
    p->next_container = 0;
    p->err = WAI_JSON_OK;
    p->err_at = 0;
    parse_document(p, &doc->nodes[0]);
    wai_free(p->alloc, p->sort_keys);
    p->sort_keys = NULL;
    return p->err;
}

wai_json_error wai_json_parse(const wai_allocator *a, const uint8_t *text, size_t len,
                              wai_json_doc **out, size_t *err_offset) {
    /* One resolved allocator for every block, so the document frees each
     * block through the function that allocated it. */
    wai_allocator resolved;
    wai_allocator_resolve(a, &resolved);
    parser p;
    memset(&p, 0, sizeof p);
    p.text = text;
    p.len = text ? len : 0;
    p.alloc = &resolved;
    p.err = WAI_JSON_OK;
    wai_json_doc *doc = NULL;
    if (out) *out = NULL;
    if (parse_document(&p, NULL)) {
        doc = alloc_doc(&p);
        if (!doc) fail(&p, WAI_JSON_E_NOMEM, 0);
        else if (build(&p, doc) != WAI_JSON_OK) {
            if (p.err == WAI_JSON_OK) fail(&p, WAI_JSON_E_NOMEM, 0);
            free_doc(doc);
            doc = NULL;
        }
    }
    wai_free(&resolved, p.child_counts);
    if (p.err != WAI_JSON_OK) {
        if (err_offset) *err_offset = p.err_at;
        return p.err;
    }
    if (out) *out = doc;
    else free_doc(doc);
    if (err_offset) *err_offset = 0;
    return WAI_JSON_OK;
}

void wai_json_free(wai_json_doc *doc) {
    if (doc) free_doc(doc);
}

const char *wai_json_error_name(wai_json_error e) {
    switch (e) {
    case WAI_JSON_OK: return "WAI_JSON_OK";
    case WAI_JSON_E_SYNTAX: return "WAI_JSON_E_SYNTAX";
    case WAI_JSON_E_UTF8: return "WAI_JSON_E_UTF8";
    case WAI_JSON_E_DEPTH: return "WAI_JSON_E_DEPTH";
    case WAI_JSON_E_DUPLICATE: return "WAI_JSON_E_DUPLICATE";
    case WAI_JSON_E_TRAILING: return "WAI_JSON_E_TRAILING";
    case WAI_JSON_E_NOMEM: return "WAI_JSON_E_NOMEM";
    }
    return "WAI_JSON_E_UNKNOWN";
}

/* ---- reading the tree --------------------------------------------------- */

const wai_json_value *wai_json_root(const wai_json_doc *doc) {
    return doc ? &doc->nodes[0] : NULL;
}

wai_json_type wai_json_type_of(const wai_json_value *v) {
    return v ? (wai_json_type)v->type : WAI_JSON_NULL;
}

int wai_json_bool(const wai_json_value *v) {
    return v && v->type == WAI_JSON_BOOL && (v->flags & FLAG_TRUE);
}

int wai_json_is_integer(const wai_json_value *v) {
    return v && v->type == WAI_JSON_NUMBER && (v->flags & FLAG_INTEGER);
}

/* The integer as sign and magnitude; 0 unless an integer within 64 bits. */
static int integer_parts(const wai_json_value *v, int *negative, uint64_t *magnitude) {
    if (!wai_json_is_integer(v) || !(v->flags & FLAG_FITS_U64)) return 0;
    *magnitude = v->extra.magnitude;
    *negative = (v->flags & FLAG_NEGATIVE) && *magnitude != 0; /* -0 is 0 */
    return 1;
}

int wai_json_get_i64(const wai_json_value *v, int64_t *out) {
    int negative;
    uint64_t m;
    if (!integer_parts(v, &negative, &m)) return 0;
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (m > limit) return 0;
    /* -(m - 1) - 1 reaches INT64_MIN without overflowing. */
    int64_t value = negative ? -(int64_t)(m - 1) - 1 : (int64_t)m;
    if (out) *out = value;
    return 1;
}

int wai_json_get_i32(const wai_json_value *v, int32_t *out) {
    int64_t wide;
    if (!wai_json_get_i64(v, &wide) || wide < INT32_MIN || wide > INT32_MAX) return 0;
    if (out) *out = (int32_t)wide;
    return 1;
}

int wai_json_get_u64(const wai_json_value *v, uint64_t *out) {
    int negative;
    uint64_t m;
    if (!integer_parts(v, &negative, &m) || negative) return 0;
    if (out) *out = m;
    return 1;
}

const char *wai_json_number_text(const wai_json_value *v, size_t *len) {
    if (!v || v->type != WAI_JSON_NUMBER) return NULL;
    if (len) *len = v->len;
    return v->u.bytes;
}

const char *wai_json_string(const wai_json_value *v, size_t *len) {
    if (!v || v->type != WAI_JSON_STRING) return NULL;
    if (len) *len = v->len;
    return v->u.bytes;
}

size_t wai_json_array_len(const wai_json_value *v) {
    return v && v->type == WAI_JSON_ARRAY ? v->len : 0;
}

const wai_json_value *wai_json_array_at(const wai_json_value *v, size_t i) {
    if (i >= wai_json_array_len(v)) return NULL;
    return &v->u.items[i];
}

size_t wai_json_object_len(const wai_json_value *v) {
    return v && v->type == WAI_JSON_OBJECT ? v->len : 0;
}

const wai_json_value *wai_json_object_value_at(const wai_json_value *v, size_t i,
                                               const char **key, size_t *key_len) {
    if (i >= wai_json_object_len(v)) return NULL;
    const wai_json_value *pair = &v->u.items[2 * i];
    if (key) *key = pair[0].u.bytes;
    if (key_len) *key_len = pair[0].len;
    return &pair[1];
}

const wai_json_value *wai_json_object_get_n(const wai_json_value *v, const char *key,
                                            size_t key_len) {
    size_t n = wai_json_object_len(v);
    if (!key) return NULL;
    for (size_t i = 0; i < n; i++) {
        const wai_json_value *k = &v->u.items[2 * i];
        if (k->len == key_len && memcmp(k->u.bytes, key, key_len) == 0) return k + 1;
    }
    return NULL;
}

const wai_json_value *wai_json_object_get(const wai_json_value *v, const char *key) {
    return key ? wai_json_object_get_n(v, key, strlen(key)) : NULL;
}
