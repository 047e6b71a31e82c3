/*
 * interp_memory.c: memory ops (tt.load/store, atomics, block pointers, tensor
 * descriptors) and the race tracking and out-of-bounds faults behind them.
 */
#include "config.h"
#include "interp_exec.h"

/* ---- race tracking --------------------------------------------------------------------------- */
#define RACE_LOG_RECENT 8               /* spans of the current program a new one may merge into */
#define RACE_LOG_MAX    ((int64_t)1 << 21) /* spans per thread (48 MiB); beyond: run in order */

/* The launch cannot vouch for this parallel run (out of memory for tracking): it re-runs in order. */
static void track_give_up(ctx *c)
{
  __atomic_store_n(c->conflict, 1, __ATOMIC_RELAXED);
  c->step_limit = -1; /* stop this program at its next block */
  c->track = false;
}

/* Log [lo, hi) for this program: merged into one of its last few spans of the same kind when it
 * continues, overlaps or repeats it (a loop over the same tiles logs each once). */
static void log_span(ctx *c, uint64_t lo, uint64_t hi, uint32_t who)
{
  race_log *g = c->log;
  for (int64_t k = g->n - 1; k >= 0 && k >= g->n - RACE_LOG_RECENT; k--) {
    race_span *t = &g->v[k];
    if ((t->who & ACC_MULTI) != (who & ACC_MULTI)) break; /* an earlier program's spans */
    if (t->who == who && lo <= t->hi && hi >= t->lo) {
      if (lo < t->lo) t->lo = lo;
      if (hi > t->hi) t->hi = hi;
      return;
    }
  }
  if (g->n == g->cap) {
    if (g->cap >= RACE_LOG_MAX) { /* this many distinct spans: the launch runs in order instead */
      track_give_up(c);
      return;
    }
    const int64_t cap = g->cap ? 2 * g->cap : 1024;
    race_span *v = ir_realloc(g->v, sizeof *v * (size_t)g->cap, sizeof *v * (size_t)cap);
    if (!v) {
      track_give_up(c);
      return;
    }
    g->v = v;
    g->cap = cap;
  }
  g->v[g->n++] = (race_span){lo, hi, who};
}

/* The allocation's element owners, allocated by the first thread that needs them. */
static uint32_t *owners(ctx *c, interp_alloc *a)
{
  uint32_t *ow = __atomic_load_n(&a->owner, __ATOMIC_ACQUIRE);
  if (ow || a->owner_n <= 0) return ow;
  uint32_t *mine = ir_calloc((size_t)a->owner_n, sizeof(uint32_t));
  if (!mine) {
    track_give_up(c);
    return NULL;
  }
  uint32_t *expect = NULL;
  if (__atomic_compare_exchange_n(&a->owner, &expect, mine, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return mine;
  ir_free(mine, sizeof(uint32_t) * (size_t)a->owner_n);
  return expect;
}

/* Race detection: this program reads or writes [addr, addr+size) (bounds already checked). */
void __attribute__((noinline)) interp_track_access(ctx *c, int64_t addr, int size, bool write)
{
  interp_alloc *a = &c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  const uint32_t me = c->pid1, wr = write ? ACC_WRITTEN : 0;
  if (c->log && size > 8) { /* a run: one span, checked after the launch */
    log_span(c, (uint64_t)addr, (uint64_t)addr + (uint64_t)size, me | wr);
    return;
  }
  uint32_t *ow = c->log ? owners(c, a) : a->owner;
  if (!ow) return;
  const uint64_t off = (uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1);
  const uint64_t esz = (uint64_t)ir_scalar_bytes(a->elem);
  /* an access wider than the buffer's element type covers several elements */
  for (uint64_t e = off / esz; e <= (off + (uint64_t)size - 1) / esz && e < (uint64_t)a->owner_n; e++) {
    uint32_t *w = &ow[e];
    uint32_t s = __atomic_load_n(w, __ATOMIC_RELAXED);
    for (;;) {
      const uint32_t who = s & ACC_MULTI;
      const uint32_t ns = (who == 0 || who == me ? me : ACC_MULTI) | (s & ACC_WRITTEN) | wr;
      if (ns == s) break;
      if ((ns & ACC_MULTI) == ACC_MULTI && (ns & ACC_WRITTEN)) {
        track_give_up(c); /* a conflict: the launch re-runs in order */
        return;
      }
      if (__atomic_compare_exchange_n(w, &s, ns, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
    }
  }
}

static int span_cmp(const void *pa, const void *pb)
{
  const race_span *a = pa, *b = pb;
  return a->lo < b->lo ? -1 : a->lo > b->lo ? 1 : 0;
}

/* The two spans reaching furthest among those seen, from two different programs: enough to tell
 * whether any seen span by a program other than p reaches past an address. */
typedef struct reach2 {
  uint64_t end1, end2; /* end1 >= end2; end2 is from a program other than who1's */
  uint32_t who1;
} reach2;

static void reach_add(reach2 *r, uint64_t end, uint32_t who)
{
  if (who == r->who1) {
    if (end > r->end1) r->end1 = end;
  } else if (end > r->end1) {
    r->end2 = r->end1;
    r->end1 = end;
    r->who1 = who;
  } else if (end > r->end2) r->end2 = end;
}

/* some span seen from a program other than who reaches past lo */
static bool reach_other(const reach2 *r, uint64_t lo, uint32_t who)
{
  return (r->who1 != who && r->end1 > lo) || r->end2 > lo;
}

/* A span against the element owners of its allocation (single-element accesses of other programs). */
static bool span_meets_owners(const interp_mem *m, const race_span *s)
{
  const interp_alloc *a = &m->allocs[(s->lo >> INTERP_ADDR_SHIFT) - 1];
  if (!a->owner) return false;
  const uint64_t mask = (UINT64_C(1) << INTERP_ADDR_SHIFT) - 1, esz = (uint64_t)ir_scalar_bytes(a->elem);
  const uint32_t me = s->who & ACC_MULTI;
  const bool wr = (s->who & ACC_WRITTEN) != 0;
  for (uint64_t e = (s->lo & mask) / esz; e <= ((s->hi - 1) & mask) / esz && e < (uint64_t)a->owner_n; e++) {
    const uint32_t w = a->owner[e], who = w & ACC_MULTI;
    if (who && who != me && (wr || (w & ACC_WRITTEN))) return true;
  }
  return false;
}

bool interp_race_check(const interp_mem *m, race_log *logs, int nthreads)
{
  int64_t n = 0;
  for (int t = 0; t < nthreads; t++) n += logs[t].n;
  if (!n) return false;
  /* the largest log takes the others' spans (no second copy of the biggest one) */
  int big = 0;
  for (int t = 1; t < nthreads; t++)
    if (logs[t].n > logs[big].n) big = t;
  race_log *g = &logs[big];
  if (g->cap < n) {
    race_span *v = ir_realloc(g->v, sizeof *v * (size_t)g->cap, sizeof *v * (size_t)n);
    if (!v) return true; /* cannot check: treat as a conflict (the launch re-runs in order) */
    g->v = v;
    g->cap = n;
  }
  for (int t = 0; t < nthreads; t++)
    if (t != big) {
      if (logs[t].n) memcpy(g->v + g->n, logs[t].v, sizeof(race_span) * (size_t)logs[t].n);
      g->n += logs[t].n;
    }
  qsort(g->v, (size_t)g->n, sizeof(race_span), span_cmp);
  /* sweep in address order: a span conflicts with an earlier-starting one that reaches past its
   * start, from another program, when either writes */
  reach2 all = {0, 0, 0}, wrs = {0, 0, 0};
  for (int64_t i = 0; i < g->n; i++) {
    const race_span *s = &g->v[i];
    const uint32_t who = s->who & ACC_MULTI;
    if (reach_other(&wrs, s->lo, who) || ((s->who & ACC_WRITTEN) && reach_other(&all, s->lo, who))) return true;
    reach_add(&all, s->hi, who);
    if (s->who & ACC_WRITTEN) reach_add(&wrs, s->hi, who);
    if (span_meets_owners(m, s)) return true;
  }
  return false;
}

/* Parallel run: copy the buffer holding addr before its first store, once. */
void __attribute__((noinline)) interp_snapshot_slow(ctx *c, int64_t addr)
{
  interp_alloc *a = &c->L->mem->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  int expect = 0;
  if (__atomic_compare_exchange_n(&a->snap_state, &expect, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    bool ok = true;
    if (a->pristine) { /* the same bytes, already there: no copy, and no thread waits for one */
      a->snap = (uint8_t *)(uintptr_t)a->pristine;
      a->snap_borrowed = true;
    } else if (a->nbytes && (a->snap = ir_alloc(a->nbytes))) memcpy(a->snap, a->data, a->nbytes);
    else if (a->nbytes) ok = false;
    if (a->pv && (a->snap_pv = ir_alloc(sizeof(double) * (size_t)a->pn)))
      memcpy(a->snap_pv, a->pv, sizeof(double) * (size_t)a->pn);
    else if (a->pv) ok = false;
    if (a->pb && (a->snap_pb = ir_alloc(sizeof(double) * (size_t)a->pn)))
      memcpy(a->snap_pb, a->pb, sizeof(double) * (size_t)a->pn);
    else if (a->pb) ok = false;
    if (!ok) __atomic_store_n(c->snap_failed, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&a->snap_state, 2, __ATOMIC_RELEASE);
    return;
  }
  while (__atomic_load_n(&a->snap_state, __ATOMIC_ACQUIRE) != 2) {}
}

ttref_status interp_fault_oob(ctx *c, const ir_op *op, const ir_type *lane_t, int64_t lane, int64_t addr, int size)
{
  const interp_mem *m = c->L->mem;
  uint64_t k = ((uint64_t)addr >> INTERP_ADDR_SHIFT);
  int64_t off = (int64_t)((uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1));
  char what[320];
  if (k >= 1 && k <= (uint64_t)m->n) {
    const interp_alloc *a = &m->allocs[k - 1];
    snprintf(what, sizeof what, "out-of-bounds access of %d byte%s at %s+%" PRId64 " (allocation '%s' has %zu bytes)",
             size, size == 1 ? "" : "s", a->name, off, a->name, a->nbytes);
  } else if (k == (uint64_t)m->n + 1 || (addr < 0 && k >= (UINT64_C(1) << 23))) {
    snprintf(what, sizeof what, "out-of-bounds access at address 0x%" PRIx64 " (outside every allocation)",
             (uint64_t)addr);
  } else {
    snprintf(what, sizeof what, "invalid address 0x%" PRIx64 " (not inside any allocation)", (uint64_t)addr);
  }
  return interp_fault_at(c, op, lane_t, lane, what);
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

/* One lane of addptr_pass: the wrapping sum into *r; nonzero when the offset is outside
 * [-2^59, 2^59) (its shifted value may have wrapped) or the sum overflowed int64. */
static inline uint64_t addptr_lane(interp_elem *r, uint64_t a, uint64_t v, int sh)
{
  const uint64_t b = v << sh, s = a + b;
  r->i = (int64_t)s;
  return ((v + (UINT64_C(1) << 59)) >> 60) | (((a ^ s) & (b ^ s)) >> 63);
}

/* Vectorised, and on x86-64 GCC cloned for AVX2 hardware (as interp_reduce.c's dot rows). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define MEM_KERNEL                                                                                                     \
  __attribute__((target_clones("avx2", "default"), optimize("tree-vectorize", "vect-cost-model=dynamic")))
#elif defined(__GNUC__) && !defined(__clang__)
#define MEM_KERNEL __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define MEM_KERNEL
#endif

/* r[i] = p[i*sp] + (o[i*so] << sh) for n lanes, wrapping (r distinct from p and o); nonzero when
 * some lane is flagged by addptr_lane. One unit-stride loop per stride pair. */
MEM_KERNEL static uint64_t addptr_pass(interp_elem *restrict r, const interp_elem *restrict p, bool sp,
                                       const interp_elem *restrict o, bool so, int64_t n, int sh)
{
  uint64_t bad = 0;
  if (sp && so)
    for (int64_t i = 0; i < n; i++) bad |= addptr_lane(&r[i], (uint64_t)p[i].i, (uint64_t)o[i].i, sh);
  else if (sp)
    for (int64_t i = 0; i < n; i++) bad |= addptr_lane(&r[i], (uint64_t)p[i].i, (uint64_t)o[0].i, sh);
  else if (so)
    for (int64_t i = 0; i < n; i++) bad |= addptr_lane(&r[i], (uint64_t)p[0].i, (uint64_t)o[i].i, sh);
  else
    for (int64_t i = 0; i < n; i++) bad |= addptr_lane(&r[i], (uint64_t)p[0].i, (uint64_t)o[0].i, sh);
  return bad;
}

ttref_status interp_op_addptr(ctx *c, const ir_op *op)
{
  const slot *p = SL(op->opnds[0]), *o = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int64_t esz = ir_scalar_bytes(pointee_scalar(op->opnds[0]));
  const int obits = elem_bits(op->opnds[1]);
  const int64_t n = LANES2(p, o), sp = p->n > 1, so = o->n > 1;
  r->n = n;
  const int sh = esz == 1 ? 0 : esz == 2 ? 1 : esz == 4 ? 2 : esz == 8 ? 3 : -1;
  if (obits > 1 && sh >= 0 && r->d != p->d && r->d != o->d) {
    /* A branch-free pass first (vectorised); the checked loop below runs again, from lane 0,
     * only if it flags a lane, and then faults at the same lane. */
    if (!addptr_pass(r->d, p->d, sp, o->d, so, n, sh)) return TTREF_OK;
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t bytes;
    /* checked: a wrapped address could alias another row and escape the bounds check */
    if (__builtin_mul_overflow(sval(obits, o->d[i * so].i), esz, &bytes) ||
        __builtin_add_overflow(p->d[i * sp].i, bytes, &r->d[i].i))
      return interp_fault_at(c, op, op->res[0].type, i, "the address overflowed 64 bits");
  }
  return TTREF_OK;
}

/* Block pointer layout in a slot: [0] base, [1] rank, [2..] shape, strides, offsets. */
#define BP_SHAPE(d, k)     ((d)[2 + (k)].i)
#define BP_STRIDE(d, r, k) ((d)[2 + (r) + (k)].i)
#define BP_OFF(d, r, k)    ((d)[2 + 2 * (r) + (k)].i)

ttref_status interp_op_make_tensor_ptr(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int rank = (op->nopnds - 1) / 3;
  if (rank < 1 || rank > IR_MAX_RANK || op->nopnds != 1 + 3 * rank)
    return interp_fault(c, op, TTREF_E_INPUT, "'tt.make_tensor_ptr' needs base + 3 x rank operands");
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

ttref_status interp_op_advance(ctx *c, const ir_op *op)
{
  const slot *p = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  copy_slot(r, p);
  int rank = (int)p->d[1].i;
  if (op->nopnds - 1 != rank) return interp_fault(c, op, TTREF_E_INPUT, "'tt.advance' needs %d offsets", rank);
  for (int k = 0; k < rank; k++)
    if (__builtin_add_overflow(BP_OFF(r->d, rank, k), sval(32, SL(op->opnds[1 + k])->d[0].i), &BP_OFF(r->d, rank, k)))
      return interp_fault(c, op, TTREF_E_FAULT, "'tt.advance' offset overflowed 64 bits");
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
static int bp_addr(const interp_elem *bp, const ir_type *blk, int64_t lane, uint32_t check_mask, int esz, int64_t *addr)
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

/*
 * Typed contiguous runs for tt.load / tt.store (the default path: not precise,
 * not --check-races). A run is lanes i..j-1 whose addresses step by the element
 * size inside one allocation and whose mask is set: bounds are checked at its
 * first lane and by the room left in the allocation, the mask once per lane
 * while the run is found, and the elements are widened or narrowed by one loop
 * per element type (the scalar list expands one loop per type, so mem_read and
 * mem_write fold to a single case). Parallel runs snapshot and track a run at
 * once: the same effects as per element, in the same order.
 */
static void widen(ir_scalar es, const uint8_t *q, interp_elem *dst, int64_t len)
{
  const int64_t esz = ir_scalar_bytes(es);
  switch (es) {
#define X(name, spell, bits, kind)                                                                                     \
  case IR_S_##name:                                                                                                    \
    for (int64_t k = 0; k < len; k++) dst[k] = mem_read(IR_S_##name, q + k * esz);                                     \
    break;
#include "ir_scalar_list.h"
#undef X
  default: break;
  }
}

static void narrow(ir_scalar es, uint8_t *q, const interp_elem *src, int64_t sv, int64_t len)
{
  const int64_t esz = ir_scalar_bytes(es);
  switch (es) {
#define X(name, spell, bits, kind)                                                                                     \
  case IR_S_##name:                                                                                                    \
    for (int64_t k = 0; k < len; k++) mem_write(IR_S_##name, q + k * esz, src[k * sv]);                                \
    break;
#include "ir_scalar_list.h"
#undef X
  default: break;
  }
}

/* Whole blocks of RUN_BLOCK lanes from lane j (below lim) whose addresses continue the run (lane j
 * at want, stepping by esz) and whose mask (m, unit stride; NULL: set) is set, each block tested
 * without branches; returns the first lane of the first block that is not (the caller's lane loop
 * finds the exact end from there). */
#define RUN_BLOCK 8
MEM_KERNEL static int64_t run_blocks(const interp_elem *restrict P, const interp_elem *restrict m, int64_t j,
                                     int64_t lim, int64_t want, int64_t esz)
{
  /* two loops, not `m ? m[j + t] : 0`: the vectoriser turns that into a masked load from m, which
   * with m == NULL takes a microcode assist on every block (dot_i8 ran 2.8x slower) */
  if (m) {
    for (; j + RUN_BLOCK <= lim; j += RUN_BLOCK, want += RUN_BLOCK * esz) {
      uint64_t off = 0;
      for (int t = 0; t < RUN_BLOCK; t++)
        off |= (uint64_t)(P[j + t].i ^ (want + t * esz)) | (uint64_t)(m[j + t].i == 0);
      if (off) break;
    }
  } else {
    for (; j + RUN_BLOCK <= lim; j += RUN_BLOCK, want += RUN_BLOCK * esz) {
      uint64_t off = 0;
      for (int t = 0; t < RUN_BLOCK; t++) off |= (uint64_t)(P[j + t].i ^ (want + t * esz));
      if (off) break;
    }
  }
  return j;
}

/* From lane j, the first lane below lim that does not continue the run of lane i (address addr). */
static inline int64_t run_lanes(const interp_elem *P, const slot *mk, int64_t sm, int64_t i, int64_t j, int64_t lim,
                                int64_t addr, int esz)
{
  if (mk)
    while (j < lim && P[j].i == addr + (j - i) * esz && mk->d[j * sm].i) j++;
  else
    while (j < lim && P[j].i == addr + (j - i) * esz) j++;
  return j;
}

/* The end of the run starting at lane i (address addr, bounds-checked): lanes step by esz, stay in the
 * allocation, and have their mask set (mk, stride sm). */
#define RUN_MAX (INT64_C(1) << 24)
static int64_t run_end(const interp_mem *m, const interp_elem *P, const slot *mk, int64_t sm, int64_t i, int64_t n,
                       int64_t addr, int esz)
{
  const interp_alloc *a = &m->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1];
  const uint64_t off = (uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1);
  const int64_t room = (int64_t)((a->nbytes - off) / (uint64_t)esz); /* >= 1: lane i is in bounds */
  int64_t lim = n - i < room ? n : i + room;
  if (lim - i > RUN_MAX) lim = i + RUN_MAX; /* a run's byte size fits an int */
  /* lane by lane for the first RUN_BLOCK lanes (short runs: gathers, transposed tiles), then by
   * blocks while the run goes on, then lane by lane to its exact end */
  int64_t j = run_lanes(P, mk, sm, i, i + 1, lim - i > RUN_BLOCK ? i + 1 + RUN_BLOCK : lim, addr, esz);
  if (j == i + 1 + RUN_BLOCK && j < lim) {
    j = run_blocks(P, mk && sm ? mk->d : NULL, j, lim, addr + (j - i) * esz, esz); /* a splat mask is set */
    j = run_lanes(P, mk, sm, i, j, lim, addr, esz);
  }
  return j;
}

static ttref_status load_runs(ctx *c, const ir_op *op, const slot *p, const slot *mk, const slot *ot, slot *r,
                              ir_scalar es, int esz, int64_t n)
{
  const interp_mem *m = c->L->mem;
  const int64_t sm = mk && mk->n > 1, so = ot && ot->n > 1;
  for (int64_t i = 0; i < n;) {
    if (mk && !mk->d[i * sm].i) {
      if (ot) r->d[i] = ot->d[i * so];
      else {
        r->d[i].i = 0; /* masked-off lane without `other`: 0 (documented choice) */
        c->stats.ub_masked_other++;
      }
      i++;
      continue;
    }
    const int64_t addr = p->d[i].i;
    const uint8_t *q = mem_at(m, addr, esz);
    if (!q) return interp_fault_oob(c, op, op->opnds[0]->type, i, addr, esz);
    const int64_t j = run_end(m, p->d, mk, sm, i, n, addr, esz);
    if (c->track && m->allocs[((uint64_t)addr >> INTERP_ADDR_SHIFT) - 1].track_reads)
      interp_track_access(c, addr, (int)((j - i) * esz), false);
    widen(es, q, r->d + i, j - i);
    i = j;
  }
  return TTREF_OK;
}

static ttref_status store_runs(ctx *c, const ir_op *op, const slot *p, const slot *mk, const slot *v, ir_scalar es,
                               int esz, int64_t n)
{
  const interp_mem *m = c->L->mem;
  const int64_t sm = mk && mk->n > 1, sv = v->n > 1;
  for (int64_t i = 0; i < n;) {
    if (mk && !mk->d[i * sm].i) {
      i++;
      continue;
    }
    const int64_t addr = p->d[i].i;
    uint8_t *q = mem_at(m, addr, esz);
    if (!q) return interp_fault_oob(c, op, op->opnds[0]->type, i, addr, esz);
    const int64_t j = run_end(m, p->d, mk, sm, i, n, addr, esz);
    if (c->parallel) snapshot(c, addr);
    if (c->track) interp_track_access(c, addr, (int)((j - i) * esz), true);
    narrow(es, q, v->d + i * sv, sv, j - i);
    i = j;
  }
  return TTREF_OK;
}

ttref_status interp_op_load(ctx *c, const ir_op *op)
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
      if (where == BP_OVERFLOW) return interp_fault_at(c, op, op->res[0].type, i, "the address overflowed 64 bits");
      if (where == BP_OUT) {
        if (pad == IR_PAD_NAN && ir_scalar_is_float(es)) r->d[i].f = NAN;
        else r->d[i].i = 0;
        continue;
      }
      const uint8_t *q = mem_at(m, addr, esz);
      if (!q) return interp_fault_oob(c, op, op->res[0].type, i, addr, esz);
      r->d[i] = mem_ld(c, es, q, addr);
    }
    return TTREF_OK;
  }
  const slot *mk = op->nopnds > 1 ? SL(op->opnds[1]) : NULL;
  const slot *ot = op->nopnds > 2 ? SL(op->opnds[2]) : NULL;
  const int64_t sp = p->n > 1, sm = mk && mk->n > 1, so = ot && ot->n > 1;
  const bool fast = !c->precise && !c->L->check_races && sp && p->n == n;
  if (fast) {
    const ttref_status st = load_runs(c, op, p, mk, ot, r, es, esz, n);
    if (st != TTREF_OK) return st;
  }
  for (int64_t i = 0; i < n && !fast; i++) {
    if (mk && !mk->d[i * sm].i) {
      if (ot) r->d[i] = ot->d[i * so];
      else {
        r->d[i].i = 0; /* masked-off lane without `other`: 0 (documented choice) */
        c->stats.ub_masked_other++;
      }
      continue;
    }
    int64_t addr = p->d[i * sp].i;
    const uint8_t *q = mem_at(m, addr, esz);
    if (!q) return interp_fault_oob(c, op, pv->type, i, addr, esz);
    r->d[i] = mem_ld(c, es, q, addr);
  }
  if (c->L->ftz && ir_scalar_is_float(es) && load_flushes(op)) { /* FTZ hardware also reads subnormals as zero */
    const double tiny = fp_min_normal((fp_format)fmt_of(es));
    for (int64_t i = 0; i < n; i++)
      if (r->d[i].f != 0 && fabs(r->d[i].f) < tiny) r->d[i].f = copysign(0.0, r->d[i].f);
  }
  return TTREF_OK;
}

ttref_status interp_op_store(ctx *c, const ir_op *op)
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
      if (where == BP_OVERFLOW) return interp_fault_at(c, op, pt->elem, i, "the address overflowed 64 bits");
      if (where == BP_OUT) continue;
      uint8_t *q = mem_at(m, addr, esz);
      if (!q) return interp_fault_oob(c, op, pt->elem, i, addr, esz);
      mem_st(c, es, q, addr, v->d[i * sv]);
    }
    return TTREF_OK;
  }
  const slot *mk = op->nopnds > 2 ? SL(op->opnds[2]) : NULL;
  const int64_t np = p->n > n ? p->n : n, sp = p->n > 1, sm = mk && mk->n > 1;
  if (!c->precise && !c->L->check_races && sp && p->n == np && (v->n == np || v->n == 1))
    return store_runs(c, op, p, mk, v, es, esz, np);
  for (int64_t i = 0; i < np; i++) {
    if (mk && !mk->d[i * sm].i) continue;
    int64_t addr = p->d[i * sp].i;
    uint8_t *q = mem_at(m, addr, esz);
    if (!q) return interp_fault_oob(c, op, pv->type, i, addr, esz);
    mem_st(c, es, q, addr, v->d[i * sv]);
  }
  return TTREF_OK;
}

static inline interp_elem rmw_apply_bits(int kind, int bits, interp_elem old, interp_elem v, int f)
{
  interp_elem r = old;
  switch (kind) {
  case IR_RMW_AND: r.i = old.i & v.i; break;
  case IR_RMW_OR: r.i = old.i | v.i; break;
  case IR_RMW_XOR: r.i = wrap_int(bits, old.i ^ v.i); break;
  case IR_RMW_ADD: r.i = wrap_int(bits, (int64_t)((uint64_t)old.i + (uint64_t)v.i)); break;
  case IR_RMW_FADD:
    r.f = f == FP_F64   ? old.f + v.f
          : f == FP_F32 ? (double)(float)(old.f + v.f)
                        : fp_round_to((fp_format)f, old.f + v.f, FP_RNE, FP_OVF_INF);
    break;
  case IR_RMW_MAX: r.i = sval(bits, old.i) >= sval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_MIN: r.i = sval(bits, old.i) <= sval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_UMAX: r.i = uval(bits, old.i) >= uval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_UMIN: r.i = uval(bits, old.i) <= uval(bits, v.i) ? old.i : v.i; break;
  case IR_RMW_XCHG: r = v; break;
  default: break;
  }
  return r;
}

static interp_elem rmw_apply(int kind, ir_scalar es, interp_elem old, interp_elem v, int f)
{
  return rmw_apply_bits(kind, ir_scalar_bits(es), old, v, f);
}

ttref_status interp_op_atomic_rmw(ctx *c, const ir_op *op)
{
  const ir_value *pv = op->opnds[0];
  const slot *p = SL(pv), *v = SL(op->opnds[1]);
  const slot *mk = op->nopnds > 2 ? SL(op->opnds[2]) : NULL;
  slot *r = SL(&op->res[0]);
  const ir_scalar es = pointee_scalar(pv);
  const int esz = ir_scalar_bytes(es), f = fmt_of(es);
  const int kind = (int)ir_op_attr_int(op, "atomic_rmw_op", 0);
  if (kind < IR_RMW_AND || kind > IR_RMW_XCHG)
    return interp_fault(c, op, TTREF_E_INPUT, "unknown atomic_rmw kind %d", kind);
  const int64_t n = LANES2(p, v), sp = p->n > 1, sv = v->n > 1, sm = mk && mk->n > 1;
  r->n = n;
  if (!c->precise && !c->track && !c->parallel && !c->bound_pass) {
    /* nothing observes the accesses (no race tracking, snapshots or precise shadows; atomics
     * run programs in order): the same reads, updates and writes as below, without mem_ld/mem_st's checks */
    const int bits = ir_scalar_bits(es);
    for (int64_t i = 0; i < n; i++) {
      if (mk && !mk->d[i * sm].i) {
        r->d[i].i = 0;
        continue;
      }
      const int64_t addr = p->d[i * sp].i;
      uint8_t *q = mem_at(c->L->mem, addr, esz);
      if (!q) return interp_fault_oob(c, op, pv->type, i, addr, esz);
      const interp_elem old = mem_read(es, q);
      mem_write(es, q, rmw_apply_bits(kind, bits, old, v->d[i * sv], f));
      r->d[i] = old;
    }
    return TTREF_OK;
  }
  for (int64_t i = 0; i < n; i++) { /* element order within the program */
    if (mk && !mk->d[i * sm].i) {
      r->d[i].i = 0; /* masked-off return value is undefined: 0 */
      continue;
    }
    int64_t addr = p->d[i * sp].i;
    uint8_t *q = mem_at(c->L->mem, addr, esz);
    if (!q) return interp_fault_oob(c, op, pv->type, i, addr, esz);
    interp_elem old = mem_ld(c, es, q, addr);
    interp_elem nv = rmw_apply(kind, es, old, v->d[i * sv], c->precise ? FP_F64 : f);
    mem_st(c, es, q, addr, nv);
    r->d[i] = old;
  }
  return TTREF_OK;
}

ttref_status interp_op_atomic_cas(ctx *c, const ir_op *op)
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
    if (!q) return interp_fault_oob(c, op, pv->type, i, addr, esz);
    interp_elem old = mem_ld(c, es, q, addr);
    bool eq;
    if (ir_scalar_is_float(es)) /* bitwise comparison */
      eq = fp_encode((fp_format)f, old.f, FP_RNE, FP_OVF_INF) ==
           fp_encode((fp_format)f, cmp->d[i * sc].f, FP_RNE, FP_OVF_INF);
    else eq = uval(ir_scalar_bits(es), old.i) == uval(ir_scalar_bits(es), cmp->d[i * sc].i);
    if (eq) mem_st(c, es, q, addr, v->d[i * sv]);
    r->d[i] = old;
  }
  return TTREF_OK;
}

/* ---- tensor descriptors: [0] base, [1] rank, shape[r], strides[r], padding ---- */
ttref_status interp_op_make_desc(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int rank = (op->nopnds - 1) / 2;
  if (rank < 1 || rank > IR_MAX_RANK || op->nopnds != 1 + 2 * rank)
    return interp_fault(c, op, TTREF_E_INPUT, "'tt.make_tensor_descriptor' needs base + 2 x rank operands");
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

ttref_status interp_op_desc_access(ctx *c, const ir_op *op)
{
  const bool is_load = op->code == IR_OP_DESC_LOAD || op->code == IR_OP_XDESC_LOAD;
  const ir_value *dv = op->opnds[0];
  const ir_type *dt = dv->type;
  if (dt->kind != IR_T_DESC || !dt->elem)
    return interp_fault(c, op, TTREF_E_UNSUPPORTED,
                        "'%s' on a raw pointer descriptor (TMA metadata) cannot be interpreted", ir_op_name(op->code));
  const interp_elem *d = SL(dv)->d;
  const int rank = (int)d[1].i;
  const ir_type *blk = dt->elem;
  const ir_scalar es = blk->scalar;
  const int esz = ir_scalar_bytes(es);
  const int pad = (int)d[2 + 2 * rank].i;
  /* operand order as in TritonOps.td: (desc, indices...) for loads, (desc, src, indices...) otherwise */
  const int first_idx = is_load ? 1 : 2;
  if (op->nopnds != first_idx + rank)
    return interp_fault(c, op, TTREF_E_INPUT, "'%s' needs %d indices", ir_op_name(op->code), rank);
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
    if (in && ovf) return interp_fault_at(c, op, lt, i, "the address overflowed 64 bits");
    if (is_load) {
      if (!in) {
        if (pad == IR_PAD_NAN && ir_scalar_is_float(es)) r->d[i].f = NAN;
        else r->d[i].i = 0;
        continue;
      }
      const uint8_t *q = mem_at(c->L->mem, addr, esz);
      if (!q) return interp_fault_oob(c, op, lt, i, addr, esz);
      r->d[i] = mem_ld(c, es, q, addr);
    } else {
      if (!in) continue;
      uint8_t *q = mem_at(c->L->mem, addr, esz);
      if (!q) return interp_fault_oob(c, op, lt, i, addr, esz);
      interp_elem v = val->d[val->n > 1 ? i : 0];
      if (op->code == IR_OP_DESC_REDUCE) {
        interp_elem old = mem_ld(c, es, q, addr);
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
        default: return interp_fault(c, op, TTREF_E_INPUT, "unknown descriptor_reduce kind %d", kind);
        }
      }
      mem_st(c, es, q, addr, v);
    }
  }
  if (r) r->n = n;
  return TTREF_OK;
}

/* tt.descriptor_gather / _scatter: rows xs[r] of a 2-D descriptor, columns y..y+C-1;
 * out-of-bounds elements read the padding and are not written. */
ttref_status interp_op_desc_rows(ctx *c, const ir_op *op)
{
  const bool scatter = op->code == IR_OP_DESC_SCATTER || op->code == IR_OP_XDESC_SCATTER;
  const ir_value *dv = op->opnds[0];
  if (dv->type->kind != IR_T_DESC || !dv->type->elem)
    return interp_fault(c, op, TTREF_E_UNSUPPORTED, "'%s' on a raw pointer descriptor cannot be interpreted",
                        ir_op_name(op->code));
  const interp_elem *d = SL(dv)->d;
  if (d[1].i != 2) return interp_fault(c, op, TTREF_E_INPUT, "'%s' needs a 2-D descriptor", ir_op_name(op->code));
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
        return interp_fault_at(c, op, lt, lane, "the address overflowed 64 bits");
      if (!scatter) {
        if (!in) {
          if (pad == IR_PAD_NAN && ir_scalar_is_float(es)) r->d[lane].f = NAN;
          else r->d[lane].i = 0;
          continue;
        }
        const uint8_t *q = mem_at(c->L->mem, addr, esz);
        if (!q) return interp_fault_oob(c, op, lt, lane, addr, esz);
        r->d[lane] = mem_ld(c, es, q, addr);
      } else if (in) {
        uint8_t *q = mem_at(c->L->mem, addr, esz);
        if (!q) return interp_fault_oob(c, op, lt, lane, addr, esz);
        mem_st(c, es, q, addr, src->d[lane]);
      }
    }
  }
  if (r) r->n = R * C;
  return TTREF_OK;
}
