# operator add/sub/mul/floordiv/mod on i32 with broadcasting; floordiv rounds down
# (floordivsi), mod has the dividend's sign (remsi), also for negative divisors.
region_0:graph():
    %a : InputBuffer[M, N].of(i32) = placeholder[target=a]
    %b : InputBuffer[N].of(i32) = placeholder[target=b]
    %oadd : OutputBuffer[M, N].of(i32) = placeholder[target=oadd]
    %osub : OutputBuffer[M, N].of(i32) = placeholder[target=osub]
    %omul : OutputBuffer[M, N].of(i32) = placeholder[target=omul]
    %ofd : OutputBuffer[M, N].of(i32) = placeholder[target=ofd]
    %omod : OutputBuffer[M, N].of(i32) = placeholder[target=omod]
    %ofdn : OutputBuffer[M, N].of(i32) = placeholder[target=ofdn]
    %omodn : OutputBuffer[M, N].of(i32) = placeholder[target=omodn]
    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%a, (0, 0), (M, N)))
    %kernel_buffer_load_1 = call_function[target=kernel_buffer_load](args = (%b, (0,), (N,)))
    %add = call_function[target=operator.add](args = (%kernel_buffer_load, %kernel_buffer_load_1))
    %sub = call_function[target=operator.sub](args = (%kernel_buffer_load, %kernel_buffer_load_1))
    %mul = call_function[target=operator.mul](args = (%kernel_buffer_load, %kernel_buffer_load_1))
    %floordiv = call_function[target=operator.floordiv](args = (%kernel_buffer_load, %kernel_buffer_load_1))
    %mod = call_function[target=operator.mod](args = (%kernel_buffer_load, %kernel_buffer_load_1))
    %sub_1 = call_function[target=operator.sub](args = (0, %kernel_buffer_load_1))
    %floordiv_1 = call_function[target=operator.floordiv](args = (%kernel_buffer_load, %sub_1))
    %mod_1 = call_function[target=operator.mod](args = (%kernel_buffer_load, %sub_1))
    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%oadd, (0, 0), %add))
    %kernel_buffer_store_1 = call_function[target=kernel_buffer_store](args = (%osub, (0, 0), %sub))
    %kernel_buffer_store_2 = call_function[target=kernel_buffer_store](args = (%omul, (0, 0), %mul))
    %kernel_buffer_store_3 = call_function[target=kernel_buffer_store](args = (%ofd, (0, 0), %floordiv))
    %kernel_buffer_store_4 = call_function[target=kernel_buffer_store](args = (%omod, (0, 0), %mod))
    %kernel_buffer_store_5 = call_function[target=kernel_buffer_store](args = (%ofdn, (0, 0), %floordiv_1))
    %kernel_buffer_store_6 = call_function[target=kernel_buffer_store](args = (%omodn, (0, 0), %mod_1))
    return None
