/* SPDX-License-Identifier: BSD-2-Clause */
/* PSNR in dB of 8-bit samples from a summed squared error, without libm
 * (the tool links none). */
#ifndef WAI_TOOLS_PSNR_H
#define WAI_TOOLS_PSNR_H

#include <stdint.h>

/* 10 log10(255^2 samples / sse); sse 0 is the caller's ("inf"). */
double cli_psnr(uint64_t sse, uint64_t samples);

#endif
