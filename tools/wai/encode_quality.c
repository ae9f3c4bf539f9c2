/* SPDX-License-Identifier: BSD-2-Clause */
/* --quality Q: a rate point picked from a folder of sets. A trained codec
 * ships one set per rate point (examples/hyperprior/sets: q1, q3, q5, q7,
 * named by CompressAI's quality ladder, whose λ each was trained at), and
 * --set names the folder. The set is DIR/qQ; a quality the folder lacks is
 * a usage error that lists those it has, never the nearest one in silence:
 * a payload decodes only against the set it was coded with. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "encode.h"

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The qN folders of dir as "1, 3, 5 and 7" (ascending), or "none". */
static void list_points(const char *dir, char *out, size_t n) {
    unsigned have[ENCODE_QUALITY_MAX + 1] = {0}, count = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        unsigned q;
        char tail;
        char sub[4096];
        if (sscanf(e->d_name, "q%u%c", &q, &tail) != 1 || q < 1 || q > ENCODE_QUALITY_MAX) continue;
        if (snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub || !is_dir(sub)) continue;
        count += !have[q];
        have[q] = 1;
    }
    if (d) closedir(d);
    size_t len = (size_t)snprintf(out, n, "%s", count ? "" : "none");
    for (unsigned q = 1, k = 0; q <= ENCODE_QUALITY_MAX && len < n; q++) {
        if (!have[q]) continue;
        k++;
        len += (size_t)snprintf(out + len, n - len, "%s%u", k == 1 ? "" : k == count ? " and " : ", ", q);
    }
}

int encode_quality_set(const char *dir, uint64_t quality, char *path, size_t n) {
    if (!dir)
        return cli_usage_error("encode", "--quality picks a set from a folder of rate points: "
                                         "give the folder with --set DIR (examples/hyperprior/sets)");
    char has[128];
    int len = snprintf(path, n, "%s/q%llu", dir, (unsigned long long)quality);
    if (len < 0 || (size_t)len >= n) return cli_usage_error("encode", "--set %s: the path is too long", dir);
    if (is_dir(path)) return 0;
    list_points(dir, has, sizeof has);
    return cli_usage_error("encode", "--quality %llu: %s has no q%llu (its rate points: %s)",
                           (unsigned long long)quality, dir, (unsigned long long)quality, has);
}

int encode_plain_set(const char *dir, const char *member) {
    char has[128], path[4096];
    struct stat st;
    if (!dir || !member || snprintf(path, sizeof path, "%s/%s", dir, member) >= (int)sizeof path ||
        stat(path, &st) == 0)
        return 0;
    list_points(dir, has, sizeof has);
    if (strcmp(has, "none") == 0) return 0; /* the loader says what is missing */
    return cli_usage_error("encode", "--set %s is a folder of rate points (%s): pick one with "
                                     "--quality Q", dir, has);
}
