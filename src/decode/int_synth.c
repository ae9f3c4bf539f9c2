/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.int_synth (int_synth.h). One decode, top to bottom:
 *   parse    the 12-byte header and the latents (formats/int_synth.c)
 *   set      int_synth.json read, chained and certified once (the cache)
 *   prepare  layer 0 takes the payload's C; each layer's uncropped side
 *            and plane within 2^26, its crop leaves at least one row; the
 *            output [3, H, W] (reading S4); the declared cost (S5)
 *   run      the layers (ops/synth_convt.c), then bytes clamp(Y, 0, 255),
 *            row-major HWC */
#include "decode/int_synth.h"

#include <string.h>

#include "backend/network_job.h"
#include "common/alloc.h"
#include "common/checked.h"
#include "formats/int_synth_payload.h"
#include "ops/synth_convt.h"
#include "sets/int_synth_json.h"


/* ---- the set ------------------------------------------------------------------- */

static void model_free(const wai_allocator *a, void *p) {
    wai_synth_model_free(a, p);
    wai_free(a, p);
}

/* The row's one member: int_synth.json. */
wai_status wai_int_synth_load_set(const wai_allocator *a, const wai_set *set,
                                  const char *const *members, wai_loaded_set *l) {
    const uint8_t *text;
    size_t len;
    if (wai_set_find(set, members[0], &text, &len) != WAI_ok) return WAI_set_incomplete;
    wai_synth_model *m = wai_loaded_own(a, l, sizeof *m, model_free);
    if (!m) return WAI_out_of_memory;
    return wai_synth_model_read(a, text, len, m);
}

/* ---- the codec ------------------------------------------------------------------ */

typedef struct synth_job {
    wai_int_synth_payload p;
    uint64_t largest;  /* the most i64 values a layer's input and output hold at once */
} synth_job;

_Static_assert(sizeof(synth_job) <= WAI_JOB_STATE_BYTES, "synth_job fits a job");

static const wai_synth_model *model_of(const wai_job *j) {
    return WAI_LOADED(j->set, wai_synth_model);
}

static wai_status s_parse(wai_job *j, const uint8_t *data, size_t len) {
    return wai_int_synth_parse(data, len, &WAI_JOB_STATE(j, synth_job)->p);
}

static wai_status s_prepare(wai_job *j, const wai_allocator *a) {
    (void)a;
    synth_job *s = WAI_JOB_STATE(j, synth_job);
    const wai_synth_model *m = model_of(j);
    if (m->layers[0].in != s->p.c) return WAI_payload_malformed;
    uint64_t n = s->p.s, c = s->p.c, macs = 0;
    s->largest = 0;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_synth_layer *l = &m->layers[i];
        /* The uncropped side and plane, then the crop (reading S4). */
        const uint64_t hu = wai_sat_add(wai_sat_add(wai_sat_mul(n - 1, l->stride), l->k), l->out_pad);
        if (hu > WAI_CAP_ELEMENTS || wai_sat_mul3(l->out, hu, hu) > WAI_CAP_ELEMENTS)
            return WAI_payload_malformed;
        if (2 * (uint64_t)l->pad >= hu) return WAI_payload_malformed;
        const uint64_t next = hu - 2 * (uint64_t)l->pad;
        macs = wai_sat_add(macs, wai_sat_mul3(wai_sat_mul3(c, n, n), l->out, (uint64_t)l->k * l->k));
        const uint64_t held = wai_sat_add(wai_sat_mul3(c, n, n), wai_sat_mul3(l->out, next, next));
        if (held > s->largest) s->largest = held;
        n = next, c = l->out;
    }
    if (c != 3 || n != s->p.height || n != s->p.width) return WAI_payload_malformed;
    wai_cost *cost = &j->cost;
    cost->output_bytes = wai_sat_mul3(3, s->p.height, s->p.width);
    cost->entropy_steps = 0;
    cost->macs = macs;
    /* The output, and the two i64 tensors of the layer that holds most. */
    cost->working_bytes = wai_sat_add(cost->output_bytes, wai_sat_mul(8, s->largest));
    j->out.kind = WAI_OUTPUT_IMAGE;
    j->out.width = s->p.width;
    j->out.height = s->p.height;
    j->out.n = 1;
    j->out.bytes = (size_t)cost->output_bytes;
    return WAI_ok;
}

static wai_status s_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const synth_job *s = WAI_JOB_STATE(j, synth_job);
    const wai_synth_model *m = model_of(j);
    const wai_allocator *a = ex->alloc;
    /* One buffer: each layer's input at its start, its output right after
     * (both fit `largest`), then moved to the start for the next layer. */
    int64_t *buf = wai_alloc_array(a, (size_t)s->largest, 8);
    if (!buf) return WAI_out_of_memory;
    uint64_t n = s->p.s;
    const uint64_t c = s->p.c;
    for (uint64_t i = 0; i < c * n * n; i++) buf[i] = s->p.latents[i];
    wai_status st = wai_backend_synth(ex, m, c, n, buf, s->largest, &n);
    if (st != WAI_ok) {
        wai_free(a, buf);
        return st;
    }
    const int64_t *in = buf;
    /* [3, H, W] to row-major HWC bytes. */
    const uint64_t hw = n * n;
    for (uint64_t p = 0; p < hw; p++)
        for (uint64_t ch = 0; ch < 3; ch++) {
            const int64_t v = in[ch * hw + p];
            out[p * 3 + ch] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    wai_free(a, buf);
    j->out.data = out;
    return WAI_ok;
}

static void s_describe(const wai_job *j, wai_text *t) {
    wai_int_synth_describe(&WAI_JOB_STATE(j, const synth_job)->p, t);
}

const wai_codec_ops wai_int_synth_ops = {.parse = s_parse,
                                         .prepare = s_prepare,
                                         .run = s_run,
                                         .describe = s_describe};
