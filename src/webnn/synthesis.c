/* See synthesis.h. */
#include "webnn/synthesis.h"

#include <math.h>
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "common/json.h"
#include "webnn/ml.h"

wai_status wai_ml_synthesis_channels(const wai_allocator *a, const uint8_t *program, size_t len,
                                     uint32_t *m) {
    wai_json_doc *doc;
    wai_json_error e = wai_json_parse(a, program, len, &doc, NULL);
    if (e == WAI_JSON_E_NOMEM) return WAI_out_of_memory;
    if (e != WAI_JSON_OK) return WAI_dispatch_shape_mismatch;
    wai_status st = WAI_dispatch_shape_mismatch;
    const wai_json_value *in = wai_json_object_get(wai_json_root(doc), "inputs");
    uint64_t c;
    if (in && wai_json_type_of(in) == WAI_JSON_OBJECT && wai_json_object_len(in) == 1) {
        const wai_json_value *shape = wai_json_object_get(wai_json_object_value_at(in, 0, NULL, NULL),
                                                          "shape");
        if (shape && wai_json_array_len(shape) == 4 &&
            wai_json_get_u64(wai_json_array_at(shape, 1), &c) && c >= 1 && c <= UINT32_MAX) {
            *m = (uint32_t)c;
            st = WAI_ok;
        }
    }
    wai_json_free(doc);
    return st;
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

wai_status wai_ml_synthesis_rgb8(wai_context *ctx, const wai_ml_synthesis_args *g, uint8_t *rgb) {
    const wai_allocator *a = &ctx->alloc;
    const size_t positions = (size_t)g->lh * g->lw, n_lat = (size_t)g->m * positions;
    const size_t oh = (size_t)g->lh * 16, ow = (size_t)g->lw * 16, n_out = 3 * oh * ow;
    float *lat = wai_alloc_array(a, n_lat, sizeof *lat);
    float *x = wai_alloc_array(a, n_out, sizeof *x);
    wai_ml_context *c = NULL;
    wai_ml_graph *graph = NULL;
    wai_ml_tensor *tin = NULL, *tout = NULL;
    wai_status st = lat && x ? WAI_ok : WAI_out_of_memory;
    if (st != WAI_ok) goto done;
    for (uint32_t ch = 0; ch < g->m; ch++) {
        float med;
        memcpy(&med, &g->median_bits[ch], 4);
        for (size_t i = 0; i < positions; i++)
            lat[ch * positions + i] = (float)g->symbols[ch * positions + i] + med;
    }
    if ((st = wai_ml_create_context(ctx, NULL, &c)) != WAI_ok) goto done;
    const wai_ml_named_descriptor in = {NULL, {WAI_ML_FLOAT32, 4, {1, g->m, g->lh, g->lw}}};
    wai_ml_named_descriptor over = in;
    /* The description's one input, whatever its name, gets the latent's
     * shape: its name comes from the text (a graph built as written to ask
     * it would read the weights twice). */
    {
        wai_json_doc *doc;
        wai_json_error e = wai_json_parse(a, g->program, g->program_len, &doc, NULL);
        if (e != WAI_JSON_OK) {
            st = e == WAI_JSON_E_NOMEM ? WAI_out_of_memory : WAI_dispatch_backend_failed;
            goto done;
        }
        const wai_json_value *inputs = wai_json_object_get(wai_json_root(doc), "inputs");
        if (!inputs || wai_json_type_of(inputs) != WAI_JSON_OBJECT ||
            wai_json_object_len(inputs) != 1) {
            wai_json_free(doc);
            st = WAI_dispatch_backend_failed;
            goto done;
        }
        wai_json_object_value_at(inputs, 0, &over.name, NULL);
        st = wai_ml_graph_from_json(c, g->program, g->program_len, g->weights, g->weights_len,
                                    &over, 1, &graph);
        wai_json_free(doc);
    }
    if (st != WAI_ok) {
        st = st == WAI_out_of_memory ? st : WAI_dispatch_backend_failed;
        goto done;
    }
    const wai_ml_operand_descriptor *od;
    const char *in_name = wai_ml_graph_input_at(graph, 0, NULL), *out_name;
    if (wai_ml_graph_input_count(graph) != 1 || wai_ml_graph_output_count(graph) != 1 ||
        !(out_name = wai_ml_graph_output_at(graph, 0, &od)) || od->data_type != WAI_ML_FLOAT32 ||
        od->rank != 4 || od->shape[0] != 1 || od->shape[1] != 3 || od->shape[2] != oh ||
        od->shape[3] != ow) {
        st = WAI_dispatch_backend_failed;
        goto done;
    }
    const wai_ml_tensor_descriptor tin_d = {in.desc, 0, 1}, tout_d = {*od, 1, 0};
    if ((st = wai_ml_create_tensor(c, &tin_d, &tin)) != WAI_ok ||
        (st = wai_ml_create_tensor(c, &tout_d, &tout)) != WAI_ok ||
        (st = wai_ml_write_tensor(c, tin, lat, n_lat * 4)) != WAI_ok) {
        st = st == WAI_out_of_memory ? st : WAI_dispatch_backend_failed;
        goto done;
    }
    const wai_ml_named_tensor ins[1] = {{in_name, tin}}, outs[1] = {{out_name, tout}};
    if ((st = wai_ml_dispatch(c, graph, ins, 1, outs, 1)) != WAI_ok ||
        (st = wai_ml_read_tensor(c, tout, x, n_out * 4)) != WAI_ok) {
        st = st == WAI_out_of_memory ? st : WAI_dispatch_backend_failed;
        goto done;
    }
    /* The picture: the top-left height x width of each plane, interleaved. */
    for (size_t y = 0; y < g->height; y++)
        for (size_t xx = 0; xx < g->width; xx++)
            for (size_t ch = 0; ch < 3; ch++)
                rgb[(y * g->width + xx) * 3 + ch] = rgb8(x[(ch * oh + y) * ow + xx]);
done:
    wai_ml_context_destroy(c);
    wai_free(a, lat);
    wai_free(a, x);
    return st;
}
