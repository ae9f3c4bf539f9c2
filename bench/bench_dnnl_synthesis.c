/* SPDX-License-Identifier: BSD-2-Clause */
/* The whole bmshj2018 synthesis on oneDNN called directly: the float peer
 * the native WebNN is held to (bench/bench_webnn_synthesis.sh), and the
 * whole-network float peer of the integer synthesis.
 *
 * The network of tools/bmshj2018/make_set.py's description at N 128, M 192:
 * four transposed convolutions (5 x 5, stride 2, padding 2, output padding
 * 1) and, between them, three inverse GDNs x * sqrt(conv1x1(x^2, gamma) +
 * beta). What an engineer writing it on oneDNN by hand would do: every
 * activation in the layout oneDNN's primitives choose (format_tag_any, the
 * channel-blocked one here), the square an eltwise primitive, sqrt and the
 * product post-ops of the 1 x 1 convolution, one reorder from the NCHW
 * latent in and one to the NCHW picture out; memories allocated and filters
 * reordered before timing. Timed: one whole pass (best of --reps).
 *
 *   wai_bench_dnnl_synthesis WEIGHTS LATENT [--reps N] [--out OUT.f32]
 *
 * WEIGHTS: decoder.f32 of that description (its constants in order:
 * g_s.0.weight, g_s.0.bias, g_s.1.gamma, g_s.1.beta, ...); LATENT: the
 * [192, 32, 48] float32 latent. Threads: OMP_NUM_THREADS. Prints
 * "dnnl_synthesis MS"; --out writes the picture (float32 NCHW) to compare. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <oneapi/dnnl/dnnl.h>

#define N_CH 128
#define M_CH 192
#define LH 32
#define LW 48

#define CHECK(call)                                                                   \
    do {                                                                              \
        dnnl_status_t st_ = (call);                                                   \
        if (st_ != dnnl_success) {                                                    \
            fprintf(stderr, "bench_dnnl_synthesis: %s: status %d\n", #call, (int)st_); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static float *read_all(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    float *v = malloc((size_t)len);
    if (!v || fread(v, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "bench_dnnl_synthesis: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *n = (size_t)len / 4;
    return v;
}

static dnnl_engine_t eng;
static dnnl_stream_t strm;

/* Up to 16 primitives of one pass, run in order with their arguments. */
typedef struct step {
    dnnl_primitive_t prim;
    dnnl_exec_arg_t args[6];
    int n;
} step;
static step steps[16];
static int n_steps;

static void add_step(dnnl_primitive_desc_t pd, const dnnl_exec_arg_t *args, int n) {
    step *s = &steps[n_steps++];
    CHECK(dnnl_primitive_create(&s->prim, pd));
    memcpy(s->args, args, (size_t)n * sizeof *args);
    s->n = n;
}

/* A memory of md holding the plain values v (dims, plain_tag), reordered. */
static dnnl_memory_t filled(const dnnl_memory_desc_t *md, int ndims, const dnnl_dims_t dims,
                            dnnl_format_tag_t plain_tag, const float *v) {
    dnnl_memory_desc_t plain_md;
    CHECK(dnnl_memory_desc_init_by_tag(&plain_md, ndims, dims, dnnl_f32, plain_tag));
    dnnl_memory_t plain, out;
    CHECK(dnnl_memory_create(&plain, &plain_md, eng, (void *)v));
    CHECK(dnnl_memory_create(&out, md, eng, DNNL_MEMORY_ALLOCATE));
    dnnl_primitive_desc_t rpd;
    dnnl_primitive_t r;
    CHECK(dnnl_reorder_primitive_desc_create(&rpd, &plain_md, eng, md, eng, NULL));
    CHECK(dnnl_primitive_create(&r, rpd));
    dnnl_exec_arg_t a[2] = {{DNNL_ARG_FROM, plain}, {DNNL_ARG_TO, out}};
    CHECK(dnnl_primitive_execute(r, strm, 2, a));
    CHECK(dnnl_stream_wait(strm));
    dnnl_primitive_destroy(r);
    dnnl_primitive_desc_destroy(rpd);
    dnnl_memory_destroy(plain);
    return out;
}

/* deconv: src (its md) -> a new memory in the primitive's dst format. */
static dnnl_memory_t deconv(dnnl_memory_t src, int cin, int cout, int h, int w, const float **wp) {
    const dnnl_memory_desc_t *smd;
    CHECK(dnnl_memory_get_memory_desc(src, &smd));
    dnnl_dims_t wd = {cout, cin, 5, 5}, bd = {cout}, dd = {1, cout, 2 * h, 2 * w};
    dnnl_dims_t st = {2, 2}, pl = {2, 2}, pr = {1, 1};
    dnnl_memory_desc_t wmd, bmd, dmd;
    CHECK(dnnl_memory_desc_init_by_tag(&wmd, 4, wd, dnnl_f32, dnnl_format_tag_any));
    CHECK(dnnl_memory_desc_init_by_tag(&bmd, 1, bd, dnnl_f32, dnnl_a));
    CHECK(dnnl_memory_desc_init_by_tag(&dmd, 4, dd, dnnl_f32, dnnl_format_tag_any));
    dnnl_deconvolution_desc_t d;
    CHECK(dnnl_deconvolution_forward_desc_init(&d, dnnl_forward_inference,
                                               dnnl_deconvolution_direct, smd, &wmd, &bmd, &dmd,
                                               st, pl, pr));
    dnnl_primitive_desc_t pd;
    CHECK(dnnl_primitive_desc_create(&pd, &d, NULL, eng, NULL));
    /* The description's filter is IOHW [cin, cout, 5, 5]. */
    dnnl_memory_t wm = filled(dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), 4, wd,
                              dnnl_iohw, *wp);
    *wp += (size_t)cin * cout * 25;
    dnnl_memory_t bm = filled(&bmd, 1, bd, dnnl_a, *wp);
    *wp += cout;
    dnnl_memory_t dst;
    CHECK(dnnl_memory_create(&dst, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), eng,
                             DNNL_MEMORY_ALLOCATE));
    dnnl_exec_arg_t a[4] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_BIAS, bm},
                            {DNNL_ARG_DST, dst}};
    add_step(pd, a, 4);
    dnnl_primitive_desc_destroy(pd);
    return dst;
}

/* The inverse GDN on x: square (eltwise), then conv1x1 with post-ops sqrt
 * and * x. Returns the result, in x's format. */
static dnnl_memory_t igdn(dnnl_memory_t x, int ch, int h, int w, const float **wp) {
    const dnnl_memory_desc_t *xmd;
    CHECK(dnnl_memory_get_memory_desc(x, &xmd));
    dnnl_eltwise_desc_t ed;
    CHECK(dnnl_eltwise_forward_desc_init(&ed, dnnl_forward_inference, dnnl_eltwise_square, xmd,
                                         0.f, 0.f));
    dnnl_primitive_desc_t epd;
    CHECK(dnnl_primitive_desc_create(&epd, &ed, NULL, eng, NULL));
    dnnl_memory_t sq, y;
    CHECK(dnnl_memory_create(&sq, xmd, eng, DNNL_MEMORY_ALLOCATE));
    dnnl_exec_arg_t ea[2] = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, sq}};
    add_step(epd, ea, 2);
    dnnl_primitive_desc_destroy(epd);
    dnnl_dims_t gd = {ch, ch, 1, 1}, bd = {ch}, s1 = {1, 1}, p0 = {0, 0};
    dnnl_memory_desc_t gmd, bmd;
    CHECK(dnnl_memory_desc_init_by_tag(&gmd, 4, gd, dnnl_f32, dnnl_format_tag_any));
    CHECK(dnnl_memory_desc_init_by_tag(&bmd, 1, bd, dnnl_f32, dnnl_a));
    dnnl_convolution_desc_t cd;
    CHECK(dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct,
                                             xmd, &gmd, &bmd, xmd, s1, p0, p0));
    dnnl_post_ops_t po;
    dnnl_primitive_attr_t attr;
    CHECK(dnnl_post_ops_create(&po));
    CHECK(dnnl_post_ops_append_eltwise(po, 1.f, dnnl_eltwise_sqrt, 0.f, 0.f));
    CHECK(dnnl_post_ops_append_binary(po, dnnl_binary_mul, xmd));
    CHECK(dnnl_primitive_attr_create(&attr));
    CHECK(dnnl_primitive_attr_set_post_ops(attr, po));
    dnnl_primitive_desc_t cpd;
    CHECK(dnnl_primitive_desc_create(&cpd, &cd, attr, eng, NULL));
    dnnl_memory_t gm = filled(dnnl_primitive_desc_query_md(cpd, dnnl_query_weights_md, 0), 4, gd,
                              dnnl_oihw, *wp);
    *wp += (size_t)ch * ch;
    dnnl_memory_t bm = filled(&bmd, 1, bd, dnnl_a, *wp);
    *wp += ch;
    CHECK(dnnl_memory_create(&y, xmd, eng, DNNL_MEMORY_ALLOCATE));
    dnnl_exec_arg_t ca[5] = {{DNNL_ARG_SRC, sq},
                             {DNNL_ARG_WEIGHTS, gm},
                             {DNNL_ARG_BIAS, bm},
                             {DNNL_ARG_DST, y},
                             {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, x}};
    add_step(cpd, ca, 5);
    dnnl_primitive_desc_destroy(cpd);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    (void)h, (void)w;
    return y;
}

/* A reorder step from src to a new memory of md. */
static dnnl_memory_t reorder_to(dnnl_memory_t src, const dnnl_memory_desc_t *md, void *handle) {
    const dnnl_memory_desc_t *smd;
    CHECK(dnnl_memory_get_memory_desc(src, &smd));
    dnnl_memory_t dst;
    CHECK(dnnl_memory_create(&dst, md, eng, handle ? handle : DNNL_MEMORY_ALLOCATE));
    dnnl_primitive_desc_t rpd;
    CHECK(dnnl_reorder_primitive_desc_create(&rpd, smd, eng, md, eng, NULL));
    dnnl_exec_arg_t a[2] = {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}};
    add_step(rpd, a, 2);
    dnnl_primitive_desc_destroy(rpd);
    return dst;
}

int main(int argc, char **argv) {
    const char *weights = NULL, *latent = NULL, *out = NULL;
    int reps = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!weights) weights = argv[i];
        else latent = argv[i];
    }
    if (!weights || !latent || reps < 1) {
        fprintf(stderr, "usage: wai_bench_dnnl_synthesis WEIGHTS LATENT [--reps N] [--out F]\n");
        return 2;
    }
    size_t nw, nl;
    float *wv = read_all(weights, &nw), *lv = read_all(latent, &nl);
    if (nl != (size_t)M_CH * LH * LW) {
        fprintf(stderr, "bench_dnnl_synthesis: the latent is not [%d, %d, %d]\n", M_CH, LH, LW);
        return 2;
    }
    CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
    /* The latent in, reordered by the first deconvolution's own choice. */
    dnnl_dims_t ld = {1, M_CH, LH, LW}, od = {1, 3, 16 * LH, 16 * LW};
    dnnl_memory_desc_t lmd, omd;
    CHECK(dnnl_memory_desc_init_by_tag(&lmd, 4, ld, dnnl_f32, dnnl_nchw));
    CHECK(dnnl_memory_desc_init_by_tag(&omd, 4, od, dnnl_f32, dnnl_nchw));
    dnnl_memory_t lm;
    CHECK(dnnl_memory_create(&lm, &lmd, eng, lv));
    /* The channel-blocked layout of oneDNN's direct kernels on this CPU. */
    const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
    const int avx512 = (isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
    dnnl_memory_desc_t blocked;
    CHECK(dnnl_memory_desc_init_by_tag(&blocked, 4, ld, dnnl_f32,
                                       avx512 ? dnnl_nChw16c : dnnl_nChw8c));
    const float *wp = wv;
    dnnl_memory_t x = reorder_to(lm, &blocked, NULL);
    int h = LH, w = LW, cin = M_CH;
    for (int layer = 0; layer < 4; layer++) {
        const int cout = layer == 3 ? 3 : N_CH;
        x = deconv(x, cin, cout, h, w, &wp);
        h *= 2, w *= 2, cin = cout;
        if (layer < 3) x = igdn(x, cout, h, w, &wp);
    }
    if ((size_t)(wp - wv) != nw) {
        fprintf(stderr, "bench_dnnl_synthesis: WEIGHTS holds %zu floats, the network %zu\n", nw,
                (size_t)(wp - wv));
        return 2;
    }
    float *picture = malloc((size_t)3 * 16 * LH * 16 * LW * sizeof *picture);
    reorder_to(x, &omd, picture);
    double best = 1e300;
    for (int r = 0; r < reps + 1; r++) { /* the first pass warms up, untimed */
        double t0 = now_ms();
        for (int i = 0; i < n_steps; i++)
            CHECK(dnnl_primitive_execute(steps[i].prim, strm, steps[i].n, steps[i].args));
        CHECK(dnnl_stream_wait(strm));
        double t = now_ms() - t0;
        if (r > 0 && t < best) best = t;
    }
    printf("dnnl_synthesis %.3f\n", best);
    if (out) {
        FILE *f = fopen(out, "wb");
        if (!f || fwrite(picture, 4, (size_t)3 * 16 * LH * 16 * LW, f) !=
                      (size_t)3 * 16 * LH * 16 * LW) {
            perror(out);
            return 1;
        }
        fclose(f);
    }
    return 0;
}
