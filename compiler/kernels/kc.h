/* kc: the batched kiln compiler, ONE source for the host and (later) the device.
 *
 * Compiles one kiln Python module (docs/LANGUAGE.md) to the `.kbc` container (vm/container.py),
 * byte for byte what the reference compiler (compiler/) emits with the same optimisation passes
 * (kc_config.passes: compile_source's `passes`; `loops` is applied by lowering, the others by
 * kc_opt.h). compiler/batched.py drives it; docs/BATCHED_COMPILER.md says what it covers.
 *
 * This file holds what every phase shares (the configuration, the tables' types, the arena,
 * kc_fail and kc_diag) and includes the phases in order, one file each, all on one per-program
 * arena; each file's first comment says what its phase takes, gives and guarantees:
 *   kc_lex.h      bytes -> tokens, with NEWLINE / INDENT / DEDENT as Python's tokenizer makes
 *                 them; the values of number literals
 *   kc_parse.h    tokens -> AST nodes (recursive descent, its depth capped: see KC_MAX_DEPTH),
 *                 with compiler/frontend.py's rewrites
 *   kc_types.h    check: types from annotations and the caller's argument types, one Var per
 *                 name (types.py); flow: definite assignment, which reads may find a variable
 *                 unbound (UnboundLocalError)
 *   kc_lower.h    typed AST -> instructions with labels, in the reference's order
 *                 (compiler/lower.py)
 *   kc_opt.h      passes: fold, peephole, threading, dce to a fixed point, then fuse (fold
 *                 computes with the VM's own vm/kernels/scalar.h)
 *   kc_emit.h     assemble: labels -> indices, maximum stack depth over the control-flow graph;
 *                 emit: the container: header, constants, image, types, functions, code,
 *                 lines, CRC-32
 *   kc_diag.h     the diagnostics of rejected programs that kc is sure of
 *   kc_compile.h  one program through the phases: kc_arena_bytes, kc_compile
 * and two files generated from Python tables (`python -m compiler --write`): kc_ops.h (enum
 * kc_op) and kc_surface.h (the method tables).
 *
 * A construct outside what kc covers is never guessed at: kc stops with "unsupported by the
 * batched compiler: <construct>" and the caller compiles that program with the reference
 * compiler, which also gives every diagnostic of a rejected program.
 *
 * Rules, as in vm/kernels/interp.h: every function carries KC_FN; no allocation (all memory is
 * the arena the caller passes, at most kc_arena_bytes(source length)); every array access
 * is bounds-checked against the arena's capacities; nothing here can loop without consuming
 * input. Recursion is bounded: the parser refuses nesting deeper than KC_MAX_DEPTH, and the
 * later phases recurse along the same tree, so the C stack is bounded by a constant.
 * Opcode numbers, stack effects, type and trap codes and the ISA hash are not compiled in:
 * they come from vm/isa.py at run time (kc_config), so a renumbered ISA needs no edit here
 * (scalar.h brings in kiln_isa.h: the folder reads its trap codes only as "traps or not").
 * The phase files are not headers of their own: kc.h includes them, in this order, once.
 */
#ifndef KILN_KC_H
#define KILN_KC_H

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef unsigned char uint8_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
/* NVRTC has no libc headers: <stdint.h>'s limits that kc uses, with their C values */
#define INT64_MAX 9223372036854775807LL
#define UINT64_MAX 18446744073709551615ULL
#else
#include <stdint.h>
#endif

#ifdef __CUDACC__
#define KC_FN __device__ static
#define KC_TABLE __device__ static const
/* on the phases' entry points, the large helpers, those called from many places (kc_fail,
   kc_diag, ...) and every recursive function: NVVM would otherwise inline them into their
   callers, a copy at each call (33 MB of PTX, one function of 110,000 lines), on which ptxas ran
   out of 23 GB. The recursive functions were functions of their own already (their cycles,
   which compiler/cuda.py's stack bound walks, are the same); KC_NOINLINE only stops the copies
   of them inlined into their callers. The host build leaves inlining to gcc (empty macro). */
#define KC_NOINLINE __noinline__
#else
#define KC_TABLE static const
#include <stdlib.h>
#define KC_FN static
#define KC_NOINLINE
#endif

#define KC_MAX_DEPTH 48  /* nesting of expressions and blocks kc accepts */
#define KC_MAX_INDENT 100  /* Python's tokenizer limit */
#define KC_MAX_PARAMS 64
#define KC_MAX_RAISABLE 32
#define KC_DIAG_BYTES 512  /* a reason text; a diagnostic's record from KC_DIAG_REC on */
#define KC_SUSPENDED 2

/* ---- configuration: what vm/isa.py says (compiler/batched.py fills it) --------------------- */

/* kc's own names for the instructions it emits (enum kc_op), generated from KC_OP_NAMES in
   compiler/batched.py, which maps each to its code in vm/isa.py */
#include "kc_ops.h"

#define KC_OP_JUMP 1   /* its operand is a jump target */
#define KC_OP_ENDS 2   /* control never falls through */
#define KC_OP_IMM 4    /* the operand is a signed immediate */
#define KC_OP_GUARDS 8 /* a loop step: the JUMP after it is taken or skipped (isa's guards_jump) */
#define KC_LOCAL2_MAX 4095  /* the largest slot a local2 operand names */
#define KC_POPS_CALL (-1)
#define KC_POPS_COUNT (-2)  /* pops as many items as its operand says (LIST_NEW) */
#define KC_POPS_SLICE (-3)  /* pops the sequence and one item per flag bit (STR_SLICE, LIST_SLICE) */

enum kc_trap_name { KT_UNSUPPORTED, KT_UNBOUND, KT_VALUE, KT_ASSERTION, KT_KEY, KT_RUNTIME, KT_NAME, KC_N_TRAPS };
#define KC_PY_BUILTINS 4096  /* CPython's builtin names, space-separated (compiler/batched.py) */

typedef struct {
    uint32_t format_version, isa_hash;
    int32_t op_code[KC_N_OPS], op_pops[KC_N_OPS], op_pushes[KC_N_OPS], op_flags[KC_N_OPS];
    int32_t type_code[9];           /* indexed by kc_type; [6]: list, [7]: tuple, [8]: optional */
    int32_t trap_code[KC_N_TRAPS];
    int32_t n_raisable;
    int32_t raisable_code[KC_MAX_RAISABLE];
    char raisable_name[KC_MAX_RAISABLE][32];  /* NUL-terminated */
    int32_t imm_min, imm_max, operand_max;
    int32_t passes;  /* KC_PASS_* bits: compile_source's `passes` */
    char py_builtins[KC_PY_BUILTINS];  /* dir(builtins) of the Python that compiles: types.py's hasattr(builtins, ...) */
} kc_config;

/* the optimisation passes (compiler/optimize.py's PASSES, in its order), kc_opt.h */
#define KC_PASS_FOLD 1
#define KC_PASS_DCE 2
#define KC_PASS_PEEPHOLE 4
#define KC_PASS_THREADING 8
#define KC_PASS_FUSE 16
#define KC_PASS_LOOPS 32

/* kc's types: a base (a kc_type, or KC_TVAR0 + i for the type variable i: the element type of
   an empty list not known yet, types.py's TVar) plus KC_LIST times the depth of list nesting:
   list[list[int]] is T_INT + 2 * KC_LIST. */
enum kc_type { T_UNKNOWN, T_INT, T_FLOAT, T_BOOL, T_NONE, T_STR };
#define KC_LIST 0x1000000
#define KC_TVAR0 64
#define KC_MAX_LIST_DEPTH 8
#define KC_TUPLE0 0x400000  /* a tuple type's base: KC_TUPLE0 + its entry in the tuple table */
#define KC_SET0 0x800000    /* a set type's base: KC_SET0 + the entry of its 1-item tuple */
#define KC_DICT0 0xC00000   /* a dict type's base: KC_DICT0 + the entry of its (key, value) tuple */
#define KC_MAX_TUPLE 64
#define KC_MAX_NESTED 16   /* nested defs in one function body */
#define KC_MAX_EFFECTS 64  /* module-level statements that do something (frontend.py's effects) */
#define KC_MAX_MCONST 64   /* module constants */
#define KC_SYNTH_BYTES 512 /* the text of the names kc's rewrites make ($key_i1, enumerate, ...) */
#define KC_BARE_LIST (-2)
#define KC_OPT 0x40000000  /* in the type table only: Optional[t] is t | KC_OPT (a kc_func's opt result) */
#define KC_MATH_OP 40      /* an E_CALL's op: 40 + the math function (kc_math_fn), 43 round, 44 bin, 45 round(x, n) */
#define KC_DICT_OP 50      /* an E_CALL's op: 50 dict(), 51 dict(pairs) */
#define KC_NEXT_OP 63  /* an E_CALL's op: next(<generator>, <literal>), as the parser saw it */
#define KC_ISINSTANCE_OP 61  /* an E_CALL's op: isinstance(x, C) decided by x's type, 61 False, 62 True */
#define KC_NAME_ERROR_OP 60  /* an E_CALL's op: a call of a name bound nowhere (NameError) */  /* a parameter annotated `list`: list[?], the ? made at check time */
#define KC_MAX_TYPE_NESTING 16
#define KC_MAX_TYPE_WORDS 64  /* the longest type descriptor kc writes */

enum kc_status { KC_OK = 0, KC_UNSUPPORTED = 1 };

/* ---- memory --------------------------------------------------------------------------------- */

typedef struct { int32_t kind, start, len, line, end_line, col, op; } kc_tok;

enum kc_tok_kind { TK_NAME, TK_NUMBER, TK_STRING, TK_OP, TK_NEWLINE, TK_INDENT, TK_DEDENT, TK_END };

enum kc_punct {
    P_LPAR = 1, P_RPAR, P_LSQB, P_RSQB, P_LBRACE, P_RBRACE, P_COLON, P_COMMA, P_SEMI, P_PLUS,
    P_MINUS, P_STAR, P_SLASH, P_VBAR, P_AMPER, P_LESS, P_GREATER, P_EQUAL, P_DOT, P_PERCENT,
    P_EQEQUAL, P_NOTEQUAL, P_LESSEQUAL, P_GREATEREQUAL, P_TILDE, P_CIRCUMFLEX, P_LSHIFT,
    P_RSHIFT, P_DOUBLESTAR, P_PLUSEQUAL, P_MINEQUAL, P_STAREQUAL, P_SLASHEQUAL, P_PERCENTEQUAL,
    P_AMPEREQUAL, P_VBAREQUAL, P_CIRCUMFLEXEQUAL, P_LEFTSHIFTEQUAL, P_RIGHTSHIFTEQUAL,
    P_DOUBLESTAREQUAL, P_DOUBLESLASH, P_DOUBLESLASHEQUAL, P_AT, P_ATEQUAL, P_RARROW,
    P_COLONEQUAL, P_ELLIPSIS
};

/* AST node kinds */
enum kc_node_kind {
    E_INT, E_FLOAT, E_BOOL, E_NONE, E_STR, E_NAME, E_BINOP, E_UNARY, E_BOOLOP, E_COMPARE,
    E_IFEXP, E_CALL, E_TUPLE, E_LIST, E_INDEX, E_SLICE, E_METHOD, E_LISTCOMP, E_COMPFOR, E_SET, E_DICT,
    S_EXPR, S_ASSIGN, S_ANNASSIGN, S_AUGASSIGN, S_IF, S_WHILE, S_FOR, S_RETURN, S_PASS,
    S_BREAK, S_CONTINUE, S_ASSERT, S_RAISE,
    E_LAMBDA  /* lambda NAME: body (tok, a): only as what frontend.py's _Functionals rewrites */
};

/* binary operators (BinOp, AugAssign), unary, boolean and comparison operators */
enum kc_bin { B_ADD, B_SUB, B_MUL, B_DIV, B_FLOORDIV, B_MOD, B_POW, B_LSHIFT, B_RSHIFT, B_BITOR,
              B_BITXOR, B_BITAND, B_MATMUL };
enum kc_unary { U_NOT, U_NEG, U_POS, U_INVERT };
enum kc_cmp { C_LT, C_LE, C_GT, C_GE, C_EQ, C_NE, C_IN, C_NOTIN, C_OTHER, C_IS, C_ISNOT };
/* types.py's compare plans kc covers: PL_NONE `x == None`, `f() is None` (a None on one side:
   decided by the other side's type); PL_ISBOOL `x is True` (`==` for a bool); PL_DICT `==` and
   `!=` of two dicts whose values hold no float or dict (lower.py's dict_equal) */
enum kc_plan { PL_NUM, PL_VALUE, PL_IN, PL_NONE, PL_ISBOOL, PL_DICT };

typedef struct {
    int16_t kind, op;    /* op: kc_bin / kc_unary / 0 and / 1 or / kc_cmp of a comparator */
    int16_t check, spare; /* check: a read that may find the variable unbound (kcheck) */
    int32_t ty;          /* a kc type (see kc_type) */
    int32_t line, end_line, depth;
    int32_t a, b, c, d;  /* children; lists are linked through `next`; d: a slice's step */
    int32_t next;
    int32_t tok;         /* the NAME token (names, calls, raise) */
    int32_t var;
    int32_t pow_float;   /* int ** -<constant>: a float (types.py's kpow_float); of a name or a
                            tuple display: its items' count when they are read as their list
                            (types.py's kas_list, kc_tuple_items) */
    int64_t ival;
    double fval;
} kc_node;

typedef struct {
    int32_t name_tok, type, slot, flag, needs_check;
    int32_t hidden, active;  /* a comprehension's variable (types.py's hidden), in its scope now */
    /* types.py's maybe_rebind: `renamed` a variable a top-level assignment of another type
       replaced (no lookup finds it); its FunctionInfo.variables position (the slots' order) is
       `pos`, and `occ` the variable at this index's position (both the index but for rebinds) */
    int32_t renamed, pos, occ;
} kc_var;

typedef struct {
    int32_t name_tok, line, body, n_params, ret;
    int32_t state, returns_value;  /* state: 0 unchecked, 1 being checked, 2 checked */
    int32_t param_tok[KC_MAX_PARAMS], param_type[KC_MAX_PARAMS];
    int32_t var_begin, var_end;  /* its variables in the program's var table */
    int32_t n_locals, code_begin, code_end, max_stack;
    int32_t outer_tok;             /* a nested def hoisted (frontend.py's _hoist_nested): its outer's name */
    int32_t def_tok, node_begin, node_end;  /* its `def` token; the nodes its parse made */
    int32_t local_math, local_math_names;  /* its own `import math`, `from math import` (bits) */
    int32_t typed_by_caller;  /* named by the argument types (compile_source's arg_types) */
    /* an Optional result (Optional[ret]): annotated so (1), or a value returned and None too, by
       `return None`, a bare return or the end of the body (types.py's _optional_result, with
       the fall-off retry of check_module); kc takes it only where no call in the module reads
       the result (the program's caller does) */
    int32_t opt;
} kc_func;

typedef struct {
    const char *src;
    int64_t len;
    const kc_config *cfg;
    uint8_t *arena;
    int64_t arena_cap, arena_used;
    int err;  /* 1: unsupported (the reason in diag); KC_SUSPENDED: see the check phase */
    int32_t need_callee;
    int32_t top_stmt;  /* the function's top-level statement being checked (types.py's top_level) */
    int32_t paren_callee;  /* the parse met `(NAME)(...)` (kc_atom) */
    int32_t opt_call_ok;   /* the call node of a function with an Optional result being compared (kc_opt_compare) */
    int32_t deferred_here; /* the function being checked called one whose parameter types are not known yet */
    int32_t defer_ok;      /* the operand of a single == or != that may be such a call (kc_type_expr's E_COMPARE) */
    char *diag;
    /* tables, all in the arena */
    kc_tok *toks; int32_t n_toks, cap_toks, pos;
    kc_node *nodes; int32_t n_nodes, cap_nodes;
    kc_func *funcs; int32_t n_funcs, cap_funcs;
    kc_var *vars; int32_t n_vars, cap_vars;
    int32_t *code_op, *code_arg, *code_line, *code_label; int32_t n_code, cap_code;
    int32_t *labels; int32_t n_labels, cap_labels;
    int64_t *consts; int32_t n_consts, cap_consts;
    int64_t *image; int32_t n_image, cap_image;
    int32_t *types; int32_t n_types, cap_types;  /* pool index -> kc type, in first-use order */
    int32_t *tvars; int32_t n_tvars, cap_tvars;  /* a type variable's binding (0: none yet) */
    int32_t *tup_n, *tup_at; int32_t n_tup, cap_tup;  /* tuple types: arity, first item in targs */
    int32_t *targs; int32_t n_targs, cap_targs;
    int32_t *loops; int32_t n_loops;    /* (continue, break) label pairs */
    int32_t *marks; int32_t n_marks;    /* (label, position) in placement order, for kc_opt.h */
    int32_t depth;
    int32_t bare_list_ok;  /* parsing a parameter's annotation: a bare `list` is list[?] */
    int32_t in_signature;  /* parsing a def's annotations, which CPython evaluates when it runs */
    int32_t math_names;
    int32_t typing_names;  /* typing's names imported so far (kc_typing_name's bits): annotations */
    int32_t math_module;   /* a module-level `import math` (math.sqrt(x) needs one: NameError) */
    kc_func *parsing;      /* the def being parsed */
    char synth[KC_SYNTH_BYTES]; int32_t n_synth, n_rewrites;  /* names no source token spells */
    int64_t scan_work;     /* nodes kc_is_local has scanned: bounded, so a program of many scans stays linear */
    int32_t filter_map_node;  /* the comprehension the last list(filter/map(...)) became */
    int32_t n_mconst, mconst_tok[KC_MAX_MCONST], mconst_node[KC_MAX_MCONST];  /* NAME = <literal> */  /* `from math import ...` anywhere: bit 0 sqrt, 1 floor, 2 ceil */
    int32_t in_def, n_nested;  /* parsing a module-level def's body (1) or a nested def's (2) */
    int32_t nested_at[KC_MAX_NESTED];  /* the `def` tokens of the nested defs in that body */
    int32_t n_effects, effect_at[KC_MAX_EFFECTS];  /* module-level expression and assert statements */
    int32_t late_from;  /* the functions defined after the first of them: funcs[late_from...] */
    /* lowering state of the function being lowered */
    kc_func *fn;
    int32_t line;
} kc_ctx;

/* ---- small helpers ---------------------------------------------------------------------------- */

KC_FN int kc_copy(char *dst, int at, int cap, const char *text) {
    while (*text && at < cap - 1) dst[at++] = *text++;
    dst[at] = 0;
    return at;
}

KC_NOINLINE KC_FN int kc_copy_int(char *dst, int at, int cap, int64_t v) {
    char buf[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do { buf[n++] = (char)('0' + (int)(u % 10)); u /= 10; } while (u && n < 22);
    if (v < 0 && at < cap - 1) dst[at++] = '-';
    while (n && at < cap - 1) dst[at++] = buf[--n];
    dst[at] = 0;
    return at;
}

/* Stops compilation: "unsupported by the batched compiler: <what> (line N)". The first wins. */
KC_NOINLINE KC_FN void kc_fail(kc_ctx *c, const char *what, int32_t line) {
    if (c->err) return;
    c->err = 1;
    int at = kc_copy(c->diag, 0, KC_DIAG_BYTES, "unsupported by the batched compiler: ");
    at = kc_copy(c->diag, at, KC_DIAG_BYTES, what);
    if (line > 0) {
        at = kc_copy(c->diag, at, KC_DIAG_BYTES, " (line ");
        at = kc_copy_int(c->diag, at, KC_DIAG_BYTES, line);
        kc_copy(c->diag, at, KC_DIAG_BYTES, ")");
    }
}

/* A diagnostic the reference compiler gives too, word for word (docs/BATCHED_COMPILER.md,
   "Diagnostics"): kc gives one only where it is sure of it. diag holds a reason text as
   kc_fail's, then at KC_DIAG_REC the record "\1LINE\37COL\37KIND\37MESSAGE" that
   compiler/batched.py reads as a CompileError; a message too long for it stays unsupported. */
#define KC_DIAG_REC 256
KC_NOINLINE KC_FN void kc_diag(kc_ctx *c, int32_t line, int32_t col, const char *kind, const char *msg) {
    c->err = 1;
    int at = kc_copy(c->diag, 0, KC_DIAG_REC, "unsupported by the batched compiler: diagnosed ");
    at = kc_copy(c->diag, at, KC_DIAG_REC, kind);
    at = kc_copy(c->diag, at, KC_DIAG_REC, " (line ");
    at = kc_copy_int(c->diag, at, KC_DIAG_REC, line);
    kc_copy(c->diag, at, KC_DIAG_REC, ")");
    char *r = c->diag + KC_DIAG_REC;
    int cap = KC_DIAG_BYTES - KC_DIAG_REC;
    int n = kc_copy(r, 0, cap, "\001");
    n = kc_copy_int(r, n, cap, line);
    n = kc_copy(r, n, cap, "\037");
    n = kc_copy_int(r, n, cap, col);
    n = kc_copy(r, n, cap, "\037");
    n = kc_copy(r, n, cap, kind);
    n = kc_copy(r, n, cap, "\037");
    n = kc_copy(r, n, cap, msg);
    if (n >= cap - 2) r[0] = 0;  /* cut short: no record */
}

KC_FN void *kc_alloc(kc_ctx *c, int64_t bytes) {
    int64_t at = (c->arena_used + 7) & ~(int64_t)7;
    if (bytes < 0 || at + bytes > c->arena_cap) {
        kc_fail(c, "program too large for its arena", 0);
        return 0;
    }
    c->arena_used = at + bytes;
    return c->arena + at;
}

/* a token's i-th character: a source token's, or (start < 0) a name a rewrite made */
KC_FN char kc_tch(const kc_ctx *c, const kc_tok *t, int i) {
    return t->start >= 0 ? c->src[t->start + i] : c->synth[-t->start - 1 + i];
}

KC_FN int kc_tok_is(const kc_ctx *c, const kc_tok *t, const char *word) {
    int i = 0;
    for (; i < t->len; i++)
        if (word[i] == 0 || kc_tch(c, t, i) != word[i]) return 0;
    return word[i] == 0;
}

/* whether the token is one of the words of a 0-ended table (kc_surface.h's) */
KC_FN int kc_tok_among(const kc_ctx *c, const kc_tok *t, const char *const *words) {
    for (int k = 0; words[k]; k++)
        if (kc_tok_is(c, t, words[k])) return 1;
    return 0;
}

KC_FN int kc_same_name(const kc_ctx *c, int32_t a, int32_t b) {
    const kc_tok *x = &c->toks[a], *y = &c->toks[b];
    if (x->len != y->len) return 0;
    for (int i = 0; i < x->len; i++)
        if (kc_tch(c, x, i) != kc_tch(c, y, i)) return 0;
    return 1;
}

/* ---- shared by the phases ----------------------------------------------------------------------- */

/* The str methods (KC_STR_METHODS ...) and the other method tables, generated from
   compiler/surface.py: the parser, the checker and lowering read them */
#include "kc_surface.h"

/* functions a phase calls before the file that defines them */
KC_FN int32_t kc_tuple_of(kc_ctx *c, int32_t n, const int32_t *args);  /* kc_types.h */
KC_FN int32_t kc_dict_of(kc_ctx *c, int32_t key, int32_t value);       /* kc_types.h */
KC_FN int32_t kc_set_of(kc_ctx *c, int32_t elem);                      /* kc_types.h */
KC_FN int kc_is_builtin(const kc_ctx *c, int32_t tok);                 /* kc_types.h */
KC_FN int32_t kc_find_func(const kc_ctx *c, int32_t tok);              /* kc_types.h */
KC_FN int64_t kc_const_int(const kc_ctx *c, int32_t k, int *known);    /* kc_lower.h */

/* ---- the phases, in order ------------------------------------------------------------------------ */

#include "kc_lex.h"
#include "kc_parse.h"
#include "kc_types.h"
#include "kc_lower.h"
#include "kc_opt.h"
#include "kc_emit.h"
#include "kc_diag.h"
#include "kc_compile.h"

#endif /* KILN_KC_H */
