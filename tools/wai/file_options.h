/* The options of the commands that read files and write one output (split,
 * join, convert, export, receipt): -o OUT, --max-memory N and -y (--force) always,
 * and the others a command names. Options may come before or after the
 * files; "--" ends them. */
#ifndef WAI_TOOLS_FILE_OPTIONS_H
#define WAI_TOOLS_FILE_OPTIONS_H

#include <stdint.h>

enum {
    FILE_OPT_CAPABILITY = 1,   /* --capability CAP */
    FILE_OPT_AUDIO = 2,        /* --audio FILE */
    FILE_OPT_SET = 4,          /* --set DIR */
    FILE_OPT_JSON = 8,         /* --json */
    FILE_OPT_SIGN = 16,        /* --key FILE, --id ID, --parent HASH, --powercap DIR */
    FILE_OPT_VERIFY = 32       /* --pubkey KEY, --source FILE */
};

typedef struct file_options {
    const char *out, *capability, *audio, *set_dir;
    const char *key, *id, *parent, *powercap, *pubkey, *source;
    uint64_t max_memory;       /* default CLI_DEFAULT_MAX_MEMORY */
    int force, json;
    int first, last;           /* the files: argv[first..last) */
} file_options;

/* Parses argv (permuting it, cli_permute); 0, or the usage error's exit
 * status with its message printed. The caller checks the file count and
 * that -o was given. */
int file_options_parse(const char *cmd, int argc, char **argv, unsigned extras, file_options *o);

#endif
