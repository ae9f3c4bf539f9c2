/* SPDX-License-Identifier: BSD-2-Clause */
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

/* The context a target keeps for the life of the process, one for each
 * n_threads (0 or 1), as a player holds one across decoders. A context of
 * every core made and destroyed per input spent 60 % of fuzz_wiv1's time
 * mapping and unmapping its workers' stacks (~1.1k executions a second);
 * held, the pool's threads start once. Its decoders are per input, so an
 * input still starts from nothing. Never freed: it stays reachable. */
static inline wai_context *fuzz_held_context(unsigned n_threads) {
    static wai_context *held[2];
    unsigned i = n_threads == 0 ? 0 : 1;
    if (!held[i] && fuzz_context(i == 0 ? 0 : 1, &held[i]) != WAI_ok) __builtin_trap();
    return held[i];
}

#endif
