/* SPDX-License-Identifier: BSD-2-Clause */
/* --set DIR and --pin SHA256: a parameter set read from a directory. */
#ifndef WAI_TOOLS_CLI_SET_H
#define WAI_TOOLS_CLI_SET_H

#include <stdio.h>

#include "wai/wai_format.h"
#include "wai/wai_set.h"

#include "cli.h"

/* A set read from a directory: the wai_set, and the files it borrows. */
typedef struct cli_set {
    wai_set *set;           /* NULL: no --set and no --pin */
    cli_file *files;        /* the set's members, its backends' programs, and
                             * with a listing every file it names */
    size_t n_files, cap_files;
    uint64_t bytes;         /* the members' bytes, held while the set lives */
    const char *dir;        /* --set DIR, or NULL */
    int pinned;
    uint8_t pin[32];
    char tier[32];          /* the tier the pin states (":tier=TOKEN"), or "" */
    /* A member past the memory limit with those before it: not read, and
     * the decode is refused cost_over_limit, which routes (L6). */
    const char *over_limit;  /* over_name, or NULL */
    char over_name[256];
    uint64_t over_size;
} cli_set;

/* Reads DIR/NAME for every member NAME cap's set has (§9), the programs its
 * backends read and, when DIR holds a listing.json, every file that names
 * (L5a: a listed set is checked whole), each once, into
 * memory the set borrows (wai_set_add_borrowed: no second copy); a member
 * whose file does not exist is left out, so the decode reports
 * set_incomplete. The members together are at most max_bytes (the memory
 * limit): the first past it is not read, and out->over_limit names it
 * (the caller refuses the decode cost_over_limit). A FIFO or device is
 * refused as cli_read refuses it. Each file read is recorded in inputs. A pin (64 hex
 * digits, or NULL) is attached. Returns 0 with *out filled (out->set NULL
 * when dir and pin are NULL), or prints the problem and returns EXIT_USAGE,
 * naming COMMAND. */
int cli_load_set(const char *command, wai_context *ctx, const wai_capability *cap,
                 const char *dir, const char *pin, uint64_t max_bytes, cli_inputs *inputs,
                 cli_set *out);
/* The same with the encoder's members too (wai_capability_encoder_members),
 * and no pin. */
int cli_load_encoder_set(const char *command, wai_context *ctx, const wai_capability *cap,
                         const char *dir, uint64_t max_bytes, cli_inputs *inputs, cli_set *out);
void cli_set_free(cli_set *s);

/* After a decode against s was refused set_incomplete or cost_over_limit:
 * "; " and why, in words (a member missing, a file unlisted or not as
 * listed, a pin that is not the listing's SHA-256, a member past the
 * limit), to f. Returns 0, having printed nothing, when it finds no
 * reason. */
int cli_set_explain(const cli_set *s, const wai_capability *cap, FILE *f);

/* Whether DIR/NAME may be read as a member: a regular file, or a link to
 * a name in the same folder (through at most a few such links). A link
 * whose target holds a '/' may leave the set, where no listing or pin
 * vouches for what it reads: 0, after saying so on stderr, naming COMMAND.
 * Every reader of a set's folder (--set, wai set list and pin) asks. */
int cli_set_member_stays(const char *command, const char *dir, const char *name);

/* A context (s NULL: the defaults) with every backend this build has
 * registered: the native WebNN (libwai_webnn's cpu/webnn/float) beside
 * libwai's own integer interpreter. */
wai_status cli_context_create(const wai_settings *s, wai_context **out);

#endif
