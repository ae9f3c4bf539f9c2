/* SPDX-License-Identifier: BSD-2-Clause */
/* A player whose device driver answers neural-dispatch §4's questions
 * (wai_decoder_config.probe), through the public API alone: the end-to-end
 * check of a caller's probe (tests/tool/test_probe.sh).
 *
 *   wai_probe_plan MODE PAYLOAD MEMBER...
 *
 * MODE says what the probe answers for every path: "yes" (every question
 * yes, no plan stated), "elsewhere" (a plan that puts the whole decode on
 * the NPU, whatever unit the path names), "on-unit" (all of it on the
 * path's own unit), "no-unit" (the unit absent). Each MEMBER is a set file,
 * named by its base name. Prints the decode's status and its dispatch
 * report (wai-neural-dispatch/1) on one line each; exits 0 when both were
 * printed, whatever the status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wai/wai_decode.h>
#include <wai/wai_dispatch.h>
#include <wai/wai_set.h>

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (f && n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL &&
        fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f) fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

static const char *g_mode;

static wai_status unit(void *opaque, const wai_capability *cap, const wai_path *path) {
    (void)opaque, (void)cap, (void)path;
    return strcmp(g_mode, "no-unit") == 0 ? WAI_dispatch_unit_absent : WAI_ok;
}

static wai_status plan(void *opaque, const wai_capability *cap, const wai_path *path,
                       wai_placement *out) {
    (void)opaque, (void)cap;
    if (strcmp(g_mode, "elsewhere") == 0) {
        *out = (wai_placement){1, 1000, 0, 0, 0};
    } else if (strcmp(g_mode, "on-unit") == 0) {
        *out = (wai_placement){1, path->unit == WAI_UNIT_NPU ? 1000 : 0,
                               path->unit == WAI_UNIT_GPU ? 1000 : 0,
                               path->unit == WAI_UNIT_CPU ? 1000 : 0, 0};
    }
    return WAI_ok;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: wai_probe_plan yes|elsewhere|on-unit|no-unit PAYLOAD MEMBER...\n");
        return 2;
    }
    g_mode = argv[1];
    size_t len;
    unsigned char *payload = slurp(argv[2], &len);
    wai_context *ctx = NULL;
    wai_set *set = NULL;
    wai_decoder *d = NULL;
    wai_status st = payload ? wai_context_create(NULL, &ctx) : WAI_io_error;
    if (st == WAI_ok) st = wai_set_create(ctx, &set);
    for (int i = 3; st == WAI_ok && i < argc; i++) {
        size_t n;
        unsigned char *m = slurp(argv[i], &n);
        const char *name = strrchr(argv[i], '/');
        st = m ? wai_set_add(set, name ? name + 1 : argv[i], m, n) : WAI_io_error;
        free(m);
    }
    const wai_dispatch_probe probe = {NULL, unit, NULL, NULL, plan, {NULL}};
    wai_decoder_config c;
    wai_decoder_config_default(&c);
    c.set = set;
    c.probe = &probe;
    if (st == WAI_ok) st = wai_decoder_create(ctx, &c, &d);
    if (st == WAI_ok) st = wai_decoder_send(d, payload, len, NULL);
    printf("%s\n", wai_status_name(st));
    const wai_dispatch_report *r = d ? wai_decoder_dispatch_report(d) : NULL;
    char *json = NULL;
    int printed = r && wai_dispatch_report_json_alloc(NULL, r, &json) == WAI_ok;
    if (printed) printf("%s\n", json);
    else printf("no report\n");
    wai_dispatch_report_json_free(NULL, json);
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    free(payload);
    return printed ? 0 : 1;
}
