/*
 * ir_parse_impl.h: internals shared by the TTIR parser's files (ir_parse*.c):
 * the parser state P, scratch stacks, SSA symbols and the helpers each file
 * lends the others. Not installed; every pointer in P is owned by the parse
 * call (ir_parse_string_ex), and the arena by the module under construction.
 */
#ifndef IR_PARSE_IMPL_H
#define IR_PARSE_IMPL_H

#include "ir_parse.h"
#include "ir_vendor.h"
#include "ir_lex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH   IR_PARSE_MAX_DEPTH
#define MAX_REGIONS 16
#define MAX_SUCCS   16
#define FWD_ID      UINT32_MAX
#define MAX_NUMEL   ((int64_t)1 << 31)

/* ---- growable scratch stacks (LIFO by mark) ------------------------------ */
typedef struct vec {
  char *d;
  size_t n, cap; /* in elements */
} vec;

static inline ttref_status vec_grow(vec *v, size_t esz, size_t need)
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
static inline void vec_free(vec *v, size_t esz)
{
  ir_free(v->d, v->cap * esz);
  v->d = NULL;
  v->n = v->cap = 0;
}
#define VAT(v, T, i) (((T *)(v).d)[i])
#define VTOP(v, T)   (((T *)(v).d) + (v).n)

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
  ir_loc *node; /* IR_L_ALIAS node shared by all references (an alias_node) */
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
  vec aents; /* alias_ent */
  smap amap;
  vec aliases; /* ir_alias in file order */
  vec arefs;   /* attr_ref: #alias uses inside attributes */
  /* functions and calls */
  vec funcs; /* ir_func* */
  smap fmap;
  vec calls; /* ir_op* */
  /* mnemonic table */
  short mn[512];
  const ttref_registry *reg; /* vendor ops (NULL: none) */
  const ir_type *t_i1, *t_i32, *t_i64;
} P;

#define TERR(...) irp_perr(p, p->tok.line, p->tok.col, __VA_ARGS__)
#define NEW(ptr, bytes)                                                                                                \
  do {                                                                                                                 \
    (ptr) = ir_arena_alloc(p->a, (bytes));                                                                             \
    if (!(ptr)) FAIL(irp_nomem(p));                                                                                    \
  } while (0)
#define PUSH(v, T, x)                                                                                                  \
  do {                                                                                                                 \
    if ((v).n >= (v).cap && vec_grow(&(v), sizeof(T), (v).n + 1)) FAIL(irp_nomem(p));                                  \
    ((T *)(v).d)[(v).n++] = (x);                                                                                       \
  } while (0)

typedef const char *(*smap_key_fn)(P *p, int idx, size_t *len);
enum { HINT_NONE, HINT_PTR, HINT_DESC };
typedef struct cpos {
  const char *q;
  int line;
  const char *lstart;
} cpos;
#define CERR(...) irp_perr(p, c->line, (int)(c->q - c->lstart) + 1, __VA_ARGS__)
typedef struct enum_set {
  const char *const *names;
  int n, base;
  const int *vals; /* NULL: base + index */
} enum_set;
typedef struct opb {
  ir_op *op;
  size_t vmark, tmark, amark, umark, tymark;
  ir_region regs[MAX_REGIONS];
  int nregs;
  ir_succ succs[MAX_SUCCS];
  int nsuccs;
  int line, col;
} opb;
/* values + names for block arguments declared by an op (scf.for, scf.while, tt.func) */
typedef struct argdecl {
  use name;
  const ir_type *type;
  const ir_loc *loc;
} argdecl;

/* ---- helpers shared by the parser files ---------------------------------------- */
ttref_status irp_perr(P *p, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
ttref_status irp_nomem(P *p);
const char *irp_tokdesc(P *p, char *buf, size_t n);
ttref_status irp_next(P *p);
ttref_status irp_expect(P *p, ir_tok_kind k, const char *what);
ttref_status irp_expect_kw(P *p, const char *kw);
ttref_status irp_accept(P *p, ir_tok_kind k, bool *got);
ttref_status irp_depth_in(P *p);
uint32_t irp_hash_bytes(const char *s, size_t n);
size_t irp_smap_probe(P *p, smap *m, const char *k, size_t n, smap_key_fn kf);
ttref_status irp_smap_grow(smap *m);
const char *irp_akey(P *p, int i, size_t *len);
int irp_sym_find(P *p, const char *k, size_t n);
ttref_status irp_sym_push(P *p, const char *k, size_t n, int kind, void *ptr);
ttref_status irp_resolve(P *p, const use *u, const ir_type *t, ir_value **out);
ttref_status irp_define(P *p, const char *k, size_t n, ir_value *v, int line, int col);
ttref_status irp_tok_int(P *p, const ir_token *t, int64_t *v, bool *hex);
ttref_status irp_tok_float(P *p, const ir_token *t, double *v);
ttref_status irp_fit_int(P *p, int line, int col, int64_t v, int bits, int64_t *out);
ttref_status irp_parse_region(P *p, ir_region *r, ir_value *args, int nargs, bool entry_given, const char *const *keys,
                              const size_t *klens);
ttref_status irp_parse_type(P *p, int hint, const ir_type **out);
ttref_status irp_parse_types(P *p, int hint, size_t *n);
ttref_status irp_parse_fn_type(P *p, size_t *nin, size_t *nout);
ttref_status irp_parse_string_tok(P *p, char **out, size_t *len);
ttref_status irp_parse_opt_loc(P *p, const ir_loc **out);
ttref_status irp_parse_alias_def(P *p);
ttref_status irp_check_aliases(P *p);
ttref_status irp_skip_balanced(P *p, const char **start, const char **end);
bool irp_is_type_start(P *p);
int irp_attr_cmp(const void *x, const void *y);
ttref_status irp_parse_dict_entries(P *p, ir_tok_kind close, size_t *count);
ttref_status irp_take_attrs(P *p, size_t mark, ir_attr **out, int *n);
ttref_status irp_parse_attr(P *p, ir_attr *a);
ttref_status irp_parse_opt_attr_dict(P *p);
const enum_set *irp_enum_for(ir_opcode op, const char *name);
int irp_enum_index_of_val(const enum_set *e, int64_t v);
ttref_status irp_push_enum_kw(P *p, ir_opcode op, const char *name);
ttref_status irp_parse_use(P *p, use *u);
ttref_status irp_parse_uses(P *p, size_t *n);
ttref_status irp_opnd(P *p, const use *u, const ir_type *t);
ttref_status irp_result(P *p, const ir_type *t);
const ir_type *irp_pointee_of(P *p, const ir_type *t);
ttref_status irp_type_at(P *p, int hint, const ir_type **t, int *line, int *col);
ttref_status irp_parse_arith_flags(P *p, bool allow_round);
ttref_status irp_parse_cache_evict(P *p, ir_opcode code);
ttref_status irp_make_args(P *p, size_t mark, size_t n, ir_value **out, const char ***keys, size_t **klens);
ttref_status irp_ensure_yield(P *p, ir_region *r, const opb *b);
ttref_status irp_parse_succ(P *p, opb *b, bool with_args);
int irp_mn_slot(const char *s, size_t n);
ttref_status irp_parse_op(P *p, ir_op **out);
ttref_status irp_parse_custom(P *p, opb *b);
ttref_status irp_parse_regular(P *p, opb *b);

static inline bool is(P *p, ir_tok_kind k) { return p->tok.kind == k; }
static inline bool tok_eq(const ir_token *t, const char *s)
{
  size_t n = strlen(s);
  return t->n == n && memcmp(t->p, s, n) == 0;
}
static inline bool is_kw(P *p, const char *kw) { return p->tok.kind == IR_TK_IDENT && tok_eq(&p->tok, kw); }
static inline char *astr(P *p, const char *s, size_t n) { return ir_arena_strndup(p->a, s, n); }
static inline const ir_type *shape_like(P *p, const ir_type *like, const ir_type *elem)
{
  return ir_type_with_elem(p->m, like, elem);
}
static inline const ir_type *i1_like(P *p, const ir_type *like) { return shape_like(p, like, p->t_i1); }

#endif
