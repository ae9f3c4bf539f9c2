/* One interface over the WIH1, WIA1 and WIS1 decodes (see neural.h). */
#include "decode/neural.h"

#include <string.h>

int wai_neural_format(wai_format f) {
    return f == WAI_FORMAT_WIH1 || f == WAI_FORMAT_WIA1 || f == WAI_FORMAT_WIS1;
}

wai_status wai_neural_parse(wai_format f, const uint8_t *data, size_t len, wai_neural *n) {
    memset(n, 0, sizeof *n);
    n->format = f;
    switch (f) {
    case WAI_FORMAT_WIH1: return wai_wih1_parse(data, len, 0, &n->u.wih1);
    case WAI_FORMAT_WIA1: return wai_wia1_parse(data, len, &n->u.wia1);
    case WAI_FORMAT_WIS1: return wai_wis1_parse(data, len, &n->u.wis1);
    default: return WAI_invalid_argument;
    }
}

wai_status wai_neural_prepare(const wai_allocator *a, const wai_loaded_set *l, wai_neural *n) {
    wai_status st;
    n->set = l;
    switch (n->format) {
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

wai_status wai_neural_run(const wai_allocator *a, const wai_kernels *k, wai_neural *n,
                          uint8_t *out) {
    switch (n->format) {
    case WAI_FORMAT_WIH1: return wai_wih1_decode(a, k, n->set, &n->u.wih1, &n->hyper, out);
    case WAI_FORMAT_WIA1: return wai_wia1_decode(a, k, n->set, &n->u.wia1, &n->plan, out);
    case WAI_FORMAT_WIS1: return wai_wis1_decode(a, k, n->set, &n->u.wis1, &n->plan, out);
    default: return WAI_invalid_argument;
    }
}

void wai_neural_release(const wai_allocator *a, wai_neural *n) {
    wai_hyper_plan_free(a, &n->hyper);
    wai_plan_free(a, &n->plan);
}
