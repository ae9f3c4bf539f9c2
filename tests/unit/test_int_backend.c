/* SPDX-License-Identifier: BSD-2-Clause */
/* A backend on an integer path (include/wai/wai_backend.h, network): a
 * fake GPU that runs each network layer by layer on the reference
 * kernels, from the public job alone. Every neural corpus case decodes
 * through it to the corpus's bytes with the report naming it; a backend
 * that gives one wrong bit fails the known-answer check (backend/claim.h)
 * and the CPU runs, for the context's life; a device lost mid-decode
 * leaves the CPU to run it whole. libwai's own interpreter is such an
 * object too: registered first in every context, it claims the tier
 * through its public callback and, lent to the GPU path, decodes the
 * corpus from the public jobs alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "backend/claim.h"
#include "backend/interpreter.h"
#include "ops/bounds.h"
#include "ops/network.h"
#include "ops/plan.h"
#include "ops/synth_convt.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_hash.h"

typedef struct fake {
    int broken;     /* 1: the last output value's lowest bit flipped */
    int lose_at;    /* > 0: that run (counted from 1) reports a lost device */
    int runs, kat_runs, opened, closed;
} fake;

/* The layer a public view describes, pointing at its arrays. */
static wai_layer layer_of(const wai_network_layer *v, int dims) {
    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = (wai_layer_kind)v->kind;
    l.cin = v->cin, l.cout = v->cout, l.k = v->k, l.stride = v->stride, l.pad = v->pad;
    l.opad = v->opad, l.c = v->c, l.lshift = v->lshift, l.slope = v->slope;
    l.weights = (int16_t *)v->weights, l.mult = (int64_t *)v->mult, l.bias = (int64_t *)v->bias;
    l.gamma = (int32_t *)v->gamma, l.beta = (int64_t *)v->beta;
    if (l.kind == WAI_LAYER_CONV || l.kind == WAI_LAYER_CONV_T)
        l.n_weights = wai_layer_weight_count(&l, dims);
    return l;
}

/* One layer on the reference kernels; field_range past its bound (the
 * runner refuses there, from amax, before reading anything after). */
static wai_status one_layer(const wai_network_job *job, uint32_t i, const int64_t *x, int64_t *y) {
    const wai_network_layer *v = &job->layers[i];
    if (v->kind == 5) {
        wai_synth_layer sl = {v->cin,   v->cout, v->k, v->stride, v->pad, v->opad, v->synth_shift,
                              (int)v->relu, (int32_t *)v->weights32, (int32_t *)v->bias32};
        wai_synth_convt(NULL, &sl, x, v->in_h, y);
        return WAI_ok;
    }
    wai_layer l = layer_of(v, (int)job->dims);
    wai_model m = {(int)job->dims, job->afrac, job->gf, job->shift, 1, &l, NULL};
    wai_plan p;
    wai_sums s;
    memset(&s, 0, sizeof s);
    wai_status st = wai_plan_model(NULL, &m, v->in_c, v->in_h, v->in_w, &p);
    if (st == WAI_ok) st = wai_sums_compute(NULL, &m, &s);
    if (st == WAI_ok) st = wai_network_run(NULL, &wai_kernels_ref, &m, &s, &p, x, y);
    wai_sums_free(NULL, &s);
    wai_plan_free(NULL, &p);
    return st;
}

static wai_status fake_network(void *self, void *program, wai_network_job *job) {
    fake *f = self;
    if (program) f->runs++;
    else f->kat_runs++;
    if (f->lose_at && program && f->runs == f->lose_at) return WAI_dispatch_backend_failed;
    size_t cap = 0;
    for (uint32_t i = 0; i < job->n_layers; i++) {
        const wai_network_layer *v = &job->layers[i];
        size_t n = (size_t)v->out_c * v->out_h * v->out_w;
        if (n > cap) cap = n;
    }
    int64_t *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return WAI_out_of_memory;
    }
    const int64_t *x = job->input;
    wai_status st = WAI_ok;
    for (uint32_t i = 0; i < job->n_layers && st == WAI_ok; i++) {
        const wai_network_layer *v = &job->layers[i];
        int64_t *y = i % 2 ? b : a;
        if ((st = one_layer(job, i, x, y)) != WAI_ok) break;
        size_t n = (size_t)v->out_c * v->out_h * v->out_w;
        if (i + 1 < job->n_layers) job->amax[i + 1] = wai_max_abs_i64(y, n);
        else memcpy(job->output, y, n * sizeof *y);
        if (i + 1 == job->n_layers && f->broken && n) job->output[n - 1] ^= 1;
        x = y;
    }
    /* A layer past its bound leaves the rest unrun: the runner stops at it. */
    if (st == WAI_field_range) st = WAI_ok;
    free(a);
    free(b);
    return st;
}

static wai_status fake_create(wai_context *ctx, void **self) {
    (void)ctx;
    *self = calloc(1, sizeof(fake));
    return *self ? WAI_ok : WAI_out_of_memory;
}
static void fake_destroy(void *self) { free(self); }
static wai_status fake_open(void *self, const wai_set *set, const wai_capability *cap,
                            void **program) {
    (void)set, (void)cap;
    ((fake *)self)->opened++;
    *program = self;
    return WAI_ok;
}
static void fake_close(void *self, void *program) {
    (void)program;
    ((fake *)self)->closed++;
}

static const wai_backend_ops fake_wgsl = {
    .name = "fake-wgsl",
    .path = {WAI_UNIT_GPU, WAI_BACKEND_WGSL, WAI_ARITHMETIC_INTEGER},
    .create = fake_create,
    .destroy = fake_destroy,
    .program_open = fake_open,
    .program_close = fake_close,
    .network = fake_network,
};

static void test_registration(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_backend_ops bad = fake_wgsl;
    bad.network = NULL;
    CHECK(wai_context_add_backend(ctx, &bad) == WAI_invalid_argument);
    bad = fake_wgsl;
    bad.run = (wai_status (*)(void *, void *, wai_latent_job *))1; /* never called */
    CHECK(wai_context_add_backend(ctx, &bad) == WAI_invalid_argument);
    bad = fake_wgsl;
    bad.path.arithmetic = WAI_ARITHMETIC_FLOAT; /* a float path runs latents, not networks */
    CHECK(wai_context_add_backend(ctx, &bad) == WAI_invalid_argument);
    CHECK(wai_context_add_backend(ctx, &fake_wgsl) == WAI_ok);
    CHECK(wai_context_add_backend(ctx, &fake_wgsl) == WAI_invalid_argument);
    wai_context_destroy(ctx);
}

/* The known-answer networks run on the reference: every bound holds, and
 * the values reach past 2^32 (the widths the check is for). */
static void test_claim_networks(void) {
    static int64_t out[2048];
    for (int n = 0; n < 3; n++) {
        size_t count = 0;
        wai_status st = wai_claim_reference(NULL, n, out, &count);
        if (!CHECK_MSG(st == WAI_ok && count > 0, "network %d: %s", n, wai_status_name(st)))
            continue;
        uint64_t a = wai_max_abs_i64(out, count);
        int neg = 0;
        for (size_t i = 0; i < count; i++) neg |= out[i] < 0;
        if (n < 2)
            CHECK_MSG(a > (UINT64_C(1) << 32) && neg, "network %d: largest %llu", n,
                      (unsigned long long)a);
        else /* int_synth's last shift is 64: every value 0 or -1, both there */
            CHECK_MSG(a == 1 && neg && wai_max_abs_i64(out, count) == 1, "synth chain");
    }
}

/* Which path ran the decoder's last decode, and why the wgsl path did
 * not where it did not. */
static int ran_wgsl(const wai_decoder *d, wai_status *why) {
    const wai_dispatch_report *r = wai_decoder_dispatch_report(d);
    *why = WAI_ok;
    if (!r || !r->ran) return 0;
    for (size_t i = 0; i < r->n_refused; i++)
        if (r->refused[i].path.backend == WAI_BACKEND_WGSL) *why = r->refused[i].reason;
    return r->ran_path.backend == WAI_BACKEND_WGSL;
}

/* Decodes corpus case c on ctx (its set, its cost limit): the status, and
 * its outputs' SHA-256s joined by commas into hashes. The decoder is left
 * in *d for its report (the caller destroys it). */
static wai_status decode_case(wai_context *ctx, const corpus_line *c, wai_decoder **d,
                              char hashes[1024]) {
    size_t len;
    uint8_t *data = corpus_file(c->file, &len);
    wai_set *set = corpus_set(ctx, c->capability, c->set);
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = c->capability;
    cfg.set = set;
    if (strcmp(c->max_cost, "-") != 0) cfg.max_cost = strtoull(c->max_cost, NULL, 10);
    *d = NULL;
    hashes[0] = 0;
    wai_status st = data ? wai_decoder_create(ctx, &cfg, d) : WAI_io_error;
    if (st == WAI_ok) st = wai_decoder_send(*d, data, len, NULL);
    wai_output o;
    while (st == WAI_ok && wai_decoder_receive(*d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
        uint8_t h[32];
        char hex[65];
        wai_sha256_oneshot(o.data, o.size, h);
        wai_hex(h, 32, hex);
        if (hashes[0]) strcat(hashes, ",");
        if (strlen(hashes) + 65 < 1024) strcat(hashes, hex);
    }
    wai_set_destroy(set);
    free(data);
    return st;
}

/* The first int_hyper case of the corpus that decodes: 1 when found. */
static int first_hyper_case(corpus_line *c) {
    char *text = corpus_index();
    const char *at = text;
    int r, found = 0;
    while (text && !found && (r = corpus_next_neural(&at, c)) >= 0)
        found = r == 1 && !strcmp(c->status, "ok") && !strcmp(c->capability, "wai.neural.int_hyper");
    free(text);
    return found;
}

/* Every one-payload neural case that decodes, on ctx: the corpus's hashes,
 * the path that ran as want_wgsl says. The count of cases. */
static int corpus_through(wai_context *ctx, int want_wgsl, wai_status want_why) {
    char *text = corpus_index();
    const char *at = text;
    corpus_line c;
    int r, cases = 0;
    while (text && (r = corpus_next_neural_payload(&at, &c)) >= 0) {
        if (r == 0 || strcmp(c.mode, "decode") != 0) continue;
        wai_decoder *d;
        char hashes[1024];
        wai_status st = decode_case(ctx, &c, &d, hashes);
        const char *want_hash = strcmp(c.hash, "-") == 0 ? "" : c.hash;
        CHECK_MSG(strcmp(wai_status_name(st), c.status) == 0 && strcmp(hashes, want_hash) == 0,
                  "%s: %s, want %s", c.file, wai_status_name(st), c.status);
        if (st == WAI_ok && d) {
            wai_status why;
            int on = ran_wgsl(d, &why);
            CHECK_MSG(on == want_wgsl && why == want_why, "%s: wgsl %s, %s", c.file,
                      on ? "ran" : "did not run", wai_status_name(why));
            cases++;
        }
        wai_decoder_destroy(d);
    }
    free(text);
    return cases;
}

static void test_corpus_on_backend(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    CHECK(wai_context_add_backend(ctx, &fake_wgsl) == WAI_ok);
    fake *f = wai_context_backend(ctx, &fake_wgsl);
    int cases = corpus_through(ctx, 1, WAI_ok);
    CHECK_MSG(cases >= 15 && f->runs >= cases, "%d cases, %d runs", cases, f->runs);
    /* The known answer once, for the context's life (three networks). */
    CHECK_MSG(f->kat_runs == 3, "%d known-answer runs", f->kat_runs);
    CHECK(f->opened >= 1 && f->closed <= f->opened);
    wai_context_destroy(ctx);
}

static void test_broken_backend(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    CHECK(wai_context_add_backend(ctx, &fake_wgsl) == WAI_ok);
    fake *f = wai_context_backend(ctx, &fake_wgsl);
    f->broken = 1;
    int cases = corpus_through(ctx, 0, WAI_dispatch_backend_failed);
    CHECK(cases >= 15);
    /* Refused at its first known answer, never asked again, never run. */
    CHECK_MSG(f->kat_runs == 1 && f->runs == 0, "%d known-answer runs, %d runs", f->kat_runs,
              f->runs);
    wai_context_destroy(ctx);
}

/* A backend whose unit is not there for the decode: refused
 * dispatch_unit_absent before its claim is checked or a program opened. */
static wai_status unit_gone(void *self, const wai_path *path) {
    (void)self, (void)path;
    return WAI_dispatch_unit_absent;
}

static void test_unit_absent(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_backend_ops gone = fake_wgsl;
    gone.unit = unit_gone;
    CHECK(wai_context_add_backend(ctx, &gone) == WAI_ok);
    fake *f = wai_context_backend(ctx, &gone);
    int cases = corpus_through(ctx, 0, WAI_dispatch_unit_absent);
    CHECK(cases >= 15);
    CHECK_MSG(f->kat_runs == 0 && f->runs == 0 && f->opened == 0,
              "%d known-answer runs, %d runs, %d opened", f->kat_runs, f->runs, f->opened);
    wai_context_destroy(ctx);
}

static void test_lost_device(void) {
    wai_context *ctx;
    corpus_line c;
    if (!CHECK(first_hyper_case(&c)) || !CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    CHECK(wai_context_add_backend(ctx, &fake_wgsl) == WAI_ok);
    fake *f = wai_context_backend(ctx, &fake_wgsl);
    /* The second network of a two-network capability: lost mid-decode. */
    f->lose_at = 2;
    wai_decoder *d;
    char hashes[1024];
    wai_status st = decode_case(ctx, &c, &d, hashes);
    wai_status why;
    CHECK_MSG(st == WAI_ok && strncmp(hashes, c.hash, 64) == 0, "%s: %s", c.file,
              wai_status_name(st));
    CHECK(d && !ran_wgsl(d, &why) && why == WAI_dispatch_backend_failed);
    CHECK_MSG(f->runs == 2, "%d runs", f->runs);
    wai_decoder_destroy(d);
    wai_context_destroy(ctx);
}

#if defined(WAI_TEST_WRAP_PTHREAD)
#include <pthread.h>

/* One decode of the first int_hyper corpus case on a shared context. */
typedef struct racer {
    wai_context *ctx;
    const corpus_line *c;
    wai_status st;
    int same;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    wai_decoder *d;
    char hashes[1024];
    r->st = decode_case(r->ctx, r->c, &d, hashes);
    r->same = strncmp(hashes, r->c->hash, 64) == 0;
    wai_decoder_destroy(d);
    return NULL;
}
#endif

/* Decoders of one context on four threads: the backend is checked once,
 * under the registry's lock, and every decode gives the corpus's bytes. */
static void test_claim_once_across_threads(void) {
#if defined(WAI_TEST_WRAP_PTHREAD)
    corpus_line c;
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = 1;
    wai_context *ctx;
    if (!CHECK(first_hyper_case(&c)) || !CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return;
    CHECK(wai_context_add_backend(ctx, &fake_wgsl) == WAI_ok);
    fake *f = wai_context_backend(ctx, &fake_wgsl);
    racer rs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        rs[i] = (racer){ctx, &c, WAI_ok, 0};
        CHECK(pthread_create(&th[i], NULL, race, &rs[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(rs[i].st == WAI_ok && rs[i].same, "thread %d: %s", i, wai_status_name(rs[i].st));
    }
    CHECK_MSG(f->kat_runs == 3, "%d known-answer runs", f->kat_runs);
    wai_context_destroy(ctx);
#else
    harness_skip("this build has no threads to race the check");
#endif
}

/* The interpreter's callback with its last output value's lowest bit
 * flipped: the check must see it through the same object. */
static wai_status flipped_network(void *self, void *program, wai_network_job *job) {
    wai_status st = wai_backend_interpreter.network(self, program, job);
    const wai_network_layer *last = &job->layers[job->n_layers - 1];
    const size_t n = (size_t)last->out_c * last->out_h * last->out_w;
    if (st == WAI_ok && n) job->output[n - 1] ^= 1;
    return st;
}

static void test_interpreter_object(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    /* Every context's first backend, its instance the context. */
    CHECK(wai_context_backend(ctx, &wai_backend_interpreter) == ctx);
    wai_backend_ops again = wai_backend_interpreter;
    CHECK(wai_context_add_backend(ctx, &again) == WAI_invalid_argument);
    const wai_exec ex = {.alloc = wai_context_allocator(ctx)};
    CHECK(wai_claim_check(&ex, &wai_backend_interpreter, ctx) == WAI_ok);
    wai_backend_ops flipped = wai_backend_interpreter;
    flipped.network = flipped_network;
    CHECK(wai_claim_check(&ex, &flipped, ctx) == WAI_dispatch_backend_failed);
    wai_context_destroy(ctx);
}

/* The interpreter's ops on the GPU's integer path: every neural case
 * decodes through its public network callback to the corpus's bytes. */
static void test_corpus_on_interpreter_object(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_backend_ops lent = wai_backend_interpreter;
    lent.name = "wai-ops as wgsl";
    lent.path = (wai_path){WAI_UNIT_GPU, WAI_BACKEND_WGSL, WAI_ARITHMETIC_INTEGER};
    CHECK(wai_context_add_backend(ctx, &lent) == WAI_ok);
    int cases = corpus_through(ctx, 1, WAI_ok);
    CHECK_MSG(cases >= 15, "%d cases", cases);
    wai_context_destroy(ctx);
}

void suite_int_backend(void) {
    harness_run("int_backend/claim_once_across_threads", test_claim_once_across_threads);
    harness_run("int_backend/registration", test_registration);
    harness_run("int_backend/claim_networks", test_claim_networks);
    harness_run("int_backend/corpus", test_corpus_on_backend);
    harness_run("int_backend/broken", test_broken_backend);
    harness_run("int_backend/lost_device", test_lost_device);
    harness_run("int_backend/unit_absent", test_unit_absent);
    harness_run("int_backend/interpreter_object", test_interpreter_object);
    harness_run("int_backend/corpus_on_interpreter_object", test_corpus_on_interpreter_object);
}
