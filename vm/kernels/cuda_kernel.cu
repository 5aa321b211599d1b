/* The CUDA backend's kernels, on the shared interpreter (interp.h): vm/cuda.py compiles this file
 * once per process with NVRTC (its local #includes inlined, so a hash of the text covers every
 * source) and tests/test_ptx.py compiles the same text with nvcc -ptx.
 *
 * Build with --fmad=false (and IEEE division, no flush to zero: vm/cuda.py's OPTIONS): float
 * results must equal CPython's bit for bit, and a fused multiply-add rounds once where CPython
 * rounds twice. That is not all it takes: CUDA's pow, fmod and floor are CUDA's libdevice, not
 * the host's libm that CPython (and the CPU backend) call. fmod and floor are exact by definition
 * and documented so for CUDA, but pow is documented to 2 ulp on the device (an H200 gave
 * 3.0 ** 1.0 = 2.9999999999999996), so vm/cuda.py never runs POW_F here: the items of a program
 * whose code holds it run on the host's C VM (HOST_OPS). The float // and % (CPython's
 * float_divmod, built on fmod) are checked against the C VM rather than assumed, and
 * tests/test_gpu_backend.py still measures this device's raw pow, as the reason for the routing.
 *
 * Kernels:
 *   kiln_check_programs   one thread per program: kiln_program_check, once per batch;
 *   kiln_verify_items     one thread per work item of a kiln_vbatch (vm/batch.py's VerifyBatch):
 *                         runs it and compares its result with the expected words where it ran
 *                         (kiln_verify_at), writing only status/trap/steps per item;
 *   kiln_reduce_first     per candidate: the first failing test (atomicMin over test indices) and
 *                         the steps of all its items (atomicAdd);
 *   kiln_reduce_verdicts  per candidate: the verdict, failing test and trap of that first test,
 *                         so that only per-candidate verdicts leave the device (Invariant 7);
 *   kiln_run_items        one thread per item of run_batch (vm.execute_batch on cuda): a result
 *                         marshalled into a fixed slot, or its size when it does not fit.
 *
 * Layout. Items are taken in run order (vm/batch.py's `items`, laid out so that the lanes of a warp
 * run one program on different tests: Langdon's and EvoGP's layout, so warps rarely diverge).
 * Threads stride over the items (item k, k + n_threads, ...), so the scratch memory (value stack,
 * frames, heap arena, walk stack: one slab of each per thread, sized from the limits) is allocated
 * for n_threads resident threads, chosen by vm/cuda.py from a device-memory budget, not per item.
 * Program code stays in global memory (read through the cache); staging a warp's code in shared
 * memory is left for later, because a block's warps may run different programs.
 */
#include "interp.h"

/* vm/cuda.py sizes the slabs with these */
static_assert(sizeof(kiln_frame) == 16, "vm/cuda.py: FRAME_BYTES");
static_assert(sizeof(kiln_walk) == 56, "vm/cuda.py: WALK_BYTES");
static_assert(sizeof(kiln_program) == 16 * 8, "vm/cuda.py: PROGRAM_WORDS");

/* Thread t's scratch slabs. */
__device__ static inline kiln_scratch kiln_slab(int64_t t, const kiln_limits *lim, int64_t *stacks, kiln_frame *frames,
                                                int64_t *heaps, kiln_walk *walks, int64_t walk_cap) {
    kiln_scratch mem;
    mem.stack = stacks + t * lim->stack_words;
    mem.frames = frames + t * lim->max_call_depth;
    mem.heap = heaps + t * lim->heap_words;
    mem.walk = walks + t * walk_cap;
    mem.walk_cap = walk_cap;
    return mem;
}

extern "C" __global__ void kiln_check_programs(const kiln_program *progs, int64_t n_progs, int32_t *prog_ok) {
    int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n_progs) prog_ok[p] = kiln_program_check(&progs[p]) == TRAP_OK;
}

extern "C" __global__ void kiln_verify_items(
    const kiln_program *progs, int64_t n_progs, const int32_t *prog_ok,
    const int32_t *cand_program, const int32_t *cand_function, const int32_t *cand_tests, int64_t n_cand,
    const int64_t *arg_words, int64_t n_arg_words, const int64_t *arg_offsets,
    const int64_t *expected_words, int64_t n_expected_words, const int64_t *expected_offsets,
    const int8_t *mode, const double *tolerance, const int64_t *test_fuel, int64_t n_tests, const int32_t *items,
    int64_t n_items, int64_t fuel, int64_t stack_words, int64_t max_call_depth, int64_t heap_words, int64_t n_threads,
    int64_t *stacks, kiln_frame *frames, int64_t *heaps, kiln_walk *walks, int64_t walk_cap,
    int8_t *status, int8_t *trap, int64_t *steps) {
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, k;
    kiln_vbatch b;
    kiln_scratch mem;
    if (t >= n_threads) return;
    b.progs = progs;
    b.prog_ok = prog_ok;
    b.n_progs = n_progs;
    b.cand_program = cand_program;
    b.cand_function = cand_function;
    b.cand_tests = cand_tests;
    b.n_cand = n_cand;
    b.arg_words = arg_words;
    b.arg_offsets = arg_offsets;
    b.n_arg_words = n_arg_words;
    b.expected_words = expected_words;
    b.expected_offsets = expected_offsets;
    b.n_expected_words = n_expected_words;
    b.mode = mode;
    b.tolerance = tolerance;
    b.n_tests = n_tests;
    b.items = items;
    b.n_items = n_items;
    b.lim.fuel = fuel;
    b.lim.stack_words = stack_words;
    b.lim.max_call_depth = max_call_depth;
    b.lim.heap_words = heap_words;
    mem = kiln_slab(t, &b.lim, stacks, frames, heaps, walks, walk_cap);
    for (k = t; k < n_items; k += n_threads) {
        int s, tr;
        int32_t test = items[2 * k + 1];
        /* test_fuel[test] > 0 replaces the limits' fuel for that test */
        b.lim.fuel = test >= 0 && test < n_tests && test_fuel[test] > 0 ? test_fuel[test] : fuel;
        kiln_verify_at(&b, &mem, k, &s, &tr, &steps[k]);
        status[k] = (int8_t)s;
        trap[k] = (int8_t)tr;
    }
}

/* first[c] starts at INT32_MAX, total[c] at 0 */
extern "C" __global__ void kiln_reduce_first(const int32_t *items, int64_t n_items, int64_t n_cand, const int8_t *status,
                                             const int64_t *steps, int32_t *first, unsigned long long *total) {
    int64_t k;
    for (k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n_items; k += (int64_t)gridDim.x * blockDim.x) {
        int32_t c = items[2 * k];
        if (c < 0 || c >= n_cand) continue;
        atomicAdd(&total[c], (unsigned long long)steps[k]);
        if (status[k] != KILN_EQUAL) atomicMin(&first[c], items[2 * k + 1]);
    }
}

/* vm.batch.reduce_items on the device: the item of each candidate's first failing test decides.
   trap_verdict[code] is vm.batch.verdict_of_trap(code); an unequal value is wrong_answer. verdict,
   fail_test and trap_out start at PASSED, -1 and 0. Duplicate items of one test write the same. */
extern "C" __global__ void kiln_reduce_verdicts(const int32_t *items, int64_t n_items, int64_t n_cand,
                                                const int8_t *status, const int8_t *trap, const int32_t *first,
                                                const int32_t *cand_tests, const int8_t *trap_verdict,
                                                int32_t n_traps, int32_t wrong_answer, int8_t *verdict,
                                                int32_t *fail_test, int8_t *trap_out) {
    int64_t k;
    for (k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n_items; k += (int64_t)gridDim.x * blockDim.x) {
        int32_t c = items[2 * k], t = items[2 * k + 1];
        if (c < 0 || c >= n_cand || status[k] == KILN_EQUAL || t != first[c]) continue;
        fail_test[c] = t - cand_tests[2 * c];
        if (status[k] == KILN_UNEQUAL) {
            verdict[c] = (int8_t)wrong_answer;
            trap_out[c] = 0;
        } else {
            int code = trap[k] >= 0 && trap[k] < n_traps ? trap[k] : TRAP_MemoryFault;
            verdict[c] = trap_verdict[code];
            trap_out[c] = (int8_t)code;
        }
    }
}

/* run_batch: item k runs function funcs[k] of program progs[prog[k]] on args[arg_off[k] ..
   + arg_len[k]). Its result goes to outs[k * out_cap ..] when it fits; when it is larger (and not
   past heap_words, which is HeapExhausted) traps[k] is -1 and out_len[k] the words it needs, and
   the host runs it again with room. */
extern "C" __global__ void kiln_run_items(const kiln_program *progs, int64_t n_progs, const int32_t *prog_ok,
                                          const int32_t *prog, const int32_t *funcs, const int64_t *arg_off,
                                          const int64_t *arg_len, const int64_t *args, int64_t n_args,
                                          int64_t n_items, int64_t fuel, int64_t stack_words,
                                          int64_t max_call_depth, int64_t heap_words, int64_t n_threads,
                                          int64_t *stacks, kiln_frame *frames, int64_t *heaps, kiln_walk *walks,
                                          int64_t walk_cap, int64_t *outs, int64_t out_cap, int64_t *out_len,
                                          int32_t *traps, int64_t *steps) {
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, k;
    kiln_limits lim;
    kiln_scratch mem;
    if (t >= n_threads) return;
    lim.fuel = fuel;
    lim.stack_words = stack_words;
    lim.max_call_depth = max_call_depth;
    lim.heap_words = heap_words;
    mem = kiln_slab(t, &lim, stacks, frames, heaps, walks, walk_cap);
    for (k = t; k < n_items; k += n_threads) {
        const kiln_program *p;
        kiln_vm vm;
        int64_t result = 0, size = 0;
        int tr;
        out_len[k] = 0;
        steps[k] = 0;
        if (prog[k] < 0 || prog[k] >= n_progs || !prog_ok[prog[k]] || arg_off[k] < 0 || arg_len[k] < 0 ||
            arg_off[k] > n_args || arg_len[k] > n_args - arg_off[k]) {
            traps[k] = TRAP_MemoryFault;
            continue;
        }
        p = &progs[prog[k]];
        tr = kiln_run(p, funcs[k], args + arg_off[k], arg_len[k], &lim, &mem, &vm, &result, &steps[k], 0);
        if (!tr) {
            int32_t pos = p->type_off[p->funcs[(int64_t)funcs[k] * KILN_FUNC_WORDS + KILN_F_RET]];
            tr = kiln_marshal(&vm, pos, result, 0, heap_words, &size); /* measure */
            if (!tr && size > out_cap) {
                out_len[k] = size;
                tr = -1;
            } else if (!tr) {
                tr = kiln_marshal(&vm, pos, result, outs + k * out_cap, out_cap, &out_len[k]);
            }
        }
        traps[k] = tr;
    }
}
