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
    uint64_t max_memory;      /* --max-memory, default CLI_DEFAULT_MAX_MEMORY */
    uint64_t threads;         /* --threads: 0 one per core */
    wai_cpu_level cpu_level;  /* --cpu-level: HOST, no cap */
    int json, force;
    dispatch_opts dispatch;
} decode_options;

static int parse_options(int argc, char **argv, decode_options *o, int *first_file) {
    static const char *const takes_value[] = {"--capability", "--set", "--pin", "-o", "--format",
                                                 "--max-cost", "--max-memory", "--threads", "--cpu-level",
                                                 "--fps", DISPATCH_OPTS_TAKING_VALUE, NULL};
    cli_permute(argc, argv, takes_value);
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
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
        } else if (strcmp(a, "--max-memory") == 0) {
            if (++i >= argc || !cli_parse_bytes(argv[i], &o->max_memory))
                return cli_usage_error("decode",
                                       "--max-memory needs a byte count (N, NK, NM, NG, NT) "
                                       "or none");
        } else if (strcmp(a, "--threads") == 0) {
            if (++i >= argc || !cli_parse_u64(argv[i], &o->threads) || o->threads > 1024)
                return cli_usage_error("decode", "--threads needs 0 (one per core) to 1024");
        } else if (strcmp(a, "--cpu-level") == 0) {
            if (++i >= argc || !wai_cpu_level_from_name(argv[i], &o->cpu_level))
                return cli_usage_error("decode", "--cpu-level needs host, portable, avx2, "
                                                 "avx512, avx512bw or avx512vnni");
        } else if (strcmp(a, "-y") == 0 || strcmp(a, "--force") == 0) {
            o->force = 1;
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

static void print_result_json(const char *capability, wai_status st, const decode_result *r,
                              const uint8_t *digest, const char *report) {
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
} decode_run;

static int read_payload(decode_run *r, int i) {
    cli_file_free(&r->file);
    /* inputs NULL: cli_check_input recorded every FILE before the first read. */
    cli_read_opts ro = {r->payload_budget, "the memory limit (--max-memory, less the set's "
                        "members once read)", 1, r->o->capability, NULL};
    return cli_read("decode", r->names[i], &ro, &r->file);
}

/* Decodes the files as one stream, file 0 already read; stops at the
 * first refusal, keeping what decoded before it. Each output is recorded
 * and written to the writer (NULL: no -o); a failed write or read stops
 * the decode with r->write_rc set. */
static wai_status decode_files(wai_decoder *dec, decode_run *r) {
    for (int i = 0; i < r->n_files; i++) {
        if (i > 0 && read_payload(r, i) != 0) {
            r->write_rc = EXIT_USAGE;
            return WAI_ok;
        }
        wai_status st = wai_decoder_send(dec, r->file.data, r->file.len, NULL);
        if (st != WAI_ok) {
            r->refused_file = r->names[i];
            return st;
        }
        for (;;) {
            wai_output o;
            if ((st = wai_decoder_receive(dec, &o)) != WAI_ok) return st;
            if (o.kind == WAI_OUTPUT_NONE) break;
            r->result.count++;
            r->result.last = o;
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

int cmd_decode(int argc, char **argv) {
    decode_options o;
    int first = 0;
    int rc = parse_options(argc, argv, &o, &first);
    if (rc != 0) return rc;
    decode_run r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    r.names = argv + first;
    r.n_files = argc - first;
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
    if (o.has_fps && out_fmt.fmt != OUT_FORMAT_Y4M && out_fmt.fmt != OUT_FORMAT_Y4M420) {
        exit_status = cli_usage_error("decode", "--fps applies to Y4M output only");
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
    if (o.has_max_cost) cfg.max_cost = o.max_cost;
    wai_status st = wai_decoder_create(ctx, &cfg, &dec);
    if (st == WAI_ok && o.out_path &&
        (exit_status = out_open(o.out_path, &out_fmt, o.fps_num, o.fps_den, &r.inputs,
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
    const char *cap_name = dec && wai_decoder_capability(dec) ? wai_decoder_capability(dec)
                                                              : o.capability;
    char report[WAI_DISPATCH_REPORT_JSON_MAX];
    const char *rep = report_text(dec, report, sizeof report);
    uint8_t digest[32];
    int has_digest = dec && wai_decoder_symbols_digest(dec, digest);
    if (o.json) print_result_json(cap_name, st, &r.result, has_digest ? digest : NULL, rep);
    else if (o.dispatch.report && rep) printf("%s\n", rep);
    else if (st != WAI_ok)
        fprintf(stderr, "wai decode: %s: refused: %s\n", r.refused_file, wai_status_name(st));
    else if (!o.out_path && !o.dispatch.report) print_summary(&r, cap_name);
    exit_status = st == WAI_ok ? EXIT_DONE : EXIT_REFUSED;
done:
    out_close(r.writer);
    free(r.result.outputs);
    wai_decoder_destroy(dec);
    cli_set_free(&set);
    wai_context_destroy(ctx);
    cli_file_free(&r.file);
    cli_inputs_free(&r.inputs);
    return exit_status;
}
