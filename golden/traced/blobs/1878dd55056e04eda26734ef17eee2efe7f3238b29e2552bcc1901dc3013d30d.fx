# exp2 of one row per program (dtype from the case: f32, f16, bf16).
region_0:graph():
    %x : InputBuffer[M, N] = placeholder[target=x]
    %out : OutputBuffer[M, N] = placeholder[target=out]
    %thread_program_id = call_function[target=thread_program_id](args = (0,))
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%x, (%thread_program_id, 0), (N,)))
    %exp2 = call_function[target=exp2](args = (%kernel_buffer_load,), kwargs = {})
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%out, (%thread_program_id, 0), %exp2))
    return None
