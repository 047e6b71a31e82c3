# vector_constant with edge values of each dtype, stored row by row.
region_0:graph():
    %o32 : OutputBuffer[4, N] [num_users=4] = placeholder[target=o32]
    %o16 : OutputBuffer[3, N].of(f16) [num_users=3] = placeholder[target=o16]
    %obf : OutputBuffer[3, N].of(bf16) [num_users=3] = placeholder[target=obf]
    %oi : OutputBuffer[2, N].of(i32) [num_users=2] = placeholder[target=oi]
    %vector_constant : [num_users=1] = call_function[target=vector_constant](args = ((1, N), f32, -0.0), kwargs = {})
    %vector_constant_1 : [num_users=1] = call_function[target=vector_constant](args = ((N,), f32, inf), kwargs = {})
    %vector_constant_2 : [num_users=1] = call_function[target=vector_constant](args = ((N,), f32, -inf), kwargs = {})
    %vector_constant_3 : [num_users=1] = call_function[target=vector_constant](args = ((N,), f32, 3.4028234663852886e+38), kwargs = {})
    %kernel_buffer_store : [num_users=0] = call_function[target=kernel_buffer_store](args = (%o32, (0, 0), %vector_constant), kwargs = {})
    %kernel_buffer_store_1 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%o32, (1, 0), %vector_constant_1), kwargs = {})
    %kernel_buffer_store_2 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%o32, (2, 0), %vector_constant_2), kwargs = {})
    %kernel_buffer_store_3 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%o32, (3, 0), %vector_constant_3), kwargs = {})
    %vector_constant_4 : [num_users=1] = call_function[target=vector_constant](args = ((N,), f16, 65504.0), kwargs = {})
    %vector_constant_5 : [num_users=1] = call_function[target=vector_constant](args = ((N,), f16, 5.960464477539063e-08), kwargs = {})
    %vector_constant_6 : [num_users=1] = call_function[target=vector_constant](args = ((N,), f16, 65520.0), kwargs = {})
    %kernel_buffer_store_4 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%o16, (0, 0), %vector_constant_4), kwargs = {})
    %kernel_buffer_store_5 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%o16, (1, 0), %vector_constant_5), kwargs = {})
    %kernel_buffer_store_6 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%o16, (2, 0), %vector_constant_6), kwargs = {})
    %vector_constant_7 : [num_users=1] = call_function[target=vector_constant](args = ((N,), bf16, 3.3895313892515355e+38), kwargs = {})
    %vector_constant_8 : [num_users=1] = call_function[target=vector_constant](args = ((N,), bf16, 9.183549615799121e-41), kwargs = {})
    %vector_constant_9 : [num_users=1] = call_function[target=vector_constant](args = ((N,), bf16, nan), kwargs = {})
    %kernel_buffer_store_7 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%obf, (0, 0), %vector_constant_7), kwargs = {})
    %kernel_buffer_store_8 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%obf, (1, 0), %vector_constant_8), kwargs = {})
    %kernel_buffer_store_9 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%obf, (2, 0), %vector_constant_9), kwargs = {})
    %vector_constant_10 : [num_users=1] = call_function[target=vector_constant](args = ((N,), i32, 2147483647), kwargs = {})
    %vector_constant_11 : [num_users=1] = call_function[target=vector_constant](args = ((N,), i32, -2147483648), kwargs = {})
    %kernel_buffer_store_10 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%oi, (0, 0), %vector_constant_10), kwargs = {})
    %kernel_buffer_store_11 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%oi, (1, 0), %vector_constant_11), kwargs = {})
    return None
