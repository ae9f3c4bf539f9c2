/* wai graph: runs a WebNN graph description (docs/webnn.md, "Graph
 * descriptions") on the native WebNN, for debugging a set's program: the
 * inputs are raw little-endian files of each input's data type, the
 * outputs are written the same way, and one JSON line says what ran. With
 * no --input the graph is built and described, not run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, strdup */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "cli_set.h"
#include "wai/wai_hash.h"
#include "wai/wai_webnn.h"

#define MAX_BINDINGS 16

/* NAME=VALUE, split in place. */
typedef struct binding {
    const char *name, *value;
} binding;

typedef struct graph_options {
    const char *desc_path, *weights_path, *out_dir;
    binding inputs[MAX_BINDINGS], outputs[MAX_BINDINGS];
    wai_ml_named_descriptor shapes[MAX_BINDINGS];
    size_t n_inputs, n_outputs, n_shapes;
    uint64_t threads, max_memory, reps;
    int reference, force, time;
    wai_ml_device_type device;
} graph_options;

static int add_binding(binding *v, size_t *n, char *arg, const char *opt) {
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return cli_usage_error("graph", "%s needs NAME=FILE", opt);
    if (*n == MAX_BINDINGS) return cli_usage_error("graph", "at most %d of %s", MAX_BINDINGS, opt);
    *eq = '\0';
    for (size_t i = 0; i < *n; i++)
        if (strcmp(v[i].name, arg) == 0)
            return cli_usage_error("graph", "%s names '%s' twice", opt, arg);
    v[*n].name = arg;
    v[*n].value = eq + 1;
    (*n)++;
    return 0;
}

/* --shape NAME=TYPE:D,D,... or NAME=D,D,... (float32); "NAME=" alone is a
 * scalar. */
static int add_shape(graph_options *o, char *arg) {
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) return cli_usage_error("graph", "--shape needs NAME=[TYPE:]D,D,...");
    if (o->n_shapes == MAX_BINDINGS) return cli_usage_error("graph", "too many --shape");
    *eq = '\0';
    wai_ml_named_descriptor *s = &o->shapes[o->n_shapes];
    memset(s, 0, sizeof *s);
    s->name = arg;
    s->desc.data_type = WAI_ML_FLOAT32;
    char *dims = eq + 1, *colon = strchr(dims, ':');
    if (colon) {
        *colon = '\0';
        if (!wai_ml_data_type_from_name(dims, &s->desc.data_type))
            return cli_usage_error("graph", "--shape %s: no data type '%s'", arg, dims);
        dims = colon + 1;
    }
    while (*dims) {
        char *end = strchr(dims, ',');
        if (end) *end = '\0';
        uint64_t d;
        if (s->desc.rank == WAI_ML_MAX_RANK || !cli_parse_u64(dims, &d) || d == 0 ||
            d > UINT32_MAX)
            return cli_usage_error("graph", "--shape %s: bad dimension list", arg);
        s->desc.shape[s->desc.rank++] = (uint32_t)d;
        if (!end) break;
        dims = end + 1;
        if (!*dims) return cli_usage_error("graph", "--shape %s: bad dimension list", arg);
    }
    for (size_t i = 0; i < o->n_shapes; i++)
        if (strcmp(o->shapes[i].name, arg) == 0)
            return cli_usage_error("graph", "--shape names '%s' twice", arg);
    o->n_shapes++;
    return 0;
}

static int parse_args(int argc, char **argv, graph_options *o) {
    static const char *const takes_value[] = {"--weights", "--input",  "--output", "--shape",
                                              "-o",        "--threads", "--device", "--max-memory",
                                              "--reps",    NULL};
    cli_permute(argc, argv, takes_value);
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
    o->threads = 0;
    o->reps = 1;
    int i = 1;
    for (; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || !a[1]) break;
        int needs = 0;
        for (size_t k = 0; takes_value[k]; k++) needs |= strcmp(a, takes_value[k]) == 0;
        if (needs && ++i >= argc) return cli_usage_error("graph", "%s needs a value", a);
        char *v = needs ? argv[i] : NULL;
        if (strcmp(a, "--weights") == 0) o->weights_path = v;
        else if (strcmp(a, "-o") == 0) o->out_dir = v;
        else if (strcmp(a, "--input") == 0) {
            if (add_binding(o->inputs, &o->n_inputs, v, a)) return EXIT_USAGE;
        } else if (strcmp(a, "--output") == 0) {
            if (add_binding(o->outputs, &o->n_outputs, v, a)) return EXIT_USAGE;
        } else if (strcmp(a, "--shape") == 0) {
            if (add_shape(o, v)) return EXIT_USAGE;
        } else if (strcmp(a, "--threads") == 0) {
            if (!cli_parse_u64(v, &o->threads) || o->threads > 1024)
                return cli_usage_error("graph", "--threads needs 0 (one per core) to 1024");
        } else if (strcmp(a, "--reps") == 0) {
            if (!cli_parse_u64(v, &o->reps) || o->reps < 1 || o->reps > 1000)
                return cli_usage_error("graph", "--reps needs 1 to 1000");
        } else if (strcmp(a, "--max-memory") == 0) {
            if (!cli_parse_bytes(v, &o->max_memory))
                return cli_usage_error("graph", "--max-memory needs a byte count");
        } else if (strcmp(a, "--device") == 0) {
            if (strcmp(v, "cpu") == 0) o->device = WAI_ML_DEVICE_CPU;
            else if (strcmp(v, "gpu") == 0) o->device = WAI_ML_DEVICE_GPU;
            else if (strcmp(v, "npu") == 0) o->device = WAI_ML_DEVICE_NPU;
            else return cli_usage_error("graph", "--device is cpu, gpu or npu");
        } else if (strcmp(a, "--reference") == 0) o->reference = 1;
        else if (strcmp(a, "--time") == 0) o->time = 1;
        else if (strcmp(a, "-y") == 0 || strcmp(a, "--force") == 0) o->force = 1;
        else return cli_usage_error("graph", "unknown option '%s'", a);
    }
    if (i != argc - 1) return cli_usage_error("graph", "needs one graph description");
    o->desc_path = argv[i];
    if (o->out_dir && o->n_outputs)
        return cli_usage_error("graph", "-o DIR and --output NAME=FILE are exclusive");
    if ((o->out_dir || o->n_outputs) && !o->n_inputs)
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
    fprintf(stderr, "wai graph: %s: %s: %s\n", what, wai_status_name(st),
            r->ml ? wai_ml_error_message(r->ml) : "");
    return wai_status_kind_of(st) == WAI_KIND_LIBRARY ? EXIT_USAGE : EXIT_REFUSED;
}

/* Reads each --input into a tensor of the graph's descriptor of it. */
static int bind_inputs(const graph_options *o, graph_run *r) {
    size_t n = wai_ml_graph_input_count(r->graph);
    for (size_t k = 0; k < o->n_inputs; k++) {
        size_t i = 0;
        while (i < n && strcmp(wai_ml_graph_input_at(r->graph, i, NULL), o->inputs[k].name) != 0)
            i++;
        if (i == n) return cli_usage_error("graph", "the graph has no input '%s'", o->inputs[k].name);
    }
    if (o->n_inputs != n) {
        fprintf(stderr, "wai graph: the graph's inputs are:");
        for (size_t i = 0; i < n; i++) fprintf(stderr, " %s", wai_ml_graph_input_at(r->graph, i, NULL));
        fprintf(stderr, "; give each one --input NAME=FILE\n");
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++) {
        const wai_ml_operand_descriptor *d;
        const char *name = wai_ml_graph_input_at(r->graph, i, &d);
        const char *file = NULL;
        for (size_t k = 0; k < o->n_inputs; k++)
            if (strcmp(o->inputs[k].name, name) == 0) file = o->inputs[k].value;
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
    for (size_t k = 0; k < o->n_outputs; k++)
        if (strcmp(o->outputs[k].name, name) == 0) {
            r->out_names[i] = strdup(o->outputs[k].value);
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
    for (size_t k = 0; k < o->n_outputs; k++) {
        size_t i = 0;
        while (i < n && strcmp(wai_ml_graph_output_at(r->graph, i, NULL), o->outputs[k].name) != 0)
            i++;
        if (i == n)
            return cli_usage_error("graph", "the graph has no output '%s'", o->outputs[k].name);
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
                                o->shapes, o->n_shapes, &r->graph);
    if (st != WAI_ok) return webnn_refused(r, st, o->desc_path);
    double t1 = now_ms(), first = 0, best = 0;
    for (size_t i = 0; i < o->n_shapes; i++) {
        size_t k = 0, n = wai_ml_graph_input_count(r->graph);
        while (k < n && strcmp(wai_ml_graph_input_at(r->graph, k, NULL), o->shapes[i].name) != 0)
            k++;
        if (k == n) return cli_usage_error("graph", "--shape: the graph has no input '%s'",
                                           o->shapes[i].name);
    }
    int rc = 0;
    if (o->n_inputs) {
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
    if (!o->n_inputs) put_io(out, "outputs", r->graph, 1);
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

int cmd_graph(int argc, char **argv) {
    graph_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc;
    graph_run r;
    memset(&r, 0, sizeof r);
    rc = graph_main(&o, &r);
    run_free(&r);
    return rc;
}
