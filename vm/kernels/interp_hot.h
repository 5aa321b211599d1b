/* interp_hot.h: the handlers of the hot instructions, written once, included twice by kiln_run
 * (interp.h) inside its dispatch loop; no include guard, and nothing here stands alone.
 *
 * 1. In the switch, as the checked cases every build has (CUDA and the switch build included):
 *    every check runs.
 * 2. In a computed-goto build (KILN_FAST_HANDLERS), again after the switch's cases as the fast
 *    handlers that the label table kiln_fast reaches, only for a program that
 *    kiln_program_verify passed: the checks that verification made once are left out.
 *
 * The includer defines, for each copy:
 *   HOT(op)           the handler's label: CASE(op) in the switch, F_op for the fast one;
 *   HOT_NEXT          the dispatch that ends a handler: NEXT, or FNEXT (through kiln_fast);
 *   VERIFIED(...)     a check on the code alone that kiln_program_verify made (operand stack
 *                     depth, local slot, constant or function index, loop-step operands): its
 *                     text in the checked copy, nothing in the fast one;
 *   HOT_GOTO(target)  a jump: GOTO (a target past the end goes to the guard) in the checked copy,
 *                     ip = code + target in the fast one (targets verified inside the code);
 *   LOOP_TAKE(value)  a loop step's taken branch: local arg & 0xfff = value, then the jump to
 *                     the target of the JUMP after the step (GOTO, or ip = code + target).
 *   FAST_ONLY(...)    nothing in the checked copy, its text in the fast one (a shortcut with the
 *                     same effect: CALL and RET within one function, as in recursion).
 * Every check on the data (heap and image bounds, indices, overflow, sizes, call depth,
 * StackExhausted at a call) and the fuel count stay in both. */

/* an int instruction of two operands; a compare-and-jump */
#define INT2(expr) do { VERIFIED(NEED(2)); { int64_t a = sp[-2], b = sp[-1]; sp[-2] = (expr); sp--; } } while (0)
#define JUMP2(cond) do { VERIFIED(NEED(2)); { int64_t a = sp[-2], b = sp[-1]; sp -= 2; if (cond) HOT_GOTO(arg); } } while (0)

/* -- stack and constants */
HOT(OP_POP): VERIFIED(NEED(1)); sp--; HOT_NEXT;
HOT(OP_DUP): VERIFIED(NEED(1); ROOM(1)); sp[0] = sp[-1]; sp++; HOT_NEXT;
HOT(OP_SWAP): { int64_t t; VERIFIED(NEED(2)); t = sp[-1]; sp[-1] = sp[-2]; sp[-2] = t; HOT_NEXT; }
HOT(OP_LOADI): VERIFIED(ROOM(1)); *sp++ = IMM(arg); HOT_NEXT;
HOT(OP_CONST): VERIFIED(ROOM(1); if (arg >= prog->n_consts) TRAP(TRAP_MemoryFault)); *sp++ = prog->consts[arg]; HOT_NEXT;
HOT(OP_STR):
    VERIFIED({
        int64_t n;
        const int64_t *cp;
        ROOM(1);
        if (arg >= prog->image_len || kiln_str(&vm, arg, &n, &cp)) TRAP(TRAP_MemoryFault);
    });
    *sp++ = arg;
    HOT_NEXT;
HOT(OP_LOAD): VERIFIED(ROOM(1); if (arg >= nloc) TRAP(TRAP_MemoryFault)); *sp++ = loc[arg]; HOT_NEXT;
HOT(OP_STORE): VERIFIED(NEED(1); if (arg >= nloc) TRAP(TRAP_MemoryFault)); loc[arg] = *--sp; HOT_NEXT;
HOT(OP_LOAD2):
    VERIFIED(ROOM(2); if ((arg & 0xfff) >= nloc || (arg >> 12) >= nloc) TRAP(TRAP_MemoryFault));
    sp[0] = loc[arg & 0xfff];
    sp[1] = loc[arg >> 12];
    sp += 2;
    HOT_NEXT;

/* -- control */
HOT(OP_JUMP): HOT_GOTO(arg); HOT_NEXT;
HOT(OP_JUMP_IF_FALSE): VERIFIED(NEED(1)); if (!*--sp) HOT_GOTO(arg); HOT_NEXT;
HOT(OP_JUMP_IF_TRUE): VERIFIED(NEED(1)); if (*--sp) HOT_GOTO(arg); HOT_NEXT;
HOT(OP_JUMP_LT_I): JUMP2(a < b); HOT_NEXT;
HOT(OP_JUMP_LE_I): JUMP2(a <= b); HOT_NEXT;
HOT(OP_JUMP_GT_I): JUMP2(a > b); HOT_NEXT;
HOT(OP_JUMP_GE_I): JUMP2(a >= b); HOT_NEXT;
HOT(OP_JUMP_EQ_I): JUMP2(a == b); HOT_NEXT;
HOT(OP_JUMP_NE_I): JUMP2(a != b); HOT_NEXT;
/* loop steps: the state is updated before the target local is written (vm/ref.py); the word
   after a step is its JUMP (LOOP_STEP checks it, verification made sure), taken or skipped */
HOT(OP_FOR_RANGE): {
    int64_t *st, cur, next;
    VERIFIED(LOOP_STEP(3));
    st = loc + (arg >> 12);
    cur = st[0];
    if (RANGE_MORE(st, cur)) {
        RANGE_ADVANCE(st, cur, next);
        LOOP_TAKE(cur);
    } else {
        ip++;
    }
    HOT_NEXT;
}
HOT(OP_FOR_LIST): {
    int64_t *st, n, *h, *items;
    VERIFIED(LOOP_STEP(2));
    st = loc + (arg >> 12);
    if (kiln_list(&vm, st[0], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
    if (st[1] >= 0 && st[1] < n) {
        int64_t v = items[st[1]];
        st[1]++;
        LOOP_TAKE(v);
    } else {
        ip++;
    }
    HOT_NEXT;
}
HOT(OP_FOR_STR): {
    int64_t *st, n, addr;
    const int64_t *cp;
    VERIFIED(LOOP_STEP(2));
    st = loc + (arg >> 12);
    if (kiln_str(&vm, st[0], &n, &cp)) TRAP(TRAP_MemoryFault);
    if (st[1] >= 0 && st[1] < n) {
        CHECK(kiln_char(&vm, cp[st[1]], &addr));
        st[1]++;
        LOOP_TAKE(addr);
    } else {
        ip++;
    }
    HOT_NEXT;
}
HOT(OP_CALL): {
    const int64_t *cf;
    int64_t np, base;
    VERIFIED(if (arg >= prog->n_funcs) TRAP(TRAP_MemoryFault));
    cf = prog->funcs + arg * KILN_FUNC_WORDS;
    np = cf[KILN_F_NPARAMS];
    VERIFIED(NEED(np));
    if (depth >= lim->max_call_depth) TRAP(TRAP_RecursionError);
    base = (sp - np) - stack;
    FAST_ONLY(if (arg == frames[depth - 1].func) { /* code, clen, nloc and hi - loc stay */
        ENTER_SELF(np, (int32_t)arg, base, hi - loc); /* span: cf's NLOCALS + MAXSTACK */
        HOT_NEXT;
    })
    if (base + cf[KILN_F_NLOCALS] + cf[KILN_F_MAXSTACK] > stack_words) TRAP(TRAP_StackExhausted);
    frames[depth - 1].ret_pc = (int32_t)(ip - code);
    frames[depth].func = (int32_t)arg;
    frames[depth].base = base;
    depth++;
    loc = stack + base;
    nloc = cf[KILN_F_NLOCALS];
    if (np < nloc) /* (GCC makes the loop a call of memset: none for no locals to clear) */
        for (i = np; i < nloc; i++) loc[i] = 0;
    lo = sp = loc + nloc;
    hi = lo + cf[KILN_F_MAXSTACK];
    code = prog->code + cf[KILN_F_START];
    clen = cf[KILN_F_LEN];
    ip = code;
    HOT_NEXT;
}
HOT(OP_RET): {
    const int64_t *cf;
    int64_t r;
    VERIFIED(NEED(1));
    r = sp[-1];
    if (depth == 1) { result = r; goto done; }
    sp = loc; /* stack + frames[depth - 1].base: this frame's first local */
    depth--;
    FAST_ONLY(if (frames[depth].func == frames[depth - 1].func) { /* as CALL's shortcut */
        int64_t span = hi - loc;
        loc = stack + frames[depth - 1].base;
        lo = loc + nloc;
        hi = loc + span;
        ip = code + frames[depth - 1].ret_pc;
        *sp++ = r;
        HOT_NEXT;
    })
    cf = prog->funcs + (int64_t)frames[depth - 1].func * KILN_FUNC_WORDS;
    loc = stack + frames[depth - 1].base;
    nloc = cf[KILN_F_NLOCALS];
    lo = loc + nloc;
    hi = lo + cf[KILN_F_MAXSTACK];
    code = prog->code + cf[KILN_F_START];
    clen = cf[KILN_F_LEN];
    ip = code + frames[depth - 1].ret_pc;
    VERIFIED(ROOM(1));
    *sp++ = r;
    HOT_NEXT;
}

/* -- int */
HOT(OP_ADD_I): { int64_t r; VERIFIED(NEED(2)); if (kiln_add_ovf(sp[-2], sp[-1], &r)) TRAP(TRAP_Overflow); sp[-2] = r; sp--; HOT_NEXT; }
HOT(OP_ADDI): { int64_t r; VERIFIED(NEED(1)); if (kiln_add_ovf(sp[-1], IMM(arg), &r)) TRAP(TRAP_Overflow); sp[-1] = r; HOT_NEXT; }
HOT(OP_SUB_I): { int64_t r; VERIFIED(NEED(2)); if (kiln_sub_ovf(sp[-2], sp[-1], &r)) TRAP(TRAP_Overflow); sp[-2] = r; sp--; HOT_NEXT; }
HOT(OP_MUL_I): { int64_t r; VERIFIED(NEED(2)); if (kiln_mul_ovf(sp[-2], sp[-1], &r)) TRAP(TRAP_Overflow); sp[-2] = r; sp--; HOT_NEXT; }
HOT(OP_AND_I): INT2(a & b); HOT_NEXT;
HOT(OP_OR_I): INT2(a | b); HOT_NEXT;
HOT(OP_XOR_I): INT2(a ^ b); HOT_NEXT;
HOT(OP_LT_I): INT2(a < b); HOT_NEXT;
HOT(OP_LE_I): INT2(a <= b); HOT_NEXT;
HOT(OP_GT_I): INT2(a > b); HOT_NEXT;
HOT(OP_GE_I): INT2(a >= b); HOT_NEXT;
HOT(OP_EQ_I): INT2(a == b); HOT_NEXT;
HOT(OP_NE_I): INT2(a != b); HOT_NEXT;
HOT(OP_NOT): VERIFIED(NEED(1)); sp[-1] = sp[-1] == 0; HOT_NEXT;

/* -- the list instructions most loops run: the data's checks (kiln_list, the index) in both */
HOT(OP_LIST_LEN): {
    int64_t n, *h, *items;
    VERIFIED(NEED(1));
    if (kiln_list(&vm, sp[-1], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
    sp[-1] = n;
    HOT_NEXT;
}
HOT(OP_LIST_INDEX): {
    int64_t n, k, *h, *items;
    VERIFIED(NEED(2));
    if (kiln_list(&vm, sp[-2], 0, &h, &n, &items)) TRAP(TRAP_MemoryFault);
    k = kiln_index(sp[-1], n);
    if (k < 0) TRAP(TRAP_IndexError);
    sp[-2] = items[k];
    sp--;
    HOT_NEXT;
}
HOT(OP_LIST_STORE): {
    int64_t n, k, *h, *items;
    VERIFIED(NEED(3));
    if (kiln_list(&vm, sp[-3], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
    k = kiln_index(sp[-2], n);
    if (k < 0) TRAP(TRAP_IndexError);
    items[k] = sp[-1];
    sp -= 3;
    HOT_NEXT;
}
HOT(OP_LIST_APPEND): {
    int64_t n, *h, *items;
    VERIFIED(NEED(2));
    if (kiln_list(&vm, sp[-2], 1, &h, &n, &items)) TRAP(TRAP_MemoryFault);
    if (n + 1 > h[1]) CHECK(kiln_list_grow(&vm, h, n + 1, &items)); /* else it has room */
    items[n] = sp[-1];
    h[0] = n + 1;
    sp -= 2;
    HOT_NEXT;
}

#undef INT2
#undef JUMP2
