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

#endif
