/* kc_lower.h: lowering, the typed tree to labelled instructions (compiler/lower.py at -O0, plus
 * its `loops` pass when KC_PASS_LOOPS is on; kc.h includes it after kc_types.h).
 *
 * Takes: one checked function at a time (c->fn: its variables with their slots and the flags
 * of the reads to guard, set by kc_compile; kc_types.h's node types and read checks).
 * Gives: its instructions appended to c->code_op / code_arg / code_line (kc's own kc_op names,
 * mapped to vm/isa.py's codes only when emitted), jump operands naming labels (code_label set;
 * c->labels holds each label's position and c->marks the placements in order, for kc_opt.h);
 * constants, string image and types added to their pools in the reference's first-use order
 * (kc_const, kc_type_index).
 * Guarantees: the same instructions, operands, lines and pool order as compiler/lower.py; a
 * construct lower.py would lower otherwise, or that kc does not cover, stops kc with kc_fail;
 * every pool and table is bounded by the arena's capacities (kc_compile.h's kc_capacities).
 */
#ifndef KILN_KC_LOWER_H
#define KILN_KC_LOWER_H

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
KC_NOINLINE KC_FN int32_t kc_decode_string(kc_ctx *c, const kc_tok *t, int64_t *out) {
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

/* The shapes of an index loop, as lower.py's helpers of the same names emit them:
     i = 0; top: if not i < len(seq): goto end; ... seq[i] ...; i += 1; goto top; end:
   kc_index_loop_head places top after i = 0; kc_loop_in lowers the body with cont and brk as
   the targets of continue and break; kc_loop_back closes the loop. */
KC_FN void kc_index_loop_head(kc_ctx *c, int32_t i, int32_t top) {
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, i);
    kc_place(c, top);
}

/* on to end once local i reached the length of local seq (len_op: K_LIST_LEN or K_STR_LEN,
   read afresh each time as CPython's iterators do) */
KC_FN void kc_while_index_below_len(kc_ctx *c, int32_t i, int32_t seq, int len_op, int32_t end) {
    kc_emit(c, K_LOAD, i);
    kc_emit(c, K_LOAD, seq);
    kc_emit(c, len_op, 0);
    kc_emit(c, K_LT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_FALSE, end);
}

/* seq[i] of locals seq and i on the stack (index_op: K_LIST_INDEX or K_STR_INDEX) */
KC_FN void kc_load_item(kc_ctx *c, int32_t seq, int32_t i, int index_op) {
    kc_emit(c, K_LOAD, seq);
    kc_emit(c, K_LOAD, i);
    kc_emit(c, index_op, 0);
}

/* local slot += by */
KC_FN void kc_increment(kc_ctx *c, int32_t slot, int by) {
    kc_emit(c, K_LOAD, slot);
    kc_emit(c, K_LOADI, by);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_STORE, slot);
}

/* goto top; end: */
KC_FN void kc_loop_back(kc_ctx *c, int32_t top, int32_t end) {
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
}

/* dst[i] = src[i] for each i < len(src) (lower.py's copy_back) */
KC_FN void kc_copy_back(kc_ctx *c, int32_t dst, int32_t src) {
    int32_t i = kc_temp(c), top = kc_label(c), end = kc_label(c);
    kc_index_loop_head(c, i, top);
    kc_while_index_below_len(c, i, src, K_LIST_LEN, end);
    kc_emit(c, K_LOAD, dst);
    kc_emit(c, K_LOAD, i);
    kc_load_item(c, src, i, K_LIST_INDEX);
    kc_emit(c, K_LIST_STORE, 0);
    kc_increment(c, i, 1);
    kc_loop_back(c, top, end);
}

KC_FN int32_t kc_type_index(kc_ctx *c, int t);

/* dicts: (keys list, values list) in insertion order (lower.py's dict_*) */
KC_FN void kc_dict_new(kc_ctx *c) {
    kc_emit(c, K_LIST_NEW, 0);
    kc_emit(c, K_LIST_NEW, 0);
    kc_emit(c, K_TUPLE_NEW, 2);
}

/* a slot holding the index of key slot k in dict slot d (-1 when absent, or the trap `missing`) */
KC_NOINLINE KC_FN int32_t kc_dict_find(kc_ctx *c, int32_t d, int32_t k, int32_t t, int missing) {
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
KC_NOINLINE KC_FN void kc_dict_set(kc_ctx *c, int32_t d, int32_t k, int32_t v, int32_t t) {
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
KC_NOINLINE KC_FN void kc_dict_get(kc_ctx *c, const kc_node *n) {
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
/* lower.py's set_filter: pushes the list of the items of the list in local a that are (keep) or
   are not in the set in local b, in a's order */
KC_NOINLINE KC_FN void kc_set_filter(kc_ctx *c, int32_t a, int32_t b, int keep, int32_t t) {
    int32_t r = kc_temp(c), i = kc_temp(c), x = kc_temp(c);
    int32_t top = kc_label(c), end = kc_label(c);
    kc_emit(c, K_LIST_NEW, 0);
    kc_emit(c, K_STORE, r);
    kc_index_loop_head(c, i, top);
    kc_while_index_below_len(c, i, a, K_LIST_LEN, end);
    kc_load_item(c, a, i, K_LIST_INDEX);
    kc_emit(c, K_STORE, x);
    kc_increment(c, i, 1);
    kc_emit(c, K_LOAD, x);
    kc_emit(c, K_LOAD, b);
    kc_emit(c, K_CONTAINS, t);
    kc_emit_jump(c, keep ? K_JUMP_IF_FALSE : K_JUMP_IF_TRUE, top);
    kc_emit(c, K_LOAD, r);
    kc_emit(c, K_LOAD, x);
    kc_emit(c, K_LIST_APPEND, 0);
    kc_emit_jump(c, K_JUMP, top);
    kc_place(c, end);
    kc_emit(c, K_LOAD, r);
}

/* lower.py's set_op: `a OP b` of two sets (sorted lists without repeats) on the stack: `|` the
   sorted union; `&` and `-` a's items that are, or are not, in b; `^` (a - b) | (b - a) */
KC_FN void kc_set_op(kc_ctx *c, int op, int t) {
    int32_t ti = kc_type_index(c, t);
    if (op == B_BITOR) {
        kc_emit(c, K_LIST_CONCAT, 0);
        kc_emit(c, K_SORTED_UNIQUE, ti);
        return;
    }
    int32_t a = kc_temp(c), b = kc_temp(c);
    kc_emit(c, K_STORE, b);
    kc_emit(c, K_STORE, a);
    if (op == B_BITAND || op == B_SUB) {
        kc_set_filter(c, a, b, op == B_BITAND, ti);
    } else {
        kc_set_filter(c, a, b, 0, ti);
        kc_set_filter(c, b, a, 0, ti);
        kc_emit(c, K_LIST_CONCAT, 0);
        kc_emit(c, K_SORTED_UNIQUE, ti);
    }
}

/* lower.py's find_from: s sub start -- s.find(sub, start): start taken as a slice start
   (negative from the end, then at least 0); past the end -1; else the index in s[start:] plus
   start, or -1 */
KC_NOINLINE KC_FN void kc_find_from(kc_ctx *c) {
    int32_t s = kc_temp(c), sub = kc_temp(c), start = kc_temp(c), n = kc_temp(c);
    int32_t past = kc_label(c), end = kc_label(c);
    kc_emit(c, K_STORE, start);
    kc_emit(c, K_STORE, sub);
    kc_emit(c, K_STORE, s);
    kc_emit(c, K_LOAD, s);
    kc_emit(c, K_STR_LEN, 0);
    kc_emit(c, K_STORE, n);
    int32_t nonneg = kc_label(c);
    for (int round = 0; round < 2; round++) {
        kc_emit(c, K_LOAD, start);
        kc_emit(c, K_LOADI, 0);
        kc_emit(c, K_LT_I, 0);
        kc_emit_jump(c, K_JUMP_IF_FALSE, nonneg);
        if (round == 0) {
            kc_emit(c, K_LOAD, start);
            kc_emit(c, K_LOAD, n);
            kc_emit(c, K_ADD_I, 0);
            kc_emit(c, K_STORE, start);
        }
    }
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_STORE, start);
    kc_place(c, nonneg);
    kc_emit(c, K_LOAD, start);
    kc_emit(c, K_LOAD, n);
    kc_emit(c, K_GT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_TRUE, past);
    kc_emit(c, K_LOAD, s);
    kc_emit(c, K_LOAD, start);
    kc_emit(c, K_STR_SLICE, 1);
    kc_emit(c, K_LOAD, sub);
    kc_emit(c, K_STR_FIND, 0);
    kc_emit(c, K_DUP, 0);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_LT_I, 0);
    kc_emit_jump(c, K_JUMP_IF_TRUE, end);
    kc_emit(c, K_LOAD, start);
    kc_emit(c, K_ADD_I, 0);
    kc_emit_jump(c, K_JUMP, end);
    kc_place(c, past);
    kc_emit(c, K_LOADI, -1);
    kc_place(c, end);
}

KC_NOINLINE KC_FN void kc_lower_set_add(kc_ctx *c, const kc_node *n) {
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
KC_NOINLINE KC_FN void kc_list_method(kc_ctx *c, const kc_node *n, int m) {
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
    kc_while_index_below_len(c, i, lst, K_LIST_LEN, end);
    kc_load_item(c, lst, i, K_LIST_INDEX);
    kc_emit(c, K_LOAD, value);
    if (kc_intlike(elem)) kc_emit(c, K_EQ_I, 0);
    else kc_emit(c, K_EQ, kc_type_index(c, elem));
    kc_emit_jump(c, K_JUMP_IF_FALSE, step);
    if (m == KC_LM_COUNT) {
        kc_increment(c, k, 1);
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
    kc_increment(c, i, 1);
    kc_loop_back(c, top, end);
    if (m != KC_LM_COUNT) kc_raise(c, KT_VALUE);
    kc_place(c, done);
    kc_emit(c, K_LOAD, k);
}

/* a comprehension from its generator g on: the loop over g, or at the end, the item appended */
KC_NOINLINE KC_FN void kc_comp_level(kc_ctx *c, int32_t comp, int32_t g) {
    kc_node *n = &c->nodes[comp];
    if (g < 0 && n->spare == 3) {  /* all / any: an item that decides ends the loops */
        kc_branch(c, n->a, n->op, c->loops[2 * c->n_loops - 2]);
        kc_emit(c, K_LOADI, !n->op);
        kc_emit(c, K_STORE, n->c);
        kc_emit_jump(c, K_JUMP, (int32_t)n->ival);
        return;
    }
    if (g < 0 && n->spare == 5) {  /* next(g, default): the first item ends the loops */
        kc_lower_expr(c, n->a);
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

KC_NOINLINE KC_FN void kc_truth_of_top(kc_ctx *c, int t) {
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

KC_NOINLINE KC_FN void kc_truth(kc_ctx *c, int32_t k) {
    kc_lower_expr(c, k);
    kc_truth_of_top(c, c->nodes[k].ty);
}

/* jump to `label` when the truth of k is `when`; fall through otherwise */
KC_NOINLINE KC_FN void kc_branch(kc_ctx *c, int32_t k, int when, int32_t label) {
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

/* KC_INT_OPS, KC_FLOAT_OPS (by enum kc_bin), KC_CMP_I, KC_CMP_F: kc_surface.h (vm/surface.py's OPERATORS) */

/* the left operand (of type lt) is on the stack: evaluates `right`, combines to `result` */
KC_NOINLINE KC_FN void kc_binop(kc_ctx *c, int op, int lt, int32_t right, int result) {
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

KC_TABLE int KC_CMP_SWAPPED[] = {C_GT, C_GE, C_LT, C_LE, C_EQ, C_NE}; /* a op b as b op' a */

KC_FN int32_t kc_type_index(kc_ctx *c, int t);

/* one link of a comparison: its operands are on the stack (lowering.py's compare) */
KC_NOINLINE KC_FN void kc_compare(kc_ctx *c, const kc_node *link, int lt, int rt) {
    int op = link->op, plan = link->ty;
    if (link->ival == PL_NONE) {  /* lower.py's "none" plan: drop the None, test the other */
        if (lt == T_NONE) kc_emit(c, K_SWAP, 0);
        kc_emit(c, K_POP, 0);
        if (plan & KC_OPT) {
            kc_emit(c, K_IS_NONE, 0);  /* an Optional: None or not */
        } else {
            kc_emit(c, K_POP, 0);
            kc_emit(c, K_LOADI, plan == T_NONE);  /* None is None; a value of another type is not */
        }
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
    if (link->ival == PL_DICT) {  /* lower.py's dict_equal: as many keys, each of a found in b with an equal value */
        int32_t ta = kc_temp(c), tb = kc_temp(c), ka = kc_temp(c), kb = kc_temp(c), i = kc_temp(c), j = kc_temp(c);
        int32_t loop = kc_label(c), yes = kc_label(c), no = kc_label(c), end = kc_label(c);
        kc_emit(c, K_STORE, tb);
        kc_emit(c, K_STORE, ta);
        kc_emit(c, K_LOAD, ta); kc_emit(c, K_TUPLE_GET, 0); kc_emit(c, K_STORE, ka);
        kc_emit(c, K_LOAD, tb); kc_emit(c, K_TUPLE_GET, 0); kc_emit(c, K_STORE, kb);
        kc_emit(c, K_LOAD, ka); kc_emit(c, K_LIST_LEN, 0); kc_emit(c, K_LOAD, kb); kc_emit(c, K_LIST_LEN, 0);
        kc_emit(c, K_NE_I, 0);
        kc_emit_jump(c, K_JUMP_IF_TRUE, no);
        kc_emit(c, K_LOADI, 0); kc_emit(c, K_STORE, i);
        kc_place(c, loop);
        kc_emit(c, K_LOAD, i); kc_emit(c, K_LOAD, ka); kc_emit(c, K_LIST_LEN, 0); kc_emit(c, K_GE_I, 0);
        kc_emit_jump(c, K_JUMP_IF_TRUE, yes);
        kc_emit(c, K_LOAD, kb);
        kc_emit(c, K_LOAD, ka); kc_emit(c, K_LOAD, i); kc_emit(c, K_LIST_INDEX, 0);
        kc_emit(c, K_LIST_FIND, kc_type_index(c, kc_resolve(c, kc_tuple_arg(c, plan, 0)) + KC_LIST));
        kc_emit(c, K_STORE, j);
        kc_emit(c, K_LOAD, j); kc_emit(c, K_LOADI, 0); kc_emit(c, K_LT_I, 0);
        kc_emit_jump(c, K_JUMP_IF_TRUE, no);
        kc_emit(c, K_LOAD, ta); kc_emit(c, K_TUPLE_GET, 1); kc_emit(c, K_LOAD, i); kc_emit(c, K_LIST_INDEX, 0);
        kc_emit(c, K_LOAD, tb); kc_emit(c, K_TUPLE_GET, 1); kc_emit(c, K_LOAD, j); kc_emit(c, K_LIST_INDEX, 0);
        kc_emit(c, K_EQ, kc_type_index(c, kc_resolve(c, kc_tuple_arg(c, plan, 1))));
        kc_emit_jump(c, K_JUMP_IF_FALSE, no);
        kc_increment(c, i, 1);
        kc_emit_jump(c, K_JUMP, loop);
        kc_place(c, yes);
        kc_emit(c, K_LOADI, 1);
        kc_emit_jump(c, K_JUMP, end);
        kc_place(c, no);
        kc_emit(c, K_LOADI, 0);
        kc_place(c, end);
        if (op == C_NE) kc_emit(c, K_NOT, 0);
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

KC_NOINLINE KC_FN void kc_lower_call(kc_ctx *c, int32_t k) {
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
        kc_index_loop_head(c, i, top);
        kc_while_index_below_len(c, i, pairs, K_LIST_LEN, end);
        kc_load_item(c, pairs, i, K_LIST_INDEX);
        kc_emit(c, K_UNPACK_TUPLE, 2);
        kc_emit(c, K_STORE, v);
        kc_emit(c, K_STORE, key);
        kc_dict_set(c, d, key, v, n->ty);
        kc_increment(c, i, 1);
        kc_loop_back(c, top, end);
        kc_emit(c, K_LOAD, d);
        return;
    }
    if (n->op == KC_ISINSTANCE_OP || n->op == KC_ISINSTANCE_OP + 1) {  /* lower.py's b_isinstance */
        kc_lower_expr(c, n->a);
        kc_emit(c, K_POP, 0);
        kc_emit(c, K_LOADI, n->op - KC_ISINSTANCE_OP);
        return;
    }
    if (n->op == KC_MATH_OP + 5) {  /* round(x, n): lower.py's b_round (ROUND_F_N of a float; an int is itself) */
        kc_lower_expr(c, n->a);
        if (n->ty == T_FLOAT) {
            kc_lower_expr(c, c->nodes[n->a].next);
            kc_emit(c, K_ROUND_F_N, 0);
        }
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
    if (n->op == KC_NEXT_OP) {  /* next(g, default): lower.py's b_next (_first_item) */
        int32_t result = kc_temp(c), done = kc_label(c);
        kc_lower_expr(c, c->nodes[a0].next);
        kc_emit(c, K_STORE, result);
        c->nodes[a0].c = result;
        c->nodes[a0].ival = done;
        kc_comp_level(c, a0, c->nodes[a0].b);
        kc_place(c, done);
        kc_emit(c, K_LOAD, result);
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
    if (n->op == 7 || n->op == 8 || n->op == 9) {  /* set(...): lower.py's b_set */
        if (n->op == 7) { kc_emit(c, K_LIST_NEW, 0); return; }
        kc_lower_expr(c, a0);
        if (n->op == 9) { kc_emit(c, K_SET_ORDER, 0); return; }  /* list(set(xs)) of ints: kset_order */
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
        if (at == T_STR) kc_emit(c, K_FLOAT_OF_STR, 0);
        else if (at != T_FLOAT) kc_emit(c, K_I2F, 0);
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

KC_NOINLINE KC_FN void kc_lower_expr(kc_ctx *c, int32_t k) {
    if (c->err) return;
    kc_node *n = &c->nodes[k];
    switch (n->kind) {
    case E_INT: kc_push_int(c, n->ival); return;
    case E_FLOAT: kc_push_float(c, n->fval); return;
    case E_BOOL: kc_emit(c, K_LOADI, (int32_t)n->ival); return;
    case E_NONE: kc_emit(c, K_LOADI, 0); return;
    case E_STR: kc_emit(c, K_STR, kc_string(c, n->tok)); return;
    case E_NAME:
        kc_load_var(c, n->var, n->check);
        if (n->pow_float > 0) {  /* a tuple's items, iterated: their list (kc_tuple_items) */
            kc_emit(c, K_UNPACK_TUPLE, n->pow_float);
            kc_emit(c, K_LIST_NEW, n->pow_float);
        }
        return;
    case E_BINOP:
        kc_lower_expr(c, n->a);
        if (n->spare == 1) {  /* a set operator (kc_binop_type) */
            kc_lower_expr(c, n->b);
            kc_set_op(c, n->op, c->nodes[n->a].ty);
            return;
        }
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
        if (n->c >= 0) {  /* x in range(a, b): a <= x < b of hidden variables (kc_range_membership) */
            kc_lower_expr(c, left);
            kc_store_var(c, n->d);
            int32_t v = n->d + 1;
            for (int32_t a = c->nodes[c->nodes[link].a].a; a >= 0; a = c->nodes[a].next, v++) {
                kc_lower_expr(c, a);
                kc_store_var(c, v);
            }
            kc_lower_expr(c, n->c);
            if (c->nodes[link].op == C_NOTIN) kc_emit(c, K_NOT, 0);
            return;
        }
        if (n->pow_float) {  /* type(x) == C, decided by the types (kc_type_compare) */
            int32_t operands[2] = {left, c->nodes[link].a};
            for (int i = 0; i < 2; i++)
                if (c->nodes[operands[i]].kind == E_CALL) {
                    kc_lower_expr(c, c->nodes[operands[i]].a);
                    kc_emit(c, K_POP, 0);
                }
            kc_emit(c, K_LOADI, n->pow_float - 1);
            return;
        }
        kc_lower_expr(c, left);
        if (c->nodes[link].next < 0) {
            if (c->nodes[link].spare & 1) kc_emit(c, K_TUPLE_NEW, 1);  /* kc_opt_compare: made an Optional */
            kc_lower_expr(c, c->nodes[link].a);
            if (c->nodes[link].spare & 2) kc_emit(c, K_TUPLE_NEW, 1);
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
        if (n->pow_float > 0) {  /* iterated: the list of its items (kc_tuple_items) */
            kc_emit(c, K_UNPACK_TUPLE, n->pow_float);
            kc_emit(c, K_LIST_NEW, n->pow_float);
        }
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
        if (n->op == 202) {  /* xs.copy() */
            kc_lower_expr(c, n->a);
            kc_emit(c, K_LIST_SLICE, 0);
            return;
        }
        if (n->op >= 100) { kc_list_method(c, n, n->op - 100); return; }
        kc_lower_expr(c, n->a);
        for (int32_t a = n->b; a >= 0; a = c->nodes[a].next) kc_lower_expr(c, a);
        if (n->op == 0) {  /* xs.append(v) as a value: None */
            kc_emit(c, K_LIST_APPEND, 0);
            kc_emit(c, K_LOADI, 0);
            return;
        }
        if (n->op - 1 == KC_STR_M_SPLIT) { kc_emit(c, n->b >= 0 ? K_STR_SPLIT : K_STR_SPLIT_WS, 0); return; }
        if (n->op - 1 == KC_STR_M_FIND && n->ival == 2) { kc_find_from(c); return; }
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
KC_NOINLINE KC_FN void kc_loop_body(kc_ctx *c, kc_node *s) {
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

/* the loop body of s (kc_loop_body) with cont and brk the targets of its continue and break */
KC_NOINLINE KC_FN void kc_loop_in(kc_ctx *c, kc_node *s, int32_t cont, int32_t brk) {
    c->loops[2 * c->n_loops] = cont;
    c->loops[2 * c->n_loops + 1] = brk;
    c->n_loops++;
    kc_loop_body(c, s);
    c->n_loops--;
}

/* for NAME in range(...): the plain test-and-increment loop (no FOR_RANGE at -O0) */
KC_NOINLINE KC_FN void kc_range_loop(kc_ctx *c, kc_node *s) {
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
        kc_loop_in(c, s, test, end);
        kc_place(c, test);
        c->line = line;
        kc_emit(c, K_FOR_RANGE, value | cur << 12);
        kc_loop_back(c, top, end);
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
    kc_loop_in(c, s, top, end);
    kc_loop_back(c, top, end);
}

/* for NAME in <str or list>: the index loop (no FOR_LIST / FOR_STR at -O0), the length read
   afresh each time as CPython's iterators do */
/* the values of names (a list linked by next) on the stack, the last on top: stored right to
   left, a repeated name keeping its last value (lower.py's store_names_reversed) */
KC_NOINLINE KC_FN void kc_store_names_reversed(kc_ctx *c, int32_t first) {
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
/* `xs[:] = v` with v on the stack (lower.py's slice_store of a slice without bounds or step): v
   copied, then xs rebuilt in place from xs[:0] + v + xs[0 + len(xs[:]):], which aliases see */
KC_NOINLINE KC_FN void kc_slice_store(kc_ctx *c, int32_t target) {
    int32_t v = kc_temp(c), a = kc_temp(c);
    kc_emit(c, K_LIST_SLICE, 0);
    kc_emit(c, K_STORE, v);
    kc_lower_expr(c, c->nodes[target].a);
    kc_emit(c, K_STORE, a);
    int32_t head = kc_temp(c), tail = kc_temp(c);
    kc_emit(c, K_LOAD, a);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_LIST_SLICE, 2);
    kc_emit(c, K_STORE, head);
    kc_emit(c, K_LOAD, a);
    kc_emit(c, K_LOAD, head);
    kc_emit(c, K_LIST_LEN, 0);
    kc_emit(c, K_LOAD, a);
    kc_emit(c, K_LIST_SLICE, 0);
    kc_emit(c, K_LIST_LEN, 0);
    kc_emit(c, K_ADD_I, 0);
    kc_emit(c, K_LIST_SLICE, 1);
    kc_emit(c, K_STORE, tail);
    kc_emit(c, K_LOAD, a);
    kc_emit(c, K_LOADI, 0);
    kc_emit(c, K_LIST_IREPEAT, 0);
    kc_emit(c, K_LOAD, head);
    kc_emit(c, K_LIST_EXTEND, 0);
    kc_emit(c, K_LOAD, v);
    kc_emit(c, K_LIST_EXTEND, 0);
    kc_emit(c, K_LOAD, tail);
    kc_emit(c, K_LIST_EXTEND, 0);
    kc_emit(c, K_POP, 0);
}

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
KC_NOINLINE KC_FN void kc_dict_loop(kc_ctx *c, kc_node *s) {
    int32_t top = kc_label(c), end = kc_label(c);
    int32_t source = c->nodes[s->b].kind == E_METHOD ? c->nodes[s->b].a : s->b;
    int32_t d = kc_temp(c), n = kc_temp(c), i = kc_temp(c), same = kc_label(c);
    kc_lower_expr(c, source);
    kc_emit(c, K_STORE, d);
    kc_emit(c, K_LOAD, d);
    kc_emit(c, K_TUPLE_GET, 0);
    kc_emit(c, K_LIST_LEN, 0);
    kc_emit(c, K_STORE, n);
    kc_index_loop_head(c, i, top);
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
    kc_increment(c, i, 1);
    kc_loop_in(c, s, top, end);
    kc_loop_back(c, top, end);
}

/* for target in zip(a, b, ...): the sequences once, in order; each step reads the lengths afresh
   and stops at the shortest (lower.py's zip_loop) */
KC_NOINLINE KC_FN void kc_zip_loop(kc_ctx *c, kc_node *s) {
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
    kc_index_loop_head(c, i, top);
    int k = 0;
    for (int32_t a = c->nodes[s->b].a; a >= 0; a = c->nodes[a].next, k++) {
        kc_while_index_below_len(c, i, slots[k], c->nodes[a].ty == T_STR ? K_STR_LEN : K_LIST_LEN, end);
    }
    k = 0;
    for (int32_t a = c->nodes[s->b].a; a >= 0; a = c->nodes[a].next, k++) {
        kc_load_item(c, slots[k], i, c->nodes[a].ty == T_STR ? K_STR_INDEX : K_LIST_INDEX);
    }
    if (c->nodes[s->a].kind == E_TUPLE && kc_list_len(c, c->nodes[s->a].a) == count) {
        kc_store_names_reversed(c, c->nodes[s->a].a);
    } else {
        kc_emit(c, K_TUPLE_NEW, count);
        kc_store_target(c, s->a);
    }
    kc_increment(c, i, 1);
    kc_loop_in(c, s, top, end);
    kc_loop_back(c, top, end);
}

KC_NOINLINE KC_FN void kc_seq_loop(kc_ctx *c, kc_node *s) {
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
        kc_while_index_below_len(c, i, seq, is_str ? K_STR_LEN : K_LIST_LEN, end);
        kc_load_item(c, seq, i, is_str ? K_STR_INDEX : K_LIST_INDEX);
        kc_store_target(c, s->a);
        kc_increment(c, i, -1);
        kc_loop_in(c, s, top, end);
        kc_loop_back(c, top, end);
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
            kc_increment(c, count, 1);
        }
        kc_loop_in(c, s, test, end);
        kc_place(c, test);
        c->line = line;
        kc_emit(c, is_str ? K_FOR_STR : K_FOR_LIST, item | seq << 12);
        kc_loop_back(c, top, end);
        return;
    }
    kc_index_loop_head(c, i, top);
    kc_while_index_below_len(c, i, seq, is_str ? K_STR_LEN : K_LIST_LEN, end);
    if (en) kc_emit(c, K_LOAD, count);
    kc_load_item(c, seq, i, is_str ? K_STR_INDEX : K_LIST_INDEX);
    if (en) kc_store_pair(c, s->a);
    else kc_store_target(c, s->a);
    kc_increment(c, i, 1);
    if (en) kc_increment(c, count, 1);
    kc_loop_in(c, s, top, end);
    kc_loop_back(c, top, end);
}

KC_NOINLINE KC_FN void kc_lower_stmt(kc_ctx *c, int32_t k) {
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
        if (c->fn->opt && (s->a < 0 || c->nodes[s->a].kind == E_NONE)) {
            kc_emit(c, K_LOADI, -1);  /* lower.py: None of an Optional (kwrap "none") */
        } else if (s->a < 0) {
            kc_emit(c, K_LOADI, 0);
        } else {
            kc_lower_expr(c, s->a);
            if (c->fn->opt) kc_emit(c, K_TUPLE_NEW, 1);  /* kwrap "some" */
        }
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
            (vn->kind == E_INT || (vn->kind == E_FLOAT && vn->spare != 2) || vn->kind == E_BOOL || vn->kind == E_STR ||
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
            } else if (c->nodes[t].kind == E_SLICE) {
                kc_slice_store(c, t);
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
        kc_loop_back(c, top, end);
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

KC_NOINLINE KC_FN void kc_lower_block(kc_ctx *c, int32_t s) {
    for (; s >= 0 && !c->err; s = c->nodes[s].next) {
        c->line = c->nodes[s].line;
        kc_lower_stmt(c, s);
    }
}

KC_NOINLINE KC_FN int32_t kc_type_index(kc_ctx *c, int t) {
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

#endif /* KILN_KC_LOWER_H */
