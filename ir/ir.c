/*
 * ir.c: core IR tables generated from ir_op_list.h / ir_scalar_list.h, type
 * interning, attribute lookup and location resolution. Everything a module
 * allocates lives in its arena.
 */
#include "config.h"
#include "ir.h"

#include <stdio.h>
#include <string.h>

/* ---- op tables ------------------------------------------------------------ */
typedef struct op_info {
  const char *name;
  int nopnds, nres;
  unsigned flags;
  ir_syntax syn;
  ir_type_rule rule;
} op_info;

static const op_info op_table[IR_OP_COUNT] = {
#define X(name, mnem, nopnd, nres, flags, syn, rule, ...) {mnem, nopnd, nres, flags, IR_SYN_##syn, IR_TR_##rule},
#include "ir_op_list.h"
#undef X
};

const char *ir_op_name(ir_opcode op) { return ((int)op >= 0 && op < IR_OP_COUNT) ? op_table[op].name : "<invalid>"; }
unsigned ir_op_flags(ir_opcode op) { return ((int)op >= 0 && op < IR_OP_COUNT) ? op_table[op].flags : 0; }
int ir_op_nopnds(ir_opcode op) { return ((int)op >= 0 && op < IR_OP_COUNT) ? op_table[op].nopnds : 0; }
int ir_op_nresults(ir_opcode op) { return ((int)op >= 0 && op < IR_OP_COUNT) ? op_table[op].nres : 0; }
ir_syntax ir_op_syntax(ir_opcode op) { return ((int)op >= 0 && op < IR_OP_COUNT) ? op_table[op].syn : IR_SYN_CUSTOM; }
ir_type_rule ir_op_type_rule(ir_opcode op)
{
  return ((int)op >= 0 && op < IR_OP_COUNT) ? op_table[op].rule : IR_TR_CUSTOM;
}

bool ir_op_lookup(const char *s, size_t n, ir_opcode *out)
{
  /* Linear scan over ~140 mnemonics is cheap next to lexing; a perfect hash
   * can replace it if the parse benchmark says so. */
  for (int i = 0; i < IR_OP_COUNT; i++) {
    const char *m = op_table[i].name;
    if (strlen(m) == n && memcmp(m, s, n) == 0) {
      *out = (ir_opcode)i;
      return true;
    }
  }
  return false;
}

/* ---- scalar tables ---------------------------------------------------------- */
typedef struct scalar_info {
  const char *name;
  int bits;
  char kind;
} scalar_info;

static const scalar_info scalar_table[IR_S_COUNT] = {
#define X(name, spell, bits, kind) {spell, bits, kind},
#include "ir_scalar_list.h"
#undef X
};

const char *ir_scalar_name(ir_scalar s) { return ((int)s >= 0 && s < IR_S_COUNT) ? scalar_table[s].name : "<invalid>"; }
int ir_scalar_bits(ir_scalar s) { return ((int)s >= 0 && s < IR_S_COUNT) ? scalar_table[s].bits : 0; }

bool ir_int_fits(int64_t v, int bits)
{
  return bits >= 64 || (v >= -((int64_t)1 << (bits - 1)) && v <= ((int64_t)1 << bits) - 1);
}
bool ir_scalar_is_int(ir_scalar s) { return ((int)s >= 0 && s < IR_S_COUNT) && scalar_table[s].kind == 'i'; }
bool ir_scalar_is_float(ir_scalar s) { return ((int)s >= 0 && s < IR_S_COUNT) && scalar_table[s].kind == 'f'; }
int ir_scalar_bytes(ir_scalar s)
{
  int b = ir_scalar_bits(s);
  return b <= 8 ? 1 : b / 8;
}

/* ---- type interning ----------------------------------------------------------- */
#define TYPE_BUCKETS 1024

typedef struct type_node {
  ir_type t;
  struct type_node *next;
} type_node;

typedef struct type_table {
  type_node *bucket[TYPE_BUCKETS];
} type_table;

static uint64_t type_hash(const ir_type *t)
{
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
  MIX(t->kind);
  MIX(t->scalar);
  MIX((uintptr_t)t->elem);
  MIX(t->addrspace);
  MIX(t->desc_sign);
  MIX(t->rank);
  for (int i = 0; i < t->rank; i++) MIX(t->shape[i]);
#undef MIX
  return h;
}

static bool type_eq(const ir_type *a, const ir_type *b)
{
  if (a->kind != b->kind || a->scalar != b->scalar || a->elem != b->elem || a->addrspace != b->addrspace ||
      a->desc_sign != b->desc_sign || a->rank != b->rank)
    return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

static const ir_type *intern(ir_module *m, const ir_type *proto)
{
  type_table *tt = m->types;
  uint64_t h = type_hash(proto) % TYPE_BUCKETS;
  for (type_node *n = tt->bucket[h]; n; n = n->next)
    if (type_eq(&n->t, proto)) return &n->t;
  type_node *n = ir_arena_alloc(m->arena, sizeof *n);
  if (!n) return NULL;
  n->t = *proto;
  n->next = tt->bucket[h];
  tt->bucket[h] = n;
  return &n->t;
}

const ir_type *ir_type_scalar(ir_module *m, ir_scalar s)
{
  ir_type p = {0};
  p.kind = IR_T_SCALAR;
  p.scalar = s;
  p.numel = 1;
  return intern(m, &p);
}

const ir_type *ir_type_ptr(ir_module *m, const ir_type *pointee, int addrspace)
{
  ir_type p = {0};
  p.kind = IR_T_PTR;
  p.scalar = IR_S_PTR;
  p.elem = pointee;
  p.addrspace = addrspace;
  p.numel = 1;
  return intern(m, &p);
}

const ir_type *ir_type_tensor(ir_module *m, const ir_type *elem, int rank, const int64_t *shape)
{
  if (rank < 0 || rank > IR_MAX_RANK || !elem || elem->kind == IR_T_TENSOR) return NULL;
  ir_type p = {0};
  p.kind = IR_T_TENSOR;
  p.scalar = elem->scalar;
  p.elem = elem;
  p.rank = rank;
  p.numel = 1;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0 || (shape[i] && p.numel > INT64_MAX / shape[i])) return NULL;
    p.shape[i] = shape[i];
    p.numel *= shape[i];
  }
  return intern(m, &p);
}

const ir_type *ir_type_desc(ir_module *m, const ir_type *block, int sign)
{
  ir_type p = {0};
  p.kind = IR_T_DESC;
  p.scalar = block ? block->scalar : IR_S_I8;
  p.elem = block;
  p.desc_sign = sign;
  p.numel = 1;
  return intern(m, &p);
}

const ir_type *ir_type_elem(const ir_type *t) { return (t && t->kind == IR_T_TENSOR) ? t->elem : t; }

const ir_type *ir_type_with_elem(ir_module *m, const ir_type *like, const ir_type *elem)
{
  if (like->kind == IR_T_TENSOR) return ir_type_tensor(m, elem, like->rank, like->shape);
  return elem;
}

static int put(char *buf, size_t n, int pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int put(char *buf, size_t n, int pos, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  size_t room = (size_t)pos < n ? n - (size_t)pos : 0;
  int k = vsnprintf(room ? buf + pos : NULL, room, fmt, ap);
  va_end(ap);
  return pos + (k > 0 ? k : 0);
}

static int type_str_at(const ir_type *t, char *buf, size_t n, int pos)
{
  if (!t) return put(buf, n, pos, "<null>");
  switch (t->kind) {
  case IR_T_SCALAR: return put(buf, n, pos, "%s", ir_scalar_name(t->scalar));
  case IR_T_PTR:
    pos = put(buf, n, pos, "!tt.ptr<");
    pos = type_str_at(t->elem, buf, n, pos);
    if (t->addrspace != 1) pos = put(buf, n, pos, ", %d", t->addrspace);
    return put(buf, n, pos, ">");
  case IR_T_TENSOR:
    pos = put(buf, n, pos, "tensor<");
    for (int i = 0; i < t->rank; i++) pos = put(buf, n, pos, "%lldx", (long long)t->shape[i]);
    pos = type_str_at(t->elem, buf, n, pos);
    return put(buf, n, pos, ">");
  case IR_T_DESC:
    pos = put(buf, n, pos, "!tt.tensordesc<");
    if (t->desc_sign && t->elem && t->elem->kind == IR_T_TENSOR) {
      /* signedness lives in the descriptor: tensor<64xui8> */
      pos = put(buf, n, pos, "tensor<");
      for (int i = 0; i < t->elem->rank; i++) pos = put(buf, n, pos, "%lldx", (long long)t->elem->shape[i]);
      pos = put(buf, n, pos, "%s%s>", t->desc_sign == 1 ? "si" : "ui", ir_scalar_name(t->elem->scalar) + 1);
    } else {
      pos = type_str_at(t->elem, buf, n, pos);
    }
    return put(buf, n, pos, ">");
  }
  return put(buf, n, pos, "<invalid>");
}

int ir_type_str(const ir_type *t, char *buf, size_t n)
{
  if (n) buf[0] = 0;
  return type_str_at(t, buf, n, 0);
}

/* ---- modules ---------------------------------------------------------------- */
ir_module *ir_module_new(const char *filename)
{
  ir_arena *a = ir_arena_new();
  if (!a) return NULL;
  ir_module *m = ir_arena_alloc(a, sizeof *m);
  type_table *tt = m ? ir_arena_alloc(a, sizeof *tt) : NULL;
  if (!tt) {
    ir_arena_free(a);
    return NULL;
  }
  m->arena = a;
  m->types = tt;
  m->filename = ir_arena_strndup(a, filename ? filename : "<input>", strlen(filename ? filename : "<input>"));
  return m;
}

void ir_module_free(ir_module *m)
{
  if (m) ir_arena_free(m->arena);
}

ir_func *ir_module_find_func(const ir_module *m, const char *name)
{
  for (int i = 0; i < m->nfuncs; i++)
    if (strcmp(m->funcs[i]->name, name) == 0) return m->funcs[i];
  return NULL;
}

ir_func *ir_module_entry(const ir_module *m)
{
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->is_public) return m->funcs[i];
  return m->nfuncs ? m->funcs[0] : NULL;
}

const ir_attr *ir_op_attr(const ir_op *op, const char *name)
{
  for (int i = 0; i < op->nattrs; i++)
    if (op->attrs[i].name && strcmp(op->attrs[i].name, name) == 0) return &op->attrs[i];
  return NULL;
}

int64_t ir_op_attr_int(const ir_op *op, const char *name, int64_t dflt)
{
  const ir_attr *a = ir_op_attr(op, name);
  if (!a) return dflt;
  switch (a->kind) {
  case IR_A_INT:
  case IR_A_BOOL:
  case IR_A_ENUM: return a->i;
  case IR_A_UNIT: return 1;
  default: return dflt;
  }
}

/* ---- locations ------------------------------------------------------------- */
static void resolve_into(const ir_loc *l, ir_srcloc *s, int depth)
{
  if (!l || depth > 64) return; /* alias cycles are rejected by the parser; 64 bounds hostile input */
  switch (l->kind) {
  case IR_L_UNKNOWN: return;
  case IR_L_FILE:
    if (!s->file) {
      s->file = l->str;
      s->line = l->line;
      s->col = l->col;
    }
    return;
  case IR_L_NAME:
    if (!s->name) s->name = l->str;
    resolve_into(l->a, s, depth + 1);
    return;
  case IR_L_CALLSITE:
    /* the caller is where the user's kernel code invoked the inlined helper */
    resolve_into(l->b, s, depth + 1);
    if (!s->file) resolve_into(l->a, s, depth + 1);
    return;
  case IR_L_FUSED:
    for (int i = 0; i < l->nitems && !s->file; i++) resolve_into(l->items[i], s, depth + 1);
    return;
  case IR_L_ALIAS: resolve_into(l->a, s, depth + 1); return;
  }
}

ir_srcloc ir_loc_resolve(const ir_loc *l)
{
  ir_srcloc s = {0};
  resolve_into(l, &s, 0);
  return s;
}

int ir_srcloc_str(const ir_srcloc *s, char *buf, size_t n)
{
  if (n) buf[0] = 0;
  if (!s->file && !s->name) return 0;
  int pos = 0;
  if (s->file) pos = put(buf, n, pos, "%s:%d:%d", s->file, s->line, s->col);
  if (s->name) pos = put(buf, n, pos, s->file ? " (%s)" : "(%s)", s->name);
  return pos;
}

ttref_loc ir_op_ttir_loc(const ir_module *m, const ir_op *op)
{
  ttref_loc l = {m ? m->filename : NULL, op ? op->line : 0, op ? op->col : 0};
  return l;
}

ir_srcloc ir_op_srcloc(const ir_op *op) { return ir_loc_resolve(op ? op->loc : NULL); }

const char *ir_op_label(const ir_op *op)
{
  return op->code == IR_OP_VENDOR && op->vdef ? op->vdef->name : ir_op_name(op->code);
}
