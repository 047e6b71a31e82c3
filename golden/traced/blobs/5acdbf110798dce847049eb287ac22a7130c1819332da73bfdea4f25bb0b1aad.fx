# vector_broadcast (leading dims), vector_broadcast_in_dim (increasing and permuted dims),
# vector_transpose of a 3-D vector.
region_0:graph():
    %x : InputBuffer[N] = placeholder[target=x]
    %y : InputBuffer[A, B] = placeholder[target=y]
    %z : InputBuffer[P, Q, R] = placeholder[target=z]
    %ob : OutputBuffer[4, N] = placeholder[target=ob]
    %obid : OutputBuffer[M, N] = placeholder[target=obid]
    %obid2 : OutputBuffer[B, C, A] = placeholder[target=obid2]
    %ot : OutputBuffer[R, P, Q] = placeholder[target=ot]
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%x, (0,), (N,)))
    %kernel_buffer_load_1 = call_function[target=kernel_buffer_load](args = (%y, (0, 0), (A, B)))
    %kernel_buffer_load_2 = call_function[target=kernel_buffer_load](args = (%z, (0, 0, 0), (P, Q, R)))
    %vector_broadcast = call_function[target=vector_broadcast](args = (%kernel_buffer_load, (4,)))
    %vector_broadcast_in_dim = call_function[target=vector_broadcast_in_dim](args = (%kernel_buffer_load, (M, N), (1,)))
    %vector_broadcast_in_dim_1 = call_function[target=vector_broadcast_in_dim](args = (%kernel_buffer_load_1, (B, C, A), (2, 0)))
    %vector_transpose = call_function[target=vector_transpose](args = (%kernel_buffer_load_2, (2, 0, 1)))
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%ob, (0, 0), %vector_broadcast))
    %kernel_buffer_store_1 = call_function[target=kernel_buffer_store](args = (%obid, (0, 0), %vector_broadcast_in_dim))
    %kernel_buffer_store_2 = call_function[target=kernel_buffer_store](args = (%obid2, (0, 0, 0), %vector_broadcast_in_dim_1))
    %kernel_buffer_store_3 = call_function[target=kernel_buffer_store](args = (%ot, (0, 0, 0), %vector_transpose))
    return None
