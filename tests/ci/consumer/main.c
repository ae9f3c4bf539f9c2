/* A program outside the tree that uses the installed libwai. */
#include <stdio.h>
#include <string.h>

#include <wai/wai.h>

int main(void) {
    const char *name = wai_status_name(WAI_stream_exhausted);
    if (!name || strcmp(name, "stream_exhausted") != 0) {
        printf("wai_status_name(WAI_stream_exhausted) = %s\n", name ? name : "(null)");
        return 1;
    }
    printf("consumer ok: %s (libwai %s)\n", name, wai_version());
    return 0;
}
