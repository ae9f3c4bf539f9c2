/* SPDX-License-Identifier: BSD-2-Clause */
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

wai_context *wai_web_context_create(int level, unsigned threads);
int wai_web_worker_serve(wai_context *c);
unsigned wai_web_context_threads(const wai_context *c);
int wai_web_context_cpu_level(const wai_context *c);
void wai_web_context_destroy(wai_context *c);
wai_set *wai_web_set_create(wai_context *ctx);
int wai_web_set_add(wai_set *s, const char *name, const uint8_t *data, size_t len);
int wai_web_set_pin(wai_set *s, const uint8_t *sha256);
void wai_web_set_destroy(wai_set *s);
const char *wai_web_status_name(int st);
const char *wai_web_status_meaning(int st);

const char *wai_web_result_json(const wai_web_result *r);
const uint8_t *wai_web_result_data(const wai_web_result *r);
size_t wai_web_result_size(const wai_web_result *r);
void wai_web_result_free(wai_web_result *r);

wai_web_decoder *wai_web_decoder_create(wai_context *ctx, const char *capability,
                                        const wai_set *set, uint64_t max_cost,
                                        uint64_t max_memory, const char *intent,
                                        const char *pin_tier, const char *offer, int streaming);
int wai_web_decoder_status(const wai_web_decoder *h);
void wai_web_decoder_destroy(wai_web_decoder *h);
wai_web_result *wai_web_decoder_send(wai_web_decoder *h, const uint8_t *payload, size_t len);
int wai_web_decoder_start(wai_web_decoder *h, const uint8_t *payload, size_t len, uint64_t start);
wai_web_result *wai_web_decoder_next(wai_web_decoder *h);

wai_web_result *wai_web_inspect(wai_context *ctx, const char *capability, const wai_set *set,
                                const uint8_t *payload, size_t len);
wai_web_result *wai_web_capabilities(const wai_context *ctx);

/* gpu_path.c: a context whose integer networks the page's WebGPU runs
 * (gpu/wgsl/integer, docs/wgsl.md). */
wai_context *wai_web_context_create_gpu(void);

/* js_backends.c: the float paths whose networks the host's JavaScript
 * computes (the browser's WebNN, ONNX Runtime in node), as registered
 * backends of a context decoded through with JSPI, or step by step. */
wai_context *wai_web_context_create_float(void);
typedef struct wai_web_steps wai_web_steps;
wai_web_steps *wai_web_steps_open(wai_context *ctx, const char *capability, const wai_set *set,
                                  const uint8_t *payload, size_t len, uint64_t max_cost,
                                  uint64_t max_memory, const char *intent, const char *pin_tier,
                                  const char *offer);
wai_web_result *wai_web_steps_call(const wai_web_steps *h);
int wai_web_steps_resume(wai_web_steps *h, int result);
wai_web_result *wai_web_steps_close(wai_web_steps *h);

#endif
