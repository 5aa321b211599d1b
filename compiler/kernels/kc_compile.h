/* kc_compile.h: one program through every phase (kc.h includes it last; kc_cpu.c and kc_cuda.cu
 * call kc_arena_bytes and kc_compile).
 *
 * Takes: a source, its file name, the caller's argument types (lines "NAME CODES"), kc_config
 * (what vm/isa.py says, and the passes to run) and one arena.
 * Gives: kc_compile returns the container's length with *container in the arena, or -1 with
 * the reason (and a diagnostic's record, kc_diag) in `diag`, or -2 with the arena bytes it needs
 * in *need. In order: lex (kc_lex.h), the diagnostics' scan when lex or parse stopped
 * (kc_diag.h), parse and the front end's rewrites (kc_parse.h), the argument types, check,
 * types.py's finish and flow (kc_types.h), lower (kc_lower.h), the passes (kc_opt.h), assemble
 * and emit (kc_emit.h).
 * Guarantees: every table lives in the arena, sized from the source length and token count
 * (kc_capacities; kc_arena_bytes is always enough), so nothing allocates and nothing writes
 * out of bounds; the container is the reference compiler's, byte for byte, or there is none.
 */
#ifndef KILN_KC_COMPILE_H
#define KILN_KC_COMPILE_H

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
                  40 * k.funcs + len + 4 * n_toks + 8 * k.code;  /* 40: a name's 'local too */
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
KC_NOINLINE KC_FN int kc_spec_type(kc_ctx *c, const char *spec, int64_t spec_len, int64_t *i, int level) {
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

/* Argument types for a function the module does not define: types.py's Checker says so, once
   the module parses, no function shadows a builtin and every annotation is a plain one (sets,
   dicts and tuples are checked in other places first; hoisted functions change its list). */
KC_NOINLINE KC_FN void kc_no_function(kc_ctx *c, const char *name, int64_t name_len) {
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
KC_NOINLINE KC_FN void kc_apply_spec(kc_ctx *c, const char *spec, int64_t spec_len) {
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
        fn->typed_by_caller = 1;
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
    c->top_stmt = -1;
    c->paren_callee = 0;
    c->opt_call_ok = -1;
    c->deferred_here = 0;
    c->defer_ok = -1;
    c->in_def = c->n_nested = 0;
    c->math_names = 0;
    c->typing_names = 0;
    c->math_module = 0;
    c->n_mconst = 0;
    c->n_synth = 3;  /* synth[0, 3): the f-strings' `str` (kc_lex) */
    c->n_rewrites = 0;
    c->scan_work = 0;
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
    /* types.py's _optional_result (with check_module's fall-off retry): a function that returns a
       value, and None by `return None`, a bare return or the end of its body, has an Optional
       result; kc_func.opt (kc refuses a call of it: kc_type_expr) */
    for (int32_t i = 0; i < c->n_funcs; i++) {
        kc_func *f = &c->funcs[i];
        int value = 0, none = 0;
        for (int32_t j = f->node_begin; j < f->node_end; j++) {
            if (c->nodes[j].kind != S_RETURN) continue;
            if (c->nodes[j].a >= 0 && c->nodes[c->nodes[j].a].kind != E_NONE) value = 1;
            else none = 1;
        }
        if (value && (none || kc_may_fall_off(c, f->body))) f->opt = 1;
        if (f->opt && (f->ret == T_NONE || f->ret == KC_BARE_LIST || kc_is_set(f->ret) || kc_is_dict(f->ret))) {
            kc_fail(c, "an Optional result of this type", f->line);
            return -1;
        }
    }
    /* a parameter nothing types yet gets a type variable (types.py's Checker): a call may tell it;
       the functions to check at first are those whose parameters all have types (pending) */
    int32_t *pending = (int32_t *)kc_alloc(c, (int64_t)(c->n_funcs + 1) * 4);
    for (int32_t i = 0; i < c->n_funcs && !c->err; i++) {
        kc_func *f = &c->funcs[i];
        if (kc_is_builtin(c, f->name_tok)) { kc_fail(c, "a function named like a builtin", f->line); break; }
        pending[i] = 1;
        if (f->ret == KC_BARE_LIST) f->ret = kc_new_tvar(c, f->line) + KC_LIST;  /* `-> list` */
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
                if (kc_find_func(c, f->param_tok[p]) >= 0 ||
                    ((kc_is_builtin(c, f->param_tok[p]) || kc_is_rewritten(c, &c->toks[f->param_tok[p]])) && !kc_shadow_ok(c, f, f->param_tok[p]))) {
                    kc_fail(c, "a parameter named like a function", f->line);
                    break;
                }
                kc_new_var(c, f->param_tok[p], f->param_type[p]);
            }
            c->deferred_here = 0;
            kc_check_block(c, f->body, 0);
            if (c->err == KC_SUSPENDED) {
                c->err = 0;
                c->n_vars = f->var_begin;  /* checked again from the start later */
                work[top++] = c->need_callee;
                continue;
            }
            f->var_end = c->n_vars;
            if (c->deferred_here) {  /* a call whose callee no later call of this function typed */
                kc_fail(c, "call of a function whose parameter types are not known", c->deferred_here);
                break;
            }
            if (!f->returns_value && f->ret != T_UNKNOWN && f->ret != T_NONE) {
                /* annotated, but no path returns a value: types.py makes the result None */
                kc_fail(c, "an annotated function that returns no value", f->line);
                break;
            }
            if (!f->returns_value && f->ret == T_UNKNOWN) f->ret = T_NONE;
            if (f->returns_value && !f->opt && kc_may_fall_off(c, f->body)) {
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
        /* types.py: a dict may be a parameter or the result (not of a function the caller of
           the program calls: reference.py); kc takes one that is the whole type */
        int bad = kc_is_dict(f->ret) ? f->typed_by_caller || !kc_sets_ok(c, f->ret, 0) : !kc_sets_ok(c, f->ret, 1);
        for (int p = 0; p < f->n_params; p++)
            bad |= kc_is_dict(f->param_type[p]) ? !kc_sets_ok(c, f->param_type[p], 0) : !kc_sets_ok(c, f->param_type[p], 1);
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
        /* lower.py's slots: the parameters, then FunctionInfo.variables in its order (a
           rebound variable's position: kc_maybe_rebind), then the flags in that order */
        int32_t slot = 0, params_end = f->var_begin + f->n_params;
        for (int32_t v = f->var_begin; v < params_end; v++) c->vars[v].slot = slot++;
        for (int32_t p = f->var_begin; p < f->var_end; p++)
            if (c->vars[p].occ >= params_end) c->vars[c->vars[p].occ].slot = slot++;
        for (int32_t p = f->var_begin; p < f->var_end; p++)
            if (c->vars[p].occ >= params_end && c->vars[c->vars[p].occ].needs_check) c->vars[c->vars[p].occ].flag = slot++;
        f->n_locals = slot;
        f->code_begin = c->n_code;
        c->line = f->line;
        c->n_loops = 0;
        kc_lower_block(c, f->body);
        c->line = c->nodes[f->body].end_line;
        if (f->ret == T_NONE) {
            kc_emit(c, K_LOADI, 0);
            kc_emit(c, K_RET, 0);
        } else if (f->opt) {  /* lower.py: Python returns None here */
            kc_emit(c, K_LOADI, -1);
            kc_emit(c, K_RET, 0);
        } else {
            kc_raise(c, KT_UNSUPPORTED);
        }
        for (int p = 0; p < f->n_params; p++) kc_type_index(c, f->param_type[p]);
        kc_type_index(c, f->opt ? f->ret | KC_OPT : f->ret);
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

#endif /* KILN_KC_COMPILE_H */
