# vector_dot: acc (f32) + lhs[M, K] . rhs[K, N] (lhs/rhs dtype from the case).
region_0:graph():
    %a : InputBuffer[M, K] = placeholder[target=a]
    %b : InputBuffer[K, N] = placeholder[target=b]
    %c : InputBuffer[M, N].of(f32) = placeholder[target=c]
    %out : OutputBuffer[M, N].of(f32) = placeholder[target=out]
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%a, (0, 0), (M, K)), kwargs = {})
    %kernel_buffer_load_1 = call_function[target=kernel_buffer_load](args = (%b, (0, 0), (K, N)), kwargs = {})
    %kernel_buffer_load_2 = call_function[target=kernel_buffer_load](args = (%c, (0, 0), (M, N)), kwargs = {})
    %vector_dot = call_function[target=vector_dot](args = (%kernel_buffer_load, %kernel_buffer_load_1), kwargs = {acc: %kernel_buffer_load_2})
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%out, (0, 0), %vector_dot), kwargs = {})
    return None
