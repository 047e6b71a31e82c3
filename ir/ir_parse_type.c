/*
 * ir_parse_type.c: TTIR types, read at the character level (tensor<4x8xf32>,
 * !tt.ptr<f16, 1>, tensor descriptors) and interned in the module.
 */
#include "config.h"
#include "ir_parse_impl.h"
/* ---- types (character level) ------------------------------------------------------- */

static void cskip(P *p, cpos *c)
{
  while (c->q < p->lx.end) {
    char ch = *c->q;
    if (ch == '\n') {
      c->line++;
      c->lstart = ++c->q;
    } else if (ch == ' ' || ch == '\t' || ch == '\r') {
      c->q++;
    } else {
      break;
    }
  }
}
static bool cstarts(P *p, cpos *c, const char *lit)
{
  size_t n = strlen(lit);
  if ((size_t)(p->lx.end - c->q) < n || memcmp(c->q, lit, n) != 0) return false;
  c->q += n;
  return true;
}
static bool cis(P *p, cpos *c, char ch) { return c->q < p->lx.end && *c->q == ch; }

static ttref_status ctype(P *p, cpos *c, int hint, const ir_type **out);

/* scalar -> i1|i4|...|f8E5M2FNUZ ; sign (0/1 si/2 ui) allowed inside descriptors */
static ttref_status cscalar(P *p, cpos *c, int *sign, const ir_type **out)
{
  const char *s = c->q;
  while (c->q < p->lx.end && ((*c->q >= 'a' && *c->q <= 'z') || (*c->q >= 'A' && *c->q <= 'Z') ||
                              (*c->q >= '0' && *c->q <= '9') || *c->q == '_'))
    c->q++;
  size_t n = (size_t)(c->q - s);
  int sg = 0;
  const char *b = s;
  size_t bn = n;
  if (sign && n > 2 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i') {
    sg = s[0] == 's' ? 1 : 2;
    b = s + 1;
    bn = n - 1;
  }
  for (int i = 0; i < IR_S_COUNT; i++) {
    const char *nm = ir_scalar_name((ir_scalar)i);
    if (i == IR_S_PTR || strlen(nm) != bn || memcmp(nm, b, bn) != 0) continue;
    if (sg && !ir_scalar_is_int((ir_scalar)i)) break;
    if (sign) *sign = sg;
    *out = ir_type_scalar(p->m, (ir_scalar)i);
    return *out ? TTREF_OK : irp_nomem(p);
  }
  c->q = s;
  if (n == 0) return CERR("expected type");
  return CERR("unknown type '%.*s'", (int)(n > 40 ? 40 : n), s);
}

/* skip `#enc` or `#dialect.x<...>` inside a descriptor type */
static ttref_status cskip_enc(P *p, cpos *c)
{
  if (!cis(p, c, '#')) return CERR("expected encoding attribute");
  c->q++;
  while (c->q < p->lx.end &&
         (isalnum((unsigned char)*c->q) || *c->q == '_' || *c->q == '.' || *c->q == '$' || *c->q == '-'))
    c->q++;
  if (!cis(p, c, '<')) return TTREF_OK;
  int d = 0;
  while (c->q < p->lx.end) {
    char ch = *c->q;
    if (ch == '\n') {
      c->line++;
      c->lstart = c->q + 1;
    }
    if (ch == '<') d++;
    if (ch == '>' && !(c->q > p->lx.buf && c->q[-1] == '-')) {
      if (--d == 0) {
        c->q++;
        return TTREF_OK;
      }
    }
    if (d > MAX_DEPTH) return CERR("nesting too deep");
    c->q++;
  }
  return CERR("unterminated encoding attribute");
}

/* tensor-body -> (INT 'x')* elem [',' encoding] '>' ; after "tensor<" */
static ttref_status ctensor(P *p, cpos *c, bool in_desc, int *sign, const ir_type **out)
{
  ttref_status st = TTREF_OK;
  int64_t shape[IR_MAX_RANK], numel = 1;
  int rank = 0;
  cskip(p, c);
  while (c->q < p->lx.end && *c->q >= '0' && *c->q <= '9') {
    cpos d0 = *c;
    int64_t v = 0;
    while (c->q < p->lx.end && *c->q >= '0' && *c->q <= '9') {
      v = v * 10 + (*c->q - '0');
      if (v > MAX_NUMEL) {
        *c = d0;
        FAIL(CERR("tensor dimension too large (more than 2^31)"));
      }
      c->q++;
    }
    if (!cis(p, c, 'x')) FAIL(CERR("expected 'x' after tensor dimension"));
    c->q++;
    if (rank == IR_MAX_RANK) {
      *c = d0;
      FAIL(CERR("tensor rank exceeds %d", IR_MAX_RANK));
    }
    if (v && numel > MAX_NUMEL / v) {
      *c = d0;
      FAIL(CERR("tensor has more than 2^31 elements"));
    }
    numel *= v;
    shape[rank++] = v;
  }
  if (cis(p, c, '?') || cis(p, c, '*')) FAIL(CERR("dynamic or unranked tensors are not supported"));
  const ir_type *elem;
  if (cis(p, c, '!')) TRY(ctype(p, c, HINT_NONE, &elem));
  else TRY(cscalar(p, c, in_desc ? sign : NULL, &elem));
  if (elem->kind == IR_T_TENSOR || elem->kind == IR_T_DESC) FAIL(CERR("invalid tensor element type"));
  cskip(p, c);
  if (cis(p, c, ',')) {
    if (!in_desc) FAIL(CERR("tensor encodings (TTGIR layouts) are not supported in TTIR"));
    c->q++;
    cskip(p, c);
    TRY(cskip_enc(p, c));
    cskip(p, c);
  }
  if (!cis(p, c, '>')) FAIL(CERR("expected '>' to close tensor type"));
  c->q++;
  *out = ir_type_tensor(p->m, elem, rank, shape);
  if (!*out) FAIL(irp_nomem(p));
fail:
  return st;
}

/* ptr-body -> type [',' INT] '>' */
static ttref_status cptr(P *p, cpos *c, const ir_type **out)
{
  ttref_status st = TTREF_OK;
  const ir_type *pointee;
  cskip(p, c);
  TRY(ctype(p, c, HINT_NONE, &pointee));
  if (pointee->kind == IR_T_DESC) FAIL(CERR("pointer to a tensor descriptor is not supported"));
  int as = 1;
  cskip(p, c);
  if (cis(p, c, ',')) {
    c->q++;
    cskip(p, c);
    if (!(c->q < p->lx.end && *c->q >= '0' && *c->q <= '9')) FAIL(CERR("expected address space"));
    as = 0;
    while (c->q < p->lx.end && *c->q >= '0' && *c->q <= '9') {
      as = as * 10 + (*c->q - '0');
      if (as > 65535) FAIL(CERR("address space too large"));
      c->q++;
    }
    cskip(p, c);
  }
  if (!cis(p, c, '>')) FAIL(CERR("expected '>' to close pointer type"));
  c->q++;
  *out = ir_type_ptr(p->m, pointee, as);
  if (!*out) FAIL(irp_nomem(p));
fail:
  return st;
}

/* desc-body -> ("tensor<" tensor-body | tensor-body-without-prefix) '>' */
static ttref_status cdesc(P *p, cpos *c, const ir_type **out)
{
  ttref_status st = TTREF_OK;
  const ir_type *blk;
  int sign = 0;
  cskip(p, c);
  if (cstarts(p, c, "tensor<")) {
    TRY(ctensor(p, c, true, &sign, &blk));
    cskip(p, c);
    if (!cis(p, c, '>')) FAIL(CERR("expected '>' to close tensordesc type"));
    c->q++;
  } else {
    TRY(ctensor(p, c, true, &sign, &blk)); /* consumes the closing '>' */
  }
  if (blk->elem->kind != IR_T_SCALAR) FAIL(CERR("invalid tensor descriptor element type"));
  *out = ir_type_desc(p->m, blk, sign);
  if (!*out) FAIL(irp_nomem(p));
fail:
  return st;
}

/* type -> scalar | "tensor<" .. | "!tt.ptr<" .. | "!tt.tensordesc<" .. | "<" .. (elided prefix) */
static ttref_status ctype(P *p, cpos *c, int hint, const ir_type **out)
{
  ttref_status st = TTREF_OK;
  if (++p->depth > MAX_DEPTH) FAIL(CERR("nesting too deep (more than %d levels)", MAX_DEPTH));
  if (cstarts(p, c, "tensor<")) TRY(ctensor(p, c, false, NULL, out));
  else if (cstarts(p, c, "!tt.ptr<")) TRY(cptr(p, c, out));
  else if (cstarts(p, c, "!tt.tensordesc<")) TRY(cdesc(p, c, out));
  else if (cis(p, c, '<') && hint == HINT_PTR) {
    c->q++;
    TRY(cptr(p, c, out));
  } else if (cis(p, c, '<') && hint == HINT_DESC) {
    c->q++;
    TRY(cdesc(p, c, out));
  } else if (cis(p, c, '!')) {
    const char *s = c->q;
    while (c->q < p->lx.end && !strchr("<> ,)\n\t", *c->q)) c->q++;
    int n = (int)(c->q - s);
    c->q = s;
    FAIL(CERR("unknown type '%.*s'", n > 40 ? 40 : n, s));
  } else TRY(cscalar(p, c, NULL, out));
  p->depth--;
fail:
  return st;
}

/* Parse a type starting at the current token, then re-sync the lexer. */
ttref_status irp_parse_type(P *p, int hint, const ir_type **out)
{
  ttref_status st = TTREF_OK;
  cpos c = {p->tok.p, p->tok.line, p->tok.p - (p->tok.col - 1)};
  if (p->tok.kind == IR_TK_EOF) FAIL(TERR("expected type, found end of file"));
  TRY(ctype(p, &c, hint, out));
  ir_lex_seek(&p->lx, c.q, c.line, c.lstart);
  p->tok.p = c.q;
  p->tok.n = 0;
  TRY(irp_next(p));
fail:
  return st;
}

/* types -> type (',' type)* ; pushed on p->tys */
ttref_status irp_parse_types(P *p, int hint, size_t *n)
{
  ttref_status st = TTREF_OK;
  bool more = true;
  *n = 0;
  while (more) {
    const ir_type *t;
    TRY(irp_parse_type(p, *n == 0 ? hint : HINT_NONE, &t));
    PUSH(p->tys, const ir_type *, t);
    (*n)++;
    TRY(irp_accept(p, IR_TK_COMMA, &more));
  }
fail:
  return st;
}

/* fn-type -> '(' [types] ')' '->' (type | '(' [types] ')') ; inputs then outputs on p->tys */
ttref_status irp_parse_fn_type(P *p, size_t *nin, size_t *nout)
{
  ttref_status st = TTREF_OK;
  bool got;
  *nin = *nout = 0;
  TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
  if (!is(p, IR_TK_RPAREN)) TRY(irp_parse_types(p, HINT_NONE, nin));
  TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
  TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
  TRY(irp_accept(p, IR_TK_LPAREN, &got));
  if (got) {
    if (!is(p, IR_TK_RPAREN)) TRY(irp_parse_types(p, HINT_NONE, nout));
    TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
  } else {
    const ir_type *t;
    TRY(irp_parse_type(p, HINT_NONE, &t));
    PUSH(p->tys, const ir_type *, t);
    *nout = 1;
  }
fail:
  return st;
}
