/* SPDX-License-Identifier: BSD-2-Clause */
/* wai split and wai join: a clip and its frame-form group, byte for byte
 * (integer-payloads §16 for WIV1 and WIF1, §17.2 for WIC1 and WCF1), by
 * libwai_write's split and join. The format is the payload's magic. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frame_files.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

/* The options of both commands. */
typedef struct split_options {
    const char *out;
    uint64_t max_memory;
    int force;
    int as_given; /* join: the order given, even against the names' numbers */
} split_options;

#define S(field) offsetof(split_options, field)

static const cli_opt split_opts[] = {
    {.name = "-o", .value = "OUT", .offset = S(out),
     .help = "a name with one %d or %0Nd (N 1..9; %% for a literal\n"
             "%), numbered from 0 (%d zero-padded to the last\n"
             "number's digits, so the names sort in frame order),\n"
             "or a directory, which gets frame_000000.wif1 (or\n"
             ".wcf1), frame_000001, ...; every name is checked\n"
             "before the first is written"},
    {.name = "--max-memory", .value = "N", .offset = S(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT, .help = "refuse a clip larger than N bytes (default 2G)"},
    {.name = "--force", .alias = "-y", .offset = S(force), .help = "replace frame files that exist"},
};

static const cli_opt join_opts[] = {
    {.name = "-o", .value = "CLIP", .offset = S(out),
     .help = "the clip ('-': standard output); never an input"},
    {.name = "--max-memory", .value = "N", .offset = S(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT, .help = "the frames together at most N bytes (default 2G)"},
    {.name = "--force", .alias = "-y", .offset = S(force), .help = "replace CLIP when it exists"},
    {.name = "--as-given", .offset = S(as_given),
     .help = "join the frames in the order given, even when their\n"
             "names' numbers run otherwise"},
};

static int cmd_split(int argc, char **argv);
static int cmd_join(int argc, char **argv);

const cli_command split_command = {
    .name = "split",
    .summary = "cut a WIV1 or WIC1 clip into its WIF1 or WCF1 frames",
    .operands = "CLIP -o OUT",
    .about = "Cuts a clip into its frame-form group, one file per frame, by the clip's\n"
             "magic: a WIV1 clip into WIF1 frames (wai.video.int_motion.frame or\n"
             "int_hyper.frame, integer-payloads 16), a WIC1 clip into WCF1 frames\n"
             "(wai.video.int_cond.frame, 17.2). The frames decode, as one group, to the\n"
             "clip's frames, and 'wai join' writes the clip back byte for byte.\n",
    .opts = CLI_ROWS(split_opts),
    .after = "Exit status: 0 written, 1 the clip was refused (its parse's code is\n"
             "printed), 2 usage or I/O error (also a file that is no WIV1 or WIC1).\n",
    .run = cmd_split,
};

const cli_command join_command = {
    .name = "join",
    .summary = "write WIF1 or WCF1 frames back into their clip",
    .operands = "FRAME... -o CLIP",
    .about = "Writes a frame-form group back into its clip, by the first frame's magic:\n"
             "WIF1 frames into a WIV1 clip, WCF1 frames into a WIC1 clip. The group must\n"
             "be one a clip can hold: frame 0 intra and every later frame inter, one\n"
             "picture size (for WCF1 one header, h to cf), for WIF1 one block size and\n"
             "vector precision and every stream decoding to its end; else it is refused\n"
             "with the code the clip's parse would give (field_range,\n"
             "geometry_mismatch, ...). 'wai split' of the clip gives the frames back.\n"
             "\n"
             "When every FRAME's name holds a number (its last run of digits), the\n"
             "numbers must rise in the order given: a shell sorts frame_10 before\n"
             "frame_2, and a clip joined in that order decodes, ok, to the wrong\n"
             "pictures. Such an order is refused (exit 2) unless --as-given.\n",
    .opts = CLI_ROWS(join_opts),
    .after = "Exit status: 0 written, 1 the group was refused (the code is printed),\n"
             "2 usage or I/O error (also a first file that is no WIF1 or WCF1).\n",
    .run = cmd_join,
};

/* The options, then at least one input (argv[*first..argc)) and -o. */
static int parse_options(const cli_command *cmd, int argc, char **argv, split_options *o,
                         int *first) {
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
    uint64_t given;
    int rc = cli_parse(cmd, argc, argv, o, first, &given);
    if (rc != 0) return rc;
    if (*first == argc) return cli_usage_error(cmd->name, "no input given");
    if (!o->out) return cli_usage_error(cmd->name, "no output given (-o OUT)");
    return 0;
}

/* Reads NAME as a payload of whatever capability its magic names, bounded
 * by the memory limit and that format's largest payload. */
static int read_payload(const char *cmd, const char *name, uint64_t budget, cli_inputs *inputs,
                        cli_file *f) {
    cli_read_opts ro = {budget, "the memory limit (--max-memory)", 1, NULL, inputs};
    return cli_read(cmd, name, &ro, f);
}

static wai_format format_of(const cli_file *f) {
    return wai_format_detect(f->data, f->len);
}

static int cmd_split(int argc, char **argv) {
    split_options o;
    int first;
    int rc = parse_options(&split_command, argc, argv, &o, &first);
    if (rc != 0) return rc;
    if (argc - first != 1) return cli_usage_error("split", "split reads one clip");
    if (!strcmp(o.out, "-")) return cli_usage_error("split", "OUT names one file per frame: not '-'");
    cli_inputs inputs;
    cli_inputs_init(&inputs, o.force);
    cli_file f = {0};
    frame_names names = {0};
    wai_payload *frames = NULL;
    uint32_t n = 0;
    rc = EXIT_USAGE;
    if (read_payload("split", argv[first], o.max_memory, &inputs, &f) != 0) goto done;
    const wai_format fmt = format_of(&f);
    if (fmt != WAI_FORMAT_WIV1 && fmt != WAI_FORMAT_WIC1) {
        fprintf(stderr, "wai split: %s: not a WIV1 or WIC1 clip\n", f.name);
        goto done;
    }
    const char *ext = fmt == WAI_FORMAT_WIV1 ? ".wif1" : ".wcf1";
    if (frame_names_parse(o.out, ext, &names) != 0) {
        rc = cli_usage_error("split", "OUT is a directory or a name with one %%d or %%0Nd: '%s'",
                             o.out);
        goto done;
    }
    wai_status st = fmt == WAI_FORMAT_WIV1 ? wai_wiv1_split(NULL, f.data, f.len, &frames, &n)
                                           : wai_wic1_split(NULL, f.data, f.len, &frames, &n);
    if (st != WAI_ok) {
        fprintf(stderr, "wai split: %s: refused: %s\n", f.name, cli_explained(st));
        rc = st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
        goto done;
    }
    uint64_t bytes = 0;
    rc = frame_files_write("split", &names, frames, n, &inputs, &bytes);
    if (rc == EXIT_DONE)
        fprintf(stderr, "wai split: %u %s frames, %llu bytes\n", n, ext + 1,
                (unsigned long long)bytes);
done:
    wai_payloads_free(NULL, frames, n);
    frame_names_free(&names);
    cli_file_free(&f);
    cli_inputs_free(&inputs);
    return rc;
}

/* The number a frame file's name carries: the last run of digits of its
 * basename without the extension (frame_012.wif1: 12); 0 when it has none
 * (or one too long). */
static int name_number(const char *path, uint64_t *v) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    const char *stop = dot && dot != base ? dot : base + strlen(base);
    const char *end = NULL, *start = NULL;
    for (const char *c = base; c < stop; c++)
        if (*c >= '0' && *c <= '9') {
            if (!end || c != end) start = c;
            end = c + 1;
        }
    if (!start || end - start > 18) return 0;
    *v = 0;
    for (const char *c = start; c < end; c++) *v = *v * 10 + (uint64_t)(*c - '0');
    return 1;
}

/* 0 when the names' numbers rise in the order given (or some name has
 * none); else the usage error that says which pair is out of order. */
static int check_name_order(char **names, int n) {
    uint64_t prev = 0, v;
    for (int i = 0; i < n; i++)
        if (!name_number(names[i], &v)) return 0;
    for (int i = 0; i < n; i++) {
        name_number(names[i], &v);
        if (i && v <= prev)
            return cli_usage_error(
                "join",
                "%s (%llu) comes after %s (%llu): the frames are not in their names' "
                "numbers' order (a shell sorts frame_10 before frame_2); give them in "
                "number order (or zero-padded names, as 'wai split' writes them), or "
                "--as-given to join them as given",
                names[i], (unsigned long long)v, names[i - 1], (unsigned long long)prev);
        prev = v;
    }
    return 0;
}

/* 1 when a WIF1 frame parses as an inter frame (its header's kind). */
static int first_is_inter(const wai_payload *f) {
    char hdr[512];
    size_t n = 0;
    const wai_capability *cap = wai_capability_find("wai.video.int_motion.frame");
    return wai_payload_header_json(cap, f->data, f->len, hdr, sizeof hdr, &n) == WAI_ok &&
           strstr(hdr, "\"kind\": \"inter\"") != NULL;
}

static int cmd_join(int argc, char **argv) {
    split_options o;
    int first;
    int rc = parse_options(&join_command, argc, argv, &o, &first);
    if (rc != 0) return rc;
    const int n_in = argc - first;
    if (!o.as_given && (rc = check_name_order(argv + first, n_in)) != 0) return rc;
    cli_inputs inputs;
    cli_inputs_init(&inputs, o.force);
    cli_file *files = calloc((size_t)n_in, sizeof *files);
    wai_payload *frames = calloc((size_t)n_in, sizeof *frames);
    uint8_t *clip = NULL;
    size_t clip_len = 0;
    rc = EXIT_USAGE;
    if (!files || !frames) {
        fprintf(stderr, "wai join: out of memory\n");
        goto done;
    }
    /* OUT is checked before any frame is read. */
    if (strcmp(o.out, "-") != 0) {
        for (int i = first; i < argc; i++)
            if (cli_check_input("join", argv[i], &inputs) != 0) goto done;
        if (cli_out_check("join", o.out, &inputs) != 0) goto done;
    }
    /* The frames share one memory limit. */
    uint64_t left = o.max_memory;
    wai_format fmt = WAI_FORMAT_NONE;
    for (int i = 0; i < n_in; i++) {
        if (read_payload("join", argv[first + i], left, &inputs, &files[i]) != 0) goto done;
        left -= files[i].len <= left ? files[i].len : left;
        if (i == 0) fmt = format_of(&files[0]);
        frames[i].data = files[i].data;
        frames[i].len = files[i].len;
    }
    if (fmt != WAI_FORMAT_WIF1 && fmt != WAI_FORMAT_WCF1) {
        fprintf(stderr, "wai join: %s: not a WIF1 or WCF1 frame\n", files[0].name);
        goto done;
    }
    wai_status st = fmt == WAI_FORMAT_WIF1
                        ? wai_wif1_join(NULL, frames, (uint32_t)n_in, &clip, &clip_len)
                        : wai_wcf1_join(NULL, frames, (uint32_t)n_in, &clip, &clip_len);
    if (st != WAI_ok) {
        fprintf(stderr, "wai join: refused: %s\n", cli_explained(st));
        if (fmt == WAI_FORMAT_WIF1 && first_is_inter(&frames[0]))
            fprintf(stderr, "wai join: %s, the first frame, is an inter frame: a clip starts "
                            "with its group's intra frame\n", files[0].name);
        rc = st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
        goto done;
    }
    if (frame_file_write("join", o.out, clip, clip_len, &inputs) != 0) goto done;
    fprintf(stderr, "wai join: %d frames, a %s clip of %zu bytes\n", n_in,
            fmt == WAI_FORMAT_WIF1 ? "WIV1" : "WIC1", clip_len);
    rc = EXIT_DONE;
done:
    wai_write_free(NULL, clip);
    for (int i = 0; files && i < n_in; i++) cli_file_free(&files[i]);
    free(files);
    free(frames);
    cli_inputs_free(&inputs);
    return rc;
}
