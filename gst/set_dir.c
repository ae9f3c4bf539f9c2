/* SPDX-License-Identifier: BSD-2-Clause */
/* set-dir: a context and the parameter set read from a folder, member by
 * member, by name (never the whole folder), each bounded by max-memory. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gstwai.h"
#include "wai/wai_backend.h"

/* Whether DIR/NAME may be read as a set's member: a regular file, or a
 * link to a name of the same folder (docs/spec-readings.md, L5a: a link
 * whose target holds a '/' may leave the set, where no pin vouches). */
static gboolean member_stays(const char *dir, const char *name) {
    char *target = g_strdup(name);
    for (int hop = 0; hop < 8; hop++) {
        char *path = g_build_filename(dir, target, NULL);
        gboolean link = g_file_test(path, G_FILE_TEST_IS_SYMLINK);
        gboolean regular = g_file_test(path, G_FILE_TEST_IS_REGULAR);
        char *next = link ? g_file_read_link(path, NULL) : NULL;
        g_free(path);
        g_free(target);
        if (!link) return regular;
        if (!next || strchr(next, '/') || strcmp(next, ".") == 0 || strcmp(next, "..") == 0) {
            g_free(next);
            return FALSE;
        }
        target = next;
    }
    g_free(target);
    return FALSE;
}

/* DIR/NAME read once, bounded: opened O_NONBLOCK (a FIFO put in a
 * member's place never blocks), a regular file, at most budget bytes, its
 * size checked before a byte is read. */
static gboolean read_member(const char *path, guint64 budget, gchar **data, gsize *len,
                            GError **why) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) close(fd);
        g_set_error(why, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path, g_strerror(e));
        return FALSE;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        g_set_error(why, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: not a regular file", path);
        return FALSE;
    }
    guint64 size = (guint64)st.st_size;
    if (size > budget || size > G_MAXSIZE - 1) {
        close(fd);
        g_set_error(why, WAI_GST_STATUS, WAI_cost_over_limit,
                    "%s: %" G_GUINT64_FORMAT " bytes: past max-memory (%" G_GUINT64_FORMAT
                    " bytes left of it), refused before reading it",
                    path, size, budget);
        return FALSE;
    }
    /* +1: a file that grew since fstat is seen, and refused. */
    gchar *buf = g_malloc((gsize)size + 1);
    gsize n = 0;
    while (n < (gsize)size + 1) {
        ssize_t r = read(fd, buf + n, (gsize)size + 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (r < 0) {
                int e = errno;
                close(fd);
                g_free(buf);
                g_set_error(why, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path,
                            g_strerror(e));
                return FALSE;
            }
            break;
        }
        n += (gsize)r;
    }
    close(fd);
    if (n != (gsize)size) {
        g_free(buf);
        g_set_error(why, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: changed while it was read", path);
        return FALSE;
    }
    *data = buf;
    *len = n;
    return TRUE;
}

/* The names a set's folder is read for (L5a): every member some
 * capability's path reads, the listing, and every file the listing names. */
static GHashTable *member_names(const wai_context *ctx, const char *dir) {
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *cap = wai_capability_at(i);
        for (size_t k = 0; k < 4 && cap->set_members[k]; k++)
            g_hash_table_add(names, g_strdup(cap->set_members[k]));
        for (const char *const *e = wai_capability_encoder_members(cap); e && *e; e++)
            g_hash_table_add(names, g_strdup(*e));
        const char *p;
        for (size_t k = 0; (p = wai_context_program_member(ctx, cap, k)) != NULL; k++)
            g_hash_table_add(names, g_strdup(p));
    }
    g_hash_table_add(names, g_strdup(WAI_SET_LISTING));
    char *path = g_build_filename(dir, WAI_SET_LISTING, NULL);
    gchar *l = NULL;
    gsize len = 0;
    /* The listing is a few hundred bytes a member: 1 MiB bounds it. */
    if (member_stays(dir, WAI_SET_LISTING) && read_member(path, 1 << 20, &l, &len, NULL)) {
        char name[256];
        size_t at = 0;
        while (wai_set_listing_next((const uint8_t *)l, len, &at, name, sizeof name) == WAI_ok)
            if (!strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
                g_hash_table_add(names, g_strdup(name));
    }
    g_free(l);
    g_free(path);
    return names;
}

gboolean wai_gst_context(guint threads, const char *set_dir, guint64 max_memory, wai_context **ctx,
                         wai_set **set, guint64 *set_bytes, GError **why) {
    *ctx = NULL;
    *set = NULL;
    *set_bytes = 0;
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = threads;
    if (wai_context_create(&s, ctx) != WAI_ok) {
        g_set_error(why, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "out of memory");
        return FALSE;
    }
    if (!set_dir) return TRUE;
    if (!g_file_test(set_dir, G_FILE_TEST_IS_DIR)) {
        g_set_error(why, G_FILE_ERROR, G_FILE_ERROR_NOTDIR, "not a folder");
        return FALSE;
    }
    if (wai_set_create(*ctx, set) != WAI_ok) {
        g_set_error(why, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "out of memory");
        return FALSE;
    }
    /* Only what a path may read, and what the listing names: a stray file
     * in the folder is never read (nor a link out of it). The members stay
     * in memory through the decode: they share the limit. */
    GHashTable *names = member_names(*ctx, set_dir);
    GHashTableIter it;
    gpointer key;
    gboolean ok = TRUE;
    g_hash_table_iter_init(&it, names);
    while (ok && g_hash_table_iter_next(&it, &key, NULL)) {
        const char *name = key;
        if (!member_stays(set_dir, name)) continue;
        char *path = g_build_filename(set_dir, name, NULL);
        gchar *data = NULL;
        gsize len = 0;
        guint64 left = max_memory ? max_memory - *set_bytes : G_MAXUINT64;
        ok = read_member(path, left, &data, &len, why);
        if (ok && wai_set_add(*set, name, (const uint8_t *)data, len) != WAI_ok) {
            ok = FALSE;
            g_set_error(why, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
                        "%s: cannot add it to the set", path);
        }
        if (ok) *set_bytes += len;
        g_free(data);
        g_free(path);
    }
    g_hash_table_destroy(names);
    return ok;
}
