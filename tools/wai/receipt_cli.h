/* SPDX-License-Identifier: BSD-2-Clause */
/* What `wai receipt seal` shares with `wai encode --receipt`
 * (cmd_receipt.c): a signer from --key and --id, and a receipt written as
 * its JSON form. The functions only where libwai_ed25519 was built. */
#ifndef WAI_TOOLS_RECEIPT_CLI_H
#define WAI_TOOLS_RECEIPT_CLI_H

#include "cli.h"

/* --key KEY, --id ID, --parent HASH and --powercap DIR. */
typedef struct receipt_sign_opts {
    const char *key, *id, *parent, *powercap;
} receipt_sign_opts;

#if defined(WAI_HAVE_ED25519)

#include "wai/wai_ed25519.h"

/* The signing key of o->key, its signer with o->id, and o->parent read
 * into parent (*has_parent: parent, or NULL without one); 0, or an exit
 * status with the message printed. */
int receipt_signer(const char *cmd, const receipt_sign_opts *o, wai_ed25519_key *key,
                   wai_receipt_signer *s, uint8_t parent[32], const uint8_t **has_parent);

/* A figure and its class in a line, or "unmetered" and why. */
void receipt_print_energy(FILE *out, const wai_energy *e, const char *why);

/* Writes r's JSON form to OUT; 0, or an exit status. */
int receipt_write(const char *cmd, wai_context *ctx, const wai_receipt *r, const char *out,
                  cli_inputs *inputs);

#endif
#endif
