/* wai convert and wai export: the tools' JSON forms (integer-payloads §10,
 * docs/json-forms.md) to payloads and back, by libwai_write's converters.
 * A form is a converter input, never a payload: decode refuses one
 * bad_magic. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frame_files.h"
#include "wai/wai_write.h"

typedef struct convert_options {
    const char *out, *capability;
    uint64_t max_memory;
    int force, json;
    int first, last;
} convert_options;

static int parse_options(const char *cmd, int argc, char **argv, convert_options *o) {
    static const char *const takes_value[] = {"-o", "--capability", "--max-memory", NULL};
    cli_permute(argc, argv, takes_value);
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') break;
        if (!strcmp(a, "-o") || !strcmp(a, "--capability")) {
            if (++i >= argc) return cli_usage_error(cmd, "%s needs a value", a);
            if (a[1] == 'o') o->out = argv[i];
            else o->capability = argv[i];
        } else if (!strcmp(a, "--max-memory")) {
            if (++i >= argc || !cli_parse_bytes(argv[i], &o->max_memory))
                return cli_usage_error(cmd, "--max-memory needs a byte count (e.g. 512M)");
        } else if (!strcmp(a, "-y") || !strcmp(a, "--force")) {
            o->force = 1;
        } else if (!strcmp(cmd, "export") && !strcmp(a, "--json")) {
            o->json = 1;
        } else {
            return cli_usage_error(cmd, "unknown option '%s'", a);
        }
    }
    o->first = i;
    o->last = argc;
    if (o->last - o->first != 1) return cli_usage_error(cmd, "give one input file");
    if (!o->out) return cli_usage_error(cmd, "no output given (-o OUT)");
    return 0;
}

/* Reads the input, runs the conversion, writes OUT. */
static int run(const char *cmd, const convert_options *o, const char *name, int payload_input) {
    cli_inputs inputs;
    cli_inputs_init(&inputs, o->force);
    cli_file f = {0};
    uint8_t *out = NULL;
    size_t out_len = 0;
    int rc = EXIT_USAGE;
    if (cli_check_input(cmd, name, &inputs) != 0 ||
        (strcmp(o->out, "-") != 0 && cli_out_check(cmd, o->out, &inputs) != 0))
        goto done;
    cli_read_opts ro = {o->max_memory, "the memory limit (--max-memory)", payload_input,
                        payload_input ? o->capability : NULL, &inputs};
    if (cli_read(cmd, name, &ro, &f) != 0) goto done;
    wai_status st;
    if (payload_input) {
        char *json = NULL;
        st = wai_export_json(NULL, o->capability, f.data, f.len, &json, &out_len);
        out = (uint8_t *)json;
    } else {
        st = wai_convert_json(NULL, o->capability, f.data, f.len, NULL, &out, &out_len);
    }
    if (st != WAI_ok) {
        fprintf(stderr, "wai %s: %s: refused: %s\n", cmd, f.name, wai_status_name(st));
        rc = st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
        goto done;
    }
    if (frame_file_write(cmd, o->out, out, out_len, &inputs) != 0) goto done;
    rc = EXIT_DONE;
done:
    wai_write_free(NULL, out);
    cli_file_free(&f);
    cli_inputs_free(&inputs);
    return rc;
}

int cmd_convert(int argc, char **argv) {
    convert_options o;
    int rc = parse_options("convert", argc, argv, &o);
    if (rc != 0) return rc;
    if (!o.capability)
        return cli_usage_error("convert", "--capability is required (the payload's capability)");
    return run("convert", &o, argv[o.first], 0);
}

int cmd_export(int argc, char **argv) {
    convert_options o;
    int rc = parse_options("export", argc, argv, &o);
    if (rc != 0) return rc;
    if (!o.json) return cli_usage_error("export", "give --json (the one form this build writes)");
    return run("export", &o, argv[o.first], 1);
}
