/* The decode both WIA1 (§5) and WIS1 (§6) are: one latent stream, one
 * synthesis network, one step from its output to the output's bytes. What
 * differs (how the latent's channels are coded, the last step) is each
 * format's, passed in; the order, the buffers and the declared working
 * bytes are written here once. */
#ifndef WAI_DECODE_ONE_NETWORK_H
#define WAI_DECODE_ONE_NETWORK_H

#include "common/exec.h"
#include "ops/network.h"
#include "sets/loaded.h"
#include "wai/wai_decode.h"

/* The cost of such a decode: entropy steps the latent's n_lat symbols,
 * macs the synthesis's, and working bytes 8 per element of the latent and
 * of the synthesis's output, plus the synthesis's working bytes, plus the
 * output_bytes of the output. */
void wai_one_network_cost(uint64_t n_lat, const wai_plan *p, uint64_t output_bytes, wai_cost *c);

/* What a format supplies: its latent's decode into lat (n_lat i64) and its
 * last step from the network's output y (p->out_elems) into out. */
typedef struct wai_one_network {
    const void *arg;
    wai_status (*latent)(const void *arg, const wai_allocator *a, int64_t *lat);
    wai_status (*finish)(const void *arg, const int64_t *y, uint8_t *out);
} wai_one_network;

/* The latent, the network net planned as p, the last step into out. */
wai_status wai_one_network_run(const wai_exec *ex, const wai_kernels *k, const wai_net *net,
                               const wai_plan *p, size_t n_lat, const wai_one_network *f,
                               uint8_t *out);

#endif
