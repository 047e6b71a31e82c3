/*
 * interp_plan.c: the executor's plan: one value slot per SSA value of every
 * function, sized once per launch; frames of slots; which arguments a store
 * may write (race tracking).
 */
#include "config.h"
#include "interp_exec.h"

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
uint64_t interp_stored_args(const ir_func *fn)
{
  uint64_t stored = 0;
  uint64_t *m = ir_calloc(fn->nvalues + 1, sizeof(uint64_t));
  if (!m) return STORED_ALL;
  for (int i = 0; i < fn->nargs; i++) m[fn->args[i].id] = i < 63 ? UINT64_C(1) << i : STORED_ALL;
  while (flow_region(m, &fn->body, &stored)) {}
  ir_free(m, sizeof(uint64_t) * (fn->nvalues + 1));
  return stored;
}

static bool scan_flags(const ir_region *r, bool *seq)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *bl = r->blocks[b];
    for (int i = 0; i < bl->nops; i++) {
      const ir_op *op = bl->ops[i];
      if (ir_op_flags(op->code) & IR_F_ORDERED) *seq = true; /* the flags column of ir_op_list.h */
      for (int k = 0; k < op->nregions; k++) scan_flags(&op->regions[k], seq);
    }
  }
  return true;
}

void interp_plan_free(plan *P)
{
  if (!P->fns) return;
  for (int i = 0; i < P->nfns; i++) {
    ir_free(P->fns[i].cap, sizeof(int64_t) * (P->fns[i].fn->nvalues + 1));
    ir_free(P->fns[i].uses, sizeof(uint32_t) * (P->fns[i].fn->nvalues + 1));
  }
  ir_free(P->fns, sizeof(fn_plan) * (size_t)P->nfns);
  P->fns = NULL;
}

ttref_status interp_plan_build(plan *P, const ir_module *m, ttref_error *err)
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
  interp_plan_free(P);
  return st;
}

frame *interp_frame_new(const fn_plan *fp, bool precise)
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

void interp_frame_free(frame *f)
{
  if (!f) return;
  ir_free(f->s, sizeof(slot) * (f->fp->fn->nvalues + 1));
  ir_free(f->buf, sizeof(interp_elem) * (f->fp->total + 1));
  ir_free(f->bbuf, sizeof(interp_elem) * (f->fp->total + 1));
  ir_free(f, sizeof *f);
}

const fn_plan *interp_plan_of(const plan *P, const ir_func *fn)
{
  for (int i = 0; i < P->nfns; i++)
    if (P->fns[i].fn == fn) return &P->fns[i];
  return NULL;
}
