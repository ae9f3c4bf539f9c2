/* The neural integer decodes (WIH1, WIA1, WIS1) behind one interface, so
 * the public decoder and the declared-cost query share §7's order:
 *   parse (§2)                       wai_neural_parse
 *   step 1: the set's members        wai_set_check_members, then a loaded set
 *   steps 2-4: set x payload, plans  wai_neural_prepare (also the cost)
 *   cost limit                        the caller
 *   steps 5-6: streams, networks     wai_neural_run */
#ifndef WAI_DECODE_NEURAL_H
#define WAI_DECODE_NEURAL_H

#include "decode/int_audio.h"
#include "decode/int_hyper.h"
#include "decode/int_splat.h"
#include "formats/wih1.h"

typedef struct wai_neural {
    wai_format format;
    union {
        wai_wih1 wih1;
        wai_wia1 wia1;
        wai_wis1 wis1;
    } u;
    const wai_loaded_set *set;  /* borrowed, from prepare on */
    wai_hyper_plan hyper;       /* WIH1 */
    wai_plan plan;              /* WIA1, WIS1 */
    wai_cost cost;              /* from prepare on */
    wai_output_kind kind;
    uint32_t width, height;     /* image: pixels; pcm: t_out x 1; planes: s x s */
} wai_neural;

/* 1 for the formats this file decodes. */
int wai_neural_format(wai_format f);

/* The whole parse of data as format f (views into data). */
wai_status wai_neural_parse(wai_format f, const uint8_t *data, size_t len, wai_neural *n);

/* §7 steps 2 to 4 against l, then the declared cost into n->cost. */
wai_status wai_neural_prepare(const wai_allocator *a, const wai_loaded_set *l, wai_neural *n);

/* Steps 5 and 6 into out (n->cost.output_bytes bytes). */
wai_status wai_neural_run(const wai_allocator *a, const wai_kernels *k, wai_neural *n,
                          uint8_t *out);

/* Frees the plans (safe after any step). */
void wai_neural_release(const wai_allocator *a, wai_neural *n);

#endif
