/* SPDX-License-Identifier: BSD-2-Clause */
/* The tool's dispatch options (neural-dispatch; docs/dispatch.md, "The
 * tool"): --offer LIST, --intent TOKEN, --pin-tier TOKEN and --report, for
 * any command that decodes. A command holds a dispatch_opts in its options
 * struct, puts DISPATCH_OPTS_ROWS(its struct, that member) in its option
 * table, and passes &member.options to wai_dispatch. */
#ifndef WAI_TOOLS_DISPATCH_OPTS_H
#define WAI_TOOLS_DISPATCH_OPTS_H

#include <stddef.h>

#include "options.h"
#include "wai/wai_dispatch.h"

typedef struct dispatch_opts {
    wai_dispatch_options options;  /* intent and pin_tier point into argv, the offer's
                                    * paths into paths */
    wai_path paths[WAI_DISPATCH_MAX_PATHS];
    int report;                    /* --report: print the report alone */
} dispatch_opts;

/* No intent, no pin, the default offer, no --report. */
void dispatch_opts_init(dispatch_opts *d);

/* --offer's value parser: the list, by wai_dispatch_parse_offer, into the
 * dispatch_opts' paths (the library parses it, so the tool and the API
 * read one grammar). */
int dispatch_take_offer(const cli_opt *opt, char *value, void *field);

/* The rows, for the dispatch_opts member M of options struct T. Tokens are
 * passed on verbatim: §2 says an unregistered intent or pin token adds
 * nothing, so the tool does not judge them, but an empty one is surely a
 * mistake. */
#define DISPATCH_OPTS_ROWS(T, M)                                                            \
    {.name = "--offer", .value = "LIST", .offset = offsetof(T, M), .parse = dispatch_take_offer, \
     .must = "a list of paths (npu, gpu, cpu, wgsl, int or UNIT/BACKEND/ARITHMETIC, each "       \
             "once, comma-separated)",                                                       \
     .help = "the paths that may run the networks, in order, comma-\n"                      \
             "separated (default " WAI_DISPATCH_DEFAULT_OFFER "):\n"                          \
             "  npu  npu/model-runtime/float   gpu  gpu/webnn/float\n"                      \
             "  cpu  cpu/webnn/float           wgsl gpu/wgsl/integer\n"                     \
             "  int  cpu/wai-ops/integer\n"                                                 \
             "or UNIT/BACKEND/ARITHMETIC written out"},                                     \
    {.name = "--intent", .value = "TOKEN", .offset = offsetof(T, M.options.intent),          \
     .parse = cli_take_token, .must = "a value",                                            \
     .help = "the envelope's intent; replicate makes the decode need\n"                     \
             "decode-equivalence (other tokens add nothing)"},                              \
    {.name = "--pin-tier", .value = "TOKEN", .offset = offsetof(T, M.options.pin_tier),      \
     .parse = cli_take_token, .must = "a value",                                            \
     .help = "the tier token of the pin over the set;\n"                                    \
             "decode-equivalence raises the need (other tokens add\n"                       \
             "nothing)"},                                                                   \
    {.name = "--report", .offset = offsetof(T, M.report),                                   \
     .help = "print only the wai-neural-dispatch/1 report"}

#endif
