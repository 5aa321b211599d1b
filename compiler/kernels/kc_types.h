/* kc_types.h: type checking and definite assignment (compiler/types.py; kc.h includes it after
 * kc_parse.h).
 *
 * Takes: the parsed and rewritten program (kc_parse.h), the argument types the caller gave
 * (kc_apply_spec), and a type variable for each parameter nothing typed.
 * Gives: kc_check_block, run by kc_compile on each function in types.py's order (a call of a
 * function not checked yet suspends the caller with KC_SUSPENDED and checks the callee first),
 * binds each name to a kc_var (c->vars[var_begin, var_end) per function, its type) and gives
 * every expression node its type (kc_node.ty); kc_resolve, kc_final and kc_concrete finish
 * them (type variables bound, the rest int, as types.py's finish). kc_flow_block marks the
 * reads that may find a variable unbound (kc_node.check, kc_var.needs_check: lowering guards
 * them with UnboundLocalError), as types.py's mark_unbound_reads.
 * Guarantees: a program kc accepts is typed exactly as types.py types it; anything types.py
 * would type otherwise, or reject (a type error), stops kc with kc_fail, and the reference
 * compiler gives the diagnostic. Recursion over a type's structure is capped by
 * KC_MAX_TYPE_NESTING, over the tree by the parser's KC_MAX_DEPTH.
 */
#ifndef KILN_KC_TYPES_H
#define KILN_KC_TYPES_H

/* ---- check: types ------------------------------------------------------------------------------- */

/* KC_BUILTINS: kc_surface.h (vm/surface.py's BUILTINS) */
KC_FN int kc_is_builtin(const kc_ctx *c, int32_t tok) {
    return kc_tok_among(c, &c->toks[tok], KC_BUILTINS);
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
        if (!c->vars[v].hidden && !c->vars[v].renamed && kc_same_name(c, c->vars[v].name_tok, tok)) return v;
    return -1;
}

KC_FN int32_t kc_new_var(kc_ctx *c, int32_t tok, int type) {
    if (c->n_vars >= c->cap_vars) { kc_fail(c, "too many variables for the arena", c->toks[tok].line); return -1; }
    kc_var *v = &c->vars[c->n_vars];
    v->name_tok = tok; v->type = type; v->slot = -1; v->flag = -1; v->needs_check = 0;
    v->hidden = v->active = v->renamed = 0;
    v->pos = v->occ = c->n_vars;
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
KC_NOINLINE KC_FN int32_t kc_tuple_of(kc_ctx *c, int32_t n, const int32_t *args) {
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
KC_NOINLINE KC_FN int32_t kc_resolve_at(kc_ctx *c, int32_t t, int level) {
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
KC_NOINLINE KC_FN int kc_occurs(const kc_ctx *c, int32_t v, int32_t t, int level) {
    int32_t base = t % KC_LIST;
    if (base == v) return 1;
    if (!kc_is_compound(base) || level > KC_MAX_TYPE_NESTING) return level > KC_MAX_TYPE_NESTING;
    for (int32_t i = 0; i < kc_tuple_n(c, base); i++)
        if (kc_occurs(c, v, kc_tuple_arg(c, base, i), level + 1)) return 1;
    return 0;
}

/* whether the resolved type t holds no type variable (types.py's is_concrete) */
KC_NOINLINE KC_FN int kc_concrete(const kc_ctx *c, int32_t t, int level) {
    int32_t base = t % KC_LIST;
    if (kc_is_tvar(base) || level > KC_MAX_TYPE_NESTING) return 0;
    if (kc_is_compound(base))
        for (int32_t i = 0; i < kc_tuple_n(c, base); i++)
            if (!kc_concrete(c, kc_tuple_arg(c, base, i), level + 1)) return 0;
    return 1;
}

/* types.py's _check_sets for a resolved type (nested: inside a container, or a function's) */
KC_NOINLINE KC_FN int kc_sets_ok(const kc_ctx *c, int32_t t, int nested) {
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
KC_NOINLINE KC_FN int kc_unify_at(kc_ctx *c, int32_t a, int32_t b, int level) {
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
KC_NOINLINE KC_FN int32_t kc_final_at(kc_ctx *c, int32_t t, int level) {
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
KC_NOINLINE KC_FN int32_t kc_descriptor(const kc_ctx *c, int32_t t, int32_t *out, int32_t at, int level) {
    if (t & KC_OPT) {  /* Optional[t]: its code, then t's (vm.values.Type.descriptor) */
        if (out && at < KC_MAX_TYPE_WORDS) out[at] = c->cfg->type_code[8];
        t &= ~KC_OPT;
        at++;
    }
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

/* whether the concrete type t holds a float or a dict (Type.has_float, "dict[" in show(t)); 1
   too where its items outgrow a small work list (no recursion: kc_sets_ok bounds the nesting) */
KC_FN int kc_holds_float_or_dict(const kc_ctx *c, int32_t t) {
    int32_t todo[16];
    int n = 0, seen = 0;
    todo[n++] = t;
    while (n) {
        int32_t base = todo[--n] % KC_LIST;
        if (base == T_FLOAT || kc_is_dict(base) || ++seen > 1024) return 1;
        if (kc_is_compound(base))
            for (int32_t i = 0; i < kc_tuple_n(c, base); i++) {
                if (n >= 16) return 1;
                todo[n++] = kc_tuple_arg(c, base, i);
            }
    }
    return 0;
}

/* a number literal's node k (E_INT or E_FLOAT, or `-` of one) as a `want` (T_INT or T_FLOAT),
   as types.py's _literal_as takes it: 0 where it is not exactly one; else 1, and with `apply`
   the literal made one (its value kept); *changes counts the literals of the other kind */
KC_NOINLINE KC_FN int kc_number_as(kc_ctx *c, int32_t k, int want, int apply, int *changes) {
    kc_node *n = &c->nodes[k];
    if (n->kind == E_UNARY && n->op == U_NEG) n = &c->nodes[n->a];
    if (n->kind == E_INT && want == T_INT) return 1;
    if (n->kind == E_FLOAT && want == T_FLOAT) return 1;
    if (n->kind == E_INT && want == T_FLOAT) {  /* float(v) == v */
        double d = (double)n->ival;
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || (int64_t)d != n->ival) return 0;
        ++*changes;
        if (apply) { n->kind = E_FLOAT; n->fval = d; }
        return 1;
    }
    if (n->kind == E_FLOAT && want == T_INT) {  /* float(v).is_integer(), abs(v) < 2**63 */
        double d = n->fval;
        if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0) || (double)(int64_t)d != d) return 0;
        ++*changes;
        if (apply) { n->kind = E_INT; n->ival = (int64_t)d; }
        return 1;
    }
    return 0;
}

KC_FN int kc_list_len(const kc_ctx *c, int32_t k);

/* types.py's _literal_as for a flat display: `xs == [1, 3, 2.0]` (a single == or !=) where xs is
   a list of ints or floats, or a tuple of them, has its numbers made xs's kind where each is
   exactly one (CPython compares the values); kc takes a display of number literals only (its
   type then is xs's), before the display is typed. Anything else is left as it is. */
KC_FN void kc_literal_as(kc_ctx *c, int32_t k, int target) {
    kc_node *d = &c->nodes[k];
    if (c->err || !(d->kind == E_LIST || d->kind == E_TUPLE) || d->a < 0) return;
    int is_list = d->kind == E_LIST && kc_is_list(target) && target - KC_LIST < KC_TVAR0;
    if (!is_list && !(d->kind == E_TUPLE && kc_is_tuple(target) && kc_tuple_n(c, target) == kc_list_len(c, d->a))) return;
    int changes = 0;
    for (int apply = 0; apply < 2; apply++) {
        int32_t i = 0;
        for (int32_t e = d->a; e >= 0; e = c->nodes[e].next, i++) {
            int want = is_list ? target - KC_LIST : kc_resolve(c, kc_tuple_arg(c, target, i));
            if (want != T_INT && want != T_FLOAT) return;
            if (!kc_number_as(c, e, want, apply, &changes)) return;
        }
        if (!changes) return;  /* already of xs's type: compared as it is */
    }
}

/* types.py's maybe_rebind: `NAME = value` as a top-level statement of the function (the caller
   checked that), where NAME's variable and the value have known types that differ, starts a new
   variable of the name; reads before keep the old one. The new variable takes the old one's
   place in the slots' order (FunctionInfo.variables keeps the key's position), the old one
   goes to the end (`NAME$k`, appended). Not where a comprehension's variable has the name
   (kc cannot tell which one types.py's variables map holds). */
KC_FN void kc_maybe_rebind(kc_ctx *c, int32_t target, int t) {
    int32_t tok = c->nodes[target].tok, v = kc_lookup(c, tok);
    if (v < 0 || c->vars[v].hidden || c->vars[v].active) return;
    int vt = kc_resolve(c, c->vars[v].type), rt = kc_resolve(c, t);
    if (vt == rt || vt == T_UNKNOWN || rt == T_UNKNOWN || vt == T_NONE || rt == T_NONE ||
        !kc_concrete(c, vt, 0) || !kc_concrete(c, rt, 0))
        return;
    for (int32_t w = c->fn->var_begin; w < c->n_vars; w++)
        if (c->vars[w].hidden && kc_same_name(c, c->vars[w].name_tok, tok)) return;
    int32_t n = kc_new_var(c, tok, rt);
    if (n < 0) return;
    int32_t at = c->vars[v].pos;
    c->vars[v].renamed = 1;
    c->vars[n].pos = at;
    c->vars[at].occ = n;
    c->vars[v].pos = n;
    c->vars[n].occ = v;
}

/* bind: a store to a name. A variable keeps one type (types.py's maybe_rebind, which starts a
   new variable for a top-level assignment of another type, is kc_maybe_rebind, before). */
KC_NOINLINE KC_FN void kc_bind(kc_ctx *c, int32_t target, int type) {
    kc_node *n = &c->nodes[target];
    int32_t v = kc_lookup(c, n->tok);
    if (v < 0) {
        /* a variable named like a module function its function never calls: kc_no_shadowing_variables */
        if (kc_is_builtin(c, n->tok) && !kc_shadow_ok(c, c->fn, n->tok)) { kc_fail(c, "assignment to a function's name", n->line); return; }
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
KC_NOINLINE KC_FN int kc_truth_type(kc_ctx *c, int32_t k) {
    if (c->nodes[k].op == KC_NAME_ERROR_OP || kc_name_error_call(c, k)) return T_BOOL;
    int t = kc_type_expr(c, k, KC_ALLOW_NONE);
    return t;
}

/* types.py's binop_type for the operands kc covers */
KC_NOINLINE KC_FN int kc_binop_type(kc_ctx *c, int32_t node, int op, int lt, int rt, int32_t right) {
    if (c->err) return T_UNKNOWN;
    int line = c->nodes[node].line;
    lt = kc_resolve(c, lt);
    rt = kc_resolve(c, rt);
    if (kc_is_set(lt) && kc_is_set(rt) && (op == B_BITAND || op == B_BITOR || op == B_SUB || op == B_BITXOR) &&
        c->nodes[node].kind == E_BINOP && kc_unify(c, lt, rt)) {  /* a new set (types.py's kset_op) */
        c->nodes[node].spare = 1;
        return kc_resolve(c, lt);
    }
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
KC_FN void kc_bind_loop_target(kc_ctx *c, kc_node *s, int elem, int comp);

/* a comprehension's generators from g on (types.py's comprehension scope): each one's iterable
   typed and its target bound as a hidden variable, then its conditions typed as truth values */
KC_NOINLINE KC_FN void kc_type_generators(kc_ctx *c, int32_t g) {
    for (; g >= 0 && !c->err; g = c->nodes[g].next) {
        kc_node *gn = &c->nodes[g];
        int et = kc_iteration(c, gn);
        if (c->err) return;
        kc_bind_loop_target(c, gn, et, 1);
        if (c->err) return;
        for (int32_t cond = gn->c; cond >= 0 && !c->err; cond = c->nodes[cond].next) kc_truth_type(c, cond);
    }
}
KC_FN int kc_list_len(const kc_ctx *c, int32_t k);

KC_FN int kc_is_builtin_call(kc_ctx *c, int32_t k, const char *name) {
    const kc_node *n = &c->nodes[k];
    return n->kind == E_CALL && kc_find_func(c, n->tok) < 0 && kc_tok_is(c, &c->toks[n->tok], name);
}

/* range(...)'s arguments: 1 to 3 ints */
KC_NOINLINE KC_FN void kc_range_args(kc_ctx *c, kc_node *it) {
    if (it->ival < 1 || it->ival > 3) { kc_fail(c, "range() with the wrong number of arguments", it->line); return; }
    for (int32_t a = it->a; a >= 0 && !c->err; a = c->nodes[a].next)
        if (!kc_intlike(kc_type_expr(c, a, 0)) && !c->err) kc_fail(c, "range() of a non-int (a type error)", it->line);
}

/* types.py's tuple_items: a tuple whose items share one type, where its items are iterated or
   consumed (for, comprehensions, list, sorted, min, max, set, sum, enumerate, zip), is the list
   of its items, made when the value is (kas_list: UNPACK_TUPLE n; LIST_NEW n after it). kc takes
   it of a name or a tuple display (the node's pow_float holds n, its type becomes the list's); any
   other tuple `t` is returned as it is (a display of items of several types too: types.py makes
   it a list display, kdisplay_list) */
KC_NOINLINE KC_FN int kc_tuple_items(kc_ctx *c, int32_t k, int t) {
    if (c->err) return T_UNKNOWN;
    t = kc_resolve(c, t);
    if (!kc_is_tuple(t) || (c->nodes[k].kind != E_NAME && c->nodes[k].kind != E_TUPLE)) return t;
    int32_t n = kc_tuple_n(c, t), first = kc_resolve(c, kc_tuple_arg(c, t, 0));
    for (int32_t i = 0; i < n; i++) {
        int32_t a = kc_resolve(c, kc_tuple_arg(c, t, i));
        if (a != first || !kc_concrete(c, a, 0)) return t;
    }
    if (first / KC_LIST + 1 >= KC_MAX_LIST_DEPTH) return t;
    c->nodes[k].pow_float = n;
    c->nodes[k].ty = first + KC_LIST;
    return first + KC_LIST;
}

/* types.py's sequence: a str or list operand; range(...) here is materialised as a list[int]
   (the call's op 1: lower.py's b_range) */
KC_NOINLINE KC_FN int kc_sequence(kc_ctx *c, int32_t k) {
    if (kc_is_builtin_call(c, k, "range")) {
        kc_range_args(c, &c->nodes[k]);
        c->nodes[k].op = 1;
        c->nodes[k].ty = T_INT + KC_LIST;
        return T_INT + KC_LIST;
    }
    int t = kc_tuple_items(c, k, kc_type_expr(c, k, 0));
    if (!c->err && !kc_is_seq(t)) kc_fail(c, "subscript or iteration of something other than a str or list", c->nodes[k].line);
    return t;
}

/* types.py's sequence(allow_set=True): a set is its sorted list */
KC_NOINLINE KC_FN int kc_sequence_set(kc_ctx *c, int32_t k) {
    if (kc_is_builtin_call(c, k, "range")) return kc_sequence(c, k);
    int t = kc_tuple_items(c, k, kc_type_expr(c, k, 0));
    if (c->err) return T_UNKNOWN;
    if (kc_is_set(t)) return kc_tuple_arg(c, t, 0) + KC_LIST;
    if (!kc_is_seq(t)) { kc_fail(c, "a sequence other than a str, list or set", c->nodes[k].line); return T_UNKNOWN; }
    return t;
}

/* types.py's is_local: the function binds the name of tok (a parameter, or a Store anywhere in
   it); 1 too where kc cannot tell */
KC_FN int kc_is_local(kc_ctx *c, int32_t tok) {
    kc_func *f = c->fn;
    if (kc_lookup(c, tok) >= 0) return 1;
    c->scan_work += f->node_end - f->node_begin;
    if (c->scan_work > 20000000) { kc_fail(c, "too many builtin names to look up in a large function", f->line); return 1; }
    if (!kc_mark_stores(c, f->node_begin, f->node_end, 1)) { kc_mark_stores(c, f->node_begin, f->node_end, 0); return 1; }
    int bound = kc_binds(c, f, f->node_begin, f->node_end, tok);
    kc_mark_stores(c, f->node_begin, f->node_end, 0);
    return bound;
}

KC_FN int kc_class_bit(kc_ctx *c, int32_t e);

/* a name node read from hidden variable v, an int (a Given of types.py) */
KC_FN int32_t kc_given(kc_ctx *c, int32_t v, int line) {
    int32_t k = kc_node_new(c, E_NAME, line);
    if (k < 0) return -1;
    c->nodes[k].var = v;
    c->nodes[k].ty = T_INT;
    return k;
}

/* types.py's range_membership: `x in range(b)` / `x in range(a, b)` (`not in` too) of an int x:
   x, then a and b, into hidden variables (made after range's arguments are typed), then the
   chain `a <= x < b` of them (0 for a missing a), typed here. The compare node's c is the chain,
   its d the first hidden variable (x's; the bounds' follow). 0 when it is no such form */
KC_NOINLINE KC_FN int kc_range_membership(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    int32_t link = n->b;
    if (link < 0 || c->nodes[link].next >= 0) return 0;
    int op = c->nodes[link].op;
    int32_t call = c->nodes[link].a, line = n->line;
    if (!(op == C_IN || op == C_NOTIN) || !kc_is_builtin_call(c, call, "range")) return 0;
    kc_node *cn = &c->nodes[call];
    if (cn->spare || cn->c >= 0 || cn->ival < 1 || cn->ival > 2 || kc_is_local(c, cn->tok)) return 0;
    int xt = kc_type_expr(c, n->a, 0);
    if (c->err) return 1;
    if (!kc_intlike(xt)) { kc_fail(c, "a non-int in range() (kiln tests ints)", line); return 1; }
    kc_range_args(c, &c->nodes[call]);
    if (c->err) return 1;
    int32_t x = kc_new_var(c, cn->tok, T_INT), first = x;
    if (x < 0) return 1;
    c->vars[x].hidden = 1;
    int32_t bounds[2], nb = 0;
    for (int32_t a = c->nodes[call].a; a >= 0 && !c->err; a = c->nodes[a].next) {
        int32_t v = kc_new_var(c, c->nodes[call].tok, T_INT);
        if (v < 0) return 1;
        c->vars[v].hidden = 1;
        bounds[nb++] = v;
    }
    int32_t low, mid = kc_given(c, x, line), high = kc_given(c, bounds[nb - 1], line);
    if (nb == 2) low = kc_given(c, bounds[0], line);
    else {
        low = kc_node_new(c, E_INT, line);
        if (low >= 0) c->nodes[low].ty = T_INT;
    }
    int32_t chain = kc_node_new(c, E_COMPARE, line), l1 = kc_node_new(c, E_NONE, line), l2 = kc_node_new(c, E_NONE, line);
    if (c->err) return 1;
    c->nodes[l1].op = C_LE; c->nodes[l1].a = mid; c->nodes[l1].ival = PL_NUM; c->nodes[l1].ty = T_INT; c->nodes[l1].next = l2;
    c->nodes[l2].op = C_LT; c->nodes[l2].a = high; c->nodes[l2].ival = PL_NUM; c->nodes[l2].ty = T_INT;
    c->nodes[chain].a = low; c->nodes[chain].b = l1; c->nodes[chain].ty = T_BOOL;
    n = &c->nodes[k];
    n->c = chain;
    n->d = first;
    return 1;
}

/* types.py's builtin_call of next(g, default): the default typed first, then the generator in its
   scope (as all/any's), its item the result, which the default's type must be; the generator
   node's spare 5 makes kc_comp_level store the first item and leave the loops */
KC_NOINLINE KC_FN int kc_next_type(kc_ctx *c, int32_t k) {
    int32_t l = c->nodes[k].a, def = c->nodes[l].next;
    int dt = kc_type_expr(c, def, 0);
    if (c->err) return T_UNKNOWN;
    int32_t first = c->n_vars;
    kc_type_generators(c, c->nodes[l].b);
    if (c->err) return T_UNKNOWN;
    int it = kc_type_expr(c, c->nodes[l].a, 0);
    for (int32_t v = first; v < c->n_vars; v++) c->vars[v].active = 0;
    if (c->err) return T_UNKNOWN;
    if (!kc_unify(c, it, dt)) { kc_fail(c, "next() default of another type (a type error)", c->nodes[k].line); return T_UNKNOWN; }
    c->nodes[l].spare = 5;
    return kc_resolve(c, it);
}

/* types.py's type_compare: `type(x) == C` (`!=`, `is`, `is not`; C a builtin class or another
   type(y)) where the static types decide it, each kind one class at run time. The type()
   arguments are evaluated, the result a constant: the compare node's pow_float is 1 + it. 0 when
   the comparison is no such form (a refusal where kc cannot tell) */
KC_NOINLINE KC_FN int kc_type_compare(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    int32_t link = n->b;
    if (link < 0 || c->nodes[link].next >= 0) return 0;
    int op = c->nodes[link].op;
    if (!(op == C_EQ || op == C_NE || op == C_IS || op == C_ISNOT)) return 0;
    int32_t operands[2] = {n->a, c->nodes[link].a};
    int calls = 0, classes[2];
    for (int i = 0; i < 2; i++) {
        const kc_node *e = &c->nodes[operands[i]];
        int is_call = e->kind == E_CALL && !e->op && e->tok >= 0 && kc_tok_is(c, &c->toks[e->tok], "type");
        if (is_call && (e->ival != 1 || e->spare || e->c >= 0)) return 0;
        calls += is_call;
        if (!is_call && !(e->kind == E_NAME && kc_class_bit(c, operands[i]) >= 0)) return 0;
    }
    if (!calls) return 0;
    if (kc_find_func(c, c->nodes[operands[0]].kind == E_CALL ? c->nodes[operands[0]].tok : c->nodes[operands[1]].tok) >= 0 ||
        kc_is_local(c, c->nodes[operands[0]].kind == E_CALL ? c->nodes[operands[0]].tok : c->nodes[operands[1]].tok)) {
        kc_fail(c, "type() named by the module", n->line);
        return 1;
    }
    for (int i = 0; i < 2 && !c->err; i++) {
        const kc_node *e = &c->nodes[operands[i]];
        if (e->kind == E_NAME) { classes[i] = kc_class_bit(c, operands[i]); continue; }
        int t = kc_resolve(c, kc_type_expr(c, e->a, 0));
        if (c->err) return 1;
        classes[i] = t == T_INT ? 0 : t == T_FLOAT ? 1 : t == T_BOOL ? 2 : t == T_STR ? 3 : kc_is_list(t) ? 4 :
                     kc_is_tuple(t) ? 5 : kc_is_dict(t) ? 6 : kc_is_set(t) ? 7 : -1;
        if (classes[i] < 0) { kc_fail(c, "type() of a value whose type is not known yet", n->line); return 1; }
    }
    if (c->err) return 1;
    int same = classes[0] == classes[1];
    n->pow_float = 1 + (op == C_EQ || op == C_IS ? same : !same);
    return 1;
}

/* the class isinstance's node e names (types.py's _RUNTIME_CLASSES, a name no variable or
   function of this module binds): 0 int, 1 float, 2 bool, 3 str, 4 list, 5 tuple, 6 dict, 7 set;
   -1 for anything else */
KC_FN int kc_class_bit(kc_ctx *c, int32_t e) {
    static const char *const classes[] = {"int", "float", "bool", "str", "list", "tuple", "dict", "set"};
    const kc_node *n = &c->nodes[e];
    if (n->kind != E_NAME || n->tok < 0 || c->toks[n->tok].start < 0) return -1;
    int b = -1;
    for (int i = 0; i < 8 && b < 0; i++)
        if (kc_tok_is(c, &c->toks[n->tok], classes[i])) b = i;
    return b < 0 || kc_find_func(c, n->tok) >= 0 || kc_is_local(c, n->tok) ? -1 : b;
}

KC_NOINLINE KC_FN int kc_builtin_type(kc_ctx *c, int32_t k) {
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
        kc_type_generators(c, c->nodes[l].b);
        if (c->err) return T_UNKNOWN;
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
        if (kc_is_builtin_call(c, a0, "set") && c->nodes[a0].ival == 1 && !c->nodes[a0].spare &&
            !kc_is_builtin_call(c, c->nodes[a0].a, "range")) {
            /* list(set(xs)) of ints or bools: types.py's sequence gives the set call kset_order,
               lower.py's b_set SET_ORDER (CPython's iteration order) for its SORTED_UNIQUE (op 9);
               a set of anything else is refused (the reference: iteration over a set) */
            kc_type_expr(c, a0, 0);
            if (c->err) return T_UNKNOWN;
            int seq = kc_resolve(c, c->nodes[c->nodes[a0].a].ty);
            if (c->nodes[a0].op != 8 || (seq != T_INT + KC_LIST && seq != T_BOOL + KC_LIST)) {
                kc_fail(c, "list(set(...)) other than of a list of ints or bools", n->line);
                return T_UNKNOWN;
            }
            c->nodes[a0].op = 9;
            n->op = 5;
            return seq;
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
        if (kc_tok_is(c, name, "sum")) t = kc_tuple_items(c, a0, t);
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
    if (kc_tok_is(c, name, "isinstance")) {  /* types.py's isinstance_call: decided by x's static type */
        if (count != 2) { kc_fail(c, "isinstance() with these arguments", n->line); return T_UNKNOWN; }
        int32_t cls = c->nodes[a0].next;
        int tuple = c->nodes[cls].kind == E_TUPLE;
        unsigned accepted = 0;
        for (int32_t e = tuple ? c->nodes[cls].a : cls; e >= 0; e = tuple ? c->nodes[e].next : -1) {
            int b = kc_class_bit(c, e);
            if (b < 0) { kc_fail(c, "isinstance() of a class other than a builtin type", n->line); return T_UNKNOWN; }
            accepted |= 1u << b | (b == 0 ? 1u << 2 : 0u);  /* a bool is an int (_SUBCLASSES) */
        }
        int t = kc_resolve(c, kc_type_expr(c, a0, 0));
        if (c->err) return T_UNKNOWN;
        int b = t == T_INT ? 0 : t == T_FLOAT ? 1 : t == T_BOOL ? 2 : t == T_STR ? 3 : kc_is_list(t) ? 4 :
                kc_is_tuple(t) ? 5 : kc_is_dict(t) ? 6 : kc_is_set(t) ? 7 : -1;
        if (b < 0) { kc_fail(c, "isinstance() of a value whose type is not known yet", n->line); return T_UNKNOWN; }
        n->op = (int16_t)(KC_ISINSTANCE_OP + (accepted >> b & 1u));
        return T_BOOL;
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
    if (is_float && t == T_STR) return T_FLOAT;  /* FLOAT_OF_STR (float("inf") of a literal: folded by the parser) */
    if (is_bool && (kc_is_seq(t) || kc_is_tuple(t) || kc_is_set(t) || kc_is_dict(t))) return T_BOOL;
    if (!kc_numeric(t)) { kc_fail(c, "conversion of a non-number", n->line); return T_UNKNOWN; }
    if (is_abs) return t == T_FLOAT ? T_FLOAT : T_INT;
    return is_int ? T_INT : is_float ? T_FLOAT : T_BOOL;
}

/* str methods: KC_STR_METHODS and the tables beside it, in kc_surface.h (included by kc.h) */

/* list methods (types.py's method_call): KC_LIST_METHODS and its KC_LM_ enum, in kc_surface.h */

/* the sequence a subscript or a loop reads: a str or a list */
KC_NOINLINE KC_FN int kc_seq_type(kc_ctx *c, int32_t k) {
    int t = kc_type_expr(c, k, 0);
    if (!c->err && !kc_is_seq(t)) kc_fail(c, "subscript or iteration of something other than a str or list", c->nodes[k].line);
    return t;
}

KC_NOINLINE KC_FN void kc_index_type(kc_ctx *c, int32_t k) {
    if (k < 0) return;
    int t = kc_type_expr(c, k, 0);
    if (!c->err && !kc_intlike(t)) kc_fail(c, "index of a non-int (a type error)", c->nodes[k].line);
}

/* types.py's iteration for a for loop or a comprehension's generator s (s->b the iterable): the
   items' type; s->ival = 1 over a str or list, 0 over range() */
KC_NOINLINE KC_FN int kc_iteration(kc_ctx *c, kc_node *s) {
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
KC_NOINLINE KC_FN void kc_bind_loop_target(kc_ctx *c, kc_node *s, int elem, int comp) {
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

/* round(x, n) (E_CALL op KC_MATH_OP + 5), as types.py's round_ndigits: x typed, then n; n an int
   or bool; a float x gives a float (ROUND_F_N), an int or bool x with n an int literal >= 0 is x
   itself (int); anything else is refused (the reference gives its diagnostic) */
KC_NOINLINE KC_FN int kc_round_ndigits(kc_ctx *c, kc_node *n) {
    int32_t x = n->a, nd = c->nodes[x].next;
    int xt = kc_resolve(c, kc_type_expr(c, x, 0));
    if (c->err) return T_UNKNOWN;
    int nt = kc_resolve(c, kc_type_expr(c, nd, 0));
    if (c->err) return T_UNKNOWN;
    if (!kc_intlike(nt)) { kc_fail(c, "round(x, ndigits) of a non-int ndigits", n->line); return T_UNKNOWN; }
    if (xt == T_FLOAT) return T_FLOAT;
    if (kc_intlike(xt) && c->nodes[nd].kind == E_INT && c->nodes[nd].ival >= 0) return T_INT;
    kc_fail(c, "round(x, ndigits) other than of a float, or of an int with a literal ndigits >= 0", n->line);
    return T_UNKNOWN;
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
    if (!kc_targets_ok(c) || c->paren_callee) return 0;
    for (int32_t i = 0; i < c->n_funcs; i++)
        if (c->funcs[i].outer_tok >= 0 || c->funcs[i].opt) return 0;  /* opt: check_module may check twice */
    for (int32_t i = 0; i < c->n_toks; i++)
        if (c->toks[i].kind == TK_NAME && (kc_tok_is(c, &c->toks[i], "lambda") || c->toks[i].start < 0)) return 0;  /* an f-string's str */
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

/* whether node e calls a module function whose result is Optional (kc_func.opt) */
KC_FN int kc_opt_call(kc_ctx *c, int32_t e) {
    const kc_node *n = &c->nodes[e];
    if (n->kind != E_CALL || n->op || n->tok < 0) return 0;
    int32_t f = kc_find_func(c, n->tok);
    return f >= 0 && c->funcs[f].opt;
}

/* types.py's e_Compare where one side of a single ==, !=, is or is not calls a function whose
   result is Optional[T] (the other side does not): a None on the other side is the "none" plan
   (IS_NONE); a T there is the "value" plan of Optional[T], that side made an Optional (kwrap
   "some": the link's spare, bit 1 the left, bit 2 the right). 1 when it took the comparison
   (or failed), 0 when it is no such comparison. */
KC_NOINLINE KC_FN int kc_opt_compare(kc_ctx *c, int32_t k) {
    kc_node *n = &c->nodes[k];
    int32_t link = n->b;
    if (link < 0 || c->nodes[link].next >= 0) return 0;
    int lo = kc_opt_call(c, n->a), ro = kc_opt_call(c, c->nodes[link].a);
    if (!lo && !ro) return 0;
    int op = c->nodes[link].op;
    if (lo && ro) { kc_fail(c, "a comparison of two Optional results", n->line); return 1; }
    if (!(op == C_EQ || op == C_NE || op == C_IS || op == C_ISNOT)) { kc_fail(c, "ordering of an Optional result", n->line); return 1; }
    c->opt_call_ok = lo ? n->a : -1;
    int lt = kc_resolve(c, kc_type_expr(c, n->a, KC_ALLOW_NONE));
    c->opt_call_ok = ro ? c->nodes[link].a : -1;
    int rt = c->err ? T_UNKNOWN : kc_resolve(c, kc_type_expr(c, c->nodes[link].a, KC_ALLOW_NONE));
    c->opt_call_ok = -1;
    if (c->err) return 1;
    kc_node *l = &c->nodes[link];
    int inner = lo ? lt : rt, plain = lo ? rt : lt;
    if (inner == T_UNKNOWN || inner == T_NONE || kc_is_tvar(inner % KC_LIST)) { kc_fail(c, "an Optional result whose type is not known yet", n->line); return 1; }
    if (plain == T_NONE) {  /* `f(x) is None`, `== None`, ... */
        l->ival = PL_NONE;
        l->ty = inner | KC_OPT;
        return 1;
    }
    if (op == C_IS || op == C_ISNOT || plain == T_UNKNOWN || (plain < KC_LIST && kc_is_tvar(plain)) || !kc_unify(c, inner, plain)) {
        kc_fail(c, "comparison of an Optional result with a value of another type", n->line);
        return 1;
    }
    l->ival = PL_VALUE;
    l->ty = kc_resolve(c, inner) | KC_OPT;
    l->spare = (int16_t)(lo ? 2 : 1);
    return 1;
}

KC_NOINLINE KC_FN int kc_type_expr(kc_ctx *c, int32_t k, int allow) {
    if (c->err || k < 0) return T_UNKNOWN;
    kc_node *n = &c->nodes[k];
    int t = T_UNKNOWN;
    switch (n->kind) {
    case E_INT: t = T_INT; break;
    case E_FLOAT:
        if (n->spare == 2) {  /* math.pi (types.py's e_Attribute): the node's tok is math's */
            if (kc_is_local(c, n->tok)) { kc_fail(c, "attribute of a variable named math", n->line); return T_UNKNOWN; }
            if (!c->math_module && !c->fn->local_math) { kc_fail(c, "math without import math (NameError)", n->line); return T_UNKNOWN; }
        }
        t = T_FLOAT;
        break;
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
        if (kc_type_compare(c, k) || kc_range_membership(c, k) || kc_opt_compare(c, k)) { t = T_BOOL; break; }
        if (n->b >= 0 && c->nodes[n->b].next < 0 && (c->nodes[n->b].op == C_EQ || c->nodes[n->b].op == C_NE)) c->defer_ok = n->a;
        int lt = kc_type_expr(c, n->a, KC_ALLOW_NONE);
        c->defer_ok = -1;
        int32_t left = n->a;
        for (int32_t link = n->b; link >= 0 && !c->err; left = c->nodes[link].a, link = c->nodes[link].next) {
            kc_node *l = &c->nodes[link];
            int single = link == n->b && l->next < 0 && (l->op == C_EQ || l->op == C_NE);
            if (single) kc_literal_as(c, l->a, kc_resolve(c, lt));
            c->defer_ok = single ? l->a : -1;
            int rt = kc_type_expr(c, l->a, KC_ALLOW_NONE);
            c->defer_ok = -1;
            if (c->err) return T_UNKNOWN;
            lt = kc_resolve(c, lt);
            rt = kc_resolve(c, rt);
            if (single && (l->check || (lt < KC_LIST && kc_is_tvar(lt)) || (rt < KC_LIST && kc_is_tvar(rt)))) {
                /* a call whose result was not known yet when types.py planned this comparison
                   (its first pass here: kc_type_expr's deferred call): the "value" plan, kept
                   when this function is checked again (the link's check) */
                l->check = 1;
                if (!kc_unify(c, lt, rt)) { kc_fail(c, "comparison of values of different types (a type error)", n->line); return T_UNKNOWN; }
                l->ival = PL_VALUE;
                l->ty = kc_resolve(c, lt);
                if (kc_is_set(l->ty) || kc_is_dict(l->ty) || lt == T_NONE || rt == T_NONE) { kc_fail(c, "comparison of a result not known yet", n->line); return T_UNKNOWN; }
                lt = rt;
                continue;
            }
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
                if (kc_is_dict(l->ty) && kc_sets_ok(c, l->ty, 0) && (l->op == C_EQ || l->op == C_NE)) {
                    /* types.py's ("dict", t) plan: values of a known type without a float or a dict */
                    int vt = kc_resolve(c, kc_tuple_arg(c, l->ty, 1));
                    if (kc_concrete(c, vt, 0) && !kc_holds_float_or_dict(c, vt)) l->ival = PL_DICT;
                }
                if (l->ival != PL_DICT && (!kc_sets_ok(c, l->ty, 0) || kc_is_dict(l->ty))) { kc_fail(c, "comparison of dicts", n->line); return T_UNKNOWN; }
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
        if (n->op == KC_NEXT_OP) {  /* next(<generator>, <literal>) */
            if (kc_find_func(c, n->tok) >= 0 || kc_is_local(c, n->tok)) { kc_fail(c, "next named by the module", n->line); return T_UNKNOWN; }
            t = kc_next_type(c, k);
            break;
        }
        int32_t f = n->op >= KC_MATH_OP && n->op <= KC_MATH_OP + 5 ? -1 : kc_find_func(c, n->tok);
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
        if (n->op == KC_MATH_OP + 3 && n->ival == 2 && !n->spare && n->c < 0) n->op = KC_MATH_OP + 5;
        if (n->op == KC_MATH_OP + 5) {  /* round(x, n): types.py's round_ndigits */
            t = kc_round_ndigits(c, n);
            break;
        }
        if (n->op >= KC_MATH_OP && n->op <= KC_MATH_OP + 4) {
            if (n->ival != 1 || n->spare) { kc_fail(c, "math function with these arguments (a type error)", n->line); return T_UNKNOWN; }
            t = kc_math_result(c, n, kc_resolve(c, kc_type_expr(c, n->a, 0)));
            break;
        }
        if (f >= 0 && n->spare) { kc_fail(c, "keyword argument", n->line); return T_UNKNOWN; }
        if (f >= 0 && c->funcs[f].opt && k != c->opt_call_ok) { kc_fail(c, "a call of a function whose result is Optional", n->line); return T_UNKNOWN; }
        if (f >= 0) {
            kc_func *callee = &c->funcs[f];
            if (n->ival != callee->n_params) { kc_call_error(c, n, callee); return T_UNKNOWN; }
            int i = 0;
            for (int32_t a = n->a; a >= 0 && !c->err; a = c->nodes[a].next, i++)
                if (!kc_unify(c, kc_type_expr(c, a, 0), callee->param_type[i]) && !c->err)
                    kc_fail(c, "argument of another type than the parameter (a type error)", c->nodes[a].line);
            n->var = f;  /* the callee */
            if (c->err) return T_UNKNOWN;
            int unknown = 0;
            for (int p = 0; p < callee->n_params && callee->state == 0; p++)
                unknown |= !kc_concrete(c, kc_resolve(c, callee->param_type[p]), 0);
            if (unknown && k != c->defer_ok) {
                kc_fail(c, "call of a function whose parameter types are not known", n->line);
                return T_UNKNOWN;
            }
            if (unknown) {
                /* types.py's user_call: `f([])` before a call tells f's parameter types; its
                   result a type variable. kc takes it where a later call in this function tells
                   them: f is checked then and this function again from the start (f's result
                   known), as types.py's plans are made again once the types are solved; if this
                   function ends first, the program is refused (kc_compile: deferred_here) */
                int value = 0;  /* types.py's _returns_a_value: else None whatever its annotation */
                for (int32_t j = callee->node_begin; j < callee->node_end && !value; j++)
                    value = c->nodes[j].kind == S_RETURN && c->nodes[j].a >= 0 && c->nodes[c->nodes[j].a].kind != E_NONE;
                if (!value && !(allow & KC_ALLOW_NONE)) { kc_fail(c, "None as a value", n->line); return T_UNKNOWN; }
                if (callee->ret == T_UNKNOWN) callee->ret = value ? kc_new_tvar(c, n->line) : T_NONE;
                c->deferred_here = n->line;
                n->ty = kc_resolve(c, callee->ret);  /* a type variable, unified by its uses */
                return n->ty;
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
        kc_type_generators(c, n->b);
        if (c->err) return T_UNKNOWN;
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
            if (!known) {  /* items of one type: indexed as their list (types.py's tuple_items) */
                int seq = kc_tuple_items(c, n->a, obj);
                if (!c->err && !kc_is_list(seq)) { kc_fail(c, "tuple index other than a constant in range", n->line); return T_UNKNOWN; }
                kc_index_type(c, n->b);
                if (c->err) return T_UNKNOWN;
                t = kc_elem(seq);
                break;
            }
            if (i < -len || i >= len) { kc_fail(c, "tuple index other than a constant in range", n->line); return T_UNKNOWN; }
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
        if (n->c >= 0) { kc_fail(c, "keyword argument key= of a list.sort that is no statement", n->line); return T_UNKNOWN; }
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
            int from = m == KC_STR_M_FIND && n->ival == 2;  /* s.find(sub, start): lower.py's find_from */
            if (!from && (arity == 3 ? n->ival > 1 : n->ival != arity)) { kc_fail(c, "str method with the wrong number of arguments (a type error)", n->line); return T_UNKNOWN; }
            for (int32_t a = n->b; a >= 0 && !c->err; a = c->nodes[a].next) {
                if (from && a != n->b) { kc_index_type(c, a); continue; }
                if (!kc_unify(c, kc_type_expr(c, a, 0), KC_STR_METHOD_ARG[m]) && !c->err)
                    kc_fail(c, "str method argument of another type (a type error)", n->line);
            }
            n->op = (int16_t)(m + 1);
            t = KC_STR_METHOD_RESULT[m];
            break;
        }
        if (kc_is_list(obj) && kc_tok_is(c, &c->toks[n->tok], "copy")) {  /* xs.copy(): xs[:] (lower.py's list_copy) */
            if (n->ival || n->spare) { kc_fail(c, "copy() with arguments (a type error)", n->line); return T_UNKNOWN; }
            n->op = 202;
            t = obj;
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

KC_NOINLINE KC_FN void kc_check_stmt(kc_ctx *c, int32_t k, int loop_depth) {
    kc_node *s = &c->nodes[k];
    switch (s->kind) {
    case S_PASS: break;
    case S_EXPR:
        if (c->nodes[s->a].kind == E_STR) { s->op = 1; break; }  /* a docstring-like comment */
        kc_type_expr(c, s->a, KC_ALLOW_NONE);
        break;
    case S_RETURN: {
        int t;
        if (c->fn->opt) {  /* an Optional result: None (-1), or a value of the result type made one */
            if (s->a < 0 || c->nodes[s->a].kind == E_NONE) break;
            t = kc_resolve(c, kc_type_expr(c, s->a, 0));
            if (c->err) break;
            if (t == T_NONE || t == T_UNKNOWN || (t < KC_LIST && kc_is_tvar(t))) { kc_fail(c, "a return of this value where the result is Optional", s->line); break; }
            if (c->fn->ret == T_UNKNOWN) c->fn->ret = t;
            else if (!kc_unify(c, t, c->fn->ret)) kc_fail(c, "returns of different types (a type error)", s->line);
            c->fn->returns_value = 1;
            break;
        }
        if (s->a >= 0 && c->fn->ret != T_UNKNOWN && c->fn->ret != T_NONE &&
            (c->nodes[s->a].op == KC_NAME_ERROR_OP || kc_name_error_call(c, s->a))) {
            /* `return undefined(x)` once the result type is known: types.py's NeverVar takes
               it (fits: unify); lower.py raises NameError before the arguments */
            t = kc_resolve(c, c->fn->ret);
            c->nodes[s->a].ty = t;
        } else {
            t = s->a < 0 ? T_NONE : kc_type_expr(c, s->a, KC_ALLOW_NONE);
        }
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
        if (!c->err && c->top_stmt == k && c->nodes[s->a].next < 0 && c->nodes[s->a].kind == E_NAME) kc_maybe_rebind(c, s->a, t);
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
            if (tn->kind == E_SLICE && target == s->a && tn->next < 0 && tn->b < 0 && tn->c < 0 && tn->d < 0) {
                /* xs[:] = v (types.py's slice_target): a list of v's type */
                int seq = kc_type_expr(c, tn->a, 0);
                if (c->err) return;
                if (!kc_is_list(seq) || !kc_unify(c, seq, t)) { kc_fail(c, "slice assignment of another type (a type error)", s->line); return; }
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
        int current, pending = 0;
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
            /* an item of a type not known yet (`counts[k] += 1` of `counts = {}`): binop_type's
               settle(unknown=True) gives it the value's type when that is int, float, bool or str */
            pending = kc_is_tvar(current) && current < KC_LIST;
            target->ty = current;
        } else {
            v = kc_lookup(c, target->tok);
            if (v < 0) { kc_fail(c, "augmented assignment before any assignment", s->line); return; }
            current = kc_resolve(c, c->vars[v].type);
        }
        int t = kc_type_expr(c, s->b, 0);
        if (c->err) return;
        if (pending) {
            t = kc_resolve(c, t);
            if (!(t == T_INT || t == T_FLOAT || t == T_BOOL || t == T_STR) || !kc_unify(c, current, t)) {
                kc_fail(c, "an item whose type is not known yet", s->line);
                return;
            }
            current = target->ty = t;
        }
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

KC_NOINLINE KC_FN void kc_check_block(kc_ctx *c, int32_t s, int loop_depth) {
    int top = s == c->fn->body;
    for (; s >= 0 && !c->err; s = c->nodes[s].next) {
        if (top) c->top_stmt = s;
        kc_check_stmt(c, s, loop_depth);
    }
}

/* Whether a break in the block at s belongs to the loop whose body it is (types.py's _breaks_out) */
KC_NOINLINE KC_FN int kc_breaks_out(kc_ctx *c, int32_t s) {
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
KC_NOINLINE KC_FN int kc_may_fall_off(kc_ctx *c, int32_t s) {
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
KC_NOINLINE KC_FN void kc_reads(kc_ctx *c, int32_t k, const kc_set *da) {
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

KC_NOINLINE KC_FN void kc_add_target(kc_ctx *c, int32_t t, kc_set *da) {
    kc_node *n = &c->nodes[t];
    if (n->kind == E_NAME) { if (n->var >= 0) kc_set_add(da, n->var - c->fn->var_begin); return; }
    for (int32_t e = n->a; e >= 0; e = c->nodes[e].next) kc_add_target(c, e, da);
}

KC_FN void kc_flow_block(kc_ctx *c, int32_t s, kc_set *da, int words);

/* a loop's else block (none when orelse < 0), flowed from a copy of da: what held before the
   loop, since it may run no iteration */
KC_NOINLINE KC_FN void kc_flow_loop_else(kc_ctx *c, int32_t orelse, const kc_set *da, int words) {
    if (orelse < 0) return;
    kc_set y = kc_set_copy(c, da, words);
    if (c->err) return;
    kc_flow_block(c, orelse, &y, words);
}

KC_NOINLINE KC_FN void kc_flow_stmt(kc_ctx *c, int32_t k, kc_set *da, int words) {
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
        kc_flow_loop_else(c, s->c, da, words);  /* after zero or more iterations: only what held before */
        break;
    }
    case S_FOR: {
        kc_reads(c, s->b, da);
        kc_set x = kc_set_copy(c, da, words);
        if (c->err) return;
        kc_add_target(c, s->a, &x);
        kc_flow_block(c, s->c, &x, words);
        kc_flow_loop_else(c, s->d, da, words);  /* the target is unbound after zero iterations */
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

KC_NOINLINE KC_FN void kc_flow_block(kc_ctx *c, int32_t s, kc_set *da, int words) {
    for (; s >= 0 && !c->err; s = c->nodes[s].next) {
        if (da->all) return;
        kc_flow_stmt(c, s, da, words);
    }
}

#endif /* KILN_KC_TYPES_H */
