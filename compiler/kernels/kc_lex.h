/* kc_lex.h: the lexer, and the values of number literals (kc's first phase; kc.h includes it).
 *
 * Takes: the source, c->src[0, len), after kc_compile's newline translation (\r\n and a lone
 * \r are \n, as CPython's translate_newlines makes them), and an arena for kc_max_tokens(len)
 * tokens (c->toks, c->cap_toks).
 * Gives: c->toks[0, n_toks): NAME (op: 1 + its index in KC_KEYWORDS for a keyword, else 0),
 * NUMBER, STRING (quotes and prefix included, escapes not decoded), OP (op: a kc_punct),
 * NEWLINE, INDENT and DEDENT as Python's tokenizer makes them (none inside brackets, none for
 * blank or comment-only lines), then one END; each with its line, end line and column. A plain
 * one-line f-string is the tokens of what frontend.py's visit_JoinedStr makes of it
 * (kc_lex_fstring: ( "a" + str ( x ) ), its `str` spelled by synth[0, 3), its brackets and `+`
 * OP tokens of no text).
 * kc_parse_int and kc_parse_float read a NUMBER token's value for the parser.
 * Guarantees: what CPython's tokenizer would read otherwise, or reject (tabs against spaces,
 * form feeds, carriage returns, characters outside ASCII but in strings and comments, string
 * prefixes but the f-strings kc_lex_fstring takes, unmatched brackets, unterminated strings),
 * stops kc with kc_fail; kc_diag.h then
 * decides whether kc is sure of CPython's diagnostic. A float literal is correctly rounded: on
 * Clinger's fast path everywhere, by strtod on the host, else refused on a device.
 */
#ifndef KILN_KC_LEX_H
#define KILN_KC_LEX_H

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
KC_NOINLINE KC_FN int64_t kc_lex_string(kc_ctx *c, int64_t i, int *line) {
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

/* a NAME token for src[i, j), its op the keyword's (1 + index in KC_KEYWORDS) or 0 */
KC_FN void kc_push_name(kc_ctx *c, int64_t i, int64_t j, int line, int col) {
    kc_push_tok(c, TK_NAME, (int)i, (int)(j - i), line, line, col, 0);
    if (c->err) return;
    kc_tok *t = &c->toks[c->n_toks - 1];
    for (int k = 0; KC_KEYWORDS[k]; k++)
        if (kc_tok_is(c, t, KC_KEYWORDS[k])) t->op = k + 1;
}

/* the end (before `limit`) of the NUMBER token at src[i] */
KC_FN int64_t kc_number_end(const kc_ctx *c, int64_t i, int64_t limit) {
    const char *s = c->src;
    int64_t j = i;
    while (j < limit && (kc_is_alpha(s[j]) || kc_is_digit(s[j]) || s[j] == '.' ||
                         ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                          !(j - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')))))
        j++;
    return j;
}

/* the operator at src[i] (before `limit`): its kc_punct, its length in *n; -1 for none */
KC_FN int kc_punct_at(const kc_ctx *c, int64_t i, int64_t limit, int *n) {
    for (int p = 0; KC_PUNCT_TEXT[p]; p++) {
        const char *text = KC_PUNCT_TEXT[p];
        int k = 0;
        while (text[k] && i + k < limit && c->src[i + k] == text[k]) k++;
        if (text[k] == 0) { *n = k; return KC_PUNCT_CODE[p]; }
    }
    return -1;
}

/* The tokens of an f-string's replacement field src[i, end) (kc_lex_fstring checked it: one
   line, ASCII, no backslash or comment, brackets balanced): names, numbers, plain strings and
   operators; a string prefix stops kc. */
KC_NOINLINE KC_FN void kc_lex_tokens(kc_ctx *c, int64_t i, int64_t end, int line, int col) {
    const char *s = c->src;
    int64_t first = i;
    while (i < end && !c->err) {
        char ch = s[i];
        int at = col + (int)(i - first);
        if (ch == ' ' || ch == '\t') { i++; continue; }
        if (kc_is_alpha(ch)) {
            int64_t j = i;
            while (j < end && (kc_is_alpha(s[j]) || kc_is_digit(s[j]))) j++;
            if (j < end && (s[j] == '\'' || s[j] == '"')) { kc_fail(c, "string prefix", line); return; }
            kc_push_name(c, i, j, line, at);
            i = j;
        } else if (kc_is_digit(ch) || (ch == '.' && i + 1 < end && kc_is_digit(s[i + 1]))) {
            int64_t j = kc_number_end(c, i, end);
            kc_push_tok(c, TK_NUMBER, (int)i, (int)(j - i), line, line, at, 0);
            i = j;
        } else if (ch == '\'' || ch == '"') {
            int64_t j = i + 1;
            while (j < end && s[j] != ch) j++;
            if (j >= end) { kc_fail(c, "string prefix", line); return; }
            kc_push_tok(c, TK_STRING, (int)i, (int)(j + 1 - i), line, line, at, 0);
            i = j + 1;
        } else {
            int n = 0, code = kc_punct_at(c, i, end, &n);
            if (code < 0) { kc_fail(c, "string prefix", line); return; }
            kc_push_tok(c, TK_OP, (int)i, n, line, line, at, code);
            i += n;
        }
    }
}

/* An f-string as frontend.py's _SpelledForms.visit_JoinedStr makes it: f"a{x}b{y}" is the tokens
   ( "a" + str ( x ) + "b" + str ( y ) ), f"{x}" is ( str ( x ) ): the literal parts STRING
   tokens spanning the part and one character either side (kc_decode_string reads between),
   `str` the NAME token synth[0, 3) spells (start -1: kc_frontend_ok tells the tokens apart),
   the brackets and `+` OP tokens of no text, all on the f-string's line. Only a one-line plain
   f or F string with at least one replacement field, each an expression of ASCII tokens without
   a conversion, format spec, `=`, `!`, top-level comma, backslash or comment; no `{{`, `}}`
   or backslash before a brace, and no string next to it (implicit concatenation): anything
   else is left to the reference ("string prefix"). `quote` is at the opening quote; returns
   the end of the string, or -1 after kc_fail. */
KC_FN void kc_lex_tokens(kc_ctx *c, int64_t i, int64_t end, int line, int col);

KC_NOINLINE KC_FN int64_t kc_lex_fstring(kc_ctx *c, int64_t quote, int line, int col) {
    const char *s = c->src;
    int end_line = line;
    int64_t end = kc_lex_string(c, quote, &end_line);
    char q = s[quote];
    int fields = 0;
    if (end < 0 || end_line != line || (quote + 2 < c->len && s[quote + 1] == q && s[quote + 2] == q) ||
        (c->n_toks > 0 && (c->toks[c->n_toks - 1].kind == TK_STRING ||
                           (c->toks[c->n_toks - 1].kind == TK_OP && c->toks[c->n_toks - 1].len == 0)))) return -1;
    for (int64_t j = end; j < c->len && s[j] != '\n'; j++) {  /* a string next: concatenation */
        if (s[j] == ' ' || s[j] == '\t') continue;
        if (s[j] == '\'' || s[j] == '"' || s[j] == '\\' || kc_is_alpha(s[j])) {
            int64_t k = j;
            while (k < c->len && kc_is_alpha(s[k])) k++;
            if (k < c->len && (s[k] == '\'' || s[k] == '"')) return -1;
        }
        break;
    }
    /* first pass: check; second: emit */
    for (int emit = 0; emit < 2; emit++) {
        int parts = 0;
        if (emit) kc_push_tok(c, TK_OP, (int)quote, 0, line, line, col, P_LPAR);
        int64_t i = quote + 1, close = end - 1;
        while (i < close && !c->err) {
            if (s[i] != '{') {  /* a literal part [i, j) */
                int64_t j = i;
                while (j < close && s[j] != '{') {
                    if (s[j] == '}') return -1;
                    if (s[j] == '\\') {
                        if (j + 1 < close && (s[j + 1] == 'N' || s[j + 1] == '{' || s[j + 1] == '}')) return -1;
                        j += 2;
                        continue;
                    }
                    j++;
                }
                if (j > close) return -1;
                if (emit) {
                    if (parts) kc_push_tok(c, TK_OP, (int)i, 0, line, line, col, P_PLUS);
                    kc_push_tok(c, TK_STRING, (int)(i - 1), (int)(j - i + 2), line, line, col, 0);
                }
                parts++;
                i = j;
                continue;
            }
            /* a field {expr}: its end at the '}' outside brackets and nested strings */
            int64_t a = i + 1, j = a;
            int depth = 0;
            if (a < close && s[a] == '{') return -1;
            while (j < close) {
                char ch = s[j];
                if (ch == '\\' || ch == '#' || (unsigned char)ch >= 0x80 || ch == 0) return -1;
                if (ch == '\'' || ch == '"') {
                    int64_t k = j + 1;
                    while (k < close && s[k] != ch && s[k] != '\\' && (unsigned char)s[k] < 0x80) k++;
                    if (k >= close || s[k] != ch || (k == j + 1 && k + 1 < close && s[k + 1] == ch)) return -1;
                    j = k + 1;
                    continue;
                }
                if (ch == '(' || ch == '[' || ch == '{') depth++;
                else if (ch == ')' || ch == ']') { if (--depth < 0) return -1; }
                else if (ch == '}') { if (depth == 0) break; depth--; }
                else if (depth == 0 && (ch == '!' || ch == ':' || ch == '=' || ch == ',')) return -1;
                j++;
            }
            if (j >= close || depth != 0) return -1;
            int blank = 1;
            for (int64_t k = a; k < j; k++) blank = blank && (s[k] == ' ' || s[k] == '\t');
            if (blank) return -1;
            if (emit) {
                if (parts) kc_push_tok(c, TK_OP, (int)i, 0, line, line, col, P_PLUS);
                kc_push_tok(c, TK_NAME, -1, 3, line, line, col, 0);
                kc_push_tok(c, TK_OP, (int)i, 0, line, line, col, P_LPAR);
                int32_t before = c->n_toks;
                kc_lex_tokens(c, a, j, line, col + (int)(a - quote));
                if (!c->err && c->n_toks == before) return -1;
                kc_push_tok(c, TK_OP, (int)j, 0, line, line, col, P_RPAR);
            }
            fields++;
            parts++;
            i = j + 1;
        }
        if (!fields) return -1;
        if (emit) kc_push_tok(c, TK_OP, (int)(end - 1), 0, line, line, col, P_RPAR);
    }
    return c->err ? -1 : end;
}

KC_NOINLINE KC_FN void kc_lex(kc_ctx *c) {
    const char *s = c->src;
    int64_t i = 0, line_start = 0;
    int line = 1, parens = 0, at_line_start = 1, emitted_on_line = 0;
    int indents[KC_MAX_INDENT + 1], alts[KC_MAX_INDENT + 1], n_indents = 1;
    indents[0] = alts[0] = 0;
    c->synth[0] = 's'; c->synth[1] = 't'; c->synth[2] = 'r';  /* the f-strings' `str` (kc_lex_fstring) */
    c->n_synth = 3;
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
            if (j < c->len && (s[j] == '\'' || s[j] == '"') && kc_string_prefix(s + i, (int)(j - i))) {
                int64_t e = j - i == 1 && (s[i] == 'f' || s[i] == 'F') ? kc_lex_fstring(c, j, line, col) : -1;
                if (e < 0) { kc_fail(c, "string prefix", line); return; }
                i = e;
                continue;
            }
            kc_push_name(c, i, j, line, col);
            i = j;
            continue;
        }
        if (kc_is_digit(ch) || (ch == '.' && i + 1 < c->len && kc_is_digit(s[i + 1]))) {
            int64_t j = kc_number_end(c, i, c->len);
            kc_push_tok(c, TK_NUMBER, (int)i, (int)(j - i), line, line, col, 0);
            i = j;
            continue;
        }
        if (ch == '\'' || ch == '"') {
            int end_line = line;
            int64_t j = kc_lex_string(c, i, &end_line);
            if (j < 0) { kc_fail(c, "unterminated string", line); return; }
            if (c->n_toks && c->toks[c->n_toks - 1].kind == TK_OP && c->toks[c->n_toks - 1].len == 0) {
                kc_fail(c, "string prefix", line);  /* after an f-string: implicit concatenation */
                return;
            }
            kc_push_tok(c, TK_STRING, (int)i, (int)(j - i), line, end_line, col, 0);
            for (int64_t k = i; k < j; k++)
                if (s[k] == '\n') line_start = k + 1;
            line = end_line;
            i = j;
            continue;
        }
        int n = 0, code = kc_punct_at(c, i, c->len, &n);
        if (code < 0) { kc_fail(c, "character outside Python's tokens", line); return; }
        if (code == P_LPAR || code == P_LSQB || code == P_LBRACE) parens++;
        if (code == P_RPAR || code == P_RSQB || code == P_RBRACE) {
            if (parens == 0) { kc_fail(c, "unmatched closing bracket", line); return; }
            parens--;
        }
        kc_push_tok(c, TK_OP, (int)i, n, line, line, col, code);
        i += n;
    }
    if (c->err) return;
    if (parens) { kc_fail(c, "unclosed bracket", line); return; }
    if (emitted_on_line && !at_line_start) kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
    while (n_indents > 1) { n_indents--; kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0); }
    kc_push_tok(c, TK_END, (int)c->len, 0, line, line, 0, 0);
}

/* ---- numbers ------------------------------------------------------------------------------------- */

/* A decimal, hex, octal or binary int literal (underscores between digits). 0 on success. */
KC_NOINLINE KC_FN int kc_parse_int(const char *s, int n, int64_t *out, int *too_big) {
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
KC_NOINLINE KC_FN int kc_parse_float(const char *s, int n, int followed, double *out) {
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

#endif /* KILN_KC_LEX_H */
