/* wai decode: the decode contract of the tool. One capability, one or more
 * payloads (several are one frame stream), one result: a status and the
 * outputs decoded before it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "wai/wai_format.h"

typedef struct decode_options {
    const char *capability;
    const char *set_dir;
    const char *out_path;
    uint64_t max_cost;
    int has_max_cost;
    int json;
} decode_options;

static int parse_options(int argc, char **argv, decode_options *o, int *first_file) {
    memset(o, 0, sizeof *o);
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        const char **value = NULL;
        if (strcmp(a, "--capability") == 0) value = &o->capability;
        else if (strcmp(a, "--set") == 0) value = &o->set_dir;
        else if (strcmp(a, "-o") == 0) value = &o->out_path;
        if (value) {
            if (++i >= argc) return cli_usage_error("decode", "%s needs a value", a);
            *value = argv[i];
        } else if (strcmp(a, "--max-cost") == 0) {
            if (++i >= argc || !cli_parse_u64(argv[i], &o->max_cost))
                return cli_usage_error("decode", "--max-cost needs a decimal integer");
            o->has_max_cost = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("decode", "unknown option '%s'", a);
        } else {
            break;
        }
    }
    if (i >= argc) return cli_usage_error("decode", "no FILE given");
    *first_file = i;
    return 0;
}

static void print_result_json(const char *capability, wai_status st) {
    printf("{\"capability\": ");
    if (capability) json_put_string(stdout, capability);
    else printf("null");
    printf(", \"status\": ");
    json_put_string(stdout, wai_status_name(st));
    /* No decoder lands in this build yet, so nothing decodes before a refusal. */
    printf(", \"outputs\": []}\n");
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
    if (loaded == n_files) {
        const wai_capability *cap = o.capability
                                        ? wai_capability_find(o.capability)
                                        : wai_capability_detect(files[0].data, files[0].len);
        wai_status st = WAI_ok;
        if (cap && n_files > 1 && !cap->frame_form) {
            exit_status = cli_usage_error(
                "decode", "several FILEs are one frame stream; %s is not a frame form",
                cap->name);
            goto done;
        }
        if (o.capability && !cap) st = WAI_unsupported_capability;
        else if (!cap) st = WAI_bad_magic; /* no magic names a capability */
        else if (!wai_capability_has_decoder(cap)) st = WAI_unsupported_capability;

        const char *cap_name = cap ? cap->name : o.capability;
        if (o.json) print_result_json(cap_name, st);
        else if (st != WAI_ok)
            fprintf(stderr, "wai decode: %s: refused: %s\n", files[0].name, wai_status_name(st));
        exit_status = st == WAI_ok ? EXIT_DONE : EXIT_REFUSED;
    }
done:
    for (int i = 0; i < loaded; i++) cli_file_free(&files[i]);
    free(files);
    return exit_status;
}
