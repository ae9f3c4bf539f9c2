/* SPDX-License-Identifier: BSD-2-Clause */
/* The tool's one option parser. A command is a cli_command and each of its
 * options a cli_opt row of its table; cli_parse reads argv by that table
 * and help.c writes the command's page from it, so the parser and the
 * manual cannot disagree. */
#ifndef WAI_TOOLS_OPTIONS_H
#define WAI_TOOLS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_opt cli_opt;

/* Reads VALUE (argv's own text, which it may split in place) into FIELD,
 * the row's field of the options struct: 1, or 0 when VALUE is not what
 * the row's `must` says. */
typedef int (*cli_value_parser)(const cli_opt *opt, char *value, void *field);

struct cli_opt {
    const char *name;         /* "--set", "-o" */
    const char *alias;        /* "-y" for "--force"; NULL: none */
    const char *value;        /* the value's name on the page ("DIR"); NULL: a flag */
    size_t offset;            /* of its field in the command's options struct */
    cli_value_parser parse;   /* NULL: the value stored as const char *, a flag as int 1 */
    const char *must;         /* what a value must be: "--threads needs MUST"; NULL
                               * with cli_take_u64: "an integer in MIN..MAX" */
    uint64_t min, max;        /* a number's bounds (cli_take_u64) */
    unsigned modes;           /* the modes that take it, a bit each; 0: every mode */
    const char *help;         /* its lines on the page, '\n'-separated, unindented */
};

typedef struct cli_command {
    const char *name;         /* "decode" */
    const char *summary;      /* the overview's line ('\n' continues it) */
    const char *operands;     /* the usage line's: "FILE..."; NULL: none */
    const char *usage;        /* for modes or subcommands: the usage lines after
                               * "usage: ", instead of the generated one */
    const char *about;        /* the page's prose before the options */
    const cli_opt *opts;
    size_t n_opts;            /* at most 64: a bit each in cli_parse's mask */
    const char *after;        /* the page's prose after the options */
    const char *const *subcommands; /* NULL, or the words argv[1] must be; the
                               * i-th is mode 1 << i */
    int (*run)(int argc, char **argv);
} cli_command;

#define CLI_ROWS(rows) (rows), (sizeof(rows) / sizeof((rows)[0]))

/* Parses argv[1..argc) (argv[0] is the command; for a command with
 * subcommands argv[1] is one, and options of another refused) into opts.
 * Options may come before or after operands, which keep their order and
 * end up at argv[*first_operand..argc); "--" ends the options, "-" alone
 * is an operand, and "--name=value" is "--name value". *given has bit i
 * set for each row i given. 0, or EXIT_USAGE after cli_usage_error. */
int cli_parse(const cli_command *cmd, int argc, char **argv, void *opts, int *first_operand,
              uint64_t *given);

/* 1 when the row named NAME is in the given mask. */
int cli_given(const cli_command *cmd, uint64_t given, const char *name);

/* The first given option that MODE does not take is a usage error of WHO
 * (the command as messages name it) naming it and mode_name; 0 when there
 * is none. */
int cli_check_modes(const cli_command *cmd, const char *who, uint64_t given, unsigned mode,
                    const char *mode_name);

/* 1 when argv, read by cmd's table, holds --help or -h as an option. */
int cli_asks_help(const cli_command *cmd, int argc, char **argv);

/* Value parsers for rows. */
int cli_take_u64(const cli_opt *opt, char *value, void *field);    /* uint64_t in min..max */
int cli_take_bytes(const cli_opt *opt, char *value, void *field);  /* uint64_t: cli_parse_bytes */
#define CLI_BYTE_COUNT "a byte count (N, NK, NM, NG, NT) or none"  /* its `must` */
int cli_take_token(const cli_opt *opt, char *value, void *field);  /* const char *, not empty */

#endif
