/*
 * interp_exec.c: the executor. A plan sizes one value slot per SSA value of
 * every function once; each program instance then runs the entry function's
 * body op by op over block-level tensors, with no allocation in the op loop.
 * Programs run in parallel (OpenMP) unless the kernel uses atomics or prints.
 */
#include "config.h"
#include "interp.h"
#include "fp.h"
#include "fp_math.h"
#include "interp_debug.h"
#include "ir_vendor.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- plan ------------------------------------------------------------------ */
typedef struct slot {
  interp_elem *d;
  interp_elem *b;  /* precise mode: magnitude bound per element (floats) */
  int64_t n;   /* elements currently held */
  int64_t cap; /* capacity in elements */
  int filled;  /* constants: materialised once per frame */
} slot;

typedef struct fn_plan {
  const ir_func *fn;
  int64_t *cap;     /* per value id */
  uint32_t *uses;   /* per value id: number of uses (for --contract) */
  size_t total;     /* sum of caps */
} fn_plan;

typedef struct plan {
  fn_plan *fns;
  int nfns;
  bool sequential;  /* atomics or prints: run programs in order */
  int64_t scratch;  /* elements of scratch needed for parallel copies */
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

typedef struct ctx {
  interp_launch *L;
  const plan *P;
  int64_t pid[3];
  ttref_error *err;
  interp_stats st;
  frame *fr;
  frame **frames;    /* per function index, depth 0 frames reused across programs */
  interp_elem *scratch;       /* parallel copies (assign_values) */
  int64_t scratch_cap;
  interp_elem *work[8];       /* reduce/scan/map work space, one per nesting level */
  int64_t work_cap[8];
  int wdepth;
  int depth;
  bool parallel;
  bool returned;
  bool precise;      /* L->precise: no rounding, bounds tracked */
  bool track;        /* owner tracking: parallel run (race detection) or --check-races */
  uint32_t pid1;     /* linear program id + 1 */
  int64_t steps;     /* ops executed by the current program, counted per block entered */
  int64_t step_limit; /* L->max_steps, INT64_MAX without one, -1 once the program must stop */
  int *conflict;     /* parallel run: set when programs conflict (the launch then re-runs in order) */
  int *snap_failed;  /* parallel run: set when a pristine copy of a buffer could not be made */
  const ir_op *race_op; /* --check-races: first conflict seen by ld/st */
  int64_t race_addr;
  uint32_t race_other;
  bool race_is_read;
  bool bound_pass;   /* re-running an op on the bound buffers */
  bool hook;         /* L->debug_ops: debug hooks around every op */
  const ir_op *ub_op; /* --strict: the first unmasked UB case of the current op */
  int64_t ub_lane, ub_seq;
  int ub_kind;
} ctx;

#define SL(v) (&c->fr->s[(v)->id])

static int64_t slot_cap_of(const ir_type *t)
{
  switch (t->kind) {
  case IR_T_TENSOR:
    return t->numel > 0 ? t->numel : 1;
  case IR_T_PTR:
    /* block pointer: base, rank, shape[r], strides[r], offsets[r] */
    if (t->elem && t->elem->kind == IR_T_TENSOR) return 2 + 3 * IR_MAX_RANK;
    return 1;
  case IR_T_DESC:
    /* descriptor: base, rank, shape[r], strides[r], padding */
    return 3 + 2 * IR_MAX_RANK;
  default:
    return 1;
  }
}

static void plan_region(int64_t *cap, const ir_region *r, int64_t boost);

static void plan_op(int64_t *cap, const ir_op *op, int64_t boost)
{
  for (int i = 0; i < op->nres; i++) {
    int64_t k = slot_cap_of(op->res[i].type);
    cap[op->res[i].id] = k > boost ? k : boost;
  }
  int64_t inner = boost;
  if (op->code == IR_OP_REDUCE || op->code == IR_OP_SCAN || op->code == IR_OP_MAP_ELEMENTWISE) {
    /* combine regions run vectorised over up to numel(operand) lanes */
    for (int i = 0; i < op->nopnds; i++) {
      int64_t k = slot_cap_of(op->opnds[i]->type);
      if (k > inner) inner = k;
    }
  }
  for (int i = 0; i < op->nregions; i++) plan_region(cap, &op->regions[i], inner);
}

static void plan_region(int64_t *cap, const ir_region *r, int64_t boost)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *bl = r->blocks[b];
    for (int a = 0; a < bl->nargs; a++) {
      int64_t k = slot_cap_of(bl->args[a].type);
      cap[bl->args[a].id] = k > boost ? k : boost;
    }
    for (int i = 0; i < bl->nops; i++) plan_op(cap, bl->ops[i], boost);
  }
}

static void count_uses(uint32_t *uses, const ir_region *r)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *bl = r->blocks[b];
    for (int i = 0; i < bl->nops; i++) {
      const ir_op *op = bl->ops[i];
      for (int k = 0; k < op->nopnds; k++) uses[op->opnds[k]->id]++;
      for (int k = 0; k < op->nsuccs; k++)
        for (int a = 0; a < op->succs[k].nargs; a++) uses[op->succs[k].args[a]->id]++;
      for (int k = 0; k < op->nregions; k++) count_uses(uses, &op->regions[k]);
    }
  }
}

static bool is_mem_read_only(ir_opcode k)
{
  return k == IR_OP_LOAD || k == IR_OP_DESC_LOAD || k == IR_OP_XDESC_LOAD || k == IR_OP_DESC_GATHER ||
         k == IR_OP_XDESC_GATHER;
}

/* One pass of the "derives from argument" union over region r; true when a mask grew. */
static bool flow_region(uint64_t *m, const ir_region *r, uint64_t *stored)
{
  bool grew = false;
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *bl = r->blocks[b];
    for (int i = 0; i < bl->nops; i++) {
      const ir_op *op = bl->ops[i];
      uint64_t u = 0;
      for (int k = 0; k < op->nopnds; k++) u |= m[op->opnds[k]->id];
      if (op->code == IR_OP_INT_TO_PTR || op->code == IR_OP_CALL) u |= STORED_ALL;
      if (op->code == IR_OP_CALL) *stored |= STORED_ALL;
      /* values flowing through regions: yields and conditions reach block arguments and results */
      for (int g = 0; g < op->nregions; g++)
        for (int rb = 0; rb < op->regions[g].nblocks; rb++) {
          const ir_block *ib = op->regions[g].blocks[rb];
          for (int t = 0; t < ib->nops; t++)
            if (ir_op_flags(ib->ops[t]->code) & IR_F_TERMINATOR)
              for (int k = 0; k < ib->ops[t]->nopnds; k++) u |= m[ib->ops[t]->opnds[k]->id];
        }
      if ((ir_op_flags(op->code) & IR_F_MEM) && !is_mem_read_only(op->code)) *stored |= u;
      if (is_mem_read_only(op->code)) /* loaded data does not derive from the pointer */
        u = ir_type_elem(op->res[0].type)->kind == IR_T_PTR ? STORED_ALL : 0;
      for (int k = 0; k < op->nres; k++)
        if ((m[op->res[k].id] | u) != m[op->res[k].id]) m[op->res[k].id] |= u, grew = true;
      for (int g = 0; g < op->nregions; g++)
        for (int rb = 0; rb < op->regions[g].nblocks; rb++) {
          const ir_block *ib = op->regions[g].blocks[rb];
          for (int a = 0; a < ib->nargs; a++)
            if ((m[ib->args[a].id] | u) != m[ib->args[a].id]) m[ib->args[a].id] |= u, grew = true;
        }
      for (int k = 0; k < op->nsuccs; k++) {
        const ir_succ *sc = &op->succs[k];
        for (int a = 0; a < sc->nargs && a < sc->block->nargs; a++) {
          uint64_t v = m[sc->args[a]->id];
          if ((m[sc->block->args[a].id] | v) != m[sc->block->args[a].id]) m[sc->block->args[a].id] |= v, grew = true;
        }
      }
      for (int g = 0; g < op->nregions; g++) grew |= flow_region(m, &op->regions[g], stored);
    }
  }
  return grew;
}

/* The STORED_* mask of fn (conservative: a bit may be set for an argument never written). */
static uint64_t stored_args(const ir_func *fn)
{
  uint64_t stored = 0;
  uint64_t *m = ir_calloc(fn->nvalues + 1, sizeof(uint64_t));
  if (!m) return STORED_ALL;
  for (int i = 0; i < fn->nargs; i++) m[fn->args[i].id] = i < 63 ? UINT64_C(1) << i : STORED_ALL;
  while (flow_region(m, &fn->body, &stored)) {
  }
  ir_free(m, sizeof(uint64_t) * (fn->nvalues + 1));
  return stored;
}

static bool scan_flags(const ir_region *r, bool *seq)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *bl = r->blocks[b];
    for (int i = 0; i < bl->nops; i++) {
      const ir_op *op = bl->ops[i];
      switch (op->code) {
      case IR_OP_ATOMIC_RMW:
      case IR_OP_ATOMIC_CAS:
      case IR_OP_DESC_REDUCE:
      case IR_OP_PRINT:
        *seq = true;
        break;
      default:
        break;
      }
      for (int k = 0; k < op->nregions; k++) scan_flags(&op->regions[k], seq);
    }
  }
  return true;
}

static void plan_free(plan *P)
{
  if (!P->fns) return;
  for (int i = 0; i < P->nfns; i++) {
    ir_free(P->fns[i].cap, sizeof(int64_t) * (P->fns[i].fn->nvalues + 1));
    ir_free(P->fns[i].uses, sizeof(uint32_t) * (P->fns[i].fn->nvalues + 1));
  }
  ir_free(P->fns, sizeof(fn_plan) * (size_t)P->nfns);
  P->fns = NULL;
}

static ttref_status plan_build(plan *P, const ir_module *m, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  P->nfns = m->nfuncs;
  P->fns = ir_calloc((size_t)m->nfuncs, sizeof(fn_plan));
  if (!P->fns) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  for (int i = 0; i < m->nfuncs; i++) {
    const ir_func *fn = m->funcs[i];
    fn_plan *fp = &P->fns[i];
    fp->fn = fn;
    fp->cap = ir_calloc(fn->nvalues + 1, sizeof(int64_t));
    fp->uses = ir_calloc(fn->nvalues + 1, sizeof(uint32_t));
    if (!fp->cap || !fp->uses) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    plan_region(fp->cap, &fn->body, 1);
    count_uses(fp->uses, &fn->body);
    for (uint32_t v = 0; v < fn->nvalues; v++) {
      if (fp->cap[v] < 1) fp->cap[v] = 1;
      fp->total += (size_t)fp->cap[v];
      if (fp->cap[v] > P->scratch) P->scratch = fp->cap[v];
    }
    scan_flags(&fn->body, &P->sequential);
  }
  return TTREF_OK;
fail:
  plan_free(P);
  return st;
}

static frame *frame_new(const fn_plan *fp, bool precise)
{
  frame *f = ir_calloc(1, sizeof *f);
  if (!f) return NULL;
  f->fp = fp;
  f->s = ir_calloc(fp->fn->nvalues + 1, sizeof(slot));
  f->buf = ir_calloc(fp->total + 1, sizeof(interp_elem));
  if (precise) f->bbuf = ir_calloc(fp->total + 1, sizeof(interp_elem));
  if (!f->s || !f->buf || (precise && !f->bbuf)) {
    ir_free(f->s, sizeof(slot) * (fp->fn->nvalues + 1));
    ir_free(f->buf, sizeof(interp_elem) * (fp->total + 1));
    ir_free(f->bbuf, sizeof(interp_elem) * (fp->total + 1));
    ir_free(f, sizeof *f);
    return NULL;
  }
  size_t off = 0;
  for (uint32_t v = 0; v < fp->fn->nvalues; v++) {
    f->s[v].b = f->bbuf ? f->bbuf + off : NULL;
    f->s[v].d = f->buf + off;
    f->s[v].cap = fp->cap[v];
    f->s[v].n = 1;
    off += (size_t)fp->cap[v];
  }
  return f;
}

static void frame_free(frame *f)
{
  if (!f) return;
  ir_free(f->s, sizeof(slot) * (f->fp->fn->nvalues + 1));
  ir_free(f->buf, sizeof(interp_elem) * (f->fp->total + 1));
  ir_free(f->bbuf, sizeof(interp_elem) * (f->fp->total + 1));
  ir_free(f, sizeof *f);
}

static const fn_plan *plan_of(const plan *P, const ir_func *fn)
{
  for (int i = 0; i < P->nfns; i++)
    if (P->fns[i].fn == fn) return &P->fns[i];
  return NULL;
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

static int fmt_of(ir_scalar s)
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

/* Round a binary64 result once to format f (RNE, overflow to inf). */
static inline double rnd(const ctx *c, int f, double v)
{
  double r;
  if (c->precise) return v; /* precise mode: binary64, never rounded to the format */
  if (f == FP_F64) r = v;
  else if (f == FP_F32) r = (double)(float)v;
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
  case IR_S_I16: { int16_t v; memcpy(&v, p, 2); e.i = v; break; }
  case IR_S_I32: { int32_t v; memcpy(&v, p, 4); e.i = v; break; }
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
  case IR_S_BF16: { uint16_t v; memcpy(&v, p, 2); e.f = fp_decode((fp_format)fmt_of(s), v); break; }
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
  case IR_S_I16: { int16_t v = (int16_t)e.i; memcpy(p, &v, 2); break; }
  case IR_S_I32: { int32_t v = (int32_t)e.i; memcpy(p, &v, 4); break; }
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
  case IR_S_BF16: { uint16_t v = (uint16_t)fp_encode((fp_format)fmt_of(s), e.f, FP_RNE, FP_OVF_INF); memcpy(p, &v, 2); break; }
  default: p[0] = (uint8_t)fp_encode((fp_format)fmt_of(s), e.f, FP_RNE, FP_OVF_INF); break;
  }
}

/* ---- diagnostics -------------------------------------------------------------- */
static void lane_index_str(const ir_type *t, int64_t lane, char *buf, size_t n)
{
  if (!t || t->kind != IR_T_TENSOR || t->rank == 0) {
    snprintf(buf, n, "scalar");
    return;
  }
  int64_t idx[IR_MAX_RANK];
  int64_t rem = lane;
  for (int d = t->rank - 1; d >= 0; d--) {
    int64_t s = t->shape[d] ? t->shape[d] : 1;
    idx[d] = rem % s;
    rem /= s;
  }
  size_t pos = (size_t)snprintf(buf, n, "lane %" PRId64 " (", lane);
  for (int d = 0; d < t->rank && pos < n; d++)
    pos += (size_t)snprintf(buf + pos, n - pos, "%s%" PRId64, d ? ", " : "", idx[d]);
  if (pos < n) snprintf(buf + pos, n - pos, ")");
}

static ttref_status fault(ctx *c, const ir_op *op, ttref_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static ttref_status fault(ctx *c, const ir_op *op, ttref_status code, const char *fmt, ...)
{
  char body[360];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ir_error_set(c->err, code, ir_op_ttir_loc(c->L->mod, op), "%s", body);
  ir_srcloc s = ir_op_srcloc(op);
  char sbuf[256];
  if (ir_srcloc_str(&s, sbuf, sizeof sbuf) > 0) ir_error_note(c->err, "note: in kernel source %s", sbuf);
  return code;
}

static ttref_status fault_at(ctx *c, const ir_op *op, const ir_type *lane_t, int64_t lane,
                             const char *what)
{
  char lb[128];
  lane_index_str(lane_t, lane, lb, sizeof lb);
  return fault(c, op, TTREF_E_FAULT, "%s in '%s': pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s",
               what, ir_op_label(op), c->pid[0], c->pid[1], c->pid[2], lb);
}

/* ---- debug hooks (interp_debug.c) ---- */
static const interp_elem *dbg_get(void *cx, const ir_value *v, int64_t *out_n)
{
  const ctx *c = cx;
  const slot *s = &c->fr->s[v->id];
  *out_n = s->n;
  return s->d;
}

static interp_dbg_site dbg_site(ctx *c)
{
  interp_dbg_site s = {c->L, c, dbg_get, c->pid, (int64_t)c->pid1 - 1, c->ub_seq, c->err};
  return s;
}

/* An undefined-behaviour case at lane of op: counted, and reported when the launch has debug state. */
static void note_ub(ctx *c, const ir_op *op, interp_ub_kind k, int64_t lane)
{
  switch (k) {
  case INTERP_UB_DIV_ZERO: c->st.ub_div_zero++; break;
  case INTERP_UB_DIV_OVERFLOW: c->st.ub_div_overflow++; break;
  case INTERP_UB_SHIFT: c->st.ub_shift++; break;
  case INTERP_UB_FPTOI: c->st.ub_fptoi++; break;
  default: c->st.ub_overflow++; break;
  }
  if (!c->L->debug || c->bound_pass) return;
  c->ub_seq++;
  interp_dbg_site s = dbg_site(c);
  if (interp_debug_ub(c->L->debug, &s, op, k, lane) && !c->ub_op) {
    c->ub_op = op;
    c->ub_lane = lane;
    c->ub_kind = (int)k;
  }
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
 * interleaving: each element's word a->owner records who accessed it (one
 * program's pid + 1, or ACC_MULTI for several) and whether anyone wrote it
 * (ACC_WRITTEN). An element reaching "several programs and written" sets
 * *c->conflict; the launch then restores each written buffer from its
 * pristine copy (taken before its first store) and runs again, the programs
 * one by one in program order. Without a conflict no program saw another's
 * write, so the parallel result equals the sequential one: outputs are
 * bit-identical for any thread count. --check-races (sequential) instead
 * keeps the last writer per element and faults at the first conflict.
 */
#define ACC_MULTI 0x7FFFFFFFu
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
  c->st.races++;
  if (!c->race_op) {
    c->race_op = (const ir_op *)1; /* set properly by the caller's op check */
    c->race_addr = addr;
    c->race_other = other;
    c->race_is_read = is_read;
  }
}

/* Race detection: this program reads or writes [addr, addr+size) (bounds already checked). */
static void __attribute__((noinline)) track_access(ctx *c, int64_t addr, int size, bool write)
{
  const interp_alloc *a = &c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  if (!a->owner) return;
  const uint64_t off = (uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1);
  const uint64_t esz = (uint64_t)ir_scalar_bytes(a->elem);
  const uint32_t me = c->pid1, wr = write ? ACC_WRITTEN : 0;
  /* an access wider than the buffer's element type covers several elements */
  for (uint64_t e = off / esz; e <= (off + (uint64_t)size - 1) / esz && e < (uint64_t)a->owner_n; e++) {
    uint32_t *w = &a->owner[e];
    uint32_t s = __atomic_load_n(w, __ATOMIC_RELAXED);
    for (;;) {
      const uint32_t who = s & ACC_MULTI;
      const uint32_t ns = (who == 0 || who == me ? me : ACC_MULTI) | (s & ACC_WRITTEN) | wr;
      if (ns == s) break;
      if ((ns & ACC_MULTI) == ACC_MULTI && (ns & ACC_WRITTEN)) {
        __atomic_store_n(c->conflict, 1, __ATOMIC_RELAXED);
        c->step_limit = -1; /* stop this program at its next block */
        c->track = false;
        return;
      }
      if (__atomic_compare_exchange_n(w, &s, ns, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
    }
  }
}

/* Parallel run: copy the buffer holding addr before its first store, once. */
static void __attribute__((noinline)) snapshot_slow(ctx *c, int64_t addr)
{
  interp_alloc *a = &c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  int expect = 0;
  if (__atomic_compare_exchange_n(&a->snap_state, &expect, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    bool ok = true;
    if (a->nbytes && (a->snap = ir_alloc(a->nbytes))) memcpy(a->snap, a->data, a->nbytes);
    else if (a->nbytes) ok = false;
    if (a->pv && (a->snap_pv = ir_alloc(sizeof(double) * (size_t)a->pn) )) memcpy(a->snap_pv, a->pv, sizeof(double) * (size_t)a->pn);
    else if (a->pv) ok = false;
    if (a->pb && (a->snap_pb = ir_alloc(sizeof(double) * (size_t)a->pn))) memcpy(a->snap_pb, a->pb, sizeof(double) * (size_t)a->pn);
    else if (a->pb) ok = false;
    if (!ok) __atomic_store_n(c->snap_failed, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&a->snap_state, 2, __ATOMIC_RELEASE);
    return;
  }
  while (__atomic_load_n(&a->snap_state, __ATOMIC_ACQUIRE) != 2) {
  }
}

static inline void snapshot(ctx *c, int64_t addr)
{
  const interp_alloc *a = &c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  if (__atomic_load_n(&a->snap_state, __ATOMIC_ACQUIRE) != 2) snapshot_slow(c, addr);
}

static inline interp_elem ld(ctx *c, ir_scalar es, const uint8_t *q, int64_t addr)
{
  if (c->track && !c->bound_pass) {
    if (c->L->check_races) {
      uint32_t *ow = owner_of(c, addr);
      if (ow && *ow && *ow != c->pid1) note_race(c, addr, *ow, true);
    } else if (c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1].track_reads) {
      track_access(c, addr, ir_scalar_bytes(es), false);
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

static inline void st(ctx *c, ir_scalar es, uint8_t *q, int64_t addr, interp_elem v)
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
      track_access(c, addr, ir_scalar_bytes(es), true);
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

static ttref_status fault_oob(ctx *c, const ir_op *op, const ir_type *lane_t, int64_t lane,
                              int64_t addr, int size)
{
  const interp_mem *m = c->L->mem;
  uint64_t k = ((uint64_t)addr >> INTERP_ADDR_SHIFT);
  int64_t off = (int64_t)((uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1));
  char what[320];
  if (k >= 1 && k <= (uint64_t)m->n) {
    const interp_alloc *a = &m->allocs[k - 1];
    snprintf(what, sizeof what,
             "out-of-bounds access of %d byte%s at %s+%" PRId64 " (allocation '%s' has %zu bytes)",
             size, size == 1 ? "" : "s", a->name, off, a->name, a->nbytes);
  } else if (k == (uint64_t)m->n + 1 || (addr < 0 && k >= (UINT64_C(1) << 23))) {
    snprintf(what, sizeof what, "out-of-bounds access at address 0x%" PRIx64 " (outside every allocation)",
             (uint64_t)addr);
  } else {
    snprintf(what, sizeof what, "invalid address 0x%" PRIx64 " (not inside any allocation)", (uint64_t)addr);
  }
  return fault_at(c, op, lane_t, lane, what);
}

/* Copy a slot's contents (n elements) into another. */
static inline void copy_slot(slot *dst, const slot *src)
{
  memcpy(dst->d, src->d, sizeof(interp_elem) * (size_t)src->n);
  if (dst->b && src->b) memcpy(dst->b, src->b, sizeof(interp_elem) * (size_t)src->n);
  dst->n = src->n;
}

/* Parallel assignment dst[i] = src[i] (a yield may permute block arguments). */
static ttref_status assign_values(ctx *c, ir_value *dst, ir_value *const *src, int n)
{
  int64_t need = 0;
  for (int i = 0; i < n; i++) need += SL(src[i])->n;
  if (c->precise) need *= 2;
  if (need > c->scratch_cap) {
    interp_elem *ns = ir_realloc(c->scratch, sizeof(interp_elem) * (size_t)c->scratch_cap,
                                 sizeof(interp_elem) * (size_t)need);
    if (!ns) return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
    c->scratch = ns;
    c->scratch_cap = need;
  }
  int64_t off = 0;
  for (int i = 0; i < n; i++) {
    slot *s = SL(src[i]);
    memcpy(c->scratch + off, s->d, sizeof(interp_elem) * (size_t)s->n);
    off += s->n;
    if (c->precise) {
      memcpy(c->scratch + off, s->b, sizeof(interp_elem) * (size_t)s->n);
      off += s->n;
    }
  }
  off = 0;
  for (int i = 0; i < n; i++) {
    slot *d = SL(&dst[i]);
    int64_t k = SL(src[i])->n;
    memcpy(d->d, c->scratch + off, sizeof(interp_elem) * (size_t)k);
    off += k;
    if (c->precise) {
      memcpy(d->b, c->scratch + off, sizeof(interp_elem) * (size_t)k);
      off += k;
    }
    d->n = k;
  }
  return TTREF_OK;
}

static ttref_status run_region(ctx *c, const ir_region *r, const ir_op **out_term);
static ttref_status exec_op(ctx *c, const ir_op *op);

/* ---- integer ops ------------------------------------------------------------------ */
#define LANES2(a, b) ((a)->n > (b)->n ? (a)->n : (b)->n)

/* addi/subi/muli with `overflow<nsw>` / `overflow<nuw>`: a wrapped result is
 * poison in LLVM; the value stays the wrapped one, the case is reported. */
static void check_overflow(ctx *c, const ir_op *op, const interp_elem *A, const interp_elem *B, int64_t sa, int64_t sb,
                           int64_t n, int bits)
{
  const ir_attr *fl = ir_op_attr(op, "overflowFlags");
  if (!fl || !fl->s || (op->code != IR_OP_ADDI && op->code != IR_OP_SUBI && op->code != IR_OP_MULI)) return;
  const bool nsw = strstr(fl->s, "nsw") != NULL, nuw = strstr(fl->s, "nuw") != NULL;
  for (int64_t i = 0; i < n; i++) {
    __int128 x = sval(bits, A[i * sa].i), y = sval(bits, B[i * sb].i);
    unsigned __int128 ux = uval(bits, A[i * sa].i), uy = uval(bits, B[i * sb].i);
    __int128 r = op->code == IR_OP_ADDI ? x + y : op->code == IR_OP_SUBI ? x - y : x * y;
    bool bad = nsw && (r < smin_of(bits) || r > smax_of(bits));
    if (nuw && !bad) {
      if (op->code == IR_OP_SUBI) bad = ux < uy;
      else bad = (op->code == IR_OP_ADDI ? ux + uy : ux * uy) > umax_of(bits);
    }
    if (bad) note_ub(c, op, INTERP_UB_OVERFLOW, i);
  }
}

static ttref_status op_int_binary(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int bits = elem_bits(op->opnds[0]);
  const int64_t n = LANES2(a, b);
  const int64_t sa = a->n > 1, sb = b->n > 1;
  const interp_elem *A = a->d, *B = b->d;
  interp_elem *R = r->d;
  r->n = n;
  switch (op->code) {
  case IR_OP_ADDI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i + (uint64_t)B[i * sb].i));
    break;
  case IR_OP_SUBI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i - (uint64_t)B[i * sb].i));
    break;
  case IR_OP_MULI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i * (uint64_t)B[i * sb].i));
    break;
  case IR_OP_ANDI:
    for (int64_t i = 0; i < n; i++) R[i].i = A[i * sa].i & B[i * sb].i;
    break;
  case IR_OP_ORI:
    for (int64_t i = 0; i < n; i++) R[i].i = A[i * sa].i | B[i * sb].i;
    break;
  case IR_OP_XORI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, A[i * sa].i ^ B[i * sb].i);
    break;
  case IR_OP_MINSI:
    for (int64_t i = 0; i < n; i++) R[i].i = sval(bits, A[i * sa].i) <= sval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_MAXSI:
    for (int64_t i = 0; i < n; i++) R[i].i = sval(bits, A[i * sa].i) >= sval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_MINUI:
    for (int64_t i = 0; i < n; i++) R[i].i = uval(bits, A[i * sa].i) <= uval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_MAXUI:
    for (int64_t i = 0; i < n; i++) R[i].i = uval(bits, A[i * sa].i) >= uval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_SHLI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t s = uval(bits, B[i * sb].i);
      if (s >= (uint64_t)bits) {
        note_ub(c, op, INTERP_UB_SHIFT, i);
        R[i].i = 0;
      } else {
        R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i << s));
      }
    }
    break;
  case IR_OP_SHRUI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t s = uval(bits, B[i * sb].i);
      if (s >= (uint64_t)bits) {
        note_ub(c, op, INTERP_UB_SHIFT, i);
        R[i].i = 0;
      } else {
        R[i].i = wrap_int(bits, (int64_t)(uval(bits, A[i * sa].i) >> s));
      }
    }
    break;
  case IR_OP_SHRSI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t s = uval(bits, B[i * sb].i);
      int64_t x = sval(bits, A[i * sa].i);
      if (s >= (uint64_t)bits) {
        note_ub(c, op, INTERP_UB_SHIFT, i);
        s = (uint64_t)bits - 1; /* sign fill, like NVPTX's clamped shr.s */
        if (bits == 1) s = 0;
      }
      R[i].i = wrap_int(bits, x >> s);
    }
    break;
  case IR_OP_DIVSI:
  case IR_OP_REMSI:
  case IR_OP_CEILDIVSI:
  case IR_OP_FLOORDIVSI:
    for (int64_t i = 0; i < n; i++) {
      int64_t x = sval(bits, A[i * sa].i), y = sval(bits, B[i * sb].i), q, rm;
      if (y == 0) {
        note_ub(c, op, INTERP_UB_DIV_ZERO, i);
        R[i].i = 0;
        continue;
      }
      if (x == smin_of(bits) && y == -1) {
        note_ub(c, op, INTERP_UB_DIV_OVERFLOW, i);
        q = x; /* wraps to MIN; remainder 0 */
        rm = 0;
      } else {
        q = x / y;
        rm = x % y;
      }
      if (op->code == IR_OP_REMSI) R[i].i = wrap_int(bits, rm);
      else if (op->code == IR_OP_DIVSI) R[i].i = wrap_int(bits, q);
      else if (op->code == IR_OP_CEILDIVSI) R[i].i = wrap_int(bits, q + (rm != 0 && ((rm > 0) == (y > 0))));
      else R[i].i = wrap_int(bits, q - (rm != 0 && ((rm < 0) != (y < 0))));
    }
    break;
  case IR_OP_DIVUI:
  case IR_OP_REMUI:
  case IR_OP_CEILDIVUI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t x = uval(bits, A[i * sa].i), y = uval(bits, B[i * sb].i);
      if (y == 0) {
        note_ub(c, op, INTERP_UB_DIV_ZERO, i);
        R[i].i = 0;
        continue;
      }
      uint64_t q = x / y, rm = x % y;
      if (op->code == IR_OP_REMUI) R[i].i = wrap_int(bits, (int64_t)rm);
      else if (op->code == IR_OP_DIVUI) R[i].i = wrap_int(bits, (int64_t)q);
      else R[i].i = wrap_int(bits, (int64_t)(q + (rm != 0)));
    }
    break;
  case IR_OP_MULHIUI:
    for (int64_t i = 0; i < n; i++) {
      unsigned __int128 p = (unsigned __int128)uval(bits, A[i * sa].i) * uval(bits, B[i * sb].i);
      R[i].i = wrap_int(bits, (int64_t)(uint64_t)(p >> bits));
    }
    break;
  default:
    return fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not an integer binary op", ir_op_name(op->code));
  }
  if (op->nattrs && c->L->debug) check_overflow(c, op, A, B, sa, sb, n, bits);
  return TTREF_OK;
}

static ttref_status op_cmpi(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int bits = elem_bits(op->opnds[0]);
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  const int pred = (int)ir_op_attr_int(op, "predicate", 0);
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    int64_t xs = sval(bits, a->d[i * sa].i), ys = sval(bits, b->d[i * sb].i);
    uint64_t xu = uval(bits, a->d[i * sa].i), yu = uval(bits, b->d[i * sb].i);
    bool v;
    switch (pred) {
    case IR_CMPI_EQ: v = xu == yu; break;
    case IR_CMPI_NE: v = xu != yu; break;
    case IR_CMPI_SLT: v = xs < ys; break;
    case IR_CMPI_SLE: v = xs <= ys; break;
    case IR_CMPI_SGT: v = xs > ys; break;
    case IR_CMPI_SGE: v = xs >= ys; break;
    case IR_CMPI_ULT: v = xu < yu; break;
    case IR_CMPI_ULE: v = xu <= yu; break;
    case IR_CMPI_UGT: v = xu > yu; break;
    case IR_CMPI_UGE: v = xu >= yu; break;
    default: return fault(c, op, TTREF_E_INPUT, "unknown cmpi predicate %d", pred);
    }
    r->d[i].i = v;
  }
  return TTREF_OK;
}

/* ---- float ops ---------------------------------------------------------------------- */
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

/*
 * --contract models LLVM's FMA contraction (Triton's default enable_fp_fusion):
 * addf/subf whose operand is a mulf with no other use becomes one fused
 * multiply-add, operand 0 tried first (as LLVM's DAG combiner does).
 */
static const ir_op *contractible_mul(const ctx *c, const ir_op *user, const ir_value *v)
{
  if (v->def && v->def->parent != user->parent) return NULL; /* LLVM fuses within a basic block */
  const ir_op *d = v->def;
  if (!d || d->code != IR_OP_MULF || d->parent != v->def->parent) return NULL;
  return c->fr->fp->uses[v->id] == 1 ? d : NULL;
}

static ttref_status op_contracted(ctx *c, const ir_op *op, const ir_op *mul, int mul_pos)
{
  const slot *x = SL(mul->opnds[0]), *y = SL(mul->opnds[1]), *z = SL(op->opnds[1 - mul_pos]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  int64_t n = LANES2(x, y);
  if (z->n > n) n = z->n;
  const int64_t sx = x->n > 1, sy = y->n > 1, sz = z->n > 1;
  /* a*b + z; a*b - z = fma(a, b, -z); z - a*b = fma(-a, b, z) */
  const double zs = (op->code == IR_OP_SUBF && mul_pos == 0) ? -1.0 : 1.0;
  const double xs = (op->code == IR_OP_SUBF && mul_pos == 1) ? -1.0 : 1.0;
  r->n = n;
  for (int64_t i = 0; i < n; i++)
    r->d[i].f = rnd(c, f, fp_fma((fp_format)f, xs * x->d[i * sx].f, y->d[i * sy].f, zs * z->d[i * sz].f));
  return TTREF_OK;
}

static ttref_status op_float_binary(ctx *c, const ir_op *op)
{
  if (c->L->contract && !c->precise && (op->code == IR_OP_ADDF || op->code == IR_OP_SUBF)) {
    const ir_op *m;
    if ((m = contractible_mul(c, op, op->opnds[0]))) return op_contracted(c, op, m, 0);
    if ((m = contractible_mul(c, op, op->opnds[1]))) return op_contracted(c, op, m, 1);
  }
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  const interp_elem *A = a->d, *B = b->d;
  interp_elem *R = r->d;
  r->n = n;
  switch (op->code) {
  case IR_OP_ADDF:
    for (int64_t i = 0; i < n; i++) R[i].f = rnd(c, f, A[i * sa].f + B[i * sb].f);
    break;
  case IR_OP_SUBF:
    if (c->bound_pass) /* magnitudes add */
      for (int64_t i = 0; i < n; i++) R[i].f = A[i * sa].f + B[i * sb].f;
    else
      for (int64_t i = 0; i < n; i++) R[i].f = rnd(c, f, A[i * sa].f - B[i * sb].f);
    break;
  case IR_OP_MULF:
    for (int64_t i = 0; i < n; i++) R[i].f = rnd(c, f, A[i * sa].f * B[i * sb].f);
    break;
  case IR_OP_DIVF:
  case IR_OP_PRECISE_DIVF:
    for (int64_t i = 0; i < n; i++) R[i].f = rnd(c, f, A[i * sa].f / B[i * sb].f);
    break;
  case IR_OP_REMF: /* fmod is exact, so rounding to the format changes nothing */
    for (int64_t i = 0; i < n; i++) R[i].f = rnd(c, f, fmod(A[i * sa].f, B[i * sb].f));
    break;
  case IR_OP_MAXNUMF:
    for (int64_t i = 0; i < n; i++) R[i].f = maxnum(A[i * sa].f, B[i * sb].f);
    break;
  case IR_OP_MINNUMF:
    for (int64_t i = 0; i < n; i++) R[i].f = minnum(A[i * sa].f, B[i * sb].f);
    break;
  case IR_OP_MAXIMUMF:
    for (int64_t i = 0; i < n; i++) R[i].f = maximum(A[i * sa].f, B[i * sb].f);
    break;
  case IR_OP_MINIMUMF:
    for (int64_t i = 0; i < n; i++) R[i].f = minimum(A[i * sa].f, B[i * sb].f);
    break;
  case IR_OP_MATH_POWF:
    for (int64_t i = 0; i < n; i++) R[i].f = fp_math_eval(FP_MATH_POW, c->precise ? FP_F64 : (fp_format)f, A[i * sa].f, B[i * sb].f);
    break;
  default:
    return fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not a float binary op", ir_op_name(op->code));
  }
  return TTREF_OK;
}

static ttref_status op_cmpf(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  const int pred = (int)ir_op_attr_int(op, "predicate", 0);
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double x = a->d[i * sa].f, y = b->d[i * sb].f;
    bool uno = isnan(x) || isnan(y), v;
    switch (pred) {
    case IR_CMPF_FALSE: v = false; break;
    case IR_CMPF_OEQ: v = !uno && x == y; break;
    case IR_CMPF_OGT: v = !uno && x > y; break;
    case IR_CMPF_OGE: v = !uno && x >= y; break;
    case IR_CMPF_OLT: v = !uno && x < y; break;
    case IR_CMPF_OLE: v = !uno && x <= y; break;
    case IR_CMPF_ONE: v = !uno && x != y; break;
    case IR_CMPF_ORD: v = !uno; break;
    case IR_CMPF_UEQ: v = uno || x == y; break;
    case IR_CMPF_UGT: v = uno || x > y; break;
    case IR_CMPF_UGE: v = uno || x >= y; break;
    case IR_CMPF_ULT: v = uno || x < y; break;
    case IR_CMPF_ULE: v = uno || x <= y; break;
    case IR_CMPF_UNE: v = uno || x != y; break;
    case IR_CMPF_UNO: v = uno; break;
    case IR_CMPF_TRUE: v = true; break;
    default: return fault(c, op, TTREF_E_INPUT, "unknown cmpf predicate %d", pred);
    }
    r->d[i].i = v;
  }
  return TTREF_OK;
}

static ttref_status op_select(ctx *c, const ir_op *op)
{
  const slot *k = SL(op->opnds[0]), *a = SL(op->opnds[1]), *b = SL(op->opnds[2]);
  slot *r = SL(&op->res[0]);
  int64_t n = LANES2(a, b);
  if (k->n > n) n = k->n;
  const int64_t sk = k->n > 1, sa = a->n > 1, sb = b->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) r->d[i] = k->d[i * sk].i ? a->d[i * sa] : b->d[i * sb];
  return TTREF_OK;
}

static ttref_status op_clampf(ctx *c, const ir_op *op)
{
  const slot *x = SL(op->opnds[0]), *lo = SL(op->opnds[1]), *hi = SL(op->opnds[2]);
  slot *r = SL(&op->res[0]);
  int64_t n = LANES2(x, lo);
  if (hi->n > n) n = hi->n;
  const int64_t sx = x->n > 1, sl = lo->n > 1, sh = hi->n > 1;
  const bool prop = ir_op_attr_int(op, "propagateNan", IR_NAN_NONE) != IR_NAN_NONE;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double v = x->d[i * sx].f;
    if (prop) r->d[i].f = isnan(v) ? v : minimum(maximum(v, lo->d[i * sl].f), hi->d[i * sh].f);
    else r->d[i].f = minnum(maxnum(v, lo->d[i * sl].f), hi->d[i * sh].f);
  }
  return TTREF_OK;
}

static ttref_status op_fma(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]), *z = SL(op->opnds[2]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  int64_t n = LANES2(a, b);
  if (z->n > n) n = z->n;
  const int64_t sa = a->n > 1, sb = b->n > 1, sz = z->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double v = c->precise ? fma(a->d[i * sa].f, b->d[i * sb].f, z->d[i * sz].f)
                          : fp_fma((fp_format)f, a->d[i * sa].f, b->d[i * sb].f, z->d[i * sz].f);
    r->d[i].f = rnd(c, f, v);
  }
  return TTREF_OK;
}

/* Unary float math: reference value = the correctly rounded true function. */
static ttref_status op_float_unary(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  const int64_t n = a->n;
  fp_math_fn fn;
  r->n = n;
  switch (op->code) {
  case IR_OP_NEGF:
    for (int64_t i = 0; i < n; i++) r->d[i].f = c->bound_pass ? a->d[i].f : -a->d[i].f;
    return TTREF_OK;
  case IR_OP_MATH_ABSF:
    for (int64_t i = 0; i < n; i++) r->d[i].f = fabs(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_FLOOR:
    for (int64_t i = 0; i < n; i++) r->d[i].f = floor(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_CEIL:
    for (int64_t i = 0; i < n; i++) r->d[i].f = ceil(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_TRUNC:
    for (int64_t i = 0; i < n; i++) r->d[i].f = trunc(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_ROUND:
    for (int64_t i = 0; i < n; i++) r->d[i].f = round(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_ROUNDEVEN:
    for (int64_t i = 0; i < n; i++) r->d[i].f = nearbyint(a->d[i].f); /* default mode is RNE */
    return TTREF_OK;
  case IR_OP_MATH_SQRT:
  case IR_OP_PRECISE_SQRT: /* binary64 sqrt rounded once is correctly rounded for every narrower format */
    for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, f, sqrt(a->d[i].f));
    return TTREF_OK;
  case IR_OP_MATH_EXP: fn = FP_MATH_EXP; break;
  case IR_OP_MATH_EXP2: fn = FP_MATH_EXP2; break;
  case IR_OP_MATH_LOG: fn = FP_MATH_LOG; break;
  case IR_OP_MATH_LOG2: fn = FP_MATH_LOG2; break;
  case IR_OP_MATH_SIN: fn = FP_MATH_SIN; break;
  case IR_OP_MATH_COS: fn = FP_MATH_COS; break;
  case IR_OP_MATH_RSQRT: fn = FP_MATH_RSQRT; break;
  case IR_OP_MATH_ERF: fn = FP_MATH_ERF; break;
  case IR_OP_MATH_TANH: fn = FP_MATH_TANH; break;
  case IR_OP_MATH_LOG1P: fn = FP_MATH_LOG1P; break;
  case IR_OP_MATH_EXPM1: fn = FP_MATH_EXPM1; break;
  default:
    return fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not a float unary op", ir_op_name(op->code));
  }
  const fp_format ef = c->precise ? FP_F64 : (fp_format)f;
  for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, f, fp_math_eval(fn, ef, a->d[i].f, 0.0));
  return TTREF_OK;
}

static ttref_status op_int_unary(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const int bits = elem_bits(op->opnds[0]);
  r->n = a->n;
  for (int64_t i = 0; i < a->n; i++) {
    int64_t x = a->d[i].i;
    uint64_t u = uval(bits, x);
    switch (op->code) {
    case IR_OP_MATH_ABSI: r->d[i].i = wrap_int(bits, x < 0 ? (int64_t)(0 - (uint64_t)x) : x); break;
    case IR_OP_MATH_CTPOP: r->d[i].i = __builtin_popcountll(u); break;
    case IR_OP_MATH_CTLZ: r->d[i].i = u ? __builtin_clzll(u) - (64 - bits) : bits; break;
    case IR_OP_MATH_CTTZ: r->d[i].i = u ? __builtin_ctzll(u) : bits; break;
    default:
      return fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not an int unary op", ir_op_name(op->code));
    }
  }
  return TTREF_OK;
}

/* ---- casts --------------------------------------------------------------------------- */
/* Round-to-odd conversion of a 64-bit integer magnitude to binary64: exact when it
 * fits in 53 bits, otherwise the sticky bit is kept in the last place so that one
 * further rounding to any format of <= 51 bits is correct (no double rounding). */
static double u64_to_double_rto(uint64_t u)
{
  if (u < (UINT64_C(1) << 53)) return (double)u;
  int lz = __builtin_clzll(u);
  int drop = 11 - lz; /* bits below the 53-bit significand */
  uint64_t keep = u >> drop;
  if (u & ((UINT64_C(1) << drop) - 1)) keep |= 1;
  return ldexp((double)keep, drop);
}

static double int_to_float(int f, int64_t v, bool is_unsigned, int bits)
{
  uint64_t mag;
  bool neg = false;
  if (is_unsigned) mag = uval(bits, v);
  else {
    int64_t s = sval(bits, v);
    neg = s < 0;
    mag = neg ? 0 - (uint64_t)s : (uint64_t)s;
  }
  double d;
  if (f == FP_F64) d = (double)mag; /* one rounding */
  else d = fp_round_to((fp_format)f, u64_to_double_rto(mag), FP_RNE, FP_OVF_INF);
  return neg ? -d : d;
}

static ttref_status op_cast(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const ir_scalar ss = elem_scalar(op->opnds[0]), ds = elem_scalar(&op->res[0]);
  const int sbits = ir_scalar_bits(ss), dbits = ir_scalar_bits(ds);
  const int sf = fmt_of(ss), df = fmt_of(ds);
  const int64_t n = a->n;
  r->n = n;
  switch (op->code) {
  case IR_OP_EXTSI:
  case IR_OP_INDEX_CAST:
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(dbits, sval(sbits, a->d[i].i));
    break;
  case IR_OP_EXTUI:
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(dbits, (int64_t)uval(sbits, a->d[i].i));
    break;
  case IR_OP_TRUNCI:
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(dbits, a->d[i].i);
    break;
  case IR_OP_EXTF: /* exact */
    for (int64_t i = 0; i < n; i++) r->d[i].f = a->d[i].f;
    break;
  case IR_OP_TRUNCF:
    for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, df, a->d[i].f);
    break;
  case IR_OP_FP_TO_FP: {
    bool down = ir_scalar_bits(ds) < ir_scalar_bits(ss) || (ds == IR_S_BF16 && ss == IR_S_F16) ||
                (ds == IR_S_F16 && ss == IR_S_BF16) || (dbits == 8 && sbits == 8);
    fp_round rm = ir_op_attr_int(op, "rounding", IR_ROUND_RTNE) == IR_ROUND_RTZ ? FP_RTZ : FP_RNE;
    /* NVIDIA converts to fp8 with cvt.rn.satfinite: saturate to max finite, NaN stays NaN.
     * RTZ never rounds a finite value past max finite, and keeps inf (bit truncation). */
    fp_overflow ov = (dbits == 8 && rm == FP_RNE) ? FP_OVF_SAT : FP_OVF_INF;
    for (int64_t i = 0; i < n; i++) r->d[i].f = down && !c->precise ? fp_round_to((fp_format)df, a->d[i].f, rm, ov) : a->d[i].f;
    break;
  }
  case IR_OP_SITOFP:
  case IR_OP_UITOFP:
    for (int64_t i = 0; i < n; i++) r->d[i].f = int_to_float(c->precise ? FP_F64 : df, a->d[i].i, op->code == IR_OP_UITOFP, sbits);
    break;
  case IR_OP_FPTOSI:
  case IR_OP_FPTOUI: {
    const bool u = op->code == IR_OP_FPTOUI;
    /* saturate like PTX cvt.rzi; NaN gives 0 (documented choice + counted) */
    const double lo = u ? 0.0 : (double)smin_of(dbits);
    const double hi = u ? ldexp(1.0, dbits) : ldexp(1.0, dbits - 1); /* exclusive */
    for (int64_t i = 0; i < n; i++) {
      double v = trunc(a->d[i].f);
      if (isnan(v)) {
        note_ub(c, op, INTERP_UB_FPTOI, i);
        r->d[i].i = 0;
      } else if (v < lo) {
        note_ub(c, op, INTERP_UB_FPTOI, i);
        r->d[i].i = u ? 0 : smin_of(dbits);
      } else if (v >= hi) {
        note_ub(c, op, INTERP_UB_FPTOI, i);
        r->d[i].i = u ? wrap_int(dbits, (int64_t)umax_of(dbits)) : smax_of(dbits);
      } else if (u) {
        r->d[i].i = wrap_int(dbits, (int64_t)(uint64_t)v);
      } else {
        r->d[i].i = wrap_int(dbits, (int64_t)v);
      }
    }
    break;
  }
  case IR_OP_BITCAST:
  case IR_OP_TT_BITCAST: {
    const bool sflt = ir_scalar_is_float(ss), dflt = ir_scalar_is_float(ds);
    for (int64_t i = 0; i < n; i++) {
      int64_t bitsv = sflt ? (int64_t)fp_encode((fp_format)sf, a->d[i].f, FP_RNE, FP_OVF_INF) : a->d[i].i;
      if (dflt) r->d[i].f = fp_decode((fp_format)df, uval(dbits, bitsv));
      else r->d[i].i = (ss == IR_S_PTR || ds == IR_S_PTR) ? bitsv : wrap_int(dbits, bitsv);
    }
    break;
  }
  case IR_OP_PTR_TO_INT:
  case IR_OP_INT_TO_PTR:
    for (int64_t i = 0; i < n; i++) r->d[i].i = op->code == IR_OP_PTR_TO_INT ? wrap_int(dbits, a->d[i].i) : a->d[i].i;
    break;
  default:
    return fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not a cast", ir_op_name(op->code));
  }
  return TTREF_OK;
}

/* ---- shapes and data movement ----------------------------------------------------------- */
static void strides_of(const ir_type *t, int64_t *st)
{
  int64_t s = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    st[d] = s;
    s *= t->shape[d];
  }
}

static ttref_status op_splat(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  int64_t n = op->res[0].type->numel;
  interp_elem v = a->d[0];
  for (int64_t i = 0; i < n; i++) r->d[i] = v;
  r->n = n;
  return TTREF_OK;
}

static ttref_status op_copy(ctx *c, const ir_op *op) /* reshape, expand_dims, unsplat: row-major relabel */
{
  copy_slot(SL(&op->res[0]), SL(op->opnds[0]));
  return TTREF_OK;
}

static ttref_status op_broadcast(ctx *c, const ir_op *op)
{
  const ir_type *it = op->opnds[0]->type, *ot = op->res[0].type;
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  if (it->kind != IR_T_TENSOR) return op_splat(c, op);
  int64_t ist[IR_MAX_RANK], idx[IR_MAX_RANK] = {0};
  strides_of(it, ist);
  for (int d = 0; d < ot->rank; d++)
    if (it->shape[d] == 1 && ot->shape[d] != 1) ist[d] = 0;
  const int R = ot->rank;
  int64_t src = 0;
  for (int64_t i = 0; i < ot->numel; i++) {
    r->d[i] = a->d[src];
    for (int d = R - 1; d >= 0; d--) { /* odometer increment */
      idx[d]++;
      src += ist[d];
      if (idx[d] < ot->shape[d]) break;
      src -= ist[d] * idx[d];
      idx[d] = 0;
    }
  }
  r->n = ot->numel;
  return TTREF_OK;
}

static ttref_status op_trans(ctx *c, const ir_op *op)
{
  const ir_type *it = op->opnds[0]->type, *ot = op->res[0].type;
  const ir_attr *ord = ir_op_attr(op, "order");
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  int64_t ist[IR_MAX_RANK], pst[IR_MAX_RANK], idx[IR_MAX_RANK] = {0};
  if (!ord || ord->nints != ot->rank) return fault(c, op, TTREF_E_INPUT, "'tt.trans' needs an order of rank %d", ot->rank);
  strides_of(it, ist);
  for (int d = 0; d < ot->rank; d++) pst[d] = ist[ord->ints[d]];
  const int R = ot->rank;
  int64_t src = 0;
  for (int64_t i = 0; i < ot->numel; i++) {
    r->d[i] = a->d[src];
    for (int d = R - 1; d >= 0; d--) {
      idx[d]++;
      src += pst[d];
      if (idx[d] < ot->shape[d]) break;
      src -= pst[d] * idx[d];
      idx[d] = 0;
    }
  }
  r->n = ot->numel;
  return TTREF_OK;
}

static ttref_status op_cat(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  memcpy(r->d, a->d, sizeof(interp_elem) * (size_t)a->n);
  memcpy(r->d + a->n, b->d, sizeof(interp_elem) * (size_t)b->n);
  r->n = a->n + b->n;
  return TTREF_OK;
}

static ttref_status op_join(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  for (int64_t i = 0; i < a->n; i++) {
    r->d[2 * i] = a->d[i];
    r->d[2 * i + 1] = b->d[i];
  }
  r->n = 2 * a->n;
  return TTREF_OK;
}

static ttref_status op_split(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r0 = SL(&op->res[0]), *r1 = SL(&op->res[1]);
  int64_t h = a->n / 2;
  for (int64_t i = 0; i < h; i++) {
    r0->d[i] = a->d[2 * i];
    r1->d[i] = a->d[2 * i + 1];
  }
  r0->n = r1->n = h;
  return TTREF_OK;
}

static ttref_status op_gather(ctx *c, const ir_op *op)
{
  const ir_type *st = op->opnds[0]->type, *it = op->opnds[1]->type;
  const slot *src = SL(op->opnds[0]), *ix = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int axis = (int)ir_op_attr_int(op, "axis", 0);
  const int ibits = elem_bits(op->opnds[1]);
  int64_t sst[IR_MAX_RANK], idx[IR_MAX_RANK] = {0};
  strides_of(st, sst);
  for (int64_t i = 0; i < it->numel; i++) {
    int64_t k = sval(ibits, ix->d[i].i);
    if (k < 0 || k >= st->shape[axis])
      return fault_at(c, op, it, i, "gather index out of range");
    int64_t off = 0;
    for (int d = 0; d < it->rank; d++) off += (d == axis ? k : idx[d]) * sst[d];
    r->d[i] = src->d[off];
    for (int d = it->rank - 1; d >= 0; d--) {
      if (++idx[d] < it->shape[d]) break;
      idx[d] = 0;
    }
  }
  r->n = it->numel;
  return TTREF_OK;
}

static ttref_status op_histogram(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  const slot *m = op->nopnds > 1 ? SL(op->opnds[1]) : NULL;
  slot *r = SL(&op->res[0]);
  const int64_t bins = op->res[0].type->numel;
  const int bits = elem_bits(op->opnds[0]);
  for (int64_t b = 0; b < bins; b++) r->d[b].i = 0;
  for (int64_t i = 0; i < a->n; i++) {
    if (m && !m->d[m->n > 1 ? i : 0].i) continue;
    uint64_t v = uval(bits, a->d[i].i);
    /* a value outside [0, bins) (negative ones too) is not counted: the GPU drops it (Triton 3.6 on
     * the H100; test_histogram_out_of_range, test_histogram_silent_data_corruption) */
    if (v >= (uint64_t)bins) continue;
    r->d[v].i = wrap_int(32, r->d[v].i + 1);
  }
  r->n = bins;
  return TTREF_OK;
}

static ttref_status op_make_range(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int64_t s = ir_op_attr_int(op, "start", 0), n = op->res[0].type->numel;
  for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(32, s + i);
  r->n = n;
  return TTREF_OK;
}

static ttref_status op_constant(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  if (r->filled) return TTREF_OK; /* SSA: nothing else writes this slot */
  const ir_attr *v = ir_op_attr(op, "value");
  const ir_type *t = op->res[0].type;
  const ir_scalar s = ir_type_elem(t)->scalar;
  const int64_t n = t->numel;
  if (!v) return fault(c, op, TTREF_E_INPUT, "'arith.constant' has no value");
  const bool flt = ir_scalar_is_float(s);
  const int f = fmt_of(s), bits = ir_scalar_bits(s);
  for (int64_t i = 0; i < n; i++) {
    ir_scalar_val e;
    bool hex = v->hex;
    if (v->kind == IR_A_DENSE) {
      if (v->nvals < 1) return fault(c, op, TTREF_E_INPUT, "empty dense constant");
      e = v->vals[v->splat || v->nvals == 1 ? 0 : (i < v->nvals ? i : v->nvals - 1)];
    } else if (v->kind == IR_A_FLOAT) {
      if (hex) e.i = v->i;
      else e.f = v->f;
    } else {
      e.i = v->i;
      hex = false;
    }
    if (flt) {
      if (hex) r->d[i].f = fp_decode((fp_format)f, uval(bits, e.i));
      else if (v->kind == IR_A_INT || v->kind == IR_A_BOOL) r->d[i].f = rnd(c, f, (double)e.i);
      else r->d[i].f = fp_round_to((fp_format)f, e.f, FP_RNE, FP_OVF_INF);
    } else {
      r->d[i].i = wrap_int(bits, e.i);
    }
  }
  r->n = n;
  r->filled = 1;
  return TTREF_OK;
}

/* ---- pointers and memory --------------------------------------------------------------------- */
static ir_scalar pointee_scalar(const ir_value *p)
{
  const ir_type *pt = ir_type_elem(p->type); /* !tt.ptr<T> */
  const ir_type *e = pt->elem;
  if (!e) return IR_S_I8;
  if (e->kind == IR_T_TENSOR) e = e->elem; /* block pointer */
  return e->kind == IR_T_PTR ? IR_S_PTR : e->scalar;
}

static ttref_status op_addptr(ctx *c, const ir_op *op)
{
  const slot *p = SL(op->opnds[0]), *o = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int64_t esz = ir_scalar_bytes(pointee_scalar(op->opnds[0]));
  const int obits = elem_bits(op->opnds[1]);
  const int64_t n = LANES2(p, o), sp = p->n > 1, so = o->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    int64_t bytes;
    /* checked: a wrapped address could alias another row and escape the bounds check */
    if (__builtin_mul_overflow(sval(obits, o->d[i * so].i), esz, &bytes) ||
        __builtin_add_overflow(p->d[i * sp].i, bytes, &r->d[i].i))
      return fault_at(c, op, op->res[0].type, i, "the address overflowed 64 bits");
  }
  return TTREF_OK;
}

/* Block pointer layout in a slot: [0] base, [1] rank, [2..] shape, strides, offsets. */
#define BP_SHAPE(d, k) ((d)[2 + (k)].i)
#define BP_STRIDE(d, r, k) ((d)[2 + (r) + (k)].i)
#define BP_OFF(d, r, k) ((d)[2 + 2 * (r) + (k)].i)

static ttref_status op_make_tensor_ptr(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int rank = (op->nopnds - 1) / 3;
  if (rank < 1 || rank > IR_MAX_RANK || op->nopnds != 1 + 3 * rank)
    return fault(c, op, TTREF_E_INPUT, "'tt.make_tensor_ptr' needs base + 3 x rank operands");
  r->d[0] = SL(op->opnds[0])->d[0];
  r->d[1].i = rank;
  for (int k = 0; k < rank; k++) {
    BP_SHAPE(r->d, k) = SL(op->opnds[1 + k])->d[0].i;
    BP_STRIDE(r->d, rank, k) = SL(op->opnds[1 + rank + k])->d[0].i;
    BP_OFF(r->d, rank, k) = sval(32, SL(op->opnds[1 + 2 * rank + k])->d[0].i);
  }
  r->n = 2 + 3 * rank;
  return TTREF_OK;
}

static ttref_status op_advance(ctx *c, const ir_op *op)
{
  const slot *p = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  copy_slot(r, p);
  int rank = (int)p->d[1].i;
  if (op->nopnds - 1 != rank) return fault(c, op, TTREF_E_INPUT, "'tt.advance' needs %d offsets", rank);
  for (int k = 0; k < rank; k++)
    if (__builtin_add_overflow(BP_OFF(r->d, rank, k), sval(32, SL(op->opnds[1 + k])->d[0].i), &BP_OFF(r->d, rank, k)))
      return fault(c, op, TTREF_E_FAULT, "'tt.advance' offset overflowed 64 bits");
  return TTREF_OK;
}

/* addr + coord * stride * esz in 64 bits; false when it overflows */
static inline bool addr_step(int64_t *addr, int64_t coord, int64_t stride, int64_t esz)
{
  int64_t t;
  return !__builtin_mul_overflow(coord, stride, &t) && !__builtin_mul_overflow(t, esz, &t) &&
         !__builtin_add_overflow(*addr, t, addr);
}

/* Block-pointer element address and bounds: BP_OUT if a checked dim is out of bounds
 * (the lane is not accessed), BP_OVERFLOW if the address overflows 64 bits. */
enum { BP_IN, BP_OUT, BP_OVERFLOW };
static int bp_addr(const interp_elem *bp, const ir_type *blk, int64_t lane, uint32_t check_mask,
                   int esz, int64_t *addr)
{
  int rank = (int)bp[1].i;
  int64_t rem = lane, a = bp[0].i;
  bool in = true, ovf = false;
  for (int k = rank - 1; k >= 0; k--) {
    int64_t s = blk->shape[k], i = rem % s, coord;
    rem /= s;
    if (__builtin_add_overflow(BP_OFF(bp, rank, k), i, &coord)) ovf = true;
    if ((check_mask >> k) & 1)
      if (coord < 0 || coord >= BP_SHAPE(bp, k)) in = false;
    if (!ovf && !addr_step(&a, coord, BP_STRIDE(bp, rank, k), esz)) ovf = true;
  }
  *addr = a;
  return !in ? BP_OUT : ovf ? BP_OVERFLOW : BP_IN;
}

static uint32_t bits_of_array(const ir_attr *a)
{
  uint32_t m = 0;
  if (a)
    for (int i = 0; i < a->nints; i++)
      if (a->ints[i] >= 0 && a->ints[i] < 32) m |= 1u << a->ints[i];
  return m;
}

/* Whether @p v is an operand of a bitcast in @p b (from op index @p from) or in a region nested there. */
static bool feeds_bitcast(const ir_block *b, int from, const ir_value *v)
{
  for (int i = from; i < b->nops; i++) {
    const ir_op *u = b->ops[i];
    if (u->code == IR_OP_BITCAST || u->code == IR_OP_TT_BITCAST)
      for (int k = 0; k < u->nopnds; k++)
        if (u->opnds[k] == v) return true;
    for (int r = 0; r < u->nregions; r++)
      for (int k = 0; k < u->regions[r].nblocks; k++)
        if (feeds_bitcast(u->regions[r].blocks[k], 0, v)) return true;
  }
  return false;
}

/* FTZ hardware flushes subnormal operands of float instructions; a load feeding a bitcast keeps its bits. */
static bool load_flushes(const ir_op *op)
{
  const ir_block *b = op->parent;
  if (!b) return true;
  for (int i = 0; i < b->nops; i++)
    if (b->ops[i] == op) return !feeds_bitcast(b, i + 1, &op->res[0]);
  return true;
}

static ttref_status op_load(ctx *c, const ir_op *op)
{
  const ir_value *pv = op->opnds[0];
  const slot *p = SL(pv);
  slot *r = SL(&op->res[0]);
  const ir_scalar es = pointee_scalar(pv);
  const int esz = ir_scalar_bytes(es);
  const ir_type *pt = ir_type_elem(pv->type);
  const interp_mem *m = c->L->mem;
  const int64_t n = op->res[0].type->numel;
  r->n = n;
  if (pt->elem && pt->elem->kind == IR_T_TENSOR) { /* block pointer */
    uint32_t chk = bits_of_array(ir_op_attr(op, "boundaryCheck"));
    int pad = (int)ir_op_attr_int(op, "padding", 0);
    for (int64_t i = 0; i < n; i++) {
      int64_t addr;
      const int where = bp_addr(p->d, pt->elem, i, chk, esz, &addr);
      if (where == BP_OVERFLOW) return fault_at(c, op, op->res[0].type, i, "the address overflowed 64 bits");
      if (where == BP_OUT) {
        if (pad == IR_PAD_NAN && ir_scalar_is_float(es)) r->d[i].f = NAN;
        else r->d[i].i = 0;
        continue;
      }
      const uint8_t *q = mem_at(m, addr, esz);
      if (!q) return fault_oob(c, op, op->res[0].type, i, addr, esz);
      r->d[i] = ld(c, es, q, addr);
    }
    return TTREF_OK;
  }
  const slot *mk = op->nopnds > 1 ? SL(op->opnds[1]) : NULL;
  const slot *ot = op->nopnds > 2 ? SL(op->opnds[2]) : NULL;
  const int64_t sp = p->n > 1, sm = mk && mk->n > 1, so = ot && ot->n > 1;
  for (int64_t i = 0; i < n; i++) {
    if (mk && !mk->d[i * sm].i) {
      if (ot) r->d[i] = ot->d[i * so];
      else {
        r->d[i].i = 0; /* masked-off lane without `other`: 0 (documented choice) */
        c->st.ub_masked_other++;
      }
      continue;
    }
    int64_t addr = p->d[i * sp].i;
    const uint8_t *q = mem_at(m, addr, esz);
    if (!q) return fault_oob(c, op, pv->type, i, addr, esz);
    r->d[i] = ld(c, es, q, addr);
  }
  if (c->L->ftz && ir_scalar_is_float(es) && load_flushes(op)) { /* FTZ hardware also reads subnormals as zero */
    const double tiny = fp_min_normal((fp_format)fmt_of(es));
    for (int64_t i = 0; i < n; i++)
      if (r->d[i].f != 0 && fabs(r->d[i].f) < tiny) r->d[i].f = copysign(0.0, r->d[i].f);
  }
  return TTREF_OK;
}

static ttref_status op_store(ctx *c, const ir_op *op)
{
  const ir_value *pv = op->opnds[0];
  const slot *p = SL(pv), *v = SL(op->opnds[1]);
  const ir_scalar es = pointee_scalar(pv);
  const int esz = ir_scalar_bytes(es);
  const ir_type *pt = ir_type_elem(pv->type);
  const interp_mem *m = c->L->mem;
  const int64_t n = v->n, sv = v->n > 1;
  if (pt->elem && pt->elem->kind == IR_T_TENSOR) {
    uint32_t chk = bits_of_array(ir_op_attr(op, "boundaryCheck"));
    for (int64_t i = 0; i < pt->elem->numel; i++) {
      int64_t addr;
      const int where = bp_addr(p->d, pt->elem, i, chk, esz, &addr);
      if (where == BP_OVERFLOW) return fault_at(c, op, pt->elem, i, "the address overflowed 64 bits");
      if (where == BP_OUT) continue;
      uint8_t *q = mem_at(m, addr, esz);
      if (!q) return fault_oob(c, op, pt->elem, i, addr, esz);
      st(c, es, q, addr, v->d[i * sv]);
    }
    return TTREF_OK;
  }
  const slot *mk = op->nopnds > 2 ? SL(op->opnds[2]) : NULL;
  const int64_t np = p->n > n ? p->n : n, sp = p->n > 1, sm = mk && mk->n > 1;
  for (int64_t i = 0; i < np; i++) {
    if (mk && !mk->d[i * sm].i) continue;
    int64_t addr = p->d[i * sp].i;
    uint8_t *q = mem_at(m, addr, esz);
    if (!q) return fault_oob(c, op, pv->type, i, addr, esz);
    st(c, es, q, addr, v->d[i * sv]);
  }
  return TTREF_OK;
}

static interp_elem rmw_apply(int kind, ir_scalar es, interp_elem old, interp_elem v, int f)
{
  const int bits = ir_scalar_bits(es);
  interp_elem r = old;
  switch (kind) {
  case IR_RMW_AND: r.i = old.i & v.i; break;
  case IR_RMW_OR: r.i = old.i | v.i; break;
  case IR_RMW_XOR: r.i = wrap_int(bits, old.i ^ v.i); break;
  case IR_RMW_ADD: r.i = wrap_int(bits, (int64_t)((uint64_t)old.i + (uint64_t)v.i)); break;
  case IR_RMW_FADD: r.f = f == FP_F64 ? old.f + v.f : f == FP_F32 ? (double)(float)(old.f + v.f) : fp_round_to((fp_format)f, old.f + v.f, FP_RNE, FP_OVF_INF); break;
  case IR_RMW_MAX: r.i = sval(bits, old.i) >= sval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_MIN: r.i = sval(bits, old.i) <= sval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_UMAX: r.i = uval(bits, old.i) >= uval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_UMIN: r.i = uval(bits, old.i) <= uval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_XCHG: r = v; break;
  default: break;
  }
  return r;
}

static ttref_status op_atomic_rmw(ctx *c, const ir_op *op)
{
  const ir_value *pv = op->opnds[0];
  const slot *p = SL(pv), *v = SL(op->opnds[1]);
  const slot *mk = op->nopnds > 2 ? SL(op->opnds[2]) : NULL;
  slot *r = SL(&op->res[0]);
  const ir_scalar es = pointee_scalar(pv);
  const int esz = ir_scalar_bytes(es), f = fmt_of(es);
  const int kind = (int)ir_op_attr_int(op, "atomic_rmw_op", 0);
  if (kind < IR_RMW_AND || kind > IR_RMW_XCHG) return fault(c, op, TTREF_E_INPUT, "unknown atomic_rmw kind %d", kind);
  const int64_t n = LANES2(p, v), sp = p->n > 1, sv = v->n > 1, sm = mk && mk->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) { /* element order within the program */
    if (mk && !mk->d[i * sm].i) {
      r->d[i].i = 0; /* masked-off return value is undefined: 0 */
      continue;
    }
    int64_t addr = p->d[i * sp].i;
    uint8_t *q = mem_at(c->L->mem, addr, esz);
    if (!q) return fault_oob(c, op, pv->type, i, addr, esz);
    interp_elem old = ld(c, es, q, addr);
    interp_elem nv = rmw_apply(kind, es, old, v->d[i * sv], c->precise ? FP_F64 : f);
    st(c, es, q, addr, nv);
    r->d[i] = old;
  }
  return TTREF_OK;
}

static ttref_status op_atomic_cas(ctx *c, const ir_op *op)
{
  const ir_value *pv = op->opnds[0];
  const slot *p = SL(pv), *cmp = SL(op->opnds[1]), *v = SL(op->opnds[2]);
  slot *r = SL(&op->res[0]);
  const ir_scalar es = pointee_scalar(pv);
  const int esz = ir_scalar_bytes(es), f = fmt_of(es);
  int64_t n = LANES2(p, v);
  if (cmp->n > n) n = cmp->n;
  const int64_t sp = p->n > 1, sc = cmp->n > 1, sv = v->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    int64_t addr = p->d[i * sp].i;
    uint8_t *q = mem_at(c->L->mem, addr, esz);
    if (!q) return fault_oob(c, op, pv->type, i, addr, esz);
    interp_elem old = ld(c, es, q, addr);
    bool eq;
    if (ir_scalar_is_float(es)) /* bitwise comparison */
      eq = fp_encode((fp_format)f, old.f, FP_RNE, FP_OVF_INF) == fp_encode((fp_format)f, cmp->d[i * sc].f, FP_RNE, FP_OVF_INF);
    else
      eq = uval(ir_scalar_bits(es), old.i) == uval(ir_scalar_bits(es), cmp->d[i * sc].i);
    if (eq) st(c, es, q, addr, v->d[i * sv]);
    r->d[i] = old;
  }
  return TTREF_OK;
}

/* ---- tensor descriptors: [0] base, [1] rank, shape[r], strides[r], padding ---- */
static ttref_status op_make_desc(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int rank = (op->nopnds - 1) / 2;
  if (rank < 1 || rank > IR_MAX_RANK || op->nopnds != 1 + 2 * rank)
    return fault(c, op, TTREF_E_INPUT, "'tt.make_tensor_descriptor' needs base + 2 x rank operands");
  r->d[0] = SL(op->opnds[0])->d[0];
  r->d[1].i = rank;
  for (int k = 0; k < rank; k++) {
    r->d[2 + k].i = sval(elem_bits(op->opnds[1 + k]), SL(op->opnds[1 + k])->d[0].i);
    r->d[2 + rank + k].i = SL(op->opnds[1 + rank + k])->d[0].i;
  }
  const ir_attr *pa = ir_op_attr(op, "padding");
  r->d[2 + 2 * rank].i = (pa && ((pa->s && strstr(pa->s, "nan")) || pa->i == IR_PAD_NAN)) ? IR_PAD_NAN : IR_PAD_ZERO;
  r->n = 3 + 2 * rank;
  return TTREF_OK;
}

static ttref_status op_desc_access(ctx *c, const ir_op *op)
{
  const bool is_load = op->code == IR_OP_DESC_LOAD || op->code == IR_OP_XDESC_LOAD;
  const ir_value *dv = op->opnds[0];
  const ir_type *dt = dv->type;
  if (dt->kind != IR_T_DESC || !dt->elem)
    return fault(c, op, TTREF_E_UNSUPPORTED, "'%s' on a raw pointer descriptor (TMA metadata) cannot be interpreted",
                 ir_op_name(op->code));
  const interp_elem *d = SL(dv)->d;
  const int rank = (int)d[1].i;
  const ir_type *blk = dt->elem;
  const ir_scalar es = blk->scalar;
  const int esz = ir_scalar_bytes(es);
  const int pad = (int)d[2 + 2 * rank].i;
  /* operand order as in TritonOps.td: (desc, indices...) for loads, (desc, src, indices...) otherwise */
  const int first_idx = is_load ? 1 : 2;
  if (op->nopnds != first_idx + rank) return fault(c, op, TTREF_E_INPUT, "'%s' needs %d indices", ir_op_name(op->code), rank);
  int64_t base_idx[IR_MAX_RANK];
  for (int k = 0; k < rank; k++) base_idx[k] = sval(32, SL(op->opnds[first_idx + k])->d[0].i);
  const slot *val = is_load ? NULL : SL(op->opnds[1]);
  slot *r = is_load ? SL(&op->res[0]) : NULL;
  const ir_type *lt = is_load ? op->res[0].type : op->opnds[1]->type;
  const int64_t n = lt->numel;
  const int brank = lt->rank;
  int kind = (int)ir_op_attr_int(op, "kind", 0);
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = i, addr = d[0].i;
    bool in = true, ovf = false;
    for (int k = brank - 1, dk = rank - 1; k >= 0 && dk >= 0; k--, dk--) {
      int64_t s = lt->shape[k], ii = rem % s;
      rem /= s;
      int64_t coord = base_idx[dk] + ii; /* an i32 index plus a lane: no overflow */
      if (coord < 0 || coord >= d[2 + dk].i) in = false;
      if (!ovf && !addr_step(&addr, coord, d[2 + rank + dk].i, esz)) ovf = true;
    }
    if (in && ovf) return fault_at(c, op, lt, i, "the address overflowed 64 bits");
    if (is_load) {
      if (!in) {
        if (pad == IR_PAD_NAN && ir_scalar_is_float(es)) r->d[i].f = NAN;
        else r->d[i].i = 0;
        continue;
      }
      const uint8_t *q = mem_at(c->L->mem, addr, esz);
      if (!q) return fault_oob(c, op, lt, i, addr, esz);
      r->d[i] = ld(c, es, q, addr);
    } else {
      if (!in) continue;
      uint8_t *q = mem_at(c->L->mem, addr, esz);
      if (!q) return fault_oob(c, op, lt, i, addr, esz);
      interp_elem v = val->d[val->n > 1 ? i : 0];
      if (op->code == IR_OP_DESC_REDUCE) {
        interp_elem old = ld(c, es, q, addr);
        const int bits = ir_scalar_bits(es);
        const bool uns = dt->desc_sign == 2;
        switch (kind) {
        case 1: /* add */
          if (ir_scalar_is_float(es)) v.f = rnd(c, fmt_of(es), old.f + v.f);
          else v.i = wrap_int(bits, (int64_t)((uint64_t)old.i + (uint64_t)v.i));
          break;
        case 2: /* min */
          if (ir_scalar_is_float(es)) v.f = minnum(old.f, v.f);
          else v = (uns ? uval(bits, old.i) <= uval(bits, v.i) : old.i <= v.i) ? old : v;
          break;
        case 3: /* max */
          if (ir_scalar_is_float(es)) v.f = maxnum(old.f, v.f);
          else v = (uns ? uval(bits, old.i) >= uval(bits, v.i) : old.i >= v.i) ? old : v;
          break;
        case 4: /* inc: old >= v ? 0 : old + 1 (unsigned) */
          v.i = uval(bits, old.i) >= uval(bits, v.i) ? 0 : wrap_int(bits, old.i + 1);
          break;
        case 5: /* dec */
          v.i = (uval(bits, old.i) == 0 || uval(bits, old.i) > uval(bits, v.i)) ? v.i : wrap_int(bits, old.i - 1);
          break;
        case 6: v.i = old.i & v.i; break;
        case 7: v.i = old.i | v.i; break;
        case 8: v.i = wrap_int(bits, old.i ^ v.i); break;
        default: return fault(c, op, TTREF_E_INPUT, "unknown descriptor_reduce kind %d", kind);
        }
      }
      st(c, es, q, addr, v);
    }
  }
  if (r) r->n = n;
  return TTREF_OK;
}

/* tt.descriptor_gather / _scatter: rows xs[r] of a 2-D descriptor, columns y..y+C-1;
 * out-of-bounds elements read the padding and are not written. */
static ttref_status op_desc_rows(ctx *c, const ir_op *op)
{
  const bool scatter = op->code == IR_OP_DESC_SCATTER || op->code == IR_OP_XDESC_SCATTER;
  const ir_value *dv = op->opnds[0];
  if (dv->type->kind != IR_T_DESC || !dv->type->elem)
    return fault(c, op, TTREF_E_UNSUPPORTED, "'%s' on a raw pointer descriptor cannot be interpreted", ir_op_name(op->code));
  const interp_elem *d = SL(dv)->d;
  if (d[1].i != 2) return fault(c, op, TTREF_E_INPUT, "'%s' needs a 2-D descriptor", ir_op_name(op->code));
  const ir_scalar es = dv->type->elem->scalar;
  const int esz = ir_scalar_bytes(es);
  const int64_t rows = d[2].i, cols = d[3].i, srow = d[4].i, scol = d[5].i;
  const int pad = (int)d[6].i;
  const slot *xs = SL(op->opnds[1]);
  const int xbits = elem_bits(op->opnds[1]);
  const int64_t y = sval(elem_bits(op->opnds[2]), SL(op->opnds[2])->d[0].i);
  const ir_type *lt = scatter ? op->opnds[3]->type : op->res[0].type;
  const int64_t R = lt->shape[0], C = lt->shape[1];
  const slot *src = scatter ? SL(op->opnds[3]) : NULL;
  slot *r = scatter ? NULL : SL(&op->res[0]);
  for (int64_t i = 0; i < R; i++) {
    int64_t x = sval(xbits, xs->d[i].i);
    for (int64_t j = 0; j < C; j++) {
      int64_t col = y + j, lane = i * C + j;
      bool in = x >= 0 && x < rows && col >= 0 && col < cols;
      int64_t addr = d[0].i;
      if (in && (!addr_step(&addr, x, srow, esz) || !addr_step(&addr, col, scol, esz)))
        return fault_at(c, op, lt, lane, "the address overflowed 64 bits");
      if (!scatter) {
        if (!in) {
          if (pad == IR_PAD_NAN && ir_scalar_is_float(es)) r->d[lane].f = NAN;
          else r->d[lane].i = 0;
          continue;
        }
        const uint8_t *q = mem_at(c->L->mem, addr, esz);
        if (!q) return fault_oob(c, op, lt, lane, addr, esz);
        r->d[lane] = ld(c, es, q, addr);
      } else if (in) {
        uint8_t *q = mem_at(c->L->mem, addr, esz);
        if (!q) return fault_oob(c, op, lt, lane, addr, esz);
        st(c, es, q, addr, src->d[lane]);
      }
    }
  }
  if (r) r->n = R * C;
  return TTREF_OK;
}

/* ---- combine regions (reduce, scan, map_elementwise) ------------------------------------------ */
/* A region is run vectorised (all lanes at once) when its body is a single block of
 * elementwise ops; otherwise lane by lane. Both give identical results. */
static bool region_is_vector(const ir_region *r)
{
  if (r->nblocks != 1) return false;
  const ir_block *b = r->blocks[0];
  for (int i = 0; i < b->nops; i++) {
    unsigned fl = ir_op_flags(b->ops[i]->code);
    if (!(fl & (IR_F_ELEMENTWISE | IR_F_TERMINATOR)) && b->ops[i]->code != IR_OP_CONSTANT) return false;
  }
  return true;
}

/*
 * Run region r on `len` lanes: block argument j takes in[j][0..len), and the
 * terminator's operand j is written to out[j][0..len). in/out may alias.
 */
static ttref_status run_combine(ctx *c, const ir_region *r, const interp_elem *const *in, int nin,
                                interp_elem *const *out, int nout, int64_t len)
{
  ttref_status st = TTREF_OK;
  const ir_block *b = r->blocks[0];
  const ir_op *term = NULL;
  if (b->nargs != nin) return fault(c, r->parent, TTREF_E_INPUT, "combine region takes %d arguments, got %d", b->nargs, nin);
  const bool vec = region_is_vector(r);
  const int64_t step = vec ? len : 1;
  for (int64_t base = 0; base < len; base += step) {
    for (int j = 0; j < nin; j++) {
      slot *s = SL(&b->args[j]);
      memcpy(s->d, in[j] + base, sizeof(interp_elem) * (size_t)step);
      s->n = step;
    }
    c->wdepth++;
    st = run_region(c, r, &term);
    c->wdepth--;
    if (st != TTREF_OK) goto fail;
    if (!term || term->nopnds != nout)
      return fault(c, r->parent, TTREF_E_INPUT, "combine region must return %d values", nout);
    for (int j = 0; j < nout; j++) {
      const slot *s = SL(term->opnds[j]);
      if (s->n == 1)
        for (int64_t k = 0; k < step; k++) out[j][base + k] = s->d[0];
      else
        memcpy(out[j] + base, s->d, sizeof(interp_elem) * (size_t)step);
    }
  }
fail:
  return st;
}

/* Work buffers for reduce/scan: per operand, the tensor transposed to [axis][rest]. */
typedef struct axis_view {
  int64_t L, outer, inner;
} axis_view;

static axis_view view_of(const ir_type *t, int axis)
{
  axis_view v = {1, 1, 1};
  for (int d = 0; d < t->rank; d++) {
    if (d < axis) v.outer *= t->shape[d];
    else if (d == axis) v.L = t->shape[d];
    else v.inner *= t->shape[d];
  }
  return v;
}

/* Work space of the combine op at the current nesting level (nested combine ops,
 * e.g. a reduce inside a scalar-mode region, use the next level). */
static ttref_status work_get(ctx *c, const ir_op *op, int64_t need, interp_elem **out)
{
  int k = c->wdepth;
  if (k >= 8) return fault(c, op, TTREF_E_LIMIT, "reduce/scan/map_elementwise nested more than 8 deep");
  if (need > c->work_cap[k]) {
    interp_elem *nw = ir_realloc(c->work[k], sizeof(interp_elem) * (size_t)c->work_cap[k], sizeof(interp_elem) * (size_t)need);
    if (!nw) return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
    c->work[k] = nw;
    c->work_cap[k] = need;
  }
  *out = c->work[k];
  return TTREF_OK;
}

#define MAX_COMBINE 16

/*
 * tt.reduce: canonical order = adjacent pairwise tree along the axis. Level by
 * level, lane k of the next level is combine(lane 2k, lane 2k+1) (lower index on
 * the left, so only associativity is assumed); an odd last lane is carried up.
 */
static ttref_status op_reduce(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const int N = op->nopnds;
  if (N < 1 || N > MAX_COMBINE || op->nregions != 1) return fault(c, op, TTREF_E_INPUT, "bad 'tt.reduce'");
  const ir_type *t = op->opnds[0]->type;
  const int axis = (int)ir_op_attr_int(op, "axis", 0);
  if (t->kind != IR_T_TENSOR || axis < 0 || axis >= t->rank) return fault(c, op, TTREF_E_INPUT, "bad reduce axis %d", axis);
  const axis_view v = view_of(t, axis);
  const int64_t V = v.outer * v.inner, numel = t->numel;
  /* scratch: N work arrays of numel + 2N lhs/rhs staging arrays of numel/2 + N outputs */
  const int64_t half_cap = (v.L / 2 + 1) * V;
  interp_elem *ws;
  TRY(work_get(c, op, N * numel + 3 * N * half_cap, &ws));
  interp_elem *W[MAX_COMBINE], *lhs[MAX_COMBINE], *rhs[MAX_COMBINE], *res[MAX_COMBINE], *in[2 * MAX_COMBINE];
  for (int j = 0; j < N; j++) {
    W[j] = ws + j * numel;
    lhs[j] = ws + N * numel + j * half_cap;
    rhs[j] = ws + N * numel + (N + j) * half_cap;
    res[j] = ws + N * numel + (2 * N + j) * half_cap;
    const interp_elem *src = SL(op->opnds[j])->d;
    for (int64_t o = 0; o < v.outer; o++) /* W[k][o*inner+i] = src[(o*L+k)*inner+i] */
      for (int64_t k = 0; k < v.L; k++)
        memcpy(W[j] + k * V + o * v.inner, src + (o * v.L + k) * v.inner, sizeof(interp_elem) * (size_t)v.inner);
  }
  for (int64_t len = v.L; len > 1;) {
    int64_t half = len / 2;
    for (int j = 0; j < N; j++)
      for (int64_t p = 0; p < half; p++) {
        memcpy(lhs[j] + p * V, W[j] + (2 * p) * V, sizeof(interp_elem) * (size_t)V);
        memcpy(rhs[j] + p * V, W[j] + (2 * p + 1) * V, sizeof(interp_elem) * (size_t)V);
      }
    for (int j = 0; j < N; j++) {
      in[j] = lhs[j];
      in[N + j] = rhs[j];
    }
    TRY(run_combine(c, &op->regions[0], (const interp_elem *const *)in, 2 * N, res, N, half * V));
    for (int j = 0; j < N; j++) {
      memcpy(W[j], res[j], sizeof(interp_elem) * (size_t)(half * V));
      if (len & 1) memcpy(W[j] + half * V, W[j] + (len - 1) * V, sizeof(interp_elem) * (size_t)V);
    }
    len = half + (len & 1);
  }
  for (int j = 0; j < N; j++) {
    slot *r = SL(&op->res[j]);
    memcpy(r->d, W[j], sizeof(interp_elem) * (size_t)V);
    r->n = V;
  }
fail:
  return st;
}

/* tt.scan: canonical order = sequential inclusive scan along the axis (reverse: from the end). */
static ttref_status op_scan(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const int N = op->nopnds;
  if (N < 1 || N > MAX_COMBINE || op->nregions != 1) return fault(c, op, TTREF_E_INPUT, "bad 'tt.scan'");
  const ir_type *t = op->opnds[0]->type;
  const int axis = (int)ir_op_attr_int(op, "axis", 0);
  const bool rev = ir_op_attr_int(op, "reverse", 0) != 0;
  if (t->kind != IR_T_TENSOR || axis < 0 || axis >= t->rank) return fault(c, op, TTREF_E_INPUT, "bad scan axis %d", axis);
  const axis_view v = view_of(t, axis);
  const int64_t V = v.outer * v.inner;
  interp_elem *ws;
  TRY(work_get(c, op, 3 * N * V, &ws));
  interp_elem *acc[MAX_COMBINE], *cur[MAX_COMBINE], *nxt[MAX_COMBINE], *in[2 * MAX_COMBINE];
  for (int j = 0; j < N; j++) {
    acc[j] = ws + j * V;
    cur[j] = ws + (N + j) * V;
    nxt[j] = ws + (2 * N + j) * V;
  }
  for (int64_t step = 0; step < v.L; step++) {
    int64_t k = rev ? v.L - 1 - step : step;
    for (int j = 0; j < N; j++) {
      const interp_elem *src = SL(op->opnds[j])->d;
      for (int64_t o = 0; o < v.outer; o++)
        memcpy(cur[j] + o * v.inner, src + (o * v.L + k) * v.inner, sizeof(interp_elem) * (size_t)v.inner);
    }
    if (step == 0) {
      for (int j = 0; j < N; j++) memcpy(acc[j], cur[j], sizeof(interp_elem) * (size_t)V);
    } else {
      for (int j = 0; j < N; j++) {
        in[j] = acc[j];
        in[N + j] = cur[j];
      }
      TRY(run_combine(c, &op->regions[0], (const interp_elem *const *)in, 2 * N, nxt, N, V));
      for (int j = 0; j < N; j++) memcpy(acc[j], nxt[j], sizeof(interp_elem) * (size_t)V);
    }
    for (int j = 0; j < N; j++) {
      interp_elem *dst = SL(&op->res[j])->d;
      for (int64_t o = 0; o < v.outer; o++)
        memcpy(dst + (o * v.L + k) * v.inner, acc[j] + o * v.inner, sizeof(interp_elem) * (size_t)v.inner);
    }
  }
  for (int j = 0; j < N; j++) SL(&op->res[j])->n = t->numel;
fail:
  return st;
}

/* tt.map_elementwise: block args are each operand's lanes p = 0..pack-1, operand-major. */
static ttref_status op_map_elementwise(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const int N = op->nopnds, R = op->nres;
  const int64_t P = ir_op_attr_int(op, "pack", 1);
  if (N < 1 || P < 1 || N * P > 2 * MAX_COMBINE || R * P > MAX_COMBINE || op->nregions != 1)
    return fault(c, op, TTREF_E_INPUT, "bad 'tt.map_elementwise'");
  const int64_t numel = op->opnds[0]->type->numel, V = numel / P;
  interp_elem *ws;
  TRY(work_get(c, op, (N * P + R * P) * V, &ws));
  interp_elem *in[2 * MAX_COMBINE], *out[MAX_COMBINE];
  for (int j = 0; j < N; j++)
    for (int64_t p = 0; p < P; p++) {
      interp_elem *b = ws + (j * P + p) * V;
      const interp_elem *src = SL(op->opnds[j])->d;
      for (int64_t k = 0; k < V; k++) b[k] = src[k * P + p];
      in[j * P + p] = b;
    }
  for (int j = 0; j < R * P; j++) out[j] = ws + (N * P + j) * V;
  TRY(run_combine(c, &op->regions[0], (const interp_elem *const *)in, (int)(N * P), out, (int)(R * P), V));
  for (int j = 0; j < R; j++) {
    slot *r = SL(&op->res[j]);
    for (int64_t p = 0; p < P; p++)
      for (int64_t k = 0; k < V; k++) r->d[k * P + p] = out[j * P + p][k];
    r->n = numel;
  }
fail:
  return st;
}

/* ---- matrix multiply ---------------------------------------------------------------------------- */
/*
 * tt.dot canonical order: D[b,m,n] = C[b,m,n]; for k = 0..K-1 ascending:
 * D = round_acc(A[b,m,k] * B[b,k,n] + D), the product exact and each step a
 * single (fused) rounding to the accumulator type. i8 x i8 -> i32 wraps.
 * inputPrecision tf32: f32 inputs are first reduced to tf32 (1-8-10) by
 * truncation, as the H100 does (measured: scripts/gpu/probe_tf32.py).
 * tf32x3 and bf16x3/x6 are computed as ieee (their error is below the bound).
 */
static ttref_status op_dot(ctx *c, const ir_op *op)
{
  const ir_type *ta = op->opnds[0]->type, *tb = op->opnds[1]->type, *td = op->res[0].type;
  const slot *A = SL(op->opnds[0]), *B = SL(op->opnds[1]), *C = SL(op->opnds[2]);
  slot *D = SL(&op->res[0]);
  const int r = ta->rank;
  if (r < 2 || r > 3 || tb->rank != r || td->rank != r) return fault(c, op, TTREF_E_INPUT, "'tt.dot' needs 2-D or 3-D operands");
  const int64_t nb = r == 3 ? ta->shape[0] : 1, M = ta->shape[r - 2], K = ta->shape[r - 1], N = tb->shape[r - 1];
  const ir_scalar as = elem_scalar(op->opnds[0]), bs = elem_scalar(op->opnds[1]), ds = td->elem->scalar;
  const int prec = (int)ir_op_attr_int(op, "inputPrecision", IR_PREC_IEEE);
  const bool tf32 = prec == IR_PREC_TF32; /* part of the op's definition: precise mode keeps it */
  const int f = c->precise ? FP_F64 : fmt_of(ds);
  const bool integer = ir_scalar_is_int(ds);
  const int dbits = ir_scalar_bits(ds);
  memcpy(D->d, C->d, sizeof(interp_elem) * (size_t)td->numel);
  if (C->n == 1)
    for (int64_t i = 0; i < td->numel; i++) D->d[i] = C->d[0];
  D->n = td->numel;
  for (int64_t b = 0; b < nb; b++)
    for (int64_t m = 0; m < M; m++) {
      interp_elem *drow = D->d + (b * M + m) * N;
      for (int64_t k = 0; k < K; k++) {
        interp_elem av = A->d[(b * M + m) * K + k];
        const interp_elem *brow = B->d + (b * K + k) * N;
        if (integer) {
          int64_t x = sval(ir_scalar_bits(as), av.i);
          for (int64_t n = 0; n < N; n++)
            drow[n].i = wrap_int(dbits, (int64_t)((uint64_t)drow[n].i + (uint64_t)(x * sval(ir_scalar_bits(bs), brow[n].i))));
          continue;
        }
        double x = av.f;
        if (tf32 && as == IR_S_F32) x = fp_round_to(FP_TF32, x, FP_RTZ, FP_OVF_INF);
        if (f == FP_F32) {
          float xf = (float)x;
          for (int64_t n = 0; n < N; n++) {
            double y = brow[n].f;
            if (tf32 && bs == IR_S_F32) y = fp_round_to(FP_TF32, y, FP_RTZ, FP_OVF_INF);
            drow[n].f = (double)fmaf(xf, (float)y, (float)drow[n].f);
          }
        } else if (f == FP_F64) {
          const bool ty = tf32 && bs == IR_S_F32;
          for (int64_t n = 0; n < N; n++)
            drow[n].f = fma(x, ty ? fp_round_to(FP_TF32, brow[n].f, FP_RTZ, FP_OVF_INF) : brow[n].f, drow[n].f);
        } else {
          for (int64_t n = 0; n < N; n++) drow[n].f = fp_fma((fp_format)f, x, brow[n].f, drow[n].f);
        }
      }
    }
  return TTREF_OK;
}

/*
 * tt.dot_scaled: D = (A * 2^(sa - 127)) . (B * 2^(sb - 127)) + C with e8m0
 * scales, one per group of K / scale_shape[-1] elements (32 for MX formats),
 * a's scale [M, K/g], b's [N, K/g]. Operands in i8 containers are decoded by
 * a_elem_type / b_elem_type (e2m1 packed two per byte along K when *_k_pack,
 * low nibble first). Canonical order and rounding as tt.dot (fused steps in
 * the accumulator type, k ascending).
 */
static double mx_elem(int sdt, const ir_value *v, const interp_elem *d, int64_t idx, bool packed_pair_hi)
{
  const ir_scalar s = elem_scalar(v);
  if (ir_scalar_is_float(s)) return d[idx].f; /* bf16 / fp16 / f8 tensors hold values */
  uint64_t byte = (uint64_t)d[idx].i & 0xFF;
  switch (sdt) {
  case IR_SDT_E4M3: return fp_decode(FP_F8E4M3FN, byte);
  case IR_SDT_E5M2: return fp_decode(FP_F8E5M2, byte);
  case IR_SDT_E2M3: return fp_decode(FP_E2M3, byte & 0x3F);
  case IR_SDT_E3M2: return fp_decode(FP_E3M2, byte & 0x3F);
  case IR_SDT_E2M1: return fp_decode(FP_E2M1, packed_pair_hi ? (byte >> 4) & 0xF : byte & 0xF);
  default: return fp_decode(FP_F16, byte);
  }
}

static ttref_status op_dot_scaled(ctx *c, const ir_op *op)
{
  int ias = -1, ibs = -1;
  const ir_attr *segs = ir_op_attr(op, "operandSegmentSizes");
  if (segs && segs->nints == 5) {
    if (segs->ints[3]) ias = 3;
    if (segs->ints[4]) ibs = 3 + (int)segs->ints[3];
  } else if (op->nopnds == 5) {
    ias = 3;
    ibs = 4;
  } else if (op->nopnds == 4) {
    return fault(c, op, TTREF_E_INPUT, "'tt.dot_scaled' with one scale needs operandSegmentSizes");
  }
  const ir_value *av = op->opnds[0], *bv = op->opnds[1];
  const ir_type *ta = av->type, *tb = bv->type, *td = op->res[0].type;
  const int r = td->rank;
  if (r != 2 || ta->rank != 2 || tb->rank != 2) return fault(c, op, TTREF_E_UNSUPPORTED, "'tt.dot_scaled' on batched (3-D) operands is not supported");
  const int at = (int)ir_op_attr_int(op, "a_elem_type", IR_SDT_BF16), bt = (int)ir_op_attr_int(op, "b_elem_type", IR_SDT_BF16);
  const bool lpack = ir_op_attr_int(op, "lhs_k_pack", 1) != 0, rpack = ir_op_attr_int(op, "rhs_k_pack", 1) != 0;
  if ((at == IR_SDT_E2M1 && !lpack) || (bt == IR_SDT_E2M1 && !rpack))
    return fault(c, op, TTREF_E_UNSUPPORTED, "'tt.dot_scaled' with e2m1 packed along M/N is not supported");
  const bool apk = at == IR_SDT_E2M1 && !ir_scalar_is_float(elem_scalar(av));
  const bool bpk = bt == IR_SDT_E2M1 && !ir_scalar_is_float(elem_scalar(bv));
  const int64_t M = td->shape[0], N = td->shape[1], K = ta->shape[1] * (apk ? 2 : 1);
  const int64_t acols = ta->shape[1], bcols = tb->shape[1];
  const slot *A = SL(av), *B = SL(bv), *C = SL(op->opnds[2]);
  const slot *AS = ias >= 0 ? SL(op->opnds[ias]) : NULL, *BS = ibs >= 0 ? SL(op->opnds[ibs]) : NULL;
  const int64_t ag = AS ? K / op->opnds[ias]->type->shape[1] : K, bg = BS ? K / op->opnds[ibs]->type->shape[1] : K;
  slot *D = SL(&op->res[0]);
  const int f = c->precise ? FP_F64 : fmt_of(td->elem->scalar);
  for (int64_t i = 0; i < M * N; i++) D->d[i] = C->d[C->n > 1 ? i : 0];
  D->n = M * N;
  for (int64_t m = 0; m < M; m++)
    for (int64_t n = 0; n < N; n++) {
      double acc = D->d[m * N + n].f;
      for (int64_t k = 0; k < K; k++) {
        double x = mx_elem(at, av, A->d, m * acols + (apk ? k / 2 : k), apk && (k & 1));
        double y = mx_elem(bt, bv, B->d, (bpk ? k / 2 : k) * bcols + n, bpk && (k & 1));
        if (AS) x = ldexp(x, (int)(((uint64_t)AS->d[m * (K / ag) + k / ag].i & 0xFF)) - 127);
        if (BS) y = ldexp(y, (int)(((uint64_t)BS->d[n * (K / bg) + k / bg].i & 0xFF)) - 127);
        if (AS && ((uint64_t)AS->d[m * (K / ag) + k / ag].i & 0xFF) == 0xFF) x = NAN;
        if (BS && ((uint64_t)BS->d[n * (K / bg) + k / bg].i & 0xFF) == 0xFF) y = NAN;
        if (c->bound_pass) { /* magnitudes (i8-coded operands are not swapped to bounds) */
          x = fabs(x);
          y = fabs(y);
        }
        acc = f == FP_F64 ? fma(x, y, acc) : f == FP_F32 ? (double)fmaf((float)x, (float)y, (float)acc) : fp_fma((fp_format)f, x, y, acc);
      }
      D->d[m * N + n].f = acc;
    }
  return TTREF_OK;
}

/* ---- control flow -------------------------------------------------------------------------------- */
static ttref_status op_scf_for(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_region *body = &op->regions[0];
  ir_block *b = body->blocks[0];
  const int bits = elem_bits(op->opnds[0]);
  int64_t lb = sval(bits, SL(op->opnds[0])->d[0].i), ub = sval(bits, SL(op->opnds[1])->d[0].i),
          step = sval(bits, SL(op->opnds[2])->d[0].i);
  const int nit = op->nopnds - 3;
  const ir_op *term = NULL;
  if (b->nargs != nit + 1 || op->nres != nit) return fault(c, op, TTREF_E_INPUT, "malformed 'scf.for'");
  TRY(assign_values(c, b->args + 1, op->opnds + 3, nit));
  if (step <= 0 && lb < ub) return fault(c, op, TTREF_E_FAULT, "'scf.for' with step %" PRId64 " <= 0 never terminates", step);
  for (int64_t iv = lb; iv < ub;) {
    slot *ivs = SL(&b->args[0]);
    ivs->d[0].i = wrap_int(bits, iv);
    ivs->n = 1;
    TRY(run_region(c, body, &term));
    if (c->returned) goto fail;
    if (!term || term->nopnds != nit) return fault(c, op, TTREF_E_INPUT, "'scf.for' body must yield %d values", nit);
    TRY(assign_values(c, b->args + 1, term->opnds, nit));
    /* the induction variable is computed in its own width; stop on signed overflow */
    int64_t next;
    if (__builtin_add_overflow(iv, step, &next) || next != wrap_int(bits, next)) break;
    iv = next;
  }
  {
    ir_value *src[64];
    if (nit > 64) return fault(c, op, TTREF_E_LIMIT, "'scf.for' with more than 64 iter_args");
    for (int i = 0; i < nit; i++) src[i] = &b->args[1 + i];
    TRY(assign_values(c, op->res, src, nit));
  }
fail:
  return st;
}

static ttref_status op_scf_if(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const bool cond = SL(op->opnds[0])->d[0].i != 0;
  const ir_op *term = NULL;
  int which = cond ? 0 : 1;
  if (which >= op->nregions || op->regions[which].nblocks == 0) return TTREF_OK;
  TRY(run_region(c, &op->regions[which], &term));
  if (c->returned) goto fail;
  if (op->nres) {
    if (!term || term->nopnds != op->nres) return fault(c, op, TTREF_E_INPUT, "'scf.if' branch must yield %d values", op->nres);
    TRY(assign_values(c, op->res, term->opnds, op->nres));
  }
fail:
  return st;
}

static ttref_status op_scf_while(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nregions != 2) return fault(c, op, TTREF_E_INPUT, "'scf.while' needs two regions");
  ir_block *before = op->regions[0].blocks[0], *after = op->regions[1].blocks[0];
  const ir_op *term = NULL;
  TRY(assign_values(c, before->args, op->opnds, op->nopnds));
  for (;;) {
    TRY(run_region(c, &op->regions[0], &term));
    if (c->returned) goto fail;
    if (!term || term->code != IR_OP_SCF_CONDITION || term->nopnds < 1)
      return fault(c, op, TTREF_E_INPUT, "'scf.while' before region must end in scf.condition");
    if (!SL(term->opnds[0])->d[0].i) {
      TRY(assign_values(c, op->res, term->opnds + 1, term->nopnds - 1));
      break;
    }
    TRY(assign_values(c, after->args, term->opnds + 1, term->nopnds - 1));
    TRY(run_region(c, &op->regions[1], &term));
    if (c->returned) goto fail;
    if (!term) return fault(c, op, TTREF_E_INPUT, "'scf.while' after region must yield");
    TRY(assign_values(c, before->args, term->opnds, term->nopnds));
  }
fail:
  return st;
}

static ttref_status call_function(ctx *c, const ir_op *op, const ir_func *fn)
{
  ttref_status st = TTREF_OK;
  const fn_plan *fp = plan_of(c->P, fn);
  frame *caller = c->fr, *callee = NULL;
  const ir_op *term = NULL;
  if (!fp) return fault(c, op, TTREF_E_INTERNAL, "internal: no plan for @%s", fn->name);
  if (c->depth >= 64) return fault(c, op, TTREF_E_LIMIT, "call depth exceeds 64 (recursive tt.call?)");
  if (op->nopnds != fn->nargs) return fault(c, op, TTREF_E_INPUT, "'tt.call' passes %d arguments to @%s, which takes %d", op->nopnds, fn->name, fn->nargs);
  callee = frame_new(fp, c->precise);
  if (!callee) return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
  for (int i = 0; i < fn->nargs; i++) {
    copy_slot(&callee->s[fn->args[i].id], &caller->s[op->opnds[i]->id]);
  }
  c->fr = callee;
  c->depth++;
  st = run_region(c, &fn->body, &term);
  c->depth--;
  c->returned = false;
  c->fr = caller;
  if (st != TTREF_OK) goto fail;
  if (term && term->code == IR_OP_RETURN) {
    if (term->nopnds != op->nres) FAIL(fault(c, op, TTREF_E_INPUT, "@%s returns %d values, the call expects %d", fn->name, term->nopnds, op->nres));
    for (int i = 0; i < op->nres; i++) {
      copy_slot(&caller->s[op->res[i].id], &callee->s[term->opnds[i]->id]);
    }
  }
fail:
  frame_free(callee);
  return st;
}

/* ---- debugging ops ---------------------------------------------------------------------------------- */
static void print_elem(FILE *out, const ir_value *v, interp_elem e, bool hex, bool is_signed)
{
  const ir_scalar s = elem_scalar(v);
  const int bits = ir_scalar_bits(s);
  if (ir_scalar_is_float(s)) {
    if (hex) fprintf(out, "0x%0*" PRIx64, (bits + 3) / 4, fp_encode((fp_format)fmt_of(s), e.f, FP_RNE, FP_OVF_INF));
    else fprintf(out, "%f", e.f);
  } else if (s == IR_S_PTR) {
    fprintf(out, "0x%" PRIx64, (uint64_t)e.i);
  } else if (hex) {
    fprintf(out, "0x%0*" PRIx64, (bits + 3) / 4, uval(bits, e.i));
  } else if (is_signed) {
    fprintf(out, "%" PRId64, sval(bits, e.i));
  } else {
    fprintf(out, "%" PRIu64, uval(bits, e.i));
  }
}

/* GPU format: "pid (x, y, z) idx (i, j)PREFIX(operand n) VALUE", one line per element
 * (the operand part only with several operands; PREFIX keeps Triton's spaces). */
static ttref_status op_print(ctx *c, const ir_op *op)
{
  FILE *out = c->L->print_out ? c->L->print_out : stdout;
  const ir_attr *pa = ir_op_attr(op, "prefix");
  const ir_attr *sg = ir_op_attr(op, "isSigned");
  const bool hex = ir_op_attr_int(op, "hex", 0) != 0;
  const char *prefix = pa && pa->s ? pa->s : "";
  const int plen = pa && pa->s ? (int)pa->slen : 0;
  if (op->nopnds == 0) {
    fprintf(out, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %.*s\n", c->pid[0], c->pid[1], c->pid[2], plen, prefix);
    return TTREF_OK;
  }
  for (int k = 0; k < op->nopnds; k++) {
    const ir_value *v = op->opnds[k];
    const slot *s = SL(v);
    const bool is_signed = !sg || k >= sg->nints || sg->ints[k] != 0;
    for (int64_t i = 0; i < s->n; i++) {
      char idx[160];
      idx[0] = 0;
      if (v->type->kind == IR_T_TENSOR) {
        lane_index_str(v->type, i, idx, sizeof idx);
        char *p = strchr(idx, '(');
        memmove(idx, p ? p : idx, strlen(p ? p : idx) + 1);
      } else {
        snprintf(idx, sizeof idx, "()");
      }
      fprintf(out, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") idx %s%.*s", c->pid[0], c->pid[1], c->pid[2], idx, plen, prefix);
      if (op->nopnds > 1) fprintf(out, "(operand %d) ", k); /* the prefix carries its own spacing */
      print_elem(out, v, s->d[i], hex, is_signed);
      fputc('\n', out);
    }
  }
  return TTREF_OK;
}

static ttref_status op_assert(ctx *c, const ir_op *op)
{
  const slot *s = SL(op->opnds[0]);
  for (int64_t i = 0; i < s->n; i++)
    if (!s->d[i].i) {
      char what[400];
      if (op->code == IR_OP_ASSUME) {
        snprintf(what, sizeof what, "assumption is false");
      } else {
        const ir_attr *m = ir_op_attr(op, "message");
        snprintf(what, sizeof what, "device assertion failed: '%.*s'", m && m->s ? (int)m->slen : 0, m && m->s ? m->s : "");
      }
      return fault_at(c, op, op->opnds[0]->type, i, what);
    }
  return TTREF_OK;
}

/* nextafter in the result format (exact), and erfinv (no correctly rounded
 * oracle: Newton on erfl in long double, then one rounding; within 1 ulp). */
static ttref_status op_extern_special(ctx *c, const ir_op *op, const char *name)
{
  const int f = fmt_of(elem_scalar(&op->res[0]));
  const int bits = ir_scalar_bits(elem_scalar(&op->res[0]));
  const slot *a = SL(op->opnds[0]);
  const slot *b = op->nopnds > 1 ? SL(op->opnds[1]) : a;
  slot *r = SL(&op->res[0]);
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double x = a->d[i * sa].f, y = b->d[i * sb].f;
    if (name[0] == 'n') {
      if (isnan(x) || isnan(y)) r->d[i].f = x + y;
      else if (x == y) r->d[i].f = y;
      else if (x == 0) r->d[i].f = copysign(fp_min_subnormal((fp_format)f), y);
      else {
        uint64_t u = fp_encode((fp_format)f, x, FP_RNE, FP_OVF_INF);
        /* away from zero iff moving toward y's side beyond |x| */
        bool away = (y > x) == (x > 0);
        u = away ? u + 1 : u - 1;
        r->d[i].f = fp_decode((fp_format)f, u & ((bits >= 64) ? UINT64_MAX : ((UINT64_C(1) << bits) - 1)));
      }
    } else {
      if (isnan(x) || x < -1 || x > 1) r->d[i].f = NAN;
      else if (x == 1 || x == -1) r->d[i].f = copysign(INFINITY, x);
      else if (x == 0) r->d[i].f = x;
      else {
        long double yv = (long double)x, t = 0;
        /* initial guess (Giles' approximation is overkill: bisection-safe Newton) */
        long double w = -logl((1.0L - yv) * (1.0L + yv));
        t = copysignl(sqrtl(w), yv) * 0.8862269254527580L;
        if (fabsl(yv) < 0.9L) t = yv * 0.8862269254527580L;
        for (int it = 0; it < 100; it++) {
          long double e = erfl(t) - yv;
          long double d = 1.1283791670955125739L * expl(-t * t);
          long double nt = t - e / d;
          if (nt == t || !isfinite(nt)) break;
          t = nt;
        }
        r->d[i].f = rnd(c, f, (double)t);
      }
    }
  }
  return TTREF_OK;
}

static ttref_status op_extern(ctx *c, const ir_op *op)
{
  const ir_attr *sa = ir_op_attr(op, "symbol");
  char name[64];
  const char *sym = sa && sa->s ? sa->s : "";
  size_t len = sa && sa->s ? sa->slen : 0;
  const int f = fmt_of(elem_scalar(&op->res[0]));
  fp_math_fn fn;
  /* libdevice: __nv_tanhf (f32) / __nv_tanh (f64); ROCm: __ocml_tanh_f32 */
  if (len > 5 && memcmp(sym, "__nv_", 5) == 0) {
    snprintf(name, sizeof name, "%.*s", (int)(len - 5), sym + 5);
    size_t nl = strlen(name);
    if (f == FP_F32 && nl > 1 && name[nl - 1] == 'f') name[nl - 1] = 0;
  } else if (len > 7 && memcmp(sym, "__ocml_", 7) == 0) {
    snprintf(name, sizeof name, "%.*s", (int)(len - 7), sym + 7);
    char *u = strrchr(name, '_');
    if (u && (strcmp(u, "_f32") == 0 || strcmp(u, "_f64") == 0 || strcmp(u, "_f16") == 0)) *u = 0;
  } else {
    snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), sym);
  }
  if (strncmp(name, "fast_", 5) == 0) memmove(name, name + 5, strlen(name + 5) + 1);
  if (strcmp(name, "nextafter") == 0 || strcmp(name, "erfinv") == 0) return op_extern_special(c, op, name);
  if (!ir_scalar_is_float(elem_scalar(&op->res[0])) || op->nopnds < 1 || op->nopnds > 2 ||
      !fp_math_lookup(name, &fn))
    return fault(c, op, TTREF_E_UNSUPPORTED, "'tt.extern_elementwise' symbol '%.*s' has no reference definition in ttref",
                 (int)(len < 100 ? len : 100), sym);
  const slot *a = SL(op->opnds[0]);
  const slot *b = op->nopnds > 1 ? SL(op->opnds[1]) : a;
  slot *r = SL(&op->res[0]);
  const int64_t n = LANES2(a, b), sa2 = a->n > 1, sb = b->n > 1;
  r->n = n;
  const fp_format ef = c->precise ? FP_F64 : (fp_format)f;
  for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, f, fp_math_eval(fn, ef, a->d[i * sa2].f, b->d[i * sb].f));
  return TTREF_OK;
}

/* A registered vendor op: its callback per lane or on whole tensors, then each result element
 * rounded once to the result type (floats; not in precise mode) or wrapped to its width (ints). */
static void vendor_type(const ir_type *t, ttref_type_info *o)
{
  memset(o, 0, sizeof *o);
  o->dtype = ir_scalar_name(ir_type_elem(t)->scalar);
  o->rank = t->kind == IR_T_TENSOR ? t->rank : 0;
  for (int d = 0; d < o->rank; d++) o->shape[d] = t->shape[d];
}

static ttref_status op_vendor(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ttref_op_def *d = op->vdef;
  const ttref_op_attrs *attrs = (const ttref_op_attrs *)op;
  const int k = op->nopnds;
  slot *r = SL(&op->res[0]);
  const ir_type *rt = op->res[0].type;
  const int64_t n = rt->kind == IR_T_TENSOR ? rt->numel : 1;
  ttref_value *scratch[IR_VENDOR_MAX_OPNDS] = {0};
  char msg[200] = "";
  r->n = n;
  if (d->elementwise) {
    ttref_value in[IR_VENDOR_MAX_OPNDS];
    for (int64_t i = 0; i < n; i++) {
      for (int j = 0; j < k; j++) {
        const slot *a = SL(op->opnds[j]);
        in[j] = a->d[a->n > 1 ? i : 0];
      }
      if (d->elementwise(d->ud, attrs, k, in, &r->d[i]) != 0) FAIL(fault_at(c, op, rt, i, "vendor op failed"));
    }
  } else {
    ttref_tensor tin[IR_VENDOR_MAX_OPNDS], tout;
    for (int j = 0; j < k; j++) {
      const slot *a = SL(op->opnds[j]);
      const ir_type *t = op->opnds[j]->type;
      const int64_t m = t->kind == IR_T_TENSOR ? t->numel : 1;
      vendor_type(t, &tin[j].type);
      tin[j].numel = m;
      tin[j].data = a->d;
      if (a->n < m) { /* a splat held as one element: the callback sees the whole tensor */
        scratch[j] = ir_alloc((size_t)m * sizeof *scratch[j]);
        if (!scratch[j]) FAIL(fault(c, op, TTREF_E_NOMEM, "out of memory for an operand of '%s'", ir_op_label(op)));
        for (int64_t i = 0; i < m; i++) scratch[j][i] = a->d[0];
        tin[j].data = scratch[j];
      }
    }
    vendor_type(rt, &tout.type);
    tout.numel = n;
    tout.data = r->d;
    memset(r->d, 0, (size_t)n * sizeof *r->d);
    if (d->tensor(d->ud, attrs, k, tin, &tout, msg, sizeof msg) != 0) {
      msg[sizeof msg - 1] = 0;
      FAIL(fault(c, op, TTREF_E_FAULT, "vendor op '%s' failed: %s: pid (%" PRId64 ", %" PRId64 ", %" PRId64 ")", ir_op_label(op),
                 msg[0] ? msg : "its callback returned an error", c->pid[0], c->pid[1], c->pid[2]));
    }
  }
  const ir_scalar rs = ir_type_elem(rt)->scalar;
  if (ir_scalar_is_float(rs)) {
    const int f = fmt_of(rs);
    for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, f, r->d[i].f);
  } else {
    const int bits = ir_scalar_bits(rs);
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(bits, r->d[i].i);
  }
fail:
  for (int j = 0; j < k; j++)
    if (scratch[j]) ir_free(scratch[j], (size_t)(op->opnds[j]->type->kind == IR_T_TENSOR ? op->opnds[j]->type->numel : 1) * sizeof *scratch[j]);
  return st;
}

static ttref_status op_poison(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int64_t n = slot_cap_of(op->res[0].type);
  for (int64_t i = 0; i < n; i++) r->d[i].i = 0;
  r->n = op->res[0].type->kind == IR_T_TENSOR ? op->res[0].type->numel : 1;
  c->st.ub_poison++;
  return TTREF_OK;
}

static ttref_status op_program_id(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int axis = (int)ir_op_attr_int(op, "axis", 0);
  if (axis < 0 || axis > 2) return fault(c, op, TTREF_E_INPUT, "program axis %d out of range", axis);
  r->d[0].i = wrap_int(32, op->code == IR_OP_GET_PROGRAM_ID ? c->pid[axis] : c->L->grid[axis]);
  r->n = 1;
  return TTREF_OK;
}

/* ---- dispatch ------------------------------------------------------------------------------------------ */
#define OP_CASE(name) case IR_OP_##name:
#define OP_BREAK break

static ttref_status exec_op_value(ctx *c, const ir_op *op)
{
  switch (op->code) {
  OP_CASE(GET_PROGRAM_ID) OP_CASE(GET_NUM_PROGRAMS) return op_program_id(c, op);
  OP_CASE(MAKE_RANGE) return op_make_range(c, op);
  OP_CASE(CONSTANT) return op_constant(c, op);
  OP_CASE(POISON) return op_poison(c, op);
  OP_CASE(SPLAT) return op_splat(c, op);
  OP_CASE(UNSPLAT) OP_CASE(EXPAND_DIMS) OP_CASE(RESHAPE) return op_copy(c, op);
  OP_CASE(BROADCAST) return op_broadcast(c, op);
  OP_CASE(TRANS) return op_trans(c, op);
  OP_CASE(CAT) return op_cat(c, op);
  OP_CASE(JOIN) return op_join(c, op);
  OP_CASE(SPLIT) return op_split(c, op);
  OP_CASE(GATHER) return op_gather(c, op);
  OP_CASE(HISTOGRAM) return op_histogram(c, op);
  OP_CASE(ADDPTR) return op_addptr(c, op);
  OP_CASE(INT_TO_PTR) OP_CASE(PTR_TO_INT) OP_CASE(TT_BITCAST) OP_CASE(BITCAST) OP_CASE(FP_TO_FP)
  OP_CASE(EXTSI) OP_CASE(EXTUI) OP_CASE(TRUNCI) OP_CASE(INDEX_CAST) OP_CASE(EXTF) OP_CASE(TRUNCF)
  OP_CASE(SITOFP) OP_CASE(UITOFP) OP_CASE(FPTOSI) OP_CASE(FPTOUI) return op_cast(c, op);
  OP_CASE(LOAD) return op_load(c, op);
  OP_CASE(STORE) return op_store(c, op);
  OP_CASE(MAKE_TENSOR_PTR) return op_make_tensor_ptr(c, op);
  OP_CASE(ADVANCE) return op_advance(c, op);
  OP_CASE(ATOMIC_RMW) return op_atomic_rmw(c, op);
  OP_CASE(ATOMIC_CAS) return op_atomic_cas(c, op);
  OP_CASE(MAKE_TENSOR_DESC) return op_make_desc(c, op);
  OP_CASE(DESC_LOAD) OP_CASE(DESC_STORE) OP_CASE(DESC_REDUCE) OP_CASE(XDESC_LOAD) OP_CASE(XDESC_STORE)
    return op_desc_access(c, op);
  OP_CASE(DESC_GATHER) OP_CASE(DESC_SCATTER) OP_CASE(XDESC_GATHER) OP_CASE(XDESC_SCATTER)
    return op_desc_rows(c, op);
  OP_CASE(DOT_SCALED) return op_dot_scaled(c, op);
  OP_CASE(REINTERPRET_DESC) OP_CASE(INLINE_ASM)
    return fault(c, op, TTREF_E_UNSUPPORTED, "'%s' is not supported by the interpreter", ir_op_name(op->code));
  OP_CASE(DOT) return op_dot(c, op);
  OP_CASE(REDUCE) return op_reduce(c, op);
  OP_CASE(SCAN) return op_scan(c, op);
  OP_CASE(MAP_ELEMENTWISE) return op_map_elementwise(c, op);
  OP_CASE(EXTERN_ELEMENTWISE) return op_extern(c, op);
  OP_CASE(VENDOR) return op_vendor(c, op);
  OP_CASE(CLAMPF) return op_clampf(c, op);
  OP_CASE(PRECISE_SQRT) return op_float_unary(c, op);
  OP_CASE(PRECISE_DIVF) return op_float_binary(c, op);
  OP_CASE(MULHIUI) return op_int_binary(c, op);
  OP_CASE(PRINT) return op_print(c, op);
  OP_CASE(ASSERT) OP_CASE(ASSUME) return op_assert(c, op);
  OP_CASE(GPU_BARRIER) OP_CASE(TTG_BARRIER) return TTREF_OK;
  OP_CASE(CALL)
    if (!op->callee_fn) return fault(c, op, TTREF_E_INPUT, "'tt.call' of unknown function");
    return call_function(c, op, op->callee_fn);
  OP_CASE(ADDI) OP_CASE(SUBI) OP_CASE(MULI) OP_CASE(DIVSI) OP_CASE(DIVUI) OP_CASE(CEILDIVSI)
  OP_CASE(CEILDIVUI) OP_CASE(FLOORDIVSI) OP_CASE(REMSI) OP_CASE(REMUI) OP_CASE(ANDI) OP_CASE(ORI)
  OP_CASE(XORI) OP_CASE(SHLI) OP_CASE(SHRSI) OP_CASE(SHRUI) OP_CASE(MINSI) OP_CASE(MINUI)
  OP_CASE(MAXSI) OP_CASE(MAXUI) return op_int_binary(c, op);
  OP_CASE(CMPI) return op_cmpi(c, op);
  OP_CASE(SELECT) return op_select(c, op);
  OP_CASE(ADDF) OP_CASE(SUBF) OP_CASE(MULF) OP_CASE(DIVF) OP_CASE(REMF) OP_CASE(MAXNUMF)
  OP_CASE(MINNUMF) OP_CASE(MAXIMUMF) OP_CASE(MINIMUMF) OP_CASE(MATH_POWF) return op_float_binary(c, op);
  OP_CASE(CMPF) return op_cmpf(c, op);
  OP_CASE(NEGF) OP_CASE(MATH_EXP) OP_CASE(MATH_EXP2) OP_CASE(MATH_LOG) OP_CASE(MATH_LOG2)
  OP_CASE(MATH_SIN) OP_CASE(MATH_COS) OP_CASE(MATH_SQRT) OP_CASE(MATH_RSQRT) OP_CASE(MATH_ERF)
  OP_CASE(MATH_FLOOR) OP_CASE(MATH_CEIL) OP_CASE(MATH_ABSF) OP_CASE(MATH_TANH) OP_CASE(MATH_TRUNC)
  OP_CASE(MATH_ROUND) OP_CASE(MATH_ROUNDEVEN) OP_CASE(MATH_LOG1P) OP_CASE(MATH_EXPM1)
    return op_float_unary(c, op);
  OP_CASE(MATH_ABSI) OP_CASE(MATH_CTPOP) OP_CASE(MATH_CTLZ) OP_CASE(MATH_CTTZ) return op_int_unary(c, op);
  OP_CASE(MATH_FMA) return op_fma(c, op);
  OP_CASE(SCF_FOR) return op_scf_for(c, op);
  OP_CASE(SCF_IF) return op_scf_if(c, op);
  OP_CASE(SCF_WHILE) return op_scf_while(c, op);
  OP_CASE(REDUCE_RETURN) OP_CASE(SCAN_RETURN) OP_CASE(MAP_ELEM_RETURN) OP_CASE(RETURN)
  OP_CASE(SCF_CONDITION) OP_CASE(SCF_YIELD) OP_CASE(CF_BR) OP_CASE(CF_COND_BR)
    OP_BREAK; /* terminators are handled by run_region */
  default:
    return fault(c, op, TTREF_E_INTERNAL, "internal: no executor for opcode %d", (int)op->code);
  }
  return fault(c, op, TTREF_E_INTERNAL, "internal: terminator '%s' dispatched as an op", ir_op_name(op->code));
}

/* ---- precise mode: magnitude bounds -------------------------------------------------------------- */
/*
 * Every float value carries a bound: the value the computation would have if
 * every operand were replaced by its magnitude and every subtraction by an
 * addition (sum |a_i b_i| for a dot, sum |x_i| for a sum). Arithmetic ops
 * combine their operands' bounds; data movement, memory, dot and combine ops
 * are re-run on the bound buffers (the "bound pass"); any other float result's
 * bound is |value|.
 */
static bool is_float_value(const ir_value *v)
{
  const ir_type *t = ir_type_elem(v->type);
  return t->kind == IR_T_SCALAR && ir_scalar_is_float(t->scalar);
}

#define MAX_SWAP 64
static int swap_floats(ctx *c, const ir_op *op, slot **sw)
{
  int n = 0;
  for (int pass = 0; pass < 2; pass++) {
    int cnt = pass ? op->nres : op->nopnds;
    for (int i = 0; i < cnt; i++) {
      const ir_value *v = pass ? &op->res[i] : op->opnds[i];
      if (!is_float_value(v)) continue;
      slot *s = SL(v);
      bool dup = false;
      for (int k = 0; k < n; k++) dup |= sw[k] == s;
      if (dup || n >= MAX_SWAP) continue;
      interp_elem *t = s->d;
      s->d = s->b;
      s->b = t;
      sw[n++] = s;
    }
  }
  return n;
}

static void unswap(slot **sw, int n)
{
  for (int k = 0; k < n; k++) {
    interp_elem *t = sw[k]->d;
    sw[k]->d = sw[k]->b;
    sw[k]->b = t;
  }
}

static ttref_status bound_op(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  bool any = false;
  for (int i = 0; i < op->nres; i++) any |= is_float_value(&op->res[i]);
  bool mem_float = false;
  if (op->code == IR_OP_STORE || op->code == IR_OP_ATOMIC_RMW || op->code == IR_OP_ATOMIC_CAS ||
      op->code == IR_OP_DESC_STORE || op->code == IR_OP_DESC_REDUCE || op->code == IR_OP_XDESC_STORE ||
      op->code == IR_OP_DESC_SCATTER || op->code == IR_OP_XDESC_SCATTER)
    for (int i = 0; i < op->nopnds; i++) mem_float |= is_float_value(op->opnds[i]);
  if (!any && !mem_float) return TTREF_OK;
  const slot *a = op->nopnds > 0 ? SL(op->opnds[0]) : NULL;
  const slot *b = op->nopnds > 1 ? SL(op->opnds[1]) : NULL;
  slot *r = op->nres > 0 ? SL(&op->res[0]) : NULL;
  switch (op->code) {
  case IR_OP_ADDF:
  case IR_OP_SUBF:
  case IR_OP_MULF:
  case IR_OP_DIVF:
  case IR_OP_PRECISE_DIVF: {
    const int64_t n = r->n, sa = a->n > 1, sb = b->n > 1;
    for (int64_t i = 0; i < n; i++) {
      double x = a->b[i * sa].f, y = b->b[i * sb].f;
      switch (op->code) {
      case IR_OP_MULF: r->b[i].f = x * y; break;
      case IR_OP_DIVF:
      case IR_OP_PRECISE_DIVF: r->b[i].f = x / fabs(b->d[i * sb].f); break;
      default: r->b[i].f = x + y; break;
      }
    }
    return TTREF_OK;
  }
  case IR_OP_MATH_FMA: {
    const slot *z = SL(op->opnds[2]);
    const int64_t n = r->n, sa = a->n > 1, sb = b->n > 1, sz = z->n > 1;
    for (int64_t i = 0; i < n; i++) r->b[i].f = a->b[i * sa].f * b->b[i * sb].f + z->b[i * sz].f;
    return TTREF_OK;
  }
  case IR_OP_NEGF:
  case IR_OP_EXTF:
  case IR_OP_TRUNCF:
  case IR_OP_FP_TO_FP:
    if (is_float_value(op->opnds[0])) {
      for (int64_t i = 0; i < r->n; i++) r->b[i].f = a->b[i].f;
      return TTREF_OK;
    }
    break;
  case IR_OP_SCF_FOR:
  case IR_OP_SCF_IF:
  case IR_OP_SCF_WHILE:
  case IR_OP_CALL:
    return TTREF_OK; /* results took their bounds from the yielded / returned values */
  case IR_OP_SELECT: {
    const slot *k = SL(op->opnds[0]), *x = SL(op->opnds[1]), *y = SL(op->opnds[2]);
    const int64_t sk = k->n > 1, sx = x->n > 1, sy = y->n > 1;
    for (int64_t i = 0; i < r->n; i++) r->b[i] = k->d[i * sk].i ? x->b[i * sx] : y->b[i * sy];
    return TTREF_OK;
  }
  case IR_OP_SPLAT: case IR_OP_UNSPLAT: case IR_OP_BROADCAST: case IR_OP_EXPAND_DIMS: case IR_OP_RESHAPE:
  case IR_OP_TRANS: case IR_OP_CAT: case IR_OP_JOIN: case IR_OP_SPLIT: case IR_OP_GATHER:
  case IR_OP_LOAD: case IR_OP_STORE: case IR_OP_ATOMIC_RMW: case IR_OP_ATOMIC_CAS: case IR_OP_DOT:
  case IR_OP_REDUCE: case IR_OP_SCAN: case IR_OP_MAP_ELEMENTWISE:
  case IR_OP_DESC_LOAD: case IR_OP_DESC_STORE: case IR_OP_DESC_REDUCE: case IR_OP_XDESC_LOAD: case IR_OP_XDESC_STORE:
  case IR_OP_DESC_GATHER: case IR_OP_DESC_SCATTER: case IR_OP_XDESC_GATHER: case IR_OP_XDESC_SCATTER: case IR_OP_DOT_SCALED: {
    if (op->code == IR_OP_ATOMIC_CAS) break; /* bound of the old value: |value| */
    slot *sw[MAX_SWAP];
    int n = swap_floats(c, op, sw);
    c->bound_pass = true;
    st = exec_op_value(c, op);
    c->bound_pass = false;
    unswap(sw, n);
    return st;
  }
  default:
    break;
  }
  for (int j = 0; j < op->nres; j++) {
    if (!is_float_value(&op->res[j])) continue;
    slot *o = SL(&op->res[j]);
    for (int64_t i = 0; i < o->n; i++) o->b[i].f = fabs(o->d[i].f);
  }
  return st;
}

static ttref_status race_fault(ctx *c, const ir_op *op)
{
  const interp_alloc *a = &c->L->mem->allocs[((uint64_t)c->race_addr >> INTERP_ADDR_SHIFT) - 1];
  int64_t off = (int64_t)((uint64_t)c->race_addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1));
  uint32_t o = c->race_other - 1;
  const int64_t gx = c->L->grid[0], gy = c->L->grid[1];
  char lb[160] = "";
  if (op->nopnds > 0 && op->opnds[0]->type->kind == IR_T_TENSOR) { /* the first lane with that address */
    const slot *p = SL(op->opnds[0]);
    for (int64_t i = 0; i < p->n && !lb[0]; i++)
      if (p->d[i].i == c->race_addr) {
        lb[0] = ' ';
        lane_index_str(op->opnds[0]->type, i, lb + 1, sizeof lb - 1);
      }
  }
  return fault(c, op, TTREF_E_FAULT,
               "data race in '%s': pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s %s+%" PRId64
               " which pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") wrote, without atomics;%s",
               ir_op_name(op->code), c->pid[0], c->pid[1], c->pid[2], c->race_is_read ? "reads" : "writes",
               a->name, off, (int64_t)o % gx, ((int64_t)o / gx) % gy, (int64_t)o / (gx * gy), lb[0] ? lb : " scalar");
}

/* --inject-fault: every element of op's float results grows by a relative
 * 2^-6 (zeros become 2^-6), rounded to the result format: a deliberately
 * wrong "backend" for testing `ttref conform --localize`. */
static void inject_fault(ctx *c, const ir_op *op)
{
  for (int j = 0; j < op->nres; j++) {
    if (!is_float_value(&op->res[j])) continue;
    const fp_format f = (fp_format)fmt_of(ir_type_elem(op->res[j].type)->scalar);
    slot *r = SL(&op->res[j]);
    for (int64_t i = 0; i < r->n; i++)
      if (isfinite(r->d[i].f))
        r->d[i].f = fp_round_to(f, r->d[i].f == 0 ? 0x1p-6 : r->d[i].f * (1 + 0x1p-6), FP_RNE, FP_OVF_INF);
  }
}

/* exec_op_value with the debug hooks around it (interp_debug.c). */
static ttref_status exec_op_debug(ctx *c, const ir_op *op)
{
  interp_dbg_site s = dbg_site(c);
  ttref_status st = interp_debug_before(c->L->debug, &s, op);
  if (st == TTREF_OK) st = exec_op_value(c, op);
  s.seq = c->ub_seq;
  if (st == TTREF_OK && c->ub_op) {
    st = interp_debug_ub_fault(&s, c->ub_op, (interp_ub_kind)c->ub_kind, c->ub_lane);
    c->ub_op = NULL;
  }
  if (st == TTREF_OK) st = interp_debug_after(c->L->debug, &s, op);
  return st;
}

static ttref_status exec_op(ctx *c, const ir_op *op)
{
  ttref_status st = c->hook ? exec_op_debug(c, op) : exec_op_value(c, op);
  if (c->L->inject_op == (int)op->code + 1 && st == TTREF_OK &&
      (!c->L->inject_vendor || (op->vdef && strcmp(op->vdef->name, c->L->inject_vendor) == 0)))
    inject_fault(c, op);
  if (c->race_op && c->L->check_races && st == TTREF_OK) st = race_fault(c, op);
  if (st == TTREF_OK && c->precise && !c->bound_pass) st = bound_op(c, op);
  return st;
}

/* Past the step limit on entering block b: how many of its ops may still run
 * (the op after them faults), or -1 when the run was stopped (a conflict). */
static int __attribute__((noinline)) steps_left(ctx *c, const ir_block *b)
{
  if (c->step_limit < 0) return -1;
  return b->nops - (int)(c->steps - c->step_limit);
}

static ttref_status run_region(ctx *c, const ir_region *r, const ir_op **out_term)
{
  ttref_status st = TTREF_OK;
  *out_term = NULL;
  if (r->nblocks == 0) return TTREF_OK;
  const ir_block *b = r->blocks[0];
  for (;;) {
    const ir_block *next = NULL;
    /* --max-steps counts every op executed, terminators included, once per block entry
     * (every loop iteration enters one): a compare per block, not per op */
    int n = b->nops;
    c->steps += n;
    if (__builtin_expect(c->steps > c->step_limit, 0) ||
        (c->conflict && __atomic_load_n(c->conflict, __ATOMIC_RELAXED))) {
      n = steps_left(c, b);
      if (n < 0 || (c->conflict && __atomic_load_n(c->conflict, __ATOMIC_RELAXED)))
        return TTREF_E_LIMIT; /* the launch re-runs in order; this result is discarded */
    }
    for (int i = 0; i < n; i++) {
      const ir_op *op = b->ops[i];
      if (ir_op_flags(op->code) & IR_F_TERMINATOR) {
        if (c->hook) {
          interp_dbg_site ds = dbg_site(c);
          TRY(interp_debug_before(c->L->debug, &ds, op));
        }
        if (op->code == IR_OP_CF_BR || op->code == IR_OP_CF_COND_BR) {
          int k = 0;
          if (op->code == IR_OP_CF_COND_BR) k = SL(op->opnds[0])->d[0].i ? 0 : 1;
          if (k >= op->nsuccs) return fault(c, op, TTREF_E_INPUT, "branch without successor");
          const ir_succ *s = &op->succs[k];
          TRY(assign_values(c, s->block->args, s->args, s->nargs));
          next = s->block;
          break;
        }
        if (op->code == IR_OP_RETURN && !r->parent) c->returned = false;
        *out_term = op;
        return TTREF_OK;
      }
      TRY(exec_op(c, op));
    }
    if (n < b->nops)
      return fault(c, b->ops[n], TTREF_E_FAULT, "the program executed more than %" PRId64 " ops (--max-steps); stopped at '%s'",
                   c->L->max_steps, ir_op_name(b->ops[n]->code));
    if (!next) return TTREF_OK; /* block without terminator: the verifier rejects it */
    b = next;
  }
fail:
  return st;
}

/* ---- launch ---------------------------------------------------------------------------------------------- */
static void ctx_release(ctx *c)
{
  ir_free(c->scratch, sizeof(interp_elem) * (size_t)c->scratch_cap);
  for (int k = 0; k < 8; k++) ir_free(c->work[k], sizeof(interp_elem) * (size_t)c->work_cap[k]);
  frame_free(c->fr);
  c->fr = NULL;
  c->scratch = NULL;
}

static ttref_status run_program(ctx *c, int64_t lin)
{
  const interp_launch *L = c->L;
  const ir_op *term = NULL;
  c->pid[0] = lin % L->grid[0];
  c->pid[1] = (lin / L->grid[0]) % L->grid[1];
  c->pid[2] = lin / (L->grid[0] * L->grid[1]);
  c->pid1 = (uint32_t)(lin + 1);
  const ir_func *fn = L->fn;
  for (int i = 0; i < fn->nargs; i++) {
    slot *s = &c->fr->s[fn->args[i].id];
    s->d[0] = L->args[i];
    if (s->b) s->b[0].f = fabs(L->args[i].f);
    s->n = 1;
  }
  c->returned = false;
  c->steps = 0;
  c->ub_seq = 0;
  c->step_limit = L->max_steps > 0 ? L->max_steps : INT64_MAX;
  c->st.programs++;
  return run_region(c, &fn->body, &term);
}

static void stats_add(interp_stats *d, const interp_stats *s)
{
  d->ub_div_zero += s->ub_div_zero;
  d->ub_div_overflow += s->ub_div_overflow;
  d->ub_shift += s->ub_shift;
  d->ub_fptoi += s->ub_fptoi;
  d->ub_masked_other += s->ub_masked_other;
  d->ub_poison += s->ub_poison;
  d->ub_overflow += s->ub_overflow;
  d->races += s->races;
  d->programs += s->programs;
}

/* Runs every program of the launch on nthreads threads (programs beyond the
 * lowest faulting one are skipped). With *conflict set by race detection, the
 * results are incomplete and the caller re-runs. */
static ttref_status run_programs(interp_launch *L, const plan *P, const fn_plan *fp, int nthreads, bool track,
                                 int *conflict, int *snap_failed, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  const int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  /* Each thread has its own frame; a fault is reported for the lowest program id
   * that faults, so the message does not depend on the thread count. */
  int64_t fault_lin = INT64_MAX;
  ttref_status fault_st = TTREF_OK;
  ttref_error fault_err;
  memset(&fault_err, 0, sizeof fault_err);
  int setup_failed = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(nthreads)
#endif
  {
    ctx c;
    memset(&c, 0, sizeof c);
    ttref_error lerr;
    memset(&lerr, 0, sizeof lerr);
    c.L = L;
    c.P = P;
    c.err = &lerr;
    c.fr = frame_new(fp, L->precise);
    c.precise = L->precise;
    c.track = track;
    c.parallel = nthreads > 1;
    c.hook = L->debug_ops && L->debug;
    c.conflict = c.parallel ? conflict : NULL;
    c.snap_failed = snap_failed;
    if (!c.fr) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
      setup_failed = 1;
    }
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (int64_t lin = 0; lin < total; lin++) {
      int64_t fl;
#ifdef _OPENMP
#pragma omp atomic read
#endif
      fl = fault_lin;
      if (!c.fr || lin > fl || (c.conflict && __atomic_load_n(c.conflict, __ATOMIC_RELAXED))) continue;
      c.track = track;
      ttref_status s = run_program(&c, lin);
      if (s != TTREF_OK) {
#ifdef _OPENMP
#pragma omp critical(ttref_fault)
#endif
        {
          if (lin < fault_lin) {
            fault_lin = lin;
            fault_st = s;
            fault_err = lerr;
          }
        }
      }
    }
#ifdef _OPENMP
#pragma omp critical(ttref_stats)
#endif
    stats_add(&L->stats, &c.st);
    ctx_release(&c);
  }
  if (setup_failed) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory creating execution frames"));
  if (fault_st != TTREF_OK) {
    if (err) *err = fault_err;
    FAIL(fault_st);
  }
fail:
  return st;
}

/* Drop the pristine copies; with restore, first put them back. */
static void snapshots_end(interp_mem *m, bool restore)
{
  for (int k = 0; k < m->n; k++) {
    interp_alloc *a = &m->allocs[k];
    if (restore && a->snap_state == 2) {
      if (a->snap) memcpy(a->data, a->snap, a->nbytes);
      if (a->snap_pv) memcpy(a->pv, a->snap_pv, sizeof(double) * (size_t)a->pn);
      if (a->snap_pb) memcpy(a->pb, a->snap_pb, sizeof(double) * (size_t)a->pn);
    }
    ir_free(a->snap, a->nbytes);
    ir_free(a->snap_pv, sizeof(double) * (size_t)a->pn);
    ir_free(a->snap_pb, sizeof(double) * (size_t)a->pn);
    a->snap = NULL;
    a->snap_pv = a->snap_pb = NULL;
    a->snap_state = 0;
  }
}

ttref_status interp_run(interp_launch *L, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  plan P = {0};
  const fn_plan *fp;
  int conflict = 0, snap_failed = 0;
  memset(&L->stats, 0, sizeof L->stats);
  for (int d = 0; d < 3; d++)
    if (L->grid[d] < 0 || L->grid[d] > INT32_MAX) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "grid dimension %d out of range: %" PRId64, d, L->grid[d]));
  if (L->grid[0] == 0 || L->grid[1] == 0 || L->grid[2] == 0) return TTREF_OK; /* an empty grid runs nothing */
  /* each dim < 2^31, so the product of two fits; the third is checked against the limit first */
  if (L->grid[0] * L->grid[1] > INTERP_MAX_PROGRAMS / L->grid[2])
    FAIL(IR_ERR(err, TTREF_E_LIMIT, none,
                "grid %" PRId64 "x%" PRId64 "x%" PRId64 " has more than %" PRId64 " programs, the most ttref runs in one launch",
                L->grid[0], L->grid[1], L->grid[2], (int64_t)INTERP_MAX_PROGRAMS));
  const int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  if (L->threads < 0 || L->threads > INTERP_MAX_THREADS)
    FAIL(IR_ERR(err, TTREF_E_USAGE, none, "thread count %d out of range (1..%d)", L->threads, INTERP_MAX_THREADS));
  TRY(plan_build(&P, L->mod, err));
  fp = plan_of(&P, L->fn);
  if (!fp) FAIL(IR_ERR(err, TTREF_E_INTERNAL, none, "internal: kernel not in module"));
  int nthreads = 1;
#ifdef _OPENMP
  nthreads = L->threads > 0 ? L->threads : omp_get_max_threads();
  if (nthreads > INTERP_MAX_THREADS) nthreads = INTERP_MAX_THREADS;
#endif
  /* owners hold pid + 1 below ACC_MULTI (parallel) or in 32 bits (--check-races) */
  if (P.sequential || total < 2 || L->check_races || L->debug_ops || total >= (int64_t)ACC_MULTI) nthreads = 1;
  if (total > (int64_t)UINT32_MAX - 1 && L->check_races) FAIL(IR_ERR(err, TTREF_E_LIMIT, none, "grid too large for race tracking"));
  const bool track = nthreads > 1 || L->check_races;
  const uint64_t stored = track ? stored_args(L->fn) : 0;
  for (int k = 0; k < L->mem->n; k++) L->mem->allocs[k].track_reads = (stored & STORED_ALL) != 0;
  for (int i = 0; i < L->fn->nargs && i < 63; i++) {
    uint64_t ak = (uint64_t)L->args[i].i >> INTERP_ADDR_SHIFT;
    if (((stored >> i) & 1) && L->fn->args[i].type->kind == IR_T_PTR && ak >= 1 && ak <= (uint64_t)L->mem->n)
      L->mem->allocs[ak - 1].track_reads = true;
  }
  if (track) /* element owners for race detection and --check-races */
    for (int k = 0; k < L->mem->n; k++) {
      interp_alloc *a = &L->mem->allocs[k];
      if (a->owner) memset(a->owner, 0, sizeof(uint32_t) * (size_t)a->owner_n);
      else {
        a->owner_n = (int64_t)(a->nbytes / (size_t)ir_scalar_bytes(a->elem)) + 1;
        a->owner = ir_calloc((size_t)a->owner_n, sizeof(uint32_t));
        if (!a->owner) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory for race tracking"));
      }
    }
  if (nthreads > total) nthreads = (int)total;
  if (nthreads < 1) nthreads = 1;
  st = run_programs(L, &P, fp, nthreads, track, &conflict, &snap_failed, err);
  /* Programs conflict, or one faulted (later programs may have run already): run them again
   * from the pristine buffers, in program order, so memory ends as with one thread. */
  if (conflict || (st != TTREF_OK && nthreads > 1)) {
    const bool raced = conflict != 0;
    snapshots_end(L->mem, true);
    if (snap_failed) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory copying buffers to re-run racing programs in order"));
    memset(&L->stats, 0, sizeof L->stats);
    st = run_programs(L, &P, fp, 1, false, &conflict, &snap_failed, err);
    if (raced) L->stats.races = 1;
  }
fail:
  snapshots_end(L->mem, false);
  plan_free(&P);
  return st;
}
