/*
 * ir_fx.c: parser of TK (Turbine Kernel) torch.fx-style printed traces:
 * `region_N:graph():` sections of placeholder / call_function nodes and a
 * `return`, with Python-literal arguments and sympy-style index expressions.
 * Size (1.1k lines): the lexer, the expression and statement parsers and the
 * name resolution of one small grammar, sharing one parser state and errors.
 */
#include "config.h"
#include "ir_fx.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FX_MAX_DEPTH 200
#define FX_MAX_BYTES ((size_t)1 << 28)

static const char *const op_names[] = {
#define X(name, target, amin, amax) target,
#include "ir_fx_op_list.h"
#undef X
};
static const int op_amin[] = {
#define X(name, target, amin, amax) amin,
#include "ir_fx_op_list.h"
#undef X
};
static const int op_amax[] = {
#define X(name, target, amin, amax) amax,
#include "ir_fx_op_list.h"
#undef X
};

const char *ir_fx_op_name(ir_fx_opcode op)
{
  if ((int)op >= 0 && (int)op < IR_FX_OP_COUNT) return op_names[op];
  return "<invalid>";
}

/* TK's user-facing aliases (kernel/lang/prims.py) and older spellings. */
static const struct {
  const char *alias;
  ir_fx_opcode op;
} op_aliases[] = {
    {"program_id", IR_FX_THREAD_PROGRAM_ID},
    {"load", IR_FX_LOAD},
    {"store", IR_FX_STORE},
    {"constant", IR_FX_CONSTANT},
    {"max", IR_FX_VECTOR_MAX},
    {"sum", IR_FX_VECTOR_SUM},
    {"dot", IR_FX_VECTOR_DOT},
    {"broadcast", IR_FX_VECTOR_BROADCAST},
    {"broadcast_in_dim", IR_FX_BROADCAST_IN_DIM},
    {"transpose", IR_FX_VECTOR_TRANSPOSE},
    {"__add__", IR_FX_ADD},
    {"__sub__", IR_FX_SUB},
    {"__mul__", IR_FX_MUL},
    {"__truediv__", IR_FX_TRUEDIV},
    {"__floordiv__", IR_FX_FLOORDIV},
    {"__mod__", IR_FX_MOD},
    {"__getitem__", IR_FX_GETITEM},
};

static bool op_lookup(const char *target, ir_fx_opcode *out)
{
  const char *dot = strrchr(target, '.');
  const char *last = dot ? dot + 1 : target;
  for (int i = 0; i < IR_FX_OP_COUNT; i++)
    if (strcmp(op_names[i], last) == 0) return *out = (ir_fx_opcode)i, true;
  for (size_t i = 0; i < sizeof op_aliases / sizeof op_aliases[0]; i++)
    if (strcmp(op_aliases[i].alias, last) == 0) return *out = op_aliases[i].op, true;
  return false;
}

/* ---- lexer ------------------------------------------------------------------ */
typedef enum { T_EOF, T_NL, T_IDENT, T_INT, T_FLOAT, T_REF, T_STR, T_PUNCT, T_DSLASH, T_ELEM } tkind;

typedef struct tok {
  tkind k;
  int line, col;
  const char *s; /* IDENT/REF/STR: start (REF: after '%'); PUNCT: the char */
  size_t n;
  int64_t i;
  double f;
  char c;
} tok;

typedef struct parser {
  const char *name, *text;
  size_t len, pos;
  int line, col;
  int depth;  /* bracket depth: newlines inside brackets are spaces */
  int rdepth; /* recursion depth */
  tok t;
  ir_fx *g;
  ttref_error *err;
} parser;

static ttref_status perr(parser *p, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static ttref_status perr(parser *p, int line, int col, const char *fmt, ...)
{
  char body[360];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  return ir_error_set(p->err, TTREF_E_SYNTAX, (ttref_loc){p->name, line, col}, "%s", body);
}

static const char *tdesc(const tok *t, char *buf, size_t n)
{
  switch (t->k) {
  case T_EOF: return "end of file";
  case T_NL: return "end of line";
  case T_ELEM: return "'\xe2\x88\x88'";
  case T_DSLASH: return "'//'";
  case T_PUNCT: snprintf(buf, n, "'%c'", t->c); return buf;
  case T_REF: snprintf(buf, n, "'%%%.*s'", (int)(t->n > 40 ? 40 : t->n), t->s); return buf;
  default: snprintf(buf, n, "'%.*s'", (int)(t->n > 40 ? 40 : t->n), t->s); return buf;
  }
}

static int is_id0(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_id(int c) { return is_id0(c) || (c >= '0' && c <= '9'); }

static void adv(parser *p, size_t n)
{
  p->pos += n;
  p->col += (int)n;
}

/* next token into p->t */
static ttref_status next(parser *p)
{
  ttref_status st = TTREF_OK;
  const char *s = p->text;
  for (;;) {
    if (p->pos >= p->len) {
      p->t = (tok){.k = T_EOF, .line = p->line, .col = p->col};
      goto fail;
    }
    char c = s[p->pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      adv(p, 1);
    } else if (c == '#') {
      while (p->pos < p->len && s[p->pos] != '\n') adv(p, 1);
    } else if (c == '\n') {
      int l = p->line, cl = p->col;
      p->pos++;
      p->line++;
      p->col = 1;
      if (p->depth <= 0) {
        p->t = (tok){.k = T_NL, .line = l, .col = cl};
        goto fail;
      }
    } else {
      break;
    }
  }
  tok t = {.line = p->line, .col = p->col, .s = s + p->pos};
  unsigned char c = (unsigned char)s[p->pos];
  if (c == 0) FAIL(perr(p, t.line, t.col, "NUL byte in the trace"));
  if (is_id0(c)) {
    size_t n = 0;
    while (p->pos + n < p->len && is_id((unsigned char)s[p->pos + n])) n++;
    t.k = T_IDENT;
    t.n = n;
    adv(p, n);
  } else if (c >= '0' && c <= '9') {
    size_t n = 0;
    bool fl = false;
    while (p->pos + n < p->len && s[p->pos + n] >= '0' && s[p->pos + n] <= '9') n++;
    if (p->pos + n + 1 < p->len && s[p->pos + n] == '.' && s[p->pos + n + 1] >= '0' && s[p->pos + n + 1] <= '9') {
      fl = true;
      n++;
      while (p->pos + n < p->len && s[p->pos + n] >= '0' && s[p->pos + n] <= '9') n++;
    } else if (p->pos + n < p->len && s[p->pos + n] == '.' &&
               !(p->pos + n + 1 < p->len && is_id0((unsigned char)s[p->pos + n + 1]))) {
      fl = true; /* "1." */
      n++;
    }
    if (p->pos + n < p->len && (s[p->pos + n] == 'e' || s[p->pos + n] == 'E')) {
      size_t m = n + 1;
      if (p->pos + m < p->len && (s[p->pos + m] == '+' || s[p->pos + m] == '-')) m++;
      if (p->pos + m < p->len && s[p->pos + m] >= '0' && s[p->pos + m] <= '9') {
        while (p->pos + m < p->len && s[p->pos + m] >= '0' && s[p->pos + m] <= '9') m++;
        n = m;
        fl = true;
      }
    }
    char buf[64];
    if (n >= sizeof buf) FAIL(perr(p, t.line, t.col, "number too long"));
    memcpy(buf, s + p->pos, n);
    buf[n] = 0;
    errno = 0;
    if (fl) {
      t.k = T_FLOAT;
      t.f = strtod(buf, NULL);
    } else {
      t.k = T_INT;
      t.i = strtoll(buf, NULL, 10);
      if (errno) FAIL(perr(p, t.line, t.col, "integer %s does not fit 64 bits", buf));
    }
    t.n = n;
    adv(p, n);
  } else if (c == '%' && p->pos + 1 < p->len && is_id((unsigned char)s[p->pos + 1])) {
    size_t n = 1;
    while (p->pos + n < p->len && is_id((unsigned char)s[p->pos + n])) n++;
    t.k = T_REF;
    t.s = s + p->pos + 1;
    t.n = n - 1;
    adv(p, n);
  } else if (c == '\'' || c == '"') {
    size_t n = 1;
    while (p->pos + n < p->len && s[p->pos + n] != (char)c && s[p->pos + n] != '\n') n += s[p->pos + n] == '\\' ? 2 : 1;
    if (p->pos + n >= p->len || s[p->pos + n] != (char)c) FAIL(perr(p, t.line, t.col, "unterminated string"));
    t.k = T_STR;
    t.s = s + p->pos + 1;
    t.n = n - 1;
    adv(p, n + 1);
  } else if (c == '/' && p->pos + 1 < p->len && s[p->pos + 1] == '/') {
    t.k = T_DSLASH;
    t.n = 2;
    adv(p, 2);
  } else if (c == 0xE2 && p->pos + 2 < p->len && (unsigned char)s[p->pos + 1] == 0x88 &&
             (unsigned char)s[p->pos + 2] == 0x88) {
    t.k = T_ELEM;
    t.n = 3;
    p->pos += 3;
    p->col += 1; /* one character */
  } else if (strchr("()[]{},:=.*/%+-<>", c)) {
    t.k = T_PUNCT;
    t.c = (char)c;
    t.n = 1;
    if (c == '(' || c == '[' || c == '{') p->depth++;
    if (c == ')' || c == ']' || c == '}') p->depth--;
    adv(p, 1);
  } else if (c >= 0x80) {
    FAIL(perr(p, t.line, t.col, "unexpected non-ASCII character (only '\xe2\x88\x88' is allowed)"));
  } else {
    FAIL(perr(p, t.line, t.col, "unexpected character '%c'", c));
  }
  p->t = t;
fail:
  return st;
}

static bool is_p(const parser *p, char c) { return p->t.k == T_PUNCT && p->t.c == c; }
static bool is_id_tok(const parser *p, const char *w)
{
  return p->t.k == T_IDENT && p->t.n == strlen(w) && memcmp(p->t.s, w, p->t.n) == 0;
}

static ttref_status expect_p(parser *p, char c)
{
  char b[64];
  if (!is_p(p, c)) return perr(p, p->t.line, p->t.col, "expected '%c', found %s", c, tdesc(&p->t, b, sizeof b));
  return next(p);
}

static ttref_status expect_id(parser *p, const char *w)
{
  char b[64];
  if (!is_id_tok(p, w)) return perr(p, p->t.line, p->t.col, "expected '%s', found %s", w, tdesc(&p->t, b, sizeof b));
  return next(p);
}

static char *astr(parser *p, const char *s, size_t n) { return ir_arena_strndup(p->g->arena, s, n); }

static ir_fx_arg *new_arg(parser *p, ir_fx_arg_kind k, int line, int col)
{
  ir_fx_arg *a = ir_arena_alloc(p->g->arena, sizeof *a);
  if (a) {
    a->kind = k;
    a->line = line;
    a->col = col;
    a->node = -1;
  }
  return a;
}

#define NOMEM(p) ir_error_set((p)->err, TTREF_E_NOMEM, (ttref_loc){(p)->name, (p)->t.line, (p)->t.col}, "out of memory")

/* a growable list of argument pointers (heap, copied into the arena when done) */
typedef struct alist {
  ir_fx_arg **v;
  const char **keys;
  int n, cap, kcap; /* capacities of v and keys */
} alist;

static ttref_status alist_push(parser *p, alist *l, ir_fx_arg *a, const char *key)
{
  if (l->n == l->cap || l->n == l->kcap) {
    int nc = (l->cap > l->kcap ? l->cap : l->kcap) * 2;
    if (nc < 8) nc = 8;
    if (l->cap < nc) {
      ir_fx_arg **nv = ir_realloc(l->v, sizeof *nv * (size_t)l->cap, sizeof *nv * (size_t)nc);
      if (!nv) return NOMEM(p);
      l->v = nv;
      l->cap = nc;
    }
    if (l->kcap < nc) {
      const char **nk = ir_realloc(l->keys, sizeof *nk * (size_t)l->kcap, sizeof *nk * (size_t)nc);
      if (!nk) return NOMEM(p);
      l->keys = nk;
      l->kcap = nc;
    }
  }
  l->v[l->n] = a;
  l->keys[l->n++] = key;
  return TTREF_OK;
}

static void alist_free(alist *l)
{
  ir_free(l->v, sizeof *l->v * (size_t)l->cap);
  ir_free(l->keys, sizeof *l->keys * (size_t)l->kcap);
}

static ttref_status alist_finish(parser *p, alist *l, ir_fx_arg *a)
{
  a->nitems = l->n;
  if (!l->n) return TTREF_OK;
  a->items = ir_arena_alloc(p->g->arena, sizeof *a->items * (size_t)l->n);
  a->keys = ir_arena_alloc(p->g->arena, sizeof *a->keys * (size_t)l->n);
  if (!a->items || !a->keys) return NOMEM(p);
  memcpy(a->items, l->v, sizeof *a->items * (size_t)l->n);
  memcpy(a->keys, l->keys, sizeof *a->keys * (size_t)l->n);
  return TTREF_OK;
}

static ttref_status parse_expr(parser *p, ir_fx_arg **out);

/* seq -> item { ',' item } [','] up to the closing char; dict items are KEY ':' expr */
static ttref_status parse_seq(parser *p, char close, bool dict, ir_fx_arg *a)
{
  ttref_status st = TTREF_OK;
  alist l = {0};
  char b[64];
  while (!is_p(p, close)) {
    const char *key = NULL;
    if (dict) {
      if (p->t.k == T_IDENT || p->t.k == T_STR) key = astr(p, p->t.s, p->t.n);
      else FAIL(perr(p, p->t.line, p->t.col, "expected a keyword name, found %s", tdesc(&p->t, b, sizeof b)));
      if (!key) FAIL(NOMEM(p));
      TRY(next(p));
      TRY(expect_p(p, ':'));
    }
    ir_fx_arg *it;
    TRY(parse_expr(p, &it));
    TRY(alist_push(p, &l, it, key));
    if (is_p(p, ',')) {
      TRY(next(p));
    } else if (!is_p(p, close)) {
      FAIL(perr(p, p->t.line, p->t.col, "expected ',' or '%c', found %s", close, tdesc(&p->t, b, sizeof b)));
    }
  }
  TRY(alist_finish(p, &l, a));
  TRY(next(p));
fail:
  alist_free(&l);
  return st;
}

/* primary -> INT | FLOAT | STR | %REF | NAME{.NAME} ['(' seq ')'] | '(' expr ')' | '(' seq ')' | '[' seq ']' | '{' dict '}' */
static ttref_status parse_primary(parser *p, ir_fx_arg **out)
{
  ttref_status st = TTREF_OK;
  tok t = p->t;
  ir_fx_arg *a = NULL;
  char b[64];
  if (++p->rdepth > FX_MAX_DEPTH) FAIL(perr(p, t.line, t.col, "nesting deeper than %d", FX_MAX_DEPTH));
  switch (t.k) {
  case T_INT:
    if (!(a = new_arg(p, IR_FX_A_INT, t.line, t.col))) FAIL(NOMEM(p));
    a->i = t.i;
    TRY(next(p));
    break;
  case T_FLOAT:
    if (!(a = new_arg(p, IR_FX_A_FLOAT, t.line, t.col))) FAIL(NOMEM(p));
    a->f = t.f;
    TRY(next(p));
    break;
  case T_STR:
    if (!(a = new_arg(p, IR_FX_A_STR, t.line, t.col)) || !(a->s = astr(p, t.s, t.n))) FAIL(NOMEM(p));
    TRY(next(p));
    break;
  case T_REF:
    if (!(a = new_arg(p, IR_FX_A_REF, t.line, t.col)) || !(a->s = astr(p, t.s, t.n))) FAIL(NOMEM(p));
    TRY(next(p));
    break;
  case T_IDENT: {
    char name[256];
    size_t n = 0;
    for (;;) {
      if (n + p->t.n + 2 >= sizeof name) FAIL(perr(p, t.line, t.col, "name too long"));
      memcpy(name + n, p->t.s, p->t.n);
      n += p->t.n;
      TRY(next(p));
      if (!is_p(p, '.')) break;
      TRY(next(p));
      if (p->t.k != T_IDENT)
        FAIL(perr(p, p->t.line, p->t.col, "expected a name after '.', found %s", tdesc(&p->t, b, sizeof b)));
      name[n++] = '.';
    }
    name[n] = 0;
    if (is_p(p, '(')) {
      if (!(a = new_arg(p, IR_FX_A_CALL, t.line, t.col)) || !(a->s = astr(p, name, n))) FAIL(NOMEM(p));
      TRY(next(p));
      TRY(parse_seq(p, ')', false, a));
    } else if (!strcmp(name, "None")) {
      if (!(a = new_arg(p, IR_FX_A_NONE, t.line, t.col))) FAIL(NOMEM(p));
    } else if (!strcmp(name, "True") || !strcmp(name, "False")) {
      if (!(a = new_arg(p, IR_FX_A_BOOL, t.line, t.col))) FAIL(NOMEM(p));
      a->i = name[0] == 'T';
    } else if (!strcmp(name, "inf") || !strcmp(name, "nan") || !strcmp(name, "oo")) {
      if (!(a = new_arg(p, IR_FX_A_FLOAT, t.line, t.col))) FAIL(NOMEM(p));
      a->f = name[0] == 'n' ? NAN : INFINITY;
    } else {
      if (!(a = new_arg(p, IR_FX_A_NAME, t.line, t.col)) || !(a->s = astr(p, name, n))) FAIL(NOMEM(p));
    }
    break;
  }
  case T_PUNCT:
    if (t.c == '(') {
      TRY(next(p));
      if (!(a = new_arg(p, IR_FX_A_TUPLE, t.line, t.col))) FAIL(NOMEM(p));
      if (is_p(p, ')')) {
        TRY(next(p));
        break;
      }
      ir_fx_arg *first;
      TRY(parse_expr(p, &first));
      if (is_p(p, ')')) { /* parenthesised expression */
        TRY(next(p));
        a = first;
        break;
      }
      alist l = {0};
      st = alist_push(p, &l, first, NULL);
      while (st == TTREF_OK && is_p(p, ',')) {
        st = next(p);
        if (st != TTREF_OK || is_p(p, ')')) break;
        ir_fx_arg *it;
        st = parse_expr(p, &it);
        if (st == TTREF_OK) st = alist_push(p, &l, it, NULL);
      }
      if (st == TTREF_OK && !is_p(p, ')'))
        st = perr(p, p->t.line, p->t.col, "expected ',' or ')', found %s", tdesc(&p->t, b, sizeof b));
      if (st == TTREF_OK) st = alist_finish(p, &l, a);
      alist_free(&l);
      TRY(st);
      TRY(next(p));
    } else if (t.c == '[') {
      TRY(next(p));
      if (!(a = new_arg(p, IR_FX_A_LIST, t.line, t.col))) FAIL(NOMEM(p));
      TRY(parse_seq(p, ']', false, a));
    } else if (t.c == '{') {
      TRY(next(p));
      if (!(a = new_arg(p, IR_FX_A_DICT, t.line, t.col))) FAIL(NOMEM(p));
      TRY(parse_seq(p, '}', true, a));
    } else if (t.c == '-' || t.c == '+') {
      TRY(next(p));
      ir_fx_arg *x;
      TRY(parse_primary(p, &x));
      if (t.c == '+') {
        a = x;
      } else if (x->kind == IR_FX_A_INT && x->i != INT64_MIN) {
        x->i = -x->i;
        x->line = t.line, x->col = t.col;
        a = x;
      } else if (x->kind == IR_FX_A_FLOAT) {
        x->f = -x->f;
        x->line = t.line, x->col = t.col;
        a = x;
      } else {
        if (!(a = new_arg(p, IR_FX_A_NEG, t.line, t.col)) ||
            !(a->items = ir_arena_alloc(p->g->arena, sizeof *a->items)))
          FAIL(NOMEM(p));
        a->items[0] = x;
        a->nitems = 1;
      }
    } else {
      FAIL(perr(p, t.line, t.col, "expected a value, found %s", tdesc(&t, b, sizeof b)));
    }
    break;
  default: FAIL(perr(p, t.line, t.col, "expected a value, found %s", tdesc(&t, b, sizeof b)));
  }
  *out = a;
fail:
  p->rdepth--;
  return st;
}

static bool is_mulop(const parser *p) { return p->t.k == T_DSLASH || is_p(p, '*') || is_p(p, '/') || is_p(p, '%'); }

static ttref_status binop(parser *p, const char *op, int line, int col, ir_fx_arg *l, ir_fx_arg *r, ir_fx_arg **out)
{
  ir_fx_arg *a = new_arg(p, IR_FX_A_BIN, line, col);
  if (!a || !(a->items = ir_arena_alloc(p->g->arena, 2 * sizeof *a->items))) return NOMEM(p);
  a->s = op;
  a->items[0] = l;
  a->items[1] = r;
  a->nitems = 2;
  *out = a;
  return TTREF_OK;
}

/* term -> primary { ('*' | '/' | '//' | '%') primary } */
static ttref_status parse_term(parser *p, ir_fx_arg **out)
{
  ttref_status st = TTREF_OK;
  ir_fx_arg *l;
  TRY(parse_primary(p, &l));
  while (is_mulop(p)) {
    const char *op = p->t.k == T_DSLASH ? "//" : p->t.c == '*' ? "*" : p->t.c == '/' ? "/" : "%";
    int line = p->t.line, col = p->t.col;
    TRY(next(p));
    if (op[0] == '*' && is_p(p, '*')) FAIL(perr(p, p->t.line, p->t.col, "'**' is not supported in index expressions"));
    ir_fx_arg *r;
    TRY(parse_primary(p, &r));
    TRY(binop(p, op, line, col, l, r, &l));
  }
  *out = l;
fail:
  return st;
}

/* expr -> term { ('+' | '-') term } */
static ttref_status parse_expr(parser *p, ir_fx_arg **out)
{
  ttref_status st = TTREF_OK;
  ir_fx_arg *l;
  if (++p->rdepth > FX_MAX_DEPTH) FAIL(perr(p, p->t.line, p->t.col, "nesting deeper than %d", FX_MAX_DEPTH));
  TRY(parse_term(p, &l));
  while (is_p(p, '+') || is_p(p, '-')) {
    const char *op = p->t.c == '+' ? "+" : "-";
    int line = p->t.line, col = p->t.col;
    TRY(next(p));
    ir_fx_arg *r;
    TRY(parse_term(p, &r));
    TRY(binop(p, op, line, col, l, r, &l));
  }
  *out = l;
fail:
  p->rdepth--;
  return st;
}

/* ---- statements ------------------------------------------------------------------ */
typedef struct rbuild {
  ir_fx_node *v;
  int n, cap;
} rbuild;

static int buf_kind_of(const char *s, size_t n)
{
  static const struct {
    const char *name;
    int kind;
  } kinds[] = {
      {"InputBuffer", IR_FX_BUF_INPUT}, {"Input", IR_FX_BUF_INPUT},          {"OutputBuffer", IR_FX_BUF_OUTPUT},
      {"Output", IR_FX_BUF_OUTPUT},     {"TemporaryBuffer", IR_FX_BUF_TEMP}, {"Temporary", IR_FX_BUF_TEMP},
      {"Temp", IR_FX_BUF_TEMP},         {"TempBuffer", IR_FX_BUF_TEMP},      {"KernelBuffer", IR_FX_BUF_INPUT},
  };
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strlen(kinds[i].name) == n && memcmp(kinds[i].name, s, n) == 0) return kinds[i].kind;
  return IR_FX_BUF_NONE;
}

/* annot -> [ TYPE ] [ '[' 'num_users' '=' INT ']' ]
 * TYPE -> BUFKIND '[' dims ']' [ '.' 'of' '(' dtype ')' ]
 *       | ('SymIndex' ('∈' | 'E') | 'SymIndexE') '[' expr ',' expr (')' | ']')  | 'SymIndex' | NAME{.NAME} */
static ttref_status parse_annot(parser *p, ir_fx_node *nd)
{
  ttref_status st = TTREF_OK;
  char b[64];
  nd->num_users = -1;
  if (p->t.k == T_IDENT) {
    tok t = p->t;
    int kind = buf_kind_of(t.s, t.n);
    bool symidx = (t.n == 8 && !memcmp(t.s, "SymIndex", 8)) || (t.n == 9 && !memcmp(t.s, "SymIndexE", 9));
    TRY(next(p));
    if (symidx) {
      nd->sym_index = true;
      if (t.n == 8 && (p->t.k == T_ELEM || is_id_tok(p, "E"))) TRY(next(p));
      parser save = *p;
      bool range = false;
      if (is_p(p, '[')) { /* `SymIndex [num_users=N]` has no range */
        TRY(next(p));
        range = !is_id_tok(p, "num_users");
        *p = save;
      }
      if (range) { /* the range [lo, hi) or [lo, hi]: checked for syntax, not used */
        TRY(next(p));
        ir_fx_arg *lo, *hi;
        TRY(parse_expr(p, &lo));
        TRY(expect_p(p, ','));
        TRY(parse_expr(p, &hi));
        if (!is_p(p, ')') && !is_p(p, ']'))
          FAIL(perr(p, p->t.line, p->t.col, "expected ')' or ']' closing the SymIndex range, found %s",
                    tdesc(&p->t, b, sizeof b)));
        TRY(next(p));
      }
    } else if (kind != IR_FX_BUF_NONE) {
      nd->buf_kind = kind;
      if (!is_p(p, '['))
        FAIL(perr(p, p->t.line, p->t.col, "expected '[' and the buffer's dims after '%.*s'", (int)t.n, t.s));
      ir_fx_arg *dims = new_arg(p, IR_FX_A_TUPLE, p->t.line, p->t.col);
      if (!dims) FAIL(NOMEM(p));
      TRY(next(p));
      TRY(parse_seq(p, ']', false, dims));
      nd->dims = dims;
      if (is_p(p, '.')) {
        TRY(next(p));
        TRY(expect_id(p, "of"));
        TRY(expect_p(p, '('));
        ir_fx_arg *dt;
        TRY(parse_expr(p, &dt));
        if (dt->kind == IR_FX_A_CALL && dt->nitems == 1) dt = dt->items[0]; /* DataType(f16) */
        if (dt->kind != IR_FX_A_NAME) FAIL(perr(p, dt->line, dt->col, "expected a dtype name in .of(...)"));
        nd->dtype = dt->s;
        nd->dline = dt->line;
        nd->dcol = dt->col;
        TRY(expect_p(p, ')'));
      }
    } else {
      /* another Python type (e.g. torch.Tensor): skip its dotted name and a [...] group */
      while (is_p(p, '.')) {
        TRY(next(p));
        if (p->t.k != T_IDENT)
          FAIL(perr(p, p->t.line, p->t.col, "expected a name after '.', found %s", tdesc(&p->t, b, sizeof b)));
        TRY(next(p));
      }
    }
  }
  if (is_p(p, '[')) {
    TRY(next(p));
    if (!is_id_tok(p, "num_users"))
      FAIL(perr(p, p->t.line, p->t.col, "expected 'num_users', found %s", tdesc(&p->t, b, sizeof b)));
    TRY(next(p));
    TRY(expect_p(p, '='));
    if (p->t.k != T_INT || p->t.i < 0)
      FAIL(perr(p, p->t.line, p->t.col, "expected a user count, found %s", tdesc(&p->t, b, sizeof b)));
    nd->num_users = (int)(p->t.i > 1000000000 ? 1000000000 : p->t.i);
    TRY(next(p));
    TRY(expect_p(p, ']'));
  }
fail:
  return st;
}

/* target -> NAME{.NAME} | '<' ... '>' (e.g. <built-in function add>) */
static ttref_status parse_target(parser *p, ir_fx_node *nd)
{
  ttref_status st = TTREF_OK;
  char name[256], b[64];
  size_t n = 0;
  nd->tline = p->t.line;
  nd->tcol = p->t.col;
  if (is_p(p, '<')) {
    TRY(next(p));
    while (!is_p(p, '>')) {
      if (p->t.k == T_EOF || p->t.k == T_NL || is_p(p, ']'))
        FAIL(perr(p, p->t.line, p->t.col, "unterminated '<...>' target"));
      if (p->t.k == T_IDENT) { /* keep the last word: "<built-in function add>" -> add */
        if (p->t.n >= sizeof name) FAIL(perr(p, p->t.line, p->t.col, "name too long"));
        memcpy(name, p->t.s, p->t.n);
        n = p->t.n;
      }
      TRY(next(p));
    }
    TRY(next(p));
  } else {
    for (;;) {
      if (p->t.k != T_IDENT)
        FAIL(perr(p, p->t.line, p->t.col, "expected a target name, found %s", tdesc(&p->t, b, sizeof b)));
      if (n + p->t.n + 2 >= sizeof name) FAIL(perr(p, p->t.line, p->t.col, "target name too long"));
      memcpy(name + n, p->t.s, p->t.n);
      n += p->t.n;
      TRY(next(p));
      if (!is_p(p, '.')) break;
      name[n++] = '.';
      TRY(next(p));
    }
  }
  if (!n) FAIL(perr(p, nd->tline, nd->tcol, "empty target"));
  if (!(nd->target = astr(p, name, n))) FAIL(NOMEM(p));
fail:
  return st;
}

static ir_fx_arg *empty(parser *p, ir_fx_arg_kind k) { return new_arg(p, k, p->t.line, p->t.col); }

/* call -> '(' [ 'args' '=' tuple ] [ ',' ] [ 'kwargs' '=' dict ] ')'  (placeholders: '(' 'default' '=' expr ')') */
static ttref_status parse_call_args(parser *p, ir_fx_node *nd)
{
  ttref_status st = TTREF_OK;
  char b[64];
  TRY(expect_p(p, '('));
  while (!is_p(p, ')')) {
    if (is_id_tok(p, "args")) {
      TRY(next(p));
      TRY(expect_p(p, '='));
      ir_fx_arg *a;
      TRY(parse_primary(p, &a));
      if (a->kind != IR_FX_A_TUPLE) FAIL(perr(p, a->line, a->col, "args must be a tuple"));
      nd->args = a;
    } else if (is_id_tok(p, "kwargs")) {
      TRY(next(p));
      TRY(expect_p(p, '='));
      ir_fx_arg *a;
      TRY(parse_primary(p, &a));
      if (a->kind != IR_FX_A_DICT) FAIL(perr(p, a->line, a->col, "kwargs must be a dict"));
      nd->kwargs = a;
    } else if (is_id_tok(p, "default")) {
      TRY(next(p));
      TRY(expect_p(p, '='));
      ir_fx_arg *a;
      TRY(parse_expr(p, &a));
    } else {
      FAIL(perr(p, p->t.line, p->t.col, "expected 'args', 'kwargs' or ')', found %s", tdesc(&p->t, b, sizeof b)));
    }
    if (is_p(p, ',')) TRY(next(p));
    else if (!is_p(p, ')'))
      FAIL(perr(p, p->t.line, p->t.col, "expected ',' or ')', found %s", tdesc(&p->t, b, sizeof b)));
  }
  TRY(next(p));
fail:
  return st;
}

static ttref_status end_of_line(parser *p)
{
  char b[64];
  if (p->t.k != T_NL && p->t.k != T_EOF)
    return perr(p, p->t.line, p->t.col, "unexpected %s at the end of the statement", tdesc(&p->t, b, sizeof b));
  p->depth = 0;
  return TTREF_OK;
}

/* node -> '%' NAME [':' annot] '=' KIND '[' 'target' '=' target ']' [call] NL
 * ret  -> 'return' expr NL */
static ttref_status parse_node(parser *p, ir_fx_node *nd)
{
  ttref_status st = TTREF_OK;
  char b[64];
  memset(nd, 0, sizeof *nd);
  nd->line = p->t.line;
  nd->col = p->t.col;
  nd->num_users = -1;
  if (!(nd->args = empty(p, IR_FX_A_TUPLE)) || !(nd->kwargs = empty(p, IR_FX_A_DICT))) FAIL(NOMEM(p));
  if (is_id_tok(p, "return")) {
    nd->kind = IR_FX_N_OUTPUT;
    nd->name = "output";
    nd->target = "output";
    nd->tline = nd->line, nd->tcol = nd->col;
    TRY(next(p));
    ir_fx_arg *a;
    TRY(parse_expr(p, &a));
    if (!(nd->args->items = ir_arena_alloc(p->g->arena, sizeof *nd->args->items))) FAIL(NOMEM(p));
    nd->args->items[0] = a;
    nd->args->nitems = 1;
    TRY(end_of_line(p));
    goto fail;
  }
  if (p->t.k != T_REF)
    FAIL(perr(p, p->t.line, p->t.col, "expected a node ('%%name : ... = ...') or 'return', found %s",
              tdesc(&p->t, b, sizeof b)));
  if (!(nd->name = astr(p, p->t.s, p->t.n))) FAIL(NOMEM(p));
  TRY(next(p));
  if (is_p(p, ':')) {
    TRY(next(p));
    TRY(parse_annot(p, nd));
  }
  TRY(expect_p(p, '='));
  if (p->t.k != T_IDENT)
    FAIL(perr(p, p->t.line, p->t.col, "expected a node kind (placeholder, call_function), found %s",
              tdesc(&p->t, b, sizeof b)));
  tok kt = p->t;
  if (is_id_tok(p, "placeholder")) nd->kind = IR_FX_N_PLACEHOLDER;
  else if (is_id_tok(p, "call_function")) nd->kind = IR_FX_N_CALL;
  else if (is_id_tok(p, "output")) nd->kind = IR_FX_N_OUTPUT;
  else
    FAIL(perr(p, kt.line, kt.col, "unsupported node kind '%.*s' (TK traces use placeholder, call_function and output)",
              (int)kt.n, kt.s));
  TRY(next(p));
  TRY(expect_p(p, '['));
  TRY(expect_id(p, "target"));
  TRY(expect_p(p, '='));
  TRY(parse_target(p, nd));
  TRY(expect_p(p, ']'));
  if (is_p(p, '(')) TRY(parse_call_args(p, nd));
  TRY(end_of_line(p));
  if (nd->kind == IR_FX_N_CALL) {
    if (!op_lookup(nd->target, &nd->op))
      FAIL(perr(p, nd->tline, nd->tcol, "unknown call_function target '%s' (not a TK op or traced operator)",
                nd->target));
    int na = nd->args->nitems + nd->kwargs->nitems;
    if (na < op_amin[nd->op] || na > op_amax[nd->op])
      FAIL(op_amin[nd->op] == op_amax[nd->op]
               ? perr(p, nd->tline, nd->tcol, "%s takes %d argument%s, got %d", op_names[nd->op], op_amin[nd->op],
                      op_amin[nd->op] == 1 ? "" : "s", na)
               : perr(p, nd->tline, nd->tcol, "%s takes %d to %d arguments, got %d", op_names[nd->op], op_amin[nd->op],
                      op_amax[nd->op], na));
  }
  if (nd->kind == IR_FX_N_OUTPUT && nd->args->nitems != 1)
    FAIL(perr(p, nd->line, nd->col, "output takes one argument"));
fail:
  return st;
}

static ttref_status finish_region(parser *p, rbuild *rb)
{
  ir_fx_region *r = &p->g->regions[p->g->nregions - 1];
  r->nnodes = rb->n;
  if (rb->n) {
    r->nodes = ir_arena_alloc(p->g->arena, sizeof *r->nodes * (size_t)rb->n);
    if (!r->nodes) return NOMEM(p);
    memcpy(r->nodes, rb->v, sizeof *r->nodes * (size_t)rb->n);
  }
  rb->n = 0;
  return TTREF_OK;
}

static ttref_status new_region(parser *p, const char *name, size_t n, int line, int col, int *cap)
{
  ir_fx *g = p->g;
  for (int i = 0; i < g->nregions; i++)
    if (strlen(g->regions[i].name) == n && memcmp(g->regions[i].name, name, n) == 0)
      return perr(p, line, col, "region '%.*s' is defined twice (first at line %d)", (int)n, name, g->regions[i].line);
  if (g->nregions == *cap) {
    int nc = *cap ? *cap * 2 : 4;
    ir_fx_region *nr = ir_arena_alloc(g->arena, sizeof *nr * (size_t)nc);
    if (!nr) return NOMEM(p);
    if (g->nregions) memcpy(nr, g->regions, sizeof *nr * (size_t)g->nregions);
    g->regions = nr;
    *cap = nc;
  }
  ir_fx_region *r = &g->regions[g->nregions++];
  memset(r, 0, sizeof *r);
  if (!(r->name = astr(p, name, n))) return NOMEM(p);
  r->line = line;
  r->col = col;
  return TTREF_OK;
}

/* ---- resolution ---------------------------------------------------------------------- */
static ttref_status resolve_arg(parser *p, const ir_fx_region *r, int upto, ir_fx_arg *a)
{
  ttref_status st = TTREF_OK;
  if (a->kind == IR_FX_A_REF) {
    for (int i = upto - 1; i >= 0; i--)
      if (!strcmp(r->nodes[i].name, a->s)) {
        a->node = i;
        break;
      }
    if (a->node < 0) {
      for (int i = upto; i < r->nnodes; i++)
        if (!strcmp(r->nodes[i].name, a->s))
          FAIL(perr(p, a->line, a->col, "'%%%s' is used before its definition at line %d", a->s, r->nodes[i].line));
      FAIL(perr(p, a->line, a->col, "'%%%s' is not defined in %s", a->s, r->name));
    }
    if (r->nodes[a->node].kind == IR_FX_N_OUTPUT) FAIL(perr(p, a->line, a->col, "'%%%s' is the output node", a->s));
  }
  for (int i = 0; i < a->nitems; i++) TRY(resolve_arg(p, r, upto, a->items[i]));
fail:
  return st;
}

int ir_fx_find_region(const ir_fx *g, const char *name)
{
  for (int i = 0; i < g->nregions; i++)
    if (!strcmp(g->regions[i].name, name)) return i;
  return -1;
}

const ir_fx_arg *ir_fx_kwarg(const ir_fx_node *n, const char *key)
{
  for (int i = 0; i < n->kwargs->nitems; i++)
    if (n->kwargs->keys[i] && !strcmp(n->kwargs->keys[i], key)) return n->kwargs->items[i];
  return NULL;
}

static ttref_status resolve(parser *p)
{
  ttref_status st = TTREF_OK;
  ir_fx *g = p->g;
  if (!g->nregions) FAIL(perr(p, 1, 1, "no graph in the trace (expected 'region_0:graph():' or 'graph():')"));
  for (int ri = 0; ri < g->nregions; ri++) {
    ir_fx_region *r = &g->regions[ri];
    int nout = 0;
    for (int i = 0; i < r->nnodes; i++) {
      ir_fx_node *nd = &r->nodes[i];
      for (int j = 0; j < i; j++)
        if (!strcmp(r->nodes[j].name, nd->name) && nd->kind != IR_FX_N_OUTPUT)
          FAIL(perr(p, nd->line, nd->col, "node '%%%s' is defined twice in %s (first at line %d)", nd->name, r->name,
                    r->nodes[j].line));
      if (nd->kind == IR_FX_N_OUTPUT) {
        if (nout++) FAIL(perr(p, nd->line, nd->col, "%s has a second return", r->name));
      } else if (nout) {
        FAIL(perr(p, nd->line, nd->col, "node after the return of %s", r->name));
      }
      TRY(resolve_arg(p, r, i, nd->args));
      TRY(resolve_arg(p, r, i, nd->kwargs));
      if (nd->dims) TRY(resolve_arg(p, r, i, nd->dims)); /* a node named in a buffer's dims */
      if (nd->kind == IR_FX_N_CALL && nd->op == IR_FX_FOR_LOOP) {
        const ir_fx_arg *sg = ir_fx_kwarg(nd, "subgraph");
        if (!sg) FAIL(perr(p, nd->tline, nd->tcol, "for_loop needs kwargs subgraph"));
        if (sg->kind != IR_FX_A_NAME && sg->kind != IR_FX_A_STR)
          FAIL(perr(p, sg->line, sg->col, "subgraph must name a region"));
        int k = ir_fx_find_region(g, sg->s);
        if (k < 0) FAIL(perr(p, sg->line, sg->col, "no region named '%s'", sg->s));
        if (k == ri) FAIL(perr(p, sg->line, sg->col, "region '%s' uses itself as a loop body", sg->s));
        g->regions[k].is_subgraph = true;
      }
    }
  }
  int root = -1, marked = -1;
  for (int ri = 0; ri < g->nregions; ri++) {
    if (g->regions[ri].root_mark) marked = ri;
    if (g->regions[ri].is_subgraph) continue;
    if (root >= 0 && marked < 0)
      FAIL(perr(p, g->regions[ri].line, g->regions[ri].col, "two root regions: '%s' and '%s' are not used as subgraphs",
                g->regions[root].name, g->regions[ri].name));
    root = ri;
  }
  if (marked >= 0) root = marked;
  if (root < 0) FAIL(perr(p, g->regions[0].line, g->regions[0].col, "no root region: every region is a loop body"));
  if (g->regions[root].is_subgraph)
    FAIL(perr(p, g->regions[root].line, g->regions[root].col, "the root region '%s' is also a loop body",
              g->regions[root].name));
  g->root = root;
fail:
  return st;
}

/* file -> { header NL { node NL } }   header -> NAME ['[' 'root' ']'] ':' ['graph' '(' ')' ':'] | 'graph' '(' ')' ':' */
ttref_status ir_fx_parse_string(const char *name, const char *text, size_t len, ir_fx **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  parser P = {.name = name ? name : "<input>", .text = text, .len = len, .line = 1, .col = 1, .err = err};
  parser *p = &P;
  rbuild rb = {0};
  int rcap = 0;
  bool in_graph = false, pending = false;
  char b[64];
  *out = NULL;
  if (len > FX_MAX_BYTES)
    FAIL(ir_error_set(err, TTREF_E_LIMIT, (ttref_loc){P.name, 0, 0}, "%s: trace larger than %zu bytes", P.name,
                      FX_MAX_BYTES));
  if (!(P.g = ir_calloc(1, sizeof *P.g)) || !(P.g->arena = ir_arena_new())) {
    if (P.g) ir_free(P.g, sizeof *P.g);
    P.g = NULL;
    FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  }
  P.g->filename = P.name;
  if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
    P.pos = 3;
  TRY(next(p));
  for (;;) {
    if (p->t.k == T_EOF) break;
    if (p->t.k == T_NL) {
      TRY(next(p));
      continue;
    }
    p->depth = 0;
    if (p->t.k == T_IDENT && !is_id_tok(p, "return")) {
      tok t = p->t;
      TRY(next(p));
      bool graph_hdr = t.n == 5 && !memcmp(t.s, "graph", 5) && is_p(p, '(');
      if (graph_hdr) { /* graph(): without a region label */
        TRY(next(p));
        TRY(expect_p(p, ')'));
        TRY(expect_p(p, ':'));
        TRY(end_of_line(p));
        if (pending) {
          in_graph = true; /* "region_0:" then "graph():" on the next line */
          pending = false;
        } else {
          if (P.g->nregions) TRY(finish_region(p, &rb));
          TRY(new_region(p, "graph", 5, t.line, t.col, &rcap));
          in_graph = true;
        }
        TRY(next(p));
        continue;
      }
      if (P.g->nregions) TRY(finish_region(p, &rb));
      TRY(new_region(p, t.s, t.n, t.line, t.col, &rcap));
      in_graph = true; /* nodes may follow directly */
      pending = true;
      if (is_p(p, '[')) {
        TRY(next(p));
        TRY(expect_id(p, "root"));
        TRY(expect_p(p, ']'));
        P.g->regions[P.g->nregions - 1].root_mark = true;
      }
      TRY(expect_p(p, ':'));
      if (is_id_tok(p, "graph")) {
        TRY(next(p));
        TRY(expect_p(p, '('));
        TRY(expect_p(p, ')'));
        TRY(expect_p(p, ':'));
        in_graph = true;
        pending = false;
      }
      TRY(end_of_line(p));
      TRY(next(p));
      continue;
    }
    if (p->t.k != T_REF && !is_id_tok(p, "return"))
      FAIL(perr(p, p->t.line, p->t.col, "expected a region header ('region_0:graph():'), a node or 'return', found %s",
                tdesc(&p->t, b, sizeof b)));
    pending = false;
    if (!P.g->nregions || !in_graph)
      FAIL(perr(p, p->t.line, p->t.col, "node outside a graph (expected 'region_0:graph():' first)"));
    if (rb.n == rb.cap) {
      int nc = rb.cap ? rb.cap * 2 : 16;
      ir_fx_node *nv = ir_realloc(rb.v, sizeof *nv * (size_t)rb.cap, sizeof *nv * (size_t)nc);
      if (!nv) FAIL(NOMEM(p));
      rb.v = nv;
      rb.cap = nc;
    }
    TRY(parse_node(p, &rb.v[rb.n]));
    rb.n++;
    TRY(next(p));
  }
  if (P.g->nregions) TRY(finish_region(p, &rb));
  TRY(resolve(p));
  *out = P.g;
  P.g = NULL;
fail:
  ir_free(rb.v, sizeof *rb.v * (size_t)rb.cap);
  ir_fx_free(P.g);
  return st;
}

void ir_fx_free(ir_fx *g)
{
  if (!g) return;
  ir_arena_free(g->arena);
  ir_free(g, sizeof *g);
}

/* the whole file into a heap buffer of *cap bytes */
static ttref_status read_all(const char *path, char **buf, size_t *len, size_t *cap, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  size_t n = 0;
  char *b = NULL;
  *cap = 0;
  FILE *f = fopen(path, "rb");
  if (!f) FAIL(ir_error_set(err, TTREF_E_IO, (ttref_loc){0}, "cannot read '%s'", path));
  for (;;) {
    if (n == *cap) {
      size_t nc = *cap ? *cap * 2 : 65536;
      if (nc > FX_MAX_BYTES * 2)
        FAIL(ir_error_set(err, TTREF_E_LIMIT, (ttref_loc){0}, "%s: trace larger than %zu bytes", path, FX_MAX_BYTES));
      char *nb = ir_realloc(b, *cap, nc);
      if (!nb) FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
      b = nb;
      *cap = nc;
    }
    size_t r = fread(b + n, 1, *cap - n, f);
    n += r;
    if (r == 0) break;
  }
  if (ferror(f)) FAIL(ir_error_set(err, TTREF_E_IO, (ttref_loc){0}, "cannot read '%s'", path));
fail:
  if (f) fclose(f);
  *buf = b;
  *len = n;
  return st;
}

ttref_status ir_fx_parse_file(const char *path, ir_fx **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  *out = NULL;
  TRY(read_all(path, &buf, &len, &cap, err));
  TRY(ir_fx_parse_string(path, buf, len, out, err));
fail:
  ir_free(buf, cap);
  return st;
}

bool ir_fx_sniff(const char *path, const char *text, size_t len)
{
  if (path) {
    size_t n = strlen(path);
    if (n >= 3 && !strcmp(path + n - 3, ".fx")) return true;
  }
  size_t i = 0;
  while (i < len) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) i++;
    if (i < len && text[i] == '#') {
      while (i < len && text[i] != '\n') i++;
      continue;
    }
    break;
  }
  size_t j = i;
  while (j < len && is_id((unsigned char)text[j])) j++;
  if (j == i) return false;
  if (j - i == 5 && !memcmp(text + i, "graph", 5) && j + 3 < len + 1 && j + 2 < len && text[j] == '(' &&
      text[j + 1] == ')')
    return true;
  size_t k = j;
  if (k < len && text[k] == ' ') k++;
  if (k + 6 <= len && !memcmp(text + k, "[root]", 6)) k += 6;
  if (k >= len || text[k] != ':') return false;
  k++;
  while (k < len && (text[k] == ' ' || text[k] == '\r')) k++;
  return k >= len || text[k] == '\n' || (k + 7 <= len && !memcmp(text + k, "graph()", 7));
}

bool ir_fx_sniff_file(const char *path)
{
  char buf[4096];
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return ir_fx_sniff(path, buf, n);
}
