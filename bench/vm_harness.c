/* The C VM alone: runs one bench case (a file written by bench/vm_profile.py) through
 * kiln_run_batch on one thread, `reps` times, and prints its trap, steps and best thread CPU
 * time. No Python in the process, so valgrind (callgrind) and perf see only the interpreter.
 *
 *   vm_harness CASE.bin REPS
 *
 * CASE.bin: ten int64 (code, consts, image, type words, types, functions, parameter words,
 * max type depth, the function's index, argument words), then each array of kiln_program and
 * the argument words as an int64 count followed by its elements.
 */
#include <stdio.h>
#include <time.h>

#include "cpu.c"

static void *kiln_h_read(FILE *f, size_t size) {
    int64_t n = 0;
    void *p;
    if (fread(&n, 8, 1, f) != 1 || n < 0) exit(2);
    p = malloc((size_t)n * size + 8);
    if (!p || fread(p, size, (size_t)n, f) != (size_t)n) exit(2);
    return p;
}

int main(int argc, char **argv) {
    FILE *f;
    int64_t h[10], *args, *out, total;
    kiln_program p;
    kiln_item it;
    kiln_result r;
    kiln_limits lim = {(int64_t)1 << 40, 1 << 16, 1000, 1 << 24}; /* bench/vm.py's LIMITS */
    double best = 1e300;
    int reps, k;
    if (argc != 3 || !(f = fopen(argv[1], "rb")) || fread(h, 8, 10, f) != 10) return 2;
    reps = atoi(argv[2]);
    p.code = (const uint32_t *)kiln_h_read(f, 4);
    p.code_len = h[0];
    p.consts = (const int64_t *)kiln_h_read(f, 8);
    p.n_consts = h[1];
    p.image = (const int64_t *)kiln_h_read(f, 8);
    p.image_len = h[2];
    p.types = (const int32_t *)kiln_h_read(f, 4);
    p.type_skip = (const int32_t *)kiln_h_read(f, 4);
    p.types_len = h[3];
    p.type_off = (const int32_t *)kiln_h_read(f, 4);
    p.n_types = h[4];
    p.funcs = (const int64_t *)kiln_h_read(f, 8);
    p.n_funcs = h[5];
    p.params = (const int32_t *)kiln_h_read(f, 4);
    p.params_len = h[6];
    p.max_type_depth = h[7];
    args = (int64_t *)kiln_h_read(f, 8);
    it.prog = 0;
    it.func = (int32_t)h[8];
    it.arg_off = 0;
    it.arg_len = h[9];
    for (k = 0; k < reps; k++) {
        struct timespec a, b;
        double ms;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        if (kiln_run_batch(&p, 1, &it, 1, args, h[9], &lim, 1, &r, &out, &total) != 0) return 3;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
        if (ms < best) best = ms;
        kiln_free(out);
    }
    printf("trap %d steps %lld best_ms %.3f\n", r.trap, (long long)r.steps, best);
    return 0;
}
