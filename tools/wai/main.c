/* SPDX-License-Identifier: BSD-2-Clause */
/* wai: inspect, decode and digest WAI integer-codec payloads. */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "wai/wai.h"

/* The commands, in the overview's order. */
static const cli_command *const commands[] = {
    &inspect_command, &decode_command,  &digest_command, &capabilities_command,
    &encode_command,  &graph_command,   &split_command,  &join_command,
    &export_command,  &convert_command, &receipt_command, &keygen_command, &set_command,
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const cli_command *find_command(const char *name) {
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(name, commands[i]->name) == 0) return commands[i];
    return NULL;
}

/* Every command's standard output is checked once it is done: a write that
 * failed (a full disk, a closed pipe, /dev/full) is an I/O error, exit 2,
 * whatever the command returned. */
static int finish(int status) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        /* A command that failed has said why already: once is enough. */
        if (status == EXIT_DONE)
            fprintf(stderr, "wai: standard output: %s\n",
                    errno ? strerror(errno) : "write failed");
        return EXIT_USAGE;
    }
    return status;
}

/* wai help [COMMAND]; `wai help --options COMMAND` lists the command's
 * option rows for the tests (tests/tool/test_cli.sh). */
static int help(int argc, char **argv) {
    int list = argc > 2 && strcmp(argv[2], "--options") == 0;
    if (argc == 2 + list) {
        cli_print_overview(stdout, commands, N_COMMANDS);
        return EXIT_DONE;
    }
    const cli_command *c = find_command(argv[2 + list]);
    if (!c) {
        fprintf(stderr, "wai help: no command '%s'\n", argv[2 + list]);
        return EXIT_USAGE;
    }
    if (list) cli_print_option_list(stdout, c);
    else cli_print_page(stdout, c);
    return EXIT_DONE;
}

static int run(int argc, char **argv);

int main(int argc, char **argv) {
    cli_out_on_signals();
    return finish(run(argc, argv));
}

static int run(int argc, char **argv) {
    if (argc < 2) {
        cli_print_overview(stderr, commands, N_COMMANDS);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        cli_print_overview(stdout, commands, N_COMMANDS);
        return EXIT_DONE;
    }
    if (strcmp(name, "--version") == 0) {
        printf("wai %s\n", wai_version());
        return EXIT_DONE;
    }
    if (strcmp(name, "help") == 0) return help(argc, argv);
    const cli_command *c = find_command(name);
    if (!c) {
        fprintf(stderr, "wai: unknown command '%s' (see 'wai --help')\n", name);
        return EXIT_USAGE;
    }
    if (cli_asks_help(c, argc - 1, argv + 1)) {
        cli_print_page(stdout, c);
        return EXIT_DONE;
    }
    return c->run(argc - 1, argv + 1);
}
