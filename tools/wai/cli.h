/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared pieces of the `wai` command. Exit statuses are the tool's contract:
 * 0 done (decoded, digested, inspected and accepted), 1 the payload was
 * refused, 2 a usage or I/O error. */
#ifndef WAI_TOOLS_CLI_H
#define WAI_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "wai/wai.h"

#define EXIT_DONE 0
#define EXIT_REFUSED 1
#define EXIT_USAGE 2

struct stat;

/* The files a command reads, by device and inode, so that no output can
 * name one of them (also through a link), and whether an existing output
 * may be replaced (-y/--force). */
typedef struct cli_file_id {
    uint64_t dev, ino;
} cli_file_id;

typedef struct cli_inputs {
    cli_file_id *ids;
    size_t n, cap;
    int force;
} cli_inputs;

void cli_inputs_init(cli_inputs *in, int force);
void cli_inputs_free(cli_inputs *in);
/* Records st's file (in NULL: nothing); 0, or -1 out of memory. */
int cli_inputs_add(cli_inputs *in, const struct stat *st);
/* 1 when st's file is one of the inputs. */
int cli_inputs_has(const cli_inputs *in, const struct stat *st);

/* A file read whole into memory ("-" is standard input). */
typedef struct cli_file {
    const char *name;
    uint8_t *data;
    size_t len;        /* the bytes held: the whole file, or for a payload that
                        * names no capability (bad_magic whatever follows) its
                        * first bytes only */
    uint64_t size;     /* the file's size */
} cli_file;

/* How cli_read bounds a read. */
typedef struct cli_read_opts {
    uint64_t max_bytes;      /* refuse a larger file before reading a byte of it */
    const char *why;         /* what max_bytes is, for the message */
    int payload;             /* bound it also by the largest valid payload of its
                              * capability (wai_payload_max_bytes) */
    const char *cap_name;    /* payload: that capability, or NULL: by the magic */
    cli_inputs *inputs;      /* records the file read there, when not NULL */
} cli_read_opts;

/* Reads NAME ("-": standard input) whole into one buffer of its size. A
 * FIFO, device, directory or socket is refused (standard input may be a
 * pipe). A regular file is sized by fstat and refused past its bound before
 * it is read; standard input is read up to the bound. Returns 0 and fills
 * *f, or prints "wai COMMAND: NAME: reason" and returns -1. */
int cli_read(const char *command, const char *name, const cli_read_opts *o, cli_file *f);
void cli_file_free(cli_file *f);

/* Checks, without opening it, that NAME exists and is a regular file ("-"
 * passes), and records it in inputs (standard input too, when it is a
 * regular file); 0, or prints why and returns -1. */
int cli_check_input(const char *command, const char *name, cli_inputs *inputs);

/* An output file, written beside its target and renamed into place when
 * complete, or standard output. */
typedef struct cli_out_file {
    FILE *f;
    char *tmp;            /* the temporary's name; NULL for standard output */
    const char *target;
    int is_stdout, force;
} cli_out_file;

/* What opening TARGET checks first: it is none of the inputs (by device and
 * inode, so also through a link; -y does not lift this), not a directory,
 * and, without in->force, does not exist. 0, or prints why and returns
 * EXIT_USAGE. */
int cli_out_check(const char *command, const char *target, const cli_inputs *in);

/* Opens TARGET: "-" is standard output; else, after cli_out_check, a
 * temporary ".NAME.XXXXXX" in TARGET's directory. 0, or prints why and
 * returns EXIT_USAGE. */
int cli_out_open(const char *command, const char *target, const cli_inputs *in,
                 cli_out_file *o);

/* Flushes, checks every write, closes and renames the temporary to TARGET
 * (without -y, refusing a TARGET that appeared meanwhile). 0, or prints the
 * I/O error, removes the temporary and returns EXIT_USAGE. A no-op on an
 * unopened (zeroed) o. */
int cli_out_commit(const char *command, cli_out_file *o);

/* Closes and removes the temporary: TARGET is left as it was. */
void cli_out_discard(cli_out_file *o);

/* Once, at start: SIGTERM, SIGINT and SIGHUP remove the temporaries of
 * cli_out_open still open before the process ends; SIGPIPE is ignored, so
 * a closed pipe is a write error (EPIPE) said once. */
void cli_out_on_signals(void);

/* Parses a full decimal u64 ("0" .. "18446744073709551615"); 0 on error. */
int cli_parse_u64(const char *s, uint64_t *out);

/* Parses a byte count: a decimal u64, optionally followed by K, M, G or T
 * (2^10, 2^20, 2^30, 2^40), or "none" (UINT64_MAX); 0 on error. */
int cli_parse_bytes(const char *s, uint64_t *out);

/* The memory limit the tool applies unless --max-memory says otherwise
 * (docs/reading-inputs.md): 2 GiB. */
#define CLI_DEFAULT_MAX_MEMORY ((uint64_t)2 << 30)

/* Usage error: prints "wai COMMAND: message" and a pointer to help. */
int cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A status as a refusal line prints it: "code (what it means)", from
 * libwai's one table (wai_status_meaning). A static buffer: the next call
 * overwrites it. */
const char *cli_explained(wai_status st);

/* JSON output helpers (RFC 8259 strings; bytes >= 0x80 pass through). */
void json_put_string(FILE *out, const char *s);
void json_put_hex(FILE *out, const uint8_t *bytes, size_t n);

/* 1 when s ends in suffix (lower case), ignoring ASCII case: "A.PNG", ".png". */
int cli_has_suffix(const char *s, const char *suffix);

/* The manual (help.c), from the commands' tables: the overview of the
 * commands, a command's page, and its rows as "NAME\tALIAS\tVALUE" lines
 * ("-" for none). */
void cli_print_overview(FILE *out, const cli_command *const *commands, size_t n);
void cli_print_page(FILE *out, const cli_command *c);
void cli_print_option_list(FILE *out, const cli_command *c);

/* The commands, each defined in its file: argv[0] of its run is its name. */
extern const cli_command inspect_command, decode_command, digest_command, capabilities_command,
    encode_command, graph_command, split_command, join_command, export_command, convert_command,
    receipt_command, keygen_command, set_command;

#endif
