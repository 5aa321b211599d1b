/* The kiln interpreter: ONE source, compiled twice.
 *
 * As host C11 by the system compiler (vm/cpu.py builds it with vm/kernels/cpu.c, the pthread batch
 * driver) and as CUDA device code by nvcc or NVRTC (vm/kernels/cuda_kernel.cu). Every function
 * carries KILN_FN (or KILN_COLD: a call on the device, scalar.h). The contract it implements is
 * vm/isa.py (the instructions) and vm/README.md (memory layout, allocation accounting, frames,
 * fuel, the exact semantics of every tricky op); vm/ref.py is the readable version of the same thing, and the two agree bit for bit.
 * The meaning of the scalar instructions (int64 arithmetic with its overflow checks, float
 * floor division, modulo, pow and rounding, conversions) is vm/kernels/scalar.h, written once
 * and shared with the batched compiler's constant folder (compiler/kernels/kc_opt.h).
 *
 * Rules of this file, so that it compiles and behaves the same on both sides:
 * - no libc beyond fabs here; the rest of <math.h> (device functions in CUDA) only in scalar.h;
 *   NaN and infinity are tested on the bits, never with isnan/isinf macros;
 * - no recursion: the VM's frames are an explicit array, nested values (deep equality,
 *   ordering, marshalling) are walked with an explicit stack of kiln_walk levels;
 * - no allocation: all memory (value stack, frames, heap arena, walk stack, output) is passed in
 *   by the caller in a kiln_scratch;
 * - every access to the stack, the heap, the constant image, the constants and the code is
 *   bounds-checked: a bad program is the trap MemoryFault, never a crash. The checks that depend
 *   on the code alone (operand stack depth, local slots, jump targets, loop-step operands) are
 *   made once per program by kiln_program_verify (host) where it passes, and the hot handlers of
 *   the computed-goto build then skip them (kiln_run's fast: interp_hot.h, the hot handlers
 *   written once and included twice, with and without those checks); a program it does not
 *   pass runs with every check, so its traps and steps are what they always were;
 * - a verified program's code runs, in the computed-goto build, as kiln_program_fuse's private
 *   copy of it (cpu.c, once per batch): common runs of instructions marked with internal opcodes
 *   (KILN_X_*, never in a program) whose handlers run the run at one dispatch, with the same
 *   fuel, traps and steps; CUDA and the switch build run the code as it is;
 * - build with floating-point contraction off (-ffp-contract=off, nvcc --fmad=false) so float
 *   results equal CPython's bit for bit.
 *
 * Dispatch is a switch; built with -DKILN_COMPUTED_GOTO on GCC or clang, each handler ends with
 * its own fetch and indirect jump instead (labels as values), about a third faster on the CPU.
 * Both are the same cases, and the tests run both. The loop fetches through an instruction
 * pointer (ip), and on x86-64 GCC keeps ip, the operand stack pointer, the fuel and the locals
 * pointer in registers (KILN_REG); the container accessors are inlined on the host (KILN_HOT).
 *
 * Entry points:
 *   kiln_program_check(prog)   TRAP_OK, or TRAP_MemoryFault when the tables of a program are
 *                              inconsistent; run it once per program before kiln_exec.
 *   kiln_exec(...)             runs ONE work item (one call of one function) to a trap code and
 *                              marshals its result;
 *   kiln_verify_item(...)      runs ONE (candidate, test) item and compares its result with the
 *                              expected words in place (the one comparison of the CPU and CUDA
 *                              verify paths): equal, unequal or trapped;
 *   kiln_verify_at(batch, k)   item k of a kiln_vbatch, its ranges checked, by kiln_verify_item.
 * Both are kiln_run, which leaves the result in the machine's heap.
 */
#ifndef KILN_INTERP_H
#define KILN_INTERP_H

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <math.h>
#include <stdint.h>
#endif

/* scalar.h: KILN_FN, KILN_COLD, the int64 and float helpers, the scalar semantics */
#include "kiln_isa.h"
#include "scalar.h"

/* KILN_HOT: the accessors every container instruction goes through (kiln_ro, kiln_rw,
   kiln_str, kiln_list): a call on the device like KILN_COLD, always inlined on the host, where a call
   costs the loop its registers (GCC otherwise keeps them out of line in the big loop).
   KILN_HOT_FN is the same for a KILN_FN (inlined on the device too). */
#if defined(__CUDACC__)
#define KILN_HOT KILN_COLD
#define KILN_HOT_FN KILN_FN
#elif defined(__GNUC__)
#define KILN_HOT static inline __attribute__((always_inline))
#define KILN_HOT_FN KILN_HOT
#else
#define KILN_HOT static inline
#define KILN_HOT_FN KILN_HOT
#endif

/* KILN_REG(type, name, reg): a local of kiln_run's loop that GCC on x86-64 keeps in a
   callee-saved register (a local register variable: a placement hint, the meaning is a plain
   local's). Left alone, GCC keeps the instruction pointer, the fuel and the locals pointer in
   the stack frame (the loop's many helper calls leave it too few registers), and every
   dispatch loads and stores them. Elsewhere (clang, CUDA, other CPUs) a plain local. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__CUDACC__)
#define KILN_REG(type, name, reg) register type name __asm__(reg)
#else
#define KILN_REG(type, name, reg) type name
#endif

#ifdef __CUDACC__
/* kiln_run, the big loop, is compiled once and called by each kernel that runs items (inlining
   it into every kernel doubles NVRTC's time for no gain: it is entered once per item). Helpers
   of more than a few lines are KILN_COLD (scalar.h): calls on the device, not inlined into
   kiln_run's handlers: inlined, their temporaries raise the loop's register pressure to 255
   registers and ~8 KB of spills per thread; called, the kernels need 170-188 registers and spill
   nothing (docs/GPU.md, `kiln gpu check`). -DKILN_DEVICE_INLINE inlines them again, for
   comparing the two builds on a device. On the CPU the host compiler decides, as before. */
#define KILN_RUN_FN __device__ static __noinline__
#else
#define KILN_RUN_FN static inline
#endif

/* ---- the program, as flat arrays (built by vm/build.py: flatten) ----------------------------- */

/* The word after the code of every function: not an instruction (opcode 255 >= KILN_N_OPS), so
   running off the end of a function is the trap MemoryFault without a bounds check per step. */
#define KILN_GUARD 0xffffffffu

/* One function record: KILN_FUNC_WORDS int64 words in kiln_program.funcs. */
enum {
    KILN_F_START = 0,     /* first code word in kiln_program.code */
    KILN_F_LEN = 1,       /* code words */
    KILN_F_NPARAMS = 2,   /* parameters */
    KILN_F_NLOCALS = 3,   /* locals, parameters included */
    KILN_F_MAXSTACK = 4,  /* maximum operand-stack depth */
    KILN_F_RET = 5,       /* return type index */
    KILN_F_PARAMS = 6,    /* offset of the parameter type indices in kiln_program.params */
    KILN_FUNC_WORDS = 7
};

typedef struct {
    const uint32_t *code;      /* the code of all functions, each followed by KILN_GUARD */
    int64_t code_len;
    const int64_t *consts;     /* the 64-bit constant pool */
    int64_t n_consts;
    const int64_t *image;      /* the constant image: addresses [0, image_len) */
    int64_t image_len;
    const int32_t *types;      /* all type descriptors, back to back (prefix order) */
    const int32_t *type_skip;  /* per descriptor word of a node: the index just after its subtree */
    int64_t types_len;
    const int32_t *type_off;   /* type index -> start of its descriptor in types */
    int64_t n_types;
    const int64_t *funcs;      /* KILN_FUNC_WORDS int64 per function */
    int64_t n_funcs;
    const int32_t *params;     /* parameter type indices of all functions */
    int64_t params_len;
    int64_t max_type_depth;    /* deepest nesting of lists and tuples in any type: walk levels */
} kiln_program;

typedef struct {
    int64_t fuel;
    int64_t stack_words;
    int64_t max_call_depth;
    int64_t heap_words;
} kiln_limits;

typedef struct {
    int32_t func;
    int32_t ret_pc;  /* where this frame resumes after the call it made returns */
    int64_t base;    /* stack index of its first local */
} kiln_frame;

/* One level of a walk over a nested value (comparison, marshalling, unmarshalling). */
typedef struct {
    const int64_t *pa, *pb;  /* items of the value(s) walked */
    int64_t *dst;            /* items being filled (unmarshalling) */
    int64_t i, na, nb;       /* next item; item counts */
    int32_t et;              /* descriptor position of item i's type */
    int32_t tuple;           /* 1 when the container is a tuple (item types advance) */
} kiln_walk;

/* All the memory one execution uses, owned by the caller. */
typedef struct {
    int64_t *stack;      /* stack_words slots */
    kiln_frame *frames;  /* max_call_depth frames */
    int64_t *heap;       /* heap_words words */
    kiln_walk *walk;     /* walk_cap levels: at least the program's max_type_depth */
    int64_t walk_cap;
} kiln_scratch;

/* ---- small portable helpers (the scalar ones are in scalar.h) ---------------------------- */

/* Sizes: saturating, so that an absurd size is simply more than any heap. */
KILN_FN int64_t kiln_sz_add(int64_t a, int64_t b) { return a > KILN_I64_MAX - b ? KILN_I64_MAX : a + b; }
KILN_FN int64_t kiln_sz_mul(int64_t a, int64_t b) {
    if (a == 0 || b == 0) return 0;
    return a > KILN_I64_MAX / b ? KILN_I64_MAX : a * b;
}

KILN_FN void kiln_copy(int64_t *d, const int64_t *s, int64_t n) {
    for (int64_t i = 0; i < n; i++) d[i] = s[i];
}

/* ---- memory --------------------------------------------------------------------------------- */

/* 1-character strings of code points below KILN_CHARS are made once per run and shared
   (README.md: "1-character strings"); the cache is a local array of kiln_run. */
#define KILN_CHARS 128

typedef struct {
    const kiln_program *p;
    const int64_t *image;
    int64_t image_len;
    int64_t *heap;
    int64_t heap_words;
    int64_t used;
    kiln_walk *walk;
    int64_t walk_cap;
    int64_t *chars;     /* the run's 1-character strings: KILN_CHARS addresses (kiln_char) */
    uint64_t chars_made[KILN_CHARS / 64]; /* bit c: chars[c] holds the string of code point c */
} kiln_vm;

/* The n words at address a, when they lie in one region (image, or the allocated heap). */
KILN_HOT const int64_t *kiln_ro(const kiln_vm *vm, int64_t a, int64_t n) {
    if (n < 0) return 0;
    if (a >= vm->image_len) { /* the heap; with n >= 0, n <= used - a also says a <= used */
        a -= vm->image_len;
        return n <= vm->used - a ? vm->heap + a : 0;
    }
    return a >= 0 && n <= vm->image_len - a ? vm->image + a : 0;
}

/* The same, writable: the heap only (the image is read-only). */
KILN_HOT_FN int64_t *kiln_rw(const kiln_vm *vm, int64_t a, int64_t n) {
    if (n < 0 || a < vm->image_len) return 0;
    a -= vm->image_len;
    return n <= vm->used - a ? vm->heap + a : 0; /* a <= used too, as n >= 0 */
}

/* Bump allocation of `words` words: 0 when the heap would run out (HeapExhausted). */
KILN_COLD int64_t *kiln_alloc(kiln_vm *vm, int64_t words, int64_t *addr) {
    int64_t *p;
    if (words < 0 || words > vm->heap_words - vm->used) return 0;
    *addr = vm->image_len + vm->used;
    p = vm->heap + vm->used;
    vm->used += words;
    return p;
}

/* Room for `size` items in the list with header h: past its capacity, a new block of
   max(size, 2 * cap, 4) slots, the old one abandoned (README.md's accounting). */
KILN_COLD int kiln_list_grow(kiln_vm *vm, int64_t *h, int64_t size, int64_t **items) {
    int64_t cap, addr, i, *nb;
    if (size <= h[1]) return TRAP_OK;
    cap = kiln_sz_mul(2, h[1]);
    if (cap < size) cap = size;
    if (cap < 4) cap = 4;
    nb = kiln_alloc(vm, cap, &addr);
    if (!nb) return TRAP_HeapExhausted;
    kiln_copy(nb, *items, h[0]);
    for (i = h[0]; i < cap; i++) nb[i] = 0;
    h[1] = cap;
    h[2] = addr;
    *items = nb;
    return TRAP_OK;
}

/* A string: its length and code points. */
KILN_HOT int kiln_str(const kiln_vm *vm, int64_t a, int64_t *n, const int64_t **cp) {
    /* kiln_ro of the header, then of the n words after it, in one region: the region is found
       once (a string never straddles the image and the heap) */
    const int64_t *base;
    int64_t room, len;
    if (a < 0) return TRAP_MemoryFault;
    if (a < vm->image_len) {
        base = vm->image + a;
        room = vm->image_len - a; /* >= 1 */
    } else {
        a -= vm->image_len;
        if (a >= vm->used) return TRAP_MemoryFault;
        base = vm->heap + a;
        room = vm->used - a; /* >= 1 */
    }
    len = base[0];
    if (len < 0 || len > room - 1) return TRAP_MemoryFault;
    *n = len;
    *cp = base + 1;
    return TRAP_OK;
}

/* A tuple: its arity and items. */
KILN_FN int kiln_tup(const kiln_vm *vm, int64_t a, int64_t *n, const int64_t **items) {
    return kiln_str(vm, a, n, items); /* the same layout: a count, then the words */
}

/* A union value: the tag (its kind's type code) and the value held by box u, a 2-item tuple. */
KILN_COLD int kiln_unbox(const kiln_vm *vm, int64_t u, int64_t *tag, int64_t *v) {
    int64_t n;
    const int64_t *items;
    if (kiln_tup(vm, u, &n, &items) || n != 2) return TRAP_MemoryFault;
    *tag = items[0];
    *v = items[1];
    return TRAP_OK;
}

/* A list: its header (len, cap, data), length and items; writable when rw. kiln_ro (kiln_rw
   when rw) of the 3 header words, then of the cap items at h[2], written out: the heap first
   (where lists are made; the image holds only constants), no test of a pointer just formed. */
KILN_HOT int kiln_list(const kiln_vm *vm, int64_t a, int rw, int64_t **hdr, int64_t *n, int64_t **items) {
    const int64_t *h;
    int64_t len, cap, b;
    if (a >= vm->image_len) {
        a -= vm->image_len;
        if (vm->used - a < 3) return TRAP_MemoryFault; /* a >= 0: no overflow */
        h = vm->heap + a;
    } else {
        if (rw || a < 0 || vm->image_len - a < 3) return TRAP_MemoryFault;
        h = vm->image + a;
    }
    len = h[0];
    cap = h[1];
    if (len < 0 || len > cap) return TRAP_MemoryFault;
    *hdr = (int64_t *)h;
    *n = len;
    if (cap == 0) {
        *items = (int64_t *)h; /* never read: len is 0 */
        return TRAP_OK;
    }
    b = h[2];
    if (b >= vm->image_len) {
        b -= vm->image_len;
        if (cap > vm->used - b) return TRAP_MemoryFault;
        *items = (int64_t *)vm->heap + b;
    } else {
        if (rw || b < 0 || cap > vm->image_len - b) return TRAP_MemoryFault;
        *items = (int64_t *)vm->image + b;
    }
    return TRAP_OK;
}

/* A new list of n items (cap == len): 3 + n words, header then data. */
KILN_COLD int kiln_new_list(kiln_vm *vm, int64_t n, int64_t *addr, int64_t **items) {
    int64_t *h = kiln_alloc(vm, kiln_sz_add(3, n), addr);
    if (!h) return TRAP_HeapExhausted;
    h[0] = n;
    h[1] = n;
    h[2] = n ? *addr + 3 : 0;
    *items = h + 3;
    return TRAP_OK;
}

/* A new string (or tuple) of n words: 1 + n. */
KILN_COLD int kiln_new_str(kiln_vm *vm, int64_t n, int64_t *addr, int64_t **cp) {
    int64_t *h = kiln_alloc(vm, kiln_sz_add(1, n), addr);
    if (!h) return TRAP_HeapExhausted;
    h[0] = n;
    *cp = h + 1;
    return TRAP_OK;
}

/* BOX: *slot (a value of the alternative whose kind has type code tag) -> a new box. */
KILN_COLD int kiln_box(kiln_vm *vm, int64_t tag, int64_t *slot) {
    int64_t addr;
    int64_t *items;
    if (kiln_new_str(vm, 2, &addr, &items)) return TRAP_HeapExhausted;
    items[0] = tag;
    items[1] = *slot;
    *slot = addr;
    return TRAP_OK;
}

/* TAG (want < 0): the box *slot -> its tag; UNBOX want: -> its value, MemoryFault unless its
   tag is want. */
KILN_COLD int kiln_box_read(const kiln_vm *vm, int64_t want, int64_t *slot) {
    int64_t tag, v;
    if (kiln_unbox(vm, *slot, &tag, &v) || (want >= 0 && tag != want)) return TRAP_MemoryFault;
    *slot = want < 0 ? tag : v;
    return TRAP_OK;
}


/* ---- str methods ---------------------------------------------------------------------------- */

/* Python's whitespace among the ASCII code points (str.isspace, strip, split). */
KILN_FN int kiln_ws(int64_t c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31); }

/* Unsupported unless every code point is ASCII: case and character classes beyond ASCII are
   Unicode's tables, which kiln does not carry. */
KILN_COLD int kiln_ascii(const int64_t *cp, int64_t n) {
    int64_t k;
    for (k = 0; k < n; k++)
        if (cp[k] < 0 || cp[k] > 127) return TRAP_Unsupported;
    return TRAP_OK;
}

/* First index >= from where p[0..m) occurs in s[0..n), or -1. */
KILN_COLD int64_t kiln_find(const int64_t *s, int64_t n, const int64_t *p, int64_t m, int64_t from) {
    int64_t k, j;
    for (k = from; k >= 0 && m <= n - k; k++) {
        for (j = 0; j < m && s[k + j] == p[j]; j++) {}
        if (j == m) return k;
    }
    return -1;
}

/* A new string holding cp[0..n). */
KILN_COLD int kiln_substr(kiln_vm *vm, const int64_t *cp, int64_t n, int64_t *addr) {
    int64_t *d;
    int t = kiln_new_str(vm, n, addr, &d);
    if (t) return t;
    kiln_copy(d, cp, n);
    return TRAP_OK;
}

/* ---- types ---------------------------------------------------------------------------------- */

KILN_FN int kiln_tcode(const kiln_vm *vm, int32_t pos) { return vm->p->types[pos]; }

/* Descriptor position of type index t, or -1. */
KILN_FN int32_t kiln_tpos(const kiln_program *p, int64_t t) {
    return t >= 0 && t < p->n_types ? p->type_off[t] : -1;
}

/* First item type of a container at descriptor position pos (list: the element type). */
KILN_FN int32_t kiln_first_item(const kiln_vm *vm, int32_t pos) {
    return vm->p->types[pos] == TY_TUPLE ? pos + 2 : pos + 1;
}

KILN_FN int kiln_is_container(int code) { return code == TY_LIST || code == TY_TUPLE || code == TY_OPTIONAL; }

KILN_FN int kiln_is_number(int code) { return code == TY_INT || code == TY_BOOL || code == TY_FLOAT; }

/* Descriptor position of the alternative of the union at pos whose kind has type code tag, or -1. */
KILN_COLD int32_t kiln_alt(const kiln_vm *vm, int32_t pos, int64_t tag) {
    int64_t n = vm->p->types[pos + 1], i;
    int32_t et = pos + 2;
    for (i = 0; i < n; i++, et = vm->p->type_skip[et])
        if (vm->p->types[et] == tag) return et;
    return -1;
}

/* Python's three-way comparison of numbers of kinds ca and cb (int, bool or float words) into
   *res, exactly (an int and a float too, past 2**53: CPython compares them exactly); a NaN is
   Unsupported (numbers of two kinds meet inside a union, inside a container). */
KILN_COLD int kiln_cmp_numbers(int ca, int64_t a, int cb, int64_t b, int *res) {
    int64_t i, fi;
    double f, frac;
    int c, flip;
    if (ca != TY_FLOAT && cb != TY_FLOAT) {
        *res = a < b ? -1 : a > b ? 1 : 0;
        return TRAP_OK;
    }
    if (ca == TY_FLOAT && cb == TY_FLOAT) {
        double x = kiln_f(a), y = kiln_f(b);
        if (kiln_isnan(x) || kiln_isnan(y)) return TRAP_Unsupported;
        *res = x < y ? -1 : x > y ? 1 : 0;
        return TRAP_OK;
    }
    flip = ca == TY_FLOAT; /* i against f, negated back when the float came first */
    i = flip ? b : a;
    f = kiln_f(flip ? a : b);
    if (kiln_isnan(f)) return TRAP_Unsupported;
    if (f >= 9223372036854775808.0) {
        c = -1;
    } else if (f < -9223372036854775808.0) {
        c = 1;
    } else {
        fi = (int64_t)f; /* f's integer part, toward zero: a double exactly */
        frac = f - (double)fi;
        c = i < fi ? -1 : i > fi ? 1 : frac > 0 ? -1 : frac < 0 ? 1 : 0;
    }
    *res = flip ? -c : c;
    return TRAP_OK;
}

/* CMP_IF: Python's `i <op> f` (1 or 0) of an int word i and a float word f, exactly; op indexes
   CMP_IF_OPS (< <= > >= == !=). A NaN orders with nothing: only != holds. */
KILN_COLD int kiln_cmp_if(int64_t i, int64_t f, int64_t op) {
    int c = 0;
    if (kiln_isnan(kiln_f(f))) return op == 5;
    kiln_cmp_numbers(TY_INT, i, TY_FLOAT, f, &c); /* TRAP_OK: not a NaN */
    return op == 0 ? c < 0 : op == 1 ? c <= 0 : op == 2 ? c > 0 : op == 3 ? c >= 0 : op == 4 ? c == 0 : c != 0;
}

/* Python's `a == b` of numbers of kinds ca and cb (int, bool or float words), exactly. */
KILN_COLD int kiln_numbers_equal(int ca, int64_t a, int cb, int64_t b) {
    double f;
    int64_t i;
    if (ca != TY_FLOAT && cb != TY_FLOAT) return a == b;
    if (ca == TY_FLOAT && cb == TY_FLOAT) return kiln_f(a) == kiln_f(b);
    f = ca == TY_FLOAT ? kiln_f(a) : kiln_f(b);
    i = ca == TY_FLOAT ? b : a;
    if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0)) return 0;
    return (double)(int64_t)f == f && (int64_t)f == i;
}

/* A new walk level for the n items of the container whose type is at pos: 0 when the walk
   stack is full. The caller points it at the items (pa, pb or dst). */
KILN_COLD kiln_walk *kiln_walk_level(kiln_vm *vm, int64_t *top, int32_t pos, int64_t n) {
    kiln_walk *w;
    if (*top >= vm->walk_cap) return 0;
    w = &vm->walk[(*top)++];
    w->pa = w->pb = 0;
    w->dst = 0;
    w->i = 0;
    w->na = w->nb = n;
    w->et = kiln_first_item(vm, pos);
    w->tuple = vm->p->types[pos] == TY_TUPLE;
    return w;
}

/* ---- comparison of values by type ------------------------------------------------------------ */

/* Three-way comparison of the strings at a and b (eq: stop at a length difference). */
KILN_COLD int kiln_cmp_str(const kiln_vm *vm, int64_t a, int64_t b, int eq, int *res) {
    int64_t na, nb, i, m;
    const int64_t *ca, *cb;
    if (kiln_str(vm, a, &na, &ca) || kiln_str(vm, b, &nb, &cb)) return TRAP_MemoryFault;
    if (eq && na != nb) { *res = 1; return TRAP_OK; }
    m = na < nb ? na : nb;
    for (i = 0; i < m; i++) {
        if (ca[i] != cb[i]) { *res = ca[i] < cb[i] ? -1 : 1; return TRAP_OK; }
    }
    *res = na < nb ? -1 : na > nb ? 1 : 0;
    return TRAP_OK;
}

#define KILN_PENDING 2

/* kiln_cmp_enter of union values (boxes) a and b of the type at pos: of the same kind, a walk
   level of their values, as that alternative (*res = KILN_PENDING); numbers of two kinds are
   compared by value, exactly (a NaN is Unsupported); else unequal (ordering them is a
   TypeError). */
KILN_COLD int kiln_cmp_union(kiln_vm *vm, int64_t *top, int32_t pos, int64_t a, int64_t b, int eq, int *res) {
    int64_t na, nb;
    const int64_t *ia, *ib;
    int32_t alt_a, alt_b;
    kiln_walk *w;
    if (kiln_tup(vm, a, &na, &ia) || kiln_tup(vm, b, &nb, &ib) || na != 2 || nb != 2) return TRAP_MemoryFault;
    alt_a = kiln_alt(vm, pos, ia[0]);
    alt_b = kiln_alt(vm, pos, ib[0]);
    if (alt_a < 0 || alt_b < 0) return TRAP_MemoryFault;
    if (alt_a == alt_b) {
        if (!(w = kiln_walk_level(vm, top, pos, 1))) return TRAP_MemoryFault;
        w->et = alt_a;
        w->tuple = 0;
        w->pa = ia + 1;
        w->pb = ib + 1;
        *res = KILN_PENDING;
        return TRAP_OK;
    }
    if (!kiln_is_number((int)ia[0]) || !kiln_is_number((int)ib[0])) {
        if (!eq) return TRAP_TypeError;
        *res = 1;
        return TRAP_OK;
    }
    return kiln_cmp_numbers((int)ia[0], ia[1], (int)ib[0], ib[1], res);
}

/* Start comparing a and b of the type at pos: a decided result (-1, 0, 1), or KILN_PENDING
   with a new walk level pushed. Floats met here are inside a container: NaN is Unsupported. */
KILN_COLD int kiln_cmp_enter(kiln_vm *vm, int64_t *top, int32_t pos, int64_t a, int64_t b, int eq, int *res) {
    int code;
    kiln_walk *w;
    int64_t na, nb;
    int64_t *h, *ia, *ib;
    const int64_t *ca, *cb;
    code = kiln_tcode(vm, pos);
    switch (code) {
    case TY_NONE: *res = 0; return TRAP_OK;
    case TY_BOOL:
    case TY_INT: *res = a < b ? -1 : a > b ? 1 : 0; return TRAP_OK;
    case TY_FLOAT: {
        double x = kiln_f(a), y = kiln_f(b);
        if (kiln_isnan(x) || kiln_isnan(y)) return TRAP_Unsupported;
        *res = x < y ? -1 : x > y ? 1 : 0;
        return TRAP_OK;
    }
    case TY_STR: return kiln_cmp_str(vm, a, b, eq, res);
    case TY_LIST:
        if (kiln_list(vm, a, 0, &h, &na, &ia) || kiln_list(vm, b, 0, &h, &nb, &ib)) return TRAP_MemoryFault;
        ca = ia;
        cb = ib;
        break;
    case TY_TUPLE:
        if (kiln_tup(vm, a, &na, &ca) || kiln_tup(vm, b, &nb, &cb)) return TRAP_MemoryFault;
        if (na != vm->p->types[pos + 1] || nb != na) return TRAP_MemoryFault;
        break;
    case TY_OPTIONAL: /* -1 (None) or a 1-item tuple: None equals only None, ordering it is a TypeError */
        if (a == -1 || b == -1) {
            if (!eq && (a == -1) != (b == -1)) return TRAP_TypeError;
            *res = a == -1 && b == -1 ? 0 : 1;
            return TRAP_OK;
        }
        if (kiln_tup(vm, a, &na, &ca) || kiln_tup(vm, b, &nb, &cb) || na != 1 || nb != 1) return TRAP_MemoryFault;
        break;
    case TY_UNION: return kiln_cmp_union(vm, top, pos, a, b, eq, res);
    default: return TRAP_MemoryFault;
    }
    if (!(w = kiln_walk_level(vm, top, pos, na))) return TRAP_MemoryFault;
    w->pa = ca;
    w->pb = cb;
    w->nb = nb;
    *res = KILN_PENDING;
    return TRAP_OK;
}

/* Python's comparison of a and b of the type at pos, three-way into *res: lexicographic for
   lists and tuples (the first items that differ decide, else the lengths), as vm/README.md says.
   Lists of different lengths are walked too (README and vm/ref.py have no length shortcut for
   ==, so a NaN met on the way is Unsupported there as well). eq: only equality is wanted, so
   strings of different lengths are unequal at once (no NaN can hide in a string). */
KILN_COLD int kiln_cmp(kiln_vm *vm, int32_t pos, int64_t a, int64_t b, int eq, int *res) {
    int64_t top = 0;
    int t = kiln_cmp_enter(vm, &top, pos, a, b, eq, res);
    if (t || *res != KILN_PENDING) return t;
    while (top > 0) {
        kiln_walk *w = &vm->walk[top - 1];
        int64_t m = w->na < w->nb ? w->na : w->nb;
        if (w->i >= m) {
            int c = w->na < w->nb ? -1 : w->na > w->nb ? 1 : 0;
            top--;
            if (c) { *res = c; return TRAP_OK; }
            continue;
        }
        {
            int32_t et = w->et;
            int64_t x = w->pa[w->i], y = w->pb[w->i];
            w->i++;
            if (w->tuple) w->et = vm->p->type_skip[et];
            t = kiln_cmp_enter(vm, &top, et, x, y, eq, res);
            if (t) return t;
            if (*res != KILN_PENDING && *res != 0) return TRAP_OK;
        }
    }
    *res = 0;
    return TRAP_OK;
}

/* ---- marshalling (vm/values.py format) ------------------------------------------------------- */

/* One value of the type at pos into out[*len..]: scalars and strings directly, containers by
   their count and a new walk level. out == 0 only counts the words (*len), checking cap. */
KILN_COLD int kiln_emit(kiln_vm *vm, int64_t *top, int32_t pos, int64_t v, int64_t *out, int64_t cap, int64_t *len) {
    int code;
    int64_t n, i;
    const int64_t *items;
    int64_t *h, *li;
    kiln_walk *w;
    code = kiln_tcode(vm, pos);
    switch (code) {
    case TY_NONE: v = 0; /* fall through */
    case TY_BOOL:
    case TY_INT:
    case TY_FLOAT:
        if (*len >= cap) return TRAP_HeapExhausted;
        if (out) out[*len] = v;
        (*len)++;
        return TRAP_OK;
    case TY_STR:
        if (kiln_str(vm, v, &n, &items)) return TRAP_MemoryFault;
        if (n >= cap - *len) return TRAP_HeapExhausted;
        if (out) {
            out[*len] = n;
            for (i = 0; i < n; i++) out[*len + 1 + i] = items[i];
        }
        *len += 1 + n;
        return TRAP_OK;
    case TY_LIST:
        if (kiln_list(vm, v, 0, &h, &n, &li)) return TRAP_MemoryFault;
        if (*len >= cap) return TRAP_HeapExhausted;
        if (out) out[*len] = n;
        (*len)++;
        items = li;
        break;
    case TY_TUPLE:
        if (kiln_tup(vm, v, &n, &items) || n != vm->p->types[pos + 1]) return TRAP_MemoryFault;
        break;
    case TY_OPTIONAL: /* 0 for None, else 1 and the value */
        if (*len >= cap) return TRAP_HeapExhausted;
        if (out) out[*len] = v != -1;
        (*len)++;
        if (v == -1) return TRAP_OK;
        if (kiln_tup(vm, v, &n, &items) || n != 1) return TRAP_MemoryFault;
        break;
    case TY_UNION: { /* the tag, then a walk level of the value, as its alternative */
        int32_t alt;
        if (kiln_tup(vm, v, &n, &items) || n != 2 || (alt = kiln_alt(vm, pos, items[0])) < 0) return TRAP_MemoryFault;
        if (*len >= cap) return TRAP_HeapExhausted;
        if (out) out[*len] = items[0];
        (*len)++;
        if (!(w = kiln_walk_level(vm, top, pos, 1))) return TRAP_MemoryFault;
        w->et = alt;
        w->tuple = 0;
        w->pa = items + 1;
        return TRAP_OK;
    }
    default: return TRAP_MemoryFault;
    }
    if (n == 0) return TRAP_OK;
    if (!(w = kiln_walk_level(vm, top, pos, n))) return TRAP_MemoryFault;
    w->pa = items;
    return TRAP_OK;
}

/* The value v of the type at pos, marshalled into out (at most cap words): HeapExhausted past it.
   With out == 0 it only measures: *len is the word count, HeapExhausted once it passes cap. */
KILN_COLD int kiln_marshal(kiln_vm *vm, int32_t pos, int64_t v, int64_t *out, int64_t cap, int64_t *len) {
    int64_t top = 0;
    int t = kiln_emit(vm, &top, pos, v, out, cap, len);
    while (!t && top > 0) {
        kiln_walk *w = &vm->walk[top - 1];
        int32_t et;
        if (w->i >= w->na) { top--; continue; }
        et = w->et;
        v = w->pa[w->i++];
        if (w->tuple) w->et = vm->p->type_skip[et];
        t = kiln_emit(vm, &top, et, v, out, cap, len);
    }
    return t;
}

/* One value of the type at pos read from in[*pos_in..]: scalars directly, strings copied into
   the heap, containers allocated (lists with cap == len) and a walk level pushed to fill them. */
KILN_COLD int kiln_take(kiln_vm *vm, int64_t *top, int32_t pos, const int64_t *in, int64_t n_in, int64_t *at, int64_t *v) {
    int code = kiln_tcode(vm, pos);
    int64_t n, addr, i;
    int64_t *items;
    kiln_walk *w;
    if (code != TY_TUPLE) {
        if (*at >= n_in) return TRAP_MemoryFault;
        n = in[(*at)++];
    } else {
        n = vm->p->types[pos + 1];
    }
    switch (code) {
    case TY_NONE: *v = 0; return TRAP_OK;
    case TY_BOOL: *v = n != 0; return TRAP_OK;
    case TY_INT:
    case TY_FLOAT: *v = n; return TRAP_OK;
    case TY_STR:
        if (n < 0 || n > n_in - *at) return TRAP_MemoryFault;
        if (kiln_new_str(vm, n, &addr, &items)) return TRAP_HeapExhausted;
        for (i = 0; i < n; i++) items[i] = in[(*at)++];
        *v = addr;
        return TRAP_OK;
    case TY_LIST:
        if (n < 0) return TRAP_MemoryFault;
        if (kiln_new_list(vm, n, &addr, &items)) return TRAP_HeapExhausted;
        break;
    case TY_TUPLE:
        if (kiln_new_str(vm, n, &addr, &items)) return TRAP_HeapExhausted;
        break;
    case TY_OPTIONAL: /* the tag: 0 is None (-1), 1 a 1-item tuple holding the value */
        if (n == 0) { *v = -1; return TRAP_OK; }
        if (n != 1) return TRAP_MemoryFault;
        if (kiln_new_str(vm, 1, &addr, &items)) return TRAP_HeapExhausted;
        break;
    case TY_UNION: { /* the tag: a box (tag, value), the value read as the tag's alternative */
        int32_t alt = kiln_alt(vm, pos, n);
        if (alt < 0) return TRAP_MemoryFault;
        if (kiln_new_str(vm, 2, &addr, &items)) return TRAP_HeapExhausted;
        items[0] = n;
        items[1] = 0;
        *v = addr;
        if (!(w = kiln_walk_level(vm, top, pos, 1))) return TRAP_MemoryFault;
        w->et = alt;
        w->tuple = 0;
        w->dst = items + 1;
        return TRAP_OK;
    }
    default: return TRAP_MemoryFault;
    }
    *v = addr;
    for (i = 0; i < n; i++) items[i] = 0;
    if (n == 0) return TRAP_OK;
    if (!(w = kiln_walk_level(vm, top, pos, n))) return TRAP_MemoryFault;
    w->dst = items;
    return TRAP_OK;
}

/* Unmarshal one value of the type at pos from in[*at..] into the heap, depth first. */
KILN_COLD int kiln_unmarshal(kiln_vm *vm, int32_t pos, const int64_t *in, int64_t n_in, int64_t *at, int64_t *v) {
    int64_t top = 0;
    int t = kiln_take(vm, &top, pos, in, n_in, at, v);
    while (!t && top > 0) {
        kiln_walk *w = &vm->walk[top - 1];
        int32_t et;
        int64_t *slot;
        if (w->i >= w->na) { top--; continue; }
        et = w->et;
        slot = &w->dst[w->i++];
        if (w->tuple) w->et = vm->p->type_skip[et];
        t = kiln_take(vm, &top, et, in, n_in, at, slot);
    }
    return t;
}

/* ---- sequences ------------------------------------------------------------------------------ */

/* CPython's PySlice_Unpack + PySlice_AdjustIndices. The operands above the sequence are
   start, stop, step, each present when its bit of `which` is set. */
KILN_COLD int kiln_slice(const int64_t *ops, int64_t which, int64_t len, int64_t *start, int64_t *step, int64_t *count) {
    int64_t st = 1, a, b;
    int j = 0, has_a = which & 1, has_b = (which >> 1) & 1;
    int64_t va = has_a ? ops[j++] : 0;
    int64_t vb = has_b ? ops[j++] : 0;
    if (which & 4) {
        st = ops[j];
        if (st == 0) return TRAP_ValueError;
        if (st < -KILN_I64_MAX) st = -KILN_I64_MAX;
    }
    if (has_a) {
        a = va;
        if (a < 0) { a += len; if (a < 0) a = st < 0 ? -1 : 0; }
        else if (a >= len) a = st < 0 ? len - 1 : len;
    } else {
        a = st < 0 ? len - 1 : 0;
    }
    if (has_b) {
        b = vb;
        if (b < 0) { b += len; if (b < 0) b = st < 0 ? -1 : 0; }
        else if (b >= len) b = st < 0 ? len - 1 : len;
    } else {
        b = st < 0 ? -1 : len;
    }
    if (st < 0) *count = b < a ? (a - b - 1) / (-st) + 1 : 0;
    else *count = a < b ? (b - a - 1) / st + 1 : 0;
    *start = a;
    *step = st;
    return TRAP_OK;
}

/* Normalise a Python index into [0, n): -1 when out of range. n >= 0 (every caller's n is a
   length kiln_list or kiln_str checked), so one unsigned comparison takes 0 <= i < n. */
KILN_FN int64_t kiln_index(int64_t i, int64_t n) {
    if ((uint64_t)i < (uint64_t)n) return i;
    if (i < 0) i += n;
    return i >= 0 && i < n ? i : -1;
}

/* The 1-character string of code point c: below KILN_CHARS made (2 words) the first time the run
   asks for it, then shared; above, a new string every time. */
KILN_HOT_FN int kiln_char(kiln_vm *vm, int64_t c, int64_t *addr) {
    int64_t *cp;
    if (c >= 0 && c < KILN_CHARS && vm->chars) {
        uint64_t bit = (uint64_t)1 << (c & 63);
        if (vm->chars_made[c >> 6] & bit) {
            *addr = vm->chars[c];
            return TRAP_OK;
        }
        if (kiln_new_str(vm, 1, addr, &cp)) return TRAP_HeapExhausted;
        cp[0] = c;
        vm->chars[c] = *addr;
        vm->chars_made[c >> 6] |= bit;
        return TRAP_OK;
    }
    if (kiln_new_str(vm, 1, addr, &cp)) return TRAP_HeapExhausted;
    cp[0] = c;
    return TRAP_OK;
}

/* str(a) */
KILN_COLD int kiln_str_of_int(kiln_vm *vm, int64_t a, int64_t *addr) {
    char buf[24];
    int64_t n = 0, i, *cp;
    uint64_t u = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
    do { buf[n++] = (char)('0' + (int)(u % 10)); u /= 10; } while (u);
    if (a < 0) buf[n++] = '-';
    if (kiln_new_str(vm, n, addr, &cp)) return TRAP_HeapExhausted;
    for (i = 0; i < n; i++) cp[i] = buf[n - 1 - i];
    return TRAP_OK;
}

/* the whitespace CPython's int() strips from ASCII text: " \t\n\r\v\f" (not \x1c-\x1f) */
KILN_FN int kiln_is_space(int64_t c) { return c == ' ' || (c >= 9 && c <= 13); }
KILN_FN int kiln_is_digit(int64_t c) { return c >= '0' && c <= '9'; }

#define KILN_INT_MAX_STR_DIGITS 4300 /* CPython 3.11's default sys.int_max_str_digits */

/* CPython's hash() of an int: x mod 2**61 - 1 with x's sign; -1 is -2 */
KILN_FN int64_t kiln_int_hash(int64_t x) {
    uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    int64_t r = (int64_t)(u % 2305843009213693951ULL);
    if (x < 0) r = -r;
    return r == -1 ? -2 : r;
}

/* CPython's set_insert_clean: the entry v (an item's index + 1) of the item hashing to h */
KILN_FN void kiln_set_insert_clean(int64_t *table, uint64_t mask, int64_t v, int64_t h) {
    uint64_t perturb = (uint64_t)h, i = (uint64_t)h & mask, j;
    for (;;) {
        if (!table[i]) { table[i] = v; return; }
        if (i + 9 <= mask)
            for (j = i + 1; j <= i + 9; j++)
                if (!table[j]) { table[j] = v; return; }
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* The smallest power of two above 4n (at least 8): the largest table set() of n items reaches */
KILN_FN int64_t kiln_set_table_size(int64_t n) {
    int64_t size = 8;
    while (size <= 4 * n) size <<= 1;
    return size;
}

/* SET_ORDER (vm/semantics.py's set_order): the distinct ints of items[0..n) into out in the order
   CPython 3.11 iterates set(items), its hash table simulated in a and b (kiln_set_table_size(n)
   words each; entries are an item's index + 1, 0 empty). Returns how many. */
KILN_FN int64_t kiln_set_order(const int64_t *items, int64_t n, int64_t *out, int64_t *a, int64_t *b) {
    uint64_t mask = 7, i, j, size;
    int64_t fill = 0, used = 0, k, m = 0, *table = a, *other = b, *t;
    for (j = 0; j <= mask; j++) table[j] = 0;
    for (k = 0; k < n; k++) {
        int64_t x = items[k], h = kiln_int_hash(x), minused;
        uint64_t perturb = (uint64_t)h, probes;
        int placed = 0, found = 0;
        i = (uint64_t)h & mask;
        while (!placed && !found) {
            probes = i + 9 <= mask ? 9 : 0;
            for (j = i; j <= i + probes; j++) {
                if (!table[j]) { table[j] = k + 1; placed = 1; break; }
                if (items[table[j] - 1] == x) { found = 1; break; }
            }
            perturb >>= 5;
            i = (i * 5 + 1 + perturb) & mask;
        }
        if (found) continue;
        fill++;
        used++;
        if ((uint64_t)fill * 5 < mask * 3) continue;
        minused = used > 50000 ? used * 2 : used * 4;
        for (size = 8; size <= (uint64_t)minused; size <<= 1) {}
        for (j = 0; j < size; j++) other[j] = 0;
        for (j = 0; j <= mask; j++)
            if (table[j]) kiln_set_insert_clean(other, size - 1, table[j], kiln_int_hash(items[table[j] - 1]));
        t = table; table = other; other = t;
        mask = size - 1;
        fill = used;
    }
    for (j = 0; j <= mask; j++)
        if (table[j]) out[m++] = items[table[j] - 1];
    return m;
}

/* Whether cp[0..n) spells word (lowercase ASCII) in any case. */
KILN_FN int kiln_word_is(const int64_t *cp, int64_t n, const char *word) {
    int64_t k = 0;
    for (; word[k]; k++) {
        if (k >= n) return 0;
        int64_t c = cp[k] >= 'A' && cp[k] <= 'Z' ? cp[k] + 32 : cp[k];
        if (c != word[k]) return 0;
    }
    return k == n;
}

/* float(s) as CPython parses a str (vm/semantics.py's float_of_str, the reference): ASCII
   whitespace stripped, a sign, digits [. digits] [e [sign] digits] or inf / infinity / nan in any
   case, an underscore only between two digits; else ValueError. A finite value is computed in one
   exact double operation (d * 10**e or d / 10**-e, d of at most 15 significant digits, |e| <= 22:
   correctly rounded, as CPython's); any other finite value, and a non-ASCII s, is Unsupported. */
KILN_FN int kiln_float_of_str(const int64_t *cp, int64_t n, double *r) {
    const double pow10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                              1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    int64_t i = 0, j = n, k, nd = 0, pending = 0, scale = 0, exp = 0;
    int neg = 0, digits = 0, big = 0, eneg = 0;
    uint64_t d = 0;
    for (k = 0; k < n; k++) if (cp[k] < 0 || cp[k] > 127) return TRAP_Unsupported;
    while (i < j && kiln_is_space(cp[i])) i++;
    while (j > i && kiln_is_space(cp[j - 1])) j--;
    for (k = i; k < j; k++)
        if (cp[k] == '_' && !(k > i && k + 1 < j && kiln_is_digit(cp[k - 1]) && kiln_is_digit(cp[k + 1])))
            return TRAP_ValueError;
    if (i < j && (cp[i] == '+' || cp[i] == '-')) { neg = cp[i] == '-'; i++; }
    if (kiln_word_is(cp + i, j - i, "inf") || kiln_word_is(cp + i, j - i, "infinity")) {
        *r = kiln_f(neg ? (int64_t)0xfff0000000000000ULL : (int64_t)0x7ff0000000000000LL);
        return TRAP_OK;
    }
    if (kiln_word_is(cp + i, j - i, "nan")) {
        *r = kiln_f(neg ? (int64_t)0xfff8000000000000ULL : (int64_t)0x7ff8000000000000LL);
        return TRAP_OK;
    }
    for (int frac = 0; frac < 2; frac++) {  /* the digits before the point, then after it */
        if (frac) {
            if (i < j && cp[i] == '.') i++;
            else break;
        }
        for (; i < j && (kiln_is_digit(cp[i]) || cp[i] == '_'); i++) {
            if (cp[i] == '_') continue;
            digits = 1;
            if (frac) scale--;
            if (cp[i] == '0') {
                if (nd) pending++;  /* a zero after a significant digit: kept for later */
                continue;
            }
            nd += pending + 1;
            if (nd > 15) big = 1;
            for (; !big && pending > 0; pending--) d *= 10;
            pending = 0;
            if (!big) d = d * 10 + (uint64_t)(cp[i] - '0');
        }
    }
    if (!digits) return TRAP_ValueError;
    if (i < j && (cp[i] == 'e' || cp[i] == 'E')) {
        int edigits = 0;
        i++;
        if (i < j && (cp[i] == '+' || cp[i] == '-')) { eneg = cp[i] == '-'; i++; }
        for (; i < j && (kiln_is_digit(cp[i]) || cp[i] == '_'); i++) {
            if (cp[i] == '_') continue;
            edigits = 1;
            if (exp < 1000000000) exp = exp * 10 + (cp[i] - '0');
        }
        if (!edigits) return TRAP_ValueError;
    }
    if (i != j) return TRAP_ValueError;
    if (!nd) {  /* a zero, whatever its exponent */
        *r = neg ? -0.0 : 0.0;
        return TRAP_OK;
    }
    exp = (eneg ? -exp : exp) + scale + pending;
    if (big || exp < -22 || exp > 22) return TRAP_Unsupported;
    *r = exp >= 0 ? (double)d * pow10[exp] : (double)d / pow10[-exp];
    if (neg) *r = -*r;
    return TRAP_OK;
}

/* int(s), as vm/README.md says: ASCII only, whitespace, sign, digits with single underscores,
   at most 4300 digits (leading zeros counted). */
KILN_COLD int kiln_int_of_str(const int64_t *cp, int64_t n, int64_t *r) {
    int64_t i = 0, j = n, k;
    int neg = 0, ovf = 0, digits = 0;
    uint64_t acc = 0, limit;
    for (k = 0; k < n; k++) if (cp[k] < 0 || cp[k] > 127) return TRAP_Unsupported;
    while (i < j && kiln_is_space(cp[i])) i++;
    while (j > i && kiln_is_space(cp[j - 1])) j--;
    if (i < j && (cp[i] == '+' || cp[i] == '-')) { neg = cp[i] == '-'; i++; }
    for (k = i; k < j; k++) {
        int64_t c = cp[k];
        if (kiln_is_digit(c)) {
            uint64_t d = (uint64_t)(c - '0');
            digits++;
            if (acc > (0xffffffffffffffffULL - d) / 10) ovf = 1;
            else acc = acc * 10 + d;
        } else if (c == '_' && k > i && kiln_is_digit(cp[k - 1]) && k + 1 < j && kiln_is_digit(cp[k + 1])) {
            continue;
        } else {
            return TRAP_ValueError;
        }
    }
    if (!digits || digits > KILN_INT_MAX_STR_DIGITS) return TRAP_ValueError;
    limit = neg ? 0x8000000000000000ULL : 0x7fffffffffffffffULL;
    if (ovf || acc > limit) return TRAP_Overflow;
    *r = neg ? (int64_t)((uint64_t)0 - acc) : (int64_t)acc;
    return TRAP_OK;
}

/* Stable merge sort of n items (bottom-up: runs of 1, 2, 4, ... merged left to right), using buf
   (n words) as the other half. desc: an item goes after another only when it is smaller. */
KILN_COLD int kiln_sort(kiln_vm *vm, int32_t et, int64_t *items, int64_t *buf, int64_t n, int desc) {
    int64_t *src = items, *dst = buf, *tmp, width, lo;
    int code = kiln_tcode(vm, et);
    for (width = 1; width < n; width *= 2) {
        for (lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = mid + width < n ? mid + width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                int64_t l = src[i], r = src[j];
                int take_right;
                if (code == TY_INT || code == TY_BOOL) {
                    take_right = desc ? l < r : r < l;
                } else {
                    int c, t = kiln_cmp(vm, et, desc ? l : r, desc ? r : l, 0, &c);
                    if (t) return t;
                    take_right = c < 0;
                }
                dst[k++] = take_right ? src[j++] : src[i++];
            }
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        tmp = src;
        src = dst;
        dst = tmp;
    }
    if (src != items) kiln_copy(items, src, n);
    return TRAP_OK;
}

/* ---- checking a program's tables once ------------------------------------------------------- */

/* The index just after the descriptor subtree at pos, by counting pending nodes; -1 if malformed. */
KILN_COLD int64_t kiln_subtree_end(const kiln_program *p, int64_t pos) {
    int64_t pending = 1;
    while (pending > 0) {
        int32_t code;
        if (pos < 0 || pos >= p->types_len) return -1;
        code = p->types[pos];
        pending--;
        if (code == TY_LIST || code == TY_OPTIONAL) {
            pending++;
            pos++;
        } else if (code == TY_TUPLE || code == TY_UNION) {
            if (pos + 1 >= p->types_len || p->types[pos + 1] < 0 || p->types[pos + 1] > 255) return -1;
            pending += p->types[pos + 1];
            pos += 2;
        } else if (code >= TY_NONE && code <= TY_STR) {
            pos++;
        } else {
            return -1;
        }
    }
    return pos;
}

/* TRAP_OK when every table of the program is consistent: function records, parameter and return
   types, type descriptors and their skip table. Anything else is TRAP_MemoryFault. */
KILN_COLD int kiln_program_check(const kiln_program *p) {
    int64_t t, f, i;
    for (t = 0; t < p->n_types; t++) {
        int64_t start = p->type_off[t], end = kiln_subtree_end(p, start), pos = start;
        if (end < 0) return TRAP_MemoryFault;
        while (pos < end) { /* every node of the descriptor: its skip entry, then the next node */
            int32_t code = p->types[pos];
            if (p->type_skip[pos] != kiln_subtree_end(p, pos)) return TRAP_MemoryFault;
            pos += code == TY_TUPLE || code == TY_UNION ? 2 : 1;
        }
    }
    for (f = 0; f < p->n_funcs; f++) {
        const int64_t *r = p->funcs + f * KILN_FUNC_WORDS;
        if (r[KILN_F_START] < 0 || r[KILN_F_LEN] < 0 || r[KILN_F_START] >= p->code_len || r[KILN_F_LEN] >= p->code_len - r[KILN_F_START]) return TRAP_MemoryFault;
        if (p->code[r[KILN_F_START] + r[KILN_F_LEN]] != KILN_GUARD) return TRAP_MemoryFault;
        if (r[KILN_F_NPARAMS] < 0 || r[KILN_F_NLOCALS] < r[KILN_F_NPARAMS] || r[KILN_F_MAXSTACK] < 0 ||
            r[KILN_F_NLOCALS] > KILN_I64_MAX / 4 || r[KILN_F_MAXSTACK] > KILN_I64_MAX / 4) return TRAP_MemoryFault;
        if (r[KILN_F_RET] < 0 || r[KILN_F_RET] >= p->n_types) return TRAP_MemoryFault;
        if (r[KILN_F_PARAMS] < 0 || r[KILN_F_PARAMS] > p->params_len || r[KILN_F_NPARAMS] > p->params_len - r[KILN_F_PARAMS]) return TRAP_MemoryFault;
        for (i = 0; i < r[KILN_F_NPARAMS]; i++) {
            int32_t pt = p->params[r[KILN_F_PARAMS] + i];
            if (pt < 0 || pt >= p->n_types) return TRAP_MemoryFault;
        }
    }
    return TRAP_OK;
}

#ifndef __CUDACC__
/* 1 when a program that kiln_program_check passed keeps, in every function, on every instruction
   reachable from its start, the rules of vm/verify.py that the interpreter's fast handlers
   (KILN_COMPUTED_GOTO builds: kiln_run with fast = 1) leave unchecked: known opcodes; an operand
   stack that never goes below empty nor above the function's max_stack, with one depth on every
   path into an instruction; RET at depth 1; jump targets and fall-through inside the code; LOAD,
   STORE and LOAD2 slots below n_locals; a loop step's state slots inside the frame and a JUMP
   after it; CALL of an existing function; CONST of an existing constant; STR of a string of the
   image. Else 0, and the program runs with every check, so
   what a malformed program does (the trap and the step it comes at) does not change.
   depth and work: room for the longest function's code (int64 words each). Host only. */
KILN_COLD int kiln_program_verify(const kiln_program *p, int64_t *depth, int64_t *work) {
    static const signed char effects[KILN_N_OPS][3] = {KILN_OP_EFFECTS};
    int64_t f, i;
    for (f = 0; f < p->n_funcs; f++) {
        const int64_t *r = p->funcs + f * KILN_FUNC_WORDS;
        const uint32_t *code = p->code + r[KILN_F_START];
        int64_t len = r[KILN_F_LEN], nloc = r[KILN_F_NLOCALS], max_stack = r[KILN_F_MAXSTACK], n = 0;
        if (len < 1) return 0;
        for (i = 0; i < len; i++) depth[i] = -1;
        depth[0] = 0;
        work[n++] = 0;
        while (n > 0) {
            int64_t pc = work[--n], d = depth[pc], arg = (int64_t)(code[pc] >> 8), pops, pushes, succ[3];
            int op = (int)(code[pc] & 0xff), flow, k, ns = 0;
            if (op >= KILN_N_OPS) return 0;
            pops = effects[op][0];
            pushes = effects[op][1];
            flow = effects[op][2];
            if (op == OP_CALL) {
                if (arg >= p->n_funcs) return 0;
                pops = p->funcs[arg * KILN_FUNC_WORDS + KILN_F_NPARAMS];
            }
            if (pops == KILN_EFFECT_N) pops = arg;
            if (pops == KILN_EFFECT_SLICE) { /* the sequence and one item per flag bit */
                int64_t bits = arg;
                for (pops = 1; bits; bits &= bits - 1) pops++;
            }
            if (pushes == KILN_EFFECT_N) pushes = arg;
            if (pops < 0 || pushes < 0 || d < pops || pushes > max_stack - (d - pops)) return 0;
            if (op == OP_RET && d != 1) return 0;
            if ((op == OP_LOAD || op == OP_STORE) && arg >= nloc) return 0;
            if (op == OP_CONST && arg >= p->n_consts) return 0;
            /* STR: a string of the image at arg, as kiln_str finds it (the image is read-only) */
            if (op == OP_STR && (arg >= p->image_len || p->image[arg] < 0 || p->image[arg] > p->image_len - arg - 1))
                return 0;
            if (op == OP_LOAD2 && ((arg & 0xfff) >= nloc || (arg >> 12) >= nloc)) return 0;
            if (flow & KILN_FLOW_GUARD) {
                int64_t slots = op == OP_FOR_RANGE ? 3 : 2;
                if ((arg & 0xfff) >= nloc || (arg >> 12) + slots > nloc) return 0;
                if (pc + 1 >= len || (code[pc + 1] & 0xff) != OP_JUMP) return 0;
            }
            if (!(flow & KILN_FLOW_END)) succ[ns++] = pc + 1;
            if (flow & KILN_FLOW_JUMP) succ[ns++] = arg;
            if (flow & KILN_FLOW_GUARD) succ[ns++] = pc + 2;
            for (k = 0; k < ns; k++) {
                if (succ[k] >= len) return 0;
                if (depth[succ[k]] < 0) {
                    depth[succ[k]] = d - pops + pushes;
                    work[n++] = succ[k];
                } else if (depth[succ[k]] != d - pops + pushes) {
                    return 0;
                }
            }
        }
    }
    return 1;
}
#endif

/* ---- fused runs of instructions (KILN_COMPUTED_GOTO builds, verified programs only) ----------
 *
 * kiln_program_fuse rewrites a verified program's code, once per batch, into the interpreter's
 * internal form: the first word of some common runs of instructions (LOAD ADDI STORE, LOAD2
 * LIST_LEN JUMP_GE_I, ...) gets an internal opcode (KILN_X_*, above every opcode of vm/isa.py;
 * never in a program, never seen outside kiln_run's fast table), its argument unchanged; the
 * other words of the run stay as they were, so a jump into the middle of a run runs the original
 * instructions. A fused handler (kiln_run, after the fast handlers) runs the whole run with one
 * dispatch, reading the later words' arguments from the code, and spends its fuel one
 * instruction at a time as the original does: each instruction's step is taken before its
 * checks, so a trap inside a run comes at the same step with the same trap; with less fuel left
 * than the run needs it runs only its first instruction (that instruction's own fast handler)
 * and the next fetch takes the rest one by one. Same results, traps and steps as the code it
 * came from. A few loops run inside one handler (X_FOR_STR_IN, X_FOR_RANGE_STORE,
 * X_FOR_RANGE_INDEX_JF: a loop step whose body is one fused run that comes back to it): the
 * handler takes each step's fuel as the dispatch would and leaves by the next fetch wherever the
 * code would go elsewhere or the fuel runs short; a string or list checked before the loop is
 * checked again wherever something in the loop could change what the check read. X_CALL_SELF
 * marks a function's CALL of itself (its argument the parameter count). Host only; CUDA runs the
 * code as it is. */
#if defined(KILN_COMPUTED_GOTO) && defined(__GNUC__) && !defined(__CUDACC__)
#define KILN_FUSE 1
#define KILN_X_FIRST 192            /* the first internal opcode */
/* the fused runs (the first word's new opcode, then the run's opcodes; -1 ends a short one),
   longest first where two start alike; kiln_program_fuse takes the first that matches */
#define KILN_FUSED_RUNS(X) \
    X(X_LOAD_ADDI_STORE_JUMP, OP_LOAD, OP_ADDI, OP_STORE, OP_JUMP, -1)  /* i += k at a loop's end */ \
    X(X_LOAD_ADDI_STORE, OP_LOAD, OP_ADDI, OP_STORE, -1, -1) \
    X(X_LOAD_ADDI_CALL, OP_LOAD, OP_ADDI, OP_CALL, -1, -1)  /* f(n - 1) */ \
    X(X_LOAD_ADDI, OP_LOAD, OP_ADDI, -1, -1, -1) \
    X(X_LOAD_STR_IN_JF, OP_LOAD, OP_STR, OP_CONTAINS, OP_JUMP_IF_FALSE, -1)  /* if c in "..." */ \
    X(X_LOAD_MODK_JNE, OP_LOAD, OP_LOADI, OP_MOD_I, OP_LOADI, OP_JUMP_NE_I)  /* if x % k != c */ \
    X(X_LOAD_MODK_JEQ, OP_LOAD, OP_LOADI, OP_MOD_I, OP_LOADI, OP_JUMP_EQ_I) \
    X(X_LOAD_MODK, OP_LOAD, OP_LOADI, OP_MOD_I, -1, -1)  /* 0 < k < 2**23 */ \
    X(X_LOAD_LOADI_JLT, OP_LOAD, OP_LOADI, OP_JUMP_LT_I, -1, -1) \
    X(X_LOAD_LOADI_JLE, OP_LOAD, OP_LOADI, OP_JUMP_LE_I, -1, -1) \
    X(X_LOAD_LOADI_JGT, OP_LOAD, OP_LOADI, OP_JUMP_GT_I, -1, -1) \
    X(X_LOAD_LOADI_JGE, OP_LOAD, OP_LOADI, OP_JUMP_GE_I, -1, -1) \
    X(X_LOAD_LOADI_JEQ, OP_LOAD, OP_LOADI, OP_JUMP_EQ_I, -1, -1) \
    X(X_LOAD_LOADI_JNE, OP_LOAD, OP_LOADI, OP_JUMP_NE_I, -1, -1) \
    X(X_LOAD_INDEX, OP_LOAD, OP_LIST_INDEX, -1, -1, -1) \
    X(X_LOAD_MUL, OP_LOAD, OP_MUL_I, -1, -1, -1) \
    X(X_LOAD_ADD, OP_LOAD, OP_ADD_I, -1, -1, -1) \
    X(X_LOAD_SUB, OP_LOAD, OP_SUB_I, -1, -1, -1) \
    X(X_LOAD_RET, OP_LOAD, OP_RET, -1, -1, -1) \
    X(X_LOAD2_LOAD_MUL, OP_LOAD2, OP_LOAD, OP_MUL_I, -1, -1)  /* xs, then i * j */ \
    X(X_APPEND_ITEM, OP_LOAD2, OP_LOAD, OP_LIST_INDEX, OP_LIST_APPEND, -1)  /* ys.append(xs[i]) */ \
    X(X_LOAD2_LEN_JGE, OP_LOAD2, OP_LIST_LEN, OP_JUMP_GE_I, -1, -1)  /* while i < len(xs) */ \
    X(X_LOAD2_LOADI_STORE, OP_LOAD2, OP_LOADI, OP_LIST_STORE, -1, -1)  /* xs[i] = k */ \
    X(X_INDEX2_JLT, OP_LOAD2, OP_LIST_INDEX, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_LT_I)  /* if xs[i] < ys[j] */ \
    X(X_INDEX2_JLE, OP_LOAD2, OP_LIST_INDEX, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_LE_I) \
    X(X_INDEX2_JGT, OP_LOAD2, OP_LIST_INDEX, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_GT_I) \
    X(X_INDEX2_JGE, OP_LOAD2, OP_LIST_INDEX, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_GE_I) \
    X(X_INDEX2_JEQ, OP_LOAD2, OP_LIST_INDEX, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_EQ_I) \
    X(X_INDEX2_JNE, OP_LOAD2, OP_LIST_INDEX, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_NE_I) \
    X(X_LOAD2_INDEX_JLT, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_LT_I, -1, -1)  /* if x < xs[i] */ \
    X(X_LOAD2_INDEX_JLE, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_LE_I, -1, -1) \
    X(X_LOAD2_INDEX_JGT, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_GT_I, -1, -1) \
    X(X_LOAD2_INDEX_JGE, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_GE_I, -1, -1) \
    X(X_LOAD2_INDEX_JF, OP_LOAD2, OP_LIST_INDEX, OP_JUMP_IF_FALSE, -1, -1)  /* if xs[i]: */ \
    X(X_LOAD2_INDEX, OP_LOAD2, OP_LIST_INDEX, -1, -1, -1) \
    X(X_LOAD2_APPEND, OP_LOAD2, OP_LIST_APPEND, -1, -1, -1)  /* ys.append(x) */ \
    X(X_LOAD2_ADD, OP_LOAD2, OP_ADD_I, -1, -1, -1) \
    X(X_LOAD2_SUB, OP_LOAD2, OP_SUB_I, -1, -1, -1) \
    X(X_LOAD2_MUL, OP_LOAD2, OP_MUL_I, -1, -1, -1) \
    X(X_LOAD2_AND, OP_LOAD2, OP_AND_I, -1, -1, -1) \
    X(X_LOAD2_OR, OP_LOAD2, OP_OR_I, -1, -1, -1) \
    X(X_LOAD2_XOR, OP_LOAD2, OP_XOR_I, -1, -1, -1) \
    X(X_LOADI_MOD_APPEND, OP_LOADI, OP_MOD_I, OP_LIST_APPEND, -1, -1)  /* xs.append(x % k) */ \
    X(X_LOADI_MOD, OP_LOADI, OP_MOD_I, -1, -1, -1)  /* 0 < k < 2**23 */ \
    X(X_LOADI_JLT, OP_LOADI, OP_JUMP_LT_I, -1, -1, -1) \
    X(X_LOADI_JLE, OP_LOADI, OP_JUMP_LE_I, -1, -1, -1) \
    X(X_LOADI_JGT, OP_LOADI, OP_JUMP_GT_I, -1, -1, -1) \
    X(X_LOADI_JGE, OP_LOADI, OP_JUMP_GE_I, -1, -1, -1) \
    X(X_LOADI_JEQ, OP_LOADI, OP_JUMP_EQ_I, -1, -1, -1) \
    X(X_LOADI_JNE, OP_LOADI, OP_JUMP_NE_I, -1, -1, -1) \
    X(X_STR_IN_JF, OP_STR, OP_CONTAINS, OP_JUMP_IF_FALSE, -1, -1)  /* CONTAINS of a str only */ \
    X(X_FOR_STR_IN, OP_FOR_STR, OP_JUMP, -1, -1, -1)  /* for c in s: if c in "...": see below */ \
    X(X_FOR_RANGE_STORE, OP_FOR_RANGE, OP_JUMP, -1, -1, -1)  /* for j in range(..): xs[j] = k */ \
    X(X_FOR_RANGE_INDEX_JF, OP_FOR_RANGE, OP_JUMP, -1, -1, -1)  /* for i in range(..): if xs[i]: */ \
    X(X_ADD_STORE, OP_ADD_I, OP_STORE, -1, -1, -1) \
    X(X_ADD_RET, OP_ADD_I, OP_RET, -1, -1, -1) \
    X(X_CALL_SELF, OP_CALL, -1, -1, -1, -1)  /* a function's call of itself: marked apart, below */
enum {
    KILN_X_BEFORE = KILN_X_FIRST - 1,
#define KILN_X_ENUM(x, a, b, c, d, e) KILN_##x,
    KILN_FUSED_RUNS(KILN_X_ENUM)
#undef KILN_X_ENUM
    KILN_X_END
};
#if KILN_N_OPS > KILN_X_FIRST
#error "vm/isa.py's opcodes reach the fused ones (interp.h KILN_X_*)"
#endif

/* X_FOR_STR_IN: a FOR_STR at pc (its JUMP after it) whose JUMP goes back to an X_LOAD_STR_IN_JF
   run (marked already) that loads FOR_STR's own target local, in the same function. */
KILN_COLD int kiln_fuse_for_str_in(const kiln_program *p, const uint32_t *out, int64_t pc) {
    int64_t f;
    for (f = 0; f < p->n_funcs; f++) {
        const int64_t *r = p->funcs + f * KILN_FUNC_WORDS;
        int64_t start = r[KILN_F_START], len = r[KILN_F_LEN], t = (int64_t)(out[pc + 1] >> 8);
        if (pc < start || pc + 1 >= start + len) continue;
        return t + 3 < len && (int)(out[start + t] & 0xff) == KILN_X_LOAD_STR_IN_JF &&
               (int64_t)(out[start + t] >> 8) == (int64_t)((out[pc] >> 8) & 0xfff);
    }
    return 0;
}

/* X_FOR_RANGE_STORE, X_FOR_RANGE_INDEX_JF: a FOR_RANGE at pc (its JUMP after it) whose JUMP goes
   back to a run, marked already, that is the whole loop: an X_LOAD2_LOADI_STORE that falls
   through to the FOR_RANGE (x == KILN_X_FOR_RANGE_STORE), or an X_LOAD2_INDEX_JF whose
   JUMP_IF_FALSE goes to it (else); in the same function. */
KILN_COLD int kiln_fuse_for_range(const kiln_program *p, const uint32_t *out, int64_t pc, int x) {
    int64_t f;
    for (f = 0; f < p->n_funcs; f++) {
        const int64_t *r = p->funcs + f * KILN_FUNC_WORDS;
        int64_t start = r[KILN_F_START], len = r[KILN_F_LEN], t = (int64_t)(out[pc + 1] >> 8);
        if (pc < start || pc + 1 >= start + len) continue;
        if (t + 3 > pc - start) return 0; /* the run before the FOR_RANGE */
        if (x == KILN_X_FOR_RANGE_STORE)
            return (int)(out[start + t] & 0xff) == KILN_X_LOAD2_LOADI_STORE && t + 3 == pc - start;
        return (int)(out[start + t] & 0xff) == KILN_X_LOAD2_INDEX_JF &&
               (int64_t)(out[start + t + 2] >> 8) == pc - start;
    }
    return 0;
}

/* out[0 .. code_len): the code of verified program p with its fused runs marked. */
KILN_COLD void kiln_program_fuse(const kiln_program *p, uint32_t *out) {
#define KILN_X_ROW(x, a, b, c, d, e) {KILN_##x, a, b, c, d, e},
    static const int16_t runs[][6] = {KILN_FUSED_RUNS(KILN_X_ROW)};
#undef KILN_X_ROW
    int64_t pc, n = p->code_len, r, j;
    for (pc = 0; pc < n; pc++) out[pc] = p->code[pc];
    for (pc = 0; pc < n; pc++) {
        for (r = 0; r < (int64_t)(sizeof runs / sizeof runs[0]); r++) {
            int x = runs[r][0], k = 0;
            for (j = 1; j < 6 && runs[r][j] >= 0; j++, k++)
                if (pc + k >= n || (int)(out[pc + k] & 0xff) != runs[r][j]) break;
            if (j < 6 && runs[r][j] >= 0) continue; /* no match */
            if (x == KILN_X_LOADI_MOD || x == KILN_X_LOADI_MOD_APPEND || x == KILN_X_LOAD_MODK ||
                x == KILN_X_LOAD_MODK_JNE || x == KILN_X_LOAD_MODK_JEQ) { /* a positive divisor */
                int64_t d = (int64_t)(out[pc + (x != KILN_X_LOADI_MOD && x != KILN_X_LOADI_MOD_APPEND)] >> 8);
                if (d <= 0 || d >= (1 << 23)) continue;
            }
            if (x == KILN_X_STR_IN_JF || x == KILN_X_LOAD_STR_IN_JF) { /* `in` of a str */
                int64_t t = (int64_t)(out[pc + 1 + (x == KILN_X_LOAD_STR_IN_JF)] >> 8);
                if (t >= p->n_types || p->types[p->type_off[t]] != TY_STR) continue;
            }
            if (x == KILN_X_CALL_SELF) continue;
            if (x == KILN_X_FOR_STR_IN && !kiln_fuse_for_str_in(p, out, pc)) continue;
            if ((x == KILN_X_FOR_RANGE_STORE || x == KILN_X_FOR_RANGE_INDEX_JF) && !kiln_fuse_for_range(p, out, pc, x))
                continue;
            out[pc] = (out[pc] & ~(uint32_t)0xff) | (uint32_t)x;
            pc += k - 1;
            break;
        }
    }
    /* X_CALL_SELF: a CALL of the function it is in (a word of its own, or the last of a run), its
       argument the callee's parameter count instead of its index (the running frame's) */
    for (r = 0; r < p->n_funcs; r++) {
        const int64_t *f = p->funcs + r * KILN_FUNC_WORDS;
        for (pc = f[KILN_F_START]; pc < f[KILN_F_START] + f[KILN_F_LEN] && pc < n; pc++)
            if ((int)(out[pc] & 0xff) == OP_CALL && (int64_t)(out[pc] >> 8) == r && f[KILN_F_NPARAMS] >= 0 &&
                f[KILN_F_NPARAMS] < (1 << 24))
                out[pc] = (uint32_t)f[KILN_F_NPARAMS] << 8 | (uint32_t)KILN_X_CALL_SELF;
    }
}
#endif

/* ---- the interpreter ------------------------------------------------------------------------ */

/* Run function `func` of a checked program on marshalled arguments `args`. Returns the trap code
   (TRAP_OK when it returned); *steps is the instructions started; on TRAP_OK *result is the
   returned value (a word, or a reference into the heap of *vm_out, the machine as it stopped).
   Callers: kiln_exec (marshals the result) and kiln_verify_item (compares it in place).
   fast: 1 only for a program that kiln_program_verify passed; a KILN_COMPUTED_GOTO build then
   runs the hot instructions by handlers without the checks that verification made once
   (operand stack bounds, local slots, jump targets, loop-step operands, the callee's index);
   every other build, and every other instruction, checks as always. The same traps and steps
   either way: on a verified program those checks never fail. */
KILN_RUN_FN int kiln_run(const kiln_program *prog, int32_t func, const int64_t *args, int64_t n_arg_words,
                     const kiln_limits *lim, const kiln_scratch *mem, kiln_vm *vm_out, int64_t *result_out,
                     int64_t *steps_out, int fast) {
    kiln_vm vm;
    int64_t chars[KILN_CHARS]; /* vm.chars: read only where vm.chars_made says */
    int64_t *const stack = mem->stack;
    kiln_frame *const frames = mem->frames;
    const int64_t fuel = lim->fuel, stack_words = lim->stack_words;
    KILN_REG(int64_t, left, "r13"); /* fuel not yet spent */
    int64_t depth, clen, nloc, at, i, result = 0;
    KILN_REG(int64_t *, sp, "r15");
    KILN_REG(int64_t *, loc, "r12");
    int64_t *lo, *hi;
    const uint32_t *code;
    KILN_REG(const uint32_t *, ip, "r14"); /* the next instruction: code + the pc */
    const int64_t *fr;
    int trap = TRAP_OK;
#ifdef KILN_FUSE
    /* X_STR_IN_JF's last image string: its address, whether all its characters are below 128,
       and then their set (a bit per code point) */
    int64_t in_at = -1, in_c = 0; /* in_c: the one character tested (X_CHAR_IN_JF) */
    int in_ascii = 0;
    uint64_t in_set[2] = {0, 0};
#endif

    left = fuel;
    vm.p = prog;
    vm.image = prog->image;
    vm.image_len = prog->image_len;
    vm.heap = mem->heap;
    vm.heap_words = lim->heap_words;
    vm.used = 0;
    vm.walk = mem->walk;
    vm.walk_cap = mem->walk_cap;
    vm.chars = chars;
    for (i = 0; i < KILN_CHARS / 64; i++) vm.chars_made[i] = 0;

    if (func < 0 || func >= prog->n_funcs) { trap = TRAP_MemoryFault; goto done; }
    fr = prog->funcs + (int64_t)func * KILN_FUNC_WORDS;

    /* arguments: unmarshalled into the heap in parameter order, then the entry frame */
    at = 0;
    for (i = 0; i < fr[KILN_F_NPARAMS]; i++) {
        int64_t v = 0;
        trap = kiln_unmarshal(&vm, prog->type_off[prog->params[fr[KILN_F_PARAMS] + i]], args, n_arg_words, &at, &v);
        if (trap) goto done;
        if (i < stack_words) stack[i] = v;
    }
    if (at != n_arg_words) { trap = TRAP_MemoryFault; goto done; }
    if (fr[KILN_F_NLOCALS] + fr[KILN_F_MAXSTACK] > stack_words) { trap = TRAP_StackExhausted; goto done; }

    depth = 1;
    frames[0].func = func;
    frames[0].base = 0;
    frames[0].ret_pc = 0;
    loc = stack;
    nloc = fr[KILN_F_NLOCALS];
    for (i = fr[KILN_F_NPARAMS]; i < nloc; i++) loc[i] = 0;
    lo = sp = loc + nloc;
    hi = lo + fr[KILN_F_MAXSTACK];
    code = prog->code + fr[KILN_F_START];
    clen = fr[KILN_F_LEN];
    ip = code;

#define TRAP(t) do { trap = (t); goto done; } while (0)
/* NEED(k): k operands on the stack; ROOM(k): room for k more. For k == 1 a plain comparison of
   the pointers (sp, lo and hi all point into the one value stack): the same test, cheaper. */
#define NEED(k) do { if ((k) == 1 ? sp <= lo : sp - lo < (int64_t)(k)) TRAP(TRAP_MemoryFault); } while (0)
#define ROOM(k) do { if ((k) == 1 ? sp >= hi : hi - sp < (int64_t)(k)) TRAP(TRAP_MemoryFault); } while (0)
#define CHECK(e) do { int t_ = (e); if (t_) TRAP(t_); } while (0)
/* an int instruction of two operands computed by a scalar.h function that can trap */
#define INT2_CHECKED(fn) do { int64_t r_ = 0; NEED(2); CHECK(fn(sp[-2], sp[-1], &r_)); sp[-2] = r_; sp--; } while (0)
#define FLT2(expr) do { NEED(2); { double x = kiln_f(sp[-2]), y = kiln_f(sp[-1]); sp[-2] = (expr); sp--; } } while (0)
#define FLTOP(expr) FLT2(kiln_w(expr))
#if defined(__GNUC__) && !defined(__CUDACC__)
/* the same for 0 <= x < 2**24 (every argument): GCC's conversion and >> of a negative int are
   modulo and arithmetic, so the sign extension is two shifts and no branch */
#define IMM(x) ((int64_t)((int32_t)((uint32_t)(x) << 8) >> 8))
#else
#define IMM(x) ((x) >= (1 << 23) ? (x) - (1 << 24) : (x))
#endif
/* the opcode of the instruction running (read back from the code: not a variable of the loop) */
#define OPCODE ((int)(ip[-1] & 0xff))
#define GOTO(target) (ip = code + ((target) < clen ? (target) : clen))
/* A loop step (FOR_*): local a = arg & 0xfff gets the next value, the state starts at local
   b = arg >> 12 and takes k slots; the word after it must be a JUMP (at worst it is the guard) */
#define LOOP_STEP(k) do { if ((arg & 0xfff) >= nloc || (arg >> 12) + (k) > nloc || (*ip & 0xff) != OP_JUMP) \
                              TRAP(TRAP_MemoryFault); } while (0)
#define LOOP_TAKE(value) do { int64_t t_ = (int64_t)(*ip >> 8); loc[arg & 0xfff] = (value); GOTO(t_); } while (0)
/* FOR_RANGE's step on its state st (current, stop, step): RANGE_MORE(st, cur), whether cur (st[0])
   is still in the range; RANGE_ADVANCE(st, cur, next), st[0] moved on by the step (to the stop
   past 64 bits: over). Written once for FOR_RANGE (interp_hot.h) and the fused loops below. */
#define RANGE_MORE(st, cur) ((st)[2] > 0 ? (cur) < (st)[1] : (cur) > (st)[1])
#define RANGE_ADVANCE(st, cur, next) ((st)[0] = kiln_add_ovf((cur), (st)[2], &(next)) ? (st)[1] : (next))
/* A fused FOR_RANGE's turn (X_FOR_RANGE_STORE, X_FOR_RANGE_INDEX_JF; state st, the FOR_RANGE at
   pc, its run at t): past the stop, on after the loop's JUMP; else the next value into the loop's
   local and on to the run, one step at a time (FNEXT) where fuel for its 3 steps is short. Then,
   after the run, FUSED_RANGE_BACK: to the FOR_RANGE again, taking its step as FNEXT would */
#define FUSED_RANGE_TURN() do { \
        cur = st[0]; \
        if (!RANGE_MORE(st, cur)) { \
            ip = code + pc + 2; \
            FNEXT; \
        } \
        RANGE_ADVANCE(st, cur, next); \
        loc[arg & 0xfff] = cur; \
        ip = code + t; \
        if (left < 3) FNEXT; /* the run one step at a time, as the code */ \
    } while (0)
#define FUSED_RANGE_BACK() do { \
        ip = code + pc; \
        if (left < 1) FNEXT; \
        left--; /* this FOR_RANGE's step, as FNEXT takes it */ \
    } while (0)
/* CALL of the running function (recursion; its function index) with np parameters, its frame
   at stack word base and span words long (its locals and stack, as the caller's): code, clen,
   nloc and span stay; the same checks in the same order as a CALL's (call depth first, by the
   caller) */
#define ENTER_SELF(np, index, base, span) do { \
        int64_t base_ = (base), span_ = (span); \
        kiln_frame *fp_ = frames + depth; /* the callee's */ \
        if (base_ + span_ > stack_words) TRAP(TRAP_StackExhausted); \
        fp_[-1].ret_pc = (int32_t)(ip - code); \
        fp_->func = (index); \
        fp_->base = base_; \
        depth++; \
        loc = stack + base_; \
        if ((np) < nloc) \
            for (i = (np); i < nloc; i++) loc[i] = 0; \
        lo = sp = loc + nloc; \
        hi = loc + span_; \
        ip = code; \
    } while (0)
#if defined(KILN_COMPUTED_GOTO) && defined(__GNUC__) && !defined(__CUDACC__)
    /* GCC's labels as values: every handler ends with its own fetch and indirect jump (the switch
       below is only entered for the first instruction) */
#define CASE(op) case op: L_##op
#define KILN_LABEL(name) name:
#define KILN_FAST_HANDLERS 1
/* NEXT (a checked handler) dispatches through the table of this run, FNEXT (a fast handler, run
   only for a verified program) through the fast one */
#define NEXT do { if (--left < 0) { left = 0; TRAP(TRAP_FuelExhausted); } word = *ip++; arg = (int64_t)(word >> 8); \
                  goto *table[word & 0xff]; } while (0)
#define FNEXT do { if (--left < 0) { left = 0; TRAP(TRAP_FuelExhausted); } word = *ip++; arg = (int64_t)(word >> 8); \
                   goto *kiln_fast[word & 0xff]; } while (0)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wpedantic"
    static const void *const kiln_labels[256] = {
        [0 ... 255] = &&L_default,
        KILN_GOTO_LABELS /* one per instruction, generated from vm/isa.py (kiln_isa.h) */
    };
    /* the same, with the hot instructions' fast handlers (F_x, after the switch's cases) */
#define KILN_FAST(op) [op] = &&F_##op
    static const void *const kiln_fast[256] = {
        [0 ... 255] = &&L_default,
        KILN_GOTO_LABELS
        KILN_FAST(OP_POP), KILN_FAST(OP_DUP), KILN_FAST(OP_SWAP), KILN_FAST(OP_LOADI),
        KILN_FAST(OP_CONST), KILN_FAST(OP_STR), KILN_FAST(OP_LOAD), KILN_FAST(OP_STORE),
        KILN_FAST(OP_LOAD2), KILN_FAST(OP_JUMP), KILN_FAST(OP_JUMP_IF_FALSE),
        KILN_FAST(OP_JUMP_IF_TRUE), KILN_FAST(OP_JUMP_LT_I), KILN_FAST(OP_JUMP_LE_I),
        KILN_FAST(OP_JUMP_GT_I), KILN_FAST(OP_JUMP_GE_I), KILN_FAST(OP_JUMP_EQ_I),
        KILN_FAST(OP_JUMP_NE_I), KILN_FAST(OP_FOR_RANGE), KILN_FAST(OP_FOR_LIST),
        KILN_FAST(OP_FOR_STR), KILN_FAST(OP_CALL), KILN_FAST(OP_RET), KILN_FAST(OP_ADD_I),
        KILN_FAST(OP_ADDI), KILN_FAST(OP_SUB_I), KILN_FAST(OP_MUL_I), KILN_FAST(OP_FLOORDIV_I),
        KILN_FAST(OP_MOD_I), KILN_FAST(OP_AND_I), KILN_FAST(OP_OR_I), KILN_FAST(OP_XOR_I),
        KILN_FAST(OP_LT_I), KILN_FAST(OP_LE_I), KILN_FAST(OP_GT_I), KILN_FAST(OP_GE_I),
        KILN_FAST(OP_EQ_I), KILN_FAST(OP_NE_I), KILN_FAST(OP_NOT), KILN_FAST(OP_LIST_LEN),
        KILN_FAST(OP_LIST_INDEX), KILN_FAST(OP_LIST_STORE), KILN_FAST(OP_LIST_APPEND),
#define KILN_FUSED(x, a, b, c, d, e) [KILN_##x] = &&x,
        KILN_FUSED_RUNS(KILN_FUSED)
#undef KILN_FUSED
    };
#undef KILN_FAST
#pragma GCC diagnostic pop
    const void *const *const table = fast ? kiln_fast : kiln_labels;
#else
#define CASE(op) case op
#define KILN_LABEL(name)
#define NEXT break
    (void)fast;
#endif

    for (;;) {
        uint32_t word;
        int64_t arg;
        if (--left < 0) { left = 0; TRAP(TRAP_FuelExhausted); }
        word = *ip++; /* ip <= code + clen: code[clen] is KILN_GUARD */
        arg = (int64_t)(word >> 8);
        switch (word & 0xff) {
        /* -- the hot instructions (stack ops, constants, locals, jumps, loop steps, CALL/RET, int
           arithmetic and comparisons, the common list ops), with every check: interp_hot.h */
#define HOT(op) CASE(op)
#define HOT_NEXT NEXT
#define VERIFIED(...) __VA_ARGS__
#define FAST_ONLY(...)
/* a target past the end goes to the guard: MemoryFault at the next step, as if fetched */
#define HOT_GOTO(target) GOTO(target)
#include "interp_hot.h"
#undef HOT
#undef HOT_NEXT
#undef VERIFIED
#undef FAST_ONLY
#undef HOT_GOTO

        /* -- stack and control */
        CASE(OP_NOP): NEXT;
        CASE(OP_DUP2): NEED(2); ROOM(2); sp[0] = sp[-2]; sp[1] = sp[-1]; sp += 2; NEXT;
        CASE(OP_RAISE): TRAP(arg > TRAP_OK && arg < KILN_N_TRAPS ? (int)arg : TRAP_MemoryFault);

        /* -- int */
        CASE(OP_FLOORDIV_I): INT2_CHECKED(kiln_floordiv_i); NEXT;
        CASE(OP_MOD_I): INT2_CHECKED(kiln_mod_i); NEXT;
        CASE(OP_POW_I): INT2_CHECKED(kiln_pow_i); NEXT;
        CASE(OP_DIV_I): {
            double r = 0.0;
            NEED(2);
            CHECK(kiln_div_i(sp[-2], sp[-1], &r));
            sp[-2] = kiln_w(r);
            sp--;
            NEXT;
        }
        CASE(OP_NEG_I): { int64_t r = 0; NEED(1); CHECK(kiln_neg_i(sp[-1], &r)); sp[-1] = r; NEXT; }
        CASE(OP_ABS_I): { int64_t r = 0; NEED(1); CHECK(kiln_abs_i(sp[-1], &r)); sp[-1] = r; NEXT; }
        CASE(OP_INVERT_I): NEED(1); sp[-1] = ~sp[-1]; NEXT;
        CASE(OP_SHL_I): INT2_CHECKED(kiln_shl_i); NEXT;
        CASE(OP_SHR_I): INT2_CHECKED(kiln_shr_i); NEXT;
        CASE(OP_TRUTH_F): NEED(1); sp[-1] = kiln_f(sp[-1]) != 0.0; NEXT;

        /* -- float */
        CASE(OP_ADD_F): FLTOP(kiln_add(x, y)); NEXT;
        CASE(OP_SUB_F): FLTOP(kiln_sub(x, y)); NEXT;
        CASE(OP_MUL_F): FLTOP(kiln_mul(x, y)); NEXT;
        CASE(OP_DIV_F): NEED(2); if (kiln_f(sp[-1]) == 0.0) TRAP(TRAP_ZeroDivisionError); FLTOP(kiln_div(x, y)); NEXT;
        CASE(OP_FLOORDIV_F): NEED(2); if (kiln_f(sp[-1]) == 0.0) TRAP(TRAP_ZeroDivisionError); FLTOP(kiln_floordiv_f(x, y)); NEXT;
        CASE(OP_MOD_F): NEED(2); if (kiln_f(sp[-1]) == 0.0) TRAP(TRAP_ZeroDivisionError); FLTOP(kiln_mod_f(x, y)); NEXT;
        CASE(OP_POW_F): {
            double r = 0.0;
            NEED(2);
            CHECK(kiln_pow_f(kiln_f(sp[-2]), kiln_f(sp[-1]), &r, 1));
            sp[-2] = kiln_w(r);
            sp--;
            NEXT;
        }
        CASE(OP_NEG_F): NEED(1); sp[-1] = kiln_w(-kiln_f(sp[-1])); NEXT;
        CASE(OP_ABS_F): NEED(1); sp[-1] = kiln_w(fabs(kiln_f(sp[-1]))); NEXT;
        CASE(OP_LT_F): FLT2(x < y); NEXT;
        CASE(OP_LE_F): FLT2(x <= y); NEXT;
        CASE(OP_GT_F): FLT2(x > y); NEXT;
        CASE(OP_GE_F): FLT2(x >= y); NEXT;
        CASE(OP_EQ_F): FLT2(x == y); NEXT;
        CASE(OP_NE_F): FLT2(x != y); NEXT;
        CASE(OP_I2F): NEED(1); sp[-1] = kiln_w((double)sp[-1]); NEXT;
        CASE(OP_CMP_IF): NEED(2); sp[-2] = kiln_cmp_if(sp[-2], sp[-1], IMM(arg)); sp--; NEXT;
        CASE(OP_I2F_EXACT): { double r = 0.0; NEED(1); CHECK(kiln_i2f_exact(sp[-1], &r)); sp[-1] = kiln_w(r); NEXT; }
        CASE(OP_F2I): { int64_t r = 0; NEED(1); CHECK(kiln_f2i(kiln_f(sp[-1]), &r)); sp[-1] = r; NEXT; }

        /* -- values of any type */
        CASE(OP_EQ):
        CASE(OP_LT):
        CASE(OP_LE): {
            int32_t pos = kiln_tpos(prog, arg);
            int op = OPCODE, c = 0;
            int64_t a, b;
            NEED(2);
            if (pos < 0) TRAP(TRAP_MemoryFault);
            a = sp[-2];
            b = sp[-1];
            if (prog->types[pos] == TY_FLOAT) { /* not inside a container: plain IEEE */
                double x = kiln_f(a), y = kiln_f(b);
                c = op == OP_EQ ? x == y : op == OP_LT ? x < y : x <= y;
            } else {
                CHECK(kiln_cmp(&vm, pos, a, b, op == OP_EQ, &c));
                c = op == OP_EQ ? c == 0 : op == OP_LT ? c < 0 : c <= 0;
            }
            sp[-2] = c;
            sp--;
            NEXT;
        }
        CASE(OP_CONTAINS): {
            int32_t pos = kiln_tpos(prog, arg), et;
            int64_t x, n, m, j, *h, *items, found = 0;
            const int64_t *ci;
            NEED(2);
            if (pos < 0) TRAP(TRAP_MemoryFault);
            x = sp[-2];
            switch (prog->types[pos]) {
            case TY_STR: {
                const int64_t *cx;
                if (kiln_str(&vm, x, &m, &cx) || kiln_str(&vm, sp[-1], &n, &ci)) TRAP(TRAP_MemoryFault);
                if (m == 1) { /* a character (`c in "aeiou"`): one comparison per position */
                    for (i = 0; i < n && ci[i] != cx[0]; i++) {}
                    found = i < n;
                    break;
                }
                for (i = 0; !found && i + m <= n; i++) {
                    for (j = 0; j < m && ci[i + j] == cx[j]; j++) {}
                    found = j == m;
                }
                break;
            }
            case TY_LIST:
                if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
                et = pos + 1;
                if (prog->types[et] == TY_INT || prog->types[et] == TY_BOOL) {
                    for (i = 0; !found && i < n; i++) found = items[i] == x;
                } else {
                    for (i = 0; !found && i < n; i++) {
                        int c;
                        CHECK(kiln_cmp(&vm, et, items[i], x, 1, &c));
                        found = c == 0;
                    }
                }
                break;
            case TY_TUPLE: /* each item compared as its own type */
                if (kiln_tup(&vm, sp[-1], &n, &ci) || n != prog->types[pos + 1]) TRAP(TRAP_MemoryFault);
                for (i = 0, et = pos + 2; !found && i < n; i++, et = prog->type_skip[et]) {
                    int c;
                    CHECK(kiln_cmp(&vm, et, ci[i], x, 1, &c));
                    found = c == 0;
                }
                break;
            default: TRAP(TRAP_MemoryFault);
            }
            sp[-2] = found;
            sp--;
            NEXT;
        }

        /* -- str */
        CASE(OP_STR_LEN): {
            int64_t n;
            const int64_t *cp;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            sp[-1] = n;
            NEXT;
        }
        CASE(OP_STR_INDEX): {
            int64_t n, k, addr;
            const int64_t *cp;
            NEED(2);
            if (kiln_str(&vm, sp[-2], &n, &cp)) TRAP(TRAP_MemoryFault);
            k = kiln_index(sp[-1], n);
            if (k < 0) TRAP(TRAP_IndexError);
            CHECK(kiln_char(&vm, cp[k], &addr));
            sp[-2] = addr;
            sp--;
            NEXT;
        }
        CASE(OP_STR_SLICE):
        CASE(OP_LIST_SLICE): {
            int64_t k = 1 + (arg & 1) + ((arg >> 1) & 1) + ((arg >> 2) & 1);
            int64_t n, start, step, count, addr, *h, *src, *dst;
            const int64_t *cp;
            int is_str = OPCODE == OP_STR_SLICE;
            if (arg > 7) TRAP(TRAP_MemoryFault);
            NEED(k);
            if (is_str) {
                if (kiln_str(&vm, sp[-k], &n, &cp)) TRAP(TRAP_MemoryFault);
            } else {
                if (kiln_list(&vm, sp[-k], 0, &h, &n, &src)) TRAP(TRAP_MemoryFault);
                cp = src;
            }
            CHECK(kiln_slice(sp - k + 1, arg, n, &start, &step, &count));
            if (is_str) CHECK(kiln_new_str(&vm, count, &addr, &dst));
            else CHECK(kiln_new_list(&vm, count, &addr, &dst));
            for (i = 0; i < count; i++) dst[i] = cp[start + i * step];
            sp -= k - 1;
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_STR_CONCAT): {
            int64_t na, nb, addr, *d;
            const int64_t *ca, *cb;
            NEED(2);
            if (kiln_str(&vm, sp[-2], &na, &ca) || kiln_str(&vm, sp[-1], &nb, &cb)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_new_str(&vm, na + nb, &addr, &d));
            kiln_copy(d, ca, na);
            kiln_copy(d + na, cb, nb);
            sp[-2] = addr;
            sp--;
            NEXT;
        }
        CASE(OP_STR_REPEAT): {
            int64_t n, k, addr, *d;
            const int64_t *cp;
            NEED(2);
            if (kiln_str(&vm, sp[-2], &n, &cp)) TRAP(TRAP_MemoryFault);
            k = sp[-1] < 0 ? 0 : sp[-1];
            CHECK(kiln_new_str(&vm, kiln_sz_mul(n, k), &addr, &d));
            if (n) for (i = 0; i < k; i++) kiln_copy(d + i * n, cp, n);
            sp[-2] = addr;
            sp--;
            NEXT;
        }
        CASE(OP_STR_OF_INT): { int64_t addr; NEED(1); CHECK(kiln_str_of_int(&vm, sp[-1], &addr)); sp[-1] = addr; NEXT; }
        CASE(OP_STR_OF_BOOL): {
            int64_t addr, *d;
            NEED(1);
            if (sp[-1]) {
                CHECK(kiln_new_str(&vm, 4, &addr, &d));
                d[0] = 'T'; d[1] = 'r'; d[2] = 'u'; d[3] = 'e';
            } else {
                CHECK(kiln_new_str(&vm, 5, &addr, &d));
                d[0] = 'F'; d[1] = 'a'; d[2] = 'l'; d[3] = 's'; d[4] = 'e';
            }
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_INT_OF_STR): {
            int64_t n, r = 0;
            const int64_t *cp;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_int_of_str(cp, n, &r));
            sp[-1] = r;
            NEXT;
        }
        CASE(OP_ORD): {
            int64_t n;
            const int64_t *cp;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            if (n != 1) TRAP(TRAP_TypeError);
            sp[-1] = cp[0];
            NEXT;
        }
        CASE(OP_CHR): {
            int64_t addr;
            NEED(1);
            /* CPython's chr() takes a C int first: OverflowError outside 32 bits */
            if (sp[-1] < -2147483648LL || sp[-1] > 2147483647LL) TRAP(TRAP_OverflowError);
            if (sp[-1] < 0 || sp[-1] >= 0x110000) TRAP(TRAP_ValueError);
            CHECK(kiln_char(&vm, sp[-1], &addr));
            sp[-1] = addr;
            NEXT;
        }

        /* -- list */
        CASE(OP_LIST_NEW):
        CASE(OP_TUPLE_NEW): {
            int64_t addr, *d;
            NEED(arg);
            if (OPCODE == OP_LIST_NEW) CHECK(kiln_new_list(&vm, arg, &addr, &d));
            else CHECK(kiln_new_str(&vm, arg, &addr, &d));
            sp -= arg;
            kiln_copy(d, sp, arg);
            ROOM(1);
            *sp++ = addr;
            NEXT;
        }
        CASE(OP_LIST_EXTEND): {
            /* the source is read from its own block: when a is b, the old block still holds
               the first n items after a grows into a new one */
            int64_t n, m, *h, *hb, *items, *src;
            NEED(2);
            if (kiln_list(&vm, sp[-1], 0, &hb, &m, &src)) TRAP(TRAP_MemoryFault);
            if (kiln_list(&vm, sp[-2], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_list_grow(&vm, h, kiln_sz_add(n, m), &items));
            for (i = 0; i < m; i++) items[n + i] = src[i];
            h[0] = n + m;
            sp--;
            NEXT;
        }
        CASE(OP_LIST_IREPEAT): {
            int64_t n, k, r, size, *h, *items;
            NEED(2);
            if (kiln_list(&vm, sp[-2], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = sp[-1];
            if (k <= 0) {
                h[0] = 0;
            } else {
                size = kiln_sz_mul(n, k);
                CHECK(kiln_list_grow(&vm, h, size, &items));
                for (r = 1; r < k && n; r++) kiln_copy(items + r * n, items, n);
                h[0] = size;
            }
            sp--;
            NEXT;
        }
        CASE(OP_LIST_POP):
        CASE(OP_LIST_POP_AT): {
            int64_t n, k, v, *h, *items, nargs = OPCODE == OP_LIST_POP ? 1 : 2;
            NEED(nargs);
            if (kiln_list(&vm, sp[-nargs], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = nargs == 1 ? n - 1 : kiln_index(sp[-1], n);
            if (k < 0) TRAP(TRAP_IndexError);
            v = items[k];
            for (i = k; i + 1 < n; i++) items[i] = items[i + 1];
            h[0] = n - 1;
            sp -= nargs - 1;
            sp[-1] = v;
            NEXT;
        }
        CASE(OP_LIST_CONCAT): {
            int64_t na, nb, addr, *h, *ia, *ib, *d;
            NEED(2);
            if (kiln_list(&vm, sp[-2], 0, &h, &na, &ia) || kiln_list(&vm, sp[-1], 0, &h, &nb, &ib)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_new_list(&vm, na + nb, &addr, &d));
            kiln_copy(d, ia, na);
            kiln_copy(d + na, ib, nb);
            sp[-2] = addr;
            sp--;
            NEXT;
        }
        CASE(OP_LIST_REPEAT): {
            int64_t n, k, addr, *h, *items, *d;
            NEED(2);
            if (kiln_list(&vm, sp[-2], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = sp[-1] < 0 ? 0 : sp[-1];
            CHECK(kiln_new_list(&vm, kiln_sz_mul(n, k), &addr, &d));
            if (n) for (i = 0; i < k; i++) kiln_copy(d + i * n, items, n);
            sp[-2] = addr;
            sp--;
            NEXT;
        }
        CASE(OP_LIST_OF_STR): {
            int64_t n, addr, *d;
            const int64_t *cp;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_new_list(&vm, n, &addr, &d));
            for (i = 0; i < n; i++) d[i] = 0;
            for (i = 0; i < n; i++) CHECK(kiln_char(&vm, cp[i], &d[i]));
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_LIST_RANGE): {
            int64_t start, stop, step, addr, *d;
            uint64_t n = 0;
            NEED(3);
            start = sp[-3];
            stop = sp[-2];
            step = sp[-1];
            if (step == 0) TRAP(TRAP_ValueError);
            if (step > 0 && start < stop) n = ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1;
            if (step < 0 && start > stop) n = ((uint64_t)start - (uint64_t)stop - 1) / ((uint64_t)0 - (uint64_t)step) + 1;
            CHECK(kiln_new_list(&vm, n > (uint64_t)KILN_I64_MAX ? KILN_I64_MAX : (int64_t)n, &addr, &d));
            for (i = 0; i < (int64_t)n; i++) d[i] = (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)step);
            sp -= 2;
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_LIST_REVERSED): {
            int64_t n, addr, *h, *items, *d;
            NEED(1);
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_new_list(&vm, n, &addr, &d));
            for (i = 0; i < n; i++) d[i] = items[n - 1 - i];
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_SORTED):
        CASE(OP_SORTED_DESC): {
            int32_t pos = kiln_tpos(prog, arg);
            int64_t n, addr, *h, *items, *d;
            NEED(1);
            if (pos < 0 || prog->types[pos] != TY_LIST) TRAP(TRAP_MemoryFault);
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            /* needs 3 + 2n words free (a merge buffer of n past the result), keeps 3 + n */
            if (kiln_sz_add(3, kiln_sz_mul(2, n)) > vm.heap_words - vm.used) TRAP(TRAP_HeapExhausted);
            CHECK(kiln_new_list(&vm, n, &addr, &d));
            kiln_copy(d, items, n);
            CHECK(kiln_sort(&vm, pos + 1, d, vm.heap + vm.used, n, OPCODE == OP_SORTED_DESC));
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_LIST_FIND): {
            int32_t pos = kiln_tpos(prog, arg), et;
            int64_t n, x, r = -1, *h, *items;
            NEED(2);
            if (pos < 0 || prog->types[pos] != TY_LIST) TRAP(TRAP_MemoryFault);
            if (kiln_list(&vm, sp[-2], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            x = sp[-1];
            et = pos + 1;
            for (i = 0; r < 0 && i < n; i++) {
                int c;
                if (prog->types[et] == TY_INT || prog->types[et] == TY_BOOL) c = items[i] != x;
                else CHECK(kiln_cmp(&vm, et, items[i], x, 1, &c));
                if (c == 0) r = i;
            }
            sp[-2] = r;
            sp--;
            NEXT;
        }
        CASE(OP_SORTED_UNIQUE): {
            int32_t pos = kiln_tpos(prog, arg);
            int64_t n, m = 0, addr, *h, *items, *d, *nh;
            NEED(1);
            if (pos < 0 || prog->types[pos] != TY_LIST) TRAP(TRAP_MemoryFault);
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            if (kiln_sz_add(3, kiln_sz_mul(2, n)) > vm.heap_words - vm.used) TRAP(TRAP_HeapExhausted);
            CHECK(kiln_new_list(&vm, n, &addr, &d));
            kiln_copy(d, items, n);
            CHECK(kiln_sort(&vm, pos + 1, d, vm.heap + vm.used, n, 0));
            for (i = 0; i < n; i++) {
                int c = 1;
                if (m > 0) CHECK(kiln_cmp(&vm, pos + 1, d[m - 1], d[i], 1, &c));
                if (c != 0) d[m++] = d[i];
            }
            nh = kiln_rw(&vm, addr, 3);
            if (!nh) TRAP(TRAP_MemoryFault);
            nh[0] = m; /* the capacity stays n */
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_MIN):
        CASE(OP_MAX): {
            int32_t pos = kiln_tpos(prog, arg), et;
            int is_max = OPCODE == OP_MAX;
            int64_t n, best, *h, *items;
            NEED(1);
            if (pos < 0) TRAP(TRAP_MemoryFault);
            if (prog->types[pos] == TY_STR) {
                const int64_t *cp;
                if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
                if (n == 0) TRAP(TRAP_ValueError);
                best = cp[0];
                for (i = 1; i < n; i++)
                    if (is_max ? best < cp[i] : cp[i] < best) best = cp[i];
                CHECK(kiln_char(&vm, best, &sp[-1]));
                NEXT;
            }
            if (prog->types[pos] != TY_LIST) TRAP(TRAP_MemoryFault);
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            if (n == 0) TRAP(TRAP_ValueError);
            et = pos + 1;
            best = items[0];
            for (i = 1; i < n; i++) {
                int64_t x = items[i];
                int less;
                switch (prog->types[et]) {
                case TY_INT:
                case TY_BOOL: less = is_max ? best < x : x < best; break;
                case TY_FLOAT: less = is_max ? kiln_f(best) < kiln_f(x) : kiln_f(x) < kiln_f(best); break;
                default: {
                    int c;
                    CHECK(kiln_cmp(&vm, et, is_max ? best : x, is_max ? x : best, 0, &c));
                    less = c < 0;
                }
                }
                if (less) best = x;
            }
            sp[-1] = best;
            NEXT;
        }
        CASE(OP_SUM_I): {
            int64_t n, s = 0, *h, *items;
            NEED(1);
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            for (i = 0; i < n; i++)
                if (kiln_add_ovf(s, items[i], &s)) TRAP(TRAP_Overflow);
            sp[-1] = s;
            NEXT;
        }
        CASE(OP_SUM_F): {
            int64_t n, *h, *items;
            double s = 0.0;
            NEED(1);
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            if (n == 0) TRAP(TRAP_Unsupported);
            for (i = 0; i < n; i++) s = kiln_add(s, kiln_f(items[i]));
            sp[-1] = kiln_w(s);
            NEXT;
        }

        /* -- str methods */
        CASE(OP_STR_LOWER):
        CASE(OP_STR_UPPER):
        CASE(OP_STR_SWAPCASE): {
            int op = OPCODE;
            int64_t n, addr, *d;
            const int64_t *cp;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_ascii(cp, n));
            CHECK(kiln_new_str(&vm, n, &addr, &d));
            for (i = 0; i < n; i++) {
                int64_t c = cp[i];
                if (c >= 'a' && c <= 'z' && op != OP_STR_LOWER) c -= 32;
                else if (c >= 'A' && c <= 'Z' && op != OP_STR_UPPER) c += 32;
                d[i] = c;
            }
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_STR_ISALPHA):
        CASE(OP_STR_ISDIGIT):
        CASE(OP_STR_ISALNUM):
        CASE(OP_STR_ISSPACE):
        CASE(OP_STR_ISUPPER):
        CASE(OP_STR_ISLOWER): {
            int op = OPCODE;
            int64_t n, r, cased = 0;
            const int64_t *cp;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_ascii(cp, n));
            r = n > 0;
            for (i = 0; i < n; i++) {
                int64_t c = cp[i];
                int up = c >= 'A' && c <= 'Z', low = c >= 'a' && c <= 'z', dig = c >= '0' && c <= '9';
                switch (op) {
                case OP_STR_ISALPHA: if (!up && !low) r = 0; break;
                case OP_STR_ISDIGIT: if (!dig) r = 0; break;
                case OP_STR_ISALNUM: if (!up && !low && !dig) r = 0; break;
                case OP_STR_ISSPACE: if (!kiln_ws(c)) r = 0; break;
                case OP_STR_ISUPPER: if (low) r = 0; cased |= up; break;
                default: if (up) r = 0; cased |= low; break;
                }
            }
            if (op == OP_STR_ISUPPER || op == OP_STR_ISLOWER) r = r && cased;
            sp[-1] = r;
            NEXT;
        }
        CASE(OP_STR_STRIP):
        CASE(OP_STR_LSTRIP):
        CASE(OP_STR_RSTRIP): {
            int op = OPCODE;
            int64_t n, a = 0, b, addr;
            const int64_t *cp;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_ascii(cp, n));
            b = n;
            if (op != OP_STR_RSTRIP) while (a < b && kiln_ws(cp[a])) a++;
            if (op != OP_STR_LSTRIP) while (b > a && kiln_ws(cp[b - 1])) b--;
            CHECK(kiln_substr(&vm, cp + a, b - a, &addr));
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_STR_FIND):
        CASE(OP_STR_COUNT):
        CASE(OP_STR_STARTSWITH):
        CASE(OP_STR_ENDSWITH): {
            int op = OPCODE;
            int64_t n, m, k, r = 0;
            const int64_t *cs, *cp;
            NEED(2);
            if (kiln_str(&vm, sp[-2], &n, &cs) || kiln_str(&vm, sp[-1], &m, &cp)) TRAP(TRAP_MemoryFault);
            switch (op) {
            case OP_STR_FIND: r = kiln_find(cs, n, cp, m, 0); break;
            case OP_STR_COUNT:
                if (m == 0) r = n + 1;
                else for (k = kiln_find(cs, n, cp, m, 0); k >= 0; k = kiln_find(cs, n, cp, m, k + m)) r++;
                break;
            case OP_STR_STARTSWITH: r = m <= n && kiln_find(cs, m, cp, m, 0) == 0; break;
            default: r = m <= n && kiln_find(cs + (n - m), m, cp, m, 0) == 0; break;
            }
            sp[-2] = r;
            sp--;
            NEXT;
        }
        CASE(OP_STR_REPLACE): {
            int64_t n, m, q, k, cnt = 0, last = 0, o = 0, addr, *d;
            const int64_t *cs, *co, *cn;
            NEED(3);
            if (kiln_str(&vm, sp[-3], &n, &cs) || kiln_str(&vm, sp[-2], &m, &co) || kiln_str(&vm, sp[-1], &q, &cn))
                TRAP(TRAP_MemoryFault);
            if (m == 0) cnt = n + 1;
            else for (k = kiln_find(cs, n, co, m, 0); k >= 0; k = kiln_find(cs, n, co, m, k + m)) cnt++;
            CHECK(kiln_new_str(&vm, kiln_sz_add(n - (m ? cnt * m : 0), kiln_sz_mul(cnt, q)), &addr, &d));
            if (m == 0) {
                for (k = 0; k < n; k++) {
                    kiln_copy(d + o, cn, q);
                    o += q;
                    d[o++] = cs[k];
                }
                kiln_copy(d + o, cn, q);
            } else {
                for (k = kiln_find(cs, n, co, m, 0); k >= 0; k = kiln_find(cs, n, co, m, k + m)) {
                    kiln_copy(d + o, cs + last, k - last);
                    o += k - last;
                    kiln_copy(d + o, cn, q);
                    o += q;
                    last = k + m;
                }
                kiln_copy(d + o, cs + last, n - last);
            }
            sp -= 2;
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_STR_SPLIT): {
            int64_t n, m, k, cnt = 1, last = 0, j = 0, addr, *d;
            const int64_t *cs, *cp;
            NEED(2);
            if (kiln_str(&vm, sp[-2], &n, &cs) || kiln_str(&vm, sp[-1], &m, &cp)) TRAP(TRAP_MemoryFault);
            if (m == 0) TRAP(TRAP_ValueError);
            for (k = kiln_find(cs, n, cp, m, 0); k >= 0; k = kiln_find(cs, n, cp, m, k + m)) cnt++;
            CHECK(kiln_new_list(&vm, cnt, &addr, &d));
            for (j = 0; j < cnt; j++) d[j] = 0;
            j = 0;
            for (k = kiln_find(cs, n, cp, m, 0);; k = kiln_find(cs, n, cp, m, k + m)) {
                int64_t end = k >= 0 ? k : n;
                if (j >= cnt) TRAP(TRAP_MemoryFault);
                CHECK(kiln_substr(&vm, cs + last, end - last, &d[j++]));
                if (k < 0) break;
                last = k + m;
            }
            sp[-2] = addr;
            sp--;
            NEXT;
        }
        CASE(OP_STR_SPLIT_WS): {
            int64_t n, k, start, cnt = 0, j, addr, *d;
            const int64_t *cs;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cs)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_ascii(cs, n));
            for (k = 0; k < n;) {
                while (k < n && kiln_ws(cs[k])) k++;
                if (k == n) break;
                cnt++;
                while (k < n && !kiln_ws(cs[k])) k++;
            }
            CHECK(kiln_new_list(&vm, cnt, &addr, &d));
            for (j = 0; j < cnt; j++) d[j] = 0;
            for (k = 0, j = 0; k < n && j < cnt;) {
                while (k < n && kiln_ws(cs[k])) k++;
                if (k == n) break;
                start = k;
                while (k < n && !kiln_ws(cs[k])) k++;
                CHECK(kiln_substr(&vm, cs + start, k - start, &d[j++]));
            }
            sp[-1] = addr;
            NEXT;
        }
        CASE(OP_STR_JOIN): {
            int64_t m, n, len, total = 0, o = 0, addr, *h, *items, *d;
            const int64_t *sep, *cp;
            NEED(2);
            if (kiln_str(&vm, sp[-2], &m, &sep) || kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            for (i = 0; i < n; i++) {
                if (kiln_str(&vm, items[i], &len, &cp)) TRAP(TRAP_MemoryFault);
                total = kiln_sz_add(total, len);
            }
            if (n > 1) total = kiln_sz_add(total, kiln_sz_mul(n - 1, m));
            CHECK(kiln_new_str(&vm, total, &addr, &d));
            for (i = 0; i < n; i++) {
                if (i > 0) {
                    kiln_copy(d + o, sep, m);
                    o += m;
                }
                if (kiln_str(&vm, items[i], &len, &cp)) TRAP(TRAP_MemoryFault);
                kiln_copy(d + o, cp, len);
                o += len;
            }
            sp[-2] = addr;
            sp--;
            NEXT;
        }

        CASE(OP_STR_BIN): {
            int64_t a, addr, *d, nd = 1, k, o = 0;
            uint64_t m;
            NEED(1);
            a = sp[-1];
            m = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
            while (nd < 64 && (m >> nd) != 0) nd++;
            CHECK(kiln_new_str(&vm, (a < 0) + 2 + nd, &addr, &d));
            if (a < 0) d[o++] = '-';
            d[o++] = '0';
            d[o++] = 'b';
            for (k = nd - 1; k >= 0; k--) d[o++] = (int64_t)((m >> k) & 1) + '0';
            sp[-1] = addr;
            NEXT;
        }

        CASE(OP_STR_ZFILL): { /* s width -- s.zfill(width): CPython's, on any str */
            int64_t n, w, fill, k, addr, *d;
            const int64_t *cs;
            NEED(2);
            if (kiln_str(&vm, sp[-2], &n, &cs)) TRAP(TRAP_MemoryFault);
            w = sp[-1];
            fill = w > n ? w - n : 0;
            CHECK(kiln_new_str(&vm, n + fill, &addr, &d));
            for (k = 0; k < fill; k++) d[k] = '0';
            kiln_copy(d + fill, cs, n);
            if (fill > 0 && n > 0 && (cs[0] == '+' || cs[0] == '-')) { d[0] = cs[0]; d[fill] = '0'; }
            sp--;
            sp[-1] = addr;
            NEXT;
        }

        /* -- math */
        CASE(OP_SQRT_F): { double r = 0.0; NEED(1); CHECK(kiln_sqrt_f(kiln_f(sp[-1]), &r)); sp[-1] = kiln_w(r); NEXT; }
        CASE(OP_FLOOR_F): NEED(1); sp[-1] = kiln_w(kiln_floor_f(kiln_f(sp[-1]))); NEXT;
        CASE(OP_CEIL_F): NEED(1); sp[-1] = kiln_w(kiln_ceil_f(kiln_f(sp[-1]))); NEXT;
        CASE(OP_ROUND_F): NEED(1); sp[-1] = kiln_w(kiln_round_f(kiln_f(sp[-1]))); NEXT;

        /* -- tuple */
        CASE(OP_IS_NONE): { /* an Optional: -1 (None) or a 1-item tuple */
            int64_t n;
            const int64_t *items;
            NEED(1);
            if (sp[-1] != -1 && (kiln_tup(&vm, sp[-1], &n, &items) || n != 1)) TRAP(TRAP_MemoryFault);
            sp[-1] = sp[-1] == -1;
            NEXT;
        }
        CASE(OP_ROUND_F_N): {
            double r;
            NEED(2);
            CHECK(kiln_round_n(kiln_f(sp[-2]), sp[-1], &r));
            sp[-2] = kiln_w(r);
            sp--;
            NEXT;
        }
        CASE(OP_BOX): NEED(1); CHECK(kiln_box(&vm, IMM(arg), &sp[-1])); NEXT;
        CASE(OP_TAG): NEED(1); CHECK(kiln_box_read(&vm, -1, &sp[-1])); NEXT;
        CASE(OP_UNBOX): NEED(1); CHECK(kiln_box_read(&vm, IMM(arg), &sp[-1])); NEXT;
        CASE(OP_SET_ORDER): {
            int64_t n, addr, tsize, *h, *items, *d, *nh;
            NEED(1);
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            tsize = kiln_set_table_size(n);
            if (kiln_sz_add(kiln_sz_add(3, n), kiln_sz_mul(2, tsize)) > vm.heap_words - vm.used)
                TRAP(TRAP_HeapExhausted);
            CHECK(kiln_new_list(&vm, n, &addr, &d));
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            nh = kiln_rw(&vm, addr, 3);
            if (!nh) TRAP(TRAP_MemoryFault);
            nh[0] = kiln_set_order(items, n, d, vm.heap + vm.used, vm.heap + vm.used + tsize);
            sp[-1] = addr; /* the capacity stays n */
            NEXT;
        }
        CASE(OP_FLOAT_OF_STR): {
            int64_t n;
            const int64_t *cp;
            double r = 0.0;
            NEED(1);
            if (kiln_str(&vm, sp[-1], &n, &cp)) TRAP(TRAP_MemoryFault);
            CHECK(kiln_float_of_str(cp, n, &r));
            sp[-1] = kiln_w(r);
            NEXT;
        }
        CASE(OP_OPT_VALUE): {
            int64_t n;
            const int64_t *items;
            NEED(1);
            if (sp[-1] == -1) TRAP(TRAP_TypeError);
            if (kiln_tup(&vm, sp[-1], &n, &items) || n != 1) TRAP(TRAP_MemoryFault);
            sp[-1] = items[0];
            NEXT;
        }
        CASE(OP_TUPLE_GET): {
            int64_t n;
            const int64_t *items;
            NEED(1);
            if (kiln_tup(&vm, sp[-1], &n, &items) || arg >= n) TRAP(TRAP_MemoryFault);
            sp[-1] = items[arg];
            NEXT;
        }
        CASE(OP_UNPACK_TUPLE):
        CASE(OP_UNPACK_LIST): {
            int64_t n, *h, *items;
            const int64_t *ci;
            NEED(1);
            if (OPCODE == OP_UNPACK_TUPLE) {
                if (kiln_tup(&vm, sp[-1], &n, &ci) || n != arg) TRAP(TRAP_MemoryFault);
            } else {
                if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
                if (n != arg) TRAP(TRAP_ValueError);
                ci = items;
            }
            sp--;
            ROOM(n);
            kiln_copy(sp, ci, n);
            sp += n;
            NEXT;
        }
        default:
#ifdef KILN_FUSE
            /* the first instruction of a run comes through the switch: a fused one (a verified
               program's code, kiln_program_fuse) goes on to its handler */
            if (fast && (word & 0xff) >= KILN_X_FIRST) goto *kiln_fast[word & 0xff];
#endif
            KILN_LABEL(L_default) TRAP(TRAP_MemoryFault);
#ifdef KILN_FAST_HANDLERS
        /* -- the fast handlers: reached only through kiln_fast, for a program that
           kiln_program_verify passed; the hot handlers of interp_hot.h again, less the checks
           that verification made (VERIFIED), with verified jump targets (HOT_GOTO). (vm/cuda.py
           inlines each header once, at its first include: CUDA has no fast handlers.) */
#define HOT(op) F_##op
#define HOT_NEXT FNEXT
#define VERIFIED(...)
#define FAST_ONLY(...) __VA_ARGS__
#define HOT_GOTO(target) (ip = code + (target))
#undef LOOP_TAKE
#define LOOP_TAKE(value) do { loc[arg & 0xfff] = (value); ip = code + (*ip >> 8); } while (0)
#include "interp_hot.h"
        /* a positive divisor (the common case) inline: kiln_floordiv_i's and kiln_mod_i's results */
        F_OP_FLOORDIV_I: {
            int64_t a = sp[-2], b = sp[-1];
            if (b > 0) {
                int64_t q = a / b;
                sp[-2] = a % b != 0 && a < 0 ? q - 1 : q;
                sp--;
            } else {
                int64_t r = 0;
                CHECK(kiln_floordiv_i(a, b, &r));
                sp[-2] = r;
                sp--;
            }
            FNEXT;
        }
        F_OP_MOD_I: {
            int64_t a = sp[-2], b = sp[-1];
            if (b > 0) {
                int64_t m = a % b;
                sp[-2] = m < 0 ? m + b : m;
                sp--;
            } else {
                int64_t r = 0;
                CHECK(kiln_mod_i(a, b, &r));
                sp[-2] = r;
                sp--;
            }
            FNEXT;
        }
#ifdef KILN_FUSE
        /* -- the fused runs of kiln_program_fuse: one dispatch for k instructions, each step
           taken (left--) before that instruction's own checks; with less than k - 1 steps of
           fuel left after the first, the first instruction's fast handler alone */
#define FUSED(k, first) do { if (left < (k) - 1) goto first; } while (0)
#define WORD_ARG(j) ((int64_t)(ip[j] >> 8)) /* the argument of the run's word j + 1 */
        X_LOAD_ADDI_STORE_JUMP: {
            int64_t r;
            FUSED(4, F_OP_LOAD);
            left--;
            if (kiln_add_ovf(loc[arg], IMM(WORD_ARG(0)), &r)) TRAP(TRAP_Overflow);
            left -= 2;
            loc[WORD_ARG(1)] = r;
            ip = code + WORD_ARG(2);
            FNEXT;
        }
        X_LOAD_ADDI_STORE: {
            int64_t r;
            FUSED(3, F_OP_LOAD);
            left--;
            if (kiln_add_ovf(loc[arg], IMM(WORD_ARG(0)), &r)) TRAP(TRAP_Overflow);
            left--;
            loc[WORD_ARG(1)] = r;
            ip += 2;
            FNEXT;
        }
        X_LOAD_ADDI: {
            int64_t r;
            FUSED(2, F_OP_LOAD);
            left--;
            if (kiln_add_ovf(loc[arg], IMM(WORD_ARG(0)), &r)) TRAP(TRAP_Overflow);
            *sp++ = r;
            ip++;
            FNEXT;
        }
        X_LOAD_ADDI_CALL: { /* the argument pushed, then CALL's own fast handler as the next step */
            int64_t r;
            FUSED(3, F_OP_LOAD);
            left--;
            if (kiln_add_ovf(loc[arg], IMM(WORD_ARG(0)), &r)) TRAP(TRAP_Overflow);
            *sp++ = r;
            left--;
            arg = WORD_ARG(1);
            ip += 2;
            if ((ip[-1] & 0xff) == KILN_X_CALL_SELF) goto X_CALL_SELF;
            goto F_OP_CALL;
        }
        X_LOAD_MODK: { /* 0 < k < 2**23: F_OP_MOD_I's positive divisor */
            int64_t m, k = WORD_ARG(0);
            FUSED(3, F_OP_LOAD);
            left -= 2;
            m = loc[arg] % k;
            *sp++ = m < 0 ? m + k : m;
            ip += 2;
            FNEXT;
        }
#define X_LOAD_MODK_JUMP(name, cond) \
        name: { /* LOAD x; LOADI k; MOD_I; LOADI c; JUMP_cc_I (0 < k < 2**23): none of them traps */ \
            int64_t m, k = WORD_ARG(0), a, b = IMM(WORD_ARG(2)); \
            FUSED(5, F_OP_LOAD); \
            left -= 4; \
            m = loc[arg] % k; \
            a = m < 0 ? m + k : m; \
            if (cond) ip = code + WORD_ARG(3); \
            else ip += 4; \
            FNEXT; \
        }
        X_LOAD_MODK_JUMP(X_LOAD_MODK_JNE, a != b)
        X_LOAD_MODK_JUMP(X_LOAD_MODK_JEQ, a == b)
#undef X_LOAD_MODK_JUMP
/* a fused compare-and-jump handler M(name, cond) for each of the six int comparisons, named
   P_JLT .. P_JNE as in KILN_FUSED_RUNS (cond compares a with b) */
#define KILN_INT_JUMPS(M, P) \
        M(P##_JLT, a < b) M(P##_JLE, a <= b) M(P##_JGT, a > b) \
        M(P##_JGE, a >= b) M(P##_JEQ, a == b) M(P##_JNE, a != b)
#define X_LOAD_LOADI_JUMP(name, cond) \
        name: { \
            int64_t a = loc[arg], b = IMM(WORD_ARG(0)); \
            FUSED(3, F_OP_LOAD); \
            left -= 2; \
            if (cond) ip = code + WORD_ARG(1); \
            else ip += 2; \
            FNEXT; \
        }
        KILN_INT_JUMPS(X_LOAD_LOADI_JUMP, X_LOAD_LOADI)
#undef X_LOAD_LOADI_JUMP
#define X_LOAD_INT2(name, ovf) \
        name: { \
            int64_t r; \
            FUSED(2, F_OP_LOAD); \
            left--; \
            if (ovf(sp[-1], loc[arg], &r)) TRAP(TRAP_Overflow); \
            sp[-1] = r; \
            ip++; \
            FNEXT; \
        }
        X_LOAD_INT2(X_LOAD_MUL, kiln_mul_ovf)
        X_LOAD_INT2(X_LOAD_ADD, kiln_add_ovf)
        X_LOAD_INT2(X_LOAD_SUB, kiln_sub_ovf)
#undef X_LOAD_INT2
        X_LOAD_RET: /* the value pushed, then RET's own fast handler as the next step */
            FUSED(2, F_OP_LOAD);
            left--;
            *sp++ = loc[arg];
            ip++;
            goto F_OP_RET;
        X_LOAD_INDEX: {
            int64_t n, k, *h, *items;
            FUSED(2, F_OP_LOAD);
            left--;
            if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = kiln_index(loc[arg], n);
            if (k < 0) TRAP(TRAP_IndexError);
            sp[-1] = items[k];
            ip++;
            FNEXT;
        }
        X_APPEND_ITEM: { /* LOAD2 ys,xs; LOAD i; LIST_INDEX; LIST_APPEND */
            int64_t n, k, v, *h, *items;
            FUSED(4, F_OP_LOAD2);
            left -= 2;
            if (kiln_list(&vm, loc[arg >> 12], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = kiln_index(loc[WORD_ARG(0)], n);
            if (k < 0) TRAP(TRAP_IndexError);
            v = items[k];
            left--;
            if (kiln_list(&vm, loc[arg & 0xfff], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            if (n + 1 > h[1]) CHECK(kiln_list_grow(&vm, h, n + 1, &items));
            items[n] = v;
            h[0] = n + 1;
            ip += 3;
            FNEXT;
        }
        X_LOAD2_LOAD_MUL: { /* LOAD2 a,b; LOAD c; MUL_I: a pushed, then b * c */
            int64_t r;
            FUSED(3, F_OP_LOAD2);
            left -= 2;
            if (kiln_mul_ovf(loc[arg >> 12], loc[WORD_ARG(0)], &r)) TRAP(TRAP_Overflow);
            *sp++ = loc[arg & 0xfff];
            __asm__("" : "+r"(sp)); /* two stores, not one 16-byte store of a vector made from r
                                       (GCC's SLP): the next handler's 8-byte load of r then
                                       waits on no store forwarding (nested_loops 30% slower) */
            *sp++ = r;
            ip += 2;
            FNEXT;
        }
        X_LOAD2_LEN_JGE: {
            int64_t n, *h, *items;
            FUSED(3, F_OP_LOAD2);
            left--;
            if (kiln_list(&vm, loc[arg >> 12], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            left--;
            if (loc[arg & 0xfff] >= n) ip = code + WORD_ARG(1);
            else ip += 2;
            FNEXT;
        }
        X_LOAD2_LOADI_STORE: { /* LOAD2 xs,i; LOADI k; LIST_STORE */
            int64_t n, k, *h, *items;
            FUSED(3, F_OP_LOAD2);
            left -= 2;
            if (kiln_list(&vm, loc[arg & 0xfff], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = kiln_index(loc[arg >> 12], n);
            if (k < 0) TRAP(TRAP_IndexError);
            items[k] = IMM(WORD_ARG(0));
            ip += 2;
            FNEXT;
        }
#define X_LOAD2_INDEX_JUMP(name, cond) \
        name: { \
            int64_t n, k, *h, *items, a, b; \
            FUSED(3, F_OP_LOAD2); \
            left--; \
            if (kiln_list(&vm, loc[arg & 0xfff], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault); \
            k = kiln_index(loc[arg >> 12], n); \
            if (k < 0) TRAP(TRAP_IndexError); \
            left--; \
            a = sp[-1]; \
            b = items[k]; \
            sp--; \
            if (cond) ip = code + WORD_ARG(1); \
            else ip += 2; \
            FNEXT; \
        }
/* LOAD2 xs,i; LIST_INDEX; LOAD2 ys,j; LIST_INDEX; JUMP_cc_I: the two items compared */
#define X_INDEX2_JUMP(name, cond) \
        name: { \
            int64_t n, k, *h, *items, a, b, w = WORD_ARG(1); \
            FUSED(5, F_OP_LOAD2); \
            left--; \
            if (kiln_list(&vm, loc[arg & 0xfff], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault); \
            k = kiln_index(loc[arg >> 12], n); \
            if (k < 0) TRAP(TRAP_IndexError); \
            a = items[k]; \
            left -= 2; \
            if (kiln_list(&vm, loc[w & 0xfff], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault); \
            k = kiln_index(loc[w >> 12], n); \
            if (k < 0) TRAP(TRAP_IndexError); \
            b = items[k]; \
            left--; \
            if (cond) ip = code + WORD_ARG(3); \
            else ip += 4; \
            FNEXT; \
        }
        KILN_INT_JUMPS(X_INDEX2_JUMP, X_INDEX2)
#undef X_INDEX2_JUMP
        X_LOAD2_INDEX_JF: { /* LOAD2 xs,i; LIST_INDEX; JUMP_IF_FALSE */
            int64_t n, k, *h, *items;
            FUSED(3, F_OP_LOAD2);
            left--;
            if (kiln_list(&vm, loc[arg & 0xfff], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = kiln_index(loc[arg >> 12], n);
            if (k < 0) TRAP(TRAP_IndexError);
            left--;
            if (!items[k]) ip = code + WORD_ARG(1);
            else ip += 2;
            FNEXT;
        }
        X_LOAD2_INDEX_JUMP(X_LOAD2_INDEX_JLT, a < b)
        X_LOAD2_INDEX_JUMP(X_LOAD2_INDEX_JLE, a <= b)
        X_LOAD2_INDEX_JUMP(X_LOAD2_INDEX_JGT, a > b)
        X_LOAD2_INDEX_JUMP(X_LOAD2_INDEX_JGE, a >= b)
#undef X_LOAD2_INDEX_JUMP
        X_LOAD2_INDEX: {
            int64_t n, k, *h, *items;
            FUSED(2, F_OP_LOAD2);
            left--;
            if (kiln_list(&vm, loc[arg & 0xfff], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            k = kiln_index(loc[arg >> 12], n);
            if (k < 0) TRAP(TRAP_IndexError);
            *sp++ = items[k];
            ip++;
            FNEXT;
        }
        X_LOAD2_APPEND: {
            int64_t n, *h, *items;
            FUSED(2, F_OP_LOAD2);
            left--;
            if (kiln_list(&vm, loc[arg & 0xfff], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            if (n + 1 > h[1]) CHECK(kiln_list_grow(&vm, h, n + 1, &items));
            items[n] = loc[arg >> 12];
            h[0] = n + 1;
            ip++;
            FNEXT;
        }
#define X_LOAD2_INT2(name, expr) \
        name: { \
            int64_t a = loc[arg & 0xfff], b = loc[arg >> 12], r; \
            FUSED(2, F_OP_LOAD2); \
            left--; \
            expr; \
            *sp++ = r; \
            ip++; \
            FNEXT; \
        }
        X_LOAD2_INT2(X_LOAD2_ADD, if (kiln_add_ovf(a, b, &r)) TRAP(TRAP_Overflow))
        X_LOAD2_INT2(X_LOAD2_SUB, if (kiln_sub_ovf(a, b, &r)) TRAP(TRAP_Overflow))
        X_LOAD2_INT2(X_LOAD2_MUL, if (kiln_mul_ovf(a, b, &r)) TRAP(TRAP_Overflow))
        X_LOAD2_INT2(X_LOAD2_AND, r = a & b)
        X_LOAD2_INT2(X_LOAD2_OR, r = a | b)
        X_LOAD2_INT2(X_LOAD2_XOR, r = a ^ b)
#undef X_LOAD2_INT2
        X_LOADI_MOD_APPEND: { /* LOADI k; MOD_I; LIST_APPEND (0 < k < 2**23): xs.append(x % k) */
            int64_t m, n, *h, *items;
            FUSED(3, F_OP_LOADI);
            left -= 2;
            m = sp[-1] % arg;
            if (m < 0) m += arg;
            if (kiln_list(&vm, sp[-2], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
            if (n + 1 > h[1]) CHECK(kiln_list_grow(&vm, h, n + 1, &items));
            items[n] = m;
            h[0] = n + 1;
            sp -= 2;
            ip += 2;
            FNEXT;
        }
        X_LOADI_MOD: { /* 0 < k < 2**23: F_OP_MOD_I's positive divisor */
            int64_t m;
            FUSED(2, F_OP_LOADI);
            left--;
            m = sp[-1] % arg;
            sp[-1] = m < 0 ? m + arg : m;
            ip++;
            FNEXT;
        }
#define X_LOADI_JUMP(name, cond) \
        name: { \
            int64_t a, b = IMM(arg); \
            FUSED(2, F_OP_LOADI); \
            left--; \
            a = *--sp; \
            if (cond) ip = code + WORD_ARG(0); \
            else ip++; \
            FNEXT; \
        }
        KILN_INT_JUMPS(X_LOADI_JUMP, X_LOADI)
#undef X_LOADI_JUMP
#undef KILN_INT_JUMPS
        X_LOAD_STR_IN_JF: /* the str pushed; then as X_STR_IN_JF, at the STR */
            FUSED(4, F_OP_LOAD);
            *sp++ = loc[arg];
            left--;
            arg = WORD_ARG(0);
            ip++;
            goto X_STR_IN_JF_RUN;
        X_STR_IN_JF: /* OP_CONTAINS of a str in the image's string at arg (verified: STR) */
            FUSED(3, F_OP_STR);
        X_STR_IN_JF_RUN: {
            int64_t m, n = prog->image[arg], found;
            const int64_t *cx, *ci = prog->image + arg + 1;
            left--;
            if (kiln_str(&vm, sp[-1], &m, &cx)) TRAP(TRAP_MemoryFault);
            if (m == 1) {
                in_c = cx[0];
                sp--;
                goto X_CHAR_IN_JF;
            } else {
                int64_t j;
                found = 0;
                for (i = 0; !found && i + m <= n; i++) {
                    for (j = 0; j < m && ci[i + j] == cx[j]; j++) {}
                    found = j == m;
                }
            }
            left--;
            sp--;
            if (!found) ip = code + WORD_ARG(1);
            else ip += 2;
            FNEXT;
        }
/* the character set of the image's string at `at` for X_CHAR_IN_JF's test, once per string */
#define KILN_IN_SET(at) do { \
            if ((at) != in_at) { \
                const int64_t *ci_ = prog->image + (at) + 1; \
                int64_t n_ = prog->image[at]; \
                in_at = (at); \
                in_set[0] = in_set[1] = 0; \
                for (i = 0; i < n_ && ci_[i] >= 0 && ci_[i] < 128; i++) in_set[ci_[i] >> 6] |= (uint64_t)1 << (ci_[i] & 63); \
                in_ascii = i == n_; \
            } } while (0)
/* found: whether character c is in the image's string at `at` (KILN_IN_SET made for it) */
#define KILN_IN(at, c, found) do { \
            if (in_ascii) { \
                found = (c) >= 0 && (c) < 128 && (in_set[(c) >> 6] >> ((c) & 63) & 1); \
            } else { \
                const int64_t *ci_ = prog->image + (at) + 1; \
                int64_t n_ = prog->image[at]; \
                for (i = 0; i < n_ && ci_[i] != (c); i++) {} \
                found = i < n_; \
            } } while (0)
        X_CHAR_IN_JF: { /* the character in_c in the image's string at arg, CONTAINS's step taken
                           and the operand popped; ip at the CONTAINS, then the JUMP_IF_FALSE */
            int64_t found, c = in_c;
            KILN_IN_SET(arg);
            KILN_IN(arg, c, found);
            left--;
            if (!found) ip = code + WORD_ARG(1);
            else ip += 2;
            FNEXT;
        }
        X_FOR_STR_IN: { /* FOR_STR, its JUMP back to an X_LOAD_STR_IN_JF of the loop's own local
                           (kiln_fuse_for_str_in): the step as F_OP_FOR_STR's, then, with fuel for
                           the run's 4 steps, the run with the character read from the string
                           just made (as CONTAINS reads it; another length goes the long way).
                           Where the JUMP_IF_FALSE goes back to this FOR_STR and the loop's local
                           is not its state, the next step (fuel for it left) loops here: nothing
                           else runs in between, so the string checked once stays as it was */
            int64_t *st, n, addr, t, j, c, pc, sarg, jf, found;
            const int64_t *cp, *s;
            int again, body;
            st = loc + (arg >> 12);
            if (kiln_str(&vm, st[0], &n, &cp)) TRAP(TRAP_MemoryFault);
            pc = (ip - 1) - code;         /* the FOR_STR */
            t = (int64_t)(*ip >> 8);      /* its JUMP's target: the run's LOAD */
            sarg = (int64_t)(code[t + 1] >> 8);
            jf = (int64_t)(code[t + 3] >> 8);
            KILN_IN_SET(sarg);
            again = jf == pc && in_ascii && (uint64_t)((arg & 0xfff) - (arg >> 12)) >= 2;
            /* and where the JUMP_IF_FALSE falls through to an X_LOAD_ADDI_STORE (x += k) that
               falls through to this FOR_STR, that local not the loop's state: that too */
            body = again && (code[t + 4] & 0xff) == KILN_X_LOAD_ADDI_STORE && t + 7 == pc &&
                   (uint64_t)((int64_t)(code[t + 6] >> 8) - (arg >> 12)) >= 2;
            for (;;) {
                j = st[1];
                if (j < 0 || j >= n) {
                    ip = code + pc + 2;
                    FNEXT;
                }
                CHECK(kiln_char(&vm, cp[j], &addr));
                st[1] = j + 1;
                loc[arg & 0xfff] = addr;
                ip = code + t;
                if (left < 4) FNEXT; /* the run one step at a time, as the code */
                left -= 2; /* LOAD, STR */
                ip += 2;   /* at the CONTAINS */
                s = vm.heap + (addr - vm.image_len); /* a string kiln_char made: on the heap */
                if (s[0] != 1) { /* never, unless the program wrote over it: CONTAINS as it is */
                    *sp++ = addr;
                    arg = sarg;
                    goto X_STR_IN_JF_RUN;
                }
                left -= 2; /* CONTAINS, JUMP_IF_FALSE */
                c = s[1];
                if (again) /* (in_ascii) */
                    found = (uint64_t)c < 128 && (in_set[c >> 6] >> (c & 63) & 1);
                else
                    KILN_IN(sarg, c, found);
                if (found) {
                    int64_t r;
                    ip += 2; /* at the run x += k */
                    if (!body || left < 4) FNEXT;
                    left -= 2; /* LOAD, ADDI (the run's fuel as X_LOAD_ADDI_STORE spends it) */
                    if (kiln_add_ovf(loc[ip[0] >> 8], IMM((int64_t)(ip[1] >> 8)), &r)) TRAP(TRAP_Overflow);
                    left -= 2; /* STORE; this FOR_STR's step, as FNEXT takes it */
                    loc[ip[2] >> 8] = r;
                    ip = code + pc + 1;
                    continue;
                }
                ip = code + jf;
                if (!again || left < 1) FNEXT;
                left--; /* this FOR_STR's step, as FNEXT takes it */
            }
        }
        X_FOR_RANGE_STORE: { /* FOR_RANGE whose JUMP goes back to an X_LOAD2_LOADI_STORE (LOAD2
                                xs,j; LOADI k; LIST_STORE) that falls through to it
                                (kiln_fuse_for_range): the loop runs here, the step as
                                F_OP_FOR_RANGE's, then, with fuel for its 3 steps, the store.
                                The list is checked again where its local changes, and after
                                every store where its items could overlap its header: else
                                nothing in the loop writes what the check read */
            int64_t *st, cur, next, t, lb, v, pc, la = 0, n = 0, k, *h, *items = 0;
            int have = 0;
            st = loc + (arg >> 12);
            pc = (ip - 1) - code;
            t = (int64_t)(*ip >> 8);
            lb = (int64_t)(code[t] >> 8);
            v = IMM((int64_t)(code[t + 1] >> 8));
            for (;;) {
                FUSED_RANGE_TURN();
                left -= 3; /* LOAD2, LOADI, LIST_STORE */
                if (!have || loc[lb & 0xfff] != la) {
                    la = loc[lb & 0xfff];
                    if (kiln_list(&vm, la, 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
                    have = !(items < h + 3 && h < items + h[1]);
                }
                k = kiln_index(loc[lb >> 12], n);
                if (k < 0) TRAP(TRAP_IndexError);
                items[k] = v;
                FUSED_RANGE_BACK();
            }
        }
        X_FOR_RANGE_INDEX_JF: { /* FOR_RANGE whose JUMP goes back to an X_LOAD2_INDEX_JF (LOAD2
                                   xs,i; LIST_INDEX; JUMP_IF_FALSE) that goes back to it when
                                   false (kiln_fuse_for_range): as X_FOR_RANGE_STORE, the loop
                                   here while the item is false; nothing in it writes the heap */
            int64_t *st, cur, next, t, lb, pc, la = 0, n = 0, k, *h, *items = 0;
            int have = 0;
            st = loc + (arg >> 12);
            pc = (ip - 1) - code;
            t = (int64_t)(*ip >> 8);
            lb = (int64_t)(code[t] >> 8);
            for (;;) {
                FUSED_RANGE_TURN();
                left -= 2; /* LOAD2, LIST_INDEX */
                if (!have || loc[lb & 0xfff] != la) {
                    la = loc[lb & 0xfff];
                    if (kiln_list(&vm, la, 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
                    have = 1;
                }
                k = kiln_index(loc[lb >> 12], n);
                if (k < 0) TRAP(TRAP_IndexError);
                left--; /* JUMP_IF_FALSE */
                if (items[k]) {
                    ip = code + t + 3;
                    FNEXT;
                }
                FUSED_RANGE_BACK();
            }
        }
#undef KILN_IN_SET
#undef KILN_IN
        X_CALL_SELF: { /* CALL of the running function (kiln_program_fuse), arg its parameter count:
                          F_OP_CALL's shortcut without reading the callee's record; the same
                          checks in the same order */
            int64_t span = hi - loc, base = (sp - arg) - stack;
            if (depth >= lim->max_call_depth) TRAP(TRAP_RecursionError);
            ENTER_SELF(arg, frames[depth - 1].func, base, span);
            FNEXT;
        }
        X_ADD_STORE: {
            int64_t r;
            FUSED(2, F_OP_ADD_I);
            if (kiln_add_ovf(sp[-2], sp[-1], &r)) TRAP(TRAP_Overflow);
            left--;
            loc[WORD_ARG(0)] = r;
            sp -= 2;
            ip++;
            FNEXT;
        }
        X_ADD_RET: { /* the sum, then RET's own fast handler as the next step */
            int64_t r;
            FUSED(2, F_OP_ADD_I);
            if (kiln_add_ovf(sp[-2], sp[-1], &r)) TRAP(TRAP_Overflow);
            sp[-2] = r;
            sp--;
            left--;
            ip++;
            goto F_OP_RET;
        }
#undef FUSED
#undef WORD_ARG
#endif
#undef HOT
#undef HOT_NEXT
#undef VERIFIED
#undef FAST_ONLY
#undef HOT_GOTO
#endif
        }
    }

done:
    *steps_out = fuel - left;
    vm.chars = 0; /* the cache dies with this frame */
    *vm_out = vm;
    *result_out = result;
    return trap;
#undef TRAP
#undef NEED
#undef ROOM
#undef CHECK
#undef INT2_CHECKED
#undef FLT2
#undef FLTOP
#undef IMM
#undef OPCODE
#undef GOTO
#undef LOOP_STEP
#undef LOOP_TAKE
#undef CASE
#undef KILN_LABEL
#undef NEXT
#ifdef KILN_FAST_HANDLERS
#undef FNEXT
#undef KILN_FAST_HANDLERS
#endif
}

/* Run function `func` of a checked program on marshalled arguments `args`. Returns the trap code
   (TRAP_OK when it returned); *steps is the instructions started; on TRAP_OK the result is
   marshalled into out[0 .. *out_len) (at most out_cap and heap_words words, else HeapExhausted).
   fast: kiln_run's (1 only for a program that kiln_program_verify passed). */
KILN_COLD int kiln_exec(const kiln_program *prog, int32_t func, const int64_t *args, int64_t n_arg_words,
                      const kiln_limits *lim, const kiln_scratch *mem, int64_t *out, int64_t out_cap,
                      int64_t *out_len, int64_t *steps_out, int fast) {
    kiln_vm vm;
    int64_t result = 0, cap = out_cap < lim->heap_words ? out_cap : lim->heap_words;
    int trap = kiln_run(prog, func, args, n_arg_words, lim, mem, &vm, &result, steps_out, fast);
    *out_len = 0;
    if (trap) return trap;
    /* kiln_run returned a value, so func is a valid index */
    trap = kiln_marshal(&vm, prog->type_off[prog->funcs[(int64_t)func * KILN_FUNC_WORDS + KILN_F_RET]], result,
                        out, cap, out_len);
    if (trap) *out_len = 0;
    return trap;
}

/* ---- verification: a result compared with the expected words where it was computed ----------- */

/* Comparison modes of a test and outcomes of one item: vm/batch.py's EXACT, CLOSE, NEVER and the
   status codes that vm.batch.reduce_items reads. */
enum { KILN_MODE_EXACT = 0, KILN_MODE_CLOSE = 1, KILN_MODE_NEVER = 2 };
enum { KILN_EQUAL = 0, KILN_UNEQUAL = 1, KILN_TRAPPED = 2 };

/* Python's math.isclose(a, b, rel_tol=rel, abs_tol=abs_tol), operation for operation (CPython's
   math_isclose_impl; the caller has rejected negative tolerances, which Python raises on). NaN is
   close to nothing; an infinity only to itself. */
KILN_COLD int kiln_isclose(double a, double b, double rel, double abs_tol) {
    double diff;
    if (a == b) return 1;
    if (kiln_isinf(a) || kiln_isinf(b)) return 0;
    diff = fabs(b - a);
    return diff <= fabs(rel * b) || diff <= fabs(rel * a) || diff <= abs_tol;
}

/* CLOSE of a union result u against expected (tag, number): math.isclose when u holds a
   number too, else unequal. */
KILN_COLD int kiln_union_isclose(const kiln_vm *vm, int64_t u, const int64_t *expected, double rel, double abs_tol, int *eq) {
    int64_t tag, val;
    double a, b;
    *eq = 0;
    if (kiln_unbox(vm, u, &tag, &val)) return TRAP_MemoryFault;
    if (!kiln_is_number((int)tag)) return TRAP_OK;
    a = tag == TY_FLOAT ? kiln_f(val) : (double)val;
    b = expected[0] == TY_FLOAT ? kiln_f(expected[1]) : (double)expected[1];
    *eq = kiln_isclose(a, b, rel, abs_tol);
    return TRAP_OK;
}

/* One step of kiln_match: the value v of the type at pos against the marshalled words exp[*at..].
   Scalars and strings are decided here (*eq 0 or 1, the words consumed); a list or tuple whose
   length matches pushes a walk level and leaves *eq = KILN_PENDING. Expected words that end
   early, or a length word that differs, are simply unequal. */
KILN_COLD int kiln_match_enter(kiln_vm *vm, int64_t *top, int32_t pos, int64_t v, const int64_t *exp, int64_t n_exp,
                             int64_t *at, int *eq) {
    int code;
    int64_t n, i, w = 0;
    const int64_t *items;
    int64_t *h, *li;
    kiln_walk *lvl;
    code = kiln_tcode(vm, pos);
    *eq = 0;
    if (code != TY_TUPLE) { /* every kind but a tuple starts with one word: the value or a length */
        if (*at >= n_exp) return TRAP_OK;
        w = exp[(*at)++];
    }
    switch (code) {
    case TY_NONE: *eq = 1; return TRAP_OK;
    case TY_BOOL: *eq = (v != 0) == (w != 0); return TRAP_OK;
    case TY_INT: *eq = v == w; return TRAP_OK;
    case TY_FLOAT: *eq = kiln_f(v) == kiln_f(w); return TRAP_OK; /* IEEE: -0.0 == 0.0, NaN != NaN */
    case TY_STR:
        if (kiln_str(vm, v, &n, &items)) return TRAP_MemoryFault;
        if (w != n || n > n_exp - *at) return TRAP_OK;
        for (i = 0; i < n; i++)
            if (items[i] != exp[*at + i]) return TRAP_OK;
        *at += n;
        *eq = 1;
        return TRAP_OK;
    case TY_LIST:
        if (kiln_list(vm, v, 0, &h, &n, &li)) return TRAP_MemoryFault;
        if (w != n) return TRAP_OK;
        items = li;
        break;
    case TY_TUPLE:
        if (kiln_tup(vm, v, &n, &items) || n != vm->p->types[pos + 1]) return TRAP_MemoryFault;
        break;
    case TY_OPTIONAL: /* the expected tag (0 None, 1 a value) against -1 or a 1-item tuple */
        if (v == -1 || w != 1) { *eq = v == -1 && w == 0; return TRAP_OK; }
        if (kiln_tup(vm, v, &n, &items) || n != 1) return TRAP_MemoryFault;
        break;
    case TY_UNION: { /* the expected tag against the box's: the same, a walk level of its value */
        int32_t alt;
        if (kiln_tup(vm, v, &n, &items) || n != 2 || (alt = kiln_alt(vm, pos, items[0])) < 0) return TRAP_MemoryFault;
        if (w != items[0]) { /* numbers of two kinds: by value; else unequal */
            if (kiln_is_number((int)items[0]) && kiln_is_number((int)w) && kiln_alt(vm, pos, w) >= 0 && *at < n_exp)
                *eq = kiln_numbers_equal((int)items[0], items[1], (int)w, exp[(*at)++]);
            return TRAP_OK;
        }
        if (!(lvl = kiln_walk_level(vm, top, pos, 1))) return TRAP_MemoryFault;
        lvl->et = alt;
        lvl->tuple = 0;
        lvl->pa = items + 1;
        *eq = KILN_PENDING;
        return TRAP_OK;
    }
    default: return TRAP_MemoryFault;
    }
    *eq = 1;
    if (n == 0) return TRAP_OK;
    if (!(lvl = kiln_walk_level(vm, top, pos, n))) return TRAP_MemoryFault;
    lvl->pa = items;
    *eq = KILN_PENDING;
    return TRAP_OK;
}

/* Python's `value == unmarshal(exp)` for the value v of the type at pos (deep, typed, floats by
   IEEE ==, stopping at the first difference), walking the value and the words together without
   marshalling anything. Every word must be used: trailing words are unequal. */
KILN_COLD int kiln_match(kiln_vm *vm, int32_t pos, int64_t v, const int64_t *exp, int64_t n_exp, int *eq) {
    int64_t top = 0, at = 0;
    int t = kiln_match_enter(vm, &top, pos, v, exp, n_exp, &at, eq);
    while (!t && *eq != 0 && top > 0) {
        kiln_walk *w = &vm->walk[top - 1];
        int32_t et;
        if (w->i >= w->na) { top--; continue; }
        et = w->et;
        v = w->pa[w->i++];
        if (w->tuple) w->et = vm->p->type_skip[et];
        t = kiln_match_enter(vm, &top, et, v, exp, n_exp, &at, eq);
    }
    if (!t && *eq != 0) *eq = at == n_exp;
    return t;
}

/* Run ONE (candidate, test) item and compare its result with the expected words of the return
   type, as vm/batch.py's reference backend does: *status is KILN_EQUAL, KILN_UNEQUAL or
   KILN_TRAPPED (*trap says which trap), *steps the instructions started.
   A result whose marshalled form would take more than heap_words words is HeapExhausted (as in
   kiln_exec); it is measured, never written. Modes: EXACT is kiln_match; CLOSE is math.isclose on a
   float result (also on an int or bool result, converted to double as math.isclose does; other
   types compare EXACT); NEVER is unequal whatever the value. fast: kiln_run's. */
KILN_COLD void kiln_verify_item(const kiln_program *prog, int32_t func, const int64_t *args, int64_t n_arg_words,
                              const int64_t *expected, int64_t n_expected, int mode, double rel, double abs_tol,
                              const kiln_limits *lim, const kiln_scratch *mem, int *status, int *trap_out,
                              int64_t *steps, int fast) {
    kiln_vm vm;
    int64_t result = 0, size = 0;
    int eq = 0, trap = kiln_run(prog, func, args, n_arg_words, lim, mem, &vm, &result, steps, fast);
    if (!trap) {
        int32_t pos = prog->type_off[prog->funcs[(int64_t)func * KILN_FUNC_WORDS + KILN_F_RET]];
        int code = prog->types[pos];
        trap = kiln_marshal(&vm, pos, result, 0, lim->heap_words, &size);
        if (trap || mode == KILN_MODE_NEVER) {
            eq = 0;
        } else if (mode == KILN_MODE_CLOSE && code == TY_UNION && n_expected == 2 && kiln_is_number((int)expected[0])) {
            trap = kiln_union_isclose(&vm, result, expected, rel, abs_tol, &eq);
        } else if (mode == KILN_MODE_CLOSE && (code == TY_FLOAT || code == TY_INT || code == TY_BOOL)) {
            double a, b;
            if (n_expected != 1) {
                eq = 0;
            } else {
                a = code == TY_FLOAT ? kiln_f(result) : code == TY_BOOL ? (double)(result != 0) : (double)result;
                b = code == TY_FLOAT ? kiln_f(expected[0]) : code == TY_BOOL ? (double)(expected[0] != 0) : (double)expected[0];
                eq = kiln_isclose(a, b, rel, abs_tol);
            }
        } else {
            trap = kiln_match(&vm, pos, result, expected, n_expected, &eq);
        }
    }
    *trap_out = trap;
    *status = trap ? KILN_TRAPPED : eq ? KILN_EQUAL : KILN_UNEQUAL;
}

/* A verification batch as both batch drivers read it (vm/batch.py's VerifyBatch, laid out by
   vm.build.verify_inputs): candidate c runs function cand_function[c] of program cand_program[c]
   on its tests [cand_tests[2c], cand_tests[2c + 1]); test t has the argument words
   arg_words[arg_offsets[t] .. arg_offsets[t + 1]), the expected words likewise, a mode and a
   tolerance pair (rel, abs); item k is (candidate items[2k], test items[2k + 1]). */
typedef struct {
    const kiln_program *progs;
    const int32_t *prog_ok;  /* per program, checked once: 0 unsound tables (kiln_program_check), 1 sound,
                                2 sound and verified (kiln_program_verify: run with kiln_run's fast) */
    int64_t n_progs;
    const int32_t *cand_program, *cand_function, *cand_tests;
    int64_t n_cand;
    const int64_t *arg_words, *arg_offsets;
    int64_t n_arg_words;
    const int64_t *expected_words, *expected_offsets;
    int64_t n_expected_words;
    const int8_t *mode;
    const double *tolerance;
    int64_t n_tests;
    const int32_t *items;
    int64_t n_items;
    kiln_limits lim;
} kiln_vbatch;

/* words[offsets[t] .. offsets[t + 1]) when that range lies inside [0, n_words), else 0 */
KILN_COLD const int64_t *kiln_range(const int64_t *words, const int64_t *offsets, int64_t n_words, int64_t t,
                                  int64_t *n) {
    int64_t a = offsets[t], z = offsets[t + 1];
    if (a < 0 || z < a || z > n_words) return 0;
    *n = z - a;
    return words + a;
}

/* Item k of the batch, run and compared (kiln_verify_item). An item whose candidate, test,
   program or word ranges lie outside the batch, or whose program's tables are unsound, is the
   trap MemoryFault without running. */
KILN_COLD void kiln_verify_at(const kiln_vbatch *b, const kiln_scratch *mem, int64_t k, int *status, int *trap,
                            int64_t *steps) {
    int32_t c = b->items[2 * k], t = b->items[2 * k + 1];
    int64_t n_args = 0, n_exp = 0;
    const int64_t *args = 0, *exp = 0;
    *status = KILN_TRAPPED;
    *trap = TRAP_MemoryFault;
    *steps = 0;
    if (c >= 0 && c < b->n_cand && t >= 0 && t < b->n_tests && t >= b->cand_tests[2 * c] &&
        t < b->cand_tests[2 * c + 1] && b->cand_program[c] >= 0 && b->cand_program[c] < b->n_progs &&
        b->prog_ok[b->cand_program[c]]) {
        args = kiln_range(b->arg_words, b->arg_offsets, b->n_arg_words, t, &n_args);
        exp = kiln_range(b->expected_words, b->expected_offsets, b->n_expected_words, t, &n_exp);
    }
    if (args && exp)
        kiln_verify_item(&b->progs[b->cand_program[c]], b->cand_function[c], args, n_args, exp, n_exp, b->mode[t],
                         b->tolerance[2 * t], b->tolerance[2 * t + 1], &b->lim, mem, status, trap, steps,
                         b->prog_ok[b->cand_program[c]] == 2);
}

#endif /* KILN_INTERP_H */
