/*
 * ir_fx_op_list.h: every call_function target the TK fx front end knows, one
 * row each (TK `define_op` ops and the traced Python operators). Columns:
 * X(NAME, "fx target", min args, max args) where args count positional and
 * keyword arguments together; the comment is the op's meaning (full text:
 * docs/semantics.md, "Traced kernel graphs"). No include guard.
 */
X(THREAD_PROGRAM_ID,   "thread_program_id",       1, 1) /* (axis): program index along axis 0..2, an index value */
X(LOAD,                "kernel_buffer_load",      3, 3) /* (kb, multi_index, shape): block read of the trailing dims */
X(STORE,               "kernel_buffer_store",     3, 3) /* (kb, multi_index, item): block write of the trailing dims */
X(GETITEM_KB,          "kernel_buffer_getitem",   2, 2) /* (kb, key): python-slice read, integer index = size-1 dim */
X(SETITEM_KB,          "kernel_buffer_setitem",   3, 3) /* (kb, key, item): python-slice write */
X(CONSTANT,            "vector_constant",         3, 3) /* (shape, dtype, value): splat constant */
X(EXP2,                "exp2",                    1, 1) /* (val): 2^x, floats only */
X(VECTOR_MAX,          "vector_max",              1, 3) /* (vector, axis=None, acc=None): max, NaN ignored, init acc or 0 */
X(VECTOR_SUM,          "vector_sum",              1, 3) /* (vector, axis=None, acc=None): sum, init acc or 0 */
X(VECTOR_DOT,          "vector_dot",              2, 3) /* (lhs, rhs, acc): acc + lhs[n,k].rhs[k,m] in acc's type */
X(VECTOR_BROADCAST,    "vector_broadcast",        2, 2) /* (v, leading_sizes): prepend dims */
X(BROADCAST_IN_DIM,    "vector_broadcast_in_dim", 3, 3) /* (v, shape, bdims): v's dim i becomes dim bdims[i] */
X(VECTOR_TRANSPOSE,    "vector_transpose",        2, 2) /* (v, permutation): out.shape[i] = in.shape[perm[i]] */
X(TO_DTYPE,            "to_dtype",                2, 2) /* (val, dtype): arith cast (RTNE narrowing) */
X(FOR_LOOP,            "for_loop",                1, 6) /* (start, stop, step, init_args; subgraph, implicit_capture): scf.for */
X(ADD,                 "add",                     2, 2) /* a + b, numpy broadcast */
X(SUB,                 "sub",                     2, 2) /* a - b, numpy broadcast */
X(MUL,                 "mul",                     2, 2) /* a * b, numpy broadcast */
X(TRUEDIV,             "truediv",                 2, 2) /* a / b, floats only */
X(FLOORDIV,            "floordiv",                2, 2) /* a // b rounding down, integers only */
X(MOD,                 "mod",                     2, 2) /* a % b: integers remsi (sign of a), floats fmod */
X(GETITEM,             "getitem",                 2, 2) /* (node, i): i-th result of a for_loop */
