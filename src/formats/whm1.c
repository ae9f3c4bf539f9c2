/* SPDX-License-Identifier: BSD-2-Clause */
/* WHM1 / WAM1 parse (integer-payloads §9; the writer is write/whm1_write.c). Two passes over the
 * bytes: the first proves every layer and every parameter byte present and
 * sums the storage they need; only then one block is allocated, and the
 * second pass fills it. A file that declares billions of weights but holds
 * a few bytes is refused before any allocation. */
#include "formats/whm1.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/reader.h"

const char *wai_whm1_magic(int dims) { return dims == 2 ? WAI_WHM1_MAGIC : WAI_WAM1_MAGIC; }

int wai_whm1_tag_allowed(uint32_t tag, int dims) {
    if (dims == 1) return tag == WAI_LAYER_CONV_T || tag == WAI_LAYER_IGDN;
    return tag <= WAI_LAYER_LEAKY;
}

wai_layer_counts wai_whm1_counts(const wai_layer *l, int dims) {
    wai_layer_counts c = {0, 0, 0, 0};
    if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV) {
        c.weights = wai_layer_weight_count(l, dims);
        c.per_out = l->cout;
    } else if (l->kind == WAI_LAYER_IGDN) {
        c.gamma = wai_sat_mul(l->c, l->c);
        c.beta = l->c;
    }
    return c;
}

uint64_t wai_whm1_param_bytes(const wai_layer_counts *c) {
    uint64_t b = wai_sat_mul(c->weights, 2);
    b = wai_sat_add(b, wai_sat_mul(c->per_out, 16));
    b = wai_sat_add(b, wai_sat_mul(c->gamma, 4));
    return wai_sat_add(b, wai_sat_mul(c->beta, 8));
}

static uint64_t round8(uint64_t v) { return wai_sat_add(v, 7) & ~(uint64_t)7; }

/* The storage bytes of a layer's arrays, each rounded up to 8 so that every
 * array in the block is aligned for its type. */
static uint64_t storage_bytes(const wai_layer_counts *c) {
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
    if (wai_read_u8(r, &tag) != WAI_ok || !wai_whm1_tag_allowed(tag, dims)) return WAI_model_mismatch;
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
    wai_layer_counts c = wai_whm1_counts(l, dims);
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
    if (wai_read_span(&r, 4, &magic) != WAI_ok || memcmp(magic, wai_whm1_magic(dims), 4) != 0 ||
        wai_read_u32(&r, &afrac) != WAI_ok || wai_read_u32(&r, &gf) != WAI_ok ||
        wai_read_u32(&r, &shift) != WAI_ok || wai_read_u32(&r, &n_layers) != WAI_ok)
        return WAI_model_mismatch;
    const size_t layers_at = r.pos;

    /* Pass 1: every layer and its parameter bytes present; nothing after. */
    uint64_t total = wai_sat_mul(round8(sizeof(wai_layer)), n_layers);
    for (uint32_t i = 0; i < n_layers; i++) {
        wai_layer l;
        if (read_head(&r, dims, &l) != WAI_ok) return WAI_model_mismatch;
        wai_layer_counts c = wai_whm1_counts(&l, dims);
        if (wai_skip(&r, wai_whm1_param_bytes(&c)) != WAI_ok) return WAI_model_mismatch;
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
