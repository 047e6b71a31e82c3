/*
 * ir_parse_attr.c: attributes and attribute dictionaries (integers, floats,
 * dense tensors, arrays, symbols, unit), and the enum keywords of custom
 * formats with their canonical integer values.
 */
#include "config.h"
#include "ir_parse_impl.h"
/* ---- attributes ------------------------------------------------------------------ */
/* Skip a balanced <...> group starting at the lexer cursor (which must be at
 * '<'); start and end delimit it. The next token is lexed afterwards. */
ttref_status irp_skip_balanced(P *p, const char **start, const char **end)
{
  ttref_status st = TTREF_OK;
  cpos c0 = {p->lx.cur, p->lx.line, p->lx.lstart}, *c = &c0;
  int d = 0;
  *start = c->q;
  while (c->q < p->lx.end) {
    char ch = *c->q;
    if (ch == '\n') {
      c->line++;
      c->lstart = c->q + 1;
    } else if (ch == '"') {
      ir_lex_seek(&p->lx, c->q, c->line, c->lstart);
      ir_token t;
      TRY(ir_lex_next(&p->lx, &t, p->err));
      c->q = p->lx.cur;
      continue;
    } else if (ch == 0) FAIL(CERR("NUL byte in input"));
    else if (ch == '<' || ch == '(' || ch == '[' || ch == '{') {
      if (++d > MAX_DEPTH) FAIL(CERR("nesting too deep (more than %d levels)", MAX_DEPTH));
    } else if ((ch == '>' && !(c->q > *start && c->q[-1] == '-')) || ch == ')' || ch == ']' || ch == '}') {
      if (--d == 0) {
        c->q++;
        *end = c->q;
        ir_lex_seek(&p->lx, c->q, c->line, c->lstart);
        p->tok.p = c->q; /* so that last_end marks the end of the group */
        p->tok.n = 0;
        TRY(irp_next(p));
        goto fail; /* done */
      }
      if (d < 0) FAIL(CERR("unbalanced brackets"));
    }
    c->q++;
  }
  FAIL(irp_perr(p, p->tok.line, p->tok.col, "unterminated '<' group"));
fail:
  return st;
}

bool irp_is_type_start(P *p)
{
  if (is(p, IR_TK_BANG)) return true;
  if (!is(p, IR_TK_IDENT)) return false;
  if (tok_eq(&p->tok, "tensor")) return true;
  for (int i = 0; i < IR_S_PTR; i++)
    if (tok_eq(&p->tok, ir_scalar_name((ir_scalar)i))) return true;
  return false;
}

/* dict-body -> entry (',' entry)* '}' ; entry -> (IDENT|STRING) ['=' attr]; sorted, on p->attrs */
int irp_attr_cmp(const void *x, const void *y)
{
  return strcmp(((const ir_attr *)x)->name, ((const ir_attr *)y)->name);
}

ttref_status irp_parse_dict_entries(P *p, ir_tok_kind close, size_t *count)
{
  ttref_status st = TTREF_OK;
  size_t mark = p->attrs.n;
  while (!is(p, close)) {
    ir_attr a = {0};
    int line = p->tok.line, col = p->tok.col;
    if (is(p, IR_TK_IDENT)) {
      a.name = astr(p, p->tok.p, p->tok.n);
      if (!a.name) FAIL(irp_nomem(p));
      TRY(irp_next(p));
    } else if (is(p, IR_TK_STRING)) {
      char *s;
      size_t n;
      TRY(irp_parse_string_tok(p, &s, &n));
      a.name = s;
    } else {
      char b[64];
      FAIL(TERR("expected attribute name, found %s", irp_tokdesc(p, b, sizeof b)));
    }
    if (is(p, IR_TK_EQUAL)) {
      TRY(irp_next(p));
      TRY(irp_parse_attr(p, &a));
    } else {
      a.kind = IR_A_UNIT;
    }
    for (size_t i = mark; i < p->attrs.n; i++)
      if (strcmp(VAT(p->attrs, ir_attr, i).name, a.name) == 0)
        FAIL(irp_perr(p, line, col, "duplicate attribute '%s'", a.name));
    PUSH(p->attrs, ir_attr, a);
    if (!is(p, close)) TRY(irp_expect(p, IR_TK_COMMA, "',' or '}'"));
  }
  TRY(irp_next(p));
  *count = p->attrs.n - mark;
  if (*count > 1) qsort(&VAT(p->attrs, ir_attr, mark), *count, sizeof(ir_attr), irp_attr_cmp);
fail:
  return st;
}

ttref_status irp_take_attrs(P *p, size_t mark, ir_attr **out, int *n)
{
  ttref_status st = TTREF_OK;
  size_t k = p->attrs.n - mark;
  *out = NULL;
  *n = (int)k;
  if (k) {
    NEW(*out, k * sizeof(ir_attr));
    memcpy(*out, &VAT(p->attrs, ir_attr, mark), k * sizeof(ir_attr));
  }
  p->attrs.n = mark;
fail:
  return st;
}

/* element flags for dense literals */
enum { EL_INT = 1, EL_HEX = 2, EL_FLOAT = 4, EL_BOOL = 8 };

/* dense-elems -> elem | '[' [dense-elems (',' dense-elems)*] ']' */
static ttref_status parse_dense_elems(P *p)
{
  ttref_status st = TTREF_OK;
  TRY(irp_depth_in(p));
  if (is(p, IR_TK_LBRACKET)) {
    TRY(irp_next(p));
    while (!is(p, IR_TK_RBRACKET)) {
      TRY(parse_dense_elems(p));
      if (!is(p, IR_TK_RBRACKET)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(irp_next(p));
  } else {
    ir_scalar_val v;
    int fl;
    bool hx;
    if (is(p, IR_TK_INT)) {
      TRY(irp_tok_int(p, &p->tok, &v.i, &hx));
      fl = hx ? EL_HEX : EL_INT;
    } else if (is(p, IR_TK_FLOAT)) {
      TRY(irp_tok_float(p, &p->tok, &v.f));
      fl = EL_FLOAT;
    } else if (is_kw(p, "true") || is_kw(p, "false")) {
      v.i = is_kw(p, "true");
      fl = EL_BOOL;
    } else {
      char b[64];
      FAIL(TERR("expected dense element, found %s", irp_tokdesc(p, b, sizeof b)));
    }
    PUSH(p->svals, ir_scalar_val, v);
    PUSH(p->flags, int, fl);
    PUSH(p->lc, int, p->tok.line);
    PUSH(p->lc, int, p->tok.col);
    TRY(irp_next(p));
  }
  p->depth--;
fail:
  return st;
}

static int hexval(char h) { return h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10; }

/* dense -> "dense" '<' (STRING | dense-elems) '>' ':' type */
static ttref_status parse_dense(P *p, ir_attr *a)
{
  ttref_status st = TTREF_OK;
  size_t mark = p->svals.n;
  int line = p->tok.line, col = p->tok.col;
  const char *blob = NULL;
  size_t bloblen = 0;
  TRY(irp_next(p));
  TRY(irp_expect(p, IR_TK_LT, "'<'"));
  if (is(p, IR_TK_STRING)) {
    blob = p->tok.p + 1;
    bloblen = p->tok.n - 2;
    TRY(irp_next(p));
  } else if (!is(p, IR_TK_GT)) {
    TRY(parse_dense_elems(p));
  }
  TRY(irp_expect(p, IR_TK_GT, "'>'"));
  TRY(irp_expect(p, IR_TK_COLON, "':' and a type after dense<...>"));
  const ir_type *t;
  int tl = p->tok.line, tc = p->tok.col;
  TRY(irp_parse_type(p, HINT_NONE, &t));
  if (t->kind != IR_T_TENSOR) FAIL(irp_perr(p, tl, tc, "dense attribute needs a tensor type"));
  const ir_type *et = t->elem;
  if (et->kind != IR_T_SCALAR) FAIL(irp_perr(p, tl, tc, "dense attribute needs int or float elements"));
  int bits = ir_scalar_bits(et->scalar);
  bool isf = ir_scalar_is_float(et->scalar);
  a->kind = IR_A_DENSE;
  a->type = t;
  if (blob) {
    if (bloblen < 2 || blob[0] != '0' || blob[1] != 'x')
      FAIL(irp_perr(p, line, col, "dense string must be a hex blob \"0x...\""));
    size_t nb = (bloblen - 2) / 2, esz = (size_t)(bits + 7) / 8;
    if ((bloblen - 2) % 2) FAIL(irp_perr(p, line, col, "odd number of hex digits in dense blob"));
    for (size_t i = 2; i < bloblen; i++)
      if (!isxdigit((unsigned char)blob[i])) FAIL(irp_perr(p, line, col, "invalid hex digit in dense blob"));
    int64_t cnt = (int64_t)(nb / esz);
    if (nb % esz || (cnt != t->numel && cnt != 1))
      FAIL(irp_perr(p, line, col, "dense blob has %zu bytes, expected %lld", nb, (long long)(t->numel * (int64_t)esz)));
    a->splat = cnt == 1 && t->numel != 1;
    a->nvals = cnt;
    a->hex = isf;
    NEW(a->vals, sizeof(ir_scalar_val) * (size_t)(cnt ? cnt : 1));
    for (int64_t e = 0; e < cnt; e++) {
      uint64_t u = 0;
      for (size_t b = 0; b < esz; b++) {
        const char *h = blob + 2 + 2 * (e * (int64_t)esz + (int64_t)b);
        u |= (uint64_t)(hexval(h[0]) * 16 + hexval(h[1])) << (8 * b);
      }
      if (isf || bits >= 64) {
        a->vals[e].i = (int64_t)u;
      } else {
        uint64_t mask = ((uint64_t)1 << bits) - 1;
        u &= mask;
        a->vals[e].i = bits == 1 ? (int64_t)u : (u >> (bits - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
      }
    }
    goto fail; /* done */
  }
  size_t cnt = p->svals.n - mark;
  if (cnt != 1 && (int64_t)cnt != t->numel)
    FAIL(irp_perr(p, line, col, "dense literal has %zu elements but %s needs %lld", cnt, "the type",
                  (long long)t->numel));
  a->nvals = (int64_t)cnt;
  a->splat = cnt == 1 && t->numel != 1;
  NEW(a->vals, sizeof(ir_scalar_val) * (cnt ? cnt : 1));
  int nhex = 0, ndec = 0;
  for (size_t i = 0; i < cnt; i++) {
    int fl = VAT(p->flags, int, mark + i);
    int el = VAT(p->lc, int, 2 * (mark + i)), ec = VAT(p->lc, int, 2 * (mark + i) + 1);
    ir_scalar_val v = VAT(p->svals, ir_scalar_val, mark + i);
    if (isf) {
      if (fl == EL_BOOL) FAIL(irp_perr(p, el, ec, "boolean element in a float dense literal"));
      if (fl == EL_HEX) {
        nhex++;
        if (bits < 64 && ((uint64_t)v.i >> bits))
          FAIL(irp_perr(p, el, ec, "hex bit pattern wider than the element type"));
      } else {
        ndec++;
        if (fl == EL_INT) v.f = (double)v.i;
      }
    } else {
      if (fl == EL_FLOAT) FAIL(irp_perr(p, el, ec, "float element in an integer dense literal"));
      if (fl == EL_BOOL && bits != 1) FAIL(irp_perr(p, el, ec, "boolean element in a non-i1 dense literal"));
      TRY(irp_fit_int(p, el, ec, v.i, bits, &v.i));
    }
    a->vals[i] = v;
  }
  if (nhex && ndec)
    FAIL(irp_perr(p, line, col, "mixing hex bit patterns and decimal floats in one dense literal is not supported"));
  a->hex = nhex > 0;
fail:
  p->svals.n = mark;
  p->flags.n = mark;
  p->lc.n = 2 * mark;
  return st;
}

/* attr -> true|false|unit|INT [':' type]|FLOAT [':' type]|STRING|dense|array|dict|list|@sym|#..|type|IDENT '<'..'>' */
ttref_status irp_parse_attr(P *p, ir_attr *a)
{
  ttref_status st = TTREF_OK;
  int line = p->tok.line, col = p->tok.col;
  TRY(irp_depth_in(p));
  if (is_kw(p, "true") || is_kw(p, "false")) {
    a->kind = IR_A_BOOL;
    a->i = is_kw(p, "true");
    a->type = p->t_i1;
    TRY(irp_next(p));
  } else if (is_kw(p, "unit")) {
    a->kind = IR_A_UNIT;
    TRY(irp_next(p));
  } else if (is(p, IR_TK_INT) || is(p, IR_TK_FLOAT)) {
    ir_token t = p->tok;
    TRY(irp_next(p));
    const ir_type *ty = NULL;
    if (is(p, IR_TK_COLON)) {
      TRY(irp_next(p));
      int tl = p->tok.line, tc = p->tok.col;
      TRY(irp_parse_type(p, HINT_NONE, &ty));
      if (ty->kind != IR_T_SCALAR) FAIL(irp_perr(p, tl, tc, "expected an integer or float type"));
    }
    a->type = ty;
    if (t.kind == IR_TK_FLOAT) {
      if (ty && !ir_scalar_is_float(ty->scalar)) FAIL(irp_perr(p, line, col, "float literal with an integer type"));
      a->kind = IR_A_FLOAT;
      TRY(irp_tok_float(p, &t, &a->f));
    } else {
      bool hx;
      int64_t v;
      TRY(irp_tok_int(p, &t, &v, &hx));
      if (ty && ir_scalar_is_float(ty->scalar)) {
        a->kind = IR_A_FLOAT;
        if (hx) {
          int bits = ir_scalar_bits(ty->scalar);
          if (bits < 64 && ((uint64_t)v >> bits))
            FAIL(irp_perr(p, line, col, "hex bit pattern wider than %s", ir_scalar_name(ty->scalar)));
          a->hex = true;
          a->i = v;
        } else {
          a->f = (double)v;
        }
      } else {
        a->kind = IR_A_INT;
        if (ty) TRY(irp_fit_int(p, line, col, v, ir_scalar_bits(ty->scalar), &v));
        a->i = v;
        if (ty && ty->scalar == IR_S_I1) a->kind = IR_A_BOOL;
      }
    }
  } else if (is(p, IR_TK_STRING)) {
    char *s;
    TRY(irp_parse_string_tok(p, &s, &a->slen));
    a->kind = IR_A_STRING;
    a->s = s;
  } else if (is_kw(p, "dense")) {
    TRY(parse_dense(p, a));
  } else if (is_kw(p, "array")) {
    TRY(irp_next(p));
    TRY(irp_expect(p, IR_TK_LT, "'<'"));
    const ir_type *et;
    int tl = p->tok.line, tc = p->tok.col;
    TRY(irp_parse_type(p, HINT_NONE, &et));
    if (et->kind != IR_T_SCALAR || !ir_scalar_is_int(et->scalar))
      FAIL(irp_perr(p, tl, tc, "only integer arrays are supported"));
    a->kind = IR_A_ARRAY;
    a->type = et;
    size_t mark = p->ints.n;
    if (is(p, IR_TK_COLON)) {
      TRY(irp_next(p));
      for (;;) {
        int64_t v;
        bool hx;
        if (is_kw(p, "true") || is_kw(p, "false")) v = is_kw(p, "true");
        else if (is(p, IR_TK_INT)) TRY(irp_tok_int(p, &p->tok, &v, &hx));
        else FAIL(TERR("expected integer array element"));
        TRY(irp_fit_int(p, p->tok.line, p->tok.col, v, ir_scalar_bits(et->scalar), &v));
        PUSH(p->ints, int64_t, v);
        TRY(irp_next(p));
        if (!is(p, IR_TK_COMMA)) break;
        TRY(irp_next(p));
      }
    }
    TRY(irp_expect(p, IR_TK_GT, "'>'"));
    a->nints = (int)(p->ints.n - mark);
    if (a->nints) {
      NEW(a->ints, sizeof(int64_t) * (size_t)a->nints);
      memcpy(a->ints, &VAT(p->ints, int64_t, mark), sizeof(int64_t) * (size_t)a->nints);
    }
    p->ints.n = mark;
  } else if (is(p, IR_TK_LBRACE)) {
    size_t mark = p->attrs.n, n;
    TRY(irp_next(p));
    TRY(irp_parse_dict_entries(p, IR_TK_RBRACE, &n));
    a->kind = IR_A_DICT;
    TRY(irp_take_attrs(p, mark, &a->items, &a->nitems));
  } else if (is(p, IR_TK_LBRACKET)) {
    size_t mark = p->attrs.n;
    TRY(irp_next(p));
    while (!is(p, IR_TK_RBRACKET)) {
      ir_attr it = {0};
      TRY(irp_parse_attr(p, &it));
      PUSH(p->attrs, ir_attr, it);
      if (!is(p, IR_TK_RBRACKET)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(irp_next(p));
    a->kind = IR_A_LIST;
    TRY(irp_take_attrs(p, mark, &a->items, &a->nitems));
  } else if (is(p, IR_TK_AT)) {
    a->kind = IR_A_SYMBOL;
    if (p->tok.p[1] == '"') {
      char *s;
      NEW(s, p->tok.n);
      a->slen = ir_lex_unescape(p->tok.p + 2, p->tok.n - 3, s);
      a->s = s;
    } else {
      a->s = astr(p, p->tok.p + 1, p->tok.n - 1);
      a->slen = p->tok.n - 1;
      if (!a->s) FAIL(irp_nomem(p));
    }
    TRY(irp_next(p));
    if (is(p, IR_TK_COLONCOLON)) FAIL(TERR("nested symbol references are not supported"));
  } else if (is(p, IR_TK_HASH) || (is(p, IR_TK_IDENT) && !irp_is_type_start(p))) {
    /* #alias, #dialect.attr<...>, or keyword<...> kept verbatim */
    ir_token t = p->tok;
    const char *s = t.p, *e = t.p + t.n;
    if (p->lx.cur < p->lx.end && *p->lx.cur == '<') {
      const char *bs;
      TRY(irp_skip_balanced(p, &bs, &e));
    } else {
      if (t.kind == IR_TK_IDENT) {
        char b[64];
        FAIL(TERR("unknown attribute %s", irp_tokdesc(p, b, sizeof b)));
      }
      if (!memchr(t.p, '.', t.n)) {
        attr_ref r = {t.p + 1, t.n - 1, t.line, t.col};
        PUSH(p->arefs, attr_ref, r);
      }
      TRY(irp_next(p));
    }
    a->kind = IR_A_OPAQUE;
    a->s = astr(p, s, (size_t)(e - s));
    a->slen = (size_t)(e - s);
    if (!a->s) FAIL(irp_nomem(p));
  } else if (irp_is_type_start(p)) {
    a->kind = IR_A_TYPE;
    TRY(irp_parse_type(p, HINT_NONE, &a->type));
  } else {
    char b[64];
    FAIL(TERR("expected attribute value, found %s", irp_tokdesc(p, b, sizeof b)));
  }
  p->depth--;
fail:
  return st;
}

/* opt-attr-dict -> ['{' dict-body] ; entries pushed on p->attrs */
ttref_status irp_parse_opt_attr_dict(P *p)
{
  ttref_status st = TTREF_OK;
  if (is(p, IR_TK_LBRACE)) {
    size_t n;
    TRY(irp_next(p));
    TRY(irp_parse_dict_entries(p, IR_TK_RBRACE, &n));
  }
fail:
  return st;
}

/* ---- enums: custom keywords <-> canonical integer values --------------------------- */

#define CMPF(name, spelling, value)
#define CMPI(name, spelling, value) spelling,
static const char *const e_cmpi[] = {
#include "ir_pred_list.h"
};
#undef CMPI
#define CMPI(name, spelling, value)
#undef CMPF
#define CMPF(name, spelling, value) spelling,
static const char *const e_cmpf[] = {
#include "ir_pred_list.h"
};
#undef CMPI
#undef CMPF
static const char *const e_cache[] = {"none", "ca", "cg", "wb", "cs", "wt", "cv"};
static const char *const e_evict[] = {"evict_normal", "evict_first", "evict_last"};
static const char *const e_sem[] = {"relaxed", "acquire", "release", "acq_rel"};
static const char *const e_scope[] = {"gpu", "cta", "sys"};
static const char *const e_rmw[] = {"and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch"};
static const char *const e_prec[] = {"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"};
static const char *const e_round[] = {"rtz", "rtne", "rs"};
static const char *const e_nan[] = {"none", "all"};
static const int v_nan[] = {IR_NAN_NONE, IR_NAN_ALL};
static const char *const e_sdt[] = {"e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "bf16", "fp16"};
static const char *const e_axis[] = {"x", "y", "z"};
static const char *const e_dred[] = {"", "add", "min", "max", "inc", "dec", "and", "or", "xor"};
#define ESET(arr, base)                                                                                                \
  {                                                                                                                    \
    arr, (int)(sizeof arr / sizeof arr[0]), base, NULL                                                                 \
  }
static const enum_set S_CMPI = ESET(e_cmpi, 0), S_CMPF = ESET(e_cmpf, 0), S_CACHE = ESET(e_cache, 1),
                      S_EVICT = ESET(e_evict, 1), S_SEM = ESET(e_sem, 1), S_SCOPE = ESET(e_scope, 1),
                      S_RMW = ESET(e_rmw, 1), S_PREC = ESET(e_prec, 0), S_ROUND = ESET(e_round, 0),
                      S_NAN = {e_nan, 2, 0, v_nan}, S_SDT = ESET(e_sdt, 0), S_AXIS = ESET(e_axis, 0),
                      S_DRED = ESET(e_dred, 0);

/* the enum attributes of each op (a table, not a switch: most ops have none) */
typedef struct enum_attr {
  ir_opcode op;
  const char *name;
  const enum_set *set;
} enum_attr;
static const enum_attr ENUM_ATTRS[] = {
    {IR_OP_CMPI, "predicate", &S_CMPI},
    {IR_OP_CMPF, "predicate", &S_CMPF},
    {IR_OP_LOAD, "cache", &S_CACHE},
    {IR_OP_LOAD, "evict", &S_EVICT},
    {IR_OP_STORE, "cache", &S_CACHE},
    {IR_OP_STORE, "evict", &S_EVICT},
    {IR_OP_DESC_LOAD, "cache", &S_CACHE},
    {IR_OP_DESC_LOAD, "evict", &S_EVICT},
    {IR_OP_XDESC_LOAD, "cache", &S_CACHE},
    {IR_OP_XDESC_LOAD, "evict", &S_EVICT},
    {IR_OP_ATOMIC_RMW, "atomic_rmw_op", &S_RMW},
    {IR_OP_ATOMIC_RMW, "sem", &S_SEM},
    {IR_OP_ATOMIC_RMW, "scope", &S_SCOPE},
    {IR_OP_ATOMIC_CAS, "sem", &S_SEM},
    {IR_OP_ATOMIC_CAS, "scope", &S_SCOPE},
    {IR_OP_DOT, "inputPrecision", &S_PREC},
    {IR_OP_FP_TO_FP, "rounding", &S_ROUND},
    {IR_OP_CLAMPF, "propagateNan", &S_NAN},
    {IR_OP_DOT_SCALED, "a_elem_type", &S_SDT},
    {IR_OP_DOT_SCALED, "b_elem_type", &S_SDT},
    {IR_OP_GET_PROGRAM_ID, "axis", &S_AXIS},
    {IR_OP_GET_NUM_PROGRAMS, "axis", &S_AXIS},
    {IR_OP_DESC_REDUCE, "kind", &S_DRED},
    {IR_OP_DESC_STORE, "reduce_kind", &S_DRED},
};

const enum_set *irp_enum_for(ir_opcode op, const char *name)
{
  for (size_t i = 0; i < sizeof ENUM_ATTRS / sizeof ENUM_ATTRS[0]; i++)
    if (ENUM_ATTRS[i].op == op && !strcmp(ENUM_ATTRS[i].name, name)) return ENUM_ATTRS[i].set;
  return NULL;
}

int irp_enum_index_of_val(const enum_set *e, int64_t v)
{
  for (int i = 0; i < e->n; i++)
    if ((e->vals ? e->vals[i] : e->base + i) == v) return i;
  return -1;
}

/* keyword at the current token -> ENUM attr `name` pushed on p->attrs */
ttref_status irp_push_enum_kw(P *p, ir_opcode op, const char *name)
{
  ttref_status st = TTREF_OK;
  const enum_set *e = irp_enum_for(op, name);
  char b[64];
  if (!is(p, IR_TK_IDENT)) FAIL(TERR("expected %s keyword, found %s", name, irp_tokdesc(p, b, sizeof b)));
  for (int i = 0; i < e->n; i++)
    if (tok_eq(&p->tok, e->names[i])) {
      ir_attr a = {0};
      a.name = name;
      a.kind = IR_A_ENUM;
      a.i = e->vals ? e->vals[i] : e->base + i;
      a.s = e->names[i];
      a.slen = strlen(a.s);
      PUSH(p->attrs, ir_attr, a);
      TRY(irp_next(p));
      goto fail;
    }
  FAIL(TERR("unknown %s '%.*s'", name, (int)(p->tok.n > 40 ? 40 : p->tok.n), p->tok.p));
fail:
  return st;
}
