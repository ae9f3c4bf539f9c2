/* The neural integer decodes (WIH1, WIA1, WIS1, and a WIV1 clip or WIF1
 * intra frame with keyframe 1, whose frame 0 is a nested WIH1's decode)
 * behind one interface, so
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
#include "decode/int_motion.h"
#include "formats/wih1.h"

typedef struct wai_neural {
    wai_format format;
    union {
        wai_wih1 wih1;
        wai_wia1 wia1;
        wai_wis1 wis1;
        wai_wiv1 wiv1;           /* keyframe 1 */
        wai_wif1 wif1;           /* an intra frame with keyframe 1 */
    } u;
    const wai_wih1 *key;        /* the WIH1 the networks decode (WIH1 and video) */
    const wai_loaded_set *set;  /* borrowed, from prepare on */
    wai_hyper_plan hyper;       /* WIH1 */
    wai_plan plan;              /* WIA1, WIS1 */
    wai_cost cost;              /* from prepare on */
    wai_output_kind kind;
    uint32_t width, height;     /* image: pixels; pcm: t_out x 1; planes: s x s */
} wai_neural;

/* 1 for the capabilities whose payloads this file decodes (for the frame
 * form with keyframe 1, its intra frames: wai_neural_frame_is_intra). */
int wai_neural_capability(const wai_capability *cap);

/* The format of the set a capability decodes against (WIH1 for video). */
wai_format wai_neural_set_format(const wai_capability *cap);

/* The whole parse of data as cap's payload (views into data). */
wai_status wai_neural_parse(const wai_capability *cap, const uint8_t *data, size_t len,
                            wai_neural *n);

/* §7 steps 2 to 4 against l, then the declared cost into n->cost. */
wai_status wai_neural_prepare(const wai_allocator *a, const wai_loaded_set *l, wai_neural *n);

/* Steps 5 and 6 into out (n->cost.output_bytes bytes). A WIV1 clip: every
 * frame, the keyframe first (reading N5: in full before the residual
 * stream). A WIF1 intra frame: the keyframe's decode, which the caller
 * makes its group's frame. ex: the allocator, and the threads the
 * networks' kernels may use (the bits do not depend on them). */
wai_status wai_neural_run(const wai_exec *ex, const wai_kernels *k, wai_neural *n, uint8_t *out);

/* Frees the plans (safe after any step). */
void wai_neural_release(const wai_allocator *a, wai_neural *n);

#endif
