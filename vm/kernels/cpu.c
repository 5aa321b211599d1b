/* The CPU backend's batch driver: runs many work items of the shared interpreter (interp.h) over
 * pthreads. Host only; vm/cpu.py builds it into a shared library and calls it through ctypes
 * (which releases the GIL for the call).
 *
 *   kiln_run_batch(progs, n_progs, items, n_items, args, n_args, limits, threads,
 *                  results, &out, &out_total)
 *
 * Each work item names a program (index into progs), a function of it, and its marshalled
 * arguments (args[arg_off .. arg_off + arg_len)). Every program is checked once
 * (kiln_program_check); an item of a malformed program, or with arguments outside the args
 * buffer, is the trap MemoryFault without running. Threads take items from an atomic counter in
 * small chunks; each has its own scratch memory (value stack, frames, heap arena, walk stack),
 * taken once per batch from the scratches earlier batches gave back (kiln_scratch_get) or
 * allocated, and appends the marshalled results of its items to its own growing buffer.
 * When all are done the buffers are joined into one (*out, freed by the caller with kiln_free),
 * and results[i] says item i's trap, steps and where its result lies in *out.
 *
 * Returns 0, or -1 when memory for the scratch or the results could not be allocated.
 *
 * kiln_verify_batch (at the end) runs a verification batch the same way but compares each result
 * with its expected value in place (kiln_verify_item) and writes only per-item outcomes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"

typedef struct {
    int32_t prog;
    int32_t func;
    int64_t arg_off;
    int64_t arg_len;
} kiln_item;

typedef struct {
    int32_t trap;
    int32_t thread; /* which thread ran it (its result buffer), internal */
    int64_t steps;
    int64_t out_off;
    int64_t out_len;
} kiln_result;

typedef struct {
    const kiln_program *progs;
    const int32_t *prog_ok; /* per program: 0 unsound, 1 sound, 2 also verified (kiln_check_programs) */
    int64_t n_progs;
    const kiln_item *items;
    int64_t n_items;
    const int64_t *args;
    int64_t n_args;
    kiln_limits lim;
    int64_t walk_cap;
    int64_t chunk;
    kiln_result *results;
    atomic_llong next;
    atomic_int failed;
} kiln_batch;

typedef struct {
    kiln_batch *batch;
    int32_t id;
    int64_t *out; /* this thread's results, back to back */
    int64_t out_len;
    int64_t out_cap;
} kiln_worker;

/* n items of `size` bytes, or 0 when that many bytes cannot even be counted */
static void *kiln_malloc(int64_t n, size_t size) {
    if (n < 1 || (uint64_t)n > SIZE_MAX / 4 / size) return 0;
    return malloc((size_t)n * size);
}

static int kiln_reserve(kiln_worker *w, int64_t words) {
    int64_t cap;
    int64_t *grown;
    if (w->out_cap - w->out_len >= words) return 0;
    cap = w->out_cap ? w->out_cap : 1024;
    while (cap - w->out_len < words) {
        if (cap > INT64_MAX / 4 || (uint64_t)cap > SIZE_MAX / 4 / sizeof(int64_t)) return -1;
        cap *= 2;
    }
    grown = (int64_t *)realloc(w->out, (size_t)cap * sizeof(int64_t));
    if (!grown) return -1;
    w->out = grown;
    w->out_cap = cap;
    return 0;
}

/* One thread's scratch memory for the limits: 0, or -1 when it could not be allocated (then
   kiln_scratch_free still frees what was). */
static int kiln_scratch_alloc(kiln_scratch *mem, const kiln_limits *lim, int64_t walk_cap) {
    mem->stack = (int64_t *)kiln_malloc(lim->stack_words, sizeof(int64_t));
    mem->frames = (kiln_frame *)kiln_malloc(lim->max_call_depth, sizeof(kiln_frame));
    mem->heap = (int64_t *)kiln_malloc(lim->heap_words, sizeof(int64_t));
    mem->walk = (kiln_walk *)kiln_malloc(walk_cap, sizeof(kiln_walk));
    mem->walk_cap = walk_cap;
    return mem->stack && mem->frames && mem->heap && mem->walk ? 0 : -1;
}

static void kiln_scratch_free(kiln_scratch *mem) {
    free(mem->stack);
    free(mem->frames);
    free(mem->heap);
    free(mem->walk);
}

/* Scratch memory kept between batches: a thread that finishes gives its scratch back here, and
   the next batch with the same limits takes it instead of allocating, so its pages are already
   mapped (a fresh heap costs a page fault per 4 KiB it touches, a third of the time of an
   allocating program). At most KILN_POOL_SLOTS scratches and KILN_POOL_BYTES bytes are kept;
   what does not fit is freed. Only sizes matter: no item reads memory it has not written. */
#define KILN_POOL_SLOTS 64
#define KILN_POOL_BYTES ((int64_t)1 << 29)

typedef struct {
    kiln_scratch mem;
    int64_t stack_words, max_call_depth, heap_words, bytes;
} kiln_pooled;

static kiln_pooled kiln_pool[KILN_POOL_SLOTS];
static int kiln_pool_n;
static int64_t kiln_pool_bytes;
static pthread_mutex_t kiln_pool_lock = PTHREAD_MUTEX_INITIALIZER;

static int64_t kiln_scratch_bytes(const kiln_limits *lim, int64_t walk_cap) {
    return (lim->stack_words + lim->heap_words) * (int64_t)sizeof(int64_t) +
           lim->max_call_depth * (int64_t)sizeof(kiln_frame) + walk_cap * (int64_t)sizeof(kiln_walk);
}

/* A scratch for the limits: a kept one when one fits, else a new one (kiln_scratch_alloc). */
static int kiln_scratch_get(kiln_scratch *mem, const kiln_limits *lim, int64_t walk_cap) {
    int i;
    pthread_mutex_lock(&kiln_pool_lock);
    for (i = kiln_pool_n - 1; i >= 0; i--) {
        kiln_pooled *p = &kiln_pool[i];
        if (p->stack_words == lim->stack_words && p->max_call_depth == lim->max_call_depth &&
            p->heap_words == lim->heap_words && p->mem.walk_cap >= walk_cap) {
            *mem = p->mem;
            kiln_pool_bytes -= p->bytes;
            kiln_pool[i] = kiln_pool[--kiln_pool_n];
            pthread_mutex_unlock(&kiln_pool_lock);
            return 0;
        }
    }
    pthread_mutex_unlock(&kiln_pool_lock);
    return kiln_scratch_alloc(mem, lim, walk_cap);
}

/* Gives a scratch back: kept when there is room, else freed. */
static void kiln_scratch_put(kiln_scratch *mem, const kiln_limits *lim) {
    int64_t bytes = kiln_scratch_bytes(lim, mem->walk_cap);
    if (mem->stack && mem->frames && mem->heap && mem->walk) {
        pthread_mutex_lock(&kiln_pool_lock);
        if (kiln_pool_n < KILN_POOL_SLOTS && bytes <= KILN_POOL_BYTES - kiln_pool_bytes) {
            kiln_pooled *p = &kiln_pool[kiln_pool_n++];
            p->mem = *mem;
            p->stack_words = lim->stack_words;
            p->max_call_depth = lim->max_call_depth;
            p->heap_words = lim->heap_words;
            p->bytes = bytes;
            kiln_pool_bytes += bytes;
            pthread_mutex_unlock(&kiln_pool_lock);
            return;
        }
        pthread_mutex_unlock(&kiln_pool_lock);
    }
    kiln_scratch_free(mem);
}

/* Frees every kept scratch (tests; a long-lived process that wants its memory back). */
void kiln_pool_drain(void) {
    pthread_mutex_lock(&kiln_pool_lock);
    while (kiln_pool_n > 0) kiln_scratch_free(&kiln_pool[--kiln_pool_n].mem);
    kiln_pool_bytes = 0;
    pthread_mutex_unlock(&kiln_pool_lock);
}

/* Walk levels any value of these programs needs, and what each program is: 0 when its tables are
   unsound (kiln_program_check: its items trap without running), 1 sound, 2 sound and verified
   (kiln_program_verify: its items run with kiln_run's fast handlers). Without memory for the
   verifier's two arrays a sound program is 1: every check, the same results. */
static int64_t kiln_check_programs(const kiln_program *progs, int64_t n_progs, int32_t *prog_ok) {
    int64_t p, walk_cap = 1;
    for (p = 0; p < n_progs; p++) {
        prog_ok[p] = kiln_program_check(&progs[p]) == TRAP_OK;
        if (prog_ok[p] && progs[p].code_len > 0 && (uint64_t)progs[p].code_len < SIZE_MAX / 16) {
            int64_t *scratch = (int64_t *)malloc((size_t)progs[p].code_len * 2 * sizeof(int64_t));
            if (scratch && kiln_program_verify(&progs[p], scratch, scratch + progs[p].code_len)) prog_ok[p] = 2;
            free(scratch);
        }
        if (progs[p].max_type_depth + 1 > walk_cap) walk_cap = progs[p].max_type_depth + 1;
    }
    return walk_cap;
}

/* The programs a batch runs: for each verified program (prog_ok 2) a copy of its kiln_program
   whose code is interp.h's kiln_program_fuse of it (the fused runs of the fast handlers), the
   others as they are. progs itself when nothing is fused (a build without KILN_FUSE, no memory):
   the same results either way. Free with kiln_unfuse. */
static const kiln_program *kiln_fuse_programs(const kiln_program *progs, int64_t n_progs, const int32_t *prog_ok) {
#ifdef KILN_FUSE
    kiln_program *run;
    int64_t p, fused = 0;
    for (p = 0; p < n_progs; p++) fused += prog_ok[p] == 2;
    if (!fused || !(run = (kiln_program *)malloc((size_t)n_progs * sizeof(kiln_program)))) return progs;
    for (p = 0; p < n_progs; p++) {
        uint32_t *code = 0;
        run[p] = progs[p];
        if (prog_ok[p] == 2 && (uint64_t)progs[p].code_len < SIZE_MAX / 8 &&
            (code = (uint32_t *)malloc((size_t)progs[p].code_len * sizeof(uint32_t))) != 0) {
            kiln_program_fuse(&progs[p], code);
            run[p].code = code;
        }
    }
    return run;
#else
    (void)n_progs;
    (void)prog_ok;
    return progs;
#endif
}

static void kiln_unfuse(const kiln_program *run, const kiln_program *progs, int64_t n_progs) {
    int64_t p;
    if (!run || run == progs) return;
    for (p = 0; p < n_progs; p++)
        if (run[p].code != progs[p].code) free((void *)run[p].code);
    free((void *)run);
}

/* What kiln_check_programs makes of one program (0 unsound, 1 sound, 2 verified): for the tests. */
int32_t kiln_program_status(const kiln_program *prog) {
    int32_t ok = 0;
    kiln_check_programs(prog, 1, &ok);
    return ok;
}

/* Items per grab from the shared counter: small enough to balance, large enough to be cheap. */
static int64_t kiln_chunk(int64_t n_items, int32_t threads) {
    int64_t chunk = n_items / ((int64_t)threads * 16);
    return chunk < 1 ? 1 : chunk > 64 ? 64 : chunk;
}

static void *kiln_work(void *arg) {
    kiln_worker *w = (kiln_worker *)arg;
    kiln_batch *b = w->batch;
    kiln_scratch mem;
    int64_t heap_words = b->lim.heap_words;
    if (kiln_scratch_get(&mem, &b->lim, b->walk_cap) != 0) {
        atomic_store(&b->failed, 1);
        goto out;
    }
    for (;;) {
        int64_t start = atomic_fetch_add(&b->next, b->chunk), end, i;
        if (start >= b->n_items || atomic_load(&b->failed)) break;
        end = start + b->chunk < b->n_items ? start + b->chunk : b->n_items;
        for (i = start; i < end; i++) {
            const kiln_item *it = &b->items[i];
            kiln_result *r = &b->results[i];
            r->thread = w->id;
            r->out_off = w->out_len;
            r->out_len = 0;
            r->steps = 0;
            if (it->prog < 0 || it->prog >= b->n_progs || !b->prog_ok[it->prog] || it->arg_off < 0 ||
                it->arg_len < 0 || it->arg_off > b->n_args || it->arg_len > b->n_args - it->arg_off) {
                r->trap = TRAP_MemoryFault;
                continue;
            }
            if (kiln_reserve(w, heap_words) != 0) {
                atomic_store(&b->failed, 1);
                goto out;
            }
            r->trap = kiln_exec(&b->progs[it->prog], it->func, b->args + it->arg_off, it->arg_len, &b->lim, &mem,
                                w->out + w->out_len, heap_words, &r->out_len, &r->steps, b->prog_ok[it->prog] == 2);
            w->out_len += r->out_len;
        }
    }
out:
    kiln_scratch_put(&mem, &b->lim);
    return 0;
}

void kiln_free(void *p) { free(p); }

int kiln_run_batch(const kiln_program *progs, int64_t n_progs, const kiln_item *items, int64_t n_items,
                   const int64_t *args, int64_t n_args, const kiln_limits *lim, int32_t threads,
                   kiln_result *results, int64_t **out, int64_t *out_total) {
    kiln_batch b;
    kiln_worker *workers;
    pthread_t *tids;
    int32_t *prog_ok, t, started;
    int64_t i, total = 0, *joined, *base;
    const kiln_program *run = progs; /* kiln_fuse_programs */
    int rc = 0;

    *out = 0;
    *out_total = 0;
    if (threads < 1) threads = 1;
    if (threads > n_items) threads = n_items > 0 ? (int32_t)n_items : 1;

    prog_ok = (int32_t *)malloc((size_t)(n_progs > 0 ? n_progs : 1) * sizeof(int32_t));
    workers = (kiln_worker *)calloc((size_t)threads, sizeof(kiln_worker));
    tids = (pthread_t *)calloc((size_t)threads, sizeof(pthread_t));
    base = (int64_t *)calloc((size_t)threads, sizeof(int64_t));
    if (!prog_ok || !workers || !tids || !base) {
        rc = -1;
        goto cleanup;
    }

    b.walk_cap = kiln_check_programs(progs, n_progs, prog_ok);
    run = kiln_fuse_programs(progs, n_progs, prog_ok);
    b.progs = run;
    b.prog_ok = prog_ok;
    b.n_progs = n_progs;
    b.items = items;
    b.n_items = n_items;
    b.args = args;
    b.n_args = n_args;
    b.lim = *lim;
    b.results = results;
    b.chunk = kiln_chunk(n_items, threads);
    atomic_init(&b.next, 0);
    atomic_init(&b.failed, 0);

    for (t = 0; t < threads; t++) {
        workers[t].batch = &b;
        workers[t].id = t;
    }
    /* the calling thread is worker 0; a thread that cannot be started leaves its share to the others */
    started = 1;
    for (t = 1; t < threads; t++) {
        if (pthread_create(&tids[t], 0, kiln_work, &workers[t]) != 0) break;
        started++;
    }
    kiln_work(&workers[0]);
    for (t = 1; t < started; t++) pthread_join(tids[t], 0);
    if (atomic_load(&b.failed)) {
        rc = -1;
        goto cleanup;
    }

    for (t = 0; t < started; t++) {
        base[t] = total;
        total += workers[t].out_len;
    }
    joined = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
    if (!joined) {
        rc = -1;
        goto cleanup;
    }
    for (t = 0; t < started; t++)
        if (workers[t].out_len) memcpy(joined + base[t], workers[t].out, (size_t)workers[t].out_len * sizeof(int64_t));
    for (i = 0; i < n_items; i++) results[i].out_off += base[results[i].thread];
    *out = joined;
    *out_total = total;

cleanup:
    if (workers)
        for (t = 0; t < threads; t++) free(workers[t].out);
    kiln_unfuse(run, progs, n_progs);
    free(prog_ok);
    free(workers);
    free(tids);
    free(base);
    return rc;
}

/* ---- verification batches (vm/batch.py's VerifyBatch) ------------------------------------------
 *
 *   kiln_verify_batch(progs, n_progs, cand_program, cand_function, cand_tests, n_cand,
 *                     arg_words, n_arg_words, arg_offsets, expected_words, n_expected_words,
 *                     expected_offsets, mode, tolerance, fuel, n_tests, items, n_items, limits,
 *                     threads, status, trap, steps, cancel)
 *
 * The arrays are interp.h's kiln_vbatch; fuel[t] (> 0) replaces the limits' fuel for test t. Each item is run and compared by kiln_verify_at and only
 * status[k] (0 equal, 1 unequal, 2 trapped), trap[k] and steps[k] are written: no result words.
 * Once *cancel is nonzero (another thread cancelled the batch: vm.batch.Cancel) no thread starts
 * another item; the items running finish (at most their fuel), and what was written is the
 * caller's to throw away. cancel may be 0 (never). The interpreter's loop is not touched.
 * Returns 0, or -1 when the scratch memory could not be allocated.
 */
typedef struct {
    kiln_vbatch b;
    int64_t walk_cap;
    int64_t chunk;
    int8_t *status, *trap;
    int64_t *steps;
    const int64_t *fuel;
    const volatile int32_t *cancel;
    atomic_llong next;
    atomic_int failed;
} kiln_vjob;

static void *kiln_verify_work(void *arg) {
    kiln_vjob *job = (kiln_vjob *)arg;
    kiln_vbatch b = job->b; /* this thread's copy: its lim.fuel is set per item */
    kiln_scratch mem;
    if (kiln_scratch_get(&mem, &job->b.lim, job->walk_cap) != 0) {
        atomic_store(&job->failed, 1);
    } else {
        for (;;) {
            int64_t start = atomic_fetch_add(&job->next, job->chunk), end, k;
            if (start >= job->b.n_items || atomic_load(&job->failed)) break;
            end = start + job->chunk < job->b.n_items ? start + job->chunk : job->b.n_items;
            for (k = start; k < end; k++) {
                int status, trap;
                int32_t t = b.items[2 * k + 1];
                if (job->cancel && *job->cancel) break; /* the rest is thrown away */
                b.lim.fuel = t >= 0 && t < b.n_tests && job->fuel[t] > 0 ? job->fuel[t] : job->b.lim.fuel;
                kiln_verify_at(&b, &mem, k, &status, &trap, &job->steps[k]);
                job->status[k] = (int8_t)status;
                job->trap[k] = (int8_t)trap;
            }
        }
    }
    kiln_scratch_put(&mem, &job->b.lim);
    return 0;
}

int kiln_verify_batch(const kiln_program *progs, int64_t n_progs, const int32_t *cand_program,
                      const int32_t *cand_function, const int32_t *cand_tests, int64_t n_cand,
                      const int64_t *arg_words, int64_t n_arg_words, const int64_t *arg_offsets,
                      const int64_t *expected_words, int64_t n_expected_words, const int64_t *expected_offsets,
                      const int8_t *mode, const double *tolerance, const int64_t *fuel, int64_t n_tests,
                      const int32_t *items,
                      int64_t n_items, const kiln_limits *lim, int32_t threads, int8_t *status, int8_t *trap,
                      int64_t *steps, const volatile int32_t *cancel) {
    kiln_vjob job;
    pthread_t *tids;
    int32_t *prog_ok, t, started;
    int rc = 0;

    if (threads < 1) threads = 1;
    if (threads > n_items) threads = n_items > 0 ? (int32_t)n_items : 1;
    prog_ok = (int32_t *)malloc((size_t)(n_progs > 0 ? n_progs : 1) * sizeof(int32_t));
    tids = (pthread_t *)calloc((size_t)threads, sizeof(pthread_t));
    if (!prog_ok || !tids) {
        free(prog_ok);
        free(tids);
        return -1;
    }
    job.walk_cap = kiln_check_programs(progs, n_progs, prog_ok);
    job.b.progs = kiln_fuse_programs(progs, n_progs, prog_ok);
    job.b.prog_ok = prog_ok;
    job.b.n_progs = n_progs;
    job.b.cand_program = cand_program;
    job.b.cand_function = cand_function;
    job.b.cand_tests = cand_tests;
    job.b.n_cand = n_cand;
    job.b.arg_words = arg_words;
    job.b.arg_offsets = arg_offsets;
    job.b.n_arg_words = n_arg_words;
    job.b.expected_words = expected_words;
    job.b.expected_offsets = expected_offsets;
    job.b.n_expected_words = n_expected_words;
    job.b.mode = mode;
    job.b.tolerance = tolerance;
    job.b.n_tests = n_tests;
    job.b.items = items;
    job.b.n_items = n_items;
    job.b.lim = *lim;
    job.chunk = kiln_chunk(n_items, threads);
    job.status = status;
    job.trap = trap;
    job.steps = steps;
    job.fuel = fuel;
    job.cancel = cancel;
    atomic_init(&job.next, 0);
    atomic_init(&job.failed, 0);

    /* the calling thread works too; a thread that cannot be started leaves its share to the others */
    started = 1;
    for (t = 1; t < threads; t++) {
        if (pthread_create(&tids[t], 0, kiln_verify_work, &job) != 0) break;
        started++;
    }
    kiln_verify_work(&job);
    for (t = 1; t < started; t++) pthread_join(tids[t], 0);
    if (atomic_load(&job.failed)) rc = -1;
    kiln_unfuse(job.b.progs, progs, n_progs);
    free(prog_ok);
    free(tids);
    return rc;
}
