/* The tool's manual: one page per command. Tests check that every option a
 * command accepts appears on its page. */
#include <string.h>

#include "cli.h"
#include "dispatch_opts.h"

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
    "  encode        encode Y4M or PNG frames as a wai.video.int_motion clip\n"
    "  help COMMAND  the manual page of COMMAND\n"
    "\n"
    "options:\n"
    "  --help        this overview\n"
    "  --version     the version of libwai\n"
    "\n"
    "Options may come before or after FILEs; '--' ends them.\n"
    "Exit status: 0 done, 1 the payload was refused (the refusal code is\n"
    "printed), 2 a usage or I/O error.\n";

static const char help_inspect[] =
    "usage: wai inspect [--capability CAP] [--cost [--set DIR [--pin SHA256]]] FILE...\n"
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
    "  --set DIR         with --cost: the parameter set of a neural capability,\n"
    "                    as wai decode reads it; its cost is the decode's,\n"
    "                    after the set's checks against the payload (without\n"
    "                    a set such a payload prints no cost). A refusal there\n"
    "                    prints \"cost_status\": CODE instead of \"cost\"\n"
    "  --pin SHA256      with --cost: a one-file set's pin, as for wai decode\n"
    "\n"
    "Exit status: 0 every FILE passed, 1 one was refused, 2 usage or I/O error.\n";

static const char help_decode[] =
    "usage: wai decode [--capability CAP] [--set DIR [--pin SHA256]] [--max-cost N]\n"
    "                  [--json]\n"
    "                  [-o OUT [--format FMT] [--fps N[/D]]] FILE...\n"
    "\n"
    "Decodes FILE. Several FILEs are one frame stream, decoded in order (a\n"
    "frame-form capability such as wai.video.int_motion.frame).\n"
    "\n"
    "options:\n"
    "  --capability CAP  the capability to decode through; default: the one\n"
    "                    the first FILE's magic names\n"
    "  --set DIR         the parameter set: a directory holding its members by\n"
    "                    name (g_s.whm, h_s.whm, entropy.json; model.wam;\n"
    "                    g_s.whm): a member missing is set_incomplete\n"
    "  --pin SHA256      a one-file set's pin: its file must have this SHA-256\n"
    "                    (64 hex digits), else set_incomplete\n"
    DISPATCH_OPTS_HELP
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
    "  -o OUT            write the decoded output to OUT, each output as it\n"
    "                    decodes: on a refusal part-way through a frame\n"
    "                    stream, OUT holds the frames decoded before it (exit\n"
    "                    status 1). Format by the kind of output and OUT's\n"
    "                    name, or --format. RGB8 frames and images:\n"
    "                      OUT.y4m  YUV4MPEG2 for ffmpeg/ffplay: C444p16, BT.601,\n"
    "                               limited range (XCOLORRANGE=LIMITED). 16-bit\n"
    "                               samples, since 8-bit Y'CbCr cannot hold every\n"
    "                               RGB colour: ffmpeg's conversion to rgb24\n"
    "                               gives the decoded bytes back exactly. One\n"
    "                               frame size: a stream whose size changes is\n"
    "                               written up to the first frame of another\n"
    "                               size, then stops with an I/O error (exit 2)\n"
    "                      OUT.rgb  raw rgb24 frames, concatenated (ffmpeg -f\n"
    "                               rawvideo -pix_fmt rgb24 -s WxH -i OUT.rgb)\n"
    "                      -        raw rgb24 to standard output (not with\n"
    "                               --json); --format y4m sends Y4M there\n"
    "                      PATTERN.png  one PNG per output, numbered by its\n"
    "                               index from 0: PATTERN holds exactly one %d\n"
    "                               or %0Nd and no other %, e.g. frame_%04d.png\n"
    "                               (needs a wai built with libpng)\n"
    "                      NAME.png  an image (wai.neural.int_hyper): one PNG\n"
    "                    PCM (wai.audio.int_codec):\n"
    "                      OUT.wav  RIFF/WAVE, 16-bit PCM, mono, at the\n"
    "                               payload's sample rate sr\n"
    "                      OUT.pcm, OUT.s16le, -  the raw samples, signed\n"
    "                               16-bit little-endian (ffmpeg -f s16le -ar SR\n"
    "                               -ac 1 -i OUT.pcm)\n"
    "                    planes (wai.splat.int_codec):\n"
    "                      DIR      a directory (made if missing) holding\n"
    "                               plane_000.png, plane_001.png, ... (8-bit\n"
    "                               grey, side x side; .pgm with --format pgm\n"
    "                               or without libpng) and attributes.json:\n"
    "                               {\"n_gaussians\": N, \"planes\": ATTR,\n"
    "                                \"side\": S, \"ranges\": [[LO, HI], ...]},\n"
    "                               each plane's binary32 range as the shortest\n"
    "                               decimal that reads back to it\n"
    "                    any other name is a usage error, before decoding\n"
    "  --format FMT      whatever OUT's name: y4m, rgb or png (frames,\n"
    "                    images); wav or s16le (PCM); png or pgm (planes)\n"
    "  --fps N[/D]       the Y4M frame rate, N/D frames a second (default 25,\n"
    "                    written F25:1)\n"
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
    "Lists every capability libwai knows, one row each: its name, its payload\n"
    "format (\"none\" when libwai reads no payload of it), its registry class,\n"
    "its registered tier (none, entropy-consistency, decode-equivalence),\n"
    "whether this build decodes it (yes/no), and its parameter-set members\n"
    "(\"-\" for none). The tier is the one a decode needs unless the\n"
    "envelope's intent is replicate or the set's pin states decode-equivalence\n"
    "(neural-dispatch section 2).\n"
    "\n"
    "options:\n"
    "  --json   one JSON array instead of the table, an object per\n"
    "           capability: {\"capability\", \"format\", \"keyframe\" (WIV1 and\n"
    "           WIF1 only), \"frame_form\", \"class\", \"tier\", \"set\": [...],\n"
    "           \"decodes\": true|false}\n"
    "\n"
    "Exit status: 0 done, 2 usage error.\n";

static const char help_encode[] =
    "usage: wai encode --capability wai.video.int_motion [--q N] [--block N]\n"
    "                  [--search R] [--half-pel] [--frames] [--quiet] IN... -o OUT\n"
    "\n"
    "Encodes RGB frames as a WIV1 clip (keyframe 0) of wai.video.int_motion:\n"
    "frame 0 predicted from 128, each later frame by block motion compensation\n"
    "from the decoded frame before it, residuals quantised with step N and\n"
    "coded with one rANS table. The decoder's output is the reconstruction the\n"
    "report describes; --q 1 is lossless.\n"
    "\n"
    "IN is one .y4m file (YUV4MPEG2, 8-bit 4:2:0, 4:2:2, 4:4:4 or mono; '-'\n"
    "reads standard input) or several .png files, one frame each, in order\n"
    "(8-bit gray, RGB, RGBA or palette; alpha is dropped). Y4M is converted as\n"
    "BT.601 limited range with chroma repeated, the arithmetic of ffmpeg's\n"
    "yuv420p to rgb24 converter (the same bytes as 'ffmpeg -pix_fmt rgb24' for\n"
    "4:2:0 of even height on x86).\n"
    "\n"
    "options:\n"
    "  --capability CAP  wai.video.int_motion, or wai.video.int_motion.frame\n"
    "                    (the same as --frames); required\n"
    "  --q N             quantiser step, 1..65535 (default 1: lossless)\n"
    "  --block N         motion block size in pels, >= 1 (default 16)\n"
    "  --search R        whole-pel full search within +-R pels, 0..16383\n"
    "                    (default 8)\n"
    "  --half-pel        refine each vector to half-pel precision\n"
    "  --frames          write the clip as a WIF1 frame stream\n"
    "                    (wai.video.int_motion.frame), one file per frame: OUT\n"
    "                    is a name with one %d or %0Nd (N 1..9; %% for a\n"
    "                    literal %), numbered from 0, or a directory, which\n"
    "                    gets frame_000000.wif1, frame_000001.wif1, ...\n"
    "  --quiet           no progress lines (the summary is still printed)\n"
    "  -o OUT            the output file (or the --frames names)\n"
    "\n"
    "Prints to stderr: frames, bytes, bits per pixel, PSNR in dB of the decode\n"
    "against the input (overall, from the clip's summed squared error, and the\n"
    "per-frame average; \"inf\" when lossless), and the squared error; for long\n"
    "inputs, progress lines as frames are coded.\n"
    "\n"
    "Exit status: 0 written, 1 the clip is one WIV1 cannot hold (the code is\n"
    "printed, e.g. too_large), 2 usage or I/O error.\n";

static const struct {
    const char *command;
    const char *text;
} pages[] = {
    {"inspect", help_inspect},
    {"decode", help_decode},
    {"digest", help_digest},
    {"capabilities", help_capabilities},
    {"encode", help_encode},
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
