#include <string.h>

#include "cli.h"
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
        printf("], \"decodes\": %s}", wai_capability_has_decoder(c) ? "true" : "false");
    }
    printf("]\n");
}

int cmd_capabilities(int argc, char **argv) {
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else return cli_usage_error("capabilities", "unknown argument '%s'", argv[i]);
    }
    if (json) {
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
