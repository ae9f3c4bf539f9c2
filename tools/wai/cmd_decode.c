/* wai decode: the decode contract of the tool. One capability, one or more
 * payloads (several are one frame stream), one result: a status and the
 * outputs decoded before it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_set.h"
#include "dispatch_opts.h"
#include "output.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_hash.h"

typedef struct decode_options {
    const char *capability;
    const char *set_dir;
    const char *pin;
    const char *out_path;
    const char *out_format;   /* --format, or NULL: by OUT's extension */
    uint32_t fps_num, fps_den;
    int has_fps;
    uint64_t max_cost;
    int has_max_cost;
    int json;
    dispatch_opts dispatch;
} decode_options;

static int parse_options(int argc, char **argv, decode_options *o, int *first_file) {
    static const char *const takes_value[] = {"--capability", "--set", "--pin", "-o", "--format",
                                                 "--max-cost", "--fps", DISPATCH_OPTS_TAKING_VALUE,
                                                 NULL};
    cli_permute(argc, argv, takes_value);
    memset(o, 0, sizeof *o);
    dispatch_opts_init(&o->dispatch);
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        int t = dispatch_opts_take("decode", argc, argv, &i, &o->dispatch);
        if (t < 0) return EXIT_USAGE;
        if (t > 0) continue;
        const char **value = NULL;
        if (strcmp(a, "--capability") == 0) value = &o->capability;
        else if (strcmp(a, "--set") == 0) value = &o->set_dir;
        else if (strcmp(a, "--pin") == 0) value = &o->pin;
        else if (strcmp(a, "-o") == 0) value = &o->out_path;
        else if (strcmp(a, "--format") == 0) value = &o->out_format;
        if (value) {
            if (++i >= argc) return cli_usage_error("decode", "%s needs a value", a);
            *value = argv[i];
        } else if (strcmp(a, "--max-cost") == 0) {
            if (++i >= argc || !cli_parse_u64(argv[i], &o->max_cost))
                return cli_usage_error("decode", "--max-cost needs a decimal integer");
            o->has_max_cost = 1;
        } else if (strcmp(a, "--fps") == 0) {
            if (++i >= argc || !out_parse_fps(argv[i], &o->fps_num, &o->fps_den))
                return cli_usage_error("decode", "--fps needs N or N/D (positive integers)");
            o->has_fps = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("decode", "unknown option '%s'", a);
        } else {
            break;
        }
    }
    if (i >= argc) return cli_usage_error("decode", "no FILE given");
    if (!o->out_path && o->out_format) return cli_usage_error("decode", "--format needs -o OUT");
    if (o->out_path && strcmp(o->out_path, "-") == 0 && o->json)
        return cli_usage_error("decode", "-o - and --json both want standard output");
    if (o->dispatch.report && o->json)
        return cli_usage_error("decode", "--report and --json both print; --json carries the report");
    if (!o->has_fps) o->fps_num = 25, o->fps_den = 1;
    *first_file = i;
    return 0;
}

/* One decoded output, as --json reports it. */
typedef struct output_record {
    const char *kind;
    uint8_t sha256[32];
    size_t bytes;
} output_record;

typedef struct decode_result {
    output_record *outputs;
    size_t n, cap;
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

static void print_result_json(const char *capability, wai_status st, const decode_result *r,
                              const char *report) {
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
    if (report) printf(", \"report\": %s", report);
    printf("}\n");
}

/* Decodes the files as one stream; stops at the first refusal, keeping what
 * decoded before it. Each output is recorded in r (NULL: not recorded) and
 * written to w (NULL: no -o); a failed write stops the decode with
 * *write_rc set. */
static wai_status decode_files(wai_decoder *dec, const cli_file *files, int n_files,
                               decode_result *r, const char **refused_file, out_writer *w,
                               int *write_rc) {
    for (int i = 0; i < n_files; i++) {
        wai_status st = wai_decoder_send(dec, files[i].data, files[i].len, NULL);
        if (st != WAI_ok) {
            *refused_file = files[i].name;
            return st;
        }
        for (;;) {
            wai_output o;
            if ((st = wai_decoder_receive(dec, &o)) != WAI_ok) return st;
            if (o.kind == WAI_OUTPUT_NONE) break;
            /* Only --json prints the hashes: without it, skip SHA-256. */
            if (r && record_output(r, &o) != 0) return WAI_out_of_memory;
            /* A write that fails stops the decode: exit 2, no JSON. */
            if (w && (*write_rc = out_write(w, &o, files[i].data, files[i].len)) != 0)
                return WAI_ok;
        }
    }
    return WAI_ok;
}

int cmd_decode(int argc, char **argv) {
    decode_options o;
    int first = 0;
    int rc = parse_options(argc, argv, &o, &first);
    if (rc != 0) return rc;
    int n_files = argc - first;
    cli_file *files = calloc((size_t)n_files, sizeof *files);
    if (!files) return EXIT_USAGE;
    int loaded = 0;
    for (; loaded < n_files; loaded++)
        if (cli_read_file(argv[first + loaded], &files[loaded]) != 0) break;

    int exit_status = EXIT_USAGE;
    wai_context *ctx = NULL;
    wai_decoder *dec = NULL;
    wai_set *set = NULL;
    decode_result result = {NULL, 0, 0};
    out_writer *writer = NULL;
    int write_rc = 0;
    if (loaded < n_files) goto done;
    const wai_capability *cap = o.capability ? wai_capability_find(o.capability)
                                             : wai_capability_detect(files[0].data, files[0].len);
    if (cap && n_files > 1 && !cap->frame_form) {
        exit_status = cli_usage_error(
            "decode", "several FILEs are one frame stream; %s is not a frame form", cap->name);
        goto done;
    }
    /* -o is checked before anything decodes, against the kind of output
     * the capability gives. */
    out_choice out_fmt;
    if ((exit_status = out_select(o.out_path, o.out_format, out_kind_of(cap), &out_fmt)) != 0)
        goto done;
    if (o.has_fps && out_fmt.fmt != OUT_FORMAT_Y4M) {
        exit_status = cli_usage_error("decode", "--fps applies to Y4M output only");
        goto done;
    }
    exit_status = EXIT_USAGE;
    wai_status st = wai_context_create(NULL, &ctx);
    if (st == WAI_ok &&
        (exit_status = cli_load_set("decode", ctx, cap, o.set_dir, o.pin, &set)) != 0)
        goto done;
    exit_status = EXIT_USAGE;
    wai_decoder_config cfg;
    wai_decoder_default_config(&cfg);
    cfg.capability = o.capability;
    cfg.set = set;
    cfg.dispatch = &o.dispatch.options;
    if (o.has_max_cost) cfg.max_cost = o.max_cost;
    if (st == WAI_ok) st = wai_decoder_create(ctx, &cfg, &dec);
    if (st == WAI_ok && o.out_path &&
        (exit_status = out_open(o.out_path, &out_fmt, o.fps_num, o.fps_den, &writer)) != 0)
        goto done;
    const char *refused_file = files[0].name;
    if (st == WAI_ok)
        st = decode_files(dec, files, n_files, o.json ? &result : NULL, &refused_file, writer,
                          &write_rc);
    /* Close before reporting: what was written before a refusal stays. */
    int close_rc = out_close(writer);
    writer = NULL;
    if (write_rc == 0) write_rc = close_rc;
    if (write_rc != 0) {
        exit_status = write_rc;
        goto done;
    }
    const char *cap_name = dec && wai_decoder_capability(dec) ? wai_decoder_capability(dec)
                                                              : o.capability;
    char report[WAI_DISPATCH_REPORT_JSON_MAX];
    const char *rep = report_text(dec, report, sizeof report);
    if (o.json) print_result_json(cap_name, st, &result, rep);
    else if (o.dispatch.report && rep) printf("%s\n", rep);
    else if (st != WAI_ok)
        fprintf(stderr, "wai decode: %s: refused: %s\n", refused_file, wai_status_name(st));
    exit_status = st == WAI_ok ? EXIT_DONE : EXIT_REFUSED;
done:
    out_close(writer);
    free(result.outputs);
    wai_decoder_destroy(dec);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    for (int i = 0; i < loaded; i++) cli_file_free(&files[i]);
    free(files);
    return exit_status;
}
