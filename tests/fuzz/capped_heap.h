/* SPDX-License-Identifier: BSD-2-Clause */
/* An allocator with a ceiling for the fuzz targets (not itself a target:
 * check.sh takes every fuzz_*.c for one): an input may ask the
 * library for any size; past the ceiling it sees out_of_memory, as it
 * would on a small device. live says what is still held (0 at the end: no
 * leak). */
#ifndef WAI_FUZZ_CAPPED_HEAP_H
#define WAI_FUZZ_CAPPED_HEAP_H

#include <stddef.h>

#include "wai/wai.h"

typedef struct fuzz_heap {
    size_t live, limit;
} fuzz_heap;

wai_allocator fuzz_heap_allocator(fuzz_heap *h);

/* A one-thread context over a capped heap, made on the first call and held
 * for the life of the process, as a player holds one: made for each input,
 * its CPU detection (CPUID, a trap to the hypervisor on a virtual machine)
 * and pool were 7 % of the WebNN targets' time. Each call sets the heap's
 * ceiling to limit bytes past what it holds now (the context's own blocks
 * included); an input gives back everything it took when live is again
 * what it was at the call. Never freed: it stays reachable. */
wai_context *fuzz_heap_held_context(size_t limit, fuzz_heap **heap);

#endif
