/*
 * ir_parse_op.c: building one op: operands, results, successors, the generic
 * form ("name"(operands) {attrs} : (T) -> (R)), attribute normalisation and
 * the dispatch from a mnemonic to its custom format.
 */
#include "config.h"
#include "ir_parse_impl.h"
/* ---- op construction ----------------------------------------------------------- */

ttref_status irp_parse_use(P *p, use *u)
{
  char b[64];
  if (!is(p, IR_TK_PERCENT)) return TERR("expected SSA value, found %s", irp_tokdesc(p, b, sizeof b));
  u->p = p->tok.p;
  u->n = (uint32_t)p->tok.n;
  u->line = p->tok.line;
  u->col = p->tok.col;
  return irp_next(p);
}

/* uses -> [%v (',' %v)*] ; pushed on p->uses */
ttref_status irp_parse_uses(P *p, size_t *n)
{
  ttref_status st = TTREF_OK;
  *n = 0;
  while (is(p, IR_TK_PERCENT)) {
    use u;
    TRY(irp_parse_use(p, &u));
    PUSH(p->uses, use, u);
    (*n)++;
    if (!is(p, IR_TK_COMMA)) break;
    TRY(irp_next(p));
    if (!is(p, IR_TK_PERCENT)) FAIL(TERR("expected SSA value after ','"));
  }
fail:
  return st;
}

ttref_status irp_opnd(P *p, const use *u, const ir_type *t)
{
  ttref_status st = TTREF_OK;
  ir_value *v;
  TRY(irp_resolve(p, u, t, &v));
  PUSH(p->vals, ir_value *, v);
fail:
  return st;
}
ttref_status irp_result(P *p, const ir_type *t)
{
  ttref_status st = TTREF_OK;
  PUSH(p->types, const ir_type *, t);
fail:
  return st;
}

/* pointee of a pointer-like type: ptr<T> -> T; tensor<..x ptr<T>> -> tensor<..xT> */
const ir_type *irp_pointee_of(P *p, const ir_type *t)
{
  if (t->kind == IR_T_PTR) return t->elem;
  if (t->kind == IR_T_TENSOR && t->elem->kind == IR_T_PTR)
    return ir_type_tensor(p->m, t->elem->elem, t->rank, t->shape);
  return NULL;
}

ttref_status irp_type_at(P *p, int hint, const ir_type **t, int *line, int *col)
{
  *line = p->tok.line;
  *col = p->tok.col;
  return irp_parse_type(p, hint, t);
}

/* optional `fastmath<...>` / `overflow<...>` / rounding keyword on arith ops */
ttref_status irp_parse_arith_flags(P *p, bool allow_round)
{
  ttref_status st = TTREF_OK;
  for (;;) {
    if ((is_kw(p, "fastmath") || is_kw(p, "overflow")) && p->lx.cur < p->lx.end && *p->lx.cur == '<') {
      bool fm = is_kw(p, "fastmath");
      const char *s, *e;
      TRY(irp_skip_balanced(p, &s, &e));
      ir_attr a = {0};
      a.name = fm ? "fastmath" : "overflowFlags";
      a.kind = IR_A_OPAQUE;
      size_t n = (size_t)(e - s);
      const char *pre = fm ? "#arith.fastmath" : "#arith.overflow";
      char *str;
      NEW(str, strlen(pre) + n + 1);
      memcpy(str, pre, strlen(pre));
      memcpy(str + strlen(pre), s, n);
      a.s = str;
      a.slen = strlen(pre) + n;
      PUSH(p->attrs, ir_attr, a);
    } else if (allow_round && is(p, IR_TK_IDENT) && !is_kw(p, "loc")) {
      ir_attr a = {0};
      a.name = "roundingmode";
      a.kind = IR_A_ENUM;
      a.s = astr(p, p->tok.p, p->tok.n);
      a.slen = p->tok.n;
      if (!a.s) FAIL(irp_nomem(p));
      PUSH(p->attrs, ir_attr, a);
      TRY(irp_next(p));
    } else {
      break;
    }
  }
fail:
  return st;
}

/* oilist(`cacheModifier` `=` kw | `evictionPolicy` `=` kw) */
ttref_status irp_parse_cache_evict(P *p, ir_opcode code)
{
  ttref_status st = TTREF_OK;
  for (;;) {
    if (is_kw(p, "cacheModifier")) {
      TRY(irp_next(p));
      TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
      TRY(irp_push_enum_kw(p, code, "cache"));
    } else if (is_kw(p, "evictionPolicy")) {
      TRY(irp_next(p));
      TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
      TRY(irp_push_enum_kw(p, code, "evict"));
    } else if (is_kw(p, "reduce_kind") && code == IR_OP_DESC_STORE) {
      TRY(irp_next(p));
      TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
      TRY(irp_push_enum_kw(p, code, "reduce_kind"));
    } else {
      break;
    }
  }
fail:
  return st;
}

ttref_status irp_make_args(P *p, size_t mark, size_t n, ir_value **out, const char ***keys, size_t **klens)
{
  ttref_status st = TTREF_OK;
  ir_value *v = NULL;
  const char **k = NULL;
  size_t *kl = NULL;
  if (n) {
    NEW(v, sizeof(ir_value) * n);
    NEW(k, sizeof(char *) * n);
    NEW(kl, sizeof(size_t) * n);
  }
  for (size_t i = 0; i < n; i++) {
    argdecl *d = &VAT(p->lnames, argdecl, mark + i);
    v[i].type = d->type;
    v[i].loc = d->loc;
    v[i].index = (uint32_t)i;
    v[i].name = astr(p, d->name.p + 1, d->name.n - 1);
    if (!v[i].name) FAIL(irp_nomem(p));
    k[i] = d->name.p;
    kl[i] = d->name.n;
  }
  *out = v;
  *keys = k;
  *klens = kl;
fail:
  return st;
}

/* finish a region-holding custom op: implicit empty scf.yield when omitted */
ttref_status irp_ensure_yield(P *p, ir_region *r, const opb *b)
{
  ttref_status st = TTREF_OK;
  if (r->nblocks == 0) goto fail;
  ir_block *blk = r->blocks[r->nblocks - 1];
  if (blk->nops && (ir_op_flags(blk->ops[blk->nops - 1]->code) & IR_F_TERMINATOR)) goto fail;
  ir_op *y;
  NEW(y, sizeof *y);
  y->code = IR_OP_SCF_YIELD;
  y->line = b->line;
  y->col = b->col;
  y->parent = blk;
  ir_op **ops;
  NEW(ops, sizeof(ir_op *) * (size_t)(blk->nops + 1));
  if (blk->nops) memcpy(ops, blk->ops, sizeof(ir_op *) * (size_t)blk->nops);
  ops[blk->nops++] = y;
  blk->ops = ops;
fail:
  return st;
}

/* Parse the body of a custom-format op (after its mnemonic). */
ttref_status irp_parse_succ(P *p, opb *b, bool with_args)
{
  ttref_status st = TTREF_OK;
  if (!is(p, IR_TK_CARET)) FAIL(TERR("expected block label"));
  if (b->nsuccs == MAX_SUCCS) FAIL(TERR("too many successors"));
  ir_succ *s = &b->succs[b->nsuccs++];
  memset(s, 0, sizeof *s);
  int i = irp_sym_find(p, p->tok.p, p->tok.n);
  if (i >= 0 && p->syms[i].level == p->level && (p->syms[i].kind == SYM_LABEL || p->syms[i].kind == SYM_FWDLABEL)) {
    s->block = p->syms[i].ptr;
  } else {
    ir_block *blk;
    NEW(blk, sizeof *blk);
    blk->label = astr(p, p->tok.p + 1, p->tok.n - 1);
    if (!blk->label) FAIL(irp_nomem(p));
    blk->line = p->tok.line;
    blk->col = p->tok.col;
    if (irp_sym_push(p, p->tok.p, p->tok.n, SYM_FWDLABEL, blk)) FAIL(irp_nomem(p));
    s->block = blk;
  }
  TRY(irp_next(p));
  if (with_args && is(p, IR_TK_LPAREN)) {
    size_t um = p->uses.n, tm = p->tys.n, n, nt;
    TRY(irp_next(p));
    TRY(irp_parse_uses(p, &n));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    int l1 = p->tok.line, c1 = p->tok.col;
    TRY(irp_parse_types(p, HINT_NONE, &nt));
    TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
    if (nt != n) FAIL(irp_perr(p, l1, c1, "%zu types for %zu values", nt, n));
    s->nargs = (int)n;
    NEW(s->args, sizeof(ir_value *) * n);
    for (size_t k = 0; k < n; k++)
      TRY(irp_resolve(p, &VAT(p->uses, use, um + k), VAT(p->tys, const ir_type *, tm + k), &s->args[k]));
    p->uses.n = um;
    p->tys.n = tm;
  }
fail:
  return st;
}

/* generic -> STRING '(' uses ')' ['[' succs ']'] ['<' '{' dict '}' '>'] ['(' regions ')'] [dict] ':' fn-type */
static ttref_status parse_generic(P *p, opb *b)
{
  ttref_status st = TTREF_OK;
  ir_op *op = b->op;
  size_t um = p->uses.n, tm = p->tys.n, n, nin, nout, dummy;
  op->generic = true;
  TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
  TRY(irp_parse_uses(p, &n));
  TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
  if (is(p, IR_TK_LBRACKET)) {
    TRY(irp_next(p));
    while (!is(p, IR_TK_RBRACKET)) {
      TRY(irp_parse_succ(p, b, false));
      if (!is(p, IR_TK_RBRACKET)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(irp_next(p));
  }
  if (is(p, IR_TK_LT)) {
    TRY(irp_next(p));
    TRY(irp_expect(p, IR_TK_LBRACE, "'{'"));
    TRY(irp_parse_dict_entries(p, IR_TK_RBRACE, &dummy));
    TRY(irp_expect(p, IR_TK_GT, "'>'"));
  }
  if (is(p, IR_TK_LPAREN)) {
    TRY(irp_next(p));
    while (!is(p, IR_TK_RPAREN)) {
      if (b->nregs == MAX_REGIONS) FAIL(TERR("too many regions"));
      TRY(irp_parse_region(p, &b->regs[b->nregs++], NULL, 0, false, NULL, NULL));
      if (!is(p, IR_TK_RPAREN)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ')'"));
    }
    TRY(irp_next(p));
  }
  int want_regions = !(ir_op_flags(op->code) & IR_F_REGION)                      ? 0
                     : (op->code == IR_OP_SCF_IF || op->code == IR_OP_SCF_WHILE) ? 2
                                                                                 : 1;
  if (b->nregs != want_regions)
    FAIL(irp_perr(p, b->line, b->col, "'%s' needs %d region(s), found %d", ir_op_name(op->code), want_regions,
                  b->nregs));
  TRY(irp_parse_opt_attr_dict(p));
  TRY(irp_expect(p, IR_TK_COLON, "':'"));
  int l1 = p->tok.line, c1 = p->tok.col;
  TRY(irp_parse_fn_type(p, &nin, &nout));
  if (nin != n) FAIL(irp_perr(p, l1, c1, "%zu operand types for %zu operands", nin, n));
  /* successor operands come from the operand list (cf.br: all; cf.cond_br: segments) */
  size_t first_succ = n;
  if (b->nsuccs) {
    int64_t seg[3] = {(int64_t)n, 0, 0};
    if (op->code == IR_OP_CF_BR) {
      if (b->nsuccs != 1) FAIL(irp_perr(p, b->line, b->col, "cf.br needs one successor"));
      seg[0] = 0;
      seg[1] = (int64_t)n;
    } else if (op->code == IR_OP_CF_COND_BR) {
      const ir_attr *sg = NULL;
      for (size_t i = b->amark; i < p->attrs.n; i++)
        if (!strcmp(VAT(p->attrs, ir_attr, i).name, "operandSegmentSizes")) sg = &VAT(p->attrs, ir_attr, i);
      if (b->nsuccs != 2 || !sg || sg->nints != 3 || sg->ints[0] + sg->ints[1] + sg->ints[2] != (int64_t)n ||
          sg->ints[0] != 1)
        FAIL(irp_perr(p, b->line, b->col, "cf.cond_br needs two successors and operandSegmentSizes"));
      memcpy(seg, sg->ints, sizeof seg);
    } else {
      FAIL(irp_perr(p, b->line, b->col, "'%s' takes no successors", ir_op_name(op->code)));
    }
    first_succ = (size_t)seg[0];
    size_t k = first_succ;
    for (int s = 0; s < b->nsuccs; s++) {
      ir_succ *sc = &b->succs[s];
      sc->nargs = (int)seg[1 + s];
      if (sc->nargs) NEW(sc->args, sizeof(ir_value *) * (size_t)sc->nargs);
      for (int j = 0; j < sc->nargs; j++, k++)
        TRY(irp_resolve(p, &VAT(p->uses, use, um + k), VAT(p->tys, const ir_type *, tm + k), &sc->args[j]));
    }
  }
  for (size_t i = 0; i < first_succ; i++)
    TRY(irp_opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
  for (size_t i = 0; i < nout; i++) TRY(irp_result(p, VAT(p->tys, const ir_type *, tm + nin + i)));
  p->uses.n = um;
  p->tys.n = tm;
fail:
  return st;
}

/* Canonicalise attributes whatever the spelling: enums to ENUM with their
 * keyword, callee to op->callee, reshape flags to UNIT, segment sizes dropped. */
static ttref_status normalize_attrs(P *p, opb *b)
{
  ttref_status st = TTREF_OK;
  ir_op *op = b->op;
  size_t w = b->amark;
  for (size_t i = b->amark; i < p->attrs.n; i++) {
    ir_attr a = VAT(p->attrs, ir_attr, i);
    const enum_set *e = irp_enum_for(op->code, a.name);
    if (e && a.kind == IR_A_INT) {
      int k = irp_enum_index_of_val(e, a.i);
      if (k < 0) FAIL(irp_perr(p, b->line, b->col, "invalid value %lld for '%s'", (long long)a.i, a.name));
      a.kind = IR_A_ENUM;
      a.type = NULL;
      a.s = e->names[k];
      a.slen = strlen(a.s);
    } else if (e && a.kind != IR_A_ENUM) {
      FAIL(irp_perr(p, b->line, b->col, "attribute '%s' must be an integer", a.name));
    }
    if (op->code == IR_OP_CALL && !strcmp(a.name, "callee")) {
      if (a.kind != IR_A_SYMBOL) FAIL(irp_perr(p, b->line, b->col, "callee must be a symbol"));
      op->callee = a.s;
      PUSH(p->calls, ir_op *, op);
      continue;
    }
    if (op->code == IR_OP_RESHAPE && !strcmp(a.name, "allow_reorder") && a.kind == IR_A_BOOL) {
      if (!a.i) continue;
      a.kind = IR_A_UNIT;
      a.type = NULL;
    }
    if (!strcmp(a.name, "operandSegmentSizes") && op->code != IR_OP_DOT_SCALED) continue;
    VAT(p->attrs, ir_attr, w++) = a;
  }
  p->attrs.n = w;
  size_t n = w - b->amark;
  if (n > 1) qsort(&VAT(p->attrs, ir_attr, b->amark), n, sizeof(ir_attr), irp_attr_cmp);
  for (size_t i = b->amark + 1; i < w; i++)
    if (!strcmp(VAT(p->attrs, ir_attr, i - 1).name, VAT(p->attrs, ir_attr, i).name))
      FAIL(irp_perr(p, b->line, b->col, "duplicate attribute '%s'", VAT(p->attrs, ir_attr, i).name));
  if (op->code == IR_OP_CALL && !op->callee) FAIL(irp_perr(p, b->line, b->col, "tt.call without callee"));
fail:
  return st;
}

int irp_mn_slot(const char *s, size_t n) { return (int)(irp_hash_bytes(s, n) & 511); }

static bool lookup_op(P *p, const char *s, size_t n, ir_opcode *out)
{
  for (int i = irp_mn_slot(s, n);; i = (i + 1) & 511) {
    int c = p->mn[i];
    if (c < 0) return false;
    const char *m = ir_op_name((ir_opcode)c);
    if (strlen(m) == n && memcmp(m, s, n) == 0) {
      *out = (ir_opcode)c;
      return true;
    }
  }
}

/* op -> [res (',' res)* '='] (generic | IDENT custom) [loc] ; res -> %name [':' INT] */
ttref_status irp_parse_op(P *p, ir_op **out)
{
  ttref_status st = TTREF_OK;
  opb b;
  b.nregs = b.nsuccs = 0;
  b.line = p->tok.line;
  b.col = p->tok.col;
  b.vmark = p->vals.n;
  b.tmark = p->types.n;
  b.amark = p->attrs.n;
  b.umark = p->uses.n;
  ir_op *op;
  NEW(op, sizeof *op);
  b.op = op;
  op->line = b.line;
  op->col = b.col;
  /* results */
  size_t nnames = 0;
  int64_t group = 0;
  use gname = {0};
  if (is(p, IR_TK_PERCENT)) {
    for (;;) {
      use u;
      TRY(irp_parse_use(p, &u));
      if (memchr(u.p, '#', u.n)) FAIL(irp_perr(p, u.line, u.col, "result names cannot contain '#'"));
      if (is(p, IR_TK_COLON)) {
        TRY(irp_next(p));
        bool hx;
        if (!is(p, IR_TK_INT)) FAIL(TERR("expected result count"));
        TRY(irp_tok_int(p, &p->tok, &group, &hx));
        if (group < 1 || group > 65536 || nnames) FAIL(TERR("invalid result group"));
        TRY(irp_next(p));
        gname = u;
        nnames = 1;
        break;
      }
      PUSH(p->uses, use, u);
      nnames++;
      if (!is(p, IR_TK_COMMA)) break;
      TRY(irp_next(p));
    }
    if (group && is(p, IR_TK_COMMA)) FAIL(TERR("mixing result groups with other results is not supported"));
    TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
  }
  if (is(p, IR_TK_STRING)) {
    if (!lookup_op(p, p->tok.p + 1, p->tok.n - 2, &op->code) &&
        !(op->vdef = ir_vendor_find(p->reg, p->tok.p + 1, p->tok.n - 2)))
      FAIL(TERR("unknown op %.*s%s", (int)(p->tok.n > 60 ? 60 : p->tok.n), p->tok.p,
                memchr(p->tok.p, '.', p->tok.n)
                    ? " (not a built-in op; a vendor op needs its registry or plugin: --ops PLUGIN.so)"
                    : ""));
    if (op->vdef) op->code = IR_OP_VENDOR;
    TRY(irp_next(p));
    TRY(parse_generic(p, &b));
  } else if (is(p, IR_TK_IDENT)) {
    if (!lookup_op(p, p->tok.p, p->tok.n, &op->code))
      FAIL(TERR("unknown op '%.*s'%s", (int)(p->tok.n > 60 ? 60 : p->tok.n), p->tok.p,
                ir_vendor_find(p->reg, p->tok.p, p->tok.n) ? ": write vendor ops in generic form \"name\"(...)" : ""));
    TRY(irp_next(p));
    TRY(irp_parse_regular(p, &b));
  } else {
    char bb[64];
    FAIL(TERR("expected operation, found %s", irp_tokdesc(p, bb, sizeof bb)));
  }
  TRY(normalize_attrs(p, &b));
  TRY(irp_parse_opt_loc(p, &op->loc));
  /* build */
  size_t nres = p->types.n - b.tmark;
  size_t want = group ? (size_t)group : nnames;
  if (want != nres)
    FAIL(irp_perr(p, b.line, b.col, "'%s' has %zu result(s) but %zu name(s) are given", ir_op_name(op->code), nres,
                  want));
  op->nopnds = (int)(p->vals.n - b.vmark);
  if (op->nopnds) {
    NEW(op->opnds, sizeof(ir_value *) * (size_t)op->nopnds);
    memcpy(op->opnds, &VAT(p->vals, ir_value *, b.vmark), sizeof(ir_value *) * (size_t)op->nopnds);
  }
  p->vals.n = b.vmark;
  TRY(irp_take_attrs(p, b.amark, &op->attrs, &op->nattrs));
  op->nres = (int)nres;
  if (nres) {
    NEW(op->res, sizeof(ir_value) * nres);
    for (size_t i = 0; i < nres; i++) {
      ir_value *v = &op->res[i];
      v->type = VAT(p->types, const ir_type *, b.tmark + i);
      v->def = op;
      v->index = (uint32_t)i;
      const char *key;
      size_t klen;
      if (group) {
        char buf[32];
        int k = snprintf(buf, sizeof buf, "#%zu", i);
        char *kk;
        NEW(kk, gname.n + (size_t)k + 1);
        memcpy(kk, gname.p, gname.n);
        memcpy(kk + gname.n, buf, (size_t)k + 1);
        key = kk;
        klen = gname.n + (size_t)k;
        v->name = kk + 1;
      } else {
        use *u = &VAT(p->uses, use, b.umark + i);
        key = u->p;
        klen = u->n;
        v->name = astr(p, u->p + 1, u->n - 1);
        if (!v->name) FAIL(irp_nomem(p));
      }
      use *du = group ? &gname : &VAT(p->uses, use, b.umark + i);
      TRY(irp_define(p, key, klen, v, du->line, du->col));
    }
    if (group) {
      op->group = astr(p, gname.p + 1, gname.n - 1);
      if (!op->group) FAIL(irp_nomem(p));
    }
  }
  p->types.n = b.tmark;
  p->uses.n = b.umark;
  if (b.nregs) {
    op->nregions = b.nregs;
    NEW(op->regions, sizeof(ir_region) * (size_t)b.nregs);
    for (int r = 0; r < b.nregs; r++) {
      op->regions[r] = b.regs[r];
      op->regions[r].parent = op;
      op->regions[r].func = p->fn;
      for (int k = 0; k < op->regions[r].nblocks; k++) op->regions[r].blocks[k]->parent = &op->regions[r];
    }
  }
  if (b.nsuccs) {
    op->nsuccs = b.nsuccs;
    NEW(op->succs, sizeof(ir_succ) * (size_t)b.nsuccs);
    memcpy(op->succs, b.succs, sizeof(ir_succ) * (size_t)b.nsuccs);
  }
  *out = op;
fail:
  return st;
}

/* block args -> '(' %a ':' type [loc] (',' ...)* ')' */
