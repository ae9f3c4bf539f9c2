/* The tool's manual: one page per command. Tests check that every option a
 * command accepts appears on its page. */
#include <string.h>

#include "cli.h"

static const char overview[] =
    "usage: wai COMMAND [OPTIONS] [FILE...]\n"
    "\n"
    "Inspect, decode and digest payloads of WAI's integer codecs, exactly.\n"
    "\n"
    "commands:\n"
    "  inspect       detect a payload's format and check its header\n"
    "  decode        decode payloads; --json prints hashes of the outputs\n"
    "  digest        SHA-256 or BLAKE3 of files, as sha256sum/b3sum print them\n"
    "  capabilities  the capabilities libwai knows, their formats and tiers\n"
    "  help COMMAND  the manual page of COMMAND\n"
    "\n"
    "options:\n"
    "  --help        this overview\n"
    "  --version     the version of libwai\n"
    "\n"
    "Exit status: 0 done, 1 the payload was refused (the refusal code is\n"
    "printed), 2 a usage or I/O error.\n";

static const char help_inspect[] =
    "usage: wai inspect [--capability CAP] [--cost] FILE...\n"
    "\n"
    "Detects each FILE's format by its magic (or takes CAP's), checks it in\n"
    "the order integer-payloads section 2 gives, and prints one JSON object per\n"
    "FILE on its own line:\n"
    "  {\"file\": NAME, \"bytes\": N, \"format\": \"WIV1\", \"capability\": CAP,\n"
    "   \"status\": \"ok\" or the refusal code, \"checked\": STAGE,\n"
    "   \"header\": {...}}\n"
    "STAGE says how far the checks went: \"header\" for the formats this build\n"
    "parses whole (WIV1, WIF1, WIH1; then \"header\" holds the parsed fields),\n"
    "\"framing\" (magic and version) for the others.\n"
    "\n"
    "options:\n"
    "  --capability CAP  read FILE as CAP's payload instead of detecting it\n"
    "                    (a payload of another format is then\n"
    "                    format_capability_mismatch)\n"
    "  --cost            add \"cost\": what the header declares the decode costs\n"
    "                    (output_bytes, entropy_steps, macs, working_bytes, and\n"
    "                    work, the figure --max-cost compares)\n"
    "\n"
    "Exit status: 0 every FILE passed, 1 one was refused, 2 usage or I/O error.\n";

static const char help_decode[] =
    "usage: wai decode [--capability CAP] [--set DIR] [--max-cost N] [--json]\n"
    "                  [-o OUT] FILE...\n"
    "\n"
    "Decodes FILE. Several FILEs are one frame stream, decoded in order (a\n"
    "frame-form capability such as wai.video.int_motion.frame).\n"
    "\n"
    "options:\n"
    "  --capability CAP  the capability to decode through; default: the one\n"
    "                    the first FILE's magic names\n"
    "  --set DIR         the parameter set: a directory holding its members by\n"
    "                    name (entropy.json, g_s.whm, h_s.whm, model.wam, ...)\n"
    "  --max-cost N      refuse with cost_over_limit, before any symbol is\n"
    "                    decoded, a payload whose declared work (network\n"
    "                    multiply-accumulates plus entropy steps) exceeds N\n"
    "  --json            print one JSON object:\n"
    "                    {\"capability\": CAP, \"status\": \"ok\" or the code,\n"
    "                     \"outputs\": [{\"kind\": \"frame\"|\"image\"|\"pcm\"|\"planes\",\n"
    "                                  \"sha256\": HEX, \"bytes\": N}, ...]}\n"
    "                    plus \"report\" (the wai-neural-dispatch/1 report)\n"
    "                    when the decode dispatched networks; on a refusal\n"
    "                    part-way through a stream, outputs holds what decoded\n"
    "                    before it\n"
    "  -o OUT            write the decoded output to OUT\n"
    "\n"
    "Exit status: 0 decoded, 1 refused (the code is printed), 2 usage or I/O\n"
    "error. A capability this build has no decoder for is refused with\n"
    "unsupported_capability ('wai capabilities' lists what decodes).\n";

static const char help_digest[] =
    "usage: wai digest --sha256|--blake3 FILE...\n"
    "\n"
    "Prints \"HEX  FILE\" for each FILE, exactly as sha256sum and b3sum do,\n"
    "so receipts and corpora can be checked with either. FILE '-' (or no\n"
    "FILE) reads standard input.\n"
    "\n"
    "options:\n"
    "  --sha256   SHA-256 (FIPS 180-4)\n"
    "  --blake3   BLAKE3, 32 bytes of output\n"
    "\n"
    "Exit status: 0 done, 2 usage or I/O error.\n";

static const char help_capabilities[] =
    "usage: wai capabilities [--json]\n"
    "\n"
    "Lists every capability libwai knows: its payload format, registry class,\n"
    "registered tier, the parameter-set members it reads, and whether this\n"
    "build decodes it.\n"
    "\n"
    "options:\n"
    "  --json   one JSON array instead of a table\n";

static const struct {
    const char *command;
    const char *text;
} pages[] = {
    {"inspect", help_inspect},
    {"decode", help_decode},
    {"digest", help_digest},
    {"capabilities", help_capabilities},
};

void cli_print_overview(FILE *out) {
    fputs(overview, out);
}

int cli_print_help(FILE *out, const char *command) {
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        if (strcmp(pages[i].command, command) == 0) {
            fputs(pages[i].text, out);
            return 0;
        }
    }
    return -1;
}
