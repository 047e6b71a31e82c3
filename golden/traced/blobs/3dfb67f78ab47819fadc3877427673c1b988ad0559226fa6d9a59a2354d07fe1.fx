# vector_max / vector_sum along axis 1, over everything (axis None, and axis 0 as TK's
# `if not axis` does), and with an accumulator; without one they start from zero.
region_0:graph():
    %x : InputBuffer[M, N] [num_users=1] = placeholder[target=x]
    %acc : InputBuffer[M] [num_users=1] = placeholder[target=acc]
    %omax : OutputBuffer[M] [num_users=1] = placeholder[target=omax]
    %osum : OutputBuffer[M] [num_users=1] = placeholder[target=osum]
    %omax_all : OutputBuffer[1] [num_users=1] = placeholder[target=omax_all]
    %osum_all : OutputBuffer[1] [num_users=1] = placeholder[target=osum_all]
    %omax_acc : OutputBuffer[M] [num_users=1] = placeholder[target=omax_acc]
    %osum_acc : OutputBuffer[M] [num_users=1] = placeholder[target=osum_acc]
    %kernel_buffer_load : [num_users=6] = call_function[target=kernel_buffer_load](args = (%x, (0, 0), (M, N)), kwargs = {})
    %kernel_buffer_load_1 : [num_users=2] = call_function[target=kernel_buffer_load](args = (%acc, (0,), (M,)), kwargs = {})
    %vector_max : [num_users=1] = call_function[target=vector_max](args = (%kernel_buffer_load, 1), kwargs = {})
    %vector_sum : [num_users=1] = call_function[target=vector_sum](args = (%kernel_buffer_load,), kwargs = {axis: 1})
    %vector_max_1 : [num_users=1] = call_function[target=vector_max](args = (%kernel_buffer_load,), kwargs = {})
    %vector_sum_1 : [num_users=1] = call_function[target=vector_sum](args = (%kernel_buffer_load, 0), kwargs = {})
    %vector_max_2 : [num_users=1] = call_function[target=vector_max](args = (%kernel_buffer_load, 1, %kernel_buffer_load_1), kwargs = {})
    %vector_sum_2 : [num_users=1] = call_function[target=vector_sum](args = (%kernel_buffer_load,), kwargs = {axis: 1, acc: %kernel_buffer_load_1})
    %kernel_buffer_store : [num_users=0] = call_function[target=kernel_buffer_store](args = (%omax, (0,), %vector_max), kwargs = {})
    %kernel_buffer_store_1 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%osum, (0,), %vector_sum), kwargs = {})
    %kernel_buffer_store_2 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%omax_all, (0,), %vector_max_1), kwargs = {})
    %kernel_buffer_store_3 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%osum_all, (0,), %vector_sum_1), kwargs = {})
    %kernel_buffer_store_4 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%omax_acc, (0,), %vector_max_2), kwargs = {})
    %kernel_buffer_store_5 : [num_users=0] = call_function[target=kernel_buffer_store](args = (%osum_acc, (0,), %vector_sum_2), kwargs = {})
    return None
