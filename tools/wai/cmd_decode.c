/* SPDX-License-Identifier: BSD-2-Clause */
/* wai decode: the decode contract of the tool. One capability, one or more
 * payloads (several are one frame stream), one result: a status and the
 * outputs decoded before it. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_set.h"
#include "dispatch_opts.h"
#include "output.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_hash.h"

/* --fps N[/D]: N/D frames a second. */
typedef struct fps_value {
    uint32_t num, den;
} fps_value;

/* --start N (a frame) or Ts (seconds: up to six decimals, under 2^32
 * seconds, turned into a frame with --fps). */
typedef struct start_value {
    uint64_t frame;           /* the frame; with seconds, once resolved */
    int seconds;              /* given in seconds: micros holds them */
    uint64_t micros;          /* the seconds times 10^6 */
} start_value;

/* --crop WxH: each picture's top-left W x H (0 x 0: none). */
typedef struct crop_value {
    uint32_t w, h;
} crop_value;

typedef struct decode_options {
    const char *capability;
    const char *set_dir;
    const char *pin;
    const char *out_path;
    const char *out_format;   /* --format, or NULL: by OUT's extension */
    fps_value fps;            /* --fps, default 25/1 */
    crop_value crop;          /* --crop, when given */
    start_value start;        /* --start, default frame 0 */
    uint64_t frames;          /* --frames: the most outputs written (0: all) */
    uint64_t max_cost;        /* --max-cost, when given */
    uint64_t max_memory;      /* --max-memory, default CLI_DEFAULT_MAX_MEMORY */
    uint64_t threads;         /* --threads: 0 one per core */
    wai_cpu_level cpu_level;  /* --cpu-level: HOST, no cap */
    int json, force;
    dispatch_opts dispatch;
    const char *fallback;     /* --fallback CAPABILITY[:FILE] */
    const char *fallback_set; /* --fallback-set DIR */
    const char *fallback_pin; /* --fallback-pin PIN */
} decode_options;

static int take_crop(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    crop_value *c = field;
    char *x = strchr(value, 'x');
    uint64_t w, h;
    if (!x) return 0;
    *x = '\0';
    int ok = cli_parse_u64(value, &w) && cli_parse_u64(x + 1, &h) && w >= 1 && h >= 1 &&
             w <= UINT32_MAX && h <= UINT32_MAX;
    *x = 'x';
    if (!ok) return 0;
    c->w = (uint32_t)w, c->h = (uint32_t)h;
    return 1;
}

static int take_fps(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    fps_value *f = field;
    return out_parse_fps(value, &f->num, &f->den);
}

static int take_start(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    start_value *s = field;
    size_t n = strlen(value);
    if (!n || value[n - 1] != 's') return cli_parse_u64(value, &s->frame);
    /* Seconds: digits, then '.' and one to six digits, then 's'. */
    uint64_t whole = 0, frac = 0;
    size_t i = 0, digits = 0, decimals = 0;
    for (; i < n - 1 && value[i] >= '0' && value[i] <= '9' && whole < ((uint64_t)1 << 32); i++)
        whole = whole * 10 + (uint64_t)(value[i] - '0'), digits++;
    if (i < n - 1 && value[i] == '.')
        for (i++; i < n - 1 && value[i] >= '0' && value[i] <= '9' && decimals < 6; i++)
            frac = frac * 10 + (uint64_t)(value[i] - '0'), decimals++;
    if (i != n - 1 || !digits || whole >= ((uint64_t)1 << 32) || (value[digits] == '.' && !decimals))
        return 0;
    for (; decimals < 6; decimals++) frac *= 10;
    s->seconds = 1;
    s->micros = whole * 1000000 + frac;
    return 1;
}

/* The frame shown at micros/10^6 seconds at num/den frames a second:
 * floor(micros·num / (10^6·den)), exactly in 64 bits (micros < 2^52,
 * num and den < 2^31): the whole seconds' part divided first. */
static uint64_t frame_at(uint64_t micros, uint32_t num, uint32_t den) {
    const uint64_t m = 1000000, q = micros / m, r = micros % m;
    const uint64_t t = q * num; /* < 2^63 */
    return t / den + ((t % den) * m + r * num) / (m * den);
}

static int take_cpu_level(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    return wai_cpu_level_from_name(value, field);
}

#define D(field) offsetof(decode_options, field)

static const cli_opt decode_opts[] = {
    {.name = "--capability", .value = "CAP", .offset = D(capability),
     .help = "the capability to decode through; default: the one\n"
             "the first FILE's magic names"},
    {.name = "--set", .value = "DIR", .offset = D(set_dir),
     .help = "the parameter set: a directory holding its members by\n"
             "name (g_s.whm, h_s.whm, entropy.json; model.wam;\n"
             "g_s.whm): a member missing is set_incomplete"},
    {.name = "--pin", .value = "PIN", .offset = D(pin),
     .help = "the set's pin: the SHA-256 (64 hex digits) of its\n"
             "listing.json ('wai set pin DIR'), or of a one-file\n"
             "set's file, then optionally the tier it states\n"
             "(:tier=decode-equivalence); one that does not resolve\n"
             "is set_incomplete"},
    DISPATCH_OPTS_ROWS(decode_options, dispatch),
    {.name = "--max-cost", .value = "N", .offset = D(max_cost), .parse = cli_take_u64,
     .must = "a decimal integer", .max = UINT64_MAX,
     .help = "refuse with cost_over_limit, before any symbol is\n"
             "decoded, a payload whose declared work (network\n"
             "multiply-accumulates plus entropy steps) exceeds N"},
    {.name = "--max-memory", .value = "BYTES", .offset = D(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT,
     .help = "the memory the decode may hold: N, or N with K, M,\n"
             "G or T (2^10 .. 2^40), or none; default 2G. The set's\n"
             "members count against it (as they are read), a FILE\n"
             "larger than what is left is refused unread (exit 2),\n"
             "and a payload whose declared memory (the buffers its\n"
             "decode holds, output included: inspect --cost's\n"
             "working_bytes) exceeds what is left is refused with\n"
             "cost_over_limit, before any symbol is decoded"},
    {.name = "--threads", .value = "N", .offset = D(threads), .parse = cli_take_u64,
     .must = "0 (one per core) to 1024", .max = 1024,
     .help = "threads for the networks (0: one per core, the\n"
             "default; up to 1024); the output is the same at\n"
             "every count"},
    {.name = "--cpu-level", .value = "L", .offset = D(cpu_level), .parse = take_cpu_level,
     .must = "host, portable, avx2, avx512, avx512bw, avx512vnni, wasm128 or neon",
     .help = "the highest instruction set level the kernels may\n"
             "use: host (the default: the CPU's best), portable,\n"
             "or on x86-64 avx2, avx512, avx512bw, avx512vnni, on\n"
             "wasm32 wasm128, on aarch64 neon; the output is the\n"
             "same at every level; --json adds \"cpu_level\", the\n"
             "level that ran (the CPU's best where L is above it)"},
    {.name = "--force", .alias = "-y", .offset = D(force),
     .help = "replace OUT (or the files a pattern or directory\n"
             "names) when it exists; never an input"},
    {.name = "--json", .offset = D(json),
     .help = "print one JSON object:\n"
             "{\"capability\": CAP, \"status\": \"ok\" or the code,\n"
             " \"outputs\": [{\"kind\": \"frame\"|\"image\"|\"pcm\"|\"planes\",\n"
             "              \"sha256\": HEX, \"bytes\": N}, ...]}\n"
             "plus \"report\" (the wai-neural-dispatch/1 report)\n"
             "when the decode dispatched networks; on a refusal\n"
             "part-way through a stream, outputs holds what decoded\n"
             "before it"},
    {.name = "-o", .value = "OUT", .offset = D(out_path),
     .help = "write the decoded output to OUT, each output as it\n"
             "decodes: on a refusal part-way through a frame\n"
             "stream, OUT holds the frames decoded before it (exit\n"
             "status 1). Format by the kind of output and OUT's\n"
             "name, or --format. RGB8 frames and images:\n"
             "  OUT.y4m  YUV4MPEG2 for ffmpeg/ffplay: C444p16, BT.601,\n"
             "           limited range (XCOLORRANGE=LIMITED). 16-bit\n"
             "           samples, since 8-bit Y'CbCr cannot hold every\n"
             "           RGB colour: ffmpeg's conversion to rgb24\n"
             "           gives the decoded bytes back exactly. One\n"
             "           frame size: a stream whose size changes is\n"
             "           written up to the first frame of another\n"
             "           size, then stops with an I/O error (exit 2)\n"
             "  --format y4m420  YUV4MPEG2 8-bit 4:2:0 (C420jpeg),\n"
             "           what most players take: LOSSY (chroma\n"
             "           averaged over 2x2 and 8-bit samples)\n"
             "  OUT.rgb  raw rgb24 frames, concatenated (ffmpeg -f\n"
             "           rawvideo -pix_fmt rgb24 -s WxH -i OUT.rgb)\n"
             "  -        raw rgb24 to standard output (not with\n"
             "           --json); --format y4m sends Y4M there\n"
             "  OUT.ppm  binary PPM (P6), one image per output,\n"
             "           concatenated (every build; netpbm,\n"
             "           ImageMagick, GIMP and image viewers open it)\n"
             "  PATTERN.png  one PNG per output, numbered by its\n"
             "           index from 0: PATTERN holds exactly one %d\n"
             "           or %0Nd (N 1..99) and no other %, e.g.\n"
             "           frame_%04d.png (needs a wai built with\n"
             "           libpng); a pattern for any other format is\n"
             "           refused (those write one file)\n"
             "  NAME.png  an image (wai.neural.int_hyper): one PNG\n"
             "PCM (wai.audio.int_codec):\n"
             "  OUT.wav  RIFF/WAVE, 16-bit PCM, mono, at the\n"
             "           payload's sample rate sr\n"
             "  OUT.pcm, OUT.s16le, -  the raw samples, signed\n"
             "           16-bit little-endian (ffmpeg -f s16le -ar SR\n"
             "           -ac 1 -i OUT.pcm)\n"
             "planes (wai.splat.int_codec):\n"
             "  DIR      a directory (made if missing) holding\n"
             "           plane_000.png, plane_001.png, ... (8-bit\n"
             "           grey, side x side; .pgm with --format pgm\n"
             "           or without libpng) and attributes.json:\n"
             "           {\"n_gaussians\": N, \"planes\": ATTR,\n"
             "            \"side\": S, \"ranges\": [[LO, HI], ...]},\n"
             "           each plane's binary32 range as the shortest\n"
             "           decimal that reads back to it\n"
             "any other name is a usage error, before decoding"},
    {.name = "--format", .value = "FMT", .offset = D(out_format),
     .help = "whatever OUT's name: y4m, y4m420, rgb, ppm or png (frames,\n"
             "images); wav or s16le (PCM); png or pgm (planes)"},
    {.name = "--fallback", .value = "CAP[:FILE]", .offset = D(fallback),
     .help = "route as integer-payloads §8 says: when the decode\n"
             "is refused with a routing code (set_incomplete,\n"
             "not_dispatchable, unsupported_capability,\n"
             "cost_over_limit) before any output, decode FILE (the\n"
             "same FILEs when not given) through CAP instead, as a\n"
             "WAI1's fallback; any other refusal is final and the\n"
             "fallback is not tried. --json adds \"route\": each\n"
             "capability tried and its status"},
    {.name = "--fallback-set", .value = "DIR", .offset = D(fallback_set),
     .help = "the fallback's parameter set (its own; --pin and\n"
             "--pin-tier are the primary's alone)"},
    {.name = "--fallback-pin", .value = "PIN", .offset = D(fallback_pin),
     .help = "the fallback's set's pin, as --pin (and the tier it\n"
             "states holds for the fallback's decode alone)"},
    {.name = "--crop", .value = "WxH", .offset = D(crop), .parse = take_crop,
     .must = "WxH (positive integers, as 640x427)",
     .help = "each picture's top-left W x H: a WIH1 decodes at its\n"
             "coded size, a multiple of 64 (wai encode prints the\n"
             "picture's); larger than a picture is a usage error"},
    {.name = "--start", .value = "N|Ts", .offset = D(start), .parse = take_start,
     .must = "a frame N (0, 1, ...) or seconds Ts (as 1.5s, with --fps)",
     .help = "write the outputs from frame N on (0, the first, by\n"
             "default), or from the frame shown at T seconds at\n"
             "--fps's rate (Ts: 2s, 1.5s; up to six decimals). The\n"
             "frames before it are decoded (each predicts the\n"
             "next) but not converted or written; outputs keep\n"
             "their numbers (a PNG pattern's). Past the stream's\n"
             "last output: a usage error, nothing written"},
    {.name = "--frames", .value = "M", .offset = D(frames), .parse = cli_take_u64,
     .min = 1, .max = UINT64_MAX,
     .help = "write at most M outputs (from --start's); the\n"
             "decode stops after the last of them"},
    {.name = "--fps", .value = "N[/D]", .offset = D(fps), .parse = take_fps,
     .must = "N or N/D (positive integers)",
     .help = "the frame rate, N/D frames a second, of Y4M output\n"
             "(default 25, written F25:1) and of --start Ts"},
};

static int cmd_decode(int argc, char **argv);

const cli_command decode_command = {
    .name = "decode",
    .summary = "decode payloads; --json prints hashes of the outputs",
    .operands = "FILE...",
    .about = "Decodes FILE. Several FILEs are one stream of payloads, decoded in order\n"
             "through one capability (a frame stream for a frame-form capability such\n"
             "as wai.video.int_motion.frame); a payload of another format among them\n"
             "is refused with its code. Without -o, --json or --report, one line says\n"
             "what decoded.\n",
    .opts = CLI_ROWS(decode_opts),
    .after = "OUT is written beside itself and renamed into place when complete: a\n"
             "refused payload leaves no file; on a refusal part-way through a stream\n"
             "the frames before it stand, in complete files.\n"
             "\n"
             "Exit status: 0 decoded, 1 refused (the code is printed; with --json\n"
             "always the JSON), 2 usage or I/O error. A capability this build has no\n"
             "decoder for is refused with unsupported_capability ('wai capabilities'\n"
             "lists what decodes).\n",
    .run = cmd_decode,
};

static int parse_options(int argc, char **argv, decode_options *o, int *first_file,
                         uint64_t *given) {
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
    o->fps.num = 25, o->fps.den = 1;
    dispatch_opts_init(&o->dispatch);
    int rc = cli_parse(&decode_command, argc, argv, o, first_file, given);
    if (rc != 0) return rc;
    if (*first_file >= argc) return cli_usage_error("decode", "no FILE given");
    if (!o->out_path && o->out_format) return cli_usage_error("decode", "--format needs -o OUT");
    if (o->out_path && strcmp(o->out_path, "-") == 0 && o->json)
        return cli_usage_error("decode", "-o - and --json both want standard output");
    if (o->dispatch.report && o->json)
        return cli_usage_error("decode", "--report and --json both print; --json carries the report");
    if ((o->fallback_set || o->fallback_pin) && !o->fallback)
        return cli_usage_error("decode", "%s needs --fallback",
                               o->fallback_set ? "--fallback-set" : "--fallback-pin");
    if (o->fallback && (o->fallback[0] == '\0' || o->fallback[0] == ':'))
        return cli_usage_error("decode", "--fallback %s: no capability", o->fallback);
    if (o->start.seconds) {
        if (!cli_given(&decode_command, *given, "--fps"))
            return cli_usage_error("decode", "--start in seconds needs --fps: a WAI payload "
                                             "carries no frame rate");
        o->start.frame = frame_at(o->start.micros, o->fps.num, o->fps.den);
    }
    const char *colon = o->fallback ? strchr(o->fallback, ':') : NULL;
    if (colon && colon[1] == '\0')
        return cli_usage_error("decode", "--fallback '%s' names no file after its ':' (CAP "
                                         "alone decodes the same FILEs)", o->fallback);
    return 0;
}

/* One decoded output, as --json reports it. */
typedef struct output_record {
    const char *kind;
    uint8_t sha256[32];
    size_t bytes;
} output_record;

typedef struct decode_result {
    output_record *outputs;   /* with --json only */
    size_t n, cap;
    uint64_t count;           /* outputs decoded */
    wai_output last;          /* the last one's kind and size (data not kept) */
} decode_result;

static int record_output(decode_result *r, const wai_output *o) {
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        output_record *grown = realloc(r->outputs, cap * sizeof *grown);
        if (!grown) return -1;
        r->outputs = grown;
        r->cap = cap;
    }
    output_record *rec = &r->outputs[r->n++];
    rec->kind = wai_output_kind_name(o->kind);
    rec->bytes = o->size;
    wai_sha256_oneshot(o->data, o->size, rec->sha256);
    return 0;
}

/* The dispatch report's JSON text, or NULL when the decode made none. */
static const char *report_text(const wai_decoder *dec, char *buf, size_t size) {
    const wai_dispatch_report *rep = dec ? wai_decoder_dispatch_report(dec) : NULL;
    if (!rep || wai_dispatch_report_json(rep, buf, size, NULL) != WAI_ok) return NULL;
    return buf;
}

/* A route's first candidate, when the decode was its fallback. */
typedef struct route_state {
    int final;                 /* this attempt is the last: print whatever it gives */
    int routed;                /* the attempt routed on: the fallback runs next */
    const char *first_cap;     /* the first candidate's capability and status */
    wai_status first_status;
    cli_file kept_stdin;       /* standard input as the first attempt read it: the
                                * fallback decodes the same bytes */
} route_state;

static void print_result_json(const char *capability, wai_status st, const decode_result *r,
                              const uint8_t *digest, const char *report,
                              const route_state *rs, const char *level) {
    printf("{\"capability\": ");
    if (capability) json_put_string(stdout, capability);
    else printf("null");
    printf(", \"status\": ");
    json_put_string(stdout, wai_status_name(st));
    printf(", \"outputs\": [");
    for (size_t i = 0; i < r->n; i++) {
        printf("%s{\"kind\": \"%s\", \"sha256\": ", i ? ", " : "", r->outputs[i].kind);
        json_put_hex(stdout, r->outputs[i].sha256, 32);
        printf(", \"bytes\": %llu}", (unsigned long long)r->outputs[i].bytes);
    }
    printf("]");
    if (digest) {
        printf(", \"symbols_digest\": ");
        json_put_hex(stdout, digest, 32);
    }
    if (report) printf(", \"report\": %s", report);
    /* With --cpu-level: the level the kernels ran at, so the cap's effect
     * can be seen (the lower of the cap and the CPU's). */
    if (level) {
        printf(", \"cpu_level\": ");
        json_put_string(stdout, level);
    }
    if (rs) {
        printf(", \"route\": [");
        if (rs->final) {
            printf("{\"capability\": ");
            if (rs->first_cap) json_put_string(stdout, rs->first_cap);
            else printf("null");
            printf(", \"status\": ");
            json_put_string(stdout, wai_status_name(rs->first_status));
            printf("}, ");
        }
        printf("{\"capability\": ");
        if (capability) json_put_string(stdout, capability);
        else printf("null");
        printf(", \"status\": ");
        json_put_string(stdout, wai_status_name(st));
        printf("}]");
    }
    printf("}\n");
}

/* What the tool holds while it decodes: the inputs, read one payload at a
 * time, and where the outputs go. */
typedef struct decode_run {
    const decode_options *o;
    char **names;
    int n_files;
    cli_file file;            /* the payload being decoded */
    cli_inputs inputs;
    uint64_t payload_budget;  /* the memory limit less the set's bytes */
    decode_result result;
    out_writer *writer;
    int write_rc;
    const char *refused_file;
    uint8_t *crop_buf;        /* --crop: the cropped picture */
    route_state *rs;          /* NULL without --fallback */
    uint64_t to_skip;         /* --start: outputs still to pass over */
    uint64_t to_write;        /* --frames: outputs still to write (UINT64_MAX: all) */
    uint64_t passed;          /* outputs passed over so far */
} decode_run;

/* A copy of f's bytes into *to; 0, or -1 out of memory. */
static int keep_copy(const cli_file *f, cli_file *to) {
    to->data = malloc(f->len ? f->len : 1);
    if (!to->data) return -1;
    memcpy(to->data, f->data, f->len);
    to->name = f->name, to->len = f->len, to->size = f->size;
    return 0;
}

static int read_payload(decode_run *r, int i) {
    cli_file_free(&r->file);
    /* Standard input is read once: a fallback decodes what the first
     * attempt read (and the copy is under the same limit). */
    int is_stdin = strcmp(r->names[i], "-") == 0;
    if (is_stdin && r->rs && r->rs->kept_stdin.data) {
        if (keep_copy(&r->rs->kept_stdin, &r->file) == 0) return 0;
        fprintf(stderr, "wai decode: out of memory\n");
        return -1;
    }
    /* inputs NULL: cli_check_input recorded every FILE before the first read. */
    cli_read_opts ro = {r->payload_budget, "the memory limit (--max-memory, less the set's "
                        "members once read)", 1, r->o->capability, NULL};
    int rc = cli_read("decode", r->names[i], &ro, &r->file);
    if (rc == 0 && is_stdin && r->rs && keep_copy(&r->file, &r->rs->kept_stdin) != 0) {
        fprintf(stderr, "wai decode: out of memory\n");
        return -1;
    }
    return rc;
}

/* --crop: o becomes its top-left W x H, in r->crop_buf. EXIT_USAGE for an
 * output that is no picture or is smaller than the crop. */
static int crop(decode_run *r, wai_output *o) {
    const crop_value *c = &r->o->crop;
    if (o->kind != WAI_OUTPUT_FRAME && o->kind != WAI_OUTPUT_IMAGE)
        return cli_usage_error("decode", "--crop takes pictures; this output is %s",
                               wai_output_kind_name(o->kind));
    if (c->w > o->width || c->h > o->height)
        return cli_usage_error("decode", "--crop %ux%u is larger than the picture, %ux%u", c->w,
                               c->h, o->width, o->height);
    size_t row = (size_t)c->w * 3;
    if (!r->crop_buf && !(r->crop_buf = malloc(row * c->h))) {
        fprintf(stderr, "wai decode: out of memory\n");
        return EXIT_USAGE;
    }
    for (uint32_t y = 0; y < c->h; y++)
        memcpy(r->crop_buf + y * row, o->data + (size_t)y * o->width * 3, row);
    o->data = r->crop_buf, o->size = row * c->h, o->width = c->w, o->height = c->h;
    return 0;
}

/* Decodes the files as one stream, file 0 already read; stops at the
 * first refusal, keeping what decoded before it. Each output is recorded
 * and written to the writer (NULL: no -o); a failed write or read stops
 * the decode with r->write_rc set. */
static wai_status decode_files(wai_decoder *dec, decode_run *r) {
    for (int i = 0; i < r->n_files && r->to_write; i++) {
        if (i > 0 && read_payload(r, i) != 0) {
            r->write_rc = EXIT_USAGE;
            return WAI_ok;
        }
        wai_status st = wai_decoder_send(dec, r->file.data, r->file.len, NULL);
        /* --start: the outputs before it decoded, not handed out (a
         * stream's payloads before it each sent and passed). */
        uint64_t passed = 0;
        if (st == WAI_ok && r->to_skip) st = wai_decoder_skip(dec, r->to_skip, &passed);
        r->to_skip -= passed;
        r->passed += passed;
        if (st != WAI_ok) {
            r->refused_file = r->names[i];
            return st;
        }
        while (r->to_write) {
            wai_output o;
            if ((st = wai_decoder_receive(dec, &o)) != WAI_ok) return st;
            if (o.kind == WAI_OUTPUT_NONE) break;
            if (r->o->crop.w && (r->write_rc = crop(r, &o)) != 0) return WAI_ok;
            r->result.count++;
            r->result.last = o;
            if (r->to_write != UINT64_MAX) r->to_write--;
            /* Only --json prints the hashes: without it, skip SHA-256. */
            if (r->o->json && record_output(&r->result, &o) != 0) return WAI_out_of_memory;
            /* A write that fails stops the decode: exit 2, no JSON. */
            if (r->writer &&
                (r->write_rc = out_write(r->writer, &o, r->file.data, r->file.len)) != 0)
                return WAI_ok;
        }
    }
    return WAI_ok;
}

/* A refusal's line: the code and what it means; for not_dispatchable, each
 * offered path and why it was refused (the report's "refused", in the
 * offer's order); for set_incomplete with no set given, how to give one. */
static void print_refusal(const char *file, wai_status st, const wai_decoder *dec,
                          const cli_set *set, const wai_capability *cap) {
    fprintf(stderr, "wai decode: %s: refused: %s", file, cli_explained(st));
    if (st == WAI_set_incomplete && !set->dir)
        fprintf(stderr, "; no --set was given: name its set's directory with --set DIR");
    else if (st == WAI_set_incomplete || (st == WAI_cost_over_limit && set->over_limit))
        cli_set_explain(set, cap, stderr);
    const wai_dispatch_report *rep = dec ? wai_decoder_dispatch_report(dec) : NULL;
    if (st == WAI_not_dispatchable && rep && rep->n_refused) {
        fprintf(stderr, "; every path refused:");
        for (size_t i = 0; i < rep->n_refused; i++) {
            const wai_path *p = &rep->refused[i].path;
            fprintf(stderr, "%s %s/%s/%s %s", i ? "," : "", wai_unit_name(p->unit),
                    wai_backend_name(p->backend), wai_arithmetic_name(p->arithmetic),
                    wai_status_name(rep->refused[i].reason));
        }
    }
    fprintf(stderr, "\n");
}

/* No -o, no --json, no --report: one line saying what decoded. */
static void print_summary(const decode_run *r, const char *cap_name) {
    const wai_output *l = &r->result.last;
    unsigned long long n = (unsigned long long)r->result.count;
    const char *first = r->names[0];
    if (l->kind == WAI_OUTPUT_PCM)
        printf("%s: %s: ok, %llu samples at %lu Hz", first, cap_name, (unsigned long long)l->width,
               (unsigned long)l->sample_rate);
    else if (l->kind == WAI_OUTPUT_PLANES)
        printf("%s: %s: ok, %llu planes of %lux%lu", first, cap_name,
               (unsigned long long)(l->size / ((size_t)l->width * l->height)),
               (unsigned long)l->width, (unsigned long)l->height);
    else
        printf("%s: %s: ok, %llu %s%s of %lux%lu", first, cap_name, n,
               wai_output_kind_name(l->kind), n == 1 ? "" : "s", (unsigned long)l->width,
               (unsigned long)l->height);
    printf("%s; nothing written (-o OUT writes the output, --json prints its hashes)\n",
           r->n_files > 1 ? " (the stream of all FILEs)" : "");
}

/* One candidate's decode, start to end: its files, set and capability in
 * opts. rs (NULL without --fallback) says whether it is the last; one
 * that is not and routes before any output prints nothing and sets
 * rs->routed (what it would have written is never renamed into place). */
static int decode_attempt(const decode_options *opts, char **names, int n_files, uint64_t given,
                          route_state *rs) {
    decode_options o = *opts;
    decode_run r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    r.names = names;
    r.n_files = n_files;
    r.rs = rs;
    r.to_skip = o.start.frame;
    r.to_write = o.frames ? o.frames : UINT64_MAX;
    cli_inputs_init(&r.inputs, o.force);
    int exit_status = EXIT_USAGE;
    wai_context *ctx = NULL;
    wai_decoder *dec = NULL;
    cli_set set;
    memset(&set, 0, sizeof set);
    /* Every FILE is a regular file (or "-"), checked before anything is
     * read or written; each is then read when its turn comes. */
    int n_stdin = 0;
    for (int i = 0; i < r.n_files; i++) {
        if (cli_check_input("decode", r.names[i], &r.inputs) != 0) goto done;
        n_stdin += strcmp(r.names[i], "-") == 0;
    }
    if (n_stdin > 1) {
        exit_status = cli_usage_error("decode", "standard input ('-') can be read once");
        goto done;
    }
    r.payload_budget = o.max_memory;
    if (read_payload(&r, 0) != 0) goto done;
    const wai_capability *cap = o.capability ? wai_capability_find(o.capability)
                                             : wai_capability_detect(r.file.data, r.file.len);
    /* -o is checked before anything decodes, against the kind of output
     * the capability gives (a picture's, when no capability is known: the
     * decode then refuses it). */
    out_choice out_fmt;
    wai_output_kind kind = cap ? wai_capability_output(cap) : WAI_OUTPUT_FRAME;
    if ((exit_status = out_select(o.out_path, o.out_format, kind, &out_fmt)) != 0) goto done;
    exit_status = EXIT_USAGE;
    if (cli_given(&decode_command, given, "--fps") && !o.start.seconds &&
        out_fmt.fmt != OUT_FORMAT_Y4M && out_fmt.fmt != OUT_FORMAT_Y4M420) {
        exit_status = cli_usage_error("decode", "--fps applies to Y4M output and to --start in "
                                                "seconds only");
        goto done;
    }
    wai_settings settings;
    wai_settings_default(&settings);
    settings.n_threads = (unsigned)o.threads;
    settings.cpu_level = o.cpu_level;
    wai_status cst = cli_context_create(&settings, &ctx);
    if (cst == WAI_invalid_argument) {
        exit_status = cli_usage_error("decode", "--cpu-level %s: not a level of this build's CPU "
                                                "architecture", wai_cpu_level_name(o.cpu_level));
        goto done;
    }
    if (cst != WAI_ok) {
        fprintf(stderr, "wai decode: out of memory\n");
        goto done;
    }
    if ((exit_status = cli_load_set("decode", ctx, cap, o.set_dir, o.pin,
                                    o.max_memory - r.file.len, &r.inputs, &set)) != 0)
        goto done;
    exit_status = EXIT_USAGE;
    /* The tier the pin states is the decode's (neural-dispatch §2 item 3);
     * --pin-tier says the same or nothing. */
    if (set.tier[0]) {
        const char *given_tier = o.dispatch.options.pin_tier;
        if (given_tier && strcmp(given_tier, set.tier) != 0) {
            exit_status = cli_usage_error("decode", "the pin states tier %s and --pin-tier %s",
                                          set.tier, given_tier);
            goto done;
        }
        o.dispatch.options.pin_tier = set.tier;
    }
    /* The members stay in memory through the decode: the limit is shared. */
    uint64_t budget = o.max_memory == UINT64_MAX ? UINT64_MAX
                      : o.max_memory > set.bytes ? o.max_memory - set.bytes
                                                 : 0;
    r.payload_budget = budget;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = o.capability;
    cfg.set = set.set;
    cfg.dispatch = &o.dispatch.options;
    cfg.max_memory = budget;
    /* Standard output: frames out as they are decoded, in about two
     * frames of memory (a pipe's reader sees a refused clip's earlier
     * frames; the refusal line says so). A file keeps §8's rule: a
     * refused clip leaves none. */
    cfg.streaming = o.out_path && strcmp(o.out_path, "-") == 0;
    if (cli_given(&decode_command, given, "--max-cost")) cfg.max_cost = o.max_cost;
    /* A set past the memory limit is refused as the decode's limit is
     * (cost_over_limit), so it routes to a fallback like any other. */
    wai_status st = set.over_limit ? WAI_cost_over_limit : wai_decoder_create(ctx, &cfg, &dec);
    if (st == WAI_ok && o.out_path &&
        (exit_status = out_open(o.out_path, &out_fmt, o.fps.num, o.fps.den, &r.inputs,
                                &r.writer)) != 0)
        goto done;
    r.refused_file = r.names[0];
    if (st == WAI_ok) st = decode_files(dec, &r);
    /* Close before reporting: what was written before a refusal stays. */
    int close_rc = out_close(r.writer);
    r.writer = NULL;
    if (r.write_rc == 0) r.write_rc = close_rc;
    if (r.write_rc != 0) {
        exit_status = r.write_rc;
        goto done;
    }
    if (st == WAI_ok && o.start.frame && r.result.count == 0) {
        exit_status = cli_usage_error("decode", "--start %llu is past the last output: the "
                                      "stream has %llu", (unsigned long long)o.start.frame,
                                      (unsigned long long)r.passed);
        goto done;
    }
    /* The decoder's; else (a set past the limit: none made) the one named
     * or detected. */
    const char *cap_name = dec && wai_decoder_capability(dec) ? wai_decoder_capability(dec)
                           : o.capability                    ? o.capability
                           : cap                             ? cap->name
                                                             : NULL;
    char report[WAI_DISPATCH_REPORT_JSON_MAX];
    const char *rep = report_text(dec, report, sizeof report);
    uint8_t digest[32];
    int has_digest = dec && wai_decoder_symbols_digest(dec, digest);
    if (rs && !rs->final && wai_status_kind_of(st) == WAI_KIND_ROUTE && r.result.count == 0) {
        rs->routed = 1;
        rs->first_cap = cap_name;
        rs->first_status = st;
        if (!o.json) {
            fprintf(stderr, "wai decode: %s: %s: %s", r.names[0],
                    cap_name ? cap_name : "(no capability)", wai_status_name(st));
            if (st == WAI_set_incomplete || st == WAI_cost_over_limit) cli_set_explain(&set, cap, stderr);
            fprintf(stderr, ", so the fallback\n");
        }
        exit_status = EXIT_REFUSED;
        goto done;
    }
    if (o.json)
        print_result_json(cap_name, st, &r.result, has_digest ? digest : NULL, rep, rs,
                          o.cpu_level != WAI_CPU_HOST
                              ? wai_cpu_level_name(wai_context_cpu_level(ctx))
                              : NULL);
    else if (o.dispatch.report && rep) printf("%s\n", rep);
    else if (o.dispatch.report && st == WAI_ok)
        fprintf(stderr, "wai decode: %s: %s runs no networks, so it has no dispatch report "
                "(docs/dispatch.md, §5)\n", r.names[0], cap_name ? cap_name : "the decode");
    else if (st != WAI_ok) {
        print_refusal(r.refused_file, st, dec, &set,
                      cap_name ? wai_capability_find(cap_name) : cap);
        if (cfg.streaming && r.result.count)
            fprintf(stderr, "wai decode: %llu frames were written to standard output before the "
                            "refusal: they belong to a refused clip\n",
                    (unsigned long long)r.result.count);
    }
    else if (!o.out_path && !o.dispatch.report) print_summary(&r, cap_name);
    exit_status = st == WAI_ok ? EXIT_DONE : EXIT_REFUSED;
done:
    out_close(r.writer);
    free(r.result.outputs);
    free(r.crop_buf);
    wai_decoder_destroy(dec);
    cli_set_free(&set);
    wai_context_destroy(ctx);
    cli_file_free(&r.file);
    cli_inputs_free(&r.inputs);
    return exit_status;
}

static int cmd_decode(int argc, char **argv) {
    decode_options o;
    int first = 0;
    uint64_t given;
    int rc = parse_options(argc, argv, &o, &first, &given);
    if (rc != 0) return rc;
    if (!o.fallback) return decode_attempt(&o, argv + first, argc - first, given, NULL);
    route_state rs;
    memset(&rs, 0, sizeof rs);
    rs.first_status = WAI_ok;
    rc = decode_attempt(&o, argv + first, argc - first, given, &rs);
    if (!rs.routed) {
        cli_file_free(&rs.kept_stdin);
        return rc;
    }
    /* The fallback: its capability, its payload (or the same FILEs), its
     * own set; the primary's pins are not its (neural-dispatch §2). */
    size_t cap_len = strcspn(o.fallback, ":");
    char *cap = malloc(cap_len + 1);
    if (!cap) {
        cli_file_free(&rs.kept_stdin);
        return EXIT_USAGE;
    }
    memcpy(cap, o.fallback, cap_len);
    cap[cap_len] = '\0';
    char *file = o.fallback[cap_len] == ':' ? (char *)o.fallback + cap_len + 1 : NULL;
    decode_options fo = o;
    fo.capability = cap;
    fo.set_dir = o.fallback_set;
    fo.pin = o.fallback_pin;
    fo.dispatch.options.pin_tier = NULL;
    rs.final = 1;
    rc = file ? decode_attempt(&fo, &file, 1, given, &rs)
              : decode_attempt(&fo, argv + first, argc - first, given, &rs);
    free(cap);
    cli_file_free(&rs.kept_stdin);
    return rc;
}
