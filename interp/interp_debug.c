/*
 * interp_debug.c: the debugging aids behind `ttref run --dump/--trace/--trap/
 * --check-uninit` and the located undefined-behaviour reports. The executor
 * calls these hooks only when a launch has debug state, so a plain run pays
 * one predictable branch per op (measured: docs/performance.md). Over 1000
 * lines because the dump selectors, trace, traps and uninitialised-read checks
 * share one per-launch state and its locking; splitting it is left to the
 * debugging module's owner.
 */
#define _GNU_SOURCE /* lstat under -std=c11 */
#include "config.h"
#include "interp_debug.h"
#include "fp.h"
#include "ir_base_fs.h"
#include "npy_io.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DUMPS      32
#define MAX_TRACE_PIDS 16
#define MAX_ORIGINS    4096

typedef struct dump_spec {
  const ir_value *v;
  char name[96];  /* as shown: the Python name or %ttir_name */
  int64_t pid[3]; /* -1 = any */
  int64_t lo, hi; /* lanes [lo, hi); hi = -1: to the end */
  bool in_loop;
  int def;       /* a Python name with several definitions: 1, 2, ... (file names); else 0 */
  int64_t count; /* occurrences in the current program */
} dump_spec;

typedef struct ub_event {
  int64_t lin, seq, lane, pid[3];
  const ir_op *op;
  interp_ub_kind kind;
} ub_event;

typedef struct shadow { /* per value id of one function: origin per lane (0 = defined) */
  uint32_t *o;
  int64_t cap;
} shadow;

typedef struct origin {
  const ir_op *op;
  int kind; /* 0: masked-off lane without other; 1: never-written memory */
  const char *alloc;
} origin;

struct interp_debug {
  const ir_module *mod;
  const ir_func *fn;
  FILE *out, *warn;
  dump_spec dumps[MAX_DUMPS];
  int ndumps;
  char *dump_dir;
  bool trace, trace_all;
  int64_t trace_pids[MAX_TRACE_PIDS][3];
  int ntrace;
  int trap;
  bool uninit;
  interp_ub_mode ub_mode;
  int64_t last_lin;
  /* UB: the INTERP_UB_SHOWN first events in (program, sequence) order, and the count */
  ub_event ub[INTERP_UB_SHOWN];
  int nub;
  int64_t ub_total;
  /* --check-uninit */
  shadow **sh;   /* per function index, per value id */
  uint8_t **msh; /* per allocation: 1 per never-written byte, or NULL */
  int nmsh;
  const interp_mem *mem;
  origin *origins;
  int norigins;
};

static const char *const ub_msgs[] = {
#define X(id, msg) msg,
    INTERP_UB_LIST(X)
#undef X
};

/* ---- set-up ------------------------------------------------------------------------------------ */
interp_debug *interp_debug_new(const ir_module *m, const ir_func *fn)
{
  interp_debug *d = ir_calloc(1, sizeof *d);
  if (!d) return NULL;
  d->mod = m;
  d->fn = fn;
  d->out = stdout;
  d->warn = stderr;
  d->last_lin = -1;
  return d;
}

void interp_debug_free(interp_debug *d)
{
  if (!d) return;
  if (d->dump_dir) ir_free(d->dump_dir, strlen(d->dump_dir) + 1);
  if (d->sh) {
    for (int f = 0; f < d->mod->nfuncs; f++) {
      if (!d->sh[f]) continue;
      for (uint32_t v = 0; v < d->mod->funcs[f]->nvalues; v++)
        ir_free(d->sh[f][v].o, sizeof(uint32_t) * (size_t)d->sh[f][v].cap);
      ir_free(d->sh[f], sizeof(shadow) * (d->mod->funcs[f]->nvalues + 1));
    }
    ir_free(d->sh, sizeof(shadow *) * ((size_t)d->mod->nfuncs + 1));
  }
  if (d->msh) {
    for (int k = 0; k < d->nmsh; k++)
      if (d->msh[k]) ir_free(d->msh[k], d->mem->allocs[k].nbytes + 1);
    ir_free(d->msh, sizeof(uint8_t *) * ((size_t)d->nmsh + 1));
  }
  ir_free(d->origins, sizeof(origin) * MAX_ORIGINS);
  ir_free(d, sizeof *d);
}

void interp_debug_set_trap(interp_debug *d, int mask) { d->trap = mask; }
void interp_debug_set_check_uninit(interp_debug *d, bool on) { d->uninit = on; }
void interp_debug_set_ub_mode(interp_debug *d, interp_ub_mode mode) { d->ub_mode = mode; }
void interp_debug_set_out(interp_debug *d, FILE *out, FILE *warn)
{
  if (out) d->out = out;
  if (warn) d->warn = warn;
}

void interp_debug_attach(interp_debug *d, interp_launch *L)
{
  L->debug = d;
  L->debug_ops = d->ndumps > 0 || d->trace || d->trap || d->uninit || d->ub_mode == INTERP_UB_STRICT;
}

/* "*" -> all -1; "X[,Y[,Z]]" -> ids (missing ones 0). */
static bool parse_pid(const char *s, const char *end, int64_t pid[3])
{
  pid[0] = pid[1] = pid[2] = -1;
  if (end - s == 1 && *s == '*') return true;
  pid[0] = pid[1] = pid[2] = 0;
  for (int k = 0; k < 3; k++) {
    char *e;
    if (s >= end || *s < '0' || *s > '9') return false;
    long long v = strtoll(s, &e, 10);
    if (e > end || v > INT32_MAX) return false;
    pid[k] = v;
    s = e;
    if (s == end) return true;
    if (*s != ',') return false;
    s++;
  }
  return false;
}

static bool op_in_loop(const ir_op *op)
{
  for (const ir_block *b = op->parent; b && b->parent && b->parent->parent; b = b->parent->parent->parent) {
    ir_opcode c = b->parent->parent->code;
    if (c == IR_OP_SCF_FOR || c == IR_OP_SCF_WHILE) return true;
  }
  return false;
}

typedef struct name_hit {
  const ir_op *op;
  const ir_block *b;
} name_hit;

/* Python-name definitions: the last op with that loc name in each block. */
static int find_py(const ir_region *r, const char *name, size_t len, name_hit *hits, int nhits, int cap)
{
  for (int bi = 0; bi < r->nblocks; bi++) {
    const ir_block *b = r->blocks[bi];
    for (int i = 0; i < b->nops; i++) {
      const ir_op *op = b->ops[i];
      /* combine regions (reduce, scan, map_elementwise) run on internal lanes: not dumped by Python name */
      const bool combine = op->code == IR_OP_REDUCE || op->code == IR_OP_SCAN || op->code == IR_OP_MAP_ELEMENTWISE;
      for (int k = 0; k < op->nregions && !combine; k++) nhits = find_py(&op->regions[k], name, len, hits, nhits, cap);
      if (op->nres < 1) continue;
      ir_srcloc s = ir_op_srcloc(op);
      if (!s.name || strlen(s.name) != len || memcmp(s.name, name, len) != 0) continue;
      int j = 0;
      while (j < nhits && hits[j].b != b) j++;
      if (j < nhits) hits[j].op = op;
      else if (nhits < cap) hits[nhits++] = (name_hit){op, b};
    }
  }
  return nhits;
}

static const ir_value *find_ttir(const ir_region *r, const char *name, size_t len)
{
  for (int bi = 0; bi < r->nblocks; bi++) {
    const ir_block *b = r->blocks[bi];
    for (int a = 0; a < b->nargs; a++)
      if (b->args[a].name && strlen(b->args[a].name) == len && !memcmp(b->args[a].name, name, len)) return &b->args[a];
    for (int i = 0; i < b->nops; i++) {
      const ir_op *op = b->ops[i];
      for (int k = 0; k < op->nres; k++)
        if (op->res[k].name && strlen(op->res[k].name) == len && !memcmp(op->res[k].name, name, len))
          return &op->res[k];
      for (int k = 0; k < op->nregions; k++) {
        const ir_value *v = find_ttir(&op->regions[k], name, len);
        if (v) return v;
      }
    }
  }
  return NULL;
}

static void list_py_names(const ir_region *r, char *buf, size_t n, size_t *pos)
{
  for (int bi = 0; bi < r->nblocks; bi++)
    for (int i = 0; i < r->blocks[bi]->nops; i++) {
      const ir_op *op = r->blocks[bi]->ops[i];
      for (int k = 0; k < op->nregions; k++) list_py_names(&op->regions[k], buf, n, pos);
      ir_srcloc s = ir_op_srcloc(op);
      if (!s.name || op->nres < 1 || *pos + strlen(s.name) + 8 >= n) continue;
      char key[80];
      snprintf(key, sizeof key, " %s,", s.name);
      if (strstr(buf, key)) continue;
      *pos += (size_t)snprintf(buf + *pos, n - *pos, "%s", key);
    }
}

ttref_status interp_debug_add_dump(interp_debug *d, const char *spec, ttref_error *err)
{
  ttref_loc none = {0};
  const char *at = strchr(spec, '@'), *br = strchr(spec, '[');
  const char *nend = at ? at : br ? br : spec + strlen(spec);
  if (br && at && br < at) nend = br;
  size_t len = (size_t)(nend - spec);
  dump_spec ds;
  memset(&ds, 0, sizeof ds);
  ds.pid[0] = ds.pid[1] = ds.pid[2] = -1;
  ds.hi = -1;
  if (len == 0 || len >= 80)
    return IR_ERR(err, TTREF_E_USAGE, none, "--dump '%s': want NAME[@PID][[LANES]], e.g. offs@0[0:8]", spec);
  if (at && (!br || br > at)) {
    const char *pe = br ? br : spec + strlen(spec);
    if (!parse_pid(at + 1, pe, ds.pid))
      return IR_ERR(err, TTREF_E_USAGE, none, "--dump '%s': bad program id (want @* or @X[,Y[,Z]])", spec);
  }
  if (br) {
    char *e;
    const char *s = br + 1;
    ds.lo = 0;
    if (*s != ':') {
      ds.lo = strtoll(s, &e, 10);
      if (e == s || ds.lo < 0) goto bad_lanes;
      s = e;
      ds.hi = ds.lo + 1;
    }
    if (*s == ':') {
      s++;
      ds.hi = -1;
      if (*s != ']') {
        ds.hi = strtoll(s, &e, 10);
        if (e == s || ds.hi < ds.lo) goto bad_lanes;
        s = e;
      }
    }
    if (s[0] != ']' || s[1] != 0) goto bad_lanes;
  }
  const bool ttir = spec[0] == '%';
  const char *nm = ttir ? spec + 1 : spec;
  size_t nl = ttir ? len - 1 : len;
  name_hit hits[8];
  int nh = ttir ? 0 : find_py(&d->fn->body, nm, nl, hits, 0, 8);
  const ir_value *tv = nh ? NULL : find_ttir(&d->fn->body, nm, nl);
  if (!nh && !tv) {
    char names[600] = "";
    size_t pos = 0;
    list_py_names(&d->fn->body, names, sizeof names, &pos);
    if (pos) names[pos - 1] = 0;
    ir_error_set(err, TTREF_E_USAGE, none, "--dump: no value named '%.*s' in @%s", (int)len, spec, d->fn->name);
    ir_error_note(err, "note: use a TTIR name (%%x_7) or a Python name:%s", pos ? names : " (none in the locations)");
    return TTREF_E_USAGE;
  }
  if (tv && !tv->def)
    return IR_ERR(err, TTREF_E_USAGE, none,
                  "--dump '%s': %%%s is a block argument (of the kernel or a loop); dump the value that flows into it",
                  spec, tv->name);
  for (int h = 0; h < (nh ? nh : 1); h++) {
    if (d->ndumps >= MAX_DUMPS) return IR_ERR(err, TTREF_E_USAGE, none, "--dump: at most %d values", MAX_DUMPS);
    dump_spec *o = &d->dumps[d->ndumps++];
    *o = ds;
    o->v = nh ? &hits[h].op->res[0] : tv;
    o->in_loop = o->v->def ? op_in_loop(o->v->def) : false;
    o->def = nh > 1 ? h + 1 : 0;
    if (nh) snprintf(o->name, sizeof o->name, "%.*s", (int)nl, nm);
    else snprintf(o->name, sizeof o->name, "%%%s", tv->name);
  }
  return TTREF_OK;
bad_lanes:
  return IR_ERR(err, TTREF_E_USAGE, none, "--dump '%s': bad lanes (want [A:B], [A] or [A:])", spec);
}

ttref_status interp_debug_set_dump_dir(interp_debug *d, const char *dir, ttref_error *err)
{
  ttref_loc none = {0};
  if (!*dir) return IR_ERR(err, TTREF_E_USAGE, none, "--dump-dir needs a directory");
  ttref_status st = ir_fs_mkdirs(dir, "dump directory", err);
  if (st != TTREF_OK) return st;
  struct stat sb;
  if (lstat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
    return IR_ERR(err, TTREF_E_IO, none, "dump directory '%s' is not a directory (symlinks are not followed)", dir);
  if (d->dump_dir) ir_free(d->dump_dir, strlen(d->dump_dir) + 1);
  d->dump_dir = ir_strdup(dir);
  return d->dump_dir ? TTREF_OK : IR_ERR(err, TTREF_E_NOMEM, none, "out of memory");
}

ttref_status interp_debug_set_trace(interp_debug *d, const char *pids, ttref_error *err)
{
  d->trace = true;
  if (!pids || strcmp(pids, "*") == 0) {
    d->trace_all = true;
    return TTREF_OK;
  }
  if (d->ntrace >= MAX_TRACE_PIDS || !parse_pid(pids, pids + strlen(pids), d->trace_pids[d->ntrace]))
    return IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "--trace-pids '%s': want X[,Y[,Z]] or * (at most %d)", pids,
                  MAX_TRACE_PIDS);
  d->ntrace++;
  return TTREF_OK;
}

/* ---- formatting ------------------------------------------------------------------------------------ */
static ir_scalar scalar_of(const ir_value *v) { return ir_type_elem(v->type)->scalar; }

static fp_format fmt_of(ir_scalar s)
{
  switch (s) {
  case IR_S_F16: return FP_F16;
  case IR_S_BF16: return FP_BF16;
  case IR_S_F32: return FP_F32;
  case IR_S_F8E4M3FN: return FP_F8E4M3FN;
  case IR_S_F8E5M2: return FP_F8E5M2;
  case IR_S_F8E4M3FNUZ: return FP_F8E4M3FNUZ;
  case IR_S_F8E5M2FNUZ: return FP_F8E5M2FNUZ;
  default: return FP_F64;
  }
}

static int64_t sext(int bits, int64_t v)
{
  if (bits >= 64) return v;
  if (bits == 1) return v & 1;
  return (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits);
}

/* tt.print's element format: %f for floats, signed decimal for ints, 0x.. for pointers. */
static void put_elem(FILE *f, const ir_value *v, interp_elem e, bool gfmt)
{
  const ir_scalar s = scalar_of(v);
  if (ir_scalar_is_float(s)) fprintf(f, gfmt ? "%.9g" : "%f", e.f);
  else if (s == IR_S_PTR) fprintf(f, "0x%" PRIx64, (uint64_t)e.i);
  else fprintf(f, "%" PRId64, sext(ir_scalar_bits(s), e.i));
}

static void lane_idx(const ir_type *t, int64_t lane, char *buf, size_t n)
{
  if (!t || t->kind != IR_T_TENSOR || t->rank == 0) {
    snprintf(buf, n, "()");
    return;
  }
  int64_t idx[IR_MAX_RANK], rem = lane;
  for (int k = t->rank - 1; k >= 0; k--) {
    int64_t s = t->shape[k] ? t->shape[k] : 1;
    idx[k] = rem % s;
    rem /= s;
  }
  size_t pos = (size_t)snprintf(buf, n, "(");
  for (int k = 0; k < t->rank && pos < n; k++)
    pos += (size_t)snprintf(buf + pos, n - pos, "%s%" PRId64, k ? ", " : "", idx[k]);
  if (pos < n) snprintf(buf + pos, n - pos, ")");
}

static void lane_str(const ir_type *t, int64_t lane, char *buf, size_t n)
{
  if (!t || t->kind != IR_T_TENSOR || t->rank == 0) {
    snprintf(buf, n, "scalar");
    return;
  }
  char ix[120];
  lane_idx(t, lane, ix, sizeof ix);
  snprintf(buf, n, "lane %" PRId64 " %s", lane, ix);
}

static ttref_status fault_op(const interp_dbg_site *s, const ir_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ttref_status fault_op(const interp_dbg_site *s, const ir_op *op, const char *fmt, ...)
{
  char body[420];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ir_error_set(s->err, TTREF_E_FAULT, ir_op_ttir_loc(s->L->mod, op), "%s", body);
  ir_srcloc sl = ir_op_srcloc(op);
  char sb[256];
  if (ir_srcloc_str(&sl, sb, sizeof sb) > 0) ir_error_note(s->err, "note: in kernel source %s", sb);
  return TTREF_E_FAULT;
}

/* "kernel.ttir:12:5 'tt.load' (kernels.py:9:16 x)" */
static void op_where(const interp_launch *L, const ir_op *op, char *buf, size_t n)
{
  ttref_loc tl = ir_op_ttir_loc(L->mod, op);
  ir_srcloc sl = ir_op_srcloc(op);
  char sb[200];
  int has = ir_srcloc_str(&sl, sb, sizeof sb) > 0;
  snprintf(buf, n, "'%s' at %s:%d:%d%s%s", ir_op_label(op), tl.file ? tl.file : "?", tl.line, tl.col,
           has ? ", kernel source " : "", has ? sb : "");
}

/* ---- masked lanes: does lane of v derive from a masked-off tt.load lane? ---------------------------- */
/* *budget bounds the walk (a DAG of shared operands would otherwise be walked exponentially). */
static bool lane_masked(const interp_dbg_site *s, const ir_value *v, int64_t lane, int *budget)
{
  const ir_op *op = v->def;
  if (!op || --*budget < 0) return false;
  int64_t n;
  if (op->code == IR_OP_LOAD) {
    if (op->nopnds < 2) return false;
    const interp_elem *m = s->get(s->cx, op->opnds[1], &n);
    return !m[n > 1 ? lane : 0].i;
  }
  unsigned fl = ir_op_flags(op->code);
  if (op->code == IR_OP_SPLAT) return lane_masked(s, op->opnds[0], 0, budget);
  if (op->code == IR_OP_EXPAND_DIMS || op->code == IR_OP_RESHAPE) return lane_masked(s, op->opnds[0], lane, budget);
  if (op->code == IR_OP_BROADCAST) {
    const ir_type *rt = op->res[0].type, *st = op->opnds[0]->type;
    if (rt->kind != IR_T_TENSOR || st->kind != IR_T_TENSOR || rt->rank != st->rank) return false;
    int64_t rem = lane, src = 0, mul = 1;
    for (int k = rt->rank - 1; k >= 0; k--) {
      int64_t i = rem % rt->shape[k];
      rem /= rt->shape[k];
      if (st->shape[k] != 1) src += i * mul;
      mul *= st->shape[k];
    }
    return lane_masked(s, op->opnds[0], src, budget);
  }
  if (!(fl & IR_F_ELEMENTWISE)) return false;
  if (op->code == IR_OP_SELECT) { /* only the chosen side matters */
    const interp_elem *c = s->get(s->cx, op->opnds[0], &n);
    int64_t cl = n > 1 ? lane : 0;
    if (lane_masked(s, op->opnds[0], cl, budget)) return true;
    const ir_value *ch = op->opnds[c[cl].i ? 1 : 2];
    s->get(s->cx, ch, &n);
    return lane_masked(s, ch, n > 1 ? lane : 0, budget);
  }
  for (int k = 0; k < op->nopnds; k++) {
    s->get(s->cx, op->opnds[k], &n);
    if (lane_masked(s, op->opnds[k], n > 1 ? lane : 0, budget)) return true;
  }
  return false;
}

static bool op_lane_masked(const interp_dbg_site *s, const ir_op *op, int64_t lane)
{
  int budget = 256;
  for (int k = 0; k < op->nopnds; k++) {
    int64_t n;
    s->get(s->cx, op->opnds[k], &n);
    if (lane_masked(s, op->opnds[k], n > 1 ? lane : 0, &budget)) return true;
  }
  return false;
}

/* ---- undefined behaviour ------------------------------------------------------------------------------ */
static bool ev_before(const ub_event *a, const ub_event *b)
{
  return a->lin != b->lin ? a->lin < b->lin : a->seq < b->seq;
}

bool interp_debug_ub(interp_debug *d, const interp_dbg_site *s, const ir_op *op, interp_ub_kind k, int64_t lane)
{
  if (d->ub_mode == INTERP_UB_QUIET) return false;
  if (op_lane_masked(s, op, lane)) return false;
  if (d->ub_mode == INTERP_UB_STRICT) return true;
  ub_event e = {s->lin, s->seq, lane, {s->pid[0], s->pid[1], s->pid[2]}, op, k};
#ifdef _OPENMP
#pragma omp critical(ttref_debug_ub)
#endif
  {
    d->ub_total++;
    int pos = d->nub;
    while (pos > 0 && ev_before(&e, &d->ub[pos - 1])) pos--;
    if (pos < INTERP_UB_SHOWN) {
      int last = d->nub < INTERP_UB_SHOWN ? d->nub : INTERP_UB_SHOWN - 1;
      memmove(&d->ub[pos + 1], &d->ub[pos], sizeof(ub_event) * (size_t)(last - pos));
      d->ub[pos] = e;
      if (d->nub < INTERP_UB_SHOWN) d->nub++;
    }
  }
  return false;
}

ttref_status interp_debug_ub_fault(const interp_dbg_site *s, const ir_op *op, interp_ub_kind k, int64_t lane)
{
  char lb[160];
  lane_str(op->res[0].type, lane, lb, sizeof lb);
  return fault_op(s, op, "undefined behaviour (--strict): %s in '%s': pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s",
                  ub_msgs[k], ir_op_name(op->code), s->pid[0], s->pid[1], s->pid[2], lb);
}

int64_t interp_debug_finish(interp_debug *d)
{
  for (int i = 0; i < d->nub; i++) {
    const ub_event *e = &d->ub[i];
    ttref_loc tl = ir_op_ttir_loc(d->mod, e->op);
    ir_srcloc sl = ir_op_srcloc(e->op);
    char sb[200], lb[160];
    lane_str(e->op->res[0].type, e->lane, lb, sizeof lb);
    int has = ir_srcloc_str(&sl, sb, sizeof sb) > 0;
    fprintf(d->warn, "%s:%d:%d: warning: %s in '%s': pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s%s%s\n",
            tl.file ? tl.file : "?", tl.line, tl.col, ub_msgs[e->kind], ir_op_name(e->op->code), e->pid[0], e->pid[1],
            e->pid[2], lb, has ? "; in kernel source " : "", has ? sb : "");
  }
  if (d->ub_total > d->nub)
    fprintf(d->warn,
            "warning: %" PRId64
            " more undefined-behaviour case%s not shown (--strict faults at the first, --quiet hides them)\n",
            d->ub_total - d->nub, d->ub_total - d->nub == 1 ? "" : "s");
  return d->ub_total;
}

/* ---- dumps ------------------------------------------------------------------------------------------------ */
static bool pid_match(const int64_t want[3], const int64_t *pid)
{
  for (int k = 0; k < 3; k++)
    if (want[k] >= 0 && want[k] != pid[k]) return false;
  return true;
}

static void safe_name(const char *in, char *out, size_t n)
{
  size_t j = 0;
  for (; *in && j + 1 < n; in++)
    out[j++] = ((*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') || (*in >= '0' && *in <= '9') || *in == '_')
                   ? *in
                   : '_';
  out[j] = 0;
}

static ttref_status dump_npy(interp_debug *d, const interp_dbg_site *s, const dump_spec *ds, const interp_elem *x,
                             int64_t lo, int64_t hi)
{
  ttref_status st = TTREF_OK;
  npy_array a;
  const ir_scalar sc = scalar_of(ds->v);
  const bool flt = ir_scalar_is_float(sc);
  const int bytes = ir_scalar_bytes(sc);
  char kind = flt              ? (sc == IR_S_F16 || sc == IR_S_F32 || sc == IR_S_F64 ? 'f' : 'u')
              : sc == IR_S_I1  ? 'b'
              : sc == IR_S_PTR ? 'u'
                               : 'i';
  const ir_type *t = ds->v->type;
  int64_t shape[IR_MAX_RANK];
  int rank = 0;
  if (lo == 0 && hi == (t->kind == IR_T_TENSOR ? t->numel : 1) && t->kind == IR_T_TENSOR) {
    rank = t->rank;
    for (int k = 0; k < rank; k++) shape[k] = t->shape[k];
  } else if (t->kind == IR_T_TENSOR) {
    rank = 1;
    shape[0] = hi - lo;
  }
  TRY(npy_alloc(&a, kind, bytes, rank, shape, s->err));
  for (int64_t i = lo; i < hi; i++) {
    uint8_t *p = (uint8_t *)a.data + (size_t)(i - lo) * (size_t)bytes;
    uint64_t bits = flt ? fp_encode(fmt_of(sc), x[i].f, FP_RNE, FP_OVF_INF) : (uint64_t)x[i].i;
    if (sc == IR_S_I1) bits &= 1;
    for (int b = 0; b < bytes; b++)
      p[b] = (uint8_t)(bits >> (8 * b)); /* little endian, as npy_write expects on LE hosts */
  }
  {
    char nm[100], path[4200];
    safe_name(ds->name[0] == '%' ? ds->name + 1 : ds->name, nm, sizeof nm);
    if (ds->def) snprintf(nm + strlen(nm), sizeof nm - strlen(nm), ".def%d", ds->def);
    if (ds->in_loop)
      snprintf(path, sizeof path, "%s/%s.pid%" PRId64 "-%" PRId64 "-%" PRId64 ".it%" PRId64 ".npy", d->dump_dir, nm,
               s->pid[0], s->pid[1], s->pid[2], ds->count);
    else
      snprintf(path, sizeof path, "%s/%s.pid%" PRId64 "-%" PRId64 "-%" PRId64 ".npy", d->dump_dir, nm, s->pid[0],
               s->pid[1], s->pid[2]);
    st = npy_write_new(path, &a, s->err); /* never overwrites, never through a symlink */
  }
  npy_free(&a);
fail:
  return st;
}

static ttref_status do_dumps(interp_debug *d, const interp_dbg_site *s, const ir_op *op)
{
  for (int k = 0; k < d->ndumps; k++) {
    dump_spec *ds = &d->dumps[k];
    if (ds->v->def != op || !pid_match(ds->pid, s->pid)) continue;
    int64_t n;
    const interp_elem *x = s->get(s->cx, ds->v, &n);
    int64_t lo = ds->lo < n ? ds->lo : n, hi = ds->hi < 0 || ds->hi > n ? n : ds->hi;
    if (d->dump_dir) {
      ttref_status st = dump_npy(d, s, ds, x, lo, hi);
      if (st != TTREF_OK) return st;
    } else {
      for (int64_t i = lo; i < hi; i++) {
        char ix[120];
        lane_idx(ds->v->type, i, ix, sizeof ix);
        fprintf(d->out, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") idx %s %s", s->pid[0], s->pid[1], s->pid[2], ix,
                ds->name);
        if (ds->in_loop) fprintf(d->out, "[iter %" PRId64 "]", ds->count);
        fputs(": ", d->out);
        put_elem(d->out, ds->v, x[i], false);
        fputc('\n', d->out);
      }
    }
    ds->count++;
  }
  return TTREF_OK;
}

/* ---- trace ------------------------------------------------------------------------------------------------- */
static void do_trace(interp_debug *d, const interp_dbg_site *s, const ir_op *op)
{
  bool want = d->trace_all;
  for (int k = 0; k < d->ntrace && !want; k++) want = pid_match(d->trace_pids[k], s->pid);
  if (!want) return;
  ttref_loc tl = ir_op_ttir_loc(d->mod, op);
  ir_srcloc sl = ir_op_srcloc(op);
  char sb[200];
  int has = ir_srcloc_str(&sl, sb, sizeof sb) > 0;
  for (int r = 0; r < op->nres; r++) {
    const ir_value *v = &op->res[r];
    int64_t n;
    const interp_elem *x = s->get(s->cx, v, &n);
    char ty[128];
    ir_type_str(v->type, ty, sizeof ty);
    fprintf(d->out, "trace pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s:%d:%d %s %%%s%s%s : %s", s->pid[0], s->pid[1],
            s->pid[2], tl.file ? tl.file : "?", tl.line, tl.col, ir_op_label(op), v->name ? v->name : "?",
            has ? " at " : "", has ? sb : "", ty);
    const ir_scalar sc = scalar_of(v);
    const ir_type *et = ir_type_elem(v->type);
    if (et->kind == IR_T_SCALAR && (ir_scalar_is_float(sc) || ir_scalar_is_int(sc))) {
      const bool flt = ir_scalar_is_float(sc);
      const int bits = ir_scalar_bits(sc);
      int64_t nnan = 0, ninf = 0, imin = INT64_MAX, imax = INT64_MIN;
      double fmin = INFINITY, fmax = -INFINITY;
      for (int64_t i = 0; i < n; i++) {
        if (flt) {
          double f = x[i].f;
          if (isnan(f)) nnan++;
          else {
            if (isinf(f)) ninf++;
            if (f < fmin) fmin = f;
            if (f > fmax) fmax = f;
          }
        } else {
          int64_t iv = sext(bits, x[i].i);
          if (iv < imin) imin = iv;
          if (iv > imax) imax = iv;
        }
      }
      if (flt) fprintf(d->out, " min %.9g max %.9g nan %" PRId64 " inf %" PRId64, fmin, fmax, nnan, ninf);
      else fprintf(d->out, " min %" PRId64 " max %" PRId64, imin, imax);
    }
    fputs(" [", d->out);
    for (int64_t i = 0; i < n && i < 4; i++) {
      if (i) fputs(", ", d->out);
      put_elem(d->out, v, x[i], true);
    }
    fputs(n > 4 ? ", ...]\n" : "]\n", d->out);
  }
}

/* ---- traps -------------------------------------------------------------------------------------------------- */
static bool bad_float(int trap, double f)
{
  if (isnan(f)) return (trap & INTERP_TRAP_NAN) != 0;
  if (isinf(f)) return (trap & INTERP_TRAP_INF) != 0;
  return false;
}

static ttref_status do_trap(interp_debug *d, const interp_dbg_site *s, const ir_op *op)
{
  /* the ops inside regions and callees trap first; a NaN/inf constant is deliberate (e.g. other=-inf) */
  if (op->nregions > 0 || op->code == IR_OP_CALL || op->code == IR_OP_CONSTANT) return TTREF_OK;
  for (int r = 0; r < op->nres; r++) {
    const ir_value *v = &op->res[r];
    if (!ir_scalar_is_float(scalar_of(v)) || ir_type_elem(v->type)->kind != IR_T_SCALAR) continue;
    int64_t n;
    const interp_elem *x = s->get(s->cx, v, &n);
    for (int64_t i = 0; i < n; i++) {
      if (!bad_float(d->trap, x[i].f)) continue;
      /* an operand lane already NaN/inf (for an inf result: inf or NaN) means the value only passed through */
      bool inherited = false;
      for (int k = 0; k < op->nopnds && !inherited; k++) {
        const ir_value *o = op->opnds[k];
        if (!ir_scalar_is_float(scalar_of(o)) || ir_type_elem(o->type)->kind != IR_T_SCALAR) continue;
        int64_t on;
        const interp_elem *ox = s->get(s->cx, o, &on);
        if (on == n || on == 1) {
          double f = ox[on > 1 ? i : 0].f;
          inherited = isnan(f) || (isinf(f) && (d->trap & INTERP_TRAP_INF ? true : isinf(x[i].f)));
        } else {
          for (int64_t j = 0; j < on && !inherited; j++) inherited = isnan(ox[j].f) || isinf(ox[j].f);
        }
      }
      if (inherited || op_lane_masked(s, op, i)) continue;
      char lb[160];
      lane_str(v->type, i, lb, sizeof lb);
      if (ir_op_flags(op->code) & IR_F_MEM) /* the value was in memory (an input, or stored there earlier) */
        return fault_op(s, op, "%s read from memory by '%s' (--trap): pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s",
                        isnan(x[i].f) ? "NaN" : "infinity", ir_op_name(op->code), s->pid[0], s->pid[1], s->pid[2], lb);
      return fault_op(
          s, op, "%s created by '%s' from operands without %s (--trap): pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s",
          isnan(x[i].f) ? "NaN" : "infinity", ir_op_name(op->code), isnan(x[i].f) ? "NaN" : "NaN or infinity",
          s->pid[0], s->pid[1], s->pid[2], lb);
    }
  }
  return TTREF_OK;
}

/* ---- --check-uninit: definedness shadow ------------------------------------------------------------------- */
static int func_index(const interp_debug *d, const ir_op *op)
{
  const ir_func *f = op->parent && op->parent->parent ? op->parent->parent->func : NULL;
  for (int i = 0; i < d->mod->nfuncs; i++)
    if (d->mod->funcs[i] == f) return i;
  return -1;
}

/* The shadow of v (in op's function), grown to n lanes; NULL on OOM. */
static uint32_t *sh_of(interp_debug *d, int fi, const ir_value *v, int64_t n)
{
  if (fi < 0) return NULL;
  if (!d->sh[fi]) {
    d->sh[fi] = ir_calloc(d->mod->funcs[fi]->nvalues + 1, sizeof(shadow));
    if (!d->sh[fi]) return NULL;
  }
  shadow *s = &d->sh[fi][v->id];
  if (n < 1) n = 1;
  if (n > s->cap) {
    uint32_t *no = ir_realloc(s->o, sizeof(uint32_t) * (size_t)s->cap, sizeof(uint32_t) * (size_t)n);
    if (!no) return NULL;
    memset(no + s->cap, 0, sizeof(uint32_t) * (size_t)(n - s->cap));
    s->o = no;
    s->cap = n;
  }
  return s->o;
}

static uint32_t origin_of(interp_debug *d, const ir_op *op, int kind, const char *alloc)
{
  for (int i = 0; i < d->norigins; i++)
    if (d->origins[i].op == op && d->origins[i].kind == kind && d->origins[i].alloc == alloc) return (uint32_t)i + 1;
  if (d->norigins >= MAX_ORIGINS) return MAX_ORIGINS; /* table full: the last one stands for the rest */
  d->origins[d->norigins] = (origin){op, kind, alloc};
  return (uint32_t)++d->norigins;
}

static ttref_status uninit_setup(interp_debug *d, const interp_launch *L, ttref_error *err)
{
  ttref_loc none = {0};
  if (d->sh) return TTREF_OK;
  d->sh = ir_calloc((size_t)d->mod->nfuncs + 1, sizeof(shadow *));
  d->origins = ir_calloc(MAX_ORIGINS, sizeof(origin));
  d->mem = L->mem;
  d->nmsh = L->mem->n;
  d->msh = ir_calloc((size_t)d->nmsh + 1, sizeof(uint8_t *));
  if (!d->sh || !d->origins || !d->msh) return IR_ERR(err, TTREF_E_NOMEM, none, "out of memory for --check-uninit");
  for (int k = 0; k < d->nmsh; k++) {
    if (!L->mem->allocs[k].uninit) continue;
    d->msh[k] = ir_alloc(L->mem->allocs[k].nbytes + 1);
    if (!d->msh[k]) return IR_ERR(err, TTREF_E_NOMEM, none, "out of memory for --check-uninit");
    memset(d->msh[k], 1, L->mem->allocs[k].nbytes + 1);
  }
  return TTREF_OK;
}

static ttref_status undef_use(interp_debug *d, const interp_dbg_site *s, const ir_op *op, const ir_value *v,
                              int64_t lane, uint32_t o, const char *use)
{
  char lb[160], wh[400] = "";
  lane_str(v->type, lane, lb, sizeof lb);
  if (o >= 1 && (int)o <= d->norigins) {
    const origin *og = &d->origins[o - 1];
    char w[300];
    op_where(s->L, og->op, w, sizeof w);
    if (og->kind == 0) snprintf(wh, sizeof wh, "; it comes from a masked-off lane of %s, which has no `other`", w);
    else snprintf(wh, sizeof wh, "; it comes from %s reading '%s' before anything was written there", w, og->alloc);
  }
  return fault_op(s, op,
                  "undefined value %s in '%s' (--check-uninit): pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s%s", use,
                  ir_op_name(op->code), s->pid[0], s->pid[1], s->pid[2], lb, wh);
}

/* Fault if any lane of v (restricted to lanes where act is nonzero, when given) is undefined. */
static ttref_status need_defined(interp_debug *d, const interp_dbg_site *s, const ir_op *op, int fi, const ir_value *v,
                                 const ir_value *act, const char *use)
{
  int64_t n, an = 0;
  s->get(s->cx, v, &n);
  const interp_elem *a = act ? s->get(s->cx, act, &an) : NULL;
  const uint32_t *o = sh_of(d, fi, v, n);
  if (!o) return TTREF_OK;
  int64_t len = n > an ? n : an;
  for (int64_t i = 0; i < len; i++) {
    if (a && !a[an > 1 ? i : 0].i) continue;
    uint32_t oi = o[n > 1 ? i : 0];
    if (oi) return undef_use(d, s, op, v, n > 1 ? i : 0, oi, use);
  }
  return TTREF_OK;
}

static void copy_sh(interp_debug *d, int fi, const ir_value *dst, const ir_value *src, const interp_dbg_site *s)
{
  int64_t n;
  s->get(s->cx, src, &n);
  uint32_t *so = sh_of(d, fi, src, n), *dd = sh_of(d, fi, dst, n);
  if (so && dd && so != dd) memcpy(dd, so, sizeof(uint32_t) * (size_t)n);
}

/* The never-written bytes of the allocation holding addr (NULL when not tracked). */
static uint8_t *mem_sh(interp_debug *d, int64_t addr, int64_t *off, int *k)
{
  uint64_t kk = (uint64_t)addr >> INTERP_ADDR_SHIFT;
  if (kk == 0 || kk > (uint64_t)d->nmsh || !d->msh[kk - 1]) return NULL;
  *k = (int)kk - 1;
  *off = (int64_t)((uint64_t)addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1));
  return d->msh[kk - 1];
}

ttref_status interp_debug_before(interp_debug *d, const interp_dbg_site *s, const ir_op *op)
{
  if (!d->uninit) return TTREF_OK;
  ttref_status st = TTREF_OK;
  TRY(uninit_setup(d, s->L, s->err));
  const int fi = func_index(d, op);
  switch (op->code) {
  case IR_OP_SCF_IF: TRY(need_defined(d, s, op, fi, op->opnds[0], NULL, "used as a branch condition")); break;
  case IR_OP_CF_COND_BR:
    TRY(need_defined(d, s, op, fi, op->opnds[0], NULL, "used as a branch condition"));
    /* fall through */
  case IR_OP_CF_BR:
    for (int k = 0; k < op->nsuccs; k++)
      for (int a = 0; a < op->succs[k].nargs && a < op->succs[k].block->nargs; a++)
        copy_sh(d, fi, &op->succs[k].block->args[a], op->succs[k].args[a], s);
    break;
  case IR_OP_SCF_CONDITION: {
    TRY(need_defined(d, s, op, fi, op->opnds[0], NULL, "used as a loop condition"));
    const ir_op *w = op->parent->parent->parent; /* scf.while */
    const ir_block *after = w->regions[1].blocks[0];
    for (int k = 1; k < op->nopnds; k++) {
      if (k - 1 < after->nargs) copy_sh(d, fi, &after->args[k - 1], op->opnds[k], s);
      if (k - 1 < w->nres) copy_sh(d, fi, &w->res[k - 1], op->opnds[k], s);
    }
    break;
  }
  case IR_OP_SCF_FOR: {
    for (int k = 0; k < 3; k++) TRY(need_defined(d, s, op, fi, op->opnds[k], NULL, "used as a loop bound"));
    const ir_block *b = op->regions[0].blocks[0];
    for (int k = 3; k < op->nopnds && k - 2 < b->nargs; k++) copy_sh(d, fi, &b->args[k - 2], op->opnds[k], s);
    break;
  }
  case IR_OP_SCF_WHILE: {
    const ir_block *b = op->regions[0].blocks[0];
    for (int k = 0; k < op->nopnds && k < b->nargs; k++) copy_sh(d, fi, &b->args[k], op->opnds[k], s);
    break;
  }
  case IR_OP_SCF_YIELD: {
    const ir_op *p = op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
    if (!p) break;
    if (p->code == IR_OP_SCF_FOR) {
      const ir_block *b = p->regions[0].blocks[0];
      for (int k = 0; k < op->nopnds && k + 1 < b->nargs; k++) copy_sh(d, fi, &b->args[k + 1], op->opnds[k], s);
    } else if (p->code == IR_OP_SCF_IF) {
      for (int k = 0; k < op->nopnds && k < p->nres; k++) copy_sh(d, fi, &p->res[k], op->opnds[k], s);
    } else if (p->code == IR_OP_SCF_WHILE) {
      const ir_block *b = p->regions[0].blocks[0];
      for (int k = 0; k < op->nopnds && k < b->nargs; k++) copy_sh(d, fi, &b->args[k], op->opnds[k], s);
    }
    break;
  }
  case IR_OP_REDUCE:
  case IR_OP_SCAN:
  case IR_OP_DOT:
  case IR_OP_DOT_SCALED:
  case IR_OP_HISTOGRAM:
    for (int k = 0; k < op->nopnds; k++) TRY(need_defined(d, s, op, fi, op->opnds[k], NULL, "reduced"));
    break;
  case IR_OP_CALL:
    for (int k = 0; k < op->nopnds; k++) TRY(need_defined(d, s, op, fi, op->opnds[k], NULL, "passed to a call"));
    break;
  case IR_OP_LOAD:
  case IR_OP_STORE:
  case IR_OP_ATOMIC_RMW:
  case IR_OP_ATOMIC_CAS: {
    const bool is_store = op->code == IR_OP_STORE;
    const ir_value *mask = NULL;
    if (op->code == IR_OP_LOAD && op->nopnds > 1) mask = op->opnds[1];
    if (op->code != IR_OP_LOAD && op->code != IR_OP_ATOMIC_CAS && op->nopnds > 2) mask = op->opnds[2];
    if (mask) TRY(need_defined(d, s, op, fi, mask, NULL, "used as a mask"));
    TRY(need_defined(d, s, op, fi, op->opnds[0], mask, "used as an address"));
    if (is_store) TRY(need_defined(d, s, op, fi, op->opnds[1], mask, "stored to memory"));
    else if (op->code != IR_OP_LOAD)
      for (int k = 1; k < op->nopnds; k++)
        if (op->opnds[k] != mask) TRY(need_defined(d, s, op, fi, op->opnds[k], mask, "used by an atomic"));
    break;
  }
  default: break;
  }
fail:
  return st;
}

/* Block-pointer and descriptor stores: their element addresses are not tracked, so the whole
 * allocation they point into counts as written from then on (no false reports). */
static void forget_alloc(interp_debug *d, const interp_dbg_site *s, const ir_value *p)
{
  int64_t n, off;
  int k;
  const interp_elem *x = s->get(s->cx, p, &n);
  uint8_t *ms = mem_sh(d, x[0].i, &off, &k);
  if (ms) memset(ms, 0, d->mem->allocs[k].nbytes + 1);
}

/* Result shadows after op ran. */
static ttref_status shadow_after(interp_debug *d, const interp_dbg_site *s, const ir_op *op)
{
  const int fi = func_index(d, op);
  switch (op->code) {
  case IR_OP_DESC_STORE:
  case IR_OP_DESC_SCATTER:
  case IR_OP_DESC_REDUCE:
  case IR_OP_XDESC_STORE:
  case IR_OP_XDESC_SCATTER: forget_alloc(d, s, op->opnds[0]); return TTREF_OK;
  default: break;
  }
  if (fi < 0 || op->nres == 0) {
    if (op->code == IR_OP_STORE || op->code == IR_OP_ATOMIC_RMW || op->code == IR_OP_ATOMIC_CAS) goto mark_written;
    return TTREF_OK;
  }
  switch (op->code) {
  case IR_OP_LOAD: {
    int64_t n, pn, mn = 0, on = 0;
    s->get(s->cx, &op->res[0], &n);
    const interp_elem *p = s->get(s->cx, op->opnds[0], &pn);
    const interp_elem *m = op->nopnds > 1 ? s->get(s->cx, op->opnds[1], &mn) : NULL;
    if (op->nopnds > 2) s->get(s->cx, op->opnds[2], &on);
    uint32_t *r = sh_of(d, fi, &op->res[0], n), *oo = op->nopnds > 2 ? sh_of(d, fi, op->opnds[2], on) : NULL;
    if (!r) return TTREF_OK;
    const ir_type *pt = ir_type_elem(op->opnds[0]->type);
    const bool block = pt->elem && pt->elem->kind == IR_T_TENSOR;
    const int esz = ir_scalar_bytes(scalar_of(&op->res[0]));
    for (int64_t i = 0; i < n; i++) {
      r[i] = 0;
      if (m && !m[mn > 1 ? i : 0].i) {
        r[i] = oo ? oo[on > 1 ? i : 0] : origin_of(d, op, 0, NULL);
        continue;
      }
      if (block) continue; /* block pointers: memory shadow not tracked */
      int64_t off;
      int k;
      uint8_t *ms = mem_sh(d, p[pn > 1 ? i : 0].i, &off, &k);
      if (!ms || off < 0 || (size_t)off + (size_t)esz > d->mem->allocs[k].nbytes) continue;
      for (int b = 0; b < esz; b++)
        if (ms[off + b]) {
          r[i] = origin_of(d, op, 1, d->mem->allocs[k].name);
          break;
        }
    }
    return TTREF_OK;
  }
  case IR_OP_SELECT: {
    int64_t n, cn, an, bn;
    s->get(s->cx, &op->res[0], &n);
    const interp_elem *c = s->get(s->cx, op->opnds[0], &cn);
    s->get(s->cx, op->opnds[1], &an);
    s->get(s->cx, op->opnds[2], &bn);
    uint32_t *r = sh_of(d, fi, &op->res[0], n), *co = sh_of(d, fi, op->opnds[0], cn),
             *ao = sh_of(d, fi, op->opnds[1], an), *bo = sh_of(d, fi, op->opnds[2], bn);
    if (!r || !co || !ao || !bo) return TTREF_OK;
    for (int64_t i = 0; i < n; i++) {
      int64_t ci = cn > 1 ? i : 0;
      r[i] = co[ci] ? co[ci] : c[ci].i ? ao[an > 1 ? i : 0] : bo[bn > 1 ? i : 0];
    }
    return TTREF_OK;
  }
  case IR_OP_ANDI:
  case IR_OP_ORI: { /* like valgrind: x & 0 and x | ~0 are defined whatever x is */
    int64_t n, an, bn;
    s->get(s->cx, &op->res[0], &n);
    const interp_elem *a = s->get(s->cx, op->opnds[0], &an), *b = s->get(s->cx, op->opnds[1], &bn);
    uint32_t *r = sh_of(d, fi, &op->res[0], n), *ao = sh_of(d, fi, op->opnds[0], an),
             *bo = sh_of(d, fi, op->opnds[1], bn);
    if (!r || !ao || !bo) return TTREF_OK;
    const int bits = ir_scalar_bits(scalar_of(&op->res[0]));
    const int64_t ones = bits >= 64 ? -1 : bits == 1 ? 1 : (int64_t)((UINT64_C(1) << bits) - 1);
    const bool is_and = op->code == IR_OP_ANDI;
    for (int64_t i = 0; i < n; i++) {
      int64_t ai = an > 1 ? i : 0, bi = bn > 1 ? i : 0;
      uint32_t oa = ao[ai], ob = bo[bi];
      /* a defined operand with the absorbing value decides the lane */
      bool absorb_a = !oa && (is_and ? a[ai].i == 0 : (a[ai].i & ones) == ones);
      bool absorb_b = !ob && (is_and ? b[bi].i == 0 : (b[bi].i & ones) == ones);
      r[i] = absorb_a || absorb_b ? 0 : oa ? oa : ob;
    }
    return TTREF_OK;
  }
  case IR_OP_MAP_ELEMENTWISE: { /* lane by lane, in groups of `pack` lanes */
    int64_t pack = ir_op_attr_int(op, "pack", 1);
    if (pack < 1) pack = 1;
    for (int r = 0; r < op->nres; r++) {
      int64_t n;
      s->get(s->cx, &op->res[r], &n);
      uint32_t *o = sh_of(d, fi, &op->res[r], n);
      if (!o) return TTREF_OK;
      memset(o, 0, sizeof(uint32_t) * (size_t)n);
      for (int k = 0; k < op->nopnds; k++) {
        int64_t on;
        s->get(s->cx, op->opnds[k], &on);
        const uint32_t *so = sh_of(d, fi, op->opnds[k], on);
        if (!so) continue;
        for (int64_t g = 0; g < n; g += pack) {
          uint32_t any = 0;
          for (int64_t i = g; i < g + pack && i < n && !any; i++) any = so[on > 1 ? (i < on ? i : 0) : 0];
          for (int64_t i = g; i < g + pack && i < n; i++)
            if (!o[i]) o[i] = any;
        }
      }
    }
    return TTREF_OK;
  }
  case IR_OP_SPLAT:
  case IR_OP_BROADCAST:
  case IR_OP_EXPAND_DIMS:
  case IR_OP_RESHAPE:
  case IR_OP_UNSPLAT: {
    int64_t n, sn;
    s->get(s->cx, &op->res[0], &n);
    s->get(s->cx, op->opnds[0], &sn);
    uint32_t *r = sh_of(d, fi, &op->res[0], n), *so = sh_of(d, fi, op->opnds[0], sn);
    if (!r || !so) return TTREF_OK;
    const ir_type *rt = op->res[0].type, *st = op->opnds[0]->type;
    if (op->code == IR_OP_BROADCAST && rt->kind == IR_T_TENSOR && st->kind == IR_T_TENSOR && rt->rank == st->rank) {
      for (int64_t i = 0; i < n; i++) {
        int64_t rem = i, src = 0, mul = 1;
        for (int k = rt->rank - 1; k >= 0; k--) {
          int64_t ix = rem % rt->shape[k];
          rem /= rt->shape[k];
          if (st->shape[k] != 1) src += ix * mul;
          mul *= st->shape[k];
        }
        r[i] = so[src < sn ? src : 0];
      }
    } else {
      for (int64_t i = 0; i < n; i++) r[i] = so[sn > 1 && i < sn ? i : 0];
    }
    return TTREF_OK;
  }
  case IR_OP_SCF_FOR: {
    const ir_block *b = op->regions[0].blocks[0];
    for (int k = 0; k < op->nres && k + 1 < b->nargs; k++) copy_sh(d, fi, &op->res[k], &b->args[k + 1], s);
    return TTREF_OK;
  }
  case IR_OP_TRANS: { /* the same permutation as the values (numpy.transpose) */
    const ir_type *it = op->opnds[0]->type, *ot = op->res[0].type;
    const ir_attr *ord = ir_op_attr(op, "order");
    int64_t n, sn;
    s->get(s->cx, &op->res[0], &n);
    s->get(s->cx, op->opnds[0], &sn);
    uint32_t *r = sh_of(d, fi, &op->res[0], n), *so = sh_of(d, fi, op->opnds[0], sn);
    if (!r || !so || !ord || ord->nints != ot->rank || it->kind != IR_T_TENSOR || n != ot->numel || sn != it->numel)
      break;
    int64_t ist[IR_MAX_RANK];
    int64_t acc = 1;
    for (int k = it->rank - 1; k >= 0; k--) {
      ist[k] = acc;
      acc *= it->shape[k];
    }
    for (int64_t i = 0; i < n; i++) {
      int64_t rem = i, src = 0;
      for (int k = ot->rank - 1; k >= 0; k--) {
        src += (rem % ot->shape[k]) * ist[ord->ints[k]];
        rem /= ot->shape[k];
      }
      r[i] = so[src];
    }
    return TTREF_OK;
  }
  case IR_OP_JOIN: { /* [..., 0] = a, [..., 1] = b */
    int64_t n, an, bn;
    s->get(s->cx, &op->res[0], &n);
    s->get(s->cx, op->opnds[0], &an);
    s->get(s->cx, op->opnds[1], &bn);
    uint32_t *r = sh_of(d, fi, &op->res[0], n), *ao = sh_of(d, fi, op->opnds[0], an),
             *bo = sh_of(d, fi, op->opnds[1], bn);
    if (!r || !ao || !bo || n != 2 * an || an != bn) break;
    for (int64_t i = 0; i < an; i++) {
      r[2 * i] = ao[i];
      r[2 * i + 1] = bo[i];
    }
    return TTREF_OK;
  }
  case IR_OP_SPLIT: {
    int64_t sn, n0, n1;
    s->get(s->cx, op->opnds[0], &sn);
    s->get(s->cx, &op->res[0], &n0);
    s->get(s->cx, &op->res[1], &n1);
    uint32_t *so = sh_of(d, fi, op->opnds[0], sn), *r0 = sh_of(d, fi, &op->res[0], n0),
             *r1 = sh_of(d, fi, &op->res[1], n1);
    if (!so || !r0 || !r1 || n0 != n1 || sn != 2 * n0) break;
    for (int64_t i = 0; i < n0; i++) {
      r0[i] = so[2 * i];
      r1[i] = so[2 * i + 1];
    }
    return TTREF_OK;
  }
  case IR_OP_CAT: { /* row-major: a's elements, then b's */
    int64_t n, an, bn;
    s->get(s->cx, &op->res[0], &n);
    s->get(s->cx, op->opnds[0], &an);
    s->get(s->cx, op->opnds[1], &bn);
    uint32_t *r = sh_of(d, fi, &op->res[0], n), *ao = sh_of(d, fi, op->opnds[0], an),
             *bo = sh_of(d, fi, op->opnds[1], bn);
    if (!r || !ao || !bo || n != an + bn) break;
    memcpy(r, ao, sizeof(uint32_t) * (size_t)an);
    memcpy(r + an, bo, sizeof(uint32_t) * (size_t)bn);
    return TTREF_OK;
  }
  case IR_OP_SCF_IF:
  case IR_OP_SCF_WHILE: return TTREF_OK; /* set by their terminators */
  case IR_OP_CALL:
  case IR_OP_REDUCE:
  case IR_OP_SCAN:
  case IR_OP_DOT:
  case IR_OP_DOT_SCALED:
  case IR_OP_HISTOGRAM:
  case IR_OP_ATOMIC_RMW:
  case IR_OP_ATOMIC_CAS:
    for (int r = 0; r < op->nres; r++) { /* checked defined inputs: defined results */
      int64_t n;
      s->get(s->cx, &op->res[r], &n);
      uint32_t *o = sh_of(d, fi, &op->res[r], n);
      if (o) memset(o, 0, sizeof(uint32_t) * (size_t)n);
    }
    if (op->code == IR_OP_ATOMIC_RMW || op->code == IR_OP_ATOMIC_CAS) goto mark_written;
    return TTREF_OK;
  default: break;
  }
  /* elementwise ops lane by lane; anything else: undefined everywhere if any input lane is */
  const bool ew = (ir_op_flags(op->code) & IR_F_ELEMENTWISE) != 0;
  for (int r = 0; r < op->nres; r++) {
    int64_t n;
    s->get(s->cx, &op->res[r], &n);
    uint32_t *o = sh_of(d, fi, &op->res[r], n);
    if (!o) return TTREF_OK;
    memset(o, 0, sizeof(uint32_t) * (size_t)n);
    for (int k = 0; k < op->nopnds; k++) {
      int64_t on;
      s->get(s->cx, op->opnds[k], &on);
      const uint32_t *so = sh_of(d, fi, op->opnds[k], on);
      if (!so) continue;
      if (ew && (on == n || on == 1)) {
        for (int64_t i = 0; i < n; i++)
          if (!o[i]) o[i] = so[on > 1 ? i : 0];
      } else {
        uint32_t any = 0;
        for (int64_t i = 0; i < on && !any; i++) any = so[i];
        if (any)
          for (int64_t i = 0; i < n; i++)
            if (!o[i]) o[i] = any;
      }
    }
  }
  return TTREF_OK;
mark_written : {
  /* active lanes of a store or atomic define the bytes they write */
  int64_t pn, mn = 0, n;
  const interp_elem *p = s->get(s->cx, op->opnds[0], &pn);
  const ir_type *pt = ir_type_elem(op->opnds[0]->type);
  if (pt->elem && pt->elem->kind == IR_T_TENSOR) {
    forget_alloc(d, s, op->opnds[0]);
    return TTREF_OK;
  }
  const ir_value *mask = op->code == IR_OP_ATOMIC_CAS ? NULL : op->nopnds > 2 ? op->opnds[2] : NULL;
  const interp_elem *m = mask ? s->get(s->cx, mask, &mn) : NULL;
  s->get(s->cx, op->opnds[1], &n);
  if (pn > n) n = pn;
  const int esz = ir_scalar_bytes(pt->elem ? (pt->elem->kind == IR_T_PTR ? IR_S_PTR : pt->elem->scalar) : IR_S_I8);
  for (int64_t i = 0; i < n; i++) {
    if (m && !m[mn > 1 ? i : 0].i) continue;
    int64_t off;
    int k;
    uint8_t *ms = mem_sh(d, p[pn > 1 ? i : 0].i, &off, &k);
    if (!ms || off < 0 || (size_t)off + (size_t)esz > d->mem->allocs[k].nbytes) continue;
    memset(ms + off, 0, (size_t)esz);
  }
  return TTREF_OK;
}
}

ttref_status interp_debug_after(interp_debug *d, const interp_dbg_site *s, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (s->lin != d->last_lin) { /* a new program: dump iterations count from 0 again */
    d->last_lin = s->lin;
    for (int k = 0; k < d->ndumps; k++) d->dumps[k].count = 0;
  }
  if (d->uninit) TRY(shadow_after(d, s, op));
  if (d->ndumps) TRY(do_dumps(d, s, op));
  if (d->trace) do_trace(d, s, op);
  if (d->trap) TRY(do_trap(d, s, op));
fail:
  return st;
}
