/* kc_emit.h: assembly and the container (compiler/assemble.py, vm/container.py's
 * Program.to_bytes; kc.h includes it after kc_opt.h).
 *
 * Takes: every function's labelled code, after the passes (kc_opt.h) when any is on.
 * Gives: kc_assemble resolves each jump's label to an index within its function and computes
 * the function's maximum stack depth over its control-flow graph (operand counts from
 * kc_config: vm/isa.py's stack effects); kc_emit_container writes the `.kbc` container: header,
 * constants, string image, type descriptors, functions, code (vm/isa.py's opcode numbers), line
 * table and CRC-32.
 * Guarantees: byte for byte the reference's container for the same code; a stack that does not
 * balance, control that runs off a function's end, or an operand outside 24 bits stops kc
 * (an internal error, never a container), and nothing is written past the output's capacity
 * (kc_out.overflow).
 */
#ifndef KILN_KC_EMIT_H
#define KILN_KC_EMIT_H

/* ---- assemble: labels -> indices, maximum stack depth (compiler/assemble.py) --------------------- */

KC_NOINLINE KC_FN void kc_assemble(kc_ctx *c, kc_func *f) {
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

KC_NOINLINE KC_FN void kc_emit_container(kc_ctx *c, const char *name, int64_t name_len, kc_out *o) {
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
        int local = kc_is_dict(f->ret) ? 6 : 0;  /* reference.py: a dict's function is `name'local` */
        if (f->outer_tok >= 0) {  /* hoisted: outer.inner */
            const kc_tok *ot = &c->toks[f->outer_tok];
            kc_put_u32(o, (uint32_t)(ot->len + 1 + t->len + local));
            kc_put(o, c->src + ot->start, ot->len);
            kc_put(o, ".", 1);
        } else {
            kc_put_u32(o, (uint32_t)(t->len + local));
        }
        for (int32_t j = 0; j < t->len; j++) {  /* a source name, or `<module>` (kc_tch) */
            char ch = kc_tch(c, t, j);
            kc_put(o, &ch, 1);
        }
        if (local) kc_put(o, "'local", 6);
        kc_put_u32(o, (uint32_t)f->code_begin);
        kc_put_u32(o, (uint32_t)(f->code_end - f->code_begin));
        kc_put_u32(o, (uint32_t)f->n_params);
        kc_put_u32(o, (uint32_t)f->n_locals);
        kc_put_u32(o, (uint32_t)f->max_stack);
        kc_put_u32(o, (uint32_t)kc_type_index(c, f->opt ? f->ret | KC_OPT : f->ret));
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

#endif /* KILN_KC_EMIT_H */
