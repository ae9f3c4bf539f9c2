/* SPDX-License-Identifier: BSD-2-Clause */
/* wai capabilities: the registry, as a table or one JSON array. */
#include <stddef.h>

#include "cli.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"

static void print_members_text(const wai_capability *c) {
    if (!c->set_members[0]) {
        printf("-");
        return;
    }
    for (int m = 0; c->set_members[m]; m++) printf("%s%s", m ? "," : "", c->set_members[m]);
}

static void print_json(void) {
    printf("[");
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        printf("%s{\"capability\": ", i ? ",\n " : "");
        json_put_string(stdout, c->name);
        printf(", \"format\": ");
        json_put_string(stdout, wai_format_name(c->format));
        if (c->keyframe >= 0) printf(", \"keyframe\": %d", c->keyframe);
        printf(", \"frame_form\": %s, \"class\": ", c->frame_form ? "true" : "false");
        json_put_string(stdout, c->registry_class);
        printf(", \"tier\": ");
        json_put_string(stdout, c->tier);
        printf(", \"set\": [");
        for (int m = 0; c->set_members[m]; m++) {
            if (m) printf(", ");
            json_put_string(stdout, c->set_members[m]);
        }
        printf("], \"decodes\": %s, \"output\": ", wai_capability_has_decoder(c) ? "true" : "false");
        json_put_string(stdout, wai_output_kind_name(wai_capability_output(c)));
        printf("}");
    }
    printf("]\n");
}

typedef struct capabilities_options {
    int json;
} capabilities_options;

static const cli_opt capabilities_opts[] = {
    {.name = "--json", .offset = offsetof(capabilities_options, json),
     .help = "one JSON array instead of the table, an object per\n"
             "capability: {\"capability\", \"format\", \"keyframe\" (WIV1 and\n"
             "WIF1 only), \"frame_form\", \"class\", \"tier\", \"set\": [...],\n"
             "\"decodes\": true|false, \"output\": what its decodes give\n"
             "(frame, image, pcm, planes, none)}"},
};

static int cmd_capabilities(int argc, char **argv);

const cli_command capabilities_command = {
    .name = "capabilities",
    .summary = "the capabilities libwai knows, their formats and tiers",
    .about = "Lists every capability libwai knows, one row each: its name, its payload\n"
             "format (\"none\" when libwai reads no payload of it), its registry class,\n"
             "its registered tier (none, entropy-consistency, decode-equivalence),\n"
             "whether this build decodes it (yes/no), and its parameter-set members\n"
             "(\"-\" for none). The tier is the one a decode needs unless the\n"
             "envelope's intent is replicate or the set's pin states decode-equivalence\n"
             "(neural-dispatch section 2).\n",
    .opts = CLI_ROWS(capabilities_opts),
    .after = "Exit status: 0 done, 2 usage error.\n",
    .run = cmd_capabilities,
};

static int cmd_capabilities(int argc, char **argv) {
    capabilities_options o = {0};
    int first;
    uint64_t given;
    int rc = cli_parse(&capabilities_command, argc, argv, &o, &first, &given);
    if (rc != 0) return rc;
    if (first < argc) return cli_usage_error("capabilities", "unknown argument '%s'", argv[first]);
    if (o.json) {
        print_json();
        return EXIT_DONE;
    }
    printf("%-28s %-9s %-18s %-18s %-7s %s\n", "capability", "format", "class", "tier",
           "decodes", "set");
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        printf("%-28s %-9s %-18s %-18s %-7s ", c->name, wai_format_name(c->format),
               c->registry_class, c->tier, wai_capability_has_decoder(c) ? "yes" : "no");
        print_members_text(c);
        printf("\n");
    }
    return EXIT_DONE;
}
