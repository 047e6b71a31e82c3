/*
 * ir_parse.c: recursive-descent parser from TTIR text to the core IR.
 * Custom assembly formats of every op in ir_op_list.h plus the generic form;
 * SSA names resolved through a per-function hash table with region scopes;
 * loc aliases resolved (and checked for cycles) after the whole file is read.
 */
#include "config.h"
#include "ir_parse.h"
#include "ir_vendor.h"
#include "ir_lex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH IR_PARSE_MAX_DEPTH
#define MAX_REGIONS 16
#define MAX_SUCCS 16
#define FWD_ID UINT32_MAX
#define MAX_NUMEL ((int64_t)1 << 31)

/* ---- growable scratch stacks (LIFO by mark) ------------------------------ */
typedef struct vec {
  char *d;
  size_t n, cap; /* in elements */
} vec;

static ttref_status vec_grow(vec *v, size_t esz, size_t need)
{
  if (need <= v->cap) return TTREF_OK;
  size_t nc = v->cap ? v->cap * 2 : 64;
  while (nc < need) nc *= 2;
  char *d = ir_realloc(v->d, v->cap * esz, nc * esz);
  if (!d) return TTREF_E_NOMEM;
  v->d = d;
  v->cap = nc;
  return TTREF_OK;
}
static void vec_free(vec *v, size_t esz)
{
  ir_free(v->d, v->cap * esz);
  v->d = NULL;
  v->n = v->cap = 0;
}
#define VAT(v, T, i) (((T *)(v).d)[i])
#define VTOP(v, T) (((T *)(v).d) + (v).n)

typedef struct use {
  const char *p;
  uint32_t n;
  int line, col;
} use;

enum { SYM_VAL, SYM_FWD, SYM_LABEL, SYM_FWDLABEL };
typedef struct sym {
  const char *key;
  uint32_t len, hash;
  int next;
  int level;
  int kind;
  void *ptr;
} sym;

typedef struct fwdref {
  ir_value v; /* must be first: uses point here until resolved */
  ir_value *real;
  int line, col;
} fwdref;

/* string -> index hash map (open addressing); keys live elsewhere. Each slot
 * keeps its key's hash, so probes and rehashing rarely touch the keys. */
typedef struct sslot {
  int idx; /* -1: empty */
  uint32_t hash;
} sslot;
typedef struct smap {
  sslot *slot;
  size_t cap;
  size_t n;
} smap;

typedef struct alias_ent {
  const char *name; /* without '#' */
  size_t len;
  ir_loc *node;     /* IR_L_ALIAS node shared by all references (an alias_node) */
  int defined, is_loc;
  int ref_line, ref_col; /* first reference */
  int def_line, def_col;
  int used_as_loc;
} alias_ent;

/* the IR_L_ALIAS node of an alias: its index in aents rides along, so the
 * cycle check needs no hash lookups */
typedef struct alias_node {
  ir_loc loc; /* must be first */
  int idx;
} alias_node;

typedef struct attr_ref {
  const char *name;
  size_t len;
  int line, col;
} attr_ref;

typedef struct P {
  ir_lexer lx;
  ir_token tok;
  const char *last_end; /* end of the previously consumed token */
  ttref_error *err;
  ir_module *m;
  ir_arena *a;
  int depth;
  /* SSA / label table */
  sym *syms;
  size_t nsyms, capsyms;
  int *buckets;
  size_t nbuckets;
  int level;
  /* scratch */
  vec uses, vals, types, tys, attrs, ops, blocks, locs, svals, ints, flags, lnames, lc;
  /* function state */
  uint32_t next_id;
  int nfwd, had_fwd;
  ir_func *fn;
  /* aliases */
  vec aents;  /* alias_ent */
  smap amap;
  vec aliases; /* ir_alias in file order */
  vec arefs;   /* attr_ref: #alias uses inside attributes */
  /* functions and calls */
  vec funcs;  /* ir_func* */
  smap fmap;
  vec calls;  /* ir_op* */
  /* mnemonic table */
  short mn[512];
  const ttref_registry *reg; /* vendor ops (NULL: none) */
  const ir_type *t_i1, *t_i32, *t_i64;
} P;

/* ---- errors --------------------------------------------------------------------- */
static ttref_status perr(P *p, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static ttref_status perr(P *p, int line, int col, const char *fmt, ...)
{
  char body[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  return ir_lex_error(&p->lx, TTREF_E_SYNTAX, line, col, p->err, "%s", body);
}
#define TERR(...) perr(p, p->tok.line, p->tok.col, __VA_ARGS__)

static ttref_status nomem(P *p)
{
  return ir_lex_error(&p->lx, TTREF_E_NOMEM, p->tok.line, p->tok.col, p->err, "out of memory");
}

#define NEW(ptr, bytes)                                                        \
  do {                                                                         \
    (ptr) = ir_arena_alloc(p->a, (bytes));                                     \
    if (!(ptr)) FAIL(nomem(p));                                                \
  } while (0)
#define PUSH(v, T, x)                                                          \
  do {                                                                         \
    if ((v).n >= (v).cap && vec_grow(&(v), sizeof(T), (v).n + 1)) FAIL(nomem(p)); \
    ((T *)(v).d)[(v).n++] = (x);                                               \
  } while (0)

static const char *tokdesc(P *p, char *buf, size_t n)
{
  if (p->tok.kind == IR_TK_EOF) return "end of file";
  size_t k = p->tok.n < 40 ? p->tok.n : 40;
  snprintf(buf, n, "'%.*s'", (int)k, p->tok.p);
  return buf;
}

/* ---- tokens ------------------------------------------------------------------------ */
static ttref_status next(P *p)
{
  if (p->tok.p) p->last_end = p->tok.p + p->tok.n; /* no token before the first */
  return ir_lex_next(&p->lx, &p->tok, p->err);
}
static bool is(P *p, ir_tok_kind k) { return p->tok.kind == k; }
static bool tok_eq(const ir_token *t, const char *s)
{
  size_t n = strlen(s);
  return t->n == n && memcmp(t->p, s, n) == 0;
}
static bool is_kw(P *p, const char *kw) { return p->tok.kind == IR_TK_IDENT && tok_eq(&p->tok, kw); }

static ttref_status expect(P *p, ir_tok_kind k, const char *what)
{
  char b[64];
  if (p->tok.kind != k) return TERR("expected %s, found %s", what, tokdesc(p, b, sizeof b));
  return next(p);
}
static ttref_status expect_kw(P *p, const char *kw)
{
  char b[64];
  if (!is_kw(p, kw)) return TERR("expected '%s', found %s", kw, tokdesc(p, b, sizeof b));
  return next(p);
}
/* consume k if present */
static ttref_status accept(P *p, ir_tok_kind k, bool *got)
{
  *got = p->tok.kind == k;
  return *got ? next(p) : TTREF_OK;
}

static ttref_status depth_in(P *p)
{
  if (++p->depth > MAX_DEPTH) return TERR("nesting too deep (more than %d levels)", MAX_DEPTH);
  return TTREF_OK;
}

static char *astr(P *p, const char *s, size_t n) { return ir_arena_strndup(p->a, s, n); }

/* ---- hashing ----------------------------------------------------------------- */
static uint32_t hash_bytes(const char *s, size_t n)
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
  return hash_bytes(s, k) + v;
}

/* smap: returns slot index of key (or of the empty slot where it would go) */
typedef const char *(*smap_key_fn)(P *p, int idx, size_t *len);
static size_t smap_probe(P *p, smap *m, const char *k, size_t n, smap_key_fn kf)
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
static ttref_status smap_grow(smap *m)
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
static const char *akey(P *p, int i, size_t *len)
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
static int sym_find(P *p, const char *k, size_t n)
{
  if (!p->nbuckets) return -1;
  uint32_t h = hash_bytes(k, n);
  for (int i = p->buckets[h & (p->nbuckets - 1)]; i >= 0; i = p->syms[i].next)
    if (p->syms[i].hash == h && p->syms[i].len == n && memcmp(p->syms[i].key, k, n) == 0) return i;
  return -1;
}

static ttref_status sym_push(P *p, const char *k, size_t n, int kind, void *ptr)
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
  s->hash = hash_bytes(k, n);
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
      FAIL(perr(p, b->line, b->col, "use of undefined block '^%s'", b->label));
    }
    if (s->kind == SYM_FWD && p->level <= 1) {
      fwdref *f = s->ptr;
      FAIL(perr(p, f->line, f->col, "use of undefined value '%%%s'", f->v.name));
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

static ttref_status type_mismatch(P *p, int line, int col, const char *name, const ir_type *have,
                                  const ir_type *want)
{
  char a[256], b[256];
  ir_type_str(have, a, sizeof a);
  ir_type_str(want, b, sizeof b);
  return perr(p, line, col, "'%%%s' has type %s but is used as %s", name, a, b);
}

/* Look up a use; creates a forward placeholder when the name is not yet defined. */
static ttref_status resolve(P *p, const use *u, const ir_type *t, ir_value **out)
{
  ttref_status st = TTREF_OK;
  int i = sym_find(p, u->p, u->n);
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
    if (!f->v.name) FAIL(nomem(p));
    if (sym_push(p, u->p, u->n, SYM_FWD, f)) FAIL(nomem(p));
    p->nfwd++;
    p->had_fwd = 1;
    *out = &f->v;
  }
fail:
  return st;
}

/* Define key (e.g. "%x", "%x#1") as v. */
static ttref_status define(P *p, const char *k, size_t n, ir_value *v, int line, int col)
{
  ttref_status st = TTREF_OK;
  int i = sym_find(p, k, n);
  v->id = p->next_id++;
  if (i >= 0 && p->syms[i].kind == SYM_VAL) FAIL(perr(p, line, col, "redefinition of value '%.*s'", (int)n, k));
  if (i >= 0 && p->syms[i].kind == SYM_FWD) {
    fwdref *f = p->syms[i].ptr;
    if (p->syms[i].level != p->level)
      FAIL(perr(p, f->line, f->col, "value '%.*s' is used outside the region that defines it", (int)n, k));
    if (f->v.type && f->v.type != v->type) FAIL(type_mismatch(p, f->line, f->col, v->name, v->type, f->v.type));
    f->real = v;
    p->syms[i].kind = SYM_VAL;
    p->syms[i].ptr = v;
    p->nfwd--;
  } else {
    if (sym_push(p, k, n, SYM_VAL, v)) FAIL(nomem(p));
  }
fail:
  return st;
}

/* ---- numbers ---------------------------------------------------------------------- */
static ttref_status tok_int(P *p, const ir_token *t, int64_t *v, bool *hex)
{
  char buf[80];
  if (t->n >= sizeof buf) return perr(p, t->line, t->col, "integer literal too long");
  memcpy(buf, t->p, t->n);
  buf[t->n] = 0;
  bool neg = buf[0] == '-';
  const char *s = buf + neg;
  errno = 0;
  *hex = s[0] == '0' && s[1] == 'x';
  if (*hex) {
    if (strlen(s) > 18) return perr(p, t->line, t->col, "hexadecimal literal wider than 64 bits");
    uint64_t u = strtoull(s, NULL, 16);
    *v = neg ? -(int64_t)u : (int64_t)u;
    return TTREF_OK;
  }
  *v = strtoll(buf, NULL, 10);
  if (errno == ERANGE) {
    /* unsigned 64-bit values are legal spellings of i64 bit patterns */
    errno = 0;
    uint64_t u = neg ? 0 : strtoull(buf, NULL, 10);
    if (neg || errno == ERANGE) return perr(p, t->line, t->col, "integer literal out of range");
    *v = (int64_t)u;
  }
  return TTREF_OK;
}

static ttref_status tok_float(P *p, const ir_token *t, double *v)
{
  char buf[400];
  if (t->n >= sizeof buf) return perr(p, t->line, t->col, "float literal too long");
  memcpy(buf, t->p, t->n);
  buf[t->n] = 0;
  *v = strtod(buf, NULL);
  if (isinf(*v)) return perr(p, t->line, t->col, "float literal out of range");
  return TTREF_OK;
}

/* Fit an integer to width bits: i1 -> 0/1, else sign-extended. */
static ttref_status fit_int(P *p, int line, int col, int64_t v, int bits, int64_t *out)
{
  if (bits >= 64) {
    *out = v;
    return TTREF_OK;
  }
  int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << bits) - 1;
  if (v < lo || v > hi) return perr(p, line, col, "integer value %lld does not fit in i%d", (long long)v, bits);
  uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & mask;
  if (bits == 1) *out = (int64_t)u;
  else *out = (u >> (bits - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
  return TTREF_OK;
}

/* ---- types (character level) ------------------------------------------------------- */
enum { HINT_NONE, HINT_PTR, HINT_DESC };
typedef struct cpos {
  const char *q;
  int line;
  const char *lstart;
} cpos;

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
#define CERR(...) perr(p, c->line, (int)(c->q - c->lstart) + 1, __VA_ARGS__)
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
    return *out ? TTREF_OK : nomem(p);
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
  while (c->q < p->lx.end && (isalnum((unsigned char)*c->q) || *c->q == '_' || *c->q == '.' || *c->q == '$' || *c->q == '-')) c->q++;
  if (!cis(p, c, '<')) return TTREF_OK;
  int d = 0;
  while (c->q < p->lx.end) {
    char ch = *c->q;
    if (ch == '\n') { c->line++; c->lstart = c->q + 1; }
    if (ch == '<') d++;
    if (ch == '>' && !(c->q > p->lx.buf && c->q[-1] == '-')) {
      if (--d == 0) { c->q++; return TTREF_OK; }
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
  if (!*out) FAIL(nomem(p));
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
  if (!*out) FAIL(nomem(p));
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
  if (!*out) FAIL(nomem(p));
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
  else if (cis(p, c, '<') && hint == HINT_PTR) { c->q++; TRY(cptr(p, c, out)); }
  else if (cis(p, c, '<') && hint == HINT_DESC) { c->q++; TRY(cdesc(p, c, out)); }
  else if (cis(p, c, '!')) {
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
static ttref_status parse_type(P *p, int hint, const ir_type **out)
{
  ttref_status st = TTREF_OK;
  cpos c = {p->tok.p, p->tok.line, p->tok.p - (p->tok.col - 1)};
  if (p->tok.kind == IR_TK_EOF) FAIL(TERR("expected type, found end of file"));
  TRY(ctype(p, &c, hint, out));
  ir_lex_seek(&p->lx, c.q, c.line, c.lstart);
  p->tok.p = c.q;
  p->tok.n = 0;
  TRY(next(p));
fail:
  return st;
}

/* types -> type (',' type)* ; pushed on p->tys */
static ttref_status parse_types(P *p, int hint, size_t *n)
{
  ttref_status st = TTREF_OK;
  bool more = true;
  *n = 0;
  while (more) {
    const ir_type *t;
    TRY(parse_type(p, *n == 0 ? hint : HINT_NONE, &t));
    PUSH(p->tys, const ir_type *, t);
    (*n)++;
    TRY(accept(p, IR_TK_COMMA, &more));
  }
fail:
  return st;
}

/* fn-type -> '(' [types] ')' '->' (type | '(' [types] ')') ; inputs then outputs on p->tys */
static ttref_status parse_fn_type(P *p, size_t *nin, size_t *nout)
{
  ttref_status st = TTREF_OK;
  bool got;
  *nin = *nout = 0;
  TRY(expect(p, IR_TK_LPAREN, "'('"));
  if (!is(p, IR_TK_RPAREN)) TRY(parse_types(p, HINT_NONE, nin));
  TRY(expect(p, IR_TK_RPAREN, "')'"));
  TRY(expect(p, IR_TK_ARROW, "'->'"));
  TRY(accept(p, IR_TK_LPAREN, &got));
  if (got) {
    if (!is(p, IR_TK_RPAREN)) TRY(parse_types(p, HINT_NONE, nout));
    TRY(expect(p, IR_TK_RPAREN, "')'"));
  } else {
    const ir_type *t;
    TRY(parse_type(p, HINT_NONE, &t));
    PUSH(p->tys, const ir_type *, t);
    *nout = 1;
  }
fail:
  return st;
}

/* ---- locations ----------------------------------------------------------------- */
static ttref_status alias_lookup(P *p, const char *name, size_t n, int line, int col, alias_ent **out)
{
  ttref_status st = TTREF_OK;
  if (smap_grow(&p->amap)) FAIL(nomem(p));
  size_t s = smap_probe(p, &p->amap, name, n, akey);
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
    if (!e.name) FAIL(nomem(p));
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

static ttref_status parse_string_tok(P *p, char **out, size_t *len)
{
  ttref_status st = TTREF_OK;
  if (!is(p, IR_TK_STRING)) FAIL(TERR("expected string"));
  char *s;
  NEW(s, p->tok.n);
  *len = ir_lex_unescape(p->tok.p + 1, p->tok.n - 2, s);
  s[*len] = 0;
  *out = s;
  TRY(next(p));
fail:
  return st;
}

static ttref_status skip_balanced(P *p, const char **start, const char **end);

/* locinst -> "unknown" | STRING [':' INT ':' INT [to ..]] | STRING '(' locinst ')'
 *          | "callsite" '(' locinst "at" locinst ')' | "fused" ['<' attr '>'] '[' locs ']' | HASH */
static ttref_status parse_locinst(P *p, const ir_loc **out)
{
  ttref_status st = TTREF_OK;
  ir_loc *l;
  TRY(depth_in(p));
  if (is(p, IR_TK_HASH)) {
    alias_ent *e;
    TRY(alias_lookup(p, p->tok.p + 1, p->tok.n - 1, p->tok.line, p->tok.col, &e));
    e->used_as_loc = 1;
    *out = e->node;
    TRY(next(p));
  } else if (is_kw(p, "unknown")) {
    NEW(l, sizeof *l);
    l->kind = IR_L_UNKNOWN;
    *out = l;
    TRY(next(p));
  } else if (is(p, IR_TK_STRING)) {
    NEW(l, sizeof *l);
    char *s;
    size_t n;
    TRY(parse_string_tok(p, &s, &n));
    l->str = s;
    bool got;
    if (is(p, IR_TK_COLON)) {
      l->kind = IR_L_FILE;
      TRY(next(p));
      int64_t v;
      bool hx;
      if (!is(p, IR_TK_INT)) FAIL(TERR("expected line number"));
      TRY(tok_int(p, &p->tok, &v, &hx));
      if (v < 0 || v > INT32_MAX) FAIL(TERR("line number out of range"));
      l->line = (int)v;
      TRY(next(p));
      if (is(p, IR_TK_COLON)) {
        TRY(next(p));
        if (!is(p, IR_TK_INT)) FAIL(TERR("expected column number"));
        TRY(tok_int(p, &p->tok, &v, &hx));
        if (v < 0 || v > INT32_MAX) FAIL(TERR("column number out of range"));
        l->col = (int)v;
        TRY(next(p));
      }
      if (is_kw(p, "to")) { /* FileLineColRange end: accepted, not kept */
        TRY(next(p));
        if (is(p, IR_TK_INT)) TRY(next(p));
        if (is(p, IR_TK_COLON)) {
          TRY(next(p));
          if (!is(p, IR_TK_INT)) FAIL(TERR("expected column number"));
          TRY(next(p));
        }
      }
    } else {
      l->kind = IR_L_NAME;
      TRY(accept(p, IR_TK_LPAREN, &got));
      if (got) {
        TRY(parse_locinst(p, &l->a));
        TRY(expect(p, IR_TK_RPAREN, "')'"));
      }
    }
    *out = l;
  } else if (is_kw(p, "callsite")) {
    NEW(l, sizeof *l);
    l->kind = IR_L_CALLSITE;
    TRY(next(p));
    TRY(expect(p, IR_TK_LPAREN, "'('"));
    TRY(parse_locinst(p, &l->a));
    TRY(expect_kw(p, "at"));
    TRY(parse_locinst(p, &l->b));
    TRY(expect(p, IR_TK_RPAREN, "')'"));
    *out = l;
  } else if (is_kw(p, "fused")) {
    NEW(l, sizeof *l);
    l->kind = IR_L_FUSED;
    TRY(next(p));
    if (is(p, IR_TK_LT)) {
      const char *s = p->tok.p, *e;
      /* metadata attribute kept verbatim: from '<' to the matching '>' */
      ir_lex_seek(&p->lx, p->tok.p, p->tok.line, p->tok.p - (p->tok.col - 1));
      TRY(skip_balanced(p, &s, &e));
      l->str = astr(p, s + 1, (size_t)(e - s) - 2);
      if (!l->str) FAIL(nomem(p));
    }
    TRY(expect(p, IR_TK_LBRACKET, "'['"));
    size_t mark = p->locs.n;
    while (!is(p, IR_TK_RBRACKET)) {
      const ir_loc *it;
      TRY(parse_locinst(p, &it));
      PUSH(p->locs, const ir_loc *, it);
      if (!is(p, IR_TK_RBRACKET)) TRY(expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(next(p));
    l->nitems = (int)(p->locs.n - mark);
    if (l->nitems) {
      NEW(l->items, sizeof(ir_loc *) * (size_t)l->nitems);
      memcpy(l->items, &VAT(p->locs, const ir_loc *, mark), sizeof(ir_loc *) * (size_t)l->nitems);
    }
    p->locs.n = mark;
    *out = l;
  } else {
    char b[64];
    FAIL(TERR("expected location, found %s", tokdesc(p, b, sizeof b)));
  }
  p->depth--;
fail:
  return st;
}

/* loc -> "loc" '(' locinst ')' */
static ttref_status parse_loc(P *p, const ir_loc **out)
{
  ttref_status st = TTREF_OK;
  TRY(expect_kw(p, "loc"));
  TRY(expect(p, IR_TK_LPAREN, "'('"));
  TRY(parse_locinst(p, out));
  TRY(expect(p, IR_TK_RPAREN, "')'"));
fail:
  return st;
}
static ttref_status parse_opt_loc(P *p, const ir_loc **out)
{
  *out = NULL;
  return is_kw(p, "loc") ? parse_loc(p, out) : TTREF_OK;
}

/* ---- attributes ------------------------------------------------------------------ */
/* Skip a balanced <...> group starting at the lexer cursor (which must be at
 * '<'); start and end delimit it. The next token is lexed afterwards. */
static ttref_status skip_balanced(P *p, const char **start, const char **end)
{
  ttref_status st = TTREF_OK;
  cpos c0 = {p->lx.cur, p->lx.line, p->lx.lstart}, *c = &c0;
  int d = 0;
  *start = c->q;
  while (c->q < p->lx.end) {
    char ch = *c->q;
    if (ch == '\n') { c->line++; c->lstart = c->q + 1; }
    else if (ch == '"') {
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
        TRY(next(p));
        goto fail; /* done */
      }
      if (d < 0) FAIL(CERR("unbalanced brackets"));
    }
    c->q++;
  }
  FAIL(perr(p, p->tok.line, p->tok.col, "unterminated '<' group"));
fail:
  return st;
}

static bool is_type_start(P *p)
{
  if (is(p, IR_TK_BANG)) return true;
  if (!is(p, IR_TK_IDENT)) return false;
  if (tok_eq(&p->tok, "tensor")) return true;
  for (int i = 0; i < IR_S_PTR; i++)
    if (tok_eq(&p->tok, ir_scalar_name((ir_scalar)i))) return true;
  return false;
}

static ttref_status parse_attr(P *p, ir_attr *a);

/* dict-body -> entry (',' entry)* '}' ; entry -> (IDENT|STRING) ['=' attr]; sorted, on p->attrs */
static int attr_cmp(const void *x, const void *y)
{
  return strcmp(((const ir_attr *)x)->name, ((const ir_attr *)y)->name);
}

static ttref_status parse_dict_entries(P *p, ir_tok_kind close, size_t *count)
{
  ttref_status st = TTREF_OK;
  size_t mark = p->attrs.n;
  while (!is(p, close)) {
    ir_attr a = {0};
    int line = p->tok.line, col = p->tok.col;
    if (is(p, IR_TK_IDENT)) {
      a.name = astr(p, p->tok.p, p->tok.n);
      if (!a.name) FAIL(nomem(p));
      TRY(next(p));
    } else if (is(p, IR_TK_STRING)) {
      char *s;
      size_t n;
      TRY(parse_string_tok(p, &s, &n));
      a.name = s;
    } else {
      char b[64];
      FAIL(TERR("expected attribute name, found %s", tokdesc(p, b, sizeof b)));
    }
    if (is(p, IR_TK_EQUAL)) {
      TRY(next(p));
      TRY(parse_attr(p, &a));
    } else {
      a.kind = IR_A_UNIT;
    }
    for (size_t i = mark; i < p->attrs.n; i++)
      if (strcmp(VAT(p->attrs, ir_attr, i).name, a.name) == 0)
        FAIL(perr(p, line, col, "duplicate attribute '%s'", a.name));
    PUSH(p->attrs, ir_attr, a);
    if (!is(p, close)) TRY(expect(p, IR_TK_COMMA, "',' or '}'"));
  }
  TRY(next(p));
  *count = p->attrs.n - mark;
  if (*count > 1) qsort(&VAT(p->attrs, ir_attr, mark), *count, sizeof(ir_attr), attr_cmp);
fail:
  return st;
}

static ttref_status take_attrs(P *p, size_t mark, ir_attr **out, int *n)
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
  TRY(depth_in(p));
  if (is(p, IR_TK_LBRACKET)) {
    TRY(next(p));
    while (!is(p, IR_TK_RBRACKET)) {
      TRY(parse_dense_elems(p));
      if (!is(p, IR_TK_RBRACKET)) TRY(expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(next(p));
  } else {
    ir_scalar_val v;
    int fl;
    bool hx;
    if (is(p, IR_TK_INT)) {
      TRY(tok_int(p, &p->tok, &v.i, &hx));
      fl = hx ? EL_HEX : EL_INT;
    } else if (is(p, IR_TK_FLOAT)) {
      TRY(tok_float(p, &p->tok, &v.f));
      fl = EL_FLOAT;
    } else if (is_kw(p, "true") || is_kw(p, "false")) {
      v.i = is_kw(p, "true");
      fl = EL_BOOL;
    } else {
      char b[64];
      FAIL(TERR("expected dense element, found %s", tokdesc(p, b, sizeof b)));
    }
    PUSH(p->svals, ir_scalar_val, v);
    PUSH(p->flags, int, fl);
    PUSH(p->lc, int, p->tok.line);
    PUSH(p->lc, int, p->tok.col);
    TRY(next(p));
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
  TRY(next(p));
  TRY(expect(p, IR_TK_LT, "'<'"));
  if (is(p, IR_TK_STRING)) {
    blob = p->tok.p + 1;
    bloblen = p->tok.n - 2;
    TRY(next(p));
  } else if (!is(p, IR_TK_GT)) {
    TRY(parse_dense_elems(p));
  }
  TRY(expect(p, IR_TK_GT, "'>'"));
  TRY(expect(p, IR_TK_COLON, "':' and a type after dense<...>"));
  const ir_type *t;
  int tl = p->tok.line, tc = p->tok.col;
  TRY(parse_type(p, HINT_NONE, &t));
  if (t->kind != IR_T_TENSOR) FAIL(perr(p, tl, tc, "dense attribute needs a tensor type"));
  const ir_type *et = t->elem;
  if (et->kind != IR_T_SCALAR) FAIL(perr(p, tl, tc, "dense attribute needs int or float elements"));
  int bits = ir_scalar_bits(et->scalar);
  bool isf = ir_scalar_is_float(et->scalar);
  a->kind = IR_A_DENSE;
  a->type = t;
  if (blob) {
    if (bloblen < 2 || blob[0] != '0' || blob[1] != 'x') FAIL(perr(p, line, col, "dense string must be a hex blob \"0x...\""));
    size_t nb = (bloblen - 2) / 2, esz = (size_t)(bits + 7) / 8;
    if ((bloblen - 2) % 2) FAIL(perr(p, line, col, "odd number of hex digits in dense blob"));
    for (size_t i = 2; i < bloblen; i++)
      if (!isxdigit((unsigned char)blob[i])) FAIL(perr(p, line, col, "invalid hex digit in dense blob"));
    int64_t cnt = (int64_t)(nb / esz);
    if (nb % esz || (cnt != t->numel && cnt != 1)) FAIL(perr(p, line, col, "dense blob has %zu bytes, expected %lld", nb, (long long)(t->numel * (int64_t)esz)));
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
    FAIL(perr(p, line, col, "dense literal has %zu elements but %s needs %lld", cnt, "the type", (long long)t->numel));
  a->nvals = (int64_t)cnt;
  a->splat = cnt == 1 && t->numel != 1;
  NEW(a->vals, sizeof(ir_scalar_val) * (cnt ? cnt : 1));
  int nhex = 0, ndec = 0;
  for (size_t i = 0; i < cnt; i++) {
    int fl = VAT(p->flags, int, mark + i);
    int el = VAT(p->lc, int, 2 * (mark + i)), ec = VAT(p->lc, int, 2 * (mark + i) + 1);
    ir_scalar_val v = VAT(p->svals, ir_scalar_val, mark + i);
    if (isf) {
      if (fl == EL_BOOL) FAIL(perr(p, el, ec, "boolean element in a float dense literal"));
      if (fl == EL_HEX) {
        nhex++;
        if (bits < 64 && ((uint64_t)v.i >> bits)) FAIL(perr(p, el, ec, "hex bit pattern wider than the element type"));
      } else {
        ndec++;
        if (fl == EL_INT) v.f = (double)v.i;
      }
    } else {
      if (fl == EL_FLOAT) FAIL(perr(p, el, ec, "float element in an integer dense literal"));
      if (fl == EL_BOOL && bits != 1) FAIL(perr(p, el, ec, "boolean element in a non-i1 dense literal"));
      TRY(fit_int(p, el, ec, v.i, bits, &v.i));
    }
    a->vals[i] = v;
  }
  if (nhex && ndec) FAIL(perr(p, line, col, "mixing hex bit patterns and decimal floats in one dense literal is not supported"));
  a->hex = nhex > 0;
fail:
  p->svals.n = mark;
  p->flags.n = mark;
  p->lc.n = 2 * mark;
  return st;
}

/* attr -> true|false|unit|INT [':' type]|FLOAT [':' type]|STRING|dense|array|dict|list|@sym|#..|type|IDENT '<'..'>' */
static ttref_status parse_attr(P *p, ir_attr *a)
{
  ttref_status st = TTREF_OK;
  int line = p->tok.line, col = p->tok.col;
  TRY(depth_in(p));
  if (is_kw(p, "true") || is_kw(p, "false")) {
    a->kind = IR_A_BOOL;
    a->i = is_kw(p, "true");
    a->type = p->t_i1;
    TRY(next(p));
  } else if (is_kw(p, "unit")) {
    a->kind = IR_A_UNIT;
    TRY(next(p));
  } else if (is(p, IR_TK_INT) || is(p, IR_TK_FLOAT)) {
    ir_token t = p->tok;
    TRY(next(p));
    const ir_type *ty = NULL;
    if (is(p, IR_TK_COLON)) {
      TRY(next(p));
      int tl = p->tok.line, tc = p->tok.col;
      TRY(parse_type(p, HINT_NONE, &ty));
      if (ty->kind != IR_T_SCALAR) FAIL(perr(p, tl, tc, "expected an integer or float type"));
    }
    a->type = ty;
    if (t.kind == IR_TK_FLOAT) {
      if (ty && !ir_scalar_is_float(ty->scalar)) FAIL(perr(p, line, col, "float literal with an integer type"));
      a->kind = IR_A_FLOAT;
      TRY(tok_float(p, &t, &a->f));
    } else {
      bool hx;
      int64_t v;
      TRY(tok_int(p, &t, &v, &hx));
      if (ty && ir_scalar_is_float(ty->scalar)) {
        a->kind = IR_A_FLOAT;
        if (hx) {
          int bits = ir_scalar_bits(ty->scalar);
          if (bits < 64 && ((uint64_t)v >> bits)) FAIL(perr(p, line, col, "hex bit pattern wider than %s", ir_scalar_name(ty->scalar)));
          a->hex = true;
          a->i = v;
        } else {
          a->f = (double)v;
        }
      } else {
        a->kind = IR_A_INT;
        if (ty) TRY(fit_int(p, line, col, v, ir_scalar_bits(ty->scalar), &v));
        a->i = v;
        if (ty && ty->scalar == IR_S_I1) a->kind = IR_A_BOOL;
      }
    }
  } else if (is(p, IR_TK_STRING)) {
    char *s;
    TRY(parse_string_tok(p, &s, &a->slen));
    a->kind = IR_A_STRING;
    a->s = s;
  } else if (is_kw(p, "dense")) {
    TRY(parse_dense(p, a));
  } else if (is_kw(p, "array")) {
    TRY(next(p));
    TRY(expect(p, IR_TK_LT, "'<'"));
    const ir_type *et;
    int tl = p->tok.line, tc = p->tok.col;
    TRY(parse_type(p, HINT_NONE, &et));
    if (et->kind != IR_T_SCALAR || !ir_scalar_is_int(et->scalar)) FAIL(perr(p, tl, tc, "only integer arrays are supported"));
    a->kind = IR_A_ARRAY;
    a->type = et;
    size_t mark = p->ints.n;
    if (is(p, IR_TK_COLON)) {
      TRY(next(p));
      for (;;) {
        int64_t v;
        bool hx;
        if (is_kw(p, "true") || is_kw(p, "false")) v = is_kw(p, "true");
        else if (is(p, IR_TK_INT)) TRY(tok_int(p, &p->tok, &v, &hx));
        else FAIL(TERR("expected integer array element"));
        TRY(fit_int(p, p->tok.line, p->tok.col, v, ir_scalar_bits(et->scalar), &v));
        PUSH(p->ints, int64_t, v);
        TRY(next(p));
        if (!is(p, IR_TK_COMMA)) break;
        TRY(next(p));
      }
    }
    TRY(expect(p, IR_TK_GT, "'>'"));
    a->nints = (int)(p->ints.n - mark);
    if (a->nints) {
      NEW(a->ints, sizeof(int64_t) * (size_t)a->nints);
      memcpy(a->ints, &VAT(p->ints, int64_t, mark), sizeof(int64_t) * (size_t)a->nints);
    }
    p->ints.n = mark;
  } else if (is(p, IR_TK_LBRACE)) {
    size_t mark = p->attrs.n, n;
    TRY(next(p));
    TRY(parse_dict_entries(p, IR_TK_RBRACE, &n));
    a->kind = IR_A_DICT;
    TRY(take_attrs(p, mark, &a->items, &a->nitems));
  } else if (is(p, IR_TK_LBRACKET)) {
    size_t mark = p->attrs.n;
    TRY(next(p));
    while (!is(p, IR_TK_RBRACKET)) {
      ir_attr it = {0};
      TRY(parse_attr(p, &it));
      PUSH(p->attrs, ir_attr, it);
      if (!is(p, IR_TK_RBRACKET)) TRY(expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(next(p));
    a->kind = IR_A_LIST;
    TRY(take_attrs(p, mark, &a->items, &a->nitems));
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
      if (!a->s) FAIL(nomem(p));
    }
    TRY(next(p));
    if (is(p, IR_TK_COLONCOLON)) FAIL(TERR("nested symbol references are not supported"));
  } else if (is(p, IR_TK_HASH) || (is(p, IR_TK_IDENT) && !is_type_start(p))) {
    /* #alias, #dialect.attr<...>, or keyword<...> kept verbatim */
    ir_token t = p->tok;
    const char *s = t.p, *e = t.p + t.n;
    if (p->lx.cur < p->lx.end && *p->lx.cur == '<') {
      const char *bs;
      TRY(skip_balanced(p, &bs, &e));
    } else {
      if (t.kind == IR_TK_IDENT) {
        char b[64];
        FAIL(TERR("unknown attribute %s", tokdesc(p, b, sizeof b)));
      }
      if (!memchr(t.p, '.', t.n)) {
        attr_ref r = {t.p + 1, t.n - 1, t.line, t.col};
        PUSH(p->arefs, attr_ref, r);
      }
      TRY(next(p));
    }
    a->kind = IR_A_OPAQUE;
    a->s = astr(p, s, (size_t)(e - s));
    a->slen = (size_t)(e - s);
    if (!a->s) FAIL(nomem(p));
  } else if (is_type_start(p)) {
    a->kind = IR_A_TYPE;
    TRY(parse_type(p, HINT_NONE, &a->type));
  } else {
    char b[64];
    FAIL(TERR("expected attribute value, found %s", tokdesc(p, b, sizeof b)));
  }
  p->depth--;
fail:
  return st;
}

/* opt-attr-dict -> ['{' dict-body] ; entries pushed on p->attrs */
static ttref_status parse_opt_attr_dict(P *p)
{
  ttref_status st = TTREF_OK;
  if (is(p, IR_TK_LBRACE)) {
    size_t n;
    TRY(next(p));
    TRY(parse_dict_entries(p, IR_TK_RBRACE, &n));
  }
fail:
  return st;
}

/* ---- enums: custom keywords <-> canonical integer values --------------------------- */
typedef struct enum_set {
  const char *const *names;
  int n, base;
  const int *vals; /* NULL: base + index */
} enum_set;

static const char *const e_cmpi[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
static const char *const e_cmpf[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                     "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"};
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
#define ESET(arr, base) {arr, (int)(sizeof arr / sizeof arr[0]), base, NULL}
static const enum_set S_CMPI = ESET(e_cmpi, 0), S_CMPF = ESET(e_cmpf, 0), S_CACHE = ESET(e_cache, 1),
                      S_EVICT = ESET(e_evict, 1), S_SEM = ESET(e_sem, 1), S_SCOPE = ESET(e_scope, 1),
                      S_RMW = ESET(e_rmw, 1), S_PREC = ESET(e_prec, 0), S_ROUND = ESET(e_round, 0),
                      S_NAN = {e_nan, 2, 0, v_nan}, S_SDT = ESET(e_sdt, 0), S_AXIS = ESET(e_axis, 0),
                      S_DRED = ESET(e_dred, 0);

static const enum_set *enum_for(ir_opcode op, const char *name)
{
  switch (op) {
  case IR_OP_CMPI: return strcmp(name, "predicate") ? NULL : &S_CMPI;
  case IR_OP_CMPF: return strcmp(name, "predicate") ? NULL : &S_CMPF;
  case IR_OP_LOAD: case IR_OP_STORE: case IR_OP_DESC_LOAD: case IR_OP_XDESC_LOAD:
    return !strcmp(name, "cache") ? &S_CACHE : !strcmp(name, "evict") ? &S_EVICT : NULL;
  case IR_OP_ATOMIC_RMW:
    if (!strcmp(name, "atomic_rmw_op")) return &S_RMW;
    /* fallthrough */
  case IR_OP_ATOMIC_CAS:
    return !strcmp(name, "sem") ? &S_SEM : !strcmp(name, "scope") ? &S_SCOPE : NULL;
  case IR_OP_DOT: return strcmp(name, "inputPrecision") ? NULL : &S_PREC;
  case IR_OP_FP_TO_FP: return strcmp(name, "rounding") ? NULL : &S_ROUND;
  case IR_OP_CLAMPF: return strcmp(name, "propagateNan") ? NULL : &S_NAN;
  case IR_OP_DOT_SCALED:
    return (!strcmp(name, "a_elem_type") || !strcmp(name, "b_elem_type")) ? &S_SDT : NULL;
  case IR_OP_GET_PROGRAM_ID: case IR_OP_GET_NUM_PROGRAMS: return strcmp(name, "axis") ? NULL : &S_AXIS;
  case IR_OP_DESC_REDUCE: return strcmp(name, "kind") ? NULL : &S_DRED;
  case IR_OP_DESC_STORE: return strcmp(name, "reduce_kind") ? NULL : &S_DRED;
  default: return NULL;
  }
}

static int enum_index_of_val(const enum_set *e, int64_t v)
{
  for (int i = 0; i < e->n; i++)
    if ((e->vals ? e->vals[i] : e->base + i) == v) return i;
  return -1;
}

/* keyword at the current token -> ENUM attr `name` pushed on p->attrs */
static ttref_status push_enum_kw(P *p, ir_opcode op, const char *name)
{
  ttref_status st = TTREF_OK;
  const enum_set *e = enum_for(op, name);
  char b[64];
  if (!is(p, IR_TK_IDENT)) FAIL(TERR("expected %s keyword, found %s", name, tokdesc(p, b, sizeof b)));
  for (int i = 0; i < e->n; i++)
    if (tok_eq(&p->tok, e->names[i])) {
      ir_attr a = {0};
      a.name = name;
      a.kind = IR_A_ENUM;
      a.i = e->vals ? e->vals[i] : e->base + i;
      a.s = e->names[i];
      a.slen = strlen(a.s);
      PUSH(p->attrs, ir_attr, a);
      TRY(next(p));
      goto fail;
    }
  FAIL(TERR("unknown %s '%.*s'", name, (int)(p->tok.n > 40 ? 40 : p->tok.n), p->tok.p));
fail:
  return st;
}

/* ---- op construction ----------------------------------------------------------- */
typedef struct opb {
  ir_op *op;
  size_t vmark, tmark, amark, umark, tymark;
  ir_region regs[MAX_REGIONS];
  int nregs;
  ir_succ succs[MAX_SUCCS];
  int nsuccs;
  int line, col;
} opb;

static ttref_status parse_use(P *p, use *u)
{
  char b[64];
  if (!is(p, IR_TK_PERCENT)) return TERR("expected SSA value, found %s", tokdesc(p, b, sizeof b));
  u->p = p->tok.p;
  u->n = (uint32_t)p->tok.n;
  u->line = p->tok.line;
  u->col = p->tok.col;
  return next(p);
}

/* uses -> [%v (',' %v)*] ; pushed on p->uses */
static ttref_status parse_uses(P *p, size_t *n)
{
  ttref_status st = TTREF_OK;
  *n = 0;
  while (is(p, IR_TK_PERCENT)) {
    use u;
    TRY(parse_use(p, &u));
    PUSH(p->uses, use, u);
    (*n)++;
    if (!is(p, IR_TK_COMMA)) break;
    TRY(next(p));
    if (!is(p, IR_TK_PERCENT)) FAIL(TERR("expected SSA value after ','"));
  }
fail:
  return st;
}

static ttref_status opnd(P *p, const use *u, const ir_type *t)
{
  ttref_status st = TTREF_OK;
  ir_value *v;
  TRY(resolve(p, u, t, &v));
  PUSH(p->vals, ir_value *, v);
fail:
  return st;
}
static ttref_status result(P *p, const ir_type *t)
{
  ttref_status st = TTREF_OK;
  PUSH(p->types, const ir_type *, t);
fail:
  return st;
}

static const ir_type *shape_like(P *p, const ir_type *like, const ir_type *elem)
{
  return ir_type_with_elem(p->m, like, elem);
}
static const ir_type *i1_like(P *p, const ir_type *like) { return shape_like(p, like, p->t_i1); }

/* pointee of a pointer-like type: ptr<T> -> T; tensor<..x ptr<T>> -> tensor<..xT> */
static const ir_type *pointee_of(P *p, const ir_type *t)
{
  if (t->kind == IR_T_PTR) return t->elem;
  if (t->kind == IR_T_TENSOR && t->elem->kind == IR_T_PTR) return ir_type_tensor(p->m, t->elem->elem, t->rank, t->shape);
  return NULL;
}

static ttref_status type_at(P *p, int hint, const ir_type **t, int *line, int *col)
{
  *line = p->tok.line;
  *col = p->tok.col;
  return parse_type(p, hint, t);
}

/* optional `fastmath<...>` / `overflow<...>` / rounding keyword on arith ops */
static ttref_status parse_arith_flags(P *p, bool allow_round)
{
  ttref_status st = TTREF_OK;
  for (;;) {
    if ((is_kw(p, "fastmath") || is_kw(p, "overflow")) && p->lx.cur < p->lx.end && *p->lx.cur == '<') {
      bool fm = is_kw(p, "fastmath");
      const char *s, *e;
      TRY(skip_balanced(p, &s, &e));
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
      if (!a.s) FAIL(nomem(p));
      PUSH(p->attrs, ir_attr, a);
      TRY(next(p));
    } else {
      break;
    }
  }
fail:
  return st;
}

/* oilist(`cacheModifier` `=` kw | `evictionPolicy` `=` kw) */
static ttref_status parse_cache_evict(P *p, ir_opcode code)
{
  ttref_status st = TTREF_OK;
  for (;;) {
    if (is_kw(p, "cacheModifier")) {
      TRY(next(p));
      TRY(expect(p, IR_TK_EQUAL, "'='"));
      TRY(push_enum_kw(p, code, "cache"));
    } else if (is_kw(p, "evictionPolicy")) {
      TRY(next(p));
      TRY(expect(p, IR_TK_EQUAL, "'='"));
      TRY(push_enum_kw(p, code, "evict"));
    } else if (is_kw(p, "reduce_kind") && code == IR_OP_DESC_STORE) {
      TRY(next(p));
      TRY(expect(p, IR_TK_EQUAL, "'='"));
      TRY(push_enum_kw(p, code, "reduce_kind"));
    } else {
      break;
    }
  }
fail:
  return st;
}

static ttref_status parse_region(P *p, ir_region *r, ir_value *args, int nargs, bool entry_given,
                                 const char *const *keys, const size_t *klens);

/* values + names for block arguments declared by an op (scf.for, scf.while, tt.func) */
typedef struct argdecl {
  use name;
  const ir_type *type;
  const ir_loc *loc;
} argdecl;

static ttref_status make_args(P *p, size_t mark, size_t n, ir_value **out, const char ***keys, size_t **klens)
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
    if (!v[i].name) FAIL(nomem(p));
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
static ttref_status ensure_yield(P *p, ir_region *r, const opb *b)
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

static ttref_status parse_succ(P *p, opb *b, bool with_args);

/* Parse the body of a custom-format op (after its mnemonic). */
static ttref_status parse_custom(P *p, opb *b)
{
  ttref_status st = TTREF_OK;
  ir_op *op = b->op;
  ir_opcode code = op->code;
  use u[8];
  const ir_type *t1 = NULL, *t2 = NULL, *t3 = NULL;
  int l1, c1, l2, c2;
  size_t n, nin, nout;
  bool got;
  int nfix = ir_op_nopnds(code);

  switch (code) {
  /* ---- elementwise same-type: op %a[, %b[, %c]] [flags] attrs : T ---- */
  case IR_OP_ADDI: case IR_OP_SUBI: case IR_OP_MULI: case IR_OP_DIVSI: case IR_OP_DIVUI:
  case IR_OP_CEILDIVSI: case IR_OP_CEILDIVUI: case IR_OP_FLOORDIVSI: case IR_OP_REMSI: case IR_OP_REMUI:
  case IR_OP_ANDI: case IR_OP_ORI: case IR_OP_XORI: case IR_OP_SHLI: case IR_OP_SHRSI: case IR_OP_SHRUI:
  case IR_OP_MINSI: case IR_OP_MINUI: case IR_OP_MAXSI: case IR_OP_MAXUI:
  case IR_OP_ADDF: case IR_OP_SUBF: case IR_OP_MULF: case IR_OP_DIVF: case IR_OP_REMF: case IR_OP_NEGF:
  case IR_OP_MAXNUMF: case IR_OP_MINNUMF: case IR_OP_MAXIMUMF: case IR_OP_MINIMUMF:
  case IR_OP_MATH_EXP: case IR_OP_MATH_EXP2: case IR_OP_MATH_LOG: case IR_OP_MATH_LOG2: case IR_OP_MATH_SIN:
  case IR_OP_MATH_COS: case IR_OP_MATH_SQRT: case IR_OP_MATH_RSQRT: case IR_OP_MATH_ERF: case IR_OP_MATH_FLOOR:
  case IR_OP_MATH_CEIL: case IR_OP_MATH_ABSF: case IR_OP_MATH_ABSI: case IR_OP_MATH_FMA: case IR_OP_MATH_TANH:
  case IR_OP_MATH_TRUNC: case IR_OP_MATH_ROUND: case IR_OP_MATH_ROUNDEVEN: case IR_OP_MATH_LOG1P:
  case IR_OP_MATH_EXPM1: case IR_OP_MATH_POWF: case IR_OP_MATH_CTPOP: case IR_OP_MATH_CTLZ: case IR_OP_MATH_CTTZ:
  case IR_OP_PRECISE_SQRT: case IR_OP_PRECISE_DIVF: case IR_OP_MULHIUI:
    for (int i = 0; i < nfix; i++) {
      if (i) TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[i]));
    }
    TRY(parse_arith_flags(p, false));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    for (int i = 0; i < nfix; i++) TRY(opnd(p, &u[i], t1));
    TRY(result(p, t1));
    break;

  case IR_OP_CMPI: case IR_OP_CMPF:
    TRY(push_enum_kw(p, code, "predicate"));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_use(p, &u[0]));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_use(p, &u[1]));
    TRY(parse_arith_flags(p, false));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(opnd(p, &u[0], t1));
    TRY(opnd(p, &u[1], t1));
    TRY(result(p, i1_like(p, t1)));
    break;

  case IR_OP_SELECT:
    for (int i = 0; i < 3; i++) {
      if (i) TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[i]));
    }
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(accept(p, IR_TK_COMMA, &got));
    if (got) TRY(parse_type(p, HINT_NONE, &t2));
    else { t2 = t1; t1 = p->t_i1; }
    TRY(opnd(p, &u[0], t1));
    TRY(opnd(p, &u[1], t2));
    TRY(opnd(p, &u[2], t2));
    TRY(result(p, t2));
    break;

  /* ---- casts: op %x [round] [flags] attrs : A to B ---- */
  case IR_OP_EXTSI: case IR_OP_EXTUI: case IR_OP_TRUNCI: case IR_OP_INDEX_CAST: case IR_OP_EXTF:
  case IR_OP_TRUNCF: case IR_OP_SITOFP: case IR_OP_UITOFP: case IR_OP_FPTOSI: case IR_OP_FPTOUI:
  case IR_OP_BITCAST: case IR_OP_REINTERPRET_DESC:
    TRY(parse_use(p, &u[0]));
    if (code != IR_OP_REINTERPRET_DESC) TRY(parse_arith_flags(p, code == IR_OP_TRUNCF));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    if (is(p, IR_TK_ARROW) && code == IR_OP_REINTERPRET_DESC) TRY(next(p));
    else TRY(expect_kw(p, "to"));
    TRY(parse_type(p, code == IR_OP_REINTERPRET_DESC ? HINT_DESC : HINT_NONE, &t2));
    TRY(opnd(p, &u[0], t1));
    TRY(result(p, t2));
    break;

  /* ---- tt one-operand A -> B ---- */
  case IR_OP_SPLAT: case IR_OP_BROADCAST: case IR_OP_EXPAND_DIMS: case IR_OP_INT_TO_PTR:
  case IR_OP_PTR_TO_INT: case IR_OP_TT_BITCAST: case IR_OP_TRANS: case IR_OP_SPLIT:
  case IR_OP_RESHAPE: case IR_OP_FP_TO_FP: case IR_OP_HISTOGRAM: case IR_OP_CAT: case IR_OP_JOIN: {
    int nu = 1;
    TRY(parse_use(p, &u[0]));
    if (code == IR_OP_CAT || code == IR_OP_JOIN) {
      TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[nu++]));
    }
    if (code == IR_OP_HISTOGRAM && is(p, IR_TK_COMMA)) {
      TRY(next(p));
      TRY(parse_use(p, &u[nu++]));
    }
    if (code == IR_OP_FP_TO_FP) {
      while (is(p, IR_TK_COMMA)) {
        TRY(next(p));
        if (is(p, IR_TK_PERCENT) && nu == 1) TRY(parse_use(p, &u[nu++]));
        else {
          TRY(expect_kw(p, "rounding"));
          TRY(expect(p, IR_TK_EQUAL, "'='"));
          TRY(push_enum_kw(p, code, "rounding"));
        }
      }
    }
    if (code == IR_OP_RESHAPE) {
      while (is_kw(p, "allow_reorder") || is_kw(p, "efficient_layout")) {
        ir_attr a = {0};
        a.name = is_kw(p, "allow_reorder") ? "allow_reorder" : "efficient_layout";
        a.kind = IR_A_UNIT;
        PUSH(p->attrs, ir_attr, a);
        TRY(next(p));
      }
    }
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(expect(p, IR_TK_ARROW, "'->'"));
    TRY(parse_type(p, HINT_NONE, &t2));
    TRY(opnd(p, &u[0], t1));
    if (code == IR_OP_CAT || code == IR_OP_JOIN) TRY(opnd(p, &u[1], t1));
    else if (code == IR_OP_HISTOGRAM && nu == 2) TRY(opnd(p, &u[1], i1_like(p, t1)));
    else if (code == IR_OP_FP_TO_FP && nu == 2) TRY(opnd(p, &u[1], NULL));
    TRY(result(p, t2));
    if (code == IR_OP_SPLIT) TRY(result(p, t2));
    break;
  }

  case IR_OP_UNSPLAT:
    TRY(parse_use(p, &u[0]));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(type_at(p, HINT_NONE, &t1, &l1, &c1));
    if (t1->kind != IR_T_TENSOR) FAIL(perr(p, l1, c1, "tt.unsplat needs a tensor operand"));
    TRY(opnd(p, &u[0], t1));
    TRY(result(p, t1->elem));
    break;

  case IR_OP_GET_PROGRAM_ID: case IR_OP_GET_NUM_PROGRAMS:
    if (is(p, IR_TK_IDENT)) TRY(push_enum_kw(p, code, "axis"));
    /* fallthrough */
  case IR_OP_MAKE_RANGE: case IR_OP_POISON:
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(result(p, t1));
    break;

  case IR_OP_CONSTANT: {
    TRY(parse_opt_attr_dict(p));
    ir_attr a = {0};
    int la = p->tok.line, ca = p->tok.col;
    TRY(parse_attr(p, &a));
    a.name = "value";
    if (a.kind == IR_A_INT && !a.type) a.type = p->t_i64;
    if (a.kind == IR_A_FLOAT && !a.type) a.type = ir_type_scalar(p->m, IR_S_F64);
    if (a.kind != IR_A_INT && a.kind != IR_A_FLOAT && a.kind != IR_A_BOOL && a.kind != IR_A_DENSE)
      FAIL(perr(p, la, ca, "unsupported arith.constant value"));
    PUSH(p->attrs, ir_attr, a);
    TRY(result(p, a.type));
    break;
  }

  case IR_OP_ADDPTR:
    TRY(parse_use(p, &u[0]));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_use(p, &u[1]));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_type(p, HINT_NONE, &t2));
    TRY(opnd(p, &u[0], t1));
    TRY(opnd(p, &u[1], t2));
    TRY(result(p, t1));
    break;

  case IR_OP_LOAD: case IR_OP_STORE: {
    int nu = 0, first_opt = code == IR_OP_LOAD ? 1 : 2;
    TRY(parse_use(p, &u[nu++]));
    if (code == IR_OP_STORE) {
      TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[nu++]));
    }
    while (is(p, IR_TK_COMMA) && nu < first_opt + (code == IR_OP_LOAD ? 2 : 1)) {
      TRY(next(p));
      TRY(parse_use(p, &u[nu++]));
    }
    TRY(parse_cache_evict(p, code));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(type_at(p, HINT_NONE, &t1, &l1, &c1));
    const ir_type *pt = pointee_of(p, t1);
    if (!pt) FAIL(perr(p, l1, c1, "%s needs a pointer or tensor-of-pointers type", ir_op_name(code)));
    TRY(opnd(p, &u[0], t1));
    for (int i = 1; i < nu; i++) {
      bool is_mask = (code == IR_OP_LOAD && i == 1) || (code == IR_OP_STORE && i == 2);
      TRY(opnd(p, &u[i], is_mask ? i1_like(p, pt) : pt));
    }
    if (code == IR_OP_LOAD) TRY(result(p, pt));
    break;
  }

  case IR_OP_ATOMIC_RMW: case IR_OP_ATOMIC_CAS: {
    if (code == IR_OP_ATOMIC_RMW) {
      TRY(push_enum_kw(p, code, "atomic_rmw_op"));
      TRY(expect(p, IR_TK_COMMA, "','"));
    }
    TRY(push_enum_kw(p, code, "sem"));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(push_enum_kw(p, code, "scope"));
    TRY(expect(p, IR_TK_COMMA, "','"));
    size_t um = p->uses.n, tm = p->tys.n;
    TRY(parse_uses(p, &n));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    TRY(parse_fn_type(p, &nin, &nout));
    if (nin != n || nout != 1) FAIL(perr(p, l1, c1, "type list does not match %zu operands and 1 result", n));
    for (size_t i = 0; i < n; i++) TRY(opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
    TRY(result(p, VAT(p->tys, const ir_type *, tm + nin)));
    p->uses.n = um;
    p->tys.n = tm;
    break;
  }

  case IR_OP_DOT:
    for (int i = 0; i < 3; i++) {
      if (i) TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[i]));
    }
    if (is(p, IR_TK_COMMA)) {
      TRY(next(p));
      TRY(expect_kw(p, "inputPrecision"));
      TRY(expect(p, IR_TK_EQUAL, "'='"));
      TRY(push_enum_kw(p, code, "inputPrecision"));
    }
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(expect(p, IR_TK_STAR, "'*'"));
    TRY(parse_type(p, HINT_NONE, &t2));
    TRY(expect(p, IR_TK_ARROW, "'->'"));
    TRY(parse_type(p, HINT_NONE, &t3));
    TRY(opnd(p, &u[0], t1));
    TRY(opnd(p, &u[1], t2));
    TRY(opnd(p, &u[2], t3));
    TRY(result(p, t3));
    break;

  case IR_OP_DOT_SCALED: {
    bool has_as = false, has_bs = false;
    const ir_type *tas = NULL, *tbs = NULL;
    TRY(parse_use(p, &u[0]));
    if (is_kw(p, "scale")) { TRY(next(p)); TRY(parse_use(p, &u[3])); has_as = true; }
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_use(p, &u[1]));
    if (is_kw(p, "scale")) { TRY(next(p)); TRY(parse_use(p, &u[4])); has_bs = true; }
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_use(p, &u[2]));
    TRY(expect_kw(p, "lhs"));
    TRY(expect(p, IR_TK_EQUAL, "'='"));
    TRY(push_enum_kw(p, code, "a_elem_type"));
    TRY(expect_kw(p, "rhs"));
    TRY(expect(p, IR_TK_EQUAL, "'='"));
    TRY(push_enum_kw(p, code, "b_elem_type"));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    if (has_as) { TRY(expect(p, IR_TK_COMMA, "','")); TRY(parse_type(p, HINT_NONE, &tas)); }
    TRY(expect(p, IR_TK_STAR, "'*'"));
    TRY(parse_type(p, HINT_NONE, &t2));
    if (has_bs) { TRY(expect(p, IR_TK_COMMA, "','")); TRY(parse_type(p, HINT_NONE, &tbs)); }
    TRY(expect(p, IR_TK_ARROW, "'->'"));
    TRY(parse_type(p, HINT_NONE, &t3));
    TRY(opnd(p, &u[0], t1));
    TRY(opnd(p, &u[1], t2));
    TRY(opnd(p, &u[2], t3));
    if (has_as) TRY(opnd(p, &u[3], tas));
    if (has_bs) TRY(opnd(p, &u[4], tbs));
    TRY(result(p, t3));
    ir_attr a = {0};
    a.name = "operandSegmentSizes";
    a.kind = IR_A_ARRAY;
    a.type = p->t_i32;
    a.nints = 5;
    NEW(a.ints, 5 * sizeof(int64_t));
    a.ints[0] = a.ints[1] = a.ints[2] = 1;
    a.ints[3] = has_as;
    a.ints[4] = has_bs;
    PUSH(p->attrs, ir_attr, a);
    break;
  }

  case IR_OP_MAKE_TENSOR_PTR: case IR_OP_ADVANCE: case IR_OP_MAKE_TENSOR_DESC: {
    size_t um = p->uses.n, cnt[3] = {0, 0, 0};
    int nlists = code == IR_OP_MAKE_TENSOR_PTR ? 3 : code == IR_OP_ADVANCE ? 1 : 2;
    TRY(parse_use(p, &u[0]));
    for (int k = 0; k < nlists; k++) {
      TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(expect(p, IR_TK_LBRACKET, "'['"));
      TRY(parse_uses(p, &cnt[k]));
      TRY(expect(p, IR_TK_RBRACKET, "']'"));
    }
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(type_at(p, HINT_PTR, &t1, &l1, &c1));
    if (code == IR_OP_MAKE_TENSOR_DESC) {
      TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(type_at(p, HINT_DESC, &t2, &l2, &c2));
      if (t2->kind != IR_T_DESC) FAIL(perr(p, l2, c2, "expected a tensor descriptor type"));
      TRY(opnd(p, &u[0], t1));
    } else {
      if (t1->kind != IR_T_PTR || t1->elem->kind != IR_T_TENSOR) FAIL(perr(p, l1, c1, "expected a block pointer type"));
      if (code == IR_OP_MAKE_TENSOR_PTR) {
        const ir_type *base = ir_type_ptr(p->m, t1->elem->elem, t1->addrspace);
        TRY(opnd(p, &u[0], base));
      } else {
        TRY(opnd(p, &u[0], t1));
      }
    }
    size_t k = um;
    for (int li = 0; li < nlists; li++) {
      const ir_type *lt = p->t_i32;
      if (code == IR_OP_MAKE_TENSOR_PTR && li < 2) lt = p->t_i64;
      if (code == IR_OP_MAKE_TENSOR_DESC && li == 1) lt = p->t_i64;
      for (size_t i = 0; i < cnt[li]; i++, k++) TRY(opnd(p, &VAT(p->uses, use, k), lt));
    }
    p->uses.n = um;
    TRY(result(p, code == IR_OP_MAKE_TENSOR_DESC ? t2 : t1));
    break;
  }

  case IR_OP_DESC_LOAD: case IR_OP_XDESC_LOAD: case IR_OP_DESC_STORE: case IR_OP_XDESC_STORE:
  case IR_OP_DESC_REDUCE: {
    size_t um = p->uses.n;
    bool store = code != IR_OP_DESC_LOAD && code != IR_OP_XDESC_LOAD;
    if (code == IR_OP_DESC_REDUCE) {
      TRY(push_enum_kw(p, code, "kind"));
      TRY(expect(p, IR_TK_COMMA, "','"));
    }
    TRY(parse_use(p, &u[0]));
    TRY(expect(p, IR_TK_LBRACKET, "'['"));
    TRY(parse_uses(p, &n));
    TRY(expect(p, IR_TK_RBRACKET, "']'"));
    if (store) {
      TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[1]));
    }
    TRY(parse_cache_evict(p, code));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_DESC, &t1));
    if (store) TRY(expect(p, IR_TK_COMMA, "','"));
    else TRY(expect(p, IR_TK_ARROW, "'->'"));
    TRY(parse_type(p, HINT_NONE, &t2));
    TRY(opnd(p, &u[0], t1));
    if (store) TRY(opnd(p, &u[1], t2));
    for (size_t i = 0; i < n; i++) TRY(opnd(p, &VAT(p->uses, use, um + i), p->t_i32));
    p->uses.n = um;
    if (!store) TRY(result(p, t2));
    break;
  }

  case IR_OP_DESC_GATHER: case IR_OP_XDESC_GATHER: case IR_OP_DESC_SCATTER: case IR_OP_XDESC_SCATTER: {
    bool scatter = code == IR_OP_DESC_SCATTER || code == IR_OP_XDESC_SCATTER;
    size_t tm = p->tys.n;
    TRY(parse_use(p, &u[0]));
    TRY(expect(p, IR_TK_LBRACKET, "'['"));
    TRY(parse_use(p, &u[1]));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_use(p, &u[2]));
    TRY(expect(p, IR_TK_RBRACKET, "']'"));
    if (scatter) {
      TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[3]));
    }
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    if (scatter) {
      TRY(parse_types(p, HINT_DESC, &nin));
      if (nin != 4) FAIL(perr(p, l1, c1, "expected 4 operand types"));
      for (int i = 0; i < 4; i++) TRY(opnd(p, &u[i], VAT(p->tys, const ir_type *, tm + (size_t)i)));
    } else {
      TRY(parse_fn_type(p, &nin, &nout));
      if (nin != 3 || nout != 1) FAIL(perr(p, l1, c1, "expected (desc, offsets, offset) -> result"));
      for (int i = 0; i < 3; i++) TRY(opnd(p, &u[i], VAT(p->tys, const ir_type *, tm + (size_t)i)));
      TRY(result(p, VAT(p->tys, const ir_type *, tm + 3)));
    }
    p->tys.n = tm;
    break;
  }

  case IR_OP_GATHER:
    TRY(parse_use(p, &u[0]));
    TRY(expect(p, IR_TK_LBRACKET, "'['"));
    TRY(parse_use(p, &u[1]));
    TRY(expect(p, IR_TK_RBRACKET, "']'"));
    /* fallthrough */
  case IR_OP_EXTERN_ELEMENTWISE: case IR_OP_CALL: {
    size_t um = p->uses.n, tm = p->tys.n, nu = 2;
    if (code == IR_OP_CALL) {
      if (!is(p, IR_TK_AT)) FAIL(TERR("expected callee symbol"));
      if (p->tok.p[1] == '"') {
        char *s;
        NEW(s, p->tok.n);
        s[ir_lex_unescape(p->tok.p + 2, p->tok.n - 3, s)] = 0;
        op->callee = s;
      } else {
        op->callee = astr(p, p->tok.p + 1, p->tok.n - 1);
        if (!op->callee) FAIL(nomem(p));
      }
      TRY(next(p));
      TRY(expect(p, IR_TK_LPAREN, "'('"));
    }
    if (code != IR_OP_GATHER) TRY(parse_uses(p, &nu));
    if (code == IR_OP_CALL) TRY(expect(p, IR_TK_RPAREN, "')'"));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    TRY(parse_fn_type(p, &nin, &nout));
    if (nin != nu) FAIL(perr(p, l1, c1, "%zu operand types for %zu operands", nin, nu));
    for (size_t i = 0; i < nu; i++)
      TRY(opnd(p, code == IR_OP_GATHER ? &u[i] : &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
    for (size_t i = 0; i < nout; i++) TRY(result(p, VAT(p->tys, const ir_type *, tm + nin + i)));
    p->uses.n = um;
    p->tys.n = tm;
    if (code == IR_OP_CALL) PUSH(p->calls, ir_op *, op);
    break;
  }

  /* ---- terminators with value lists: [attrs] [uses ':' types] [attrs] ---- */
  case IR_OP_RETURN: case IR_OP_SCF_YIELD: case IR_OP_REDUCE_RETURN: case IR_OP_SCAN_RETURN:
  case IR_OP_MAP_ELEM_RETURN: case IR_OP_SCF_CONDITION: {
    size_t um = p->uses.n, tm = p->tys.n;
    if (code == IR_OP_SCF_CONDITION) {
      TRY(expect(p, IR_TK_LPAREN, "'('"));
      TRY(parse_use(p, &u[0]));
      TRY(expect(p, IR_TK_RPAREN, "')'"));
      TRY(opnd(p, &u[0], p->t_i1));
    }
    TRY(parse_opt_attr_dict(p));
    TRY(parse_uses(p, &n));
    if (n) {
      TRY(parse_opt_attr_dict(p));
      TRY(expect(p, IR_TK_COLON, "':'"));
      l1 = p->tok.line;
      c1 = p->tok.col;
      TRY(parse_types(p, HINT_NONE, &nin));
      if (nin != n) FAIL(perr(p, l1, c1, "%zu types for %zu values", nin, n));
      for (size_t i = 0; i < n; i++) TRY(opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
    }
    p->uses.n = um;
    p->tys.n = tm;
    break;
  }

  case IR_OP_PRINT: {
    ir_attr a = {0};
    char *s;
    TRY(parse_string_tok(p, &s, &a.slen));
    a.name = "prefix";
    a.kind = IR_A_STRING;
    a.s = s;
    PUSH(p->attrs, ir_attr, a);
    TRY(parse_opt_attr_dict(p));
    if (is(p, IR_TK_COLON)) {
      size_t um = p->uses.n, tm = p->tys.n;
      TRY(next(p));
      TRY(parse_uses(p, &n));
      TRY(expect(p, IR_TK_COLON, "':'"));
      l1 = p->tok.line;
      c1 = p->tok.col;
      TRY(parse_types(p, HINT_NONE, &nin));
      if (nin != n) FAIL(perr(p, l1, c1, "%zu types for %zu values", nin, n));
      for (size_t i = 0; i < n; i++) TRY(opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
      p->uses.n = um;
      p->tys.n = tm;
    }
    break;
  }

  case IR_OP_ASSERT: {
    TRY(parse_use(p, &u[0]));
    TRY(expect(p, IR_TK_COMMA, "','"));
    static const char *const names[] = {"message", "file", "func"};
    for (int i = 0; i < 4; i++) {
      ir_attr a = {0};
      if (i == 3) {
        a.name = "line";
        a.kind = IR_A_INT;
        if (!is(p, IR_TK_INT)) FAIL(TERR("expected line number"));
        bool hx;
        TRY(tok_int(p, &p->tok, &a.i, &hx));
        a.type = p->t_i32;
        TRY(next(p));
      } else {
        char *s;
        TRY(parse_string_tok(p, &s, &a.slen));
        a.name = names[i];
        a.kind = IR_A_STRING;
        a.s = s;
      }
      PUSH(p->attrs, ir_attr, a);
      if (!is(p, IR_TK_COMMA)) break;
      TRY(next(p));
    }
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(opnd(p, &u[0], t1));
    break;
  }

  case IR_OP_ASSUME:
    TRY(parse_use(p, &u[0]));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    TRY(opnd(p, &u[0], t1));
    break;

  case IR_OP_GPU_BARRIER: case IR_OP_TTG_BARRIER:
    if (code == IR_OP_TTG_BARRIER && is(p, IR_TK_IDENT) && !is_kw(p, "loc")) {
      const char *s = p->tok.p;
      TRY(next(p));
      while (is(p, IR_TK_VBAR)) {
        TRY(next(p));
        if (!is(p, IR_TK_IDENT)) FAIL(TERR("expected barrier address space"));
        TRY(next(p));
      }
      ir_attr a = {0};
      a.name = "addrSpace";
      a.kind = IR_A_ENUM;
      a.s = astr(p, s, (size_t)(p->last_end - s));
      a.slen = (size_t)(p->last_end - s);
      if (!a.s) FAIL(nomem(p));
      PUSH(p->attrs, ir_attr, a);
    }
    TRY(parse_opt_attr_dict(p));
    break;

  case IR_OP_CLAMPF:
    for (int i = 0; i < 3; i++) {
      if (i) TRY(expect(p, IR_TK_COMMA, "','"));
      TRY(parse_use(p, &u[i]));
    }
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(expect_kw(p, "propagateNan"));
    TRY(expect(p, IR_TK_EQUAL, "'='"));
    TRY(push_enum_kw(p, code, "propagateNan"));
    TRY(parse_opt_attr_dict(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &t1));
    for (int i = 0; i < 3; i++) TRY(opnd(p, &u[i], t1));
    TRY(result(p, t1));
    break;

  case IR_OP_INLINE_ASM: {
    ir_attr a = {0};
    char *s;
    TRY(parse_string_tok(p, &s, &a.slen));
    a.name = "asm_string";
    a.kind = IR_A_STRING;
    a.s = s;
    PUSH(p->attrs, ir_attr, a);
    TRY(parse_opt_attr_dict(p));
    size_t um = p->uses.n, tm = p->tys.n;
    TRY(parse_uses(p, &n));
    if (n) {
      TRY(expect(p, IR_TK_COLON, "':'"));
      l1 = p->tok.line;
      c1 = p->tok.col;
      TRY(parse_types(p, HINT_NONE, &nin));
      if (nin != n) FAIL(perr(p, l1, c1, "%zu types for %zu values", nin, n));
      for (size_t i = 0; i < n; i++) TRY(opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
      p->tys.n = tm;
    }
    TRY(expect(p, IR_TK_ARROW, "'->'"));
    if (is_type_start(p)) {
      TRY(parse_types(p, HINT_NONE, &nout));
      for (size_t i = 0; i < nout; i++) TRY(result(p, VAT(p->tys, const ir_type *, tm + i)));
    }
    p->uses.n = um;
    p->tys.n = tm;
    break;
  }

  case IR_OP_CF_BR:
    TRY(parse_succ(p, b, true));
    TRY(parse_opt_attr_dict(p));
    break;
  case IR_OP_CF_COND_BR:
    TRY(parse_use(p, &u[0]));
    TRY(opnd(p, &u[0], p->t_i1));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_succ(p, b, true));
    TRY(expect(p, IR_TK_COMMA, "','"));
    TRY(parse_succ(p, b, true));
    TRY(parse_opt_attr_dict(p));
    break;

  /* scf.for [unsigned] %iv = %lb to %ub step %s [iter_args(%a = %x, ..) -> (T..)] [: T] region [attrs] */
  case IR_OP_SCF_FOR: {
    size_t lm = p->lnames.n, um = p->uses.n, tm = p->tys.n;
    if (is_kw(p, "unsigned")) {
      ir_attr a = {0};
      a.name = "unsignedCmp";
      a.kind = IR_A_UNIT;
      PUSH(p->attrs, ir_attr, a);
      TRY(next(p));
    }
    argdecl iv = {0};
    TRY(parse_use(p, &iv.name));
    TRY(expect(p, IR_TK_EQUAL, "'='"));
    TRY(parse_use(p, &u[0]));
    TRY(expect_kw(p, "to"));
    TRY(parse_use(p, &u[1]));
    TRY(expect_kw(p, "step"));
    TRY(parse_use(p, &u[2]));
    size_t nit = 0;
    if (is_kw(p, "iter_args")) {
      TRY(next(p));
      TRY(expect(p, IR_TK_LPAREN, "'('"));
      while (!is(p, IR_TK_RPAREN)) {
        argdecl d = {0};
        use init;
        TRY(parse_use(p, &d.name));
        TRY(expect(p, IR_TK_EQUAL, "'='"));
        TRY(parse_use(p, &init));
        PUSH(p->uses, use, init);
        PUSH(p->lnames, argdecl, d);
        nit++;
        if (!is(p, IR_TK_RPAREN)) TRY(expect(p, IR_TK_COMMA, "',' or ')'"));
      }
      TRY(next(p));
      TRY(expect(p, IR_TK_ARROW, "'->'"));
      l1 = p->tok.line;
      c1 = p->tok.col;
      TRY(accept(p, IR_TK_LPAREN, &got));
      size_t nt = 0;
      if (got) {
        if (!is(p, IR_TK_RPAREN)) TRY(parse_types(p, HINT_NONE, &nt));
        TRY(expect(p, IR_TK_RPAREN, "')'"));
      } else {
        TRY(parse_types(p, HINT_NONE, &nt));
      }
      if (nt != nit) FAIL(perr(p, l1, c1, "%zu result types for %zu iter_args", nt, nit));
    }
    if (!is(p, IR_TK_COLON)) FAIL(TERR("scf.for needs ': i32' or ': i64' (index loops are not supported)"));
    TRY(next(p));
    TRY(parse_type(p, HINT_NONE, &t1));
    for (int i = 0; i < 3; i++) TRY(opnd(p, &u[i], t1));
    for (size_t i = 0; i < nit; i++) {
      const ir_type *it = VAT(p->tys, const ir_type *, tm + i);
      TRY(opnd(p, &VAT(p->uses, use, um + i), it));
      VAT(p->lnames, argdecl, lm + i).type = it;
      TRY(result(p, it));
    }
    iv.type = t1;
    /* entry args: iv first, then the iter args */
    PUSH(p->lnames, argdecl, iv);
    argdecl *base = &VAT(p->lnames, argdecl, lm);
    memmove(base + 1, base, sizeof(argdecl) * nit);
    base[0] = iv;
    ir_value *args;
    const char **keys;
    size_t *klens;
    TRY(make_args(p, lm, nit + 1, &args, &keys, &klens));
    p->lnames.n = lm;
    p->uses.n = um;
    p->tys.n = tm;
    b->nregs = 1;
    TRY(parse_region(p, &b->regs[0], args, (int)nit + 1, true, keys, klens));
    if (nit == 0) TRY(ensure_yield(p, &b->regs[0], b));
    TRY(parse_opt_attr_dict(p));
    break;
  }

  /* scf.if %c [-> (T..)] region [else region] [attrs] */
  case IR_OP_SCF_IF: {
    size_t tm = p->tys.n;
    TRY(parse_use(p, &u[0]));
    TRY(opnd(p, &u[0], p->t_i1));
    if (is(p, IR_TK_ARROW)) {
      TRY(next(p));
      TRY(accept(p, IR_TK_LPAREN, &got));
      if (got) {
        if (!is(p, IR_TK_RPAREN)) TRY(parse_types(p, HINT_NONE, &n));
        TRY(expect(p, IR_TK_RPAREN, "')'"));
      } else {
        TRY(parse_types(p, HINT_NONE, &n));
      }
      for (size_t i = tm; i < p->tys.n; i++) TRY(result(p, VAT(p->tys, const ir_type *, i)));
    }
    p->tys.n = tm;
    b->nregs = 2;
    memset(&b->regs[1], 0, sizeof b->regs[1]);
    TRY(parse_region(p, &b->regs[0], NULL, 0, false, NULL, NULL));
    if (is_kw(p, "else")) {
      TRY(next(p));
      TRY(parse_region(p, &b->regs[1], NULL, 0, false, NULL, NULL));
    }
    if (p->types.n == b->tmark) {
      TRY(ensure_yield(p, &b->regs[0], b));
      TRY(ensure_yield(p, &b->regs[1], b));
    }
    TRY(parse_opt_attr_dict(p));
    break;
  }

  /* scf.while (%a = %x, ..) : (T..) -> (R..) region do region [attributes dict] */
  case IR_OP_SCF_WHILE: {
    size_t lm = p->lnames.n, um = p->uses.n, tm = p->tys.n, nini = 0;
    /* while -> "scf.while" ["(" (%arg "=" %init),* ")"] ":" fntype region "do" region */
    bool has_inits = is(p, IR_TK_LPAREN);
    if (has_inits) TRY(next(p));
    while (has_inits && !is(p, IR_TK_RPAREN)) {
      argdecl d = {0};
      use init;
      TRY(parse_use(p, &d.name));
      TRY(expect(p, IR_TK_EQUAL, "'='"));
      TRY(parse_use(p, &init));
      PUSH(p->uses, use, init);
      PUSH(p->lnames, argdecl, d);
      nini++;
      if (!is(p, IR_TK_RPAREN)) TRY(expect(p, IR_TK_COMMA, "',' or ')'"));
    }
    if (has_inits) TRY(next(p));
    TRY(expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    TRY(parse_fn_type(p, &nin, &nout));
    if (nin != nini) FAIL(perr(p, l1, c1, "%zu types for %zu initial values", nin, nini));
    for (size_t i = 0; i < nini; i++) {
      const ir_type *it = VAT(p->tys, const ir_type *, tm + i);
      TRY(opnd(p, &VAT(p->uses, use, um + i), it));
      VAT(p->lnames, argdecl, lm + i).type = it;
    }
    for (size_t i = 0; i < nout; i++) TRY(result(p, VAT(p->tys, const ir_type *, tm + nin + i)));
    ir_value *args;
    const char **keys;
    size_t *klens;
    TRY(make_args(p, lm, nini, &args, &keys, &klens));
    p->lnames.n = lm;
    p->uses.n = um;
    p->tys.n = tm;
    b->nregs = 2;
    TRY(parse_region(p, &b->regs[0], args, (int)nini, true, keys, klens));
    TRY(expect_kw(p, "do"));
    TRY(parse_region(p, &b->regs[1], NULL, 0, false, NULL, NULL));
    if (is_kw(p, "attributes")) {
      TRY(next(p));
      if (!is(p, IR_TK_LBRACE)) FAIL(TERR("expected '{'"));
      TRY(parse_opt_attr_dict(p));
    }
    break;
  }

  case IR_OP_REDUCE: case IR_OP_SCAN: case IR_OP_MAP_ELEMENTWISE:
    FAIL(perr(p, b->line, b->col, "'%s' has no custom form: write it in generic form \"%s\"(...)", ir_op_name(code), ir_op_name(code)));

  default:
    FAIL(perr(p, b->line, b->col, "no custom syntax known for '%s'", ir_op_name(code)));
  }
fail:
  return st;
}

/* succ -> ^label ['(' uses ':' types ')'] */
static ttref_status parse_succ(P *p, opb *b, bool with_args)
{
  ttref_status st = TTREF_OK;
  if (!is(p, IR_TK_CARET)) FAIL(TERR("expected block label"));
  if (b->nsuccs == MAX_SUCCS) FAIL(TERR("too many successors"));
  ir_succ *s = &b->succs[b->nsuccs++];
  memset(s, 0, sizeof *s);
  int i = sym_find(p, p->tok.p, p->tok.n);
  if (i >= 0 && p->syms[i].level == p->level && (p->syms[i].kind == SYM_LABEL || p->syms[i].kind == SYM_FWDLABEL)) {
    s->block = p->syms[i].ptr;
  } else {
    ir_block *blk;
    NEW(blk, sizeof *blk);
    blk->label = astr(p, p->tok.p + 1, p->tok.n - 1);
    if (!blk->label) FAIL(nomem(p));
    blk->line = p->tok.line;
    blk->col = p->tok.col;
    if (sym_push(p, p->tok.p, p->tok.n, SYM_FWDLABEL, blk)) FAIL(nomem(p));
    s->block = blk;
  }
  TRY(next(p));
  if (with_args && is(p, IR_TK_LPAREN)) {
    size_t um = p->uses.n, tm = p->tys.n, n, nt;
    TRY(next(p));
    TRY(parse_uses(p, &n));
    TRY(expect(p, IR_TK_COLON, "':'"));
    int l1 = p->tok.line, c1 = p->tok.col;
    TRY(parse_types(p, HINT_NONE, &nt));
    TRY(expect(p, IR_TK_RPAREN, "')'"));
    if (nt != n) FAIL(perr(p, l1, c1, "%zu types for %zu values", nt, n));
    s->nargs = (int)n;
    NEW(s->args, sizeof(ir_value *) * n);
    for (size_t k = 0; k < n; k++) TRY(resolve(p, &VAT(p->uses, use, um + k), VAT(p->tys, const ir_type *, tm + k), &s->args[k]));
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
  TRY(expect(p, IR_TK_LPAREN, "'('"));
  TRY(parse_uses(p, &n));
  TRY(expect(p, IR_TK_RPAREN, "')'"));
  if (is(p, IR_TK_LBRACKET)) {
    TRY(next(p));
    while (!is(p, IR_TK_RBRACKET)) {
      TRY(parse_succ(p, b, false));
      if (!is(p, IR_TK_RBRACKET)) TRY(expect(p, IR_TK_COMMA, "',' or ']'"));
    }
    TRY(next(p));
  }
  if (is(p, IR_TK_LT)) {
    TRY(next(p));
    TRY(expect(p, IR_TK_LBRACE, "'{'"));
    TRY(parse_dict_entries(p, IR_TK_RBRACE, &dummy));
    TRY(expect(p, IR_TK_GT, "'>'"));
  }
  if (is(p, IR_TK_LPAREN)) {
    TRY(next(p));
    while (!is(p, IR_TK_RPAREN)) {
      if (b->nregs == MAX_REGIONS) FAIL(TERR("too many regions"));
      TRY(parse_region(p, &b->regs[b->nregs++], NULL, 0, false, NULL, NULL));
      if (!is(p, IR_TK_RPAREN)) TRY(expect(p, IR_TK_COMMA, "',' or ')'"));
    }
    TRY(next(p));
  }
  int want_regions = 0;
  switch (op->code) {
  case IR_OP_REDUCE: case IR_OP_SCAN: case IR_OP_MAP_ELEMENTWISE: case IR_OP_SCF_FOR: want_regions = 1; break;
  case IR_OP_SCF_IF: case IR_OP_SCF_WHILE: want_regions = 2; break;
  default: break;
  }
  if (b->nregs != want_regions)
    FAIL(perr(p, b->line, b->col, "'%s' needs %d region(s), found %d", ir_op_name(op->code), want_regions, b->nregs));
  TRY(parse_opt_attr_dict(p));
  TRY(expect(p, IR_TK_COLON, "':'"));
  int l1 = p->tok.line, c1 = p->tok.col;
  TRY(parse_fn_type(p, &nin, &nout));
  if (nin != n) FAIL(perr(p, l1, c1, "%zu operand types for %zu operands", nin, n));
  /* successor operands come from the operand list (cf.br: all; cf.cond_br: segments) */
  size_t first_succ = n;
  if (b->nsuccs) {
    int64_t seg[3] = {(int64_t)n, 0, 0};
    if (op->code == IR_OP_CF_BR) {
      if (b->nsuccs != 1) FAIL(perr(p, b->line, b->col, "cf.br needs one successor"));
      seg[0] = 0;
      seg[1] = (int64_t)n;
    } else if (op->code == IR_OP_CF_COND_BR) {
      const ir_attr *sg = NULL;
      for (size_t i = b->amark; i < p->attrs.n; i++)
        if (!strcmp(VAT(p->attrs, ir_attr, i).name, "operandSegmentSizes")) sg = &VAT(p->attrs, ir_attr, i);
      if (b->nsuccs != 2 || !sg || sg->nints != 3 || sg->ints[0] + sg->ints[1] + sg->ints[2] != (int64_t)n || sg->ints[0] != 1)
        FAIL(perr(p, b->line, b->col, "cf.cond_br needs two successors and operandSegmentSizes"));
      memcpy(seg, sg->ints, sizeof seg);
    } else {
      FAIL(perr(p, b->line, b->col, "'%s' takes no successors", ir_op_name(op->code)));
    }
    first_succ = (size_t)seg[0];
    size_t k = first_succ;
    for (int s = 0; s < b->nsuccs; s++) {
      ir_succ *sc = &b->succs[s];
      sc->nargs = (int)seg[1 + s];
      if (sc->nargs) NEW(sc->args, sizeof(ir_value *) * (size_t)sc->nargs);
      for (int j = 0; j < sc->nargs; j++, k++)
        TRY(resolve(p, &VAT(p->uses, use, um + k), VAT(p->tys, const ir_type *, tm + k), &sc->args[j]));
    }
  }
  for (size_t i = 0; i < first_succ; i++) TRY(opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
  for (size_t i = 0; i < nout; i++) TRY(result(p, VAT(p->tys, const ir_type *, tm + nin + i)));
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
    const enum_set *e = enum_for(op->code, a.name);
    if (e && a.kind == IR_A_INT) {
      int k = enum_index_of_val(e, a.i);
      if (k < 0) FAIL(perr(p, b->line, b->col, "invalid value %lld for '%s'", (long long)a.i, a.name));
      a.kind = IR_A_ENUM;
      a.type = NULL;
      a.s = e->names[k];
      a.slen = strlen(a.s);
    } else if (e && a.kind != IR_A_ENUM) {
      FAIL(perr(p, b->line, b->col, "attribute '%s' must be an integer", a.name));
    }
    if (op->code == IR_OP_CALL && !strcmp(a.name, "callee")) {
      if (a.kind != IR_A_SYMBOL) FAIL(perr(p, b->line, b->col, "callee must be a symbol"));
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
  if (n > 1) qsort(&VAT(p->attrs, ir_attr, b->amark), n, sizeof(ir_attr), attr_cmp);
  for (size_t i = b->amark + 1; i < w; i++)
    if (!strcmp(VAT(p->attrs, ir_attr, i - 1).name, VAT(p->attrs, ir_attr, i).name))
      FAIL(perr(p, b->line, b->col, "duplicate attribute '%s'", VAT(p->attrs, ir_attr, i).name));
  if (op->code == IR_OP_CALL && !op->callee) FAIL(perr(p, b->line, b->col, "tt.call without callee"));
fail:
  return st;
}

static int mn_slot(const char *s, size_t n) { return (int)(hash_bytes(s, n) & 511); }

static bool lookup_op(P *p, const char *s, size_t n, ir_opcode *out)
{
  for (int i = mn_slot(s, n);; i = (i + 1) & 511) {
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
static ttref_status parse_op(P *p, ir_op **out)
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
      TRY(parse_use(p, &u));
      if (memchr(u.p, '#', u.n)) FAIL(perr(p, u.line, u.col, "result names cannot contain '#'"));
      if (is(p, IR_TK_COLON)) {
        TRY(next(p));
        bool hx;
        if (!is(p, IR_TK_INT)) FAIL(TERR("expected result count"));
        TRY(tok_int(p, &p->tok, &group, &hx));
        if (group < 1 || group > 65536 || nnames) FAIL(TERR("invalid result group"));
        TRY(next(p));
        gname = u;
        nnames = 1;
        break;
      }
      PUSH(p->uses, use, u);
      nnames++;
      if (!is(p, IR_TK_COMMA)) break;
      TRY(next(p));
    }
    if (group && is(p, IR_TK_COMMA)) FAIL(TERR("mixing result groups with other results is not supported"));
    TRY(expect(p, IR_TK_EQUAL, "'='"));
  }
  if (is(p, IR_TK_STRING)) {
    if (!lookup_op(p, p->tok.p + 1, p->tok.n - 2, &op->code) &&
        !(op->vdef = ir_vendor_find(p->reg, p->tok.p + 1, p->tok.n - 2)))
      FAIL(TERR("unknown op %.*s%s", (int)(p->tok.n > 60 ? 60 : p->tok.n), p->tok.p,
                memchr(p->tok.p, '.', p->tok.n) ? " (not a built-in op; a vendor op needs its registry or plugin: --ops PLUGIN.so)" : ""));
    if (op->vdef) op->code = IR_OP_VENDOR;
    TRY(next(p));
    TRY(parse_generic(p, &b));
  } else if (is(p, IR_TK_IDENT)) {
    if (!lookup_op(p, p->tok.p, p->tok.n, &op->code))
      FAIL(TERR("unknown op '%.*s'%s", (int)(p->tok.n > 60 ? 60 : p->tok.n), p->tok.p,
                ir_vendor_find(p->reg, p->tok.p, p->tok.n) ? ": write vendor ops in generic form \"name\"(...)" : ""));
    TRY(next(p));
    TRY(parse_custom(p, &b));
  } else {
    char bb[64];
    FAIL(TERR("expected operation, found %s", tokdesc(p, bb, sizeof bb)));
  }
  TRY(normalize_attrs(p, &b));
  TRY(parse_opt_loc(p, &op->loc));
  /* build */
  size_t nres = p->types.n - b.tmark;
  size_t want = group ? (size_t)group : nnames;
  if (want != nres) FAIL(perr(p, b.line, b.col, "'%s' has %zu result(s) but %zu name(s) are given", ir_op_name(op->code), nres, want));
  op->nopnds = (int)(p->vals.n - b.vmark);
  if (op->nopnds) {
    NEW(op->opnds, sizeof(ir_value *) * (size_t)op->nopnds);
    memcpy(op->opnds, &VAT(p->vals, ir_value *, b.vmark), sizeof(ir_value *) * (size_t)op->nopnds);
  }
  p->vals.n = b.vmark;
  TRY(take_attrs(p, b.amark, &op->attrs, &op->nattrs));
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
        if (!v->name) FAIL(nomem(p));
      }
      use *du = group ? &gname : &VAT(p->uses, use, b.umark + i);
      TRY(define(p, key, klen, v, du->line, du->col));
    }
    if (group) {
      op->group = astr(p, gname.p + 1, gname.n - 1);
      if (!op->group) FAIL(nomem(p));
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
static ttref_status parse_block_args(P *p, ir_block *blk)
{
  ttref_status st = TTREF_OK;
  size_t lm = p->lnames.n;
  TRY(next(p)); /* '(' */
  while (!is(p, IR_TK_RPAREN)) {
    argdecl d = {0};
    TRY(parse_use(p, &d.name));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &d.type));
    TRY(parse_opt_loc(p, &d.loc));
    PUSH(p->lnames, argdecl, d);
    if (!is(p, IR_TK_RPAREN)) TRY(expect(p, IR_TK_COMMA, "',' or ')'"));
  }
  TRY(next(p));
  size_t n = p->lnames.n - lm;
  ir_value *args;
  const char **keys;
  size_t *klens;
  TRY(make_args(p, lm, n, &args, &keys, &klens));
  for (size_t i = 0; i < n; i++) {
    args[i].block = blk;
    argdecl *d = &VAT(p->lnames, argdecl, lm + i);
    TRY(define(p, keys[i], klens[i], &args[i], d->name.line, d->name.col));
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
static ttref_status parse_region(P *p, ir_region *r, ir_value *args, int nargs, bool entry_given,
                                 const char *const *keys, const size_t *klens)
{
  ttref_status st = TTREF_OK;
  memset(r, 0, sizeof *r);
  r->func = p->fn;
  TRY(expect(p, IR_TK_LBRACE, "'{'"));
  TRY(depth_in(p));
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
      TRY(define(p, keys[i], klens[i], &args[i], cur->line, cur->col));
    }
    PUSH(p->blocks, ir_block *, cur);
  }
  while (!is(p, IR_TK_RBRACE)) {
    if (is(p, IR_TK_EOF)) FAIL(TERR("unterminated region: expected '}' before end of file"));
    if (is(p, IR_TK_CARET)) {
      if (entry_given && p->blocks.n - bmark == 1 && cur->nops == 0 && p->ops.n == omark)
        FAIL(TERR("the entry block's arguments are already defined by the op"));
      if (cur) TRY(finish_block(p, cur, omark));
      int i = sym_find(p, p->tok.p, p->tok.n);
      ir_block *blk = NULL;
      if (i >= 0 && p->syms[i].level == p->level && p->syms[i].kind == SYM_FWDLABEL) {
        blk = p->syms[i].ptr;
        p->syms[i].kind = SYM_LABEL;
      } else if (i >= 0 && p->syms[i].level == p->level && p->syms[i].kind == SYM_LABEL) {
        FAIL(TERR("redefinition of block '%.*s'", (int)p->tok.n, p->tok.p));
      } else {
        NEW(blk, sizeof *blk);
        blk->label = astr(p, p->tok.p + 1, p->tok.n - 1);
        if (!blk->label) FAIL(nomem(p));
        if (sym_push(p, p->tok.p, p->tok.n, SYM_LABEL, blk)) FAIL(nomem(p));
      }
      blk->line = p->tok.line;
      blk->col = p->tok.col;
      TRY(next(p));
      if (is(p, IR_TK_LPAREN)) TRY(parse_block_args(p, blk));
      TRY(expect(p, IR_TK_COLON, "':' after block label"));
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
    TRY(parse_op(p, &op));
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
  TRY(next(p)); /* '}' */
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
  TRY(next(p));
  if (is_kw(p, "public") || is_kw(p, "private") || is_kw(p, "nested")) {
    f->is_public = is_kw(p, "public");
    TRY(next(p));
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
    if (!f->name) FAIL(nomem(p));
  }
  TRY(next(p));
  p->fn = f;
  p->next_id = 0;
  p->nfwd = 0;
  p->had_fwd = 0;
  p->level = 0;
  TRY(expect(p, IR_TK_LPAREN, "'('"));
  size_t lm = p->lnames.n, am = p->attrs.n;
  while (!is(p, IR_TK_RPAREN)) {
    argdecl d = {0};
    if (!is(p, IR_TK_PERCENT)) FAIL(TERR("expected argument name (declarations without a body are not supported)"));
    TRY(parse_use(p, &d.name));
    TRY(expect(p, IR_TK_COLON, "':'"));
    TRY(parse_type(p, HINT_NONE, &d.type));
    size_t m0 = p->attrs.n;
    TRY(parse_opt_attr_dict(p));
    (void)m0;
    TRY(parse_opt_loc(p, &d.loc));
    PUSH(p->lnames, argdecl, d);
    PUSH(p->ints, int64_t, (int64_t)(p->attrs.n - am));
    if (!is(p, IR_TK_RPAREN)) TRY(expect(p, IR_TK_COMMA, "',' or ')'"));
  }
  TRY(next(p));
  size_t nargs = p->lnames.n - lm;
  ir_value *args;
  const char **keys;
  size_t *klens;
  TRY(make_args(p, lm, nargs, &args, &keys, &klens));
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
    TRY(next(p));
    TRY(accept(p, IR_TK_LPAREN, &got));
    if (got) {
      while (!is(p, IR_TK_RPAREN)) {
        const ir_type *t;
        TRY(parse_type(p, HINT_NONE, &t));
        PUSH(p->tys, const ir_type *, t);
        nt++;
        size_t m0 = p->attrs.n;
        TRY(parse_opt_attr_dict(p)); /* result attributes: accepted, not kept */
        p->attrs.n = m0;
        if (!is(p, IR_TK_RPAREN)) TRY(expect(p, IR_TK_COMMA, "',' or ')'"));
      }
      TRY(next(p));
    } else {
      const ir_type *t;
      TRY(parse_type(p, HINT_NONE, &t));
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
    TRY(next(p));
    if (!is(p, IR_TK_LBRACE)) FAIL(TERR("expected '{'"));
    TRY(parse_opt_attr_dict(p));
    TRY(take_attrs(p, am, &f->attrs, &f->nattrs));
  }
  TRY(parse_region(p, &f->body, args, (int)nargs, true, keys, klens));
  f->body.func = f;
  f->args = f->body.blocks[0]->args;
  TRY(parse_opt_loc(p, &f->loc));
  f->nvalues = p->next_id;
  if (p->had_fwd) {
    /* all placeholders were resolved by the end of the function scope */
    patch_region(&f->body);
  }
  /* register */
  if (smap_grow(&p->fmap)) FAIL(nomem(p));
  size_t s = smap_probe(p, &p->fmap, f->name, strlen(f->name), fkey);
  if (p->fmap.slot[s].idx >= 0) FAIL(perr(p, nl, nc, "redefinition of function '@%s'", f->name));
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
  TRY(next(p));
  if (is(p, IR_TK_AT)) TRY(next(p));
  if (is_kw(p, "attributes")) {
    size_t am = p->attrs.n;
    TRY(next(p));
    if (!is(p, IR_TK_LBRACE)) FAIL(TERR("expected '{'"));
    TRY(parse_opt_attr_dict(p));
    TRY(take_attrs(p, am, &p->m->attrs, &p->m->nattrs));
  }
  TRY(expect(p, IR_TK_LBRACE, "'{'"));
  while (!is(p, IR_TK_RBRACE)) {
    if (is_kw(p, "tt.func")) TRY(parse_func(p));
    else if (is(p, IR_TK_EOF)) FAIL(TERR("unterminated module: expected '}' before end of file"));
    else {
      char b[64];
      FAIL(TERR("expected 'tt.func' or '}', found %s", tokdesc(p, b, sizeof b)));
    }
  }
  TRY(next(p));
  TRY(parse_opt_loc(p, &p->m->loc));
fail:
  return st;
}

/* alias-def -> HASH '=' (loc | attr) */
static ttref_status parse_alias_def(P *p)
{
  ttref_status st = TTREF_OK;
  alias_ent *e;
  int line = p->tok.line, col = p->tok.col;
  TRY(alias_lookup(p, p->tok.p + 1, p->tok.n - 1, line, col, &e));
  size_t ei = (size_t)(e - &VAT(p->aents, alias_ent, 0));
  if (e->defined) FAIL(TERR("redefinition of alias '#%s'", e->name));
  TRY(next(p));
  TRY(expect(p, IR_TK_EQUAL, "'='"));
  const char *s = p->tok.p;
  ir_alias al = {0};
  const ir_loc *l = NULL;
  bool isloc = is_kw(p, "loc");
  if (isloc) {
    TRY(parse_loc(p, &l));
  } else {
    ir_attr a = {0};
    TRY(parse_attr(p, &a));
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
  if (!al.text) FAIL(nomem(p));
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
    if (vec_grow(out, sizeof(int), out->n + 1)) FAIL(nomem(p));
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
static ttref_status check_aliases(P *p)
{
  ttref_status st = TTREF_OK;
  size_t na = p->aents.n;
  vec edges = {0}, start = {0}, stack = {0};
  char *color = NULL;
  for (size_t i = 0; i < na; i++) {
    alias_ent *e = &VAT(p->aents, alias_ent, i);
    if (!e->defined) FAIL(perr(p, e->ref_line, e->ref_col, "undefined alias '#%s'", e->name));
    if (e->used_as_loc && !e->is_loc) FAIL(perr(p, e->ref_line, e->ref_col, "alias '#%s' is not a location", e->name));
  }
  for (size_t i = 0; i < p->arefs.n; i++) {
    attr_ref *r = &VAT(p->arefs, attr_ref, i);
    size_t s = p->amap.cap ? smap_probe(p, &p->amap, r->name, r->len, akey) : 0;
    if (!p->amap.cap || p->amap.slot[s].idx < 0) FAIL(perr(p, r->line, r->col, "undefined alias '#%.*s'", (int)r->len, r->name));
  }
  if (!na) goto fail;
  if (vec_grow(&start, sizeof(size_t), na + 1)) FAIL(nomem(p));
  for (size_t i = 0; i < na; i++) {
    VAT(start, size_t, i) = edges.n;
    TRY(loc_edges(p, VAT(p->aents, alias_ent, i).node->a, &edges, 0));
  }
  VAT(start, size_t, na) = edges.n;
  color = ir_calloc(na, 1);
  if (!color) FAIL(nomem(p));
  /* iterative DFS; stack holds (node, next edge) pairs */
  for (size_t r = 0; r < na; r++) {
    if (color[r]) continue;
    if (vec_grow(&stack, sizeof(size_t), 2)) FAIL(nomem(p));
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
        FAIL(perr(p, e->def_line, e->def_col, "alias cycle through '#%s'", e->name));
      }
      if (color[nb] == 0) {
        color[nb] = 1;
        if (vec_grow(&stack, sizeof(size_t), stack.n + 2)) FAIL(nomem(p));
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
static ttref_status parse_file(P *p)
{
  ttref_status st = TTREF_OK;
  bool seen_module = false;
  TRY(next(p));
  while (!is(p, IR_TK_EOF)) {
    if (is(p, IR_TK_HASH)) {
      TRY(parse_alias_def(p));
    } else if (is_kw(p, "module")) {
      if (seen_module || p->funcs.n) FAIL(TERR("only one module per file is supported"));
      seen_module = true;
      TRY(parse_module(p));
    } else if (is_kw(p, "tt.func") && !seen_module) {
      TRY(parse_func(p));
    } else {
      char b[64];
      FAIL(TERR("expected 'module' or an alias definition, found %s", tokdesc(p, b, sizeof b)));
    }
  }
  if (!seen_module && !p->funcs.n) FAIL(TERR("no module in input"));
  TRY(check_aliases(p));
  /* functions and calls */
  ir_module *m = p->m;
  m->nfuncs = (int)p->funcs.n;
  if (m->nfuncs) {
    NEW(m->funcs, sizeof(ir_func *) * p->funcs.n);
    memcpy(m->funcs, p->funcs.d, sizeof(ir_func *) * p->funcs.n);
  }
  for (size_t i = 0; i < p->calls.n; i++) {
    ir_op *op = VAT(p->calls, ir_op *, i);
    size_t s = smap_probe(p, &p->fmap, op->callee, strlen(op->callee), fkey);
    if (p->fmap.slot[s].idx < 0) FAIL(perr(p, op->line, op->col, "call to undefined function '@%s'", op->callee));
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
  if (!p->m) FAIL(nomem(p));
  p->a = p->m->arena;
  p->t_i1 = ir_type_scalar(p->m, IR_S_I1);
  p->t_i32 = ir_type_scalar(p->m, IR_S_I32);
  p->t_i64 = ir_type_scalar(p->m, IR_S_I64);
  if (!p->t_i1 || !p->t_i32 || !p->t_i64) FAIL(nomem(p));
  for (int i = 0; i < 512; i++) p->mn[i] = -1;
  for (int i = 0; i < IR_OP_COUNT; i++) {
    if (ir_op_flags((ir_opcode)i) & IR_F_VENDOR) continue; /* named by the registry, not the list */
    const char *s = ir_op_name((ir_opcode)i);
    int k = mn_slot(s, strlen(s));
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
