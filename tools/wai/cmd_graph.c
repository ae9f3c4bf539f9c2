/* SPDX-License-Identifier: BSD-2-Clause */
/* wai graph: runs a WebNN graph description (docs/webnn.md, "Graph
 * descriptions") on the native WebNN, for debugging a set's program: the
 * inputs are raw little-endian files of each input's data type, the
 * outputs are written the same way, and one JSON line says what ran. With
 * no --input the graph is built and described, not run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, strdup */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "cli_set.h"
#include "wai/wai_hash.h"
#include "wai/wai_ml.h"

#define MAX_BINDINGS 16

/* NAME=VALUE, split in place. */
typedef struct binding {
    const char *name, *value;
} binding;

/* A repeatable --input or --output NAME=FILE. */
typedef struct binding_list {
    binding v[MAX_BINDINGS];
    size_t n;
} binding_list;

/* The --shape descriptors. */
typedef struct shape_list {
    wai_ml_named_descriptor v[MAX_BINDINGS];
    size_t n;
} shape_list;

typedef struct graph_options {
    const char *desc_path, *weights_path, *out_dir;
    binding_list inputs, outputs;
    shape_list shapes;
    uint64_t threads, max_memory, reps;
    int reference, force, time;
    wai_ml_device_type device;
} graph_options;

/* NAME=FILE, NAME given once, at most MAX_BINDINGS of them. */
static int take_binding(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    binding_list *b = field;
    char *eq = strchr(value, '=');
    if (!eq || eq == value || !eq[1] || b->n == MAX_BINDINGS) return 0;
    *eq = '\0';
    for (size_t i = 0; i < b->n; i++)
        if (strcmp(b->v[i].name, value) == 0) return 0;
    b->v[b->n].name = value;
    b->v[b->n].value = eq + 1;
    b->n++;
    return 1;
}

/* NAME=TYPE:D,D,... or NAME=D,D,... (float32); "NAME=" alone is a
 * scalar. */
static int take_shape(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    shape_list *o = field;
    char *eq = strchr(value, '=');
    if (!eq || eq == value || o->n == MAX_BINDINGS) return 0;
    *eq = '\0';
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->v[i].name, value) == 0) return 0;
    wai_ml_named_descriptor *s = &o->v[o->n];
    memset(s, 0, sizeof *s);
    s->name = value;
    s->desc.data_type = WAI_ML_FLOAT32;
    char *dims = eq + 1, *colon = strchr(dims, ':');
    if (colon) {
        *colon = '\0';
        if (!wai_ml_data_type_from_name(dims, &s->desc.data_type)) return 0;
        dims = colon + 1;
    }
    while (*dims) {
        char *end = strchr(dims, ',');
        if (end) *end = '\0';
        uint64_t d;
        if (s->desc.rank == WAI_ML_MAX_RANK || !cli_parse_u64(dims, &d) || d == 0 ||
            d > UINT32_MAX)
            return 0;
        s->desc.shape[s->desc.rank++] = (uint32_t)d;
        if (!end) break;
        dims = end + 1;
        if (!*dims) return 0;
    }
    o->n++;
    return 1;
}

static int take_device(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    wai_ml_device_type *d = field;
    if (strcmp(value, "cpu") == 0) *d = WAI_ML_DEVICE_CPU;
    else if (strcmp(value, "gpu") == 0) *d = WAI_ML_DEVICE_GPU;
    else if (strcmp(value, "npu") == 0) *d = WAI_ML_DEVICE_NPU;
    else return 0;
    return 1;
}

#define G(field) offsetof(graph_options, field)

static const cli_opt graph_opts[] = {
    {.name = "--weights", .value = "FILE", .offset = G(weights_path),
     .help = "the constants' file (default: DESC's name with\n"
             ".webnn.json or .json replaced by .f32, if it exists)"},
    {.name = "--shape", .value = "NAME=[TYPE:]D,D,...", .offset = G(shapes), .parse = take_shape,
     .must = "NAME=[TYPE:]D,D,... (TYPE a WebNN data type, each D 1..2^32-1; each NAME "
             "once, at most 16)",
     .help = "give input NAME this descriptor instead of\n"
             "the description's (TYPE default float32; 'NAME=' is a\n"
             "scalar): one description serves every picture size"},
    {.name = "--input", .value = "NAME=FILE", .offset = G(inputs), .parse = take_binding,
     .must = "NAME=FILE (each NAME once, at most 16)",
     .help = "the elements of input NAME; every input needs one\n"
             "for the graph to run"},
    {.name = "-o", .value = "DIR", .offset = G(out_dir),
     .help = "write every output to DIR/NAME.f32 (.f16, .bin for\n"
             "other types); DIR must exist"},
    {.name = "--output", .value = "NAME=FILE", .offset = G(outputs), .parse = take_binding,
     .must = "NAME=FILE (each NAME once, at most 16)",
     .help = "write output NAME to FILE ('-': standard output)"},
    {.name = "--device", .value = "D", .offset = G(device), .parse = take_device,
     .must = "cpu, gpu or npu",
     .help = "the context's unit: cpu (default); gpu and npu are\n"
             "NotSupportedError in this build"},
    {.name = "--reference", .offset = G(reference),
     .help = "compute with the plain C reference kernels instead\n"
             "of the fastest (oneDNN's convolutions where found)"},
    {.name = "--threads", .value = "N", .offset = G(threads), .parse = cli_take_u64,
     .must = "0 (one per core) to 1024", .max = 1024,
     .help = "the context's threads (0: one per core, the default)"},
    {.name = "--time", .offset = G(time),
     .help = "add build_ms, first_ms (the first run, which also makes\n"
             "the kernels' primitives) and compute_ms (the fastest\n"
             "run) to the line"},
    {.name = "--reps", .value = "N", .offset = G(reps), .parse = cli_take_u64,
     .must = "1 to 1000", .min = 1, .max = 1000,
     .help = "run the graph N times (1 to 1000, default 1)"},
    {.name = "--max-memory", .value = "BYTES", .offset = G(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT, .help = "the most any file read may hold (default 2G)"},
    {.name = "--force", .alias = "-y", .offset = G(force), .help = "replace an existing output file"},
};

static int cmd_graph(int argc, char **argv);

const cli_command graph_command = {
    .name = "graph",
    .summary = "build and run a WebNN graph description (a set's program)",
    .operands = "DESC.json",
    .about = "Builds the WebNN graph that DESC.json describes (a set's decoder.webnn.json:\n"
             "docs/webnn.md, \"Graph descriptions\") on libwai's native WebNN and, with\n"
             "its inputs, computes it. Prints one JSON line: the graph, its weights\n"
             "file, the kernels, its operator count, its inputs' descriptors and, run,\n"
             "each output's descriptor, SHA-256, min, max, mean and NaN count (float\n"
             "outputs) and file; not run, the outputs' descriptors.\n"
             "\n"
             "Files hold a tensor's elements in row-major order, little-endian, each\n"
             "of the operand's data type (float32: 4 bytes), and nothing else: numpy's\n"
             "tofile(), torch's .numpy().tofile().\n",
    .opts = CLI_ROWS(graph_opts),
    .after = "A WebNN error prints its name (DataError, TypeError, ...) and message.\n"
             "\n"
             "Exit status: 0 done, 1 WebNN refused the description or the run, 2 usage\n"
             "or I/O error.\n",
    .run = cmd_graph,
};

static int parse_args(int argc, char **argv, graph_options *o) {
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
    o->threads = 0;
    o->reps = 1;
    int i;
    uint64_t given;
    int rc = cli_parse(&graph_command, argc, argv, o, &i, &given);
    if (rc != 0) return rc;
    if (i != argc - 1) return cli_usage_error("graph", "needs one graph description");
    o->desc_path = argv[i];
    if (o->out_dir && o->outputs.n)
        return cli_usage_error("graph", "-o DIR and --output NAME=FILE are exclusive");
    if ((o->out_dir || o->outputs.n) && !o->inputs.n)
        return cli_usage_error("graph", "outputs need the graph run: give its --input files");
    return 0;
}

/* The weights beside the description when --weights names none:
 * decoder.webnn.json's decoder.f32 (neural-dispatch §6.2), else NAME.f32
 * for NAME.json. NULL when there is no such file. */
static char *weights_beside(const char *desc) {
    size_t n = strlen(desc);
    const char *suffixes[] = {".webnn.json", ".json"};
    for (size_t k = 0; k < 2; k++) {
        size_t sl = strlen(suffixes[k]);
        if (n <= sl || strcmp(desc + n - sl, suffixes[k]) != 0) continue;
        char *w = malloc(n - sl + 5);
        if (!w) return NULL;
        memcpy(w, desc, n - sl);
        memcpy(w + n - sl, ".f32", 5);
        struct stat st;
        if (stat(w, &st) == 0 && S_ISREG(st.st_mode)) return w;
        free(w);
    }
    return NULL;
}

static uint64_t element_count(const wai_ml_operand_descriptor *d) {
    uint64_t n = 1;
    for (uint32_t i = 0; i < d->rank; i++) n *= d->shape[i];
    return n;
}

static void put_descriptor(FILE *out, const wai_ml_operand_descriptor *d) {
    fprintf(out, "\"data_type\": \"%s\", \"shape\": [", wai_ml_data_type_name(d->data_type));
    for (uint32_t i = 0; i < d->rank; i++) fprintf(out, i ? ", %u" : "%u", d->shape[i]);
    fprintf(out, "]");
}

/* A float16's value (the tool may compute in floating point; src/ may not). */
static float half_value(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31u, m = h & 0x3ffu, bits;
    if (e == 31) bits = sign | 0x7f800000u | (m << 13);
    else if (e) bits = sign | ((e + 112) << 23) | (m << 13);
    else if (!m) bits = sign;
    else {
        /* subnormal: normalise the mantissa */
        e = 113;
        while (!(m & 0x400u)) {
            m <<= 1;
            e--;
        }
        bits = sign | (e << 23) | ((m & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* min, max and mean of a float output, for a quick look; NaNs counted. */
static void put_stats(FILE *out, const uint8_t *data, const wai_ml_operand_descriptor *d) {
    uint64_t n = element_count(d), nans = 0;
    if (d->data_type != WAI_ML_FLOAT32 && d->data_type != WAI_ML_FLOAT16) return;
    double lo = 0, hi = 0, sum = 0;
    uint64_t seen = 0;
    for (uint64_t i = 0; i < n; i++) {
        float f;
        if (d->data_type == WAI_ML_FLOAT32) memcpy(&f, data + 4 * i, 4);
        else {
            uint16_t h;
            memcpy(&h, data + 2 * i, 2);
            f = half_value(h);
        }
        if (f != f) {
            nans++;
            continue;
        }
        if (!seen || f < lo) lo = f;
        if (!seen || f > hi) hi = f;
        sum += f;
        seen++;
    }
    if (seen) fprintf(out, ", \"min\": %.9g, \"max\": %.9g, \"mean\": %.9g", lo, hi, sum / (double)seen);
    fprintf(out, ", \"nan\": %llu", (unsigned long long)nans);
}

static const char *suffix_of(wai_ml_operand_data_type t) {
    switch (t) {
    case WAI_ML_FLOAT32: return ".f32";
    case WAI_ML_FLOAT16: return ".f16";
    default: return ".bin";
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* What one run holds, freed in one place. */
typedef struct graph_run {
    cli_file desc, weights, in_files[MAX_BINDINGS];
    cli_inputs inputs;
    wai_context *ctx;
    wai_ml_context *ml;
    wai_ml_graph *graph;
    wai_ml_named_tensor in_t[MAX_BINDINGS], out_t[MAX_BINDINGS];
    size_t n_in, n_out;
    uint8_t *out_data[MAX_BINDINGS];
    char *weights_name, *out_names[MAX_BINDINGS];
} graph_run;

static void run_free(graph_run *r) {
    for (size_t i = 0; i < MAX_BINDINGS; i++) {
        wai_ml_tensor_destroy(r->in_t[i].tensor);
        wai_ml_tensor_destroy(r->out_t[i].tensor);
        free(r->out_data[i]);
        free(r->out_names[i]);
        cli_file_free(&r->in_files[i]);
    }
    wai_ml_graph_destroy(r->graph);
    wai_ml_context_destroy(r->ml);
    wai_context_destroy(r->ctx);
    cli_file_free(&r->desc);
    cli_file_free(&r->weights);
    free(r->weights_name);
    cli_inputs_free(&r->inputs);
}

static int webnn_refused(graph_run *r, wai_status st, const char *what) {
    fprintf(stderr, "wai graph: %s: %s: %s\n", what, cli_explained(st),
            r->ml ? wai_ml_error_message(r->ml) : "");
    return wai_status_kind_of(st) == WAI_KIND_LIBRARY ? EXIT_USAGE : EXIT_REFUSED;
}

/* Reads each --input into a tensor of the graph's descriptor of it. */
static int bind_inputs(const graph_options *o, graph_run *r) {
    size_t n = wai_ml_graph_input_count(r->graph);
    for (size_t k = 0; k < o->inputs.n; k++) {
        size_t i = 0;
        while (i < n && strcmp(wai_ml_graph_input_at(r->graph, i, NULL), o->inputs.v[k].name) != 0)
            i++;
        if (i == n) return cli_usage_error("graph", "the graph has no input '%s'", o->inputs.v[k].name);
    }
    if (o->inputs.n != n) {
        fprintf(stderr, "wai graph: the graph's inputs are:");
        for (size_t i = 0; i < n; i++) fprintf(stderr, " %s", wai_ml_graph_input_at(r->graph, i, NULL));
        fprintf(stderr, "; give each one --input NAME=FILE\n");
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++) {
        const wai_ml_operand_descriptor *d;
        const char *name = wai_ml_graph_input_at(r->graph, i, &d);
        const char *file = NULL;
        for (size_t k = 0; k < o->inputs.n; k++)
            if (strcmp(o->inputs.v[k].name, name) == 0) file = o->inputs.v[k].value;
        uint64_t bytes = element_count(d) * wai_ml_data_type_size(d->data_type);
        cli_read_opts ro = {o->max_memory, "--max-memory", 0, NULL, &r->inputs};
        if (cli_read("graph", file, &ro, &r->in_files[i]) != 0) return EXIT_USAGE;
        if (r->in_files[i].len != bytes) {
            fprintf(stderr, "wai graph: %s: %llu bytes, but input '%s' (%s, %llu elements) "
                            "takes %llu\n",
                    file, (unsigned long long)r->in_files[i].len, name,
                    wai_ml_data_type_name(d->data_type), (unsigned long long)element_count(d),
                    (unsigned long long)bytes);
            return EXIT_USAGE;
        }
        wai_ml_tensor_descriptor td = {*d, 0, 1};
        wai_status st = wai_ml_create_tensor(r->ml, &td, &r->in_t[i].tensor);
        if (st == WAI_ok)
            st = wai_ml_write_tensor(r->ml, r->in_t[i].tensor, r->in_files[i].data,
                                     r->in_files[i].len);
        if (st != WAI_ok) return webnn_refused(r, st, name);
        r->in_t[i].name = name;
        r->n_in++;
    }
    return 0;
}

/* Where output NAME goes: -o DIR's DIR/NAME.f32, --output NAME=FILE's
 * FILE, or nowhere (only its line is printed). */
static int output_target(const graph_options *o, graph_run *r, size_t i, const char *name,
                         const wai_ml_operand_descriptor *d) {
    if (o->out_dir) {
        size_t n = strlen(o->out_dir) + strlen(name) + 8;
        r->out_names[i] = malloc(n);
        if (!r->out_names[i]) return -1;
        snprintf(r->out_names[i], n, "%s/%s%s", o->out_dir, name, suffix_of(d->data_type));
        return 0;
    }
    for (size_t k = 0; k < o->outputs.n; k++)
        if (strcmp(o->outputs.v[k].name, name) == 0) {
            r->out_names[i] = strdup(o->outputs.v[k].value);
            return r->out_names[i] ? 0 : -1;
        }
    return 0;
}

static int write_output(graph_run *r, size_t i, size_t len) {
    cli_out_file f;
    if (cli_out_open("graph", r->out_names[i], &r->inputs, &f) != 0) return EXIT_USAGE;
    if (fwrite(r->out_data[i], 1, len, f.f) != len) {
        cli_out_discard(&f);
        fprintf(stderr, "wai graph: %s: write failed\n", r->out_names[i]);
        return EXIT_USAGE;
    }
    return cli_out_commit("graph", &f);
}

static int run_outputs(const graph_options *o, graph_run *r) {
    size_t n = wai_ml_graph_output_count(r->graph);
    for (size_t k = 0; k < o->outputs.n; k++) {
        size_t i = 0;
        while (i < n && strcmp(wai_ml_graph_output_at(r->graph, i, NULL), o->outputs.v[k].name) != 0)
            i++;
        if (i == n)
            return cli_usage_error("graph", "the graph has no output '%s'", o->outputs.v[k].name);
    }
    for (size_t i = 0; i < n; i++) {
        const wai_ml_operand_descriptor *d;
        const char *name = wai_ml_graph_output_at(r->graph, i, &d);
        wai_ml_tensor_descriptor td = {*d, 1, 0};
        wai_status st = wai_ml_create_tensor(r->ml, &td, &r->out_t[i].tensor);
        if (st != WAI_ok) return webnn_refused(r, st, name);
        r->out_t[i].name = name;
        r->n_out++;
        if (output_target(o, r, i, name, d) != 0) {
            fprintf(stderr, "wai graph: out of memory\n");
            return EXIT_USAGE;
        }
        /* Refuse a target before computing, not after. */
        if (r->out_names[i] && cli_out_check("graph", r->out_names[i], &r->inputs) != 0)
            return EXIT_USAGE;
    }
    return 0;
}

static void put_io(FILE *out, const char *key, const wai_ml_graph *g, int outputs) {
    size_t n = outputs ? wai_ml_graph_output_count(g) : wai_ml_graph_input_count(g);
    fprintf(out, ", \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        const wai_ml_operand_descriptor *d;
        const char *name = outputs ? wai_ml_graph_output_at(g, i, &d) : wai_ml_graph_input_at(g, i, &d);
        fprintf(out, i ? ", {\"name\": " : "{\"name\": ");
        json_put_string(out, name);
        fprintf(out, ", ");
        put_descriptor(out, d);
        fprintf(out, "}");
    }
    fprintf(out, "]");
}

static int graph_main(const graph_options *o, graph_run *r) {
    cli_inputs_init(&r->inputs, o->force);
    cli_read_opts ro = {o->max_memory, "--max-memory", 0, NULL, &r->inputs};
    if (cli_read("graph", o->desc_path, &ro, &r->desc) != 0) return EXIT_USAGE;
    const char *wpath = o->weights_path;
    if (!wpath) wpath = r->weights_name = weights_beside(o->desc_path);
    if (wpath && cli_read("graph", wpath, &ro, &r->weights) != 0) return EXIT_USAGE;

    wai_settings settings;
    wai_settings_default(&settings);
    settings.n_threads = (unsigned)o->threads;
    wai_ml_context_options mo;
    wai_ml_context_options_default(&mo);
    mo.device_type = o->device;
    mo.kernels = o->reference ? WAI_ML_KERNELS_REFERENCE : WAI_ML_KERNELS_BEST;
    wai_status st = cli_context_create(&settings, &r->ctx);
    if (st != WAI_ok) return webnn_refused(r, st, "context");
    st = wai_ml_create_context(r->ctx, &mo, &r->ml);
    if (st != WAI_ok) return webnn_refused(r, st, "createContext");
    double t0 = now_ms();
    st = wai_ml_graph_from_json(r->ml, r->desc.data, r->desc.len, r->weights.data, r->weights.len,
                                o->shapes.v, o->shapes.n, &r->graph);
    if (st != WAI_ok) return webnn_refused(r, st, o->desc_path);
    double t1 = now_ms(), first = 0, best = 0;
    for (size_t i = 0; i < o->shapes.n; i++) {
        size_t k = 0, n = wai_ml_graph_input_count(r->graph);
        while (k < n && strcmp(wai_ml_graph_input_at(r->graph, k, NULL), o->shapes.v[i].name) != 0)
            k++;
        if (k == n) return cli_usage_error("graph", "--shape: the graph has no input '%s'",
                                           o->shapes.v[i].name);
    }
    int rc = 0;
    if (o->inputs.n) {
        if ((rc = bind_inputs(o, r)) != 0 || (rc = run_outputs(o, r)) != 0) return rc;
        /* compute_ms is the fastest of --reps runs; first_ms the first's
         * (it also makes the kernels' primitives). */
        for (uint64_t k = 0; k < o->reps; k++) {
            double a = now_ms();
            st = wai_ml_dispatch(r->ml, r->graph, r->in_t, r->n_in, r->out_t, r->n_out);
            if (st != WAI_ok) return webnn_refused(r, st, "dispatch");
            double ms = now_ms() - a;
            if (k == 0) first = ms;
            if (k == 0 || ms < best) best = ms;
        }
    }
    /* Every output read and written before the line is printed: a write
     * that fails leaves no line claiming it. */
    size_t lens[MAX_BINDINGS] = {0};
    for (size_t i = 0; i < r->n_out; i++) {
        const wai_ml_operand_descriptor *d = wai_ml_tensor_descriptor_of(r->out_t[i].tensor);
        lens[i] = (size_t)(element_count(d) * wai_ml_data_type_size(d->data_type));
        r->out_data[i] = malloc(lens[i] ? lens[i] : 1);
        if (!r->out_data[i]) {
            fprintf(stderr, "wai graph: out of memory\n");
            return EXIT_USAGE;
        }
        st = wai_ml_read_tensor(r->ml, r->out_t[i].tensor, r->out_data[i], lens[i]);
        if (st != WAI_ok) return webnn_refused(r, st, "readTensor");
        if (r->out_names[i] && (rc = write_output(r, i, lens[i])) != 0) return rc;
    }
    /* An output written to standard output sends the line to stderr. */
    FILE *out = stdout;
    for (size_t i = 0; i < r->n_out; i++)
        if (r->out_names[i] && strcmp(r->out_names[i], "-") == 0) out = stderr;
    fprintf(out, "{\"graph\": ");
    json_put_string(out, o->desc_path);
    fprintf(out, ", \"weights\": ");
    if (wpath) json_put_string(out, wpath);
    else fprintf(out, "null");
    fprintf(out, ", \"kernels\": \"%s\", \"operators\": %zu", o->reference ? "reference" : "best",
           wai_ml_graph_operator_count(r->graph));
    put_io(out, "inputs", r->graph, 0);
    if (!o->inputs.n) put_io(out, "outputs", r->graph, 1);
    else {
        fprintf(out, ", \"outputs\": [");
        for (size_t i = 0; i < r->n_out; i++) {
            const wai_ml_operand_descriptor *d = wai_ml_tensor_descriptor_of(r->out_t[i].tensor);
            uint8_t sha[32];
            wai_sha256_oneshot(r->out_data[i], lens[i], sha);
            fprintf(out, i ? ", {\"name\": " : "{\"name\": ");
            json_put_string(out, r->out_t[i].name);
            fprintf(out, ", ");
            put_descriptor(out, d);
            fprintf(out, ", \"sha256\": ");
            json_put_hex(out, sha, 32);
            put_stats(out, r->out_data[i], d);
            fprintf(out, ", \"file\": ");
            if (r->out_names[i]) json_put_string(out, r->out_names[i]);
            else fprintf(out, "null");
            fprintf(out, "}");
        }
        fprintf(out, "]");
    }
    if (o->time)
        fprintf(out, ", \"build_ms\": %.3f, \"first_ms\": %.3f, \"compute_ms\": %.3f, \"reps\": %llu",
                t1 - t0, first, best, (unsigned long long)o->reps);
    fprintf(out, "}\n");
    return EXIT_DONE;
}

static int cmd_graph(int argc, char **argv) {
    graph_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc;
    graph_run r;
    memset(&r, 0, sizeof r);
    rc = graph_main(&o, &r);
    run_free(&r);
    return rc;
}
