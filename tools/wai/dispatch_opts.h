/* The tool's dispatch options (neural-dispatch; docs/dispatch.md, "The
 * tool"): --offer LIST, --intent TOKEN, --pin-tier TOKEN and --report, for
 * any command that decodes. A command's option loop hands each argument to
 * dispatch_opts_take before its own checks:
 *
 *     static const char *const takes_value[] = {..., DISPATCH_OPTS_TAKING_VALUE, NULL};
 *     ...
 *     int t = dispatch_opts_take("decode", argc, argv, &i, &o->dispatch);
 *     if (t < 0) return EXIT_USAGE;
 *     if (t > 0) continue;
 *
 * and passes &o->dispatch.options to wai_dispatch. */
#ifndef WAI_TOOLS_DISPATCH_OPTS_H
#define WAI_TOOLS_DISPATCH_OPTS_H

#include "wai/wai_dispatch.h"

typedef struct dispatch_opts {
    wai_dispatch_options options;  /* intent and pin_tier point into argv, the offer's
                                    * paths into paths */
    wai_path paths[WAI_DISPATCH_MAX_PATHS];
    int report;                    /* --report: print the report alone */
} dispatch_opts;

/* For cli_permute's list of options that take a value. */
#define DISPATCH_OPTS_TAKING_VALUE "--offer", "--intent", "--pin-tier"

/* No intent, no pin, the default offer, no --report. */
void dispatch_opts_init(dispatch_opts *d);

/* argv[*i] is the argument being read. Returns 1 when it is a dispatch
 * option (then *i is left on its value, if it took one, for the caller's
 * loop to step past), 0 when it is not, and -1 after printing a usage
 * error for COMMAND (a missing value, an empty token, or an offer
 * wai_dispatch_parse_offer refuses). */
int dispatch_opts_take(const char *command, int argc, char **argv, int *i, dispatch_opts *d);

/* The options' lines for a command's help page. */
#define DISPATCH_OPTS_HELP                                                              \
    "  --offer LIST      the paths that may run the networks, in order, comma-\n"      \
    "                    separated (default " WAI_DISPATCH_DEFAULT_OFFER "):\n"          \
    "                      npu  npu/model-runtime/float   gpu  gpu/webnn/float\n"      \
    "                      cpu  cpu/webnn/float           wgsl gpu/wgsl/integer\n"     \
    "                      int  cpu/wai-ops/integer\n"                                  \
    "                    or UNIT/BACKEND/ARITHMETIC written out\n"                      \
    "  --intent TOKEN    the envelope's intent; replicate makes the decode need\n"    \
    "                    decode-equivalence (other tokens add nothing)\n"              \
    "  --pin-tier TOKEN  the tier token of the pin over the set;\n"                    \
    "                    decode-equivalence raises the need (other tokens add\n"      \
    "                    nothing)\n"                                                    \
    "  --report          print only the wai-neural-dispatch/1 report\n"

#endif
