/* wai inspect: format detection and the checks this build can make. */
#include <string.h>

#include "cli.h"
#include "wai/wai_format.h"

static wai_status inspect_one(const cli_file *f, const char *cap_name) {
    const wai_capability *cap =
        cap_name ? wai_capability_find(cap_name) : wai_capability_detect(f->data, f->len);
    wai_status st;
    if (cap_name && !cap) st = WAI_unsupported_capability;
    else if (!cap) st = WAI_bad_magic;
    else st = wai_check_framing(cap, f->data, f->len);

    printf("{\"file\": ");
    json_put_string(stdout, f->name);
    printf(", \"bytes\": %llu, \"format\": ", (unsigned long long)f->len);
    json_put_string(stdout, wai_format_name(wai_format_detect(f->data, f->len)));
    printf(", \"capability\": ");
    if (cap) json_put_string(stdout, cap->name);
    else if (cap_name) json_put_string(stdout, cap_name);
    else printf("null");
    printf(", \"status\": ");
    json_put_string(stdout, wai_status_name(st));
    printf(", \"checked\": \"framing\"}\n");
    return st;
}

int cmd_inspect(int argc, char **argv) {
    const char *cap_name = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--capability") == 0) {
            if (++i >= argc) return cli_usage_error("inspect", "--capability needs a value");
            cap_name = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("inspect", "unknown option '%s'", a);
        } else {
            break;
        }
    }
    if (i >= argc) return cli_usage_error("inspect", "no FILE given");
    int exit_status = EXIT_DONE;
    for (; i < argc; i++) {
        cli_file f;
        if (cli_read_file(argv[i], &f) != 0) return EXIT_USAGE;
        if (inspect_one(&f, cap_name) != WAI_ok) exit_status = EXIT_REFUSED;
        cli_file_free(&f);
    }
    return exit_status;
}
