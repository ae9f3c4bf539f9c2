/* SPDX-License-Identifier: BSD-2-Clause */
/* A learned capability's parameter set opened as its decode opens it, for
 * the other side of the codec: one of its networks run on its own with the
 * decoder's integer arithmetic, and its entropy tables read by §9's rules.
 * An encoder that codes a latent against these gets the scales and tables
 * every decoder forms (libwai_write's WIH1 encoder runs h_s and codes both
 * streams through this header alone); a tool can probe one network.
 *
 * Opening checks the set as the capability's decode does (§7 step 1: its
 * members in §9's order, the listing, the pin; step 2: every member parsed
 * and lowered, one afrac) through the context's loaded-set cache, with the
 * decode's refusals: unsupported_capability for a capability this build
 * does not decode, set_incomplete, model_mismatch. A handle borrows ctx and
 * the set's bytes until it is closed. Core library, libc only. */
#ifndef WAI_WAI_NETWORK_H
#define WAI_WAI_NETWORK_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"
#include "wai/wai_set.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- one network ---------------------------------------------------------- */

typedef struct wai_set_network wai_set_network;

/* Member names. A member the capability's set reads ("h_s.whm",
 * "entropy.json"), or one section of a bundle member, the set's one file of
 * sections (integer-payloads §14, §17.3), as "MEMBER#SECTION":
 *   model.wmb (WMB1, wai.neural.int_mlicpp): #h_s, #entropy, #g_s (networks),
 *     #tables (the tables, read by §14's rules: an afrac member, E1's t2
 *     tables, at most 65536 edges)
 *   model.wcb (WCB1, wai.video.int_cond): #ctx, #prior, #dec, #recon
 *     (networks), #tables (§17.3's rules)
 * A bundle named without a section, or with one it does not have, is
 * invalid_argument (once the whole set passed). */

/* Opens member (a network the capability's set reads: a WHM1 member, such as
 * int_hyper's "h_s.whm", or a bundle's network section, "model.wmb#h_s")
 * once the whole set passed. invalid_argument for a NULL argument or a
 * member the capability does not read as a network. */
WAI_API wai_status wai_set_network_create(wai_context *ctx, const char *capability,
                                        const wai_set *set, const char *member,
                                        wai_set_network **out);
WAI_API void wai_set_network_destroy(wai_set_network *n);

/* The set's one fixed-point scale: a value v stands for v / 2^afrac. */
WAI_API uint32_t wai_set_network_afrac(const wai_set_network *n);

/* Plans the network on an input of in[0] channels, in[1] rows, in[2]
 * columns, by the decode's rules (N6: too_large past §7's caps,
 * model_mismatch for a shape a layer refuses), and gives its output's
 * shape in out. The plan is kept for the runs that follow. */
WAI_API wai_status wai_set_network_plan(wai_set_network *n, const uint32_t in[3],
                                        uint32_t out[3]);

/* The planned network on input (in[0]·in[1]·in[2] values, channel after
 * channel, at 2^afrac) into output (out's product of values), with the
 * context's kernels and threads: the bits a decode's run gives.
 * invalid_argument before a plan; the layers' refusals as a decode's. */
WAI_API wai_status wai_set_network_run(wai_set_network *n, const int64_t *input,
                                       int64_t *output);

/* ---- entropy tables ------------------------------------------------------- */

typedef struct wai_set_tables wai_set_tables;

/* Opens member (an entropy.json the capability's set reads, read by §9's
 * rules, or a bundle's tables section, "model.wmb#tables", read by its
 * bundle's) once the whole set passed. invalid_argument as above. */
WAI_API wai_status wai_set_tables_create(wai_context *ctx, const char *capability,
                                       const wai_set *set, const char *member,
                                       wai_set_tables **out);
WAI_API void wai_set_tables_destroy(wai_set_tables *t);

/* Which of a set's tables. */
typedef enum wai_table_kind {
    WAI_TABLE_LATENT = 0,  /* the latent's, one per scale bucket (E3) */
    WAI_TABLE_HYPER = 1    /* the hyper-latent's, one per channel */
} wai_table_kind;

/* One table: a CDF of len entries (0 first, 65536 last, increasing) whose
 * symbol 0 is value offset; a hyper-latent table's channel median at
 * 2^afrac (0 for a latent table). cdf is the handle's until it closes. */
typedef struct wai_set_table {
    const uint32_t *cdf;
    uint32_t len;
    int32_t offset;
    int64_t median;
    uint32_t reserved[4];  /* written zero: room to grow */
} wai_set_table;

/* The number of tables of a kind (0 for a NULL handle). */
WAI_API size_t wai_set_tables_count(const wai_set_tables *t, wai_table_kind kind);

/* Table i of a kind into *out; invalid_argument past the count. */
WAI_API wai_status wai_set_tables_at(const wai_set_tables *t, wai_table_kind kind, size_t i,
                                     wai_set_table *out);

/* E3: the latent table a scale sigma (at 2^afrac) is coded against, the
 * bucket every decoder picks. */
WAI_API size_t wai_set_tables_bucket(const wai_set_tables *t, int64_t sigma);

#ifdef __cplusplus
}
#endif

#endif
