# Fused attention (TK tests/kernel/fused_attention_test.py), printed as
# CapturedTrace prints it: the loop body region_0 first, then the root.
region_0:graph():
    %i : [num_users=2] = placeholder[target=i]
    %old_max : [num_users=2] = placeholder[target=old_max]
    %old_sum : [num_users=1] = placeholder[target=old_sum]
    %old_acc : [num_users=1] = placeholder[target=old_acc]
    %K : [num_users=1] = placeholder[target=K]
    %floordiv : [num_users=2] = placeholder[target=floordiv]
    %mod : [num_users=2] = placeholder[target=mod]
    %kernel_buffer_load : [num_users=1] = placeholder[target=kernel_buffer_load]
    %V : [num_users=1] = placeholder[target=V]
    %kernel_buffer_load_1 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.memory.kernel_buffer_load](args = (%K, (%floordiv, %mod, %i, 0), (BLOCK_N, D_HEAD)), kwargs = {})
    %vector_transpose : [num_users=1] = call_function[target=iree.turbine.kernel.ops.shape_manipulation.vector_transpose](args = (%kernel_buffer_load_1, (1, 0)), kwargs = {})
    %vector_constant : [num_users=1] = call_function[target=iree.turbine.kernel.ops.core.vector_constant](args = ((BLOCK_M, BLOCK_N), f32, 0.0), kwargs = {})
    %vector_dot : [num_users=2] = call_function[target=iree.turbine.kernel.ops.math.vector_dot](args = (%kernel_buffer_load, %vector_transpose, %vector_constant), kwargs = {})
    %vector_max : [num_users=3] = call_function[target=iree.turbine.kernel.ops.reduction.vector_max](args = (%vector_dot,), kwargs = {axis: 1, acc: %old_max})
    %vector_broadcast : [num_users=1] = call_function[target=iree.turbine.kernel.ops.shape_manipulation.vector_broadcast](args = (%vector_max, (BLOCK_N,)), kwargs = {})
    %vector_transpose_1 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.shape_manipulation.vector_transpose](args = (%vector_broadcast, (1, 0)), kwargs = {})
    %sub : [num_users=1] = call_function[target=operator.sub](args = (%vector_dot, %vector_transpose_1), kwargs = {})
    %exp2 : [num_users=2] = call_function[target=iree.turbine.kernel.ops.math.exp2](args = (%sub,), kwargs = {})
    %sub_1 : [num_users=1] = call_function[target=operator.sub](args = (%old_max, %vector_max), kwargs = {})
    %exp2_1 : [num_users=2] = call_function[target=iree.turbine.kernel.ops.math.exp2](args = (%sub_1,), kwargs = {})
    %mul : [num_users=1] = call_function[target=operator.mul](args = (%exp2_1, %old_sum), kwargs = {})
    %vector_sum : [num_users=1] = call_function[target=iree.turbine.kernel.ops.reduction.vector_sum](args = (%exp2, 1, %mul), kwargs = {})
    %vector_broadcast_1 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.shape_manipulation.vector_broadcast](args = (%exp2_1, (D_HEAD,)), kwargs = {})
    %vector_transpose_2 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.shape_manipulation.vector_transpose](args = (%vector_broadcast_1, (1, 0)), kwargs = {})
    %mul_1 : [num_users=1] = call_function[target=operator.mul](args = (%old_acc, %vector_transpose_2), kwargs = {})
    %kernel_buffer_load_2 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.memory.kernel_buffer_load](args = (%V, (%floordiv, %mod, %i, 0), (BLOCK_N, D_HEAD)), kwargs = {})
    %to_dtype : [num_users=1] = call_function[target=iree.turbine.kernel.ops.core.to_dtype](args = (%exp2, f16), kwargs = {})
    %vector_dot_1 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.math.vector_dot](args = (%to_dtype, %kernel_buffer_load_2, %mul_1), kwargs = {})
    return (%vector_max, %vector_sum, %vector_dot_1)
region_1:graph():
    %Q : InputBuffer[BATCH, N_HEADS, N_CTX, D_HEAD].of(f16) [num_users=1] = placeholder[target=Q]
    %K : InputBuffer[BATCH, N_HEADS, N_CTX, D_HEAD].of(f16) [num_users=1] = placeholder[target=K]
    %V : InputBuffer[BATCH, N_HEADS, N_CTX, D_HEAD].of(f16) [num_users=1] = placeholder[target=V]
    %O : OutputBuffer[BATCH, N_HEADS, N_CTX, D_HEAD].of(f32) [num_users=1] = placeholder[target=O]
    %thread_program_id : SymIndex∈[0, N_CTX//BLOCK_M) [num_users=2] = call_function[target=iree.turbine.kernel.ops.core.thread_program_id](args = (0,), kwargs = {})
    %thread_program_id_1 : SymIndex∈[0, BATCH*N_HEADS) [num_users=2] = call_function[target=iree.turbine.kernel.ops.core.thread_program_id](args = (1,), kwargs = {})
    %floordiv : [num_users=3] = call_function[target=operator.floordiv](args = (%thread_program_id_1, N_HEADS), kwargs = {})
    %mod : [num_users=3] = call_function[target=operator.mod](args = (%thread_program_id_1, N_HEADS), kwargs = {})
    %mul : [num_users=1] = call_function[target=operator.mul](args = (%thread_program_id, BLOCK_M), kwargs = {})
    %kernel_buffer_load : [num_users=1] = call_function[target=iree.turbine.kernel.ops.memory.kernel_buffer_load](args = (%Q, (%floordiv, %mod, %mul, 0), (BLOCK_M, D_HEAD)), kwargs = {})
    %vector_constant : [num_users=1] = call_function[target=iree.turbine.kernel.ops.core.vector_constant](args = ((BLOCK_M, D_HEAD), f32, 0.0), kwargs = {})
    %vector_constant_1 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.core.vector_constant](args = ((BLOCK_M,), f32, -1000000000.0), kwargs = {})
    %vector_constant_2 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.core.vector_constant](args = ((BLOCK_M,), f32, 0.0), kwargs = {})
    %for_loop : [num_users=2] = call_function[target=iree.turbine.kernel.ops.control_flow.for_loop](args = (0, N_CTX, BLOCK_N, [%vector_constant_1, %vector_constant_2, %vector_constant]),
        kwargs = {subgraph: region_0, implicit_capture: [%K, %floordiv, %mod, %kernel_buffer_load, %V]})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%for_loop, 1), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%for_loop, 2), kwargs = {})
    %vector_constant_3 : [num_users=1] = call_function[target=iree.turbine.kernel.ops.core.vector_constant](args = ((BLOCK_M,), f32, 1.0), kwargs = {})
    %truediv : [num_users=1] = call_function[target=operator.truediv](args = (%vector_constant_3, %getitem), kwargs = {})
    %vector_broadcast : [num_users=1] = call_function[target=iree.turbine.kernel.ops.shape_manipulation.vector_broadcast](args = (%truediv, (D_HEAD,)), kwargs = {})
    %vector_transpose : [num_users=1] = call_function[target=iree.turbine.kernel.ops.shape_manipulation.vector_transpose](args = (%vector_broadcast, (1, 0)), kwargs = {})
    %mul_2 : [num_users=1] = call_function[target=operator.mul](args = (%thread_program_id, BLOCK_M), kwargs = {})
    %mul_3 : [num_users=1] = call_function[target=operator.mul](args = (%vector_transpose, %getitem_1), kwargs = {})
    %kernel_buffer_store : [num_users=0] = call_function[target=iree.turbine.kernel.ops.memory.kernel_buffer_store](args = (%O, (%floordiv, %mod, %mul_2, 0), %mul_3), kwargs = {})
    return None
