/* wai encode: RGB frames (a Y4M file or PNG files) to a WIV1 clip of
 * wai.video.int_motion, or to its WIF1 group (wai.video.int_motion.frame),
 * with the library's closed-loop encoder. The report (stderr) gives the
 * size, bits per pixel and PSNR of the decode against the input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "wai/wai_write.h"
#include "wai/wai_write.h"
#include "input.h"

/* Progress lines only for inputs that take a while: about 2^22 pixels. */
#define PROGRESS_MIN_PIXELS ((uint64_t)1 << 22)

typedef struct encode_options {
    const char *capability;
    const char *out;
    uint64_t q, block, search, threads;
    int half_pel, frames, quiet, force;
} encode_options;

static int parse_number(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *v) {
    if (!s || !cli_parse_u64(s, v) || *v < lo || *v > hi)
        return cli_usage_error("encode", "%s needs an integer in %llu..%llu", opt,
                               (unsigned long long)lo, (unsigned long long)hi);
    return 0;
}

static int parse_options(int argc, char **argv, encode_options *o, int *first, int *last) {
    memset(o, 0, sizeof *o);
    o->q = 1;
    o->block = 16;
    o->search = 8;
    o->threads = 1;
    int n_in = 0;
    /* Inputs may come before or after options; they are moved to the front
     * of the list in order. */
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (only_files || a[0] != '-' || a[1] == '\0') {
            argv[1 + n_in++] = argv[i];
            continue;
        }
        if (!strcmp(a, "--")) {
            only_files = 1;
        } else if (!strcmp(a, "--capability") || !strcmp(a, "-o")) {
            if (++i >= argc) return cli_usage_error("encode", "%s needs a value", a);
            if (a[1] == 'o') o->out = argv[i];
            else o->capability = argv[i];
        } else if (!strcmp(a, "--q")) {
            rc = parse_number(a, ++i < argc ? argv[i] : NULL, 1, 65535, &o->q);
        } else if (!strcmp(a, "--block")) {
            rc = parse_number(a, ++i < argc ? argv[i] : NULL, 1, UINT32_MAX, &o->block);
        } else if (!strcmp(a, "--search")) {
            rc = parse_number(a, ++i < argc ? argv[i] : NULL, 0, WAI_MOTION_ENCODE_MAX_SEARCH,
                              &o->search);
        } else if (!strcmp(a, "--threads")) {
            rc = parse_number(a, ++i < argc ? argv[i] : NULL, 0, 1024, &o->threads);
        } else if (!strcmp(a, "-y") || !strcmp(a, "--force")) {
            o->force = 1;
        } else if (!strcmp(a, "--half-pel")) {
            o->half_pel = 1;
        } else if (!strcmp(a, "--frames")) {
            o->frames = 1;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else {
            return cli_usage_error("encode", "unknown option '%s'", a);
        }
        if (rc) return rc;
    }
    if (!o->capability)
        return cli_usage_error("encode", "--capability is required (wai.video.int_motion)");
    if (!strcmp(o->capability, "wai.video.int_motion.frame")) o->frames = 1;
    else if (strcmp(o->capability, "wai.video.int_motion") != 0)
        return cli_usage_error("encode",
                               "cannot encode %s: this build encodes wai.video.int_motion "
                               "(and its frame form)",
                               o->capability);
    if (n_in == 0) return cli_usage_error("encode", "no input given");
    if (!o->out) return cli_usage_error("encode", "no output given (-o OUT)");
    if (o->frames && !strcmp(o->out, "-"))
        return cli_usage_error("encode", "--frames writes one file per frame: OUT can't be '-'");
    *first = 1;
    *last = 1 + n_in;
    return 0;
}

static int has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return 0;
    }
    return 1;
}

/* --frames names: OUT with one %d or %0Nd (N 1..9; "%%" is a literal %)
 * takes the frame number from 0; OUT an existing directory (or ending in
 * '/') holds frame_000000.wif1, frame_000001.wif1, ... Returns 0 and the
 * width/prefix/suffix split, or -1 for a pattern that is neither. */
typedef struct name_pattern {
    char *prefix, *suffix;
    int width;
} name_pattern;

static char *unescape_percent(const char *s, size_t n) {
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        out[k++] = s[i];
        if (s[i] == '%') i++; /* "%%": the pattern check let only pairs through */
    }
    out[k] = '\0';
    return out;
}

static int parse_pattern(const char *out, name_pattern *p) {
    memset(p, 0, sizeof *p);
    struct stat st;
    size_t len = strlen(out);
    if ((len && out[len - 1] == '/') || (stat(out, &st) == 0 && S_ISDIR(st.st_mode))) {
        int slash = len && out[len - 1] == '/';
        p->prefix = malloc(len + 8);
        p->suffix = malloc(8);
        if (!p->prefix || !p->suffix) return -1;
        snprintf(p->prefix, len + 8, "%s%sframe_", out, slash ? "" : "/");
        memcpy(p->suffix, ".wif1", 6);
        p->width = 6;
        return 0;
    }
    const char *conv = NULL;
    size_t conv_len = 0;
    for (size_t i = 0; i < len; i++) {
        if (out[i] != '%') continue;
        if (out[i + 1] == '%') {
            i++;
            continue;
        }
        size_t j = i + 1;
        int width = 0;
        if (out[j] == '0' && out[j + 1] >= '1' && out[j + 1] <= '9') {
            width = out[j + 1] - '0';
            j += 2;
        }
        if (out[j] != 'd' || conv) return -1;
        conv = out + i;
        conv_len = j + 1 - i;
        p->width = width;
        i = j;
    }
    if (!conv) return -1;
    p->prefix = unescape_percent(out, (size_t)(conv - out));
    p->suffix = unescape_percent(conv + conv_len, strlen(conv + conv_len));
    return p->prefix && p->suffix ? 0 : -1;
}

static char *pattern_name(const name_pattern *p, uint32_t i) {
    size_t n = strlen(p->prefix) + strlen(p->suffix) + 16;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s%0*u%s", p->prefix, p->width, i, p->suffix);
    return s;
}

/* PATH ("-": standard output) written whole, through a temporary renamed
 * into place (cli_out_open). */
static int write_file(const char *path, const uint8_t *data, size_t len,
                      const cli_inputs *inputs) {
    cli_out_file f;
    if (cli_out_open("encode", path, inputs, &f) != 0) return -1;
    if (fwrite(data, 1, len, f.f) != len) {
        cli_out_discard(&f);
        fprintf(stderr, "wai encode: %s: write failed\n", path);
        return -1;
    }
    return cli_out_commit("encode", &f) == 0 ? 0 : -1;
}

typedef struct progress_state {
    uint32_t next;   /* the next frame count worth a line */
} progress_state;

static void report_progress(void *opaque, uint32_t frame, uint32_t n_frames) {
    progress_state *s = opaque;
    uint32_t done = frame + 1;
    if (done < s->next && done != n_frames) return;
    fprintf(stderr, "wai encode: frame %u/%u\n", done, n_frames);
    /* About ten lines for the clip. */
    uint32_t step = n_frames / 10 ? n_frames / 10 : 1;
    s->next = done + step;
}

/* log10 without libm (the tool links none): x = m * 2^e with m in [1, 2),
 * ln m = 2 atanh((m - 1) / (m + 1)), a series in z^2 <= 1/9. */
static double log10_of(double x) {
    int e = 0;
    while (x >= 2.0) {
        x /= 2.0;
        e++;
    }
    while (x < 1.0) {
        x *= 2.0;
        e--;
    }
    double z = (x - 1.0) / (x + 1.0), z2 = z * z, term = z, ln_m = 0.0;
    for (int k = 1; k < 80; k += 2) {
        ln_m += term / k;
        term *= z2;
    }
    const double ln2 = 0.69314718055994530942, ln10 = 2.30258509299404568402;
    return (2.0 * ln_m + e * ln2) / ln10;
}

static double psnr(uint64_t sse, uint64_t samples) {
    return 10.0 * log10_of(255.0 * 255.0 * (double)samples / (double)sse);
}

static void print_report(const wai_motion_encode_result *r, uint64_t bytes, uint32_t files) {
    fprintf(stderr, "frames: %u (%ux%u)\n", r->n_frames, r->w, r->h);
    if (files) fprintf(stderr, "bytes: %llu (%u files)\n", (unsigned long long)bytes, files);
    else fprintf(stderr, "bytes: %llu\n", (unsigned long long)bytes);
    fprintf(stderr, "bits per pixel: %.6f\n", 8.0 * (double)bytes / (double)r->pixels);
    uint64_t frame_samples = (uint64_t)r->w * r->h * 3;
    double sum = 0;
    uint32_t lossy = 0;
    for (uint32_t f = 0; f < r->n_frames; f++) {
        if (!r->frame_sse[f]) continue;
        sum += psnr(r->frame_sse[f], frame_samples);
        lossy++;
    }
    if (r->sse) fprintf(stderr, "psnr: %.4f dB overall", psnr(r->sse, r->samples));
    else fprintf(stderr, "psnr: inf dB overall");
    if (!lossy) fprintf(stderr, ", inf dB per-frame average\n");
    else if (lossy == r->n_frames)
        fprintf(stderr, ", %.4f dB per-frame average\n", sum / lossy);
    else
        fprintf(stderr, ", %.4f dB per-frame average (of %u lossy frames; %u lossless)\n",
                sum / lossy, lossy, r->n_frames - lossy);
    fprintf(stderr, "sse: %llu over %llu samples\n", (unsigned long long)r->sse,
            (unsigned long long)r->samples);
}

static int read_inputs(char **in, int n_in, input_clip *clip) {
    int n_y4m = 0;
    for (int i = 0; i < n_in; i++) {
        if (has_suffix(in[i], ".y4m") || !strcmp(in[i], "-")) n_y4m++;
        else if (!has_suffix(in[i], ".png"))
            return cli_usage_error("encode", "%s: neither .y4m nor .png", in[i]);
    }
    if (n_y4m && n_in > 1)
        return cli_usage_error("encode", "give one .y4m file, or PNG files (one per frame)");
    int rc = n_y4m ? input_read_y4m(in[0], clip) : input_read_pngs((const char *const *)in,
                                                                      n_in, clip);
    if (rc == INPUT_TOO_LARGE) {
        fprintf(stderr, "wai encode: refused: too_large\n");
        return EXIT_REFUSED;
    }
    return rc == 0 ? 0 : EXIT_USAGE;
}

static int write_frames(const encode_options *o, const wai_motion_encode_result *r,
                        const cli_inputs *inputs, uint64_t *bytes, uint32_t *files) {
    name_pattern pat;
    int rc = EXIT_USAGE;
    if (parse_pattern(o->out, &pat) != 0) {
        rc = cli_usage_error("encode",
                             "with --frames, OUT is a directory or a name with one %%d or "
                             "%%0Nd: '%s'",
                             o->out);
        goto done;
    }
    wai_payload *group = NULL;
    uint32_t n = 0;
    wai_status st = wai_wiv1_split(NULL, r->payload, r->payload_len, &group, &n);
    if (st != WAI_ok) {
        fprintf(stderr, "wai encode: splitting into frames: %s\n", wai_status_name(st));
        rc = EXIT_REFUSED;
        goto done;
    }
    *bytes = 0;
    rc = EXIT_DONE;
    /* Every name checked before the first is written. */
    for (uint32_t i = 0; i < n && rc == EXIT_DONE; i++) {
        char *name = pattern_name(&pat, i);
        if (!name || cli_out_check("encode", name, inputs) != 0) rc = EXIT_USAGE;
        free(name);
    }
    for (uint32_t i = 0; i < n && rc == EXIT_DONE; i++) {
        char *name = pattern_name(&pat, i);
        if (!name || write_file(name, group[i].data, group[i].len, inputs) != 0) rc = EXIT_USAGE;
        free(name);
        *bytes += group[i].len;
    }
    *files = n;
    wai_payloads_free(NULL, group, n);
done:
    free(pat.prefix);
    free(pat.suffix);
    return rc;
}

int cmd_encode(int argc, char **argv) {
    /* wai.neural.int_synth's payload is its latents: its own encoder. */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--capability") && !strcmp(argv[i + 1], "wai.neural.int_synth"))
            return cmd_encode_synth(argc, argv);
    encode_options o;
    int first = 0, last = 0;
    int rc = parse_options(argc, argv, &o, &first, &last);
    if (rc != 0) return rc;
    if (o.frames) {
        /* Check OUT before spending time on the encode. */
        name_pattern pat;
        int bad = parse_pattern(o.out, &pat);
        free(pat.prefix);
        free(pat.suffix);
        if (bad)
            return cli_usage_error("encode",
                                   "with --frames, OUT is a directory or a name with one %%d "
                                   "or %%0Nd: '%s'",
                                   o.out);
    }
    /* The inputs, recorded so that OUT is none of them; OUT checked before
     * the encode spends any time. */
    cli_inputs inputs;
    cli_inputs_init(&inputs, o.force);
    for (int i = first; i < last; i++)
        if (cli_check_input("encode", argv[i], &inputs) != 0) {
            cli_inputs_free(&inputs);
            return EXIT_USAGE;
        }
    if (!o.frames && strcmp(o.out, "-") != 0 && cli_out_check("encode", o.out, &inputs) != 0) {
        cli_inputs_free(&inputs);
        return EXIT_USAGE;
    }
    input_clip clip;
    if ((rc = read_inputs(argv + first, last - first, &clip)) != 0) {
        cli_inputs_free(&inputs);
        return rc;
    }

    const uint8_t **frames = malloc(clip.n_frames * sizeof *frames);
    if (!frames) {
        input_clip_free(&clip);
        cli_inputs_free(&inputs);
        fprintf(stderr, "wai encode: out of memory\n");
        return EXIT_USAGE;
    }
    size_t frame = (size_t)clip.w * clip.h * 3;
    for (uint32_t f = 0; f < clip.n_frames; f++) frames[f] = clip.rgb + frame * f;

    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.q = (uint32_t)o.q;
    p.block = (uint32_t)o.block;
    p.search = (uint32_t)o.search;
    p.half_pel = o.half_pel;
    p.n_threads = (unsigned)o.threads;
    progress_state ps = {1};
    if (!o.quiet && (uint64_t)clip.n_frames * clip.w * clip.h >= PROGRESS_MIN_PIXELS) {
        p.progress = report_progress;
        p.progress_opaque = &ps;
    }
    wai_motion_encode_result r;
    wai_status st = wai_motion_encode(NULL, frames, clip.n_frames, clip.h, clip.w, &p, &r);
    free(frames);
    input_clip_free(&clip);
    if (st != WAI_ok) {
        cli_inputs_free(&inputs);
        fprintf(stderr, "wai encode: refused: %s\n", wai_status_name(st));
        return st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
    }
    uint64_t bytes = r.payload_len;
    uint32_t files = 0;
    if (o.frames) rc = write_frames(&o, &r, &inputs, &bytes, &files);
    else rc = write_file(o.out, r.payload, r.payload_len, &inputs) == 0 ? EXIT_DONE : EXIT_USAGE;
    if (rc == EXIT_DONE) print_report(&r, bytes, files);
    wai_motion_encode_result_free(NULL, &r);
    cli_inputs_free(&inputs);
    return rc;
}
