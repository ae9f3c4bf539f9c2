/* SPDX-License-Identifier: BSD-2-Clause */
/* The parser of options.h: one walk over argv, by the command's table. */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef enum { ARG_OPERAND, ARG_END, ARG_OPTION, ARG_UNKNOWN } arg_kind;

/* One argument as the walk reads it. */
typedef struct arg {
    arg_kind kind;
    char *text;              /* argv's */
    size_t name_len;         /* of the option's name: up to '=' */
    const cli_opt *opt;
    char *value;             /* the option's value; NULL: none */
    int inline_value;        /* given as --name=value */
} arg;

static const cli_opt *find_opt(const cli_command *cmd, const char *name, size_t len) {
    for (size_t i = 0; i < cmd->n_opts; i++) {
        const cli_opt *o = &cmd->opts[i];
        if ((strlen(o->name) == len && strncmp(o->name, name, len) == 0) ||
            (o->alias && strlen(o->alias) == len && strncmp(o->alias, name, len) == 0))
            return o;
    }
    return NULL;
}

/* Reads the argument at argv[*i], stepping *i past it and its value. A
 * value is the next argument whatever it is, as "-o -" needs. */
static void read_arg(const cli_command *cmd, int argc, char **argv, int *i, int *ended, arg *a) {
    memset(a, 0, sizeof *a);
    a->text = argv[(*i)++];
    const char *s = a->text;
    if (*ended || s[0] != '-' || s[1] == '\0') {
        a->kind = ARG_OPERAND;
        return;
    }
    if (strcmp(s, "--") == 0) {
        *ended = 1;
        a->kind = ARG_END;
        return;
    }
    char *eq = s[1] == '-' ? strchr(a->text, '=') : NULL;
    a->name_len = eq ? (size_t)(eq - s) : strlen(s);
    a->opt = find_opt(cmd, s, a->name_len);
    a->kind = a->opt ? ARG_OPTION : ARG_UNKNOWN;
    if (!a->opt) return;
    if (eq) {
        a->value = eq + 1;
        a->inline_value = 1;
    } else if (a->opt->value && *i < argc) {
        a->value = argv[(*i)++];
    }
}

/* Stores a's value (or flag) in its field; 0, or EXIT_USAGE with the
 * message naming WHO. */
static int take(const char *who, const arg *a, void *opts) {
    const cli_opt *o = a->opt;
    void *field = (char *)opts + o->offset;
    if (!o->value) {
        if (a->inline_value) return cli_usage_error(who, "%s takes no value", o->name);
        *(int *)field = 1;
        return 0;
    }
    if (!a->value) return cli_usage_error(who, "%s needs a value", o->name);
    if (!o->parse) {
        *(const char **)field = a->value;
        return 0;
    }
    if (o->parse(o, a->value, field)) return 0;
    if (o->must) return cli_usage_error(who, "%s needs %s", o->name, o->must);
    return cli_usage_error(who, "%s needs an integer in %llu..%llu", o->name,
                           (unsigned long long)o->min, (unsigned long long)o->max);
}

/* The subcommand argv[1] names (its index), or -1 after the usage error. */
static int subcommand(const cli_command *cmd, int argc, char **argv) {
    for (int k = 0; argc > 1 && cmd->subcommands[k]; k++)
        if (strcmp(argv[1], cmd->subcommands[k]) == 0) return k;
    char words[256] = "";
    size_t n = 0;
    for (int k = 0; cmd->subcommands[k] && n < sizeof words; k++)
        n += (size_t)snprintf(words + n, sizeof words - n, "%s'%s'",
                              k == 0 ? "" : cmd->subcommands[k + 1] ? ", " : " or ",
                              cmd->subcommands[k]);
    cli_usage_error(cmd->name, "give %s", words);
    return -1;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, void *opts, int *first_operand,
              uint64_t *given) {
    char who[64];  /* the command as its messages name it: "receipt seal" */
    int start = 1;
    unsigned mode = 0;
    snprintf(who, sizeof who, "%s", cmd->name);
    if (cmd->subcommands) {
        int k = subcommand(cmd, argc, argv);
        if (k < 0) return EXIT_USAGE;
        snprintf(who, sizeof who, "%s %s", cmd->name, cmd->subcommands[k]);
        mode = 1u << k;
        start = 2;
    }
    *given = 0;
    int n_operands = 0, ended = 0;
    for (int i = start; i < argc;) {
        arg a;
        read_arg(cmd, argc, argv, &i, &ended, &a);
        if (a.kind == ARG_END) continue;
        if (a.kind == ARG_UNKNOWN)
            return cli_usage_error(who, "unknown option '%.*s'", (int)a.name_len, a.text);
        if (a.kind == ARG_OPERAND) {
            /* Compacted in place: the slot written was read already. */
            argv[start + n_operands++] = a.text;
            continue;
        }
        /* One value an option: a second would silently replace the first
         * (--fallback A --fallback B routed to B alone). */
        if (a.opt->value && (*given >> (a.opt - cmd->opts) & 1))
            return cli_usage_error(who, "%s given twice: give it once", a.opt->name);
        int rc = take(who, &a, opts);
        if (rc != 0) return rc;
        *given |= (uint64_t)1 << (a.opt - cmd->opts);
    }
    memmove(argv + argc - n_operands, argv + start, (size_t)n_operands * sizeof *argv);
    *first_operand = argc - n_operands;
    return mode ? cli_check_modes(cmd, who, *given, mode, who) : 0;
}

int cli_given(const cli_command *cmd, uint64_t given, const char *name) {
    const cli_opt *o = find_opt(cmd, name, strlen(name));
    return o && (given >> (o - cmd->opts) & 1);
}

int cli_check_modes(const cli_command *cmd, const char *who, uint64_t given, unsigned mode,
                    const char *mode_name) {
    for (size_t i = 0; i < cmd->n_opts; i++) {
        const cli_opt *o = &cmd->opts[i];
        if ((given >> i & 1) && o->modes && !(o->modes & mode))
            return cli_usage_error(who, "%s is not an option of %s", o->name, mode_name);
    }
    return 0;
}

int cli_asks_help(const cli_command *cmd, int argc, char **argv) {
    int ended = 0;
    for (int i = 1; i < argc;) {
        arg a;
        read_arg(cmd, argc, argv, &i, &ended, &a);
        if (a.kind == ARG_UNKNOWN && (strcmp(a.text, "--help") == 0 || strcmp(a.text, "-h") == 0))
            return 1;
    }
    return 0;
}

int cli_take_u64(const cli_opt *opt, char *value, void *field) {
    uint64_t v;
    if (!cli_parse_u64(value, &v) || v < opt->min || v > opt->max) return 0;
    *(uint64_t *)field = v;
    return 1;
}

int cli_take_bytes(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    return cli_parse_bytes(value, (uint64_t *)field);
}

int cli_take_token(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    if (!value[0]) return 0;
    *(const char **)field = value;
    return 1;
}
