/* SPDX-License-Identifier: BSD-2-Clause */
/* The gpu/wgsl/integer path in the page (docs/wgsl.md): a backend on an
 * integer path (include/wai/wai_backend.h) whose networks the page's
 * WebGPU runs, through three functions the module imports from "wai"
 * (web/src/wasm.js, web/src/wgsl.js). gpu_network waits on the GPU: the
 * page calls the decode through JSPI (WebAssembly.promising), so the
 * module's stack is suspended meanwhile. Everything but the network runs
 * here, in libwai's C: the known-answer check, the bounds, the output. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "wai/wai_backend.h"
#include "wai_web.h"

#define IMPORT(name) __attribute__((import_module("wai"), import_name(#name)))

/* 0: done (output and amax[1..] written); 2: out of memory; else failed. */
IMPORT(gpu_network) int wai_js_gpu_network(const uint32_t *description);
/* A program's handle (0: none could be had); its kept parameters go with
 * gpu_program_close. */
IMPORT(gpu_program_open) uint32_t wai_js_gpu_program_open(void);
IMPORT(gpu_program_close) void wai_js_gpu_program_close(uint32_t program);

/* The description's words (web/src/wgsl.js, readJob). */
enum { HEAD_WORDS = 10, LAYER_WORDS = 24 };

static uint32_t ptr(const void *p) { return (uint32_t)(uintptr_t)p; }

static void describe_layer(const wai_network_layer *l, uint32_t dims, uint32_t *v) {
    memset(v, 0, LAYER_WORDS * sizeof *v);
    v[0] = l->kind, v[1] = l->cin, v[2] = l->cout, v[3] = l->k, v[4] = l->stride;
    v[5] = l->pad, v[6] = l->opad, v[7] = l->c, v[8] = l->lshift;
    v[9] = (uint32_t)(uint64_t)l->slope, v[10] = (uint32_t)((uint64_t)l->slope >> 32);
    v[11] = ptr(l->weights), v[12] = ptr(l->mult), v[13] = ptr(l->bias);
    v[14] = ptr(l->gamma), v[15] = ptr(l->beta);
    v[16] = l->in_c, v[17] = l->in_h, v[18] = l->in_w;
    v[19] = l->out_c, v[20] = l->out_h, v[21] = l->out_w;
    /* The weights: at most the module's memory, so 32 bits hold the count. */
    v[22] = l->cin * l->cout * l->k * (dims == 1 ? 1 : l->k);
    if (l->kind == 5) { /* int_synth's: i32 weights and biases, its shift and ReLU */
        v[11] = ptr(l->weights32), v[13] = ptr(l->bias32);
        v[8] = l->synth_shift, v[7] = l->relu;
    }
}

static wai_status network(void *self, void *program, wai_network_job *job) {
    (void)self;
    uint32_t *d = malloc(((size_t)HEAD_WORDS + (size_t)LAYER_WORDS * job->n_layers) * sizeof *d);
    if (!d) return WAI_out_of_memory;
    const uint32_t head[HEAD_WORDS] = {ptr(program),     ptr(job->network), job->dims,
                                       job->afrac,       job->gf,           job->shift,
                                       job->n_layers,    ptr(job->input),   ptr(job->output),
                                       ptr(job->amax)};
    memcpy(d, head, sizeof head);
    for (uint32_t i = 0; i < job->n_layers; i++)
        describe_layer(&job->layers[i], job->dims, d + HEAD_WORDS + (size_t)LAYER_WORDS * i);
    int r = wai_js_gpu_network(d);
    free(d);
    return r == 0 ? WAI_ok : r == 2 ? WAI_out_of_memory : WAI_dispatch_backend_failed;
}

static wai_status program_open(void *self, const wai_set *set, const wai_capability *cap,
                               void **program) {
    (void)self, (void)set, (void)cap;
    uint32_t id = wai_js_gpu_program_open();
    *program = (void *)(uintptr_t)id;
    return id ? WAI_ok : WAI_dispatch_backend_failed;
}

static void program_close(void *self, void *program) {
    (void)self;
    wai_js_gpu_program_close(ptr(program));
}

static const wai_backend_ops wgsl = {
    .name = "wgsl",
    .path = {WAI_UNIT_GPU, WAI_BACKEND_WGSL, WAI_ARITHMETIC_INTEGER},
    .program_open = program_open,
    .program_close = program_close,
    .network = network,
};

/* A context whose decodes offer the page's GPU: made only where the page
 * has a WebGPU device and JSPI, and decoded through only by the promising
 * send (wai_web_decoder_send, wrapped). One thread, as every page context. */
EXPORT(wai_web_context_create_gpu) wai_context *wai_web_context_create_gpu(void) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = 1;
    wai_context *c = NULL;
    if (wai_context_create(&s, &c) != WAI_ok) return NULL;
    if (wai_context_add_backend(c, &wgsl) != WAI_ok) {
        wai_context_destroy(c);
        return NULL;
    }
    return c;
}
