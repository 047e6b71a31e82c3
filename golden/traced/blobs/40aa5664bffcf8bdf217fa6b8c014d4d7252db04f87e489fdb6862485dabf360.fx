region_0:graph():
    %i : [num_users=2] = placeholder[target=i]
    %c : [num_users=1] = placeholder[target=c]
    %A : [num_users=1] = placeholder[target=A]
    %thread_program_id : [num_users=1] = placeholder[target=thread_program_id]
    %B : [num_users=1] = placeholder[target=B]
    %thread_program_id_1 : [num_users=1] = placeholder[target=thread_program_id_1]
    %mul : [num_users=1] = call_function[target=operator.mul](args = (%i, BLOCK_K), kwargs = {})
    %kernel_buffer_load : [num_users=1] = call_function[target=shark_turbine.kernel.ops.memory.kernel_buffer_load](args = (%A, (%thread_program_id, %mul), (BLOCK_N, BLOCK_K)), kwargs = {})
    %kernel_buffer_load_1 : [num_users=1] = call_function[target=shark_turbine.kernel.ops.memory.kernel_buffer_load](args = (%B, (i*BLOCK_K, %thread_program_id_1), (BLOCK_K, BLOCK_M)), kwargs = {})
    %vector_dot : [num_users=1] = call_function[target=shark_turbine.kernel.ops.math.vector_dot](args = (%kernel_buffer_load, %kernel_buffer_load_1, %c), kwargs = {})
    return (%vector_dot,)
region_1 [root]:graph():
    %A : InputBuffer[N, K] [num_users=1] = placeholder[target=A]
    %B : InputBuffer[K, M] [num_users=1] = placeholder[target=B]
    %output : OutputBuffer[N, M] [num_users=1] = placeholder[target=output]
    %thread_program_id : SymIndexE[0, N//BLOCK_N) [num_users=2] = call_function[target=shark_turbine.kernel.ops.core.thread_program_id](args = (0,), kwargs = {})
    %thread_program_id_1 : SymIndexE[0, M//BLOCK_M) [num_users=2] = call_function[target=shark_turbine.kernel.ops.core.thread_program_id](args = (1,), kwargs = {})
    %mul : [num_users=2] = call_function[target=operator.mul](args = (%thread_program_id, BLOCK_N), kwargs = {})
    %mul_1 : [num_users=2] = call_function[target=operator.mul](args = (%thread_program_id_1, BLOCK_M), kwargs = {})
    %vector_constant : [num_users=1] = call_function[target=shark_turbine.kernel.ops.core.vector_constant](args = ((BLOCK_N, BLOCK_M), f32, 0.0), kwargs = {})
    %for_loop : [num_users=1] = call_function[target=shark_turbine.kernel.ops.control_flow.for_loop](args = (0, K//BLOCK_K, 1, [%vector_constant]), kwargs = {subgraph: region_0, implicit_capture: [%A, %mul, %B, %mul_1]})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%for_loop, 0), kwargs = {})
    %kernel_buffer_store : [num_users=0] = call_function[target=shark_turbine.kernel.ops.memory.kernel_buffer_store](args = (%output, (%mul, %mul_1), %getitem), kwargs = {})
    return None
