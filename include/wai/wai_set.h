/* SPDX-License-Identifier: BSD-2-Clause */
/* Parameter sets (integer-payloads §9): the files a neural capability
 * decodes against, by the names a set's listing gives them (g_s.whm,
 * h_s.whm, entropy.json; model.wam; ...). A set is built in memory; the
 * `wai` tool fills one from a directory (`wai decode --set DIR`). */
#ifndef WAI_WAI_SET_H
#define WAI_WAI_SET_H

#include "wai/wai.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wai_set wai_set;

/* An empty set; its memory comes from ctx's allocator, and ctx must outlive
 * it. */
WAI_API wai_status wai_set_create(const wai_context *ctx, wai_set **out);
WAI_API void wai_set_destroy(wai_set *s);

/* Adds a member, copying its bytes. A name already present, an empty name
 * or one of more than 255 bytes is invalid_argument. Names are compared
 * byte for byte. */
WAI_API wai_status wai_set_add(wai_set *s, const char *name, const uint8_t *data, size_t len);

/* The same without the copy: the set reads the caller's bytes, which must
 * stay unchanged and alive until the set is destroyed. For a reader that
 * already holds a member in memory (the tool reads each file once): a large
 * member then costs its size once, not twice. */
WAI_API wai_status wai_set_add_borrowed(wai_set *s, const char *name, const uint8_t *data,
                                        size_t len);

/* The member that lists a set's files (docs/spec-readings.md, L5): each
 * other member's name, length and SHA-256 in one canonical JSON form. */
#define WAI_SET_LISTING "listing.json"

/* Pins the set (§9, SPEC §3.1). A decode then resolves the pin or is
 * refused set_incomplete: the pin is the SHA-256 of the set's listing
 * member, or, for a set of exactly one file, that file's own SHA-256
 * (form-less). A set of several files is pinned through its listing: with
 * none, the pin does not resolve. Whether pinned or not, a set that
 * carries a listing holds only what it lists (SPEC §3.1's check 5 over
 * every member, since a backend reads its program from the set too: each
 * listed with its length and SHA-256, the listing in its canonical form);
 * pinned, it holds every file listed. Else set_incomplete
 * (docs/spec-readings.md, L5, L5a). */
WAI_API wai_status wai_set_pin(wai_set *s, const uint8_t sha256[32]);

/* A pin as text (docs/spec-readings.md, L5b): its SHA-256 in 64
 * hexadecimal digits, then optionally the tier it states, ":tier=TOKEN"
 * (neural-dispatch §2 item 3: "decode-equivalence" raises what the decode
 * needs; another token adds nothing). Fills sha256 and, when tier is not
 * NULL, tier (tier_size bytes, NUL-terminated; "" when the pin states
 * none). invalid_argument for anything else: other digits, another suffix,
 * a token of more than tier_size - 1 bytes or of bytes outside [a-z0-9-].
 * The tier is the pinned capability's: a decode passes it as its dispatch
 * options' pin_tier, and a fallback has its own pin. */
WAI_API wai_status wai_pin_parse(const char *text, uint8_t sha256[32], char *tier,
                                 size_t tier_size);

/* The canonical listing of the set's members (every one but a member named
 * WAI_SET_LISTING) into buf (size bytes, NUL-terminated when it fits);
 * *need (may be NULL) its length without the NUL. invalid_argument when
 * buf is short (then *need says how long it must be) or a member's name is
 * not printable ASCII without '"' and '\'. Its SHA-256 is the set's pin. */
WAI_API wai_status wai_set_listing_json(const wai_set *s, char *buf, size_t size, size_t *need);

/* Walks a listing's entries (a listing.json's bytes, in the form above):
 * *at is 0 to start; each call puts the next entry's name into name (size
 * bytes, NUL-terminated) and moves *at past the entry. WAI_ok for an entry;
 * set_incomplete at the end, or where the text leaves the form (no name
 * past that point is given); invalid_argument for a NULL argument or a
 * name of size bytes or more. What a reader of a set's folder reads the
 * listed files' names with. */
WAI_API wai_status wai_set_listing_next(const uint8_t *listing, size_t len, size_t *at,
                                        char *name, size_t size);

/* The number of members, and member i's name and bytes (i in order added). */
WAI_API size_t wai_set_count(const wai_set *s);
WAI_API wai_status wai_set_member_at(const wai_set *s, size_t i, const char **name,
                                     const uint8_t **data, size_t *len);

/* Member `name`'s bytes: WAI_ok, or set_incomplete when the set has no
 * such member. */
WAI_API wai_status wai_set_find(const wai_set *s, const char *name, const uint8_t **data,
                                size_t *len);

#ifdef __cplusplus
}
#endif

#endif
