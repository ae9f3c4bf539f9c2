/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: an offer's text (wai_dispatch_parse_offer, the tool's
 * --offer): what parses is at most WAI_DISPATCH_MAX_PATHS valid paths, none
 * twice, and the paths written out in full parse back to the same paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wai/wai_dispatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok) {
    if (!ok) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    wai_path p[WAI_DISPATCH_MAX_PATHS], q[WAI_DISPATCH_MAX_PATHS];
    size_t n = 99, m = 0;
    if (wai_dispatch_parse_offer(text, p, WAI_DISPATCH_MAX_PATHS, &n) == WAI_ok) {
        require(n >= 1 && n <= WAI_DISPATCH_MAX_PATHS);
        char full[WAI_DISPATCH_MAX_PATHS * 48] = "";
        for (size_t i = 0; i < n; i++) {
            require(wai_path_valid(&p[i]));
            for (size_t j = 0; j < i; j++) require(memcmp(&p[i], &p[j], sizeof p[i]) != 0);
            char one[48];
            snprintf(one, sizeof one, "%s%s/%s/%s", i ? "," : "", wai_unit_name(p[i].unit),
                     wai_backend_name(p[i].backend), wai_arithmetic_name(p[i].arithmetic));
            strcat(full, one);
        }
        require(wai_dispatch_parse_offer(full, q, WAI_DISPATCH_MAX_PATHS, &m) == WAI_ok && m == n &&
                memcmp(p, q, n * sizeof p[0]) == 0);
    } else {
        require(n == 99); /* untouched on a refusal */
    }
    free(text);
    return 0;
}
