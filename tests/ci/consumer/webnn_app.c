/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_webnn beside libwai: a bmshj2018 photograph decoded on the native
 * WebNN backend (cpu/webnn/float). argv: the payload, then the set's folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wai/wai_decode.h>
#include <wai/wai_webnn.h>

static size_t slurp(const char *dir, const char *name, unsigned char *buf, size_t cap) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", dir, name ? "/" : "", name ? name : "");
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap, f) : 0;
    if (f) fclose(f);
    return n;
}

int main(int argc, char **argv) {
    static unsigned char payload[1 << 20], member[3][4 << 20];
    static const char *const names[3] = {"cdfs_q3.json", "decoder.webnn.json", "decoder.f32"};
    if (argc < 3) return EXIT_FAILURE;
    size_t n = slurp(argv[1], NULL, payload, sizeof payload);
    wai_context *ctx = NULL;
    wai_set *set = NULL;
    wai_decoder *d = NULL;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    wai_status st = wai_context_create(NULL, &ctx);
    if (st == WAI_ok) st = wai_context_add_backend(ctx, wai_webnn_backend());
    if (st == WAI_ok) st = wai_set_create(ctx, &set);
    for (int i = 0; st == WAI_ok && i < 3; i++)
        st = wai_set_add(set, names[i], member[i], slurp(argv[2], names[i], member[i], sizeof member[i]));
    cfg.set = set;
    if (st == WAI_ok) st = wai_decoder_create(ctx, &cfg, &d);
    if (st == WAI_ok) st = wai_decoder_send(d, payload, n, NULL);
    wai_output o = {0};
    if (st == WAI_ok) st = wai_decoder_receive(d, &o);
    const wai_dispatch_report *r = wai_decoder_dispatch_report(d);
    printf("%s: %s, %ux%u on %s/%s\n", argv[1], wai_status_name(st), o.width, o.height,
           r && r->ran ? wai_unit_name(r->ran_path.unit) : "-",
           r && r->ran ? wai_backend_name(r->ran_path.backend) : "-");
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    return st == WAI_ok && o.kind == WAI_OUTPUT_IMAGE ? EXIT_SUCCESS : EXIT_FAILURE;
}
