/* A fixture for every code the parse of a capability can give that the
 * other generators leave out (tests/unit/test_codecs.c holds the codec
 * table's list of each capability's parse codes to the index):
 *
 *   wai.video.int_hyper        a WIV1 keyframe-1 clip: §2 and §3's rules on
 *                              the outer payload (its last section is the
 *                              nested WIH1, so bytes after it are
 *                              nested_length, never trailing)
 *   wai.video.int_hyper.frame  a WIF1 keyframe-1 intra frame (nested WIH1)
 *                              and inter frame (a stream: trailing)
 *   wai.neural.bmshj2018       B18F (docs/bmshj2018.md): its header's rules
 *
 * Each is a `parse` case (the payload alone, no set). The bases come from
 * the library's writers; each fault is a byte edit of one, so each file
 * shows one rule. Layouts (offsets in bytes):
 *   WIV1 k1  header 0..36, table 36..48, stream length 48, 52..60, K 60, WIH1
 *   WIF1 k1 intra  header 0..32, table 32..44, K 44, WIH1 48..
 *   WIF1 k1 inter  header 0..32, vectors 32..36, stream length 36, 40..48 */
#include "gen_io.h"
#include "gen_parse_codes.h"

#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "write/payloads.h"

#define DIR "parse"

static const char *g_root;
static FILE *g_idx;

typedef struct buf {
    uint8_t b[512];
    size_t len;
} buf;

static void fixture(const char *cap, const char *name, const buf *x, const char *status) {
    char rel[256];
    snprintf(rel, sizeof rel, "%s/%s", DIR, name);
    gen_put(g_root, rel, x->b, x->len);
    fprintf(g_idx, "parse %s %s - %s -\n", cap, status, rel);
}

/* A fixture from base edited by `edit` (statements on x.b and x.len). */
#define FIX(cap, base, name, status, edit) \
    do {                                   \
        buf x = (base);                    \
        edit;                              \
        fixture(cap, name, &x, status);    \
    } while (0)

static buf of(const uint8_t *b, size_t len) {
    buf x;
    if (len > sizeof x.b) gen_die("base too long");
    memcpy(x.b, b, len);
    x.len = len;
    return x;
}

static void put32(uint8_t *p, uint32_t v) { wai_store_u32le(p, v); }

static const uint8_t empty_stream[8] = {0, 0, 0, 0x80, 0, 0, 0, 0};
static const uint32_t cdf3[3] = {0, 30000, 65536};

/* A 2x1x1 latent, 1x1x1 hyper-latent WIH1 with empty streams. */
static buf wih1_base(void) {
    wai_wih1_parts kp = {2, 1, 1, 1, 1, 1, empty_stream, 8, empty_stream, 8};
    uint8_t *key;
    size_t key_len;
    if (wai_wih1_write(NULL, &kp, &key, &key_len) != WAI_ok) gen_die("wih1 base");
    buf k = of(key, key_len);
    free(key);
    return k;
}

static void hyper_clip(void) {
    const char *cap = "wai.video.int_hyper";
    buf key = wih1_base();
    wai_wiv1_parts p = {1, 1, 1, 8, 8, 1, 1, 0, cdf3, 3, NULL, empty_stream, 8, key.b, key.len};
    uint8_t *b;
    size_t len;
    if (wai_wiv1_write(NULL, &p, &b, &len) != WAI_ok) gen_die("wiv1 k1 base");
    buf base = of(b, len);
    free(b);
    const size_t k_at = 60;
    FIX(cap, base, "k1_ok.wiv1", "ok", (void)0);
    FIX(cap, base, "k1_short.wiv1", "bad_magic", x.len = 3);
    FIX(cap, base, "k1_magic.wiv1", "bad_magic", x.b[1] = 'X');
    FIX(cap, base, "k1_magic_wih1.wiv1", "format_capability_mismatch", x.b[2] = 'H');
    FIX(cap, base, "k1_magic_only.wiv1", "stream_length", x.len = 4);
    FIX(cap, base, "k1_version.wiv1", "version", x.b[4] = 2);
    FIX(cap, base, "k1_header_cut.wiv1", "stream_length", x.len = 35);
    FIX(cap, base, "k1_reserved.wiv1", "reserved_nonzero", x.b[34] = 1);
    FIX(cap, base, "k1_q0.wiv1", "field_range", put32(x.b + 24, 0));
    FIX(cap, base, "k1_keyframe0.wiv1", "keyframe_capability_mismatch", x.b[6] = 0);
    FIX(cap, base, "k1_cap_frame.wiv1", "too_large", (put32(x.b + 12, 4096), put32(x.b + 16, 5462)));
    FIX(cap, base, "k1_table.wiv1", "cdf_malformed", put32(x.b + 36, 1));
    FIX(cap, base, "k1_byte_after.wiv1", "nested_length",
        (put32(x.b + k_at, (uint32_t)key.len + 1), x.b[x.len++] = 0));
    /* The nested WIH1's own parse (reading R3). */
    FIX(cap, base, "k1_nested_magic.wiv1", "bad_magic", x.b[k_at + 4] = 'X');
    FIX(cap, base, "k1_nested_reserved.wiv1", "reserved_nonzero", x.b[k_at + 4 + 6] = 1);
    FIX(cap, base, "k1_nested_too_large.wiv1", "too_large",
        (put32(x.b + k_at + 4 + 8, 1u << 20), put32(x.b + k_at + 4 + 12, 1u << 10),
         put32(x.b + k_at + 4 + 16, 1u << 10)));
}

static void hyper_frame(void) {
    const char *cap = "wai.video.int_hyper.frame";
    buf key = wih1_base();
    wai_wif1_parts ip = {0, 1, 0, 8, 8, 0, 1, 0, cdf3, 3, NULL, NULL, 0, key.b, key.len};
    uint8_t *b;
    size_t len;
    if (wai_wif1_write(NULL, &ip, &b, &len) != WAI_ok) gen_die("wif1 k1 intra base");
    buf intra = of(b, len);
    free(b);
    const int16_t vec[2] = {0, 0};
    wai_wif1_parts pp = {1, 1, 1, 8, 8, 8, 0, 0, NULL, 0, vec, empty_stream, 8, NULL, 0};
    if (wai_wif1_write(NULL, &pp, &b, &len) != WAI_ok) gen_die("wif1 k1 inter base");
    buf inter = of(b, len);
    free(b);
    FIX(cap, intra, "k1_intra_ok.wif1", "ok", (void)0);
    FIX(cap, inter, "k1_inter_ok.wif1", "ok", (void)0);
    FIX(cap, intra, "k1_short.wif1", "bad_magic", x.len = 2);
    FIX(cap, intra, "k1_magic_wiv1.wif1", "format_capability_mismatch", x.b[2] = 'V');
    FIX(cap, intra, "k1_version.wif1", "version", x.b[4] = 0);
    FIX(cap, intra, "k1_header_cut.wif1", "stream_length", x.len = 31);
    FIX(cap, intra, "k1_reserved.wif1", "reserved_nonzero", x.b[31] = 1);
    FIX(cap, intra, "k1_kind2.wif1", "field_range", x.b[5] = 2);
    FIX(cap, intra, "k1_keyframe0.wif1", "keyframe_capability_mismatch", x.b[6] = 0);
    FIX(cap, inter, "k1_inter_keyframe0.wif1", "keyframe_capability_mismatch", x.b[6] = 0);
    FIX(cap, intra, "k1_cap_frame.wif1", "too_large", (put32(x.b + 8, 4096), put32(x.b + 12, 5462)));
    FIX(cap, intra, "k1_table.wif1", "cdf_malformed", put32(x.b + 32 + 8, 65535));
    FIX(cap, intra, "k1_byte_after.wif1", "nested_length",
        (put32(x.b + 44, (uint32_t)key.len + 1), x.b[x.len++] = 0));
    FIX(cap, intra, "k1_nested_version.wif1", "version", x.b[48 + 4] = 9);
    FIX(cap, inter, "k1_inter_trailing.wif1", "trailing", x.b[x.len++] = 0);
    FIX(cap, inter, "k1_inter_stream_cut.wif1", "stream_length", x.len -= 1);
}

/* B18F: header 0..28 (picture 16 x 16, latent 1 x 1 x 1), stream 28.. */
static void bmshj2018(void) {
    const char *cap = "wai.neural.bmshj2018";
    buf base;
    memset(base.b, 0, 28);
    memcpy(base.b, "B18F\x01", 5);
    put32(base.b + 8, 16), put32(base.b + 12, 16);
    put32(base.b + 16, 1), put32(base.b + 20, 1), put32(base.b + 24, 1);
    put32(base.b + 28, 8);
    memcpy(base.b + 32, empty_stream, 8);
    base.len = 40;
    FIX(cap, base, "b18f_ok.b18f", "ok", (void)0);
    FIX(cap, base, "b18f_short.b18f", "bad_magic", x.len = 3);
    FIX(cap, base, "b18f_magic.b18f", "bad_magic", x.b[3] = 'G');
    FIX(cap, base, "b18f_magic_wih1.b18f", "format_capability_mismatch", memcpy(x.b, "WIH1", 4));
    FIX(cap, base, "b18f_magic_only.b18f", "stream_length", x.len = 4);
    FIX(cap, base, "b18f_version.b18f", "version", x.b[4] = 2);
    FIX(cap, base, "b18f_header_cut.b18f", "stream_length", x.len = 27);
    FIX(cap, base, "b18f_reserved.b18f", "reserved_nonzero", x.b[6] = 1);
    FIX(cap, base, "b18f_height0.b18f", "field_range", put32(x.b + 8, 0));
    FIX(cap, base, "b18f_m0.b18f", "field_range", put32(x.b + 16, 0));
    /* The latent's sides are the picture's over 16, rounded up. */
    FIX(cap, base, "b18f_lh.b18f", "field_range", put32(x.b + 20, 2));
    FIX(cap, base, "b18f_lw_17.b18f", "field_range", put32(x.b + 12, 17));
    FIX(cap, base, "b18f_cap.b18f", "too_large",
        (put32(x.b + 8, 1u << 17), put32(x.b + 12, 1u << 17), put32(x.b + 16, 2),
         put32(x.b + 20, 1u << 13), put32(x.b + 24, 1u << 13)));
    FIX(cap, base, "b18f_stream_cut.b18f", "stream_length", x.len = 39);
    FIX(cap, base, "b18f_stream_len7.b18f", "stream_length", put32(x.b + 28, 7));
    FIX(cap, base, "b18f_trailing.b18f", "trailing", x.b[x.len++] = 0);
}

void gen_parse_codes(const char *outdir, FILE *index) {
    g_root = outdir;
    g_idx = index;
    gen_mkdir(outdir, DIR);
    hyper_clip();
    hyper_frame();

    bmshj2018();
}
