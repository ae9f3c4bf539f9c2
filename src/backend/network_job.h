/* SPDX-License-Identifier: BSD-2-Clause */
/* An integer path's backend as the network runner's device
 * (ops/network.h, wai_net_device): each network a decode runs becomes a
 * public wai_network_job (include/wai/wai_backend.h) for the backend's
 * network callback. */
#ifndef WAI_BACKEND_NETWORK_JOB_H
#define WAI_BACKEND_NETWORK_JOB_H

#include "ops/network.h"
#include "wai/wai_backend.h"

/* What a device run needs: the backend, its instance and its program
 * (NULL: a one-off run, the known-answer check's, whose network the
 * backend keeps nothing of), and the allocator for the layers' views. */
typedef struct wai_net_device_of {
    const wai_backend_ops *desc;
    void *self;
    void *program;
    const wai_allocator *alloc;
} wai_net_device_of;

/* dev runs whole networks through of's backend (of borrowed for dev's life). */
void wai_net_device_bind(wai_net_device *dev, wai_net_device_of *of);

#endif
