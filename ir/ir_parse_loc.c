/*
 * ir_parse_loc.c: source locations (loc(...), fused, callsite, name) and
 * #loc aliases: definitions, references, and the cycle check after the whole
 * file is read.
 */
#include "config.h"
#include "ir_parse_impl.h"
/* ---- locations ----------------------------------------------------------------- */
static ttref_status alias_lookup(P *p, const char *name, size_t n, int line, int col, alias_ent **out)
{
  ttref_status st = TTREF_OK;
  if (irp_smap_grow(&p->amap)) FAIL(irp_nomem(p));
  size_t s = irp_smap_probe(p, &p->amap, name, n, irp_akey);
  if (p->amap.slot[s].idx >= 0) {
    *out = &VAT(p->aents, alias_ent, p->amap.slot[s].idx);
  } else {
    alias_ent e = {0};
    alias_node *an;
    e.name = astr(p, name, n);
    e.len = n;
    e.ref_line = line;
    e.ref_col = col;
    NEW(an, sizeof *an);
    if (!e.name) FAIL(irp_nomem(p));
    an->idx = (int)p->aents.n;
    e.node = &an->loc;
    e.node->kind = IR_L_ALIAS;
    e.node->str = e.name;
    PUSH(p->aents, alias_ent, e);
    p->amap.slot[s].idx = (int)p->aents.n - 1;
    p->amap.n++;
    *out = &VAT(p->aents, alias_ent, p->aents.n - 1);
  }
fail:
  return st;
}

ttref_status irp_parse_string_tok(P *p, char **out, size_t *len)
{
  ttref_status st = TTREF_OK;
  if (!is(p, IR_TK_STRING)) FAIL(TERR("expected string"));
  char *s;
  NEW(s, p->tok.n);
  *len = ir_lex_unescape(p->tok.p + 1, p->tok.n - 2, s);
  s[*len] = 0;
  *out = s;
  TRY(irp_next(p));
fail:
  return st;
}

/* locinst -> "unknown" | STRING [':' INT ':' INT [to ..]] | STRING '(' locinst ')'
 *          | "callsite" '(' locinst "at" locinst ')' | "fused" ['<' attr '>'] '[' locs ']' | HASH */
static ttref_status parse_locinst(P *p, const ir_loc **out)
{
  ttref_status st = TTREF_OK;
  ir_loc *l;
  TRY(irp_depth_in(p));
  if (is(p, IR_TK_HASH)) {
    alias_ent *e;
    TRY(alias_lookup(p, p->tok.p + 1, p->tok.n - 1, p->tok.line, p->tok.col, &e));
    e->used_as_loc = 1;
    *out = e->node;
    TRY(irp_next(p));
  } else if (is_kw(p, "unknown")) {
    NEW(l, sizeof *l);
    l->kind = IR_L_UNKNOWN;
    *out = l;
    TRY(irp_next(p));
  } else if (is(p, IR_TK_STRING)) {
    NEW(l, sizeof *l);
    char *s;
    size_t n;
    TRY(irp_parse_string_tok(p, &s, &n));
    l->str = s;
    bool got;
    if (is(p, IR_TK_COLON)) {
      l->kind = IR_L_FILE;
      TRY(irp_next(p));
      int64_t v;
      bool hx;
      if (!is(p, IR_TK_INT)) FAIL(TERR("expected line number"));
      TRY(irp_tok_int(p, &p->tok, &v, &hx));
      if (v < 0 || v > INT32_MAX) FAIL(TERR("line number out of range"));
      l->line = (int)v;
      TRY(irp_next(p));
      if (is(p, IR_TK_COLON)) {
        TRY(irp_next(p));
        if (!is(p, IR_TK_INT)) FAIL(TERR("expected column number"));
        TRY(irp_tok_int(p, &p->tok, &v, &hx));
        if (v < 0 || v > INT32_MAX) FAIL(TERR("column number out of range"));
        l->col = (int)v;
        TRY(irp_next(p));
      }
      if (is_kw(p, "to")) { /* FileLineColRange end: accepted, not kept */
        TRY(irp_next(p));
        if (is(p, IR_TK_INT)) TRY(irp_next(p));
        if (is(p, IR_TK_COLON)) {
          TRY(irp_next(p));
          if (!is(p, IR_TK_INT)) FAIL(TERR("expected column number"));
          TRY(irp_next(p));
        }
      }
    } else {
      l->kind = IR_L_NAME;
      TRY(irp_accept(p, IR_TK_LPAREN, &got));
      if (got) {
        TRY(parse_locinst(p, &l->a));
        TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
      }
    }
    *out = l;
  } else if (is_kw(p, "callsite")) {
    NEW(l, sizeof *l);
    l->kind = IR_L_CALLSITE;
    TRY(irp_next(p));
    TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
    TRY(parse_locinst(p, &l->a));
    TRY(irp_expect_kw(p, "at"));
    TRY(parse_locinst(p, &l->b));
    TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
    *out = l;
  } else if (is_kw(p, "fused")) {
    NEW(l, sizeof *l);
    l->kind = IR_L_FUSED;
    TRY(irp_next(p));
    if (is(p, IR_TK_LT)) {
      const char *s = p->tok.p, *e;
      /* metadata attribute kept verbatim: from '<' to the matching '>' */
      ir_lex_seek(&p->lx, p->tok.p, p->tok.line, p->tok.p - (p->tok.col - 1));
      TRY(irp_skip_balanced(p, &s, &e));
      l->str = astr(p, s + 1, (size_t)(e - s) - 2);
      if (!l->str) FAIL(irp_nomem(p));
    }
    TRY(irp_expect(p, IR_TK_LBRACKET, "'['"));
    size_t mark = p->locs.n;
    while (!is(p, IR_TK_RBRACKET)) {
      const ir_loc *it;
      TRY(parse_locinst(p, &it));
      PUSH(p->locs, const ir_loc *, it);
      if (!is(p, IR_TK_RBRACKET)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(irp_next(p));
    l->nitems = (int)(p->locs.n - mark);
    if (l->nitems) {
      NEW(l->items, sizeof(ir_loc *) * (size_t)l->nitems);
      memcpy(l->items, &VAT(p->locs, const ir_loc *, mark), sizeof(ir_loc *) * (size_t)l->nitems);
    }
    p->locs.n = mark;
    *out = l;
  } else {
    char b[64];
    FAIL(TERR("expected location, found %s", irp_tokdesc(p, b, sizeof b)));
  }
  p->depth--;
fail:
  return st;
}

/* loc -> "loc" '(' locinst ')' */
static ttref_status parse_loc(P *p, const ir_loc **out)
{
  ttref_status st = TTREF_OK;
  TRY(irp_expect_kw(p, "loc"));
  TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
  TRY(parse_locinst(p, out));
  TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
fail:
  return st;
}
ttref_status irp_parse_opt_loc(P *p, const ir_loc **out)
{
  *out = NULL;
  return is_kw(p, "loc") ? parse_loc(p, out) : TTREF_OK;
}

ttref_status irp_parse_alias_def(P *p)
{
  ttref_status st = TTREF_OK;
  alias_ent *e;
  int line = p->tok.line, col = p->tok.col;
  TRY(alias_lookup(p, p->tok.p + 1, p->tok.n - 1, line, col, &e));
  size_t ei = (size_t)(e - &VAT(p->aents, alias_ent, 0));
  if (e->defined) FAIL(TERR("redefinition of alias '#%s'", e->name));
  TRY(irp_next(p));
  TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
  const char *s = p->tok.p;
  ir_alias al = {0};
  const ir_loc *l = NULL;
  bool isloc = is_kw(p, "loc");
  if (isloc) {
    TRY(parse_loc(p, &l));
  } else {
    ir_attr a = {0};
    TRY(irp_parse_attr(p, &a));
  }
  e = &VAT(p->aents, alias_ent, ei); /* the table may have grown */
  e->defined = 1;
  e->is_loc = isloc;
  e->def_line = line;
  e->def_col = col;
  e->node->a = l;
  al.name = e->name;
  al.text = astr(p, s, (size_t)(p->last_end - s));
  al.loc = l;
  if (!al.text) FAIL(irp_nomem(p));
  PUSH(p->aliases, ir_alias, al);
fail:
  return st;
}

/* collect alias indices referenced by a loc tree */
static ttref_status loc_edges(P *p, const ir_loc *l, vec *out, int depth)
{
  ttref_status st = TTREF_OK;
  if (!l || depth > MAX_DEPTH + 8) goto fail;
  switch (l->kind) {
  case IR_L_ALIAS: {
    int idx = ((const alias_node *)l)->idx; /* every IR_L_ALIAS node is an alias_node */
    if (vec_grow(out, sizeof(int), out->n + 1)) FAIL(irp_nomem(p));
    VAT(*out, int, out->n++) = idx;
    break;
  }
  case IR_L_NAME: TRY(loc_edges(p, l->a, out, depth + 1)); break;
  case IR_L_CALLSITE:
    TRY(loc_edges(p, l->a, out, depth + 1));
    TRY(loc_edges(p, l->b, out, depth + 1));
    break;
  case IR_L_FUSED:
    for (int i = 0; i < l->nitems; i++) TRY(loc_edges(p, l->items[i], out, depth + 1));
    break;
  default: break;
  }
fail:
  return st;
}

/* All aliases defined, loc aliases point at locations, no cycles. */
ttref_status irp_check_aliases(P *p)
{
  ttref_status st = TTREF_OK;
  size_t na = p->aents.n;
  vec edges = {0}, start = {0}, stack = {0};
  char *color = NULL;
  for (size_t i = 0; i < na; i++) {
    alias_ent *e = &VAT(p->aents, alias_ent, i);
    if (!e->defined) FAIL(irp_perr(p, e->ref_line, e->ref_col, "undefined alias '#%s'", e->name));
    if (e->used_as_loc && !e->is_loc)
      FAIL(irp_perr(p, e->ref_line, e->ref_col, "alias '#%s' is not a location", e->name));
  }
  for (size_t i = 0; i < p->arefs.n; i++) {
    attr_ref *r = &VAT(p->arefs, attr_ref, i);
    size_t s = p->amap.cap ? irp_smap_probe(p, &p->amap, r->name, r->len, irp_akey) : 0;
    if (!p->amap.cap || p->amap.slot[s].idx < 0)
      FAIL(irp_perr(p, r->line, r->col, "undefined alias '#%.*s'", (int)r->len, r->name));
  }
  if (!na) goto fail;
  if (vec_grow(&start, sizeof(size_t), na + 1)) FAIL(irp_nomem(p));
  for (size_t i = 0; i < na; i++) {
    VAT(start, size_t, i) = edges.n;
    TRY(loc_edges(p, VAT(p->aents, alias_ent, i).node->a, &edges, 0));
  }
  VAT(start, size_t, na) = edges.n;
  color = ir_calloc(na, 1);
  if (!color) FAIL(irp_nomem(p));
  /* iterative DFS; stack holds (node, next edge) pairs */
  for (size_t r = 0; r < na; r++) {
    if (color[r]) continue;
    if (vec_grow(&stack, sizeof(size_t), 2)) FAIL(irp_nomem(p));
    stack.n = 0;
    VAT(stack, size_t, stack.n++) = r;
    VAT(stack, size_t, stack.n++) = VAT(start, size_t, r);
    color[r] = 1;
    while (stack.n) {
      size_t node = VAT(stack, size_t, stack.n - 2), *ep = &VAT(stack, size_t, stack.n - 1);
      if (*ep == VAT(start, size_t, node + 1)) {
        color[node] = 2;
        stack.n -= 2;
        continue;
      }
      size_t nb = (size_t)VAT(edges, int, (*ep)++);
      if (color[nb] == 1) {
        alias_ent *e = &VAT(p->aents, alias_ent, nb);
        FAIL(irp_perr(p, e->def_line, e->def_col, "alias cycle through '#%s'", e->name));
      }
      if (color[nb] == 0) {
        color[nb] = 1;
        if (vec_grow(&stack, sizeof(size_t), stack.n + 2)) FAIL(irp_nomem(p));
        VAT(stack, size_t, stack.n++) = nb;
        VAT(stack, size_t, stack.n++) = VAT(start, size_t, nb);
      }
    }
  }
fail:
  ir_free(color, na);
  vec_free(&edges, sizeof(int));
  vec_free(&start, sizeof(size_t));
  vec_free(&stack, sizeof(size_t));
  return st;
}

/* file -> (alias-def | module | func)* EOF */
