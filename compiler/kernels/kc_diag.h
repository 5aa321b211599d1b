/* kc_diag.h: the diagnostics of rejected programs (docs/BATCHED_COMPILER.md, "Diagnostics";
 * kc.h includes it after the phases).
 *
 * Takes: a program whose lex or parse stopped kc (kc_compile calls these then).
 * Gives: kc_scan_errors scans the source as CPython's tokenizer reads it for the errors
 * ast.parse reports wherever its parser stops first; kc_close_brackets, kc_cut_before_line,
 * kc_cut_after_header and kc_cut_missing_colon cut or complete the tokens so that a second
 * parse tells whether all before the error parses; kc_diag_scanned then gives the diagnostic
 * (kc_diag: line, column, kind, message).
 * Guarantees: a diagnostic only where kc is sure it is the reference compiler's, word for word;
 * anything else stays "unsupported", and the reference compiler gives the diagnostic.
 */
#ifndef KILN_KC_DIAG_H
#define KILN_KC_DIAG_H

/* After kc_lex stopped at the end of the source inside brackets (the innermost opened on line
   `open_line`): the brackets closed, then NEWLINE, DEDENTs and END, for the parser to tell
   whether all before the end parses. With tokens on later lines than `open_line`, the tokens
   are cut after that line: when those parse, CPython's parser reads past the line (its first
   pass consumes them as the parse of the closed program does) and pegen's last check says
   "'(' was never closed" whatever else it found; else CPython's parser must reach the end. */
KC_NOINLINE KC_FN int kc_close_brackets(kc_ctx *c, int32_t open_line) {
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
KC_NOINLINE KC_FN int kc_scan_errors(kc_ctx *c, int32_t *open_tok) {
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


/* The end of a repaired token stream: a block whose one statement is a bare name (a stand-in
   for what was cut), the dedents of the depth blocks still open, the end. 0 when a push failed. */
KC_FN int kc_push_stand_in_block(kc_ctx *c, int32_t line, int depth) {
    kc_push_tok(c, TK_INDENT, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_NAME, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_NEWLINE, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0);
    while (depth-- > 0) kc_push_tok(c, TK_DEDENT, (int)c->len, 0, line, line, 0, 0);
    kc_push_tok(c, TK_END, (int)c->len, 0, line, line, 0, 0);
    return !c->err;
}
/* A source without tokenizer errors whose parse failed: the first block header (its line
   ends with ':') not followed by an indented block, of def, if, elif, else, while or for. The
   tokens up to its NEWLINE, then a block (INDENT, an empty name, NEWLINE, DEDENT), DEDENTs and
   END, for the parser to tell whether all up to the header parses; found: where CPython says
   "expected an indented block after ..." (the next token on the same indentation, or the end of
   the header's line when the source ends there), the header's kind and line. */
KC_NOINLINE KC_FN int kc_cut_after_header(kc_ctx *c, int32_t *found) {
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
    return kc_push_stand_in_block(c, line, depth);
}

/* A source without tokenizer errors whose parse failed: the first logical line that starts with
   def, if, elif, else, while or for and has no ':' outside brackets (before it, no block header
   without its block). The tokens before its NEWLINE, then ':' and a block, DEDENTs and END, for
   the parser to tell whether all up to there parses; found: where CPython says "expected ':'"
   (its NEWLINE: the first '#', '\n' or the end after the line's last token). */
KC_NOINLINE KC_FN int kc_cut_missing_colon(kc_ctx *c, int32_t *found) {
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
    return kc_push_stand_in_block(c, line, depth);
}

/* The diagnostic of kc_scan_errors's finding (2, 4 or 5) once the parser took all before it */
KC_NOINLINE KC_FN void kc_diag_scanned(kc_ctx *c, int scan, const int32_t *found) {
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

#endif /* KILN_KC_DIAG_H */
