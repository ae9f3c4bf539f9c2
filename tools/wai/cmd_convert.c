/* SPDX-License-Identifier: BSD-2-Clause */
/* wai convert and wai export: the tools' JSON forms (integer-payloads §10,
 * docs/json-forms.md) to payloads and back, by libwai_write's converters.
 * A form is a converter input, never a payload: decode refuses one
 * bad_magic. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frame_files.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

/* The options of both commands (each table names its own). */
typedef struct form_options {
    const char *out, *capability, *audio, *set_dir;
    uint64_t max_memory;
    int force, json;
} form_options;

#define F(field) offsetof(form_options, field)

static const cli_opt export_opts[] = {
    {.name = "--json", .offset = F(json), .help = "the JSON form (required)"},
    {.name = "--capability", .value = "CAP", .offset = F(capability),
     .help = "the payload's capability (default: its magic's)"},
    {.name = "--audio", .value = "FILE", .offset = F(audio),
     .help = "a WIA1's audio.json, {\"sample_rate\": N}, beside the form"},
    {.name = "-o", .value = "OUT", .offset = F(out),
     .help = "the form ('-': standard output); never an input"},
    {.name = "--max-memory", .value = "N", .offset = F(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT, .help = "refuse a payload larger than N bytes (default 2G)"},
    {.name = "--force", .alias = "-y", .offset = F(force), .help = "replace OUT when it exists"},
};

static const cli_opt convert_opts[] = {
    {.name = "--capability", .value = "CAP", .offset = F(capability),
     .help = "wai.video.int_motion, wai.video.int_hyper,\n"
             "wai.neural.int_hyper, wai.audio.int_codec or\n"
             "wai.splat.int_codec; required"},
    {.name = "--audio", .value = "FILE", .offset = F(audio),
     .help = "WIA1: the export's audio.json (required)"},
    {.name = "--set", .value = "DIR", .offset = F(set_dir),
     .help = "WIA1, WIS1: the set (model.wam, g_s.whm; required)"},
    {.name = "-o", .value = "OUT", .offset = F(out),
     .help = "the payload ('-': standard output); never an input"},
    {.name = "--max-memory", .value = "N", .offset = F(max_memory), .parse = cli_take_bytes,
     .must = CLI_BYTE_COUNT, .help = "refuse a form larger than N bytes (default 2G)"},
    {.name = "--force", .alias = "-y", .offset = F(force), .help = "replace OUT when it exists"},
};

static int cmd_export(int argc, char **argv);
static int cmd_convert(int argc, char **argv);

const cli_command export_command = {
    .name = "export",
    .summary = "a payload's JSON form (--json), a converter input",
    .operands = "--json PAYLOAD -o OUT",
    .about = "Writes a payload's JSON form (integer-payloads 10; docs/json-forms.md):\n"
             "a converter input and a debugging aid, never a payload (decode refuses one\n"
             "bad_magic). 'wai convert' of the form gives the payload back, byte for\n"
             "byte. Forms: WIV1 (wai.video.int_motion and int_hyper: the header's\n"
             "fields, the table, one list of vectors per frame, the stream in base64,\n"
             "int_hyper's keyframe as its WIH1 form), WIH1 (wai.neural.int_hyper: the\n"
             "dimensions and both streams), WIA1 (wai.audio.int_codec: all but the\n"
             "sample rate, which --audio writes as audio.json) and WIS1\n"
             "(wai.splat.int_codec: each range as the shortest decimal of its binary32).\n",
    .opts = CLI_ROWS(export_opts),
    .after = "Exit status: 0 written, 1 the payload was refused (its parse's code is\n"
             "printed), 2 usage or I/O error.\n",
    .run = cmd_export,
};

const cli_command convert_command = {
    .name = "convert",
    .summary = "a JSON form back to its payload",
    .operands = "--capability CAP FORM.json -o OUT",
    .about = "Converts a JSON form (integer-payloads 10; docs/json-forms.md) into the\n"
             "payload of CAP, making explicit what the form leaves implicit: for WIV1 an\n"
             "absent mv_precision is 1 (only 1 and 2 convert), a one-frame clip is\n"
             "written with mv_precision 1 and block 1, each frame's vector list is\n"
             "padded with (0, 0) to its block grid (a longer list or a vector outside\n"
             "i16 is refused), rmax is not carried, and int_hyper's keyframe is\n"
             "converted from its own WIH1 form; for WIA1 the sample rate is audio.json's\n"
             "and every channel's table the first's length; for WIS1 each range must be\n"
             "a binary32 value, read exactly (2^60 + 1 is refused, not rounded); for\n"
             "both, afrac must be the set's network's. The payload is then checked as a\n"
             "decode would parse it.\n",
    .opts = CLI_ROWS(convert_opts),
    .after = "Exit status: 0 written, 1 refused (the code is printed: payload_malformed\n"
             "for a text that is no such form, field_range for a value against its\n"
             "rule, or the payload's parse code), 2 usage or I/O error.\n",
    .run = cmd_convert,
};

/* The options, then one input (*name) and -o. */
static int parse_options(const cli_command *cmd, int argc, char **argv, form_options *o,
                         const char **name) {
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
    int first;
    uint64_t given;
    int rc = cli_parse(cmd, argc, argv, o, &first, &given);
    if (rc != 0) return rc;
    if (argc - first != 1) return cli_usage_error(cmd->name, "give one input file");
    if (!o->out) return cli_usage_error(cmd->name, "no output given (-o OUT)");
    *name = argv[first];
    return 0;
}

/* Reads the input, runs the conversion, writes OUT. */
static int run(const char *cmd, const form_options *o, const char *name, int payload_input) {
    cli_inputs inputs;
    cli_inputs_init(&inputs, o->force);
    cli_file f = {0}, aux[2] = {{0}, {0}};
    uint8_t *out = NULL;
    size_t out_len = 0;
    int rc = EXIT_USAGE;
    if (cli_check_input(cmd, name, &inputs) != 0 ||
        (strcmp(o->out, "-") != 0 && cli_out_check(cmd, o->out, &inputs) != 0))
        goto done;
    cli_read_opts ro = {o->max_memory, "the memory limit (--max-memory)", payload_input,
                        payload_input ? o->capability : NULL, &inputs};
    if (cli_read(cmd, name, &ro, &f) != 0) goto done;
    /* convert: audio.json and the set's network, when given. */
    if (!payload_input) {
        cli_read_opts side = {o->max_memory, "the memory limit (--max-memory)", 0, NULL, &inputs};
        if (o->audio && cli_read(cmd, o->audio, &side, &aux[0]) != 0) goto done;
        if (o->set_dir) {
            const wai_capability *cap = wai_capability_find(o->capability);
            const char *member = cap ? cap->set_members[0] : NULL;
            if (!member) {
                rc = cli_usage_error(cmd, "%s has no set to give", o->capability);
                goto done;
            }
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", o->set_dir, member);
            if (cli_read(cmd, path, &side, &aux[1]) != 0) goto done;
        }
    }
    wai_status st;
    if (payload_input) {
        char *json = NULL;
        st = wai_export_json(NULL, o->capability, f.data, f.len, &json, &out_len);
        out = (uint8_t *)json;
        /* audio.json beside the form: WIA1's sample rate, which the form
         * does not carry (its header's u32 at byte 8). */
        if (st == WAI_ok && o->audio) {
            if (f.len < 12 || memcmp(f.data, "WIA1", 4) != 0) {
                rc = cli_usage_error(cmd, "--audio writes a WIA1's audio.json: %s is no WIA1",
                                     f.name);
                goto done;
            }
            char text[64];
            const unsigned sr = (unsigned)f.data[8] | (unsigned)f.data[9] << 8 |
                                (unsigned)f.data[10] << 16 | (unsigned)f.data[11] << 24;
            const int n = snprintf(text, sizeof text, "{\"sample_rate\": %u}\n", sr);
            if (cli_out_check(cmd, o->audio, &inputs) != 0 ||
                frame_file_write(cmd, o->audio, (const uint8_t *)text, (size_t)n, &inputs) != 0)
                goto done;
        }
    } else {
        wai_convert_options co;
        wai_convert_options_default(&co);
        co.audio_json = aux[0].data, co.audio_json_len = aux[0].len;
        co.model = aux[1].data, co.model_len = aux[1].len;
        st = wai_convert_json(NULL, o->capability, f.data, f.len, &co, &out, &out_len);
    }
    if (st != WAI_ok) {
        fprintf(stderr, "wai %s: %s: refused: %s\n", cmd, f.name, cli_explained(st));
        rc = st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
        goto done;
    }
    if (frame_file_write(cmd, o->out, out, out_len, &inputs) != 0) goto done;
    rc = EXIT_DONE;
done:
    wai_write_free(NULL, out);
    cli_file_free(&f);
    cli_file_free(&aux[0]);
    cli_file_free(&aux[1]);
    cli_inputs_free(&inputs);
    return rc;
}

static int cmd_convert(int argc, char **argv) {
    form_options o;
    const char *name = NULL;
    int rc = parse_options(&convert_command, argc, argv, &o, &name);
    if (rc != 0) return rc;
    if (!o.capability)
        return cli_usage_error("convert", "--capability is required (the payload's capability)");
    /* What a WIA1 or WIS1 form does not carry (§10). */
    const wai_capability *cap = wai_capability_find(o.capability);
    const wai_format fmt = cap ? cap->format : WAI_FORMAT_NONE;
    if (fmt == WAI_FORMAT_WIA1 && !o.audio)
        return cli_usage_error("convert", "a WIA1 needs --audio audio.json (its sample_rate)");
    if ((fmt == WAI_FORMAT_WIA1 || fmt == WAI_FORMAT_WIS1) && !o.set_dir)
        return cli_usage_error("convert", "a %s needs --set DIR (afrac must be its %s's)",
                               fmt == WAI_FORMAT_WIA1 ? "WIA1" : "WIS1",
                               fmt == WAI_FORMAT_WIA1 ? "model.wam" : "g_s.whm");
    return run("convert", &o, name, 0);
}

static int cmd_export(int argc, char **argv) {
    form_options o;
    const char *name = NULL;
    int rc = parse_options(&export_command, argc, argv, &o, &name);
    if (rc != 0) return rc;
    if (!o.json) return cli_usage_error("export", "give --json (the one form this build writes)");
    return run("export", &o, name, 1);
}
