/* The file commands' options (file_options.h). */
#include "file_options.h"

#include <string.h>

#include "cli.h"

int file_options_parse(const char *cmd, int argc, char **argv, unsigned extras, file_options *o) {
    static const char *const takes_value[] = {"-o", "--capability", "--max-memory", "--audio",
                                              "--set", "--key", "--id", "--parent",
                                              "--powercap", "--pubkey", "--source", NULL};
    cli_permute(argc, argv, takes_value);
    memset(o, 0, sizeof *o);
    o->max_memory = CLI_DEFAULT_MAX_MEMORY;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') break;
        const char **value = !strcmp(a, "-o") ? &o->out
                             : (extras & FILE_OPT_CAPABILITY) && !strcmp(a, "--capability")
                                 ? &o->capability
                             : (extras & FILE_OPT_AUDIO) && !strcmp(a, "--audio") ? &o->audio
                             : (extras & FILE_OPT_SET) && !strcmp(a, "--set")     ? &o->set_dir
                             : (extras & FILE_OPT_SIGN) && !strcmp(a, "--key")    ? &o->key
                             : (extras & FILE_OPT_SIGN) && !strcmp(a, "--id")     ? &o->id
                             : (extras & FILE_OPT_SIGN) && !strcmp(a, "--parent") ? &o->parent
                             : (extras & FILE_OPT_SIGN) && !strcmp(a, "--powercap") ? &o->powercap
                             : (extras & FILE_OPT_VERIFY) && !strcmp(a, "--pubkey") ? &o->pubkey
                             : (extras & FILE_OPT_VERIFY) && !strcmp(a, "--source") ? &o->source
                                                                                  : NULL;
        if (value) {
            if (++i >= argc) return cli_usage_error(cmd, "%s needs a value", a);
            *value = argv[i];
        } else if (!strcmp(a, "--max-memory")) {
            if (++i >= argc || !cli_parse_bytes(argv[i], &o->max_memory))
                return cli_usage_error(cmd, "--max-memory needs a byte count (e.g. 512M)");
        } else if (!strcmp(a, "-y") || !strcmp(a, "--force")) {
            o->force = 1;
        } else if ((extras & FILE_OPT_JSON) && !strcmp(a, "--json")) {
            o->json = 1;
        } else {
            return cli_usage_error(cmd, "unknown option '%s'", a);
        }
    }
    o->first = i;
    o->last = argc;
    return 0;
}
