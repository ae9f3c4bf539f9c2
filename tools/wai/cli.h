/* Shared pieces of the `wai` command. Exit statuses are the tool's contract:
 * 0 done (decoded, digested, inspected and accepted), 1 the payload was
 * refused, 2 a usage or I/O error. */
#ifndef WAI_TOOLS_CLI_H
#define WAI_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXIT_DONE 0
#define EXIT_REFUSED 1
#define EXIT_USAGE 2

/* A file read whole into memory ("-" is standard input). */
typedef struct cli_file {
    const char *name;
    uint8_t *data;
    size_t len;
} cli_file;

/* Returns 0 and fills *f, or prints "wai: NAME: reason" and returns -1. */
int cli_read_file(const char *name, cli_file *f);
void cli_file_free(cli_file *f);

/* Lets options follow FILEs (`wai decode clip.wiv1 -o out.y4m`): reorders
 * argv[1..argc) stably so every option (with its value, for the options
 * named in takes_value) comes first, then "--" if there was one, then the
 * operands, which keep their order. argc does not change. Everything after "--" is an operand;
 * "-" alone is an operand (standard input). */
void cli_permute(int argc, char **argv, const char *const *takes_value);

/* Parses a full decimal u64 ("0" .. "18446744073709551615"); 0 on error. */
int cli_parse_u64(const char *s, uint64_t *out);

/* Usage error: prints "wai COMMAND: message" and a pointer to help. */
int cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* JSON output helpers (RFC 8259 strings; bytes >= 0x80 pass through). */
void json_put_string(FILE *out, const char *s);
void json_put_hex(FILE *out, const uint8_t *bytes, size_t n);

/* Help texts (help.c). Returns 0 when COMMAND has a page. */
int cli_print_help(FILE *out, const char *command);
void cli_print_overview(FILE *out);

/* Subcommands: argv[0] is the subcommand's name. */
int cmd_digest(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_capabilities(int argc, char **argv);
int cmd_encode(int argc, char **argv);

#endif
