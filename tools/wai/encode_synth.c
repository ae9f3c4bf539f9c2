/* SPDX-License-Identifier: BSD-2-Clause */
/* wai encode of wai.neural.int_synth (format int_synth): latents to the
 * §13 payload. An int_synth payload is its latents (integer-payloads §13),
 * so encoding is writing them behind the 12-byte header:
 *
 *   wai encode --capability wai.neural.int_synth --size HxW [--set DIR]
 *              LATENTS -o OUT
 *
 * LATENTS is a NumPy .npy of int8 [C, S, S] or [1, C, S, S] (C-order), or
 * raw signed bytes in CHW order with --channels C. S must be a power of
 * two. With --set, the payload is checked against the set (the decode's
 * planning: the set's network must make an H x W picture from this
 * latent), and its declared cost printed. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_set.h"
#include "encode.h"
#include "wai/wai_decode.h"

int encode_take_size(const cli_opt *opt, char *value, void *field) {
    (void)opt;
    encode_size *size = field;
    char buf[64];
    size_t n = strlen(value);
    if (n >= sizeof buf) return 0;
    memcpy(buf, value, n + 1);
    char *x = strchr(buf, 'x');
    if (x) *x = '\0';
    if (!cli_parse_u64(buf, &size->h) || size->h < 1 || size->h > UINT32_MAX) return 0;
    if (!x) {
        size->w = size->h;
        return 1;
    }
    return cli_parse_u64(x + 1, &size->w) && size->w >= 1 && size->w <= UINT32_MAX;
}

/* A .npy file's int8 array: *dims its shape (at most 4), *data its bytes. */
static int read_npy(const cli_file *f, uint64_t dims[4], int *ndim, const uint8_t **data,
                    size_t *len) {
    const uint8_t *b = f->data;
    if (f->len < 10 || memcmp(b, "\x93NUMPY", 6) != 0) return 0;
    size_t hl, at;
    if (b[6] == 1) hl = (size_t)b[8] | (size_t)b[9] << 8, at = 10;
    else if (f->len >= 12 && (b[6] == 2 || b[6] == 3))
        hl = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24, at = 12;
    else return 0;
    if (hl > f->len - at) return 0;
    char head[512];
    if (hl >= sizeof head) return 0;
    memcpy(head, b + at, hl);
    head[hl] = '\0';
    if (!strstr(head, "'descr': '|i1'") && !strstr(head, "'descr': '<i1'")) return 0;
    if (!strstr(head, "'fortran_order': False")) return 0;
    const char *sh = strstr(head, "'shape': (");
    if (!sh) return 0;
    sh += 10;
    *ndim = 0;
    while (*sh && *sh != ')') {
        char *end;
        unsigned long long v = strtoull(sh, &end, 10);
        if (end == sh || *ndim == 4) return 0;
        dims[(*ndim)++] = v;
        sh = end;
        while (*sh == ',' || *sh == ' ') sh++;
    }
    *data = b + at + hl;
    *len = f->len - at - hl;
    return 1;
}

static int usage(const char *why) { return cli_usage_error("encode", "%s", why); }

int encode_latents(const wai_capability *cap, const encode_options *o, char **in, int n_in) {
    if (n_in > 1) return usage("give one LATENTS file");
    if (n_in == 0 || !o->out || !o->size.h)
        return cli_usage_error("encode", "for %s: --size HxW LATENTS -o OUT (LATENTS: .npy int8 "
                               "[C, S, S], or raw bytes with --channels C)", cap->name);
    cli_inputs inputs;
    cli_inputs_init(&inputs, o->force);
    cli_file f;
    cli_read_opts ro = {(uint64_t)12 + ((uint64_t)1 << 26) + 4096, "a latent of at most 2^26 values",
                        0, NULL, &inputs};
    int rc = EXIT_USAGE;
    uint8_t *payload = NULL;
    if (cli_read("encode", in[0], &ro, &f) != 0) goto out;
    uint64_t dims[4] = {0}, channels = o->channels;
    int nd = 0;
    const uint8_t *lat;
    size_t n;
    if (read_npy(&f, dims, &nd, &lat, &n)) {
        if (nd == 4 && dims[0] == 1) dims[0] = dims[1], dims[1] = dims[2], dims[2] = dims[3], nd = 3;
        if (nd != 3 || dims[1] != dims[2]) {
            rc = usage("the .npy array is not [C, S, S] or [1, C, S, S]");
            goto free_in;
        }
        channels = dims[0];
    } else if (channels) {
        lat = f.data, n = f.len;
        uint64_t per = n / channels, s = 1;
        while (s * s < per) s++;
        if (n % channels || s * s != per) {
            rc = usage("raw latents: the bytes are not C x S x S");
            goto free_in;
        }
        dims[1] = s;
    } else {
        rc = usage("LATENTS is not an int8 .npy; for raw bytes give --channels C");
        goto free_in;
    }
    uint64_t s_log2 = 0;
    while (((uint64_t)1 << s_log2) < dims[1]) s_log2++;
    if (((uint64_t)1 << s_log2) != dims[1] || channels < 1 || channels > 65535 ||
        n != channels * dims[1] * dims[1]) {
        rc = usage("the latent's side must be a power of two and C in 1..65535, C x S x S values");
        goto free_in;
    }
    size_t len = 12 + n;
    if (!(payload = malloc(len))) goto free_in;
    for (int i = 0; i < 4; i++)
        payload[i] = (uint8_t)(o->size.h >> (8 * i)), payload[4 + i] = (uint8_t)(o->size.w >> (8 * i));
    payload[8] = (uint8_t)channels, payload[9] = (uint8_t)(channels >> 8);
    payload[10] = (uint8_t)s_log2, payload[11] = 0;
    memcpy(payload + 12, lat, n);
    wai_status st = wai_check_payload(cap, payload, len, NULL);
    if (st == WAI_ok && o->set_dir) {
        wai_context *ctx;
        cli_set set;
        if (cli_context_create(NULL, &ctx) != WAI_ok) goto free_in;
        if (cli_load_set("encode", ctx, cap, o->set_dir, NULL, CLI_DEFAULT_MAX_MEMORY, &inputs, &set) != 0) {
            wai_context_destroy(ctx);
            goto free_in;
        }
        wai_cost c;
        st = wai_declared_cost_set(ctx, cap->name, set.set, payload, len, &c);
        if (st == WAI_ok)
            fprintf(stderr, "checked against %s: %llu MACs, %llu output bytes\n", o->set_dir,
                    (unsigned long long)c.macs, (unsigned long long)c.output_bytes);
        cli_set_free(&set);
        wai_context_destroy(ctx);
    }
    if (st != WAI_ok) {
        fprintf(stderr, "wai encode: refused: %s%s\n", cli_explained(st),
                o->set_dir ? " (does the set make an HxW picture from this latent?)" : "");
        rc = EXIT_REFUSED;
        goto free_in;
    }
    cli_out_file out;
    if (cli_out_open("encode", o->out, &inputs, &out) != 0) goto free_in;
    if (fwrite(payload, 1, len, out.f) != len) {
        cli_out_discard(&out);
        goto free_in;
    }
    rc = cli_out_commit("encode", &out) == 0 ? EXIT_DONE : EXIT_USAGE;
    if (rc == EXIT_DONE)
        fprintf(stderr, "wrote %s: %llux%llu from [%llu, %llu, %llu] latents, %zu bytes\n", o->out,
                (unsigned long long)o->size.h, (unsigned long long)o->size.w,
                (unsigned long long)channels,
                (unsigned long long)dims[1], (unsigned long long)dims[1], len);
free_in:
    cli_file_free(&f);
out:
    free(payload);
    cli_inputs_free(&inputs);
    return rc;
}
