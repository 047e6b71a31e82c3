/*
 * ttref_api.c: the kernel and launch half of the public API (ttref.h):
 * opaque handles over the parser, verifier and executor. Buffers are the
 * caller's memory, registered as borrowed allocations for each run.
 */
#include "config.h"
#include "ttref.h"
#include "interp.h"
#include "interp_api.h"
#include "interp_debug.h"
#include "interp_launch.h"
#include "interp_fx.h"
#include "ir_parse.h"
#include "ir_vendor.h"
#include "ir_verify.h"
#include "npy_io.h"

#include <stdio.h>
#include <string.h>

typedef struct slot {
  bool bound;
  void *data; /* pointer arguments: the caller's buffer (storage base) */
  size_t nbytes;
  size_t offset;     /* the pointer passed is data + offset (ttref_launch_buffer_at) */
  interp_elem value; /* scalar arguments */
} slot;

struct ttref_launch {
  const ttref_kernel *k;
  slot *slots; /* one per argument */
  int64_t opt[TTREF_OPTION_COUNT];
  interp_mem *pmem; /* precise run of the last launch (NULL: none) */
  int *palloc;      /* per argument: allocation index in pmem, -1 if none */
  ttref_stats stats;
  int64_t stat[TTREF_STAT_COUNT];
  /* ttref_launch_bind_args: buffers the launch owns, and the specs to bind the precise run */
  interp_bound fb, pfb; /* first run, precise run */
  bool fbound, pbound;
  char **specs; /* specs_cap entries, the first nspecs set */
  int nspecs, specs_cap;
  interp_debug *vdbg; /* checks debugging calls; each run gets a fresh state replaying them */
  struct dbg_call {
    int kind;
    char *arg;
  } * calls; /* kind: DBG_DUMP, DBG_DUMP_DIR, DBG_TRACE (arg NULL: all) */
  int ncalls;
  int inject_op; /* ttref_launch_inject_fault: opcode + 1, 0 = none */
  const char *inject_vendor;
  bool *outputs; /* ttref_launch_set_outputs: per argument, saved or not; NULL = all */
};

static const char *const option_names[] = {
#define X(name, str, lo, hi, desc) str,
#include "ttref_option_list.h"
#undef X
};
static const int64_t option_lo[] = {
#define X(name, str, lo, hi, desc) lo,
#include "ttref_option_list.h"
#undef X
};
static const int64_t option_hi[] = {
#define X(name, str, lo, hi, desc) hi,
#include "ttref_option_list.h"
#undef X
};

static const char *const stat_names[] = {
#define X(name, str, label) str,
#include "ttref_stat_list.h"
#undef X
};
static const char *const stat_labels[] = {
#define X(name, str, label) label,
#include "ttref_stat_list.h"
#undef X
};

static const ttref_loc noloc = {0};

int ttref_api_version(void) { return TTREF_API_VERSION; }

static ttref_status null_arg(ttref_error *err, const char *fn, const char *what)
{
  return ir_error_set(err, TTREF_E_USAGE, noloc, "%s: %s is NULL", fn, what);
}

const char *ttref_option_name(ttref_option o)
{
  return (int)o >= 0 && (int)o < TTREF_OPTION_COUNT ? option_names[o] : "<invalid>";
}

int ttref_option_lookup(const char *name)
{
  for (int i = 0; name && i < TTREF_OPTION_COUNT; i++)
    if (strcmp(name, option_names[i]) == 0) return i;
  return -1;
}

/* ---- kernels ---- */

/* Verify @p m and pick its function; takes ownership of @p m either way. */
static ttref_kernel *make_kernel(ir_module *m, const char *function, const ttref_registry *reg, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_kernel *k = NULL;
  TRY(ir_verify_module(m, err));
  const ir_func *fn =
      function ? ir_module_find_func(m, function[0] == '@' ? function + 1 : function) : ir_module_entry(m);
  if (!fn) {
    ttref_loc l = {m->filename, 0, 0};
    FAIL(ir_error_set(err, TTREF_E_INPUT, l, "%s: no function %s%s", m->filename, function ? "named " : "to launch",
                      function ? function : ""));
  }
  k = ir_calloc(1, sizeof *k);
  if (!k) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  k->mod = m;
  k->fn = fn;
  k->reg = reg;
  return k;
fail:
  ir_module_free(m);
  return NULL;
}

int ttref_kernel_is_fx(const char *path) { return interp_fx_is(path); }

bool interp_api_fx_opts(const char *fname, const ttref_fx_options *fx, interp_fx_opts *o, ttref_error *err)
{
  memset(o, 0, sizeof *o);
  if (!fx) return true;
  if (fx->nsyms < 0 || fx->ndtypes < 0 || (fx->nsyms && !fx->syms) || (fx->ndtypes && !fx->dtypes))
    return ir_error_set(err, TTREF_E_USAGE, noloc, "%s: bad syms/dtypes arrays", fname), false;
  for (int i = 0; i < fx->nsyms; i++)
    if (!fx->syms[i]) return null_arg(err, fname, "a sym"), false;
  for (int i = 0; i < fx->ndtypes; i++)
    if (!fx->dtypes[i]) return null_arg(err, fname, "a dtype"), false;
  o->syms = (const char **)(uintptr_t)fx->syms;
  o->nsyms = fx->nsyms;
  o->dtypes = (const char **)(uintptr_t)fx->dtypes;
  o->ndtypes = fx->ndtypes;
  o->oob = fx->oob_zero ? IR_FX_OOB_ZERO : IR_FX_OOB_ERROR;
  o->any = true;
  return true;
}

ttref_status ttref_check(const char *path, const ttref_registry *reg, const ttref_fx_options *fx, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_module *m = NULL;
  interp_fx_opts o;
  if (!path) FAIL(null_arg(err, "ttref_check", "path"));
  if (!interp_api_fx_opts("ttref_check", fx, &o, err)) FAIL(TTREF_E_USAGE);
  if (interp_fx_is(path))
    FAIL(fx ? interp_fx_load(path, &o, NULL, 0, &m, NULL, NULL, err) : interp_fx_check_syntax(path, err));
  TRY(ir_parse_file_ex(path, reg, &m, err));
  TRY(ir_verify_module(m, err));
fail:
  ir_module_free(m);
  return st;
}

ttref_kernel *ttref_kernel_load_fx_ex(const char *path, const ttref_fx_options *opts, const char *const *args,
                                      int nargs, const char *function, ttref_error *err)
{
  ir_module *m = NULL;
  interp_fx_opts o;
  if (!path) return null_arg(err, "ttref_kernel_load_fx", "path"), NULL;
  if (!interp_api_fx_opts("ttref_kernel_load_fx", opts, &o, err)) return NULL;
  if (nargs < 0 || (nargs && !args))
    return ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_kernel_load_fx: bad args array"), NULL;
  for (int i = 0; i < nargs; i++)
    if (!args[i]) return null_arg(err, "ttref_kernel_load_fx", "an arg"), NULL;
  if (!interp_fx_is(path))
    return ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_kernel_load_fx: %.300s is not a traced kernel (.fx)", path),
           NULL;
  if (interp_fx_load(path, &o, args, nargs, &m, NULL, NULL, err) != TTREF_OK) return NULL;
  return make_kernel(m, function, NULL, err);
}

ttref_kernel *ttref_kernel_load_fx(const char *path, const ttref_fx_options *opts, ttref_error *err)
{
  return ttref_kernel_load_fx_ex(path, opts, NULL, 0, NULL, err);
}

ttref_kernel *ttref_kernel_load(const char *path, const char *function, ttref_error *err)
{
  ir_module *m = NULL;
  if (!path) return null_arg(err, "ttref_kernel_load", "path"), NULL;
  if (interp_fx_is(path)) return ttref_kernel_load_fx(path, NULL, err); /* a trace has one kernel */
  if (ir_parse_file_ex(path, NULL, &m, err) != TTREF_OK) return NULL;
  return make_kernel(m, function, NULL, err);
}

ttref_kernel *ttref_kernel_parse(const char *text, size_t len, const char *name, const char *function, ttref_error *err)
{
  return ttref_kernel_parse_ex(text, len, name, function, NULL, err);
}

ttref_kernel *ttref_kernel_load_ex(const char *path, const char *function, const ttref_registry *reg, ttref_error *err)
{
  ir_module *m = NULL;
  if (!path) return null_arg(err, "ttref_kernel_load_ex", "path"), NULL;
  if (interp_fx_is(path)) return ttref_kernel_load_fx(path, NULL, err); /* traces have no vendor ops */
  if (ir_parse_file_ex(path, reg, &m, err) != TTREF_OK) return NULL;
  return make_kernel(m, function, reg, err);
}

ttref_kernel *ttref_kernel_parse_ex(const char *text, size_t len, const char *name, const char *function,
                                    const ttref_registry *reg, ttref_error *err)
{
  ir_module *m = NULL;
  if (!text) return null_arg(err, "ttref_kernel_parse", "text"), NULL;
  if (ir_parse_string_ex(name ? name : "<string>", text, len, reg, &m, err) != TTREF_OK) return NULL;
  return make_kernel(m, function, reg, err);
}

void ttref_kernel_free(ttref_kernel *k)
{
  if (!k) return;
  ir_module_free(k->mod);
  ir_free(k, sizeof *k);
}

const char *ttref_kernel_name(const ttref_kernel *k) { return k ? k->fn->name : NULL; }

int ttref_kernel_nargs(const ttref_kernel *k) { return k ? k->fn->nargs : 0; }

static const ir_type *arg_type(const ttref_kernel *k, int i)
{
  return k && i >= 0 && i < k->fn->nargs ? k->fn->args[i].type : NULL;
}

const char *ttref_kernel_arg_name(const ttref_kernel *k, int i)
{
  return arg_type(k, i) ? (k->fn->args[i].name ? k->fn->args[i].name : "") : NULL;
}

ttref_arg_kind ttref_kernel_arg_kind(const ttref_kernel *k, int i)
{
  const ir_type *t = arg_type(k, i);
  if (!t) return TTREF_ARG_INVALID;
  return t->kind == IR_T_PTR ? TTREF_ARG_POINTER : t->kind == IR_T_SCALAR ? TTREF_ARG_SCALAR : TTREF_ARG_OTHER;
}

const char *ttref_kernel_arg_type(const ttref_kernel *k, int i)
{
  switch (ttref_kernel_arg_kind(k, i)) {
  case TTREF_ARG_POINTER: return ir_scalar_name(interp_pointee_scalar(arg_type(k, i)));
  case TTREF_ARG_SCALAR: return ir_scalar_name(arg_type(k, i)->scalar);
  default: return NULL;
  }
}

int ttref_kernel_arg_elem_bytes(const ttref_kernel *k, int i)
{
  switch (ttref_kernel_arg_kind(k, i)) {
  case TTREF_ARG_POINTER: return ir_scalar_bytes(interp_pointee_scalar(arg_type(k, i)));
  case TTREF_ARG_SCALAR: return ir_scalar_bytes(arg_type(k, i)->scalar);
  default: return 0;
  }
}

int ttref_kernel_arg_index(const ttref_kernel *k, const char *name)
{
  return k && name ? interp_find_arg(k->fn, name, strlen(name)) : -1;
}

void ttref_kernel_signature(const ttref_kernel *k, char *buf, size_t n)
{
  if (!buf || n == 0) return;
  if (!k) {
    buf[0] = 0;
    return;
  }
  interp_signature(k->fn, buf, n);
}

/* ---- launches ---- */

ttref_launch *ttref_launch_new(const ttref_kernel *k, ttref_error *err)
{
  if (!k) return null_arg(err, "ttref_launch_new", "kernel"), NULL;
  ttref_launch *l = ir_calloc(1, sizeof *l);
  const size_t n = (size_t)k->fn->nargs + 1;
  if (l) l->k = k; /* before anything ttref_launch_free must size */
  if (l) l->slots = ir_calloc(n, sizeof *l->slots);
  if (l) l->palloc = ir_calloc(n, sizeof *l->palloc);
  if (!l || !l->slots || !l->palloc) {
    ttref_launch_free(l);
    ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory");
    return NULL;
  }
  return l;
}

static void free_specs(ttref_launch *l)
{
  for (int i = 0; i < l->nspecs; i++) ir_free(l->specs[i], strlen(l->specs[i]) + 1);
  ir_free(l->specs, sizeof *l->specs * (size_t)l->specs_cap);
  l->specs = NULL;
  l->nspecs = l->specs_cap = 0;
}

void ttref_launch_free(ttref_launch *l)
{
  if (!l) return;
  const size_t n = l->k ? (size_t)l->k->fn->nargs + 1 : 0;
  interp_debug_free(l->vdbg);
  for (int i = 0; i < l->ncalls; i++)
    if (l->calls[i].arg) ir_free(l->calls[i].arg, strlen(l->calls[i].arg) + 1);
  ir_free(l->calls, sizeof *l->calls * (size_t)l->ncalls);
  interp_mem_free(l->pmem);
  if (l->fbound) interp_bound_free(&l->fb);
  if (l->pbound) interp_bound_free(&l->pfb);
  free_specs(l);
  ir_free(l->slots, n * sizeof *l->slots);
  ir_free(l->palloc, n * sizeof *l->palloc);
  ir_free(l->outputs, n * sizeof *l->outputs);
  ir_free(l, sizeof *l);
}

/* Look up @p arg of kind @p want for @p fname; a located TTREF_E_INPUT with the signature otherwise. */
static ttref_status find(const ttref_launch *l, const char *fname, const char *arg, ttref_arg_kind want, int *out,
                         ttref_error *err)
{
  ttref_status st = TTREF_OK;
  const ir_func *fn = l->k->fn;
  char sig[400];
  int i = interp_find_arg(fn, arg, strlen(arg));
  if (i < 0) FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "%s: unknown kernel argument '%.100s'", fname, arg));
  ttref_arg_kind kind = ttref_kernel_arg_kind(l->k, i);
  if (kind != want) {
    char ty[128];
    ir_type_str(fn->args[i].type, ty, sizeof ty);
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "%s: argument '%.100s' has type %s: %s", fname, arg, ty,
                      kind == TTREF_ARG_POINTER  ? "bind a buffer with ttref_launch_buffer"
                      : kind == TTREF_ARG_SCALAR ? "bind a value with ttref_launch_scalar"
                                                 : "the API cannot bind it"));
  }
  *out = i;
fail:
  if (st != TTREF_OK) {
    interp_signature(fn, sig, sizeof sig);
    ir_error_note(err, "note: kernel signature: %s", sig);
  }
  return st;
}

static ttref_status file_bound(ttref_error *err, const char *fname)
{
  return ir_error_set(err, TTREF_E_USAGE, noloc, "%s: the launch's arguments were bound with ttref_launch_bind_args",
                      fname);
}

ttref_status ttref_launch_buffer_at(ttref_launch *l, const char *arg, void *data, size_t nbytes, size_t offset,
                                    ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int i;
  if (!l) FAIL(null_arg(err, "ttref_launch_buffer", "launch"));
  if (!arg) FAIL(null_arg(err, "ttref_launch_buffer", "argument name"));
  if (!data && nbytes) FAIL(null_arg(err, "ttref_launch_buffer", "data"));
  if (l->fbound) FAIL(file_bound(err, "ttref_launch_buffer"));
  TRY(find(l, "ttref_launch_buffer", arg, TTREF_ARG_POINTER, &i, err));
  if (offset > nbytes)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc,
                      "ttref_launch_buffer_at: offset %zu for '%.100s' is past the end of its %zu-byte storage", offset,
                      arg, nbytes));
  if (nbytes >= ((size_t)1 << INTERP_ADDR_SHIFT))
    FAIL(ir_error_set(err, TTREF_E_LIMIT, noloc,
                      "ttref_launch_buffer: buffer '%.100s' is too large (%zu bytes; limit 2^40)", arg, nbytes));
  l->slots[i].bound = true;
  l->slots[i].data = data;
  l->slots[i].nbytes = nbytes;
  l->slots[i].offset = offset;
fail:
  return st;
}

ttref_status ttref_launch_buffer(ttref_launch *l, const char *arg, void *data, size_t nbytes, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int i;
  if (l && arg && (data || !nbytes) && find(l, "ttref_launch_buffer", arg, TTREF_ARG_POINTER, &i, err) == TTREF_OK) {
    const int esz = ttref_kernel_arg_elem_bytes(l->k, i);
    if (nbytes % (size_t)esz)
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc,
                        "ttref_launch_buffer: %zu bytes for '%.100s' is not a whole number of %s elements (%d bytes)",
                        nbytes, arg, ttref_kernel_arg_type(l->k, i), esz));
  }
  st = ttref_launch_buffer_at(l, arg, data, nbytes, 0, err);
fail:
  return st;
}

ttref_status ttref_launch_scalar(ttref_launch *l, const char *arg, const char *literal, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int i;
  if (!l) FAIL(null_arg(err, "ttref_launch_scalar", "launch"));
  if (!arg) FAIL(null_arg(err, "ttref_launch_scalar", "argument name"));
  if (!literal) FAIL(null_arg(err, "ttref_launch_scalar", "literal"));
  if (l->fbound) FAIL(file_bound(err, "ttref_launch_scalar"));
  TRY(find(l, "ttref_launch_scalar", arg, TTREF_ARG_SCALAR, &i, err));
  interp_elem v;
  if (interp_parse_scalar(l->k->fn->args[i].type, literal, &v) != TTREF_OK)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_launch_scalar: bad literal for %s '%.100s': '%.100s'",
                      ttref_kernel_arg_type(l->k, i), arg, literal));
  l->slots[i].bound = true;
  l->slots[i].value = v;
fail:
  return st;
}

ttref_status ttref_launch_set(ttref_launch *l, ttref_option o, int64_t value, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  if (!l) FAIL(null_arg(err, "ttref_launch_set", "launch"));
  if ((int)o < 0 || (int)o >= TTREF_OPTION_COUNT)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_launch_set: unknown option %d", (int)o));
  if (value < option_lo[o] || value > option_hi[o])
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_launch_set: option %s must be in [%lld, %lld], not %lld",
                      option_names[o], (long long)option_lo[o], (long long)option_hi[o], (long long)value));
  l->opt[o] = value;
fail:
  return st;
}

/* Register every pointer argument of @p l in @p mem (borrowed, or copies when @p copy) and
 * fill @p args and @p alloc_of. */
static ttref_status bind_memory(const ttref_launch *l, interp_mem *mem, bool copy, interp_elem *args, int *alloc_of,
                                ttref_error *err)
{
  ttref_status st = TTREF_OK;
  static uint8_t empty; /* address of a zero-byte buffer: never dereferenced */
  const ir_func *fn = l->k->fn;
  for (int i = 0; i < fn->nargs; i++) {
    const slot *s = &l->slots[i];
    alloc_of[i] = -1;
    if (ttref_kernel_arg_kind(l->k, i) != TTREF_ARG_POINTER) {
      args[i] = s->value;
      continue;
    }
    const ir_scalar es = interp_pointee_scalar(fn->args[i].type);
    const char *name = fn->args[i].name ? fn->args[i].name : "?";
    int same = -1; /* an earlier argument bound to the same storage shares its allocation */
    for (int j = 0; j < i && same < 0 && s->nbytes; j++)
      if (alloc_of[j] >= 0 && l->slots[j].data == s->data && l->slots[j].nbytes == s->nbytes) same = j;
    if (same >= 0) {
      alloc_of[i] = alloc_of[same];
      args[i].i = args[same].i - (int64_t)l->slots[same].offset + (int64_t)s->offset;
      continue;
    }
    if (copy) {
      uint8_t *d = ir_alloc(s->nbytes ? s->nbytes : 1);
      if (!d) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory for a copy of '%s'", name));
      if (s->nbytes) memcpy(d, s->data, s->nbytes);
      TRY(interp_mem_add_take(mem, name, d, s->nbytes, es, &args[i].i, err));
    } else {
      TRY(interp_mem_add_borrowed(mem, name, s->nbytes ? s->data : &empty, s->nbytes, es, &args[i].i, err));
    }
    alloc_of[i] = mem->n - 1;
    args[i].i += (int64_t)s->offset;
  }
fail:
  return st;
}

enum { DBG_DUMP, DBG_DUMP_DIR, DBG_TRACE };

/* Apply debugging call @p c to @p d. */
static ttref_status apply_call(interp_debug *d, const struct dbg_call *c, ttref_error *err)
{
  switch (c->kind) {
  case DBG_DUMP: return interp_debug_add_dump(d, c->arg, err);
  case DBG_DUMP_DIR: return interp_debug_set_dump_dir(d, c->arg, err);
  default: return interp_debug_set_trace(d, c->arg, err);
  }
}

/* A fresh debugging state for one run (*out NULL when no call or option asks for one). */
static ttref_status make_debug(const ttref_launch *l, interp_launch *L, interp_debug **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  const int64_t ub = l->opt[TTREF_OPT_UB];
  interp_debug *d = NULL;
  *out = NULL;
  if (!l->ncalls && !l->opt[TTREF_OPT_TRAP] && !l->opt[TTREF_OPT_CHECK_UNINIT] && !ub) return TTREF_OK;
  if (!(d = interp_debug_new(l->k->mod, l->k->fn))) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  for (int i = 0; i < l->ncalls; i++) TRY(apply_call(d, &l->calls[i], err));
  interp_debug_set_trap(d, (int)l->opt[TTREF_OPT_TRAP]); /* bits 1 nan, 2 inf: INTERP_TRAP_* */
  interp_debug_set_check_uninit(d, l->opt[TTREF_OPT_CHECK_UNINIT] != 0);
  interp_debug_set_ub_mode(d, ub == 1 ? INTERP_UB_WARN : ub == 2 ? INTERP_UB_STRICT : INTERP_UB_QUIET);
  interp_debug_attach(d, L);
  *out = d;
  return TTREF_OK;
fail:
  interp_debug_free(d);
  return st;
}

/* The options of the first run of a launch. */
static void set_options(const ttref_launch *l, interp_launch *L, uint32_t gx, uint32_t gy, uint32_t gz)
{
  L->grid[0] = gx;
  L->grid[1] = gy;
  L->grid[2] = gz;
  L->threads = (int)l->opt[TTREF_OPT_THREADS];
  L->ftz = l->opt[TTREF_OPT_FTZ] != 0 || l->k->mut_ftz;
  L->contract = l->opt[TTREF_OPT_CONTRACT] != 0 || l->k->mut_contract;
  L->check_races = l->opt[TTREF_OPT_CHECK_RACES] != 0;
  L->max_steps = l->opt[TTREF_OPT_MAX_STEPS];
  L->inject_op = l->inject_op;
  L->inject_vendor = l->inject_vendor;
}

static void keep_stats(ttref_launch *l, const interp_stats *s)
{
  l->stats = (ttref_stats){s->programs, s->ub_div_zero,     s->ub_div_overflow, s->ub_shift,
                           s->ub_fptoi, s->ub_masked_other, s->ub_poison,       s->races};
  const int64_t v[TTREF_STAT_COUNT] = {s->programs,  s->ub_div_zero, s->ub_div_overflow,
                                       s->ub_shift,  s->ub_fptoi,    s->ub_masked_other,
                                       s->ub_poison, s->races,       s->ub_overflow};
  memcpy(l->stat, v, sizeof v);
}

/* interp_run, then the debugging summary (UB cases not shown) after the program's output. */
static ttref_status run_first(ttref_launch *l, interp_launch *L, ttref_error *err)
{
  interp_debug *d = NULL;
  ttref_status st = make_debug(l, L, &d, err);
  if (st != TTREF_OK) return st;
  st = interp_run(L, err);
  if (d) {
    fflush(stdout);
    interp_debug_finish(d);
  }
  L->debug = NULL; /* the state goes with this run */
  L->debug_ops = false;
  interp_debug_free(d);
  keep_stats(l, &L->stats);
  return st;
}

/* ttref_launch_run of a launch bound with ttref_launch_bind_args: as `ttref run`, the precise
 * run binds the specs afresh (the inputs as they were) and runs with the grid and threads only. */
static ttref_status run_files(ttref_launch *l, uint32_t gx, uint32_t gy, uint32_t gz, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  FILE *devnull = NULL;
  if (l->pbound) interp_bound_free(&l->pfb);
  l->pbound = false;
  set_options(l, &l->fb.L, gx, gy, gz);
  st = run_first(l, &l->fb.L, err);
  interp_bound_ran(&l->fb);
  if (st != TTREF_OK) goto fail;
  if (l->opt[TTREF_OPT_PRECISE]) {
    TRY(interp_bind(l->k->mod, l->k->fn, (const char *const *)l->specs, l->nspecs, &l->pfb, err));
    l->pbound = true;
    TRY(interp_mem_make_precise(l->pfb.mem, err));
    interp_launch *P = &l->pfb.L;
    P->grid[0] = gx;
    P->grid[1] = gy;
    P->grid[2] = gz;
    P->threads = (int)l->opt[TTREF_OPT_THREADS];
    P->precise = true;
    P->print_out = devnull = fopen("/dev/null", "w"); /* prints were shown by the first run */
    st = interp_run(P, err);
    if (st != TTREF_OK) {
      interp_bound_free(&l->pfb);
      l->pbound = false;
    }
  }
fail:
  if (devnull) fclose(devnull);
  return st;
}

ttref_status ttref_launch_run(ttref_launch *l, uint32_t gx, uint32_t gy, uint32_t gz, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  interp_mem *mem = NULL, *pmem = NULL;
  interp_elem *args = NULL;
  int *alloc_of = NULL;
  FILE *devnull = NULL;
  size_t n = 0;
  if (!l) FAIL(null_arg(err, "ttref_launch_run", "launch"));
  const ir_func *fn = l->k->fn;
  n = (size_t)fn->nargs + 1;
  for (int i = 0; i < fn->nargs && !l->fbound; i++)
    if (!l->slots[i].bound) {
      char sig[400];
      ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_launch_run: kernel argument '%s' is not bound",
                   fn->args[i].name ? fn->args[i].name : "?");
      interp_signature(fn, sig, sizeof sig);
      ir_error_note(err, "note: kernel signature: %s", sig);
      FAIL(TTREF_E_INPUT);
    }
  if (gx > INT32_MAX || gy > INT32_MAX || gz > INT32_MAX)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc,
                      "ttref_launch_run: grid %u x %u x %u: each dimension must be below 2^31", gx, gy, gz));
  interp_mem_free(l->pmem); /* results of the previous run go */
  l->pmem = NULL;
  memset(&l->stats, 0, sizeof l->stats);
  memset(l->stat, 0, sizeof l->stat);
  if (l->fbound) FAIL(run_files(l, gx, gy, gz, err));
  args = ir_calloc(n, sizeof *args);
  alloc_of = ir_calloc(n, sizeof *alloc_of);
  mem = interp_mem_new();
  if (!args || !alloc_of || !mem) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  const bool precise = l->opt[TTREF_OPT_PRECISE] != 0;
  if (precise) { /* the precise run starts from the inputs as they are now */
    pmem = interp_mem_new();
    if (!pmem) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
    TRY(bind_memory(l, pmem, true, args, l->palloc, err));
  }
  TRY(bind_memory(l, mem, false, args, alloc_of, err));
  interp_launch L;
  memset(&L, 0, sizeof L);
  L.mod = l->k->mod;
  L.fn = fn;
  L.args = args;
  L.mem = mem;
  set_options(l, &L, gx, gy, gz);
  st = run_first(l, &L, err);
  if (st != TTREF_OK) goto fail;
  if (precise) { /* as `ttref run --precise`: exact semantics, prints silenced (the first run showed them) */
    TRY(interp_mem_make_precise(pmem, err));
    interp_launch P = L;
    memset(&P.stats, 0, sizeof P.stats);
    P.mem = pmem;
    P.precise = true;
    P.ftz = P.contract = P.check_races = false;
    P.inject_op = 0;
    P.inject_vendor = NULL;
    P.debug = NULL;
    P.debug_ops = false;
    P.print_out = devnull = fopen("/dev/null", "w");
    TRY(interp_run(&P, err));
    l->pmem = pmem;
    pmem = NULL;
  }
fail:
  interp_mem_free(mem);
  interp_mem_free(pmem);
  ir_free(args, n * sizeof *args);
  ir_free(alloc_of, n * sizeof *alloc_of);
  if (devnull) fclose(devnull);
  return st;
}

ttref_status ttref_launch_precise(const ttref_launch *l, const char *arg, const double **values, const double **bounds,
                                  size_t *n, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int i;
  if (!l) FAIL(null_arg(err, "ttref_launch_precise", "launch"));
  if (!arg || !values || !bounds || !n) FAIL(null_arg(err, "ttref_launch_precise", "an argument"));
  TRY(find(l, "ttref_launch_precise", arg, TTREF_ARG_POINTER, &i, err));
  if (l->fbound) {
    if (!l->pbound || l->pfb.alloc_of[i] < 0)
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc,
                        "ttref_launch_precise: no precise run yet (set option precise, then run)"));
    const interp_alloc *a = &l->pfb.mem->allocs[l->pfb.alloc_of[i]];
    if (!a->pv)
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_launch_precise: '%.100s' is a %s buffer, not a float one",
                        arg, ir_scalar_name(a->elem)));
    *values = a->pv;
    *bounds = a->pb;
    *n = (size_t)(a->pn - 1);
    goto fail;
  }
  if (!l->pmem || l->palloc[i] < 0)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc,
                      "ttref_launch_precise: no precise run yet (set option precise, then run)"));
  const interp_alloc *a = &l->pmem->allocs[l->palloc[i]];
  if (!a->pv)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_launch_precise: '%.100s' is a %s buffer, not a float one", arg,
                      ir_scalar_name(a->elem)));
  *values = a->pv;
  *bounds = a->pb;
  *n = (size_t)(a->pn - 1); /* pv/pb carry one spare element */
fail:
  return st;
}

ttref_status ttref_launch_stats(const ttref_launch *l, ttref_stats *out, ttref_error *err)
{
  if (!l) return null_arg(err, "ttref_launch_stats", "launch");
  if (!out) return null_arg(err, "ttref_launch_stats", "out");
  *out = l->stats;
  return TTREF_OK;
}

/* ---- launches as `ttref run` makes them ---- */

ttref_status ttref_launch_bind_args(ttref_launch *l, const char *const *specs, int n, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  if (!l) FAIL(null_arg(err, "ttref_launch_bind_args", "launch"));
  if (n < 0 || (n && !specs)) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_launch_bind_args: bad specs array"));
  for (int i = 0; i < n; i++)
    if (!specs[i]) FAIL(null_arg(err, "ttref_launch_bind_args", "a spec"));
  if (l->fbound) interp_bound_free(&l->fb);
  if (l->pbound) interp_bound_free(&l->pfb);
  l->fbound = l->pbound = false;
  free_specs(l);
  l->specs = ir_calloc((size_t)n + 1, sizeof *l->specs);
  if (!l->specs) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  l->specs_cap = n + 1;
  for (int i = 0; i < n; i++, l->nspecs++) {
    const size_t len = strlen(specs[i]) + 1;
    if (!(l->specs[i] = ir_alloc(len))) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
    memcpy(l->specs[i], specs[i], len);
  }
  TRY(interp_bind(l->k->mod, l->k->fn, specs, n, &l->fb, err));
  l->fbound = true;
fail:
  if (st != TTREF_OK && l) free_specs(l);
  return st;
}

ttref_status ttref_launch_save(const ttref_launch *l, const char *dir, unsigned flags, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  if (!l) FAIL(null_arg(err, "ttref_launch_save", "launch"));
  if (!dir) FAIL(null_arg(err, "ttref_launch_save", "directory"));
  if (!l->fbound)
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc,
                      "ttref_launch_save: bind the arguments with ttref_launch_bind_args first"));
  TRY(interp_check_out_names(&l->fb, l->opt[TTREF_OPT_PRECISE] != 0, err));
  if (flags & TTREF_SAVE_CHECK) goto fail;
  TRY(interp_write_outputs(&l->fb, l->pbound ? &l->pfb : NULL, dir, l->outputs, err));
fail:
  return st;
}

/* The pointer arguments of @p fn, "a, b, c", into buf (for messages). */
static void pointer_names(const ir_func *fn, char *buf, size_t cap)
{
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < fn->nargs && len + 1 < cap; i++)
    if (fn->args[i].type && fn->args[i].type->kind == IR_T_PTR) {
      int w = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", fn->args[i].name ? fn->args[i].name : "?");
      if (w < 0) break;
      len += (size_t)w < cap - len ? (size_t)w : cap - len - 1;
    }
  if (!buf[0]) snprintf(buf, cap, "none");
}

ttref_status ttref_launch_set_outputs(ttref_launch *l, const char *const *names, int n, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  bool *sel = NULL;
  size_t cnt = 0;
  if (!l) FAIL(null_arg(err, "ttref_launch_set_outputs", "launch"));
  if (n < 0 || (n && !names))
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_launch_set_outputs: bad names array"));
  for (int q = 0; q < n; q++)
    if (!names[q]) FAIL(null_arg(err, "ttref_launch_set_outputs", "a name"));
  const ir_func *fn = l->k->fn;
  cnt = (size_t)fn->nargs + 1;
  if (n > 0) {
    if (!(sel = ir_calloc(cnt, sizeof *sel))) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
    for (int q = 0; q < n; q++) {
      const int i = interp_find_arg(fn, names[q], strlen(names[q]));
      if (i < 0 || ttref_kernel_arg_kind(l->k, i) != TTREF_ARG_POINTER) {
        char ptrs[300];
        pointer_names(fn, ptrs, sizeof ptrs);
        FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "output '%.100s' is %s (pointer arguments: %s)", names[q],
                          i < 0 ? "not an argument of the kernel" : "not a pointer argument", ptrs));
      }
      sel[i] = true;
    }
  }
  ir_free(l->outputs, cnt * sizeof *l->outputs);
  l->outputs = sel;
  sel = NULL;
fail:
  ir_free(sel, cnt * sizeof *sel);
  return st;
}

/* Check debugging call (kind, arg) on a scratch state and keep it for the runs. */
static ttref_status add_call(ttref_launch *l, const char *fname, int kind, const char *arg, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *copy = NULL;
  if (!l) FAIL(null_arg(err, fname, "launch"));
  if (kind != DBG_TRACE && !arg) FAIL(null_arg(err, fname, kind == DBG_DUMP ? "spec" : "directory"));
  if (!l->vdbg && !(l->vdbg = interp_debug_new(l->k->mod, l->k->fn)))
    FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  struct dbg_call c = {kind, NULL};
  if (arg) {
    if (!(copy = ir_alloc(strlen(arg) + 1))) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
    memcpy(copy, arg, strlen(arg) + 1);
    c.arg = copy;
  }
  TRY(apply_call(l->vdbg, &c, err));
  struct dbg_call *nc = ir_realloc(l->calls, sizeof *nc * (size_t)l->ncalls, sizeof *nc * (size_t)(l->ncalls + 1));
  if (!nc) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  l->calls = nc;
  nc[l->ncalls++] = c;
  copy = NULL;
fail:
  if (copy) ir_free(copy, strlen(copy) + 1);
  return st;
}

ttref_status ttref_launch_dump(ttref_launch *l, const char *spec, ttref_error *err)
{
  return add_call(l, "ttref_launch_dump", DBG_DUMP, spec, err);
}

ttref_status ttref_launch_dump_dir(ttref_launch *l, const char *dir, ttref_error *err)
{
  return add_call(l, "ttref_launch_dump_dir", DBG_DUMP_DIR, dir, err);
}

ttref_status ttref_launch_trace(ttref_launch *l, const char *pids, ttref_error *err)
{
  return add_call(l, "ttref_launch_trace", DBG_TRACE, pids, err);
}

ttref_status ttref_launch_inject_fault(ttref_launch *l, const char *op, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_opcode oc;
  const ttref_op_def *vd = NULL;
  if (!l) FAIL(null_arg(err, "ttref_launch_inject_fault", "launch"));
  l->inject_op = 0;
  l->inject_vendor = NULL;
  if (!op) goto fail;
  if (ir_op_lookup(op, strlen(op), &oc) && oc != IR_OP_VENDOR) l->inject_op = (int)oc + 1;
  else if ((vd = ir_vendor_find(l->k->reg, op, strlen(op)))) {
    l->inject_op = (int)IR_OP_VENDOR + 1;
    l->inject_vendor = vd->name; /* borrowed from the registry, which outlives the kernel */
  } else FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "--inject-fault: unknown op '%.100s'", op));
fail:
  return st;
}

int64_t ttref_launch_stat(const ttref_launch *l, ttref_stat s)
{
  return l && (int)s >= 0 && (int)s < TTREF_STAT_COUNT ? l->stat[s] : 0;
}

const char *ttref_stat_name(ttref_stat s)
{
  return (int)s >= 0 && (int)s < TTREF_STAT_COUNT ? stat_names[s] : "<invalid>";
}

const char *ttref_stat_label(ttref_stat s)
{
  return (int)s >= 0 && (int)s < TTREF_STAT_COUNT ? stat_labels[s] : "<invalid>";
}

/* ---- launch files ---- */

struct ttref_launch_file {
  interp_launch_file lf;
};

ttref_launch_file *ttref_launch_file_read(const char *path, ttref_error *err)
{
  if (!path) return null_arg(err, "ttref_launch_file_read", "path"), NULL;
  ttref_launch_file *f = ir_calloc(1, sizeof *f);
  if (!f) return ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"), NULL;
  if (interp_launch_file_read(path, &f->lf, err) != TTREF_OK) {
    ttref_launch_file_free(f);
    return NULL;
  }
  return f;
}

void ttref_launch_file_free(ttref_launch_file *f)
{
  if (!f) return;
  interp_launch_file_free(&f->lf);
  ir_free(f, sizeof *f);
}

const char *ttref_launch_file_str(const ttref_launch_file *f, const char *key)
{
  if (!f || !key) return NULL;
  if (!strcmp(key, "kernel")) return f->lf.kernel;
  if (!strcmp(key, "function")) return f->lf.function;
  if (!strcmp(key, "out")) return f->lf.out;
  return NULL;
}

int ttref_launch_file_grid(const ttref_launch_file *f, int64_t g[3])
{
  if (!f || !g || !f->lf.has_grid) return 0;
  memcpy(g, f->lf.grid, sizeof f->lf.grid);
  return 1;
}

int ttref_launch_file_nargs(const ttref_launch_file *f) { return f ? f->lf.nspecs : 0; }

const char *ttref_launch_file_arg(const ttref_launch_file *f, int i)
{
  return f && i >= 0 && i < f->lf.nspecs ? f->lf.specs[i] : NULL;
}

int ttref_launch_file_option(const ttref_launch_file *f, ttref_option o, int64_t *value)
{
  if (!f || !value) return 0;
  int v;
  switch (o) {
  case TTREF_OPT_THREADS: v = f->lf.threads ? f->lf.threads : -1; break;
  case TTREF_OPT_FTZ: v = f->lf.ftz; break;
  case TTREF_OPT_CONTRACT: v = f->lf.contract; break;
  case TTREF_OPT_PRECISE: v = f->lf.precise; break;
  default: v = -1; break;
  }
  if (v < 0) return 0;
  *value = v;
  return 1;
}

/* ---- .npy files ---- */

static void to_public(const npy_array *a, ttref_array *out)
{
  memset(out, 0, sizeof *out);
  out->kind = a->kind;
  out->elsize = a->elsize;
  out->rank = a->rank;
  for (int d = 0; d < a->rank && d < 8; d++) out->shape[d] = a->shape[d];
  out->numel = a->numel;
  out->data = a->data;
  out->nbytes = a->nbytes;
}

static void to_internal(const ttref_array *a, npy_array *out)
{
  memset(out, 0, sizeof *out);
  out->kind = a->kind;
  out->elsize = a->elsize;
  out->rank = a->rank < 0 || a->rank > NPY_MAX_RANK ? NPY_MAX_RANK + 1 : a->rank;
  for (int d = 0; d < a->rank && d < NPY_MAX_RANK; d++) out->shape[d] = a->shape[d];
  out->numel = a->numel;
  out->data = a->data;
  out->nbytes = a->nbytes;
}

ttref_status ttref_npy_load(const char *path, ttref_array *out, ttref_error *err)
{
  npy_array a;
  if (!path) return null_arg(err, "ttref_npy_load", "path");
  if (!out) return null_arg(err, "ttref_npy_load", "out");
  ttref_status st = npy_read(path, &a, err);
  if (st == TTREF_OK) to_public(&a, out);
  else memset(out, 0, sizeof *out);
  return st;
}

ttref_status ttref_npy_save(const char *path, const ttref_array *a, ttref_error *err)
{
  npy_array in;
  if (!path) return null_arg(err, "ttref_npy_save", "path");
  if (!a) return null_arg(err, "ttref_npy_save", "array");
  to_internal(a, &in);
  return npy_write(path, &in, err);
}

void ttref_array_free(ttref_array *a)
{
  if (!a) return;
  npy_array in;
  to_internal(a, &in);
  npy_free(&in);
  memset(a, 0, sizeof *a);
}
