/* The oneDNN convolutions (filled in below). */
#include "webnn/ml.h"

int wai_ml_dnnl_available(void) { return 0; }

wai_status wai_ml_dnnl_conv2d(const wai_ml_kernel_args *k) {
    (void)k;
    return WAI_NotSupportedError;
}

wai_status wai_ml_dnnl_conv_transpose2d(const wai_ml_kernel_args *k) {
    (void)k;
    return WAI_NotSupportedError;
}
