# Block load and store of the trailing dims of a 4-D buffer; the leading indices are
# program-id arithmetic (batch = pid1 // H, head = pid1 % H, row = pid0 * BLOCK).
region_0:graph():
    %x : InputBuffer[B, H, S, D] [num_users=1] = placeholder[target=x]
    %out : OutputBuffer[B, H, S, D] [num_users=1] = placeholder[target=out]
    %thread_program_id : SymIndex∈[0, S//BLOCK) [num_users=1] = call_function[target=thread_program_id](args = (0,), kwargs = {})
    %thread_program_id_1 : SymIndex∈[0, B*H) [num_users=2] = call_function[target=thread_program_id](args = (1,), kwargs = {})
    %floordiv : [num_users=2] = call_function[target=operator.floordiv](args = (%thread_program_id_1, H), kwargs = {})
    %mod : [num_users=2] = call_function[target=operator.mod](args = (%thread_program_id_1, H), kwargs = {})
    %mul : [num_users=2] = call_function[target=operator.mul](args = (%thread_program_id, BLOCK), kwargs = {})
    %kernel_buffer_load : [num_users=2] = call_function[target=kernel_buffer_load](args = (%x, (%floordiv, %mod, %mul, 0), (BLOCK, D)), kwargs = {})
    %add : [num_users=1] = call_function[target=operator.add](args = (%kernel_buffer_load, %kernel_buffer_load), kwargs = {})
    %kernel_buffer_store : [num_users=0] = call_function[target=kernel_buffer_store](args = (%out, (%floordiv, %mod, %mul, 0), %add), kwargs = {})
    return None
