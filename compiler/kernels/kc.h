/* kc: the batched kiln compiler, ONE source for the host and (later) the device.
 *
 * Compiles one kiln Python module (docs/LANGUAGE.md) to the `.kbc` container (vm/container.py),
 * byte for byte what the reference compiler (compiler/) emits with the same optimisation passes
 * (kc_config.passes: compile_source's `passes`; `loops` is applied by lowering, the others by
 * kc_opt.h). compiler/batched.py drives it; docs/BATCHED_COMPILER.md says what it covers.
 *
 * Phases, each a section below, all on one per-program arena:
 *   lex      bytes -> tokens, with NEWLINE / INDENT / DEDENT as Python's tokenizer makes them
 *   parse    tokens -> AST nodes (recursive descent, its depth capped: see KC_MAX_DEPTH)
 *   check    types from annotations and the caller's argument types; one Var per name
 *   flow     definite assignment: which reads may find a variable unbound (UnboundLocalError)
 *   lower    typed AST -> instructions with labels, in the reference's order (compiler/lower.py)
 *   passes   fold, peephole, threading, dce to a fixed point, then fuse (kc_opt.h; fold computes
 *            with the VM's own vm/kernels/scalar.h)
 *   assemble labels -> indices, maximum stack depth over the control-flow graph
 *   emit     the container: header, constants, image, types, functions, code, lines, CRC-32
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
#else
#define KC_TABLE static const
#include <stdlib.h>
#define KC_FN static
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
    int32_t type_code[8];           /* indexed by kc_type; [6]: list, [7]: tuple */
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
#define KC_MATH_OP 40      /* an E_CALL's op: 40 + the math function (kc_math_fn), 43 round, 44 bin */
#define KC_DICT_OP 50      /* an E_CALL's op: 50 dict(), 51 dict(pairs) */
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
   decided by the other side's type); PL_ISBOOL `x is True` (`==` for a bool) */
enum kc_plan { PL_NUM, PL_VALUE, PL_IN, PL_NONE, PL_ISBOOL };

typedef struct {
    int16_t kind, op;    /* op: kc_bin / kc_unary / 0 and / 1 or / kc_cmp of a comparator */
    int16_t check, spare; /* check: a read that may find the variable unbound (kcheck) */
    int32_t ty;          /* a kc type (see kc_type) */
    int32_t line, end_line, depth;
    int32_t a, b, c, d;  /* children; lists are linked through `next`; d: a slice's step */
    int32_t next;
    int32_t tok;         /* the NAME token (names, calls, raise) */
    int32_t var;
    int32_t pow_float;   /* int ** -<constant>: a float (types.py's kpow_float) */
    int64_t ival;
    double fval;
} kc_node;

typedef struct {
    int32_t name_tok, type, slot, flag, needs_check;
    int32_t hidden, active;  /* a comprehension's variable (types.py's hidden), in its scope now */
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
} kc_func;

typedef struct {
    const char *src;
    int64_t len;
    const kc_config *cfg;
    uint8_t *arena;
    int64_t arena_cap, arena_used;
    int err;  /* 1: unsupported (the reason in diag); KC_SUSPENDED: see the check phase */
    int32_t need_callee;
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

KC_FN int kc_copy_int(char *dst, int at, int cap, int64_t v) {
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
KC_FN void kc_fail(kc_ctx *c, const char *what, int32_t line) {
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
KC_FN void kc_diag(kc_ctx *c, int32_t line, int32_t col, const char *kind, const char *msg) {
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

KC_FN int kc_same_name(const kc_ctx *c, int32_t a, int32_t b) {
    const kc_tok *x = &c->toks[a], *y = &c->toks[b];
    if (x->len != y->len) return 0;
    for (int i = 0; i < x->len; i++)
        if (kc_tch(c, x, i) != kc_tch(c, y, i)) return 0;
    return 1;
}

/* ---- lex ---------------------------------------------------------------------------------------- */

KC_FN int kc_is_alpha(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
KC_FN int kc_is_digit(int ch) { return ch >= '0' && ch <= '9'; }

KC_TABLE char *const KC_KEYWORDS[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
    "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield", 0
};

/* operators, longest first within each leading character */
KC_TABLE char *const KC_PUNCT_TEXT[] = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ":=", "@=", "(", ")", "[", "]", "{", "}",
    ":", ",", ";", "+", "-", "*", "/", "|", "&", "<", ">", "=", ".", "%", "~", "^", "@", 0
};
KC_TABLE int KC_PUNCT_CODE[] = {
    P_DOUBLESTAREQUAL, P_DOUBLESLASHEQUAL, P_RIGHTSHIFTEQUAL, P_LEFTSHIFTEQUAL, P_ELLIPSIS,
    P_DOUBLESTAR, P_DOUBLESLASH, P_LSHIFT, P_RSHIFT, P_LESSEQUAL, P_GREATEREQUAL, P_EQEQUAL,
    P_NOTEQUAL, P_RARROW, P_PLUSEQUAL, P_MINEQUAL, P_STAREQUAL, P_SLASHEQUAL, P_PERCENTEQUAL,
    P_AMPEREQUAL, P_VBAREQUAL, P_CIRCUMFLEXEQUAL, P_COLONEQUAL, P_ATEQUAL, P_LPAR, P_RPAR,
    P_LSQB, P_RSQB, P_LBRACE, P_RBRACE, P_COLON, P_COMMA, P_SEMI, P_PLUS, P_MINUS, P_STAR,
    P_SLASH, P_VBAR, P_AMPER, P_LESS, P_GREATER, P_EQUAL, P_DOT, P_PERCENT, P_TILDE,
    P_CIRCUMFLEX, P_AT
};

KC_FN void kc_push_tok(kc_ctx *c, int kind, int start, int len, int line, int end_line, int col, int op) {
    if (c->err) return;
    if (c->n_toks >= c->cap_toks) {
        kc_fail(c, "too many tokens for the arena", line);
        return;
    }
    kc_tok *t = &c->toks[c->n_toks++];
    t->kind = kind; t->start = start; t->len = len; t->line = line; t->end_line = end_line;
    t->col = col; t->op = op;
}

/* A string literal starting at src[i] (a quote). Returns its end or -1. Escapes are skipped, not
   decoded: kc only ever uses the value of a string without backslashes. */
KC_FN int64_t kc_lex_string(kc_ctx *c, int64_t i, int *line) {
    const char *s = c->src;
    char q = s[i];
    int triple = i + 2 < c->len && s[i + 1] == q && s[i + 2] == q;
    i += triple ? 3 : 1;
    while (i < c->len) {
        char ch = s[i];
        if (ch == '\\') {
            if (i + 1 < c->len && s[i + 1] == '\n') (*line)++;
            i += 2;
            continue;
        }
        if (ch == '\n') {
            if (!triple) return -1;
            (*line)++;
        }
        if (ch == q) {
            if (!triple) return i + 1;
            if (i + 2 < c->len && s[i + 1] == q && s[i + 2] == q) return i + 3;
        }
        i++;
    }
    return -1;
}

/* Python's string prefixes (r u f b, rb br fr rf, any case): a name of another spelling before a
   quote is a name and a string (`return''.join(xs)`) */
KC_FN int kc_string_prefix(const char *p, int n) {
    int r = 0, u = 0, f = 0, b = 0;
    if (n < 1 || n > 2) return 0;
    for (int i = 0; i < n; i++) {
        char ch = p[i];
        if (ch == 'r' || ch == 'R') r++;
        else if (ch == 'u' || ch == 'U') u++;
        else if (ch == 'f' || ch == 'F') f++;
        else if (ch == 'b' || ch == 'B') b++;
        else return 0;
    }
    if (n == 1) return 1;
    return r == 1 && (f == 1 || b == 1);
}

KC_FN void kc_lex(kc_ctx *c) {
    const char *s = c->src;
    int64_t i = 0, line_start = 0;
    int line = 1, parens = 0, at_line_start = 1, emitted_on_line = 0;
    int indents[KC_MAX_INDENT + 1], alts[KC_MAX_INDENT + 1], n_indents = 1;
    indents[0] = alts[0] = 0;
    while (i < c->len && !c->err) {
        char ch = s[i];
        if (at_line_start && parens == 0) {
            /* the indentation as CPython's tokenizer measures it: width with tabs to the next
               multiple of 8, alt with tabs as one column; the two must order the lines alike
               (else TabError: the reference's diagnostic) */
            int width = 0, alt = 0;
            int64_t j = i;
            while (j < c->len && (s[j] == ' ' || s[j] == '\t')) {
                if (s[j] == '\t') width = (width / 8 + 1) * 8; else width++;
                alt++; j++;
            }
            if (j < c->len && s[j] == '\f') { kc_fail(c, "form feed indentation", line); return; }
            if (j >= c->len) { i = j; break; }
            if (s[j] == '#' || s[j] == '\n' || s[j] == '\r' || (s[j] == '\\' && j + 1 < c->len && s[j + 1] == '\n')) {
                if (s[j] == '\\') { kc_fail(c, "line continuation on a blank line", line); return; }
                while (j < c->len && s[j] != '\n') j++;  /* blank or comment-only line */
                if (j < c->len && s[j - 1 >= 0 ? j - 1 : 0] == '\r') { kc_fail(c, "carriage return", line); return; }
                i = j + 1; line++; line_start = i;
                continue;
            }
            if (width > indents[n_indents - 1]) {
                if (n_indents > KC_MAX_INDENT) { kc_fail(c, "indentation deeper than 100 levels", line); return; }
                if (alt <= alts[n_indents - 1]) { kc_fail(c, "inconsistent use of tabs and spaces", line); return; }
                alts[n_indents] = alt;
                indents[n_indents++] = width;
                kc_push_tok(c, TK_INDENT, (int)j, 0, line, line, width, 0);
            } else {
                while (width < indents[n_indents - 1]) {
                    n_indents--;
                    kc_push_tok(c, TK_DEDENT, (int)j, 0, line, line, width, 0);
                }
                if (width != indents[n_indents - 1]) { kc_fail(c, "inconsistent dedent", line); return; }
                if (alt != alts[n_indents - 1]) { kc_fail(c, "inconsistent use of tabs and spaces", line); return; }
            }
            i = j; at_line_start = 0; emitted_on_line = 0;
            continue;
        }
        if (ch == ' ' || ch == '\t') { i++; continue; }
        if (ch == '\f' || ch == '\r' || ch == 0 || (unsigned char)ch >= 0x80) {
            kc_fail(c, "form feed, carriage return, NUL or non-ASCII character outside a comment", line);
            return;
        }
        int col = (int)(i - line_start);
        if (ch == '#') {
            while (i < c->len && s[i] != '\n') i++;
            continue;
        }
        if (ch == '\\') {
            if (i + 1 < c->len && s[i + 1] == '\n') { i += 2; line++; line_start = i; continue; }
            kc_fail(c, "stray backslash", line);
            return;
        }
        if (ch == '\n') {
            if (parens == 0) {
                if (emitted_on_line) kc_push_tok(c, TK_NEWLINE, (int)i, 0, line, line, col, 0);
                at_line_start = 1;
            }
            i++; line++; line_start = i;
            continue;
        }
        emitted_on_line = 1;
        if (kc_is_alpha(ch)) {
            int64_t j = i;
            while (j < c->len && (kc_is_alpha(s[j]) || kc_is_digit(s[j]))) j++;
            if (j < c->len && (s[j] == '\'' || s[j] == '"') && kc_string_prefix(s + i, (int)(j - i))) { kc_fail(c, "string prefix", line); return; }
            kc_push_tok(c, TK_NAME, (int)i, (int)(j - i), line, line, col, 0);
            if (!c->err) {
                kc_tok *t = &c->toks[c->n_toks - 1];
                for (int k = 0; KC_KEYWORDS[k]; k++)
                    if (kc_tok_is(c, t, KC_KEYWORDS[k])) t->op = k + 1;
            }
            i = j;
            continue;
        }
        if (kc_is_digit(ch) || (ch == '.' && i + 1 < c->len && kc_is_digit(s[i + 1]))) {
            int64_t j = i;
            while (j < c->len && (kc_is_alpha(s[j]) || kc_is_digit(s[j]) || s[j] == '.' ||
                                  ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                                   !(j - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')))))
                j++;
            kc_push_tok(c, TK_NUMBER, (int)i, (int)(j - i), line, line, col, 0);
            i = j;
            continue;
        }
        if (ch == '\'' || ch == '"') {
            int end_line = line;
            int64_t j = kc_lex_string(c, i, &end_line);
            if (j < 0) { kc_fail(c, "unterminated string", line); return; }
            kc_push_tok(c, TK_STRING, (int)i, (int)(j - i), line, end_line, col, 0);
            for (int64_t k = i; k < j; k++)
                if (s[k] == '\n') line_start = k + 1;
            line = end_line;
            i = j;
            continue;
        }
        int matched = 0;
        for (int p = 0; KC_PUNCT_TEXT[p]; p++) {
            const char *text = KC_PUNCT_TEXT[p];
            int n = 0;
            while (text[n] && i + n < c->len && s[i + n] == text[n]) n++;
            if (text[n] == 0) {
                int code = KC_PUNCT_CODE[p];
                if (code == P_LPAR || code == P_LSQB || code == P_LBRACE) parens++;
                if (code == P_RPAR || code == P_RSQB || code == P_RBRACE) {
                    if (parens == 0) { kc_fail(c, "unmatched closing bracket", line); return; }
                    parens--;
                }
                kc_push_tok(c, TK_OP, (int)i, n, line, line, col, code);
                i += n;
                matched = 1;
                break;
            }
        }
        if (!matched) { kc_fail(c, "character outside Python's tokens", line); return; }
    }
    if (c->err) return;
    if (parens) { kc_fail(c, "unclosed bracket", line); return; }
    if (emitted_on_line && !at_line_start) kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
    while (n_indents > 1) { n_indents--; kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0); }
    kc_push_tok(c, TK_END, (int)c->len, 0, line, line, 0, 0);
}

/* ---- numbers ------------------------------------------------------------------------------------- */

/* A decimal, hex, octal or binary int literal (underscores between digits). 0 on success. */
KC_FN int kc_parse_int(const char *s, int n, int64_t *out, int *too_big) {
    int base = 10, i = 0;
    *too_big = 0;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; i = 2; }
    else if (n >= 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) { base = 8; i = 2; }
    else if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) { base = 2; i = 2; }
    uint64_t v = 0;
    int digits = 0, prev_underscore = base != 10, nonzero = 0;  /* 0x_1 is valid */
    for (; i < n; i++) {
        char ch = s[i];
        if (ch == '_') {
            if (prev_underscore && !(base != 10 && digits == 0 && i == 2)) return -1;
            if (digits == 0 && base == 10) return -1;
            prev_underscore = 1;
            continue;
        }
        int d;
        if (ch >= '0' && ch <= '9') d = ch - '0';
        else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
        else if (ch >= 'A' && ch <= 'F') d = ch - 'A' + 10;
        else return -1;
        if (d >= base) return -1;
        if (d) nonzero = 1;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) *too_big = 1;
        else v = v * (uint64_t)base + (uint64_t)d;
        digits++;
        prev_underscore = 0;
    }
    if (digits == 0 || prev_underscore) return -1;
    if (base == 10 && s[0] == '0' && nonzero) return -1;  /* 012 is a syntax error */
    if (v > (uint64_t)INT64_MAX) *too_big = 1;
    *out = (int64_t)v;
    return 0;
}

KC_TABLE double KC_POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A float literal, correctly rounded: exactly (Clinger's fast path: at most 15 significant digits
   and a power of ten up to 22) everywhere, by strtod on the host otherwise. 0 on success, 1 where
   the device would need the slow path, -1 for a malformed literal. `followed`: more source
   follows the literal (else strtod could read past it: it gets a copy). */
KC_FN int kc_parse_float(const char *s, int n, int followed, double *out) {
    uint64_t mant = 0;
    int sig = 0, frac_digits = 0, int_dropped = 0, dropped = 0, seen_digit = 0, seen_dot = 0;
    int seen_exp = 0, exp_sign = 1, exp_digits = 0, underscores = 0;
    int64_t e10 = 0;
    for (int i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '_') {  /* only between two digits */
            if (!(i > 0 && kc_is_digit(s[i - 1]) && i + 1 < n && kc_is_digit(s[i + 1]))) return -1;
            underscores = 1;
        } else if (kc_is_digit(ch) && seen_exp) {
            if (e10 < 1000000) e10 = e10 * 10 + (ch - '0');
            exp_digits++;
        } else if (kc_is_digit(ch)) {
            seen_digit = 1;
            if (mant == 0 && ch == '0') {
                if (seen_dot) frac_digits++;
            } else if (sig < 19) {
                mant = mant * 10 + (uint64_t)(ch - '0');
                sig++;
                if (seen_dot) frac_digits++;
            } else {
                dropped = 1;
                if (!seen_dot) int_dropped++;
            }
        } else if (ch == '.' && !seen_dot && !seen_exp) {
            seen_dot = 1;
        } else if ((ch == 'e' || ch == 'E') && !seen_exp && seen_digit) {
            seen_exp = 1;
            if (i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-')) exp_sign = s[++i] == '-' ? -1 : 1;
        } else {
            return -1;
        }
    }
    if (!seen_digit || (seen_exp && exp_digits == 0)) return -1;
    int64_t scale = exp_sign * e10 + int_dropped - frac_digits;
    if (!dropped && sig <= 15 && scale >= -22 && scale <= 22) {
        double v = (double)mant;
        *out = scale >= 0 ? v * KC_POW10[scale] : v / KC_POW10[-scale];
        return 0;
    }
    if (mant == 0) { *out = 0.0; return 0; }
#ifdef __CUDACC__
    (void)underscores;
    return 1;
#else
    if (!underscores && followed) {  /* strtod stops where the token ends: at an operator or a space */
        *out = strtod(s, 0);
        return 0;
    }
    char buf[512];
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] == '_') continue;
        if (m >= (int)sizeof(buf) - 1) return 1;
        buf[m++] = s[i];
    }
    buf[m] = 0;
    *out = strtod(buf, 0);
    return 0;
#endif
}

/* ---- parse ---------------------------------------------------------------------------------------- */

KC_FN kc_tok *kc_peek(kc_ctx *c) { return &c->toks[c->pos]; }
KC_FN kc_tok *kc_peek2(kc_ctx *c) { return &c->toks[c->pos + 1 < c->n_toks ? c->pos + 1 : c->pos]; }
KC_FN int kc_at_op(kc_ctx *c, int op) { kc_tok *t = kc_peek(c); return t->kind == TK_OP && t->op == op; }
KC_FN int kc_at_kw(kc_ctx *c, const char *kw) { kc_tok *t = kc_peek(c); return t->kind == TK_NAME && t->op && kc_tok_is(c, t, kw); }
/* a NAME token's `op` is 1 + its keyword's index in KC_KEYWORDS, or 0 (set by the lexer) */
KC_FN int kc_is_keyword(const kc_ctx *c, const kc_tok *t) { (void)c; return t->kind == TK_NAME && t->op != 0; }
KC_FN kc_tok *kc_next(kc_ctx *c) {
    kc_tok *t = &c->toks[c->pos];
    if (t->kind != TK_END) c->pos++;
    return t;
}
KC_FN int kc_expect_op(kc_ctx *c, int op, const char *what) {
    if (c->err) return 0;
    if (!kc_at_op(c, op)) { kc_fail(c, what, kc_peek(c)->line); return 0; }
    kc_next(c);
    return 1;
}
KC_FN int kc_prev_end_line(kc_ctx *c) { return c->pos > 0 ? c->toks[c->pos - 1].end_line : 1; }

KC_FN int32_t kc_node_new(kc_ctx *c, int kind, int line) {
    if (c->err) return -1;
    if (c->n_nodes >= c->cap_nodes) { kc_fail(c, "too many nodes for the arena", line); return -1; }
    int32_t k = c->n_nodes++;
    kc_node *n = &c->nodes[k];
    n->kind = (int16_t)kind; n->op = 0; n->ty = T_UNKNOWN; n->check = 0; n->spare = 0;
    n->line = line; n->end_line = line; n->depth = 1;
    n->a = n->b = n->c = n->d = n->next = n->tok = n->var = -1;
    n->pow_float = 0; n->ival = 0; n->fval = 0.0;
    return k;
}

/* A node's depth is one more than its deepest child's: the later phases recurse along it. */
KC_FN void kc_child_depth(kc_ctx *c, int32_t parent, int32_t child) {
    if (c->err || parent < 0 || child < 0) return;
    int d = c->nodes[child].depth + 1;
    if (d > c->nodes[parent].depth) c->nodes[parent].depth = d;
    if (d > KC_MAX_DEPTH) kc_fail(c, "nesting deeper than the batched compiler's limit", c->nodes[parent].line);
}

KC_FN int32_t kc_expr(kc_ctx *c);
KC_FN int32_t kc_postfix(kc_ctx *c, int32_t k);

/* The str methods (KC_STR_METHODS ...), generated from compiler/surface.py */
#include "kc_surface.h"

/* frontend.py's MATH_FUNCTIONS (its methods: KC_METHODS and KC_STR_METHODS, in kc_surface.h) */
KC_TABLE char *const KC_MATH[] = {"sqrt", "floor", "ceil", 0};

KC_FN int kc_math_fn(const kc_ctx *c, const kc_tok *t) {
    for (int m = 0; KC_MATH[m]; m++)
        if (kc_tok_is(c, t, KC_MATH[m])) return m;
    return -1;
}

/* lambda NAME ':' (one parameter: frontend.py's _unary_function takes no other): its parameter's
   token; the body is the caller's kc_expr (kc_lambda_node makes the node) */
KC_FN int32_t kc_lambda_head(kc_ctx *c) {
    kc_tok *t = kc_next(c);
    kc_tok *p = kc_next(c);
    if (p->kind != TK_NAME || kc_is_keyword(c, p) || !kc_at_op(c, P_COLON)) { kc_fail(c, "lambda other than of one parameter", t->line); return -1; }
    kc_next(c);
    return (int32_t)(p - c->toks);
}

KC_FN int32_t kc_lambda_node(kc_ctx *c, int32_t param, int32_t body) {
    if (c->err || param < 0 || body < 0) return -1;
    int32_t k = kc_node_new(c, E_LAMBDA, c->toks[param].line);
    if (k < 0) return -1;
    c->nodes[k].tok = param;
    c->nodes[k].a = body;
    kc_child_depth(c, k, body);
    return k;
}

/* a name no source token spells: `word` and, when numbered, the rewrite's number (frontend.py's
   $key_i1 ...); a token after the end (kind TK_END: the parser never reads it) */
KC_FN int32_t kc_synth_name(kc_ctx *c, const char *word, int numbered, int line) {
    char text[40];
    int n = kc_copy(text, 0, 32, word);
    if (numbered) n = kc_copy_int(text, n, 40, c->n_rewrites);
    if (c->n_toks >= c->cap_toks || c->n_synth + n > KC_SYNTH_BYTES) { kc_fail(c, "too many rewritten names", line); return -1; }
    kc_tok *t = &c->toks[c->n_toks];
    t->kind = TK_END; t->start = -(c->n_synth + 1); t->len = n; t->line = t->end_line = line; t->col = 0; t->op = 0;
    for (int i = 0; i < n; i++) c->synth[c->n_synth + i] = text[i];
    c->n_synth += n;
    return c->n_toks++;
}

KC_FN int32_t kc_name_node(kc_ctx *c, int32_t tok, int line) {
    int32_t k = kc_node_new(c, E_NAME, line);
    if (k >= 0) c->nodes[k].tok = tok;
    return k;
}

/* a list comprehension [elt for target in iter (if cond)] */
KC_FN int32_t kc_comp_node(kc_ctx *c, int32_t elt, int32_t target, int32_t iter, int32_t cond, int line) {
    int32_t comp = kc_node_new(c, E_LISTCOMP, line), g = kc_node_new(c, E_COMPFOR, line);
    if (c->err || comp < 0 || g < 0) return -1;
    c->nodes[g].a = target; c->nodes[g].b = iter; c->nodes[g].c = cond; c->nodes[g].d = comp;
    kc_child_depth(c, g, iter);
    kc_child_depth(c, g, cond);
    c->nodes[comp].a = elt; c->nodes[comp].b = g;
    kc_child_depth(c, comp, elt);
    kc_child_depth(c, comp, g);
    if (++c->nodes[comp].depth > KC_MAX_DEPTH) kc_fail(c, "nesting deeper than the batched compiler's limit", line);
    return c->err ? -1 : comp;
}

/* frontend.py's _unary_function: lambda v: E -> (v, E); a name f -> ($f_arg, f($f_arg)). The
   variable's token in *var; the body, or -1 */
KC_FN int32_t kc_unary_function(kc_ctx *c, int32_t f, int32_t *var) {
    kc_node *n = &c->nodes[f];
    if (n->kind == E_LAMBDA) { *var = n->tok; return n->a; }
    if (n->kind != E_NAME) return -1;
    int32_t fn_tok = n->tok, line = n->line;
    char word[40];
    int at = kc_copy(word, 0, 40, "$");
    const kc_tok *ft = &c->toks[fn_tok];
    for (int i = 0; i < ft->len && at < 30; i++) word[at++] = kc_tch(c, ft, i);
    word[at] = 0;
    kc_copy(word, at, 40, "_arg");
    if (ft->len > 24) { kc_fail(c, "long function name as a key", line); return -1; }
    *var = kc_synth_name(c, word, 0, line);
    int32_t arg = kc_name_node(c, *var, line), call = kc_node_new(c, E_CALL, line);
    if (c->err || arg < 0 || call < 0) return -1;
    c->nodes[call].tok = fn_tok;
    c->nodes[call].a = arg;
    c->nodes[call].ival = 1;
    kc_child_depth(c, call, arg);
    return call;
}

/* frontend.py's _Functionals.view_list: a dict view given to a builtin that consumes it at once
   is the list of its items: d.keys() -> [$k for $k in d.keys()], d.items() -> [($k, $v) for $k,
   $v in d.items()] (the arguments relinked; all and any keep their view: _rewrite_generators made
   it a generator first) */
KC_FN int32_t kc_view_lists(kc_ctx *c, int32_t args) {
    int32_t head = args, prev = -1;
    for (int32_t a = args; a >= 0 && !c->err; prev = a, a = c->nodes[a].next) {
        kc_node *n = &c->nodes[a];
        if (n->kind != E_METHOD || n->ival != 0 || n->spare) continue;
        int items = kc_tok_is(c, &c->toks[n->tok], "items");
        if (!items && !kc_tok_is(c, &c->toks[n->tok], "keys") && !kc_tok_is(c, &c->toks[n->tok], "values")) continue;
        int32_t line = n->line, next = n->next;
        c->n_rewrites++;
        int32_t kt = kc_synth_name(c, "$view_k", 1, line), vt = items ? kc_synth_name(c, "$view_v", 1, line) : -1;
        if (c->err) return -1;
        int32_t elt = kc_name_node(c, kt, line), target = kc_name_node(c, kt, line);
        if (items) {
            int32_t ev = kc_name_node(c, vt, line), tv = kc_name_node(c, vt, line);
            int32_t et = kc_node_new(c, E_TUPLE, line), tt = kc_node_new(c, E_TUPLE, line);
            if (c->err) return -1;
            c->nodes[elt].next = ev; c->nodes[et].a = elt;
            kc_child_depth(c, et, elt);
            c->nodes[target].next = tv; c->nodes[tt].a = target;
            elt = et; target = tt;
        }
        c->nodes[a].next = -1;
        int32_t comp = kc_comp_node(c, elt, target, a, -1, line);
        if (c->err) return -1;
        c->nodes[comp].next = next;
        if (prev < 0) head = comp; else c->nodes[prev].next = comp;
        a = comp;
    }
    return head;
}

/* sorted(xs, key=f[, reverse=r]) -> [$d[2] for $d in sorted([(f(v), $i, v) for $i, v in
   enumerate(xs)][, reverse=r])] (-$i when r is True): frontend.py's _Functionals */
KC_FN int32_t kc_sorted_by_key(kc_ctx *c, int32_t call) {
    kc_node *n = &c->nodes[call];
    int line = n->line;
    if (!kc_tok_is(c, &c->toks[n->tok], "sorted") || n->ival != 1) { kc_fail(c, "keyword argument key= but of sorted(xs, key=...)", line); return -1; }
    int32_t xs = n->a, var = -1, key = n->c, sorted_tok = n->tok, reverse = n->spare;
    if (c->nodes[xs].kind == E_LISTCOMP && c->nodes[xs].spare) { kc_fail(c, "generator expression sorted by a key", line); return -1; }
    if (c->nodes[xs].kind == E_CALL && kc_tok_is(c, &c->toks[c->nodes[xs].tok], "list") && c->nodes[xs].ival == 1 && !c->nodes[xs].spare &&
        c->nodes[xs].c < 0 && !(c->nodes[c->nodes[xs].a].kind == E_CALL && kc_tok_is(c, &c->toks[c->nodes[c->nodes[xs].a].tok], "reversed")))
        xs = c->nodes[xs].a;  /* _rewrite_generators first: sorted(list(x)) is sorted(x) */
    c->n_rewrites++;
    int32_t body = kc_unary_function(c, key, &var);
    int32_t idx_tok = kc_synth_name(c, "$key_i", 1, line), dec_tok = kc_synth_name(c, "$key_d", 1, line);
    int32_t enum_tok = kc_synth_name(c, "enumerate", 0, line);
    if (c->err || body < 0) return -1;
    c->nodes[xs].next = -1;
    /* [(body, $i or -$i, v) for $i, v in enumerate(xs)] */
    int32_t index = kc_name_node(c, idx_tok, line);
    if (reverse == 1) {
        int32_t neg = kc_node_new(c, E_UNARY, line);
        if (neg < 0) return -1;
        c->nodes[neg].op = U_NEG; c->nodes[neg].a = index;
        kc_child_depth(c, neg, index);
        index = neg;
    }
    int32_t item = kc_name_node(c, var, line), elt = kc_node_new(c, E_TUPLE, line);
    int32_t t_i = kc_name_node(c, idx_tok, line), t_v = kc_name_node(c, var, line), target = kc_node_new(c, E_TUPLE, line);
    int32_t en = kc_node_new(c, E_CALL, line);
    if (c->err) return -1;
    c->nodes[body].next = index; c->nodes[index].next = item;
    c->nodes[elt].a = body;
    kc_child_depth(c, elt, body); kc_child_depth(c, elt, index); kc_child_depth(c, elt, item);
    c->nodes[t_i].next = t_v;
    c->nodes[target].a = t_i;
    c->nodes[en].tok = enum_tok; c->nodes[en].a = xs; c->nodes[en].ival = 1;
    kc_child_depth(c, en, xs);
    int32_t decorated = kc_comp_node(c, elt, target, en, -1, line);
    /* sorted(decorated[, reverse=r]) */
    int32_t ordered = kc_node_new(c, E_CALL, line);
    if (c->err || decorated < 0) return -1;
    c->nodes[ordered].tok = sorted_tok; c->nodes[ordered].a = decorated; c->nodes[ordered].ival = 1;
    c->nodes[ordered].spare = (int16_t)reverse;
    kc_child_depth(c, ordered, decorated);
    /* [$d[2] for $d in ordered] */
    int32_t d = kc_name_node(c, dec_tok, line), two = kc_node_new(c, E_INT, line), sub = kc_node_new(c, E_INDEX, line);
    int32_t dt = kc_name_node(c, dec_tok, line);
    if (c->err) return -1;
    c->nodes[two].ival = 2;
    c->nodes[sub].a = d; c->nodes[sub].b = two;
    kc_child_depth(c, sub, d); kc_child_depth(c, sub, two);
    return kc_comp_node(c, sub, dt, ordered, -1, line);
}

KC_FN int32_t kc_binary(kc_ctx *c, int kind, int op, int32_t left, int32_t right);

/* frontend.py's _plain_operand: a name or a number literal (possibly negated or with +) */
KC_FN int kc_plain_operand(const kc_ctx *c, int32_t k) {
    const kc_node *n = &c->nodes[k];
    if (n->kind == E_UNARY && (n->op == U_NEG || n->op == U_POS)) n = &c->nodes[n->a];
    return n->kind == E_INT || n->kind == E_FLOAT || n->kind == E_BOOL || n->kind == E_NAME;
}

/* a copy of a plain operand (kc_plain_operand), for divmod's second reading */
KC_FN int32_t kc_copy_plain(kc_ctx *c, int32_t k) {
    int32_t copy = kc_node_new(c, c->nodes[k].kind, c->nodes[k].line);
    if (copy < 0) return -1;
    c->nodes[copy] = c->nodes[k];
    c->nodes[copy].next = -1;
    if (c->nodes[k].kind == E_UNARY) {
        int32_t inner = kc_copy_plain(c, c->nodes[k].a);
        if (inner < 0) return -1;
        c->nodes[copy].a = inner;
    }
    return copy;
}

/* frontend.py's _SpelledForms: pow(x, y) is x ** y; divmod(a, b) of plain operands is (a // b,
   a % b), both at the call's line */
KC_FN int32_t kc_spelled_pow_divmod(kc_ctx *c, int32_t call) {
    int line = c->nodes[call].line;
    int32_t a = c->nodes[call].a, b = c->nodes[a].next;
    c->nodes[a].next = -1;
    c->n_rewrites++;
    if (kc_tok_is(c, &c->toks[c->nodes[call].tok], "pow")) {
        int32_t k = kc_binary(c, E_BINOP, B_POW, a, b);
        if (k >= 0) c->nodes[k].line = line;
        return k;
    }
    int32_t a2 = kc_copy_plain(c, a), b2 = kc_copy_plain(c, b);
    if (c->err) return -1;
    int32_t q = kc_binary(c, E_BINOP, B_FLOORDIV, a, b), r = kc_binary(c, E_BINOP, B_MOD, a2, b2);
    int32_t pair = kc_node_new(c, E_TUPLE, line);
    if (c->err || pair < 0) return -1;
    c->nodes[q].line = c->nodes[r].line = line;
    c->nodes[q].next = r;
    c->nodes[pair].a = q;
    kc_child_depth(c, pair, q);
    kc_child_depth(c, pair, r);
    return pair;
}

/* whether k is map(f, xs) or filter(f, xs) with f a lambda or a name, no keywords */
KC_FN int kc_is_map_filter(kc_ctx *c, int32_t k) {
    const kc_node *n = &c->nodes[k];
    return n->kind == E_CALL && !n->op && n->tok >= 0 && (kc_tok_is(c, &c->toks[n->tok], "filter") || kc_tok_is(c, &c->toks[n->tok], "map")) &&
           n->ival == 2 && !n->spare && n->c < 0 && (c->nodes[n->a].kind == E_LAMBDA || c->nodes[n->a].kind == E_NAME);
}

/* frontend.py's _SpelledForms.map_items: map(f, xs) -> [f(v) for v in xs], filter(f, xs) -> [v
   for v in xs if f(v)] (a generator expression with `generator`: all, any), inner a
   kc_is_map_filter call; its `next` kept */
KC_FN int32_t kc_map_items(kc_ctx *c, int32_t inner, int generator) {
    int32_t line = c->nodes[inner].line, var = -1, next = c->nodes[inner].next;
    int is_filter = kc_tok_is(c, &c->toks[c->nodes[inner].tok], "filter");
    int32_t f = c->nodes[inner].a, xs = c->nodes[f].next;
    c->n_rewrites++;
    int32_t body = kc_unary_function(c, f, &var);
    if (c->err || body < 0) { kc_fail(c, "map or filter of something other than a one-parameter lambda or a name", line); return -1; }
    c->nodes[body].next = -1;
    c->nodes[xs].next = -1;
    int32_t target = kc_name_node(c, var, line);
    int32_t elt = is_filter ? kc_name_node(c, var, line) : body;
    int32_t comp = kc_comp_node(c, elt, target, xs, is_filter ? body : -1, line);
    if (c->err || comp < 0) return -1;
    if (generator) c->nodes[comp].spare = 1;
    c->nodes[comp].next = next;
    return comp;
}

/* list(filter(f, xs)) -> [v for v in xs if f(v)]; list(map(f, xs)) -> [f(v) for v in xs] */
KC_FN int32_t kc_filter_map(kc_ctx *c, int32_t call) {
    kc_node *n = &c->nodes[call];
    int32_t inner = n->a, line = n->line, var = -1;
    int is_filter = kc_tok_is(c, &c->toks[c->nodes[inner].tok], "filter");
    int32_t f = c->nodes[inner].a, xs = c->nodes[f].next;
    c->n_rewrites++;
    int32_t body = kc_unary_function(c, f, &var);
    if (c->err || body < 0) { kc_fail(c, "filter or map of something other than a one-parameter lambda or a name", line); return -1; }
    c->nodes[body].next = -1;
    int32_t target = kc_name_node(c, var, line);
    int32_t elt = is_filter ? kc_name_node(c, var, line) : body;
    c->filter_map_node = kc_comp_node(c, elt, target, xs, is_filter ? body : -1, line);
    return c->filter_map_node;
}

/* arguments: expression (',' expression)* [','] -- keywords, starred and generators are refused */
KC_FN void kc_comp_generators(kc_ctx *c, int32_t comp);

/* arguments: expression (',' expression)* [','] ['reverse' '=' (True | False)] | expression
   comp_for (a generator expression as the sole argument: an E_LISTCOMP whose spare is 1, which
   the consumers types.py rewrites to a list comprehension accept). The call's spare: 1 for
   reverse=True, 2 for reverse=False; other keywords, starred arguments: unsupported. */
KC_FN int32_t kc_call_args(kc_ctx *c, int32_t call, int *count) {
    int32_t head = -1, tail = -1;
    *count = 0;
    while (!c->err && !kc_at_op(c, P_RPAR)) {
        kc_tok *t = kc_peek(c);
        if (t->kind == TK_NAME && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_EQUAL) {
            kc_next(c);
            kc_next(c);
            if (kc_tok_is(c, t, "key") && c->nodes[call].c < 0 && c->nodes[call].kind == E_CALL) {
                /* sorted(xs, key=f): rewritten by kc_sorted_by_key, as frontend.py's _Functionals */
                int32_t f = -1;
                if (kc_at_kw(c, "lambda")) {
                    int32_t param = kc_lambda_head(c);
                    if (c->err) return -1;
                    f = kc_lambda_node(c, param, kc_expr(c));
                }
                else if (kc_peek(c)->kind == TK_NAME && !kc_is_keyword(c, kc_peek(c)) && kc_peek2(c)->kind == TK_OP &&
                         (kc_peek2(c)->op == P_COMMA || kc_peek2(c)->op == P_RPAR)) {
                    f = kc_node_new(c, E_NAME, kc_peek(c)->line);
                    if (f >= 0) c->nodes[f].tok = (int32_t)(kc_next(c) - c->toks);
                }
                if (c->err || f < 0) { kc_fail(c, "keyword argument key= other than a one-parameter lambda or a name", t->line); return -1; }
                c->nodes[call].c = f;
            } else {
                kc_tok *v = kc_next(c);
                if (!kc_tok_is(c, t, "reverse") || c->nodes[call].spare || !(kc_tok_is(c, v, "True") || kc_tok_is(c, v, "False"))) {
                    kc_fail(c, "keyword argument other than reverse=True or False", t->line);
                    return -1;
                }
                c->nodes[call].spare = (int16_t)(kc_tok_is(c, v, "True") ? 1 : 2);
            }
            if (kc_at_op(c, P_RPAR)) break;
            if (!kc_at_op(c, P_COMMA)) { kc_fail(c, "call syntax", t->line); return -1; }
            kc_next(c);
            if (kc_at_op(c, P_RPAR)) break;
            kc_tok *u = kc_peek(c);
            if (!(u->kind == TK_NAME && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_EQUAL)) {
                kc_fail(c, "positional argument after a keyword", u->line);
                return -1;
            }
            continue;
        }
        int32_t param = kc_at_kw(c, "lambda") ? kc_lambda_head(c) : -1;
        if (c->err) return -1;
        int32_t a = kc_expr(c);
        if (param >= 0) a = kc_lambda_node(c, param, a);
        if (c->err) return -1;
        if (kc_at_kw(c, "for")) {  /* a generator expression */
            if (tail >= 0) { kc_fail(c, "generator expression", kc_peek(c)->line); return -1; }
            int32_t comp = kc_node_new(c, E_LISTCOMP, c->nodes[a].line);
            if (comp < 0) return -1;
            c->nodes[comp].a = a;
            c->nodes[comp].spare = 1;
            kc_child_depth(c, comp, a);
            kc_comp_generators(c, comp);
            if (c->err) return -1;
            if (!kc_at_op(c, P_RPAR)) { kc_fail(c, "generator expression", kc_peek(c)->line); return -1; }
            a = comp;
        }
        kc_child_depth(c, call, a);
        if (tail < 0) head = a; else c->nodes[tail].next = a;
        tail = a;
        (*count)++;
        if (!kc_at_op(c, P_COMMA)) break;
        kc_next(c);
    }
    kc_expect_op(c, P_RPAR, "call syntax");
    return head;
}

/* a slice part: an expression, or none before ':' or ']' */
KC_FN int32_t kc_slice_part(kc_ctx *c, int32_t parent) {
    if (kc_at_op(c, P_COLON) || kc_at_op(c, P_RSQB)) return -1;
    int32_t e = kc_expr(c);
    kc_child_depth(c, parent, e);
    return e;
}

KC_FN int32_t kc_boolop(kc_ctx *c, int is_or);

/* a loop target: NAME, or NAME (',' NAME)+ [','] (an E_TUPLE of names, linked by next), maybe
   in parentheses, then 'in' */
KC_FN int32_t kc_loop_target(kc_ctx *c, int line) {
    int32_t first = -1, last = -1, count = 0;
    int parens = kc_at_op(c, P_LPAR), trailing = 0;
    if (parens) kc_next(c);
    while (!c->err) {
        kc_tok *name = kc_peek(c);
        if (name->kind != TK_NAME || kc_is_keyword(c, name)) { kc_fail(c, "loop target other than names", line); return -1; }
        kc_next(c);
        int32_t e = kc_node_new(c, E_NAME, name->line);
        if (e < 0) return -1;
        c->nodes[e].tok = (int32_t)(name - c->toks);
        if (last < 0) first = e; else c->nodes[last].next = e;
        last = e;
        count++;
        trailing = 0;
        if (!kc_at_op(c, P_COMMA)) break;
        kc_next(c);
        trailing = 1;
        if (kc_at_kw(c, "in") || kc_at_op(c, P_RPAR)) break;
    }
    if (parens && !kc_expect_op(c, P_RPAR, "loop target syntax")) return -1;
    if (c->err || !kc_at_kw(c, "in")) { kc_fail(c, "loop target other than names", line); return -1; }
    kc_next(c);
    if (count == 1 && !trailing) return first;
    int32_t tuple = kc_node_new(c, E_TUPLE, c->nodes[first].line);
    if (tuple >= 0) c->nodes[tuple].a = first;
    return tuple;
}

/* a comprehension's generators: ('for' NAME 'in' disjunction ('if' disjunction)*)+, each an
   E_COMPFOR node (a: target, b: iterable, c: conditions, d: the comprehension), linked by next */
KC_FN void kc_comp_generators(kc_ctx *c, int32_t comp) {
    int32_t tail = -1;
    while (!c->err && kc_at_kw(c, "for")) {
        kc_tok *t = kc_next(c);
        int32_t target = kc_loop_target(c, t->line);
        int32_t g = kc_node_new(c, E_COMPFOR, t->line);
        if (c->err || g < 0) return;
        c->nodes[g].a = target;
        c->nodes[g].d = comp;
        /* the iterable and conditions may hold comprehensions themselves: a level each */
        if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", t->line); return; }
        c->nodes[g].b = kc_boolop(c, 1);
        c->depth--;
        kc_child_depth(c, g, c->nodes[g].b);
        int32_t last = -1;
        while (!c->err && kc_at_kw(c, "if")) {
            kc_next(c);
            if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", t->line); return; }
            int32_t cond = kc_boolop(c, 1);
            c->depth--;
            if (c->err) return;
            kc_child_depth(c, g, cond);
            if (last < 0) c->nodes[g].c = cond; else c->nodes[last].next = cond;
            last = cond;
        }
        if (c->err) return;
        if (kc_at_kw(c, "async")) { kc_fail(c, "async comprehension", t->line); return; }
        if (tail < 0) c->nodes[comp].b = g; else c->nodes[tail].next = g;
        tail = g;
        kc_child_depth(c, comp, g);
        /* lowering nests one loop per generator: each counts as a level */
        if (++c->nodes[comp].depth > KC_MAX_DEPTH) kc_fail(c, "nesting deeper than the batched compiler's limit", t->line);
    }
}

/* trailers of a primary: '[' index ']' | '[' [lower] ':' [upper] [':' [step]] ']' |
   '.' NAME '(' arguments ')'  (other attributes, and calls of anything but a name: unsupported) */
KC_FN int32_t kc_postfix(kc_ctx *c, int32_t k) {
    while (!c->err && k >= 0) {
        kc_tok *t = kc_peek(c);
        if (kc_at_op(c, P_LSQB)) {
            kc_next(c);
            if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", t->line); return -1; }
            int32_t first = kc_slice_part(c, k);
            if (c->err) return -1;
            int32_t n;
            if (kc_at_op(c, P_COLON)) {
                n = kc_node_new(c, E_SLICE, t->line);
                if (n < 0) return -1;
                kc_next(c);
                c->nodes[n].b = first;
                c->nodes[n].c = kc_slice_part(c, n);
                if (!c->err && kc_at_op(c, P_COLON)) {
                    kc_next(c);
                    c->nodes[n].d = kc_slice_part(c, n);
                }
                if (first >= 0) kc_child_depth(c, n, first);
            } else {
                if (first < 0 || kc_at_op(c, P_COMMA)) { kc_fail(c, "subscript form", t->line); return -1; }
                n = kc_node_new(c, E_INDEX, t->line);
                if (n < 0) return -1;
                c->nodes[n].b = first;
                kc_child_depth(c, n, first);
            }
            c->depth--;
            if (!kc_expect_op(c, P_RSQB, "subscript syntax")) return -1;
            c->nodes[n].line = c->nodes[k].line;
            c->nodes[n].a = k;
            kc_child_depth(c, n, k);
            k = n;
        } else if (kc_at_op(c, P_DOT)) {
            kc_next(c);
            kc_tok *name = kc_next(c);
            if (name->kind != TK_NAME || kc_is_keyword(c, name) || !kc_at_op(c, P_LPAR)) {
                kc_fail(c, "attribute other than a method call", t->line);
                return -1;
            }
            kc_next(c);
            /* frontend.py's _is_supported_method_call: a method of _METHODS, math's of MATH_FUNCTIONS
               (checked even in a function no call ever types) */
            int is_math = c->nodes[k].kind == E_NAME && kc_tok_is(c, &c->toks[c->nodes[k].tok], "math"), known = 0;
            if (is_math) known = kc_math_fn(c, name) >= 0;
            else
                for (int m = 0; KC_METHODS[m] && !known; m++) known = kc_tok_is(c, name, KC_METHODS[m]);
            for (int m = 0; !is_math && KC_STR_METHODS[m] && !known; m++) known = kc_tok_is(c, name, KC_STR_METHODS[m]);
            if (!known) { kc_fail(c, "attribute other than a method call", t->line); return -1; }
            int32_t n = kc_node_new(c, E_METHOD, c->nodes[k].line);
            if (n < 0) return -1;
            c->nodes[n].tok = (int32_t)(name - c->toks);
            c->nodes[n].a = k;
            kc_child_depth(c, n, k);
            int count = 0;
            c->nodes[n].b = kc_call_args(c, n, &count);
            c->nodes[n].ival = count;
            if (!c->err && count == 1 && !c->nodes[n].spare && c->nodes[n].c < 0 && kc_tok_is(c, name, "join") && kc_is_map_filter(c, c->nodes[n].b)) {
                c->nodes[n].b = kc_map_items(c, c->nodes[n].b, 0);  /* sep.join(map(f, xs)): _SpelledForms */
                if (c->err) return -1;
            }
            k = n;
        } else if (kc_at_op(c, P_LPAR)) {
            kc_fail(c, "call of something other than a name", t->line);
            return -1;
        } else {
            break;
        }
    }
    return c->err ? -1 : k;
}

/* atom: NAME | NUMBER | STRING | True | False | None | '(' [expression (',' expression)* [',']] ')'
   | '[' [expression (',' expression)* [',']] ']'
   primary: atom trailer* | NAME '(' arguments ')' trailer* */
KC_FN int32_t kc_atom(kc_ctx *c) {
    if (c->err) return -1;
    kc_tok *t = kc_peek(c);
    int32_t k;
    if (t->kind == TK_NUMBER) {
        kc_next(c);
        const char *text = c->src + t->start;
        int is_float = 0;
        int hex = t->len >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        for (int i = 0; i < t->len; i++) {
            char ch = text[i];
            if (ch == 'j' || ch == 'J') { kc_fail(c, "complex literal", t->line); return -1; }
            if (!hex && (ch == '.' || ch == 'e' || ch == 'E')) is_float = 1;
        }
        if (is_float) {
            k = kc_node_new(c, E_FLOAT, t->line);
            if (k < 0) return -1;
            int r = kc_parse_float(text, t->len, t->start + t->len < c->len, &c->nodes[k].fval);
            if (r < 0) { kc_fail(c, "malformed number", t->line); return -1; }
            if (r > 0) { kc_fail(c, "float literal beyond the fast path", t->line); return -1; }
        } else {
            k = kc_node_new(c, E_INT, t->line);
            if (k < 0) return -1;
            int too_big = 0;
            if (kc_parse_int(text, t->len, &c->nodes[k].ival, &too_big)) {
                kc_fail(c, "malformed number", t->line);
                return -1;
            }
            if (too_big) { kc_fail(c, "int literal outside 64 bits", t->line); return -1; }
        }
        return k;
    }
    if (t->kind == TK_STRING) {
        kc_next(c);
        if (kc_peek(c)->kind == TK_STRING) { kc_fail(c, "implicit string concatenation", t->line); return -1; }
        k = kc_node_new(c, E_STR, t->line);
        if (k < 0) return -1;
        c->nodes[k].tok = (int32_t)(t - c->toks);
        c->nodes[k].end_line = t->end_line;
        return kc_postfix(c, k);
    }
    if (t->kind == TK_NAME) {
        if (kc_tok_is(c, t, "True") || kc_tok_is(c, t, "False")) {
            kc_next(c);
            k = kc_node_new(c, E_BOOL, t->line);
            if (k >= 0) c->nodes[k].ival = kc_tok_is(c, t, "True");
            return k;
        }
        if (kc_tok_is(c, t, "None")) {
            kc_next(c);
            return kc_node_new(c, E_NONE, t->line);
        }
        if (kc_is_keyword(c, t)) { kc_fail(c, "keyword in an expression", t->line); return -1; }
        kc_next(c);
        int32_t tok = (int32_t)(t - c->toks);
        if (kc_at_op(c, P_LPAR)) {
            kc_next(c);
            k = kc_node_new(c, E_CALL, t->line);
            if (k < 0) return -1;
            c->nodes[k].tok = tok;
            int count = 0;
            int32_t args = kc_call_args(c, k, &count);
            if (c->err) return -1;
            c->nodes[k].a = args;
            c->nodes[k].ival = count;
            if (count == 2 && !c->nodes[k].spare && c->nodes[k].c < 0 &&
                (kc_tok_is(c, t, "pow") || (kc_tok_is(c, t, "divmod") && kc_plain_operand(c, args) && kc_plain_operand(c, c->nodes[args].next)))) {
                k = kc_spelled_pow_divmod(c, k);
                if (c->err) return -1;
                return kc_postfix(c, k);
            }
            int short_circuit = kc_tok_is(c, t, "all") || kc_tok_is(c, t, "any");
            if (count == 1 && c->nodes[k].c < 0 && (!c->nodes[k].spare || kc_tok_is(c, t, "sorted")) && kc_is_map_filter(c, args) &&
                (short_circuit || kc_tok_is(c, t, "sum") || kc_tok_is(c, t, "min") || kc_tok_is(c, t, "max") ||
                 kc_tok_is(c, t, "sorted") || kc_tok_is(c, t, "set"))) {
                /* frontend.py's _SpelledForms: sum(map(f, xs)) is sum([f(v) for v in xs]) (min,
                   max, sorted, set; all and any a generator) */
                c->nodes[k].a = args = kc_map_items(c, args, short_circuit);
                if (c->err) return -1;
            }
            if (kc_tok_is(c, t, "list") || kc_tok_is(c, t, "sorted") || kc_tok_is(c, t, "min") || kc_tok_is(c, t, "max") ||
                kc_tok_is(c, t, "sum") || kc_tok_is(c, t, "len") || kc_tok_is(c, t, "set")) {
                c->nodes[k].a = args = kc_view_lists(c, args);
                if (c->err) return -1;
            }
            /* frontend.py's _Functionals: sorted(xs, key=f), list(filter(f, xs)), list(map(f, xs)) */
            int is_fm = (kc_tok_is(c, t, "filter") || kc_tok_is(c, t, "map")) && count == 2 && !c->nodes[k].spare && c->nodes[k].c < 0;
            for (int32_t a = args; a >= 0; a = c->nodes[a].next)
                if (c->nodes[a].kind == E_LAMBDA && !(is_fm && a == args)) { kc_fail(c, "lambda", c->nodes[a].line); return -1; }
            if (kc_tok_is(c, t, "sorted") && count == 1 && args == c->filter_map_node) {
                /* frontend.py's _rewrite_generators runs first: sorted(list(filter(f, xs))) is
                   sorted(filter(f, xs)), which _Functionals leaves alone (the reference refuses) */
                kc_fail(c, "sorted(list(filter(...))) or sorted(list(map(...)))", t->line);
                return -1;
            }
            if (c->nodes[k].c >= 0) {
                k = kc_sorted_by_key(c, k);
                if (c->err) return -1;
            } else if (kc_tok_is(c, t, "list") && count == 1 && !c->nodes[k].spare && c->nodes[args].kind == E_CALL &&
                       (kc_tok_is(c, &c->toks[c->nodes[args].tok], "filter") || kc_tok_is(c, &c->toks[c->nodes[args].tok], "map")) &&
                       c->nodes[args].ival == 2 && !c->nodes[args].spare && c->nodes[args].c < 0 &&
                       (c->nodes[c->nodes[args].a].kind == E_LAMBDA || c->nodes[c->nodes[args].a].kind == E_NAME)) {
                k = kc_filter_map(c, k);
                if (c->err) return -1;
            }
        } else {
            k = kc_node_new(c, E_NAME, t->line);
            if (k < 0) return -1;
            c->nodes[k].tok = tok;
        }
        return kc_postfix(c, k);
    }
    if (t->kind == TK_OP && t->op == P_LPAR) {
        kc_next(c);
        if (kc_at_op(c, P_RPAR)) { kc_fail(c, "empty tuple", t->line); return -1; }
        int32_t first = kc_expr(c);
        if (c->err) return -1;
        if (kc_at_kw(c, "for")) {  /* a generator expression: only as a consumer's sole argument */
            k = kc_node_new(c, E_LISTCOMP, t->line);
            if (k < 0) return -1;
            c->nodes[k].a = first;
            c->nodes[k].spare = 1;
            kc_child_depth(c, k, first);
            kc_comp_generators(c, k);
            if (!kc_expect_op(c, P_RPAR, "generator expression syntax")) return -1;
            if (!kc_at_op(c, P_RPAR)) { kc_fail(c, "generator expression", t->line); return -1; }
            return k;
        }
        if (kc_at_op(c, P_COLONEQUAL)) { kc_fail(c, "assignment expression (:=)", t->line); return -1; }
        if (kc_at_op(c, P_RPAR)) {
            kc_next(c);
            return kc_postfix(c, first);  /* parentheses only group */
        }
        k = kc_node_new(c, E_TUPLE, t->line);
        if (k < 0) return -1;
        c->nodes[k].a = first;
        kc_child_depth(c, k, first);
        int32_t tail = first;
        while (!c->err && kc_at_op(c, P_COMMA)) {
            kc_next(c);
            if (kc_at_op(c, P_RPAR)) break;
            int32_t e = kc_expr(c);
            if (c->err) return -1;
            kc_child_depth(c, k, e);
            c->nodes[tail].next = e;
            tail = e;
        }
        if (!kc_expect_op(c, P_RPAR, "tuple syntax")) return -1;
        return kc_postfix(c, k);
    }
    if (t->kind == TK_OP && t->op == P_LSQB) {  /* a list display */
        kc_next(c);
        k = kc_node_new(c, E_LIST, t->line);
        if (k < 0) return -1;
        int32_t tail = -1;
        while (!c->err && !kc_at_op(c, P_RSQB)) {
            int32_t e = kc_expr(c);
            if (c->err) return -1;
            if (kc_at_kw(c, "for") && tail < 0) {
                c->nodes[k].kind = E_LISTCOMP;
                c->nodes[k].a = e;
                kc_child_depth(c, k, e);
                kc_comp_generators(c, k);
                if (!kc_expect_op(c, P_RSQB, "list comprehension syntax")) return -1;
                return kc_postfix(c, k);
            }
            kc_child_depth(c, k, e);
            if (tail < 0) c->nodes[k].a = e; else c->nodes[tail].next = e;
            tail = e;
            c->nodes[k].ival++;
            if (!kc_at_op(c, P_COMMA)) break;
            kc_next(c);
        }
        if (!kc_expect_op(c, P_RSQB, "list display syntax")) return -1;
        return kc_postfix(c, k);
    }
    if (t->kind == TK_OP && t->op == P_LBRACE) {  /* a set display or comprehension (a dict: unsupported) */
        kc_next(c);
        k = kc_node_new(c, E_SET, t->line);
        if (k < 0) return -1;
        if (kc_at_op(c, P_RBRACE)) c->nodes[k].kind = E_DICT;  /* {} */
        int32_t tail = -1, vtail = -1;
        while (!c->err && !kc_at_op(c, P_RBRACE)) {
            int32_t e = kc_expr(c);
            if (c->err) return -1;
            if (kc_at_op(c, P_COLON) && (c->nodes[k].kind == E_DICT || tail < 0)) {  /* key: value */
                kc_next(c);
                c->nodes[k].kind = E_DICT;
                int32_t v = kc_expr(c);
                if (c->err) return -1;
                if (kc_at_kw(c, "for")) { kc_fail(c, "dict comprehension", t->line); return -1; }
                kc_child_depth(c, k, e);
                kc_child_depth(c, k, v);
                if (tail < 0) { c->nodes[k].a = e; c->nodes[k].b = v; }
                else { c->nodes[tail].next = e; c->nodes[vtail].next = v; }
                tail = e;
                vtail = v;
                c->nodes[k].ival++;
                if (!kc_at_op(c, P_COMMA)) break;
                kc_next(c);
                continue;
            }
            if (c->nodes[k].kind == E_DICT) { kc_fail(c, "dict display syntax", t->line); return -1; }
            if (kc_at_kw(c, "for") && tail < 0) {  /* a set comprehension: a list one, made a set */
                c->nodes[k].kind = E_LISTCOMP;
                c->nodes[k].spare = 4;
                c->nodes[k].a = e;
                kc_child_depth(c, k, e);
                kc_comp_generators(c, k);
                if (!kc_expect_op(c, P_RBRACE, "set comprehension syntax")) return -1;
                return kc_postfix(c, k);
            }
            kc_child_depth(c, k, e);
            if (tail < 0) c->nodes[k].a = e; else c->nodes[tail].next = e;
            tail = e;
            c->nodes[k].ival++;
            if (!kc_at_op(c, P_COMMA)) break;
            kc_next(c);
        }
        if (!kc_expect_op(c, P_RBRACE, "set display syntax")) return -1;
        return kc_postfix(c, k);
    }
    kc_fail(c, "expression syntax", t->line);
    return -1;
}

KC_FN int32_t kc_binary(kc_ctx *c, int kind, int op, int32_t left, int32_t right) {
    if (c->err) return -1;
    int32_t k = kc_node_new(c, kind, c->nodes[left].line);
    if (k < 0) return -1;
    c->nodes[k].op = (int16_t)op;
    c->nodes[k].a = left;
    c->nodes[k].b = right;
    kc_child_depth(c, k, left);
    kc_child_depth(c, k, right);
    return k;
}

KC_FN int32_t kc_factor(kc_ctx *c);

/* power: primary ['**' factor] */
KC_FN int32_t kc_power(kc_ctx *c) {
    int32_t left = kc_atom(c);
    if (c->err) return -1;
    if (kc_at_op(c, P_DOUBLESTAR)) {
        kc_tok *t = kc_next(c);
        /* right-associative: a chain of ** recurses once per operator, so each counts a level */
        if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", t->line); return -1; }
        int32_t right = kc_factor(c);
        c->depth--;
        if (c->err) return -1;
        return kc_binary(c, E_BINOP, B_POW, left, right);
    }
    return left;
}

/* factor: ('+' | '-' | '~') factor | power */
KC_FN int32_t kc_factor(kc_ctx *c) {
    if (c->err) return -1;
    kc_tok *t = kc_peek(c);
    if (t->kind == TK_OP && (t->op == P_PLUS || t->op == P_MINUS || t->op == P_TILDE)) {
        if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", t->line); return -1; }
        kc_next(c);
        int32_t operand = kc_factor(c);
        c->depth--;
        if (c->err) return -1;
        int32_t k = kc_node_new(c, E_UNARY, t->line);
        if (k < 0) return -1;
        c->nodes[k].op = (int16_t)(t->op == P_PLUS ? U_POS : t->op == P_MINUS ? U_NEG : U_INVERT);
        c->nodes[k].a = operand;
        kc_child_depth(c, k, operand);
        return k;
    }
    return kc_power(c);
}

/* binary levels, loosest first: | ^ & (<< >>) (+ -) (* / // % @) */
KC_FN int kc_binop_at(kc_ctx *c, int level) {
    kc_tok *t = kc_peek(c);
    if (t->kind != TK_OP) return -1;
    switch (level) {
    case 0: return t->op == P_VBAR ? B_BITOR : -1;
    case 1: return t->op == P_CIRCUMFLEX ? B_BITXOR : -1;
    case 2: return t->op == P_AMPER ? B_BITAND : -1;
    case 3: return t->op == P_LSHIFT ? B_LSHIFT : t->op == P_RSHIFT ? B_RSHIFT : -1;
    case 4: return t->op == P_PLUS ? B_ADD : t->op == P_MINUS ? B_SUB : -1;
    default:
        return t->op == P_STAR ? B_MUL : t->op == P_SLASH ? B_DIV : t->op == P_DOUBLESLASH ? B_FLOORDIV
             : t->op == P_PERCENT ? B_MOD : t->op == P_AT ? B_MATMUL : -1;
    }
}

KC_FN int32_t kc_binary_level(kc_ctx *c, int level) {
    if (level > 5) return kc_factor(c);
    int32_t left = kc_binary_level(c, level + 1);
    while (!c->err) {
        int op = kc_binop_at(c, level);
        if (op < 0) break;
        kc_next(c);
        int32_t right = kc_binary_level(c, level + 1);
        left = kc_binary(c, E_BINOP, op, left, right);
    }
    return c->err ? -1 : left;
}

/* comparison: bitor (compare_op bitor)* */
KC_FN int kc_cmp_at(kc_ctx *c) {
    kc_tok *t = kc_peek(c);
    if (t->kind == TK_OP) {
        switch (t->op) {
        case P_LESS: return C_LT;
        case P_LESSEQUAL: return C_LE;
        case P_GREATER: return C_GT;
        case P_GREATEREQUAL: return C_GE;
        case P_EQEQUAL: return C_EQ;
        case P_NOTEQUAL: return C_NE;
        default: return -1;
        }
    }
    if (t->kind == TK_NAME && kc_tok_is(c, t, "in")) return C_IN;
    if (t->kind == TK_NAME && kc_tok_is(c, t, "not") && kc_tok_is(c, kc_peek2(c), "in")) return C_NOTIN;
    if (t->kind == TK_NAME && kc_tok_is(c, t, "is")) return kc_tok_is(c, kc_peek2(c), "not") ? C_ISNOT : C_IS;
    return -1;
}

/* frontend.py's _Functionals.visit_Compare: `tuple(xs) == tuple(ys)` (==, !=, <, <=, >, >=, every
   operand a tuple(x) call or a tuple display, one a call) compares as lists: list(xs), [a, b] */
KC_FN int kc_is_tuple_call(kc_ctx *c, int32_t e) {
    const kc_node *n = &c->nodes[e];
    return n->kind == E_CALL && kc_tok_is(c, &c->toks[n->tok], "tuple") && n->ival == 1 && !n->spare && n->c < 0;
}

KC_FN void kc_tuple_as_list(kc_ctx *c, int32_t e, int32_t list_tok) {
    kc_node *n = &c->nodes[e];
    if (n->kind != E_TUPLE) { n->tok = list_tok; return; }
    n->kind = E_LIST;
    n->ival = 0;
    for (int32_t x = n->a; x >= 0; x = c->nodes[x].next) n->ival++;
}

KC_FN void kc_tuple_compare(kc_ctx *c, int32_t k) {
    int any = kc_is_tuple_call(c, c->nodes[k].a), all = any || c->nodes[c->nodes[k].a].kind == E_TUPLE;
    for (int32_t l = c->nodes[k].b; l >= 0; l = c->nodes[l].next) {
        int32_t e = c->nodes[l].a;
        any |= kc_is_tuple_call(c, e);
        all &= (kc_is_tuple_call(c, e) || c->nodes[e].kind == E_TUPLE) && c->nodes[l].op <= C_NE;
    }
    if (!any || !all) return;
    int32_t list_tok = kc_synth_name(c, "list", 0, c->nodes[k].line);
    if (c->err) return;
    kc_tuple_as_list(c, c->nodes[k].a, list_tok);
    for (int32_t l = c->nodes[k].b; l >= 0; l = c->nodes[l].next) kc_tuple_as_list(c, c->nodes[l].a, list_tok);
}

KC_FN int32_t kc_comparison(kc_ctx *c) {
    int32_t left = kc_binary_level(c, 0);
    if (c->err || kc_cmp_at(c) < 0) return left;
    int32_t k = kc_node_new(c, E_COMPARE, c->nodes[left].line);
    if (k < 0) return -1;
    c->nodes[k].a = left;
    kc_child_depth(c, k, left);
    int32_t tail = -1;
    while (!c->err) {
        int op = kc_cmp_at(c);
        if (op < 0) break;
        kc_next(c);
        if (op == C_NOTIN || op == C_ISNOT) kc_next(c);
        int32_t right = kc_binary_level(c, 0);
        if (c->err) return -1;
        /* a list cell holding the comparator and its operator */
        int32_t link = kc_node_new(c, E_NONE, c->nodes[right].line);
        if (link < 0) return -1;
        c->nodes[link].op = (int16_t)op;
        c->nodes[link].a = right;
        c->nodes[link].depth = c->nodes[right].depth;
        kc_child_depth(c, k, link);
        if (tail < 0) c->nodes[k].b = link; else c->nodes[tail].next = link;
        tail = link;
    }
    if (!c->err) kc_tuple_compare(c, k);
    return c->err ? -1 : k;
}

/* inversion: 'not' inversion | comparison */
KC_FN int32_t kc_inversion(kc_ctx *c) {
    if (kc_at_kw(c, "not")) {
        kc_tok *t = kc_next(c);
        if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", t->line); return -1; }
        int32_t operand = kc_inversion(c);
        c->depth--;
        if (c->err) return -1;
        int32_t k = kc_node_new(c, E_UNARY, t->line);
        if (k < 0) return -1;
        c->nodes[k].op = U_NOT;
        c->nodes[k].a = operand;
        kc_child_depth(c, k, operand);
        return k;
    }
    return kc_comparison(c);
}

/* conjunction: inversion ('and' inversion)*   disjunction: conjunction ('or' conjunction)* */
KC_FN int32_t kc_boolop(kc_ctx *c, int is_or) {
    int32_t first = is_or ? kc_boolop(c, 0) : kc_inversion(c);
    if (c->err || !kc_at_kw(c, is_or ? "or" : "and")) return first;
    int32_t k = kc_node_new(c, E_BOOLOP, c->nodes[first].line);
    if (k < 0) return -1;
    c->nodes[k].op = (int16_t)is_or;
    c->nodes[k].a = first;
    kc_child_depth(c, k, first);
    int32_t tail = first;
    while (!c->err && kc_at_kw(c, is_or ? "or" : "and")) {
        kc_next(c);
        int32_t v = is_or ? kc_boolop(c, 0) : kc_inversion(c);
        if (c->err) return -1;
        kc_child_depth(c, k, v);
        c->nodes[tail].next = v;
        tail = v;
    }
    return c->err ? -1 : k;
}

/* expression: disjunction ['if' disjunction 'else' expression] */
KC_FN int32_t kc_expr(kc_ctx *c) {
    if (c->err) return -1;
    kc_tok *t = kc_peek(c);
    if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", t->line); return -1; }
    if (kc_at_kw(c, "lambda") || kc_at_kw(c, "await") || kc_at_kw(c, "yield")) {
        kc_fail(c, "lambda, await or yield", t->line);
        return -1;
    }
    int32_t body = kc_boolop(c, 1);
    if (!c->err && kc_at_kw(c, "if")) {
        kc_next(c);
        int32_t test = kc_boolop(c, 1);
        if (!c->err && !kc_at_kw(c, "else")) kc_fail(c, "conditional expression without else", t->line);
        if (c->err) return -1;
        kc_next(c);
        int32_t orelse = kc_expr(c);
        if (c->err) return -1;
        int32_t k = kc_node_new(c, E_IFEXP, c->nodes[body].line);
        if (k < 0) return -1;
        c->nodes[k].a = test; c->nodes[k].b = body; c->nodes[k].c = orelse;
        kc_child_depth(c, k, test); kc_child_depth(c, k, body); kc_child_depth(c, k, orelse);
        body = k;
    }
    c->depth--;
    return c->err ? -1 : body;
}

/* an expression list at statement level: a, b, c (a tuple) or one expression */
KC_FN int32_t kc_expr_list(kc_ctx *c) {
    int32_t first = kc_expr(c);
    if (c->err || !kc_at_op(c, P_COMMA)) return first;
    int32_t k = kc_node_new(c, E_TUPLE, c->nodes[first].line);
    if (k < 0) return -1;
    c->nodes[k].a = first;
    kc_child_depth(c, k, first);
    int32_t tail = first;
    while (!c->err && kc_at_op(c, P_COMMA)) {
        kc_next(c);
        kc_tok *t = kc_peek(c);
        if (t->kind == TK_NEWLINE || (t->kind == TK_OP && (t->op == P_EQUAL || t->op == P_SEMI))) break;
        int32_t e = kc_expr(c);
        if (c->err) return -1;
        kc_child_depth(c, k, e);
        c->nodes[tail].next = e;
        tail = e;
    }
    return c->err ? -1 : k;
}

KC_FN int32_t kc_tuple_of(kc_ctx *c, int32_t n, const int32_t *args);
KC_FN int32_t kc_dict_of(kc_ctx *c, int32_t key, int32_t value);
KC_FN int32_t kc_set_of(kc_ctx *c, int32_t elem);

/* annotation: int | float | bool | str | None | (list | List) '[' annotation ']' |
   (tuple | Tuple) '[' annotation (',' annotation)* [','] ']'
   (anything else, a bare list included: unsupported here) */
/* typing's names kc accepts in `from typing import ...` (every one exists in typing: frontend.py
   checks hasattr(typing, name), an ImportError otherwise); the bit of `t`, or -1. The first four
   are the annotations kc reads (List, Dict, Set, Tuple). */
KC_FN int kc_typing_name(const kc_ctx *c, const kc_tok *t) {
    static const char *const names[] = {"List", "Dict", "Set", "Tuple", "Optional", "Union", "Any",
                                        "Callable", "Iterable", "Iterator", "Sequence", "Mapping", 0};
    for (int i = 0; names[i]; i++)
        if (kc_tok_is(c, t, names[i])) return i;
    return -1;
}

/* A capitalised annotation names typing's object: CPython evaluates a def's annotations when it
   runs, so the name must have been imported before (frontend.py's _check_definition); a
   variable's annotation in a function is never evaluated */
KC_FN int kc_annotation_bound(kc_ctx *c, const kc_tok *t) {
    int bit = kc_typing_name(c, t);
    if (c->in_signature && bit >= 0 && !(c->typing_names >> bit & 1)) {
        kc_fail(c, "annotation with a typing name not imported before the def", t->line);
        return 0;
    }
    return 1;
}

KC_FN int kc_annotation_at(kc_ctx *c, int level) {
    kc_tok *t = kc_peek(c);
    int bracket = kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_LSQB;
    if (t->kind != TK_NAME || level > KC_MAX_LIST_DEPTH) {
        kc_fail(c, "type annotation other than int, float, bool, str, list[...], tuple[...] or None", t->line);
        return T_UNKNOWN;
    }
    if (!kc_annotation_bound(c, t)) return T_UNKNOWN;
    if (!bracket && level == 0 && c->bare_list_ok && (kc_tok_is(c, t, "list") || kc_tok_is(c, t, "List"))) {
        kc_next(c);  /* a parameter's bare list: list[?] (types.py), its items told by the caller */
        return KC_BARE_LIST;
    }
    if (bracket && (kc_tok_is(c, t, "list") || kc_tok_is(c, t, "List"))) {
        kc_next(c);
        kc_next(c);
        int e = kc_annotation_at(c, level + 1);
        if (c->err || !kc_expect_op(c, P_RSQB, "annotation syntax")) return T_UNKNOWN;
        if (e / KC_LIST >= KC_MAX_LIST_DEPTH) { kc_fail(c, "lists nested too deep", t->line); return T_UNKNOWN; }
        return e + KC_LIST;
    }
    if (bracket && (kc_tok_is(c, t, "dict") || kc_tok_is(c, t, "Dict") || kc_tok_is(c, t, "set") || kc_tok_is(c, t, "Set"))) {
        /* set[T], dict[K, V] (types.py's _check_sets: in no container, parameter or result) */
        int is_dict = kc_tok_is(c, t, "dict") || kc_tok_is(c, t, "Dict");
        kc_next(c);
        kc_next(c);
        int32_t key = kc_annotation_at(c, level + 1), value = T_UNKNOWN;
        if (!c->err && is_dict) {
            if (!kc_expect_op(c, P_COMMA, "annotation syntax")) return T_UNKNOWN;
            value = kc_annotation_at(c, level + 1);
        }
        if (c->err || !kc_expect_op(c, P_RSQB, "annotation syntax")) return T_UNKNOWN;
        return is_dict ? kc_dict_of(c, key, value) : kc_set_of(c, key);
    }
    if (bracket && (kc_tok_is(c, t, "tuple") || kc_tok_is(c, t, "Tuple"))) {
        kc_next(c);
        kc_next(c);
        int32_t args[KC_MAX_TUPLE], n = 0;
        while (!c->err && !kc_at_op(c, P_RSQB)) {
            if (n >= KC_MAX_TUPLE) { kc_fail(c, "tuple of more than 64 items", t->line); return T_UNKNOWN; }
            args[n++] = kc_annotation_at(c, level + 1);
            if (!kc_at_op(c, P_COMMA)) break;
            kc_next(c);
        }
        if (c->err || !kc_expect_op(c, P_RSQB, "annotation syntax")) return T_UNKNOWN;
        return kc_tuple_of(c, n, args);
    }
    int ty = T_UNKNOWN;
    if (kc_tok_is(c, t, "int")) ty = T_INT;
    else if (kc_tok_is(c, t, "float")) ty = T_FLOAT;
    else if (kc_tok_is(c, t, "bool")) ty = T_BOOL;
    else if (kc_tok_is(c, t, "str")) ty = T_STR;
    else if (kc_tok_is(c, t, "None") && level == 0) ty = T_NONE;
    if (ty == T_UNKNOWN || bracket) {
        kc_fail(c, "type annotation other than int, float, bool, str, list[...], tuple[...] or None", t->line);
        return T_UNKNOWN;
    }
    kc_next(c);
    return ty;
}

KC_FN int kc_annotation(kc_ctx *c) {
    int line = kc_peek(c)->line;
    int ty = kc_annotation_at(c, 0);
    kc_tok *after = kc_peek(c);
    if (!c->err && after->kind == TK_OP && (after->op == P_LSQB || after->op == P_DOT || after->op == P_VBAR)) {
        kc_fail(c, "type annotation other than int, float, bool, str, list[...], tuple[...] or None", line);
        return T_UNKNOWN;
    }
    return ty;
}

KC_FN int32_t kc_block(kc_ctx *c);

/* frontend.py's _is_math_import at c->pos, at module level: `import math [, math]*` or `from math
   import NAME (, NAME)*` of sqrt, floor, ceil (no aliases); the names are recorded (types.py's
   math_module and math_names; a function's own imports are kc_local_import's) */
KC_FN void kc_math_import(kc_ctx *c) {
    kc_tok *t = kc_next(c);
    int from = kc_tok_is(c, t, "from");
    if (from) {
        if (!kc_tok_is(c, kc_next(c), "math") || !kc_at_kw(c, "import")) { kc_fail(c, "import other than math", t->line); return; }
        kc_next(c);
    }
    while (!c->err) {
        kc_tok *n = kc_next(c);
        int m = kc_math_fn(c, n);
        if (n->kind != TK_NAME || (from ? m < 0 : !kc_tok_is(c, n, "math"))) { kc_fail(c, "import other than math or its sqrt, floor, ceil", t->line); return; }
        if (from) c->math_names |= 1 << m;
        else c->math_module = 1;
        if (kc_at_kw(c, "as")) { kc_fail(c, "import alias", t->line); return; }
        if (!kc_at_op(c, P_COMMA)) break;
        kc_next(c);
    }
}

/* A function's own math import (frontend.py's _check_local_imports): it binds a local for the
   whole body, so it must be a statement of the body itself (not in a block), with no read of the
   name before it (CPython: UnboundLocalError). kc also leaves a module-level def with nested defs
   to the reference (an import-bound name makes a nested def a closure there). */
KC_FN void kc_local_import(kc_ctx *c, int line) {
    kc_func *f = c->parsing;
    if (c->in_def != 1 || c->depth != 1 || c->n_nested) { kc_fail(c, "import inside a block or beside a nested def", line); return; }
    kc_tok *t = kc_next(c);
    int from = kc_tok_is(c, t, "from");
    if (from) {
        if (!kc_tok_is(c, kc_next(c), "math") || !kc_at_kw(c, "import")) { kc_fail(c, "import other than math", line); return; }
        kc_next(c);
    }
    while (!c->err) {
        kc_tok *n = kc_next(c);
        int m = kc_math_fn(c, n);
        if (n->kind != TK_NAME || (from ? m < 0 : !kc_tok_is(c, n, "math"))) { kc_fail(c, "import other than math or its sqrt, floor, ceil", line); return; }
        if (kc_at_kw(c, "as")) { kc_fail(c, "import alias", line); return; }
        for (int32_t k = f->node_begin; k < c->n_nodes; k++)
            if ((c->nodes[k].kind == E_NAME || c->nodes[k].kind == E_CALL) && c->nodes[k].tok >= 0 &&
                kc_same_name(c, c->nodes[k].tok, (int32_t)(n - c->toks))) { kc_fail(c, "a name read before the function's own import of it", line); return; }
        if (from) f->local_math_names |= 1 << m;
        else f->local_math = 1;
        if (!kc_at_op(c, P_COMMA)) break;
        kc_next(c);
    }
}

/* simple_stmt: expression | targets '=' ... | NAME ':' ann ['=' expr] | NAME augop expr | return |
   pass | break | continue | assert expr [',' expr] | raise NAME ['(' args ')'] */
KC_FN int32_t kc_simple_stmt(kc_ctx *c) {
    kc_tok *t = kc_peek(c);
    int line = t->line;
    int32_t k = -1;
    if (t->kind == TK_NAME && kc_is_keyword(c, t) && !kc_tok_is(c, t, "True") && !kc_tok_is(c, t, "False") &&
        !kc_tok_is(c, t, "None") && !kc_tok_is(c, t, "not") && !kc_tok_is(c, t, "lambda") && !kc_tok_is(c, t, "await")) {
        if (kc_tok_is(c, t, "pass") || kc_tok_is(c, t, "break") || kc_tok_is(c, t, "continue")) {
            kc_next(c);
            k = kc_node_new(c, kc_tok_is(c, t, "pass") ? S_PASS : kc_tok_is(c, t, "break") ? S_BREAK : S_CONTINUE, line);
        } else if (kc_tok_is(c, t, "return")) {
            kc_next(c);
            k = kc_node_new(c, S_RETURN, line);
            kc_tok *n = kc_peek(c);
            if (k >= 0 && !(n->kind == TK_NEWLINE || (n->kind == TK_OP && n->op == P_SEMI))) {
                int32_t v = kc_expr_list(c);
                if (c->err) return -1;
                c->nodes[k].a = v;
                kc_child_depth(c, k, v);
            }
        } else if (kc_tok_is(c, t, "assert")) {
            kc_next(c);
            k = kc_node_new(c, S_ASSERT, line);
            int32_t test = kc_expr(c);
            if (c->err) return -1;
            c->nodes[k].a = test;
            kc_child_depth(c, k, test);
            if (kc_at_op(c, P_COMMA)) {
                kc_next(c);
                int32_t msg = kc_expr(c);
                if (c->err) return -1;
                c->nodes[k].b = msg;
                kc_child_depth(c, k, msg);
            }
        } else if (kc_tok_is(c, t, "raise")) {
            kc_next(c);
            k = kc_node_new(c, S_RAISE, line);
            kc_tok *exc = kc_peek(c);
            if (k < 0) return -1;
            if (exc->kind != TK_NAME || kc_is_keyword(c, exc)) { kc_fail(c, "raise form", line); return -1; }
            kc_next(c);
            c->nodes[k].tok = (int32_t)(exc - c->toks);
            if (kc_at_op(c, P_LPAR)) {
                kc_next(c);
                int count = 0;
                c->nodes[k].a = kc_call_args(c, k, &count);
                c->nodes[k].ival = 1;  /* a call */
            }
            if (kc_at_kw(c, "from")) { kc_fail(c, "raise ... from", line); return -1; }
        } else if (kc_tok_is(c, t, "import") || kc_tok_is(c, t, "from")) {
            kc_local_import(c, line);  /* nothing to run: a pass (lower.py's s_Import) */
            if (c->err) return -1;
            k = kc_node_new(c, S_PASS, line);
            k = kc_node_new(c, S_PASS, line);
        } else {
            kc_fail(c, "statement", line);
            return -1;
        }
    } else {
        int32_t first = kc_expr_list(c);
        if (c->err) return -1;
        kc_tok *n = kc_peek(c);
        if (n->kind == TK_OP && n->op == P_EQUAL) {
            k = kc_node_new(c, S_ASSIGN, line);
            if (k < 0) return -1;
            int32_t targets = first, tail = first, value = -1;
            while (!c->err && kc_at_op(c, P_EQUAL)) {
                kc_next(c);
                int32_t e = kc_expr_list(c);
                if (c->err) return -1;
                if (kc_at_op(c, P_EQUAL)) { c->nodes[tail].next = e; tail = e; }
                else value = e;
            }
            if (!c->err && c->nodes[targets].next < 0 && (c->nodes[targets].kind == E_TUPLE || c->nodes[targets].kind == E_LIST) &&
                kc_is_map_filter(c, value) && kc_tok_is(c, &c->toks[c->nodes[value].tok], "map") && c->nodes[c->nodes[value].a].kind == E_NAME &&
                (kc_tok_is(c, &c->toks[c->nodes[c->nodes[value].a].tok], "int") || kc_tok_is(c, &c->toks[c->nodes[c->nodes[value].a].tok], "float") ||
                 kc_tok_is(c, &c->toks[c->nodes[c->nodes[value].a].tok], "str"))) {
                value = kc_map_items(c, value, 0);  /* a, b = map(int, xs): _SpelledForms.visit_Assign */
                if (c->err) return -1;
            }
            for (int32_t x = targets; x >= 0; x = c->nodes[x].next) kc_child_depth(c, k, x);
            c->nodes[k].a = targets;
            c->nodes[k].b = value;
            kc_child_depth(c, k, value);
        } else if (n->kind == TK_OP && n->op == P_COLON) {
            kc_next(c);
            if (c->nodes[first].kind != E_NAME) { kc_fail(c, "annotated assignment to a non-name", line); return -1; }
            int ty = kc_annotation(c);
            if (c->err) return -1;
            k = kc_node_new(c, S_ANNASSIGN, line);
            if (k < 0) return -1;
            c->nodes[k].a = first;
            c->nodes[k].ival = ty;
            if (kc_at_op(c, P_EQUAL)) {
                kc_next(c);
                int32_t v = kc_expr_list(c);
                if (c->err) return -1;
                c->nodes[k].b = v;
                kc_child_depth(c, k, v);
            }
        } else if (n->kind == TK_OP && n->op >= P_PLUSEQUAL && n->op <= P_ATEQUAL && n->op != P_DOUBLESLASH) {
            int op = -1;
            switch (n->op) {
            case P_PLUSEQUAL: op = B_ADD; break;
            case P_MINEQUAL: op = B_SUB; break;
            case P_STAREQUAL: op = B_MUL; break;
            case P_SLASHEQUAL: op = B_DIV; break;
            case P_PERCENTEQUAL: op = B_MOD; break;
            case P_AMPEREQUAL: op = B_BITAND; break;
            case P_VBAREQUAL: op = B_BITOR; break;
            case P_CIRCUMFLEXEQUAL: op = B_BITXOR; break;
            case P_LEFTSHIFTEQUAL: op = B_LSHIFT; break;
            case P_RIGHTSHIFTEQUAL: op = B_RSHIFT; break;
            case P_DOUBLESTAREQUAL: op = B_POW; break;
            case P_DOUBLESLASHEQUAL: op = B_FLOORDIV; break;
            default: op = B_MATMUL; break;
            }
            kc_next(c);
            if (c->nodes[first].kind != E_NAME && c->nodes[first].kind != E_INDEX) { kc_fail(c, "augmented assignment to something other than a name or an item", line); return -1; }
            int32_t v = kc_expr_list(c);
            if (c->err) return -1;
            k = kc_node_new(c, S_AUGASSIGN, line);
            if (k < 0) return -1;
            c->nodes[k].op = (int16_t)op;
            c->nodes[k].a = first;
            c->nodes[k].b = v;
            kc_child_depth(c, k, v);
        } else {
            k = kc_node_new(c, S_EXPR, line);
            if (k < 0) return -1;
            c->nodes[k].a = first;
            kc_child_depth(c, k, first);
        }
    }
    if (k >= 0 && !c->err) c->nodes[k].end_line = kc_prev_end_line(c);
    return c->err ? -1 : k;
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
KC_FN int32_t kc_simple_stmts(kc_ctx *c, int32_t *last) {
    int32_t head = -1, tail = -1;
    while (!c->err) {
        int32_t s = kc_simple_stmt(c);
        if (c->err) return -1;
        if (tail < 0) head = s; else c->nodes[tail].next = s;
        tail = s;
        if (!kc_at_op(c, P_SEMI)) break;
        kc_next(c);
        if (kc_peek(c)->kind == TK_NEWLINE) break;
    }
    if (!c->err && kc_peek(c)->kind != TK_NEWLINE) kc_fail(c, "statement syntax", kc_peek(c)->line);
    kc_next(c);
    *last = tail;
    return head;
}

/* statement: if / while / for / simple_stmts; compound statements contain a block */
KC_FN int32_t kc_statement(kc_ctx *c, int32_t *last);

KC_FN int32_t kc_if_tail(kc_ctx *c, kc_tok *t) {
    /* 'if'|'elif' expression ':' block [elif ... | else ':' block] */
    int32_t k = kc_node_new(c, S_IF, t->line);
    if (k < 0) return -1;
    int32_t test = kc_expr(c);
    if (c->err) return -1;
    kc_expect_op(c, P_COLON, "if syntax");
    int32_t body = kc_block(c);
    if (c->err) return -1;
    c->nodes[k].a = test; c->nodes[k].b = body;
    kc_child_depth(c, k, test);
    kc_child_depth(c, k, body);
    c->nodes[k].end_line = c->nodes[body].end_line;
    if (kc_at_kw(c, "elif")) {
        kc_tok *e = kc_next(c);
        /* each elif is parsed (and lowered) one level deeper than its if */
        if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", e->line); return -1; }
        int32_t nested = kc_if_tail(c, e);
        c->depth--;
        if (c->err) return -1;
        c->nodes[k].c = nested;
        kc_child_depth(c, k, nested);
        c->nodes[k].end_line = c->nodes[nested].end_line;
    } else if (kc_at_kw(c, "else")) {
        kc_next(c);
        kc_expect_op(c, P_COLON, "else syntax");
        int32_t orelse = kc_block(c);
        if (c->err) return -1;
        c->nodes[k].c = orelse;
        kc_child_depth(c, k, orelse);
        c->nodes[k].end_line = c->nodes[orelse].end_line;
    }
    return k;
}

KC_FN int32_t kc_statement(kc_ctx *c, int32_t *last) {
    kc_tok *t = kc_peek(c);
    int32_t k;
    if (t->kind == TK_NAME && kc_tok_is(c, t, "if")) {
        kc_next(c);
        k = kc_if_tail(c, t);
    } else if (t->kind == TK_NAME && kc_tok_is(c, t, "while")) {
        kc_next(c);
        k = kc_node_new(c, S_WHILE, t->line);
        int32_t test = kc_expr(c);
        kc_expect_op(c, P_COLON, "while syntax");
        int32_t body = kc_block(c);
        if (c->err) return -1;
        int32_t orelse = -1;  /* a loop's `else:` block */
        if (kc_at_kw(c, "else")) {
            kc_next(c);
            if (kc_expect_op(c, P_COLON, "else syntax")) orelse = kc_block(c);
        }
        if (c->err) return -1;
        c->nodes[k].a = test; c->nodes[k].b = body; c->nodes[k].c = orelse;
        kc_child_depth(c, k, test); kc_child_depth(c, k, body); kc_child_depth(c, k, orelse);
        c->nodes[k].end_line = c->nodes[orelse >= 0 ? orelse : body].end_line;
    } else if (t->kind == TK_NAME && kc_tok_is(c, t, "for")) {
        kc_next(c);
        k = kc_node_new(c, S_FOR, t->line);
        int32_t target = kc_loop_target(c, t->line);
        if (c->err) return -1;
        int32_t it = kc_expr(c);
        kc_expect_op(c, P_COLON, "for syntax");
        int32_t body = kc_block(c);
        if (c->err) return -1;
        int32_t orelse = -1;  /* a loop's `else:` block */
        if (kc_at_kw(c, "else")) {
            kc_next(c);
            if (kc_expect_op(c, P_COLON, "else syntax")) orelse = kc_block(c);
        }
        if (c->err) return -1;
        c->nodes[k].a = target; c->nodes[k].b = it; c->nodes[k].c = body; c->nodes[k].d = orelse;
        kc_child_depth(c, k, it); kc_child_depth(c, k, body); kc_child_depth(c, k, orelse);
        c->nodes[k].end_line = c->nodes[orelse >= 0 ? orelse : body].end_line;
    } else if (t->kind == TK_NAME && kc_tok_is(c, t, "def") && c->in_def == 1 && c->depth == 1) {
        /* a def in a function's body: skipped here, parsed after it (kc_parse_module) */
        if (c->n_nested >= KC_MAX_NESTED) { kc_fail(c, "more than 16 nested functions", t->line); return -1; }
        if (c->parsing->local_math || c->parsing->local_math_names) { kc_fail(c, "a nested def beside an import", t->line); return -1; }
        c->nested_at[c->n_nested++] = (int32_t)(t - c->toks);
        while (kc_peek(c)->kind != TK_NEWLINE && kc_peek(c)->kind != TK_END) kc_next(c);
        kc_next(c);
        if (kc_peek(c)->kind == TK_INDENT) {
            int level = 0;
            do {
                kc_tok *n = kc_next(c);
                if (n->kind == TK_INDENT) level++;
                else if (n->kind == TK_DEDENT) level--;
                else if (n->kind == TK_END) { kc_fail(c, "def syntax", t->line); return -1; }
            } while (level > 0);
        }
        *last = -1;
        return -1;
    } else if (t->kind == TK_NAME && (kc_tok_is(c, t, "def") || kc_tok_is(c, t, "class") || kc_tok_is(c, t, "try") ||
                                      kc_tok_is(c, t, "with") || kc_tok_is(c, t, "async") ||
                                      kc_tok_is(c, t, "global") || kc_tok_is(c, t, "nonlocal") ||
                                      kc_tok_is(c, t, "del") || kc_tok_is(c, t, "else") || kc_tok_is(c, t, "elif"))) {
        kc_fail(c, "statement kind", t->line);
        return -1;
    } else if (t->kind == TK_OP && t->op == P_AT) {
        kc_fail(c, "decorator", t->line);
        return -1;
    } else if (t->kind == TK_NAME && kc_tok_is(c, t, "match") && kc_peek2(c)->kind != TK_OP) {
        kc_fail(c, "match statement", t->line);
        return -1;
    } else {
        return kc_simple_stmts(c, last);
    }
    *last = k;
    return c->err ? -1 : k;
}

/* block: NEWLINE INDENT statement+ DEDENT | simple_stmts.  A block's node is its first statement;
   its end_line is stored there (the end of the last statement). */
KC_FN int32_t kc_block(kc_ctx *c) {
    if (c->err) return -1;
    if (++c->depth > KC_MAX_DEPTH) { kc_fail(c, "nesting deeper than the batched compiler's limit", kc_peek(c)->line); return -1; }
    int32_t head = -1, tail = -1, last = -1;
    if (kc_peek(c)->kind != TK_NEWLINE) {
        head = kc_simple_stmts(c, &last);
        tail = last;
    } else {
        kc_next(c);
        if (kc_peek(c)->kind != TK_INDENT) { kc_fail(c, "expected an indented block", kc_peek(c)->line); return -1; }
        kc_next(c);
        while (!c->err && kc_peek(c)->kind != TK_DEDENT && kc_peek(c)->kind != TK_END) {
            int32_t first = kc_statement(c, &last);
            if (c->err) return -1;
            if (first < 0) continue;  /* a nested def, parsed after its outer function */
            if (tail < 0) head = first; else c->nodes[tail].next = first;
            tail = last;
        }
        if (!c->err && kc_peek(c)->kind != TK_DEDENT) { kc_fail(c, "block syntax", kc_peek(c)->line); return -1; }
        kc_next(c);
    }
    c->depth--;
    if (!c->err && head < 0) kc_fail(c, "function body of nested defs only", kc_peek(c)->line);
    if (c->err || head < 0) return -1;
    /* the depth of a block is the deepest of its statements */
    int depth = 1;
    for (int32_t s = head; s >= 0; s = c->nodes[s].next)
        if (c->nodes[s].depth > depth) depth = c->nodes[s].depth;
    c->nodes[head].depth = depth;
    c->nodes[head].end_line = c->nodes[tail].end_line;  /* only a block's tail ever needs its own */
    return head;
}

/* ---- names a function binds and reads (frontend.py's _bound_names, for _hoist_nested and
   _inline_constants), over the nodes [lo, hi) its parse made ---------------------------------- */

/* marks (check = v) the E_NAME nodes that are assignment, loop or comprehension targets in
   [lo, hi): Python's Store names (an item's list `xs[i] = v` is a Load); 0 when a target is
   nested deeper than kc can tell */
KC_FN int kc_mark_stores(kc_ctx *c, int32_t lo, int32_t hi, int16_t v) {
    for (int32_t i = lo; i < hi; i++) {
        kc_node *n = &c->nodes[i];
        int32_t first = -1, single = 0;
        if (n->kind == S_ASSIGN) first = n->a;
        else if (n->kind == S_ANNASSIGN || n->kind == S_AUGASSIGN || n->kind == S_FOR || n->kind == E_COMPFOR) { first = n->a; single = 1; }
        for (int32_t t = first; t >= 0; t = single ? -1 : c->nodes[t].next) {
            kc_node *tn = &c->nodes[t];
            if (tn->kind == E_NAME) { tn->check = v; continue; }
            if (tn->kind != E_TUPLE && tn->kind != E_LIST) continue;
            for (int32_t e = tn->a; e >= 0; e = c->nodes[e].next) {
                if (c->nodes[e].kind == E_NAME) c->nodes[e].check = v;
                else if (c->nodes[e].kind == E_TUPLE || c->nodes[e].kind == E_LIST) return 0;
            }
        }
    }
    return 1;
}

/* the name token node i reads (a name, a call's callee, a raised exception), or -1 */
KC_FN int32_t kc_read_tok(const kc_ctx *c, int32_t i) {
    const kc_node *n = &c->nodes[i];
    if ((n->kind == E_NAME && !n->check) || n->kind == E_CALL || n->kind == S_RAISE) return n->tok;
    return -1;
}

/* whether f binds the name of tok: a parameter, or a Store name in [lo, hi) (marked) */
KC_FN int kc_binds(const kc_ctx *c, const kc_func *f, int32_t lo, int32_t hi, int32_t tok) {
    for (int p = 0; p < f->n_params; p++)
        if (kc_same_name(c, f->param_tok[p], tok)) return 1;
    for (int32_t i = lo; i < hi; i++)
        if (c->nodes[i].kind == E_NAME && c->nodes[i].check && c->nodes[i].tok >= 0 && kc_same_name(c, c->nodes[i].tok, tok)) return 1;
    return 0;
}

/* frontend.py's _hoist_nested for funcs[base] (the outer function) and its h nested defs after
   it: each must read nothing the outer binds (but its siblings' names), not share a name with
   the outer's variables or a sibling, and not be named before its def; else the reference keeps
   it nested and rejects the program */
KC_FN void kc_hoist_check(kc_ctx *c, int32_t base, int32_t h) {
    kc_func *outer = &c->funcs[base];
    int32_t lo = outer->node_begin, hi = c->funcs[base + h].node_end;
    if ((int64_t)(hi - lo) * (hi - lo) > 40000000) { kc_fail(c, "nested functions in a function too large", outer->line); return; }
    if (!kc_mark_stores(c, lo, hi, 1)) kc_fail(c, "nested assignment target", outer->line);
    for (int32_t k = 1; k <= h && !c->err; k++) {
        kc_func *in = &c->funcs[base + k];
        in->outer_tok = outer->name_tok;
        if (kc_binds(c, outer, lo, hi, in->name_tok)) { kc_fail(c, "nested function named like a variable of its outer function", in->line); break; }
        for (int32_t j = 1; j < k; j++)
            if (kc_same_name(c, c->funcs[base + j].name_tok, in->name_tok)) { kc_fail(c, "two nested functions of one name", in->line); break; }
        for (int32_t i = in->node_begin; i < in->node_end && !c->err; i++)  /* its parameter is no Store there yet */
            if (c->nodes[i].kind == E_LAMBDA) kc_fail(c, "lambda in a nested function", c->nodes[i].line);
        for (int32_t i = in->node_begin; i < in->node_end && !c->err; i++) {
            int32_t tok = kc_read_tok(c, i);
            if (tok < 0 || kc_binds(c, in, in->node_begin, in->node_end, tok)) continue;
            int sibling = 0;
            for (int32_t j = 1; j <= h; j++) sibling |= kc_same_name(c, c->funcs[base + j].name_tok, tok);
            if (!sibling && kc_binds(c, outer, lo, hi, tok)) kc_fail(c, "nested function reading its outer function's variables", c->nodes[i].line);
        }
        for (int32_t i = lo; i < hi && !c->err; i++) {
            if (i >= in->node_begin && i < in->node_end) continue;
            const kc_node *n = &c->nodes[i];
            if ((n->kind == E_NAME || n->kind == E_CALL) && n->tok >= 0 && n->tok < in->def_tok && kc_same_name(c, n->tok, in->name_tok))
                kc_fail(c, "nested function used before its def", n->line);
        }
    }
    kc_mark_stores(c, lo, hi, 0);
}

/* ---- module constants: frontend.py's _constant_assignment and _inline_constants ------------ */

/* whether node k is what ast.literal_eval reads as an int, float, str, bool or a tuple of those
   (a sign only before an int or float literal) */
KC_FN int kc_literal_scalar(const kc_ctx *c, int32_t k) {
    const kc_node *n = &c->nodes[k];
    switch (n->kind) {
    case E_INT: case E_FLOAT: case E_STR: case E_BOOL: return 1;
    case E_UNARY:
        return (n->op == U_NEG || n->op == U_POS) && (c->nodes[n->a].kind == E_INT || c->nodes[n->a].kind == E_FLOAT);
    default: return 0;
    }
}

/* (tuples nested two deep at most here; deeper ones are left to the reference) */
KC_FN int kc_literal(const kc_ctx *c, int32_t k) {
    if (c->nodes[k].kind != E_TUPLE) return kc_literal_scalar(c, k);
    for (int32_t e = c->nodes[k].a; e >= 0; e = c->nodes[e].next) {
        if (c->nodes[e].kind != E_TUPLE) {
            if (!kc_literal_scalar(c, e)) return 0;
            continue;
        }
        for (int32_t x = c->nodes[e].a; x >= 0; x = c->nodes[x].next)
            if (!kc_literal_scalar(c, x)) return 0;
    }
    return 1;
}

/* NAME = <literal> at module level: every read of NAME in a function that does not bind it is
   the literal (the first assignment; a second one is a module-level statement the reference
   rejects) */
KC_FN void kc_module_constant(kc_ctx *c) {
    kc_tok *t = kc_next(c);
    kc_next(c);
    c->depth = 0;
    int32_t v = kc_expr_list(c);
    if (c->err) return;
    if (kc_peek(c)->kind != TK_NEWLINE) { kc_fail(c, "module-level statement other than def", t->line); return; }
    kc_next(c);
    if (!kc_literal(c, v)) { kc_fail(c, "module-level assignment of something other than a literal", t->line); return; }
    for (int32_t i = 0; i < c->n_mconst; i++)
        if (kc_same_name(c, c->mconst_tok[i], (int32_t)(t - c->toks))) { kc_fail(c, "module constant assigned twice", t->line); return; }
    if (c->n_mconst >= KC_MAX_MCONST) { kc_fail(c, "more than 64 module constants", t->line); return; }
    c->mconst_tok[c->n_mconst] = (int32_t)(t - c->toks);
    c->mconst_node[c->n_mconst++] = v;
}

KC_FN int32_t kc_mconst_of(const kc_ctx *c, int32_t tok) {
    for (int32_t i = 0; i < c->n_mconst; i++)
        if (kc_same_name(c, c->mconst_tok[i], tok)) return i;
    return -1;
}

/* each function's reads of a constant it does not bind become a copy of the literal's root node
   (its items shared: their types are the same everywhere) */
KC_FN void kc_inline_constants(kc_ctx *c) {
    for (int32_t fi = 0; fi < c->n_funcs && c->n_mconst && !c->err; fi++) {
        kc_func *f = &c->funcs[fi];
        int32_t lo = f->node_begin, hi = f->node_end;
        if ((int64_t)(hi - lo) * (hi - lo) > 40000000) { kc_fail(c, "module constants in a function too large", f->line); return; }
        if (!kc_mark_stores(c, lo, hi, 1)) { kc_fail(c, "nested assignment target", f->line); return; }
        for (int32_t i = lo; i < hi && !c->err; i++) {
            kc_node *n = &c->nodes[i];
            if (n->tok < 0 || !(n->kind == E_CALL || (n->kind == E_NAME && !n->check))) continue;
            int32_t j = kc_mconst_of(c, n->tok);
            if (j < 0 || kc_binds(c, f, lo, hi, n->tok)) continue;
            if (n->kind == E_CALL) { kc_fail(c, "call of a module constant", n->line); break; }
            int32_t line = n->line, end_line = n->end_line, next = n->next;
            *n = c->nodes[c->mconst_node[j]];
            n->line = line; n->end_line = end_line; n->next = next;
        }
        kc_mark_stores(c, lo, hi, 0);
    }
}

/* funcdef: 'def' NAME '(' [param (',' param)* [',']] ')' ['->' annotation] ':' block, at c->pos,
   into funcs[n_funcs + slot] (slot 0: a module-level def; k > 0: its k-th nested def) */
KC_FN void kc_parse_def(kc_ctx *c, int32_t slot) {
    kc_tok *t = kc_next(c);
    if (c->n_funcs + slot >= c->cap_funcs) { kc_fail(c, "too many functions for the arena", t->line); return; }
    kc_func *f = &c->funcs[c->n_funcs + slot];
    f->outer_tok = -1;
    f->def_tok = (int32_t)(t - c->toks);
    kc_tok *name = kc_next(c);
    if (name->kind != TK_NAME || kc_is_keyword(c, name)) { kc_fail(c, "def syntax", t->line); return; }
    f->name_tok = (int32_t)(name - c->toks);
    f->line = t->line;
    f->n_params = 0;
    f->state = f->returns_value = 0;
    f->local_math = f->local_math_names = 0;
    f->ret = T_UNKNOWN;
    if (!kc_expect_op(c, P_LPAR, "def syntax")) return;
    while (!c->err && !kc_at_op(c, P_RPAR)) {
        kc_tok *p = kc_next(c);
        if (p->kind != TK_NAME || kc_is_keyword(c, p)) { kc_fail(c, "parameter form", p->line); return; }
        if (f->n_params >= KC_MAX_PARAMS) { kc_fail(c, "more than 64 parameters", p->line); return; }
        for (int i = 0; i < f->n_params; i++)
            if (kc_same_name(c, f->param_tok[i], (int32_t)(p - c->toks))) { kc_fail(c, "duplicate parameter", p->line); return; }
        f->param_tok[f->n_params] = (int32_t)(p - c->toks);
        f->param_type[f->n_params] = T_UNKNOWN;
        if (kc_at_op(c, P_COLON)) {
            kc_next(c);
            c->bare_list_ok = c->in_signature = 1;
            f->param_type[f->n_params] = kc_annotation(c);
            c->bare_list_ok = c->in_signature = 0;
        }
        f->n_params++;
        if (!kc_at_op(c, P_COMMA)) break;
        kc_next(c);
    }
    if (!kc_expect_op(c, P_RPAR, "parameter form")) return;
    if (kc_at_op(c, P_RARROW)) {
        kc_next(c);
        c->in_signature = 1;
        f->ret = kc_annotation(c);
        c->in_signature = 0;
    }
    if (!kc_expect_op(c, P_COLON, "def syntax")) return;
    c->depth = 0;
    f->node_begin = c->n_nodes;
    c->in_def = slot ? 2 : 1;
    c->parsing = f;
    f->body = kc_block(c);
    c->in_def = 0;
    f->node_end = c->n_nodes;
    if (c->err) return;
    if (f->ret != T_UNKNOWN) {  /* types.py's _returns_a_value: no `return <value>` (a stub): None, whatever the annotation */
        int value = 0;
        for (int32_t k = f->node_begin; k < f->node_end && !value; k++)
            value = c->nodes[k].kind == S_RETURN && c->nodes[k].a >= 0 && c->nodes[c->nodes[k].a].kind != E_NONE;
        if (!value) f->ret = T_NONE;
    }
    for (int i = 0; i < c->n_funcs && !slot; i++)
        if (c->funcs[i].outer_tok < 0 && kc_same_name(c, c->funcs[i].name_tok, f->name_tok)) { kc_fail(c, "redefinition of a function", t->line); return; }
}

/* module: (funcdef | 'from' 'typing' 'import' NAME (',' NAME)* | STRING)* END
   funcdef: 'def' NAME '(' [param (',' param)* [',']] ')' ['->' annotation] ':' block
   param: NAME [':' annotation] */
/* frontend.py binds each module name one way (a def, an import or a constant): a later binding
   of another kind would replace the first, which kc leaves to the reference */
KC_FN int kc_is_builtin(const kc_ctx *c, int32_t tok);
KC_FN int32_t kc_find_func(const kc_ctx *c, int32_t tok);

/* A variable named like a builtin or a module function shadows it in its whole function
   (types.py's is_local), and the front end's rewrites stand back from a function with such a
   variable (frontend.py's _REWRITTEN, with filter, map and tuple): kc leaves those functions to
   the reference; but one named like a module function (no builtin) that its function never
   calls (a call of it there is the reference's "call of the variable") is a plain variable. */
KC_FN int kc_is_rewritten(const kc_ctx *c, const kc_tok *t);

KC_FN void kc_no_shadowing_variables(kc_ctx *c) {
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        if (!kc_mark_stores(c, f->node_begin, f->node_end, 1)) kc_fail(c, "nested assignment target", f->line);
        for (int32_t k = f->node_begin; k < f->node_end && !c->err; k++) {
            const kc_node *n = &c->nodes[k];
            if (n->kind != E_NAME || !n->check || n->tok < 0) continue;
            const kc_tok *t = &c->toks[n->tok];
            if (kc_is_builtin(c, n->tok) || kc_is_rewritten(c, t)) {
                kc_fail(c, "a variable named like a function", n->line);
            } else if (kc_find_func(c, n->tok) >= 0) {
                int called = 0;
                for (int32_t j = 0; j < c->n_funcs && !called; j++)  /* nested defs: left to the reference */
                    called = c->funcs[j].outer_tok >= 0 && kc_same_name(c, c->funcs[j].outer_tok, f->name_tok);
                for (int32_t j = f->node_begin; j < f->node_end && !called; j++)
                    called = c->nodes[j].kind == E_CALL && c->nodes[j].tok >= 0 && kc_same_name(c, c->nodes[j].tok, n->tok);
                if (called || f->outer_tok >= 0) kc_fail(c, "a variable named like a function", n->line);
            }
        }
        kc_mark_stores(c, f->node_begin, f->node_end, 0);
    }
}

/* frontend.py's _REWRITTEN: a module name among these makes the front end leave every rewrite */
KC_TABLE char *const KC_REWRITTEN[] = {
    "sum", "min", "max", "sorted", "list", "all", "any", "range", "enumerate", "reversed",
    "filter", "map", "tuple", "len", "set", "zip", "float", "str", "pow", "divmod", "next", 0
};

KC_FN int kc_is_rewritten(const kc_ctx *c, const kc_tok *t) {
    for (int k = 0; KC_REWRITTEN[k]; k++)
        if (kc_tok_is(c, t, KC_REWRITTEN[k])) return 1;
    return 0;
}

KC_FN void kc_module_names_once(kc_ctx *c) {
    kc_no_shadowing_variables(c);
    for (int32_t i = 0; i < c->n_mconst && !c->err; i++)
        if (kc_is_rewritten(c, &c->toks[c->mconst_tok[i]])) kc_fail(c, "a module constant named like a builtin", c->toks[c->mconst_tok[i]].line);
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        if (c->funcs[i].outer_tok >= 0) continue;
        kc_tok *name = &c->toks[c->funcs[i].name_tok];
        if (kc_is_rewritten(c, name)) { kc_fail(c, "a function named like a builtin", name->line); break; }
        int m = kc_math_fn(c, name);
        if (kc_mconst_of(c, c->funcs[i].name_tok) >= 0 || (m >= 0 && (c->math_names >> m & 1))
            || (c->math_module && kc_tok_is(c, name, "math")))
            kc_fail(c, "a module name bound twice, two ways", name->line);
    }
    for (int32_t i = 0; i < c->n_mconst && !c->err; i++) {
        kc_tok *name = &c->toks[c->mconst_tok[i]];
        int m = kc_math_fn(c, name);
        if ((m >= 0 && (c->math_names >> m & 1)) || (c->math_module && kc_tok_is(c, name, "math")))
            kc_fail(c, "a module name bound twice, two ways", name->line);
    }
}

/* frontend.py's _module_function: the module-level expression and assert statements, in order,
   as the body of a function `<module>` (vm.MODULE_FUNCTION: the VM runs it once before the
   tests), placed after every def, its line the first statement's */
KC_FN void kc_module_function(kc_ctx *c) {
    int32_t resume = c->pos;
    if (c->n_funcs >= c->cap_funcs) { kc_fail(c, "too many functions for the arena", 0); return; }
    kc_func *f = &c->funcs[c->n_funcs];
    int line = c->toks[c->effect_at[0]].line;
    f->outer_tok = -1;
    f->def_tok = c->effect_at[0];
    f->name_tok = kc_synth_name(c, "<module>", 0, line);
    f->line = line;
    f->n_params = 0;
    f->state = f->returns_value = 0;
    f->local_math = f->local_math_names = 0;
    f->ret = T_UNKNOWN;
    f->node_begin = c->n_nodes;
    c->in_def = 1;
    c->parsing = f;
    c->depth = 1;
    int32_t head = -1, tail = -1;
    for (int32_t e = 0; e < c->n_effects && !c->err; e++) {
        c->pos = c->effect_at[e];
        int32_t last = -1;
        int32_t first = kc_simple_stmts(c, &last);
        if (c->err) break;
        for (int32_t k = first; k >= 0; k = c->nodes[k].next)
            if (c->nodes[k].kind != S_EXPR && c->nodes[k].kind != S_ASSERT) { kc_fail(c, "module-level statement other than def", c->nodes[k].line); break; }
        if (tail < 0) head = first; else c->nodes[tail].next = first;
        tail = last;
    }
    c->in_def = 0;
    c->depth = 0;
    f->node_end = c->n_nodes;
    c->pos = resume;
    if (c->err) return;
    int depth = 1;
    for (int32_t k = head; k >= 0; k = c->nodes[k].next)
        if (c->nodes[k].depth > depth) depth = c->nodes[k].depth;
    c->nodes[head].depth = depth;
    c->nodes[head].end_line = c->nodes[tail].end_line;
    f->body = head;
    c->n_funcs++;
}

/* frontend.py's _check_effects_see_final_names, over-approximated: no name read by `<module>` (the
   last function), or by a module function it may reach (every name in their nodes, their
   nested defs' included), is a def that comes after the first module-level statement */
KC_FN void kc_effects_see_final_names(kc_ctx *c) {
    int32_t mod = c->n_funcs - 1;
    int32_t *todo = (int32_t *)kc_alloc(c, (int64_t)(c->n_funcs + 1) * 4);
    uint8_t *seen = (uint8_t *)kc_alloc(c, c->n_funcs + 8);
    if (c->err) return;
    for (int32_t k = 0; k < c->n_funcs; k++) seen[k] = 0;
    int32_t top = 0;
    todo[top++] = mod;
    seen[mod] = 1;
    while (top && !c->err) {
        const kc_func *f = &c->funcs[todo[--top]];
        for (int32_t g = 0; g < c->n_funcs && !c->err; g++) {
            const kc_func *part = &c->funcs[g];
            if (part != f && !(f->outer_tok < 0 && part->outer_tok >= 0 && kc_same_name(c, part->outer_tok, f->name_tok))) continue;
            for (int32_t i = part->node_begin; i < part->node_end && !c->err; i++) {
                const kc_node *n = &c->nodes[i];
                if ((n->kind != E_NAME && n->kind != E_CALL) || n->tok < 0) continue;
                for (int32_t k = 0; k < mod; k++) {
                    if (c->funcs[k].outer_tok >= 0 || !kc_same_name(c, c->funcs[k].name_tok, n->tok)) continue;
                    if (k >= c->late_from) { kc_fail(c, "module-level statement using a name defined after it", n->line); break; }
                    if (!seen[k]) { seen[k] = 1; todo[top++] = k; }
                }
            }
        }
    }
}

/* a keyword that may begin an expression statement */
KC_FN int kc_expression_keyword(const kc_ctx *c, const kc_tok *t) {
    return kc_tok_is(c, t, "not") || kc_tok_is(c, t, "None") || kc_tok_is(c, t, "True") ||
           kc_tok_is(c, t, "False") || kc_tok_is(c, t, "lambda");
}

KC_FN void kc_parse_module(kc_ctx *c) {
    while (!c->err) {
        kc_tok *t = kc_peek(c);
        if (t->kind == TK_END) {
            if (c->n_effects) kc_module_function(c);
            if (c->n_effects && !c->err) kc_effects_see_final_names(c);
            if (!c->err) kc_module_names_once(c);
            return;
        }
        if (c->n_effects && t->kind == TK_NAME && (kc_tok_is(c, t, "import") || kc_tok_is(c, t, "from") ||
                                                   (!kc_is_keyword(c, t) && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_EQUAL))) {
            /* an import or a constant after a module-level statement (a def after one is
               checked at the end: kc_effects_see_final_names) */
            kc_fail(c, "module-level statement before an import or constant", t->line);
            return;
        }
        if (t->kind == TK_STRING && kc_peek2(c)->kind == TK_NEWLINE) {  /* docstring, stray string */
            kc_next(c);
            kc_next(c);
            continue;
        }
        if (t->kind == TK_NAME && (kc_tok_is(c, t, "import") || (kc_tok_is(c, t, "from") && kc_tok_is(c, kc_peek2(c), "math")))) {
            kc_math_import(c);
            if (!c->err && kc_peek(c)->kind != TK_NEWLINE) { kc_fail(c, "import form", t->line); return; }
            kc_next(c);
            continue;
        }
        if (t->kind == TK_NAME && kc_tok_is(c, t, "from") && kc_tok_is(c, kc_peek2(c), "typing")) {
            kc_next(c);
            kc_next(c);
            if (!kc_at_kw(c, "import")) { kc_fail(c, "import form", t->line); return; }
            kc_next(c);
            while (!c->err) {
                kc_tok *n = kc_next(c);
                if (n->kind != TK_NAME || kc_is_keyword(c, n)) { kc_fail(c, "import form", t->line); return; }
                int bit = kc_typing_name(c, n);
                if (bit < 0) { kc_fail(c, "import of a typing name kc does not know", t->line); return; }
                c->typing_names |= 1 << bit;
                if (!kc_at_op(c, P_COMMA)) break;
                kc_next(c);
            }
            if (kc_peek(c)->kind != TK_NEWLINE) { kc_fail(c, "import form", t->line); return; }
            kc_next(c);
            continue;
        }
        if (t->kind == TK_NAME && !kc_is_keyword(c, t) && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_EQUAL) {
            kc_module_constant(c);
            continue;
        }
        if (!(t->kind == TK_NAME && kc_tok_is(c, t, "def"))) {
            int effect = t->kind != TK_INDENT && t->kind != TK_DEDENT && t->kind != TK_NEWLINE &&
                         (!(t->kind == TK_NAME && kc_is_keyword(c, t)) || kc_tok_is(c, t, "assert") || kc_expression_keyword(c, t));
            if (!effect || c->n_effects >= KC_MAX_EFFECTS) {
                kc_fail(c, "module-level statement other than def", t->line);
                return;
            }
            /* an expression or assert statement (frontend.py's effects): parsed into `<module>`
               once every def is, skipped to the end of its line now */
            if (!c->n_effects) c->late_from = c->n_funcs;
            c->effect_at[c->n_effects++] = c->pos;
            while (kc_peek(c)->kind != TK_NEWLINE && kc_peek(c)->kind != TK_END) kc_next(c);
            if (kc_peek(c)->kind == TK_NEWLINE) kc_next(c);
            continue;
        }
        c->n_nested = 0;
        kc_parse_def(c, 0);
        if (c->err) return;
        /* its nested defs (skipped by kc_statement), hoisted before it: frontend.py's
           _hoist_nested names them outer.inner */
        int32_t resume = c->pos, h = c->n_nested, base = c->n_funcs;
        for (int32_t k = 0; k < h && !c->err; k++) {
            c->pos = c->nested_at[k];
            kc_parse_def(c, k + 1);
        }
        c->pos = resume;
        if (!c->err && h) kc_hoist_check(c, base, h);
        if (c->err) return;
        if (h) {
            kc_func outer = c->funcs[base];
            for (int32_t k = 0; k < h; k++) c->funcs[base + k] = c->funcs[base + k + 1];
            c->funcs[base + h] = outer;
        }
        c->n_funcs += 1 + h;
    }
}

/* ---- check: types ------------------------------------------------------------------------------- */

KC_TABLE char *const KC_BUILTINS[] = {
    "len", "range", "abs", "min", "max", "sum", "int", "float", "bool", "str", "sorted",
    "reversed", "enumerate", "list", "ord", "chr", "all", "any", "bin", "round", "zip", "set",
    "dict", "print", "isinstance", 0
};

KC_FN int kc_is_builtin(const kc_ctx *c, int32_t tok) {
    for (int k = 0; KC_BUILTINS[k]; k++)
        if (kc_tok_is(c, &c->toks[tok], KC_BUILTINS[k])) return 1;
    return 0;
}

/* a called name: in a function and the functions hoisted from it, its hoisted functions first
   (frontend.py renames those calls to outer.inner), then the module's */
KC_FN int32_t kc_find_func(const kc_ctx *c, int32_t tok) {
    int32_t scope = c->fn == 0 ? -1 : c->fn->outer_tok >= 0 ? c->fn->outer_tok : c->fn->name_tok, top = -1;
    for (int32_t i = 0; i < c->n_funcs; i++) {
        if (!kc_same_name(c, c->funcs[i].name_tok, tok)) continue;
        if (c->funcs[i].outer_tok < 0) { if (top < 0) top = i; }
        else if (scope >= 0 && kc_same_name(c, c->funcs[i].outer_tok, scope)) return i;
    }
    return top;
}

/* a name: the innermost comprehension variable in scope, else the function's variable */
KC_FN int32_t kc_lookup(const kc_ctx *c, int32_t tok) {
    for (int32_t v = c->n_vars - 1; v >= c->fn->var_begin; v--)
        if (c->vars[v].active && kc_same_name(c, c->vars[v].name_tok, tok)) return v;
    for (int32_t v = c->fn->var_begin; v < c->n_vars; v++)
        if (!c->vars[v].hidden && kc_same_name(c, c->vars[v].name_tok, tok)) return v;
    return -1;
}

KC_FN int32_t kc_new_var(kc_ctx *c, int32_t tok, int type) {
    if (c->n_vars >= c->cap_vars) { kc_fail(c, "too many variables for the arena", c->toks[tok].line); return -1; }
    kc_var *v = &c->vars[c->n_vars];
    v->name_tok = tok; v->type = type; v->slot = -1; v->flag = -1; v->needs_check = 0;
    v->hidden = v->active = 0;
    return c->n_vars++;
}

/* ---- types: kc's codes, type variables (types.py's TVar, resolve, unify) ---------------------- */

KC_FN int kc_is_list(int32_t t) { return t >= KC_LIST; }
KC_FN int kc_is_seq(int32_t t) { return t == T_STR || t >= KC_LIST; }
KC_FN int kc_is_tvar(int32_t t) { return t % KC_LIST >= KC_TVAR0 && t % KC_LIST < KC_TUPLE0; }
KC_FN int kc_is_tuple(int32_t t) { return t >= KC_TUPLE0 && t < KC_SET0; }
KC_FN int kc_is_set(int32_t t) { return t >= KC_SET0 && t < KC_DICT0; }
KC_FN int kc_is_dict(int32_t t) { return t >= KC_DICT0 && t < KC_LIST; }
KC_FN int kc_is_compound(int32_t base) { return base >= KC_TUPLE0 && base < KC_LIST; }
KC_FN int32_t kc_kind_base(int32_t base) { return base >= KC_DICT0 ? KC_DICT0 : base >= KC_SET0 ? KC_SET0 : KC_TUPLE0; }
KC_FN int32_t kc_entry(int32_t base) { return base - kc_kind_base(base); }
KC_FN int32_t kc_elem(int32_t t) { return t == T_STR ? T_STR : t - KC_LIST; }
KC_FN int32_t kc_tuple_n(const kc_ctx *c, int32_t t) { return c->tup_n[kc_entry(t)]; }
KC_FN int32_t kc_tuple_arg(const kc_ctx *c, int32_t t, int32_t i) { return c->targs[c->tup_at[kc_entry(t)] + i]; }

KC_FN int32_t kc_new_tvar(kc_ctx *c, int line) {
    if (c->n_tvars >= c->cap_tvars) { kc_fail(c, "too many type variables for the arena", line); return T_UNKNOWN; }
    c->tvars[c->n_tvars] = 0;
    return KC_TVAR0 + c->n_tvars++;
}

/* the tuple type of n items of types args, interned: equal tuple types have one code */
KC_FN int32_t kc_tuple_of(kc_ctx *c, int32_t n, const int32_t *args) {
    if (n < 1 || n > KC_MAX_TUPLE) { kc_fail(c, "tuple of more than 64 items", c->line); return T_UNKNOWN; }
    for (int32_t i = 0; i < c->n_tup; i++) {
        if (c->tup_n[i] != n) continue;
        int same = 1;
        for (int32_t k = 0; k < n && same; k++) same = c->targs[c->tup_at[i] + k] == args[k];
        if (same) return KC_TUPLE0 + i;
    }
    if (c->n_tup >= c->cap_tup || c->n_targs + n > c->cap_targs) { kc_fail(c, "too many tuple types for the arena", c->line); return T_UNKNOWN; }
    c->tup_n[c->n_tup] = n;
    c->tup_at[c->n_tup] = c->n_targs;
    for (int32_t k = 0; k < n; k++) c->targs[c->n_targs + k] = args[k];
    c->n_targs += n;
    return KC_TUPLE0 + c->n_tup++;
}

/* dict[key, value]: its code is its (key, value) tuple's entry from KC_DICT0 */
KC_FN int32_t kc_dict_of(kc_ctx *c, int32_t key, int32_t value) {
    int32_t parts[2] = {key, value};
    int32_t t = kc_tuple_of(c, 2, parts);
    return t == T_UNKNOWN ? t : t + KC_DICT0 - KC_TUPLE0;
}

/* set[elem]: its code is its 1-item tuple's entry from KC_SET0 */
KC_FN int32_t kc_set_of(kc_ctx *c, int32_t elem) {
    int32_t t = kc_tuple_of(c, 1, &elem);
    return t == T_UNKNOWN ? t : t + KC_SET0 - KC_TUPLE0;
}

/* t with its bound type variables replaced, inside tuples too (T_UNKNOWN for a type nested too
   deep) */
KC_FN int32_t kc_resolve_at(kc_ctx *c, int32_t t, int level) {
    for (int32_t guard = 0;; guard++) {
        int32_t base = t % KC_LIST, depth = t / KC_LIST;
        if (guard > c->n_tvars || t < 0) return T_UNKNOWN;
        if (!kc_is_tvar(base) || c->tvars[base - KC_TVAR0] == 0) break;
        int32_t to = c->tvars[base - KC_TVAR0];
        if (to / KC_LIST + depth > KC_MAX_LIST_DEPTH) return T_UNKNOWN;
        t = to + depth * KC_LIST;
    }
    int32_t base = t % KC_LIST, depth = t / KC_LIST;
    if (!kc_is_compound(base)) return t;
    if (level > KC_MAX_TYPE_NESTING) return T_UNKNOWN;
    int32_t n = kc_tuple_n(c, base), args[KC_MAX_TUPLE];
    int changed = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t a = kc_tuple_arg(c, base, i), r = kc_resolve_at(c, a, level + 1);
        if (r == T_UNKNOWN) return T_UNKNOWN;
        args[i] = r;
        changed |= r != a;
    }
    if (!changed) return t;
    int32_t nt = kc_tuple_of(c, n, args);
    if (nt != T_UNKNOWN) nt += kc_kind_base(base) - KC_TUPLE0;
    return nt == T_UNKNOWN ? T_UNKNOWN : nt + depth * KC_LIST;
}

KC_FN int32_t kc_resolve(kc_ctx *c, int32_t t) { return kc_resolve_at(c, t, 0); }

/* whether the type variable v occurs in the resolved type t */
KC_FN int kc_occurs(const kc_ctx *c, int32_t v, int32_t t, int level) {
    int32_t base = t % KC_LIST;
    if (base == v) return 1;
    if (!kc_is_compound(base) || level > KC_MAX_TYPE_NESTING) return level > KC_MAX_TYPE_NESTING;
    for (int32_t i = 0; i < kc_tuple_n(c, base); i++)
        if (kc_occurs(c, v, kc_tuple_arg(c, base, i), level + 1)) return 1;
    return 0;
}

/* whether the resolved type t holds no type variable (types.py's is_concrete) */
KC_FN int kc_concrete(const kc_ctx *c, int32_t t, int level) {
    int32_t base = t % KC_LIST;
    if (kc_is_tvar(base) || level > KC_MAX_TYPE_NESTING) return 0;
    if (kc_is_compound(base))
        for (int32_t i = 0; i < kc_tuple_n(c, base); i++)
            if (!kc_concrete(c, kc_tuple_arg(c, base, i), level + 1)) return 0;
    return 1;
}

/* types.py's _check_sets for a resolved type (nested: inside a container, or a function's) */
KC_FN int kc_sets_ok(const kc_ctx *c, int32_t t, int nested) {
    int32_t base = t % KC_LIST;
    if (nested > KC_MAX_TYPE_NESTING) return 0;
    if (kc_is_set(base) || kc_is_dict(base)) {
        int32_t e = kc_tuple_arg(c, base, 0);
        if (nested || t >= KC_LIST || !(e == T_INT || e == T_BOOL || e == T_STR)) return 0;
    }
    if (kc_is_compound(base))
        for (int32_t i = 0; i < kc_tuple_n(c, base); i++)
            if (!kc_sets_ok(c, kc_tuple_arg(c, base, i), nested + 1)) return 0;
    return 1;
}

/* types.py's unify: 1 when a and b are (made) one type */
KC_FN int kc_unify_at(kc_ctx *c, int32_t a, int32_t b, int level) {
    a = kc_resolve(c, a);
    b = kc_resolve(c, b);
    if (a == T_UNKNOWN || b == T_UNKNOWN || level > KC_MAX_TYPE_NESTING) return 0;
    if (a == b) return 1;
    int32_t ba = a % KC_LIST, bb = b % KC_LIST, da = a / KC_LIST, db = b / KC_LIST;
    if (kc_is_tvar(ba) && da <= db) {
        if (kc_occurs(c, ba, b, 0)) return 0;  /* ?1 against list[?1] */
        c->tvars[ba - KC_TVAR0] = b - da * KC_LIST;
        return 1;
    }
    if (kc_is_tvar(bb) && db <= da) {
        if (kc_occurs(c, bb, a, 0)) return 0;
        c->tvars[bb - KC_TVAR0] = a - db * KC_LIST;
        return 1;
    }
    if (da != db || !kc_is_compound(ba) || !kc_is_compound(bb) || kc_kind_base(ba) != kc_kind_base(bb) ||
        kc_tuple_n(c, ba) != kc_tuple_n(c, bb)) return 0;
    for (int32_t i = 0; i < kc_tuple_n(c, ba); i++)
        if (!kc_unify_at(c, kc_tuple_arg(c, ba, i), kc_tuple_arg(c, bb, i), level + 1)) return 0;
    return 1;
}

KC_FN int kc_unify(kc_ctx *c, int32_t a, int32_t b) { return kc_unify_at(c, a, b, 0); }

/* the type once the module is checked: an element type still unknown is int (types.py's
   _default_unknown: the list is always empty) */
KC_FN int32_t kc_final_at(kc_ctx *c, int32_t t, int level) {
    t = kc_resolve(c, t);
    if (t == T_UNKNOWN || level > KC_MAX_TYPE_NESTING) return T_UNKNOWN;
    int32_t base = t % KC_LIST;
    if (kc_is_tvar(base)) {
        c->tvars[base - KC_TVAR0] = T_INT;
        return kc_resolve(c, t);
    }
    if (kc_is_compound(base))
        for (int32_t i = 0; i < kc_tuple_n(c, base); i++)
            if (kc_final_at(c, kc_tuple_arg(c, base, i), level + 1) == T_UNKNOWN) return T_UNKNOWN;
    return kc_resolve(c, t);
}

KC_FN int32_t kc_final(kc_ctx *c, int32_t t) { return t == T_UNKNOWN ? t : kc_final_at(c, t, 0); }

/* a type's descriptor words (vm/values.py's Type.descriptor): its count, or with out, written */
KC_FN int32_t kc_descriptor(const kc_ctx *c, int32_t t, int32_t *out, int32_t at, int level) {
    int32_t base = t % KC_LIST, depth = t / KC_LIST;
    if (level > KC_MAX_TYPE_NESTING) return KC_MAX_TYPE_WORDS + 1;
    for (int32_t d = 0; d < depth; d++) {
        if (out && at < KC_MAX_TYPE_WORDS) out[at] = c->cfg->type_code[6];
        at++;
    }
    if (kc_is_dict(base)) {  /* a (keys list, values list) tuple at run time */
        if (out && at + 2 < KC_MAX_TYPE_WORDS) {
            out[at] = c->cfg->type_code[7];
            out[at + 1] = 2;
            out[at + 2] = c->cfg->type_code[6];
        }
        at = kc_descriptor(c, kc_tuple_arg(c, base, 0), out, at + 3, level + 1);
        if (out && at < KC_MAX_TYPE_WORDS) out[at] = c->cfg->type_code[6];
        return kc_descriptor(c, kc_tuple_arg(c, base, 1), out, at + 1, level + 1);
    }
    if (kc_is_set(base)) {  /* a sorted list without repeats at run time */
        if (out && at < KC_MAX_TYPE_WORDS) out[at] = c->cfg->type_code[6];
        return kc_descriptor(c, kc_tuple_arg(c, base, 0), out, at + 1, level + 1);
    }
    if (!kc_is_tuple(base)) {
        if (out && at < KC_MAX_TYPE_WORDS) out[at] = c->cfg->type_code[base];
        return at + 1;
    }
    if (out && at + 1 < KC_MAX_TYPE_WORDS) {
        out[at] = c->cfg->type_code[7];
        out[at + 1] = kc_tuple_n(c, base);
    }
    at += 2;
    for (int32_t i = 0; i < kc_tuple_n(c, base) && at <= KC_MAX_TYPE_WORDS; i++)
        at = kc_descriptor(c, kc_tuple_arg(c, base, i), out, at, level + 1);
    return at;
}

/* bind: a store to a name. A variable keeps one type (types.py's maybe_rebind, which starts a
   new variable for a top-level assignment of another type, is not done here: unsupported). */
KC_FN void kc_bind(kc_ctx *c, int32_t target, int type) {
    kc_node *n = &c->nodes[target];
    int32_t v = kc_lookup(c, n->tok);
    if (v < 0) {
        /* a variable named like a module function its function never calls: kc_no_shadowing_variables */
        if (kc_is_builtin(c, n->tok)) { kc_fail(c, "assignment to a function's name", n->line); return; }
        v = kc_new_var(c, n->tok, type);
        if (v < 0) return;
    } else if (!kc_unify(c, c->vars[v].type, type)) {
        kc_fail(c, "a variable assigned values of different types", n->line);
        return;
    }
    n->var = v;
    n->ty = kc_resolve(c, c->vars[v].type);
}

#define KC_ALLOW_NONE 1
#define KC_ALLOW_STR 2

KC_FN int kc_numeric(int t) { return t == T_INT || t == T_BOOL || t == T_FLOAT; }
KC_FN int kc_intlike(int t) { return t == T_INT || t == T_BOOL; }

KC_FN int kc_type_expr(kc_ctx *c, int32_t k, int allow);

/* whether tok is one of CPython's builtin names (kc_config.py_builtins) */
KC_FN int kc_python_builtin(const kc_ctx *c, const kc_tok *t) {
    const char *b = c->cfg->py_builtins;
    for (int i = 0; i < KC_PY_BUILTINS && b[i];) {
        int j = 0;
        while (i + j < KC_PY_BUILTINS && b[i + j] && b[i + j] != ' ') j++;
        if (j == t->len) {
            int same = 1;
            for (int k = 0; k < j && same; k++) same = b[i + k] == kc_tch(c, t, k);
            if (same) return 1;
        }
        i += j;
        if (i < KC_PY_BUILTINS && b[i] == ' ') i++;
    }
    return 0;
}

/* types.py's e_Call for a name bound nowhere (no function, variable, module name or builtin):
   CPython's NameError when the call runs, before its arguments; kc takes it where a truth test
   gives its NeverVar a type (bool), types.py's truth */
KC_FN int kc_name_error_call(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    if (n->kind != E_CALL || n->op || n->tok < 0 || c->toks[n->tok].start < 0) return 0;
    const kc_tok *t = &c->toks[n->tok];
    kc_func *f = c->fn;
    if (kc_find_func(c, n->tok) >= 0 || kc_is_builtin(c, n->tok) || kc_python_builtin(c, t) ||
        kc_mconst_of(c, n->tok) >= 0 || kc_math_fn(c, t) >= 0 || kc_tok_is(c, t, "math") ||
        kc_typing_name(c, t) >= 0 || kc_lookup(c, n->tok) >= 0)
        return 0;
    /* a variable of the function (types.py's is_local: a parameter, or a Store anywhere in it) */
    if (!kc_mark_stores(c, f->node_begin, f->node_end, 1)) { kc_mark_stores(c, f->node_begin, f->node_end, 0); return 0; }
    int bound = kc_binds(c, f, f->node_begin, f->node_end, n->tok);
    kc_mark_stores(c, f->node_begin, f->node_end, 0);
    if (bound) return 0;
    n->op = KC_NAME_ERROR_OP;
    n->ty = T_BOOL;
    return 1;
}

/* types.py's truth: None (a result that is always None, a stub's) is false, as in CPython */
KC_FN int kc_truth_type(kc_ctx *c, int32_t k) {
    if (c->nodes[k].op == KC_NAME_ERROR_OP || kc_name_error_call(c, k)) return T_BOOL;
    int t = kc_type_expr(c, k, KC_ALLOW_NONE);
    return t;
}

/* types.py's binop_type for the operands kc covers */
KC_FN int kc_binop_type(kc_ctx *c, int32_t node, int op, int lt, int rt, int32_t right) {
    if (c->err) return T_UNKNOWN;
    int line = c->nodes[node].line;
    lt = kc_resolve(c, lt);
    rt = kc_resolve(c, rt);
    if (!(kc_numeric(lt) && kc_numeric(rt))) {
        if (op == B_ADD && lt == T_STR && rt == T_STR) return T_STR;
        if (op == B_ADD && kc_is_list(lt) && kc_is_list(rt)) {
            if (!kc_unify(c, lt, rt)) { kc_fail(c, "concatenation of lists of different types (a type error)", line); return T_UNKNOWN; }
            return kc_resolve(c, lt);
        }
        if (op == B_ADD && kc_is_tuple(lt) && kc_is_tuple(rt)) {
            int32_t args[KC_MAX_TUPLE], n = 0;
            if (kc_tuple_n(c, lt) + kc_tuple_n(c, rt) > KC_MAX_TUPLE) { kc_fail(c, "tuple of more than 64 items", line); return T_UNKNOWN; }
            for (int32_t i = 0; i < kc_tuple_n(c, lt); i++) args[n++] = kc_tuple_arg(c, lt, i);
            for (int32_t i = 0; i < kc_tuple_n(c, rt); i++) args[n++] = kc_tuple_arg(c, rt, i);
            return kc_tuple_of(c, n, args);
        }
        if (op == B_MUL && kc_is_seq(lt) && kc_intlike(rt)) return lt;
        if (op == B_MUL && kc_intlike(lt) && kc_is_seq(rt)) return rt;
        kc_fail(c, "operator on these operand types", line);
        return T_UNKNOWN;
    }
    if (op == B_MATMUL) { kc_fail(c, "@ operator", line); return T_UNKNOWN; }
    if (op == B_DIV) return T_FLOAT;
    if (op == B_LSHIFT || op == B_RSHIFT || op == B_BITOR || op == B_BITXOR || op == B_BITAND) {
        if (lt == T_FLOAT || rt == T_FLOAT) { kc_fail(c, "bitwise operator on a float (a type error)", line); return T_UNKNOWN; }
        if (lt == T_BOOL && rt == T_BOOL && op != B_LSHIFT && op != B_RSHIFT) return T_BOOL;
        return T_INT;
    }
    if (lt == T_FLOAT || rt == T_FLOAT) return T_FLOAT;
    if (op == B_POW && right >= 0 && c->nodes[right].kind == E_UNARY && c->nodes[right].op == U_NEG) {
        int operand = c->nodes[c->nodes[right].a].kind;
        if (operand == E_INT || operand == E_BOOL || operand == E_FLOAT || operand == E_NONE || operand == E_STR) {
            c->nodes[node].pow_float = 1;  /* int ** -k is a float in Python */
            return T_FLOAT;
        }
    }
    return T_INT;
}

KC_FN int kc_seq_type(kc_ctx *c, int32_t k);
KC_FN int kc_iteration(kc_ctx *c, kc_node *s);
KC_FN int64_t kc_const_int(const kc_ctx *c, int32_t k, int *known);
KC_FN void kc_bind_loop_target(kc_ctx *c, kc_node *s, int elem, int comp);
KC_FN int kc_list_len(const kc_ctx *c, int32_t k);

KC_FN int kc_is_builtin_call(kc_ctx *c, int32_t k, const char *name) {
    const kc_node *n = &c->nodes[k];
    return n->kind == E_CALL && kc_find_func(c, n->tok) < 0 && kc_tok_is(c, &c->toks[n->tok], name);
}

/* range(...)'s arguments: 1 to 3 ints */
KC_FN void kc_range_args(kc_ctx *c, kc_node *it) {
    if (it->ival < 1 || it->ival > 3) { kc_fail(c, "range() with the wrong number of arguments", it->line); return; }
    for (int32_t a = it->a; a >= 0 && !c->err; a = c->nodes[a].next)
        if (!kc_intlike(kc_type_expr(c, a, 0)) && !c->err) kc_fail(c, "range() of a non-int (a type error)", it->line);
}

/* types.py's sequence: a str or list operand; range(...) here is materialised as a list[int]
   (the call's op 1: lower.py's b_range) */
KC_FN int kc_sequence(kc_ctx *c, int32_t k) {
    if (kc_is_builtin_call(c, k, "range")) {
        kc_range_args(c, &c->nodes[k]);
        c->nodes[k].op = 1;
        c->nodes[k].ty = T_INT + KC_LIST;
        return T_INT + KC_LIST;
    }
    return kc_seq_type(c, k);
}

/* types.py's sequence(allow_set=True): a set is its sorted list */
KC_FN int kc_sequence_set(kc_ctx *c, int32_t k) {
    if (kc_is_builtin_call(c, k, "range")) return kc_sequence(c, k);
    int t = kc_type_expr(c, k, 0);
    if (c->err) return T_UNKNOWN;
    if (kc_is_set(t)) return kc_tuple_arg(c, t, 0) + KC_LIST;
    if (!kc_is_seq(t)) { kc_fail(c, "a sequence other than a str, list or set", c->nodes[k].line); return T_UNKNOWN; }
    return t;
}

KC_FN int kc_builtin_type(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    const kc_tok *name = &c->toks[n->tok];
    int count = (int)n->ival;
    int32_t a0 = n->a;
    int consumes = kc_tok_is(c, name, "min") || kc_tok_is(c, name, "max") || kc_tok_is(c, name, "sum") ||
                   kc_tok_is(c, name, "sorted") || kc_tok_is(c, name, "list");
    if (consumes && count == 1 && c->nodes[a0].kind == E_LISTCOMP && c->nodes[a0].spare == 1)
        c->nodes[a0].spare = 2;  /* frontend.py's _rewrite_generators: a list comprehension */
    if (n->spare && !kc_tok_is(c, name, "sorted")) { kc_fail(c, "keyword argument", n->line); return T_UNKNOWN; }
    if (kc_tok_is(c, name, "sorted") && count == 1 && kc_is_builtin_call(c, a0, "list") && c->nodes[a0].ival == 1 &&
        !kc_is_builtin_call(c, c->nodes[a0].a, "reversed"))
        n->a = a0 = c->nodes[a0].a;  /* frontend.py: sorted(list(x)) is sorted(x) */
    if (kc_tok_is(c, name, "sum") && count == 1 && kc_is_builtin_call(c, a0, "range")) {
        kc_sequence(c, a0);  /* frontend.py: sum(range(...)) is sum(list(range(...))) */
        return T_INT;
    }
    if ((kc_tok_is(c, name, "all") || kc_tok_is(c, name, "any")) && count == 1) {
        /* a generator kept as one (frontend.py marks it allowed), or all(xs) as all($x for $x in xs):
           a comprehension-like node L (spare 3) in the call's b */
        int32_t l = a0;  /* checked again after a suspension: spare 3 then, or the made node in b */
        if (n->b >= 0 || !(c->nodes[a0].kind == E_LISTCOMP && (c->nodes[a0].spare == 1 || c->nodes[a0].spare == 3))) {
            if (n->b < 0) {
                int32_t g = kc_node_new(c, E_COMPFOR, n->line), item = kc_node_new(c, E_NAME, n->line);
                int32_t target = kc_node_new(c, E_NAME, n->line);
                l = kc_node_new(c, E_LISTCOMP, n->line);
                if (c->err) return T_UNKNOWN;
                c->nodes[item].tok = c->nodes[target].tok = n->tok;  /* both name the hidden item */
                c->nodes[g].a = target;
                c->nodes[g].b = a0;
                c->nodes[g].d = l;
                c->nodes[l].a = item;
                c->nodes[l].b = g;
                n->b = l;
            }
            l = n->b;
        }
        c->nodes[l].spare = 3;
        c->nodes[l].op = (int16_t)kc_tok_is(c, name, "all");
        n->op = 6;
        int32_t first = c->n_vars;
        for (int32_t g = c->nodes[l].b; g >= 0 && !c->err; g = c->nodes[g].next) {
            kc_node *gn = &c->nodes[g];
            int et = kc_iteration(c, gn);
            if (c->err) return T_UNKNOWN;
            kc_bind_loop_target(c, gn, et, 1);
            if (c->err) return T_UNKNOWN;
            for (int32_t cond = gn->c; cond >= 0 && !c->err; cond = c->nodes[cond].next) kc_truth_type(c, cond);
        }
        kc_truth_type(c, c->nodes[l].a);
        for (int32_t v = first; v < c->n_vars; v++) c->vars[v].active = 0;
        return T_BOOL;
    }
    if (kc_tok_is(c, name, "set")) {  /* op 7: set(), op 8: set(seq) (SORTED_UNIQUE) */
        if (count > 1) { kc_fail(c, "set() with these arguments (a type error)", n->line); return T_UNKNOWN; }
        if (count == 0) {
            n->op = 7;
            return kc_set_of(c, kc_new_tvar(c, n->line));
        }
        int seq = kc_sequence_set(c, a0);
        if (c->err) return T_UNKNOWN;
        n->op = 8;
        return kc_set_of(c, kc_elem(seq));
    }
    if (kc_tok_is(c, name, "print")) {  /* types.py's print_call: the arguments, then None */
        for (int32_t a = a0; a >= 0 && !c->err; a = c->nodes[a].next) kc_type_expr(c, a, KC_ALLOW_NONE);
        return T_NONE;
    }
    if (kc_tok_is(c, name, "list")) {  /* types.py's list_call; the call's op says how */
        if (count == 0) {
            n->op = 2;
            return kc_new_tvar(c, n->line) + KC_LIST;
        }
        if (count != 1) { kc_fail(c, "list() with these arguments", n->line); return T_UNKNOWN; }
        if (kc_is_builtin_call(c, a0, "range")) {
            n->op = 3;
            return kc_sequence(c, a0);
        }
        if (kc_is_builtin_call(c, a0, "reversed")) {
            if (c->nodes[a0].ival != 1) { kc_fail(c, "reversed() with these arguments", n->line); return T_UNKNOWN; }
            int seq = kc_sequence(c, c->nodes[a0].a);
            n->op = 4;
            return seq == T_STR ? T_STR + KC_LIST : seq;
        }
        int seq = kc_sequence(c, a0);
        n->op = 5;
        return seq == T_STR ? T_STR + KC_LIST : seq;
    }
    if ((kc_tok_is(c, name, "sorted") || ((kc_tok_is(c, name, "min") || kc_tok_is(c, name, "max")) && count == 1))) {
        if (count != 1) { kc_fail(c, "sorted() with these arguments", n->line); return T_UNKNOWN; }
        int seq = kc_sequence_set(c, a0);
        if (c->err) return T_UNKNOWN;
        if (kc_tok_is(c, name, "sorted")) return seq == T_STR ? T_STR + KC_LIST : seq;
        return kc_elem(seq);
    }
    if (kc_tok_is(c, name, "min") || kc_tok_is(c, name, "max")) {
        if (count < 2) { kc_fail(c, "min/max without arguments", n->line); return T_UNKNOWN; }
        int t0 = T_UNKNOWN;
        for (int32_t a = a0; a >= 0 && !c->err; a = c->nodes[a].next) {
            int t = kc_type_expr(c, a, 0);
            if (a == a0) t0 = t;
            else if (t != t0) kc_fail(c, "min/max of different types (a type error)", n->line);
        }
        if (!c->err && !kc_numeric(t0) && !kc_is_seq(t0) && !kc_is_tuple(t0)) kc_fail(c, "min/max of these values", n->line);
        return t0;
    }
    if (kc_tok_is(c, name, "str") && count == 0) return T_STR;
    if (kc_tok_is(c, name, "str") || kc_tok_is(c, name, "ord") || kc_tok_is(c, name, "chr") || kc_tok_is(c, name, "sum")) {
        if (count != 1) { kc_fail(c, "builtin call with these arguments", n->line); return T_UNKNOWN; }
        int t = kc_type_expr(c, a0, 0);
        if (c->err) return T_UNKNOWN;
        if (kc_tok_is(c, name, "str") && (kc_intlike(t) || t == T_STR)) return T_STR;
        if (kc_tok_is(c, name, "ord") && t == T_STR) return T_INT;
        if (kc_tok_is(c, name, "chr") && kc_intlike(t)) return T_STR;
        if (kc_tok_is(c, name, "sum") && kc_is_list(t) && kc_numeric(kc_elem(t))) return kc_elem(t) == T_FLOAT ? T_FLOAT : T_INT;
        kc_fail(c, "str/ord/chr/sum of this type", n->line);
        return T_UNKNOWN;
    }
    if (kc_tok_is(c, name, "len")) {
        if (count != 1) { kc_fail(c, "len() with these arguments", n->line); return T_UNKNOWN; }
        int t = kc_type_expr(c, a0, 0);
        if (!c->err && !kc_is_seq(t) && !kc_is_tuple(t) && !kc_is_set(t) && !kc_is_dict(t)) kc_fail(c, "len() of something other than a str, list, tuple, set or dict", n->line);
        return T_INT;
    }
    int is_abs = kc_tok_is(c, name, "abs"), is_int = kc_tok_is(c, name, "int");
    int is_float = kc_tok_is(c, name, "float"), is_bool = kc_tok_is(c, name, "bool");
    if (kc_tok_is(c, name, "dict")) {  /* types.py: dict() or dict(a list of pairs) */
        if (n->spare || count > 1) { kc_fail(c, "dict() with these arguments (a type error)", n->line); return T_UNKNOWN; }
        if (count == 0) {
            n->op = KC_DICT_OP;
            int32_t kt = kc_new_tvar(c, n->line);
            return kc_dict_of(c, kt, kc_new_tvar(c, n->line));
        }
        if (c->nodes[a0].kind == E_LISTCOMP && c->nodes[a0].spare == 1) { kc_fail(c, "generator expression", n->line); return T_UNKNOWN; }
        int pairs = kc_resolve(c, kc_type_expr(c, a0, 0));
        if (c->err) return T_UNKNOWN;
        int item = kc_is_list(pairs) ? kc_resolve(c, kc_elem(pairs)) : T_UNKNOWN;
        if (!kc_is_tuple(item) || item >= KC_LIST || kc_tuple_n(c, item) != 2) { kc_fail(c, "dict() of something other than a list of pairs", n->line); return T_UNKNOWN; }
        n->op = KC_DICT_OP + 1;
        return kc_dict_of(c, kc_tuple_arg(c, item, 0), kc_tuple_arg(c, item, 1));
    }
    if (!(is_abs || is_int || is_float || is_bool)) { kc_fail(c, "builtin function", n->line); return T_UNKNOWN; }
    if (count > 1 || (is_abs && count != 1)) { kc_fail(c, "builtin call with these arguments", n->line); return T_UNKNOWN; }
    if (count == 0) return is_int ? T_INT : is_float ? T_FLOAT : T_BOOL;
    int t = kc_type_expr(c, a0, 0);
    if (c->err) return T_UNKNOWN;
    if (is_int && t == T_STR) return T_INT;
    if (is_bool && (kc_is_seq(t) || kc_is_tuple(t) || kc_is_set(t) || kc_is_dict(t))) return T_BOOL;
    if (!kc_numeric(t)) { kc_fail(c, "conversion of a non-number", n->line); return T_UNKNOWN; }
    if (is_abs) return t == T_FLOAT ? T_FLOAT : T_INT;
    return is_int ? T_INT : is_float ? T_FLOAT : T_BOOL;
}

/* str methods: KC_STR_METHODS and the tables beside it, in kc_surface.h (included above) */

/* list methods (types.py's method_call) */
KC_TABLE char *const KC_LIST_METHODS[] = {
    "append", "pop", "sort", "reverse", "clear", "extend", "index", "count", "remove", 0
};
enum { KC_LM_APPEND, KC_LM_POP, KC_LM_SORT, KC_LM_REVERSE, KC_LM_CLEAR, KC_LM_EXTEND, KC_LM_INDEX,
       KC_LM_COUNT, KC_LM_REMOVE };

/* the sequence a subscript or a loop reads: a str or a list */
KC_FN int kc_seq_type(kc_ctx *c, int32_t k) {
    int t = kc_type_expr(c, k, 0);
    if (!c->err && !kc_is_seq(t)) kc_fail(c, "subscript or iteration of something other than a str or list", c->nodes[k].line);
    return t;
}

KC_FN void kc_index_type(kc_ctx *c, int32_t k) {
    if (k < 0) return;
    int t = kc_type_expr(c, k, 0);
    if (!c->err && !kc_intlike(t)) kc_fail(c, "index of a non-int (a type error)", c->nodes[k].line);
}

/* types.py's iteration for a for loop or a comprehension's generator s (s->b the iterable): the
   items' type; s->ival = 1 over a str or list, 0 over range() */
KC_FN int kc_iteration(kc_ctx *c, kc_node *s) {
    kc_node *it = &c->nodes[s->b];
    int reversed = 0, seq;
    int32_t view = -1;  /* over a dict (ival 5 keys, 6 values, 7 items): its source node */
    int how = 5;
    if (it->kind == E_METHOD && (kc_tok_is(c, &c->toks[it->tok], "keys") || kc_tok_is(c, &c->toks[it->tok], "values") ||
                                 kc_tok_is(c, &c->toks[it->tok], "items"))) {
        if (it->ival || it->spare) { kc_fail(c, "dict view with arguments (a type error)", s->line); return T_UNKNOWN; }
        view = it->a;
        how = kc_tok_is(c, &c->toks[it->tok], "keys") ? 5 : kc_tok_is(c, &c->toks[it->tok], "values") ? 6 : 7;
    } else if (it->kind == E_NAME) {
        int32_t v = kc_lookup(c, it->tok);
        if (v >= 0 && kc_is_dict(kc_resolve(c, c->vars[v].type))) view = s->b;
    }
    if (view >= 0) {
        int d = kc_type_expr(c, view, 0);
        if (c->err) return T_UNKNOWN;
        if (!kc_is_dict(d)) { kc_fail(c, "dict view of something other than a dict (a type error)", s->line); return T_UNKNOWN; }
        s->ival = how;
        return d;
    }
    if (it->kind == E_CALL && kc_find_func(c, it->tok) < 0 &&
        (kc_tok_is(c, &c->toks[it->tok], "range") || kc_tok_is(c, &c->toks[it->tok], "reversed") ||
         kc_tok_is(c, &c->toks[it->tok], "enumerate") || kc_tok_is(c, &c->toks[it->tok], "zip"))) {
        if (kc_tok_is(c, &c->toks[it->tok], "range")) {
            kc_range_args(c, it);
            s->ival = 0;
            return T_INT;
        }
        if (it->spare) { kc_fail(c, "keyword argument", s->line); return T_UNKNOWN; }
        if (kc_tok_is(c, &c->toks[it->tok], "enumerate")) {  /* (count, item) pairs: ival 3 */
            if (it->ival < 1 || it->ival > 2) { kc_fail(c, "enumerate() with these arguments (a type error)", s->line); return T_UNKNOWN; }
            int enumerated = kc_sequence(c, it->a);
            if (!c->err && it->ival == 2 && !kc_intlike(kc_type_expr(c, c->nodes[it->a].next, 0)) && !c->err)
                kc_fail(c, "enumerate() start of a non-int (a type error)", s->line);
            s->ival = 3;
            return c->err ? T_UNKNOWN : enumerated;
        }
        if (kc_tok_is(c, &c->toks[it->tok], "zip")) {  /* tuples of items: ival 4 */
            if (it->ival < 1) { kc_fail(c, "zip() without arguments (a type error)", s->line); return T_UNKNOWN; }
            for (int32_t a = it->a; a >= 0 && !c->err; a = c->nodes[a].next) kc_sequence(c, a);
            s->ival = 4;
            return T_UNKNOWN;
        }
        if (!kc_tok_is(c, &c->toks[it->tok], "reversed")) { kc_fail(c, "for loop over a builtin other than range() or reversed()", s->line); return T_UNKNOWN; }
        if (it->ival != 1) { kc_fail(c, "reversed() with these arguments (a type error)", s->line); return T_UNKNOWN; }
        if (it->spare) { kc_fail(c, "keyword argument", s->line); return T_UNKNOWN; }
        reversed = 1;
        seq = kc_sequence(c, it->a);
    } else {
        seq = kc_sequence(c, s->b);
    }
    if (c->err) return T_UNKNOWN;
    int elem = kc_resolve(c, kc_elem(seq));
    if (kc_is_tvar(elem) && elem < KC_LIST) { kc_fail(c, "iteration over a list whose item type is not known yet", s->line); return T_UNKNOWN; }
    s->ival = 1 + reversed;
    return elem;
}

/* binds a loop's target (s->a: a name or a tuple of names) to its items: `elem`, the sequence's
   item type, or for enumerate / zip (s->ival 3 / 4; `elem` the enumerated sequence) a tuple,
   unpacked into as many names. In a comprehension (`comp`) each name is a new hidden variable in
   its scope, all made first, in order (types.py's bind_comp_target). */
KC_FN void kc_bind_loop_target(kc_ctx *c, kc_node *s, int elem, int comp) {
    kc_node *target = &c->nodes[s->a];
    int32_t names = target->kind == E_TUPLE ? target->a : s->a;
    int32_t count = target->kind == E_TUPLE ? kc_list_len(c, target->a) : 1;
    int32_t item = elem;
    if (s->ival == 5 || s->ival == 6) item = kc_tuple_arg(c, kc_resolve(c, elem), (int32_t)(s->ival - 5));
    if (s->ival == 7) {
        int32_t d = kc_resolve(c, elem), parts[2] = {kc_tuple_arg(c, d, 0), kc_tuple_arg(c, d, 1)};
        item = kc_tuple_of(c, 2, parts);
    }
    if (s->ival == 3 || s->ival == 4) {  /* the items are tuples */
        int32_t args[KC_MAX_TUPLE], n = 0;
        if (s->ival == 3) {
            args[n++] = T_INT;
            args[n++] = kc_elem(elem);
        } else {
            for (int32_t a = c->nodes[s->b].a; a >= 0 && !c->err; a = c->nodes[a].next) {
                if (n >= KC_MAX_TUPLE) { kc_fail(c, "zip of more than 64 sequences", s->line); return; }
                args[n++] = kc_elem(c->nodes[a].ty);
            }
        }
        item = kc_tuple_of(c, n, args);
        if (c->err) return;
    }
    item = kc_resolve(c, item);
    if (item == T_UNKNOWN || (kc_is_tvar(item) && item < KC_LIST)) { kc_fail(c, "iteration over items of a type not known yet", s->line); return; }
    if (target->kind == E_TUPLE) {
        if (!(kc_is_list(item) || (kc_is_tuple(item) && kc_tuple_n(c, item) == count))) { kc_fail(c, "unpacking of the items (a type error)", s->line); return; }
        target->ty = item;
    }
    int32_t first = c->n_vars;
    if (comp)
        for (int32_t e = names; e >= 0 && !c->err; e = c->nodes[e].next) {
            int32_t v = kc_new_var(c, c->nodes[e].tok, T_UNKNOWN);
            if (v >= 0) c->vars[v].hidden = c->vars[v].active = 1;
        }
    int32_t i = 0;
    for (int32_t e = names; e >= 0 && !c->err; e = c->nodes[e].next, i++) {
        int t = target->kind != E_TUPLE ? item : kc_is_list(item) ? kc_elem(item) : kc_tuple_arg(c, item, i);
        if (!comp) { kc_bind(c, e, t); continue; }
        int32_t v = kc_lookup(c, c->nodes[e].tok);  /* the innermost of this name: the scope's */
        if (v < first || (c->vars[v].type != T_UNKNOWN && !kc_unify(c, c->vars[v].type, t))) { kc_fail(c, "comprehension target (a type error)", s->line); return; }
        if (c->vars[v].type == T_UNKNOWN) c->vars[v].type = t;
        c->nodes[e].var = v;
        c->nodes[e].ty = kc_resolve(c, t);
    }
}

/* math.sqrt(x) -> float; math.floor(x), math.ceil(x), round(x) -> int (types.py's math_call);
   bin(x) -> str: of the argument's type `at` (the caller typed it: no recursion here) */
KC_FN int kc_math_result(kc_ctx *c, const kc_node *n, int at) {
    if (c->err) return T_UNKNOWN;
    if (n->op == KC_MATH_OP + 4) {  /* bin(x): STR_BIN, never folded */
        if (!kc_intlike(at)) { kc_fail(c, "bin() of a non-int (a type error)", n->line); return T_UNKNOWN; }
        return T_STR;
    }
    if (!kc_numeric(at)) { kc_fail(c, "math function of a non-number (a type error)", n->line); return T_UNKNOWN; }
    return n->op == KC_MATH_OP ? T_FLOAT : T_INT;
}

/* Whether every assignment target the parse took is one CPython's grammar takes (kc's parser
   leaves the rest to the checker): names, items and slices, tuples and lists of those. A
   diagnostic of kc's is given only when this holds. */
KC_FN int kc_targets_ok(const kc_ctx *c) {
    for (int32_t i = 0; i < c->n_nodes; i++) {
        if (c->nodes[i].kind != S_ASSIGN) continue;
        for (int32_t t = c->nodes[i].a; t >= 0; t = c->nodes[t].next) {
            const kc_node *tn = &c->nodes[t];
            if (tn->kind == E_NAME || tn->kind == E_INDEX || tn->kind == E_SLICE) continue;
            if (tn->kind != E_TUPLE && tn->kind != E_LIST) return 0;
            for (int32_t e = tn->a; e >= 0; e = c->nodes[e].next) {
                int kind = c->nodes[e].kind;
                if (kind != E_NAME && kind != E_INDEX && kind != E_SLICE) return 0;
            }
        }
    }
    return 1;
}

/* Whether frontend.py takes the module kc parsed (its subset checks come before every type
   error; kc leaves some to its checker): no generator expression, lambda, keyword argument but
   sorted's and sort's reverse=, or nested function, and CPython's assignment targets. kc gives a
   diagnostic of its checker only when this holds. */
KC_FN int kc_frontend_ok(const kc_ctx *c) {
    if (!kc_targets_ok(c)) return 0;
    for (int32_t i = 0; i < c->n_funcs; i++)
        if (c->funcs[i].outer_tok >= 0) return 0;
    for (int32_t i = 0; i < c->n_toks; i++)
        if (c->toks[i].kind == TK_NAME && kc_tok_is(c, &c->toks[i], "lambda")) return 0;
    for (int32_t i = 0; i < c->n_nodes; i++) {
        const kc_node *n = &c->nodes[i];
        if (n->kind == E_LISTCOMP && n->spare >= 1 && n->spare <= 3) return 0;
        if (n->kind == E_CALL && (n->c >= 0 || (n->spare && !kc_tok_is(c, &c->toks[n->tok], "sorted")))) return 0;
        if (n->kind == E_METHOD && n->spare && !kc_tok_is(c, &c->toks[n->tok], "sort")) return 0;
    }
    return 1;
}

/* A read of a name no local binds: types.py's name_error, a NameError where the module binds
   the name nowhere and it is no builtin (the read raises it when it runs), else its diagnostic;
   kc leaves both to the reference. */
KC_FN void kc_undefined_name(kc_ctx *c, int32_t tok, int32_t line) {
    (void)tok;
    kc_fail(c, "a name no local binds (NameError, or a function used as a value)", line);
}

/* The diagnostic of a call types.py rejects, where kc is sure of it (as kc_undefined_name): the
   wrong number of arguments for a module function. A call of a name that is no function,
   builtin or variable is not diagnosed: types.py compiles a call of a name bound nowhere (a
   NameError in CPython, left to it when the call runs), which kc leaves to the reference
   (callee 0). */
KC_FN void kc_call_error(kc_ctx *c, const kc_node *n, const kc_func *callee) {
    const char *what = callee ? "call with the wrong number of arguments (a type error)"
                              : "call of something other than a module function or abs/min/max/int/float/bool/len";
    int sure = !c->err && kc_frontend_ok(c) && callee;
    for (int32_t i = 0; i < c->n_funcs && sure; i++) sure = c->funcs[i].outer_tok < 0;
    const kc_tok *t = &c->toks[n->tok];
    for (int64_t i = t->start - 1; i >= 0 && c->src[i] != '\n' && sure; i--) sure = (unsigned char)c->src[i] < 0x80;
    if (!sure || t->len > 60) { kc_fail(c, what, n->line); return; }
    char msg[200];
    int at = 0;
    for (int32_t j = 0; j < t->len; j++) msg[at++] = c->src[t->start + j];
    msg[at] = 0;
    at = kc_copy(msg, at, 200, "() takes ");
    at = kc_copy_int(msg, at, 200, callee->n_params);
    at = kc_copy(msg, at, 200, " argument(s) but ");
    at = kc_copy_int(msg, at, 200, n->ival);
    kc_copy(msg, at, 200, " were given");
    kc_diag(c, t->line, t->col + 1, "type error", msg);
}

KC_FN int kc_type_expr(kc_ctx *c, int32_t k, int allow) {
    if (c->err || k < 0) return T_UNKNOWN;
    kc_node *n = &c->nodes[k];
    int t = T_UNKNOWN;
    switch (n->kind) {
    case E_INT: t = T_INT; break;
    case E_FLOAT: t = T_FLOAT; break;
    case E_BOOL: t = T_BOOL; break;
    case E_NONE: t = T_NONE; break;
    case E_STR: t = T_STR; break;
    case E_NAME: {
        int32_t v = kc_lookup(c, n->tok);
        if (v < 0) { kc_undefined_name(c, n->tok, n->line); return T_UNKNOWN; }
        n->var = v;
        t = c->vars[v].type;
        break;
    }
    case E_BINOP: {
        int lt = kc_type_expr(c, n->a, 0);
        int rt = kc_type_expr(c, n->b, 0);
        t = kc_binop_type(c, k, n->op, lt, rt, n->b);
        break;
    }
    case E_UNARY: {
        if (n->op == U_NOT) { kc_truth_type(c, n->a); t = T_BOOL; break; }
        int ot = kc_type_expr(c, n->a, 0);
        if (c->err) return T_UNKNOWN;
        if (n->op == U_INVERT) {
            if (!kc_intlike(ot)) { kc_fail(c, "~ of a non-int (a type error)", n->line); return T_UNKNOWN; }
            t = T_INT;
        } else {
            if (!kc_numeric(ot)) { kc_fail(c, "unary operator on a non-number", n->line); return T_UNKNOWN; }
            t = ot == T_FLOAT ? T_FLOAT : T_INT;
        }
        break;
    }
    case E_BOOLOP: {
        int first = T_UNKNOWN;
        for (int32_t v = n->a; v >= 0 && !c->err; v = c->nodes[v].next) {
            int vt = kc_truth_type(c, v);
            if (v == n->a) first = vt;
            else if (!c->err && !kc_unify(c, first, vt)) kc_fail(c, "and/or operands of different types (a type error)", n->line);
        }
        t = first;
        break;
    }
    case E_COMPARE: {
        int lt = kc_type_expr(c, n->a, KC_ALLOW_NONE);
        int32_t left = n->a;
        for (int32_t link = n->b; link >= 0 && !c->err; left = c->nodes[link].a, link = c->nodes[link].next) {
            kc_node *l = &c->nodes[link];
            int rt = kc_type_expr(c, l->a, KC_ALLOW_NONE);
            if (c->err) return T_UNKNOWN;
            lt = kc_resolve(c, lt);
            rt = kc_resolve(c, rt);
            int is_op = l->op == C_IS || l->op == C_ISNOT;
            if (lt == T_NONE || rt == T_NONE) {  /* types.py: a None on one side, the other's type decides */
                if (!(is_op || l->op == C_EQ || l->op == C_NE)) { kc_fail(c, "ordering or in of None (a type error)", n->line); return T_UNKNOWN; }
                l->ival = PL_NONE;
                l->ty = lt == T_NONE ? rt : lt;
            } else if (is_op && (c->nodes[left].kind == E_BOOL || c->nodes[l->a].kind == E_BOOL)) {
                l->ival = PL_ISBOOL;  /* `x is True`: True and False are the only bools */
                l->ty = c->nodes[l->a].kind == E_BOOL ? lt : rt;
            } else if (is_op) {
                kc_fail(c, "is comparison", n->line);
                return T_UNKNOWN;
            } else if (l->op == C_IN || l->op == C_NOTIN) {
                int items = kc_is_tuple(rt);
                for (int32_t i = 0; items && i < kc_tuple_n(c, rt); i++) items = kc_unify(c, kc_tuple_arg(c, rt, i), lt);
                if (items) rt = kc_resolve(c, rt);
                if (!items && !(rt == T_STR && lt == T_STR) && !(kc_is_list(rt) && kc_unify(c, kc_elem(rt), lt)) &&
                    !((kc_is_set(rt) || kc_is_dict(rt)) && kc_unify(c, kc_tuple_arg(c, rt, 0), lt))) {
                    kc_fail(c, "in with these operand types", n->line);
                    return T_UNKNOWN;
                }
                l->ival = PL_IN;
                l->ty = rt;
            } else if (kc_numeric(lt) && kc_numeric(rt)) {
                l->ival = PL_NUM;
                l->ty = lt == T_FLOAT || rt == T_FLOAT ? T_FLOAT : T_INT;
            } else {
                if (!kc_unify(c, lt, rt)) { kc_fail(c, "comparison of values of different types (a type error)", n->line); return T_UNKNOWN; }
                l->ival = PL_VALUE;
                l->ty = kc_resolve(c, lt);
                if (kc_is_set(l->ty) && l->op != C_EQ && l->op != C_NE) { kc_fail(c, "set ordering", n->line); return T_UNKNOWN; }
                if (!kc_sets_ok(c, l->ty, 0) || kc_is_dict(l->ty)) { kc_fail(c, "comparison of dicts", n->line); return T_UNKNOWN; }
            }
            lt = rt;
        }
        t = T_BOOL;
        break;
    }
    case E_IFEXP: {
        kc_truth_type(c, n->a);
        int a = kc_type_expr(c, n->b, 0);
        int b = kc_type_expr(c, n->c, 0);
        if (!c->err && !kc_unify(c, a, b)) kc_fail(c, "conditional expression with branches of different types (a type error)", n->line);
        t = a;
        break;
    }
    case E_CALL: {
        int32_t f = n->op >= KC_MATH_OP && n->op <= KC_MATH_OP + 4 ? -1 : kc_find_func(c, n->tok);
        int mf = f < 0 && !n->op ? kc_math_fn(c, &c->toks[n->tok]) : -1;
        if (f >= 0 && !n->op && kc_math_fn(c, &c->toks[n->tok]) >= 0 &&
            (c->fn->local_math_names >> kc_math_fn(c, &c->toks[n->tok]) & 1)) {  /* the local import wins */
            kc_fail(c, "a call of a function the caller imports from math", n->line);
            return T_UNKNOWN;
        }
        if (f < 0 && !n->op && (kc_tok_is(c, &c->toks[n->tok], "round") || kc_tok_is(c, &c->toks[n->tok], "bin"))) {
            /* round(x): lower.py's b_round (ROUND_F, F2I of a float); bin(x): STR_BIN */
            n->op = (int16_t)(KC_MATH_OP + (kc_tok_is(c, &c->toks[n->tok], "round") ? 3 : 4));
        } else if (mf >= 0 && ((c->math_names | c->fn->local_math_names) >> mf & 1) && kc_lookup(c, n->tok) < 0) {  /* `from math import floor`: floor(x) */
            n->op = (int16_t)(KC_MATH_OP + mf);
        }
        if (n->op >= KC_MATH_OP && n->op <= KC_MATH_OP + 4) {
            if (n->ival != 1 || n->spare) { kc_fail(c, "math function with these arguments (a type error)", n->line); return T_UNKNOWN; }
            t = kc_math_result(c, n, kc_resolve(c, kc_type_expr(c, n->a, 0)));
            break;
        }
        if (f >= 0 && n->spare) { kc_fail(c, "keyword argument", n->line); return T_UNKNOWN; }
        if (f >= 0) {
            kc_func *callee = &c->funcs[f];
            if (n->ival != callee->n_params) { kc_call_error(c, n, callee); return T_UNKNOWN; }
            int i = 0;
            for (int32_t a = n->a; a >= 0 && !c->err; a = c->nodes[a].next, i++)
                if (!kc_unify(c, kc_type_expr(c, a, 0), callee->param_type[i]) && !c->err)
                    kc_fail(c, "argument of another type than the parameter (a type error)", c->nodes[a].line);
            n->var = f;  /* the callee */
            if (c->err) return T_UNKNOWN;
            for (int p = 0; p < callee->n_params && callee->state == 0; p++)
                if (!kc_concrete(c, kc_resolve(c, callee->param_type[p]), 0)) {
                    kc_fail(c, "call of a function whose parameter types are not known", n->line);
                    return T_UNKNOWN;
                }
            if (callee->state == 0) {  /* types.py checks it now: suspend this function until then */
                c->need_callee = f;
                c->err = KC_SUSPENDED;
                return T_UNKNOWN;
            }
            t = callee->ret;
            if (t == T_UNKNOWN) { kc_fail(c, "call of a function whose result type is not known yet", n->line); return T_UNKNOWN; }
        } else if (kc_is_builtin(c, n->tok)) {
            t = kc_builtin_type(c, k);
        } else {
            kc_call_error(c, n, 0);
            return T_UNKNOWN;
        }
        break;
    }
    case E_LIST: {
        int32_t elem = kc_new_tvar(c, n->line);
        for (int32_t e = n->a; e >= 0 && !c->err; e = c->nodes[e].next)
            if (!kc_unify(c, elem, kc_type_expr(c, e, 0)) && !c->err) kc_fail(c, "list items of different types (a type error)", n->line);
        if (c->err) return T_UNKNOWN;
        elem = kc_resolve(c, elem);
        if (elem / KC_LIST >= KC_MAX_LIST_DEPTH) { kc_fail(c, "lists nested too deep", n->line); return T_UNKNOWN; }
        t = elem + KC_LIST;
        break;
    }
    case E_LISTCOMP: {  /* types.py's e_ListComp: a scope of hidden variables, then the result's */
        if (n->spare == 1) { kc_fail(c, "generator expression", n->line); return T_UNKNOWN; }
        int32_t first = c->n_vars;
        for (int32_t g = n->b; g >= 0 && !c->err; g = c->nodes[g].next) {
            kc_node *gn = &c->nodes[g];
            int et = kc_iteration(c, gn);
            if (c->err) return T_UNKNOWN;
            kc_bind_loop_target(c, gn, et, 1);
            if (c->err) return T_UNKNOWN;
            for (int32_t cond = gn->c; cond >= 0 && !c->err; cond = c->nodes[cond].next) kc_truth_type(c, cond);
        }
        int elem = kc_type_expr(c, n->a, 0);
        if (c->err) return T_UNKNOWN;
        for (int32_t v = first; v < c->n_vars; v++) c->vars[v].active = 0;
        elem = kc_resolve(c, elem);
        if (elem / KC_LIST >= KC_MAX_LIST_DEPTH) { kc_fail(c, "lists nested too deep", n->line); return T_UNKNOWN; }
        t = elem + KC_LIST;
        int32_t r = kc_new_var(c, c->nodes[c->nodes[n->b].a].tok, t);
        if (r < 0) return T_UNKNOWN;
        c->vars[r].hidden = 1;
        n->var = r;
        if (n->spare == 4) t = kc_set_of(c, elem);  /* a set comprehension */
        break;
    }
    case E_INDEX: {
        int obj = kc_type_expr(c, n->a, 0);
        if (c->err) return T_UNKNOWN;
        if (kc_is_dict(obj)) {  /* d[k]: KeyError when absent */
            if (!kc_unify(c, kc_tuple_arg(c, obj, 0), kc_type_expr(c, n->b, 0)) && !c->err) { kc_fail(c, "dict key of another type (a type error)", n->line); return T_UNKNOWN; }
            t = kc_tuple_arg(c, kc_resolve(c, obj), 1);
            break;
        }
        if (kc_is_tuple(obj)) {  /* a constant index (not evaluated): TUPLE_GET */
            int known = 0;
            int64_t i = kc_const_int(c, n->b, &known);
            int32_t len = kc_tuple_n(c, obj);
            if (!known || i < -len || i >= len) { kc_fail(c, "tuple index other than a constant in range", n->line); return T_UNKNOWN; }
            n->ival = (i + len) % len;
            t = kc_tuple_arg(c, obj, (int32_t)n->ival);
            break;
        }
        if (!kc_is_seq(obj)) { kc_fail(c, "subscript of something other than a str, list or tuple", n->line); return T_UNKNOWN; }
        kc_index_type(c, n->b);
        if (c->err) return T_UNKNOWN;
        t = kc_elem(obj);
        break;
    }
    case E_DICT: {  /* a dict display: keys and values each of one type */
        int32_t kt = kc_new_tvar(c, n->line), vt = kc_new_tvar(c, n->line);
        for (int32_t e = n->a, v = n->b; e >= 0 && !c->err; e = c->nodes[e].next, v = c->nodes[v].next) {
            if (!kc_unify(c, kt, kc_type_expr(c, e, 0)) && !c->err) kc_fail(c, "dict keys of different types (a type error)", n->line);
            if (!kc_unify(c, vt, kc_type_expr(c, v, 0)) && !c->err) kc_fail(c, "dict values of different types (a type error)", n->line);
        }
        if (c->err) return T_UNKNOWN;
        t = kc_dict_of(c, kc_resolve(c, kt), kc_resolve(c, vt));
        break;
    }
    case E_SET: {  /* a set display: a sorted list without repeats */
        int32_t elem = kc_new_tvar(c, n->line);
        for (int32_t e = n->a; e >= 0 && !c->err; e = c->nodes[e].next)
            if (!kc_unify(c, elem, kc_type_expr(c, e, 0)) && !c->err) kc_fail(c, "set items of different types (a type error)", n->line);
        if (c->err) return T_UNKNOWN;
        t = kc_set_of(c, kc_resolve(c, elem));
        break;
    }
    case E_TUPLE: {  /* a tuple display */
        int32_t args[KC_MAX_TUPLE], count = 0;
        for (int32_t e = n->a; e >= 0 && !c->err; e = c->nodes[e].next) {
            if (count >= KC_MAX_TUPLE) { kc_fail(c, "tuple of more than 64 items", n->line); return T_UNKNOWN; }
            args[count++] = kc_type_expr(c, e, 0);
        }
        if (c->err) return T_UNKNOWN;
        t = kc_tuple_of(c, count, args);
        break;
    }
    case E_SLICE: {
        t = kc_seq_type(c, n->a);
        kc_index_type(c, n->b);
        kc_index_type(c, n->c);
        kc_index_type(c, n->d);
        break;
    }
    case E_METHOD: {
        if (c->nodes[n->a].kind == E_NAME && kc_tok_is(c, &c->toks[c->nodes[n->a].tok], "math") && kc_lookup(c, c->nodes[n->a].tok) < 0) {
            /* math.sqrt(x): types.py's math_call, after a module-level `import math` */
            if (!c->math_module && !c->fn->local_math) { kc_fail(c, "math without import math (NameError)", n->line); return T_UNKNOWN; }
            int m = kc_math_fn(c, &c->toks[n->tok]);
            if (m < 0) { kc_fail(c, "math function other than sqrt, floor, ceil", n->line); return T_UNKNOWN; }
            n->kind = E_CALL;
            n->a = n->b;
            n->b = -1;
            n->op = (int16_t)(KC_MATH_OP + m);
            if (n->ival != 1 || n->spare) { kc_fail(c, "math function with these arguments (a type error)", n->line); return T_UNKNOWN; }
            t = kc_math_result(c, n, kc_resolve(c, kc_type_expr(c, n->a, 0)));
            break;
        }
        if (n->spare && !kc_tok_is(c, &c->toks[n->tok], "sort")) { kc_fail(c, "keyword argument", n->line); return T_UNKNOWN; }
        int obj = kc_type_expr(c, n->a, 0);
        if (c->err) return T_UNKNOWN;
        if (kc_tok_is(c, &c->toks[n->tok], "join") && n->ival == 1 && c->nodes[n->b].kind == E_LISTCOMP &&
            c->nodes[n->b].spare == 1)
            c->nodes[n->b].spare = 2;  /* sep.join(<generator>): a list comprehension */
        if (obj == T_STR && n->spare) { kc_fail(c, "keyword argument", n->line); return T_UNKNOWN; }
        if (kc_is_dict(obj)) {  /* d.get(k, default) */
            if (!kc_tok_is(c, &c->toks[n->tok], "get") || n->ival != 2 || n->spare) { kc_fail(c, "dict method other than get(k, default)", n->line); return T_UNKNOWN; }
            int32_t def = c->nodes[n->b].next;
            if (!kc_unify(c, kc_tuple_arg(c, obj, 0), kc_type_expr(c, n->b, 0)) && !c->err) { kc_fail(c, "dict key of another type (a type error)", n->line); return T_UNKNOWN; }
            int dt = kc_type_expr(c, def, 0);
            if (!c->err && !kc_unify(c, kc_tuple_arg(c, kc_resolve(c, obj), 1), dt)) { kc_fail(c, "dict default of another type (a type error)", n->line); return T_UNKNOWN; }
            n->op = 201;
            t = kc_tuple_arg(c, kc_resolve(c, obj), 1);
            break;
        }
        if (kc_is_set(obj)) {  /* s.add(x) */
            if (!kc_tok_is(c, &c->toks[n->tok], "add") || n->ival != 1 || n->spare) { kc_fail(c, "set method other than add", n->line); return T_UNKNOWN; }
            int at = kc_type_expr(c, n->b, 0);
            if (!c->err && !kc_unify(c, kc_tuple_arg(c, obj, 0), at)) { kc_fail(c, "set.add of another type (a type error)", n->line); return T_UNKNOWN; }
            n->op = 200;
            t = T_NONE;
            break;
        }
        if (obj == T_STR) {  /* types.py's str_method */
            int m = 0;
            while (KC_STR_METHODS[m] && !kc_tok_is(c, &c->toks[n->tok], KC_STR_METHODS[m])) m++;
            if (!KC_STR_METHODS[m]) { kc_fail(c, "str method", n->line); return T_UNKNOWN; }
            int arity = KC_STR_METHOD_ARITY[m];
            if (arity == 3 ? n->ival > 1 : n->ival != arity) { kc_fail(c, "str method with the wrong number of arguments (a type error)", n->line); return T_UNKNOWN; }
            for (int32_t a = n->b; a >= 0 && !c->err; a = c->nodes[a].next)
                if (!kc_unify(c, kc_type_expr(c, a, 0), KC_STR_METHOD_ARG[m]) && !c->err)
                    kc_fail(c, "str method argument of another type (a type error)", n->line);
            n->op = (int16_t)(m + 1);
            t = KC_STR_METHOD_RESULT[m];
            break;
        }
        int m = 0;
        while (kc_is_list(obj) && KC_LIST_METHODS[m] && !kc_tok_is(c, &c->toks[n->tok], KC_LIST_METHODS[m])) m++;
        if (!kc_is_list(obj) || !KC_LIST_METHODS[m]) { kc_fail(c, "method other than a str or list method", n->line); return T_UNKNOWN; }
        if (m != KC_LM_APPEND) {  /* types.py's method_call */
            int elem = kc_resolve(c, kc_elem(obj));
            n->op = (int16_t)(100 + m);
            if (m == KC_LM_POP) {
                if (n->ival > 1) { kc_fail(c, "pop with these arguments", n->line); return T_UNKNOWN; }
                kc_index_type(c, n->b);
                t = elem;
            } else if (m == KC_LM_SORT || m == KC_LM_REVERSE || m == KC_LM_CLEAR) {
                if (n->ival) { kc_fail(c, "sort/reverse/clear with arguments", n->line); return T_UNKNOWN; }
                t = T_NONE;
            } else {
                if (n->ival != 1) { kc_fail(c, "list method with these arguments", n->line); return T_UNKNOWN; }
                int at = kc_type_expr(c, n->b, 0);
                if (c->err) return T_UNKNOWN;
                if (!kc_unify(c, m == KC_LM_EXTEND ? obj : elem, at)) { kc_fail(c, "list method argument of another type (a type error)", n->line); return T_UNKNOWN; }
                elem = kc_resolve(c, elem);
                if (m != KC_LM_EXTEND && (kc_is_tvar(elem) || elem % KC_LIST == T_FLOAT)) {
                    kc_fail(c, "list.index/count/remove of floats or of items of a type not known yet", n->line);
                    return T_UNKNOWN;
                }
                t = m == KC_LM_EXTEND || m == KC_LM_REMOVE ? T_NONE : T_INT;
            }
            if (n->spare && m != KC_LM_SORT) { kc_fail(c, "keyword argument", n->line); return T_UNKNOWN; }
            break;
        }
        if (n->ival != 1) { kc_fail(c, "append with these arguments", n->line); return T_UNKNOWN; }
        int at = kc_type_expr(c, n->b, 0);
        if (!c->err && !kc_unify(c, kc_elem(obj), at)) kc_fail(c, "append of another type (a type error)", n->line);
        t = T_NONE;
        break;
    }
    default:
        kc_fail(c, "tuple value", n->line);
        return T_UNKNOWN;
    }
    if (c->err) return T_UNKNOWN;
    t = kc_resolve(c, t);
    if (t == T_UNKNOWN || (kc_is_tvar(t) && t < KC_LIST)) { kc_fail(c, "a value whose type is not known yet", n->line); return T_UNKNOWN; }
    if (t == T_NONE && !(allow & KC_ALLOW_NONE)) { kc_fail(c, "None as a value", n->line); return T_UNKNOWN; }
    n->ty = t;
    return t;
}

KC_FN int kc_list_len(const kc_ctx *c, int32_t k) {
    int n = 0;
    for (; k >= 0; k = c->nodes[k].next) n++;
    return n;
}

KC_FN void kc_check_block(kc_ctx *c, int32_t s, int loop_depth);

KC_FN void kc_check_stmt(kc_ctx *c, int32_t k, int loop_depth) {
    kc_node *s = &c->nodes[k];
    switch (s->kind) {
    case S_PASS: break;
    case S_EXPR:
        if (c->nodes[s->a].kind == E_STR) { s->op = 1; break; }  /* a docstring-like comment */
        kc_type_expr(c, s->a, KC_ALLOW_NONE);
        break;
    case S_RETURN: {
        int t = s->a < 0 ? T_NONE : kc_type_expr(c, s->a, KC_ALLOW_NONE);
        if (c->err) break;
        if (c->fn->ret == T_UNKNOWN) c->fn->ret = t;  /* the first return tells the result type */
        else if (!kc_unify(c, t, c->fn->ret)) kc_fail(c, "returns of different types (a type error)", s->line);
        if (t != T_NONE) c->fn->returns_value = 1;
        break;
    }
    case S_ASSIGN: {
        int32_t value = s->b;
        if (c->nodes[value].kind == E_TUPLE && c->nodes[s->a].next < 0 && c->nodes[s->a].kind == E_TUPLE &&
            kc_list_len(c, c->nodes[s->a].a) == kc_list_len(c, c->nodes[value].a)) {  /* a, b = b, a */
            int32_t target = s->a;
            s->ival = 1;
            for (int32_t e = c->nodes[value].a; e >= 0 && !c->err; e = c->nodes[e].next) kc_type_expr(c, e, 0);
            int32_t v = c->nodes[value].a;
            for (int32_t e = c->nodes[target].a; e >= 0 && !c->err; e = c->nodes[e].next, v = c->nodes[v].next) {
                if (c->nodes[e].kind != E_NAME) { kc_fail(c, "unpacking into something other than names", s->line); return; }
                kc_bind(c, e, c->nodes[v].ty);
            }
            break;
        }
        int t = kc_type_expr(c, value, 0);
        for (int32_t target = s->a; target >= 0 && !c->err; target = c->nodes[target].next) {
            kc_node *tn = &c->nodes[target];
            if (tn->kind == E_TUPLE) {  /* unpacking a tuple or a list into names */
                int32_t count = kc_list_len(c, tn->a), i = 0;
                t = kc_resolve(c, t);
                if (!(kc_is_list(t) || (kc_is_tuple(t) && kc_tuple_n(c, t) == count))) { kc_fail(c, "unpacking of this value (a type error)", s->line); return; }
                tn->ty = t;
                for (int32_t e = tn->a; e >= 0 && !c->err; e = c->nodes[e].next, i++) {
                    if (c->nodes[e].kind != E_NAME) { kc_fail(c, "unpacking into something other than names", s->line); return; }
                    kc_bind(c, e, kc_is_list(t) ? kc_elem(t) : kc_tuple_arg(c, t, i));
                }
                continue;
            }
            if (tn->kind == E_INDEX) {  /* a list item, or a dict's */
                int seq = kc_type_expr(c, tn->a, 0);
                if (c->err) return;
                if (kc_is_dict(seq)) {
                    if (!kc_unify(c, kc_tuple_arg(c, seq, 0), kc_type_expr(c, tn->b, 0)) && !c->err) { kc_fail(c, "dict key of another type (a type error)", s->line); return; }
                    if (!c->err && !kc_unify(c, kc_tuple_arg(c, kc_resolve(c, seq), 1), t)) { kc_fail(c, "dict value of another type (a type error)", s->line); return; }
                    continue;
                }
                if (!kc_is_list(seq)) { kc_fail(c, "item assignment to something other than a list", s->line); return; }
                kc_index_type(c, tn->b);
                if (!c->err && !kc_unify(c, kc_elem(seq), t)) kc_fail(c, "item assignment of another type (a type error)", s->line);
                continue;
            }
            if (tn->kind != E_NAME) { kc_fail(c, "assignment target other than a name or a list item", s->line); return; }
            kc_bind(c, target, t);
        }
        break;
    }
    case S_ANNASSIGN: {
        int ann = (int)s->ival;
        if (ann == T_NONE) { kc_fail(c, "variable annotated None", s->line); return; }
        kc_bind(c, s->a, ann);
        if (s->b >= 0) {
            int t = kc_type_expr(c, s->b, 0);
            if (c->err) break;
            if (ann == T_FLOAT && kc_intlike(t)) kc_fail(c, "annotated assignment of another type (a type error)", s->line);
            else if (!kc_unify(c, ann, t)) kc_fail(c, "annotated assignment of another type (a type error)", s->line);
        }
        break;
    }
    case S_AUGASSIGN: {
        kc_node *target = &c->nodes[s->a];
        int32_t v = -1;
        int current;
        if (target->kind == E_INDEX) {  /* xs[i] op= v */
            int seq = kc_resolve(c, kc_type_expr(c, target->a, 0));
            if (c->err) return;
            if (kc_is_dict(seq)) {  /* d[k] op= v (KeyError before v is evaluated) */
                int kt = kc_type_expr(c, target->b, 0);
                if (!c->err && !kc_unify(c, kc_tuple_arg(c, seq, 0), kt)) kc_fail(c, "dict key of another type (a type error)", s->line);
                if (c->err) return;
                s->spare = 1;
                seq = kc_resolve(c, kc_tuple_arg(c, kc_resolve(c, seq), 1)) + KC_LIST;  /* its values' list */
            }
            if (!kc_is_list(seq)) { kc_fail(c, "item assignment to something other than a list", s->line); return; }
            if (!s->spare) kc_index_type(c, target->b);
            current = kc_resolve(c, kc_elem(seq));
            if (kc_is_tvar(current) && current < KC_LIST) { kc_fail(c, "an item whose type is not known yet", s->line); return; }
            target->ty = current;
        } else {
            v = kc_lookup(c, target->tok);
            if (v < 0) { kc_fail(c, "augmented assignment before any assignment", s->line); return; }
            current = kc_resolve(c, c->vars[v].type);
        }
        int t = kc_type_expr(c, s->b, 0);
        if (c->err) return;
        int result;
        if (kc_is_list(current) && (s->op == B_ADD || s->op == B_MUL)) {  /* in place */
            if (s->op == B_ADD ? !(kc_is_list(t) && kc_unify(c, current, t)) : !kc_intlike(t)) {
                kc_fail(c, "augmented assignment of a list with these operands (a type error)", s->line);
                return;
            }
            s->ival = 1;
            result = kc_resolve(c, current);
        } else {
            result = kc_binop_type(c, k, s->op, current, t, -1);
        }
        if (!c->err && result != current && !kc_unify(c, current, result)) { kc_fail(c, "augmented assignment that changes the type (a type error)", s->line); return; }
        s->ty = result;
        if (v >= 0) {
            target->var = v;
            target->ty = current;
        }
        break;
    }
    case S_IF:
        kc_truth_type(c, s->a);
        kc_check_block(c, s->b, loop_depth);
        if (s->c >= 0) kc_check_block(c, s->c, loop_depth);
        break;
    case S_WHILE:
        kc_truth_type(c, s->a);
        kc_check_block(c, s->b, loop_depth + 1);
        if (s->c >= 0) kc_check_block(c, s->c, loop_depth);  /* after the loop, outside it */
        break;
    case S_FOR: {
        int elem = kc_iteration(c, s);
        if (c->err) return;
        kc_bind_loop_target(c, s, elem, 0);
        kc_check_block(c, s->c, loop_depth + 1);
        if (s->d >= 0) kc_check_block(c, s->d, loop_depth);
        break;
    }
    case S_BREAK:
    case S_CONTINUE:
        if (!loop_depth) kc_fail(c, "break or continue outside a loop", s->line);
        break;
    case S_ASSERT:
        kc_truth_type(c, s->a);
        if (s->b >= 0) kc_type_expr(c, s->b, KC_ALLOW_STR);
        break;
    case S_RAISE: {
        int found = 0;
        for (int i = 0; i < c->cfg->n_raisable; i++)
            if (kc_tok_is(c, &c->toks[s->tok], c->cfg->raisable_name[i])) { found = 1; s->var = c->cfg->raisable_code[i]; }
        if (!found) { kc_fail(c, "raise of something other than a kiln exception", s->line); return; }
        if (s->spare) { kc_fail(c, "keyword argument", s->line); return; }
        for (int32_t a = s->a; a >= 0 && !c->err; a = c->nodes[a].next) kc_type_expr(c, a, KC_ALLOW_STR);
        break;
    }
    default:
        kc_fail(c, "statement", s->line);
    }
}

KC_FN void kc_check_block(kc_ctx *c, int32_t s, int loop_depth) {
    for (; s >= 0 && !c->err; s = c->nodes[s].next) kc_check_stmt(c, s, loop_depth);
}

/* Whether a break in the block at s belongs to the loop whose body it is (types.py's _breaks_out) */
KC_FN int kc_breaks_out(kc_ctx *c, int32_t s) {
    for (; s >= 0; s = c->nodes[s].next) {
        kc_node *n = &c->nodes[s];
        if (n->kind == S_BREAK) return 1;
        if (n->kind == S_IF && (kc_breaks_out(c, n->b) || (n->c >= 0 && kc_breaks_out(c, n->c)))) return 1;
        if (n->kind == S_WHILE && n->c >= 0 && kc_breaks_out(c, n->c)) return 1;  /* its else */
        if (n->kind == S_FOR && n->d >= 0 && kc_breaks_out(c, n->d)) return 1;
    }
    return 0;
}

/* Whether the block at s may reach its end, as types.py's may_fall_off says: a return or a raise
   never completes, an if completes when a branch may, a loop when its else may or a break of its
   own leaves it (while True: only by a break). kc refuses a function that returns a value and
   may end so: types.py gives it an Optional result (None at the end), and kc has no Optionals. */
KC_FN int kc_may_fall_off(kc_ctx *c, int32_t s) {
    for (; s >= 0; s = c->nodes[s].next) {
        kc_node *n = &c->nodes[s];
        if (n->kind == S_RETURN || n->kind == S_RAISE) return 0;
        if (n->kind == S_IF && !kc_may_fall_off(c, n->b) && n->c >= 0 && !kc_may_fall_off(c, n->c))
            return 0;
        if (n->kind == S_WHILE && c->nodes[n->a].kind == E_BOOL && c->nodes[n->a].ival == 1) {
            if (!kc_breaks_out(c, n->b)) return 0;
        } else if (n->kind == S_WHILE && n->c >= 0 && !kc_may_fall_off(c, n->c) && !kc_breaks_out(c, n->b)) {
            return 0;
        } else if (n->kind == S_FOR && n->d >= 0 && !kc_may_fall_off(c, n->d) && !kc_breaks_out(c, n->c)) {
            return 0;
        }
    }
    return 1;
}

/* ---- flow: definite assignment (types.py's mark_unbound_reads) ------------------------------------ */

typedef struct { uint64_t *bits; int all; } kc_set;

KC_FN kc_set kc_set_copy(kc_ctx *c, const kc_set *from, int words) {
    kc_set s;
    s.all = from->all;
    s.bits = (uint64_t *)kc_alloc(c, (int64_t)words * 8);
    if (s.bits) for (int i = 0; i < words; i++) s.bits[i] = from->bits[i];
    return s;
}

KC_FN int kc_set_has(const kc_set *s, int32_t v) { return (int)((s->bits[v >> 6] >> (v & 63)) & 1u); }
KC_FN void kc_set_add(kc_set *s, int32_t v) { s->bits[v >> 6] |= (uint64_t)1 << (v & 63); }

/* every read of a name in the expression k */
KC_FN void kc_reads(kc_ctx *c, int32_t k, const kc_set *da) {
    if (k < 0) return;
    kc_node *n = &c->nodes[k];
    switch (n->kind) {
    case E_NAME: {
        int32_t v = n->var - c->fn->var_begin;
        if (n->var >= 0 && !c->vars[n->var].hidden && !kc_set_has(da, v)) { c->vars[n->var].needs_check = 1; n->check = 1; }
        return;
    }
    case E_LISTCOMP:
        kc_reads(c, n->a, da);
        for (int32_t g = n->b; g >= 0; g = c->nodes[g].next) {
            kc_reads(c, c->nodes[g].b, da);
            for (int32_t cond = c->nodes[g].c; cond >= 0; cond = c->nodes[cond].next) kc_reads(c, cond, da);
        }
        return;
    case E_BINOP: kc_reads(c, n->a, da); kc_reads(c, n->b, da); return;
    case E_UNARY: kc_reads(c, n->a, da); return;
    case E_IFEXP: kc_reads(c, n->a, da); kc_reads(c, n->b, da); kc_reads(c, n->c, da); return;
    case E_COMPARE:
        kc_reads(c, n->a, da);
        for (int32_t l = n->b; l >= 0; l = c->nodes[l].next) kc_reads(c, c->nodes[l].a, da);
        return;
    case E_BOOLOP: case E_CALL: case E_TUPLE: case E_LIST: case E_SET:
        if (n->kind == E_CALL && n->op == KC_NAME_ERROR_OP) return;  /* its arguments are never typed nor run */
        for (int32_t a = n->a; a >= 0; a = c->nodes[a].next) kc_reads(c, a, da);
        return;
    case E_INDEX: case E_SLICE:
        kc_reads(c, n->a, da); kc_reads(c, n->b, da); kc_reads(c, n->c, da); kc_reads(c, n->d, da);
        return;
    case E_DICT:
        for (int32_t e = n->a, v = n->b; e >= 0; e = c->nodes[e].next, v = c->nodes[v].next) {
            kc_reads(c, e, da);
            kc_reads(c, v, da);
        }
        return;
    case E_METHOD:
        kc_reads(c, n->a, da);
        for (int32_t a = n->b; a >= 0; a = c->nodes[a].next) kc_reads(c, a, da);
        return;
    default: return;
    }
}

KC_FN void kc_add_target(kc_ctx *c, int32_t t, kc_set *da) {
    kc_node *n = &c->nodes[t];
    if (n->kind == E_NAME) { if (n->var >= 0) kc_set_add(da, n->var - c->fn->var_begin); return; }
    for (int32_t e = n->a; e >= 0; e = c->nodes[e].next) kc_add_target(c, e, da);
}

KC_FN void kc_flow_block(kc_ctx *c, int32_t s, kc_set *da, int words);

KC_FN void kc_flow_stmt(kc_ctx *c, int32_t k, kc_set *da, int words) {
    kc_node *s = &c->nodes[k];
    int64_t mark = c->arena_used;
    switch (s->kind) {
    case S_RETURN: kc_reads(c, s->a, da); da->all = 1; return;
    case S_RAISE:
        for (int32_t a = s->a; a >= 0; a = c->nodes[a].next) kc_reads(c, a, da);
        da->all = 1;
        return;
    case S_BREAK: case S_CONTINUE: da->all = 1; return;
    case S_IF: {
        kc_reads(c, s->a, da);
        kc_set x = kc_set_copy(c, da, words), y = kc_set_copy(c, da, words);
        if (c->err) return;
        kc_flow_block(c, s->b, &x, words);
        if (s->c >= 0) kc_flow_block(c, s->c, &y, words);
        if (x.all && y.all) da->all = 1;
        else if (x.all) for (int i = 0; i < words; i++) da->bits[i] = y.bits[i];
        else if (y.all) for (int i = 0; i < words; i++) da->bits[i] = x.bits[i];
        else for (int i = 0; i < words; i++) da->bits[i] = x.bits[i] & y.bits[i];
        break;
    }
    case S_WHILE: {
        kc_reads(c, s->a, da);
        kc_set x = kc_set_copy(c, da, words);
        if (c->err) return;
        kc_flow_block(c, s->b, &x, words);
        if (s->c >= 0) {  /* after zero or more iterations: only what held before */
            kc_set y = kc_set_copy(c, da, words);
            if (c->err) return;
            kc_flow_block(c, s->c, &y, words);
        }
        break;
    }
    case S_FOR: {
        kc_reads(c, s->b, da);
        kc_set x = kc_set_copy(c, da, words);
        if (c->err) return;
        kc_add_target(c, s->a, &x);
        kc_flow_block(c, s->c, &x, words);
        if (s->d >= 0) {  /* the target is unbound after zero iterations */
            kc_set y = kc_set_copy(c, da, words);
            if (c->err) return;
            kc_flow_block(c, s->d, &y, words);
        }
        break;
    }
    case S_AUGASSIGN: {
        kc_reads(c, s->b, da);
        kc_node *t = &c->nodes[s->a];
        if (t->kind == E_INDEX) { kc_reads(c, s->a, da); break; }  /* its base and index */
        if (!kc_set_has(da, t->var - c->fn->var_begin)) { c->vars[t->var].needs_check = 1; t->check = 1; }
        kc_add_target(c, s->a, da);
        break;
    }
    case S_ASSIGN:
        kc_reads(c, s->b, da);
        for (int32_t t = s->a; t >= 0; t = c->nodes[t].next)
            if (c->nodes[t].kind == E_INDEX) kc_reads(c, t, da);  /* its base and index */
        for (int32_t t = s->a; t >= 0; t = c->nodes[t].next)
            if (c->nodes[t].kind != E_INDEX) kc_add_target(c, t, da);
        break;
    case S_ANNASSIGN:
        kc_reads(c, s->b, da);
        if (s->b >= 0) kc_add_target(c, s->a, da);
        break;
    case S_ASSERT: kc_reads(c, s->a, da); kc_reads(c, s->b, da); break;
    case S_EXPR: if (!s->op) kc_reads(c, s->a, da); break;
    default: break;
    }
    c->arena_used = mark;
}

KC_FN void kc_flow_block(kc_ctx *c, int32_t s, kc_set *da, int words) {
    for (; s >= 0 && !c->err; s = c->nodes[s].next) {
        if (da->all) return;
        kc_flow_stmt(c, s, da, words);
    }
}

/* ---- lower (compiler/lower.py at -O0) ------------------------------------------------------------ */

#define KC_LABEL_BIT 0x40000000  /* a code_arg that names a label, not a value */

KC_FN int32_t kc_label(kc_ctx *c) {
    if (c->n_labels >= c->cap_labels) { kc_fail(c, "too many labels for the arena", c->line); return 0; }
    c->labels[c->n_labels] = -1;
    return c->n_labels++;
}

KC_FN void kc_place(kc_ctx *c, int32_t label) {
    if (c->err) return;
    c->labels[label] = c->n_code;
    if (c->n_marks < c->cap_labels) {  /* a label is placed once: always room */
        c->marks[2 * c->n_marks] = label;
        c->marks[2 * c->n_marks + 1] = c->n_code;
        c->n_marks++;
    }
}

KC_FN void kc_emit(kc_ctx *c, int op, int32_t arg) {
    if (c->err) return;
    if (c->n_code >= c->cap_code) { kc_fail(c, "too much code for the arena", c->line); return; }
    c->code_op[c->n_code] = op;
    c->code_arg[c->n_code] = arg;
    c->code_line[c->n_code] = c->line;
    c->code_label[c->n_code] = 0;
    c->n_code++;
}

KC_FN void kc_emit_jump(kc_ctx *c, int op, int32_t label) {
    kc_emit(c, op, label);
    if (!c->err) c->code_label[c->n_code - 1] = 1;
}

KC_FN int32_t kc_temp(kc_ctx *c) { return c->fn->n_locals++; }

KC_FN int32_t kc_const(kc_ctx *c, int64_t word) {
    for (int32_t i = 0; i < c->n_consts; i++)
        if (c->consts[i] == word) return i;
    if (c->n_consts >= c->cap_consts) { kc_fail(c, "too many constants for the arena", c->line); return 0; }
    c->consts[c->n_consts] = word;
    return c->n_consts++;
}

KC_FN void kc_push_int(kc_ctx *c, int64_t v) {
    if (v >= c->cfg->imm_min && v <= c->cfg->imm_max) kc_emit(c, K_LOADI, (int32_t)v);
    else kc_emit(c, K_CONST, kc_const(c, v));
}

KC_FN void kc_push_float(kc_ctx *c, double x) {
    union { double d; int64_t i; } u;
    u.d = x;
    kc_emit(c, K_CONST, kc_const(c, u.i));
}

KC_FN int kc_hex_digit(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* The value of a string literal (no prefix: the lexer refuses those), decoded into out[] (room
   for the literal's length): Python's escapes \\ \' \" \a \b \f \n \r \t \v, \ooo, \xhh,
   \uhhhh, \Uhhhhhhhh and the escaped newline. \N{...} and unknown escapes (a SyntaxWarning in
   CPython) are left to the reference compiler. Returns the count of code points, or -1. */
KC_FN int32_t kc_decode_string(kc_ctx *c, const kc_tok *t, int64_t *out) {
    const char *s = c->src + t->start;
    int q = (t->len >= 6 && s[1] == s[0] && s[2] == s[0]) ? 3 : 1;
    int end = t->len - q, n = 0;
    for (int i = q; i < end;) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x80) {  /* UTF-8: a code point of 2 to 4 bytes (anything malformed: unsupported) */
            int more = ch >= 0xF0 && ch < 0xF5 ? 3 : ch >= 0xE0 && ch < 0xF0 ? 2 : ch >= 0xC2 && ch < 0xE0 ? 1 : -1;
            int64_t v = more == 3 ? ch & 0x07 : more == 2 ? ch & 0x0F : ch & 0x1F;
            for (int k = 1; k <= more; k++) {
                unsigned char b = i + k < end ? (unsigned char)s[i + k] : 0;
                if ((b & 0xC0) != 0x80) { more = -1; break; }
                v = v << 6 | (b & 0x3F);
            }
            if (more < 0 || (more == 2 && v < 0x800) || (more == 3 && (v < 0x10000 || v > 0x10FFFF)) ||
                (v >= 0xD800 && v <= 0xDFFF)) {
                kc_fail(c, "malformed UTF-8 in a string", t->line);
                return -1;
            }
            out[n++] = v;
            i += more + 1;
            continue;
        }
        if (ch != '\\') { out[n++] = ch; i++; continue; }
        char e = s[i + 1];
        i += 2;
        int64_t v = -1;
        switch (e) {
        case '\n': continue;
        case '\\': v = '\\'; break;
        case '\'': v = '\''; break;
        case '"': v = '"'; break;
        case 'a': v = 7; break;
        case 'b': v = 8; break;
        case 'f': v = 12; break;
        case 'n': v = 10; break;
        case 'r': v = 13; break;
        case 't': v = 9; break;
        case 'v': v = 11; break;
        case 'x': case 'u': case 'U': {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            v = 0;
            for (int k = 0; k < digits; k++) {
                int d = i < end ? kc_hex_digit(s[i]) : -1;
                if (d < 0) { kc_fail(c, "malformed escape in a string", t->line); return -1; }
                v = v * 16 + d;
                i++;
            }
            if (v > 0x10FFFF) { kc_fail(c, "escape beyond Unicode in a string", t->line); return -1; }
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                v = e - '0';
                for (int k = 0; k < 2 && i < end && s[i] >= '0' && s[i] <= '7'; k++) v = v * 8 + (s[i++] - '0');
                break;
            }
            kc_fail(c, "\\N{...} or unknown escape in a string", t->line);
            return -1;
        }
        out[n++] = v;
    }
    return n;
}

KC_FN int32_t kc_pool_tail(kc_ctx *c, int32_t n);

/* the image address of a string literal's value, pooled as the reference does (the first
   occurrence of a value: its length, then one word per code point) */
KC_FN int32_t kc_string(kc_ctx *c, int32_t tok) {
    const kc_tok *t = &c->toks[tok];
    if (c->n_image + t->len + 1 > c->cap_image) { kc_fail(c, "too many strings for the arena", t->line); return 0; }
    int64_t *value = c->image + c->n_image + 1;  /* decoded in place, kept if it is new */
    int32_t n = kc_decode_string(c, t, value);
    if (n < 0) return 0;
    return kc_pool_tail(c, n);
}

/* the string of n code points written just past the image's end: pooled (its address) */
KC_FN int32_t kc_pool_tail(kc_ctx *c, int32_t n) {
    const int64_t *value = c->image + c->n_image + 1;
    /* an equal string already pooled: the image holds [len, chars...] records back to back */
    for (int32_t at = 0; at < c->n_image; at += (int32_t)c->image[at] + 1) {
        if (c->image[at] != n) continue;
        int same = 1;
        for (int32_t i = 0; i < n && same; i++) same = c->image[at + 1 + i] == value[i];
        if (same) return at;
    }
    int32_t at = c->n_image;
    c->image[at] = n;
    c->n_image += n + 1;
    return at;
}

KC_FN void kc_raise(kc_ctx *c, int trap) { kc_emit(c, K_RAISE, c->cfg->trap_code[trap]); }

KC_FN void kc_load_var(kc_ctx *c, int32_t v, int checked) {
    kc_var *var = &c->vars[v];
    if (checked && var->flag >= 0) {
        int32_t ok = kc_label(c);
        kc_emit(c, K_LOAD, var->flag);
        kc_emit_jump(c, K_JUMP_IF_TRUE, ok);
        kc_raise(c, KT_UNBOUND);
        kc_place(c, ok);
    }
    kc_emit(c, K_LOAD, var->slot);
}

KC_FN void kc_store_var(kc_ctx *c, int32_t v) {
    kc_var *var = &c->vars[v];
    kc_emit(c, K_STORE, var->slot);
    if (var->flag >= 0) {
        kc_emit(c, K_LOADI, 1);
        kc_emit(c, K_STORE, var->flag);
    }
}

KC_FN void kc_lower_expr(kc_ctx *c, int32_t k);
KC_FN void kc_range_loop(kc_ctx *c, kc_node *s);
KC_FN void kc_seq_loop(kc_ctx *c, kc_node *s);
KC_FN void kc_branch(kc_ctx *c, int32_t k, int when, int32_t label);

/* the test of an index loop over the list in local lst: on to end once i reached its length
   (lower.py's while_index_below_len) */
KC_FN void kc_while_index_below_len(kc_ctx *c, int32_t i, int32_t lst, int32_t end) {
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOAD, lst);
    kc_emit(c, K_LIST_LEN, 0);
    kc_emit(c, K_LT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_FALSE, end);
}

/* dst[i] = src[i] for each i < len(src) (lower.py's copy_back) */
KC_FN void kc_copy_back(kc_ctx *c, int32_t dst, int32_t src) {
    int32_t i = kc_temp(c), top = kc_label(c), end = kc_label(c);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, i);
    kc_place(c, top);
    kc_while_index_below_len(c, i, src, end);
    kc_emit(c, K_LOAD, dst);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOAD, src);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LIST_INDEX, 0);
    kc_emit(c, K_LIST_STORE, 0);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOADI, 1);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_STORE, i);
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
}

KC_FN int32_t kc_type_index(kc_ctx *c, int t);

/* dicts: (keys list, values list) in insertion order (lower.py's dict_*) */
KC_FN void kc_dict_new(kc_ctx *c) {
    kc_emit(c, K_LIST_NEW, 0);
    kc_emit(c, K_LIST_NEW, 0);
    kc_emit(c, K_TUPLE_NEW, 2);
}

/* a slot holding the index of key slot k in dict slot d (-1 when absent, or the trap `missing`) */
KC_FN int32_t kc_dict_find(kc_ctx *c, int32_t d, int32_t k, int32_t t, int missing) {
    int32_t i = kc_temp(c);
    kc_emit(c, K_LOAD, d);
    kc_emit(c, K_TUPLE_GET, 0);
    kc_emit(c, K_LOAD, k);
    kc_emit(c, K_LIST_FIND, kc_type_index(c, kc_tuple_arg(c, t, 0) + KC_LIST));
    kc_emit(c, K_STORE, i);
    if (missing >= 0) {
        int32_t found = kc_label(c);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LOADI, 0);
        kc_emit(c, K_LT_I, 0);
        kc_emit_jump(c, K_JUMP_IF_FALSE, found);
        kc_raise(c, missing);
        kc_place(c, found);
    }
    return i;
}

/* d[k] = v: a new key goes at the end; an old one keeps its place */
KC_FN void kc_dict_set(kc_ctx *c, int32_t d, int32_t k, int32_t v, int32_t t) {
    int32_t i = kc_dict_find(c, d, k, t, -1);
    int32_t update = kc_label(c), done = kc_label(c);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_LT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_FALSE, update);
    for (int part = 0; part < 2; part++) {
        kc_emit(c, K_LOAD, d);
        kc_emit(c, K_TUPLE_GET, part);
        kc_emit(c, K_LOAD, part ? v : k);
        kc_emit(c, K_LIST_APPEND, 0);
    }
    kc_emit_jump(c, K_JUMP, done);
    kc_place(c, update);
    kc_emit(c, K_LOAD, d);
    kc_emit(c, K_TUPLE_GET, 1);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOAD, v);
    kc_emit(c, K_LIST_STORE, 0);
    kc_place(c, done);
}

/* d.get(k, default) */
KC_FN void kc_dict_get(kc_ctx *c, const kc_node *n) {
    int32_t t = c->nodes[n->a].ty;
    int32_t d = kc_temp(c), k = kc_temp(c), def = kc_temp(c);
    kc_lower_expr(c, n->a);
    kc_emit(c, K_STORE, d);
    kc_lower_expr(c, n->b);
    kc_emit(c, K_STORE, k);
    kc_lower_expr(c, c->nodes[n->b].next);
    kc_emit(c, K_STORE, def);
    int32_t i = kc_dict_find(c, d, k, t, -1);
    int32_t absent = kc_label(c), done = kc_label(c);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_LT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_TRUE, absent);
    kc_emit(c, K_LOAD, d);
    kc_emit(c, K_TUPLE_GET, 1);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LIST_INDEX, 0);
    kc_emit_jump(c, K_JUMP, done);
    kc_place(c, absent);
    kc_emit(c, K_LOAD, def);
    kc_place(c, done);
}

/* s.add(x): unless x is in s, appended and s sorted again in place (lower.py's set_add) */
KC_FN void kc_lower_set_add(kc_ctx *c, const kc_node *n) {
    int32_t s = kc_temp(c), x = kc_temp(c), tmp = kc_temp(c), done = kc_label(c);
    int32_t t = kc_type_index(c, c->nodes[n->a].ty);
    kc_lower_expr(c, n->a);
    kc_emit(c, K_STORE, s);
    kc_lower_expr(c, n->b);
    kc_emit(c, K_STORE, x);
    kc_emit(c, K_LOAD, x);
    kc_emit(c, K_LOAD, s);
    kc_emit(c, K_CONTAINS, t);
    kc_emit_jump(c, K_JUMP_IF_TRUE, done);
    kc_emit(c, K_LOAD, s);
    kc_emit(c, K_LOAD, x);
    kc_emit(c, K_LIST_APPEND, 0);
    kc_emit(c, K_LOAD, s);
    kc_emit(c, K_SORTED, t);
    kc_emit(c, K_STORE, tmp);
    kc_copy_back(c, s, tmp);
    kc_place(c, done);
    kc_emit(c, K_LOADI, 0);
}

/* a list method other than append, as a value (lower.py's list_* and pop) */
KC_FN void kc_list_method(kc_ctx *c, const kc_node *n, int m) {
    int32_t obj = n->a, arg = n->b;
    if (m == KC_LM_POP) {
        kc_lower_expr(c, obj);
        if (arg >= 0) kc_lower_expr(c, arg);
        kc_emit(c, arg >= 0 ? K_LIST_POP_AT : K_LIST_POP, 0);
        return;
    }
    if (m == KC_LM_SORT || m == KC_LM_REVERSE) {
        int32_t lst = kc_temp(c), result = kc_temp(c);
        kc_lower_expr(c, obj);
        kc_emit(c, K_DUP, 0);
        kc_emit(c, K_STORE, lst);
        if (m == KC_LM_SORT) {
            int32_t t = kc_type_index(c, c->nodes[obj].ty);
            kc_emit(c, n->spare == 1 ? K_SORTED_DESC : K_SORTED, t);
        } else {
            kc_emit(c, K_LIST_REVERSED, 0);
        }
        kc_emit(c, K_STORE, result);
        kc_copy_back(c, lst, result);
        kc_emit(c, K_LOADI, 0);
        return;
    }
    if (m == KC_LM_CLEAR || m == KC_LM_EXTEND) {
        kc_lower_expr(c, obj);
        if (m == KC_LM_CLEAR) kc_emit(c, K_LOADI, 0);
        else kc_lower_expr(c, arg);
        kc_emit(c, m == KC_LM_CLEAR ? K_LIST_IREPEAT : K_LIST_EXTEND, 0);
        kc_emit(c, K_POP, 0);
        kc_emit(c, K_LOADI, 0);
        return;
    }
    /* index, count, remove: a scan comparing the items with == (lower.py's _list_search) */
    int elem = kc_elem(c->nodes[obj].ty);
    int32_t lst = kc_temp(c), value = kc_temp(c), i = kc_temp(c), k = kc_temp(c);
    int32_t top = kc_label(c), step = kc_label(c), end = kc_label(c), done = kc_label(c);
    kc_lower_expr(c, obj);
    kc_emit(c, K_STORE, lst);
    kc_lower_expr(c, arg);
    kc_emit(c, K_STORE, value);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, i);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, k);
    kc_place(c, top);
    kc_while_index_below_len(c, i, lst, end);
    kc_emit(c, K_LOAD, lst);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LIST_INDEX, 0);
    kc_emit(c, K_LOAD, value);
    if (kc_intlike(elem)) kc_emit(c, K_EQ_I, 0);
    else kc_emit(c, K_EQ, kc_type_index(c, elem));
    kc_emit_jump(c, K_JUMP_IF_FALSE, step);
    if (m == KC_LM_COUNT) {
        kc_emit(c, K_LOAD, k);
        kc_emit(c, K_LOADI, 1);
        kc_emit(c, K_ADD_I, 0);
        kc_emit(c, K_STORE, k);
    } else if (m == KC_LM_INDEX) {
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_STORE, k);
        kc_emit_jump(c, K_JUMP, done);
    } else {
        kc_emit(c, K_LOAD, lst);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LIST_POP_AT, 0);
        kc_emit(c, K_POP, 0);
        kc_emit_jump(c, K_JUMP, done);
    }
    kc_place(c, step);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOADI, 1);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_STORE, i);
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
    if (m != KC_LM_COUNT) kc_raise(c, KT_VALUE);
    kc_place(c, done);
    kc_emit(c, K_LOAD, k);
}

/* a comprehension from its generator g on: the loop over g, or at the end, the item appended */
KC_FN void kc_comp_level(kc_ctx *c, int32_t comp, int32_t g) {
    kc_node *n = &c->nodes[comp];
    if (g < 0 && n->spare == 3) {  /* all / any: an item that decides ends the loops */
        kc_branch(c, n->a, n->op, c->loops[2 * c->n_loops - 2]);
        kc_emit(c, K_LOADI, !n->op);
        kc_emit(c, K_STORE, n->c);
        kc_emit_jump(c, K_JUMP, (int32_t)n->ival);
        return;
    }
    if (g < 0) {
        kc_emit(c, K_LOAD, c->vars[n->var].slot);
        kc_lower_expr(c, n->a);
        kc_emit(c, K_LIST_APPEND, 0);
        return;
    }
    if (c->nodes[g].ival) kc_seq_loop(c, &c->nodes[g]);
    else kc_range_loop(c, &c->nodes[g]);
}

KC_FN void kc_truth_of_top(kc_ctx *c, int t) {
    if (t == T_FLOAT) kc_emit(c, K_TRUTH_F, 0);
    else if (t == T_STR) kc_emit(c, K_STR_LEN, 0);
    else if (kc_is_list(t) || kc_is_set(t)) kc_emit(c, K_LIST_LEN, 0);
    else if (kc_is_dict(t)) {
        kc_emit(c, K_TUPLE_GET, 0);
        kc_emit(c, K_LIST_LEN, 0);
    }
    else if (kc_is_tuple(t)) {
        kc_emit(c, K_POP, 0);
        kc_emit(c, K_LOADI, 1);
    }
    else if (t == T_NONE) {  /* a result that is always None: false */
        kc_emit(c, K_POP, 0);
        kc_emit(c, K_LOADI, 0);
    }
}

KC_FN void kc_truth(kc_ctx *c, int32_t k) {
    kc_lower_expr(c, k);
    kc_truth_of_top(c, c->nodes[k].ty);
}

/* jump to `label` when the truth of k is `when`; fall through otherwise */
KC_FN void kc_branch(kc_ctx *c, int32_t k, int when, int32_t label) {
    kc_node *n = &c->nodes[k];
    if (n->kind == E_UNARY && n->op == U_NOT) {
        kc_branch(c, n->a, !when, label);
    } else if (n->kind == E_BOOLOP) {
        int is_and = n->op == 0;
        if (is_and != when) {
            for (int32_t v = n->a; v >= 0; v = c->nodes[v].next) kc_branch(c, v, when, label);
        } else {
            int32_t skip = kc_label(c);
            int32_t v = n->a;
            for (; c->nodes[v].next >= 0; v = c->nodes[v].next) kc_branch(c, v, !when, skip);
            kc_branch(c, v, when, label);
            kc_place(c, skip);
        }
    } else {
        kc_truth(c, k);
        kc_emit_jump(c, when ? K_JUMP_IF_TRUE : K_JUMP_IF_FALSE, label);
    }
}

KC_TABLE int KC_INT_OPS[] = {K_ADD_I, K_SUB_I, K_MUL_I, K_DIV_I, K_FLOORDIV_I, K_MOD_I, K_POW_I,
                                 K_SHL_I, K_SHR_I, K_OR_I, K_XOR_I, K_AND_I, -1};
KC_TABLE int KC_FLOAT_OPS[] = {K_ADD_F, K_SUB_F, K_MUL_F, K_DIV_F, K_FLOORDIV_F, K_MOD_F, K_POW_F,
                                   -1, -1, -1, -1, -1, -1};

/* the left operand (of type lt) is on the stack: evaluates `right`, combines to `result` */
KC_FN void kc_binop(kc_ctx *c, int op, int lt, int32_t right, int result) {
    int rt = c->nodes[right].ty;
    if (!kc_numeric(result)) {  /* str or list: concatenation, or repetition (either order) */
        kc_lower_expr(c, right);
        if (kc_is_tuple(lt)) {  /* tuple + tuple: both unpacked, one tuple made */
            int32_t tmp = kc_temp(c);
            kc_emit(c, K_STORE, tmp);
            kc_emit(c, K_UNPACK_TUPLE, kc_tuple_n(c, lt));
            kc_emit(c, K_LOAD, tmp);
            kc_emit(c, K_UNPACK_TUPLE, kc_tuple_n(c, rt));
            kc_emit(c, K_TUPLE_NEW, kc_tuple_n(c, lt) + kc_tuple_n(c, rt));
            return;
        }
        if (lt == T_STR && rt == T_STR) kc_emit(c, K_STR_CONCAT, 0);
        else if (kc_is_list(lt) && kc_is_list(rt)) kc_emit(c, K_LIST_CONCAT, 0);
        else {
            if (kc_intlike(lt)) kc_emit(c, K_SWAP, 0);
            kc_emit(c, result == T_STR ? K_STR_REPEAT : K_LIST_REPEAT, 0);
        }
        return;
    }
    if (result == T_FLOAT) {
        if (op == B_DIV && lt != T_FLOAT && rt != T_FLOAT) {
            kc_lower_expr(c, right);
            kc_emit(c, K_DIV_I, 0);
            return;
        }
        if (lt != T_FLOAT) kc_emit(c, K_I2F, 0);
        kc_lower_expr(c, right);
        if (rt != T_FLOAT) kc_emit(c, K_I2F, 0);
        kc_emit(c, KC_FLOAT_OPS[op], 0);
        return;
    }
    kc_lower_expr(c, right);
    kc_emit(c, KC_INT_OPS[op], 0);
}

KC_TABLE int KC_CMP_I[] = {K_LT_I, K_LE_I, K_GT_I, K_GE_I, K_EQ_I, K_NE_I};
KC_TABLE int KC_CMP_F[] = {K_LT_F, K_LE_F, K_GT_F, K_GE_F, K_EQ_F, K_NE_F};
KC_TABLE int KC_CMP_SWAPPED[] = {C_GT, C_GE, C_LT, C_LE, C_EQ, C_NE}; /* a op b as b op' a */

KC_FN int32_t kc_type_index(kc_ctx *c, int t);

/* one link of a comparison: its operands are on the stack (lowering.py's compare) */
KC_FN void kc_compare(kc_ctx *c, const kc_node *link, int lt, int rt) {
    int op = link->op, plan = link->ty;
    if (link->ival == PL_NONE) {  /* lower.py's "none" plan: drop the None, test the other */
        if (lt == T_NONE) kc_emit(c, K_SWAP, 0);
        kc_emit(c, K_POP, 0);
        kc_emit(c, K_POP, 0);
        kc_emit(c, K_LOADI, plan == T_NONE);  /* None is None; a value of another type is not */
        if (op == C_ISNOT || op == C_NE) kc_emit(c, K_NOT, 0);
        return;
    }
    if (link->ival == PL_ISBOOL) {  /* lower.py's "isbool" */
        if (plan == T_BOOL) {
            kc_emit(c, K_EQ_I, 0);
        } else {
            kc_emit(c, K_POP, 0);
            kc_emit(c, K_POP, 0);
            kc_emit(c, K_LOADI, 0);
        }
        if (op == C_ISNOT) kc_emit(c, K_NOT, 0);
        return;
    }
    if (link->ival == PL_IN) {
        if (kc_is_dict(plan)) {  /* a key of the dict: in its keys list */
            kc_emit(c, K_TUPLE_GET, 0);
            plan = kc_tuple_arg(c, plan, 0) + KC_LIST;
        }
        kc_emit(c, K_CONTAINS, kc_type_index(c, plan));
        if (op == C_NOTIN) kc_emit(c, K_NOT, 0);
        return;
    }
    if (link->ival == PL_VALUE) {
        int32_t ti = kc_type_index(c, plan);
        if (op == C_GT || op == C_GE) {
            kc_emit(c, K_SWAP, 0);
            op = op == C_GT ? C_LT : C_LE;
        }
        if (op == C_NE) {
            kc_emit(c, K_EQ, ti);
            kc_emit(c, K_NOT, 0);
        } else {
            kc_emit(c, op == C_LT ? K_LT : op == C_LE ? K_LE : K_EQ, ti);
        }
        return;
    }
    if (plan == T_FLOAT && lt == T_FLOAT && rt == T_FLOAT) {
        kc_emit(c, KC_CMP_F[op], 0);
    } else if (plan == T_FLOAT) { /* an int and a float: exactly (CMP_IF; enum kc_cmp's order) */
        if (lt == T_FLOAT) {
            kc_emit(c, K_SWAP, 0);
            op = KC_CMP_SWAPPED[op];
        }
        kc_emit(c, K_CMP_IF, op);
    } else {
        kc_emit(c, KC_CMP_I[op], 0);
    }
}

KC_FN void kc_lower_call(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    if (n->op == KC_NAME_ERROR_OP) { kc_raise(c, KT_NAME); return; }  /* lower.py: before any argument */
    if (n->op == KC_DICT_OP || n->op == KC_DICT_OP + 1) {  /* dict(), dict(pairs): lower.py's b_dict */
        kc_dict_new(c);
        if (n->op == KC_DICT_OP) return;
        int32_t d = kc_temp(c), pairs = kc_temp(c), i = kc_temp(c), key = kc_temp(c), v = kc_temp(c);
        int32_t top = kc_label(c), end = kc_label(c);
        kc_emit(c, K_STORE, d);
        kc_lower_expr(c, n->a);
        kc_emit(c, K_STORE, pairs);
        kc_emit(c, K_LOADI, 0);
        kc_emit(c, K_STORE, i);
        kc_place(c, top);
        kc_while_index_below_len(c, i, pairs, end);
        kc_emit(c, K_LOAD, pairs);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LIST_INDEX, 0);
        kc_emit(c, K_UNPACK_TUPLE, 2);
        kc_emit(c, K_STORE, v);
        kc_emit(c, K_STORE, key);
        kc_dict_set(c, d, key, v, n->ty);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LOADI, 1);
        kc_emit(c, K_ADD_I, 0);
        kc_emit(c, K_STORE, i);
        kc_emit_jump(c, K_JUMP, top);
        kc_place(c, end);
        kc_emit(c, K_LOAD, d);
        return;
    }
    if (n->op >= KC_MATH_OP && n->op <= KC_MATH_OP + 4) {  /* lower.py's b_math_sqrt, b_math_floor, b_math_ceil */
        int is_float = c->nodes[n->a].ty == T_FLOAT;
        kc_lower_expr(c, n->a);
        if (n->op == KC_MATH_OP) {
            if (!is_float) kc_emit(c, K_I2F, 0);
            kc_emit(c, K_SQRT_F, 0);
        } else if (n->op == KC_MATH_OP + 4) {
            kc_emit(c, K_STR_BIN, 0);
        } else if (is_float) {
            kc_emit(c, n->op == KC_MATH_OP + 1 ? K_FLOOR_F : n->op == KC_MATH_OP + 2 ? K_CEIL_F : K_ROUND_F, 0);
            kc_emit(c, K_F2I, 0);
        }
        return;
    }
    int32_t callee = kc_find_func(c, n->tok);  /* its index among the functions kept */
    if (callee >= 0) {
        for (int32_t a = n->a; a >= 0; a = c->nodes[a].next) kc_lower_expr(c, a);
        kc_emit(c, K_CALL, callee);
        return;
    }
    const kc_tok *name = &c->toks[n->tok];
    int32_t a0 = n->a;
    if (n->op == 1) {  /* range(...) materialised: lower.py's b_range */
        if (n->ival == 1) kc_emit(c, K_LOADI, 0);
        for (int32_t a = a0; a >= 0; a = c->nodes[a].next) kc_lower_expr(c, a);
        if (n->ival < 3) kc_emit(c, K_LOADI, 1);
        kc_emit(c, K_LIST_RANGE, 0);
        return;
    }
    if (n->op == 6) {  /* all / any: loops that stop at the first item that decides */
        int32_t l = n->b >= 0 ? n->b : a0;
        int is_all = c->nodes[l].op;
        int32_t result = kc_temp(c), done = kc_label(c);
        kc_emit(c, K_LOADI, is_all);
        kc_emit(c, K_STORE, result);
        c->nodes[l].c = result;
        c->nodes[l].ival = done;
        kc_comp_level(c, l, c->nodes[l].b);
        kc_place(c, done);
        kc_emit(c, K_LOAD, result);
        return;
    }
    if (n->op == 7 || n->op == 8) {  /* set(...): lower.py's b_set */
        if (n->op == 7) { kc_emit(c, K_LIST_NEW, 0); return; }
        kc_lower_expr(c, a0);
        if (c->nodes[a0].ty == T_STR) kc_emit(c, K_LIST_OF_STR, 0);
        kc_emit(c, K_SORTED_UNIQUE, kc_type_index(c, n->ty));
        return;
    }
    if (n->op >= 2) {  /* list(...): lower.py's b_list */
        if (n->op == 2) { kc_emit(c, K_LIST_NEW, 0); return; }
        if (n->op == 3) { kc_lower_expr(c, a0); return; }
        if (n->op == 4) {
            int32_t inner = c->nodes[a0].a;
            kc_lower_expr(c, inner);
            if (c->nodes[inner].ty == T_STR) kc_emit(c, K_LIST_OF_STR, 0);
            kc_emit(c, K_LIST_REVERSED, 0);
            return;
        }
        kc_lower_expr(c, a0);
        kc_emit(c, c->nodes[a0].ty == T_STR ? K_LIST_OF_STR : K_LIST_SLICE, 0);
        return;
    }
    if (kc_tok_is(c, name, "print")) {  /* lower.py's b_print: evaluated, dropped; None */
        for (int32_t a = a0; a >= 0; a = c->nodes[a].next) {
            kc_lower_expr(c, a);
            kc_emit(c, K_POP, 0);
        }
        kc_emit(c, K_LOADI, 0);
        return;
    }
    if (kc_tok_is(c, name, "sorted")) {
        kc_lower_expr(c, a0);
        if (c->nodes[a0].ty == T_STR) kc_emit(c, K_LIST_OF_STR, 0);
        int32_t t = kc_type_index(c, n->ty);
        kc_emit(c, n->spare == 1 ? K_SORTED_DESC : K_SORTED, t);
        return;
    }
    if ((kc_tok_is(c, name, "min") || kc_tok_is(c, name, "max")) && n->ival == 1) {
        kc_lower_expr(c, a0);
        kc_emit(c, kc_tok_is(c, name, "min") ? K_MIN : K_MAX, kc_type_index(c, c->nodes[a0].ty));
        return;
    }
    if (kc_tok_is(c, name, "min") || kc_tok_is(c, name, "max")) {
        int is_min = kc_tok_is(c, name, "min");
        int32_t slots[256];
        int count = 0;
        for (int32_t a = a0; a >= 0; a = c->nodes[a].next) {
            kc_lower_expr(c, a);
            if (count >= 256) { kc_fail(c, "min/max of more than 256 arguments", n->line); return; }
            slots[count++] = kc_temp(c);
            kc_emit(c, K_STORE, slots[count - 1]);
        }
        int32_t cur = slots[0];
        for (int i = 1; i < count; i++) {
            int32_t skip = kc_label(c), s = slots[i];
            kc_emit(c, K_LOAD, is_min ? s : cur);
            kc_emit(c, K_LOAD, is_min ? cur : s);
            if (!kc_numeric(n->ty)) kc_emit(c, K_LT, kc_type_index(c, n->ty));
            else kc_emit(c, n->ty == T_FLOAT ? K_LT_F : K_LT_I, 0);
            kc_emit_jump(c, K_JUMP_IF_FALSE, skip);
            kc_emit(c, K_LOAD, s);
            kc_emit(c, K_STORE, cur);
            kc_place(c, skip);
        }
        kc_emit(c, K_LOAD, cur);
        return;
    }
    int at = a0 >= 0 ? c->nodes[a0].ty : T_UNKNOWN;
    if (kc_tok_is(c, name, "str")) {
        if (a0 < 0) {
            if (c->n_image + 1 > c->cap_image) { kc_fail(c, "too many strings for the arena", n->line); return; }
            kc_emit(c, K_STR, kc_pool_tail(c, 0));
            return;
        }
        kc_lower_expr(c, a0);
        if (at == T_INT) kc_emit(c, K_STR_OF_INT, 0);
        else if (at == T_BOOL) kc_emit(c, K_STR_OF_BOOL, 0);
    } else if (kc_tok_is(c, name, "ord") || kc_tok_is(c, name, "chr") || kc_tok_is(c, name, "sum")) {
        kc_lower_expr(c, a0);
        kc_emit(c, kc_tok_is(c, name, "ord") ? K_ORD : kc_tok_is(c, name, "chr") ? K_CHR
                   : n->ty == T_FLOAT ? K_SUM_F : K_SUM_I, 0);
    } else if (kc_tok_is(c, name, "len")) {
        kc_lower_expr(c, a0);
        if (kc_is_tuple(at)) {
            kc_emit(c, K_POP, 0);
            kc_emit(c, K_LOADI, kc_tuple_n(c, at));
            return;
        }
        if (kc_is_dict(at)) kc_emit(c, K_TUPLE_GET, 0);
        kc_emit(c, at == T_STR ? K_STR_LEN : K_LIST_LEN, 0);
    } else if (kc_tok_is(c, name, "abs")) {
        kc_lower_expr(c, a0);
        kc_emit(c, at == T_FLOAT ? K_ABS_F : K_ABS_I, 0);
    } else if (kc_tok_is(c, name, "int")) {
        if (a0 < 0) { kc_emit(c, K_LOADI, 0); return; }
        kc_lower_expr(c, a0);
        if (at == T_FLOAT) kc_emit(c, K_F2I, 0);
        else if (at == T_STR) kc_emit(c, K_INT_OF_STR, 0);
    } else if (kc_tok_is(c, name, "float")) {
        if (a0 < 0) { kc_push_float(c, 0.0); return; }
        kc_lower_expr(c, a0);
        if (at != T_FLOAT) kc_emit(c, K_I2F, 0);
    } else {  /* bool */
        if (a0 < 0) { kc_emit(c, K_LOADI, 0); return; }
        kc_lower_expr(c, a0);
        if (at != T_BOOL) {
            kc_truth_of_top(c, at);
            kc_emit(c, K_LOADI, 0);
            kc_emit(c, K_NE_I, 0);
        }
    }
}

KC_FN void kc_lower_expr(kc_ctx *c, int32_t k) {
    if (c->err) return;
    kc_node *n = &c->nodes[k];
    switch (n->kind) {
    case E_INT: kc_push_int(c, n->ival); return;
    case E_FLOAT: kc_push_float(c, n->fval); return;
    case E_BOOL: kc_emit(c, K_LOADI, (int32_t)n->ival); return;
    case E_NONE: kc_emit(c, K_LOADI, 0); return;
    case E_STR: kc_emit(c, K_STR, kc_string(c, n->tok)); return;
    case E_NAME: kc_load_var(c, n->var, n->check); return;
    case E_BINOP:
        kc_lower_expr(c, n->a);
        kc_binop(c, n->op, c->nodes[n->a].ty, n->b, n->ty);
        return;
    case E_UNARY:
        if (n->op == U_NOT) {
            kc_truth(c, n->a);
            kc_emit(c, K_NOT, 0);
            return;
        }
        kc_lower_expr(c, n->a);
        if (n->op == U_INVERT) kc_emit(c, K_INVERT_I, 0);
        else if (n->op == U_NEG) kc_emit(c, c->nodes[n->a].ty == T_FLOAT ? K_NEG_F : K_NEG_I, 0);
        return;
    case E_BOOLOP: {
        int32_t end = kc_label(c);
        kc_lower_expr(c, n->a);
        for (int32_t v = c->nodes[n->a].next; v >= 0; v = c->nodes[v].next) {
            kc_emit(c, K_DUP, 0);
            kc_truth_of_top(c, n->ty);
            kc_emit_jump(c, n->op == 0 ? K_JUMP_IF_FALSE : K_JUMP_IF_TRUE, end);
            kc_emit(c, K_POP, 0);
            kc_lower_expr(c, v);
        }
        kc_place(c, end);
        return;
    }
    case E_COMPARE: {
        int32_t left = n->a, link = n->b;
        kc_lower_expr(c, left);
        if (c->nodes[link].next < 0) {
            kc_lower_expr(c, c->nodes[link].a);
            kc_compare(c, &c->nodes[link], c->nodes[left].ty, c->nodes[c->nodes[link].a].ty);
            return;
        }
        int32_t false_ = kc_label(c), end = kc_label(c);
        int32_t tmp = kc_temp(c);
        int lt = c->nodes[left].ty;
        for (; link >= 0; link = c->nodes[link].next) {
            int32_t right = c->nodes[link].a;
            int last = c->nodes[link].next < 0;
            kc_lower_expr(c, right);
            if (!last) {
                kc_emit(c, K_DUP, 0);
                kc_emit(c, K_STORE, tmp);
            }
            kc_compare(c, &c->nodes[link], lt, c->nodes[right].ty);
            if (!last) {
                kc_emit_jump(c, K_JUMP_IF_FALSE, false_);
                kc_emit(c, K_LOAD, tmp);
            }
            lt = c->nodes[right].ty;
        }
        kc_emit_jump(c, K_JUMP, end);
        kc_place(c, false_);
        kc_emit(c, K_LOADI, 0);
        kc_place(c, end);
        return;
    }
    case E_IFEXP: {
        int32_t orelse = kc_label(c), end = kc_label(c);
        kc_branch(c, n->a, 0, orelse);
        kc_lower_expr(c, n->b);
        kc_emit_jump(c, K_JUMP, end);
        kc_place(c, orelse);
        kc_lower_expr(c, n->c);
        kc_place(c, end);
        return;
    }
    case E_CALL: kc_lower_call(c, k); return;
    case E_LIST:
        for (int32_t e = n->a; e >= 0; e = c->nodes[e].next) kc_lower_expr(c, e);
        kc_emit(c, K_LIST_NEW, (int32_t)n->ival);
        return;
    case E_DICT: {
        int32_t d = kc_temp(c), key = kc_temp(c), value = kc_temp(c);
        kc_dict_new(c);
        kc_emit(c, K_STORE, d);
        for (int32_t e = n->a, v = n->b; e >= 0; e = c->nodes[e].next, v = c->nodes[v].next) {
            kc_lower_expr(c, e);
            kc_emit(c, K_STORE, key);
            kc_lower_expr(c, v);
            kc_emit(c, K_STORE, value);
            kc_dict_set(c, d, key, value, n->ty);
        }
        kc_emit(c, K_LOAD, d);
        return;
    }
    case E_INDEX:
        if (kc_is_dict(c->nodes[n->a].ty)) {  /* d[k]: KeyError when absent */
            int32_t d = kc_temp(c), key = kc_temp(c);
            kc_lower_expr(c, n->a);
            kc_emit(c, K_STORE, d);
            kc_lower_expr(c, n->b);
            kc_emit(c, K_STORE, key);
            int32_t i = kc_dict_find(c, d, key, c->nodes[n->a].ty, KT_KEY);
            kc_emit(c, K_LOAD, d);
            kc_emit(c, K_TUPLE_GET, 1);
            kc_emit(c, K_LOAD, i);
            kc_emit(c, K_LIST_INDEX, 0);
            return;
        }
        kc_lower_expr(c, n->a);
        if (kc_is_tuple(c->nodes[n->a].ty)) { kc_emit(c, K_TUPLE_GET, (int32_t)n->ival); return; }
        kc_lower_expr(c, n->b);
        kc_emit(c, c->nodes[n->a].ty == T_STR ? K_STR_INDEX : K_LIST_INDEX, 0);
        return;
    case E_SLICE: {
        int32_t flags = 0;
        kc_lower_expr(c, n->a);
        if (n->b >= 0) { kc_lower_expr(c, n->b); flags |= 1; }
        if (n->c >= 0) { kc_lower_expr(c, n->c); flags |= 2; }
        if (n->d >= 0) { kc_lower_expr(c, n->d); flags |= 4; }
        kc_emit(c, c->nodes[n->a].ty == T_STR ? K_STR_SLICE : K_LIST_SLICE, flags);
        return;
    }
    case E_TUPLE:
        for (int32_t e = n->a; e >= 0; e = c->nodes[e].next) kc_lower_expr(c, e);
        kc_emit(c, K_TUPLE_NEW, kc_list_len(c, n->a));
        return;
    case E_SET:
        for (int32_t e = n->a; e >= 0; e = c->nodes[e].next) kc_lower_expr(c, e);
        kc_emit(c, K_LIST_NEW, (int32_t)n->ival);
        kc_emit(c, K_SORTED_UNIQUE, kc_type_index(c, n->ty));
        return;
    case E_LISTCOMP: {
        int32_t result = c->vars[n->var].slot;
        kc_emit(c, K_LIST_NEW, 0);
        kc_emit(c, K_STORE, result);
        kc_comp_level(c, k, n->b);
        kc_emit(c, K_LOAD, result);
        if (n->spare == 4) kc_emit(c, K_SORTED_UNIQUE, kc_type_index(c, n->ty));
        return;
    }
    case E_METHOD:
        if (n->op == 200) { kc_lower_set_add(c, n); return; }
        if (n->op == 201) { kc_dict_get(c, n); return; }
        if (n->op >= 100) { kc_list_method(c, n, n->op - 100); return; }
        kc_lower_expr(c, n->a);
        for (int32_t a = n->b; a >= 0; a = c->nodes[a].next) kc_lower_expr(c, a);
        if (n->op == 0) {  /* xs.append(v) as a value: None */
            kc_emit(c, K_LIST_APPEND, 0);
            kc_emit(c, K_LOADI, 0);
            return;
        }
        if (n->op - 1 == KC_STR_M_SPLIT) { kc_emit(c, n->b >= 0 ? K_STR_SPLIT : K_STR_SPLIT_WS, 0); return; }
        kc_emit(c, KC_STR_METHOD_OP[n->op - 1], 0);
        if (n->op - 1 == KC_STR_M_INDEX) {  /* find, then ValueError for -1 */
            int32_t found = kc_label(c);
            kc_emit(c, K_DUP, 0);
            kc_emit(c, K_LOADI, -1);
            kc_emit(c, K_NE_I, 0);
            kc_emit_jump(c, K_JUMP_IF_TRUE, found);
            kc_raise(c, KT_VALUE);
            kc_place(c, found);
        }
        return;
    default: kc_fail(c, "expression", n->line); return;
    }
}

KC_FN int64_t kc_const_int(const kc_ctx *c, int32_t k, int *known) {
    const kc_node *n = &c->nodes[k];
    *known = 1;
    if (n->kind == E_INT) return n->ival;
    if (n->kind == E_UNARY && n->op == U_NEG) {
        const kc_node *o = &c->nodes[n->a];
        if (o->kind == E_INT || o->kind == E_BOOL) return -o->ival;  /* -True is -1, as in types.py */
    }
    *known = 0;
    return 0;
}

KC_FN void kc_lower_block(kc_ctx *c, int32_t s);

KC_FN void kc_branch(kc_ctx *c, int32_t k, int when, int32_t label);

/* a loop's body: a for statement's block, or a comprehension generator's conditions (each false
   one goes on to the next item) and then the next level */
KC_FN void kc_loop_body(kc_ctx *c, kc_node *s) {
    if (s->kind == S_FOR && s->d >= 0) {  /* for ... else: a break goes through `via`, setting the flag */
        int32_t cont = c->loops[2 * c->n_loops - 2], brk = c->loops[2 * c->n_loops - 1], via = kc_label(c);
        c->loops[2 * c->n_loops - 1] = via;
        kc_lower_block(c, s->c);
        c->loops[2 * c->n_loops - 1] = brk;
        kc_emit_jump(c, K_JUMP, cont);
        kc_place(c, via);
        kc_emit(c, K_LOADI, 1);
        kc_emit(c, K_STORE, s->pow_float);
        kc_emit_jump(c, K_JUMP, brk);
        return;
    }
    if (s->kind == S_FOR) {
        kc_lower_block(c, s->c);
        return;
    }
    int32_t cont = c->loops[2 * c->n_loops - 2];
    for (int32_t cond = s->c; cond >= 0; cond = c->nodes[cond].next) kc_branch(c, cond, 0, cont);
    kc_comp_level(c, s->d, s->next);
}

/* for NAME in range(...): the plain test-and-increment loop (no FOR_RANGE at -O0) */
KC_FN void kc_range_loop(kc_ctx *c, kc_node *s) {
    kc_node *it = &c->nodes[s->b];
    int nargs = (int)it->ival;
    int32_t a0 = it->a, a1 = nargs > 1 ? c->nodes[a0].next : -1, a2 = nargs > 2 ? c->nodes[a1].next : -1;
    int32_t top = kc_label(c), end = kc_label(c);
    int32_t cur = kc_temp(c), stop = kc_temp(c), step = kc_temp(c);
    if (nargs == 1) {
        kc_emit(c, K_LOADI, 0);
        kc_lower_expr(c, a0);
    } else {
        kc_lower_expr(c, a0);
        kc_lower_expr(c, a1);
    }
    kc_emit(c, K_STORE, stop);
    kc_emit(c, K_STORE, cur);
    int known = 1;
    int64_t const_step = nargs < 3 ? 1 : kc_const_int(c, a2, &known);
    if (nargs == 3) {
        kc_lower_expr(c, a2);
        kc_emit(c, K_STORE, step);
        if (!known) {
            int32_t ok = kc_label(c);
            kc_emit(c, K_LOAD, step);
            kc_emit_jump(c, K_JUMP_IF_TRUE, ok);
            kc_raise(c, KT_VALUE);
            kc_place(c, ok);
        } else if (const_step == 0) {
            kc_raise(c, KT_VALUE);
            return;
        }
    }
    if ((c->cfg->passes & KC_PASS_LOOPS) && step + 1 <= KC_LOCAL2_MAX) {
        /* the `loops` pass: lower.py's stepped_loop, `JUMP test; top: [hidden target store]
           body; test: FOR_RANGE value,cur; JUMP top; end:` (continue goes to the step) */
        int32_t var = c->nodes[s->a].var, value = c->vars[var].slot, hidden = -1, line = c->line;
        int32_t test = kc_label(c);
        if (nargs < 3) {
            kc_emit(c, K_LOADI, 1);
            kc_emit(c, K_STORE, step);
        }
        if (c->vars[var].flag >= 0 || value > KC_LOCAL2_MAX) value = hidden = kc_temp(c);
        kc_emit_jump(c, K_JUMP, test);
        kc_place(c, top);
        if (hidden >= 0) {
            kc_emit(c, K_LOAD, hidden);
            kc_store_var(c, var);
        }
        c->loops[2 * c->n_loops] = test;
        c->loops[2 * c->n_loops + 1] = end;
        c->n_loops++;
        kc_loop_body(c, s);
        c->n_loops--;
        kc_place(c, test);
        c->line = line;
        kc_emit(c, K_FOR_RANGE, value | cur << 12);
        kc_emit_jump(c, K_JUMP, top);
        kc_place(c, end);
        return;
    }
    kc_place(c, top);
    if (!known) {
        int32_t negative = kc_label(c), test = kc_label(c);
        kc_emit(c, K_LOAD, step);
        kc_emit(c, K_LOADI, 0);
        kc_emit(c, K_GT_I, 0);
        kc_emit_jump(c, K_JUMP_IF_FALSE, negative);
        kc_emit(c, K_LOAD, cur);
        kc_emit(c, K_LOAD, stop);
        kc_emit(c, K_LT_I, 0);
        kc_emit_jump(c, K_JUMP, test);
        kc_place(c, negative);
        kc_emit(c, K_LOAD, cur);
        kc_emit(c, K_LOAD, stop);
        kc_emit(c, K_GT_I, 0);
        kc_place(c, test);
    } else {
        kc_emit(c, K_LOAD, cur);
        kc_emit(c, K_LOAD, stop);
        kc_emit(c, const_step > 0 ? K_LT_I : K_GT_I, 0);
    }
    kc_emit_jump(c, K_JUMP_IF_FALSE, end);
    kc_emit(c, K_LOAD, cur);
    kc_store_var(c, c->nodes[s->a].var);
    kc_emit(c, K_LOAD, cur);
    if (!known) kc_emit(c, K_LOAD, step);
    else kc_push_int(c, const_step);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_STORE, cur);
    c->loops[2 * c->n_loops] = top;
    c->loops[2 * c->n_loops + 1] = end;
    c->n_loops++;
    kc_loop_body(c, s);
    c->n_loops--;
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
}

/* for NAME in <str or list>: the index loop (no FOR_LIST / FOR_STR at -O0), the length read
   afresh each time as CPython's iterators do */
/* the values of names (a list linked by next) on the stack, the last on top: stored right to
   left, a repeated name keeping its last value (lower.py's store_names_reversed) */
KC_FN void kc_store_names_reversed(kc_ctx *c, int32_t first) {
    int32_t count = kc_list_len(c, first);  /* walked again for each name: no array on the stack */
    for (int32_t i = count - 1; i >= 0; i--) {
        int32_t e = first;
        for (int32_t k = 0; k < i; k++) e = c->nodes[e].next;
        int seen = 0;
        for (int32_t later = c->nodes[e].next; later >= 0; later = c->nodes[later].next)
            seen |= kc_same_name(c, c->nodes[later].tok, c->nodes[e].tok);
        if (seen) kc_emit(c, K_POP, 0);
        else kc_store_var(c, c->nodes[e].var);
    }
}

/* stores the value on top of the stack into a loop or assignment target: a name, or names that
   a tuple or a list (the target's ty) is unpacked into (lower.py's store_target) */
KC_FN void kc_store_target(kc_ctx *c, int32_t target) {
    const kc_node *t = &c->nodes[target];
    if (t->kind != E_TUPLE) { kc_store_var(c, t->var); return; }
    kc_emit(c, kc_is_tuple(t->ty) ? K_UNPACK_TUPLE : K_UNPACK_LIST, kc_list_len(c, t->a));
    kc_store_names_reversed(c, t->a);
}

/* enumerate's (count, item) on the stack: into two names, or made a tuple for the target */
KC_FN void kc_store_pair(kc_ctx *c, int32_t target) {
    if (c->nodes[target].kind == E_TUPLE && kc_list_len(c, c->nodes[target].a) == 2) {
        kc_store_names_reversed(c, c->nodes[target].a);
        return;
    }
    kc_emit(c, K_TUPLE_NEW, 2);
    kc_store_target(c, target);
}

/* for target in d / d.keys() / d.values() / d.items() (s->ival 5, 6, 7): insertion order; a step
   after the dict changed size is RuntimeError (lower.py's dict_loop) */
KC_FN void kc_dict_loop(kc_ctx *c, kc_node *s) {
    int32_t top = kc_label(c), end = kc_label(c);
    int32_t source = c->nodes[s->b].kind == E_METHOD ? c->nodes[s->b].a : s->b;
    int32_t d = kc_temp(c), n = kc_temp(c), i = kc_temp(c), same = kc_label(c);
    kc_lower_expr(c, source);
    kc_emit(c, K_STORE, d);
    kc_emit(c, K_LOAD, d);
    kc_emit(c, K_TUPLE_GET, 0);
    kc_emit(c, K_LIST_LEN, 0);
    kc_emit(c, K_STORE, n);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, i);
    kc_place(c, top);
    kc_emit(c, K_LOAD, d);
    kc_emit(c, K_TUPLE_GET, 0);
    kc_emit(c, K_LIST_LEN, 0);
    kc_emit(c, K_LOAD, n);
    kc_emit(c, K_EQ_I, 0);
    kc_emit_jump(c, K_JUMP_IF_TRUE, same);
    kc_raise(c, KT_RUNTIME);
    kc_place(c, same);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOAD, n);
    kc_emit(c, K_LT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_FALSE, end);
    for (int part = s->ival == 6 ? 1 : 0; part <= (s->ival == 5 ? 0 : 1); part++) {
        kc_emit(c, K_LOAD, d);
        kc_emit(c, K_TUPLE_GET, part);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LIST_INDEX, 0);
    }
    if (s->ival == 7) kc_store_pair(c, s->a);
    else kc_store_target(c, s->a);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOADI, 1);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_STORE, i);
    c->loops[2 * c->n_loops] = top;
    c->loops[2 * c->n_loops + 1] = end;
    c->n_loops++;
    kc_loop_body(c, s);
    c->n_loops--;
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
}

/* for target in zip(a, b, ...): the sequences once, in order; each step reads the lengths afresh
   and stops at the shortest (lower.py's zip_loop) */
KC_FN void kc_zip_loop(kc_ctx *c, kc_node *s) {
    int32_t slots[KC_MAX_TUPLE];  /* zip's items are a tuple type: at most KC_MAX_TUPLE */
    int count = 0;
    int32_t top = kc_label(c), end = kc_label(c);
    for (int32_t a = c->nodes[s->b].a; a >= 0; a = c->nodes[a].next) {
        if (count >= KC_MAX_TUPLE) { kc_fail(c, "zip of more than 64 sequences", s->line); return; }
        kc_lower_expr(c, a);
        slots[count] = kc_temp(c);
        kc_emit(c, K_STORE, slots[count++]);
    }
    int32_t i = kc_temp(c);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, i);
    kc_place(c, top);
    int k = 0;
    for (int32_t a = c->nodes[s->b].a; a >= 0; a = c->nodes[a].next, k++) {
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LOAD, slots[k]);
        kc_emit(c, c->nodes[a].ty == T_STR ? K_STR_LEN : K_LIST_LEN, 0);
        kc_emit(c, K_LT_I, 0);
        kc_emit_jump(c, K_JUMP_IF_FALSE, end);
    }
    k = 0;
    for (int32_t a = c->nodes[s->b].a; a >= 0; a = c->nodes[a].next, k++) {
        kc_emit(c, K_LOAD, slots[k]);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, c->nodes[a].ty == T_STR ? K_STR_INDEX : K_LIST_INDEX, 0);
    }
    if (c->nodes[s->a].kind == E_TUPLE && kc_list_len(c, c->nodes[s->a].a) == count) {
        kc_store_names_reversed(c, c->nodes[s->a].a);
    } else {
        kc_emit(c, K_TUPLE_NEW, count);
        kc_store_target(c, s->a);
    }
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOADI, 1);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_STORE, i);
    c->loops[2 * c->n_loops] = top;
    c->loops[2 * c->n_loops + 1] = end;
    c->n_loops++;
    kc_loop_body(c, s);
    c->n_loops--;
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
}

KC_FN void kc_seq_loop(kc_ctx *c, kc_node *s) {
    if (s->ival == 4) { kc_zip_loop(c, s); return; }
    if (s->ival >= 5) { kc_dict_loop(c, s); return; }
    int rev = s->ival == 2, en = s->ival == 3;  /* reversed(seq), enumerate(seq[, start]) */
    int32_t source = rev || en ? c->nodes[s->b].a : s->b;
    int32_t start = en ? c->nodes[source].next : -1;
    int is_str = c->nodes[source].ty == T_STR;
    int32_t top = kc_label(c), end = kc_label(c);
    int stepped = !rev && (c->cfg->passes & KC_PASS_LOOPS) && c->fn->n_locals + 3 <= KC_LOCAL2_MAX;
    int32_t seq = kc_temp(c), i = kc_temp(c), count = -1, en_item = -1;
    kc_lower_expr(c, source);
    kc_emit(c, K_STORE, seq);
    if (en) {
        count = kc_temp(c);
        if (stepped) en_item = kc_temp(c);
        if (start >= 0) kc_lower_expr(c, start);
        else kc_emit(c, K_LOADI, 0);
        kc_emit(c, K_STORE, count);
    }
    if (rev) {  /* CPython's reversed(): from len - 1, stopping below 0 or past the end */
        kc_emit(c, K_LOAD, seq);
        kc_emit(c, is_str ? K_STR_LEN : K_LIST_LEN, 0);
        kc_emit(c, K_LOADI, 1);
        kc_emit(c, K_SUB_I, 0);
        kc_emit(c, K_STORE, i);
        kc_place(c, top);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LOADI, 0);
        kc_emit(c, K_GE_I, 0);
        kc_emit_jump(c, K_JUMP_IF_FALSE, end);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LOAD, seq);
        kc_emit(c, is_str ? K_STR_LEN : K_LIST_LEN, 0);
        kc_emit(c, K_LT_I, 0);
        kc_emit_jump(c, K_JUMP_IF_FALSE, end);
        kc_emit(c, K_LOAD, seq);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, is_str ? K_STR_INDEX : K_LIST_INDEX, 0);
        kc_store_target(c, s->a);
        kc_emit(c, K_LOAD, i);
        kc_emit(c, K_LOADI, -1);
        kc_emit(c, K_ADD_I, 0);
        kc_emit(c, K_STORE, i);
        c->loops[2 * c->n_loops] = top;
        c->loops[2 * c->n_loops + 1] = end;
        c->n_loops++;
        kc_loop_body(c, s);
        c->n_loops--;
        kc_emit_jump(c, K_JUMP, top);
        kc_place(c, end);
        return;
    }
    if (stepped) {
        /* the `loops` pass: lower.py's sequence_loop, `JUMP test; top: [hidden target store]
           body; test: FOR_LIST item,seq; JUMP top; end:` (the index in the slot after seq) */
        int named = c->nodes[s->a].kind == E_NAME;
        int32_t var = named ? c->nodes[s->a].var : -1, item = en ? en_item : named ? c->vars[var].slot : -1, hidden = -1;
        int32_t line = c->line, test = kc_label(c);
        if (!en && (!named || c->vars[var].flag >= 0 || item > KC_LOCAL2_MAX)) item = hidden = kc_temp(c);
        kc_emit(c, K_LOADI, 0);
        kc_emit(c, K_STORE, i);
        kc_emit_jump(c, K_JUMP, test);
        kc_place(c, top);
        if (hidden >= 0) {
            kc_emit(c, K_LOAD, hidden);
            kc_store_target(c, s->a);
        }
        if (en) {  /* the prologue: (count, item) into the names (or a tuple), then count + 1 */
            kc_emit(c, K_LOAD, count);
            kc_emit(c, K_LOAD, item);
            kc_store_pair(c, s->a);
            kc_emit(c, K_LOAD, count);
            kc_emit(c, K_LOADI, 1);
            kc_emit(c, K_ADD_I, 0);
            kc_emit(c, K_STORE, count);
        }
        c->loops[2 * c->n_loops] = test;
        c->loops[2 * c->n_loops + 1] = end;
        c->n_loops++;
        kc_loop_body(c, s);
        c->n_loops--;
        kc_place(c, test);
        c->line = line;
        kc_emit(c, is_str ? K_FOR_STR : K_FOR_LIST, item | seq << 12);
        kc_emit_jump(c, K_JUMP, top);
        kc_place(c, end);
        return;
    }
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, i);
    kc_place(c, top);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOAD, seq);
    kc_emit(c, is_str ? K_STR_LEN : K_LIST_LEN, 0);
    kc_emit(c, K_LT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_FALSE, end);
    if (en) kc_emit(c, K_LOAD, count);
    kc_emit(c, K_LOAD, seq);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, is_str ? K_STR_INDEX : K_LIST_INDEX, 0);
    if (en) kc_store_pair(c, s->a);
    else kc_store_target(c, s->a);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOADI, 1);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_STORE, i);
    if (en) {
        kc_emit(c, K_LOAD, count);
        kc_emit(c, K_LOADI, 1);
        kc_emit(c, K_ADD_I, 0);
        kc_emit(c, K_STORE, count);
    }
    c->loops[2 * c->n_loops] = top;
    c->loops[2 * c->n_loops + 1] = end;
    c->n_loops++;
    kc_loop_body(c, s);
    c->n_loops--;
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
}

KC_FN void kc_lower_stmt(kc_ctx *c, int32_t k) {
    kc_node *s = &c->nodes[k];
    switch (s->kind) {
    case S_PASS: return;
    case S_EXPR:
        if (s->op) return;
        if (c->nodes[s->a].kind == E_METHOD && c->nodes[s->a].op == 0) {  /* xs.append(v): nothing to pop */
            kc_lower_expr(c, c->nodes[s->a].a);
            kc_lower_expr(c, c->nodes[s->a].b);
            kc_emit(c, K_LIST_APPEND, 0);
            return;
        }
        kc_lower_expr(c, s->a);
        kc_emit(c, K_POP, 0);
        return;
    case S_RETURN:
        if (s->a < 0) kc_emit(c, K_LOADI, 0);
        else kc_lower_expr(c, s->a);
        kc_emit(c, K_RET, 0);
        return;
    case S_ASSIGN: {
        int32_t value = s->b;
        if (s->ival) {  /* a, b = b, a: all values, then the stores */
            for (int32_t e = c->nodes[value].a; e >= 0; e = c->nodes[e].next) kc_lower_expr(c, e);
            kc_store_names_reversed(c, c->nodes[s->a].a);
            return;
        }
        int32_t first = s->a;
        const kc_node *vn = &c->nodes[value];
        if (c->nodes[first].next < 0 && c->nodes[first].kind == E_INDEX && kc_is_list(c->nodes[c->nodes[first].a].ty) &&
            (vn->kind == E_INT || vn->kind == E_FLOAT || vn->kind == E_BOOL || vn->kind == E_STR ||
             vn->kind == E_NONE || (vn->kind == E_NAME && !vn->check))) {
            /* the value cannot trap nor change anything: stored without a temporary */
            kc_lower_expr(c, c->nodes[first].a);
            kc_lower_expr(c, c->nodes[first].b);
            kc_lower_expr(c, value);
            kc_emit(c, K_LIST_STORE, 0);
            return;
        }
        kc_lower_expr(c, value);
        for (int32_t t = s->a; t >= 0; t = c->nodes[t].next) {
            if (c->nodes[t].next >= 0) kc_emit(c, K_DUP, 0);
            if (c->nodes[t].kind == E_TUPLE) {
                kc_store_target(c, t);
            } else if (c->nodes[t].kind == E_INDEX && kc_is_dict(c->nodes[c->nodes[t].a].ty)) {  /* d[k] = v */
                int32_t tmp = kc_temp(c);
                kc_emit(c, K_STORE, tmp);
                int32_t d = kc_temp(c), key = kc_temp(c);
                kc_lower_expr(c, c->nodes[t].a);
                kc_emit(c, K_STORE, d);
                kc_lower_expr(c, c->nodes[t].b);
                kc_emit(c, K_STORE, key);
                kc_dict_set(c, d, key, tmp, c->nodes[c->nodes[t].a].ty);
            } else if (c->nodes[t].kind == E_INDEX) {
                int32_t tmp = kc_temp(c);
                kc_emit(c, K_STORE, tmp);
                kc_lower_expr(c, c->nodes[t].a);
                kc_lower_expr(c, c->nodes[t].b);
                kc_emit(c, K_LOAD, tmp);
                kc_emit(c, K_LIST_STORE, 0);
            } else {
                kc_store_var(c, c->nodes[t].var);
            }
        }
        return;
    }
    case S_ANNASSIGN:
        if (s->b >= 0) {
            kc_lower_expr(c, s->b);
            kc_store_var(c, c->nodes[s->a].var);
        }
        return;
    case S_AUGASSIGN: {
        kc_node *t = &c->nodes[s->a];
        if (s->spare) {  /* d[k] op= v: lower.py's s_AugAssign of a dict item */
            int32_t dt = c->nodes[t->a].ty, d = kc_temp(c), key = kc_temp(c);
            kc_lower_expr(c, t->a);
            kc_emit(c, K_STORE, d);
            kc_lower_expr(c, t->b);
            kc_emit(c, K_STORE, key);
            int32_t i = kc_dict_find(c, d, key, dt, KT_KEY);
            kc_emit(c, K_LOAD, d);
            kc_emit(c, K_TUPLE_GET, 1);
            kc_emit(c, K_LOAD, i);
            kc_emit(c, K_DUP2, 0);
            kc_emit(c, K_LIST_INDEX, 0);
        } else if (t->kind == E_INDEX) {
            kc_lower_expr(c, t->a);
            kc_lower_expr(c, t->b);
            kc_emit(c, K_DUP2, 0);
            kc_emit(c, K_LIST_INDEX, 0);
        } else {
            kc_load_var(c, t->var, t->check);
        }
        if (s->ival) {  /* a list += / *=: in place, the list itself is the result */
            kc_lower_expr(c, s->b);
            kc_emit(c, s->op == B_ADD ? K_LIST_EXTEND : K_LIST_IREPEAT, 0);
        } else {
            kc_binop(c, s->op, t->ty, s->b, s->ty);
        }
        if (t->kind == E_INDEX) kc_emit(c, K_LIST_STORE, 0);
        else kc_store_var(c, t->var);
        return;
    }
    case S_IF: {
        int32_t orelse = kc_label(c), end = kc_label(c);
        kc_branch(c, s->a, 0, orelse);
        kc_lower_block(c, s->b);
        if (s->c >= 0) kc_emit_jump(c, K_JUMP, end);
        kc_place(c, orelse);
        if (s->c >= 0) kc_lower_block(c, s->c);
        kc_place(c, end);
        return;
    }
    case S_WHILE: {  /* with an else clause: it runs when the test is false, not after a break */
        int32_t top = kc_label(c), end = kc_label(c), brk = s->c >= 0 ? kc_label(c) : end;
        kc_place(c, top);
        c->line = s->line;
        kc_branch(c, s->a, 0, end);
        c->loops[2 * c->n_loops] = top;
        c->loops[2 * c->n_loops + 1] = brk;
        c->n_loops++;
        kc_lower_block(c, s->b);
        c->n_loops--;
        kc_emit_jump(c, K_JUMP, top);
        kc_place(c, end);
        if (s->c >= 0) {
            kc_lower_block(c, s->c);
            kc_place(c, brk);
        }
        return;
    }
    case S_FOR: {
        /* for ... else (lower.py's s_For): a break sets a flag on its way out of the loop (kc_loop_body);
           the else clause runs when the flag is clear. The flag's slot is kept in pow_float. */
        int32_t after = -1;
        if (s->d >= 0) {
            s->pow_float = kc_temp(c);
            kc_emit(c, K_LOADI, 0);
            kc_emit(c, K_STORE, s->pow_float);
        }
        if (s->ival) kc_seq_loop(c, s);
        else kc_range_loop(c, s);
        if (s->d >= 0) {
            after = kc_label(c);
            kc_emit(c, K_LOAD, s->pow_float);
            kc_emit_jump(c, K_JUMP_IF_TRUE, after);
            kc_lower_block(c, s->d);
            kc_place(c, after);
        }
        return;
    }
    case S_BREAK: kc_emit_jump(c, K_JUMP, c->loops[2 * c->n_loops - 1]); return;
    case S_CONTINUE: kc_emit_jump(c, K_JUMP, c->loops[2 * c->n_loops - 2]); return;
    case S_ASSERT: {
        int32_t ok = kc_label(c);
        kc_branch(c, s->a, 1, ok);
        if (s->b >= 0) {
            kc_lower_expr(c, s->b);
            kc_emit(c, K_POP, 0);
        }
        kc_raise(c, KT_ASSERTION);
        kc_place(c, ok);
        return;
    }
    case S_RAISE:
        for (int32_t a = s->a; a >= 0; a = c->nodes[a].next) {
            kc_lower_expr(c, a);
            kc_emit(c, K_POP, 0);
        }
        kc_emit(c, K_RAISE, s->var);
        return;
    default: kc_fail(c, "statement", s->line); return;
    }
}

KC_FN void kc_lower_block(kc_ctx *c, int32_t s) {
    for (; s >= 0 && !c->err; s = c->nodes[s].next) {
        c->line = c->nodes[s].line;
        kc_lower_stmt(c, s);
    }
}

KC_FN int32_t kc_type_index(kc_ctx *c, int t) {
    if (kc_is_set(t)) t = kc_tuple_arg(c, t, 0) + KC_LIST;  /* Pool.type: runtime_type */
    if (kc_is_dict(t)) {
        int32_t parts[2] = {kc_tuple_arg(c, t, 0) + KC_LIST, kc_tuple_arg(c, t, 1) + KC_LIST};
        t = kc_tuple_of(c, 2, parts);
        if (c->err) return 0;
    }
    for (int32_t i = 0; i < c->n_types; i++)
        if (c->types[i] == t) return i;
    if (kc_descriptor(c, t, 0, 0, 0) > KC_MAX_TYPE_WORDS) { kc_fail(c, "a type too large for the batched compiler", c->line); return 0; }
    if (c->n_types >= c->cap_types) { kc_fail(c, "too many types for the arena", c->line); return 0; }
    c->types[c->n_types] = t;
    return c->n_types++;
}

/* ---- assemble: labels -> indices, maximum stack depth (compiler/assemble.py) --------------------- */

KC_FN void kc_assemble(kc_ctx *c, kc_func *f) {
    int32_t n = f->code_end - f->code_begin;
    int64_t mark = c->arena_used;
    int32_t *depth = (int32_t *)kc_alloc(c, (int64_t)n * 4 + 8);
    int32_t *work = (int32_t *)kc_alloc(c, (int64_t)(3 * n + 2) * 8);
    if (c->err) return;
    for (int32_t i = f->code_begin; i < f->code_end; i++)
        if (c->code_label[i]) c->code_arg[i] = c->labels[c->code_arg[i]] - f->code_begin;
    for (int32_t i = 0; i < n; i++) depth[i] = -1;
    int32_t top = 0, max_depth = 0;
    if (n) { work[0] = 0; work[1] = 0; top = 1; }
    while (top && !c->err) {
        top--;
        int32_t pc = work[2 * top], d = work[2 * top + 1];
        if (pc < 0 || pc >= n) { kc_fail(c, "internal error: control runs off the end of a function", 0); break; }
        if (depth[pc] >= 0) {
            if (depth[pc] != d) kc_fail(c, "internal error: the stack does not balance", 0);
            continue;
        }
        depth[pc] = d;
        int op = c->code_op[f->code_begin + pc];
        int32_t arg = c->code_arg[f->code_begin + pc];
        int pops = c->cfg->op_pops[op], pushes = c->cfg->op_pushes[op];
        if (pops == KC_POPS_CALL) pops = (arg >= 0 && arg < c->n_funcs) ? c->funcs[arg].n_params : 0;
        else if (pops == KC_POPS_COUNT) pops = arg;
        else if (pops == KC_POPS_SLICE) pops = 1 + (arg & 1) + ((arg >> 1) & 1) + ((arg >> 2) & 1);
        if (d < pops || (op == K_RET && d != 1)) { kc_fail(c, "internal error: the stack does not balance", 0); break; }
        if (pushes == KC_POPS_COUNT) pushes = arg;  /* UNPACK_TUPLE, UNPACK_LIST */
        int32_t after = d - pops + pushes;
        if (after > max_depth) max_depth = after;
        if (d > max_depth) max_depth = d;
        int flags = c->cfg->op_flags[op];
        if (flags & KC_OP_JUMP) { work[2 * top] = arg; work[2 * top + 1] = after; top++; }
        if (flags & KC_OP_GUARDS) { work[2 * top] = pc + 2; work[2 * top + 1] = after; top++; }  /* past its JUMP */
        if (!(flags & KC_OP_ENDS)) { work[2 * top] = pc + 1; work[2 * top + 1] = after; top++; }
    }
    f->max_stack = max_depth;
    c->arena_used = mark;
}

/* ---- emit: the container (vm/container.py's Program.to_bytes) ------------------------------------- */

typedef struct { uint8_t *p; int64_t n, cap; int overflow; } kc_out;

KC_FN void kc_put(kc_out *o, const void *data, int64_t n) {
    if (o->n + n > o->cap) { o->overflow = 1; return; }
    const uint8_t *d = (const uint8_t *)data;
    for (int64_t i = 0; i < n; i++) o->p[o->n + i] = d[i];
    o->n += n;
}
KC_FN void kc_put_u32(kc_out *o, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    kc_put(o, b, 4);
}
KC_FN void kc_put_i64(kc_out *o, int64_t v) {
    uint64_t u = (uint64_t)v;
    kc_put_u32(o, (uint32_t)u);
    kc_put_u32(o, (uint32_t)(u >> 32));
}

/* zlib's CRC-32, a byte at a time through a table built on the spot (2 kB of work, not 8 steps
   a byte) */
KC_FN uint32_t kc_crc32(const uint8_t *p, int64_t n) {
    uint32_t table[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t r = i;
        for (int k = 0; k < 8; k++) r = (r >> 1) ^ (0xEDB88320u & (0u - (r & 1u)));
        table[i] = r;
    }
    uint32_t crc = 0xFFFFFFFFu;
    for (int64_t i = 0; i < n; i++) crc = (crc >> 8) ^ table[(crc ^ p[i]) & 0xFFu];
    return ~crc;
}

KC_FN void kc_emit_container(kc_ctx *c, const char *name, int64_t name_len, kc_out *o) {
    const uint8_t magic[8] = {0x89, 'K', 'B', 'C', '\r', '\n', 0x1a, '\n'};
    const kc_config *cfg = c->cfg;
    kc_put(o, magic, 8);
    kc_put_u32(o, cfg->format_version);
    kc_put_u32(o, cfg->isa_hash);
    kc_put_u32(o, (uint32_t)c->n_consts);
    kc_put_u32(o, (uint32_t)c->n_image);
    kc_put_u32(o, (uint32_t)c->n_types);
    kc_put_u32(o, (uint32_t)c->n_funcs);
    kc_put_u32(o, (uint32_t)c->n_code);
    kc_put_u32(o, (uint32_t)name_len);
    kc_put(o, name, name_len);
    for (int32_t i = 0; i < c->n_consts; i++) kc_put_i64(o, c->consts[i]);
    for (int32_t i = 0; i < c->n_image; i++) kc_put_i64(o, c->image[i]);
    for (int32_t i = 0; i < c->n_types; i++) {  /* descriptors: list[tuple[int, str]] is [list, tuple, 2, int, str] */
        int32_t words[KC_MAX_TYPE_WORDS];
        int32_t n = kc_descriptor(c, c->types[i], words, 0, 0);
        kc_put_u32(o, (uint32_t)n);
        for (int32_t w = 0; w < n && w < KC_MAX_TYPE_WORDS; w++) kc_put_u32(o, (uint32_t)words[w]);
    }
    for (int32_t i = 0; i < c->n_funcs; i++) {
        kc_func *f = &c->funcs[i];
        const kc_tok *t = &c->toks[f->name_tok];
        if (f->outer_tok >= 0) {  /* hoisted: outer.inner */
            const kc_tok *ot = &c->toks[f->outer_tok];
            kc_put_u32(o, (uint32_t)(ot->len + 1 + t->len));
            kc_put(o, c->src + ot->start, ot->len);
            kc_put(o, ".", 1);
        } else {
            kc_put_u32(o, (uint32_t)t->len);
        }
        for (int32_t j = 0; j < t->len; j++) {  /* a source name, or `<module>` (kc_tch) */
            char ch = kc_tch(c, t, j);
            kc_put(o, &ch, 1);
        }
        kc_put_u32(o, (uint32_t)f->code_begin);
        kc_put_u32(o, (uint32_t)(f->code_end - f->code_begin));
        kc_put_u32(o, (uint32_t)f->n_params);
        kc_put_u32(o, (uint32_t)f->n_locals);
        kc_put_u32(o, (uint32_t)f->max_stack);
        kc_put_u32(o, (uint32_t)kc_type_index(c, f->ret));
        for (int p = 0; p < f->n_params; p++) kc_put_u32(o, (uint32_t)kc_type_index(c, f->param_type[p]));
    }
    for (int32_t i = 0; i < c->n_code; i++) {
        int op = c->code_op[i];
        int32_t arg = c->code_arg[i];
        uint32_t operand;
        if (cfg->op_flags[op] & KC_OP_IMM) {
            operand = (uint32_t)arg & (uint32_t)cfg->operand_max;
        } else {
            if (arg < 0 || arg > cfg->operand_max) { kc_fail(c, "operand outside 24 bits", c->code_line[i]); return; }
            operand = (uint32_t)arg;
        }
        kc_put_u32(o, (uint32_t)cfg->op_code[op] | operand << 8);
    }
    for (int32_t i = 0; i < c->n_code; i++) kc_put_u32(o, (uint32_t)c->code_line[i]);
    if (!o->overflow) kc_put_u32(o, kc_crc32(o->p, o->n));
}

#include "kc_opt.h"

/* ---- one program ------------------------------------------------------------------------------------ */

/* Every table's capacity follows from the token count (the lexer's from the source length: a
   token takes at least one byte but NEWLINE, DEDENT and END, and a DEDENT needs an INDENT). */
typedef struct { int64_t toks, nodes, funcs, vars, code, labels, consts, image, types, container; } kc_caps;

KC_FN int64_t kc_max_tokens(int64_t len) { return 2 * len + 16; }

KC_FN kc_caps kc_capacities(int64_t len, int64_t n_toks, int64_t name_len) {
    kc_caps k;
    k.toks = n_toks;
    k.nodes = 2 * n_toks + 16;
    k.funcs = n_toks / 4 + 2;  /* def NAME ( ) : ... */
    k.vars = n_toks + 16;
    k.code = 12 * n_toks + 64;  /* no construct emits more than 12 instructions a token */
    k.labels = k.code;
    k.consts = 2 * n_toks + 16;  /* literals, and what folding makes */
    k.image = len + 16;
    k.types = n_toks + 16;  /* each type a parameter, result, comparison or literal names */
    k.container = 128 + name_len + 8 * k.consts + 8 * k.image + 4 * (KC_MAX_TYPE_WORDS + 1) * k.types +
                  32 * k.funcs + len + 4 * n_toks + 8 * k.code;
    return k;
}

/* Arena bytes for everything after the tokens; kc_arena_bytes: the most a source can need. */
KC_FN int64_t kc_rest_bytes(const kc_caps *k) {
    return 4096 + k->nodes * (int64_t)sizeof(kc_node) + k->funcs * (int64_t)sizeof(kc_func) +
           k->vars * (int64_t)sizeof(kc_var) + k->code * 16 + k->labels * 4 + k->consts * 8 +
           k->image * 8 + 4 * KC_MAX_DEPTH * 4 + k->container + (k->funcs + 1) * 4 +
           k->types * 4 + /* type variables */ k->nodes * 4 + /* tuple types */ k->nodes * 8 + 256 +
           /* the pending functions */ (k->funcs + 1) * 4 +
           (4 * k->nodes + 256) * 4 +
           /* assembly and flow scratch */ k->code * 28 + (int64_t)KC_MAX_DEPTH * 2 * (k->vars / 8 + 16) +
           /* label marks and the passes' scratch (kc_opt.h) */ k->labels * 20 + (k->code + k->labels) * 12;
}

KC_FN int64_t kc_arena_bytes(int64_t len, int64_t name_len) {
    kc_caps k = kc_capacities(len, kc_max_tokens(len), name_len);
    return 64 + (len + 16) /* a source with \r: its translated copy */ + kc_max_tokens(len) * (int64_t)sizeof(kc_tok) + kc_rest_bytes(&k);
}

/* one type of the argument types, from spec[*i] on (its last letter at *i after): i f b s, L then
   the item type, ( the items' types ) for a tuple */
KC_FN int kc_spec_type(kc_ctx *c, const char *spec, int64_t spec_len, int64_t *i, int level) {
    char letter = *i < spec_len ? spec[*i] : '?';
    if (level > KC_MAX_LIST_DEPTH) letter = '?';
    if (letter == 'L') {
        (*i)++;
        int e = kc_spec_type(c, spec, spec_len, i, level + 1);
        if (c->err) return T_UNKNOWN;
        if (e / KC_LIST >= KC_MAX_LIST_DEPTH) { kc_fail(c, "lists nested too deep", 0); return T_UNKNOWN; }
        return e + KC_LIST;
    }
    if (letter == '(') {
        int32_t args[KC_MAX_TUPLE], n = 0;
        (*i)++;
        while (!c->err && *i < spec_len && spec[*i] != ')') {
            if (n >= KC_MAX_TUPLE) { kc_fail(c, "tuple of more than 64 items", 0); return T_UNKNOWN; }
            args[n++] = kc_spec_type(c, spec, spec_len, i, level + 1);
            (*i)++;
        }
        if (c->err || *i >= spec_len) { kc_fail(c, "malformed argument types", 0); return T_UNKNOWN; }
        return kc_tuple_of(c, n, args);
    }
    int t = letter == 'i' ? T_INT : letter == 'f' ? T_FLOAT : letter == 'b' ? T_BOOL : letter == 's' ? T_STR : T_UNKNOWN;
    if (t == T_UNKNOWN) kc_fail(c, "argument of a type other than int, float, bool, str, or lists and tuples of those", 0);
    return t;
}


/* After kc_lex stopped at the end of the source inside brackets (the innermost opened on line
   `open_line`): the brackets closed, then NEWLINE, DEDENTs and END, for the parser to tell
   whether all before the end parses. With tokens on later lines than `open_line`, the tokens
   are cut after that line: when those parse, CPython's parser reads past the line (its first
   pass consumes them as the parse of the closed program does) and pegen's last check says
   "'(' was never closed" whatever else it found; else CPython's parser must reach the end. */
KC_FN int kc_close_brackets(kc_ctx *c, int32_t open_line) {
    const char *want = "unsupported by the batched compiler: unclosed bracket";
    for (int k = 0; want[k]; k++)
        if (c->diag[k] != want[k]) return 0;
    for (int32_t t = 0; t < c->n_toks; t++)
        if (c->toks[t].line > open_line) { c->n_toks = t; break; }
    int32_t stack[48], level = 0, depth = 0, line = c->n_toks ? c->toks[c->n_toks - 1].end_line : 1;
    for (int32_t t = 0; t < c->n_toks; t++) {
        const kc_tok *k = &c->toks[t];
        if (k->kind == TK_INDENT) depth++;
        if (k->kind == TK_DEDENT) depth--;
        if (k->kind != TK_OP) continue;
        if (k->op == P_LPAR || k->op == P_LSQB || k->op == P_LBRACE) {
            if (level >= 48) return 0;
            stack[level++] = k->op == P_LPAR ? P_RPAR : k->op == P_LSQB ? P_RSQB : P_RBRACE;
        }
        if ((k->op == P_RPAR || k->op == P_RSQB || k->op == P_RBRACE) && level > 0) level--;
    }
    if (level == 0) return 0;
    c->err = 0;
    const kc_tok *last = &c->toks[c->n_toks - 1];  /* an operator wants its operand: a name */
    if ((last->kind == TK_OP && last->op >= P_COLON && last->op != P_RPAR && last->op != P_RSQB &&
         last->op != P_RBRACE && last->op != P_COMMA && last->op != P_SEMI && last->op != P_DOT &&
         last->op != P_RARROW && last->op != P_ELLIPSIS) ||
        (last->kind == TK_NAME && (kc_tok_is(c, last, "and") || kc_tok_is(c, last, "or") ||
                                   kc_tok_is(c, last, "not") || kc_tok_is(c, last, "in") ||
                                   kc_tok_is(c, last, "else"))))
        kc_push_tok(c, TK_NAME, (int)c->len, 0, line, line, 0, 0);
    /* a block header (def, if, elif, while, for) without its ':': the ':' and a block too */
    int32_t first = c->n_toks - 1, nest = 0, header = 0;
    while (first > 0 && c->toks[first - 1].kind != TK_NEWLINE && c->toks[first - 1].kind != TK_INDENT &&
           c->toks[first - 1].kind != TK_DEDENT)
        first--;
    const char *heads[] = {"def", "if", "elif", "while", "for"};
    for (int h = 0; h < 5; h++) header |= kc_tok_is(c, &c->toks[first], heads[h]);
    for (int32_t t = first; t < c->n_toks && header; t++) {
        const kc_tok *x = &c->toks[t];
        if (x->kind != TK_OP) continue;
        if (x->op == P_LPAR || x->op == P_LSQB || x->op == P_LBRACE) nest++;
        if (x->op == P_RPAR || x->op == P_RSQB || x->op == P_RBRACE) nest--;
        if (x->op == P_COLON && nest == 0) header = 0;
    }
    while (level > 0) kc_push_tok(c, TK_OP, (int)c->len, 0, line, line, 0, stack[--level]);
    if (header) {
        kc_push_tok(c, TK_OP, (int)c->len, 0, line, line, 0, P_COLON);
        kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
        kc_push_tok(c, TK_INDENT, (int)c->len, 0, line, line, 0, 0);
        kc_push_tok(c, TK_NAME, (int)c->len, 0, line, line, 0, 0);
        depth++;
    }
    kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
    while (depth-- > 0) kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_END, (int)c->len, 0, line, line, 0, 0);
    return !c->err;
}

/* Argument types for a function the module does not define: types.py's Checker says so, once
   the module parses, no function shadows a builtin and every annotation is a plain one (sets,
   dicts and tuples are checked in other places first; hoisted functions change its list). */
KC_FN void kc_no_function(kc_ctx *c, const char *name, int64_t name_len) {
    char msg[160];
    int at = kc_copy(msg, 0, 160, "no function '");
    for (int64_t j = 0; j < name_len && at < 150; j++) msg[at++] = name[j];
    msg[at] = 0;
    at = kc_copy(msg, at, 160, "' to call (functions: ");
    if (c->n_funcs == 0) at = kc_copy(msg, at, 160, "none");
    for (int32_t i = 0; i < c->n_funcs; i++) {
        const kc_func *f = &c->funcs[i];
        int plain = !kc_is_builtin(c, f->name_tok) && f->outer_tok < 0;
        for (int p = 0; p <= f->n_params && plain; p++) {
            int32_t t = p < f->n_params ? f->param_type[p] : f->ret;
            if (t < 0 || t % KC_LIST >= KC_TUPLE0) plain = 0;
        }
        if (!plain || !kc_frontend_ok(c) || c->n_effects) { kc_fail(c, "argument types for a function the module does not define", 0); return; }
        if (i) at = kc_copy(msg, at, 160, ", ");
        const kc_tok *t = &c->toks[f->name_tok];
        for (int32_t j = 0; j < t->len && at < 158; j++) msg[at++] = c->src[t->start + j];
        msg[at] = 0;
    }
    at = kc_copy(msg, at, 160, ")");
    if (at >= 150) { kc_fail(c, "argument types for a function the module does not define", 0); return; }
    kc_diag(c, 1, 1, "type error", msg);
}

/* The argument types the caller gives: lines "NAME CODES\n", CODES one letter per parameter
   (i int, f float, b bool, anything else: a type kc does not cover). */
KC_FN void kc_apply_spec(kc_ctx *c, const char *spec, int64_t spec_len) {
    int64_t i = 0;
    while (i < spec_len && !c->err) {
        int64_t name = i;
        while (i < spec_len && spec[i] != ' ') i++;
        int64_t name_len = i - name;
        i++;
        int32_t f = -1;
        for (int32_t k = 0; k < c->n_funcs; k++) {
            const kc_tok *t = &c->toks[c->funcs[k].name_tok];
            if (t->len != name_len || c->funcs[k].outer_tok >= 0) continue;
            int same = 1;
            for (int64_t j = 0; j < name_len && same; j++) same = kc_tch(c, t, (int)j) == spec[name + j];
            if (same) f = k;
        }
        if (f < 0) { kc_no_function(c, spec + name, name_len); return; }
        kc_func *fn = &c->funcs[f];
        int p = 0;
        for (; i < spec_len && spec[i] != '\n'; i++, p++) {
            int t = kc_spec_type(c, spec, spec_len, &i, 0);
            if (c->err) return;
            if (p >= fn->n_params) { kc_fail(c, "wrong number of argument types (a type error)", fn->line); return; }
            if (fn->param_type[p] == T_UNKNOWN || (fn->param_type[p] == KC_BARE_LIST && kc_is_list(t))) fn->param_type[p] = t;
            else if (fn->param_type[p] != t) { kc_fail(c, "argument type unlike the annotation (a type error)", fn->line); return; }
        }
        if (p != fn->n_params) { kc_fail(c, "wrong number of argument types (a type error)", fn->line); return; }
        i++;
    }
}

/* ---- diagnostics of rejected programs ------------------------------------------------------------ */

/* CPython's tokenizer errors that ast.parse reports wherever its parser stops first (they replace
   its syntax errors: pegen's _PyPegen_tokenize_full_source_to_check_for_errors), found by a scan
   of the source as Python's tokenizer reads it. Returns 1 with the diagnostic given (an
   unterminated string, an unmatched or mismatched closing bracket), 2 when the source ends
   inside brackets (the innermost in *open_tok: line, column, character; kc_compile makes sure
   that the parser reaches the end before it says "'(' was never closed"), 0 when kc cannot be
   sure: anything before the error that could make CPython stop otherwise (an indent not after a
   ':' line, an inconsistent dedent, a tab, a carriage return, a malformed or unusual number, a
   character outside ASCII but in strings and comments, nesting deep enough for the parser's own
   limits) or no such error at all (3 when sure there is none). */
KC_FN int kc_scan_errors(kc_ctx *c, int32_t *open_tok) {
    const char *s = c->src;
    int64_t i = 0, line_start = 0;
    int32_t line = 1, level = 0, n_ind = 1, heavy = 0;
    int32_t ind[64];
    char pch[48];
    int32_t pline[48], pcol[48], pna[48];
    int at_start = 1, colon = 0, prev_colon = 0, any = 0, na = 0;  /* na: non-ASCII on this line */
    int head = 0, prev_head = 0;  /* the logical line starts with def, if, elif, else, while or for */
    char msg[160];
    ind[0] = 0;
    while (i < c->len) {
        char ch = s[i];
        if (at_start && level == 0) {
            int64_t j = i;
            int32_t w = 0;
            while (j < c->len && s[j] == ' ') { j++; w++; }
            if (j >= c->len) { i = j; break; }
            if (s[j] == '\t' || s[j] == '\f' || s[j] == '\r' || s[j] == '\\') return 0;
            if (s[j] == '#' || s[j] == '\n') {  /* a blank or comment line */
                while (j < c->len && s[j] != '\n') { if (s[j] == '\r') return 0; j++; }
                i = j + 1; line++; line_start = i; na = 0;
                continue;
            }
            if (w > ind[n_ind - 1]) {
                if (n_ind >= 60) return 0;
                if (!prev_colon && !prev_head) {  /* "unexpected indent", if all before it parses */
                    open_tok[0] = line; open_tok[1] = w; open_tok[2] = 0; open_tok[3] = 0;
                    return 4;
                }
                ind[n_ind++] = w;
            } else {
                while (w < ind[n_ind - 1]) n_ind--;
                if (w != ind[n_ind - 1]) {  /* an inconsistent dedent, if all before it parses */
                    int64_t e = j;
                    while (e < c->len && s[e] != '\n') { if ((unsigned char)s[e] >= 0x80 || s[e] == '\r') return 0; e++; }
                    open_tok[0] = line; open_tok[1] = (int32_t)(e - i) + 1; open_tok[2] = 0; open_tok[3] = 0;
                    return 5;
                }
            }
            i = j; at_start = 0; any = 0; heavy = 0; colon = 0;
            continue;
        }
        int32_t col = (int32_t)(i - line_start);
        if (ch == ' ') { i++; continue; }
        if ((unsigned char)ch >= 0x80 || ch < ' ' ) {
            if (ch != '\n') return 0;
            if (level == 0) { if (any) { prev_colon = colon; prev_head = head; } at_start = 1; head = 0; }
            i++; line++; line_start = i; na = 0;
            continue;
        }
        if (ch == '#') {
            while (i < c->len && s[i] != '\n') { if (s[i] == '\r') return 0; i++; }
            continue;
        }
        if (ch == '\\') {
            if (i + 2 < c->len && s[i + 1] == '\n') { i += 2; line++; line_start = i; na = 0; continue; }
            return 0;
        }
        int first = !any;
        any = 1;
        int64_t q = -1;  /* a string's opening quote */
        if (kc_is_alpha(ch)) {
            int64_t j = i;
            while (j < c->len && (kc_is_alpha(s[j]) || kc_is_digit(s[j]))) j++;
            if (j < c->len && (s[j] == '\'' || s[j] == '"')) {
                int n = (int)(j - i), ok = 1, r = 0, b = 0, f = 0, u = 0;
                for (int64_t k = i; k < j; k++) {
                    char l = (char)(s[k] | 0x20);
                    if (l == 'r') r++; else if (l == 'b') b++; else if (l == 'f') f++; else if (l == 'u') u++; else ok = 0;
                }
                if (!ok || n > 2 || r > 1 || b > 1 || f > 1 || u > 1 || (u && n > 1) || (b && f)) return 0;
                q = j;
            } else {
                const kc_tok word = {TK_NAME, (int32_t)i, (int32_t)(j - i), 0, 0, 0, 0};
                if (first)  /* an indent after it without ':': "expected ':'" comes first */
                    head = kc_tok_is(c, &word, "def") || kc_tok_is(c, &word, "if") || kc_tok_is(c, &word, "elif") ||
                           kc_tok_is(c, &word, "else") || kc_tok_is(c, &word, "while") || kc_tok_is(c, &word, "for");
                if (kc_tok_is(c, &word, "not") || kc_tok_is(c, &word, "lambda") || kc_tok_is(c, &word, "if") ||
                    kc_tok_is(c, &word, "else") || kc_tok_is(c, &word, "await") || kc_tok_is(c, &word, "yield"))
                    heavy++;
                i = j; colon = 0;
                if (heavy > 100) return 0;
                continue;
            }
        }
        if (q < 0 && (kc_is_digit(ch) || (ch == '.' && i + 1 < c->len && kc_is_digit(s[i + 1])))) {
            int64_t j = i;
            int dots = 0, lead0 = ch == '0', nonzero = 0;
            while (j < c->len && (kc_is_digit(s[j]) || s[j] == '.')) {
                if (s[j] == '.') dots++;
                else if (s[j] != '0') nonzero = 1;
                j++;
            }
            char x = j < c->len ? s[j] : '\n';
            if (dots == 0 && !na && lead0 && nonzero && x != 'e' && x != 'E' && x != 'j' && x != 'J' && x != '_') {
                kc_diag(c, line, col + 1, "syntax error", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
                return 1;
            }
            if (dots == 0 && !na && kc_is_alpha(x) && x != '_' && x != 'e' && x != 'E' && x != 'j' && x != 'J' &&
                !(lead0 && j == i + 1 && (x == 'x' || x == 'X' || x == 'o' || x == 'O' || x == 'b' || x == 'B'))) {
                /* CPython's verify_end_of_number: after these only a warning (1if, 1or, ...) */
                char y = j + 1 < c->len ? s[j + 1] : 0, z = j + 2 < c->len ? s[j + 2] : 0;
                char w = j + 3 < c->len ? s[j + 3] : 0;
                int warn = (x == 'a' && y == 'n' && z == 'd') || (x == 'f' && y == 'o' && z == 'r') ||
                           (x == 'i' && (y == 'f' || y == 'n' || y == 's')) || (x == 'o' && y == 'r') ||
                           (x == 'n' && y == 'o' && z == 't') || (x == 'e' && y == 'l' && z == 's' && w == 'e');
                if (warn) return 0;
                kc_diag(c, line, (int32_t)(j - line_start), "syntax error", "invalid decimal literal");
                return 1;
            }
            if (dots > 1 || (j < c->len && (kc_is_alpha(s[j]) || kc_is_digit(s[j]))) || (dots == 0 && lead0 && nonzero))
                return 0;
            i = j; colon = 0;
            continue;
        }
        if (q >= 0 || ch == '\'' || ch == '"') {
            if (q < 0) q = i;
            char quote = s[q];
            int triple = q + 2 < c->len && s[q + 1] == quote && s[q + 2] == quote;
            int32_t start_line = line, start_na = na;
            int64_t j = q + (triple ? 3 : 1);
            int closed = 0;
            while (j < c->len) {
                char x = s[j];
                if (x == '\r') return 0;
                if ((unsigned char)x >= 0x80) na = 1;
                if (x == '\\') {
                    if (j + 1 < c->len && s[j + 1] == '\r') return 0;
                    if (j + 1 < c->len && s[j + 1] == '\n') { line++; line_start = j + 2; na = 0; }
                    j += 2;
                    continue;
                }
                if (x == '\n') {
                    if (!triple) break;
                    line++; line_start = j + 1; na = 0;
                }
                if (x == quote && (!triple || (j + 2 < c->len && s[j + 1] == quote && s[j + 2] == quote))) {
                    j += triple ? 3 : 1;
                    closed = 1;
                    break;
                }
                j++;
            }
            if (!closed) {
                if (start_na) return 0;
                int32_t detected = line;
                if (triple && c->len > 0 && s[c->len - 1] == '\n') detected = line - 1;
                if (j > c->len) return 0;  /* a backslash at the very end */
                int at = kc_copy(msg, 0, 160, triple ? "unterminated triple-quoted string literal (detected at line "
                                                     : "unterminated string literal (detected at line ");
                at = kc_copy_int(msg, at, 160, detected);
                kc_copy(msg, at, 160, ")");
                kc_diag(c, start_line, col + 1, "syntax error", msg);
                return 1;
            }
            i = j; colon = 0;
            continue;
        }
        i++;
        colon = 0;
        if (ch == '(' || ch == '[' || ch == '{') {
            if (level >= 48) return 0;
            pch[level] = ch; pline[level] = line; pcol[level] = col; pna[level] = na;
            level++;
            if (++heavy > 100) return 0;
            continue;
        }
        if (ch == ')' || ch == ']' || ch == '}') {
            if (na) return 0;
            if (level == 0) {
                int at = kc_copy(msg, 0, 160, "unmatched '");
                msg[at++] = ch; msg[at] = 0;
                kc_copy(msg, at, 160, "'");
                kc_diag(c, line, col + 1, "syntax error", msg);
                return 1;
            }
            char open = pch[level - 1];
            if ((open == '(' && ch != ')') || (open == '[' && ch != ']') || (open == '{' && ch != '}')) {
                int at = kc_copy(msg, 0, 160, "closing parenthesis '");
                msg[at++] = ch; msg[at] = 0;
                at = kc_copy(msg, at, 160, "' does not match opening parenthesis '");
                msg[at++] = open; msg[at] = 0;
                at = kc_copy(msg, at, 160, "'");
                if (pline[level - 1] != line) {
                    at = kc_copy(msg, at, 160, " on line ");
                    kc_copy_int(msg, at, 160, pline[level - 1]);
                }
                kc_diag(c, line, col + 1, "syntax error", msg);
                return 1;
            }
            level--;
            continue;
        }
        if (ch == ':') {
            colon = !(i < c->len && s[i] == '=');
            if (level == 0) head = 0;  /* a header with its ':' */
            continue;
        }
        if (ch == '!') { if (i < c->len && s[i] == '=') continue; return 0; }
        if (ch == '-' || ch == '+' || ch == '~' || ch == '*') { if (++heavy > 100) return 0; continue; }
        if (ch == '/' || ch == '%' || ch == '<' || ch == '>' || ch == '=' || ch == '&' || ch == '|' ||
            ch == '^' || ch == ',' || ch == ';' || ch == '.' || ch == '@')
            continue;
        return 0;  /* $ ? ` and the like */
    }
    if (level == 0) return 3;  /* no tokenizer error at all */
    if (pna[level - 1]) return 0;
    open_tok[0] = pline[level - 1];
    open_tok[1] = pcol[level - 1] + 1;
    open_tok[2] = pch[level - 1];
    open_tok[3] = level;
    return 2;
}

/* Before an indentation error on line `line` (kc_scan_errors): the tokens of the lines before
   it, then DEDENTs and END, for the parser to tell whether all before it parses (kc_lex read
   up to that line). */
KC_FN int kc_cut_before_line(kc_ctx *c, int32_t line) {
    int32_t cut = -1, depth = 0;
    for (int32_t t = 0; t < c->n_toks; t++)
        if (c->toks[t].line >= line) { cut = t; break; }
    if (cut < 0) return 0;
    c->n_toks = cut;
    for (int32_t t = 0; t < cut; t++)
        depth += c->toks[t].kind == TK_INDENT ? 1 : c->toks[t].kind == TK_DEDENT ? -1 : 0;
    c->err = 0;
    int32_t at = cut ? c->toks[cut - 1].end_line : 1;
    while (depth-- > 0) kc_push_tok(c, TK_DEDENT, (int)c->len, 0, at, at, 0, 0);
    kc_push_tok(c, TK_END, (int)c->len, 0, at, at, 0, 0);
    return !c->err;
}

/* A source without tokenizer errors whose parse failed: the first block header (its line
   ends with ':') not followed by an indented block, of def, if, elif, else, while or for. The
   tokens up to its NEWLINE, then a block (INDENT, an empty name, NEWLINE, DEDENT), DEDENTs and
   END, for the parser to tell whether all up to the header parses; found: where CPython says
   "expected an indented block after ..." (the next token on the same indentation, or the end of
   the header's line when the source ends there), the header's kind and line. */
KC_FN int kc_cut_after_header(kc_ctx *c, int32_t *found) {
    int32_t nl = -1, depth = 0;
    for (int32_t t = 1; t + 1 < c->n_toks; t++) {
        const kc_tok *k = &c->toks[t];
        if (k->kind == TK_INDENT) depth++;
        if (k->kind == TK_DEDENT) depth--;
        if (k->kind == TK_NEWLINE && c->toks[t - 1].kind == TK_OP && c->toks[t - 1].op == P_COLON &&
            c->toks[t + 1].kind != TK_INDENT) { nl = t; break; }
    }
    if (nl < 0) return 0;
    int32_t first = nl - 1;
    while (first > 0 && c->toks[first - 1].kind != TK_NEWLINE && c->toks[first - 1].kind != TK_INDENT &&
           c->toks[first - 1].kind != TK_DEDENT)
        first--;
    const char *kinds[] = {"def", "if", "elif", "else", "while", "for"};
    int kind = -1;
    for (int k = 0; k < 6; k++)
        if (kc_tok_is(c, &c->toks[first], kinds[k])) kind = k;
    if (kind < 0) return 0;
    const kc_tok *next = &c->toks[nl + 1], *nt = &c->toks[nl];
    int64_t from;
    if (next->kind != TK_DEDENT && next->kind != TK_END) {
        found[0] = next->line;
        found[1] = next->col + 1;
        from = next->start;
    } else {
        int64_t end = nt->start;  /* the '\n' of the header's line, or the end of the source */
        if (!(end == c->len || (end + 1 == c->len && c->src[end] == '\n'))) return 0;
        int64_t ls = end;
        while (ls > 0 && c->src[ls - 1] != '\n') ls--;
        found[0] = nt->line;
        found[1] = (int32_t)(end - ls) + 1;
        from = end;
    }
    for (int64_t i = from - 1; i >= 0 && c->src[i] != '\n'; i--)
        if ((unsigned char)c->src[i] >= 0x80 || c->src[i] == '\t') return 0;
    found[2] = kind;
    found[3] = c->toks[first].line;
    int32_t line = nt->line;
    c->n_toks = nl + 1;
    c->err = 0;
    kc_push_tok(c, TK_INDENT, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_NAME, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0);
    while (depth-- > 0) kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_END, (int)c->len, 0, line, line, 0, 0);
    return !c->err;
}

/* A source without tokenizer errors whose parse failed: the first logical line that starts with
   def, if, elif, else, while or for and has no ':' outside brackets (before it, no block header
   without its block). The tokens before its NEWLINE, then ':' and a block, DEDENTs and END, for
   the parser to tell whether all up to there parses; found: where CPython says "expected ':'"
   (its NEWLINE: the first '#', '\n' or the end after the line's last token). */
KC_FN int kc_cut_missing_colon(kc_ctx *c, int32_t *found) {
    const char *kinds[] = {"def", "if", "elif", "else", "while", "for"};
    int32_t depth = 0, start = 1, nl = -1;
    for (int32_t t = 0; t + 1 < c->n_toks && nl < 0; t++) {
        const kc_tok *k = &c->toks[t];
        if (k->kind == TK_NEWLINE && t > 0 && c->toks[t - 1].kind == TK_OP && c->toks[t - 1].op == P_COLON &&
            c->toks[t + 1].kind != TK_INDENT)
            return 0;
        if (k->kind == TK_INDENT) { depth++; start = 1; continue; }
        if (k->kind == TK_DEDENT) { depth--; start = 1; continue; }
        if (k->kind == TK_NEWLINE) { start = 1; continue; }
        if (!start) continue;
        start = 0;
        int kind = -1;
        for (int j = 0; j < 6; j++)
            if (kc_tok_is(c, k, kinds[j])) kind = j;
        if (kind < 0) continue;
        int32_t level = 0, e = t;
        for (; e < c->n_toks && c->toks[e].kind != TK_NEWLINE; e++) {
            const kc_tok *x = &c->toks[e];
            if (x->kind != TK_OP) continue;
            if (x->op == P_LPAR || x->op == P_LSQB || x->op == P_LBRACE) level++;
            if (x->op == P_RPAR || x->op == P_RSQB || x->op == P_RBRACE) level--;
            if (x->op == P_COLON && level == 0) break;
        }
        if (e < c->n_toks && c->toks[e].kind == TK_NEWLINE) nl = e;
    }
    if (nl <= 0) return 0;
    const kc_tok *last = &c->toks[nl - 1];
    int64_t pos = last->start + last->len;
    while (pos < c->len && c->src[pos] == ' ') pos++;
    if (pos < c->len && c->src[pos] != '#' && c->src[pos] != '\n') return 0;
    int64_t ls = pos;
    while (ls > 0 && c->src[ls - 1] != '\n') {
        if ((unsigned char)c->src[ls - 1] >= 0x80 || c->src[ls - 1] == '\t') return 0;
        ls--;
    }
    found[0] = last->end_line;
    found[1] = (int32_t)(pos - ls) + 1;
    int32_t line = last->end_line;
    c->n_toks = nl;
    c->err = 0;
    kc_push_tok(c, TK_OP, (int)c->len, 0, line, line, 0, P_COLON);
    kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_INDENT, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_NAME, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0);
    while (depth-- > 0) kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_END, (int)c->len, 0, line, line, 0, 0);
    return !c->err;
}

/* The diagnostic of kc_scan_errors's finding (2, 4 or 5) once the parser took all before it */
KC_FN void kc_diag_scanned(kc_ctx *c, int scan, const int32_t *found) {
    if (scan == 2) {
        char msg[32] = {'\'', (char)found[2], 0};
        kc_copy(msg, 2, 32, "' was never closed");
        kc_diag(c, found[0], found[1], "syntax error", msg);
    } else if (scan == 4) {
        kc_diag(c, found[0], found[1], "syntax error", "unexpected indent");
    } else if (scan == 5) {
        kc_diag(c, found[0], found[1], "syntax error", "unindent does not match any outer indentation level");
    } else if (scan == 6) {
        char msg[120];
        int at = kc_copy(msg, 0, 120, "expected an indented block after ");
        const char *what = found[2] == 0 ? "function definition" : found[2] == 1 ? "'if' statement" :
                           found[2] == 2 ? "'elif' statement" : found[2] == 3 ? "'else' statement" :
                           found[2] == 4 ? "'while' statement" : "'for' statement";
        at = kc_copy(msg, at, 120, what);
        at = kc_copy(msg, at, 120, " on line ");
        kc_copy_int(msg, at, 120, found[3]);
        kc_diag(c, found[0], found[1], "syntax error", msg);
    } else if (scan == 7) {
        kc_diag(c, found[0], found[1], "syntax error", "expected ':'");
    }
}

/* Compiles one source; the container is written into the arena, at *container. Returns its
   length; -1 for a program kc does not cover (the reason in `diag`, KC_DIAG_BYTES); -2 when the
   arena is too small, with the bytes it needs in *need (kc_arena_bytes is always enough). */
KC_FN int64_t kc_compile(const char *src, int64_t len, const char *name, int64_t name_len,
                         const char *spec, int64_t spec_len, const kc_config *cfg,
                         uint8_t *arena, int64_t arena_cap, const uint8_t **container, int64_t *need,
                         char *diag) {
    kc_ctx ctx;
    kc_ctx *c = &ctx;
    c->src = src; c->len = len; c->cfg = cfg; c->arena = arena; c->arena_cap = arena_cap;
    c->arena_used = 0; c->err = 0; c->diag = diag; diag[0] = 0; diag[KC_DIAG_REC] = 0;
    *need = 0;
    *container = 0;
    int64_t lex_bytes = 64 + (len + 8) + kc_max_tokens(len) * (int64_t)sizeof(kc_tok);
    if (lex_bytes > arena_cap) { *need = lex_bytes + 4096; return -2; }
    int has_cr = 0;
    for (int64_t i = 0; i < len; i++) {
        if (src[i] == 0) { kc_diag(c, 1, 1, "syntax error", "source code string cannot contain null bytes"); return -1; }
        has_cr |= src[i] == '\r';
    }
    if (has_cr) {  /* CPython's translate_newlines: \r\n and a lone \r are \n before tokenizing */
        char *t = (char *)kc_alloc(c, len + 8);
        int64_t n = 0;
        for (int64_t i = 0; i < len; i++) {
            if (src[i] == '\r') {
                t[n++] = '\n';
                if (i + 1 < len && src[i + 1] == '\n') i++;
            } else {
                t[n++] = src[i];
            }
        }
        c->src = src = t; c->len = len = n;
    }
    c->toks = (kc_tok *)kc_alloc(c, kc_max_tokens(len) * (int64_t)sizeof(kc_tok));
    c->cap_toks = (int32_t)kc_max_tokens(len);
    c->n_toks = c->pos = 0;
    c->line = 1;
    kc_lex(c);
    int32_t unclosed[4] = {0, 0, 0, 0};  /* what kc_scan_errors found */
    int scan = 0, reparsed = 0;
    if (c->err) {
        scan = kc_scan_errors(c, unclosed);
        if (!(scan == 2 ? kc_close_brackets(c, unclosed[0]) : scan >= 4 && kc_cut_before_line(c, unclosed[0])))
            return -1;
    }
    kc_caps k = kc_capacities(len, c->n_toks, name_len);
    if (c->arena_used + kc_rest_bytes(&k) > arena_cap) { *need = c->arena_used + kc_rest_bytes(&k); return -2; }
    c->nodes = (kc_node *)kc_alloc(c, k.nodes * (int64_t)sizeof(kc_node));
    c->funcs = (kc_func *)kc_alloc(c, k.funcs * (int64_t)sizeof(kc_func));
    c->vars = (kc_var *)kc_alloc(c, k.vars * (int64_t)sizeof(kc_var));
    c->code_op = (int32_t *)kc_alloc(c, k.code * 4);
    c->code_arg = (int32_t *)kc_alloc(c, k.code * 4);
    c->code_line = (int32_t *)kc_alloc(c, k.code * 4);
    c->code_label = (int32_t *)kc_alloc(c, k.code * 4);
    c->labels = (int32_t *)kc_alloc(c, k.labels * 4);
    c->consts = (int64_t *)kc_alloc(c, k.consts * 8);
    c->image = (int64_t *)kc_alloc(c, k.image * 8);
    c->loops = (int32_t *)kc_alloc(c, 4 * KC_MAX_DEPTH * 4);  /* blocks, then comprehensions in them */
    c->marks = (int32_t *)kc_alloc(c, k.labels * 8);
    c->types = (int32_t *)kc_alloc(c, k.types * 4);
    c->tvars = (int32_t *)kc_alloc(c, k.nodes * 4);
    c->cap_types = (int32_t)k.types;
    c->cap_tvars = (int32_t)k.nodes;
    c->n_tvars = 0;
    c->tup_n = (int32_t *)kc_alloc(c, k.nodes * 4 + 128);
    c->tup_at = (int32_t *)kc_alloc(c, k.nodes * 4 + 128);
    c->targs = (int32_t *)kc_alloc(c, (4 * k.nodes + 256) * 4);
    c->cap_tup = (int32_t)k.nodes + 32;
    c->cap_targs = (int32_t)(4 * k.nodes + 256);
    c->n_tup = c->n_targs = 0;
    uint8_t *out = (uint8_t *)kc_alloc(c, k.container);
    if (c->err) return -1;
    c->cap_nodes = (int32_t)k.nodes; c->cap_funcs = (int32_t)k.funcs;
    c->cap_vars = (int32_t)k.vars; c->cap_code = (int32_t)k.code; c->cap_labels = (int32_t)k.labels;
    c->cap_consts = (int32_t)k.consts; c->cap_image = (int32_t)k.image;
parse:  /* again, once, on the tokens before an indentation error: kc_scan_errors */
    c->pos = 0;
    c->n_nodes = c->n_funcs = c->n_vars = c->n_code = c->n_labels = 0;
    c->n_consts = c->n_image = c->n_types = c->n_loops = c->depth = c->n_marks = 0;
    c->bare_list_ok = c->in_signature = 0;
    c->in_def = c->n_nested = 0;
    c->math_names = 0;
    c->typing_names = 0;
    c->math_module = 0;
    c->n_mconst = 0;
    c->n_synth = c->n_rewrites = 0;
    c->filter_map_node = -1;
    c->n_effects = 0;
    c->fn = 0;
    kc_parse_module(c);
    if (c->err && !scan && !reparsed) {
        scan = kc_scan_errors(c, unclosed);
        if (scan == 3 && kc_cut_after_header(c, unclosed)) { scan = 6; reparsed = 1; goto parse; }
        if (scan == 3 && kc_cut_missing_colon(c, unclosed)) { scan = 7; reparsed = 1; goto parse; }
        if (scan < 4 || !kc_cut_before_line(c, unclosed[0])) return -1;
        reparsed = 1;
        goto parse;
    }
    if (scan) {  /* all before the error parses: CPython's parser reaches it too */
        if (!c->err && kc_targets_ok(c)) kc_diag_scanned(c, scan, unclosed);
        return -1;
    }
    kc_inline_constants(c);
    if (c->err) return -1;
    kc_apply_spec(c, spec, spec_len);
    if (c->err) return -1;
    /* a parameter nothing types yet gets a type variable (types.py's Checker): a call may tell it;
       the functions to check at first are those whose parameters all have types (pending) */
    int32_t *pending = (int32_t *)kc_alloc(c, (int64_t)(c->n_funcs + 1) * 4);
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        if (kc_is_builtin(c, f->name_tok)) { kc_fail(c, "a function named like a builtin", f->line); break; }
        pending[i] = 1;
        for (int p = 0; p < f->n_params; p++) {
            if (f->param_type[p] == T_NONE) { kc_fail(c, "parameter annotated None", f->line); break; }
            if (f->param_type[p] == T_UNKNOWN) {
                f->param_type[p] = kc_new_tvar(c, f->line);
                pending[i] = 0;
            } else if (f->param_type[p] == KC_BARE_LIST) {
                f->param_type[p] = kc_new_tvar(c, f->line) + KC_LIST;
                pending[i] = 0;
            }
        }
    }
    /* check, in types.py's order: each function in turn, except that a call of a function not
       checked yet checks that one first (the caller is suspended and checked again after it;
       the result type it told so far stays, as in the reference's check_now). */
    int32_t *work = (int32_t *)kc_alloc(c, (int64_t)(c->n_funcs + 1) * 4);
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        int32_t top = 0;
        if (c->funcs[i].state == 0 && pending[i]) work[top++] = i;
        while (top && !c->err) {
            kc_func *f = &c->funcs[work[top - 1]];
            c->fn = f;
            f->state = 1;
            f->var_begin = c->n_vars;
            for (int p = 0; p < f->n_params && !c->err; p++) {
                if (kc_find_func(c, f->param_tok[p]) >= 0 || kc_is_builtin(c, f->param_tok[p])) { kc_fail(c, "a parameter named like a function", f->line); break; }
                kc_new_var(c, f->param_tok[p], f->param_type[p]);
            }
            kc_check_block(c, f->body, 0);
            if (c->err == KC_SUSPENDED) {
                c->err = 0;
                c->n_vars = f->var_begin;  /* checked again from the start later */
                work[top++] = c->need_callee;
                continue;
            }
            f->var_end = c->n_vars;
            if (!f->returns_value && f->ret != T_UNKNOWN && f->ret != T_NONE) {
                /* annotated, but no path returns a value: types.py makes the result None */
                kc_fail(c, "an annotated function that returns no value", f->line);
                break;
            }
            if (!f->returns_value && f->ret == T_UNKNOWN) f->ret = T_NONE;
            if (f->returns_value && kc_may_fall_off(c, f->body)) {
                /* types.py: None at the end, an Optional result where the module checks so */
                kc_fail(c, "a function that returns a value and may end without return", f->line);
                break;
            }
            f->state = 2;
            top--;
        }
    }
    /* functions never checked (their parameters nothing typed) are left out, as compile_source
       leaves them; the others keep their order (their indices in CALL) */
    int32_t kept = 0;
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++)
        if (c->funcs[i].state == 2) c->funcs[kept++] = c->funcs[i];
    if (!c->err) c->n_funcs = kept;
    /* types.py's finish: a result type must be known; every other type still unknown is int */
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        for (int p = 0; p < f->n_params; p++) f->param_type[p] = kc_resolve(c, f->param_type[p]);
        f->ret = kc_resolve(c, f->ret);
        if (f->ret == T_UNKNOWN || !kc_concrete(c, f->ret, 0)) kc_fail(c, "a result type not known after checking (a type error)", f->line);
    }
    for (int32_t i = 0; i < c->n_nodes && !c->err; i++)
        if (c->nodes[i].ty != T_UNKNOWN) c->nodes[i].ty = kc_final(c, c->nodes[i].ty);
    for (int32_t i = 0; i < c->n_vars && !c->err; i++) c->vars[i].type = kc_final(c, c->vars[i].type);
    /* types.py's _check_sets: sets hold ints, bools or strs and are in no container; no function
       takes or gives one */
    for (int32_t i = 0; i < c->n_nodes && !c->err; i++)
        if (c->nodes[i].ty != T_UNKNOWN && !kc_sets_ok(c, c->nodes[i].ty, 0)) kc_fail(c, "set of these items or in a container", c->nodes[i].line);
    for (int32_t i = 0; i < c->n_nodes && !c->err; i++)  /* a, b = x, {..}: the reference types the tuple */
        if (c->nodes[i].kind == S_ASSIGN && c->nodes[i].ival == 1)
            for (int32_t e = c->nodes[c->nodes[i].b].a; e >= 0 && !c->err; e = c->nodes[e].next)
                if (!kc_sets_ok(c, c->nodes[e].ty, 1)) kc_fail(c, "set or dict in a tuple (parallel assignment)", c->nodes[i].line);
    for (int32_t i = 0; i < c->n_vars && !c->err; i++)
        if (c->vars[i].type != T_UNKNOWN && !kc_sets_ok(c, c->vars[i].type, 0)) kc_fail(c, "set of these items or in a container", 0);
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        int bad = !kc_sets_ok(c, f->ret, 1);
        for (int p = 0; p < f->n_params; p++) bad |= !kc_sets_ok(c, f->param_type[p], 1);
        if (bad) kc_fail(c, "set as a parameter or result", f->line);
    }
    /* flow, function by function */
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        c->fn = f;
        int words = (f->var_end - f->var_begin + 63) / 64 + 1;
        int64_t mark = c->arena_used;
        kc_set da;
        da.all = 0;
        da.bits = (uint64_t *)kc_alloc(c, (int64_t)words * 8);
        if (c->err) break;
        for (int w = 0; w < words; w++) da.bits[w] = 0;
        for (int p = 0; p < f->n_params; p++) kc_set_add(&da, p);
        kc_flow_block(c, f->body, &da, words);
        c->arena_used = mark;
    }
    /* lower and assemble */
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        c->fn = f;
        int32_t slot = 0;
        for (int32_t v = f->var_begin; v < f->var_end; v++) c->vars[v].slot = slot++;
        for (int32_t v = f->var_begin + f->n_params; v < f->var_end; v++)
            if (c->vars[v].needs_check) c->vars[v].flag = slot++;
        f->n_locals = slot;
        f->code_begin = c->n_code;
        c->line = f->line;
        c->n_loops = 0;
        kc_lower_block(c, f->body);
        c->line = c->nodes[f->body].end_line;
        if (f->ret == T_NONE) {
            kc_emit(c, K_LOADI, 0);
            kc_emit(c, K_RET, 0);
        } else {
            kc_raise(c, KT_UNSUPPORTED);
        }
        for (int p = 0; p < f->n_params; p++) kc_type_index(c, f->param_type[p]);
        kc_type_index(c, f->ret);
        f->code_end = c->n_code;
    }
    /* the passes, function by function once all are lowered (the pool's order), then assembly */
    if (!c->err && (c->cfg->passes & (KC_PASS_FOLD | KC_PASS_DCE | KC_PASS_PEEPHOLE | KC_PASS_THREADING | KC_PASS_FUSE)))
        kc_optimize(c);
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_assemble(c, &c->funcs[i]);
    }
    if (c->err) return -1;
    kc_out o;
    o.p = out; o.n = 0; o.cap = k.container; o.overflow = 0;
    kc_emit_container(c, name, name_len, &o);
    if (o.overflow) kc_fail(c, "internal error: the container outgrew its bound", 0);
    if (c->err) return -1;
    *container = out;
    return o.n;
}

#endif /* KILN_KC_H */
