/* SPDX-License-Identifier: BSD-2-Clause */
/* A failure's message, kept on its context (webnn.md's exceptions carry
 * one; wai_ml_error_message reads it back). Its own file: every other file
 * of the folder fails through it, and it needs none of them. */
#include <stdarg.h>
#include <stdio.h>

#include "webnn/ml.h"

wai_status wai_ml_fail(wai_ml_context *c, wai_status st, const char *fmt, ...) {
    if (c) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->message, sizeof c->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

const char *wai_ml_error_message(const wai_ml_context *c) { return c ? c->message : ""; }
