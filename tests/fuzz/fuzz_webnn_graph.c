/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: graph descriptions (docs/webnn.md, "Graph descriptions").
 *
 * Input: two bytes giving the weights file's length in floats (its values
 * a fixed pattern), then the description's text.
 *
 * Invariants: the reader and the builder refuse with a WebNN status (or
 * out_of_memory past the heap's ceiling), never a crash; a graph built
 * has valid descriptors for its inputs and outputs, builds the same on the
 * reference kernels, and, when small, computes on both kernel sets. The
 * same text as a set's latent program (wai_webnn_program_open, which reads
 * its one input) opens or is dispatch_program_absent (out_of_memory past
 * the ceiling); opened, it names its input and at least one channel. */
#include <string.h>

#include "wai/wai_set.h"
#include "webnn_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The weights file: up to 16 KB. Its length is what the reader checks a
 * constant's range against; the set's member is hashed as it is added,
 * and at up to 64 KB that hash was a third of the target's time. */
#define MAX_WEIGHTS 4096

static void program_checks(wai_context *ctx, const uint8_t *text, size_t len,
                           const float *weights, size_t n_weights) {
    wai_set *set;
    if (wai_set_create(ctx, &set) != WAI_ok) return; /* past the ceiling */
    if (wai_set_add_borrowed(set, "decoder.webnn.json", text, len) == WAI_ok &&
        wai_set_add_borrowed(set, "decoder.f32", (const uint8_t *)weights, 4 * n_weights) ==
            WAI_ok) {
        wai_webnn_program *p = NULL;
        wai_status st = wai_webnn_program_open(wai_context_allocator(ctx), set, &p);
        if (st != WAI_ok && st != WAI_dispatch_program_absent && st != WAI_out_of_memory)
            __builtin_trap();
        if ((st == WAI_ok) != (p != NULL)) __builtin_trap();
        uint32_t channels = 0;
        if (p && (!wai_webnn_program_input(p, &channels) || channels < 1)) __builtin_trap();
        wai_webnn_program_destroy(p);
    }
    wai_set_destroy(set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static float weights[MAX_WEIGHTS];
    if (size < 2) return 0;
    if (weights[1] == 0)
        for (int i = 0; i < MAX_WEIGHTS; i++) weights[i] = (float)((i * 37) % 101 - 50) / 64.0f;
    size_t n_weights = ((size_t)data[0] | (size_t)data[1] << 8) % (MAX_WEIGHTS + 1);
    fuzz_heap *heap;
    wai_context *ctx = fuzz_heap_held_context((size_t)256 << 20, &heap);
    const size_t held = heap->live;
    wai_ml_context *c[2] = {NULL, NULL};
    wai_ml_context_options o;
    for (int k = 0; k < 2; k++) {
        wai_ml_context_options_default(&o);
        o.kernels = k ? WAI_ML_KERNELS_REFERENCE : WAI_ML_KERNELS_BEST;
        if (wai_ml_create_context(ctx, &o, &c[k]) != WAI_ok) __builtin_trap();
    }
    wai_ml_graph *g[2] = {NULL, NULL};
    wai_status st[2];
    for (int k = 0; k < 2; k++) {
        st[k] = wai_ml_graph_from_json(c[k], data + 2, size - 2, (const uint8_t *)weights,
                                       4 * n_weights, NULL, 0, &g[k]);
        fuzz_expect_webnn(st[k]);
        if ((st[k] == WAI_ok) != (g[k] != NULL)) __builtin_trap();
    }
    /* The kernels do not change what builds (out of memory aside). */
    if (st[0] != st[1] && st[0] != WAI_out_of_memory && st[1] != WAI_out_of_memory)
        __builtin_trap();
    if (g[0] && g[1]) {
        for (size_t i = 0; i < wai_ml_graph_input_count(g[0]); i++) {
            const wai_ml_operand_descriptor *d;
            wai_ml_graph_input_at(g[0], i, &d);
            fuzz_expect_descriptor(d);
        }
        for (size_t i = 0; i < wai_ml_graph_output_count(g[0]); i++) {
            const wai_ml_operand_descriptor *d;
            wai_ml_graph_output_at(g[0], i, &d);
            fuzz_expect_descriptor(d);
        }
        for (int k = 0; k < 2; k++) fuzz_run_small(c[k], g[k], (uint32_t)size);
    }
    for (int k = 0; k < 2; k++) wai_ml_context_destroy(c[k]);
    program_checks(ctx, data + 2, size - 2, weights, n_weights);
    if (heap->live != held) __builtin_trap(); /* everything given back */
    return 0;
}
