/* The batched compiler on the CPU: every core takes the next program of the batch.
 *
 * compiler/batched.py builds this file (with kc.h) into a shared library and calls
 * kc_compile_batch through ctypes, which releases the GIL: the threads here are real parallelism.
 * Each thread owns one arena, grown when a program asks for more (kc_compile says how much);
 * each finished container is copied into a malloc'd block that kc_gather copies out and frees.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kc.h"

typedef struct {
    const char *buf;
    const int64_t *src_off, *src_len, *name_off, *name_len, *spec_off, *spec_len;
    int64_t n;
    const kc_config *cfg;
    uint8_t **out_ptr;
    int64_t *out_len;
    int32_t *status;
    char *diags;
    int64_t next;  /* the next program to take (atomic) */
} kc_batch;

#define KC_FIRST_ARENA (1 << 20)

static void *kc_worker(void *arg) {
    kc_batch *b = (kc_batch *)arg;
    int64_t arena_cap = KC_FIRST_ARENA;
    uint8_t *arena = (uint8_t *)malloc((size_t)arena_cap);
    for (;;) {
        int64_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
        if (i >= b->n) break;
        char *diag = b->diags + i * KC_DIAG_BYTES;
        b->out_ptr[i] = 0;
        b->out_len[i] = 0;
        b->status[i] = KC_UNSUPPORTED;
        const uint8_t *container = 0;
        int64_t n = -2, need = 0;
        for (int attempt = 0; attempt < 3 && n == -2; attempt++) {  /* the tokens, then the rest */
            if (need > arena_cap) {  /* grow to what the program needs */
                free(arena);
                arena_cap = need;
                arena = (uint8_t *)malloc((size_t)arena_cap);
            }
            if (!arena) {
                arena_cap = 0;
                break;
            }
            n = kc_compile(b->buf + b->src_off[i], b->src_len[i], b->buf + b->name_off[i], b->name_len[i],
                           b->buf + b->spec_off[i], b->spec_len[i], b->cfg, arena, arena_cap, &container,
                           &need, diag);
        }
        if (n == -2 || !arena) {
            strcpy(diag, "unsupported by the batched compiler: out of host memory for the arena");
            continue;
        }
        if (n < 0) continue;
        uint8_t *copy = (uint8_t *)malloc((size_t)n);
        if (!copy) {
            strcpy(diag, "unsupported by the batched compiler: out of host memory for the container");
            continue;
        }
        memcpy(copy, container, (size_t)n);
        b->out_ptr[i] = copy;
        b->out_len[i] = n;
        b->status[i] = KC_OK;
    }
    free(arena);
    return 0;
}

/* Compiles programs [0, n) with `threads` threads. Program i's source, name and argument-type
   spec are buf[*_off[i], *_off[i] + *_len[i]). Out: status[i] (KC_OK or KC_UNSUPPORTED),
   out_ptr[i] / out_len[i] (a malloc'd container: pass them to kc_gather) and diags[i *
   KC_DIAG_BYTES] (the reason, NUL-terminated). Returns 0, or -1 when no thread could start. */
int kc_compile_batch(const char *buf, const int64_t *src_off, const int64_t *src_len, const int64_t *name_off,
                     const int64_t *name_len, const int64_t *spec_off, const int64_t *spec_len, int64_t n,
                     const kc_config *cfg, int threads, uint8_t **out_ptr, int64_t *out_len, int32_t *status,
                     char *diags) {
    kc_batch b;
    b.buf = buf; b.src_off = src_off; b.src_len = src_len; b.name_off = name_off; b.name_len = name_len;
    b.spec_off = spec_off; b.spec_len = spec_len; b.n = n; b.cfg = cfg; b.out_ptr = out_ptr;
    b.out_len = out_len; b.status = status; b.diags = diags; b.next = 0;
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    if (threads > n) threads = n > 0 ? (int)n : 1;
    if (threads == 1) {
        kc_worker(&b);
        return 0;
    }
    pthread_t ids[256];
    int started = 0;
    for (int t = 0; t < threads; t++)
        if (pthread_create(&ids[started], 0, kc_worker, &b) == 0) started++;
    if (!started) return -1;
    for (int t = 0; t < started; t++) pthread_join(ids[t], 0);
    return 0;
}

/* Copies the containers of a batch back to back into `blob` and frees them. */
void kc_gather(uint8_t **out_ptr, const int64_t *out_len, int64_t n, uint8_t *blob) {
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!out_ptr[i]) continue;
        memcpy(blob + at, out_ptr[i], (size_t)out_len[i]);
        at += out_len[i];
        free(out_ptr[i]);
        out_ptr[i] = 0;
    }
}
