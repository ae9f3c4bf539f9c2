/* The neural decodes' corpus (issue 5): valid WIH1, WIA1 and WIS1 payloads
 * with seeded synthetic parameter sets, and a fixture for the codes their
 * decodes give after the parse, each as a line of index.txt with a seventh
 * column, the set's directory (relative to the index).
 *
 * The generator picks every symbol, so it knows every latent: it runs the
 * hyper synthesis for the scales and means, codes the latents with the
 * library's encoder, and runs the networks on the reference kernels (the
 * plain loops of ops/layers_ref.c) for the expected output, which the
 * corpus test then asks of the library's decoder (fast kernels). */
#include "gen_io.h"
#include "gen_neural.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/alloc.h"
#include "common/reader.h"
#include "decode/int_motion.h"
#include "entropy/rans.h"
#include "formats/whm1.h"
#include "formats/wia1.h"
#include "formats/wif1.h"
#include "formats/wih1.h"
#include "formats/wis1.h"
#include "formats/wiv1.h"
#include "gen/netgen.h"
#include "ops/layers.h"
#include "ops/network.h"
#include "sets/entropy_json.h"
#include "wai/wai_decode.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"
#include "gen/set_write.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

static const char *g_root;
static FILE *g_idx;
static uint64_t g_rng = 55;


static void hex_of(const uint8_t *data, size_t len, char hex[65]) {
    uint8_t d[32];
    wai_sha256_oneshot(data, len, d);
    wai_hex(d, 32, hex);
}

static void line(const char *cap, const char *status, const char *maxcost, const char *file,
                 const char *hash, const char *set) {
    fprintf(g_idx, "decode %s %s %s %s %s %s\n", cap, status, maxcost, file, hash, set);
}

/* ---- tables and symbols ------------------------------------------------------ */

/* A random §2 table of n entries. */
static void random_cdf(uint32_t *cdf, uint32_t n) {
    cdf[0] = 0;
    cdf[n - 1] = WAI_CDF_TOTAL;
    /* n - 2 distinct cut points in 1..65535, sorted: an increasing table. */
    for (uint32_t i = 1; i + 1 < n; i++) {
        uint32_t lo = cdf[i - 1] + 1, room = WAI_CDF_TOTAL - (n - 1 - i) - lo;
        cdf[i] = lo + (uint32_t)netgen_below(&g_rng, room / 4 + 1);
    }
}

/* A symbol a table of length n at offset o codes: mostly direct values,
 * sometimes an escape (a value outside 0..n-3). */
static int32_t random_symbol(uint32_t n, int32_t o) {
    if (netgen_below(&g_rng, 16) == 0) return o + (int32_t)(n - 2) + (int32_t)netgen_below(&g_rng, 40);
    return o + (int32_t)netgen_below(&g_rng, n - 2);
}

static uint8_t *encode(const wai_cdf_table *const *tables, const int32_t *offsets,
                       const int32_t *symbols, size_t n, size_t *len) {
    uint8_t *out;
    if (wai_rans_encode(NULL, NULL, tables, offsets, 0, symbols, n, &out, len) != WAI_ok)
        gen_die("encode");
    return out;
}

static void run_net(const wai_model *m, uint32_t c, uint32_t h, uint32_t w, const int64_t *in,
                    int64_t **out, wai_plan *p) {
    wai_sums s;
    if (wai_plan_model(NULL, m, c, h, w, p) != WAI_ok || wai_sums_compute(NULL, m, &s) != WAI_ok)
        gen_die("plan");
    *out = malloc(sizeof **out * (size_t)p->out_elems);
    if (!*out || wai_network_run(NULL, &wai_kernels_ref, m, &s, p, in, *out) != WAI_ok)
        gen_die("network");
    wai_sums_free(NULL, &s);
}

static void write_model(const char *rel, const wai_model *m) {
    uint8_t *b;
    size_t len;
    if (netgen_bytes(NULL, m, &b, &len) != WAI_ok) gen_die("model bytes");
    gen_put(g_root, rel, b, len);
    wai_free(NULL, b);
}

/* ---- WIH1 ------------------------------------------------------------------------ */

typedef struct hyper_case {
    uint32_t m, sh, sw, n_z, zh, zw, afrac;
    uint8_t *bytes;
    size_t len;
    uint8_t *rgb;
    size_t rgb_len;
} hyper_case;

/* The set: h_s mbt-like [n_z, zh, zw] -> [2m, 4zh, 4zw]; g_s bmshj-like
 * [m, sh, sw] -> [3, 4sh, 4sw]; entropy tables: n_edges latent tables over
 * edges spread across +-2^afrac·8, n_z + 1 hyper tables. Written to dir. */
static void hyper_set(const char *dir, uint64_t seed, hyper_case *hc, wai_model *hs,
                      wai_model *gs, wai_entropy_set *es, wai_entropy_table *lt,
                      wai_entropy_table *zt, int64_t *edges, int64_t *zmed, uint32_t *cdfs) {
    if (netgen_mbt_hyper(NULL, seed, hc->afrac, hc->n_z, 6, 2 * hc->m, hs) != WAI_ok ||
        netgen_bmshj(NULL, seed + 1, hc->afrac, hc->m, 6, 3, 2, gs) != WAI_ok)
        gen_die("networks");
    uint32_t n_edges = 5, k = hc->n_z + 1, at = 0;
    for (uint32_t i = 0; i < n_edges; i++) {
        edges[i] = ((int64_t)i - 2) * ((int64_t)1 << (hc->afrac + 2));
        lt[i].n = 3 + (uint32_t)netgen_below(&g_rng, 30);
        lt[i].offset = -(int32_t)(lt[i].n / 2);
        lt[i].cdf = cdfs + at;
        random_cdf(cdfs + at, lt[i].n);
        at += lt[i].n;
    }
    for (uint32_t i = 0; i < k; i++) {
        zt[i].n = 3 + (uint32_t)netgen_below(&g_rng, 20);
        zt[i].offset = -(int32_t)(zt[i].n / 2);
        zt[i].cdf = cdfs + at;
        random_cdf(cdfs + at, zt[i].n);
        at += zt[i].n;
        zmed[i] = (int64_t)netgen_below(&g_rng, 64) - 32;
    }
    es->n_edges = n_edges;
    es->scale_edges = edges;
    es->latent = lt;
    es->n_z = k;
    es->hyper = zt;
    es->z_median_q = zmed;
    char rel[256];
    gen_mkdir(g_root, dir);
    snprintf(rel, sizeof rel, "%s/g_s.whm", dir);
    write_model(rel, gs);
    snprintf(rel, sizeof rel, "%s/h_s.whm", dir);
    write_model(rel, hs);
    uint8_t *json;
    size_t jl;
    if (wai_entropy_json_write(NULL, es, &json, &jl) != WAI_ok) gen_die("entropy.json");
    snprintf(rel, sizeof rel, "%s/entropy.json", dir);
    gen_put(g_root, rel, json, jl);
    wai_free(NULL, json);
}

static void lookups(const wai_entropy_table *t, uint32_t n, wai_cdf_table *out) {
    for (uint32_t i = 0; i < n; i++)
        if (wai_cdf_table_init(&out[i], NULL, t[i].cdf, t[i].n, 8) != WAI_ok) gen_die("lookup");
}

/* Picks the symbols, codes them and computes the expected image. */
static void hyper_payload(hyper_case *hc, const wai_model *hs, const wai_model *gs,
                          const wai_entropy_set *es) {
    size_t nz = (size_t)hc->n_z * hc->zh * hc->zw, ny = (size_t)hc->m * hc->sh * hc->sw;
    wai_cdf_table lz[64], ly[16];
    lookups(es->hyper, es->n_z, lz);
    lookups(es->latent, es->n_edges, ly);
    int32_t *sym = malloc(sizeof *sym * (nz + ny)), *off = malloc(sizeof *off * (nz + ny));
    const wai_cdf_table **tab = malloc(sizeof *tab * (nz + ny));
    int64_t *z = malloc(sizeof *z * nz), *y = malloc(sizeof *y * ny);
    if (!sym || !off || !tab || !z || !y) gen_die("memory");
    for (size_t i = 0; i < nz; i++) {
        uint32_t ch = (uint32_t)(i / ((size_t)hc->zh * hc->zw));
        tab[i] = &lz[ch];
        off[i] = es->hyper[ch].offset;
        sym[i] = random_symbol(es->hyper[ch].n, off[i]);
        if (wai_dequantize(sym[i], hc->afrac, es->z_median_q[ch], &z[i]) != WAI_ok) gen_die("E2");
    }
    size_t zlen, ylen;
    uint8_t *zs = encode(tab, off, sym, nz, &zlen);
    wai_plan ph, pg;
    int64_t *hout, *gout;
    run_net(hs, hc->n_z, hc->zh, hc->zw, z, &hout, &ph);
    for (size_t p = 0; p < ny; p++) {
        uint32_t b = wai_bucket(hout[p], es->scale_edges, es->n_edges);
        tab[p] = &ly[b];
        off[p] = es->latent[b].offset;
        sym[p] = random_symbol(es->latent[b].n, off[p]);
        if (wai_dequantize(sym[p], hc->afrac, hout[ny + p], &y[p]) != WAI_ok) gen_die("E2");
    }
    uint8_t *ys = encode(tab, off, sym, ny, &ylen);
    run_net(gs, hc->m, hc->sh, hc->sw, y, &gout, &pg);
    size_t hw = (size_t)pg.out_h * pg.out_w;
    hc->rgb_len = 3 * hw;
    hc->rgb = malloc(hc->rgb_len);
    if (!hc->rgb) gen_die("memory");
    for (size_t i = 0; i < hw; i++)
        for (size_t c = 0; c < 3; c++) hc->rgb[3 * i + c] = wai_rgb8_step(gout[c * hw + i], hc->afrac);
    wai_wih1_parts parts = {hc->m, hc->sh, hc->sw, hc->n_z, hc->zh, hc->zw, zs, zlen, ys, ylen};
    if (wai_wih1_write(NULL, &parts, &hc->bytes, &hc->len) != WAI_ok) gen_die("wih1 write");
    for (uint32_t i = 0; i < es->n_z; i++) wai_cdf_table_free(&lz[i], NULL);
    for (uint32_t i = 0; i < es->n_edges; i++) wai_cdf_table_free(&ly[i], NULL);
    wai_plan_free(NULL, &ph);
    wai_plan_free(NULL, &pg);
    free(hout);
    free(gout);
    free(zs);
    free(ys);
    free(sym);
    free(off);
    free(tab);
    free(z);
    free(y);
}

static void video_corpus(const uint8_t *key, size_t key_len, const uint8_t *key_rgb, uint32_t h,
                         uint32_t w);

#define CAP_IMAGE "wai.neural.int_hyper"
#define CAP_AUDIO "wai.audio.int_codec"
#define CAP_SPLAT "wai.splat.int_codec"

static void hyper_corpus(void) {
    static const uint32_t shapes[][4] = {{2, 1, 1, 1}, {3, 2, 3, 2}, {4, 3, 2, 3}};
    gen_mkdir(g_root, "neural");
    gen_mkdir(g_root, "neural/hyper");
    for (int i = 0; i < 3; i++) {
        hyper_case hc = {shapes[i][1], 4 * shapes[i][2], 4 * shapes[i][3], shapes[i][0],
                         shapes[i][2], shapes[i][3], 8 + 2 * (uint32_t)i, NULL, 0, NULL, 0};
        hc.m = 2 + (uint32_t)i;
        char dir[128], file[160], hex[65];
        snprintf(dir, sizeof dir, "neural/hyper/set%d", i);
        wai_model hs, gs;
        wai_entropy_set es;
        wai_entropy_table lt[16], zt[64];
        int64_t edges[16], zmed[64];
        static uint32_t cdfs[4096];
        hyper_set(dir, 100 + (uint64_t)i, &hc, &hs, &gs, &es, lt, zt, edges, zmed, cdfs);
        hyper_payload(&hc, &hs, &gs, &es);
        snprintf(file, sizeof file, "neural/hyper/image%d.wih1", i);
        gen_put(g_root, file, hc.bytes, hc.len);
        hex_of(hc.rgb, hc.rgb_len, hex);
        line(CAP_IMAGE, "ok", "-", file, hex, dir);
        if (i == 0) {
            /* The OFFER column (neural-dispatch §4): when the decode's tier
             * refuses every path offered, not_dispatchable; an offer with
             * the integer path last decodes as the default does. */
            fprintf(g_idx, "decode %s not_dispatchable - %s - %s npu,wgsl\n", CAP_IMAGE, file, dir);
            fprintf(g_idx, "decode %s ok - %s %s %s npu,cpu,int\n", CAP_IMAGE, file, hex, dir);
            gen_mkdir(g_root, "neural/refuse");
            video_corpus(hc.bytes, hc.len, hc.rgb, 4 * hc.sh, 4 * hc.sw);
        }
        wai_model_free(NULL, &hs);
        wai_model_free(NULL, &gs);
        free(hc.bytes);
        free(hc.rgb);
    }
}

/* ---- WIA1 ------------------------------------------------------------------------ */

static void audio_corpus(void) {
    gen_mkdir(g_root, "neural/audio");
    for (int i = 0; i < 3; i++) {
        uint32_t afrac = 10 + (uint32_t)i, n_ch = 2 + (uint32_t)i, lat_len = 3 + 2 * (uint32_t)i;
        uint32_t cdf_len = 4 + 5 * (uint32_t)i;
        wai_model m;
        if (netgen_wam1(NULL, 200 + (uint64_t)i, afrac, n_ch, 5, 1, 2, &m) != WAI_ok) gen_die("wam1");
        char dir[128], rel[200], file[160], hex[65];
        snprintf(dir, sizeof dir, "neural/audio/set%d", i);
        gen_mkdir(g_root, dir);
        snprintf(rel, sizeof rel, "%s/model.wam", dir);
        write_model(rel, &m);
        /* t_out: more than lat_len - 1 samples give, no more than lat_len do. */
        wai_plan shorter;
        if (wai_plan_model(NULL, &m, n_ch, 1, lat_len - 1, &shorter) != WAI_ok) gen_die("plan");
        uint32_t t_out = shorter.out_w + 1 + (uint32_t)i;
        wai_plan_free(NULL, &shorter);
        uint32_t cdfs[8 * 16];
        int64_t med[8];
        wai_cdf_table tabs[8];
        const wai_cdf_table *tab[64];
        int32_t sym[64], off[64];
        int64_t lat[64];
        int32_t offset = -(int32_t)(cdf_len / 2);
        for (uint32_t k = 0; k < n_ch; k++) {
            random_cdf(cdfs + k * cdf_len, cdf_len);
            if (wai_cdf_table_init(&tabs[k], NULL, cdfs + k * cdf_len, cdf_len, 8) != WAI_ok)
                gen_die("lookup");
            med[k] = (int64_t)netgen_below(&g_rng, 256) - 128;
        }
        for (uint32_t k = 0; k < n_ch; k++)
            for (uint32_t t = 0; t < lat_len; t++) {
                size_t j = (size_t)k * lat_len + t;
                tab[j] = &tabs[k];
                off[j] = offset;
                sym[j] = random_symbol(cdf_len, offset);
                if (wai_dequantize(sym[j], afrac, med[k], &lat[j]) != WAI_ok) gen_die("E2");
            }
        size_t slen;
        uint8_t *stream = encode(tab, off, sym, (size_t)n_ch * lat_len, &slen);
        wai_plan p;
        int64_t *out;
        run_net(&m, n_ch, 1, lat_len, lat, &out, &p);
        if (p.out_w < t_out) gen_die("t_out");
        uint8_t *pcm = malloc(2 * (size_t)t_out);
        if (!pcm) gen_die("memory");
        for (uint32_t t = 0; t < t_out; t++) {
            int16_t s;
            if (wai_pcm_step(out[t], afrac, &s) != WAI_ok) gen_die("pcm");
            pcm[2 * t] = (uint8_t)((uint16_t)s & 0xFF);
            pcm[2 * t + 1] = (uint8_t)((uint16_t)s >> 8);
        }
        wai_wia1_parts parts = {(uint8_t)afrac, 8000u * (1 + (uint32_t)i), n_ch, lat_len, t_out,
                                offset, cdf_len, med, cdfs, stream, slen};
        uint8_t *b;
        size_t len;
        if (wai_wia1_write(NULL, &parts, &b, &len) != WAI_ok) gen_die("wia1 write");
        snprintf(file, sizeof file, "neural/audio/clip%d.wia1", i);
        gen_put(g_root, file, b, len);
        hex_of(pcm, 2 * (size_t)t_out, hex);
        line(CAP_AUDIO, "ok", "-", file, hex, dir);
        for (uint32_t k = 0; k < n_ch; k++) wai_cdf_table_free(&tabs[k], NULL);
        wai_plan_free(NULL, &p);
        wai_model_free(NULL, &m);
        wai_free(NULL, b);
        free(stream);
        free(out);
        free(pcm);
    }
}

/* ---- WIS1 ------------------------------------------------------------------------ */

static void splat_corpus(void) {
    gen_mkdir(g_root, "neural/splat");
    for (int i = 0; i < 3; i++) {
        uint32_t afrac = 9 + (uint32_t)i, c = 2 + (uint32_t)i, side = 1 + (uint32_t)i;
        uint32_t attr = 3 + (uint32_t)i, s = 4 * side;
        wai_model m;
        if (netgen_bmshj(NULL, 300 + (uint64_t)i, afrac, c, 5, attr, 2, &m) != WAI_ok)
            gen_die("splat net");
        char dir[128], rel[200], file[160], hex[65];
        snprintf(dir, sizeof dir, "neural/splat/set%d", i);
        gen_mkdir(g_root, dir);
        snprintf(rel, sizeof rel, "%s/g_s.whm", dir);
        write_model(rel, &m);
        uint16_t lens[8];
        int32_t offs[8];
        int64_t med[8];
        uint32_t cdfs[8 * 40];
        wai_cdf_table tabs[8];
        uint32_t at = 0;
        for (uint32_t k = 0; k < c; k++) {
            lens[k] = (uint16_t)(3 + netgen_below(&g_rng, 30));
            offs[k] = -(int32_t)netgen_below(&g_rng, lens[k]);
            med[k] = (int64_t)netgen_below(&g_rng, 512) - 256;
            random_cdf(cdfs + at, lens[k]);
            if (wai_cdf_table_init(&tabs[k], NULL, cdfs + at, lens[k], 8) != WAI_ok) gen_die("lookup");
            at += lens[k];
        }
        size_t n = (size_t)c * side * side;
        const wai_cdf_table *tab[128];
        int32_t sym[128], off[128];
        int64_t lat[128];
        for (size_t j = 0; j < n; j++) {
            uint32_t k = (uint32_t)(j / ((size_t)side * side));
            tab[j] = &tabs[k];
            off[j] = offs[k];
            sym[j] = random_symbol(lens[k], offs[k]);
            if (wai_dequantize(sym[j], afrac, med[k], &lat[j]) != WAI_ok) gen_die("E2");
        }
        size_t slen;
        uint8_t *stream = encode(tab, off, sym, n, &slen);
        wai_plan p;
        int64_t *out;
        run_net(&m, c, side, side, lat, &out, &p);
        uint8_t *planes = malloc((size_t)p.out_elems);
        if (!planes) gen_die("memory");
        for (uint64_t j = 0; j < p.out_elems; j++) planes[j] = wai_rgb8_step(out[j], afrac);
        /* Ranges: [0, 1], [-1, 1], [-0, +0], ... as binary32 patterns. */
        static const uint32_t pats[][2] = {{0x00000000u, 0x3F800000u},
                                           {0xBF800000u, 0x3F800000u},
                                           {0x80000000u, 0x00000000u},
                                           {0xC2C80000u, 0x42C80000u},
                                           {0x3F000000u, 0x3F000000u}};
        uint32_t ranges[2 * 8];
        for (uint32_t a = 0; a < attr; a++) {
            ranges[2 * a] = pats[a % 5][0];
            ranges[2 * a + 1] = pats[a % 5][1];
        }
        uint32_t n_g = 1 + (uint32_t)netgen_below(&g_rng, (uint64_t)s * s);
        wai_wis1_parts parts = {(uint8_t)afrac, c, side, side, s, attr, n_g, ranges, lens,
                                offs, med, cdfs, stream, slen};
        uint8_t *b;
        size_t len;
        if (wai_wis1_write(NULL, &parts, &b, &len) != WAI_ok) gen_die("wis1 write");
        snprintf(file, sizeof file, "neural/splat/attrs%d.wis1", i);
        gen_put(g_root, file, b, len);
        hex_of(planes, (size_t)p.out_elems, hex);
        line(CAP_SPLAT, "ok", "-", file, hex, dir);
        for (uint32_t k = 0; k < c; k++) wai_cdf_table_free(&tabs[k], NULL);
        wai_plan_free(NULL, &p);
        wai_model_free(NULL, &m);
        wai_free(NULL, b);
        free(stream);
        free(out);
        free(planes);
    }
}

/* ---- keyframe-1 video: a WIH1 keyframe, then motion frames ------------------ */

#define CAP_CLIP1 "wai.video.int_hyper"
#define CAP_FRAME1 "wai.video.int_hyper.frame"

/* A clip whose keyframe is image0 (set0, 16 x 16), its frames 1 on coded
 * as keyframe-0 frames, and the same clip as a WIF1 group. Frames 1 on are
 * computed by the library's motion decode (held to an independent model by
 * the keyframe-0 corpus), frame 0 by the generator's own WIH1 decode above. */
static void video_corpus(const uint8_t *key, size_t key_len, const uint8_t *key_rgb,
                         uint32_t h, uint32_t w) {
    gen_mkdir(g_root, "neural/video");
    const uint32_t n = 3, block = 4, q = 3, cdf_len = 9;
    const int32_t offset = -4;
    uint32_t cdf[9];
    random_cdf(cdf, cdf_len);
    wai_cdf_table table;
    if (wai_cdf_table_init(&table, NULL, cdf, cdf_len, 8) != WAI_ok) gen_die("table");
    uint64_t nb = wai_blocks_per_frame(h, w, block);
    size_t frame = (size_t)h * w * 3, per = frame;
    int16_t vec[2 * 64 * 2];
    for (size_t i = 0; i < 2 * nb * (n - 1); i++) vec[i] = (int16_t)((int)netgen_below(&g_rng, 9) - 4);
    int32_t *sym = malloc(sizeof *sym * per * (n - 1));
    if (!sym) gen_die("memory");
    for (size_t i = 0; i < per * (n - 1); i++) sym[i] = random_symbol(cdf_len, offset);
    size_t slen;
    uint8_t *stream;
    if (wai_rans_encode(NULL, &table, NULL, NULL, offset, sym, per * (n - 1), &stream, &slen) != WAI_ok)
        gen_die("encode");
    wai_wiv1_parts clip = {2, 1, n, h, w, block, q, offset, cdf, cdf_len, vec, stream, slen,
                           key, key_len};
    uint8_t *b;
    size_t len;
    if (wai_wiv1_write(NULL, &clip, &b, &len) != WAI_ok) gen_die("wiv1 write");
    gen_put(g_root, "neural/video/clip0.wiv1", b, len);
    /* The expected frames. */
    wai_wiv1 v;
    uint8_t *frames = malloc(frame * n);
    if (!frames || wai_wiv1_parse(b, len, 1, &v) != WAI_ok) gen_die("wiv1 parse");
    memcpy(frames, key_rgb, frame);
    if (wai_wiv1_decode(NULL, &v, frames) != WAI_ok) gen_die("wiv1 decode");
    char hashes[65 * 3 + 4] = "", hex[65];
    for (uint32_t i = 0; i < n; i++) {
        hex_of(frames + i * frame, frame, hex);
        strcat(hashes, i ? "," : "");
        strcat(hashes, hex);
    }
    line(CAP_CLIP1, "ok", "-", "neural/video/clip0.wiv1", hashes, "neural/hyper/set0");
    /* The group: an intra frame with the keyframe, inter frames each with
     * its own stream. */
    char files[512] = "";
    wai_wif1_parts intra = {0, 1, 0, h, w, 0, q, offset, cdf, cdf_len, NULL, NULL, 0, key, key_len};
    uint8_t *fb;
    size_t fl;
    if (wai_wif1_write(NULL, &intra, &fb, &fl) != WAI_ok) gen_die("wif1 intra");
    gen_put(g_root, "neural/video/f000.wif1", fb, fl);
    wai_free(NULL, fb);
    strcat(files, "neural/video/f000.wif1");
    for (uint32_t i = 1; i < n; i++) {
        uint8_t *fs;
        size_t fsl;
        if (wai_rans_encode(NULL, &table, NULL, NULL, offset, sym + per * (i - 1), per, &fs, &fsl) !=
            WAI_ok)
            gen_die("encode frame");
        wai_wif1_parts inter = {1, 1, 2, h, w, block, 0, 0, NULL, 0, vec + 2 * nb * (i - 1), fs,
                                fsl, NULL, 0};
        if (wai_wif1_write(NULL, &inter, &fb, &fl) != WAI_ok) gen_die("wif1 inter");
        char name[64];
        snprintf(name, sizeof name, "neural/video/f%03u.wif1", i);
        gen_put(g_root, name, fb, fl);
        strcat(files, ",");
        strcat(files, name);
        wai_free(NULL, fb);
        free(fs);
    }
    line(CAP_FRAME1, "ok", "-", files, hashes, "neural/hyper/set0");
    /* Refusals: a one-frame clip of another size than its keyframe's. */
    uint8_t *es;
    size_t esl;
    if (wai_rans_encode(NULL, &table, NULL, NULL, offset, sym, 0, &es, &esl) != WAI_ok) gen_die("empty");
    wai_wiv1_parts small = {1, 1, 1, h / 2, w / 2, 1, q, offset, cdf, cdf_len, NULL, es, esl,
                            key, key_len};
    uint8_t *sb;
    size_t sl;
    if (wai_wiv1_write(NULL, &small, &sb, &sl) != WAI_ok) gen_die("wiv1 small");
    gen_put(g_root, "neural/refuse/key_size.wiv1", sb, sl);
    line(CAP_CLIP1, "geometry_mismatch", "-", "neural/refuse/key_size.wiv1", "-",
         "neural/hyper/set0");
    wai_free(NULL, sb);
    free(es);
    line(CAP_FRAME1, "set_incomplete", "-", "neural/video/f000.wif1", "-", "-");
    /* A keyframe-1 clip whose keyframe does not fit the set: a g_s of four
     * output channels (the set hyper_refusals writes). */
    line(CAP_CLIP1, "model_mismatch", "-", "neural/video/clip0.wiv1", "-",
         "neural/refuse/gs_four_channels");
    wai_cdf_table_free(&table, NULL);
    wai_free(NULL, b);
    free(stream);
    free(sym);
    free(frames);
}

/* ---- refusals after the parse ------------------------------------------------- */

static uint8_t *slurp(const char *rel, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_root, rel);
    FILE *f = fopen(path, "rb");
    if (!f) gen_die(path);
    uint8_t *b = malloc(1 << 20);
    if (!b) gen_die("memory");
    *len = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

static void copy_member(const char *from_dir, const char *to_dir, const char *name) {
    char a[512], b[512];
    size_t len;
    snprintf(a, sizeof a, "%s/%s", from_dir, name);
    snprintf(b, sizeof b, "%s/%s", to_dir, name);
    uint8_t *d = slurp(a, &len);
    gen_put(g_root, b, d, len);
    free(d);
}

/* A fixture payload under neural/refuse/, decoded against set dir. */
static void refusal(const char *cap, const char *name, const uint8_t *b, size_t len,
                    const char *set, const char *status, const char *maxcost) {
    char file[256];
    snprintf(file, sizeof file, "neural/refuse/%s", name);
    gen_put(g_root, file, b, len);
    line(cap, status, maxcost, file, "-", set);
}

/* A set directory under neural/refuse/ made of members copied from `from`
 * (names NULL-terminated), plus one member written from bytes (NULL: none). */
static const char *fixture_set(const char *dir, const char *from, const char *const *names,
                               const char *extra, const uint8_t *b, size_t len) {
    static char rel[8][256];
    static int next;
    char *r = rel[next++ % 8];
    snprintf(r, 256, "neural/refuse/%s", dir);
    gen_mkdir(g_root, r);
    for (size_t i = 0; names[i]; i++) copy_member(from, r, names[i]);
    if (extra) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", r, extra);
        gen_put(g_root, p, b, len);
    }
    return r;
}

static void hyper_refusals(void) {
    const char *set0 = "neural/hyper/set0";
    size_t len;
    uint8_t *img = slurp("neural/hyper/image0.wih1", &len);
    static const char *const gh[] = {"g_s.whm", "h_s.whm", NULL};
    static const char *const he[] = {"h_s.whm", "entropy.json", NULL};
    static const char *const ge[] = {"g_s.whm", "entropy.json", NULL};
    static const char *const all[] = {"g_s.whm", "h_s.whm", "entropy.json", NULL};
    static const char *const none[] = {NULL};
    const uint8_t junk[] = "WHM1 is not this";
    /* Step 1: a member absent; a malformed member with a later one absent
     * (reading N1: presence first); malformed members. */
    refusal(CAP_IMAGE, "no_entropy.wih1", img, len, fixture_set("no_entropy", set0, gh, NULL, NULL, 0),
            "set_incomplete", "-");
    refusal(CAP_IMAGE, "bad_gs_no_entropy.wih1", img, len,
            fixture_set("bad_gs_no_entropy", set0, (const char *const[]){"h_s.whm", NULL},
                        "g_s.whm", junk, sizeof junk - 1),
            "set_incomplete", "-");
    refusal(CAP_IMAGE, "bad_gs.wih1", img, len,
            fixture_set("bad_gs", set0, he, "g_s.whm", junk, sizeof junk - 1), "model_mismatch", "-");
    const uint8_t not_json[] = "{\"scale_edges\": [1,]}";
    refusal(CAP_IMAGE, "bad_entropy.wih1", img, len,
            fixture_set("bad_entropy", set0, gh, "entropy.json", not_json, sizeof not_json - 1),
            "model_mismatch", "-");
    /* Step 2: h_s at another afrac than g_s. */
    size_t hl;
    uint8_t *hs = slurp("neural/hyper/set0/h_s.whm", &hl);
    hs[4] ^= 1;
    refusal(CAP_IMAGE, "two_scales.wih1", img, len,
            fixture_set("two_scales", set0, ge, "h_s.whm", hs, hl), "model_mismatch", "-");
    /* Step 4: a g_s that gives four channels, not three. */
    wai_model g4;
    uint8_t *g4b;
    size_t g4l;
    if (netgen_bmshj(NULL, 100, 8, 2, 6, 4, 2, &g4) != WAI_ok ||
        netgen_bytes(NULL, &g4, &g4b, &g4l) != WAI_ok)
        gen_die("g_s four");
    refusal(CAP_IMAGE, "gs_four_channels.wih1", img, len,
            fixture_set("gs_four_channels", set0, he, "g_s.whm", g4b, g4l), "model_mismatch", "-");
    wai_free(NULL, g4b);
    wai_model_free(NULL, &g4);
    free(hs);
    (void)all;
    (void)none;
    /* Step 2: more hyper-latent channels than the tables (n_z at 20). */
    wai_wih1 v;
    if (wai_wih1_parse(img, len, 0, &v) != WAI_ok) gen_die("image0");
    uint8_t *b = malloc(len);
    if (!b) gen_die("memory");
    memcpy(b, img, len);
    wai_store_u32le(b + 20, v.n_z + 2);
    refusal(CAP_IMAGE, "too_many_channels.wih1", b, len, set0, "model_mismatch", "-");
    /* Step 3: h_s planned past the caps (a 1024 x 1024 hyper-latent). */
    memcpy(b, img, len);
    wai_store_u32le(b + 24, 1024);
    wai_store_u32le(b + 28, 1024);
    refusal(CAP_IMAGE, "hs_too_large.wih1", b, len, set0, "too_large", "-");
    /* Step 4: the latent's declared height is not h_s's. */
    memcpy(b, img, len);
    wai_store_u32le(b + 12, v.sh + 1);
    refusal(CAP_IMAGE, "latent_shape.wih1", b, len, set0, "geometry_mismatch", "-");
    free(b);
    /* The cost limit: the declared work exactly passes, one less refuses. */
    wai_cost c;
    wai_context *ctx;
    wai_set *set;
    if (wai_context_create(NULL, &ctx) != WAI_ok || wai_set_create(ctx, &set) != WAI_ok)
        gen_die("context");
    for (size_t i = 0; all[i]; i++) {
        char rel[256];
        size_t ml;
        snprintf(rel, sizeof rel, "%s/%s", set0, all[i]);
        uint8_t *m = slurp(rel, &ml);
        wai_set_add(set, all[i], m, ml);
        free(m);
    }
    if (wai_declared_cost_set(ctx, CAP_IMAGE, set, img, len, &c) != WAI_ok) gen_die("cost");
    char limit[32];
    snprintf(limit, sizeof limit, "%llu", (unsigned long long)(wai_cost_work(&c) - 1));
    refusal(CAP_IMAGE, "over_limit.wih1", img, len, set0, "cost_over_limit", limit);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    /* Step 5: the latent stream one word short (it runs out), and with a
     * word too many (not canonical). The streams are the payload's last
     * section: y's length word, then its bytes. */
    size_t y_at = (size_t)(v.y_stream.bytes - img);
    b = malloc(len + 4);
    if (!b) gen_die("memory");
    memcpy(b, img, len);
    if (v.y_stream.len > 8) {
        wai_store_u32le(b + y_at - 4, (uint32_t)(v.y_stream.len - 4));
        refusal(CAP_IMAGE, "latent_short.wih1", b, len - 4, set0, "stream_exhausted", "-");
    }
    memcpy(b, img, len);
    wai_store_u32le(b + y_at - 4, (uint32_t)(v.y_stream.len + 4));
    wai_store_u32le(b + len, 0x12345678u);
    refusal(CAP_IMAGE, "latent_extra_word.wih1", b, len + 4, set0, "stream_noncanonical", "-");
    free(b);
    free(img);
}

/* Step 5 for a payload whose last section is its latent stream (WIA1,
 * WIS1): the stream one word short (it runs out) and with a word too many
 * (not canonical), each refused as such against set. */
static void stream_refusals(const char *cap, const char *ext, const uint8_t *pl, size_t len,
                            const wai_stream_view *stream, const char *set) {
    size_t at = (size_t)(stream->bytes - pl);
    if (at + stream->len != len || stream->len <= 8) gen_die("the stream is not the last section");
    uint8_t *b = malloc(len + 4);
    if (!b) gen_die("memory");
    char name[64];
    memcpy(b, pl, len);
    wai_store_u32le(b + at - 4, (uint32_t)(stream->len - 4));
    snprintf(name, sizeof name, "stream_short.%s", ext);
    refusal(cap, name, b, len - 4, set, "stream_exhausted", "-");
    memcpy(b, pl, len);
    wai_store_u32le(b + at - 4, (uint32_t)(stream->len + 4));
    wai_store_u32le(b + len, 0x12345678u);
    snprintf(name, sizeof name, "stream_extra_word.%s", ext);
    refusal(cap, name, b, len + 4, set, "stream_noncanonical", "-");
    free(b);
}

static void audio_refusals(void) {
    const char *set0 = "neural/audio/set0";
    size_t len;
    uint8_t *clip = slurp("neural/audio/clip0.wia1", &len);
    wai_wia1 v;
    if (wai_wia1_parse(clip, len, &v) != WAI_ok) gen_die("clip0");
    uint8_t *b = malloc(len);
    if (!b) gen_die("memory");
    refusal(CAP_AUDIO, "no_model.wia1", clip, len, "neural/audio", "set_incomplete", "-");
    memcpy(b, clip, len);
    b[5] = (uint8_t)(v.afrac + 1);
    refusal(CAP_AUDIO, "afrac.wia1", b, len, set0, "model_mismatch", "-");
    /* Step 4: a synthesis of two output channels (before any length rule). */
    wai_model two;
    uint8_t *tb;
    size_t tl;
    if (netgen_wam1(NULL, 200, v.afrac, v.n_ch, 5, 2, 2, &two) != WAI_ok ||
        netgen_bytes(NULL, &two, &tb, &tl) != WAI_ok)
        gen_die("wam1 two");
    static const char *const none[] = {NULL};
    const char *two_set = fixture_set("two_channels", set0, none, "model.wam", tb, tl);
    refusal(CAP_AUDIO, "two_channels.wia1", clip, len, two_set, "model_mismatch", "-");
    /* Two faults, in step 4's order: the channels before any length, so a
     * t_out far past what the synthesis gives is still model_mismatch. */
    memcpy(b, clip, len);
    wai_store_u32le(b + 20, 1000000);
    refusal(CAP_AUDIO, "two_channels_t_out_long.wia1", b, len, two_set, "model_mismatch", "-");
    wai_free(NULL, tb);
    wai_model_free(NULL, &two);
    /* t_out (at 20) past what lat_len gives; then so short that lat_len - 1
     * would do. */
    wai_plan p;
    wai_model m;
    size_t ml;
    uint8_t *mb = slurp("neural/audio/set0/model.wam", &ml);
    if (wai_model_parse(NULL, mb, ml, 1, &m) != WAI_ok ||
        wai_plan_model(NULL, &m, v.n_ch, 1, v.lat_len, &p) != WAI_ok)
        gen_die("audio plan");
    memcpy(b, clip, len);
    wai_store_u32le(b + 20, p.out_w + 1);
    refusal(CAP_AUDIO, "t_out_long.wia1", b, len, set0, "geometry_mismatch", "-");
    memcpy(b, clip, len);
    wai_store_u32le(b + 20, 1);
    refusal(CAP_AUDIO, "latent_long.wia1", b, len, set0, "geometry_mismatch", "-");
    wai_plan_free(NULL, &p);
    wai_model_free(NULL, &m);
    free(mb);
    /* E2: every median INT64_MAX, so a positive symbol leaves i64. */
    memcpy(b, clip, len);
    for (uint32_t k = 0; k < v.n_ch; k++) wai_store_u64le(b + 32 + 8 * (size_t)k, (uint64_t)INT64_MAX);
    refusal(CAP_AUDIO, "median_overflow.wia1", b, len, set0, "field_range", "-");
    stream_refusals(CAP_AUDIO, "wia1", clip, len, &v.stream, set0);
    free(b);
    free(clip);
}

/* Reading N8 (and N9 at lat_len 1): a synthesis whose second sample is far
 * past the PCM step's range. With t_out 1 only the first sample is stepped
 * and the clip decodes; with t_out 2 the second is refused. */
static void pcm_fixtures(void) {
    int16_t w[2] = {0, 1};
    int64_t mult[1] = {1}, bias[1] = {0};
    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = WAI_LAYER_CONV_T;
    l.cin = l.cout = 1;
    l.k = 2;
    l.stride = 1;
    l.n_weights = 2;
    l.weights = w;
    l.mult = mult;
    l.bias = bias;
    wai_model m;
    memset(&m, 0, sizeof m);
    m.dims = 1;
    m.afrac = 8;
    m.n_layers = 1;
    m.layers = &l;
    gen_mkdir(g_root, "neural/refuse/pcm_set");
    write_model("neural/refuse/pcm_set/model.wam", &m);
    uint32_t cdf[4] = {0, 32768, 49152, WAI_CDF_TOTAL};
    wai_cdf_table t;
    if (wai_cdf_table_init(&t, NULL, cdf, 4, 8) != WAI_ok) gen_die("table");
    int32_t zero = 0;
    uint8_t *stream;
    size_t slen;
    if (wai_rans_encode(NULL, &t, NULL, NULL, 0, &zero, 1, &stream, &slen) != WAI_ok) gen_die("pcm");
    int64_t median = (int64_t)1 << 50; /* the latent: 0·2^8 + 2^50 */
    for (uint32_t t_out = 1; t_out <= 2; t_out++) {
        wai_wia1_parts parts = {8, 8000, 1, 1, t_out, 0, 4, &median, cdf, stream, slen};
        uint8_t *b;
        size_t len;
        if (wai_wia1_write(NULL, &parts, &b, &len) != WAI_ok) gen_die("wia1 pcm");
        char name[64], hex[65];
        snprintf(name, sizeof name, "neural/refuse/pcm_t_out%u.wia1", t_out);
        gen_put(g_root, name, b, len);
        const uint8_t silence[2] = {0, 0}; /* sample 0: (0·32767 + 128) >> 8 */
        hex_of(silence, 2, hex);
        line(CAP_AUDIO, t_out == 1 ? "ok" : "field_range", "-", name, t_out == 1 ? hex : "-",
             "neural/refuse/pcm_set");
        wai_free(NULL, b);
    }
    wai_cdf_table_free(&t, NULL);
    free(stream);
}

static void splat_refusals(void) {
    const char *set0 = "neural/splat/set0";
    size_t len;
    uint8_t *pl = slurp("neural/splat/attrs0.wis1", &len);
    wai_wis1 v;
    if (wai_wis1_parse(pl, len, &v) != WAI_ok) gen_die("attrs0");
    uint8_t *b = malloc(len);
    if (!b) gen_die("memory");
    memcpy(b, pl, len);
    b[5] = (uint8_t)(v.afrac - 1);
    refusal(CAP_SPLAT, "afrac.wis1", b, len, set0, "model_mismatch", "-");
    memcpy(b, pl, len);
    wai_store_u32le(b + 20, v.s + 1);
    refusal(CAP_SPLAT, "side.wis1", b, len, set0, "geometry_mismatch", "-");
    /* The exactness rule: medians of 2^61 make the latent far past what g_s
     * takes (a latent that fits i64 is refused by the bound, not E2). */
    memcpy(b, pl, len);
    size_t med_at = (size_t)(v.medians - pl);
    for (uint32_t k = 0; k < v.c; k++)
        wai_store_u64le(b + med_at + 8 * (size_t)k, (uint64_t)1 << 61);
    refusal(CAP_SPLAT, "network_bound.wis1", b, len, set0, "field_range", "-");
    /* attrs2's stream (32 bytes) has words past its first state to cut. */
    size_t len2;
    uint8_t *pl2 = slurp("neural/splat/attrs2.wis1", &len2);
    wai_wis1 v2;
    if (wai_wis1_parse(pl2, len2, &v2) != WAI_ok) gen_die("attrs2");
    stream_refusals(CAP_SPLAT, "wis1", pl2, len2, &v2.stream, "neural/splat/set2");
    free(pl2);
    /* No g_s.whm where the set should be. */
    refusal(CAP_SPLAT, "no_model.wis1", pl, len, "neural/splat", "set_incomplete", "-");
    free(b);
    free(pl);
}

/* ---- a set that amplifies memory (issue 10) --------------------------------------
 * A 1x2x2 WIS1 latent and a g_s of one 1x1 transposed convolution of stride
 * 1799: 4 symbols and 12 multiply-accumulates declare a 3x1800x1800 output
 * and about 243 MB of working memory. Not in index.txt (a decode with no
 * memory limit would take that much): tests/unit/test_decode_memory.c and
 * tests/tool/test_limits.sh read it by name. */
static void amplify_fixture(void) {
    gen_mkdir(g_root, "neural/amplify");
    gen_mkdir(g_root, "neural/amplify/set");
    const uint32_t afrac = 10, stride = 1799, side = stride + 1, attr = 3;
    netgen_spec spec = {WAI_LAYER_CONV_T, 1, attr, 1, stride, 0, 0, 0};
    wai_model m;
    if (netgen_build(NULL, 4242, 2, afrac, &spec, 1, &m) != WAI_ok) gen_die("amplify net");
    write_model("neural/amplify/set/g_s.whm", &m);
    uint16_t len3 = 3;
    int32_t off = -1;
    int64_t med = 0;
    uint32_t cdf[3];
    random_cdf(cdf, 3);
    wai_cdf_table tab;
    if (wai_cdf_table_init(&tab, NULL, cdf, 3, 8) != WAI_ok) gen_die("amplify table");
    const wai_cdf_table *tabs[4] = {&tab, &tab, &tab, &tab};
    int32_t sym[4] = {-1, 0, -1, 0}, offs[4] = {-1, -1, -1, -1};
    size_t slen;
    uint8_t *stream = encode(tabs, offs, sym, 4, &slen);
    uint32_t ranges[2 * 3] = {0, 0x3F800000u, 0, 0x3F800000u, 0, 0x3F800000u};
    wai_wis1_parts parts = {(uint8_t)afrac, 1, 2, 2, side, attr, 1, ranges, &len3,
                            &off, &med, cdf, stream, slen};
    uint8_t *b;
    size_t len;
    if (wai_wis1_write(NULL, &parts, &b, &len) != WAI_ok) gen_die("amplify wis1");
    gen_put(g_root, "neural/amplify/attrs.wis1", b, len);
    wai_cdf_table_free(&tab, NULL);
    wai_model_free(NULL, &m);
    wai_free(NULL, b);
    free(stream);
}

void gen_neural(const char *outdir, FILE *index) {
    g_root = outdir;
    g_idx = index;
    hyper_corpus();
    audio_corpus();
    splat_corpus();
    gen_mkdir(g_root, "neural/refuse");
    hyper_refusals();
    audio_refusals();
    pcm_fixtures();
    splat_refusals();
    amplify_fixture();
}
