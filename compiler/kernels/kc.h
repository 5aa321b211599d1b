/* kc: the batched kiln compiler, ONE source for the host and (later) the device.
 *
 * Compiles one kiln Python module (docs/LANGUAGE.md) to the `.kbc` container (vm/container.py),
 * byte for byte what the reference compiler (compiler/) emits with its passes off (-O0: no
 * optimisation pass, and no `loops` superinstructions either). compiler/batched.py drives it;
 * docs/BATCHED_COMPILER.md says what it covers.
 *
 * Phases, each a section below, all on one per-program arena:
 *   lex      bytes -> tokens, with NEWLINE / INDENT / DEDENT as Python's tokenizer makes them
 *   parse    tokens -> AST nodes (recursive descent, its depth capped: see KC_MAX_DEPTH)
 *   check    types from annotations and the caller's argument types; one Var per name
 *   flow     definite assignment: which reads may find a variable unbound (UnboundLocalError)
 *   lower    typed AST -> instructions with labels, in the reference's order (compiler/lower.py)
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
 * they come from vm/isa.py at run time (kc_config), so a renumbered ISA needs no edit here.
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
#define KC_DIAG_BYTES 200
#define KC_SUSPENDED 2

/* ---- configuration: what vm/isa.py says (compiler/batched.py fills it) --------------------- */

/* kc's own names for the instructions it emits; KC_OP_NAMES in compiler/batched.py lists them in
   this order and maps each to its code in vm/isa.py. */
enum kc_op {
    K_POP, K_DUP, K_SWAP, K_LOADI, K_CONST, K_STR, K_LOAD, K_STORE, K_JUMP, K_JUMP_IF_FALSE,
    K_JUMP_IF_TRUE, K_CALL, K_RET, K_RAISE, K_ADD_I, K_SUB_I, K_MUL_I, K_FLOORDIV_I, K_MOD_I,
    K_POW_I, K_DIV_I, K_NEG_I, K_ABS_I, K_INVERT_I, K_AND_I, K_OR_I, K_XOR_I, K_SHL_I, K_SHR_I,
    K_LT_I, K_LE_I, K_GT_I, K_GE_I, K_EQ_I, K_NE_I, K_NOT, K_TRUTH_F, K_ADD_F, K_SUB_F, K_MUL_F,
    K_DIV_F, K_FLOORDIV_F, K_MOD_F, K_POW_F, K_NEG_F, K_ABS_F, K_LT_F, K_LE_F, K_GT_F, K_GE_F,
    K_EQ_F, K_NE_F, K_I2F, K_I2F_EXACT, K_F2I,
    KC_N_OPS
};

#define KC_OP_JUMP 1   /* its operand is a jump target */
#define KC_OP_ENDS 2   /* control never falls through */
#define KC_OP_IMM 4    /* the operand is a signed immediate */
#define KC_POPS_CALL (-1)

enum kc_trap_name { KT_UNSUPPORTED, KT_UNBOUND, KT_VALUE, KT_ASSERTION, KC_N_TRAPS };

typedef struct {
    uint32_t format_version, isa_hash;
    int32_t op_code[KC_N_OPS], op_pops[KC_N_OPS], op_pushes[KC_N_OPS], op_flags[KC_N_OPS];
    int32_t type_code[5];           /* indexed by kc_type */
    int32_t trap_code[KC_N_TRAPS];
    int32_t n_raisable;
    int32_t raisable_code[KC_MAX_RAISABLE];
    char raisable_name[KC_MAX_RAISABLE][32];  /* NUL-terminated */
    int32_t imm_min, imm_max, operand_max;
} kc_config;

/* kc's types: the scalar part of kiln's (a str appears only as a message that is discarded) */
enum kc_type { T_UNKNOWN, T_INT, T_FLOAT, T_BOOL, T_NONE, T_STR };

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
    E_IFEXP, E_CALL, E_TUPLE,
    S_EXPR, S_ASSIGN, S_ANNASSIGN, S_AUGASSIGN, S_IF, S_WHILE, S_FOR, S_RETURN, S_PASS,
    S_BREAK, S_CONTINUE, S_ASSERT, S_RAISE
};

/* binary operators (BinOp, AugAssign), unary, boolean and comparison operators */
enum kc_bin { B_ADD, B_SUB, B_MUL, B_DIV, B_FLOORDIV, B_MOD, B_POW, B_LSHIFT, B_RSHIFT, B_BITOR,
              B_BITXOR, B_BITAND, B_MATMUL };
enum kc_unary { U_NOT, U_NEG, U_POS, U_INVERT };
enum kc_cmp { C_LT, C_LE, C_GT, C_GE, C_EQ, C_NE, C_OTHER };

typedef struct {
    int16_t kind, op;    /* op: kc_bin / kc_unary / 0 and / 1 or / kc_cmp of a comparator */
    int16_t ty, check;   /* check: a read that may find the variable unbound (kcheck) */
    int32_t line, end_line, depth;
    int32_t a, b, c;     /* children; lists are linked through `next` */
    int32_t next;
    int32_t tok;         /* the NAME token (names, calls, raise) */
    int32_t var;
    int32_t pow_float;   /* int ** -<constant>: a float (types.py's kpow_float) */
    int64_t ival;
    double fval;
} kc_node;

typedef struct {
    int32_t name_tok, type, slot, flag, needs_check;
} kc_var;

typedef struct {
    int32_t name_tok, line, body, n_params, ret;
    int32_t state, returns_value;  /* state: 0 unchecked, 1 being checked, 2 checked */
    int32_t param_tok[KC_MAX_PARAMS], param_type[KC_MAX_PARAMS];
    int32_t var_begin, var_end;  /* its variables in the program's var table */
    int32_t n_locals, code_begin, code_end, max_stack;
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
    int32_t types[5]; int32_t n_types;  /* pool index -> kc_type, in first-use order */
    int32_t *loops; int32_t n_loops;    /* (continue, break) label pairs */
    int32_t depth;
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

KC_FN void *kc_alloc(kc_ctx *c, int64_t bytes) {
    int64_t at = (c->arena_used + 7) & ~(int64_t)7;
    if (bytes < 0 || at + bytes > c->arena_cap) {
        kc_fail(c, "program too large for its arena", 0);
        return 0;
    }
    c->arena_used = at + bytes;
    return c->arena + at;
}

KC_FN int kc_tok_is(const kc_ctx *c, const kc_tok *t, const char *word) {
    int i = 0;
    for (; i < t->len; i++)
        if (word[i] == 0 || c->src[t->start + i] != word[i]) return 0;
    return word[i] == 0;
}

KC_FN int kc_same_name(const kc_ctx *c, int32_t a, int32_t b) {
    const kc_tok *x = &c->toks[a], *y = &c->toks[b];
    if (x->len != y->len) return 0;
    for (int i = 0; i < x->len; i++)
        if (c->src[x->start + i] != c->src[y->start + i]) return 0;
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

KC_FN void kc_lex(kc_ctx *c) {
    const char *s = c->src;
    int64_t i = 0, line_start = 0;
    int line = 1, parens = 0, at_line_start = 1, emitted_on_line = 0;
    int indents[KC_MAX_INDENT + 1], n_indents = 1;
    indents[0] = 0;
    while (i < c->len && !c->err) {
        char ch = s[i];
        if (at_line_start && parens == 0) {
            int width = 0;
            int64_t j = i;
            while (j < c->len && s[j] == ' ') { width++; j++; }
            if (j < c->len && (s[j] == '\t' || s[j] == '\f')) { kc_fail(c, "tab or form feed indentation", line); return; }
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
                indents[n_indents++] = width;
                kc_push_tok(c, TK_INDENT, (int)j, 0, line, line, width, 0);
            } else {
                while (width < indents[n_indents - 1]) {
                    n_indents--;
                    kc_push_tok(c, TK_DEDENT, (int)j, 0, line, line, width, 0);
                }
                if (width != indents[n_indents - 1]) { kc_fail(c, "inconsistent dedent", line); return; }
            }
            i = j; at_line_start = 0; emitted_on_line = 0;
            continue;
        }
        if (ch == ' ') { i++; continue; }
        if (ch == '\t' || ch == '\f' || ch == '\r' || ch == 0 || (unsigned char)ch >= 0x80) {
            kc_fail(c, "tab, form feed, carriage return, NUL or non-ASCII character outside a comment", line);
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
            if (j < c->len && (s[j] == '\'' || s[j] == '"')) { kc_fail(c, "string prefix", line); return; }
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
    n->kind = (int16_t)kind; n->op = 0; n->ty = T_UNKNOWN; n->check = 0;
    n->line = line; n->end_line = line; n->depth = 1;
    n->a = n->b = n->c = n->next = n->tok = n->var = -1;
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

/* arguments: expression (',' expression)* [','] -- keywords, starred and generators are refused */
KC_FN int32_t kc_call_args(kc_ctx *c, int32_t call, int *count) {
    int32_t head = -1, tail = -1;
    *count = 0;
    while (!c->err && !kc_at_op(c, P_RPAR)) {
        kc_tok *t = kc_peek(c);
        if (t->kind == TK_NAME && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_EQUAL) {
            kc_fail(c, "keyword argument", t->line);
            return -1;
        }
        int32_t a = kc_expr(c);
        if (c->err) return -1;
        kc_child_depth(c, call, a);
        if (tail < 0) head = a; else c->nodes[tail].next = a;
        tail = a;
        (*count)++;
        if (kc_at_kw(c, "for")) { kc_fail(c, "generator expression", kc_peek(c)->line); return -1; }
        if (!kc_at_op(c, P_COMMA)) break;
        kc_next(c);
    }
    kc_expect_op(c, P_RPAR, "call syntax");
    return head;
}

/* atom: NAME | NUMBER | STRING | True | False | None | '(' [expression (',' expression)* [',']] ')'
   primary: atom | NAME '(' arguments ')'      (other calls, subscripts, attributes: unsupported) */
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
        return k;
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
        } else {
            k = kc_node_new(c, E_NAME, t->line);
            if (k < 0) return -1;
            c->nodes[k].tok = tok;
        }
        if (kc_at_op(c, P_LPAR) || kc_at_op(c, P_LSQB) || kc_at_op(c, P_DOT)) {
            kc_fail(c, "subscript, attribute or call of a call", kc_peek(c)->line);
            return -1;
        }
        return k;
    }
    if (t->kind == TK_OP && t->op == P_LPAR) {
        kc_next(c);
        if (kc_at_op(c, P_RPAR)) { kc_fail(c, "empty tuple", t->line); return -1; }
        int32_t first = kc_expr(c);
        if (c->err) return -1;
        if (kc_at_kw(c, "for")) { kc_fail(c, "generator expression", t->line); return -1; }
        if (kc_at_op(c, P_COLONEQUAL)) { kc_fail(c, "assignment expression (:=)", t->line); return -1; }
        if (kc_at_op(c, P_RPAR)) {
            kc_next(c);
            if (kc_at_op(c, P_LPAR) || kc_at_op(c, P_LSQB) || kc_at_op(c, P_DOT)) {
                kc_fail(c, "subscript, attribute or call of a parenthesized expression", t->line);
                return -1;
            }
            return first;  /* parentheses only group */
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
        kc_expect_op(c, P_RPAR, "tuple syntax");
        if (kc_at_op(c, P_LPAR) || kc_at_op(c, P_LSQB) || kc_at_op(c, P_DOT)) {
            kc_fail(c, "subscript of a tuple", t->line);
            return -1;
        }
        return k;
    }
    kc_fail(c, t->kind == TK_OP && (t->op == P_LSQB || t->op == P_LBRACE) ? "list, dict or set display"
                                                                          : "expression syntax", t->line);
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
        kc_next(c);
        int32_t right = kc_factor(c);
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
    if (t->kind == TK_NAME && (kc_tok_is(c, t, "in") || kc_tok_is(c, t, "is") ||
                               (kc_tok_is(c, t, "not") && kc_tok_is(c, kc_peek2(c), "in"))))
        return C_OTHER;
    return -1;
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
        if (op == C_OTHER) { kc_fail(c, "in / is comparison", kc_peek(c)->line); return -1; }
        kc_next(c);
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

/* annotation: int | float | bool | None  (anything else: unsupported here) */
KC_FN int kc_annotation(kc_ctx *c) {
    kc_tok *t = kc_peek(c);
    int ty = T_UNKNOWN;
    if (t->kind == TK_NAME) {
        if (kc_tok_is(c, t, "int")) ty = T_INT;
        else if (kc_tok_is(c, t, "float")) ty = T_FLOAT;
        else if (kc_tok_is(c, t, "bool")) ty = T_BOOL;
        else if (kc_tok_is(c, t, "None")) ty = T_NONE;
    }
    kc_next(c);
    kc_tok *after = kc_peek(c);
    if (ty == T_UNKNOWN || (after->kind == TK_OP && (after->op == P_LSQB || after->op == P_DOT || after->op == P_VBAR)))
        kc_fail(c, "type annotation other than int, float, bool or None", t->line);
    return ty;
}

KC_FN int32_t kc_block(kc_ctx *c);

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
            if (c->nodes[first].kind != E_NAME) { kc_fail(c, "augmented assignment to a non-name", line); return -1; }
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
        int32_t nested = kc_if_tail(c, e);
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
        if (kc_at_kw(c, "else")) { kc_fail(c, "else clause on a while loop", kc_peek(c)->line); return -1; }
        c->nodes[k].a = test; c->nodes[k].b = body;
        kc_child_depth(c, k, test); kc_child_depth(c, k, body);
        c->nodes[k].end_line = c->nodes[body].end_line;
    } else if (t->kind == TK_NAME && kc_tok_is(c, t, "for")) {
        kc_next(c);
        k = kc_node_new(c, S_FOR, t->line);
        kc_tok *name = kc_peek(c);
        if (name->kind != TK_NAME || kc_is_keyword(c, name) || !kc_tok_is(c, kc_peek2(c), "in")) {
            kc_fail(c, "for loop target other than a name", t->line);
            return -1;
        }
        kc_next(c);
        kc_next(c);
        int32_t target = kc_node_new(c, E_NAME, name->line);
        if (target < 0) return -1;
        c->nodes[target].tok = (int32_t)(name - c->toks);
        int32_t it = kc_expr(c);
        kc_expect_op(c, P_COLON, "for syntax");
        int32_t body = kc_block(c);
        if (c->err) return -1;
        if (kc_at_kw(c, "else")) { kc_fail(c, "else clause on a for loop", kc_peek(c)->line); return -1; }
        c->nodes[k].a = target; c->nodes[k].b = it; c->nodes[k].c = body;
        kc_child_depth(c, k, it); kc_child_depth(c, k, body);
        c->nodes[k].end_line = c->nodes[body].end_line;
    } else if (t->kind == TK_NAME && (kc_tok_is(c, t, "def") || kc_tok_is(c, t, "class") || kc_tok_is(c, t, "try") ||
                                      kc_tok_is(c, t, "with") || kc_tok_is(c, t, "async") || kc_tok_is(c, t, "import") ||
                                      kc_tok_is(c, t, "from") || kc_tok_is(c, t, "global") || kc_tok_is(c, t, "nonlocal") ||
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
            if (tail < 0) head = first; else c->nodes[tail].next = first;
            tail = last;
        }
        if (!c->err && kc_peek(c)->kind != TK_DEDENT) { kc_fail(c, "block syntax", kc_peek(c)->line); return -1; }
        kc_next(c);
    }
    c->depth--;
    if (c->err || head < 0) return -1;
    /* the depth of a block is the deepest of its statements */
    int depth = 1;
    for (int32_t s = head; s >= 0; s = c->nodes[s].next)
        if (c->nodes[s].depth > depth) depth = c->nodes[s].depth;
    c->nodes[head].depth = depth;
    c->nodes[head].end_line = c->nodes[tail].end_line;  /* only a block's tail ever needs its own */
    return head;
}

/* module: (funcdef | 'from' 'typing' 'import' NAME (',' NAME)* | STRING)* END
   funcdef: 'def' NAME '(' [param (',' param)* [',']] ')' ['->' annotation] ':' block
   param: NAME [':' annotation] */
KC_FN void kc_parse_module(kc_ctx *c) {
    while (!c->err) {
        kc_tok *t = kc_peek(c);
        if (t->kind == TK_END) return;
        if (t->kind == TK_STRING && kc_peek2(c)->kind == TK_NEWLINE) {  /* docstring, stray string */
            kc_next(c);
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
                if (!kc_at_op(c, P_COMMA)) break;
                kc_next(c);
            }
            if (kc_peek(c)->kind != TK_NEWLINE) { kc_fail(c, "import form", t->line); return; }
            kc_next(c);
            continue;
        }
        if (!(t->kind == TK_NAME && kc_tok_is(c, t, "def"))) {
            kc_fail(c, "module-level statement other than def", t->line);
            return;
        }
        kc_next(c);
        if (c->n_funcs >= c->cap_funcs) { kc_fail(c, "too many functions for the arena", t->line); return; }
        kc_func *f = &c->funcs[c->n_funcs];
        kc_tok *name = kc_next(c);
        if (name->kind != TK_NAME || kc_is_keyword(c, name)) { kc_fail(c, "def syntax", t->line); return; }
        f->name_tok = (int32_t)(name - c->toks);
        f->line = t->line;
        f->n_params = 0;
        f->state = f->returns_value = 0;
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
                f->param_type[f->n_params] = kc_annotation(c);
            }
            f->n_params++;
            if (!kc_at_op(c, P_COMMA)) break;
            kc_next(c);
        }
        if (!kc_expect_op(c, P_RPAR, "parameter form")) return;
        if (kc_at_op(c, P_RARROW)) {
            kc_next(c);
            f->ret = kc_annotation(c);
        }
        if (!kc_expect_op(c, P_COLON, "def syntax")) return;
        c->depth = 0;
        f->body = kc_block(c);
        if (c->err) return;
        for (int i = 0; i < c->n_funcs; i++)
            if (kc_same_name(c, c->funcs[i].name_tok, f->name_tok)) { kc_fail(c, "redefinition of a function", t->line); return; }
        c->n_funcs++;
    }
}

/* ---- check: types ------------------------------------------------------------------------------- */

KC_TABLE char *const KC_BUILTINS[] = {
    "len", "range", "abs", "min", "max", "sum", "int", "float", "bool", "str", "sorted",
    "reversed", "enumerate", "list", "ord", "chr", "all", "any", "bin", "round", "zip", "set",
    "dict", 0
};

KC_FN int kc_is_builtin(const kc_ctx *c, int32_t tok) {
    for (int k = 0; KC_BUILTINS[k]; k++)
        if (kc_tok_is(c, &c->toks[tok], KC_BUILTINS[k])) return 1;
    return 0;
}

KC_FN int32_t kc_find_func(const kc_ctx *c, int32_t tok) {
    for (int32_t i = 0; i < c->n_funcs; i++)
        if (kc_same_name(c, c->funcs[i].name_tok, tok)) return i;
    return -1;
}

KC_FN int32_t kc_lookup(const kc_ctx *c, int32_t tok) {
    for (int32_t v = c->fn->var_begin; v < c->n_vars; v++)
        if (kc_same_name(c, c->vars[v].name_tok, tok)) return v;
    return -1;
}

KC_FN int32_t kc_new_var(kc_ctx *c, int32_t tok, int type) {
    if (c->n_vars >= c->cap_vars) { kc_fail(c, "too many variables for the arena", c->toks[tok].line); return -1; }
    kc_var *v = &c->vars[c->n_vars];
    v->name_tok = tok; v->type = type; v->slot = -1; v->flag = -1; v->needs_check = 0;
    return c->n_vars++;
}

/* bind: a store to a name. A variable keeps one type (types.py's maybe_rebind, which starts a
   new variable for a top-level assignment of another type, is not done here: unsupported). */
KC_FN void kc_bind(kc_ctx *c, int32_t target, int type) {
    kc_node *n = &c->nodes[target];
    int32_t v = kc_lookup(c, n->tok);
    if (v < 0) {
        if (kc_find_func(c, n->tok) >= 0 || kc_is_builtin(c, n->tok)) { kc_fail(c, "assignment to a function's name", n->line); return; }
        v = kc_new_var(c, n->tok, type);
        if (v < 0) return;
    } else if (c->vars[v].type != type) {
        kc_fail(c, "a variable assigned values of different types", n->line);
        return;
    }
    n->var = v;
    n->ty = (int16_t)type;
}

#define KC_ALLOW_NONE 1
#define KC_ALLOW_STR 2

KC_FN int kc_numeric(int t) { return t == T_INT || t == T_BOOL || t == T_FLOAT; }
KC_FN int kc_intlike(int t) { return t == T_INT || t == T_BOOL; }

KC_FN int kc_type_expr(kc_ctx *c, int32_t k, int allow);

KC_FN int kc_truth_type(kc_ctx *c, int32_t k) {
    int t = kc_type_expr(c, k, 0);
    return t;
}

/* types.py's binop_type for the numeric operands kc covers */
KC_FN int kc_binop_type(kc_ctx *c, int32_t node, int op, int lt, int rt, int32_t right) {
    if (c->err) return T_UNKNOWN;
    int line = c->nodes[node].line;
    if (!(kc_numeric(lt) && kc_numeric(rt))) { kc_fail(c, "operator on non-numbers", line); return T_UNKNOWN; }
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

KC_FN int kc_builtin_type(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    const kc_tok *name = &c->toks[n->tok];
    int count = (int)n->ival;
    int32_t a0 = n->a;
    if (kc_tok_is(c, name, "min") || kc_tok_is(c, name, "max")) {
        if (count < 2) { kc_fail(c, "min/max of a sequence", n->line); return T_UNKNOWN; }
        int t0 = T_UNKNOWN;
        for (int32_t a = a0; a >= 0 && !c->err; a = c->nodes[a].next) {
            int t = kc_type_expr(c, a, 0);
            if (a == a0) t0 = t;
            else if (t != t0) kc_fail(c, "min/max of different types (a type error)", n->line);
        }
        if (!c->err && !kc_numeric(t0)) kc_fail(c, "min/max of non-numbers", n->line);
        return t0;
    }
    int is_abs = kc_tok_is(c, name, "abs"), is_int = kc_tok_is(c, name, "int");
    int is_float = kc_tok_is(c, name, "float"), is_bool = kc_tok_is(c, name, "bool");
    if (!(is_abs || is_int || is_float || is_bool)) { kc_fail(c, "builtin function", n->line); return T_UNKNOWN; }
    if (count > 1 || (is_abs && count != 1)) { kc_fail(c, "builtin call with these arguments", n->line); return T_UNKNOWN; }
    if (count == 0) return is_int ? T_INT : is_float ? T_FLOAT : T_BOOL;
    int t = kc_type_expr(c, a0, 0);
    if (c->err) return T_UNKNOWN;
    if (!kc_numeric(t)) { kc_fail(c, "conversion of a non-number", n->line); return T_UNKNOWN; }
    if (is_abs) return t == T_FLOAT ? T_FLOAT : T_INT;
    return is_int ? T_INT : is_float ? T_FLOAT : T_BOOL;
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
        if (v < 0) { kc_fail(c, "a name used before any assignment, or a function used as a value", n->line); return T_UNKNOWN; }
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
            else if (vt != first) kc_fail(c, "and/or operands of different types (a type error)", n->line);
        }
        t = first;
        break;
    }
    case E_COMPARE: {
        int lt = kc_type_expr(c, n->a, 0);
        for (int32_t link = n->b; link >= 0 && !c->err; link = c->nodes[link].next) {
            int rt = kc_type_expr(c, c->nodes[link].a, 0);
            if (c->err) return T_UNKNOWN;
            if (!(kc_numeric(lt) && kc_numeric(rt))) { kc_fail(c, "comparison of non-numbers", n->line); return T_UNKNOWN; }
            c->nodes[link].ty = (int16_t)(lt == T_FLOAT || rt == T_FLOAT ? T_FLOAT : T_INT);  /* the plan */
            lt = rt;
        }
        t = T_BOOL;
        break;
    }
    case E_IFEXP: {
        kc_truth_type(c, n->a);
        int a = kc_type_expr(c, n->b, 0);
        int b = kc_type_expr(c, n->c, 0);
        if (!c->err && a != b) kc_fail(c, "conditional expression with branches of different types (a type error)", n->line);
        t = a;
        break;
    }
    case E_CALL: {
        int32_t f = kc_find_func(c, n->tok);
        if (f >= 0) {
            kc_func *callee = &c->funcs[f];
            if (n->ival != callee->n_params) { kc_fail(c, "call with the wrong number of arguments (a type error)", n->line); return T_UNKNOWN; }
            int i = 0;
            for (int32_t a = n->a; a >= 0 && !c->err; a = c->nodes[a].next, i++)
                if (kc_type_expr(c, a, 0) != callee->param_type[i] && !c->err)
                    kc_fail(c, "argument of another type than the parameter (a type error)", c->nodes[a].line);
            n->var = f;  /* the callee */
            if (c->err) return T_UNKNOWN;
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
            kc_fail(c, "call of something other than a module function or abs/min/max/int/float/bool", n->line);
            return T_UNKNOWN;
        }
        break;
    }
    default:
        kc_fail(c, "tuple value", n->line);
        return T_UNKNOWN;
    }
    if (c->err) return T_UNKNOWN;
    if (t == T_NONE && !(allow & KC_ALLOW_NONE)) { kc_fail(c, "None as a value", n->line); return T_UNKNOWN; }
    if (t == T_STR && !(allow & KC_ALLOW_STR)) { kc_fail(c, "str value", n->line); return T_UNKNOWN; }
    n->ty = (int16_t)t;
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
        else if (t != c->fn->ret) kc_fail(c, "returns of different types (a type error)", s->line);
        if (t != T_NONE) c->fn->returns_value = 1;
        break;
    }
    case S_ASSIGN: {
        int32_t value = s->b;
        if (c->nodes[value].kind == E_TUPLE) {
            int32_t target = s->a;
            if (c->nodes[target].next >= 0 || c->nodes[target].kind != E_TUPLE ||
                kc_list_len(c, c->nodes[target].a) != kc_list_len(c, c->nodes[value].a)) {
                kc_fail(c, "tuple value other than a parallel assignment", s->line);
                return;
            }
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
            if (c->nodes[target].kind != E_NAME) { kc_fail(c, "assignment target other than a name", s->line); return; }
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
            if (!c->err && t != ann) kc_fail(c, "annotated assignment of another type (a type error)", s->line);
        }
        break;
    }
    case S_AUGASSIGN: {
        kc_node *target = &c->nodes[s->a];
        int32_t v = kc_lookup(c, target->tok);
        if (v < 0) { kc_fail(c, "augmented assignment before any assignment", s->line); return; }
        int current = c->vars[v].type;
        int t = kc_type_expr(c, s->b, 0);
        int result = kc_binop_type(c, k, s->op, current, t, -1);
        if (!c->err && result != current) { kc_fail(c, "augmented assignment that changes the type (a type error)", s->line); return; }
        s->ty = (int16_t)result;
        target->var = v;
        target->ty = (int16_t)current;
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
        break;
    case S_FOR: {
        kc_node *it = &c->nodes[s->b];
        if (it->kind != E_CALL || !kc_tok_is(c, &c->toks[it->tok], "range") || kc_find_func(c, it->tok) >= 0) {
            kc_fail(c, "for loop over something other than range()", s->line);
            return;
        }
        if (it->ival < 1 || it->ival > 3) { kc_fail(c, "range() with the wrong number of arguments", s->line); return; }
        for (int32_t a = it->a; a >= 0 && !c->err; a = c->nodes[a].next)
            if (!kc_intlike(kc_type_expr(c, a, 0)) && !c->err) kc_fail(c, "range() of a non-int (a type error)", s->line);
        kc_bind(c, s->a, T_INT);
        kc_check_block(c, s->c, loop_depth + 1);
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
        if (n->var >= 0 && !kc_set_has(da, v)) { c->vars[n->var].needs_check = 1; n->check = 1; }
        return;
    }
    case E_BINOP: kc_reads(c, n->a, da); kc_reads(c, n->b, da); return;
    case E_UNARY: kc_reads(c, n->a, da); return;
    case E_IFEXP: kc_reads(c, n->a, da); kc_reads(c, n->b, da); kc_reads(c, n->c, da); return;
    case E_COMPARE:
        kc_reads(c, n->a, da);
        for (int32_t l = n->b; l >= 0; l = c->nodes[l].next) kc_reads(c, c->nodes[l].a, da);
        return;
    case E_BOOLOP: case E_CALL: case E_TUPLE:
        for (int32_t a = n->a; a >= 0; a = c->nodes[a].next) kc_reads(c, a, da);
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
        break;
    }
    case S_FOR: {
        kc_reads(c, s->b, da);
        kc_set x = kc_set_copy(c, da, words);
        if (c->err) return;
        kc_add_target(c, s->a, &x);
        kc_flow_block(c, s->c, &x, words);
        break;
    }
    case S_AUGASSIGN: {
        kc_reads(c, s->b, da);
        kc_node *t = &c->nodes[s->a];
        if (!kc_set_has(da, t->var - c->fn->var_begin)) { c->vars[t->var].needs_check = 1; t->check = 1; }
        kc_add_target(c, s->a, da);
        break;
    }
    case S_ASSIGN:
        kc_reads(c, s->b, da);
        for (int32_t t = s->a; t >= 0; t = c->nodes[t].next) kc_add_target(c, t, da);
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

KC_FN void kc_place(kc_ctx *c, int32_t label) { if (!c->err) c->labels[label] = c->n_code; }

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

/* the image address of a string literal's value (pooled as the reference does: length, then
   one word per character); only plain ASCII literals without escapes */
KC_FN int32_t kc_string(kc_ctx *c, int32_t tok) {
    const kc_tok *t = &c->toks[tok];
    const char *s = c->src + t->start;
    int q = (t->len >= 6 && s[1] == s[0] && s[2] == s[0]) ? 3 : 1;
    int n = t->len - 2 * q;
    for (int i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[q + i];
        if (ch == '\\' || ch >= 0x80) { kc_fail(c, "string with escapes or non-ASCII characters", t->line); return 0; }
    }
    /* an equal string already pooled: the image holds [len, chars...] records back to back */
    for (int32_t at = 0; at < c->n_image; at += (int32_t)c->image[at] + 1) {
        if (c->image[at] != n) continue;
        int same = 1;
        for (int i = 0; i < n && same; i++) same = c->image[at + 1 + i] == (unsigned char)s[q + i];
        if (same) return at;
    }
    if (c->n_image + n + 1 > c->cap_image) { kc_fail(c, "too many strings for the arena", t->line); return 0; }
    int32_t at = c->n_image;
    c->image[c->n_image++] = n;
    for (int i = 0; i < n; i++) c->image[c->n_image++] = (unsigned char)s[q + i];
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

KC_FN void kc_truth_of_top(kc_ctx *c, int t) {
    if (t == T_FLOAT) kc_emit(c, K_TRUTH_F, 0);
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

KC_FN void kc_compare(kc_ctx *c, int op, int plan, int lt, int rt) {
    if (plan == T_FLOAT) {
        if (lt != T_FLOAT) {
            kc_emit(c, K_SWAP, 0);
            kc_emit(c, K_I2F_EXACT, 0);
            kc_emit(c, K_SWAP, 0);
        }
        if (rt != T_FLOAT) kc_emit(c, K_I2F_EXACT, 0);
        kc_emit(c, KC_CMP_F[op], 0);
    } else {
        kc_emit(c, KC_CMP_I[op], 0);
    }
}

KC_FN void kc_lower_call(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    if (kc_find_func(c, n->tok) >= 0) {
        for (int32_t a = n->a; a >= 0; a = c->nodes[a].next) kc_lower_expr(c, a);
        kc_emit(c, K_CALL, n->var);
        return;
    }
    const kc_tok *name = &c->toks[n->tok];
    int32_t a0 = n->a;
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
            kc_emit(c, n->ty == T_FLOAT ? K_LT_F : K_LT_I, 0);
            kc_emit_jump(c, K_JUMP_IF_FALSE, skip);
            kc_emit(c, K_LOAD, s);
            kc_emit(c, K_STORE, cur);
            kc_place(c, skip);
        }
        kc_emit(c, K_LOAD, cur);
        return;
    }
    int at = a0 >= 0 ? c->nodes[a0].ty : T_UNKNOWN;
    if (kc_tok_is(c, name, "abs")) {
        kc_lower_expr(c, a0);
        kc_emit(c, at == T_FLOAT ? K_ABS_F : K_ABS_I, 0);
    } else if (kc_tok_is(c, name, "int")) {
        if (a0 < 0) { kc_emit(c, K_LOADI, 0); return; }
        kc_lower_expr(c, a0);
        if (at == T_FLOAT) kc_emit(c, K_F2I, 0);
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
            kc_compare(c, c->nodes[link].op, c->nodes[link].ty, c->nodes[left].ty, c->nodes[c->nodes[link].a].ty);
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
            kc_compare(c, c->nodes[link].op, c->nodes[link].ty, lt, c->nodes[right].ty);
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
    kc_lower_block(c, s->c);
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
        if (c->nodes[value].kind == E_TUPLE) {  /* a, b = b, a: all values, then the stores */
            int32_t names[256];
            int count = 0;
            for (int32_t e = c->nodes[value].a; e >= 0; e = c->nodes[e].next) kc_lower_expr(c, e);
            for (int32_t e = c->nodes[s->a].a; e >= 0; e = c->nodes[e].next) {
                if (count >= 256) { kc_fail(c, "unpacking into more than 256 names", s->line); return; }
                names[count++] = e;
            }
            for (int i = count - 1; i >= 0; i--) {
                int seen = 0;
                for (int j = i + 1; j < count; j++) seen |= c->nodes[names[j]].var == c->nodes[names[i]].var;
                if (seen) kc_emit(c, K_POP, 0);
                else kc_store_var(c, c->nodes[names[i]].var);
            }
            return;
        }
        kc_lower_expr(c, value);
        for (int32_t t = s->a; t >= 0; t = c->nodes[t].next) {
            if (c->nodes[t].next >= 0) kc_emit(c, K_DUP, 0);
            kc_store_var(c, c->nodes[t].var);
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
        kc_load_var(c, t->var, t->check);
        kc_binop(c, s->op, c->vars[t->var].type, s->b, s->ty);
        kc_store_var(c, t->var);
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
    case S_WHILE: {
        int32_t top = kc_label(c), end = kc_label(c);
        kc_place(c, top);
        c->line = s->line;
        kc_branch(c, s->a, 0, end);
        c->loops[2 * c->n_loops] = top;
        c->loops[2 * c->n_loops + 1] = end;
        c->n_loops++;
        kc_lower_block(c, s->b);
        c->n_loops--;
        kc_emit_jump(c, K_JUMP, top);
        kc_place(c, end);
        return;
    }
    case S_FOR: kc_range_loop(c, s); return;
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
    for (int32_t i = 0; i < c->n_types; i++)
        if (c->types[i] == t) return i;
    c->types[c->n_types] = t;
    return c->n_types++;
}

/* ---- assemble: labels -> indices, maximum stack depth (compiler/assemble.py) --------------------- */

KC_FN void kc_assemble(kc_ctx *c, kc_func *f) {
    int32_t n = f->code_end - f->code_begin;
    int64_t mark = c->arena_used;
    int32_t *depth = (int32_t *)kc_alloc(c, (int64_t)n * 4 + 8);
    int32_t *work = (int32_t *)kc_alloc(c, (int64_t)(2 * n + 2) * 8);
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
        if (d < pops || (op == K_RET && d != 1)) { kc_fail(c, "internal error: the stack does not balance", 0); break; }
        int32_t after = d - pops + pushes;
        if (after > max_depth) max_depth = after;
        if (d > max_depth) max_depth = d;
        int flags = c->cfg->op_flags[op];
        if (flags & KC_OP_JUMP) { work[2 * top] = arg; work[2 * top + 1] = after; top++; }
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
    for (int32_t i = 0; i < c->n_types; i++) {
        kc_put_u32(o, 1);
        kc_put_u32(o, (uint32_t)cfg->type_code[c->types[i]]);
    }
    for (int32_t i = 0; i < c->n_funcs; i++) {
        kc_func *f = &c->funcs[i];
        const kc_tok *t = &c->toks[f->name_tok];
        kc_put_u32(o, (uint32_t)t->len);
        kc_put(o, c->src + t->start, t->len);
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

/* ---- one program ------------------------------------------------------------------------------------ */

/* Every table's capacity follows from the token count (the lexer's from the source length: a
   token takes at least one byte but NEWLINE, DEDENT and END, and a DEDENT needs an INDENT). */
typedef struct { int64_t toks, nodes, funcs, vars, code, labels, consts, image, container; } kc_caps;

KC_FN int64_t kc_max_tokens(int64_t len) { return 2 * len + 16; }

KC_FN kc_caps kc_capacities(int64_t len, int64_t n_toks, int64_t name_len) {
    kc_caps k;
    k.toks = n_toks;
    k.nodes = 2 * n_toks + 16;
    k.funcs = n_toks / 4 + 2;  /* def NAME ( ) : ... */
    k.vars = n_toks + 16;
    k.code = 12 * n_toks + 64;  /* no construct emits more than 12 instructions a token */
    k.labels = k.code;
    k.consts = n_toks + 16;
    k.image = len + 16;
    k.container = 128 + name_len + 8 * k.consts + 8 * k.image + 8 * 5 + 32 * k.funcs + len +
                  4 * n_toks + 8 * k.code;
    return k;
}

/* Arena bytes for everything after the tokens; kc_arena_bytes: the most a source can need. */
KC_FN int64_t kc_rest_bytes(const kc_caps *k) {
    return 4096 + k->nodes * (int64_t)sizeof(kc_node) + k->funcs * (int64_t)sizeof(kc_func) +
           k->vars * (int64_t)sizeof(kc_var) + k->code * 16 + k->labels * 4 + k->consts * 8 +
           k->image * 8 + 2 * KC_MAX_DEPTH * 4 + k->container + (k->funcs + 1) * 4 +
           /* assembly and flow scratch */ k->code * 20 + (int64_t)KC_MAX_DEPTH * 2 * (k->vars / 8 + 16);
}

KC_FN int64_t kc_arena_bytes(int64_t len, int64_t name_len) {
    kc_caps k = kc_capacities(len, kc_max_tokens(len), name_len);
    return 64 + kc_max_tokens(len) * (int64_t)sizeof(kc_tok) + kc_rest_bytes(&k);
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
            if (t->len != name_len) continue;
            int same = 1;
            for (int64_t j = 0; j < name_len && same; j++) same = c->src[t->start + j] == spec[name + j];
            if (same) f = k;
        }
        if (f < 0) { kc_fail(c, "argument types for a function the module does not define", 0); return; }
        kc_func *fn = &c->funcs[f];
        int p = 0;
        for (; i < spec_len && spec[i] != '\n'; i++, p++) {
            int t = spec[i] == 'i' ? T_INT : spec[i] == 'f' ? T_FLOAT : spec[i] == 'b' ? T_BOOL : T_UNKNOWN;
            if (t == T_UNKNOWN) { kc_fail(c, "argument of a type other than int, float or bool", 0); return; }
            if (p >= fn->n_params) break;
            if (fn->param_type[p] == T_UNKNOWN) fn->param_type[p] = t;
            else if (fn->param_type[p] != t) { kc_fail(c, "argument type unlike the annotation (a type error)", fn->line); return; }
        }
        if (p != fn->n_params) { kc_fail(c, "wrong number of argument types (a type error)", fn->line); return; }
        i++;
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
    c->arena_used = 0; c->err = 0; c->diag = diag; diag[0] = 0;
    *need = 0;
    *container = 0;
    int64_t lex_bytes = 64 + kc_max_tokens(len) * (int64_t)sizeof(kc_tok);
    if (lex_bytes > arena_cap) { *need = lex_bytes + 4096; return -2; }
    c->toks = (kc_tok *)kc_alloc(c, kc_max_tokens(len) * (int64_t)sizeof(kc_tok));
    c->cap_toks = (int32_t)kc_max_tokens(len);
    c->n_toks = c->pos = 0;
    c->line = 1;
    for (int64_t i = 0; i < len; i++)
        if (src[i] == 0) { kc_fail(c, "NUL byte", 0); return -1; }
    kc_lex(c);
    if (c->err) return -1;
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
    c->loops = (int32_t *)kc_alloc(c, 2 * KC_MAX_DEPTH * 4);
    uint8_t *out = (uint8_t *)kc_alloc(c, k.container);
    if (c->err) return -1;
    c->cap_nodes = (int32_t)k.nodes; c->cap_funcs = (int32_t)k.funcs;
    c->cap_vars = (int32_t)k.vars; c->cap_code = (int32_t)k.code; c->cap_labels = (int32_t)k.labels;
    c->cap_consts = (int32_t)k.consts; c->cap_image = (int32_t)k.image;
    c->n_nodes = c->n_funcs = c->n_vars = c->n_code = c->n_labels = 0;
    c->n_consts = c->n_image = c->n_types = c->n_loops = c->depth = 0;
    c->fn = 0;
    kc_parse_module(c);
    if (!c->err) kc_apply_spec(c, spec, spec_len);
    if (c->err) return -1;
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        if (kc_is_builtin(c, f->name_tok)) { kc_fail(c, "a function named like a builtin", f->line); break; }
        for (int p = 0; p < f->n_params; p++)
            if (f->param_type[p] == T_UNKNOWN || f->param_type[p] == T_NONE) { kc_fail(c, "parameter without an int, float or bool type", f->line); break; }
    }
    /* check, in types.py's order: each function in turn, except that a call of a function not
       checked yet checks that one first (the caller is suspended and checked again after it;
       the result type it told so far stays, as in the reference's check_now). */
    int32_t *work = (int32_t *)kc_alloc(c, (int64_t)(c->n_funcs + 1) * 4);
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        int32_t top = 0;
        if (c->funcs[i].state == 0) work[top++] = i;
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
            if (!f->returns_value && f->ret == T_UNKNOWN) f->ret = T_NONE;
            f->state = 2;
            top--;
        }
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
        if (!c->err) kc_assemble(c, f);
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
