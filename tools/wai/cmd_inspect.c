/* SPDX-License-Identifier: BSD-2-Clause */
/* wai inspect: format detection, the parse's verdict and the header. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_set.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"

/* The parsed header (the library's JSON of it), as a member. */
static void print_header(const wai_capability *cap, const cli_file *f) {
    char small[1024];
    size_t n = 0;
    wai_status st = wai_payload_header_json(cap, f->data, f->len, small, sizeof small, &n);
    if (st != WAI_ok && (st != WAI_invalid_argument || n < sizeof small)) return; /* refused */
    char *text = st == WAI_ok ? small : malloc(n + 1);
    if (text && (text == small ||
                 wai_payload_header_json(cap, f->data, f->len, text, n + 1, &n) == WAI_ok))
        printf(", \"header\": %s", text);
    if (text != small) free(text);
}

/* The options: --capability, and --cost with what it reads: the parameter
 * set (--set DIR, --pin), if any. */
typedef struct inspect_options {
    const char *capability;
    int with_cost;
    const char *set_dir, *pin;
    const char *symbols_out;  /* --symbols: the entropy stage's symbols, i32 LE */
    int force;
    uint64_t max_memory;     /* bounds each file read, and the set's members */
} inspect_options;

#define I(field) offsetof(inspect_options, field)

static const cli_opt inspect_opts[] = {
    {.name = "--capability", .value = "CAP", .offset = I(capability),
     .help = "read FILE as CAP's payload instead of detecting it\n"
             "(a payload of another format is then\n"
             "format_capability_mismatch)"},
    {.name = "--cost", .offset = I(with_cost),
     .help = "add \"cost\": what the header declares the decode costs\n"
             "(output_bytes, entropy_steps, macs, working_bytes, and\n"
             "work, the figure --max-cost compares)"},
    {.name = "--set", .value = "DIR", .offset = I(set_dir),
     .help = "with --cost: the parameter set of a neural capability,\n"
             "as wai decode reads it; its cost is the decode's,\n"
             "after the set's checks against the payload (without\n"
             "a set such a payload prints no cost). A refusal there\n"
             "prints \"cost_status\": CODE instead of \"cost\". A\n"
             "capability with an entropy stage of its own\n"
             "(wai.neural.bmshj2018) adds \"symbols_digest\", the\n"
             "BLAKE3 of its symbols (neural-dispatch 6.3)"},
    {.name = "--pin", .value = "SHA256", .offset = I(pin),
     .help = "with --cost: a one-file set's pin, as for wai decode"},
    {.name = "--symbols", .value = "OUT", .offset = I(symbols_out),
     .help = "with --set and one FILE: write the entropy stage's\n"
             "symbols to OUT, each i32 little-endian, channel after\n"
             "channel, as neural-dispatch 6.3 digests them (b3sum OUT\n"
             "is the symbols_digest); implies --cost"},
    {.name = "--force", .alias = "-y", .offset = I(force), .help = "replace OUT when it exists"},
    {.name = "--max-memory", .value = "BYTES", .offset = I(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT,
     .help = "the most any FILE (or the set's members together)\n"
             "may hold: N, or N with K, M, G or T (2^10 .. 2^40), or\n"
             "none (default 2G); a larger file is refused unread"},
};

static int cmd_inspect(int argc, char **argv);

const cli_command inspect_command = {
    .name = "inspect",
    .summary = "detect a payload's format and check its header",
    .operands = "FILE...",
    .about = "Detects each FILE's format by its magic (or takes CAP's), checks it in\n"
             "the order integer-payloads section 2 gives, and prints one JSON object per\n"
             "FILE on its own line:\n"
             "  {\"file\": NAME, \"bytes\": N, \"format\": \"WIV1\", \"capability\": CAP,\n"
             "   \"status\": \"ok\" or the refusal code, \"checked\": STAGE,\n"
             "   \"header\": {...}}\n"
             "STAGE says how far the checks went: \"header\" for the formats this build\n"
             "parses whole (WIV1, WIF1, WIH1; then \"header\" holds the parsed fields),\n"
             "\"framing\" (magic and version) for the others.\n",
    .opts = CLI_ROWS(inspect_opts),
    .after = "A FILE that can't be read is reported on stderr and skipped; the others\n"
             "are inspected (as sha256sum does).\n"
             "\n"
             "Exit status: 0 every FILE passed, 1 one was refused, 2 one could not be\n"
             "read (or a usage error); 2 wins over 1.\n",
    .run = cmd_inspect,
};

/* --symbols OUT: the symbols wai_symbols_digest hashes, as it hashes them
 * (i32 little-endian, channel after channel), so b3sum OUT prints the
 * symbols_digest. 0, or EXIT_USAGE. */
static int write_symbols(wai_context *ctx, const wai_capability *cap, const wai_set *set,
                         const cli_file *f, const inspect_options *co) {
    size_t n = 0;
    if (wai_entropy_symbols(ctx, cap->name, set, f->data, f->len, NULL, 0, &n) != WAI_ok)
        return 0; /* the refusal is the line's */
    int32_t *s = malloc(n ? n * sizeof *s : 1);
    uint8_t *le = malloc(n ? 4 * n : 1);
    int rc = EXIT_USAGE;
    cli_inputs in;
    cli_inputs_init(&in, co->force);
    cli_out_file o;
    if (!s || !le) fprintf(stderr, "wai inspect: out of memory\n");
    else if (wai_entropy_symbols(ctx, cap->name, set, f->data, f->len, s, n, &n) == WAI_ok &&
             cli_check_input("inspect", f->name, &in) == 0 &&
             cli_out_open("inspect", co->symbols_out, &in, &o) == 0) {
        for (size_t i = 0; i < n; i++)
            for (int b = 0; b < 4; b++) le[4 * i + b] = (uint8_t)((uint32_t)s[i] >> (8 * b));
        if (fwrite(le, 1, 4 * n, o.f) != 4 * n) {
            cli_out_discard(&o);
            fprintf(stderr, "wai inspect: %s: write failed\n", co->symbols_out);
        } else {
            rc = cli_out_commit("inspect", &o);
        }
    }
    cli_inputs_free(&in);
    free(s);
    free(le);
    return rc;
}

/* The declared cost: from the header alone, or with the set when one is
 * given (the set's members and its checks against the payload first, §7
 * steps 1 to 4). A refusal there prints "cost_status" instead. Returns 0,
 * or EXIT_USAGE when the set can't be read. */
static int print_cost(const wai_capability *cap, const cli_file *f, const inspect_options *co) {
    wai_cost c;
    wai_status st;
    uint8_t symbols[32];
    int has_digest = 0;
    if (co->set_dir || co->pin) {
        wai_context *ctx = NULL;
        cli_set set;
        if (cli_context_create(NULL, &ctx) != WAI_ok) {
            fprintf(stderr, "wai inspect: out of memory\n");
            return EXIT_USAGE;
        }
        if (cli_load_set("inspect", ctx, cap, co->set_dir, co->pin, co->max_memory, NULL,
                         &set) != 0) {
            wai_context_destroy(ctx);
            return EXIT_USAGE;
        }
        /* A member past --max-memory is that limit's refusal, as in decode. */
        st = set.over_limit ? WAI_cost_over_limit
                            : wai_declared_cost_set(ctx, cap->name, set.set, f->data, f->len, &c);
        /* A capability with an entropy stage of its own (§6.3) also gives
         * the digest of its symbols: the network-free half of the decode. */
        has_digest = st == WAI_ok && wai_symbols_digest(ctx, cap->name, set.set, f->data, f->len,
                                                        symbols) == WAI_ok;
        int rc = has_digest && co->symbols_out ? write_symbols(ctx, cap, set.set, f, co) : 0;
        if (rc != 0) {
            cli_set_free(&set);
            wai_context_destroy(ctx);
            return rc;
        }
        cli_set_free(&set);
        wai_context_destroy(ctx);
    } else {
        st = wai_declared_cost(cap->name, f->data, f->len, &c);
    }
    if (st != WAI_ok) {
        /* Without a set, a capability that needs one has no cost to print. */
        if (co->set_dir || co->pin) {
            printf(", \"cost_status\": ");
            json_put_string(stdout, wai_status_name(st));
        }
        return 0;
    }
    printf(", \"cost\": {\"output_bytes\": %llu, \"entropy_steps\": %llu, \"macs\": %llu, "
           "\"working_bytes\": %llu, \"work\": %llu}",
           (unsigned long long)c.output_bytes, (unsigned long long)c.entropy_steps,
           (unsigned long long)c.macs, (unsigned long long)c.working_bytes,
           (unsigned long long)wai_cost_work(&c));
    if (has_digest) {
        printf(", \"symbols_digest\": ");
        json_put_hex(stdout, symbols, sizeof symbols);
    }
    return 0;
}

/* Prints FILE's line; returns its parse's status, or *usage_rc set. */
static wai_status inspect_one(const cli_file *f, const char *cap_name, const inspect_options *co,
                              int *usage_rc) {
    const wai_capability *cap =
        cap_name ? wai_capability_find(cap_name) : wai_capability_detect(f->data, f->len);
    wai_status st;
    wai_checked checked = WAI_CHECKED_FRAMING;
    if (cap_name && !cap) st = WAI_unsupported_capability;
    else if (!cap) st = WAI_bad_magic;
    else st = wai_check_payload(cap, f->data, f->len, &checked);

    printf("{\"file\": ");
    json_put_string(stdout, f->name);
    printf(", \"bytes\": %llu, \"format\": ", (unsigned long long)f->size);
    json_put_string(stdout, wai_format_name(wai_format_detect(f->data, f->len)));
    printf(", \"capability\": ");
    if (cap) json_put_string(stdout, cap->name);
    else if (cap_name) json_put_string(stdout, cap_name);
    else printf("null");
    printf(", \"status\": ");
    json_put_string(stdout, wai_status_name(st));
    printf(", \"checked\": \"%s\"", checked == WAI_CHECKED_PARSE ? "header" : "framing");
    /* No magic names it: one capability's payloads have none (§13), so say
     * how to ask for it rather than guess. */
    if (!cap && !cap_name)
        printf(", \"hint\": \"no magic; a wai.neural.int_synth payload has none: name it with "
               "--capability wai.neural.int_synth\"");
    if (st == WAI_ok) {
        print_header(cap, f);
        if (co->with_cost) *usage_rc = print_cost(cap, f, co);
    }
    printf("}\n");
    return st;
}

static int cmd_inspect(int argc, char **argv) {
    inspect_options co;
    memset(&co, 0, sizeof co);
    co.max_memory = CLI_DEFAULT_MAX_MEMORY;
    int i;
    uint64_t given;
    int rc = cli_parse(&inspect_command, argc, argv, &co, &i, &given);
    if (rc != 0) return rc;
    const char *cap_name = co.capability;
    if (i >= argc) return cli_usage_error("inspect", "no FILE given");
    if (co.symbols_out) co.with_cost = 1;
    if ((co.set_dir || co.pin) && !co.with_cost)
        return cli_usage_error("inspect", "--set and --pin apply to --cost");
    if (co.symbols_out && (!(co.set_dir || co.pin) || argc - i != 1))
        return cli_usage_error("inspect", "--symbols takes one FILE and its --set");
    /* As sha256sum: a file that can't be read is reported and skipped, and
     * the exit status says so at the end (2 over 1 over 0). */
    int refused = 0, io_error = 0;
    for (; i < argc; i++) {
        cli_file f;
        cli_read_opts ro = {co.max_memory, "the memory limit (--max-memory)", 1, cap_name, NULL};
        if (cli_read("inspect", argv[i], &ro, &f) != 0) {
            io_error = 1;
            continue;
        }
        int usage_rc = 0;
        if (inspect_one(&f, cap_name, &co, &usage_rc) != WAI_ok) refused = 1;
        cli_file_free(&f);
        if (usage_rc != 0) io_error = 1;
    }
    return io_error ? EXIT_USAGE : refused ? EXIT_REFUSED : EXIT_DONE;
}
