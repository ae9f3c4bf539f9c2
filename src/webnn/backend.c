/* SPDX-License-Identifier: BSD-2-Clause */
/* The native WebNN as a backend (include/wai/wai_webnn.h): cpu/webnn/float
 * for a latent capability. One ML context per wai_context, made at the
 * first run (never for a decode the dispatch refuses before it runs); the
 * set's program opened once per loaded set; its graph built once per
 * latent shape and kept with the program, so a run of decodes of one size
 * builds it once. An ML context is one caller's at a time: runs take the
 * backend's lock (decoders of one context on several threads wait). */
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/lock.h"
#include "webnn/ml.h"

typedef struct backend {
    wai_context *ctx;
    const wai_allocator *alloc;
    wai_ml_context *ml;           /* made at the first run */
    wai_webnn_backend_stats stats;
    wai_lock lock;                /* held through a run */
} backend;

/* A set's program, and the graph of the last latent shape it ran. */
typedef struct program {
    wai_webnn_program *desc;
    wai_ml_graph *graph;
    uint32_t shape[3];            /* the graph's latent: channels, height, width */
    wai_ml_tensor *in, *out;      /* tensors of the graph's shapes */
    const char *out_name;
    uint32_t oh, ow;              /* the output planes */
} program;

static wai_status create(wai_context *ctx, void **self) {
    const wai_allocator *a = wai_context_allocator(ctx);
    backend *b = wai_alloc_zeroed(a, 1, sizeof *b);
    if (!b) return WAI_out_of_memory;
    if (!wai_lock_init(&b->lock)) {
        wai_free(a, b);
        return WAI_out_of_memory;
    }
    b->ctx = ctx;
    b->alloc = a;
    *self = b;
    return WAI_ok;
}

static void destroy(void *self) {
    backend *b = self;
    wai_ml_context_destroy(b->ml);
    wai_lock_destroy(&b->lock);
    wai_free(b->alloc, b);
}

static wai_status program_open(void *self, const wai_set *set, const wai_capability *cap,
                               void **out) {
    (void)cap;
    backend *b = self;
    program *p = wai_alloc_zeroed(b->alloc, 1, sizeof *p);
    if (!p) return WAI_out_of_memory;
    wai_status st = wai_webnn_program_open(b->alloc, set, &p->desc);
    if (st != WAI_ok) {
        wai_free(b->alloc, p);
        return st;
    }
    *out = p;
    return WAI_ok;
}

static void drop_graph(program *p) {
    wai_ml_tensor_destroy(p->in);
    wai_ml_tensor_destroy(p->out);
    wai_ml_graph_destroy(p->graph);
    p->in = p->out = NULL;
    p->graph = NULL;
}

static void program_close(void *self, void *prog) {
    backend *b = self;
    program *p = prog;
    drop_graph(p);
    wai_webnn_program_destroy(p->desc);
    wai_free(b->alloc, p);
}

static wai_status shape(void *self, void *prog, const wai_latent_job *job) {
    (void)self;
    return wai_webnn_program_shape(((program *)prog)->desc, job);
}

/* What a run of p's graph holds: the graph (its constants and arena), its
 * input and output tensors, and the run's copies of both. */
static uint64_t run_bytes(const program *p) {
    const uint64_t in = wai_sat_mul(4, wai_sat_mul3(p->shape[0], p->shape[1], p->shape[2])),
                   out = wai_sat_mul(4, wai_sat_mul3(3, p->oh, p->ow));
    return wai_sat_add(wai_ml_graph_bytes(p->graph), wai_sat_mul(2, wai_sat_add(in, out)));
}

/* The graph's limit for a job: what its max_memory leaves beside the
 * run's tensors and their copies, for the graph's constants, arena, what
 * its kernels keep and a run's temporaries (each counted before it is
 * allocated: a run past it stops with cost_over_limit). */
static void limit_graph(program *p, uint64_t max_memory) {
    const uint64_t tensors = run_bytes(p) - wai_ml_graph_bytes(p->graph);
    p->graph->limit = max_memory > tensors ? max_memory - tensors : 0;
}

/* The graph of the job's latent shape: the one kept, or a new one (the
 * description's input given the latent's shape), within the job's
 * max_memory: the constants as they are read, the rest before the first
 * run allocates it (cost_over_limit past it). A kept graph is held to
 * each job's limit. */
static wai_status graph_for(backend *b, program *p, const wai_latent_job *g) {
    if (p->graph && p->shape[0] == g->channels && p->shape[1] == g->height &&
        p->shape[2] == g->width) {
        if (run_bytes(p) > g->max_memory) return WAI_cost_over_limit;
        limit_graph(p, g->max_memory);
        return WAI_ok;
    }
    drop_graph(p);
    const uint8_t *text, *weights;
    size_t tlen, wlen;
    if (wai_set_find(g->set, WAI_WEBNN_PROGRAM_MEMBER, &text, &tlen) != WAI_ok ||
        wai_set_find(g->set, WAI_WEBNN_WEIGHTS_MEMBER, &weights, &wlen) != WAI_ok)
        return WAI_dispatch_backend_failed;
    const wai_ml_named_descriptor in = {wai_webnn_program_input(p->desc, NULL),
                                        {WAI_ML_FLOAT32, 4, {1, g->channels, g->height, g->width}}};
    wai_status st = wai_ml_graph_from_json_within(b->ml, text, tlen, weights, wlen, &in, 1,
                                                  g->max_memory, &p->graph);
    if (st != WAI_ok) return st;
    b->stats.graphs++;
    const wai_ml_operand_descriptor *od;
    if (wai_ml_graph_input_count(p->graph) != 1 || wai_ml_graph_output_count(p->graph) != 1 ||
        !(p->out_name = wai_ml_graph_output_at(p->graph, 0, &od)) ||
        od->data_type != WAI_ML_FLOAT32 || od->rank != 4 || od->shape[0] != 1 ||
        od->shape[1] != 3 || od->shape[2] < g->picture_height || od->shape[3] < g->picture_width) {
        drop_graph(p);
        return WAI_dispatch_backend_failed;
    }
    p->oh = od->shape[2];
    p->ow = od->shape[3];
    p->shape[0] = g->channels, p->shape[1] = g->height, p->shape[2] = g->width;
    if (run_bytes(p) > g->max_memory) {
        drop_graph(p);
        return WAI_cost_over_limit;
    }
    limit_graph(p, g->max_memory);
    const wai_ml_tensor_descriptor tin = {in.desc, 0, 1}, tout = {*od, 1, 0};
    if ((st = wai_ml_create_tensor(b->ml, &tin, &p->in)) != WAI_ok ||
        (st = wai_ml_create_tensor(b->ml, &tout, &p->out)) != WAI_ok) {
        drop_graph(p);
        return st;
    }
    return WAI_ok;
}

/* The latent in, the graph, the planes out, the picture. A failure of
 * WebNN's is the backend's (the dispatch tries the next path); running
 * out of memory is not. */
static wai_status run_locked(backend *b, program *p, wai_latent_job *g) {
    wai_status st = WAI_ok;
    if (!b->ml) {
        if ((st = wai_ml_create_context(b->ctx, NULL, &b->ml)) != WAI_ok)
            return st == WAI_out_of_memory ? st : WAI_dispatch_backend_failed;
        b->stats.contexts++;
    }
    const size_t n_lat = (size_t)g->channels * g->height * g->width;
    float *lat = NULL, *x = NULL;
    if ((st = graph_for(b, p, g)) != WAI_ok) goto done;
    const size_t n_out = (size_t)3 * p->oh * p->ow;
    lat = wai_alloc_array(b->alloc, n_lat, sizeof *lat);
    x = wai_alloc_array(b->alloc, n_out, sizeof *x);
    if (!lat || !x) {
        st = WAI_out_of_memory;
        goto done;
    }
    const wai_ml_named_tensor ins[1] = {{wai_webnn_program_input(p->desc, NULL), p->in}},
                              outs[1] = {{p->out_name, p->out}};
    if ((st = wai_webnn_latent(g, lat, n_lat)) != WAI_ok ||
        (st = wai_ml_write_tensor(b->ml, p->in, lat, n_lat * sizeof *lat)) != WAI_ok ||
        (st = wai_ml_dispatch(b->ml, p->graph, ins, 1, outs, 1)) != WAI_ok ||
        (st = wai_ml_read_tensor(b->ml, p->out, x, n_out * sizeof *x)) != WAI_ok) {
        /* A run past the limit (a kernel's memory, counted as it asked):
         * the graph goes, with what its kernels kept. */
        if (st == WAI_cost_over_limit) drop_graph(p);
        goto done;
    }
    st = wai_webnn_picture(g, x, p->oh, p->ow);
    b->stats.runs++;
done:
    wai_free(b->alloc, lat);
    wai_free(b->alloc, x);
    return st == WAI_ok || st == WAI_out_of_memory || st == WAI_cost_over_limit
               ? st
               : WAI_dispatch_backend_failed;
}

static wai_status run(void *self, void *prog, wai_latent_job *g) {
    backend *b = self;
    wai_lock_take(&b->lock);
    wai_status st = run_locked(b, prog, g);
    wai_lock_give(&b->lock);
    return st;
}

static const char *const members[] = {WAI_WEBNN_PROGRAM_MEMBER, WAI_WEBNN_WEIGHTS_MEMBER,
                                      NULL};

static const wai_backend_ops webnn_cpu = {
    .name = "webnn",
    .path = {WAI_UNIT_CPU, WAI_BACKEND_WEBNN, WAI_ARITHMETIC_FLOAT},
    .program_members = members,
    .create = create,
    .destroy = destroy,
    .program_open = program_open,
    .program_close = program_close,
    .shape = shape,
    .run = run,
};

const wai_backend_ops *wai_webnn_backend(void) { return &webnn_cpu; }

wai_status wai_webnn_backend_stats_of(const wai_context *ctx, wai_webnn_backend_stats *out) {
    backend *b = wai_context_backend(ctx, &webnn_cpu);
    if (!b || !out) return WAI_invalid_argument;
    wai_lock_take(&b->lock);
    *out = b->stats;
    wai_lock_give(&b->lock);
    return WAI_ok;
}
