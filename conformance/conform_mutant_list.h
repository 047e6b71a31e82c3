/*
 * conform_mutant_list.h: the built-in mutant backends of `ttref conform
 * --mutants`: each is a realistic backend bug, made by rewriting the parsed
 * kernel IR (or the run options) of the reference. One row each.
 * Columns: X(NAME, "name", "targeted op(s)", "what the buggy backend does").
 * Expanded by conform_mutant.h/.c; the rewrite of each row is a case of
 * conform_mutant.c's mutate_op. No include guard.
 */
X(CMPI_SIGNED,     "cmpi-signed-as-unsigned",   "arith.cmpi",                     "signed predicates slt/sle/sgt/sge compare as unsigned (ult/ule/ugt/uge)")
X(CMPI_SLT_SLE,    "cmpi-slt-as-sle",           "arith.cmpi",                     "slt/ult compare as sle/ule: a bound or mask off by one")
X(CMPF_UNORDERED,  "cmpf-ordered-as-unordered", "arith.cmpf",                     "ordered predicates (oeq ogt oge olt ole one) are true on NaN (ueq ugt uge ult ule une)")
X(CMPF_UNE_ONE,    "cmpf-une-as-one",           "arith.cmpf",                     "une (x != y, true on NaN) is false on NaN (one)")
X(DIVSI_UNSIGNED,  "divsi-as-divui",            "arith.divsi",                    "signed division divides the unsigned bit patterns")
X(REMSI_UNSIGNED,  "remsi-as-remui",            "arith.remsi",                    "signed remainder takes the unsigned bit patterns")
X(SHRSI_LOGICAL,   "shrsi-as-shrui",            "arith.shrsi",                    "arithmetic shift right shifts in zeros")
X(EXTSI_ZERO,      "extsi-as-extui",            "arith.extsi",                    "sign extension zero-extends (negative indices become huge)")
X(SITOFP_UNSIGNED, "sitofp-as-uitofp",          "arith.sitofp",                   "signed int to float converts the unsigned bit pattern")
X(FPTOSI_UNSIGNED, "fptosi-as-fptoui",          "arith.fptosi",                   "float to signed int converts as unsigned (negatives saturate to 0)")
X(MINMAXSI_UNSIGNED, "minmaxsi-as-unsigned",    "arith.minsi,arith.maxsi",        "signed min/max compare as unsigned")
X(FLOORDIV_TRUNC,  "floordivsi-as-divsi",       "arith.floordivsi",               "floor division truncates toward zero")
X(MAXIMUM_AS_NUM,  "maximumf-as-maxnumf",       "arith.maximumf,arith.minimumf",  "NaN-propagating max/min ignore NaN (maxnumf/minnumf)")
X(MAXNUM_AS_MAXIMUM, "maxnumf-as-maximumf",     "arith.maxnumf,arith.minnumf",    "NaN-ignoring max/min propagate NaN (maximumf/minimumf)")
X(CLAMPF_NAN,      "clampf-nan-policy-flipped", "tt.clampf",                      "clamp's propagateNan none/all is flipped")
X(TRUNCF_RTZ,      "truncf-rtz",                "arith.truncf",                   "narrowing float casts truncate (RTZ) instead of rounding to nearest even")
X(FP_TO_FP_RTZ,    "fp-to-fp-rtne-as-rtz",      "tt.fp_to_fp",                    "rtne downcasts (fp8, f16, bf16) round toward zero")
X(ROUND_AS_EVEN,   "round-as-roundeven",        "math.round",                     "round half away from zero rounds half to even")
X(FTZ,             "ftz",                       "float loads and ops",            "flushes subnormal float inputs and results to zero (run option --ftz)")
X(FMA_CONTRACT,    "fma-contraction",           "arith.mulf+arith.addf",          "fuses a single-use mulf into its addf/subf with one rounding (run option --contract)")
X(LOAD_MASK,       "load-mask-dropped",         "tt.load",                        "masked loads read every lane (mask and other ignored)")
X(LOAD_OTHER,      "load-other-dropped",        "tt.load",                        "masked-off lanes read 0 instead of `other`")
X(STORE_MASK,      "store-mask-dropped",        "tt.store",                       "masked stores write every lane")
X(BOUNDARY_CHECK,  "boundary-check-dropped",    "tt.load,tt.store",               "block-pointer accesses ignore boundaryCheck")
X(SCAN_REVERSE,    "scan-reverse-ignored",      "tt.scan",                        "reverse scans run forward")
X(DOT_TF32,        "dot-ieee-as-tf32",          "tt.dot",                         "inputPrecision ieee f32 dots round their inputs to tf32")
X(ATOMIC_ADD_MAX,  "atomic-add-max-swapped",    "tt.atomic_rmw",                  "atomic add runs as max and max as add")
X(ATOMIC_MAX_UMAX, "atomic-max-as-umax",        "tt.atomic_rmw",                  "signed atomic max/min compare as unsigned")
X(ATOMIC_CAS_SWAP, "atomic-cas-cmp-val-swapped","tt.atomic_cas",                  "compare-and-swap takes the compare and new values swapped")
X(SELECT_SWAP,     "select-operands-swapped",   "arith.select",                   "select returns the false operand when the condition holds")
X(JOIN_SWAP,       "join-operands-swapped",     "tt.join",                        "join interleaves its operands the wrong way round")
X(TRANS_AS_RESHAPE,"trans-as-reshape",          "tt.trans",                       "a transpose relabels the data in row-major order (a reshape: the layout change is lost)")
X(DOT_ACC_DROPPED, "dot-acc-dropped",           "tt.dot",                         "dots ignore their accumulator operand (D = A.B, not A.B + C)")
X(PID_XY_SWAPPED,  "program-id-xy-swapped",     "tt.get_program_id,tt.get_num_programs", "grid axes x and y are swapped")
X(FOR_LAST_ITER,   "for-last-iteration-dropped","scf.for",                        "loops stop one step early (upper bound minus step)")
