/* The parse refusals of the neural payloads (integer-payloads §2, §4-§7): a
 * fixture for every code the WIH1, WIA1 and WIS1 parsers give, and for each
 * rule's boundary and the order of two faults, each a `parse` case of
 * index.txt (the payload alone through wai_check_payload / `wai inspect`;
 * no parameter set is read). The base payloads come from the library's
 * writers; every fault is a byte edit of a base, so each file shows one
 * rule.
 *
 * Layouts of the bases (offsets in bytes):
 *   WIH1  header 0..32, z stream length 32, bytes 36..44, y stream 44..56
 *   WIA1  header 0..32, medians 32..48, tables 48..80 (channel 1 from 64),
 *         stream length 80, bytes 84..92
 *   WIS1  header 0..32, ranges 32..56, lengths 56..60, offsets 60..68,
 *         medians 68..84, tables 84..116 (channel 1 from 96), stream length
 *         116, bytes 120..128 */
#include "gen_io.h"
#include "gen_neural_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/reader.h"
#include "formats/wia1.h"
#include "formats/wih1.h"
#include "formats/wis1.h"
#include "write/payloads.h"

#define CAP_IMAGE "wai.neural.int_hyper"
#define CAP_AUDIO "wai.audio.int_codec"
#define CAP_SPLAT "wai.splat.int_codec"
#define DIR "neural/refuse/parse"
#define CAP26 ((uint32_t)1 << 26)

static const char *g_root;
static FILE *g_idx;



/* Writes DIR/name and its index line: parse CAP STATUS - FILE -. */
static void fixture(const char *cap, const char *name, const uint8_t *b, size_t len,
                    const char *status) {
    char rel[256];
    snprintf(rel, sizeof rel, "%s/%s", DIR, name);
    gen_put(g_root, rel, b, len);
    fprintf(g_idx, "parse %s %s - %s -\n", cap, status, rel);
}

typedef struct buf {
    uint8_t b[256];
    size_t len;
} buf;

static const uint8_t empty_stream[8] = {0, 0, 0, 0x80, 0, 0, 0, 0};

/* A fixture from base edited by `edit` (statements on x.b and x.len). */
#define FIX(cap, base, name, status, edit) \
    do {                                   \
        buf x = (base);                    \
        edit;                              \
        fixture(cap, name, x.b, x.len, status); \
    } while (0)

static void put32(uint8_t *p, uint32_t v) { wai_store_u32le(p, v); }

static buf own(uint8_t *b, size_t len) {
    buf o;
    if (len > sizeof o.b) gen_die("base too long");
    memcpy(o.b, b, len);
    o.len = len;
    free(b);
    return o;
}

/* ---- WIH1 (§4) -------------------------------------------------------- */

static void wih1_fixtures(void) {
    wai_wih1_parts p = {2, 1, 1, 1, 1, 1, empty_stream, 8, empty_stream, 8};
    uint8_t *b;
    size_t len;
    if (wai_wih1_write(NULL, &p, &b, &len) != WAI_ok) gen_die("wih1");
    const buf base = own(b, len);
    FIX(CAP_IMAGE, base, "wih1_ok.wih1", "ok", (void)0);
    FIX(CAP_IMAGE, base, "wih1_three_bytes.wih1", "bad_magic", x.len = 3);
    FIX(CAP_IMAGE, base, "wih1_magic_wia1.wih1", "format_capability_mismatch", x.b[2] = 'A');
    FIX(CAP_IMAGE, base, "wih1_magic_only.wih1", "stream_length", x.len = 4);
    FIX(CAP_IMAGE, base, "wih1_version0.wih1", "version", x.b[4] = 0);
    FIX(CAP_IMAGE, base, "wih1_header_cut.wih1", "stream_length", x.len = 31);
    FIX(CAP_IMAGE, base, "wih1_reserved.wih1", "reserved_nonzero", x.b[7] = 1);
    FIX(CAP_IMAGE, base, "wih1_reserved_and_m0.wih1", "reserved_nonzero",
        (x.b[5] = 1, put32(x.b + 8, 0)));
    FIX(CAP_IMAGE, base, "wih1_m0.wih1", "field_range", put32(x.b + 8, 0));
    FIX(CAP_IMAGE, base, "wih1_zw0.wih1", "field_range", put32(x.b + 28, 0));
    /* A field rule comes before the caps. */
    FIX(CAP_IMAGE, base, "wih1_m0_and_cap.wih1", "field_range",
        (put32(x.b + 8, 0), put32(x.b + 20, UINT32_MAX), put32(x.b + 24, UINT32_MAX)));
    /* n_z·zh·zw, then 2·m·sh·sw, each at most 2^26 (R4: equality passes). */
    FIX(CAP_IMAGE, base, "wih1_z_cap.wih1", "too_large",
        (put32(x.b + 20, (1 << 13) + 1), put32(x.b + 24, 1 << 13)));
    FIX(CAP_IMAGE, base, "wih1_z_cap_equal.wih1", "ok",
        (put32(x.b + 20, 1 << 13), put32(x.b + 24, 1 << 13)));
    FIX(CAP_IMAGE, base, "wih1_y_cap.wih1", "too_large", put32(x.b + 8, (1u << 25) + 1));
    FIX(CAP_IMAGE, base, "wih1_y_cap_equal.wih1", "ok", put32(x.b + 8, 1u << 25));
    FIX(CAP_IMAGE, base, "wih1_z_absent.wih1", "stream_length", x.len = 34);
    FIX(CAP_IMAGE, base, "wih1_z_len6.wih1", "stream_length", put32(x.b + 32, 6));
    FIX(CAP_IMAGE, base, "wih1_z_len4.wih1", "stream_length", put32(x.b + 32, 4));
    FIX(CAP_IMAGE, base, "wih1_y_cut.wih1", "stream_length", x.len = 52);
    FIX(CAP_IMAGE, base, "wih1_trailing.wih1", "trailing", x.b[x.len++] = 0);
}

/* ---- WIA1 (§5) -------------------------------------------------------- */

static void wia1_fixtures(void) {
    static const int64_t medians[2] = {5, -7};
    static const uint32_t cdfs[8] = {0, 100, 200, 65536, 0, 1, 2, 65536};
    wai_wia1_parts p = {8, 16000, 2, 3, 10, -3, 4, medians, cdfs, empty_stream, 8};
    uint8_t *b;
    size_t len;
    if (wai_wia1_write(NULL, &p, &b, &len) != WAI_ok) gen_die("wia1");
    const buf base = own(b, len);
    FIX(CAP_AUDIO, base, "wia1_ok.wia1", "ok", (void)0);
    FIX(CAP_AUDIO, base, "wia1_empty.wia1", "bad_magic", x.len = 0);
    FIX(CAP_AUDIO, base, "wia1_three_bytes.wia1", "bad_magic", x.len = 3);
    FIX(CAP_AUDIO, base, "wia1_json_form.wia1", "bad_magic",
        (memcpy(x.b, "{\"sample_rate\": 1}", 18), x.len = 18));
    FIX(CAP_AUDIO, base, "wia1_magic_wis1.wia1", "format_capability_mismatch", x.b[2] = 'S');
    FIX(CAP_AUDIO, base, "wia1_magic_only.wia1", "stream_length", x.len = 4);
    FIX(CAP_AUDIO, base, "wia1_version2.wia1", "version", x.b[4] = 2);
    FIX(CAP_AUDIO, base, "wia1_version2_cut.wia1", "version", (x.b[4] = 2, x.len = 5));
    FIX(CAP_AUDIO, base, "wia1_header_cut.wia1", "stream_length", x.len = 31);
    FIX(CAP_AUDIO, base, "wia1_reserved6.wia1", "reserved_nonzero", x.b[6] = 1);
    FIX(CAP_AUDIO, base, "wia1_reserved31.wia1", "reserved_nonzero", x.b[31] = 0x80);
    FIX(CAP_AUDIO, base, "wia1_reserved_and_afrac0.wia1", "reserved_nonzero",
        (x.b[30] = 1, x.b[5] = 0));
    /* Field rules in §5's order: afrac, sr, n_ch, lat_len, t_out, cdf_len. */
    FIX(CAP_AUDIO, base, "wia1_afrac0.wia1", "field_range", x.b[5] = 0);
    FIX(CAP_AUDIO, base, "wia1_afrac1.wia1", "ok", x.b[5] = 1);
    FIX(CAP_AUDIO, base, "wia1_afrac30.wia1", "ok", x.b[5] = 30);
    FIX(CAP_AUDIO, base, "wia1_afrac31.wia1", "field_range", x.b[5] = 31);
    FIX(CAP_AUDIO, base, "wia1_sr0.wia1", "field_range", put32(x.b + 8, 0));
    FIX(CAP_AUDIO, base, "wia1_n_ch0.wia1", "field_range", put32(x.b + 12, 0));
    FIX(CAP_AUDIO, base, "wia1_lat_len0.wia1", "field_range", put32(x.b + 16, 0));
    FIX(CAP_AUDIO, base, "wia1_t_out0.wia1", "field_range", put32(x.b + 20, 0));
    FIX(CAP_AUDIO, base, "wia1_cdf_len2.wia1", "field_range", wai_store_u16le(x.b + 28, 2));
    FIX(CAP_AUDIO, base, "wia1_cdf_len4098.wia1", "field_range", wai_store_u16le(x.b + 28, 4098));
    /* Caps in §5's order (R4), after every field rule. */
    FIX(CAP_AUDIO, base, "wia1_latent_cap.wia1", "too_large",
        (put32(x.b + 12, (1 << 13) + 1), put32(x.b + 16, 1 << 13)));
    FIX(CAP_AUDIO, base, "wia1_latent_cap_equal.wia1", "stream_length",
        (put32(x.b + 12, 1 << 13), put32(x.b + 16, 1 << 13)));
    FIX(CAP_AUDIO, base, "wia1_t_out_cap.wia1", "too_large", put32(x.b + 20, CAP26 + 1));
    FIX(CAP_AUDIO, base, "wia1_t_out_cap_equal.wia1", "ok", put32(x.b + 20, CAP26));
    FIX(CAP_AUDIO, base, "wia1_cdf_len2_and_cap.wia1", "field_range",
        (wai_store_u16le(x.b + 28, 2), put32(x.b + 20, UINT32_MAX)));
    FIX(CAP_AUDIO, base, "wia1_cap_and_cut.wia1", "too_large",
        (put32(x.b + 20, UINT32_MAX), x.len = 32));
    /* Sections: medians (no rule, N2), then table by table, then the
     * stream, then nothing. */
    FIX(CAP_AUDIO, base, "wia1_medians_cut.wia1", "stream_length", x.len = 47);
    FIX(CAP_AUDIO, base, "wia1_medians_extreme.wia1", "ok",
        (wai_store_u64le(x.b + 32, (uint64_t)INT64_MIN), wai_store_u64le(x.b + 40, INT64_MAX)));
    FIX(CAP_AUDIO, base, "wia1_table_cut.wia1", "stream_length", x.len = 70);
    FIX(CAP_AUDIO, base, "wia1_table0_first.wia1", "cdf_malformed", put32(x.b + 48, 1));
    FIX(CAP_AUDIO, base, "wia1_table1_last.wia1", "cdf_malformed", put32(x.b + 76, 65535));
    FIX(CAP_AUDIO, base, "wia1_table1_flat.wia1", "cdf_malformed", put32(x.b + 68, 0));
    /* §2 step 7: table 0 checked before table 1 is asked for. */
    FIX(CAP_AUDIO, base, "wia1_table0_bad_table1_cut.wia1", "cdf_malformed",
        (put32(x.b + 56, 100), x.len = 70));
    FIX(CAP_AUDIO, base, "wia1_stream_absent.wia1", "stream_length", x.len = 82);
    FIX(CAP_AUDIO, base, "wia1_stream_len6.wia1", "stream_length", put32(x.b + 80, 6));
    FIX(CAP_AUDIO, base, "wia1_stream_len4.wia1", "stream_length", put32(x.b + 80, 4));
    FIX(CAP_AUDIO, base, "wia1_stream_cut.wia1", "stream_length", x.len = 88);
    FIX(CAP_AUDIO, base, "wia1_trailing.wia1", "trailing", x.b[x.len++] = 0);
    FIX(CAP_AUDIO, base, "wia1_table_bad_and_trailing.wia1", "cdf_malformed",
        (put32(x.b + 48, 1), x.b[x.len++] = 0));
}

/* ---- WIS1 (§6) -------------------------------------------------------- */

static void wis1_fixtures(void) {
    /* Planes: [+0, 1.0], [-1.0, 0.5], [-0, +0] as binary32 bit patterns. */
    static const uint32_t ranges[6] = {0, 0x3F800000u, 0xBF800000u, 0x3F000000u,
                                       0x80000000u, 0};
    static const uint16_t lengths[2] = {3, 5};
    static const int32_t offsets[2] = {-1, 2};
    static const int64_t medians[2] = {0, 9};
    static const uint32_t cdfs[8] = {0, 30000, 65536, 0, 1, 2, 3, 65536};
    wai_wis1_parts p = {12, 2, 2, 3, 4, 3, 16, ranges, lengths, offsets, medians, cdfs,
                        empty_stream, 8};
    uint8_t *b;
    size_t len;
    if (wai_wis1_write(NULL, &p, &b, &len) != WAI_ok) gen_die("wis1");
    const buf base = own(b, len);
    FIX(CAP_SPLAT, base, "wis1_ok.wis1", "ok", (void)0);
    FIX(CAP_SPLAT, base, "wis1_three_bytes.wis1", "bad_magic", x.len = 3);
    FIX(CAP_SPLAT, base, "wis1_magic_xxxx.wis1", "bad_magic", memcpy(x.b, "XIS1", 4));
    FIX(CAP_SPLAT, base, "wis1_magic_wia1.wis1", "format_capability_mismatch", x.b[2] = 'A');
    FIX(CAP_SPLAT, base, "wis1_magic_only.wis1", "stream_length", x.len = 4);
    FIX(CAP_SPLAT, base, "wis1_version0.wis1", "version", x.b[4] = 0);
    FIX(CAP_SPLAT, base, "wis1_header_cut.wis1", "stream_length", x.len = 31);
    FIX(CAP_SPLAT, base, "wis1_reserved.wis1", "reserved_nonzero", x.b[7] = 1);
    FIX(CAP_SPLAT, base, "wis1_reserved_and_c0.wis1", "reserved_nonzero",
        (x.b[6] = 1, put32(x.b + 8, 0)));
    /* Field rules in §6's order: afrac, the dimensions, n_gaussians. */
    FIX(CAP_SPLAT, base, "wis1_afrac0.wis1", "field_range", x.b[5] = 0);
    FIX(CAP_SPLAT, base, "wis1_afrac31.wis1", "field_range", x.b[5] = 31);
    FIX(CAP_SPLAT, base, "wis1_afrac30.wis1", "ok", x.b[5] = 30);
    FIX(CAP_SPLAT, base, "wis1_c0.wis1", "field_range", put32(x.b + 8, 0));
    FIX(CAP_SPLAT, base, "wis1_sw0.wis1", "field_range", put32(x.b + 16, 0));
    FIX(CAP_SPLAT, base, "wis1_s0.wis1", "field_range", put32(x.b + 20, 0));
    FIX(CAP_SPLAT, base, "wis1_attr0.wis1", "field_range", put32(x.b + 24, 0));
    FIX(CAP_SPLAT, base, "wis1_n_gaussians0.wis1", "field_range", put32(x.b + 28, 0));
    FIX(CAP_SPLAT, base, "wis1_n_gaussians17.wis1", "field_range", put32(x.b + 28, 17));
    FIX(CAP_SPLAT, base, "wis1_n_gaussians1.wis1", "ok", put32(x.b + 28, 1));
    /* Caps in §6's order, after every field rule. */
    FIX(CAP_SPLAT, base, "wis1_latent_cap.wis1", "too_large",
        (put32(x.b + 8, (1 << 10) + 1), put32(x.b + 12, 1 << 8), put32(x.b + 16, 1 << 8)));
    FIX(CAP_SPLAT, base, "wis1_latent_cap_equal.wis1", "stream_length",
        (put32(x.b + 8, 1 << 10), put32(x.b + 12, 1 << 8), put32(x.b + 16, 1 << 8)));
    FIX(CAP_SPLAT, base, "wis1_attr_cap.wis1", "too_large",
        (put32(x.b + 20, 8192), put32(x.b + 24, 2)));
    FIX(CAP_SPLAT, base, "wis1_n_gaussians0_and_cap.wis1", "field_range",
        (put32(x.b + 28, 0), put32(x.b + 8, UINT32_MAX)));
    /* The ranges: a section after the caps; binary32, finite, lo <= hi
     * (N10: +0 and -0 compare equal; every NaN is refused). */
    FIX(CAP_SPLAT, base, "wis1_range_nan.wis1", "field_range", put32(x.b + 36, 0x7FC00000u));
    FIX(CAP_SPLAT, base, "wis1_range_nan_signalling.wis1", "field_range",
        put32(x.b + 32, 0x7F800001u));
    FIX(CAP_SPLAT, base, "wis1_range_nan_negative.wis1", "field_range",
        put32(x.b + 40, 0xFFFFFFFFu));
    FIX(CAP_SPLAT, base, "wis1_range_inf.wis1", "field_range", put32(x.b + 36, 0x7F800000u));
    FIX(CAP_SPLAT, base, "wis1_range_neg_inf.wis1", "field_range", put32(x.b + 40, 0xFF800000u));
    FIX(CAP_SPLAT, base, "wis1_range_lo_gt_hi.wis1", "field_range", put32(x.b + 40, 0x3F800000u));
    FIX(CAP_SPLAT, base, "wis1_range_neg_lo_gt_hi.wis1", "field_range",
        (put32(x.b + 40, 0xBF000000u), put32(x.b + 44, 0xBF800000u)));
    FIX(CAP_SPLAT, base, "wis1_range_zeros.wis1", "ok",
        (put32(x.b + 48, 0), put32(x.b + 52, 0x80000000u)));
    FIX(CAP_SPLAT, base, "wis1_range_subnormal_gt.wis1", "field_range",
        (put32(x.b + 48, 1), put32(x.b + 52, 0x80000000u)));
    FIX(CAP_SPLAT, base, "wis1_ranges_cut.wis1", "stream_length", x.len = 50);
    FIX(CAP_SPLAT, base, "wis1_range_bad_lengths_cut.wis1", "field_range",
        (put32(x.b + 36, 0x7FC00000u), x.len = 57));
    FIX(CAP_SPLAT, base, "wis1_too_large_range_bad.wis1", "too_large",
        (put32(x.b + 36, 0x7FC00000u), put32(x.b + 8, CAP26)));
    /* Table lengths 3..=4097: the whole section present, then each. */
    FIX(CAP_SPLAT, base, "wis1_length2.wis1", "field_range", wai_store_u16le(x.b + 58, 2));
    FIX(CAP_SPLAT, base, "wis1_length4098.wis1", "field_range", wai_store_u16le(x.b + 56, 4098));
    FIX(CAP_SPLAT, base, "wis1_lengths_cut.wis1", "stream_length", x.len = 58);
    FIX(CAP_SPLAT, base, "wis1_length_bad_offsets_cut.wis1", "field_range",
        (wai_store_u16le(x.b + 58, 0), x.len = 62));
    /* Offsets and medians: present, no rule. */
    FIX(CAP_SPLAT, base, "wis1_offsets_cut.wis1", "stream_length", x.len = 66);
    FIX(CAP_SPLAT, base, "wis1_medians_cut.wis1", "stream_length", x.len = 80);
    FIX(CAP_SPLAT, base, "wis1_offsets_medians_extreme.wis1", "ok",
        (put32(x.b + 60, 0x80000000u), wai_store_u64le(x.b + 76, (uint64_t)INT64_MIN)));
    /* Tables, table by table; a length that reaches past its table's end. */
    FIX(CAP_SPLAT, base, "wis1_table0_bad.wis1", "cdf_malformed", put32(x.b + 88, 0));
    FIX(CAP_SPLAT, base, "wis1_table0_bad_table1_cut.wis1", "cdf_malformed",
        (put32(x.b + 88, 0), x.len = 100));
    FIX(CAP_SPLAT, base, "wis1_table1_cut.wis1", "stream_length", x.len = 100);
    FIX(CAP_SPLAT, base, "wis1_table1_last.wis1", "cdf_malformed", put32(x.b + 112, 65537));
    FIX(CAP_SPLAT, base, "wis1_length_shifts_tables.wis1", "cdf_malformed",
        wai_store_u16le(x.b + 56, 4));
    FIX(CAP_SPLAT, base, "wis1_stream_absent.wis1", "stream_length", x.len = 116);
    FIX(CAP_SPLAT, base, "wis1_stream_len12.wis1", "stream_length", put32(x.b + 116, 12));
    FIX(CAP_SPLAT, base, "wis1_stream_len9.wis1", "stream_length", put32(x.b + 116, 9));
    FIX(CAP_SPLAT, base, "wis1_trailing.wis1", "trailing", x.b[x.len++] = 0);
}

void gen_neural_parse(const char *outdir, FILE *index) {
    g_root = outdir;
    g_idx = index;
    gen_mkdir(g_root, "neural");
    gen_mkdir(g_root, "neural/refuse");
    gen_mkdir(g_root, DIR);
    wih1_fixtures();
    wia1_fixtures();
    wis1_fixtures();
}
