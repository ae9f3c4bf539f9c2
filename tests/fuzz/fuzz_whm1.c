/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: WHM1 / WAM1 parse, write, parameter sums and planning.
 *
 * Input: a whole network file, parsed as WHM1 and as WAM1.
 *
 * Invariants: a refusal is model_mismatch (or invalid_argument never); a
 * model that parses writes back to the very same bytes; its sums compute;
 * planned on a few small shapes it is ok, model_mismatch or too_large, and
 * a plan that passes chains its layers' shapes, stays within the cap and
 * totals its layers' work. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "formats/whm1.h"
#include "ops/plan.h"
#include "gen/set_write.h"
#include "write/payloads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_plan(const wai_model *m, const wai_plan *p, uint32_t c, uint32_t h,
                       uint32_t w) {
    if (p->n_layers != m->n_layers || p->dims != m->dims) __builtin_trap();
    uint64_t pc = c, ph = h, pw = w, macs = 0, work = (uint64_t)c * h * w * 8;
    for (uint32_t i = 0; i < p->n_layers; i++) {
        const wai_plan_layer *e = &p->layers[i];
        if (e->in_c != pc || e->in_h != ph || e->in_w != pw) __builtin_trap();
        if (e->out_elems != (uint64_t)e->out_c * e->out_h * e->out_w) __builtin_trap();
        if (e->out_elems == 0 || e->out_elems > WAI_CAP_ELEMENTS) __builtin_trap();
        if (e->uncropped_elems > WAI_CAP_ELEMENTS) __builtin_trap();
        if (m->dims == 1 && e->out_h != 1) __builtin_trap();
        macs = wai_sat_add(macs, e->macs);
        if (i == 0 || e->work_bytes > work) work = e->work_bytes;
        pc = e->out_c;
        ph = e->out_h;
        pw = e->out_w;
    }
    if (p->out_c != pc || p->out_h != ph || p->out_w != pw || p->macs != macs ||
        p->work_bytes != work)
        __builtin_trap();
}

static void run(const uint8_t *data, size_t size, int dims) {
    wai_model m;
    wai_status st = wai_model_parse(NULL, data, size, dims, &m);
    if (st != WAI_ok) {
        if (st != WAI_model_mismatch || m.storage || m.layers) __builtin_trap();
        return;
    }
    uint8_t *back;
    size_t back_len;
    if (wai_model_write(NULL, &m, &back, &back_len) != WAI_ok || back_len != size ||
        memcmp(back, data, size) != 0)
        __builtin_trap();
    wai_free(NULL, back);

    wai_sums s;
    if (wai_sums_compute(NULL, &m, &s) != WAI_ok || s.n_layers != m.n_layers)
        __builtin_trap();
    wai_sums_free(NULL, &s);

    /* The first layer's channels, so that some plans get past rule 1. */
    uint32_t c = 3;
    if (m.n_layers) c = m.layers[0].kind == WAI_LAYER_IGDN ? m.layers[0].c : m.layers[0].cin;
    if (c == 0) c = 1;
    static const uint32_t shapes[][2] = {{1, 1}, {4, 4}, {3, 7}, {16, 9}, {1, 64}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        uint32_t h = dims == 1 ? 1 : shapes[i][0], w = shapes[i][1];
        wai_plan p;
        st = wai_plan_model(NULL, &m, c, h, w, &p);
        if (st == WAI_ok) {
            check_plan(&m, &p, c, h, w);
            wai_plan_free(NULL, &p);
        } else if ((st != WAI_model_mismatch && st != WAI_too_large) || p.layers) {
            __builtin_trap();
        }
    }
    wai_model_free(NULL, &m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run(data, size, 2);
    run(data, size, 1);
    return 0;
}
