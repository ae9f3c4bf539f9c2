/* SPDX-License-Identifier: BSD-2-Clause */
/* A latent capability's program on WebNN, the steps beside the graph
 * (include/wai/wai_webnn.h): the set's description read once, its checks
 * (neural-dispatch §4 step 2), the latent from the symbols and the RGB8
 * picture from the output planes (docs/bmshj2018.md, B4). The native
 * backend (backend.c) and a page (web/glue/float_path.c) run this same C. */
#include <math.h>
#include <string.h>

#include "common/alloc.h"
#include "common/json.h"
#include "webnn/ml.h"

struct wai_webnn_program {
    wai_allocator alloc;
    char *input;           /* the description's one input */
    uint32_t channels;     /* its shape's second dimension */
};

/* The one input's name and channels; 0 when the description has none such. */
static int read_input(const wai_json_value *root, const char **name, uint32_t *channels) {
    const wai_json_value *in = wai_json_object_get(root, "inputs");
    const wai_json_value *out = wai_json_object_get(root, "outputs");
    if (!in || wai_json_type_of(in) != WAI_JSON_OBJECT || wai_json_object_len(in) != 1 ||
        !out || wai_json_type_of(out) != WAI_JSON_OBJECT || wai_json_object_len(out) != 1)
        return 0;
    const wai_json_value *shape =
        wai_json_object_get(wai_json_object_value_at(in, 0, name, NULL), "shape");
    uint64_t c;
    if (!shape || wai_json_array_len(shape) != 4 ||
        !wai_json_get_u64(wai_json_array_at(shape, 1), &c) || c < 1 || c > UINT32_MAX)
        return 0;
    *channels = (uint32_t)c;
    return 1;
}

wai_status wai_webnn_program_open(const wai_allocator *alloc, const wai_set *set,
                                  wai_webnn_program **out) {
    if (!set || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_allocator a;
    wai_allocator_resolve(alloc, &a);
    const uint8_t *text, *w;
    size_t len, wlen;
    if (wai_set_find(set, WAI_WEBNN_PROGRAM_MEMBER, &text, &len) != WAI_ok ||
        wai_set_find(set, WAI_WEBNN_WEIGHTS_MEMBER, &w, &wlen) != WAI_ok)
        return WAI_dispatch_program_absent;
    wai_json_doc *doc;
    wai_json_error e = wai_json_parse(&a, text, len, &doc, NULL);
    if (e == WAI_JSON_E_NOMEM) return WAI_out_of_memory;
    if (e != WAI_JSON_OK) return WAI_dispatch_program_absent;
    const char *name;
    uint32_t channels;
    wai_status st = WAI_dispatch_program_absent;
    if (read_input(wai_json_root(doc), &name, &channels)) {
        size_t n = strlen(name) + 1;
        wai_webnn_program *p = wai_alloc_zeroed(&a, 1, sizeof *p);
        char *copy = wai_alloc(&a, n);
        if (p && copy) {
            memcpy(copy, name, n);
            p->alloc = a;
            p->input = copy;
            p->channels = channels;
            *out = p;
            st = WAI_ok;
        } else {
            wai_free(&a, p);
            wai_free(&a, copy);
            st = WAI_out_of_memory;
        }
    }
    wai_json_free(doc);
    return st;
}

void wai_webnn_program_destroy(wai_webnn_program *p) {
    if (!p) return;
    wai_allocator a = p->alloc;
    wai_free(&a, p->input);
    wai_free(&a, p);
}

const char *wai_webnn_program_input(const wai_webnn_program *p, uint32_t *channels) {
    if (!p) return NULL;
    if (channels) *channels = p->channels;
    return p->input;
}

wai_status wai_webnn_program_shape(const wai_webnn_program *p, const wai_latent_job *job) {
    if (!p || !job) return WAI_invalid_argument;
    return p->channels == job->channels ? WAI_ok : WAI_dispatch_shape_mismatch;
}

wai_status wai_webnn_latent(const wai_latent_job *g, float *out, size_t n) {
    if (!g || !g->symbols || !g->offsets || !out || !g->channels) return WAI_invalid_argument;
    const size_t positions = (size_t)g->height * g->width;
    if (n / g->channels < positions) return WAI_invalid_argument;
    for (uint32_t ch = 0; ch < g->channels; ch++) {
        float med;
        memcpy(&med, &g->offsets[ch], 4);
        for (size_t i = 0; i < positions; i++)
            out[ch * positions + i] = (float)g->symbols[ch * positions + i] + med;
    }
    return WAI_ok;
}

/* B4: 0 for NaN and at or below 0, 255 at or above 1, else
 * floor(v * 255 + 0.5), each step in float32. */
static uint8_t rgb8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    float s = v * 255.0f;
    s = s + 0.5f;
    return (uint8_t)floorf(s);
}

wai_status wai_webnn_picture(wai_latent_job *g, const float *x, uint32_t oh, uint32_t ow) {
    if (!g || !g->rgb || !x || oh < g->picture_height || ow < g->picture_width)
        return WAI_invalid_argument;
    /* The top-left height x width of each plane, interleaved. */
    for (size_t y = 0; y < g->picture_height; y++)
        for (size_t xx = 0; xx < g->picture_width; xx++)
            for (size_t ch = 0; ch < 3; ch++)
                g->rgb[(y * g->picture_width + xx) * 3 + ch] =
                    rgb8(x[(ch * oh + y) * (size_t)ow + xx]);
    return WAI_ok;
}
