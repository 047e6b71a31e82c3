# vector_max only: NaN is ignored (MAXNUMF), the result starts from 0 without acc.
region_0:graph():
    %x : InputBuffer[M, N] = placeholder[target=x]
    %acc : InputBuffer[M] = placeholder[target=acc]
    %omax : OutputBuffer[M] = placeholder[target=omax]
    %omax_all : OutputBuffer[1] = placeholder[target=omax_all]
    %omax_acc : OutputBuffer[M] = placeholder[target=omax_acc]
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%x, (0, 0), (M, N)))
    %kernel_buffer_load_1 = call_function[target=kernel_buffer_load](args = (%acc, (0,), (M,)))
    %vector_max = call_function[target=vector_max](args = (%kernel_buffer_load, 1))
    %vector_max_1 = call_function[target=vector_max](args = (%kernel_buffer_load, None, None))
    %vector_max_2 = call_function[target=vector_max](args = (%kernel_buffer_load,), kwargs = {axis: 1, acc: %kernel_buffer_load_1})
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%omax, (0,), %vector_max))
    %kernel_buffer_store_1 = call_function[target=kernel_buffer_store](args = (%omax_all, (0,), %vector_max_1))
    %kernel_buffer_store_2 = call_function[target=kernel_buffer_store](args = (%omax_acc, (0,), %vector_max_2))
    return None
