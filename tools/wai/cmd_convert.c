/* wai convert and wai export: the tools' JSON forms (integer-payloads §10,
 * docs/json-forms.md) to payloads and back, by libwai_write's converters.
 * A form is a converter input, never a payload: decode refuses one
 * bad_magic. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file_options.h"
#include "frame_files.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

/* The options, then one input and -o. */
static int parse_options(const char *cmd, int argc, char **argv, unsigned extras,
                         file_options *o) {
    int rc = file_options_parse(cmd, argc, argv, extras, o);
    if (rc != 0) return rc;
    if (o->last - o->first != 1) return cli_usage_error(cmd, "give one input file");
    if (!o->out) return cli_usage_error(cmd, "no output given (-o OUT)");
    return 0;
}

/* Reads the input, runs the conversion, writes OUT. */
static int run(const char *cmd, const file_options *o, const char *name, int payload_input) {
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
        fprintf(stderr, "wai %s: %s: refused: %s\n", cmd, f.name, wai_status_name(st));
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

int cmd_convert(int argc, char **argv) {
    file_options o;
    int rc = parse_options("convert", argc, argv,
                           FILE_OPT_CAPABILITY | FILE_OPT_AUDIO | FILE_OPT_SET, &o);
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
    return run("convert", &o, argv[o.first], 0);
}

int cmd_export(int argc, char **argv) {
    file_options o;
    int rc = parse_options("export", argc, argv,
                           FILE_OPT_CAPABILITY | FILE_OPT_AUDIO | FILE_OPT_JSON, &o);
    if (rc != 0) return rc;
    if (!o.json) return cli_usage_error("export", "give --json (the one form this build writes)");
    return run("export", &o, argv[o.first], 1);
}
