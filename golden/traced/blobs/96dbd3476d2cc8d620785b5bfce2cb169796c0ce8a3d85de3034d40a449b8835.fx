# to_dtype: f32 -> f16 and bf16 (RTNE, overflow to inf), i32 -> f32, f16 -> bf16 and f32.
region_0:graph():
    %x : InputBuffer[N] = placeholder[target=x]
    %i : InputBuffer[N].of(i32) = placeholder[target=i]
    %h : InputBuffer[N].of(f16) = placeholder[target=h]
    %o16 : OutputBuffer[N].of(f16) = placeholder[target=o16]
    %obf : OutputBuffer[N].of(bf16) = placeholder[target=obf]
    %oif : OutputBuffer[N].of(f32) = placeholder[target=oif]
    %ohb : OutputBuffer[N].of(bf16) = placeholder[target=ohb]
    %ohf : OutputBuffer[N].of(f32) = placeholder[target=ohf]
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%x, (0,), (N,)))
    %kernel_buffer_load_1 = call_function[target=kernel_buffer_load](args = (%i, (0,), (N,)))
    %kernel_buffer_load_2 = call_function[target=kernel_buffer_load](args = (%h, (0,), (N,)))
    %to_dtype = call_function[target=to_dtype](args = (%kernel_buffer_load, f16))
    %to_dtype_1 = call_function[target=to_dtype](args = (%kernel_buffer_load, tkl.bf16))
    %to_dtype_2 = call_function[target=to_dtype](args = (%kernel_buffer_load_1, f32))
    %to_dtype_3 = call_function[target=to_dtype](args = (%kernel_buffer_load_2, bf16))
    %to_dtype_4 = call_function[target=to_dtype](args = (%kernel_buffer_load_2, DataType(f32)))
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%o16, (0,), %to_dtype))
    %kernel_buffer_store_1 = call_function[target=kernel_buffer_store](args = (%obf, (0,), %to_dtype_1))
    %kernel_buffer_store_2 = call_function[target=kernel_buffer_store](args = (%oif, (0,), %to_dtype_2))
    %kernel_buffer_store_3 = call_function[target=kernel_buffer_store](args = (%ohb, (0,), %to_dtype_3))
    %kernel_buffer_store_4 = call_function[target=kernel_buffer_store](args = (%ohf, (0,), %to_dtype_4))
    return None
