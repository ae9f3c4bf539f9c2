/* SPDX-License-Identifier: BSD-2-Clause */
/* wai encode: one table of options for every encoder, and the encoder
 * chosen by the capability's registry row (encode.h): the motion encoder
 * (encode_motion.c), a picture's (encode_hyper.c: WIH1, WIM1) or latents'
 * (encode_synth.c). */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "encode.h"
#include "wai/wai_format.h"

#define CLIPS (ENCODE_MOTION | ENCODE_KEYED)
#define E(field) offsetof(encode_options, field)

static const cli_opt encode_opts[] = {
    {.name = "--capability", .value = "CAP", .offset = E(capability),
     .help = "wai.video.int_motion, or wai.video.int_motion.frame\n"
             "(the same as --frames), or wai.video.int_hyper (with\n"
             "--set DIR; .frame for its WIF1 group), or\n"
             "wai.neural.int_hyper, wai.neural.int_mlicpp or\n"
             "wai.neural.int_synth (the usage lines above); required"},
    {.name = "--q", .value = "N", .offset = E(q), .parse = cli_take_u64, .min = 1, .max = 65535,
     .modes = CLIPS,
     .help = "quantiser step, 1..65535 (default 1: lossless); a clip\n"
             "that q 1 codes in no more bytes is written lossless\n"
             "instead, and the report says so (q > 1 encodes twice)"},
    {.name = "--block", .value = "N", .offset = E(block), .parse = cli_take_u64, .min = 1,
     .max = UINT32_MAX, .modes = CLIPS, .help = "motion block size in pels, >= 1 (default 16)"},
    {.name = "--search", .value = "R", .offset = E(search), .parse = cli_take_u64,
     .max = WAI_MOTION_ENCODE_MAX_SEARCH, .modes = CLIPS,
     .help = "whole-pel full search within +-R pels, 0..16383\n"
             "(default 8)"},
    {.name = "--half-pel", .offset = E(half_pel), .modes = CLIPS,
     .help = "refine each vector to half-pel precision"},
    {.name = "--sad-search", .offset = E(sad_search), .modes = CLIPS,
     .help = "choose each vector by its SAD alone; by default the\n"
             "few of least SAD are weighed by squared error plus\n"
             "lambda times their residuals' bits (smaller clips\n"
             "at the same PSNR; docs/motion-encoder.md)"},
    {.name = "--frames", .offset = E(frames), .modes = CLIPS,
     .help = "write the clip as a WIF1 frame stream\n"
             "(wai.video.int_motion.frame), one file per frame: OUT\n"
             "is a name with one %d or %0Nd (N 1..9; %% for a\n"
             "literal %), numbered from 0, or a directory, which\n"
             "gets frame_000000.wif1, frame_000001.wif1, ..."},
    {.name = "--threads", .value = "N", .offset = E(threads), .parse = cli_take_u64, .max = 1024,
     .modes = CLIPS | ENCODE_PICTURES,
     .help = "motion-search threads (0: one per core; default 1,\n"
             "up to 1024); the payload is the same at every count"},
    {.name = "--quiet", .offset = E(quiet), .modes = CLIPS | ENCODE_PICTURES,
     .help = "no progress lines (the summary is still printed)"},
    {.name = "-o", .value = "OUT", .offset = E(out),
     .help = "the output file (or the --frames names); '-' writes\n"
             "the payload to standard output. Written beside\n"
             "itself and renamed into place when complete; never\n"
             "an input"},
    {.name = "--force", .alias = "-y", .offset = E(force),
     .help = "replace OUT (or a --frames name) when it exists"},
    {.name = "--receipt", .value = "R.json", .offset = E(receipt), .modes = ENCODE_MOTION,
     .help = "also write the clip's encode receipt (integer-payloads\n"
             "15.3), signed with KEY: the payload, the source frames'\n"
             "hashes, the parameters, the squared error and the\n"
             "encode's energy ('wai receipt verify R.json OUT\n"
             "--source IN' re-derives it)"},
    {.name = "--key", .value = "KEY", .offset = E(sign.key), .modes = ENCODE_MOTION,
     .help = "the signing key ('wai keygen' writes one)"},
    {.name = "--id", .value = "ID", .offset = E(sign.id), .modes = ENCODE_MOTION,
     .help = "the signer's id in the receipt (default empty)"},
    {.name = "--parent", .value = "HASH", .offset = E(sign.parent), .modes = ENCODE_MOTION,
     .help = "the receipt hash of the receipt before it"},
    {.name = "--powercap", .value = "DIR", .offset = E(sign.powercap), .modes = ENCODE_MOTION,
     .help = "where the energy counters are (default\n"
             "/sys/class/powercap; none readable: unmetered)"},
    {.name = "--set", .value = "DIR", .offset = E(set_dir),
     .modes = ENCODE_KEYED | ENCODE_PICTURES | ENCODE_LATENTS,
     .help = "wai.video.int_hyper, wai.neural.int_hyper,\n"
             "wai.neural.int_mlicpp: the set the keyframe or picture\n"
             "is coded against (the decoder's members and the\n"
             "encoder's); wai.neural.int_synth: a set to check the\n"
             "payload against"},
    {.name = "--quality", .value = "Q", .offset = E(quality), .parse = cli_take_u64, .min = 1,
     .max = ENCODE_QUALITY_MAX, .modes = ENCODE_KEYED | ENCODE_PICTURES,
     .help = "the rate point, 1..8: --set DIR is then a folder of\n"
             "sets, one per rate point, and the set is DIR/qQ\n"
             "(examples/hyperprior/sets has q1, q3, q5 and q7;\n"
             "higher: more bytes, better pictures). Decode with\n"
             "--set DIR/qQ"},
    {.name = "--slices", .value = "K", .offset = E(slices), .parse = cli_take_u64, .min = 1,
     .max = 65535, .modes = ENCODE_SLICED,
     .help = "wai.neural.int_mlicpp: the latent's channel slices, each\n"
             "coded in two passes after the entropy network, 1..65535,\n"
             "dividing the set's latent channels (default 4)"},
    {.name = "--size", .value = "HxW", .offset = E(size), .parse = encode_take_size,
     .must = "H or HxW, each 1..2^32-1", .modes = ENCODE_LATENTS,
     .help = "wai.neural.int_synth: the picture the set's network\n"
             "makes from LATENTS (H alone: H x H)"},
    {.name = "--channels", .value = "C", .offset = E(channels), .parse = cli_take_u64, .min = 1,
     .max = 65535, .modes = ENCODE_LATENTS,
     .help = "wai.neural.int_synth: the channels of raw LATENTS\n"
             "(not a .npy), 1..65535"},
};

static int cmd_encode(int argc, char **argv);

const cli_command encode_command = {
    .name = "encode",
    .summary = "encode Y4M or PNG frames as a wai.video.int_motion clip,\n"
               "or a picture as a wai.neural.int_hyper WIH1 or a\n"
               "wai.neural.int_mlicpp WIM1",
    .usage = "wai encode --capability wai.video.int_motion [--q N] [--block N]\n"
             "                  [--search R] [--half-pel] [--sad-search] [--frames]\n"
             "                  [--threads N] [--quiet] [-y] IN... -o OUT\n"
             "                  [--receipt R.json --key KEY [--id ID] [--parent HASH]\n"
             "                   [--powercap DIR]]\n"
             "       wai encode --capability wai.neural.int_synth --size HxW [--set DIR]\n"
             "                  [--channels C] [-y] LATENTS -o OUT\n"
             "       wai encode --capability wai.neural.int_hyper --set DIR [--quality Q]\n"
             "                  [--threads N] [--quiet] [-y] PICTURE -o OUT\n"
             "       wai encode --capability wai.neural.int_mlicpp --set DIR [--quality Q]\n"
             "                  [--slices K] [--threads N] [--quiet] [-y] PICTURE -o OUT\n",
    .about = "wai.video.int_hyper takes the int_motion options and --set DIR (as for\n"
             "wai.neural.int_hyper): frame 0 becomes the keyframe, a WIH1 coded against\n"
             "the set, and the later frames are coded from its decode as int_motion codes\n"
             "them; the frames are padded to multiples of 64 (a keyframe-1 clip is its\n"
             "WIH1's size). --frames (or --capability wai.video.int_hyper.frame)\n"
             "writes its WIF1 group, frame 0 carrying the WIH1; no --receipt.\n"
             "\n"
             "wai.neural.int_hyper (integer-payloads 4): PICTURE (a .png, or a .y4m of\n"
             "one frame) to a WIH1 against the set in DIR, which holds the decoder's\n"
             "members (g_s.whm, h_s.whm, entropy.json) and the encoder's\n"
             "(analysis.webnn.json, analysis.f32: the analysis networks as a WebNN graph;\n"
             "examples/hyperprior/sets/q3 is one). With --quality Q, DIR is a folder of\n"
             "such sets, one a rate point (q1, q3, ...), and the set is DIR/qQ; the\n"
             "summary names it, and the payload decodes against it alone. The analysis\n"
             "runs in float on the native WebNN; the rest is the decoder's integer\n"
             "arithmetic, so the payload's scales are the ones every decoder forms. A\n"
             "side that is not a multiple of 64 is padded (the last row and column\n"
             "repeated): WIH1 carries no picture size, so the decode is the padded size\n"
             "and the picture its top-left. The report is the payload's decode against\n"
             "PICTURE: bytes, bits per pixel, PSNR and squared error; --threads as for\n"
             "int_motion (0, the default here: one per core); progress lines for\n"
             "pictures of 2^20 pixels or more.\n"
             "Exit 1 with the code for a refused encode (set_incomplete: the set lacks\n"
             "a member; model_mismatch: the analysis does not fit the set or the\n"
             "picture; too_large: 3 x the padded sides past 2^26).\n"
             "\n"
             "wai.neural.int_mlicpp (integer-payloads 14): PICTURE to a WIM1 as for\n"
             "wai.neural.int_hyper, against a set whose decoder member is model.wmb (the\n"
             "WMB1 bundle: h_s, the entropy network, g_s, the tables) beside the same\n"
             "analysis members (examples/mlicpp/sets/qN). The latent is coded in K\n"
             "channel slices (--slices, default 4; K must divide the latent's channels,\n"
             "a usage error otherwise), each in two checkerboard passes, the entropy\n"
             "network run on what is coded so far before each, as the decoder runs it.\n"
             "WIM1 carries the coded size: a padded picture decodes at the padded size.\n"
             "\n"
             "wai.neural.int_synth (integer-payloads 13): its payload is its latents.\n"
             "LATENTS is a NumPy .npy of int8 [C, S, S] or [1, C, S, S], or raw signed\n"
             "bytes in CHW order with --channels C; S a power of two. --size is the\n"
             "picture the set's network makes from them; --set DIR checks that it does\n"
             "(the decode's planning) and prints the declared cost.\n"
             "\n"
             "Encodes RGB frames as a WIV1 clip (keyframe 0) of wai.video.int_motion:\n"
             "frame 0 predicted from 128, each later frame by block motion compensation\n"
             "from the decoded frame before it, residuals quantised with step N and\n"
             "coded with one rANS table. The decoder's output is the reconstruction the\n"
             "report describes; --q 1 is lossless.\n"
             "\n"
             "IN is one .y4m file (YUV4MPEG2, 8-bit 4:2:0, 4:2:2, 4:4:4 or mono; '-'\n"
             "reads standard input) or several .png files, one frame each, in order\n"
             "(8-bit gray, RGB, RGBA or palette; alpha is dropped). Y4M is converted as\n"
             "BT.601 limited range with chroma repeated, the arithmetic of ffmpeg's\n"
             "yuv420p to rgb24 converter (the same bytes as 'ffmpeg -pix_fmt rgb24' for\n"
             "4:2:0 of even height on x86).\n",
    .opts = CLI_ROWS(encode_opts),
    .after = "Prints to stderr: frames, bytes, bits per pixel, PSNR in dB of the decode\n"
             "against the input (overall, from the clip's summed squared error, and the\n"
             "per-frame average; \"inf\" when lossless), and the squared error; for long\n"
             "inputs, progress lines as frames are coded.\n"
             "\n"
             "Exit status: 0 written, 1 the clip is one WIV1 cannot hold (the code is\n"
             "printed: too_large for a frame of more than 2^26 samples or a clip of\n"
             "more than 2^30 bytes), 2 usage or I/O error.\n",
    .run = cmd_encode,
};

/* The encoder of cap's registry row, or 0 when this build has none. */
static unsigned encode_mode(const wai_capability *cap) {
    if (!cap) return 0;
    switch (cap->format) {
    case WAI_FORMAT_WIV1:
    case WAI_FORMAT_WIF1:
        return cap->keyframe == 0 ? ENCODE_MOTION : cap->keyframe == 1 ? ENCODE_KEYED : 0;
    case WAI_FORMAT_WIH1: return ENCODE_PICTURE;
    case WAI_FORMAT_WIM1: return ENCODE_SLICED;
    case WAI_FORMAT_INT_SYNTH: return ENCODE_LATENTS;
    default: return 0;
    }
}

/* NAME is no capability this build encodes: the usage error lists those
 * the registry has an encoder for. */
static int cannot_encode(const char *name) {
    char list[1024];
    size_t len = 0, n = 0, total = 0;
    for (size_t i = 0; i < wai_capability_count(); i++)
        total += encode_mode(wai_capability_at(i)) != 0;
    for (size_t i = 0; i < wai_capability_count() && len < sizeof list; i++) {
        const wai_capability *c = wai_capability_at(i);
        if (!encode_mode(c)) continue;
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                n == 0 ? "" : n + 1 == total ? " and " : ", ", c->name);
        n++;
    }
    return cli_usage_error("encode", "cannot encode %s: this build encodes %s", name, list);
}

static int cmd_encode(int argc, char **argv) {
    encode_options o;
    memset(&o, 0, sizeof o);
    o.q = 1;
    o.block = 16;
    o.search = 8;
    int first;
    uint64_t given;
    int rc = cli_parse(&encode_command, argc, argv, &o, &first, &given);
    if (rc != 0) return rc;
    if (!o.capability)
        return cli_usage_error("encode", "--capability is required (wai.video.int_motion)");
    const wai_capability *cap = wai_capability_find(o.capability);
    unsigned mode = encode_mode(cap);
    if (!mode) return cannot_encode(o.capability);
    if ((rc = cli_check_modes(&encode_command, "encode", given, mode, cap->name)) != 0) return rc;
    /* A picture's network threads default to one per core; the motion
     * search's to one. */
    if (!cli_given(&encode_command, given, "--threads")) o.threads = (mode & ENCODE_PICTURES) ? 0 : 1;
    char quality_set[4096];
    if (cli_given(&encode_command, given, "--quality")) {
        if ((rc = encode_quality_set(o.set_dir, o.quality, quality_set, sizeof quality_set)) != 0) return rc;
        o.set_dir = quality_set;
    } else if ((mode & (ENCODE_KEYED | ENCODE_PICTURES)) &&
               (rc = encode_plain_set(o.set_dir, cap->set_members[0])) != 0) {
        return rc;
    }
    char **in = argv + first;
    int n_in = argc - first;
    if (mode & ENCODE_PICTURES) return encode_picture(cap, &o, in, n_in);
    if (mode == ENCODE_LATENTS) return encode_latents(cap, &o, in, n_in);
    o.frames |= cap->frame_form;
    return encode_clip(cap, &o, in, n_in);
}
