/* SPDX-License-Identifier: BSD-2-Clause */
/* What the whole-decode fuzz targets share: the small sets of the neural
 * corpus (embedded.h), built into wai_set objects, and one checked decode.
 *
 * A checked decode runs the payload through wai_declared_cost_set, then a
 * decoder on a context with the loaded-set cache (warm after the first
 * input), then a decoder on a context whose cache keeps nothing (cold), and
 * traps unless:
 *   - a refusal by the cost query (parse, §7 steps 1-4) is the decode's
 *     refusal too, and a cost it gives is the one the decode writes;
 *   - work above the limit is cost_over_limit, and nothing else is;
 *   - an accepted decode's outputs add up to the declared output bytes,
 *     each of the capability's kind with its shape (an image 3·w·h bytes;
 *     PCM 2·t_out bytes at the payload's sr; planes attr·s·s bytes whose
 *     side and count wai_splat_presentation gives);
 *   - the warm and the cold decode give the same status and the same bytes.
 * WIF1 and WCF1 inter frames (no group: refused) are decoded but not held
 * to the cost query, which costs them as frames of a group. */
#ifndef WAI_FUZZ_NEURAL_FIXTURE_H
#define WAI_FUZZ_NEURAL_FIXTURE_H

#include "wai/wai.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_set.h"

/* The work and working memory a fuzzed decode may declare (larger ones
 * stop at the limit, cost_over_limit). The fixtures' own decodes declare
 * at most 478,656 work and 32,640 bytes. Without a memory limit the
 * campaign's corpus drifted to set members whose networks write large
 * pictures for little work (libFuzzer counts a loop's trips as coverage):
 * fuzz_set_neural fell from 1,550 to under 300 executions a second, most
 * of it zeroing and interleaving megabytes. It drifts to the work limit as
 * well: at 2^22 (each input decoded twice, warm and cold) its corpus's
 * slowest inputs took 665 ms, and at 2^20 its 3,153-input corpus replayed
 * in 36 s; at 2^19, just above the fixtures' own, in 27 s, one edge fewer
 * (a dot product's split across threads, which diff tests hold). */
#define FIX_MAX_WORK ((uint64_t)1 << 19)
#define FIX_MAX_MEMORY ((uint64_t)1 << 22)

typedef enum fix_family {
    FIX_HYPER = 0,
    FIX_AUDIO,
    FIX_SPLAT,
    FIX_MLIC,
    FIX_COND,
    FIX_FAMILIES
} fix_family;

typedef struct fix_state {
    wai_context *warm, *cold;
    wai_set *sets[FIX_FAMILIES];   /* set0 of each family (WIM1: two_slices; WIC1 and
                                    * WCF1: six_frames), whole */
} fix_state;

/* The state, made on the first call (traps when it can't be). */
fix_state *fix_get(void);

/* The family whose set cap decodes against, or -1 (not a neural capability). */
int fix_family_of(const wai_capability *cap);

/* The family's set0 with member `name` replaced by data (name NULL: as it
 * is); the caller destroys it. */
wai_set *fix_set_with(wai_context *ctx, int family, const char *name, const uint8_t *data,
                      size_t len);

/* The checked decode (see above); returns the decode's status. */
wai_status fix_decode_checked(fix_state *s, const wai_capability *cap, const wai_set *set,
                              const uint8_t *data, size_t len);

#endif
