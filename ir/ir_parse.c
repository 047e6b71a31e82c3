/*
 * ir_parse.c: recursive-descent parser from TTIR text to the core IR, its
 * core: tokens, errors, the SSA name table (per-function hash table with
 * region scopes), blocks, regions, functions, the module and the entry points.
 * Types, locations, attributes and op formats live in ir_parse_*.c.
 */
#include "config.h"
#include "ir_parse_impl.h"
/* ---- errors --------------------------------------------------------------------- */
ttref_status irp_perr(P *p, int line, int col, const char *fmt, ...)
{
  char body[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  return ir_lex_error(&p->lx, TTREF_E_SYNTAX, line, col, p->err, "%s", body);
}

ttref_status irp_nomem(P *p)
{
  return ir_lex_error(&p->lx, TTREF_E_NOMEM, p->tok.line, p->tok.col, p->err, "out of memory");
}

const char *irp_tokdesc(P *p, char *buf, size_t n)
{
  if (p->tok.kind == IR_TK_EOF) return "end of file";
  size_t k = p->tok.n < 40 ? p->tok.n : 40;
  snprintf(buf, n, "'%.*s'", (int)k, p->tok.p);
  return buf;
}

/* ---- tokens ------------------------------------------------------------------------ */
ttref_status irp_next(P *p)
{
  if (p->tok.p) p->last_end = p->tok.p + p->tok.n; /* no token before the first */
  return ir_lex_next(&p->lx, &p->tok, p->err);
}

ttref_status irp_expect(P *p, ir_tok_kind k, const char *what)
{
  char b[64];
  if (p->tok.kind != k) return TERR("expected %s, found %s", what, irp_tokdesc(p, b, sizeof b));
  return irp_next(p);
}
ttref_status irp_expect_kw(P *p, const char *kw)
{
  char b[64];
  if (!is_kw(p, kw)) return TERR("expected '%s', found %s", kw, irp_tokdesc(p, b, sizeof b));
  return irp_next(p);
}
/* consume k if present */
ttref_status irp_accept(P *p, ir_tok_kind k, bool *got)
{
  *got = p->tok.kind == k;
  return *got ? irp_next(p) : TTREF_OK;
}

ttref_status irp_depth_in(P *p)
{
  if (++p->depth > MAX_DEPTH) return TERR("nesting too deep (more than %d levels)", MAX_DEPTH);
  return TTREF_OK;
}

/* ---- hashing ----------------------------------------------------------------- */
uint32_t irp_hash_bytes(const char *s, size_t n)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* Hash of a symbol or alias name: the prefix's hash plus the value of up to 9
 * trailing digits, so that #loc41, #loc42, ... take neighbouring slots and
 * the lookups of a function's ops, which go up in order, stay in cache. */
static uint32_t hash_name(const char *s, size_t n)
{
  size_t k = n;
  uint32_t v = 0;
  while (k > 0 && n - k < 9 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
  for (size_t i = k; i < n; i++) v = v * 10 + (uint32_t)(s[i] - '0');
  return irp_hash_bytes(s, k) + v;
}

/* smap: returns slot index of key (or of the empty slot where it would go) */
size_t irp_smap_probe(P *p, smap *m, const char *k, size_t n, smap_key_fn kf)
{
  uint32_t h = hash_name(k, n);
  size_t mask = m->cap - 1, i = h & mask;
  for (;;) {
    const sslot *e = &m->slot[i];
    if (e->idx < 0) {
      m->slot[i].hash = h; /* ready for an insert at i */
      return i;
    }
    if (e->hash == h) {
      size_t kl;
      const char *ks = kf(p, e->idx, &kl);
      if (kl == n && memcmp(ks, k, n) == 0) return i;
    }
    i = (i + 1) & mask;
  }
}
ttref_status irp_smap_grow(smap *m)
{
  if ((m->n + 1) * 2 <= m->cap) return TTREF_OK;
  size_t nc = m->cap ? m->cap * 2 : 64;
  sslot *ns = ir_alloc(nc * sizeof *ns);
  if (!ns) return TTREF_E_NOMEM;
  for (size_t i = 0; i < nc; i++) ns[i].idx = -1;
  smap old = *m;
  m->slot = ns;
  m->cap = nc;
  for (size_t i = 0; i < old.cap; i++)
    if (old.slot[i].idx >= 0) {
      size_t j = old.slot[i].hash & (nc - 1);
      while (ns[j].idx >= 0) j = (j + 1) & (nc - 1);
      ns[j] = old.slot[i];
    }
  ir_free(old.slot, old.cap * sizeof *old.slot);
  return TTREF_OK;
}
const char *irp_akey(P *p, int i, size_t *len)
{
  alias_ent *e = &VAT(p->aents, alias_ent, i);
  *len = e->len;
  return e->name;
}
static const char *fkey(P *p, int i, size_t *len)
{
  ir_func *f = VAT(p->funcs, ir_func *, i);
  *len = strlen(f->name);
  return f->name;
}

/* ---- SSA symbol table -------------------------------------------------------------- */
int irp_sym_find(P *p, const char *k, size_t n)
{
  if (!p->nbuckets) return -1;
  uint32_t h = irp_hash_bytes(k, n);
  for (int i = p->buckets[h & (p->nbuckets - 1)]; i >= 0; i = p->syms[i].next)
    if (p->syms[i].hash == h && p->syms[i].len == n && memcmp(p->syms[i].key, k, n) == 0) return i;
  return -1;
}

ttref_status irp_sym_push(P *p, const char *k, size_t n, int kind, void *ptr)
{
  if (p->nsyms + 1 > p->capsyms) {
    size_t nc = p->capsyms ? p->capsyms * 2 : 256;
    sym *ns = ir_realloc(p->syms, p->capsyms * sizeof(sym), nc * sizeof(sym));
    if (!ns) return TTREF_E_NOMEM;
    p->syms = ns;
    p->capsyms = nc;
  }
  if (p->nsyms + 1 > p->nbuckets / 2) {
    size_t nb = p->nbuckets ? p->nbuckets * 2 : 512;
    int *b = ir_alloc(nb * sizeof(int));
    if (!b) return TTREF_E_NOMEM;
    ir_free(p->buckets, p->nbuckets * sizeof(int));
    p->buckets = b;
    p->nbuckets = nb;
    for (size_t i = 0; i < nb; i++) b[i] = -1;
    for (size_t i = 0; i < p->nsyms; i++) { /* in index order: later entries end up first */
      sym *s = &p->syms[i];
      s->next = b[s->hash & (nb - 1)];
      b[s->hash & (nb - 1)] = (int)i;
    }
  }
  sym *s = &p->syms[p->nsyms];
  s->key = k;
  s->len = (uint32_t)n;
  s->hash = irp_hash_bytes(k, n);
  s->level = p->level;
  s->kind = kind;
  s->ptr = ptr;
  s->next = p->buckets[s->hash & (p->nbuckets - 1)];
  p->buckets[s->hash & (p->nbuckets - 1)] = (int)p->nsyms;
  p->nsyms++;
  return TTREF_OK;
}

/* Close a region scope: undefined labels are errors; forward value
 * references move to the enclosing scope (or are errors at function level). */
static ttref_status scope_pop(P *p, size_t mark)
{
  ttref_status st = TTREF_OK;
  for (size_t i = mark; i < p->nsyms; i++) {
    sym *s = &p->syms[i];
    if (s->kind == SYM_FWDLABEL) {
      ir_block *b = s->ptr;
      FAIL(irp_perr(p, b->line, b->col, "use of undefined block '^%s'", b->label));
    }
    if (s->kind == SYM_FWD && p->level <= 1) {
      fwdref *f = s->ptr;
      FAIL(irp_perr(p, f->line, f->col, "use of undefined value '%%%s'", f->v.name));
    }
  }
  for (size_t i = p->nsyms; i-- > mark;) {
    sym *s = &p->syms[i];
    p->buckets[s->hash & (p->nbuckets - 1)] = s->next;
  }
  size_t w = mark, end = p->nsyms;
  p->level--;
  for (size_t i = mark; i < end; i++) {
    if (p->syms[i].kind != SYM_FWD) continue;
    sym s = p->syms[i];
    s.level = p->level;
    s.next = p->buckets[s.hash & (p->nbuckets - 1)];
    p->syms[w] = s;
    p->buckets[s.hash & (p->nbuckets - 1)] = (int)w;
    w++;
  }
  p->nsyms = w;
fail:
  return st;
}

static ttref_status type_mismatch(P *p, int line, int col, const char *name, const ir_type *have, const ir_type *want)
{
  char a[256], b[256];
  ir_type_str(have, a, sizeof a);
  ir_type_str(want, b, sizeof b);
  return irp_perr(p, line, col, "'%%%s' has type %s but is used as %s", name, a, b);
}

/* Look up a use; creates a forward placeholder when the name is not yet defined. */
ttref_status irp_resolve(P *p, const use *u, const ir_type *t, ir_value **out)
{
  ttref_status st = TTREF_OK;
  int i = irp_sym_find(p, u->p, u->n);
  if (i >= 0 && p->syms[i].kind == SYM_VAL) {
    ir_value *v = p->syms[i].ptr;
    if (t && v->type != t) FAIL(type_mismatch(p, u->line, u->col, v->name, v->type, t));
    *out = v;
  } else if (i >= 0 && p->syms[i].kind == SYM_FWD) {
    fwdref *f = p->syms[i].ptr;
    if (t && !f->v.type) f->v.type = t;
    else if (t && f->v.type != t) FAIL(type_mismatch(p, u->line, u->col, f->v.name, f->v.type, t));
    *out = &f->v;
  } else {
    fwdref *f;
    NEW(f, sizeof *f);
    f->v.id = FWD_ID;
    f->v.type = t;
    f->v.name = astr(p, u->p + 1, u->n - 1);
    f->line = u->line;
    f->col = u->col;
    if (!f->v.name) FAIL(irp_nomem(p));
    if (irp_sym_push(p, u->p, u->n, SYM_FWD, f)) FAIL(irp_nomem(p));
    p->nfwd++;
    p->had_fwd = 1;
    *out = &f->v;
  }
fail:
  return st;
}

/* Define key (e.g. "%x", "%x#1") as v. */
ttref_status irp_define(P *p, const char *k, size_t n, ir_value *v, int line, int col)
{
  ttref_status st = TTREF_OK;
  int i = irp_sym_find(p, k, n);
  v->id = p->next_id++;
  if (i >= 0 && p->syms[i].kind == SYM_VAL) FAIL(irp_perr(p, line, col, "redefinition of value '%.*s'", (int)n, k));
  if (i >= 0 && p->syms[i].kind == SYM_FWD) {
    fwdref *f = p->syms[i].ptr;
    if (p->syms[i].level != p->level)
      FAIL(irp_perr(p, f->line, f->col, "value '%.*s' is used outside the region that defines it", (int)n, k));
    if (f->v.type && f->v.type != v->type) FAIL(type_mismatch(p, f->line, f->col, v->name, v->type, f->v.type));
    f->real = v;
    p->syms[i].kind = SYM_VAL;
    p->syms[i].ptr = v;
    p->nfwd--;
  } else {
    if (irp_sym_push(p, k, n, SYM_VAL, v)) FAIL(irp_nomem(p));
  }
fail:
  return st;
}

/* ---- numbers ---------------------------------------------------------------------- */
ttref_status irp_tok_int(P *p, const ir_token *t, int64_t *v, bool *hex)
{
  char buf[80];
  if (t->n >= sizeof buf) return irp_perr(p, t->line, t->col, "integer literal too long");
  memcpy(buf, t->p, t->n);
  buf[t->n] = 0;
  bool neg = buf[0] == '-';
  const char *s = buf + neg;
  errno = 0;
  *hex = s[0] == '0' && s[1] == 'x';
  if (*hex) {
    if (strlen(s) > 18) return irp_perr(p, t->line, t->col, "hexadecimal literal wider than 64 bits");
    uint64_t u = strtoull(s, NULL, 16);
    *v = neg ? -(int64_t)u : (int64_t)u;
    return TTREF_OK;
  }
  *v = strtoll(buf, NULL, 10);
  if (errno == ERANGE) {
    /* unsigned 64-bit values are legal spellings of i64 bit patterns */
    errno = 0;
    uint64_t u = neg ? 0 : strtoull(buf, NULL, 10);
    if (neg || errno == ERANGE) return irp_perr(p, t->line, t->col, "integer literal out of range");
    *v = (int64_t)u;
  }
  return TTREF_OK;
}

ttref_status irp_tok_float(P *p, const ir_token *t, double *v)
{
  char buf[400];
  if (t->n >= sizeof buf) return irp_perr(p, t->line, t->col, "float literal too long");
  memcpy(buf, t->p, t->n);
  buf[t->n] = 0;
  *v = strtod(buf, NULL);
  if (isinf(*v)) return irp_perr(p, t->line, t->col, "float literal out of range");
  return TTREF_OK;
}

/* Fit an integer to width bits: i1 -> 0/1, else sign-extended. */
ttref_status irp_fit_int(P *p, int line, int col, int64_t v, int bits, int64_t *out)
{
  if (bits >= 64) {
    *out = v;
    return TTREF_OK;
  }
  if (!ir_int_fits(v, bits))
    return irp_perr(p, line, col, "integer value %lld does not fit in i%d", (long long)v, bits);
  uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & mask;
  if (bits == 1) *out = (int64_t)u;
  else *out = (u >> (bits - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
  return TTREF_OK;
}

static ttref_status parse_block_args(P *p, ir_block *blk)
{
  ttref_status st = TTREF_OK;
  size_t lm = p->lnames.n;
  TRY(irp_next(p)); /* '(' */
  while (!is(p, IR_TK_RPAREN)) {
    argdecl d = {0};
    TRY(irp_parse_use(p, &d.name));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &d.type));
    TRY(irp_parse_opt_loc(p, &d.loc));
    PUSH(p->lnames, argdecl, d);
    if (!is(p, IR_TK_RPAREN)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ')'"));
  }
  TRY(irp_next(p));
  size_t n = p->lnames.n - lm;
  ir_value *args;
  const char **keys;
  size_t *klens;
  TRY(irp_make_args(p, lm, n, &args, &keys, &klens));
  for (size_t i = 0; i < n; i++) {
    args[i].block = blk;
    argdecl *d = &VAT(p->lnames, argdecl, lm + i);
    TRY(irp_define(p, keys[i], klens[i], &args[i], d->name.line, d->name.col));
  }
  blk->args = args;
  blk->nargs = (int)n;
  p->lnames.n = lm;
fail:
  return st;
}

static ttref_status finish_block(P *p, ir_block *blk, size_t omark)
{
  ttref_status st = TTREF_OK;
  size_t n = p->ops.n - omark;
  blk->nops = (int)n;
  if (n) {
    NEW(blk->ops, sizeof(ir_op *) * n);
    memcpy(blk->ops, &VAT(p->ops, ir_op *, omark), sizeof(ir_op *) * n);
    for (size_t i = 0; i < n; i++) blk->ops[i]->parent = blk;
  }
  p->ops.n = omark;
fail:
  return st;
}

/* region -> '{' [entry-ops] (label-def ops)* '}' ; label-def -> ^id [block-args] ':' */
ttref_status irp_parse_region(P *p, ir_region *r, ir_value *args, int nargs, bool entry_given, const char *const *keys,
                              const size_t *klens)
{
  ttref_status st = TTREF_OK;
  memset(r, 0, sizeof *r);
  r->func = p->fn;
  TRY(irp_expect(p, IR_TK_LBRACE, "'{'"));
  TRY(irp_depth_in(p));
  p->level++;
  size_t smark = p->nsyms, bmark = p->blocks.n, omark = p->ops.n;
  ir_block *cur = NULL;
  if (entry_given) {
    NEW(cur, sizeof *cur);
    cur->args = args;
    cur->nargs = nargs;
    cur->line = p->tok.line;
    cur->col = p->tok.col;
    for (int i = 0; i < nargs; i++) {
      args[i].block = cur;
      TRY(irp_define(p, keys[i], klens[i], &args[i], cur->line, cur->col));
    }
    PUSH(p->blocks, ir_block *, cur);
  }
  while (!is(p, IR_TK_RBRACE)) {
    if (is(p, IR_TK_EOF)) FAIL(TERR("unterminated region: expected '}' before end of file"));
    if (is(p, IR_TK_CARET)) {
      if (entry_given && p->blocks.n - bmark == 1 && cur->nops == 0 && p->ops.n == omark)
        FAIL(TERR("the entry block's arguments are already defined by the op"));
      if (cur) TRY(finish_block(p, cur, omark));
      int i = irp_sym_find(p, p->tok.p, p->tok.n);
      ir_block *blk = NULL;
      if (i >= 0 && p->syms[i].level == p->level && p->syms[i].kind == SYM_FWDLABEL) {
        blk = p->syms[i].ptr;
        p->syms[i].kind = SYM_LABEL;
      } else if (i >= 0 && p->syms[i].level == p->level && p->syms[i].kind == SYM_LABEL) {
        FAIL(TERR("redefinition of block '%.*s'", (int)p->tok.n, p->tok.p));
      } else {
        NEW(blk, sizeof *blk);
        blk->label = astr(p, p->tok.p + 1, p->tok.n - 1);
        if (!blk->label) FAIL(irp_nomem(p));
        if (irp_sym_push(p, p->tok.p, p->tok.n, SYM_LABEL, blk)) FAIL(irp_nomem(p));
      }
      blk->line = p->tok.line;
      blk->col = p->tok.col;
      TRY(irp_next(p));
      if (is(p, IR_TK_LPAREN)) TRY(parse_block_args(p, blk));
      TRY(irp_expect(p, IR_TK_COLON, "':' after block label"));
      cur = blk;
      PUSH(p->blocks, ir_block *, cur);
      continue;
    }
    if (!cur) {
      NEW(cur, sizeof *cur);
      cur->line = p->tok.line;
      cur->col = p->tok.col;
      PUSH(p->blocks, ir_block *, cur);
    }
    ir_op *op;
    TRY(irp_parse_op(p, &op));
    PUSH(p->ops, ir_op *, op);
  }
  if (cur) TRY(finish_block(p, cur, omark));
  r->nblocks = (int)(p->blocks.n - bmark);
  if (r->nblocks) {
    NEW(r->blocks, sizeof(ir_block *) * (size_t)r->nblocks);
    memcpy(r->blocks, &VAT(p->blocks, ir_block *, bmark), sizeof(ir_block *) * (size_t)r->nblocks);
  }
  p->blocks.n = bmark;
  for (int i = 0; i < r->nblocks; i++) r->blocks[i]->parent = r;
  TRY(scope_pop(p, smark));
  p->depth--;
  TRY(irp_next(p)); /* '}' */
fail:
  return st;
}

/* Replace forward-reference placeholders by their definitions. */
static void patch_region(ir_region *r);
static void patch_vals(ir_value **v, int n)
{
  for (int i = 0; i < n; i++)
    if (v[i] && v[i]->id == FWD_ID) v[i] = ((fwdref *)v[i])->real;
}
static void patch_region(ir_region *r)
{
  for (int b = 0; b < r->nblocks; b++) {
    ir_block *blk = r->blocks[b];
    for (int i = 0; i < blk->nops; i++) {
      ir_op *op = blk->ops[i];
      patch_vals(op->opnds, op->nopnds);
      for (int s = 0; s < op->nsuccs; s++) patch_vals(op->succs[s].args, op->succs[s].nargs);
      for (int k = 0; k < op->nregions; k++) patch_region(&op->regions[k]);
    }
  }
}

/* func -> "tt.func" [vis] @name '(' [arg (',' arg)*] ')' ['->' results] ["attributes" dict] region [loc]
 * arg -> %name ':' type [dict] [loc] */
static ttref_status parse_func(P *p)
{
  ttref_status st = TTREF_OK;
  ir_func *f;
  NEW(f, sizeof *f);
  f->line = p->tok.line;
  f->col = p->tok.col;
  f->is_public = true;
  TRY(irp_next(p));
  if (is_kw(p, "public") || is_kw(p, "private") || is_kw(p, "nested")) {
    f->is_public = is_kw(p, "public");
    TRY(irp_next(p));
  }
  if (!is(p, IR_TK_AT)) FAIL(TERR("expected function name"));
  int nl = p->tok.line, nc = p->tok.col;
  if (p->tok.p[1] == '"') {
    char *s;
    NEW(s, p->tok.n);
    s[ir_lex_unescape(p->tok.p + 2, p->tok.n - 3, s)] = 0;
    f->name = s;
  } else {
    f->name = astr(p, p->tok.p + 1, p->tok.n - 1);
    if (!f->name) FAIL(irp_nomem(p));
  }
  TRY(irp_next(p));
  p->fn = f;
  p->next_id = 0;
  p->nfwd = 0;
  p->had_fwd = 0;
  p->level = 0;
  TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
  size_t lm = p->lnames.n, am = p->attrs.n;
  while (!is(p, IR_TK_RPAREN)) {
    argdecl d = {0};
    if (!is(p, IR_TK_PERCENT)) FAIL(TERR("expected argument name (declarations without a body are not supported)"));
    TRY(irp_parse_use(p, &d.name));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &d.type));
    size_t m0 = p->attrs.n;
    TRY(irp_parse_opt_attr_dict(p));
    (void)m0;
    TRY(irp_parse_opt_loc(p, &d.loc));
    PUSH(p->lnames, argdecl, d);
    PUSH(p->ints, int64_t, (int64_t)(p->attrs.n - am));
    if (!is(p, IR_TK_RPAREN)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ')'"));
  }
  TRY(irp_next(p));
  size_t nargs = p->lnames.n - lm;
  ir_value *args;
  const char **keys;
  size_t *klens;
  TRY(irp_make_args(p, lm, nargs, &args, &keys, &klens));
  f->nargs = (int)nargs;
  if (nargs) {
    NEW(f->arg_attrs, sizeof(ir_attr *) * nargs);
    NEW(f->arg_nattrs, sizeof(int) * nargs);
    size_t prev = 0, ibase = p->ints.n - nargs;
    for (size_t i = 0; i < nargs; i++) {
      size_t end = (size_t)VAT(p->ints, int64_t, ibase + i);
      f->arg_nattrs[i] = (int)(end - prev);
      if (end > prev) {
        NEW(f->arg_attrs[i], sizeof(ir_attr) * (end - prev));
        memcpy(f->arg_attrs[i], &VAT(p->attrs, ir_attr, am + prev), sizeof(ir_attr) * (end - prev));
      }
      prev = end;
    }
    p->ints.n = ibase;
  }
  p->attrs.n = am;
  p->lnames.n = lm;
  if (is(p, IR_TK_ARROW)) {
    size_t tm = p->tys.n, nt = 0;
    bool got;
    TRY(irp_next(p));
    TRY(irp_accept(p, IR_TK_LPAREN, &got));
    if (got) {
      while (!is(p, IR_TK_RPAREN)) {
        const ir_type *t;
        TRY(irp_parse_type(p, HINT_NONE, &t));
        PUSH(p->tys, const ir_type *, t);
        nt++;
        size_t m0 = p->attrs.n;
        TRY(irp_parse_opt_attr_dict(p)); /* result attributes: accepted, not kept */
        p->attrs.n = m0;
        if (!is(p, IR_TK_RPAREN)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ')'"));
      }
      TRY(irp_next(p));
    } else {
      const ir_type *t;
      TRY(irp_parse_type(p, HINT_NONE, &t));
      PUSH(p->tys, const ir_type *, t);
      nt = 1;
    }
    f->nres = (int)nt;
    if (nt) {
      NEW(f->res_types, sizeof(ir_type *) * nt);
      memcpy(f->res_types, &VAT(p->tys, const ir_type *, tm), sizeof(ir_type *) * nt);
    }
    p->tys.n = tm;
  }
  if (is_kw(p, "attributes")) {
    TRY(irp_next(p));
    if (!is(p, IR_TK_LBRACE)) FAIL(TERR("expected '{'"));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_take_attrs(p, am, &f->attrs, &f->nattrs));
  }
  TRY(irp_parse_region(p, &f->body, args, (int)nargs, true, keys, klens));
  f->body.func = f;
  f->args = f->body.blocks[0]->args;
  TRY(irp_parse_opt_loc(p, &f->loc));
  f->nvalues = p->next_id;
  if (p->had_fwd) {
    /* all placeholders were resolved by the end of the function scope */
    patch_region(&f->body);
  }
  /* register */
  if (irp_smap_grow(&p->fmap)) FAIL(irp_nomem(p));
  size_t s = irp_smap_probe(p, &p->fmap, f->name, strlen(f->name), fkey);
  if (p->fmap.slot[s].idx >= 0) FAIL(irp_perr(p, nl, nc, "redefinition of function '@%s'", f->name));
  PUSH(p->funcs, ir_func *, f);
  p->fmap.slot[s].idx = (int)p->funcs.n - 1;
  p->fmap.n++;
  p->fn = NULL;
fail:
  return st;
}

/* module -> "module" [@name] ["attributes" dict] '{' func* '}' [loc] */
static ttref_status parse_module(P *p)
{
  ttref_status st = TTREF_OK;
  TRY(irp_next(p));
  if (is(p, IR_TK_AT)) TRY(irp_next(p));
  if (is_kw(p, "attributes")) {
    size_t am = p->attrs.n;
    TRY(irp_next(p));
    if (!is(p, IR_TK_LBRACE)) FAIL(TERR("expected '{'"));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_take_attrs(p, am, &p->m->attrs, &p->m->nattrs));
  }
  TRY(irp_expect(p, IR_TK_LBRACE, "'{'"));
  while (!is(p, IR_TK_RBRACE)) {
    if (is_kw(p, "tt.func")) TRY(parse_func(p));
    else if (is(p, IR_TK_EOF)) FAIL(TERR("unterminated module: expected '}' before end of file"));
    else {
      char b[64];
      FAIL(TERR("expected 'tt.func' or '}', found %s", irp_tokdesc(p, b, sizeof b)));
    }
  }
  TRY(irp_next(p));
  TRY(irp_parse_opt_loc(p, &p->m->loc));
fail:
  return st;
}

/* alias-def -> HASH '=' (loc | attr) */
static ttref_status parse_file(P *p)
{
  ttref_status st = TTREF_OK;
  bool seen_module = false;
  TRY(irp_next(p));
  while (!is(p, IR_TK_EOF)) {
    if (is(p, IR_TK_HASH)) {
      TRY(irp_parse_alias_def(p));
    } else if (is_kw(p, "module")) {
      if (seen_module || p->funcs.n) FAIL(TERR("only one module per file is supported"));
      seen_module = true;
      TRY(parse_module(p));
    } else if (is_kw(p, "tt.func") && !seen_module) {
      TRY(parse_func(p));
    } else {
      char b[64];
      FAIL(TERR("expected 'module' or an alias definition, found %s", irp_tokdesc(p, b, sizeof b)));
    }
  }
  if (!seen_module && !p->funcs.n) FAIL(TERR("no module in input"));
  TRY(irp_check_aliases(p));
  /* functions and calls */
  ir_module *m = p->m;
  m->nfuncs = (int)p->funcs.n;
  if (m->nfuncs) {
    NEW(m->funcs, sizeof(ir_func *) * p->funcs.n);
    memcpy(m->funcs, p->funcs.d, sizeof(ir_func *) * p->funcs.n);
  }
  for (size_t i = 0; i < p->calls.n; i++) {
    ir_op *op = VAT(p->calls, ir_op *, i);
    size_t s = irp_smap_probe(p, &p->fmap, op->callee, strlen(op->callee), fkey);
    if (p->fmap.slot[s].idx < 0) FAIL(irp_perr(p, op->line, op->col, "call to undefined function '@%s'", op->callee));
    op->callee_fn = VAT(p->funcs, ir_func *, p->fmap.slot[s].idx);
  }
  m->naliases = (int)p->aliases.n;
  if (m->naliases) {
    NEW(m->aliases, sizeof(ir_alias) * p->aliases.n);
    memcpy(m->aliases, p->aliases.d, sizeof(ir_alias) * p->aliases.n);
  }
fail:
  return st;
}

ttref_status ir_parse_string(const char *name, const char *text, size_t len, ir_module **out, ttref_error *err)
{
  return ir_parse_string_ex(name, text, len, ir_vendor_process(), out, err);
}

ttref_status ir_parse_string_ex(const char *name, const char *text, size_t len, const ttref_registry *reg,
                                ir_module **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  P *p = NULL;
  *out = NULL;
  if (!name) name = "<input>";
  if (len > IR_PARSE_MAX_BYTES) {
    ttref_loc l = {name, 0, 0};
    return ir_error_set(err, TTREF_E_LIMIT, l, "%s: input larger than 1 GiB", name);
  }
  p = ir_calloc(1, sizeof *p);
  if (!p) {
    ttref_loc l = {name, 0, 0};
    return ir_error_set(err, TTREF_E_NOMEM, l, "out of memory");
  }
  ir_lex_init(&p->lx, name, text, len);
  p->err = err;
  p->reg = reg;
  p->m = ir_module_new(name);
  if (!p->m) FAIL(irp_nomem(p));
  p->a = p->m->arena;
  p->t_i1 = ir_type_scalar(p->m, IR_S_I1);
  p->t_i32 = ir_type_scalar(p->m, IR_S_I32);
  p->t_i64 = ir_type_scalar(p->m, IR_S_I64);
  if (!p->t_i1 || !p->t_i32 || !p->t_i64) FAIL(irp_nomem(p));
  for (int i = 0; i < 512; i++) p->mn[i] = -1;
  for (int i = 0; i < IR_OP_COUNT; i++) {
    if (ir_op_flags((ir_opcode)i) & IR_F_VENDOR) continue; /* named by the registry, not the list */
    const char *s = ir_op_name((ir_opcode)i);
    int k = irp_mn_slot(s, strlen(s));
    while (p->mn[k] >= 0) k = (k + 1) & 511;
    p->mn[k] = (short)i;
  }
  TRY(parse_file(p));
  *out = p->m;
  p->m = NULL;
fail:
  if (p) {
    ir_module_free(p->m);
    ir_free(p->syms, p->capsyms * sizeof(sym));
    ir_free(p->buckets, p->nbuckets * sizeof(int));
    vec_free(&p->uses, sizeof(use));
    vec_free(&p->vals, sizeof(ir_value *));
    vec_free(&p->types, sizeof(ir_type *));
    vec_free(&p->tys, sizeof(ir_type *));
    vec_free(&p->attrs, sizeof(ir_attr));
    vec_free(&p->ops, sizeof(ir_op *));
    vec_free(&p->blocks, sizeof(ir_block *));
    vec_free(&p->locs, sizeof(ir_loc *));
    vec_free(&p->svals, sizeof(ir_scalar_val));
    vec_free(&p->ints, sizeof(int64_t));
    vec_free(&p->flags, sizeof(int));
    vec_free(&p->lnames, sizeof(argdecl));
    vec_free(&p->lc, sizeof(int));
    vec_free(&p->aents, sizeof(alias_ent));
    vec_free(&p->aliases, sizeof(ir_alias));
    vec_free(&p->arefs, sizeof(attr_ref));
    vec_free(&p->funcs, sizeof(ir_func *));
    vec_free(&p->calls, sizeof(ir_op *));
    ir_free(p->amap.slot, p->amap.cap * sizeof(sslot));
    ir_free(p->fmap.slot, p->fmap.cap * sizeof(sslot));
    ir_free(p, sizeof *p);
  }
  return st;
}

ttref_status ir_parse_file(const char *path, ir_module **out, ttref_error *err)
{
  return ir_parse_file_ex(path, ir_vendor_process(), out, err);
}

ttref_status ir_parse_file_ex(const char *path, const ttref_registry *reg, ir_module **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  FILE *f = NULL;
  char *buf = NULL;
  size_t cap = 0, len = 0;
  ttref_loc l = {path, 0, 0};
  *out = NULL;
  f = fopen(path, "rb");
  if (!f) FAIL(ir_error_set(err, TTREF_E_IO, l, "%s: cannot open: %s", path, strerror(errno)));
  for (;;) {
    if (len == cap) {
      size_t nc = cap ? cap * 2 : 1 << 16;
      if (cap > IR_PARSE_MAX_BYTES) FAIL(ir_error_set(err, TTREF_E_LIMIT, l, "%s: input larger than 1 GiB", path));
      char *nb = ir_realloc(buf, cap, nc);
      if (!nb) FAIL(ir_error_set(err, TTREF_E_NOMEM, l, "%s: out of memory", path));
      buf = nb;
      cap = nc;
    }
    size_t k = fread(buf + len, 1, cap - len, f);
    len += k;
    if (k == 0) break;
  }
  if (ferror(f)) FAIL(ir_error_set(err, TTREF_E_IO, l, "%s: read error", path));
  if (len > IR_PARSE_MAX_BYTES) FAIL(ir_error_set(err, TTREF_E_LIMIT, l, "%s: input larger than 1 GiB", path));
  TRY(ir_parse_string_ex(path, buf, len, reg, out, err));
fail:
  if (f) fclose(f);
  ir_free(buf, cap);
  return st;
}
