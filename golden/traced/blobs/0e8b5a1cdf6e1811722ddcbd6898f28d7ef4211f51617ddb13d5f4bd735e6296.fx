# for_loop with a vector and an index iter arg and a captured buffer: acc += x[i, :], k += i.
region_0:graph():
    %i : [num_users=2] = placeholder[target=i]
    %acc : [num_users=1] = placeholder[target=acc]
    %k : [num_users=1] = placeholder[target=k]
    %x : [num_users=1] = placeholder[target=x]
    %kernel_buffer_load : [num_users=1] = call_function[target=kernel_buffer_load](args = (%x, (%i, 0), (N,)), kwargs = {})
    %add : [num_users=1] = call_function[target=operator.add](args = (%acc, %kernel_buffer_load), kwargs = {})
    %add_1 : [num_users=1] = call_function[target=operator.add](args = (%k, %i), kwargs = {})
    return (%add, %add_1)
region_1:graph():
    %x : InputBuffer[R, N] [num_users=1] = placeholder[target=x]
    %out : OutputBuffer[N] [num_users=1] = placeholder[target=out]
    %cnt : OutputBuffer[1].of(i32) [num_users=1] = placeholder[target=cnt]
    %vector_constant : [num_users=1] = call_function[target=vector_constant](args = ((N,), f32, 0.0), kwargs = {})
    %for_loop : [num_users=2] = call_function[target=for_loop](args = (0, R, 1, [%vector_constant, 0]), kwargs = {subgraph: region_0, implicit_capture: [%x]})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%for_loop, 0), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%for_loop, 1), kwargs = {})
    %kernel_buffer_store : [num_users=0] = call_function[target=kernel_buffer_store](args = (%out, (0,), %getitem), kwargs = {})
    %kernel_buffer_store_1 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%cnt, (0,), %getitem_1), kwargs = {})
    return None
