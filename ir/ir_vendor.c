/*
 * ir_vendor.c: vendor-op registries: registration, lookup, attribute
 * accessors for callbacks, and loading ops plugins (dlopen + ttref_ops_init).
 */
#include "config.h"
#include "ir_vendor.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

struct ttref_registry {
  ttref_op_def **defs; /* each allocated separately: kernels hold pointers to them */
  int n, cap;
  void **dl; /* plugin handles, closed by ttref_registry_free */
  int ndl, capdl;
};

static const ttref_loc noloc = {0};
static const ttref_registry *process_reg;

const ttref_registry *ir_vendor_process(void) { return process_reg; }
void ir_vendor_set_process(const ttref_registry *reg) { process_reg = reg; }

ttref_registry *ttref_registry_new(ttref_error *err)
{
  ttref_registry *r = ir_calloc(1, sizeof *r);
  if (!r) ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory");
  return r;
}

void ttref_registry_free(ttref_registry *reg)
{
  if (!reg) return;
  for (int i = 0; i < reg->n; i++) {
    ir_free((char *)reg->defs[i]->name, strlen(reg->defs[i]->name) + 1);
    ir_free(reg->defs[i], sizeof *reg->defs[i]);
  }
  ir_free(reg->defs, (size_t)reg->cap * sizeof *reg->defs);
  for (int i = 0; i < reg->ndl; i++) dlclose(reg->dl[i]);
  ir_free(reg->dl, (size_t)reg->capdl * sizeof *reg->dl);
  ir_free(reg, sizeof *reg);
}

const ttref_op_def *ir_vendor_find(const ttref_registry *reg, const char *name, size_t n)
{
  for (int i = 0; reg && i < reg->n; i++)
    if (strlen(reg->defs[i]->name) == n && memcmp(reg->defs[i]->name, name, n) == 0) return reg->defs[i];
  return NULL;
}

/* "dialect.op": identifier characters, a '.' after a non-empty dialect, not ending in '.'. */
static bool good_name(const char *s)
{
  size_t n = strlen(s);
  if (n < 3 || n > 100 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_')) return false;
  const char *dot = strchr(s, '.');
  if (!dot || s[n - 1] == '.') return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
          c == '$'))
      return false;
  }
  return true;
}

ttref_status ttref_registry_add(ttref_registry *reg, const ttref_op_def *def, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_op_def *d = NULL;
  ir_opcode code;
  if (!reg) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_registry_add: registry is NULL"));
  if (!def) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_registry_add: def is NULL"));
  if (!def->name || !good_name(def->name))
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_registry_add: bad op name '%.100s' (want \"dialect.op\")",
                      def->name ? def->name : "(null)"));
  if (ir_op_lookup(def->name, strlen(def->name), &code) && !(ir_op_flags(code) & IR_F_VENDOR))
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_registry_add: '%s' is a built-in op", def->name));
  if (ir_vendor_find(reg, def->name, strlen(def->name)))
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_registry_add: '%s' is already registered", def->name));
  if (def->nopnds < -1 || def->nopnds > IR_VENDOR_MAX_OPNDS)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_registry_add: '%s': nopnds %d is not in [-1, %d]", def->name,
                      def->nopnds, IR_VENDOR_MAX_OPNDS));
  if (!def->elementwise == !def->tensor)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_registry_add: '%s' needs exactly one of elementwise and tensor",
                      def->name));
  if (reg->n == reg->cap) {
    int nc = reg->cap ? 2 * reg->cap : 8;
    ttref_op_def **nd = ir_realloc(reg->defs, (size_t)reg->cap * sizeof *nd, (size_t)nc * sizeof *nd);
    if (!nd) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
    reg->defs = nd;
    reg->cap = nc;
  }
  d = ir_alloc(sizeof *d);
  if (!d) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  *d = *def;
  d->name = ir_strdup(def->name);
  if (!d->name) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
  reg->defs[reg->n++] = d;
  d = NULL;
fail:
  ir_free(d, sizeof *d);
  return st;
}

int ttref_op_attr_int(const ttref_op_attrs *attrs, const char *name, int64_t *out)
{
  const ir_attr *a = attrs && name ? ir_op_attr((const ir_op *)attrs, name) : NULL;
  if (!a || (a->kind != IR_A_INT && a->kind != IR_A_BOOL && a->kind != IR_A_ENUM)) return 0;
  if (out) *out = a->i;
  return 1;
}

int ttref_op_attr_float(const ttref_op_attrs *attrs, const char *name, double *out)
{
  const ir_attr *a = attrs && name ? ir_op_attr((const ir_op *)attrs, name) : NULL;
  if (!a) return 0;
  double v;
  if (a->kind == IR_A_INT || a->kind == IR_A_BOOL) v = (double)a->i;
  else if (a->kind == IR_A_FLOAT && !a->hex) v = a->f;
  else return 0;
  if (out) *out = v;
  return 1;
}

ttref_status ttref_registry_load(ttref_registry *reg, const char *path, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  void *h = NULL;
  static const ttref_ops_api api = {TTREF_OPS_ABI, ttref_registry_add, ttref_op_attr_int, ttref_op_attr_float};
  if (!reg) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_registry_load: registry is NULL"));
  if (!path) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_registry_load: path is NULL"));
  if (reg->ndl == reg->capdl) {
    int nc = reg->capdl ? 2 * reg->capdl : 4;
    void **nd = ir_realloc(reg->dl, (size_t)reg->capdl * sizeof *nd, (size_t)nc * sizeof *nd);
    if (!nd) FAIL(ir_error_set(err, TTREF_E_NOMEM, noloc, "out of memory"));
    reg->dl = nd;
    reg->capdl = nc;
  }
  /* a path without '/' would make dlopen search the library path: the user means a file */
  char buf[4096];
  if (!strchr(path, '/') && snprintf(buf, sizeof buf, "./%s", path) < (int)sizeof buf)
    h = dlopen(buf, RTLD_NOW | RTLD_LOCAL);
  else h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *why = dlerror();
    FAIL(ir_error_set(err, TTREF_E_IO, noloc, "cannot load ops plugin %.300s: %.150s", path,
                      why ? why : "dlopen failed"));
  }
  ttref_ops_init_fn init;
  void *sym = dlsym(h, TTREF_OPS_INIT_SYMBOL);
  memcpy(&init, &sym, sizeof init); /* object pointer to function pointer, as POSIX allows */
  if (!sym)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ops plugin %.300s has no entry symbol '%s'", path,
                      TTREF_OPS_INIT_SYMBOL));
  ttref_error e = {0};
  const int before = reg->n;
  ttref_status ist = init(&api, reg, &e);
  if (ist != TTREF_OK) {
    while (reg->n > before) { /* their callbacks live in the object about to be closed */
      ttref_op_def *d = reg->defs[--reg->n];
      ir_free((char *)d->name, strlen(d->name) + 1);
      ir_free(d, sizeof *d);
    }
    const char *m = strncmp(e.msg, "error: ", 7) == 0 ? e.msg + 7 : e.msg;
    FAIL(ir_error_set(err, ist == TTREF_E_NOMEM ? TTREF_E_NOMEM : TTREF_E_INPUT, noloc, "ops plugin %.200s: %.280s",
                      path, m[0] ? m : ttref_status_str(ist)));
  }
  reg->dl[reg->ndl++] = h;
  h = NULL;
fail:
  if (h) dlclose(h);
  return st;
}
