/* The batched compiler on a GPU: one thread compiles one program (compiler/cuda.py launches it).
 *
 * The same kc.h as the CPU driver (kc_cpu.c), compiled as device code (KC_FN is __device__).
 * The inputs are the CPU driver's: one byte buffer holding every source, file name and
 * argument-type spec, with per-program offsets and lengths, and the kc_config built from
 * vm/isa.py at run time (compiler/batched.py's _config()).
 *
 * One thread per program, not a grid-stride loop: kc_compile leaves the container inside the
 * arena it was given, so a thread that went on to a second program would overwrite its first
 * container (or need an output allocator). With one program per thread and one arena per thread
 * a launch needs no allocation at all; the host sizes a launch (how many programs) so that
 * threads x arena fits its memory budget, launches again for the rest, and after each launch
 * kc_gather_containers packs the containers back to back for one download. Load balance is no
 * worse than a grid-stride loop would give: the threads of a warp diverge on different programs
 * either way, and the host sorts the programs by length so that a launch holds similar ones.
 *
 * A program whose container does not fit the launch's arena (kc_compile returns -2) gets status
 * KC_ARENA_SHORT and the bytes it needs; the host compiles it with the CPU build.
 *
 * Stack: kc.h's parser and tree walks recurse (depth capped by KC_MAX_DEPTH), so ptxas cannot
 * size the stack statically; compiler/cuda.py compiles this file with KC_MAX_DEPTH lowered to
 * its DEVICE_MAX_DEPTH (a deeper program is refused here and compiled by the CPU build) and sets
 * cudaLimitStackSize from the per-frame sizes `ptxas -v` reports (docs/BATCHED_COMPILER.md, "On
 * the GPU"; tests/test_batched_cuda.py checks the bound against a fresh measurement).
 */
#include "kc.h"

#define KC_ARENA_SHORT 2 /* status: the arena was too small (need[i] says how much it takes) */

/* need[i] = kc_arena_bytes of program i: an arena that size always suffices. */
extern "C" __global__ void kc_arena_needs(const int64_t *src_len, const int64_t *name_len, int64_t n,
                                          int64_t *need) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        need[i] = kc_arena_bytes(src_len[i], name_len[i]);
}

/* Thread t compiles program i = ids[t] (t < count) in arenas[t * arena_cap, (t + 1) * arena_cap).
   Out, indexed by i: status[i] (KC_OK, KC_UNSUPPORTED or KC_ARENA_SHORT), out_off[i] (the
   container's offset inside the thread's arena) and out_len[i] (its length, 0 unless KC_OK),
   need[i] (KC_ARENA_SHORT: the arena bytes the program takes), diags[i * KC_DIAG_BYTES] (the
   reason of KC_UNSUPPORTED, NUL-terminated). */
extern "C" __global__ void kc_compile_programs(const char *buf, const int64_t *src_off, const int64_t *src_len,
                                               const int64_t *name_off, const int64_t *name_len,
                                               const int64_t *spec_off, const int64_t *spec_len, const int64_t *ids,
                                               int64_t count, const kc_config *cfg, uint8_t *arenas, int64_t arena_cap,
                                               int32_t *status, int64_t *out_off, int64_t *out_len, int64_t *need,
                                               char *diags) {
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (t >= count) return;
    int64_t i = ids[t];
    uint8_t *arena = arenas + t * arena_cap;
    const uint8_t *container = 0;
    int64_t want = 0;
    int64_t n = kc_compile(buf + src_off[i], src_len[i], buf + name_off[i], name_len[i], buf + spec_off[i],
                           spec_len[i], cfg, arena, arena_cap, &container, &want, diags + i * KC_DIAG_BYTES);
    need[i] = want;
    if (n >= 0 && container) {
        status[i] = KC_OK;
        out_off[i] = (int64_t)(container - arena);
        out_len[i] = n;
    } else {
        status[i] = n == -2 ? KC_ARENA_SHORT : KC_UNSUPPORTED;
        out_off[i] = 0;
        out_len[i] = 0;
    }
}

/* Block b copies the container of program ids[b] (compiled by thread b of the last
   kc_compile_programs launch) to dest + dest_off[b]; programs without one have out_len 0. */
extern "C" __global__ void kc_gather_containers(const uint8_t *arenas, int64_t arena_cap, const int64_t *ids,
                                                int64_t count, const int64_t *out_off, const int64_t *out_len,
                                                const int64_t *dest_off, uint8_t *dest) {
    for (int64_t b = blockIdx.x; b < count; b += gridDim.x) {
        int64_t i = ids[b];
        const uint8_t *from = arenas + b * arena_cap + out_off[i];
        uint8_t *to = dest + dest_off[b];
        for (int64_t j = threadIdx.x; j < out_len[i]; j += blockDim.x) to[j] = from[j];
    }
}
