/* SPDX-License-Identifier: BSD-2-Clause */
/* The frame step on two threads (see motion.h): the rANS chain is serial and
 * sets the pace, so one thread decodes residuals into a ring of row chunks
 * while another predicts and reconstructs the chunks already decoded. What a
 * sample becomes depends only on its residual, its vector and the previous
 * frame, so the bytes are the fast path's whichever thread makes them.
 *
 * The reconstructing thread mostly waits: the chain is the slower half. It
 * spins a little, then sleeps until the decoding thread says a chunk is
 * ready (a condition variable, woken once a chunk at most), so on a machine
 * with more threads than free cores it does not take the core the chain
 * needs: spinning and yielding there, a fuzzer beside it held a decode to
 * 1/25 of its speed.
 *
 * No thread ever waits on work nobody holds: a chunk is claimed by exactly
 * one thread (a compare-and-swap on the claim counter) and only once it is
 * decoded; the decoding thread, when the ring is full, reconstructs the
 * oldest chunk itself unless another thread already claimed it. So a run
 * whose shares the pool leaves to the caller alone (it is busy with another
 * decoder) still finishes: share 0 decodes and reconstructs everything, and
 * share 1 finds nothing left.
 *
 * The same split on one thread is how a level whose table says so
 * (motion_split, ops/cores.h) runs the frame step: in WebAssembly a tight
 * rANS loop, then the level's vector loop over the chunk, beat predicting
 * in the chain's shadow (docs/performance.md, Issue 30). */
#if defined(WAI_HAVE_PTHREAD)
#define _POSIX_C_SOURCE 200809L /* sched_yield */
#include <pthread.h>
#include <sched.h>
#endif
#include <stdatomic.h>

#include "common/alloc.h"
#include "common/reader.h"
#include "decode/motion.h"
#include "ops/cores.h"
#include "ops/cores_c.h"

#define PIPE_SLOTS 4u
#define PIPE_CHUNK_SAMPLES 32768u /* a chunk's residuals, 64 KiB: the ring stays in L2 */
#define PIPE_MIN_SAMPLES 65536u   /* smaller frames take the one-thread path */

/* |r| past 256 reconstructs as 256 does (pred in 0..255, q >= 1: the clamp
 * of E9 saturates either way), so a residual fits an i16 exactly. */
static inline int16_t narrow(int32_t r) {
    return (int16_t)(r < -256 ? -256 : r > 256 ? 256 : r);
}

/* A wait's step: a pause instruction; after many in a row the core is given
 * up, so a thread waiting on one that is not running (more threads than
 * cores) does not hold the core it needs. */
#define SPINS_BEFORE_YIELD 4096u

/* The CPU's spin-wait hint, where it has one: it eases the pipeline and the
 * sibling hyperthread while the loop waits. */
static inline void cpu_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline void spin_pause(unsigned *spins) {
    cpu_pause();
#if defined(WAI_HAVE_PTHREAD)
    if (++*spins >= SPINS_BEFORE_YIELD) {
        *spins = 0;
        sched_yield();
    }
#else
    (void)spins;
#endif
}

/* The reconstructing thread's wait for a decoded chunk, after this many
 * pauses (a few microseconds: a chunk's chain takes a hundred or more). */
#define SPINS_BEFORE_SLEEP 1024u

typedef struct pipe {
    const wai_motion_frame *f;
    wai_recon_fn recon;          /* the level's segment loop (ops/cores.h) */
    wai_rans_dec *d;
    uint8_t *out;
    int16_t *ring;               /* PIPE_SLOTS chunks of chunk_rows rows */
    uint32_t chunk_rows, n_chunks;
    size_t row;                  /* samples a row: w * 3 */
    wai_status status;           /* the decoding thread's */
    atomic_uint produced;        /* chunks decoded into the ring */
    atomic_uint claimed;         /* chunks taken for reconstruction */
    atomic_uint failed;          /* the stream ran out: no more chunks */
    atomic_uint done[PIPE_SLOTS]; /* per slot: 1 + the last chunk reconstructed there */
#if defined(WAI_HAVE_PTHREAD)
    /* The reconstructing thread asleep (sleeping 1) until ready() holds. */
    pthread_mutex_t m;
    pthread_cond_t ready;
    atomic_uint sleeping;
#endif
} pipe;

/* ---- reconstruction of one decoded chunk ---------------------------------- */

/* A segment [x0, x1) of row y whose reads all stay inside the frame goes to
 * the level's loop whole; one near an edge, pixel by pixel with its reads
 * clamped (E10). */
static void segment(const wai_motion_frame *f, wai_recon_fn recon, wai_mv_segment s, uint32_t x0,
                    uint32_t x1, const int16_t *r, uint8_t *out) {
    int32_t wmax = (int32_t)f->w - 1, q = (int32_t)f->q;
    unsigned kind = (unsigned)s.fx * WAI_RECON_HALF_X + (unsigned)s.fy * WAI_RECON_HALF_Y;
    /* The last read is column x1 - 1 + ix, or the one after it for a half. */
    int64_t first = (int64_t)x0 + s.ix, last = (int64_t)x1 - 1 + s.ix + (s.fx ? 1 : 0);
    if (first >= 0 && last <= wmax) {
        size_t c = (size_t)first * 3;
        recon(out, s.a + c, s.b + c, kind, r, (size_t)(x1 - x0) * 3, q);
        return;
    }
    for (uint32_t x = x0; x < x1; x++) {
        size_t c0 = (size_t)wai_mv_clamp((int64_t)x + s.ix, wmax) * 3;
        size_t c1 = (size_t)wai_mv_clamp((int64_t)x + s.ix + 1, wmax) * 3;
        size_t o = (size_t)(x - x0) * 3;
        for (size_t c = 0; c < 3; c++) {
            int32_t pred = wai_recon_pred(kind, s.a[c0 + c], s.a[c1 + c], s.fy ? s.b[c0 + c] : 0,
                                          s.fy ? s.b[c1 + c] : 0);
            out[o + c] = wai_recon_step(pred, r[o + c], q);
        }
    }
}

static void inter_row(const wai_motion_frame *f, wai_recon_fn recon, uint32_t y, const int16_t *r,
                      uint8_t *out) {
    const uint8_t *vectors = f->vectors + 4 * (size_t)(y / f->block) * f->nbx;
    for (uint32_t x0 = 0, bx = 0; x0 < f->w; x0 += f->block, bx++) {
        uint32_t x1 = f->w - x0 > f->block ? x0 + f->block : f->w;
        wai_mv_segment s = wai_mv_segment_of(f, y, vectors + 4 * (size_t)bx);
        segment(f, recon, s, x0, x1, r + (size_t)x0 * 3, out + (size_t)x0 * 3);
    }
}

static void reconstruct(pipe *p, uint32_t chunk) {
    const wai_motion_frame *f = p->f;
    const int16_t *r = p->ring + (size_t)(chunk % PIPE_SLOTS) * p->chunk_rows * p->row;
    uint32_t y0 = chunk * p->chunk_rows;
    uint32_t y1 = f->h - y0 > p->chunk_rows ? y0 + p->chunk_rows : f->h;
    int32_t q = (int32_t)f->q;
    for (uint32_t y = y0; y < y1; y++, r += p->row) {
        uint8_t *out = p->out + (size_t)y * p->row;
        if (f->prev) {
            inter_row(f, p->recon, y, r, out);
        } else {
            for (size_t i = 0; i < p->row; i++) out[i] = wai_recon_step(128, r[i], q);
        }
    }
}

/* Claims and reconstructs the oldest decoded chunk nobody holds. 0: none
 * (all claimed, or the next not decoded yet). */
static int take_chunk(pipe *p) {
    unsigned c = atomic_load_explicit(&p->claimed, memory_order_relaxed);
    for (;;) {
        if (c >= atomic_load_explicit(&p->produced, memory_order_acquire)) return 0;
        if (atomic_compare_exchange_weak_explicit(&p->claimed, &c, c + 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            break;
    }
    reconstruct(p, c);
    atomic_store_explicit(&p->done[c % PIPE_SLOTS], c + 1, memory_order_release);
    return 1;
}

/* ---- the reconstructing thread's sleep ------------------------------------- */

#if defined(WAI_HAVE_PTHREAD)
/* Something for the reconstructing thread: a chunk decoded and unclaimed,
 * or nothing left to wait for. Sequentially consistent, as the wake's
 * loads and stores are: either the sleeper sees the new chunk (or the end)
 * or the waker sees the sleeper, so no wake is lost. */
static int ready(pipe *p) {
    unsigned c = atomic_load(&p->claimed);
    return c >= p->n_chunks || c < atomic_load(&p->produced) || atomic_load(&p->failed);
}

static void sleep_until_ready(pipe *p) {
    pthread_mutex_lock(&p->m);
    atomic_store(&p->sleeping, 1);
    while (!ready(p)) pthread_cond_wait(&p->ready, &p->m);
    atomic_store(&p->sleeping, 0);
    pthread_mutex_unlock(&p->m);
}

/* After produced, failed or the last claim changed (each stored seq_cst). */
static void wake(pipe *p) {
    if (!atomic_load(&p->sleeping)) return;
    pthread_mutex_lock(&p->m);
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->m);
}
#else
static void wake(pipe *p) { (void)p; }
#endif

/* ---- the two shares ------------------------------------------------------- */

static void produce(pipe *p) {
    const wai_motion_frame *f = p->f;
    wai_rans_local l = wai_rans_local_load(p->d);
    unsigned spins = 0;
    for (uint32_t k = 0; k < p->n_chunks && !l.ran_out; k++) {
        atomic_uint *slot_done = &p->done[k % PIPE_SLOTS];
        /* The slot's last chunk, k - PIPE_SLOTS, must be reconstructed. */
        while (k >= PIPE_SLOTS &&
               atomic_load_explicit(slot_done, memory_order_acquire) < k - PIPE_SLOTS + 1)
            if (!take_chunk(p)) spin_pause(&spins);
        int16_t *r = p->ring + (size_t)(k % PIPE_SLOTS) * p->chunk_rows * p->row;
        uint32_t y0 = k * p->chunk_rows;
        uint32_t rows = f->h - y0 > p->chunk_rows ? p->chunk_rows : f->h - y0;
        size_t n = (size_t)rows * p->row;
        for (size_t i = 0; i < n && !l.ran_out; i++)
            r[i] = narrow(wai_rans_local_decode(&l, p->d, f->table, f->offset));
        if (!l.ran_out) {
            atomic_store(&p->produced, k + 1);
            wake(p);
        }
    }
    wai_rans_local_store(p->d, &l);
    if (l.ran_out) {
        p->status = WAI_stream_exhausted;
        atomic_store(&p->failed, 1);
        wake(p);
        return;
    }
    while (take_chunk(p)) {
    }
    wake(p); /* every chunk claimed: nothing left to wait for */
}

static void consume(pipe *p) {
    unsigned spins = 0;
    for (;;) {
        if (atomic_load_explicit(&p->claimed, memory_order_relaxed) >= p->n_chunks) return;
        if (take_chunk(p)) {
            spins = 0;
            continue;
        }
        if (atomic_load_explicit(&p->failed, memory_order_acquire)) return;
#if defined(WAI_HAVE_PTHREAD)
        if (++spins < SPINS_BEFORE_SLEEP) {
            cpu_pause();
            continue;
        }
        spins = 0;
        sleep_until_ready(p);
#else
        spin_pause(&spins);
#endif
    }
}

static void share(void *arg, unsigned i) {
    if (i == 0) produce(arg);
    else consume(arg);
}

wai_status wai_decode_motion_frame_pipe(const wai_motion_frame *f, wai_rans_dec *d,
                                        wai_pool *pool, const wai_allocator *a,
                                        uint32_t chunk_rows, uint8_t *out) {
    size_t row = (size_t)f->w * 3;
    if (chunk_rows == 0) {
        size_t rows = PIPE_CHUNK_SAMPLES / row;
        chunk_rows = rows < 1 ? 1 : rows > f->h ? f->h : (uint32_t)rows;
    }
    int16_t *ring = wai_alloc_array(a, (size_t)PIPE_SLOTS * chunk_rows * row, sizeof *ring);
    if (!ring) return wai_decode_motion_frame_fast(f, d, out); /* no memory: one thread */
    pipe p;
    p.f = f;
    p.recon = (f->cores ? f->cores : wai_cores_portable())->recon;
    p.d = d;
    p.out = out;
    p.ring = ring;
    p.chunk_rows = chunk_rows;
    p.n_chunks = (f->h + chunk_rows - 1) / chunk_rows;
    p.row = row;
    p.status = WAI_ok;
    atomic_init(&p.produced, 0);
    atomic_init(&p.claimed, 0);
    atomic_init(&p.failed, 0);
    for (unsigned s = 0; s < PIPE_SLOTS; s++) atomic_init(&p.done[s], 0);
#if defined(WAI_HAVE_PTHREAD)
    atomic_init(&p.sleeping, 0);
    if (pthread_mutex_init(&p.m, NULL) != 0) {
        wai_free(a, ring);
        return wai_decode_motion_frame_fast(f, d, out);
    }
    if (pthread_cond_init(&p.ready, NULL) != 0) {
        pthread_mutex_destroy(&p.m);
        wai_free(a, ring);
        return wai_decode_motion_frame_fast(f, d, out);
    }
#endif
    wai_pool_run(pool, 2, share, &p);
#if defined(WAI_HAVE_PTHREAD)
    pthread_cond_destroy(&p.ready);
    pthread_mutex_destroy(&p.m);
#endif
    wai_free(a, ring);
    return p.status;
}

wai_status wai_decode_motion_frame_threads(const wai_motion_frame *f, wai_rans_dec *d,
                                           wai_pool *pool, const wai_allocator *a,
                                           uint8_t *out) {
    int two = wai_pool_threads(pool) >= 2;
    int split = f->cores && f->cores->motion_split;
    if ((!two && !split) || (uint64_t)f->h * f->w * 3 < PIPE_MIN_SAMPLES)
        return wai_decode_motion_frame_fast(f, d, out);
    /* One thread: NULL runs the two shares in turn, and the first decodes
     * and reconstructs every chunk. */
    return wai_decode_motion_frame_pipe(f, d, two ? pool : NULL, a, 0, out);
}
