region_0:graph():
    %input_1 : InputBuffer[M, K] = placeholder[target=input]
    %output : OutputBuffer[M, K] = placeholder[target=output]
    %thread_program_id : SymIndex∈[0, M) = call_function[target=thread_program_id](args = (0,))
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%input_1, (%thread_program_id, 0), (1, K)))
    %vector_max = call_function[target=vector_max](args = (%kernel_buffer_load,))
    %sub = call_function[target=sub](args = (%kernel_buffer_load, %vector_max))
    %exp2 = call_function[target=exp2](args = (%sub,), kwargs = {})
    %vector_sum = call_function[target=vector_sum](args = (%exp2,))
    %truediv = call_function[target=truediv](args = (%exp2, %vector_sum))
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%output, (%thread_program_id, 0), %truediv))
    return None
