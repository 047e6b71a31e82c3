# kb[pid, :] + 1 written with kb[pid, 0:N] = ...: kernel_buffer_getitem / kernel_buffer_setitem
# (an integer index keeps a size-1 dim, as TK's codegen).
region_0:graph():
    %a : InputBuffer[M, N] [num_users=1] = placeholder[target=a]
    %out : OutputBuffer[M, N] [num_users=1] = placeholder[target=out]
    %program_id : [num_users=2] = call_function[target=shark_turbine.kernel.lang.prims.program_id](args = (0,), kwargs = {})
    %kernel_buffer_getitem : [num_users=1] = call_function[target=shark_turbine.kernel.ops.memory.kernel_buffer_getitem](args = (%a, (%program_id, slice(None, None, None))), kwargs = {})
    %add : [num_users=1] = call_function[target=operator.add](args = (%kernel_buffer_getitem, 1), kwargs = {})
    %kernel_buffer_setitem : [num_users=0] = call_function[target=shark_turbine.kernel.ops.memory.kernel_buffer_setitem](args = (%out, (%program_id, slice(0, N, None)), %add), kwargs = {})
    return None
