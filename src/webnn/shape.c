/* SPDX-License-Identifier: BSD-2-Clause */
/* Shapes: element counts, the spec's dimension checks, broadcasting. */
#include <string.h>

#include "webnn/ml.h"

/* The largest dimension and element count here: the spec's "valid
 * dimension" is any positive long; this build keeps every count within a
 * signed 32-bit integer, so indices stay exact in any arithmetic. */
#define DIM_MAX ((uint64_t)INT32_MAX)

size_t wai_ml_data_type_size(wai_ml_operand_data_type t) {
    switch (t) {
    case WAI_ML_FLOAT32: case WAI_ML_INT32: case WAI_ML_UINT32: return 4;
    case WAI_ML_FLOAT16: return 2;
    case WAI_ML_INT64: case WAI_ML_UINT64: return 8;
    case WAI_ML_INT8: case WAI_ML_UINT8: return 1;
    }
    return 0;
}

static const char *const type_names[] = {"float32", "float16", "int32", "uint32",
                                         "int64",   "uint64",  "int8",  "uint8"};

const char *wai_ml_data_type_name(wai_ml_operand_data_type t) {
    return (unsigned)t < sizeof type_names / sizeof *type_names ? type_names[t] : NULL;
}

int wai_ml_data_type_from_name(const char *name, wai_ml_operand_data_type *out) {
    for (size_t i = 0; name && i < sizeof type_names / sizeof *type_names; i++)
        if (strcmp(name, type_names[i]) == 0) {
            *out = (wai_ml_operand_data_type)i;
            return 1;
        }
    return 0;
}

uint64_t wai_ml_elements(const wai_ml_operand_descriptor *d) {
    uint64_t n = 1;
    for (uint32_t i = 0; i < d->rank && i < WAI_ML_MAX_RANK; i++) {
        n *= d->shape[i];
        if (n > DIM_MAX) return 0;
    }
    return n;
}

int wai_ml_dimensions_ok(const wai_ml_operand_descriptor *d) {
    if (!d || !wai_ml_data_type_size(d->data_type) || d->rank > WAI_ML_MAX_RANK) return 0;
    for (uint32_t i = 0; i < d->rank; i++)
        if (d->shape[i] == 0 || d->shape[i] > DIM_MAX) return 0;
    return wai_ml_elements(d) != 0;
}

int wai_ml_broadcast(const wai_ml_operand_descriptor *a, const wai_ml_operand_descriptor *b,
                     wai_ml_operand_descriptor *out) {
    uint32_t rank = a->rank > b->rank ? a->rank : b->rank;
    wai_ml_operand_descriptor r = *a;
    r.rank = rank;
    for (uint32_t i = 0; i < rank; i++) {
        /* Aligned from the last dimension; a missing one is 1. */
        uint32_t da = i + a->rank >= rank ? a->shape[i + a->rank - rank] : 1;
        uint32_t db = i + b->rank >= rank ? b->shape[i + b->rank - rank] : 1;
        if (da != db && da != 1 && db != 1) return 0;
        r.shape[i] = da == 1 ? db : da;
    }
    *out = r;
    return 1;
}

int wai_ml_descriptor_equal(const wai_ml_operand_descriptor *a,
                            const wai_ml_operand_descriptor *b) {
    if (a->data_type != b->data_type || a->rank != b->rank) return 0;
    for (uint32_t i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i]) return 0;
    return 1;
}
