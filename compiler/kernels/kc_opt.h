/* kc_opt.h: the optimisation passes of compiler/optimize.py on kc's labelled code, included by
 * kc.h after lowering (kc_lower.h) and before assembly (kc_emit.h); host C11 and CUDA device
 * code, as kc.h: KC_FN functions, no allocation but the per-program arena, no recursion.
 *
 * Takes: every function's labelled code (kc_lower.h) and kc_config.passes.
 * Gives: that code rewritten by fold, peephole, threading, dce and fuse, its labels moved to
 * their new positions, folded constants added to the pool.
 * Guarantees: the reference's code for the same passes (compiler/optimize.py), instruction for
 * instruction and constant for constant; a fold that would trap, or that kc cannot compute
 * exactly here, is left for run time or gives the program up. How:
 *
 * kc lowers every function first (the constants pool fills in the reference's order), then
 * kc_optimize takes each function in turn: its instructions and its label placements (kept in
 * placement order by kc_place: the order of labels at one position matters to `peephole`) become
 * one entry list, as the reference's `Code`; the passes rewrite it in place (they only ever
 * shrink it); the result is written back, compacted, and the labels get their new positions.
 *
 * Passes, in the reference's order: fold, peephole, threading, dce, again until nothing changes
 * (at most 50 rounds; each pass says whether it changed anything, which is exactly when the
 * reference's before/after comparison differs, since every rewrite shrinks the list or changes
 * a jump target), then fuse once. `fold` computes with vm/semantics.py's meaning (Python's
 * operators, int64 bounds): an operation that traps is left for run time; new constants go to
 * the pool in the reference's order, so the container's constant table is the same.
 *
 * `fold` computes with vm/kernels/scalar.h, the functions the VM runs the same instructions
 * with (their contract: vm/semantics.py), so compile time and run time share one definition.
 * NaNs: a float operation on two NaNs gives the first one, quieted (the warm CPython's choice; a
 * cold CPython gives the second for + and *, so no test relies on it), on one NaN that one, and
 * a NaN made from non-NaNs is x86's default NaN (the reference's bits on the host, also on a
 * device: floor division and modulo choose their NaN again from the operands). On a device, a
 * fold that needs pow() itself gives the program up (the device's pow is not glibc's); fmod,
 * floor, ceil, round, sqrt and the four operations are exact everywhere.
 */
#ifndef KILN_KC_OPT_H
#define KILN_KC_OPT_H

/* the meaning of the scalar instructions: the VM's own */
#include "../../vm/kernels/scalar.h"

#define KC_MAX_ROUNDS 50

/* how many constant operands `op` folds (2 or 1), 0 for an instruction fold leaves alone */
KC_FN int kc_fold_arity(int op) {
    switch (op) {
    case K_ADD_I: case K_SUB_I: case K_MUL_I: case K_FLOORDIV_I: case K_MOD_I: case K_POW_I:
    case K_DIV_I: case K_AND_I: case K_OR_I: case K_XOR_I: case K_SHL_I: case K_SHR_I:
    case K_LT_I: case K_LE_I: case K_GT_I: case K_GE_I: case K_EQ_I: case K_NE_I:
    case K_ADD_F: case K_SUB_F: case K_MUL_F: case K_DIV_F: case K_FLOORDIV_F: case K_MOD_F:
    case K_POW_F: case K_LT_F: case K_LE_F: case K_GT_F: case K_GE_F: case K_EQ_F: case K_NE_F:
        return 2;
    case K_NEG_I: case K_ABS_I: case K_INVERT_I: case K_NOT: case K_I2F: case K_I2F_EXACT:
    case K_NEG_F: case K_ABS_F: case K_TRUTH_F: case K_F2I:
    case K_SQRT_F: case K_FLOOR_F: case K_CEIL_F: case K_ROUND_F:
        return 1;
    default:
        return 0;
    }
}

/* semantics.RESULT_IS_FLOAT */
KC_FN int kc_fold_float_result(int op) {
    switch (op) {
    case K_DIV_I: case K_I2F: case K_I2F_EXACT: case K_NEG_F: case K_ABS_F: case K_ADD_F:
    case K_SUB_F: case K_MUL_F: case K_DIV_F: case K_FLOORDIV_F: case K_MOD_F: case K_POW_F:
    case K_SQRT_F: case K_FLOOR_F: case K_CEIL_F: case K_ROUND_F:
        return 1;
    default:
        return 0;
    }
}

/* `op` on constant words a (and b): 1 with the result word in *r, 0 when it traps (left for run
   time), 2 when kc cannot compute it exactly here */
KC_NOINLINE KC_FN int kc_fold_value(int op, int64_t a, int64_t b, int64_t *r) {
    double x = kiln_f(a), y = kiln_f(b), d = 0.0;
    int t;
    switch (op) {
    case K_ADD_I: return !kiln_add_ovf(a, b, r);
    case K_SUB_I: return !kiln_sub_ovf(a, b, r);
    case K_MUL_I: return !kiln_mul_ovf(a, b, r);
    case K_FLOORDIV_I: return kiln_floordiv_i(a, b, r) == TRAP_OK;
    case K_MOD_I: return kiln_mod_i(a, b, r) == TRAP_OK;
    case K_POW_I: return kiln_pow_i(a, b, r) == TRAP_OK;
    case K_DIV_I: t = kiln_div_i(a, b, &d); break;
    case K_AND_I: *r = a & b; return 1;
    case K_OR_I: *r = a | b; return 1;
    case K_XOR_I: *r = a ^ b; return 1;
    case K_SHL_I: return kiln_shl_i(a, b, r) == TRAP_OK;
    case K_SHR_I: return kiln_shr_i(a, b, r) == TRAP_OK;
    case K_LT_I: *r = a < b; return 1;
    case K_LE_I: *r = a <= b; return 1;
    case K_GT_I: *r = a > b; return 1;
    case K_GE_I: *r = a >= b; return 1;
    case K_EQ_I: *r = a == b; return 1;
    case K_NE_I: *r = a != b; return 1;
    case K_ADD_F: *r = kiln_w(kiln_add(x, y)); return 1;
    case K_SUB_F: *r = kiln_w(kiln_sub(x, y)); return 1;
    case K_MUL_F: *r = kiln_w(kiln_mul(x, y)); return 1;
    case K_DIV_F:
        if (y == 0.0) return 0;
        *r = kiln_w(kiln_div(x, y));
        return 1;
    /* floor division and modulo: their NaN chosen once more from the operands, so that a
       device's fmod and floor NaNs never reach the pool */
    case K_FLOORDIV_F:
        if (y == 0.0) return 0;
        *r = kiln_w(kiln_nan_of(x, y, kiln_floordiv_f(x, y)));
        return 1;
    case K_MOD_F:
        if (y == 0.0) return 0;
        *r = kiln_w(kiln_nan_of(x, y, kiln_mod_f(x, y)));
        return 1;
    case K_POW_F:
#ifdef __CUDA_ARCH__
        t = kiln_pow_f(x, y, &d, 0);  /* the device's pow is not glibc's: give that up (2) */
        if (t == KILN_POW_LIBM) return 2;
#else
        t = kiln_pow_f(x, y, &d, 1);
#endif
        break;
    case K_LT_F: *r = x < y; return 1;
    case K_LE_F: *r = x <= y; return 1;
    case K_GT_F: *r = x > y; return 1;
    case K_GE_F: *r = x >= y; return 1;
    case K_EQ_F: *r = x == y; return 1;
    case K_NE_F: *r = x != y; return 1;
    /* unary: a (x) only */
    case K_NEG_I: return kiln_neg_i(a, r) == TRAP_OK;
    case K_ABS_I: return kiln_abs_i(a, r) == TRAP_OK;
    case K_INVERT_I: *r = ~a; return 1;
    case K_NOT: *r = a == 0; return 1;
    case K_I2F: *r = kiln_w((double)a); return 1;
    case K_I2F_EXACT: t = kiln_i2f_exact(a, &d); break;
    case K_NEG_F: *r = kiln_w(-x); return 1;
    case K_ABS_F: *r = kiln_w(fabs(x)); return 1;
    case K_TRUTH_F: *r = x != 0.0; return 1;
    /* IEEE-exact on host and device */
    case K_SQRT_F: t = kiln_sqrt_f(x, &d); break;
    case K_FLOOR_F: *r = kiln_w(kiln_floor_f(x)); return 1;
    case K_CEIL_F: *r = kiln_w(kiln_ceil_f(x)); return 1;
    case K_ROUND_F: *r = kiln_w(kiln_round_f(x)); return 1;
    case K_F2I: return kiln_f2i(x, r) == TRAP_OK;
    default:
        return 2;
    }
    /* the float results of the cases that can trap */
    if (t != TRAP_OK) return 0;
    *r = kiln_w(d);
    return 1;
}

/* ---- the passes ------------------------------------------------------------------------------ */

/* One function's code as the reference's list of entries: an instruction (op >= 0, its arg and
   line) or a label (op -1, arg the label). Per-label scratch for threading and dce. */
typedef struct {
    int32_t *op, *arg, *line;
    int32_t n;
    int32_t *after;  /* threading: the target of the JUMP first after the label, else -1 */
    int32_t *seen;   /* threading: the stamp of the chain that went through the label */
    int32_t *used;   /* dce: the stamp of the dce round that found a jump to the label */
    int32_t stamp, used_stamp, n_labels;
} kc_opt;

KC_FN int kc_flag(const kc_ctx *c, int op, int flag) { return op >= 0 && (c->cfg->op_flags[op] & flag); }

/* optimize.py's _guarded: the entry before the last of out[0, w) is a loop step */
KC_FN int kc_guarded(const kc_ctx *c, const kc_opt *o, int32_t w) {
    return w >= 2 && kc_flag(c, o->op[w - 2], KC_OP_GUARDS);
}

KC_FN int kc_const_word(const kc_ctx *c, const kc_opt *o, int32_t i, int64_t *w) {
    if (o->op[i] == K_LOADI) { *w = o->arg[i]; return 1; }
    if (o->op[i] == K_CONST) { *w = c->consts[o->arg[i]]; return 1; }
    return 0;
}

KC_NOINLINE KC_FN int kc_pass_fold(kc_ctx *c, kc_opt *o) {
    int32_t w = 0, n = o->n;
    int changed = 0;
    for (int32_t r = 0; r < n && !c->err; r++) {
        int op = o->op[r];
        o->op[w] = op; o->arg[w] = o->arg[r]; o->line[w] = o->line[r];
        w++;
        int arity = kc_fold_arity(op);
        if (!arity || w < arity + 1) continue;
        int64_t a = 0, b = 0, v = 0;
        if (!kc_const_word(c, o, w - 1 - arity, &a)) continue;
        if (arity == 2 && !kc_const_word(c, o, w - 2, &b)) continue;
        int ok = kc_fold_value(op, a, b, &v);
        if (ok == 2) { kc_fail(c, "a float ** folded on the device", o->line[w - 1]); return 0; }
        if (!ok) continue;  /* the trap belongs to run time */
        int32_t line = o->line[w - 1];
        w -= arity + 1;
        if (kc_fold_float_result(op) || v < c->cfg->imm_min || v > c->cfg->imm_max) {
            c->line = line;
            o->op[w] = K_CONST;
            o->arg[w] = kc_const(c, v);
        } else {
            o->op[w] = K_LOADI;
            o->arg[w] = (int32_t)v;
        }
        o->line[w] = line;
        w++;
        changed = 1;
    }
    o->n = w;
    return changed;
}

KC_NOINLINE KC_FN int kc_pass_peephole(kc_ctx *c, kc_opt *o) {
    int32_t w = 0, n = o->n;
    int changed = 0;
    for (int32_t r = 0; r < n; r++) {
        int op = o->op[r];
        int32_t arg = o->arg[r], line = o->line[r];
        int prev = w > 0 ? o->op[w - 1] : -1;
        if (op >= 0 && prev >= 0) {
            if ((op == K_JUMP_IF_FALSE || op == K_JUMP_IF_TRUE) && prev == K_NOT) {
                o->op[w - 1] = op == K_JUMP_IF_FALSE ? K_JUMP_IF_TRUE : K_JUMP_IF_FALSE;
                o->arg[w - 1] = arg;
                o->line[w - 1] = line;
                changed = 1;
                continue;
            }
            if (op == K_POP && (prev == K_LOADI || prev == K_CONST || prev == K_STR || prev == K_LOAD || prev == K_DUP)) {
                w--;
                changed = 1;
                continue;
            }
        }
        if (op < 0 && prev == K_JUMP && o->arg[w - 1] == arg && !kc_guarded(c, o, w)) {
            w--;
            changed = 1;
        }
        o->op[w] = op; o->arg[w] = arg; o->line[w] = line;
        w++;
    }
    o->n = w;
    return changed;
}

KC_NOINLINE KC_FN int kc_pass_threading(kc_ctx *c, kc_opt *o) {
    int32_t n = o->n, next_target = -1;
    int changed = 0;
    for (int32_t i = n - 1; i >= 0; i--) {  /* each label's first instruction after it */
        if (o->op[i] >= 0) next_target = o->op[i] == K_JUMP ? o->arg[i] : -1;
        else o->after[o->arg[i]] = next_target;
    }
    for (int32_t i = 0; i < n; i++) {
        if (!kc_flag(c, o->op[i], KC_OP_JUMP)) continue;
        if (o->stamp == 0x7fffffff) {
            for (int32_t l = 0; l < o->n_labels; l++) o->seen[l] = 0;
            o->stamp = 0;
        }
        int32_t stamp = ++o->stamp, target = o->arg[i];
        while (o->seen[target] != stamp) {
            o->seen[target] = stamp;
            if (o->after[target] < 0) break;
            target = o->after[target];
        }
        if (target != o->arg[i]) {
            o->arg[i] = target;
            changed = 1;
        }
    }
    return changed;
}

KC_NOINLINE KC_FN int kc_pass_dce(kc_ctx *c, kc_opt *o) {
    int32_t w = 0, n = o->n;
    if (o->used_stamp == 0x7fffffff) {
        for (int32_t l = 0; l < o->n_labels; l++) o->used[l] = 0;
        o->used_stamp = 0;
    }
    int32_t stamp = ++o->used_stamp;
    for (int32_t i = 0; i < n; i++)
        if (kc_flag(c, o->op[i], KC_OP_JUMP)) o->used[o->arg[i]] = stamp;
    int dead = 0;
    for (int32_t r = 0; r < n; r++) {
        int op = o->op[r];
        if (op < 0) {
            if (o->used[o->arg[r]] == stamp) {
                dead = 0;
                o->op[w] = op; o->arg[w] = o->arg[r]; o->line[w] = o->line[r];
                w++;
            }
            continue;
        }
        if (dead) continue;
        o->op[w] = op; o->arg[w] = o->arg[r]; o->line[w] = o->line[r];
        w++;
        dead = kc_flag(c, op, KC_OP_ENDS) && !kc_guarded(c, o, w);
    }
    o->n = w;
    return w != n;
}

/* an int comparison -> the fused jump taken when it holds, and when it fails */
KC_TABLE int KC_FUSE_CMP[6] = {K_LT_I, K_LE_I, K_GT_I, K_GE_I, K_EQ_I, K_NE_I};
KC_TABLE int KC_FUSE_WHEN_TRUE[6] = {K_JUMP_LT_I, K_JUMP_LE_I, K_JUMP_GT_I, K_JUMP_GE_I, K_JUMP_EQ_I, K_JUMP_NE_I};
KC_TABLE int KC_FUSE_WHEN_FALSE[6] = {K_JUMP_GE_I, K_JUMP_GT_I, K_JUMP_LE_I, K_JUMP_LT_I, K_JUMP_NE_I, K_JUMP_EQ_I};

/* optimize.py's _fuse_pair: the superinstruction for entries i, j, or -1 (op and arg in *op,
   *arg) */
KC_NOINLINE KC_FN int kc_fuse_pair(const kc_ctx *c, const kc_opt *o, int32_t i, int32_t j, int *op, int32_t *arg) {
    int first = o->op[i], second = o->op[j];
    if (second == K_JUMP_IF_TRUE || second == K_JUMP_IF_FALSE) {
        for (int k = 0; k < 6; k++)
            if (first == KC_FUSE_CMP[k]) {
                *op = second == K_JUMP_IF_TRUE ? KC_FUSE_WHEN_TRUE[k] : KC_FUSE_WHEN_FALSE[k];
                *arg = o->arg[j];
                return 1;
            }
    }
    if (first == K_LOAD && second == K_LOAD && o->arg[i] <= KC_LOCAL2_MAX && o->arg[j] <= KC_LOCAL2_MAX) {
        *op = K_LOAD2;
        *arg = o->arg[i] | o->arg[j] << 12;
        return 1;
    }
    if (first == K_LOADI && (second == K_ADD_I || second == K_SUB_I)) {
        int64_t k = second == K_ADD_I ? (int64_t)o->arg[i] : -(int64_t)o->arg[i];
        if (k >= c->cfg->imm_min && k <= c->cfg->imm_max) {
            *op = K_ADDI;
            *arg = (int32_t)k;
            return 1;
        }
    }
    return 0;
}

KC_FN void kc_pass_fuse(kc_ctx *c, kc_opt *o) {
    int32_t w = 0, n = o->n;
    for (int32_t r = 0; r < n; r++) {
        o->op[w] = o->op[r]; o->arg[w] = o->arg[r]; o->line[w] = o->line[r];
        int op = 0;
        int32_t arg = 0;
        if (w > 0 && o->op[w] >= 0 && o->op[w - 1] >= 0 && kc_fuse_pair(c, o, w - 1, w, &op, &arg)) {
            o->op[w - 1] = op;  /* the line stays the first's */
            o->arg[w - 1] = arg;
            continue;
        }
        w++;
    }
    o->n = w;
}

/* optimize.py's optimize() on one function's entries */
KC_FN void kc_opt_run(kc_ctx *c, kc_opt *o) {
    int32_t passes = c->cfg->passes;
    for (int round = 0; round < KC_MAX_ROUNDS && !c->err; round++) {
        int changed = 0;
        if (passes & KC_PASS_FOLD) changed |= kc_pass_fold(c, o);
        if (c->err) return;
        if (passes & KC_PASS_PEEPHOLE) changed |= kc_pass_peephole(c, o);
        if (passes & KC_PASS_THREADING) changed |= kc_pass_threading(c, o);
        if (passes & KC_PASS_DCE) changed |= kc_pass_dce(c, o);
        if (!changed) break;
    }
    if (passes & KC_PASS_FUSE) kc_pass_fuse(c, o);
}

/* Every function, lowered, through the passes; the code is compacted in place (the passes only
   shrink it) and each function's range and labels are updated. */
KC_NOINLINE KC_FN void kc_optimize(kc_ctx *c) {
    int64_t mark = c->arena_used;
    int32_t most = 0;
    for (int32_t i = 0; i < c->n_funcs; i++)
        if (c->funcs[i].code_end - c->funcs[i].code_begin > most) most = c->funcs[i].code_end - c->funcs[i].code_begin;
    int64_t cap = (int64_t)most + c->n_marks + 1;
    kc_opt o;
    o.op = (int32_t *)kc_alloc(c, cap * 4);
    o.arg = (int32_t *)kc_alloc(c, cap * 4);
    o.line = (int32_t *)kc_alloc(c, cap * 4);
    o.after = (int32_t *)kc_alloc(c, (int64_t)c->n_labels * 4 + 4);
    o.seen = (int32_t *)kc_alloc(c, (int64_t)c->n_labels * 4 + 4);
    o.used = (int32_t *)kc_alloc(c, (int64_t)c->n_labels * 4 + 4);
    if (c->err) return;
    o.n_labels = c->n_labels;
    o.stamp = o.used_stamp = 0;
    for (int32_t l = 0; l < c->n_labels; l++) {
        o.after[l] = -1;
        o.seen[l] = o.used[l] = 0;
    }
    int32_t w = 0, m = 0;
    for (int32_t fi = 0; fi < c->n_funcs && !c->err; fi++) {
        kc_func *f = &c->funcs[fi];
        o.n = 0;
        for (int32_t i = f->code_begin; i < f->code_end; i++) {
            for (; m < c->n_marks && c->marks[2 * m + 1] <= i; m++) {
                o.op[o.n] = -1; o.arg[o.n] = c->marks[2 * m]; o.line[o.n] = 0;
                o.n++;
            }
            o.op[o.n] = c->code_op[i]; o.arg[o.n] = c->code_arg[i]; o.line[o.n] = c->code_line[i];
            o.n++;
        }
        kc_opt_run(c, &o);
        f->code_begin = w;
        for (int32_t i = 0; i < o.n; i++) {
            if (o.op[i] < 0) {
                c->labels[o.arg[i]] = w;
                continue;
            }
            c->code_op[w] = o.op[i];
            c->code_arg[w] = o.arg[i];
            c->code_line[w] = o.line[i];
            c->code_label[w] = kc_flag(c, o.op[i], KC_OP_JUMP);
            w++;
        }
        f->code_end = w;
    }
    c->n_code = w;
    c->arena_used = mark;
}

#endif /* KILN_KC_OPT_H */
