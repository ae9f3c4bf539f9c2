/* One interface over the WIH1, WIA1 and WIS1 decodes (see neural.h). */
#include "decode/neural.h"

#include <string.h>

#include "common/checked.h"

int wai_neural_capability(const wai_capability *cap) {
    wai_format f = cap->format;
    return f == WAI_FORMAT_WIH1 || f == WAI_FORMAT_WIA1 || f == WAI_FORMAT_WIS1 ||
           ((f == WAI_FORMAT_WIV1 || f == WAI_FORMAT_WIF1) && cap->keyframe == 1);
}

wai_format wai_neural_set_format(const wai_capability *cap) {
    return cap->format == WAI_FORMAT_WIV1 || cap->format == WAI_FORMAT_WIF1 ? WAI_FORMAT_WIH1
                                                                            : cap->format;
}

wai_status wai_neural_parse(const wai_capability *cap, const uint8_t *data, size_t len,
                            wai_neural *n) {
    memset(n, 0, sizeof *n);
    n->format = cap->format;
    wai_status st;
    switch (cap->format) {
    case WAI_FORMAT_WIH1:
        n->key = &n->u.wih1;
        return wai_wih1_parse(data, len, 0, &n->u.wih1);
    case WAI_FORMAT_WIA1: return wai_wia1_parse(data, len, &n->u.wia1);
    case WAI_FORMAT_WIS1: return wai_wis1_parse(data, len, &n->u.wis1);
    case WAI_FORMAT_WIV1:
        n->key = &n->u.wiv1.key_header;
        return wai_wiv1_parse(data, len, cap->keyframe, &n->u.wiv1);
    case WAI_FORMAT_WIF1:
        n->key = &n->u.wif1.key_header;
        st = wai_wif1_parse(data, len, cap->keyframe, &n->u.wif1);
        /* An inter frame reads no network: the motion decode's. */
        if (st == WAI_ok && n->u.wif1.kind != WAI_WIF1_INTRA) st = WAI_invalid_argument;
        return st;
    default: return WAI_invalid_argument;
    }
}

/* A keyframe's WIH1 decode gives the clip's h x w (geometry_mismatch), then
 * the clip's or frame's cost around the keyframe's. */
static wai_status prepare_video(wai_neural *n) {
    uint32_t h = n->format == WAI_FORMAT_WIV1 ? n->u.wiv1.h : n->u.wif1.h;
    uint32_t w = n->format == WAI_FORMAT_WIV1 ? n->u.wiv1.w : n->u.wif1.w;
    if (n->hyper.g_s.out_h != h || n->hyper.g_s.out_w != w) return WAI_geometry_mismatch;
    wai_cost k;
    wai_wih1_cost(n->key, &n->hyper, &k);
    uint64_t frame = wai_sat_mul3(h, w, 3);
    n->kind = WAI_OUTPUT_FRAME;
    n->width = w;
    n->height = h;
    n->cost.macs = k.macs;
    if (n->format == WAI_FORMAT_WIF1) {
        n->cost.output_bytes = frame;
        n->cost.entropy_steps = k.entropy_steps;
        n->cost.working_bytes = wai_sat_add(k.working_bytes, frame);
        return WAI_ok;
    }
    /* Frames 1 on are keyframe-0 frames: h·w·3 symbols each (reading R11). */
    const wai_wiv1 *v = &n->u.wiv1;
    n->cost.output_bytes = wai_sat_mul(v->n_frames, frame);
    n->cost.entropy_steps = wai_sat_add(wai_sat_mul(v->n_frames - 1, frame), k.entropy_steps);
    n->cost.working_bytes = wai_sat_add(
        wai_sat_add(n->cost.output_bytes, wai_sat_mul3(4, v->nb, v->n_frames - 1)), k.working_bytes);
    return WAI_ok;
}

wai_status wai_neural_prepare(const wai_allocator *a, const wai_loaded_set *l, wai_neural *n) {
    wai_status st;
    n->set = l;
    switch (n->format) {
    case WAI_FORMAT_WIV1:
    case WAI_FORMAT_WIF1:
        if ((st = wai_wih1_prepare(a, l, n->key, &n->hyper)) != WAI_ok) return st;
        return prepare_video(n);
    case WAI_FORMAT_WIH1:
        if ((st = wai_wih1_prepare(a, l, &n->u.wih1, &n->hyper)) != WAI_ok) return st;
        wai_wih1_cost(&n->u.wih1, &n->hyper, &n->cost);
        n->kind = WAI_OUTPUT_IMAGE;
        n->width = n->hyper.g_s.out_w;
        n->height = n->hyper.g_s.out_h;
        return WAI_ok;
    case WAI_FORMAT_WIA1:
        if ((st = wai_wia1_prepare(a, l, &n->u.wia1, &n->plan)) != WAI_ok) return st;
        wai_wia1_cost(&n->u.wia1, &n->plan, &n->cost);
        n->kind = WAI_OUTPUT_PCM;
        n->width = n->u.wia1.t_out;
        n->height = 1;
        return WAI_ok;
    case WAI_FORMAT_WIS1:
        if ((st = wai_wis1_prepare(a, l, &n->u.wis1, &n->plan)) != WAI_ok) return st;
        wai_wis1_cost(&n->u.wis1, &n->plan, &n->cost);
        n->kind = WAI_OUTPUT_PLANES;
        n->width = n->height = n->u.wis1.s;
        return WAI_ok;
    default:
        return WAI_invalid_argument;
    }
}

wai_status wai_neural_run(const wai_exec *ex, const wai_kernels *k, wai_neural *n, uint8_t *out) {
    switch (n->format) {
    case WAI_FORMAT_WIH1:
    case WAI_FORMAT_WIF1: return wai_wih1_decode(ex, k, n->set, n->key, &n->hyper, out);
    case WAI_FORMAT_WIV1: {
        wai_status st = wai_wih1_decode(ex, k, n->set, n->key, &n->hyper, out);
        return st == WAI_ok ? wai_wiv1_decode(ex->alloc, &n->u.wiv1, out) : st;
    }
    case WAI_FORMAT_WIA1: return wai_wia1_decode(ex, k, n->set, &n->u.wia1, &n->plan, out);
    case WAI_FORMAT_WIS1: return wai_wis1_decode(ex, k, n->set, &n->u.wis1, &n->plan, out);
    default: return WAI_invalid_argument;
    }
}

void wai_neural_release(const wai_allocator *a, wai_neural *n) {
    wai_hyper_plan_free(a, &n->hyper);
    wai_plan_free(a, &n->plan);
}
