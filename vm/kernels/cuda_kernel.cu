/* The CUDA backend's kernel: one work item per thread, run by the shared interpreter (interp.h).
 *
 * This is the minimal form that keeps the device build of interp.h tested (tests/test_ptx.py
 * compiles it with `nvcc -ptx --fmad=false`); the CUDA backend lays out real batches (programs
 * shared by warps, code in shared memory) on top of the same kiln_exec.
 *
 * Memory, all in device global memory and owned by the host:
 *   per item i: function funcs[i], marshalled arguments args[arg_off[i] .. arg_off[i] + arg_len[i]);
 *   per thread: a value stack of lim.stack_words slots, lim.max_call_depth frames, a heap of
 *               lim.heap_words words, walk_cap walk levels and out_cap output words, each a slab
 *               indexed by the item number;
 *   results:    traps[i], steps[i], out_len[i] words at outs + i * out_cap.
 */
#include "interp.h"

extern "C" __global__ void kiln_run_items(kiln_program prog, kiln_limits lim, int64_t n_items,
                                          const int32_t *funcs, const int64_t *arg_off,
                                          const int64_t *arg_len, const int64_t *args,
                                          int64_t *stacks, kiln_frame *frames, int64_t *heaps,
                                          kiln_walk *walks, int64_t walk_cap, int64_t *outs,
                                          int64_t out_cap, int64_t *out_len, int32_t *traps,
                                          int64_t *steps) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    kiln_scratch mem;
    int trap;
    if (i >= n_items) return;
    mem.stack = stacks + i * lim.stack_words;
    mem.frames = frames + i * lim.max_call_depth;
    mem.heap = heaps + i * lim.heap_words;
    mem.walk = walks + i * walk_cap;
    mem.walk_cap = walk_cap;
    trap = kiln_program_check(&prog);
    if (trap != TRAP_OK) {
        traps[i] = trap;
        steps[i] = 0;
        out_len[i] = 0;
        return;
    }
    traps[i] = kiln_exec(&prog, funcs[i], args + arg_off[i], arg_len[i], &lim, &mem,
                         outs + i * out_cap, out_cap, &out_len[i], &steps[i]);
}
