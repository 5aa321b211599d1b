/* kc_parse.h: the parser and the front end's rewrites (compiler/frontend.py; kc.h includes it
 * after kc_lex.h).
 *
 * Takes: the tokens (kc_lex.h), c->pos at the first, and the arena's node and function tables.
 * Gives: kc_parse_module fills c->funcs[0, n_funcs) (name, parameters and their annotated
 * types, result type, body: the first statement node, statements linked through `next`) and
 * c->nodes (kc_node: E_* expressions and S_* statements, with lines, children and nesting
 * depth), with what frontend.py rewrites already rewritten: module-level statements become the
 * `<module>` function, nested defs are hoisted (outer.inner), calls spelled as others (pow,
 * divmod, sorted(key=...), filter and map, float("inf"), enumerate(xs, start=k), s.split(sep=a),
 * ...) become what frontend.py makes of them;
 * kc_inline_constants (called by kc_compile after the parse) puts module constants in place
 * of their names. Annotation types are interned through kc_types.h's kc_tuple_of, kc_dict_of
 * and kc_set_of (declared in kc.h).
 * Guarantees: a program kc's grammar (written above each function) does not cover, nested
 * deeper than KC_MAX_DEPTH, or that frontend.py would treat in a way kc does not copy stops kc
 * with kc_fail; the parse recurses at most KC_MAX_DEPTH levels but for the chains listed in
 * compiler/cuda.py's STACK_GUARD (`**`, `elif`, nested comprehensions).
 */
#ifndef KILN_KC_PARSE_H
#define KILN_KC_PARSE_H

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

/* a child of node k parsed (an expression, or with list an expression list: a tuple without
   parentheses) and k's depth counted; -1 when parsing failed */
KC_FN int32_t kc_expr_list(kc_ctx *c);
KC_FN int32_t kc_child_expr(kc_ctx *c, int32_t k, int list) {
    int32_t v = list ? kc_expr_list(c) : kc_expr(c);
    if (c->err) return -1;
    kc_child_depth(c, k, v);
    return v;
}
KC_FN int32_t kc_postfix(kc_ctx *c, int32_t k);

/* frontend.py's MATH_FUNCTIONS: KC_MATH (its methods: KC_METHODS and KC_STR_METHODS), in
   kc_surface.h */

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
KC_NOINLINE KC_FN int32_t kc_synth_name(kc_ctx *c, const char *word, int numbered, int line) {
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
KC_NOINLINE KC_FN int32_t kc_comp_node(kc_ctx *c, int32_t elt, int32_t target, int32_t iter, int32_t cond, int line) {
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
KC_NOINLINE KC_FN int32_t kc_unary_function(kc_ctx *c, int32_t f, int32_t *var) {
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
KC_NOINLINE KC_FN int32_t kc_view_lists(kc_ctx *c, int32_t args) {
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

KC_FN int kc_is_map_filter(kc_ctx *c, int32_t k);

/* [(body, $i, v) for $i, v in enumerate(xs)] (-$i where `negate`): the list sorted, min and max
   by a key order (frontend.py's _Functionals, extreme_by_key); -1 on failure */
KC_NOINLINE KC_FN int32_t kc_decorated(kc_ctx *c, int32_t body, int32_t var, int32_t xs, int32_t idx_tok, int32_t enum_tok,
                           int negate, int line) {
    int32_t index = kc_name_node(c, idx_tok, line);
    if (negate) {
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
    return kc_comp_node(c, elt, target, en, -1, line);
}

/* max(xs, key=f) -> max([(f(v), -$i, v) for $i, v in enumerate(xs)])[2], min with $i: frontend.py's
   extreme_by_key (the first item of the extreme key, as CPython's). xs a name, a list display, a
   call or a subscript: kc leaves dict views, generators, map and filter to the reference */
KC_NOINLINE KC_FN int32_t kc_extreme_by_key(kc_ctx *c, int32_t call) {
    kc_node *n = &c->nodes[call];
    int line = n->line;
    int32_t xs = n->a, var = -1, key = n->c, name_tok = n->tok;
    int is_max = kc_tok_is(c, &c->toks[n->tok], "max");
    if (n->ival != 1 || n->spare) { kc_fail(c, "min/max with key= and other arguments", line); return -1; }
    int xk = c->nodes[xs].kind;
    if (!(xk == E_NAME || xk == E_LIST || xk == E_INDEX || (xk == E_LISTCOMP && !c->nodes[xs].spare) ||
          (xk == E_CALL && !kc_is_map_filter(c, xs)))) {
        kc_fail(c, "min/max(key=) of something other than a name, a list or a call", line);
        return -1;
    }
    c->n_rewrites++;
    int32_t body = kc_unary_function(c, key, &var);
    int32_t idx_tok = kc_synth_name(c, "$key_i", 1, line), enum_tok = kc_synth_name(c, "enumerate", 0, line);
    if (c->err || body < 0) return -1;
    c->nodes[xs].next = -1;
    int32_t decorated = kc_decorated(c, body, var, xs, idx_tok, enum_tok, is_max, line);
    int32_t best = kc_node_new(c, E_CALL, line), two = kc_node_new(c, E_INT, line), sub = kc_node_new(c, E_INDEX, line);
    if (c->err || decorated < 0) return -1;
    c->nodes[best].tok = name_tok; c->nodes[best].a = decorated; c->nodes[best].ival = 1;
    kc_child_depth(c, best, decorated);
    c->nodes[two].ival = 2;
    c->nodes[sub].a = best; c->nodes[sub].b = two;
    kc_child_depth(c, sub, best); kc_child_depth(c, sub, two);
    return sub;
}

/* sorted(xs, key=f[, reverse=r]) -> [$d[2] for $d in sorted([(f(v), $i, v) for $i, v in
   enumerate(xs)][, reverse=r])] (-$i when r is True): frontend.py's _Functionals */
KC_NOINLINE KC_FN int32_t kc_sorted_by_key(kc_ctx *c, int32_t call) {
    kc_node *n = &c->nodes[call];
    int line = n->line;
    if (kc_tok_is(c, &c->toks[n->tok], "min") || kc_tok_is(c, &c->toks[n->tok], "max")) return kc_extreme_by_key(c, call);
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
    int32_t decorated = kc_decorated(c, body, var, xs, idx_tok, enum_tok, reverse == 1, line);
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
    return n->kind == E_INT || (n->kind == E_FLOAT && n->spare != 2) || n->kind == E_BOOL || n->kind == E_NAME;
}

/* frontend.py's _literal, before module constants are put in place: a number (possibly negated),
   str or bool literal (float("inf") too: _SpelledForms has made it one) */
KC_FN int kc_literal_default(const kc_ctx *c, int32_t k) {
    const kc_node *n = &c->nodes[k];
    if (n->kind == E_UNARY && (n->op == U_NEG || n->op == U_POS)) n = &c->nodes[n->a];
    return n->kind == E_INT || n->kind == E_BOOL || n->kind == E_STR || (n->kind == E_FLOAT && n->spare != 2);
}

/* frontend.py's MATH_CONSTANTS read as `math.NAME` (node k the name math, `name` the attribute,
   not called), in a module function's body, not a nested def's (types.py's e_Attribute): 0 pi, 1 e, 2 tau,
   3 inf; else -1 */
KC_FN int kc_math_constant(kc_ctx *c, int32_t k, const kc_tok *name) {
    static const char *const names[4] = {"pi", "e", "tau", "inf"};
    if (c->nodes[k].kind != E_NAME || c->nodes[k].tok < 0 || !kc_tok_is(c, &c->toks[c->nodes[k].tok], "math") ||
        name->kind != TK_NAME || kc_at_op(c, P_LPAR) || c->in_def != 1)
        return -1;
    for (int i = 0; i < 4; i++)
        if (kc_tok_is(c, name, names[i])) return i;
    return -1;
}

/* a copy of a plain operand (kc_plain_operand), for divmod's second reading */
KC_NOINLINE KC_FN int32_t kc_copy_plain(kc_ctx *c, int32_t k) {
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


/* frontend.py's _SpelledForms: float("inf") of a str literal is the float CPython's float()
   makes of it (a NaN or a ValueError stays a call). kc folds a one-quoted literal without
   backslashes (its text is its value): a sign, then inf or infinity in any case or a float
   literal's digits (kc_parse_float), at the call's line; any other text (spaces, nan, ...) is
   left to the reference. No buffer on the stack: the parse recurses through here. */
KC_FN int kc_float_word(const char *s, int n, const char *word) {
    int i = 0;
    for (; i < n; i++) {
        char ch = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
        if (word[i] == 0 || ch != word[i]) return 0;
    }
    return word[i] == 0;
}

KC_NOINLINE KC_FN int32_t kc_float_of_literal(kc_ctx *c, int32_t call, int32_t str) {
    int line = c->nodes[call].line;
    const kc_tok *t = &c->toks[c->nodes[str].tok];
    const char *s = c->src + t->start + 1;
    int n = t->len - 2, at = 0, negative = 0, plain = t->start >= 0 && n >= 1 && !(n >= 4 && s[0] == s[-1] && s[1] == s[-1]);
    for (int i = 0; i < n && plain; i++) plain = s[i] != '\\' && (unsigned char)s[i] < 0x80 && s[i] > ' ';
    if (plain && (s[0] == '+' || s[0] == '-')) { negative = s[0] == '-'; at = 1; }
    double v = 0.0;
    if (plain && (kc_float_word(s + at, n - at, "inf") || kc_float_word(s + at, n - at, "infinity"))) {
        union { uint64_t u; double d; } inf;
        inf.u = 0x7FF0000000000000ull;
        v = inf.d;
    } else if (!plain || n - at < 1 || !(kc_is_digit(s[at]) || s[at] == '.') || kc_parse_float(s + at, n - at, 0, &v) != 0) {
        kc_fail(c, "float() of this str literal", line);
        return -1;
    }
    int32_t k = kc_node_new(c, E_FLOAT, line);
    if (k < 0) return -1;
    c->nodes[k].fval = negative ? -v : v;
    c->nodes[k].spare = 1;  /* spelled, not a literal: frontend.py rewrites it in functions only */
    return k;
}

/* frontend.py's visit_Expr: the statement `xs.sort(key=f[, reverse=b])` (m the method call) is
   `xs[:] = sorted(xs, key=f[, reverse=b])`, rewritten by kc_sorted_by_key; only where the key
   reads no variable (a name, or a lambda whose body reads its parameter, its comprehensions'
   variables and names it calls: _key_reads; types.py accepts other variables that cannot hold
   a list, which kc leaves to the reference). m becomes the slice target. */
KC_NOINLINE KC_FN int32_t kc_sort_by_key(kc_ctx *c, int32_t m, int line) {
    kc_node *mn = &c->nodes[m];
    int32_t key = mn->c, xs = mn->a;
    if (mn->ival != 0 || c->nodes[xs].kind != E_NAME) { kc_fail(c, "list.sort(key=...) other than of a name, without arguments", line); return -1; }
    if (c->nodes[key].kind == E_LAMBDA) {
        int32_t param = c->nodes[key].tok;
        for (int32_t i = m + 1; i < c->n_nodes; i++)  /* the key's nodes: made after m */
            if (c->nodes[i].kind == E_COMPFOR && c->nodes[c->nodes[i].a].kind != E_NAME) { kc_fail(c, "list.sort key with a comprehension unpacking", line); return -1; }
        for (int32_t i = m + 1; i < c->n_nodes; i++) {
            const kc_node *n = &c->nodes[i];
            if (n->kind != E_NAME || kc_same_name(c, n->tok, param)) continue;
            int own = 0;
            for (int32_t j = m + 1; j < c->n_nodes && !own; j++)
                own = c->nodes[j].kind == E_COMPFOR && kc_same_name(c, c->nodes[c->nodes[j].a].tok, n->tok);
            if (!own) { kc_fail(c, "list.sort key reading a variable", line); return -1; }
        }
    } else if (c->nodes[key].kind != E_NAME) {
        kc_fail(c, "keyword argument key= other than a one-parameter lambda or a name", line);
        return -1;
    }
    int32_t sorted_tok = kc_synth_name(c, "sorted", 0, line);
    int32_t call = kc_node_new(c, E_CALL, line), arg = kc_name_node(c, c->nodes[xs].tok, line);
    if (c->err || call < 0 || arg < 0) return -1;
    c->nodes[call].tok = sorted_tok;
    c->nodes[call].a = arg;
    c->nodes[call].ival = 1;
    c->nodes[call].c = key;
    c->nodes[call].spare = c->nodes[m].spare;
    kc_child_depth(c, call, arg);
    int32_t value = kc_sorted_by_key(c, call);
    int32_t k = kc_node_new(c, S_ASSIGN, line);
    if (c->err || value < 0 || k < 0) return -1;
    mn = &c->nodes[m];
    mn->kind = E_SLICE;
    mn->b = mn->c = mn->d = -1;
    mn->tok = -1;
    mn->spare = 0;
    mn->next = -1;
    c->nodes[k].a = m;
    c->nodes[k].b = value;
    kc_child_depth(c, k, m);
    kc_child_depth(c, k, value);
    return k;
}

/* frontend.py's _SpelledForms: pow(x, y) is x ** y; divmod(a, b) of plain operands is (a // b,
   a % b), both at the call's line */
KC_NOINLINE KC_FN int32_t kc_spelled_pow_divmod(kc_ctx *c, int32_t call) {
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
KC_NOINLINE KC_FN int32_t kc_map_items(kc_ctx *c, int32_t inner, int generator) {
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
/* whether keyword `kw` of `call` (with `count` positional arguments before it) is one that
   frontend.py's _rewrite_keywords makes positional: int's base= or enumerate's start= after one
   positional argument (the builtin's: kc refuses a module name or variable that shadows one,
   kc_no_shadowing_variables, kc_module_names_once), the parameters of split and rsplit (sep,
   maxsplit) in their order after the positional ones; none after another keyword but those
   (`converted`: 1 after split's, 2 after int's or enumerate's, which must be the last) */
KC_FN int kc_positional_keyword(kc_ctx *c, int32_t call, const kc_tok *kw, int count, int converted) {
    const kc_node *n = &c->nodes[call];
    if (n->spare || n->c >= 0 || n->tok < 0 || converted == 2) return 0;
    const kc_tok *name = &c->toks[n->tok];
    if (n->kind == E_CALL)
        return !converted && count == 1 &&
               ((kc_tok_is(c, name, "int") && kc_tok_is(c, kw, "base")) || (kc_tok_is(c, name, "enumerate") && kc_tok_is(c, kw, "start")));
    if (n->kind == E_METHOD && (kc_tok_is(c, name, "split") || kc_tok_is(c, name, "rsplit")))
        return (count == 0 && kc_tok_is(c, kw, "sep")) || (count == 1 && kc_tok_is(c, kw, "maxsplit"));
    return 0;
}

KC_NOINLINE KC_FN int32_t kc_call_args(kc_ctx *c, int32_t call, int *count) {
    int32_t head = -1, tail = -1;
    int converted = 0;
    *count = 0;
    while (!c->err && !kc_at_op(c, P_RPAR)) {
        kc_tok *t = kc_peek(c);
        if (t->kind == TK_NAME && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_EQUAL) {
            kc_next(c);
            kc_next(c);
            if (kc_positional_keyword(c, call, t, *count, converted)) {
                /* frontend.py's _rewrite_keywords: int(s, base=b) is int(s, b), enumerate(xs,
                   start=k) enumerate(xs, k), s.split(sep=a, maxsplit=n) s.split(a, n) */
                int32_t a = kc_expr(c);
                if (c->err) return -1;
                kc_child_depth(c, call, a);
                if (tail < 0) head = a; else c->nodes[tail].next = a;
                tail = a;
                (*count)++;
                converted = 1 + (c->nodes[call].kind == E_CALL);
                if (converted == 2 && !kc_at_op(c, P_RPAR) && !(kc_at_op(c, P_COMMA) && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_RPAR)) {
                    kc_fail(c, "keyword argument other than reverse=True or False", t->line);
                    return -1;
                }
            } else if (converted) {
                kc_fail(c, "keyword argument other than reverse=True or False", t->line);
                return -1;
            } else if (kc_tok_is(c, t, "key") && c->nodes[call].c < 0 &&
                       (c->nodes[call].kind == E_CALL || kc_tok_is(c, &c->toks[c->nodes[call].tok], "sort"))) {
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
KC_NOINLINE KC_FN int32_t kc_slice_part(kc_ctx *c, int32_t parent) {
    if (kc_at_op(c, P_COLON) || kc_at_op(c, P_RSQB)) return -1;
    int32_t e = kc_expr(c);
    kc_child_depth(c, parent, e);
    return e;
}

KC_FN int32_t kc_boolop(kc_ctx *c, int is_or);

/* a loop target: NAME, or NAME (',' NAME)+ [','] (an E_TUPLE of names, linked by next), maybe
   in parentheses, then 'in' */
KC_NOINLINE KC_FN int32_t kc_loop_target(kc_ctx *c, int line) {
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
KC_NOINLINE KC_FN void kc_comp_generators(kc_ctx *c, int32_t comp) {
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
KC_NOINLINE KC_FN int32_t kc_postfix(kc_ctx *c, int32_t k) {
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
            int mc = kc_math_constant(c, k, name);
            if (mc >= 0) {  /* math.pi, math.e, math.tau, math.inf: node k becomes the float */
                static const uint64_t bits[4] = {0x400921FB54442D18ull, 0x4005BF0A8B145769ull, 0x401921FB54442D18ull,
                                                 0x7FF0000000000000ull};
                union { uint64_t u; double d; } v;
                v.u = bits[mc];
                c->nodes[k].kind = E_FLOAT;
                c->nodes[k].fval = v.d;
                c->nodes[k].spare = 2;  /* not a literal: no module constant, no plain operand, not inert */
                continue;
            }
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
            if (!is_math && kc_tok_is(c, name, "copy")) known = 1;  /* list.copy (vm/surface.py's METHODS) */
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
/* Display node k's first item e turns it into a comprehension: `spare` 4 makes it a set's, and
   the display must end with `close`. */
KC_NOINLINE KC_FN int32_t kc_comprehension(kc_ctx *c, int32_t k, int32_t e, int16_t spare, int close,
                               const char *what) {
    c->nodes[k].kind = E_LISTCOMP;
    if (spare) c->nodes[k].spare = spare;
    c->nodes[k].a = e;
    kc_child_depth(c, k, e);
    kc_comp_generators(c, k);
    if (!kc_expect_op(c, close, what)) return -1;
    return kc_postfix(c, k);
}

/* Item e appended to display node k, whose last item is *tail. */
KC_FN void kc_display_item(kc_ctx *c, int32_t k, int32_t *tail, int32_t e) {
    kc_child_depth(c, k, e);
    if (*tail < 0) c->nodes[k].a = e; else c->nodes[*tail].next = e;
    *tail = e;
    c->nodes[k].ival++;
}

KC_NOINLINE KC_FN int32_t kc_atom(kc_ctx *c) {
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
    int paren_callee = 0;
    if (t->kind == TK_OP && t->op == P_LPAR && c->pos + 3 < c->n_toks) {
        const kc_tok *nm = &c->toks[c->pos + 1], *rp = &c->toks[c->pos + 2], *lp = &c->toks[c->pos + 3];
        if (nm->kind == TK_NAME && !kc_is_keyword(c, nm) && rp->kind == TK_OP && rp->op == P_RPAR &&
            lp->kind == TK_OP && lp->op == P_LPAR && nm->line == t->line && lp->line == t->line) {
            /* `(int)(x)`: CPython's Call of the name, as `int(x)` but for the call's column (the
               parenthesis'): such a program gets no kc diagnostic, nor kc_shadow_ok's token scan */
            kc_next(c);
            t = kc_peek(c);
            paren_callee = c->paren_callee = 1;
        }
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
        if (paren_callee) kc_next(c);  /* its `)` */
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
            if (kc_tok_is(c, t, "next") && count == 2 && !c->nodes[k].spare && c->nodes[k].c < 0 &&
                c->nodes[args].kind == E_LISTCOMP && c->nodes[args].spare == 1 && kc_literal_default(c, c->nodes[args].next))
                c->nodes[k].op = KC_NEXT_OP;  /* frontend.py's _rewrite_generators allows this generator */
            if (kc_tok_is(c, t, "float") && count == 1 && !c->nodes[k].spare && c->nodes[k].c < 0 && c->nodes[args].kind == E_STR) {
                k = kc_float_of_literal(c, k, args);
                if (c->err) return -1;
                return kc_postfix(c, k);
            }
            if (count == 2 && !c->nodes[k].spare && c->nodes[k].c < 0 &&
                (kc_tok_is(c, t, "pow") || (kc_tok_is(c, t, "divmod") && kc_plain_operand(c, args) && kc_plain_operand(c, c->nodes[args].next)))) {
                k = kc_spelled_pow_divmod(c, k);
                if (c->err) return -1;
                return kc_postfix(c, k);
            }
            int short_circuit = kc_tok_is(c, t, "all") || kc_tok_is(c, t, "any");
            if (count == 1 && c->nodes[k].c < 0 && (!c->nodes[k].spare || kc_tok_is(c, t, "sorted")) && kc_is_map_filter(c, args) &&
                kc_tok_among(c, t, KC_MAP_CONSUMERS)) {
                /* frontend.py's _SpelledForms: sum(map(f, xs)) is sum([f(v) for v in xs]) (min,
                   max, sorted, set; all and any a generator) */
                c->nodes[k].a = args = kc_map_items(c, args, short_circuit);
                if (c->err) return -1;
            }
            int extreme = (kc_tok_is(c, t, "min") || kc_tok_is(c, t, "max")) && c->nodes[k].c >= 0;
            if (kc_tok_among(c, t, KC_VIEW_CONSUMERS) && !extreme) {  /* max(xs, key=f) returns first */
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
        if (kc_at_kw(c, "for")) {  /* a generator expression: only as a consumer's sole argument
                                       (or next's first: the checker refuses it anywhere else) */
            k = kc_node_new(c, E_LISTCOMP, t->line);
            if (k < 0) return -1;
            c->nodes[k].a = first;
            c->nodes[k].spare = 1;
            kc_child_depth(c, k, first);
            kc_comp_generators(c, k);
            if (!kc_expect_op(c, P_RPAR, "generator expression syntax")) return -1;
            if (!kc_at_op(c, P_RPAR) && !kc_at_op(c, P_COMMA)) { kc_fail(c, "generator expression", t->line); return -1; }
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
            if (kc_at_kw(c, "for") && tail < 0)
                return kc_comprehension(c, k, e, 0, P_RSQB, "list comprehension syntax");
            kc_display_item(c, k, &tail, e);
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
            if (kc_at_kw(c, "for") && tail < 0)  /* a set comprehension: a list one, made a set */
                return kc_comprehension(c, k, e, 4, P_RBRACE, "set comprehension syntax");
            kc_display_item(c, k, &tail, e);
            if (!kc_at_op(c, P_COMMA)) break;
            kc_next(c);
        }
        if (!kc_expect_op(c, P_RBRACE, "set display syntax")) return -1;
        return kc_postfix(c, k);
    }
    kc_fail(c, "expression syntax", t->line);
    return -1;
}

KC_NOINLINE KC_FN int32_t kc_binary(kc_ctx *c, int kind, int op, int32_t left, int32_t right) {
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
KC_NOINLINE KC_FN int32_t kc_power(kc_ctx *c) {
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
KC_NOINLINE KC_FN int32_t kc_factor(kc_ctx *c) {
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

KC_NOINLINE KC_FN int32_t kc_binary_level(kc_ctx *c, int level) {
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

KC_NOINLINE KC_FN int32_t kc_comparison(kc_ctx *c) {
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
KC_NOINLINE KC_FN int32_t kc_inversion(kc_ctx *c) {
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
KC_NOINLINE KC_FN int32_t kc_boolop(kc_ctx *c, int is_or) {
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
KC_NOINLINE KC_FN int32_t kc_expr(kc_ctx *c) {
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
KC_NOINLINE KC_FN int32_t kc_expr_list(kc_ctx *c) {
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

KC_NOINLINE KC_FN int kc_annotation_at(kc_ctx *c, int level) {
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

KC_NOINLINE KC_FN int kc_annotation(kc_ctx *c) {
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
KC_NOINLINE KC_FN void kc_local_import(kc_ctx *c, int line) {
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
KC_NOINLINE KC_FN int32_t kc_simple_stmt(kc_ctx *c) {
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
                c->nodes[k].a = kc_child_expr(c, k, 1);
                if (c->err) return -1;
            }
        } else if (kc_tok_is(c, t, "assert")) {
            kc_next(c);
            k = kc_node_new(c, S_ASSERT, line);
            c->nodes[k].a = kc_child_expr(c, k, 0);
            if (c->err) return -1;
            if (kc_at_op(c, P_COMMA)) {
                kc_next(c);
                c->nodes[k].b = kc_child_expr(c, k, 0);
                if (c->err) return -1;
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
                c->nodes[k].b = kc_child_expr(c, k, 1);
                if (c->err) return -1;
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
        } else if (c->nodes[first].kind == E_METHOD && c->nodes[first].c >= 0) {
            k = kc_sort_by_key(c, first, line);  /* xs.sort(key=f) */
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
KC_NOINLINE KC_FN int32_t kc_simple_stmts(kc_ctx *c, int32_t *last) {
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

KC_NOINLINE KC_FN int32_t kc_if_tail(kc_ctx *c, kc_tok *t) {
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

/* A loop's `:`, its body (returned) and its `else:` block (*orelse, -1 when it has none). */
KC_NOINLINE KC_FN int32_t kc_loop_blocks(kc_ctx *c, const char *what, int32_t *orelse) {
    kc_expect_op(c, P_COLON, what);
    int32_t body = kc_block(c);
    *orelse = -1;
    if (c->err) return -1;
    if (kc_at_kw(c, "else")) {
        kc_next(c);
        if (kc_expect_op(c, P_COLON, "else syntax")) *orelse = kc_block(c);
    }
    return body;
}

KC_NOINLINE KC_FN int32_t kc_statement(kc_ctx *c, int32_t *last) {
    kc_tok *t = kc_peek(c);
    int32_t k;
    if (t->kind == TK_NAME && kc_tok_is(c, t, "if")) {
        kc_next(c);
        k = kc_if_tail(c, t);
    } else if (t->kind == TK_NAME && kc_tok_is(c, t, "while")) {
        kc_next(c);
        k = kc_node_new(c, S_WHILE, t->line);
        int32_t test = kc_expr(c), orelse;
        int32_t body = kc_loop_blocks(c, "while syntax", &orelse);
        if (c->err) return -1;
        c->nodes[k].a = test; c->nodes[k].b = body; c->nodes[k].c = orelse;
        kc_child_depth(c, k, test); kc_child_depth(c, k, body); kc_child_depth(c, k, orelse);
        c->nodes[k].end_line = c->nodes[orelse >= 0 ? orelse : body].end_line;
    } else if (t->kind == TK_NAME && kc_tok_is(c, t, "for")) {
        kc_next(c);
        k = kc_node_new(c, S_FOR, t->line);
        int32_t target = kc_loop_target(c, t->line);
        if (c->err) return -1;
        int32_t it = kc_expr(c), orelse;
        int32_t body = kc_loop_blocks(c, "for syntax", &orelse);
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
KC_NOINLINE KC_FN int32_t kc_block(kc_ctx *c) {
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
KC_NOINLINE KC_FN int kc_mark_stores(kc_ctx *c, int32_t lo, int32_t hi, int16_t v) {
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
KC_NOINLINE KC_FN void kc_hoist_check(kc_ctx *c, int32_t base, int32_t h) {
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
   (a sign only before an int or float literal; not a float folded from float("..."), spare 1,
   which is a call at module level, where the reference leaves the program) */
KC_NOINLINE KC_FN int kc_literal_scalar(const kc_ctx *c, int32_t k) {
    const kc_node *n = &c->nodes[k];
    switch (n->kind) {
    case E_INT: case E_STR: case E_BOOL: return 1;
    case E_FLOAT: return !n->spare;
    case E_UNARY:
        return (n->op == U_NEG || n->op == U_POS) &&
               (c->nodes[n->a].kind == E_INT || (c->nodes[n->a].kind == E_FLOAT && !c->nodes[n->a].spare));
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
KC_NOINLINE KC_FN void kc_parse_def(kc_ctx *c, int32_t slot) {
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
    f->typed_by_caller = 0;
    f->opt = 0;
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
        c->bare_list_ok = c->in_signature = 1;  /* `-> list`: list[?] too (types.py's annotation_type) */
        kc_tok *o = kc_peek(c);
        if (o->kind == TK_NAME && kc_tok_is(c, o, "Optional") && kc_peek2(c)->kind == TK_OP && kc_peek2(c)->op == P_LSQB) {
            /* `-> Optional[T]` (kc_func.opt) */
            if (!kc_annotation_bound(c, o)) return;
            kc_next(c);
            kc_next(c);
            c->bare_list_ok = 0;
            f->ret = kc_annotation_at(c, 1);
            if (c->err || !kc_expect_op(c, P_RSQB, "annotation syntax")) return;
            kc_tok *after = kc_peek(c);
            if (after->kind == TK_OP && (after->op == P_LSQB || after->op == P_DOT || after->op == P_VBAR)) {
                kc_fail(c, "type annotation other than int, float, bool, str, list[...], tuple[...] or None", o->line);
                return;
            }
            f->opt = 1;
        } else {
            f->ret = kc_annotation(c);
        }
        c->bare_list_ok = c->in_signature = 0;
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
        if (!value) { f->ret = T_NONE; f->opt = 0; }
    }
    for (int i = 0; i < c->n_funcs && !slot; i++)
        if (c->funcs[i].outer_tok < 0 && kc_same_name(c, c->funcs[i].name_tok, f->name_tok)) { kc_fail(c, "redefinition of a function", t->line); return; }
}

/* module: (funcdef | 'from' 'typing' 'import' NAME (',' NAME)* | STRING)* END
   funcdef: 'def' NAME '(' [param (',' param)* [',']] ')' ['->' annotation] ':' block
   param: NAME [':' annotation] */
/* frontend.py binds each module name one way (a def, an import or a constant): a later binding
   of another kind would replace the first, which kc leaves to the reference */

/* A variable named like a builtin or a module function shadows it in its whole function
   (types.py's is_local), and the front end's rewrites stand back from a function with such a
   variable (frontend.py's _REWRITTEN, with filter, map and tuple): kc leaves those functions to
   the reference; but one named like a module function (no builtin) that its function never
   calls (a call of it there is the reference's "call of the variable") is a plain variable. */
KC_FN int kc_is_rewritten(const kc_ctx *c, const kc_tok *t);

/* Whether f may bind `name` (a builtin's, in KC_BUILTINS or KC_REWRITTEN) as a variable or a
   parameter: types.py's is_local makes it a plain variable in the whole function; and where the
   name is one of _REWRITTEN, frontend.py's _rewrite_forms leaves the function without
   _SpelledForms, _rewrite_generators and _Functionals, so kc takes the function only where its
   tokens show nothing those rewrite (kc's parse made the rewrites already): no call of the
   name itself, of float, divmod, pow, map, filter, next, all, any or tuple, no sorted(list(..)) or
   sum(range(..)), no keyword argument, lambda, generator expression, f-string, or .keys(),
   .values(), .items() or .sort(; and no nested function in the module. */
KC_TABLE char *const KC_SHADOW_SPELLED[] = {"float", "divmod", "pow", "map", "filter", "next", "all", "any", "tuple", 0};
KC_TABLE char *const KC_SHADOW_VIEWS[] = {"keys", "values", "items", "sort", 0};

KC_NOINLINE KC_FN int kc_shadow_ok(kc_ctx *c, const kc_func *f, int32_t name) {
    const char *const *spelled = KC_SHADOW_SPELLED, *const *views = KC_SHADOW_VIEWS;
    if (c->paren_callee) return 0;  /* `(sum)(xs)`: a call its tokens do not show */
    if (f->def_tok < 0 || f->outer_tok >= 0 || !kc_tok_is(c, &c->toks[f->def_tok], "def")) return 0;
    for (int32_t i = 0; i < c->n_funcs; i++)
        if (c->funcs[i].outer_tok >= 0) return 0;
    int depth = 0, body = 0;
    uint64_t round = 0;  /* bit d: the bracket open at depth d is a parenthesis */
    for (int32_t i = f->def_tok; i < c->n_toks; i++) {
        const kc_tok *t = &c->toks[i], *u = &c->toks[i + 1 < c->n_toks ? i + 1 : i];
        int call = u->kind == TK_OP && u->op == P_LPAR;
        if (t->kind == TK_END) break;
        if (t->kind == TK_INDENT) body++;
        if (t->kind == TK_DEDENT && --body <= 0) break;
        if (t->kind == TK_NEWLINE && body == 0 && u->kind != TK_INDENT) break;  /* a one-line def's end */
        if (t->kind == TK_OP) {
            if (t->op == P_LPAR || t->op == P_LSQB || t->op == P_LBRACE) {
                if (depth >= 64) return 0;
                round = (round & ~((uint64_t)1 << depth)) | ((uint64_t)(t->op == P_LPAR) << depth);
                depth++;
            } else if (t->op == P_RPAR || t->op == P_RSQB || t->op == P_RBRACE) {
                if (depth > 0) depth--;
            } else if (t->op == P_EQUAL && depth > 0) {
                return 0;  /* a keyword argument */
            } else if (t->op == P_DOT && u->kind == TK_NAME && kc_tok_among(c, u, views)) {
                return 0;
            }
            continue;
        }
        if (t->kind != TK_NAME) continue;
        if (t->start < 0 || kc_tok_is(c, t, "lambda")) return 0;  /* an f-string's str, a lambda */
        if (kc_tok_is(c, t, "for") && depth > 0 && (round >> (depth - 1) & 1)) return 0;  /* a generator expression */
        if (i > f->def_tok + 1 && call && (kc_same_name(c, i, name) || kc_tok_among(c, t, spelled))) return 0;
        if (call && i + 2 < c->n_toks &&
            ((kc_tok_is(c, t, "sorted") && kc_tok_is(c, &c->toks[i + 2], "list")) ||
             (kc_tok_is(c, t, "sum") && kc_tok_is(c, &c->toks[i + 2], "range"))))
            return 0;
    }
    return 1;
}

KC_NOINLINE KC_FN void kc_no_shadowing_variables(kc_ctx *c) {
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        if (!kc_mark_stores(c, f->node_begin, f->node_end, 1)) kc_fail(c, "nested assignment target", f->line);
        for (int32_t k = f->node_begin; k < f->node_end && !c->err; k++) {
            const kc_node *n = &c->nodes[k];
            if (n->kind != E_NAME || !n->check || n->tok < 0) continue;
            const kc_tok *t = &c->toks[n->tok];
            if (kc_is_builtin(c, n->tok) || kc_is_rewritten(c, t)) {
                if (!kc_shadow_ok(c, f, n->tok)) kc_fail(c, "a variable named like a function", n->line);
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

/* KC_REWRITTEN (frontend.py's _REWRITTEN): kc_surface.h */
KC_FN int kc_is_rewritten(const kc_ctx *c, const kc_tok *t) {
    return kc_tok_among(c, t, KC_REWRITTEN);
}

KC_NOINLINE KC_FN void kc_module_names_once(kc_ctx *c) {
    kc_no_shadowing_variables(c);
    for (int32_t i = 0; i < c->n_mconst && !c->err; i++)
        if (kc_is_rewritten(c, &c->toks[c->mconst_tok[i]]) || kc_is_builtin(c, c->mconst_tok[i]))  /* `int = 3`: int annotations then name it */
            kc_fail(c, "a module constant named like a builtin", c->toks[c->mconst_tok[i]].line);
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
KC_NOINLINE KC_FN void kc_module_function(kc_ctx *c) {
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
    f->typed_by_caller = 0;
    f->opt = 0;
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
KC_NOINLINE KC_FN void kc_effects_see_final_names(kc_ctx *c) {
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

KC_NOINLINE KC_FN void kc_parse_module(kc_ctx *c) {
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

#endif /* KILN_KC_PARSE_H */
