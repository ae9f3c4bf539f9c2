/* SPDX-License-Identifier: BSD-2-Clause */
/* int_synth's transposed convolution (synth_convt.h).
 *
 * Output (oy, ox) of the uncropped plane is (oy + pad, ox + pad); input row
 * iy reaches uncropped row u through tap ky = u - iy·stride when 0 <= ky <
 * k. So the rows feeding u are iy = (u - ky) / stride for the ky with
 * (u - ky) divisible by stride, 0 <= iy < n; columns alike. */
#include "ops/synth_convt.h"

#include "common/checked.h"

uint64_t wai_synth_out_side(const wai_synth_layer *l, uint64_t n) {
    return (n - 1) * l->stride + l->k + l->out_pad - 2 * (uint64_t)l->pad;
}

int64_t wai_floor_shift_i64(int64_t v, uint32_t s) {
    if (v >= 0) return s >= 63 ? 0 : v >> s;
    /* -(|v| - 1) >> s, less one: floor for negatives without shifting one. */
    const uint64_t u = (uint64_t)(-(v + 1));
    return -(int64_t)(s >= 64 ? 0 : u >> s) - 1;
}

typedef struct job {
    const wai_synth_layer *l;
    const int64_t *in;
    uint32_t n, m;
    int64_t *out;
    unsigned shares;
} job;

static void run_share(void *arg, unsigned share) {
    const job *j = arg;
    const wai_synth_layer *l = j->l;
    const uint64_t n = j->n, m = j->m, k = l->k, s = l->stride, kk = k * k;
    const uint32_t o0 = (uint32_t)((uint64_t)l->out * share / j->shares);
    const uint32_t o1 = (uint32_t)((uint64_t)l->out * (share + 1) / j->shares);
    for (uint32_t o = o0; o < o1; o++) {
        int64_t *plane = j->out + (uint64_t)o * m * m;
        for (uint64_t oy = 0; oy < m; oy++) {
            const uint64_t uy = oy + l->pad;
            for (uint64_t ox = 0; ox < m; ox++) {
                const uint64_t ux = ox + l->pad;
                int64_t acc = 0;
                for (uint64_t ky = uy % s; ky < k && ky <= uy; ky += s) {
                    const uint64_t iy = (uy - ky) / s;
                    if (iy >= n) continue;
                    for (uint64_t kx = ux % s; kx < k && kx <= ux; kx += s) {
                        const uint64_t ix = (ux - kx) / s;
                        if (ix >= n) continue;
                        for (uint32_t i = 0; i < l->in; i++)
                            acc += (int64_t)l->weight[((uint64_t)i * l->out + o) * kk + ky * k + kx] *
                                   j->in[((uint64_t)i * n + iy) * n + ix];
                    }
                }
                int64_t y = wai_floor_shift_i64(acc + l->bias[o], l->shift);
                plane[oy * m + ox] = l->relu && y < 0 ? 0 : y;
            }
        }
    }
}

void wai_synth_convt(const wai_exec *ex, const wai_synth_layer *l, const int64_t *in, uint32_t n,
                     int64_t *out) {
    job j = {l, in, n, (uint32_t)wai_synth_out_side(l, n), out, 1};
    unsigned t = wai_exec_threads(ex);
    j.shares = t < l->out ? t : l->out;
    wai_exec_run(ex, j.shares, run_share, &j);
}
