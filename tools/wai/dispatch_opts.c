/* SPDX-License-Identifier: BSD-2-Clause */
/* The dispatch options of the tool (dispatch_opts.h). */
#include "dispatch_opts.h"

#include <string.h>

void dispatch_opts_init(dispatch_opts *d) {
    memset(d, 0, sizeof *d);
    wai_dispatch_options_default(&d->options);
}

int dispatch_take_offer(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    dispatch_opts *d = field;
    if (wai_dispatch_parse_offer(value, d->paths, WAI_DISPATCH_MAX_PATHS, &d->options.offer.n) !=
        WAI_ok)
        return 0;
    d->options.offer.paths = d->paths;
    return 1;
}
