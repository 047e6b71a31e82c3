/*
 * ir_verify.c: one walk per function checks each op in text order: the
 * rules shared by all ops, block and terminator structure, and SSA dominance
 * (a scope walked along each dominator tree). Per-op type rules are in
 * ir_verify_op.c (data, memory, dot) and ir_verify_ctl.c (regions, control
 * flow, calls, and the dispatch over ir_op_list.h).
 */
#include "config.h"
#include "ir_verify_impl.h"
/* ---- messages --------------------------------------------------------------- */
const char *irv_tstr(vctx *c, const ir_type *t)
{
  char *b = c->tbuf[c->tnext++ & 3];
  ir_type_str(t, b, sizeof c->tbuf[0]);
  return b;
}

static void note_src(vctx *c, const ir_srcloc *s)
{
  char sb[256];
  if (ir_srcloc_str(s, sb, sizeof sb) > 0) ir_error_note(c->err, "note: in kernel source %s", sb);
}

ttref_status irv_bad(vctx *c, const ir_op *op, const char *fmt, ...)
{
  char body[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ir_error_set(c->err, TTREF_E_VERIFY, ir_op_ttir_loc(c->m, op), "'%s' op %s", ir_op_label(op), body);
  ir_srcloc s = ir_op_srcloc(op);
  note_src(c, &s);
  return TTREF_E_VERIFY;
}

static ttref_status bad_func(vctx *c, const ir_func *fn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static ttref_status bad_func(vctx *c, const ir_func *fn, const char *fmt, ...)
{
  char body[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ttref_loc l = {c->m->filename, fn->line, fn->col};
  ir_error_set(c->err, TTREF_E_VERIFY, l, "'tt.func' op @%s: %s", fn->name ? fn->name : "?", body);
  ir_srcloc s = ir_loc_resolve(fn->loc);
  note_src(c, &s);
  return TTREF_E_VERIFY;
}

ttref_status irv_internal(vctx *c, const ir_op *op, const char *what)
{
  ir_error_set(c->err, TTREF_E_INTERNAL, ir_op_ttir_loc(c->m, op), "'%s' op: malformed IR: %s", ir_op_name(op->code),
               what);
  return TTREF_E_INTERNAL;
}

/* ---- rules shared by all ops ----------------------------------------------------------------- */
static ttref_status check_size(vctx *c, const ir_op *op, const ir_type *t, bool pow2, const char *what, int i)
{
  ttref_status st = TTREF_OK;
  if (!is_tensor(t)) goto fail;
  if (t->numel > MAX_NUMEL)
    FAIL(irv_bad(c, op, "%s #%d '%s' has %lld elements, more than the limit of %lld", what, i, irv_tstr(c, t),
                 (long long)t->numel, (long long)MAX_NUMEL));
  if (pow2 && !is_pow2(t->numel))
    FAIL(irv_bad(c, op, "number of elements must be power-of-two, but %s #%d '%s' has %lld", what, i, irv_tstr(c, t),
                 (long long)t->numel));
fail:
  return st;
}

static ttref_status check_common(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if ((int)op->code < 0 || op->code >= IR_OP_COUNT) FAIL(irv_internal(c, op, "unknown opcode"));
  for (int i = 0; i < op->nopnds; i++)
    if (!op->opnds || !op->opnds[i] || !op->opnds[i]->type) FAIL(irv_internal(c, op, "NULL operand or operand type"));
  for (int i = 0; i < op->nres; i++)
    if (!op->res || !op->res[i].type) FAIL(irv_internal(c, op, "NULL result type"));
  int no = ir_op_nopnds(op->code), nr = ir_op_nresults(op->code);
  unsigned fl = ir_op_flags(op->code);
  if (no >= 0 && op->nopnds != no && !(fl & IR_F_UNSUPPORTED))
    FAIL(irv_bad(c, op, "expected %d operand%s, but found %d", no, no == 1 ? "" : "s", op->nopnds));
  if (nr >= 0 && op->nres != nr && !(fl & IR_F_UNSUPPORTED))
    FAIL(irv_bad(c, op, "expected %d result%s, but found %d", nr, nr == 1 ? "" : "s", op->nres));
  if (!(fl & IR_F_REGION) && op->nregions != 0 && !(fl & IR_F_UNSUPPORTED))
    FAIL(irv_bad(c, op, "requires zero regions"));
  if (op->code != IR_OP_CF_BR && op->code != IR_OP_CF_COND_BR && op->nsuccs != 0)
    FAIL(irv_bad(c, op, "requires zero successors"));
  bool pow2 = strncmp(ir_op_name(op->code), "tt.", 3) == 0; /* Triton's TensorSizeTrait is on tt.* ops only */
  for (int i = 0; i < op->nopnds; i++) TRY(check_size(c, op, otype(op, i), pow2, "operand", i));
  for (int i = 0; i < op->nres; i++) TRY(check_size(c, op, rtype(op, i), pow2, "result", i));
fail:
  return st;
}

/* ---- scopes for dominance --------------------------------------------------------------------- */
static const ir_func *value_func(const ir_value *v)
{
  const ir_block *b = v->def ? v->def->parent : v->block;
  return (b && b->parent) ? b->parent->func : NULL;
}

static ttref_status mark(vctx *c, const ir_value *v)
{
  ttref_status st = TTREF_OK;
  if (v->id >= c->nseen) goto fail; /* reported at its uses */
  if (c->seen[v->id])               /* two values in scope share an interpreter slot */
    FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){0}, "malformed IR: value id %u of '%%%s' is not unique",
                      (unsigned)v->id, v->name ? v->name : "?"));
  if (c->nundo == c->capundo) {
    size_t cap = c->capundo ? 2 * c->capundo : 256;
    uint32_t *u = ir_realloc(c->undo, c->capundo * sizeof *u, cap * sizeof *u);
    if (!u) FAIL(ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory in the verifier"));
    c->undo = u;
    c->capundo = cap;
  }
  c->seen[v->id] = 1;
  c->undo[c->nundo++] = v->id;
fail:
  return st;
}

static void unmark_to(vctx *c, size_t level)
{
  while (c->nundo > level) c->seen[c->undo[--c->nundo]] = 0;
}

static ttref_status check_use(vctx *c, const ir_op *op, const ir_value *v, const char *what, int i)
{
  ttref_status st = TTREF_OK;
  const ir_func *vf = value_func(v);
  if (vf && vf != c->fn) /* tt.func is IsolatedFromAbove */
    FAIL(irv_bad(c, op, "%s #%d ('%%%s') is defined in another function", what, i, v->name ? v->name : "?"));
  if (v->id >= c->nseen) FAIL(irv_internal(c, op, "value id out of range"));
  if (c->nodom == 0 && !c->seen[v->id])
    FAIL(irv_bad(c, op, "%s #%d ('%%%s') does not dominate this use", what, i, v->name ? v->name : "?"));
fail:
  return st;
}

/* ---- walk ------------------------------------------------------------------------------------------ */
static ttref_status verify_region(vctx *c, const ir_region *r);

/* The terminators allowed at the end of a block of region ridx of p (p NULL: function body). */
static bool terminator_ok(const ir_op *p, int ridx, ir_opcode t)
{
  if (!p) return t == IR_OP_RETURN || t == IR_OP_CF_BR || t == IR_OP_CF_COND_BR;
  ir_opcode c = p->code;
  if (c == IR_OP_SCF_FOR || c == IR_OP_SCF_IF) return t == IR_OP_SCF_YIELD;
  if (c == IR_OP_SCF_WHILE) return t == (ridx == 0 ? IR_OP_SCF_CONDITION : IR_OP_SCF_YIELD);
  if (c == IR_OP_REDUCE) return t == IR_OP_REDUCE_RETURN;
  if (c == IR_OP_SCAN) return t == IR_OP_SCAN_RETURN;
  if (c == IR_OP_MAP_ELEMENTWISE) return t == IR_OP_MAP_ELEM_RETURN || t == IR_OP_CF_BR || t == IR_OP_CF_COND_BR;
  return false;
}

static const char *terminator_names(const ir_op *p, int ridx)
{
  if (!p) return "'tt.return', 'cf.br' or 'cf.cond_br'";
  ir_opcode c = p->code;
  if (c == IR_OP_SCF_FOR || c == IR_OP_SCF_IF) return "'scf.yield'";
  if (c == IR_OP_SCF_WHILE) return ridx == 0 ? "'scf.condition'" : "'scf.yield'";
  if (c == IR_OP_REDUCE) return "'tt.reduce.return'";
  if (c == IR_OP_SCAN) return "'tt.scan.return'";
  if (c == IR_OP_MAP_ELEMENTWISE) return "'tt.map_elementwise.return', 'cf.br' or 'cf.cond_br'";
  return "none";
}

/* Block structure: a terminator ends it (scf.for/scf.if may omit an empty scf.yield), none before. */
static ttref_status check_block(vctx *c, const ir_block *b)
{
  ttref_status st = TTREF_OK;
  const ir_region *r = b->parent;
  int ridx = r ? region_index(r) : 0;
  const ir_op *p = r ? r->parent : NULL;
  for (int i = 0; i < b->nargs; i++)
    if (!b->args[i].type)
      FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){c->m->filename, b->line, b->col},
                        "malformed IR: block argument without a type"));
  for (int i = 0; i < b->nops; i++)
    if (!b->ops[i])
      FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){c->m->filename, b->line, b->col},
                        "malformed IR: NULL op in block"));
  for (int i = 0; i + 1 < b->nops; i++) {
    const ir_op *op = b->ops[i];
    if (ir_op_flags(op->code) & IR_F_TERMINATOR) FAIL(irv_bad(c, op, "must be the last operation in the parent block"));
  }
  const ir_op *last = b->nops ? b->ops[b->nops - 1] : NULL;
  bool implicit = p && (p->code == IR_OP_SCF_FOR || p->code == IR_OP_SCF_IF) && p->nres == 0;
  if (!last || !(ir_op_flags(last->code) & IR_F_TERMINATOR)) {
    if (implicit) goto fail; /* MLIR's implicit empty scf.yield */
    if (!last && p)
      FAIL(irv_bad(c, p, "region #%d has an empty block: expected at least a terminator (%s)", ridx,
                   terminator_names(p, ridx)));
    if (!last) FAIL(bad_func(c, c->fn, "empty block: expected at least a terminator (%s)", terminator_names(p, ridx)));
    FAIL(irv_bad(c, last, "is not a terminator, but it ends a block (block with no terminator; expected %s)",
                 terminator_names(p, ridx)));
  }
  if (!terminator_ok(p, ridx, last->code))
    FAIL(irv_bad(c, last, "is not a valid terminator %s%s%s (expected %s)", p ? "for '" : "of a function body",
                 p ? ir_op_name(p->code) : "",
                 p ? (p->code == IR_OP_SCF_WHILE ? (ridx ? "' after region" : "' before region") : "'") : "",
                 terminator_names(p, ridx)));
fail:
  return st;
}

static ttref_status verify_op(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(check_common(c, op));
  if (!(ir_op_flags(op->code) & IR_F_UNSUPPORTED)) TRY(irv_check_op(c, op));
  for (int i = 0; i < op->nopnds; i++) TRY(check_use(c, op, op->opnds[i], "operand", i));
  for (int s = 0; s < op->nsuccs; s++)
    for (int i = 0; i < op->succs[s].nargs; i++) TRY(check_use(c, op, op->succs[s].args[i], "successor operand", i));
  for (int i = 0; i < op->nregions; i++) TRY(verify_region(c, &op->regions[i]));
  for (int i = 0; i < op->nres; i++) TRY(mark(c, &op->res[i]));
fail:
  return st;
}

static ttref_status verify_block(vctx *c, const ir_block *b)
{
  ttref_status st = TTREF_OK;
  TRY(check_block(c, b));
  for (int i = 0; i < b->nargs; i++) TRY(mark(c, &b->args[i]));
  for (int i = 0; i < b->nops; i++) TRY(verify_op(c, b->ops[i]));
fail:
  return st;
}

typedef struct blk_ix {
  const ir_block *b;
  int i;
} blk_ix;

static int cmp_blk(const void *x, const void *y)
{
  uintptr_t a = (uintptr_t)((const blk_ix *)x)->b, b = (uintptr_t)((const blk_ix *)y)->b;
  return a < b ? -1 : a > b;
}

static int block_index(const blk_ix *ix, int n, const ir_block *b)
{
  blk_ix key = {b, 0};
  const blk_ix *f = bsearch(&key, ix, (size_t)n, sizeof *ix, cmp_blk);
  return f ? f->i : -1;
}

static int nsucc_of(const ir_block *b) { return b->nops ? b->ops[b->nops - 1]->nsuccs : 0; }

static ttref_status oom(vctx *c)
{
  return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory in the verifier");
}

/*
 * A region of several blocks: dominators by Cooper, Harvey and Kennedy's
 * iterative algorithm, then a preorder walk of the dominator tree in which a
 * block sees exactly the values of its dominators. Unreachable blocks are
 * verified last, without dominance checks (as MLIR does).
 */
static ttref_status verify_cfg_region(vctx *c, const ir_region *r)
{
  ttref_status st = TTREF_OK;
  int n = r->nblocks;
  size_t szi = (size_t)n * sizeof(int);
  blk_ix *ix = ir_calloc((size_t)n, sizeof *ix);
  int *rpo = ir_alloc(szi), *num = ir_alloc(szi), *idom = ir_alloc(szi), *stk = ir_alloc(szi), *it = ir_alloc(szi);
  int *npred = ir_calloc((size_t)n + 1, sizeof(int)), *preds = NULL, *kids = NULL,
      *nkid = ir_calloc((size_t)n + 1, sizeof(int));
  size_t *lvl = ir_alloc((size_t)n * sizeof(size_t));
  int npreds = 0, nrpo = 0;
  if (!ix || !rpo || !num || !idom || !stk || !it || !npred || !nkid || !lvl) FAIL(oom(c));
  for (int i = 0; i < n; i++) {
    if (!r->blocks[i]) FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){0}, "malformed IR: NULL block"));
    ix[i].b = r->blocks[i];
    ix[i].i = i;
    num[i] = -1;
    idom[i] = -1;
  }
  if (n > 1) qsort(ix, (size_t)n, sizeof *ix, cmp_blk);
  /* depth-first postorder from the entry; num[] = postorder number */
  int sp = 0, post = 0;
  stk[sp] = 0, it[sp++] = 0, num[0] = -2;
  while (sp) {
    int b = stk[sp - 1];
    const ir_block *bb = r->blocks[b];
    if (it[sp - 1] < nsucc_of(bb)) {
      const ir_op *t = bb->ops[bb->nops - 1];
      int s = block_index(ix, n, t->succs[it[sp - 1]++].block);
      if (s >= 0 && num[s] == -1) {
        num[s] = -2;
        stk[sp] = s, it[sp++] = 0;
      }
    } else {
      rpo[post] = b;
      num[b] = post++;
      sp--;
    }
  }
  nrpo = post;
  for (int i = 0; i < nrpo / 2; i++) { /* reverse the postorder */
    int t = rpo[i];
    rpo[i] = rpo[nrpo - 1 - i];
    rpo[nrpo - 1 - i] = t;
  }
  /* predecessor lists (CSR) over reachable blocks */
  for (int b = 0; b < n; b++) {
    if (num[b] < 0) continue;
    const ir_block *bb = r->blocks[b];
    for (int k = 0; k < nsucc_of(bb); k++) {
      int s = block_index(ix, n, bb->ops[bb->nops - 1]->succs[k].block);
      if (s >= 0) npred[s + 1]++, npreds++;
    }
  }
  for (int i = 0; i < n; i++) npred[i + 1] += npred[i];
  preds = ir_alloc((size_t)(npreds ? npreds : 1) * sizeof(int));
  if (!preds) FAIL(oom(c));
  for (int i = 0; i < n; i++) it[i] = npred[i];
  for (int b = 0; b < n; b++) {
    if (num[b] < 0) continue;
    const ir_block *bb = r->blocks[b];
    for (int k = 0; k < nsucc_of(bb); k++) {
      int s = block_index(ix, n, bb->ops[bb->nops - 1]->succs[k].block);
      if (s >= 0) preds[it[s]++] = b;
    }
  }
  /* idom by iteration to a fixed point; postorder numbers order the intersection */
  idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int k = 1; k < nrpo; k++) {
      int b = rpo[k], nd = -1;
      for (int q = npred[b]; q < npred[b + 1]; q++) {
        int p = preds[q];
        if (idom[p] < 0) continue;
        if (nd < 0) {
          nd = p;
          continue;
        }
        int x = p, y = nd;
        while (x != y) {
          while (num[x] < num[y]) x = idom[x];
          while (num[y] < num[x]) y = idom[y];
        }
        nd = x;
      }
      if (nd >= 0 && idom[b] != nd) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  /* dominator-tree children (CSR, in block order) */
  for (int b = 1; b < n; b++)
    if (num[b] >= 0 && idom[b] >= 0) nkid[idom[b] + 1]++;
  for (int i = 0; i < n; i++) nkid[i + 1] += nkid[i];
  kids = ir_alloc((size_t)n * sizeof(int));
  if (!kids) FAIL(oom(c));
  for (int i = 0; i < n; i++) it[i] = nkid[i];
  for (int b = 1; b < n; b++)
    if (num[b] >= 0 && idom[b] >= 0) kids[it[idom[b]]++] = b;
  /* preorder walk of the dominator tree; lvl[] = undo level when entering the block */
  sp = 0;
  stk[sp] = 0, it[sp++] = nkid[0], lvl[0] = c->nundo;
  TRY(verify_block(c, r->blocks[0]));
  while (sp) {
    int b = stk[sp - 1];
    if (it[sp - 1] < nkid[b + 1]) {
      int k = kids[it[sp - 1]++];
      lvl[sp] = c->nundo;
      stk[sp] = k, it[sp++] = nkid[k];
      TRY(verify_block(c, r->blocks[k]));
    } else {
      unmark_to(c, lvl[--sp]);
    }
  }
  c->nodom++;
  for (int b = 0; b < n && st == TTREF_OK; b++) {
    if (num[b] >= 0) continue;
    size_t l = c->nundo;
    st = verify_block(c, r->blocks[b]);
    unmark_to(c, l);
  }
  c->nodom--;
fail:
  ir_free(kids, (size_t)n * sizeof(int));
  ir_free(preds, (size_t)(npreds ? npreds : 1) * sizeof(int));
  ir_free(lvl, (size_t)n * sizeof(size_t));
  ir_free(nkid, ((size_t)n + 1) * sizeof(int));
  ir_free(npred, ((size_t)n + 1) * sizeof(int));
  ir_free(it, szi);
  ir_free(stk, szi);
  ir_free(idom, szi);
  ir_free(num, szi);
  ir_free(rpo, szi);
  ir_free(ix, (size_t)n * sizeof *ix);
  return st;
}

static ttref_status verify_region(vctx *c, const ir_region *r)
{
  ttref_status st = TTREF_OK;
  size_t level = c->nundo;
  const ir_op *p = r->parent;
  if (r->nblocks > 1 && p && p->code != IR_OP_MAP_ELEMENTWISE)
    FAIL(irv_bad(c, p, "region #%d must have at most one block, but has %d", region_index(r), r->nblocks));
  if (r->nblocks == 1) TRY(verify_block(c, r->blocks[0]));
  else if (r->nblocks > 1) TRY(verify_cfg_region(c, r));
fail:
  unmark_to(c, level);
  return st;
}

static ttref_status verify_func(vctx *c, const ir_func *fn)
{
  ttref_status st = TTREF_OK;
  c->fn = fn;
  c->nseen = fn->nvalues;
  c->seen = fn->nvalues ? ir_calloc(fn->nvalues, 1) : NULL;
  if (fn->nvalues && !c->seen) FAIL(oom(c));
  for (int i = 0; i < fn->nres; i++)
    if (!fn->res_types || !fn->res_types[i]) FAIL(bad_func(c, fn, "malformed IR: NULL result type"));
  if (fn->body.nblocks > 0) {
    const ir_block *e = fn->body.blocks[0];
    if (e->nargs != fn->nargs)
      FAIL(bad_func(c, fn, "entry block has %d arguments, but the signature has %d", e->nargs, fn->nargs));
    for (int i = 0; i < fn->nargs; i++)
      if (!fn->args[i].type || e->args[i].type != fn->args[i].type)
        FAIL(bad_func(c, fn, "type of entry block argument #%d does not match the signature", i));
    TRY(verify_region(c, &fn->body));
  }
fail:
  ir_free(c->seen, c->nseen);
  c->seen = NULL;
  c->nseen = 0;
  return st;
}

/* FNV-1a of a NUL-terminated function name */
static uint32_t name_hash(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* true if a function before funcs[i] has its name: an open-addressing set of
 * function indices (slot = -1 when empty), so the check is linear, not
 * quadratic, in the number of functions */
static bool name_seen(const ir_module *m, int *set, size_t mask, int i)
{
  const char *name = m->funcs[i]->name;
  for (size_t k = name_hash(name) & mask;; k = (k + 1) & mask) {
    if (set[k] < 0) {
      set[k] = i;
      return false;
    }
    if (strcmp(m->funcs[set[k]]->name, name) == 0) return true;
  }
}

ttref_status ir_verify_module(const ir_module *m, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  vctx c;
  int *set = NULL;
  size_t cap = 16;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.err = err;
  if (!m) FAIL(ir_error_set(err, TTREF_E_USAGE, (ttref_loc){0}, "ir_verify_module: NULL module"));
  while (cap < 2 * (size_t)m->nfuncs) cap *= 2;
  set = ir_alloc(cap * sizeof *set);
  if (!set) FAIL(oom(&c));
  for (size_t k = 0; k < cap; k++) set[k] = -1;
  for (int i = 0; i < m->nfuncs; i++) {
    const ir_func *f = m->funcs[i];
    if (f->name && name_seen(m, set, cap - 1, i)) FAIL(bad_func(&c, f, "redefinition of symbol named '%s'", f->name));
    TRY(verify_func(&c, f));
  }
fail:
  ir_free(set, cap * sizeof *set);
  ir_free(c.undo, c.capundo * sizeof *c.undo);
  return st;
}
