/* --set DIR and --pin SHA256: a parameter set read from a directory. */
#ifndef WAI_TOOLS_CLI_SET_H
#define WAI_TOOLS_CLI_SET_H

#include "wai/wai_format.h"
#include "wai/wai_set.h"

/* Reads DIR/NAME for every member NAME cap's set has (§9); a member whose
 * file does not exist is left out, so the decode reports set_incomplete. A
 * pin (64 hex digits, or NULL) is attached. Returns 0 with *out set (NULL
 * when dir is NULL and pin is NULL), or prints the problem and returns
 * EXIT_USAGE, naming COMMAND (a pin that is not 64 hex digits, a file that cannot be
 * read). */
int cli_load_set(const char *command, wai_context *ctx, const wai_capability *cap,
                 const char *dir, const char *pin, wai_set **out);

#endif
