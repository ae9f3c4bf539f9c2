/* SPDX-License-Identifier: BSD-2-Clause */
/* wai receipt seal and wai receipt verify: the receipts of
 * wai.video.int_motion (integer-payloads §15; docs/receipts.md), signed and
 * checked with libwai_ed25519 (libsodium). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_set.h"
#include "energy_meter.h"
#include "frame_files.h"
#include "input.h"
#include "keys.h"
#include "receipt_cli.h"
#include "wai/wai_hash.h"
#include "wai/wai_receipt.h"

#define INT_MOTION "wai.video.int_motion"

/* A receipt's text is its frames' hashes and a few hundred bytes more: a
 * receipt of the largest WIV1 clip is well under this. */
#define RECEIPT_MAX_BYTES ((uint64_t)1 << 30)

enum { SEAL = 1, VERIFY = 2 };  /* the subcommands' modes */

typedef struct receipt_options {
    const char *out, *pubkey, *source;
    receipt_sign_opts sign;
    uint64_t max_memory;
    int force;
} receipt_options;

#define R(field) offsetof(receipt_options, field)

static const cli_opt receipt_opts[] = {
    {.name = "--key", .value = "KEY", .offset = R(sign.key), .modes = SEAL,
     .help = "the signing key ('wai keygen' writes one)"},
    {.name = "--id", .value = "ID", .offset = R(sign.id), .modes = SEAL,
     .help = "the signer's id in the receipt (default empty)"},
    {.name = "--parent", .value = "HASH", .offset = R(sign.parent), .modes = SEAL,
     .help = "the receipt hash of the receipt before it"},
    {.name = "--powercap", .value = "DIR", .offset = R(sign.powercap), .modes = SEAL,
     .help = "where the energy counters are (default\n"
             "/sys/class/powercap)"},
    {.name = "--pubkey", .value = "KEY.pub", .offset = R(pubkey), .modes = VERIFY,
     .help = "require this signer: a public key file or 64\n"
             "hexadecimal digits"},
    {.name = "--source", .value = "SRC", .offset = R(source), .modes = VERIFY,
     .help = "an encode receipt's source: the .y4m or .png that\n"
             "'wai encode' read"},
    {.name = "--max-memory", .value = "N", .offset = R(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT, .help = "refuse inputs larger than N bytes (default 2G)"},
    {.name = "-o", .value = "RECEIPT.json", .offset = R(out), .modes = SEAL,
     .help = "seal: the receipt's file; '-' is standard output"},
    {.name = "--force", .alias = "-y", .offset = R(force), .modes = SEAL,
     .help = "seal: replace RECEIPT.json when it exists"},
};

static const char *const receipt_subcommands[] = {"seal", "verify", NULL};

static int cmd_receipt(int argc, char **argv);

const cli_command receipt_command = {
    .name = "receipt",
    .summary = "seal or verify a signed receipt of a wai.video.int_motion clip",
    .usage = "wai receipt seal --key KEY [--id ID] [--parent HASH] [--powercap DIR]\n"
             "                        [--max-memory N] [-y] CLIP.wiv1 -o RECEIPT.json\n"
             "       wai receipt verify [--pubkey KEY.pub] [--max-memory N] RECEIPT.json\n"
             "                          [CLIP.wiv1 [--source SRC]]\n",
    .about = "Receipts of wai.video.int_motion (integer-payloads 15, docs/receipts.md).\n"
             "\n"
             "seal decodes CLIP (a WIV1 of keyframe 0) and writes its decode receipt:\n"
             "the payload's BLAKE3, each decoded frame's hash, the clip hash, the\n"
             "Merkle root over the frames, the work, the energy the decode took, the\n"
             "parent receipt, the signer and the Ed25519 signature, as the JSON form\n"
             "of 15.2. The energy is read from the machine's RAPL counters (Linux\n"
             "powercap) around the decode, class OnChipCounter with its uncertainty;\n"
             "where there are none, the receipt says unmetered.\n"
             "\n"
             "verify reads RECEIPT strictly (15.2) and checks that it is consistent\n"
             "and its signature verifies; given CLIP, it re-derives the receipt from\n"
             "it: CLIP's BLAKE3 is the receipt's, it decodes to the receipt's frames\n"
             "(an encode receipt: its parameters, and --source, the frames encoded,\n"
             "hash to the receipt's and the decode's error against them is its sse).\n"
             "A decode or encode receipt is told by its profile. It prints the receipt's\n"
             "frames, signer, energy and the verdict; a refusal names what failed.\n",
    .opts = CLI_ROWS(receipt_opts),
    .after = "Exit status: 0 sealed, or verified; 1 the clip was refused, or the\n"
             "receipt was refused (receipt_refused), is not consistent\n"
             "(receipt_inconsistent) or not re-derived (receipt_not_rederived), with\n"
             "the reason printed; 2 usage or I/O error, or a build without libsodium.\n",
    .subcommands = receipt_subcommands,
    .run = cmd_receipt,
};

#if defined(WAI_HAVE_ED25519)

static int read_payload(const char *cmd, const char *name, uint64_t budget, cli_inputs *inputs,
                        cli_file *f) {
    cli_read_opts ro = {budget, "the memory limit (--max-memory)", 1, INT_MOTION, inputs};
    return cli_read(cmd, name, &ro, f);
}

static void print_problem(const char *cmd, const char *name, wai_status st,
                          const wai_receipt_problem *p) {
    char small[256], *text = small;
    size_t n = 0;
    if (wai_receipt_problem_text(p, small, sizeof small, &n) != WAI_ok &&
        (!(text = malloc(n + 1)) || wai_receipt_problem_text(p, text, n + 1, NULL) != WAI_ok)) {
        free(text);
        text = NULL;
    }
    fprintf(stderr, "wai receipt %s: %s: %s (%s): %s\n", cmd, name, wai_status_name(st),
            wai_receipt_fault_name(p->fault), text ? text : "(out of memory)");
    if (text != small) free(text);
}

/* What an energy figure says, in a line. */
void receipt_print_energy(FILE *out, const wai_energy *e, const char *why) {
    if (e->cls == WAI_ENERGY_UNMETERED) {
        fprintf(out, "energy: unmetered%s%s%s\n", why ? " (" : "", why ? why : "", why ? ")" : "");
        return;
    }
    fprintf(out, "energy: %llu uJ, %s", (unsigned long long)e->joules_micro,
            wai_energy_class_label(e->cls));
    if (e->cls == WAI_ENERGY_ON_CHIP_COUNTER || e->cls == WAI_ENERGY_CALIBRATED_INSTRUMENT)
        fprintf(out, ", +-%lu ppm over %llu us", (unsigned long)e->relative_ppm,
                (unsigned long long)e->window_us);
    fprintf(out, "\n");
}



int receipt_write(const char *cmd, wai_context *ctx, const wai_receipt *r, const char *out,
                  cli_inputs *inputs) {
    char *json;
    size_t len;
    wai_status st = wai_receipt_write_json(ctx, r, &json, &len);
    if (st != WAI_ok) {
        fprintf(stderr, "wai %s: %s\n", cmd, cli_explained(st));
        return EXIT_USAGE;
    }
    int rc = frame_file_write(cmd, out, (const uint8_t *)json, len, inputs) == 0 ? 0 : EXIT_USAGE;
    wai_receipt_json_free(ctx, json);
    return rc;
}

int receipt_signer(const char *cmd, const receipt_sign_opts *o, wai_ed25519_key *key,
                   wai_receipt_signer *s, uint8_t parent[32], const uint8_t **has_parent) {
    uint8_t seed[32];
    *has_parent = NULL;
    if (o->parent && !keys_parse_hex32(o->parent, strlen(o->parent), parent))
        return cli_usage_error(cmd, "--parent needs a receipt hash (64 hexadecimal digits)");
    if (o->parent) *has_parent = parent;
    if (!o->key) return cli_usage_error(cmd, "--key KEY is required (wai keygen writes one)");
    if (keys_read(cmd, o->key, seed) != 0) return EXIT_USAGE;
    int bad = wai_ed25519_key_from_seed(key, seed) != 0;
    memset(seed, 0, sizeof seed);
    if (bad) {
        fprintf(stderr, "wai %s: libsodium could not start\n", cmd);
        return EXIT_USAGE;
    }
    const char *id = o->id ? o->id : "";
    wai_ed25519_signer(key, id, strlen(id), s);
    return 0;
}

static int seal(const receipt_options *o, char **in, int n_in) {
    if (n_in != 1) return cli_usage_error("receipt seal", "give one WIV1 clip");
    if (!o->out) return cli_usage_error("receipt seal", "no output given (-o RECEIPT.json)");
    uint8_t parent[32];
    const uint8_t *has_parent;
    wai_ed25519_key key;
    wai_receipt_signer signer;
    int rc = receipt_signer("receipt seal", &o->sign, &key, &signer, parent, &has_parent);
    if (rc != 0) return rc;
    cli_inputs inputs;
    cli_inputs_init(&inputs, o->force);
    cli_file f = {0};
    wai_context *ctx = NULL;
    wai_receipt *r = NULL;
    rc = EXIT_USAGE;
    if (read_payload("receipt seal", in[0], o->max_memory, &inputs, &f) != 0 ||
        cli_out_check("receipt seal", o->out, &inputs) != 0 || cli_context_create(NULL, &ctx) != WAI_ok)
        goto done;
    energy_meter meter;
    energy_meter_init(&meter, o->sign.powercap);
    wai_energy_meter hooks = energy_meter_hooks(&meter);
    wai_receipt_seal_options so;
    wai_receipt_seal_options_default(&so);
    so.parent = has_parent;
    so.meter = &hooks;
    so.max_memory = o->max_memory;
    wai_status st = wai_receipt_seal_decode(ctx, f.data, f.len, &so, &signer, &r);
    if (st != WAI_ok) {
        fprintf(stderr, "wai receipt seal: %s: refused: %s\n", f.name, cli_explained(st));
        rc = wai_status_kind_of(st) == WAI_KIND_LIBRARY ? EXIT_USAGE : EXIT_REFUSED;
        goto done;
    }
    rc = receipt_write("receipt seal", ctx, r, o->out, &inputs);
    if (rc == 0) {
        const wai_receipt_info *i = wai_receipt_view(r);
        fprintf(stderr, "wai receipt seal: %llu frames of %ux%u\n", (unsigned long long)i->n_frames,
                i->w, i->h);
        receipt_print_energy(stderr, &i->energy, meter.why);
    }
done:
    wai_receipt_destroy(r);
    wai_context_destroy(ctx);
    wai_ed25519_key_wipe(&key);
    cli_file_free(&f);
    cli_inputs_free(&inputs);
    return rc;
}

/* --source: a Y4M file or one PNG, as `wai encode` reads them. */
static int read_source(const char *name, input_clip *clip) {
    size_t n = strlen(name);
    int png = n >= 4 && !strcmp(name + n - 4, ".png");
    int rc = png ? input_read_pngs(&name, 1, clip) : input_read_y4m(name, clip);
    return rc == 0 ? 0 : -1;
}

static void print_summary(const wai_receipt_info *i) {
    printf("receipt: %s, %llu frames of %ux%u\n",
           i->kind == WAI_RECEIPT_ENCODE ? "encode receipt" : "decode receipt",
           (unsigned long long)i->n_frames, i->w, i->h);
    char hex[65];
    wai_hex(i->signer_pubkey, 32, hex);
    printf("signer: %s ", hex);
    json_put_string(stdout, i->signer_id);
    printf("\n");
    receipt_print_energy(stdout, &i->energy, NULL);
}

static int verify(const receipt_options *o, char **in, int n_in) {
    if (n_in < 1 || n_in > 2)
        return cli_usage_error("receipt verify", "give RECEIPT.json and, to re-derive it, its clip");
    uint8_t pin[32];
    if (o->pubkey && keys_read_public("receipt verify", o->pubkey, pin) != 0) return EXIT_USAGE;
    cli_inputs inputs;
    cli_inputs_init(&inputs, 1);
    cli_file text = {0}, clip = {0};
    input_clip source = {0};
    wai_context *ctx = NULL;
    wai_receipt *r = NULL;
    int rc = EXIT_USAGE;
    cli_read_opts ro = {o->max_memory < RECEIPT_MAX_BYTES ? o->max_memory : RECEIPT_MAX_BYTES,
                        "the memory limit (--max-memory)", 0, NULL, &inputs};
    if (cli_read("receipt verify", in[0], &ro, &text) != 0 ||
        (n_in == 2 && read_payload("receipt verify", in[1], o->max_memory, &inputs, &clip) != 0) ||
        cli_context_create(NULL, &ctx) != WAI_ok)
        goto done;
    wai_receipt_problem p;
    wai_status st = wai_receipt_read_json(ctx, (const char *)text.data, text.len, &r, &p);
    if (st != WAI_ok) {
        print_problem("verify", text.name, st, &p);
        rc = st == WAI_receipt_refused ? EXIT_REFUSED : EXIT_USAGE;
        goto done;
    }
    const wai_receipt_info *info = wai_receipt_view(r);
    int enc = info->kind == WAI_RECEIPT_ENCODE;
    if (n_in == 2 && enc && !o->source) {
        rc = cli_usage_error("receipt verify",
                             "an encode receipt re-derives from its clip and its source: give --source");
        goto done;
    }
    if (o->source && (n_in < 2 || !enc)) {
        rc = cli_usage_error("receipt verify", "--source goes with an encode receipt and its clip");
        goto done;
    }
    if (o->source && read_source(o->source, &source) != 0) goto done;
    wai_receipt_verifier v;
    wai_ed25519_verifier(&v);
    wai_receipt_check_options co;
    wai_receipt_check_options_default(&co);
    co.signer = o->pubkey ? pin : NULL;
    co.max_memory = o->max_memory;
    size_t source_len = (size_t)source.n_frames * source.h * source.w * 3;
    st = n_in == 2 ? wai_receipt_rederive(ctx, r, clip.data, clip.len, source.rgb, source_len, &v, &co, &p)
                   : wai_receipt_check(r, &v, &co, &p);
    print_summary(info);
    if (st != WAI_ok) {
        print_problem("verify", text.name, st, &p);
        rc = wai_status_kind_of(st) == WAI_KIND_RECEIPT ? EXIT_REFUSED : EXIT_USAGE;
        goto done;
    }
    if (n_in == 2) printf("verdict: re-derived from %s%s%s, consistent, signature valid\n", clip.name,
                          enc ? " and " : "", enc ? o->source : "");
    else printf("verdict: consistent, signature valid\n");
    rc = EXIT_DONE;
done:
    wai_receipt_destroy(r);
    wai_context_destroy(ctx);
    input_clip_free(&source);
    cli_file_free(&text);
    cli_file_free(&clip);
    cli_inputs_free(&inputs);
    return rc;
}

#endif /* WAI_HAVE_ED25519 */

static int cmd_receipt(int argc, char **argv) {
    receipt_options o;
    memset(&o, 0, sizeof o);
    o.max_memory = CLI_DEFAULT_MAX_MEMORY;
    int first;
    uint64_t given;
    int rc = cli_parse(&receipt_command, argc, argv, &o, &first, &given);
    if (rc != 0) return rc;
#if defined(WAI_HAVE_ED25519)
    return !strcmp(argv[1], "seal") ? seal(&o, argv + first, argc - first)
                                    : verify(&o, argv + first, argc - first);
#else
    fprintf(stderr, "wai receipt: this build has no Ed25519 (libsodium was not found)\n");
    return EXIT_USAGE;
#endif
}
