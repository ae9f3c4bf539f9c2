/* SPDX-License-Identifier: BSD-2-Clause */
/* The tool's manual, written from the commands' tables (options.h): the
 * overview lists every command, and a command's page is its usage, its
 * prose and a line per row of its option table. */
#include <string.h>

#include "cli.h"

/* Where an option's text starts, and a command's summary in the overview;
 * where a usage line is wrapped. */
#define OPTION_COLUMN 20
#define SUMMARY_COLUMN 16
#define LINE_WIDTH 80

static const char overview_head[] =
    "usage: wai COMMAND [OPTIONS] [FILE...]\n"
    "\n"
    "Inspect, decode and digest payloads of WAI's integer codecs, exactly.\n"
    "\n"
    "commands:\n";

static const char overview_tail[] =
    "  help COMMAND  the manual page of COMMAND\n"
    "\n"
    "options:\n"
    "  --help        this overview\n"
    "  --version     the version of libwai\n"
    "\n"
    "Options may come before or after FILEs; '--' ends them.\n"
    "\n"
    "Files. Inputs are regular files (a FIFO, device or directory is refused;\n"
    "'-' reads standard input), each sized before it is read and refused\n"
    "past --max-memory (default 2G) or past the largest valid payload of its\n"
    "format. Outputs never replace an input (also through a link), replace\n"
    "an existing file only with -y (--force), and are written to a temporary\n"
    "file beside OUT that is renamed into place once complete: a refused or\n"
    "failed write leaves no partial file. '-o -' is standard output.\n"
    "\n"
    "Exit status: 0 done, 1 the payload was refused (the refusal code is\n"
    "printed), 2 a usage or I/O error (also a failed write to standard\n"
    "output).\n";

/* TEXT's lines from column `at` on: the first where the caller left off,
 * each later one indented to that column. */
static void put_lines(FILE *out, const char *text, int at) {
    for (;;) {
        size_t n = strcspn(text, "\n");
        fprintf(out, "%.*s\n", (int)n, text);
        if (!text[n] || !text[n + 1]) return;
        text += n + 1;
        fprintf(out, "%*s", at, "");
    }
}

/* "  --set DIR" (or "  -y, --force") and the help text from column 20, two
 * spaces on from a label that reaches it. */
static void put_option(FILE *out, const cli_opt *o) {
    int col = fprintf(out, "  %s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "",
                      o->name, o->value ? " " : "", o->value ? o->value : "");
    fprintf(out, "%*s", col < OPTION_COLUMN ? OPTION_COLUMN - col : 2, "");
    put_lines(out, o->help, OPTION_COLUMN);
}

/* 1 when the operands spell out the row's "NAME VALUE" (a required
 * option, such as "-o OUT"), as whole words. */
static int in_operands(const char *operands, const char *label) {
    size_t n = strlen(label);
    for (const char *p = operands; p && (p = strstr(p, label)) != NULL; p++)
        if ((p == operands || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ')) return 1;
    return 0;
}

/* "usage: wai NAME [-y] [--set DIR] ... OPERANDS", wrapped under NAME. */
static void put_usage(FILE *out, const cli_command *c) {
    int indent = fprintf(out, "usage: wai %s", c->name), col = indent;
    for (size_t i = 0; i <= c->n_opts; i++) {
        char label[128], word[128];
        if (i == c->n_opts) {
            if (!c->operands) break;
            snprintf(word, sizeof word, "%s", c->operands);
        } else {
            const cli_opt *o = &c->opts[i];
            const char *v = o->value ? o->value : "";
            snprintf(label, sizeof label, "%s%s%s", o->name, *v ? " " : "", v);
            if (in_operands(c->operands, label)) continue;
            snprintf(word, sizeof word, "[%s%s%s]", o->alias ? o->alias : o->name, *v ? " " : "",
                     v);
        }
        if (col + 1 + (int)strlen(word) >= LINE_WIDTH) col = fprintf(out, "\n%*s", indent, "") - 1;
        col += fprintf(out, " %s", word);
    }
    fputc('\n', out);
}

void cli_print_overview(FILE *out, const cli_command *const *commands, size_t n) {
    fputs(overview_head, out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %-*s", SUMMARY_COLUMN - 2, commands[i]->name);
        put_lines(out, commands[i]->summary, SUMMARY_COLUMN);
    }
    fputs(overview_tail, out);
}

void cli_print_page(FILE *out, const cli_command *c) {
    if (c->usage) fprintf(out, "usage: %s", c->usage);
    else put_usage(out, c);
    fprintf(out, "\n%s\noptions:\n", c->about);
    for (size_t i = 0; i < c->n_opts; i++) put_option(out, &c->opts[i]);
    if (c->after) fprintf(out, "\n%s", c->after);
}

void cli_print_option_list(FILE *out, const cli_command *c) {
    for (size_t i = 0; i < c->n_opts; i++) {
        const cli_opt *o = &c->opts[i];
        fprintf(out, "%s\t%s\t%s\n", o->name, o->alias ? o->alias : "-",
                o->value ? o->value : "-");
    }
}
