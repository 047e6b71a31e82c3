/*
 * interp_exec.h: the executor's internal header, shared by interp_exec.c (the
 * exec loop, regions, OpenMP launch) and its parts: interp_plan.c, the op
 * families (interp_arith.c, interp_shape.c, interp_memory.c, interp_reduce.c,
 * interp_control.c) and interp_precise.c. Not installed, not part of the API.
 * Ownership: a ctx owns its frames and work buffers; slots point into their
 * frame's buffer; everything reached through ctx->L is borrowed.
 */
#ifndef INTERP_EXEC_H
#define INTERP_EXEC_H

#include "interp.h"
#include "fp.h"
#include "fp_math.h"
#include "interp_debug.h"
#include "ir_vendor.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- plan, frames, context ------------------------------------------------------------------ */
typedef struct slot {
  interp_elem *d;
  interp_elem *b; /* precise mode: magnitude bound per element (floats) */
  int64_t n;      /* elements currently held */
  int64_t cap;    /* capacity in elements */
  int filled;     /* constants: materialised once per frame */
} slot;

typedef struct fn_plan {
  const ir_func *fn;
  int64_t *cap;   /* per value id */
  uint32_t *uses; /* per value id: number of uses (for --contract) */
  size_t total;   /* sum of caps */
} fn_plan;

typedef struct plan {
  fn_plan *fns;
  int nfns;
  bool sequential; /* atomics or prints: run programs in order */
  int64_t scratch; /* elements of scratch needed for parallel copies */
} plan;

/* Which kernel arguments a store may write through: bit i for pointer argument
 * i, STORED_ALL when unknown (argument 63 and beyond, tt.int_to_ptr, pointers
 * loaded from memory, tt.call). Race detection tracks reads only of those
 * buffers: an element nobody writes cannot race. */
#define STORED_ALL (UINT64_C(1) << 63)

typedef struct frame {
  const fn_plan *fp;
  slot *s;
  interp_elem *buf;
  interp_elem *bbuf; /* precise mode: bounds, same layout as buf */
} frame;

/* Parallel runs: one tracked access of a run of elements, [lo, hi) in ttref addresses, by program
 * who & ACC_MULTI, written when who & ACC_WRITTEN. Each thread logs its own (interp_race_check). */
typedef struct race_span {
  uint64_t lo, hi;
  uint32_t who;
} race_span;

typedef struct race_log {
  race_span *v;
  int64_t n, cap;
} race_log;

typedef struct ctx {
  interp_launch *L;
  const plan *P;
  int64_t pid[3];
  ttref_error *err;
  interp_stats stats;
  frame *fr;
  frame **frames;       /* per function index, depth 0 frames reused across programs */
  interp_elem *scratch; /* parallel copies (assign_values) */
  int64_t scratch_cap;
  interp_elem *work[8]; /* reduce/scan/map work space, one per nesting level */
  int64_t work_cap[8];
  int wdepth;
  int depth;
  bool parallel;
  bool returned;
  bool precise;         /* L->precise: no rounding, bounds tracked */
  bool track;           /* owner tracking: parallel run (race detection) or --check-races */
  uint32_t pid1;        /* linear program id + 1 */
  int64_t steps;        /* ops executed by the current program, counted per block entered */
  int64_t step_limit;   /* L->max_steps, INT64_MAX without one, -1 once the program must stop */
  int *conflict;        /* parallel run: set when programs conflict (the launch then re-runs in order) */
  race_log *log;        /* parallel run: this thread's logged spans (runs of more than 8 bytes) */
  int *snap_failed;     /* parallel run: set when a pristine copy of a buffer could not be made */
  const ir_op *race_op; /* --check-races: first conflict seen by mem_ld/mem_st */
  int64_t race_addr;
  uint32_t race_other;
  bool race_is_read;
  bool bound_pass;    /* re-running an op on the bound buffers */
  bool hook;          /* L->debug_ops: debug hooks around every op */
  const ir_op *ub_op; /* --strict: the first unmasked UB case of the current op */
  int64_t ub_lane, ub_seq;
  int ub_kind;
} ctx;

#define SL(v) (&c->fr->s[(v)->id])

#define LANES2(a, b) ((a)->n > (b)->n ? (a)->n : (b)->n)

/* ---- shared functions (interp_*.c) ---------------------------------------------------------------- */
/* interp_plan.c: slot capacities and use counts per function, and frames of slots */
ttref_status interp_plan_build(plan *P, const ir_module *m, ttref_error *err);
void interp_plan_free(plan *P);
frame *interp_frame_new(const fn_plan *fp, bool precise);
void interp_frame_free(frame *f);
const fn_plan *interp_plan_of(const plan *P, const ir_func *fn);
uint64_t interp_stored_args(const ir_func *fn);

/* interp_exec.c: faults, UB notes, region execution and dispatch */
void interp_lane_index_str(const ir_type *t, int64_t lane, char *buf, size_t n);
ttref_status interp_fault(ctx *c, const ir_op *op, ttref_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
ttref_status interp_fault_at(ctx *c, const ir_op *op, const ir_type *lane_t, int64_t lane, const char *what);
void interp_note_ub(ctx *c, const ir_op *op, interp_ub_kind k, int64_t lane);
ttref_status interp_assign_values(ctx *c, ir_value *dst, ir_value *const *src, int n);
ttref_status interp_run_region(ctx *c, const ir_region *r, const ir_op **out_term);
ttref_status interp_exec_op_value(ctx *c, const ir_op *op);

/* interp_memory.c: race tracking and out-of-bounds faults */
void interp_track_access(ctx *c, int64_t addr, int size, bool write);
/* After a parallel run: whether two programs' accesses overlap, one of them a write, among the
 * nthreads logs' spans and the element owners (sorts the logs in place) */
bool interp_race_check(const interp_mem *m, race_log *logs, int nthreads);
void interp_snapshot_slow(ctx *c, int64_t addr);
ttref_status interp_fault_oob(ctx *c, const ir_op *op, const ir_type *lane_t, int64_t lane, int64_t addr, int size);

/* interp_arith.c: the typed loops of a float binary row (kind FBIN/FBINX of ir_op_list.h), each
 * rounding the row's expression as the op does: loop R[i] = op(A[i*sa], B[i*sb]) for i < n; scan
 * the recurrence D[k] = op(D[prev], S[k]) (op(S[k], D[prev]) with swap) over k = 0..L-1 (L-1..0
 * with rev), D[first] = S[first]. interp_fbin_of gives NULL when code has none. */
typedef struct interp_fbin_kernels {
  void (*loop)(const ctx *c, int f, interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B, int64_t sb,
               int64_t n);
  void (*scan)(const ctx *c, int f, interp_elem *D, const interp_elem *S, int64_t L, bool rev, bool swap);
} interp_fbin_kernels;
const interp_fbin_kernels *interp_fbin_of(ir_opcode code);
/* interp_fbin_of(code)->loop when there is one; false when code has none (with R NULL: only that answer) */
bool interp_fbin_loop(const ctx *c, ir_opcode code, int f, interp_elem *R, const interp_elem *A, int64_t sa,
                      const interp_elem *B, int64_t sb, int64_t n);

/* interp_precise.c */
ttref_status interp_bound_op(ctx *c, const ir_op *op);

/* interp_control.c */
ttref_status interp_call_function(ctx *c, const ir_op *op, const ir_func *fn);

/* The op kernels. For each row of ir_op_list.h, INTERP_FN_<kind>(name, kernel) names its
 * executor function: the kernel column's function (kind CALL, declared below by op family) or
 * interp_k_NAME, the typed loop interp_arith.c generates from the row's kind and kernel (every
 * other kind). The dispatch (interp_exec.c) calls it; a new kind is a line here and its KDEF_
 * (and FBL_) macro in interp_arith.c. */
#define INTERP_FN_CALL(name, kernel)  kernel
#define INTERP_FN_FUN(name, kernel)   interp_k_##name
#define INTERP_FN_FMATH(name, kernel) interp_k_##name
#define INTERP_FN_FBIN(name, kernel)  interp_k_##name
#define INTERP_FN_FBINX(name, kernel) interp_k_##name
#define INTERP_FN_FTER(name, kernel)  interp_k_##name
#define INTERP_FN_IUN(name, kernel)   interp_k_##name
#define INTERP_FN_IBIN(name, kernel)  interp_k_##name
#define INTERP_FN_CMP(name, kernel)   interp_k_##name
#define INTERP_FN_ETER(name, kernel)  interp_k_##name
#define INTERP_FN_CASTI(name, kernel) interp_k_##name
#define INTERP_FN_CASTF(name, kernel) interp_k_##name
#define INTERP_FN_CASTE(name, kernel) interp_k_##name
/* clang-format off */
#define X(name, mnem, nopnd, nres, flags, syn, rule, kind, kernel, bound, ...)                                         \
  ttref_status INTERP_FN_##kind(name, kernel)(ctx *c, const ir_op *op);
#include "ir_op_list.h"
#undef X
/* clang-format on */
/* interp_exec.c */
ttref_status interp_op_call(ctx *c, const ir_op *op);
ttref_status interp_op_nop(ctx *c, const ir_op *op);
ttref_status interp_op_unsupported(ctx *c, const ir_op *op);
ttref_status interp_op_terminator(ctx *c, const ir_op *op);
/* interp_arith.c */
ttref_status interp_op_fp_to_fp(ctx *c, const ir_op *op);
/* interp_shape.c */
ttref_status interp_op_splat(ctx *c, const ir_op *op);
ttref_status interp_op_copy(ctx *c, const ir_op *op);
ttref_status interp_op_broadcast(ctx *c, const ir_op *op);
ttref_status interp_op_trans(ctx *c, const ir_op *op);
ttref_status interp_op_cat(ctx *c, const ir_op *op);
ttref_status interp_op_join(ctx *c, const ir_op *op);
ttref_status interp_op_split(ctx *c, const ir_op *op);
ttref_status interp_op_gather(ctx *c, const ir_op *op);
ttref_status interp_op_histogram(ctx *c, const ir_op *op);
ttref_status interp_op_make_range(ctx *c, const ir_op *op);
ttref_status interp_op_constant(ctx *c, const ir_op *op);
/* interp_memory.c */
ttref_status interp_op_addptr(ctx *c, const ir_op *op);
ttref_status interp_op_make_tensor_ptr(ctx *c, const ir_op *op);
ttref_status interp_op_advance(ctx *c, const ir_op *op);
ttref_status interp_op_load(ctx *c, const ir_op *op);
ttref_status interp_op_store(ctx *c, const ir_op *op);
ttref_status interp_op_atomic_rmw(ctx *c, const ir_op *op);
ttref_status interp_op_atomic_cas(ctx *c, const ir_op *op);
ttref_status interp_op_make_desc(ctx *c, const ir_op *op);
ttref_status interp_op_desc_access(ctx *c, const ir_op *op);
ttref_status interp_op_desc_rows(ctx *c, const ir_op *op);
/* interp_reduce.c */
ttref_status interp_op_reduce(ctx *c, const ir_op *op);
ttref_status interp_op_scan(ctx *c, const ir_op *op);
ttref_status interp_op_map_elementwise(ctx *c, const ir_op *op);
ttref_status interp_op_dot(ctx *c, const ir_op *op);
ttref_status interp_op_dot_scaled(ctx *c, const ir_op *op);
/* interp_control.c */
ttref_status interp_op_scf_for(ctx *c, const ir_op *op);
ttref_status interp_op_scf_if(ctx *c, const ir_op *op);
ttref_status interp_op_scf_while(ctx *c, const ir_op *op);
ttref_status interp_op_print(ctx *c, const ir_op *op);
ttref_status interp_op_assert(ctx *c, const ir_op *op);
ttref_status interp_op_extern(ctx *c, const ir_op *op);
ttref_status interp_op_vendor(ctx *c, const ir_op *op);
ttref_status interp_op_poison(ctx *c, const ir_op *op);
ttref_status interp_op_program_id(ctx *c, const ir_op *op);

/* ---- inline helpers shared by the op families ------------------------------------------------- */
static inline int64_t slot_cap_of(const ir_type *t)
{
  switch (t->kind) {
  case IR_T_TENSOR: return t->numel > 0 ? t->numel : 1;
  case IR_T_PTR:
    /* block pointer: base, rank, shape[r], strides[r], offsets[r] */
    if (t->elem && t->elem->kind == IR_T_TENSOR) return 2 + 3 * IR_MAX_RANK;
    return 1;
  case IR_T_DESC:
    /* descriptor: base, rank, shape[r], strides[r], padding */
    return 3 + 2 * IR_MAX_RANK;
  default: return 1;
  }
}

/* ---- element helpers ---------------------------------------------------------- */
static inline int64_t wrap_int(int bits, int64_t v)
{
  if (bits >= 64) return v;
  if (bits == 1) return v & 1;
  int sh = 64 - bits;
  return (int64_t)((uint64_t)v << sh) >> sh;
}
static inline uint64_t uval(int bits, int64_t v)
{
  return bits >= 64 ? (uint64_t)v : (uint64_t)v & ((UINT64_C(1) << bits) - 1);
}
static inline int64_t sval(int bits, int64_t v) { return bits == 1 ? -(v & 1) : v; }
static inline int64_t smin_of(int bits) { return bits >= 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1)); }
static inline int64_t smax_of(int bits) { return bits >= 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1; }
static inline uint64_t umax_of(int bits) { return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1; }

static inline int fmt_of(ir_scalar s)
{
  switch (s) {
  case IR_S_F16: return FP_F16;
  case IR_S_BF16: return FP_BF16;
  case IR_S_F32: return FP_F32;
  case IR_S_F64: return FP_F64;
  case IR_S_F8E4M3FN: return FP_F8E4M3FN;
  case IR_S_F8E5M2: return FP_F8E5M2;
  case IR_S_F8E4M3FNUZ: return FP_F8E4M3FNUZ;
  case IR_S_F8E5M2FNUZ: return FP_F8E5M2FNUZ;
  default: return FP_F64;
  }
}

/* RNE of v to f16 (m = 10, bias 15) or bf16 (m = 7, bias 127) when v is in the format's normal
 * range: the significand rounded at bit 52 - m on the bit pattern (a carry moves into the
 * exponent), past the largest finite value to inf; as fp_round_to. Other values through it. */
static inline double rne_half(int f, double v)
{
  const int m = f == FP_F16 ? 10 : 7, bias = f == FP_F16 ? 15 : 127;
  uint64_t u;
  memcpy(&u, &v, 8);
  const int E = (int)((u >> 52) & 0x7ff) - 1023;
  if (E < 1 - bias || E > bias) return fp_round_to((fp_format)f, v, FP_RNE, FP_OVF_INF);
  const int sh = 52 - m;
  const uint64_t rem = u & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
  uint64_t q = u >> sh;
  if (rem > half || (rem == half && (q & 1))) q++;
  q <<= sh;
  double r;
  memcpy(&r, &q, 8);
  if (fabs(r) > (f == FP_F16 ? 65504.0 : 0x1.fep127)) r = copysign(INFINITY, v);
  return r;
}

/* Round a binary64 result once to format f (RNE, overflow to inf). */
static inline double rnd(const ctx *c, int f, double v)
{
  double r;
  if (c->precise) return v; /* precise mode: binary64, never rounded to the format */
  if (f == FP_F64) r = v;
  else if (f == FP_F32) r = (double)(float)v;
  else if (f == FP_F16 || f == FP_BF16) r = rne_half(f, v);
  else r = fp_round_to((fp_format)f, v, FP_RNE, FP_OVF_INF);
  if (c->L->ftz && r != 0 && fabs(r) < fp_min_normal((fp_format)f)) r = copysign(0.0, r);
  return r;
}

static inline ir_scalar elem_scalar(const ir_value *v) { return ir_type_elem(v->type)->scalar; }
static inline int elem_bits(const ir_value *v) { return ir_scalar_bits(elem_scalar(v)); }

static inline interp_elem mem_read(ir_scalar s, const uint8_t *p)
{
  interp_elem e;
  switch (s) {
  case IR_S_I1: e.i = p[0] != 0; break;
  case IR_S_I4:
  case IR_S_I8: e.i = (int8_t)p[0]; break;
  case IR_S_I16: {
    int16_t v;
    memcpy(&v, p, 2);
    e.i = v;
    break;
  }
  case IR_S_I32: {
    int32_t v;
    memcpy(&v, p, 4);
    e.i = v;
    break;
  }
  case IR_S_I64:
  case IR_S_PTR: memcpy(&e.i, p, 8); break;
  case IR_S_F32: { /* bit-exact: a float -> double conversion would quiet a signaling NaN */
    float v;
    memcpy(&v, p, 4);
    if (isnan(v)) {
      uint32_t u;
      memcpy(&u, p, 4);
      e.f = fp_decode(FP_F32, u);
    } else {
      e.f = (double)v;
    }
    break;
  }
  case IR_S_F64: memcpy(&e.f, p, 8); break;
  case IR_S_F16:
  case IR_S_BF16: {
    uint16_t v;
    memcpy(&v, p, 2);
    /* normal numbers by bit placement (what fp_decode computes for them); others through fp_decode */
    const int m = s == IR_S_F16 ? 10 : 7, bias = s == IR_S_F16 ? 15 : 127;
    const uint32_t ef = (uint32_t)(v & 0x7fff) >> m, emax = s == IR_S_F16 ? 31 : 255;
    if (ef != 0 && ef != emax) {
      const uint64_t u = ((uint64_t)(v >> 15) << 63) | ((uint64_t)(ef - (uint32_t)bias + 1023) << 52) |
                         ((uint64_t)(v & ((1u << m) - 1)) << (52 - m));
      memcpy(&e.f, &u, 8);
    } else {
      e.f = fp_decode((fp_format)fmt_of(s), v);
    }
    break;
  }
  default: e.f = fp_decode((fp_format)fmt_of(s), p[0]); break;
  }
  return e;
}

static inline void mem_write(ir_scalar s, uint8_t *p, interp_elem e)
{
  switch (s) {
  case IR_S_I1: p[0] = (uint8_t)(e.i & 1); break;
  case IR_S_I4:
  case IR_S_I8: p[0] = (uint8_t)e.i; break;
  case IR_S_I16: {
    int16_t v = (int16_t)e.i;
    memcpy(p, &v, 2);
    break;
  }
  case IR_S_I32: {
    int32_t v = (int32_t)e.i;
    memcpy(p, &v, 4);
    break;
  }
  case IR_S_I64:
  case IR_S_PTR: memcpy(p, &e.i, 8); break;
  case IR_S_F32: {
    if (isnan(e.f)) { /* keep NaN payloads (and signaling NaNs) bit for bit */
      uint32_t u = (uint32_t)fp_encode(FP_F32, e.f, FP_RNE, FP_OVF_INF);
      memcpy(p, &u, 4);
    } else {
      float v = (float)e.f;
      memcpy(p, &v, 4);
    }
    break;
  }
  case IR_S_F64: memcpy(p, &e.f, 8); break;
  case IR_S_F16:
  case IR_S_BF16: {
    /* a normal value of the format (stores of rounded results) by bit placement, as fp_encode does;
     * anything else (rounding, subnormals, inf, NaN) through fp_encode */
    const int m = s == IR_S_F16 ? 10 : 7, bias = s == IR_S_F16 ? 15 : 127;
    uint64_t u;
    memcpy(&u, &e.f, 8);
    const int E = (int)((u >> 52) & 0x7ff) - 1023;
    uint16_t v;
    if (E >= 1 - bias && E <= bias && (u & ((UINT64_C(1) << (52 - m)) - 1)) == 0)
      v = (uint16_t)(((u >> 63) << 15) | ((uint64_t)(E + bias) << m) | ((u >> (52 - m)) & ((UINT64_C(1) << m) - 1)));
    else v = (uint16_t)fp_encode((fp_format)fmt_of(s), e.f, FP_RNE, FP_OVF_INF);
    memcpy(p, &v, 2);
    break;
  }
  default: p[0] = (uint8_t)fp_encode((fp_format)fmt_of(s), e.f, FP_RNE, FP_OVF_INF); break;
  }
}

static inline double maxnum(double x, double y)
{
  if (isnan(x)) return y;
  if (isnan(y)) return x;
  if (x == y) return signbit(x) ? y : x; /* +0 over -0 */
  return x > y ? x : y;
}
static inline double minnum(double x, double y)
{
  if (isnan(x)) return y;
  if (isnan(y)) return x;
  if (x == y) return signbit(x) ? x : y;
  return x < y ? x : y;
}
static inline double maximum(double x, double y)
{
  if (isnan(x)) return x;
  if (isnan(y)) return y;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}
static inline double minimum(double x, double y)
{
  if (isnan(x)) return x;
  if (isnan(y)) return y;
  if (x == y) return signbit(x) ? x : y;
  return x < y ? x : y;
}

/* Locate [addr, addr+size) in an allocation; NULL when out of bounds. */
static inline uint8_t *mem_at(const interp_mem *m, int64_t addr, int size)
{
  uint64_t k = ((uint64_t)addr >> INTERP_ADDR_SHIFT);
  if (k == 0 || k > (uint64_t)m->n) return NULL;
  const interp_alloc *a = &m->allocs[k - 1];
  uint64_t off = (uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1);
  if (off + (uint64_t)size > a->nbytes) return NULL;
  return a->data + off;
}

/* Precise mode: the binary64 shadow (or, in the bound pass, the bound) of the
 * float element at addr, when the access matches the allocation's element type. */
static inline double *pshadow(const ctx *c, int64_t addr, ir_scalar es)
{
  const interp_mem *m = c->L->mem;
  uint64_t k = ((uint64_t)addr >> INTERP_ADDR_SHIFT);
  const interp_alloc *a = &m->allocs[k - 1]; /* addr was bounds-checked by mem_at */
  if (!a->pv || a->elem != es) return NULL;
  uint64_t off = (uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1);
  int esz = ir_scalar_bytes(es);
  if (off % (uint64_t)esz) return NULL;
  return (c->bound_pass ? a->pb : a->pv) + off / (uint64_t)esz;
}

/*
 * Cross-program conflicts. Programs of a launch run in parallel (c->parallel);
 * on a GPU two programs that access one element without atomics, at least one
 * of them writing, race. ttref detects every such pair whatever the
 * interleaving. An access of a run of more than 8 bytes (a contiguous run of
 * tt.load/tt.store lanes) is logged as one span per thread, and the logs are
 * compared once after the launch (interp_race_check: sorted by address, one
 * sweep). Shorter accesses (single elements: gathers, scalars, atomics) use
 * per-element words a->owner, allocated at the first such access, which
 * record who accessed the element (one program's pid + 1, or ACC_MULTI for
 * several) and whether anyone wrote it (ACC_WRITTEN); an element reaching
 * "several programs and written" sets *c->conflict at once. Either way the
 * launch then restores each written buffer from its
 * pristine copy (taken before its first store) and runs again, the programs
 * one by one in program order. Without a conflict no program saw another's
 * write, so the parallel result equals the sequential one: outputs are
 * bit-identical for any thread count. --check-races (sequential) instead
 * keeps the last writer per element and faults at the first conflict.
 */
#define ACC_MULTI   0x7FFFFFFFu
#define ACC_WRITTEN 0x80000000u

static inline uint32_t *owner_of(const ctx *c, int64_t addr)
{
  const interp_alloc *a = &c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  if (!a->owner) return NULL;
  uint64_t off = (uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1);
  uint64_t e = off / (uint64_t)ir_scalar_bytes(a->elem);
  return e < (uint64_t)a->owner_n ? &a->owner[e] : NULL;
}

static inline void note_race(ctx *c, int64_t addr, uint32_t other, bool is_read)
{
  c->stats.races++;
  if (!c->race_op) {
    c->race_op = (const ir_op *)1; /* set properly by the caller's op check */
    c->race_addr = addr;
    c->race_other = other;
    c->race_is_read = is_read;
  }
}

static inline void snapshot(ctx *c, int64_t addr)
{
  const interp_alloc *a = &c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  if (__atomic_load_n(&a->snap_state, __ATOMIC_ACQUIRE) != 2) interp_snapshot_slow(c, addr);
}

static inline interp_elem mem_ld(ctx *c, ir_scalar es, const uint8_t *q, int64_t addr)
{
  if (c->track && !c->bound_pass) {
    if (c->L->check_races) {
      uint32_t *ow = owner_of(c, addr);
      if (ow && *ow && *ow != c->pid1) note_race(c, addr, *ow, true);
    } else if (c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1].track_reads) {
      interp_track_access(c, addr, ir_scalar_bytes(es), false);
    }
  }
  if (c->precise && ir_scalar_is_float(es)) {
    const double *p = pshadow(c, addr, es);
    if (p) {
      interp_elem e;
      e.f = *p;
      return e;
    }
  }
  return mem_read(es, q);
}

static inline void mem_st(ctx *c, ir_scalar es, uint8_t *q, int64_t addr, interp_elem v)
{
  if (c->parallel) snapshot(c, addr);
  if (c->track && !c->bound_pass) {
    if (c->L->check_races) { /* sequential: the last writer so far */
      uint32_t *ow = owner_of(c, addr);
      if (ow) {
        if (*ow && *ow != c->pid1) note_race(c, addr, *ow, false);
        *ow = c->pid1;
      }
    } else {
      interp_track_access(c, addr, ir_scalar_bytes(es), true);
    }
  }
  if (c->precise && ir_scalar_is_float(es)) {
    double *p = pshadow(c, addr, es);
    if (p) *p = v.f;
    else if (!c->bound_pass) mem_write(es, q, v);
  } else if (!c->bound_pass) {
    mem_write(es, q, v);
  }
}

/* Copy a slot's contents (n elements) into another. */
static inline void copy_slot(slot *dst, const slot *src)
{
  memcpy(dst->d, src->d, sizeof(interp_elem) * (size_t)src->n);
  if (dst->b && src->b) memcpy(dst->b, src->b, sizeof(interp_elem) * (size_t)src->n);
  dst->n = src->n;
}

/* A float scalar or tensor of floats (values that carry a bound in precise mode). */
static inline bool is_float_value(const ir_value *v)
{
  const ir_type *t = ir_type_elem(v->type);
  return t->kind == IR_T_SCALAR && ir_scalar_is_float(t->scalar);
}

#endif
