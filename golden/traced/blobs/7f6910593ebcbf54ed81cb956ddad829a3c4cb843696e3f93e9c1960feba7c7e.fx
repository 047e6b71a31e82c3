# Index arithmetic on program ids: operator floordiv (floor) and mod (remsi: the sign of the
# dividend, as TK's codegen) by positive and negative divisors; the index value is stored as i32.
graph():
    %out : Output[P0, P1, P2].of(i32) [num_users=1] = placeholder[target=out]
    %thread_program_id : SymIndexE[0, P0) [num_users=2] = call_function[target=shark_turbine.kernel.lang.prims.program_id](args = (0,), kwargs = {})
    %thread_program_id_1 : SymIndex∈[0, P1) [num_users=2] = call_function[target=thread_program_id](args = (1,), kwargs = {})
    %thread_program_id_2 : SymIndex [num_users=2] = call_function[target=thread_program_id](args = (2,), kwargs = {})
    %sub : [num_users=4] = call_function[target=operator.sub](args = (%thread_program_id, 3), kwargs = {})
    %floordiv : [num_users=1] = call_function[target=operator.floordiv](args = (%sub, -2), kwargs = {})
    %mod : [num_users=1] = call_function[target=operator.mod](args = (%sub, -2), kwargs = {})
    %floordiv_1 : [num_users=1] = call_function[target=<built-in function floordiv>](args = (%sub, 2), kwargs = {})
    %mod_1 : [num_users=1] = call_function[target=_operator.mod](args = (%sub, 2), kwargs = {})
    %mul : [num_users=1] = call_function[target=operator.mul](args = (%floordiv, 1000), kwargs = {})
    %mul_1 : [num_users=1] = call_function[target=operator.mul](args = (%mod, 100), kwargs = {})
    %mul_2 : [num_users=1] = call_function[target=operator.mul](args = (%floordiv_1, 10), kwargs = {})
    %add : [num_users=1] = call_function[target=operator.add](args = (%mul, %mul_1), kwargs = {})
    %add_1 : [num_users=1] = call_function[target=add](args = (%add, %mul_2), kwargs = {})
    %add_2 : [num_users=1] = call_function[target=operator.add](args = (%add_1, %mod_1), kwargs = {})
    %mul_3 : [num_users=1] = call_function[target=operator.mul](args = (%add_2, 100), kwargs = {})
    %mul_4 : [num_users=1] = call_function[target=operator.mul](args = (%thread_program_id_1, P2*10//P2), kwargs = {})
    %add_3 : [num_users=1] = call_function[target=operator.add](args = (%mul_3, %mul_4), kwargs = {})
    %add_4 : [num_users=1] = call_function[target=operator.add](args = (%add_3, %thread_program_id_2), kwargs = {})
    %kernel_buffer_store : [num_users=0] = call_function[target=kernel_buffer_store](args = (%out, (%thread_program_id, %thread_program_id_1, %thread_program_id_2), %add_4), kwargs = {})
    return None
