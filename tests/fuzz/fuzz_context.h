/* A context for one fuzz input. n_threads 1 for a target that decodes
 * nothing large: the library's pool starts its workers when the context is
 * made, and a thread made and joined per input cost fuzz_listing and
 * fuzz_receipt 90 % of their time. 0 takes every core, as a player would. */
#ifndef WAI_FUZZ_CONTEXT_H
#define WAI_FUZZ_CONTEXT_H

#include "wai/wai.h"

static inline wai_status fuzz_context(unsigned n_threads, wai_context **out) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = n_threads;
    return wai_context_create(&s, out);
}

#endif
