/* SPDX-License-Identifier: BSD-2-Clause */
/* A small test harness: a test is a function; it passes when none of its
 * CHECKs failed. The runner prints one line per failure and closes with
 * "N passed, N failed". --shard K/N runs the Kth (from 1) of every N tests the filter
 * takes (CI runs a binary's shards side by side); --times prints each test's
 * milliseconds, to find what makes a run slow. */
#ifndef WAI_TESTS_HARNESS_H
#define WAI_TESTS_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

typedef void (*wai_test_fn)(void);

/* Runs fn as the test `name` unless the command line's filter or shard leaves
 * it out. */
void harness_run(const char *name, wai_test_fn fn);

/* A test too long to sit whole in one shard, cut into parts: runs
 * fn(part, parts) as the test "name/part" for each part below parts. Each
 * part is dealt to a shard on its own, so a run's shards stay even. */
typedef void (*wai_test_part_fn)(unsigned part, unsigned parts);
void harness_run_parts(const char *name, unsigned parts, wai_test_part_fn fn);

/* Between harness_together(1) and harness_together(0), a suite's tests are
 * dealt to one shard as a whole: for a test that checks what the tests
 * before it counted. */
void harness_together(int on);

/* Records a check; returns ok so callers can stop early on failure. */
int harness_check(int ok, const char *expr, const char *file, int line);
int harness_check_msg(int ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The current test cannot run on this target (why: one line, printed):
 * counted as skipped, never as passed, unless a check of it failed. A test
 * that makes no check and does not skip fails ("ran no check"). */
void harness_skip(const char *why);

/* The tests/ directory (from --data), for corpus files. */
const char *harness_data_dir(void);

/* Reads a whole file under harness_data_dir(); returns NULL if absent.
 * The caller frees the buffer with free(). */
uint8_t *harness_read_file(const char *relpath, size_t *len);

/* A parameter set's members read from a folder under harness_data_dir():
 * names[0..n) (at most HARNESS_SET_MAX), each a failed check when absent
 * (returns 0 then). Free with harness_set_files_free. */
#define HARNESS_SET_MAX 8
typedef struct harness_set_files {
    const char *const *names;
    int n;
    uint8_t *data[HARNESS_SET_MAX];
    size_t len[HARNESS_SET_MAX];
} harness_set_files;
int harness_set_files_read(const char *dir, const char *const *names, int n,
                           harness_set_files *f);
void harness_set_files_free(harness_set_files *f);

/* A wai_set of the first n members read (borrowed), member `broken` (or
 * -1) replaced by junk; NULL (a failed check) when it cannot be made. */
struct wai_set;
struct wai_set *harness_set_make(wai_context *ctx, const harness_set_files *f, int n, int broken,
                                 const char *junk);

/* Steps run by harness_sweep_allocations: on ctx and set, freeing what
 * they made; their status. */
typedef wai_status (*harness_steps)(wai_context *ctx, struct wai_set *set, const void *arg);

/* Each allocation of steps failed in turn: calls part + 1, part + 1 +
 * parts, ... of a run, each on a fresh context of `threads` on the
 * counting allocator and the set of f's first n members, until a run had
 * no call left to fail. Each failure must be out_of_memory (or absorbed:
 * the run succeeds, as when the native WebNN's engine falls back), nothing
 * may leak, and at least one call must have failed. */
void harness_sweep_allocations(unsigned part, unsigned parts, unsigned threads,
                               const harness_set_files *f, int n, harness_steps steps,
                               const void *arg);

/* A deterministic PRNG (splitmix64) so every architecture tests the same
 * "random" inputs. */
uint64_t harness_rand(uint64_t *state);

/* The state from which harness_rand draws stream k of seed: its sequence
 * from the (k·2^32)th draw on. Streams never overlap, so a test's parts
 * each take one and none depends on another having run first. */
uint64_t harness_stream(uint64_t seed, unsigned k);

/* An allocator for allocation-failure tests: it counts calls, live blocks
 * and bytes, and fails the call numbered fail_at (1-based; 0 fails none). */
typedef struct harness_alloc {
    size_t calls;       /* allocation calls so far, failed ones included */
    size_t fail_at;
    int failed;         /* set once a call has been failed */
    size_t live;        /* blocks allocated and not yet freed */
    size_t bytes_now, bytes_peak;
} harness_alloc;

/* An allocator drawing on h (zero it first; set fail_at as needed). */
wai_allocator harness_allocator(harness_alloc *h);

/* The suites, one per area; each file under tests/unit defines one. */
void suite_status(void);
void suite_reader(void);
void suite_json(void);
void suite_hash(void);
void suite_formats(void);
void suite_formats_neural(void);
void suite_rans(void);
void suite_corpus(void);
void suite_codecs(void);
void suite_motion_diff(void);
void suite_route(void);
void suite_streaming(void);
void suite_webnn_limits(void);
void suite_webnn_memory(void);
void suite_motion(void);
void suite_encode(void);
void suite_hyper_encode(void);
void suite_mlic_encode(void);
void suite_set_network(void);
void suite_seek(void);
void suite_model(void);
void suite_layers(void);
void suite_cores(void);
void suite_layers_diff(void);
void suite_network(void);
void suite_dispatch(void);
void suite_model_corpus(void);
void suite_sets(void);
void suite_decode_memory(void);
void suite_decoder_dispatch(void);
void suite_threads(void);
void suite_int_backend(void);
void suite_webnn_conformance(void);
void suite_webnn_kernels(void);
void suite_webnn_fast(void);
void suite_int_synth(void);
void suite_int_mlicpp(void);
void suite_int_cond(void);
void suite_decimal32(void);
void suite_json_forms(void);
void suite_binary64(void);
void suite_commitments(void);
void suite_signing(void);
void suite_receipt(void);
void suite_ed25519(void);
void suite_energy_figure(void);
void suite_bmshj2018(void);
void suite_webnn_validation(void);

#define CHECK(c) harness_check(!!(c), #c, __FILE__, __LINE__)
#define CHECK_MSG(c, ...) harness_check_msg(!!(c), __FILE__, __LINE__, __VA_ARGS__)

/* A worker pool of n threads (1..64), started on first use and kept for
 * the run, as a context keeps its own: kernels under test split their
 * work over it (common/pool.h). NULL when it cannot be had. */
struct wai_pool *harness_pool(unsigned n);

/* The inner loops of level isa (ops/cores.h), filled once for the run (a
 * level above the CPU's gives the CPU's): what the fast kernels under test
 * run, through an exec {NULL, pool, harness_cores(isa)}. */
struct wai_cores;
const struct wai_cores *harness_cores(int isa);

/* The CPU's own level (ops/cpu.h). */
int harness_isa(void);

#endif
