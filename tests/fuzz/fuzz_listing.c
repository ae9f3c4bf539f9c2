/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer target for a set's listing (sets/listing.c): the input is the
 * listing member of a fixed three-file set, checked against every file the
 * set holds (SPEC §3.1's check 5, L5a), as for an unpinned set and as for a
 * pinned one (whole). What passes must list each of them by its exact
 * entry; whole, nothing else; the set's own listing always passes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fuzz_context.h"
#include "sets/listing.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok) {
    if (!ok) abort();
}

static const char *const names[] = {"entropy.json", "g_s.whm", "h_s.whm"};
static const uint8_t bytes[3][4] = {{'{', '}'}, {1, 2, 3}, {4}};
static const size_t lens[3] = {2, 3, 1};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wai_context *ctx = NULL;
    wai_set *s = NULL;
    require(fuzz_context(1, &ctx) == WAI_ok && wai_set_create(ctx, &s) == WAI_ok);
    for (int i = 0; i < 3; i++) require(wai_set_add(s, names[i], bytes[i], lens[i]) == WAI_ok);
    char own[512];
    require(wai_set_listing_json(s, own, sizeof own, NULL) == WAI_ok);
    require(wai_listing_check((const uint8_t *)own, strlen(own), s, 1) == WAI_ok);
    wai_status part = wai_listing_check(data, size, s, 0);
    wai_status whole = wai_listing_check(data, size, s, 1);
    /* Whole (a pinned set) is the stricter: it passes only where part does,
     * and then the listing names the set's three files and nothing else. */
    require(whole != WAI_ok || part == WAI_ok);
    if (whole == WAI_ok) {
        size_t entries = 0;
        for (size_t at = 0; at + 9 <= size; at++) entries += memcmp(data + at, "{\"name\":\"", 9) == 0;
        require(entries == 3);
    }
    /* The walk gives names of at most 255 bytes, never past the text, and
     * on a listing the check takes, exactly its entries. */
    size_t next = 0, walked = 0;
    char name[256];
    while (wai_set_listing_next(data, size, &next, name, sizeof name) == WAI_ok) {
        require(next <= size && strlen(name) > 0);
        walked++;
    }
    if (whole == WAI_ok) require(walked == 3);
    if (part == WAI_ok) {
        /* Each file read is in it by its exact entry. */
        for (int i = 0; i < 3; i++) {
            uint8_t sha[32];
            char hex[65], entry[160];
            wai_sha256_oneshot(bytes[i], lens[i], sha);
            wai_hex(sha, 32, hex);
            int n = snprintf(entry, sizeof entry, "{\"name\":\"%s\",\"bytes\":%zu,\"sha256\":\"%s\"}",
                             names[i], lens[i], hex);
            int found = 0;
            for (size_t at = 0; !found && at + (size_t)n <= size; at++)
                found = memcmp(data + at, entry, (size_t)n) == 0;
            require(found);
        }
    }
    wai_set_destroy(s);
    wai_context_destroy(ctx);
    return 0;
}
