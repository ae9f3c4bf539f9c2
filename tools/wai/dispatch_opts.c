/* Parses the dispatch options of the tool into wai_dispatch_options; the
 * library parses the offer, so the tool and the API read one grammar. */
#include "dispatch_opts.h"

#include <string.h>

#include "cli.h"

void dispatch_opts_init(dispatch_opts *d) {
    memset(d, 0, sizeof *d);
    wai_dispatch_options_default(&d->options);
}

/* The value after argv[*i], or NULL after a usage error. Tokens are passed
 * on verbatim: §2 says an unregistered intent or pin token adds nothing, so
 * the tool does not judge them, but an empty one is surely a mistake. */
static const char *value_of(const char *command, int argc, char **argv, int *i) {
    const char *opt = argv[*i];
    if (*i + 1 >= argc || argv[*i + 1][0] == '\0') {
        cli_usage_error(command, "%s needs a value", opt);
        return NULL;
    }
    return argv[++*i];
}

int dispatch_opts_take(const char *command, int argc, char **argv, int *i, dispatch_opts *d) {
    const char *a = argv[*i];
    if (strcmp(a, "--report") == 0) {
        d->report = 1;
        return 1;
    }
    if (strcmp(a, "--intent") != 0 && strcmp(a, "--pin-tier") != 0 && strcmp(a, "--offer") != 0)
        return 0;
    const char *v = value_of(command, argc, argv, i);
    if (!v) return -1;
    if (strcmp(a, "--intent") == 0) {
        d->options.intent = v;
    } else if (strcmp(a, "--pin-tier") == 0) {
        d->options.pin_tier = v;
    } else if (wai_dispatch_parse_offer(v, d->paths, WAI_DISPATCH_MAX_PATHS,
                                        &d->options.offer.n) != WAI_ok) {
        cli_usage_error(command,
                        "--offer: '%s' is not a list of paths (npu, gpu, cpu, wgsl, int or "
                        "UNIT/BACKEND/ARITHMETIC, each once, comma-separated)",
                        v);
        return -1;
    }
    d->options.offer.paths = d->paths;
    return 1;
}
