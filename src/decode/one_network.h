/* SPDX-License-Identifier: BSD-2-Clause */
/* The decode both WIA1 (§5) and WIS1 (§6) are: one latent stream, one
 * synthesis network, one step from its output to the output's bytes. Their
 * codec steps (decode/codec.h) are written here once; what differs (the
 * header, the §7 checks of it against the set, how the latent's channels
 * are coded, the last step) is each format's, given as a
 * wai_one_network_format that its codec's ops point at (ops->impl). */
#ifndef WAI_DECODE_ONE_NETWORK_H
#define WAI_DECODE_ONE_NETWORK_H

#include "common/text.h"
#include "decode/codec.h"
#include "ops/network.h"
#include "sets/loaded.h"

/* The most bytes a format's parsed header may take in a job. */
#define WAI_ONE_NETWORK_HEADER_MAX 256

typedef struct wai_one_network_format {
    size_t header_bytes; /* its parsed header's size */
    wai_status (*parse)(const uint8_t *data, size_t len, void *header);
    /* §7 steps 2 to 4: the header against l, the network planned into p
     * (empty on failure). */
    wai_status (*prepare)(const wai_allocator *a, const wai_loaded_set *l, const void *header,
                          wai_plan *p);
    /* The latent's element count; the output's bytes, and its width,
     * height and sample rate into j. */
    uint64_t (*shape)(const void *header, uint64_t *output_bytes, wai_job *j);
    /* The latent's decode into lat (its element count of i64). */
    wai_status (*latent)(const void *header, const wai_allocator *a, int64_t *lat);
    /* The last step from the network's output y (p->out_elems) into out. */
    wai_status (*finish)(const void *header, const int64_t *y, uint8_t *out);
    void (*describe)(const void *header, wai_text *t);
} wai_one_network_format;

/* The codec steps of such a format. The declared cost: entropy steps the
 * latent's symbols, macs the network's, and working bytes 8 per element of
 * the latent and of the network's output, plus the network's working
 * bytes, plus the output. */
wai_status wai_one_network_parse(wai_job *j, const uint8_t *data, size_t len);
wai_status wai_one_network_prepare(wai_job *j, const wai_allocator *a);
wai_status wai_one_network_run(wai_job *j, const wai_exec *ex, uint8_t *out);
void wai_one_network_release(wai_job *j, const wai_allocator *a);
void wai_one_network_describe(const wai_job *j, wai_text *t);

/* Such a codec's set: its row's one member, parsed as a network of dims
 * (2: WHM1, 1: WAM1) with its scale (1..30, model_mismatch), as the loaded
 * set's own object; and that network. */
wai_status wai_one_network_load(const wai_allocator *a, const wai_set *set, const char *member,
                                int dims, wai_loaded_set *l);
static inline const wai_net *wai_one_network_net(const wai_loaded_set *l) {
    return WAI_LOADED(l, wai_net);
}

/* A codec's ops for format f (an object of static storage). */
#define WAI_ONE_NETWORK_OPS(f)                                                       \
    {.parse = wai_one_network_parse,                                                 \
     .prepare = wai_one_network_prepare,                                             \
     .run = wai_one_network_run,                                                     \
     .release = wai_one_network_release,                                             \
     .describe = wai_one_network_describe,                                           \
     .impl = &(f)}

#endif
