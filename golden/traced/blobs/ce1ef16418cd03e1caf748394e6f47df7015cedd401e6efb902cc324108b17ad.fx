# operator add/sub/mul/truediv/mod on floats with numpy right-aligned broadcasting:
# a[M, N] with b[N] (a row) and c[M, 1] (a column), and Python literals.
region_0:graph():
    %a : InputBuffer[M, N] = placeholder[target=a]
    %b : InputBuffer[N] = placeholder[target=b]
    %c : InputBuffer[M, 1] = placeholder[target=c]
    %oadd : OutputBuffer[M, N] = placeholder[target=oadd]
    %osub : OutputBuffer[M, N] = placeholder[target=osub]
    %omul : OutputBuffer[M, N] = placeholder[target=omul]
    %odiv : OutputBuffer[M, N] = placeholder[target=odiv]
    %omod : OutputBuffer[M, N] = placeholder[target=omod]
    %olit : OutputBuffer[M, N] = placeholder[target=olit]
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%a, (0, 0), (M, N)))
    %kernel_buffer_load_1 = call_function[target=kernel_buffer_load](args = (%b, (0,), (N,)))
    %kernel_buffer_load_2 = call_function[target=kernel_buffer_load](args = (%c, (0, 0), (M, 1)))
    %add = call_function[target=operator.add](args = (%kernel_buffer_load, %kernel_buffer_load_1))
    %sub = call_function[target=operator.sub](args = (%kernel_buffer_load, %kernel_buffer_load_2))
    %mul = call_function[target=operator.mul](args = (%kernel_buffer_load_1, %kernel_buffer_load_2))
    %truediv = call_function[target=operator.truediv](args = (%kernel_buffer_load, %kernel_buffer_load_1))
    %mod = call_function[target=operator.mod](args = (%kernel_buffer_load, %kernel_buffer_load_2))
    %mul_1 = call_function[target=operator.mul](args = (%kernel_buffer_load, 3))
    %add_1 = call_function[target=operator.add](args = (%mul_1, 0.5))
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%oadd, (0, 0), %add))
    %kernel_buffer_store_1 = call_function[target=kernel_buffer_store](args = (%osub, (0, 0), %sub))
    %kernel_buffer_store_2 = call_function[target=kernel_buffer_store](args = (%omul, (0, 0), %mul))
    %kernel_buffer_store_3 = call_function[target=kernel_buffer_store](args = (%odiv, (0, 0), %truediv))
    %kernel_buffer_store_4 = call_function[target=kernel_buffer_store](args = (%omod, (0, 0), %mod))
    %kernel_buffer_store_5 = call_function[target=kernel_buffer_store](args = (%olit, (0, 0), %add_1))
    return None
