/* SPDX-License-Identifier: BSD-2-Clause */
/* --set DIR and --pin SHA256: a parameter set read from a directory. */
#ifndef WAI_TOOLS_CLI_SET_H
#define WAI_TOOLS_CLI_SET_H

#include "wai/wai_format.h"
#include "wai/wai_set.h"

#include "cli.h"

/* A set read from a directory: the wai_set, and the files it borrows. */
typedef struct cli_set {
    wai_set *set;           /* NULL: no --set and no --pin */
    cli_file files[8];   /* the set's members, then its backends' programs */
    size_t n_files;
    uint64_t bytes;         /* the members' bytes, held while the set lives */
} cli_set;

/* Reads DIR/NAME for every member NAME cap's set has (§9), each once, into
 * memory the set borrows (wai_set_add_borrowed: no second copy); a member
 * whose file does not exist is left out, so the decode reports
 * set_incomplete. The members together are at most max_bytes (the memory
 * limit): one past it is refused before it is read, as a FIFO or device
 * is (cli_read). Each file read is recorded in inputs. A pin (64 hex
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

/* A context (s NULL: the defaults) with every backend this build has
 * registered: the native WebNN (libwai_webnn's cpu/webnn/float) beside
 * libwai's own integer interpreter. */
wai_status cli_context_create(const wai_settings *s, wai_context **out);

#endif
