/* The functions web/dist/wai.wasm exports (wai_web.c), as JavaScript calls
 * them (web/src/wasm.js): pointers and sizes are numbers, 64-bit limits
 * BigInts, strings NUL-terminated UTF-8 in the module's memory. Every
 * result is a JSON text and a buffer of output bytes. */
#ifndef WAI_WEB_GLUE_H
#define WAI_WEB_GLUE_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"
#include "wai/wai_set.h"

typedef struct wai_web_result wai_web_result;
typedef struct wai_web_decoder wai_web_decoder;

void *wai_web_alloc(size_t n);
void wai_web_free(void *p);

wai_context *wai_web_context_create(void);
void wai_web_context_destroy(wai_context *c);
wai_set *wai_web_set_create(wai_context *ctx);
int wai_web_set_add(wai_set *s, const char *name, const uint8_t *data, size_t len);
void wai_web_set_destroy(wai_set *s);
const char *wai_web_status_name(int st);

const char *wai_web_result_json(const wai_web_result *r);
const uint8_t *wai_web_result_data(const wai_web_result *r);
size_t wai_web_result_size(const wai_web_result *r);
void wai_web_result_free(wai_web_result *r);

wai_web_decoder *wai_web_decoder_create(wai_context *ctx, const char *capability,
                                        const wai_set *set, uint64_t max_cost,
                                        uint64_t max_memory, const char *intent,
                                        const char *pin_tier, const char *offer);
int wai_web_decoder_status(const wai_web_decoder *h);
void wai_web_decoder_destroy(wai_web_decoder *h);
wai_web_result *wai_web_decoder_send(wai_web_decoder *h, const uint8_t *payload, size_t len);

wai_web_result *wai_web_inspect(wai_context *ctx, const char *capability, const wai_set *set,
                                const uint8_t *payload, size_t len);
wai_web_result *wai_web_capabilities(void);

/* float_path.c: a float capability's entropy stage and dispatch, for a
 * page whose WebNN runs the networks. */
wai_web_result *wai_web_symbols(wai_context *ctx, const char *capability, const wai_set *set,
                                const uint8_t *payload, size_t len, uint64_t max_cost,
                                uint64_t max_memory);
wai_web_result *wai_web_dispatch(const char *capability, const char *intent, const char *pin_tier,
                                 const char *offer, const int32_t *answers, size_t n_answers);

#endif
