/*
 * conform_localize.c: probe instrumentation of a TTIR kernel (printed through
 * ir_print's hooks) and the search for the first divergent op.
 */
#include "config.h"
#include "conform_localize.h"
#include "conform_judge.h"
#include "conform_stage.h"
#include "conform_sys.h"
#include "ir_base_fs.h"
#include "ir_parse.h"
#include "ir_print.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- default modes ---------------------------------------------------------------- */

typedef struct opmode {
  cmp_mode mode;
  double ulp64, ulp32, ulp16;
} opmode;

/* the mode column of ir_op_list.h */
#define OPMODE_EXACT                                                                                                   \
  {                                                                                                                    \
    CMP_EXACT, 0, 0, 0                                                                                                 \
  }
#define OPMODE_ULP(u64, u32, u16)                                                                                      \
  {                                                                                                                    \
    CMP_ULP, u64, u32, u16                                                                                             \
  }
#define OPMODE_DOT_PRODUCT                                                                                             \
  {                                                                                                                    \
    CMP_DOT_PRODUCT, 0, 0, 0                                                                                           \
  }
#define OPMODE_REDUCE                                                                                                  \
  {                                                                                                                    \
    CMP_REDUCE, 0, 0, 0                                                                                                \
  }
static const opmode opmodes[IR_OP_COUNT] = {
#define X(name, mnem, nopnd, nres, flags, syn, rule, kind, kernel, bound, mode) OPMODE_##mode,
#include "ir_op_list.h"
#undef X
};

cmp_mode conform_opmode_default(ir_opcode op, int bits, double *ulp)
{
  *ulp = 0;
  if ((int)op < 0 || op >= IR_OP_COUNT) return CMP_EXACT;
  const opmode *m = &opmodes[op];
  if (m->mode != CMP_ULP) return m->mode;
  *ulp = bits == 64 ? m->ulp64 : bits == 32 ? m->ulp32 : bits == 16 ? m->ulp16 : 0;
  return *ulp > 0 ? CMP_ULP : CMP_EXACT;
}

/* ---- a growable string ---------------------------------------------------------------- */

typedef struct sb {
  char *s;
  size_t n, cap;
  bool oom;
} sb;

static void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *b, const char *fmt, ...)
{
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      b->oom = true;
      return;
    }
    if (b->s && b->n + (size_t)k < b->cap) {
      b->n += (size_t)k;
      return;
    }
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap <= b->n + (size_t)k) ncap *= 2;
    char *ns = ir_realloc(b->s, b->cap, ncap);
    if (!ns) {
      b->oom = true;
      return;
    }
    b->s = ns;
    b->cap = ncap;
  }
}

static void sb_free(sb *b)
{
  ir_free(b->s, b->cap);
  *b = (sb){0};
}

/* ---- instrumentation ------------------------------------------------------------------ */

bool conform_localize_probeable(const ir_value *v)
{
  const ir_type *t = v ? v->type : NULL;
  if (!t) return false;
  if (t->kind == IR_T_TENSOR) {
    if (t->rank < 1 || !t->elem || t->elem->kind != IR_T_SCALAR) return false;
    t = t->elem;
  }
  return t->kind == IR_T_SCALAR && (ir_scalar_is_int(t->scalar) || ir_scalar_is_float(t->scalar));
}

/* The mask of a value's defined lanes: a kernel value (a load's mask), a generated
 * %ttref_mN (gen >= 0), or none (v NULL, gen -1: every lane is defined). */
typedef struct mref {
  const ir_value *v;
  int gen;
} mref;

static const mref MREF_NONE = {NULL, -1};

typedef struct pctx {
  const ir_func *f;
  int *probe_of; /* value id -> probe index, or -1 */
  mref *mask;    /* value id -> mask of its defined lanes */
  int nmask;
  const ir_value *const *probe;
  int nprobe;
  sb out;
} pctx;

/* "128x64x" for a tensor type ("" for scalars) */
static void shape_prefix(const ir_type *t, char *buf, size_t n)
{
  size_t k = 0;
  buf[0] = 0;
  if (t->kind != IR_T_TENSOR) return;
  for (int i = 0; i < t->rank && k < n; i++) k += (size_t)snprintf(buf + k, n - k, "%" PRId64 "x", t->shape[i]);
}

/* the type of @p t with element @p elem spelled out ("tensor<4x8xi1>" / "i1") */
static void type_with(const ir_type *t, const char *elem, char *buf, size_t n)
{
  char sp[160];
  shape_prefix(t, sp, sizeof sp);
  if (t->kind == IR_T_TENSOR) snprintf(buf, n, "tensor<%s%s>", sp, elem);
  else snprintf(buf, n, "%s", elem);
}

static bool same_shape(const ir_type *a, const ir_type *b)
{
  if ((a->kind == IR_T_TENSOR) != (b->kind == IR_T_TENSOR)) return false;
  if (a->kind != IR_T_TENSOR) return true;
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

static mref mask_of(const pctx *p, const ir_value *v)
{
  return v && v->id < p->f->nvalues ? p->mask[v->id] : MREF_NONE;
}

static bool mref_set(mref m) { return m.v || m.gen >= 0; }

static bool mref_same(mref a, mref b) { return a.v == b.v && a.gen == b.gen; }

static void mref_name(mref m, char *buf, size_t n)
{
  if (m.v) snprintf(buf, n, "%%%s", m.v->name);
  else snprintf(buf, n, "%%ttref_m%d", m.gen);
}

/* whether op lies inside a combiner region (tt.reduce, tt.scan, tt.map_elementwise) or another function */
/* ops whose regions are combiners run per element pair and cannot store */
static bool is_combiner(ir_opcode c) { return c == IR_OP_REDUCE || c == IR_OP_SCAN || c == IR_OP_MAP_ELEMENTWISE; }

static bool in_combiner_or_other(const pctx *p, const ir_op *op)
{
  const ir_block *b = op->parent;
  while (b) {
    const ir_region *rg = b->parent;
    if (!rg || rg->func != p->f) return true;
    const ir_op *o = rg->parent;
    if (!o) return false; /* the function body */
    if (is_combiner(o->code)) return true;
    b = o->parent;
  }
  return true;
}

/* Lanes of a result that are undefined (a masked load without `other`, and
 * lane-wise consumers of such lanes) get a mask so that probes skip them. */
static void emit_masks(pctx *p, const ir_op *op)
{
  if (op->nres != 1) return;
  const ir_value *res = &op->res[0];
  if (res->id >= p->f->nvalues) return;
  char t_in[200], t_out[200], m[80], m2[80];
  if (op->code == IR_OP_LOAD) {
    if (op->nopnds == 2 && same_shape(op->opnds[1]->type, res->type)) p->mask[res->id] = (mref){op->opnds[1], -1};
    return;
  }
  if (op->code == IR_OP_EXPAND_DIMS || op->code == IR_OP_BROADCAST) {
    const ir_value *x = op->opnds[0];
    const mref mx = mask_of(p, x);
    if (!mref_set(mx) || res->type->kind != IR_T_TENSOR || x->type->kind != IR_T_TENSOR) return;
    mref_name(mx, m, sizeof m);
    type_with(x->type, "i1", t_in, sizeof t_in);
    type_with(res->type, "i1", t_out, sizeof t_out);
    int g = p->nmask++;
    if (op->code == IR_OP_EXPAND_DIMS)
      sb_printf(&p->out, "    %%ttref_m%d = tt.expand_dims %s {axis = %d : i32} : %s -> %s\n", g, m,
                (int)ir_op_attr_int(op, "axis", 0), t_in, t_out);
    else sb_printf(&p->out, "    %%ttref_m%d = tt.broadcast %s : %s -> %s\n", g, m, t_in, t_out);
    p->mask[res->id] = (mref){NULL, g};
    return;
  }
  if (!(ir_op_flags(op->code) & IR_F_ELEMENTWISE)) return;
  /* the AND of the masks of the same-shape operands that have one */
  mref cur = MREF_NONE;
  for (int i = 0; i < op->nopnds; i++) {
    const mref mx = mask_of(p, op->opnds[i]);
    if (!mref_set(mx) || !same_shape(op->opnds[i]->type, res->type) || mref_same(mx, cur)) continue;
    if (!mref_set(cur)) {
      cur = mx;
      continue;
    }
    mref_name(cur, m, sizeof m);
    mref_name(mx, m2, sizeof m2);
    type_with(res->type, "i1", t_out, sizeof t_out);
    cur = (mref){NULL, p->nmask++};
    sb_printf(&p->out, "    %%ttref_m%d = arith.andi %s, %s : %s\n", cur.gen, m, m2, t_out);
  }
  p->mask[res->id] = cur;
}

static void emit_probe(pctx *p, const ir_value *v, int k)
{
  const ir_type *t = v->type;
  const ir_type *et = ir_type_elem(t);
  const bool i1 = et->scalar == IR_S_I1;
  const char *elem = i1 ? "i8" : ir_scalar_name(et->scalar);
  char val[160], ty[200], pty[200], ity[200], m[80];
  snprintf(val, sizeof val, "%%%s", v->name);
  type_with(t, elem, ty, sizeof ty);
  if (i1) {
    char t1[200];
    type_with(t, "i1", t1, sizeof t1);
    sb_printf(&p->out, "    %%ttref_v%d = arith.extui %s : %s to %s\n", k, val, t1, ty);
    snprintf(val, sizeof val, "%%ttref_v%d", k);
  }
  const int64_t numel = t->kind == IR_T_TENSOR ? t->numel : 1;
  snprintf(pty, sizeof pty, "!tt.ptr<%s>", elem);
  m[0] = 0;
  char mn[80] = "";
  if (mref_set(mask_of(p, v))) mref_name(mask_of(p, v), mn, sizeof mn);
  /* inside scf.for bodies, store the first iteration only (iv == lb for every enclosing loop), so
   * that the program order of the probes is the order in which their values were computed */
  int nfirst = 0;
  for (const ir_block *b = v->def->parent; b && b->parent && b->parent->parent; b = b->parent->parent->parent) {
    const ir_op *loop = b->parent->parent;
    if (loop->code != IR_OP_SCF_FOR || b->nargs < 1 || loop->nopnds < 1) continue;
    char it[64];
    ir_type_str(b->args[0].type, it, sizeof it);
    sb_printf(&p->out, "    %%ttref_f%d_%d = arith.cmpi eq, %%%s, %%%s : %s\n", k, nfirst, b->args[0].name,
              loop->opnds[0]->name, it);
    if (nfirst)
      sb_printf(&p->out, "    %%ttref_f%d_%d = arith.andi %%ttref_f%d_%d, %%ttref_f%d_%d : i1\n", k, nfirst + 1, k,
                nfirst - 1, k, nfirst);
    nfirst += nfirst ? 2 : 1;
  }
  if (nfirst) {
    char cond[64], t1[200];
    snprintf(cond, sizeof cond, "%%ttref_f%d_%d", k, nfirst - 1);
    if (t->kind == IR_T_TENSOR) {
      type_with(t, "i1", t1, sizeof t1);
      sb_printf(&p->out, "    %%ttref_g%d = tt.splat %s : i1 -> %s\n", k, cond, t1);
      snprintf(cond, sizeof cond, "%%ttref_g%d", k);
    }
    if (mn[0]) {
      sb_printf(&p->out, "    %%ttref_h%d = arith.andi %s, %s : %s\n", k, cond, mn, t->kind == IR_T_TENSOR ? t1 : "i1");
      snprintf(mn, sizeof mn, "%%ttref_h%d", k);
    } else snprintf(mn, sizeof mn, "%.60s", cond);
  }
  if (mn[0]) snprintf(m, sizeof m, ", %.76s", mn);
  sb_printf(&p->out, "    %%ttref_n%d = arith.constant %" PRId64 " : i32\n", k, numel);
  sb_printf(&p->out, "    %%ttref_b%d = arith.muli %%ttref_lin, %%ttref_n%d : i32\n", k, k);
  sb_printf(&p->out, "    %%ttref_p%d = tt.addptr %%ttref_probe_%d, %%ttref_b%d : %s, i32\n", k, k, k, pty);
  if (t->kind != IR_T_TENSOR) {
    sb_printf(&p->out, "    tt.store %%ttref_p%d, %s%s : %s\n", k, val, m, pty);
    return;
  }
  char ptt[240];
  type_with(t, pty, ptt, sizeof ptt);
  type_with(t, "i32", ity, sizeof ity);
  sb_printf(&p->out, "    %%ttref_s%d = tt.splat %%ttref_p%d : %s -> %s\n", k, k, pty, ptt);
  sb_printf(&p->out, "    %%ttref_o%d_0 = arith.constant dense<0> : %s\n", k, ity);
  int last = 0, step = 0;
  int64_t stride = 1;
  for (int d = t->rank - 1; d >= 0; stride *= t->shape[d], d--) {
    if (t->shape[d] <= 1) continue;
    /* make_range over dim d, expanded to rank and broadcast to the shape, times its stride */
    int64_t cur[IR_MAX_RANK];
    int cr = 1;
    cur[0] = t->shape[d];
    sb_printf(&p->out,
              "    %%ttref_r%d_%d_0 = tt.make_range {end = %" PRId64 " : i32, start = 0 : i32} : tensor<%" PRId64
              "xi32>\n",
              k, d, t->shape[d], t->shape[d]);
    int e = 0;
    for (int j = 0; j < t->rank; j++) {
      if (j == d) continue;
      int axis = j < d ? 0 : cr;
      char tin[200], tout[200];
      int64_t nxt[IR_MAX_RANK];
      for (int q = 0, w = 0; q <= cr; q++) nxt[q] = q == axis ? 1 : cur[w++];
      {
        ir_type tmp = {.kind = IR_T_TENSOR, .rank = cr};
        memcpy(tmp.shape, cur, sizeof(int64_t) * (size_t)cr);
        type_with(&tmp, "i32", tin, sizeof tin);
        tmp.rank = cr + 1;
        memcpy(tmp.shape, nxt, sizeof(int64_t) * (size_t)(cr + 1));
        type_with(&tmp, "i32", tout, sizeof tout);
      }
      sb_printf(&p->out, "    %%ttref_r%d_%d_%d = tt.expand_dims %%ttref_r%d_%d_%d {axis = %d : i32} : %s -> %s\n", k,
                d, e + 1, k, d, e, axis, tin, tout);
      e++;
      memcpy(cur, nxt, sizeof(int64_t) * (size_t)(cr + 1));
      cr++;
    }
    char src[64];
    snprintf(src, sizeof src, "%%ttref_r%d_%d_%d", k, d, e);
    if (t->rank > 1) {
      char tin[200];
      ir_type tmp = {.kind = IR_T_TENSOR, .rank = cr};
      memcpy(tmp.shape, cur, sizeof(int64_t) * (size_t)cr);
      type_with(&tmp, "i32", tin, sizeof tin);
      sb_printf(&p->out, "    %%ttref_q%d_%d = tt.broadcast %s : %s -> %s\n", k, d, src, tin, ity);
      snprintf(src, sizeof src, "%%ttref_q%d_%d", k, d);
    }
    if (stride > 1) {
      sb_printf(&p->out, "    %%ttref_c%d_%d = arith.constant dense<%" PRId64 "> : %s\n", k, d, stride, ity);
      sb_printf(&p->out, "    %%ttref_x%d_%d = arith.muli %s, %%ttref_c%d_%d : %s\n", k, d, src, k, d, ity);
      snprintf(src, sizeof src, "%%ttref_x%d_%d", k, d);
    }
    sb_printf(&p->out, "    %%ttref_o%d_%d = arith.addi %%ttref_o%d_%d, %s : %s\n", k, step + 1, k, last, src, ity);
    last = ++step;
  }
  sb_printf(&p->out, "    %%ttref_a%d = tt.addptr %%ttref_s%d, %%ttref_o%d_%d : %s, %s\n", k, k, k, last, ptt, ity);
  sb_printf(&p->out, "    tt.store %%ttref_a%d, %s%s : %s\n", k, val, m, ptt);
}

static const char *hook_after(void *vctx, const ir_op *op)
{
  pctx *p = vctx;
  p->out.n = 0;
  if (p->out.s) p->out.s[0] = 0;
  if (in_combiner_or_other(p, op)) return NULL;
  emit_masks(p, op);
  for (int j = 0; j < op->nres; j++) {
    const ir_value *v = &op->res[j];
    if (v->id < p->f->nvalues && p->probe_of[v->id] >= 0) emit_probe(p, v, p->probe_of[v->id]);
  }
  return p->out.n ? p->out.s : NULL;
}

static const char *hook_prologue(void *vctx, const ir_func *f)
{
  pctx *p = vctx;
  p->out.n = 0;
  if (f != p->f) return NULL;
  sb_printf(&p->out, "    %%ttref_pid0 = tt.get_program_id x : i32\n"
                     "    %%ttref_pid1 = tt.get_program_id y : i32\n"
                     "    %%ttref_pid2 = tt.get_program_id z : i32\n"
                     "    %%ttref_np0 = tt.get_num_programs x : i32\n"
                     "    %%ttref_np1 = tt.get_num_programs y : i32\n"
                     "    %%ttref_t0 = arith.muli %%ttref_pid2, %%ttref_np1 : i32\n"
                     "    %%ttref_t1 = arith.addi %%ttref_t0, %%ttref_pid1 : i32\n"
                     "    %%ttref_t2 = arith.muli %%ttref_t1, %%ttref_np0 : i32\n"
                     "    %%ttref_lin = arith.addi %%ttref_t2, %%ttref_pid0 : i32\n");
  return p->out.oom ? NULL : p->out.s;
}

static const char *hook_args(void *vctx, const ir_func *f)
{
  pctx *p = vctx;
  p->out.n = 0;
  if (f != p->f || !p->nprobe) return NULL;
  for (int k = 0; k < p->nprobe; k++) {
    const ir_scalar s = ir_type_elem(p->probe[k]->type)->scalar;
    sb_printf(&p->out, ", %%ttref_probe_%d: !tt.ptr<%s>", k, s == IR_S_I1 ? "i8" : ir_scalar_name(s));
  }
  return p->out.oom ? NULL : p->out.s;
}

ttref_status conform_localize_print(const ir_module *m, const ir_func *f, const ir_value *const *probe, int nprobe,
                                    FILE *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  pctx p = {.f = f, .probe = probe, .nprobe = nprobe};
  const size_t nv = f->nvalues ? f->nvalues : 1;
  p.probe_of = ir_alloc(sizeof(int) * nv);
  p.mask = ir_alloc(sizeof *p.mask * nv);
  if (!p.probe_of || !p.mask) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  for (size_t i = 0; i < nv; i++) {
    p.probe_of[i] = -1;
    p.mask[i] = MREF_NONE;
  }
  for (int k = 0; k < nprobe; k++) {
    if (!conform_localize_probeable(probe[k]) || probe[k]->id >= f->nvalues)
      FAIL(IR_ERR(err, TTREF_E_INTERNAL, none, "value %%%s cannot be probed", probe[k]->name));
    p.probe_of[probe[k]->id] = k;
  }
  ir_print_hooks h = {&p, hook_args, hook_prologue, hook_after};
  st = ir_print_module_hooked(m, out, &h, err);
  if (st == TTREF_OK && p.out.oom) st = IR_ERR(err, TTREF_E_NOMEM, none, "out of memory");
fail:
  sb_free(&p.out);
  ir_free(p.probe_of, sizeof(int) * nv);
  ir_free(p.mask, sizeof *p.mask * nv);
  return st;
}

/* ---- the search ------------------------------------------------------------------------ */

enum { PS_UNJUDGED, PS_SAME, PS_WITHIN, PS_FAIL, PS_ERROR };

typedef struct cand {
  const ir_value *v;
  int state;
  char reason[256];
} cand;

typedef struct cands {
  cand *v;
  int n, cap;
  int skipped_big;
  bool oom;
} cands;

/* ops whose results are not probed, from the table: those without operands (constants, program
 * ids, ranges), order-dependent ones (atomics: IR_F_ORDERED) and those the interpreter refuses */
static bool skip_op(ir_opcode c)
{
  return ir_op_nopnds(c) == 0 || (ir_op_flags(c) & (IR_F_ORDERED | IR_F_UNSUPPORTED));
}

static void collect(cands *cs, const ir_region *r, int64_t programs)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *blk = r->blocks[b];
    for (int i = 0; i < blk->nops; i++) {
      const ir_op *op = blk->ops[i];
      /* not inside combiners (no stores there) nor scf.while (no first iteration to pick) */
      if (!is_combiner(op->code) && op->code != IR_OP_SCF_WHILE)
        for (int k = 0; k < op->nregions; k++) collect(cs, &op->regions[k], programs);
      if (skip_op(op->code)) continue;
      for (int j = 0; j < op->nres; j++) {
        const ir_value *v = &op->res[j];
        if (!conform_localize_probeable(v)) continue;
        if (v->type->numel > ((int64_t)1 << 26) / (programs > 0 ? programs : 1)) {
          cs->skipped_big++;
          continue;
        }
        if (cs->n == cs->cap) {
          int ncap = cs->cap ? cs->cap * 2 : 64;
          cand *nv = ir_realloc(cs->v, sizeof *cs->v * (size_t)cs->cap, sizeof *cs->v * (size_t)ncap);
          if (!nv) {
            cs->oom = true;
            return;
          }
          cs->v = nv;
          cs->cap = ncap;
        }
        cs->v[cs->n++] = (cand){v, PS_UNJUDGED, ""};
      }
    }
  }
}

ttref_status conform_localize_print_all(const ir_module *m, const ir_func *f, FILE *out, int *nprobes, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  cands cs = {0};
  const ir_value **pv = NULL;
  collect(&cs, &f->body, 1);
  if (cs.oom || !(pv = ir_calloc((size_t)cs.n + 1, sizeof *pv)))
    FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int k = 0; k < cs.n; k++) pv[k] = cs.v[k].v;
  *nprobes = cs.n;
  st = conform_localize_print(m, f, pv, cs.n, out, err);
fail:
  ir_free(pv, sizeof *pv * ((size_t)cs.n + 1));
  ir_free(cs.v, sizeof *cs.v * (size_t)cs.cap);
  return st;
}

/* "path:LINE:COL (source.py:L:C name)" */
static void op_at(const conform_spec *s, const ir_op *op, char *buf, size_t n)
{
  char src[200];
  ir_srcloc sl = ir_op_srcloc(op);
  ir_srcloc_str(&sl, src, sizeof src);
  if (src[0] && s->lowered) snprintf(buf, n, "%s (kernel.ttir:%d:%d)", src, op->line, op->col); /* the fx node first */
  else if (src[0]) snprintf(buf, n, "%s:%d:%d (%s)", s->kernel, op->line, op->col, src);
  else snprintf(buf, n, "%s:%d:%d", s->kernel, op->line, op->col);
}

static int cand_of(const cands *cs, const ir_value *v)
{
  for (int i = 0; i < cs->n; i++)
    if (cs->v[i].v == v) return i;
  return -1;
}

/* The mode and options of a probe of @p v (k from the op's operand shapes). */
static void probe_mode(const ir_value *v, conform_output *o, conform_option *opts, char (*texts)[32])
{
  const ir_op *op = v->def;
  const ir_scalar sc = ir_type_elem(v->type)->scalar;
  double ulp = 0;
  o->noptions = 0;
  o->options = opts;
  if (!ir_scalar_is_float(sc) || !op) {
    o->mode = CMP_EXACT;
    return;
  }
  int bits = ir_scalar_bits(sc);
  o->mode = conform_opmode_default(op->code, bits, &ulp);
  if (o->mode == CMP_ULP) {
    snprintf(texts[0], 32, "%g", ulp);
    opts[o->noptions++] = (conform_option){"ulp", texts[0]};
  } else if (o->mode == CMP_DOT_PRODUCT || o->mode == CMP_REDUCE) {
    int64_t k = 1;
    const ir_type *a = op->nopnds ? op->opnds[0]->type : NULL;
    if (a && a->kind == IR_T_TENSOR && a->rank) {
      if (op->code == IR_OP_DOT || op->code == IR_OP_DOT_SCALED) k = a->shape[a->rank - 1] + 1; /* + the accumulator */
      else {
        int64_t ax = ir_op_attr_int(op, "axis", 0);
        if (ax >= 0 && ax < a->rank) k = a->shape[ax];
      }
    }
    snprintf(texts[0], 32, "%" PRId64, k < 1 ? 1 : k);
    opts[o->noptions++] = (conform_option){"k", texts[0]};
    if (o->mode == CMP_DOT_PRODUCT) opts[o->noptions++] = (conform_option){"bias_test", "false"};
  }
}

/* One pass: probes cs->v[first .. first+n). Returns false when the pass could not run (r->localized says why). */
static ttref_status run_pass(conform_backend *b, const conform_case *c, const conform_spec *s, const ir_module *m,
                             const ir_func *f, const char *dir, int pass, cands *cs, int first, int n, double timeout_s,
                             bool ftz, int64_t programs, bool *ran, conform_record *r, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  char pdir[4300], kpath[4400], path[4600];
  const ir_value **pv = ir_calloc((size_t)n, sizeof *pv);
  conform_arg *args = ir_calloc((size_t)s->nargs + (size_t)n, sizeof *args);
  conform_output *outs = ir_calloc((size_t)n, sizeof *outs);
  conform_option(*opts)[3] = ir_calloc((size_t)n, sizeof *opts);
  char(*texts)[1][32] = ir_calloc((size_t)n, sizeof *texts);
  char(*names)[32] = ir_calloc((size_t)n, sizeof *names);
  FILE *fp = NULL;
  *ran = false;
  if (!pv || !args || !outs || !opts || !texts || !names) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  snprintf(pdir, sizeof pdir, "%s/localize/pass%d", dir, pass);
  snprintf(path, sizeof path, "localize/pass%d", pass); /* the backend ran in DIR: walk it without following links */
  TRY(ir_fs_rmtree_in(dir, path, err));
  TRY(ir_fs_mkdirs_in(dir, path, err));
  snprintf(kpath, sizeof kpath, "%s/localize/pass%d.ttir", dir, pass);
  for (int k = 0; k < n; k++) pv[k] = cs->v[first + k].v;
  snprintf(path, sizeof path, "localize/pass%d.ttir", pass);
  TRY(ir_fs_fopen_in(dir, path, "w", &fp, err));
  st = conform_localize_print(m, f, pv, n, fp, err);
  if (fclose(fp) != 0 && st == TTREF_OK)
    st = IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", kpath, strerror(errno));
  fp = NULL;
  if (st != TTREF_OK) goto fail;
  /* the derived case: the probes are trailing pointer arguments and the only outputs */
  conform_spec ds = *s;
  conform_case dc = *c;
  memcpy(args, s->args, sizeof *args * (size_t)s->nargs);
  for (int k = 0; k < n; k++) {
    conform_arg *a = &args[s->nargs + k];
    const ir_scalar sc = ir_type_elem(pv[k]->type)->scalar;
    snprintf(names[k], sizeof names[k], "ttref_probe_%d", k);
    a->name = names[k];
    a->is_ptr = true;
    a->rank = 1;
    a->shape[0] = (pv[k]->type->kind == IR_T_TENSOR ? pv[k]->type->numel : 1) * programs;
    if (sc == IR_S_I1) a->dtype = CONFORM_DT_I8;
    else if (!conform_dtype_of_scalar(sc, &a->dtype))
      FAIL(IR_ERR(err, TTREF_E_INTERNAL, none, "no buffer dtype for %s", ir_scalar_name(sc)));
    conform_recipe_init(&a->input);
    outs[k].name = names[k];
    probe_mode(pv[k], &outs[k], opts[k], texts[k]);
  }
  ds.args = args;
  ds.nargs = s->nargs + n;
  ds.kernel = kpath;
  ds.kernel_rel = "kernel.ttir";
  ds.lowered = NULL; /* the probe kernel is TTIR, also for traced cases */
  dc.outputs = outs;
  dc.noutputs = n;
  TRY(conform_stage_case(&dc, &ds, pdir, err));
  conform_exit ex;
  char refdir[4400];
  snprintf(refdir, sizeof refdir, "%s/ref", pdir);
  double limit = timeout_s * 4 < 120 ? 120 : timeout_s * 4;
  ttref_error rerr = {0};
  if (conform_stage_reference(&ds, pdir, refdir, conform_judge_case_wants_precise(&dc), false, limit, &ex, &rerr) !=
          TTREF_OK ||
      ex.kind != CONFORM_EXITED || ex.code != 0) {
    snprintf(r->localized, sizeof r->localized,
             "not localised: the instrumented kernel (pass %d) failed on the reference (%.200s); see %.300s.log", pass,
             rerr.msg[0]                    ? rerr.msg
             : ex.kind == CONFORM_TIMED_OUT ? "timeout"
                                            : "nonzero exit",
             refdir);
    goto fail;
  }
  conform_backend_result br;
  TRY(conform_backend_run(b, &dc, &ds, pdir, timeout_s, &br, err));
  if (br.raw != CONFORM_V_PASS) {
    snprintf(r->localized, sizeof r->localized,
             "not localised: the backend could not run the instrumented kernel (pass %d): %s: %.200s (in %.300s)", pass,
             conform_verdict_name(br.raw), br.detail, pdir);
    goto fail;
  }
  *ran = true;
  for (int k = 0; k < n; k++) {
    cand *cd = &cs->v[first + k];
    npy_array got = {0}, ref = {0}, pre = {0}, bnd = {0};
    ttref_error e = {0};
    conform_judgement j;
    snprintf(path, sizeof path, "%s/%s.npy", refdir, names[k]);
    if (npy_read_bounded(path, NULL, SIZE_MAX, &ref, &e) != TTREF_OK) {
      cd->state = PS_ERROR;
      snprintf(cd->reason, sizeof cd->reason, "reference probe: %.200s", e.msg);
      goto next;
    }
    snprintf(path, sizeof path, "%s/outputs/%s.npy", pdir, names[k]);
    if (npy_read_bounded(path, NULL, ref.nbytes, &got, &e) !=
        TTREF_OK) { /* the backend's file: never more than expected */
      cd->state = PS_ERROR;
      snprintf(cd->reason, sizeof cd->reason, "backend probe: %.200s", e.msg);
      goto next;
    }
    if (got.nbytes == ref.nbytes && got.kind == ref.kind &&
        (!got.nbytes || memcmp(got.data, ref.data, got.nbytes) == 0)) {
      cd->state = PS_SAME;
      goto next;
    }
    conform_judge_read_precise(refdir, names[k], &pre, &bnd);
    if (conform_judge_output(&outs[k], args[s->nargs + k].dtype, &got, &ref, pre.data ? &pre : NULL,
                             bnd.data ? &bnd : NULL, ftz, &j, &e) != TTREF_OK) {
      cd->state = PS_ERROR;
      snprintf(cd->reason, sizeof cd->reason, "judging: %.200s", e.msg);
      goto next;
    }
    cd->state = j.pass ? PS_WITHIN : PS_FAIL;
    if (j.pass)
      snprintf(cd->reason, sizeof cd->reason, "%s%s%s: bits differ within the bound (max %.3g ulp)",
               cmp_mode_name(outs[k].mode), outs[k].noptions ? " " : "",
               outs[k].noptions ? outs[k].options[0].text : "", j.max_ulp);
    else {
      int64_t flat = j.worst_index, prog = -1, lane = -1;
      const int64_t per = pv[k]->type->kind == IR_T_TENSOR ? pv[k]->type->numel : 1;
      if (flat >= 0) {
        prog = flat / per;
        lane = flat % per;
      }
      snprintf(
          cd->reason, sizeof cd->reason,
          "%s%s%s fails: program %" PRId64 " lane %" PRId64 ": got %.9g, reference %.9g, error %.4g > allowed %.4g",
          cmp_mode_name(outs[k].mode), outs[k].noptions ? " " : "", outs[k].noptions ? outs[k].options[0].text : "",
          prog, lane, j.worst_got, j.worst_ref, j.worst_err, j.worst_bound);
    }
  next:
    npy_free(&got);
    npy_free(&ref);
    npy_free(&pre);
    npy_free(&bnd);
  }
fail:
  if (fp) fclose(fp);
  ir_free(pv, sizeof *pv * (size_t)n);
  ir_free(args, sizeof *args * ((size_t)s->nargs + (size_t)n));
  ir_free(outs, sizeof *outs * (size_t)n);
  ir_free(opts, sizeof *opts * (size_t)n);
  ir_free(texts, sizeof *texts * (size_t)n);
  ir_free(names, sizeof *names * (size_t)n);
  return st;
}

ttref_status conform_localize(conform_backend *b, const conform_case *c, const conform_spec *s, const char *dir,
                              double timeout_s, bool ftz, conform_record *r, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_module *m = NULL;
  ttref_error perr = {0};
  cands cs = {0};
  r->localized_op[0] = r->localized_at[0] = r->localized[0] = 0;
  if ((s->lowered ? ir_parse_string("kernel.ttir", s->lowered, s->lowered_len, &m, &perr)
                  : ir_parse_file(s->kernel, &m, &perr)) != TTREF_OK) {
    snprintf(r->localized, sizeof r->localized, "not localised: %.600s", perr.msg);
    goto fail;
  }
  const ir_func *f = s->function ? ir_module_find_func(m, s->function) : ir_module_entry(m);
  if (!f) {
    snprintf(r->localized, sizeof r->localized, "not localised: no kernel function in %.600s", s->kernel);
    goto fail;
  }
  const int64_t programs = s->grid[0] * s->grid[1] * s->grid[2];
  if (programs <= 0 || programs > ((int64_t)1 << 24)) {
    snprintf(r->localized, sizeof r->localized, "not localised: %" PRId64 " programs are too many to probe", programs);
    goto fail;
  }
  collect(&cs, &f->body, programs);
  if (cs.oom) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  if (!cs.n) {
    snprintf(r->localized, sizeof r->localized, "not localised: the kernel computes no value that can be probed");
    goto fail;
  }
  int first_fail = -1, first_diff = -1, judged = 0, passes = 0;
  for (int pass = 0; pass * CONFORM_LOCALIZE_PASS < cs.n && pass < CONFORM_LOCALIZE_MAX_PASSES && first_fail < 0;
       pass++) {
    int first = pass * CONFORM_LOCALIZE_PASS;
    int n = cs.n - first < CONFORM_LOCALIZE_PASS ? cs.n - first : CONFORM_LOCALIZE_PASS;
    bool ran;
    TRY(run_pass(b, c, s, m, f, dir, pass, &cs, first, n, timeout_s, ftz, programs, &ran, r, err));
    if (!ran) goto fail;
    passes++;
    judged += n;
    for (int k = first; k < first + n; k++) {
      if (first_diff < 0 && cs.v[k].state != PS_SAME) first_diff = k;
      if (first_fail < 0 && (cs.v[k].state == PS_FAIL || cs.v[k].state == PS_ERROR)) first_fail = k;
    }
  }
  char at[300], tstr[200];
  if (first_fail < 0) {
    int len =
        snprintf(r->localized, sizeof r->localized,
                 "no probed value diverges (%d values in %d pass%s%s): the difference is in what the kernel stores "
                 "or in a value that is not probed (pointers, atomics, combiner regions)",
                 judged, passes, passes == 1 ? "" : "es", judged < cs.n ? ", search limit reached" : "");
    if (first_diff >= 0 && len > 0 && (size_t)len < sizeof r->localized) {
      op_at(s, cs.v[first_diff].v->def, at, sizeof at);
      snprintf(r->localized + len, sizeof r->localized - (size_t)len,
               "; first bit difference within its bound: %s at %.250s", ir_op_label(cs.v[first_diff].v->def), at);
    }
    goto fail;
  }
  const cand *fc = &cs.v[first_fail];
  const ir_op *op = fc->v->def;
  op_at(s, op, at, sizeof at);
  ir_type_str(fc->v->type, tstr, sizeof tstr);
  snprintf(r->localized_op, sizeof r->localized_op, "%s", ir_op_label(op));
  snprintf(r->localized_at, sizeof r->localized_at, "%.250s", at);
  /* its operands: identical, or already different? */
  int same = 0, differ = -1, unprobed = 0;
  for (int i = 0; i < op->nopnds; i++) {
    int k = cand_of(&cs, op->opnds[i]);
    if (k < 0 || cs.v[k].state == PS_UNJUDGED) unprobed++;
    else if (cs.v[k].state == PS_SAME) same++;
    else if (differ < 0) differ = k;
  }
  char ops[400];
  if (differ >= 0) {
    char dat[300];
    op_at(s, cs.v[differ].v->def, dat, sizeof dat);
    snprintf(ops, sizeof ops,
             "its operand %%%.40s (%s at %.200s) already differed within its bound, so the divergence may be inherited",
             cs.v[differ].v->name, ir_op_label(cs.v[differ].v->def), dat);
  } else if (same && !unprobed)
    snprintf(ops, sizeof ops, "its operands agree bit for bit, so this op itself computes differently");
  else if (same)
    snprintf(ops, sizeof ops, "its probed operands agree bit for bit (%d not probed: constants, arguments or pointers)",
             unprobed);
  else snprintf(ops, sizeof ops, "its operands are not probed (constants, arguments or pointers)");
  const char *hint = "";
  if (op->code == IR_OP_ADDF || op->code == IR_OP_SUBF)
    for (int i = 0; i < op->nopnds; i++)
      if (op->opnds[i]->def && op->opnds[i]->def->code == IR_OP_MULF)
        hint = "; an arith.mulf feeds it: the backend probably contracted them into an FMA (`ttref run --contract` "
               "models that)";
  snprintf(r->localized, sizeof r->localized, "first divergent op: %s at %.250s, %%%.40s : %.60s: %.150s; %.160s%.120s",
           ir_op_label(op), at, fc->v->name, tstr, fc->reason, ops, hint);
fail:
  ir_free(cs.v, sizeof *cs.v * (size_t)cs.cap);
  if (m) ir_module_free(m);
  return st;
}
