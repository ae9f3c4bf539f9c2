/* SPDX-License-Identifier: BSD-2-Clause */
/* The whole-decode fuzz targets' sets and checked decode (neural_fixture.h). */
#include "neural_fixture.h"

#include <stdio.h>
#include <string.h>

#include "embedded.h"
#include "formats/wcf1.h"
#include "formats/wia1.h"
#include "formats/wif1.h"
#include "wai/wai_hash.h"

static const char *const family_dirs[FIX_FAMILIES] = {
    "hyper/set0", "audio/set0", "splat/set0", "mlic/valid/two_slices", "cond/valid/six_frames"};
static const char *const family_members[FIX_FAMILIES][4] = {
    {"g_s.whm", "h_s.whm", "entropy.json", NULL}, {"model.wam", NULL}, {"g_s.whm", NULL},
    {"model.wmb", NULL}, {"model.wcb", NULL}};

int fix_family_of(const wai_capability *cap) {
    if (!cap) return -1;
    switch (cap->format) {
    case WAI_FORMAT_WIH1: return FIX_HYPER;
    case WAI_FORMAT_WIA1: return FIX_AUDIO;
    case WAI_FORMAT_WIS1: return FIX_SPLAT;
    case WAI_FORMAT_WIM1: return FIX_MLIC;
    case WAI_FORMAT_WIC1:
    case WAI_FORMAT_WCF1: return FIX_COND;
    case WAI_FORMAT_WIV1:
    case WAI_FORMAT_WIF1: return cap->keyframe == 1 ? FIX_HYPER : -1;
    default: return -1;
    }
}

wai_set *fix_set_with(wai_context *ctx, int family, const char *name, const uint8_t *data,
                      size_t len) {
    wai_set *set;
    if (wai_set_create(ctx, &set) != WAI_ok) __builtin_trap();
    for (const char *const *m = family_members[family]; *m; m++) {
        wai_status st;
        if (name && strcmp(name, *m) == 0) {
            st = wai_set_add(set, *m, data, len);
        } else {
            char path[64];
            snprintf(path, sizeof path, "%s/%s", family_dirs[family], *m);
            const wai_embedded_file *f = wai_embedded_find(path);
            if (!f) __builtin_trap();
            st = wai_set_add(set, *m, f->data, f->len);
        }
        if (st != WAI_ok) __builtin_trap();
    }
    return set;
}

fix_state *fix_get(void) {
    static fix_state s;
    static int made;
    if (made) return &s;
    wai_settings cfg;
    wai_settings_default(&cfg);
    cfg.n_threads = 1;
    /* Small enough that a fuzzed set stream evicts, large enough to keep
     * set0 of each family (a few KiB each) warm. */
    cfg.set_cache_budget = (uint64_t)16 << 20;
    if (wai_context_create(&cfg, &s.warm) != WAI_ok) __builtin_trap();
    cfg.set_cache_budget = 0;
    if (wai_context_create(&cfg, &s.cold) != WAI_ok) __builtin_trap();
    for (int f = 0; f < FIX_FAMILIES; f++) s.sets[f] = fix_set_with(s.warm, f, NULL, NULL, 0);
    made = 1;
    return &s;
}

/* One output's shape against its payload. */
static void check_output(const wai_capability *cap, const wai_output *o, const uint8_t *data,
                         size_t len) {
    if (o->kind != wai_capability_output(cap) || !o->data) __builtin_trap();
    switch (o->kind) {
    case WAI_OUTPUT_FRAME:
    case WAI_OUTPUT_IMAGE:
        if (o->size != (size_t)o->width * o->height * 3 || o->sample_rate != 0) __builtin_trap();
        break;
    case WAI_OUTPUT_PCM: {
        wai_wia1 a;
        if (wai_wia1_parse(data, len, &a) != WAI_ok) __builtin_trap();
        if (o->sample_rate != a.sr || o->width != a.t_out || o->height != 1 ||
            o->size != 2 * (size_t)a.t_out)
            __builtin_trap();
        break;
    }
    case WAI_OUTPUT_PLANES: {
        wai_splat_info info;
        uint32_t range[2];
        if (wai_splat_presentation(data, len, &info, range, 1) != WAI_ok) __builtin_trap();
        if (info.side != o->width || info.side != o->height || o->sample_rate != 0 ||
            o->size != (size_t)info.side * info.side * info.planes ||
            info.n_gaussians < 1 || info.n_gaussians > (uint64_t)info.side * info.side)
            __builtin_trap();
        break;
    }
    default:
        __builtin_trap();
    }
}

typedef struct decoded {
    wai_status st;
    wai_cost cost;
    int has_cost;
    uint64_t bytes;
    uint8_t sha256[32];
} decoded;

static void decode_on(wai_context *ctx, const wai_capability *cap, const wai_set *set,
                      const uint8_t *data, size_t len, decoded *r) {
    memset(r, 0, sizeof *r);
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = cap->name;
    cfg.set = set;
    cfg.max_cost = FIX_MAX_WORK;
    cfg.max_memory = FIX_MAX_MEMORY;
    wai_decoder *dec;
    if (wai_decoder_create(ctx, &cfg, &dec) != WAI_ok) __builtin_trap();
    memset(&r->cost, 0xA5, sizeof r->cost);
    r->st = wai_decoder_send(dec, data, len, &r->cost);
    wai_sha256 h;
    wai_sha256_init(&h);
    for (;;) {
        wai_output o;
        if (wai_decoder_receive(dec, &o) != WAI_ok) __builtin_trap();
        if (o.kind == WAI_OUTPUT_NONE) break;
        if (r->st != WAI_ok) __builtin_trap();   /* a refused payload outputs nothing */
        check_output(cap, &o, data, len);
        r->bytes += o.size;
        wai_sha256_update(&h, o.data, o.size);
    }
    wai_sha256_final(&h, r->sha256);
    wai_decoder_destroy(dec);
}

/* What a decode whose parse, §7 steps 1 to 4 and cost passed may still
 * give: the streams' and the networks' codes (§7 steps 5 and 6; WIM1's are
 * all payload_malformed, §14), or a dispatch refusal. */
static int after_cost(wai_status st) {
    return st == WAI_ok || st == WAI_stream_exhausted || st == WAI_stream_noncanonical ||
           st == WAI_field_range || st == WAI_payload_malformed || st == WAI_out_of_memory ||
           wai_status_kind_of(st) == WAI_KIND_DISPATCH;
}

wai_status fix_decode_checked(fix_state *s, const wai_capability *cap, const wai_set *set,
                              const uint8_t *data, size_t len) {
    wai_wif1 f;
    wai_wcf1 g;
    int inter = (cap->format == WAI_FORMAT_WIF1 &&
                 wai_wif1_parse(data, len, cap->keyframe, &f) == WAI_ok &&
                 f.kind == WAI_WIF1_INTER) ||
                (cap->format == WAI_FORMAT_WCF1 && wai_wcf1_parse(data, len, &g) == WAI_ok &&
                 g.kind == WAI_WCF1_INTER);
    wai_cost declared;
    wai_status cst = wai_declared_cost_set(s->warm, cap->name, set, data, len, &declared);
    decoded warm, cold;
    decode_on(s->warm, cap, set, data, len, &warm);
    decode_on(s->cold, cap, set, data, len, &cold);
    if (warm.st != cold.st || warm.bytes != cold.bytes ||
        memcmp(warm.sha256, cold.sha256, 32) != 0)
        __builtin_trap();
    if (inter) return warm.st;
    if (cst != WAI_ok) {
        /* The cost query refuses where the decode does, with its code. */
        if (warm.st != cst) __builtin_trap();
        return warm.st;
    }
    if (memcmp(&warm.cost, &declared, sizeof declared) != 0) __builtin_trap();
    int over = !wai_cost_within(&declared, FIX_MAX_WORK, FIX_MAX_MEMORY);
    if (over != (warm.st == WAI_cost_over_limit)) __builtin_trap();
    if (!over && !after_cost(warm.st)) __builtin_trap();
    if (warm.st == WAI_ok && warm.bytes != declared.output_bytes) __builtin_trap();
    return warm.st;
}
