/* WHM1 / WAM1 parse and write (integer-payloads §9). Two passes over the
 * bytes: the first proves every layer and every parameter byte present and
 * sums the storage they need; only then one block is allocated, and the
 * second pass fills it. A file that declares billions of weights but holds
 * a few bytes is refused before any allocation. */
#include "formats/whm1.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/reader.h"

static const char *magic_of(int dims) { return dims == 2 ? WAI_WHM1_MAGIC : WAI_WAM1_MAGIC; }

/* Tags 0 and 2 only in WAM1 (§9: "layers of tag 0 ... and tag 2"). */
static int tag_allowed(uint32_t tag, int dims) {
    if (dims == 1) return tag == WAI_LAYER_CONV_T || tag == WAI_LAYER_IGDN;
    return tag <= WAI_LAYER_LEAKY;
}

/* Element counts of a layer's arrays, each < 2^62 or saturated. */
typedef struct layer_counts {
    uint64_t weights, per_out, gamma, beta;
} layer_counts;

static layer_counts counts_of(const wai_layer *l, int dims) {
    layer_counts c = {0, 0, 0, 0};
    if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV) {
        c.weights = wai_layer_weight_count(l, dims);
        c.per_out = l->cout;
    } else if (l->kind == WAI_LAYER_IGDN) {
        c.gamma = wai_sat_mul(l->c, l->c);
        c.beta = l->c;
    }
    return c;
}

/* The parameter bytes a layer's counts call for; saturated past 64 bits,
 * which no file holds. */
static uint64_t param_bytes(const layer_counts *c) {
    uint64_t b = wai_sat_mul(c->weights, 2);
    b = wai_sat_add(b, wai_sat_mul(c->per_out, 16));
    b = wai_sat_add(b, wai_sat_mul(c->gamma, 4));
    return wai_sat_add(b, wai_sat_mul(c->beta, 8));
}

static uint64_t round8(uint64_t v) { return wai_sat_add(v, 7) & ~(uint64_t)7; }

/* The storage bytes of a layer's arrays, each rounded up to 8 so that every
 * array in the block is aligned for its type. */
static uint64_t storage_bytes(const layer_counts *c) {
    uint64_t b = round8(wai_sat_mul(c->weights, 2));
    b = wai_sat_add(b, wai_sat_mul(c->per_out, 16));
    b = wai_sat_add(b, round8(wai_sat_mul(c->gamma, 4)));
    return wai_sat_add(b, wai_sat_mul(c->beta, 8));
}

/* Reads a layer's tag and fixed fields (not its arrays) into *l. Any short
 * read or disallowed tag is model_mismatch. */
static wai_status read_head(wai_reader *r, int dims, wai_layer *l) {
    uint8_t tag;
    memset(l, 0, sizeof *l);
    if (wai_read_u8(r, &tag) != WAI_ok || !tag_allowed(tag, dims)) return WAI_model_mismatch;
    l->kind = (wai_layer_kind)tag;
    wai_status st = WAI_ok;
    switch (l->kind) {
    case WAI_LAYER_CONV_T:
    case WAI_LAYER_CONV:
        if ((st = wai_read_u32(r, &l->cin)) != WAI_ok || (st = wai_read_u32(r, &l->cout)) != WAI_ok ||
            (st = wai_read_u32(r, &l->k)) != WAI_ok || (st = wai_read_u32(r, &l->stride)) != WAI_ok ||
            (st = wai_read_u32(r, &l->pad)) != WAI_ok)
            break;
        if (l->kind == WAI_LAYER_CONV_T) st = wai_read_u32(r, &l->opad);
        break;
    case WAI_LAYER_IGDN:
        st = wai_read_u32(r, &l->c);
        break;
    case WAI_LAYER_RELU:
        break;
    case WAI_LAYER_LEAKY:
        if ((st = wai_read_i64(r, &l->slope)) == WAI_ok) st = wai_read_u32(r, &l->lshift);
        break;
    }
    return st == WAI_ok ? WAI_ok : WAI_model_mismatch;
}

/* Carves n bytes (a multiple of 8 after rounding) off the block. */
static void *carve(uint8_t **at, uint64_t n) {
    if (n == 0) return NULL;
    void *p = *at;
    *at += (size_t)round8(n);
    return p;
}

/* Second pass: the bytes are proven present, so no read below can fail. */
static void fill_layer(wai_reader *r, int dims, wai_layer *l, uint8_t **at) {
    (void)read_head(r, dims, l);
    layer_counts c = counts_of(l, dims);
    if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV) {
        l->n_weights = c.weights;
        l->weights = carve(at, c.weights * 2);
        l->mult = carve(at, c.per_out * 8);
        l->bias = carve(at, c.per_out * 8);
        for (uint64_t i = 0; i < c.weights; i++) (void)wai_read_i16(r, &l->weights[i]);
        for (uint64_t i = 0; i < c.per_out; i++) (void)wai_read_i64(r, &l->mult[i]);
        for (uint64_t i = 0; i < c.per_out; i++) (void)wai_read_i64(r, &l->bias[i]);
    } else if (l->kind == WAI_LAYER_IGDN) {
        l->gamma = carve(at, c.gamma * 4);
        l->beta = carve(at, c.beta * 8);
        for (uint64_t i = 0; i < c.gamma; i++) (void)wai_read_i32(r, &l->gamma[i]);
        for (uint64_t i = 0; i < c.beta; i++) (void)wai_read_i64(r, &l->beta[i]);
    }
}

wai_status wai_model_parse(const wai_allocator *a, const uint8_t *bytes, size_t len, int dims,
                           wai_model *out) {
    memset(out, 0, sizeof *out);
    if (dims != 1 && dims != 2) return WAI_invalid_argument;
    wai_reader r;
    wai_reader_init(&r, bytes, len);
    const uint8_t *magic;
    uint32_t afrac, gf, shift, n_layers;
    if (wai_read_span(&r, 4, &magic) != WAI_ok || memcmp(magic, magic_of(dims), 4) != 0 ||
        wai_read_u32(&r, &afrac) != WAI_ok || wai_read_u32(&r, &gf) != WAI_ok ||
        wai_read_u32(&r, &shift) != WAI_ok || wai_read_u32(&r, &n_layers) != WAI_ok)
        return WAI_model_mismatch;
    const size_t layers_at = r.pos;

    /* Pass 1: every layer and its parameter bytes present; nothing after. */
    uint64_t total = wai_sat_mul(round8(sizeof(wai_layer)), n_layers);
    for (uint32_t i = 0; i < n_layers; i++) {
        wai_layer l;
        if (read_head(&r, dims, &l) != WAI_ok) return WAI_model_mismatch;
        layer_counts c = counts_of(&l, dims);
        if (wai_skip(&r, param_bytes(&c)) != WAI_ok) return WAI_model_mismatch;
        total = wai_sat_add(total, storage_bytes(&c));
    }
    if (wai_reader_left(&r) != 0) return WAI_model_mismatch;

    /* The block is at most a small multiple of the file (every array's
     * bytes are in it), so only a 32-bit target can fail to address it. */
    if (!wai_fits_size(total)) return WAI_out_of_memory;
    uint8_t *block = NULL;
    if (total > 0 && (block = wai_alloc(a, (size_t)total)) == NULL) return WAI_out_of_memory;

    out->dims = dims;
    out->afrac = afrac;
    out->gf = gf;
    out->shift = shift;
    out->n_layers = n_layers;
    out->storage = block;
    out->layers = n_layers ? (wai_layer *)(void *)block : NULL;
    uint8_t *at = block ? block + (size_t)round8(sizeof(wai_layer)) * n_layers : NULL;
    r.pos = layers_at;
    for (uint32_t i = 0; i < n_layers; i++) fill_layer(&r, dims, &out->layers[i], &at);
    return WAI_ok;
}

void wai_model_free(const wai_allocator *a, wai_model *m) {
    if (!m) return;
    wai_free(a, m->storage);
    memset(m, 0, sizeof *m);
}

/* ---- write ------------------------------------------------------------- */

static void put_u32(uint8_t **p, uint32_t v) {
    wai_store_u32le(*p, v);
    *p += 4;
}

static void put_u64(uint8_t **p, uint64_t v) {
    wai_store_u64le(*p, v);
    *p += 8;
}

/* Two's complement of a signed value as unsigned, without a signed
 * overflow (the conversion to unsigned is defined modulo 2^n). */
static uint64_t u64_of(int64_t v) { return (uint64_t)v; }

wai_status wai_model_write(const wai_allocator *a, const wai_model *m, uint8_t **out,
                           size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (m->dims != 1 && m->dims != 2) return WAI_invalid_argument;
    if (m->n_layers > 0 && !m->layers) return WAI_invalid_argument;
    uint64_t total = WAI_WHM1_HEADER_BYTES;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        if ((uint32_t)l->kind > WAI_LAYER_LEAKY || !tag_allowed((uint32_t)l->kind, m->dims))
            return WAI_invalid_argument;
        layer_counts c = counts_of(l, m->dims);
        int conv = l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV;
        if (conv && (l->n_weights != c.weights || (c.weights && !l->weights) ||
                     (c.per_out && (!l->mult || !l->bias))))
            return WAI_invalid_argument;
        if (l->kind == WAI_LAYER_IGDN && c.beta && (!l->gamma || !l->beta))
            return WAI_invalid_argument;
        uint64_t head = 1 + (l->kind == WAI_LAYER_CONV_T ? 24
                             : l->kind == WAI_LAYER_CONV ? 20
                             : l->kind == WAI_LAYER_IGDN ? 4
                             : l->kind == WAI_LAYER_LEAKY ? 12 : 0);
        total = wai_sat_add(total, wai_sat_add(head, param_bytes(&c)));
    }
    if (!wai_fits_size(total)) return WAI_too_large;
    uint8_t *b = wai_alloc(a, (size_t)total);
    if (!b) return WAI_out_of_memory;
    uint8_t *p = b;
    memcpy(p, magic_of(m->dims), 4);
    p += 4;
    put_u32(&p, m->afrac);
    put_u32(&p, m->gf);
    put_u32(&p, m->shift);
    put_u32(&p, m->n_layers);
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        layer_counts c = counts_of(l, m->dims);
        *p++ = (uint8_t)l->kind;
        switch (l->kind) {
        case WAI_LAYER_CONV_T:
        case WAI_LAYER_CONV:
            put_u32(&p, l->cin);
            put_u32(&p, l->cout);
            put_u32(&p, l->k);
            put_u32(&p, l->stride);
            put_u32(&p, l->pad);
            if (l->kind == WAI_LAYER_CONV_T) put_u32(&p, l->opad);
            for (uint64_t j = 0; j < c.weights; j++, p += 2)
                wai_store_u16le(p, (uint16_t)u64_of(l->weights[j]));
            for (uint64_t j = 0; j < c.per_out; j++) put_u64(&p, u64_of(l->mult[j]));
            for (uint64_t j = 0; j < c.per_out; j++) put_u64(&p, u64_of(l->bias[j]));
            break;
        case WAI_LAYER_IGDN:
            put_u32(&p, l->c);
            for (uint64_t j = 0; j < c.gamma; j++) put_u32(&p, (uint32_t)u64_of(l->gamma[j]));
            for (uint64_t j = 0; j < c.beta; j++) put_u64(&p, u64_of(l->beta[j]));
            break;
        case WAI_LAYER_RELU:
            break;
        case WAI_LAYER_LEAKY:
            put_u64(&p, u64_of(l->slope));
            put_u32(&p, l->lshift);
            break;
        }
    }
    *out = b;
    *out_len = (size_t)total;
    return WAI_ok;
}
