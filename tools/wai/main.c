/* wai: inspect, decode and digest WAI integer-codec payloads. */
#include <string.h>

#include "cli.h"
#include "wai/wai.h"

typedef int (*command_fn)(int argc, char **argv);

static const struct {
    const char *name;
    command_fn run;
} commands[] = {
    {"inspect", cmd_inspect},
    {"decode", cmd_decode},
    {"digest", cmd_digest},
    {"capabilities", cmd_capabilities},
    {"encode", cmd_encode},
    {"graph", cmd_graph},
    {"split", cmd_split},
    {"join", cmd_join},
    {"export", cmd_export},
    {"convert", cmd_convert},
    {"receipt", cmd_receipt},
    {"keygen", cmd_keygen},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static int is_help_flag(const char *a) {
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* Every command's standard output is checked once it is done: a write that
 * failed (a full disk, a closed pipe, /dev/full) is an I/O error, exit 2,
 * whatever the command returned. */
static int finish(int status) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "wai: standard output: write failed\n");
        return EXIT_USAGE;
    }
    return status;
}

static int run(int argc, char **argv);

int main(int argc, char **argv) { return finish(run(argc, argv)); }

static int run(int argc, char **argv) {
    if (argc < 2) {
        cli_print_overview(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (is_help_flag(cmd)) {
        cli_print_overview(stdout);
        return EXIT_DONE;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("wai %s\n", wai_version());
        return EXIT_DONE;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc == 2) {
            cli_print_overview(stdout);
            return EXIT_DONE;
        }
        if (cli_print_help(stdout, argv[2]) != 0) {
            fprintf(stderr, "wai help: no command '%s'\n", argv[2]);
            return EXIT_USAGE;
        }
        return EXIT_DONE;
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(cmd, commands[i].name) != 0) continue;
        for (int a = 2; a < argc; a++) {
            if (strcmp(argv[a], "--") == 0) break;
            if (is_help_flag(argv[a])) {
                cli_print_help(stdout, cmd);
                return EXIT_DONE;
            }
        }
        return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "wai: unknown command '%s' (see 'wai --help')\n", cmd);
    return EXIT_USAGE;
}
