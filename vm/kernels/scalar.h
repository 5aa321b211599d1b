/* scalar.h: the meaning of kiln's scalar instructions in C, written once.
 *
 * Contract: every function here computes what the function of the same name in vm/semantics.py
 * computes (CPython's operators on int64 and double, plus kiln's two additions: an int result
 * outside 64 bits is TRAP_Overflow, a case kiln cannot reproduce exactly is TRAP_Unsupported),
 * bit for bit, with the traps in the same order. Two users include it, so run time and compile
 * time cannot drift apart:
 *   - the VM (vm/kernels/interp.h: host C11 and CUDA device code), whose handlers call these;
 *   - kc's constant folder (compiler/kernels/kc_opt.h, `fold`: host C11 and CUDA), which calls
 *     the same functions on constant operands and leaves to run time what traps.
 * A function that can trap returns a trap code of vm/kernels/kiln_isa.h (TRAP_OK, or the trap)
 * and stores its result through its last argument; the others return the result.
 *
 * Floats: NaN and infinity are tested on the bits (kiln_isnan, kiln_isinf), never with the
 * isnan/isinf macros. An arithmetic operation whose result is a NaN gives the first NaN operand,
 * quieted, else x86's default NaN (kiln_nan): CPython's bits on x86 whatever the compiler's
 * operand order or the GPU's own NaNs. floor, ceil and round return a NaN, an infinity (and
 * floor and ceil a zero) unchanged, as vm/semantics.py does, without asking the device's libm.
 * Build with floating-point contraction off (-ffp-contract=off, nvcc --fmad=false).
 *
 * Rules, as for interp.h: no libc beyond <math.h> (device functions in CUDA), no allocation, no
 * recursion. Under NVRTC the includer defines the fixed-width int types before including this.
 * Every function carries KILN_FN (inlined) or KILN_COLD (on the device a call, not inlined: the
 * larger helpers, so that their temporaries do not raise the register pressure of interp.h's
 * dispatch loop; -DKILN_DEVICE_INLINE inlines them again; on the host the compiler decides).
 */
#ifndef KILN_SCALAR_H
#define KILN_SCALAR_H

#if !defined(__CUDACC_RTC__)
#include <math.h>
#include <stdint.h>
#endif

#include "kiln_isa.h"

#ifdef __CUDACC__
#define KILN_FN __device__ static inline
#ifdef KILN_DEVICE_INLINE
#define KILN_COLD __device__ static inline
#else
#define KILN_COLD __device__ static __noinline__
#endif
#else
#define KILN_FN static inline
#define KILN_COLD static inline
#endif

#define KILN_I64_MAX ((int64_t)0x7fffffffffffffffLL)
#define KILN_I64_MIN ((int64_t)(-KILN_I64_MAX - 1))
#define KILN_EXACT ((int64_t)1 << 53) /* largest magnitude every int of which is a double */
#define KILN_TWO63 9223372036854775808.0 /* 2**63 as a double */
#define KILN_DEFAULT_NAN ((int64_t)0xfff8000000000000ULL) /* x86's NaN of 0/0, inf-inf, ... */
/* kiln_pow_f's answer, when asked (libm 0), where the result is the C library's pow() */
#define KILN_POW_LIBM (-1)

/* ---- words and floats ------------------------------------------------------------------------ */

KILN_FN double kiln_f(int64_t w) {
#ifdef __CUDACC__
    return __longlong_as_double((long long)w);
#else
    union { int64_t i; double d; } u;
    u.i = w;
    return u.d;
#endif
}

KILN_FN int64_t kiln_w(double d) {
#ifdef __CUDACC__
    return (int64_t)__double_as_longlong(d);
#else
    union { int64_t i; double d; } u;
    u.d = d;
    return u.i;
#endif
}

KILN_FN int kiln_isnan(double x) {
    uint64_t b = (uint64_t)kiln_w(x);
    return (b & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (b & 0x000fffffffffffffULL) != 0;
}

KILN_FN int kiln_isinf(double x) {
    return ((uint64_t)kiln_w(x) & 0x7fffffffffffffffULL) == 0x7ff0000000000000ULL;
}

/* The NaN an arithmetic operation on x and y gives, the same on every backend: the first NaN
   operand, quieted, else the default NaN of x86 (negative, quiet), so results equal CPython's on
   x86 bit for bit however the compiler orders the operands of + and * (and on a GPU, whose
   hardware NaNs differ). Only called when the result is a NaN. */
KILN_FN double kiln_nan(double x, double y) {
    if (kiln_isnan(x)) return kiln_f(kiln_w(x) | (int64_t)0x0008000000000000LL);
    if (kiln_isnan(y)) return kiln_f(kiln_w(y) | (int64_t)0x0008000000000000LL);
    return kiln_f(KILN_DEFAULT_NAN);
}
/* r, an operation's result on x and y, with kiln_nan's NaN where it is one */
KILN_FN double kiln_nan_of(double x, double y, double r) { return r == r ? r : kiln_nan(x, y); }
KILN_FN double kiln_add(double x, double y) { return kiln_nan_of(x, y, x + y); }
KILN_FN double kiln_sub(double x, double y) { return kiln_nan_of(x, y, x - y); }
KILN_FN double kiln_mul(double x, double y) { return kiln_nan_of(x, y, x * y); }
KILN_FN double kiln_div(double x, double y) { return kiln_nan_of(x, y, x / y); }

/* "y is an odd integer", as CPython's DOUBLE_IS_ODD_INTEGER */
KILN_FN int kiln_odd(double y) { return fmod(fabs(y), 2.0) == 1.0; }

/* ---- int64 ----------------------------------------------------------------------------------- */

/* Overflow-checked int64 arithmetic: return 1 on overflow, else 0; the wrapped result in *r. */
KILN_FN int kiln_add_ovf(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) && !defined(__CUDACC__)
    return __builtin_add_overflow(a, b, r); /* the same: the wrapped sum, 1 on overflow (add, jo) */
#else
    uint64_t u = (uint64_t)a + (uint64_t)b;
    int64_t s = (int64_t)u;
    *r = s;
    return ((a ^ s) & (b ^ s)) < 0;
#endif
}

KILN_FN int kiln_sub_ovf(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) && !defined(__CUDACC__)
    return __builtin_sub_overflow(a, b, r);
#else
    uint64_t u = (uint64_t)a - (uint64_t)b;
    int64_t s = (int64_t)u;
    *r = s;
    return ((a ^ b) & (a ^ s)) < 0;
#endif
}

KILN_COLD int kiln_mul_ovf(int64_t a, int64_t b, int64_t *r) {
#if defined(__CUDACC__)
    int64_t lo = (int64_t)((uint64_t)a * (uint64_t)b);
    int64_t hi = (int64_t)__mul64hi((long long)a, (long long)b);
    *r = lo;
    return hi != (lo < 0 ? -1 : 0);
#elif defined(__GNUC__)
    return __builtin_mul_overflow(a, b, r);
#else
    int64_t p = (int64_t)((uint64_t)a * (uint64_t)b);
    *r = p;
    if (a == 0 || b == 0) return 0;
    if ((a == -1 && b == KILN_I64_MIN) || (b == -1 && a == KILN_I64_MIN)) return 1;
    return p / b != a;
#endif
}

/* Arithmetic shift right, for any sign (C leaves >> of a negative implementation-defined). */
KILN_FN int64_t kiln_sar(int64_t a, int64_t b) {
    return a < 0 ? ~(int64_t)((uint64_t)~a >> b) : (int64_t)((uint64_t)a >> b);
}

KILN_FN int kiln_neg_i(int64_t a, int64_t *r) {
    if (a == KILN_I64_MIN) return TRAP_Overflow;
    *r = -a;
    return TRAP_OK;
}

KILN_FN int kiln_abs_i(int64_t a, int64_t *r) {
    if (a == KILN_I64_MIN) return TRAP_Overflow;
    *r = a < 0 ? -a : a;
    return TRAP_OK;
}

KILN_FN int kiln_floordiv_i(int64_t a, int64_t b, int64_t *r) {
    int64_t q;
    if (b == 0) return TRAP_ZeroDivisionError;
    if (a == KILN_I64_MIN && b == -1) return TRAP_Overflow;
    q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q--;
    *r = q;
    return TRAP_OK;
}

KILN_FN int kiln_mod_i(int64_t a, int64_t b, int64_t *r) {
    int64_t m;
    if (b == 0) return TRAP_ZeroDivisionError;
    m = b == -1 ? 0 : a % b;  /* (INT64_MIN % -1 is undefined in C) */
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    *r = m;
    return TRAP_OK;
}

/* by squaring, so a huge exponent of a small base stops at the first product past 64 bits */
KILN_FN int kiln_pow_i(int64_t base, int64_t e, int64_t *r) {
    int64_t p = 1;
    if (e < 0) return TRAP_Unsupported;
    while (e > 0) {
        if ((e & 1) && kiln_mul_ovf(p, base, &p)) return TRAP_Overflow;
        e >>= 1;
        if (e > 0 && kiln_mul_ovf(base, base, &base)) return TRAP_Overflow;
    }
    *r = p;
    return TRAP_OK;
}

/* a / b of two ints: one correctly rounded division of exact doubles */
KILN_FN int kiln_div_i(int64_t a, int64_t b, double *r) {
    if (b == 0) return TRAP_ZeroDivisionError;
    if (a > KILN_EXACT || a < -KILN_EXACT || b > KILN_EXACT || b < -KILN_EXACT) return TRAP_Unsupported;
    *r = (double)a / (double)b;
    return TRAP_OK;
}

KILN_FN int kiln_shl_i(int64_t a, int64_t b, int64_t *r) {
    int64_t s;
    if (b < 0) return TRAP_ValueError;
    if (a == 0) { *r = 0; return TRAP_OK; }
    if (b >= 64) return TRAP_Overflow;
    s = (int64_t)((uint64_t)a << b);
    if (kiln_sar(s, b) != a) return TRAP_Overflow;
    *r = s;
    return TRAP_OK;
}

KILN_FN int kiln_shr_i(int64_t a, int64_t b, int64_t *r) {
    if (b < 0) return TRAP_ValueError;
    *r = kiln_sar(a, b > 63 ? 63 : b);
    return TRAP_OK;
}

/* ---- conversions ----------------------------------------------------------------------------- */

KILN_FN int kiln_i2f_exact(int64_t a, double *r) {
    if (a > KILN_EXACT || a < -KILN_EXACT) return TRAP_Unsupported;
    *r = (double)a;
    return TRAP_OK;
}

KILN_FN int kiln_f2i(double x, int64_t *r) {
    if (kiln_isnan(x)) return TRAP_ValueError;
    if (kiln_isinf(x)) return TRAP_OverflowError;
    if (x >= KILN_TWO63 || x < -KILN_TWO63) return TRAP_Overflow;
    *r = (int64_t)x;
    return TRAP_OK;
}

/* ---- float (CPython's float_divmod, float_rem, float_pow, float.__round__) -------------------- */

/* x // y, y != 0 (the caller traps ZeroDivisionError first) */
KILN_COLD double kiln_floordiv_f(double x, double y) {
    double mod = fmod(x, y);
    double div = kiln_div(kiln_sub(x, mod), y);
    double fd;
    if (mod != 0.0) {
        if ((y < 0.0) != (mod < 0.0)) div = kiln_sub(div, 1.0);
    }
    if (div != 0.0) {
        fd = floor(div);
        if (div - fd > 0.5) fd = kiln_add(fd, 1.0);
    } else {
        fd = copysign(0.0, x / y);
    }
    return fd;
}

/* x % y, y != 0 (the caller traps ZeroDivisionError first) */
KILN_COLD double kiln_mod_f(double x, double y) {
    double mod = fmod(x, y);
    if (mod != 0.0) {
        if ((y < 0.0) != (mod < 0.0)) mod = kiln_add(mod, y);
    } else {
        mod = copysign(0.0, y);
    }
    return mod;
}

/* x ** y: a trap code, the result in *r. With libm 0, a result that would be the C library's
   pow() is not computed: the answer is KILN_POW_LIBM (a device's pow is not glibc's, so the
   constant folder on a device leaves it alone). */
KILN_COLD int kiln_pow_f(double x, double y, double *r, int libm) {
    int negate = 0;
    /* finite x < 0, finite non-integer y: Python gives a complex number (or raises OverflowError
       when that overflows): Unsupported either way */
    if (x < 0.0 && !kiln_isinf(x) && !kiln_isnan(y) && !kiln_isinf(y) && y != floor(y))
        return TRAP_Unsupported;
    if (y == 0.0) { *r = 1.0; return TRAP_OK; }
    if (kiln_isnan(x)) { *r = x; return TRAP_OK; }
    if (kiln_isnan(y)) { *r = x == 1.0 ? 1.0 : y; return TRAP_OK; }
    if (kiln_isinf(y)) {
        double ax = fabs(x);
        if (ax == 1.0) *r = 1.0;
        else if ((y > 0.0) == (ax > 1.0)) *r = fabs(y);
        else *r = 0.0;
        return TRAP_OK;
    }
    if (kiln_isinf(x)) {
        int odd = kiln_odd(y);
        if (y > 0.0) *r = odd ? x : fabs(x);
        else *r = odd ? copysign(0.0, x) : 0.0;
        return TRAP_OK;
    }
    if (x == 0.0) {
        if (y < 0.0) return TRAP_ZeroDivisionError;
        *r = kiln_odd(y) ? x : 0.0;
        return TRAP_OK;
    }
    if (x < 0.0) {
        x = -x;
        negate = kiln_odd(y);
    }
    if (x == 1.0) { *r = negate ? -1.0 : 1.0; return TRAP_OK; }
    if (!libm) return KILN_POW_LIBM;
    {
        double p = pow(x, y);
        if (kiln_isinf(p)) return TRAP_OverflowError;
        *r = negate ? -p : p;
    }
    return TRAP_OK;
}

KILN_FN int kiln_sqrt_f(double x, double *r) {
    if (x < 0) return TRAP_ValueError;
    *r = sqrt(x);
    return TRAP_OK;
}

/* C's floor and ceil; infinities, NaN and zeros are themselves */
KILN_FN double kiln_floor_f(double x) {
    return kiln_isnan(x) || kiln_isinf(x) || x == 0.0 ? x : floor(x);
}

KILN_FN double kiln_ceil_f(double x) {
    return kiln_isnan(x) || kiln_isinf(x) || x == 0.0 ? x : ceil(x);  /* ceil(-0.5) is -0.0 */
}

/* float.__round__(None) before the int conversion: halves to even, a zero result keeps x's sign */
KILN_FN double kiln_round_f(double x) {
    double r;
    if (kiln_isnan(x) || kiln_isinf(x)) return x;
    r = round(x); /* half away from zero, then halves to even */
    if (fabs(x - r) == 0.5) r = 2.0 * round(x / 2.0);
    return r;
}

/* round(x, n) of a float x and an int n, exactly as CPython (vm.semantics.round_f_n, the
   definition): x = m * 2^e with m < 2^53; q = m * 5^n / 2^(e' = -e - n), rounded half to even,
   in 128 bits made of two words; q / 10^n is one correctly rounded division of exact operands.
   Returns TRAP_OK with *r set, or TRAP_Unsupported where that is not exact. */
KILN_COLD int kiln_round_n(double x, int64_t n, double *r) {
    const double p10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t m, p5 = 1, a0, a1, b0, b1, lo, hi, mid1, mid2, q, rhi, rlo, hhi, hlo;
    int ex, e, k;
    double f;
    *r = x;
    if (kiln_isnan(x) || kiln_isinf(x) || x == 0.0) return TRAP_OK;
    if (n < 0) return TRAP_Unsupported;
    f = frexp(fabs(x), &ex);
    m = (uint64_t)ldexp(f, 53);
    e = ex - 53;
    if (e >= 0 || n >= -(int64_t)e) return TRAP_OK;
    if (n > 22) return TRAP_Unsupported;
    k = -e - (int)n;
    for (int i = 0; i < n; i++) p5 *= 5; /* 5^22 < 2^52 */
    /* (hi, lo) = m * p5, 32-bit halves */
    a0 = m & 0xffffffffu; a1 = m >> 32; b0 = p5 & 0xffffffffu; b1 = p5 >> 32;
    lo = a0 * b0;
    mid1 = a1 * b0;
    mid2 = a0 * b1;
    hi = a1 * b1 + (mid1 >> 32) + (mid2 >> 32);
    {
        uint64_t t = lo + (mid1 << 32);
        hi += t < lo;
        lo = t;
        t = lo + (mid2 << 32);
        hi += t < lo;
        lo = t;
    }
    if (k >= 106) { *r = copysign(0.0, x); return TRAP_OK; } /* m * 5^n < 2^105 <= half */
    if (k < 64) {
        if (hi >> k) return TRAP_Unsupported;
        q = (lo >> k) | (hi << (64 - k));
        rhi = 0; rlo = lo & ((1ull << k) - 1);
        hhi = 0; hlo = 1ull << (k - 1);
    } else {
        q = hi >> (k - 64);
        rhi = hi & ((1ull << (k - 64)) - 1); rlo = lo;
        if (k == 64) { hhi = 0; hlo = 1ull << 63; } else { hhi = 1ull << (k - 65); hlo = 0; }
    }
    if (q >> 53) return TRAP_Unsupported;
    if (rhi > hhi || (rhi == hhi && rlo > hlo) || (rhi == hhi && rlo == hlo && (q & 1))) q++;
    *r = copysign((double)q / p10[n], x);
    return TRAP_OK;
}

#endif
