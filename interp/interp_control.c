/*
 * interp_control.c: control flow (scf.for/if/while, tt.call), debugging ops
 * (tt.print, tt.assert), extern and vendor ops, poison and program ids.
 */
#include "config.h"
#include "interp_exec.h"

/* ---- control flow -------------------------------------------------------------------------------- */
/*
 * scf.for's yield without copies: a yielded value computed by an op of the body
 * block itself (not a constant, yielded once) is dead once yielded (the next
 * iteration recomputes it before any use), so each block argument takes that
 * value's buffer and gives its own back. Otherwise, or when the slots' sizes
 * differ, the parallel copy through the scratch space.
 */
static bool yield_by_swap(ctx *c, const ir_block *b, ir_value *dst, ir_value *const *src, int n)
{
  for (int i = 0; i < n; i++) {
    const ir_value *v = src[i];
    if (!v->def || v->def->parent != b || v->def->code == IR_OP_CONSTANT) return false;
    for (int j = 0; j < i; j++)
      if (src[j] == v) return false;
    const slot *s = SL(v), *d = SL(&dst[i]);
    if (s->cap != d->cap || !s->b != !d->b) return false;
  }
  for (int i = 0; i < n; i++) {
    slot *s = SL(src[i]), *d = SL(&dst[i]);
    interp_elem *t = d->d;
    d->d = s->d;
    s->d = t;
    t = d->b;
    d->b = s->b;
    s->b = t;
    d->n = s->n;
  }
  return true;
}

ttref_status interp_op_scf_for(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_region *body = &op->regions[0];
  ir_block *b = body->blocks[0];
  const int bits = elem_bits(op->opnds[0]);
  int64_t lb = sval(bits, SL(op->opnds[0])->d[0].i), ub = sval(bits, SL(op->opnds[1])->d[0].i),
          step = sval(bits, SL(op->opnds[2])->d[0].i);
  const int nit = op->nopnds - 3;
  const ir_op *term = NULL;
  if (b->nargs != nit + 1 || op->nres != nit) return interp_fault(c, op, TTREF_E_INPUT, "malformed 'scf.for'");
  TRY(interp_assign_values(c, b->args + 1, op->opnds + 3, nit));
  if (step <= 0 && lb < ub)
    return interp_fault(c, op, TTREF_E_FAULT, "'scf.for' with step %" PRId64 " <= 0 never terminates", step);
  for (int64_t iv = lb; iv < ub;) {
    slot *ivs = SL(&b->args[0]);
    ivs->d[0].i = wrap_int(bits, iv);
    ivs->n = 1;
    TRY(interp_run_region(c, body, &term));
    if (c->returned) goto fail;
    if (!term || term->nopnds != nit)
      return interp_fault(c, op, TTREF_E_INPUT, "'scf.for' body must yield %d values", nit);
    if (!yield_by_swap(c, b, b->args + 1, term->opnds, nit))
      TRY(interp_assign_values(c, b->args + 1, term->opnds, nit));
    /* the induction variable is computed in its own width; stop on signed overflow */
    int64_t next;
    if (__builtin_add_overflow(iv, step, &next) || next != wrap_int(bits, next)) break;
    iv = next;
  }
  {
    ir_value *src[64];
    if (nit > 64) return interp_fault(c, op, TTREF_E_LIMIT, "'scf.for' with more than 64 iter_args");
    for (int i = 0; i < nit; i++) src[i] = &b->args[1 + i];
    TRY(interp_assign_values(c, op->res, src, nit));
  }
fail:
  return st;
}

ttref_status interp_op_scf_if(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const bool cond = SL(op->opnds[0])->d[0].i != 0;
  const ir_op *term = NULL;
  int which = cond ? 0 : 1;
  if (which >= op->nregions || op->regions[which].nblocks == 0) return TTREF_OK;
  TRY(interp_run_region(c, &op->regions[which], &term));
  if (c->returned) goto fail;
  if (op->nres) {
    if (!term || term->nopnds != op->nres)
      return interp_fault(c, op, TTREF_E_INPUT, "'scf.if' branch must yield %d values", op->nres);
    TRY(interp_assign_values(c, op->res, term->opnds, op->nres));
  }
fail:
  return st;
}

ttref_status interp_op_scf_while(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nregions != 2) return interp_fault(c, op, TTREF_E_INPUT, "'scf.while' needs two regions");
  ir_block *before = op->regions[0].blocks[0], *after = op->regions[1].blocks[0];
  const ir_op *term = NULL;
  TRY(interp_assign_values(c, before->args, op->opnds, op->nopnds));
  for (;;) {
    TRY(interp_run_region(c, &op->regions[0], &term));
    if (c->returned) goto fail;
    if (!term || term->code != IR_OP_SCF_CONDITION || term->nopnds < 1)
      return interp_fault(c, op, TTREF_E_INPUT, "'scf.while' before region must end in scf.condition");
    if (!SL(term->opnds[0])->d[0].i) {
      TRY(interp_assign_values(c, op->res, term->opnds + 1, term->nopnds - 1));
      break;
    }
    TRY(interp_assign_values(c, after->args, term->opnds + 1, term->nopnds - 1));
    TRY(interp_run_region(c, &op->regions[1], &term));
    if (c->returned) goto fail;
    if (!term) return interp_fault(c, op, TTREF_E_INPUT, "'scf.while' after region must yield");
    TRY(interp_assign_values(c, before->args, term->opnds, term->nopnds));
  }
fail:
  return st;
}

ttref_status interp_call_function(ctx *c, const ir_op *op, const ir_func *fn)
{
  ttref_status st = TTREF_OK;
  const fn_plan *fp = interp_plan_of(c->P, fn);
  frame *caller = c->fr, *callee = NULL;
  const ir_op *term = NULL;
  if (!fp) return interp_fault(c, op, TTREF_E_INTERNAL, "internal: no plan for @%s", fn->name);
  if (c->depth >= 64) return interp_fault(c, op, TTREF_E_LIMIT, "call depth exceeds 64 (recursive tt.call?)");
  if (op->nopnds != fn->nargs)
    return interp_fault(c, op, TTREF_E_INPUT, "'tt.call' passes %d arguments to @%s, which takes %d", op->nopnds,
                        fn->name, fn->nargs);
  callee = interp_frame_new(fp, c->precise);
  if (!callee) return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
  for (int i = 0; i < fn->nargs; i++) {
    copy_slot(&callee->s[fn->args[i].id], &caller->s[op->opnds[i]->id]);
  }
  c->fr = callee;
  c->depth++;
  st = interp_run_region(c, &fn->body, &term);
  c->depth--;
  c->returned = false;
  c->fr = caller;
  if (st != TTREF_OK) goto fail;
  if (term && term->code == IR_OP_RETURN) {
    if (term->nopnds != op->nres)
      FAIL(interp_fault(c, op, TTREF_E_INPUT, "@%s returns %d values, the call expects %d", fn->name, term->nopnds,
                        op->nres));
    for (int i = 0; i < op->nres; i++) {
      copy_slot(&caller->s[op->res[i].id], &callee->s[term->opnds[i]->id]);
    }
  }
fail:
  interp_frame_free(callee);
  return st;
}

/* ---- debugging ops ---------------------------------------------------------------------------------- */
static void print_elem(FILE *out, const ir_value *v, interp_elem e, bool hex, bool is_signed)
{
  const ir_scalar s = elem_scalar(v);
  const int bits = ir_scalar_bits(s);
  if (ir_scalar_is_float(s)) {
    if (hex) fprintf(out, "0x%0*" PRIx64, (bits + 3) / 4, fp_encode((fp_format)fmt_of(s), e.f, FP_RNE, FP_OVF_INF));
    else fprintf(out, "%f", e.f);
  } else if (s == IR_S_PTR) {
    fprintf(out, "0x%" PRIx64, (uint64_t)e.i);
  } else if (hex) {
    fprintf(out, "0x%0*" PRIx64, (bits + 3) / 4, uval(bits, e.i));
  } else if (is_signed) {
    fprintf(out, "%" PRId64, sval(bits, e.i));
  } else {
    fprintf(out, "%" PRIu64, uval(bits, e.i));
  }
}

/* GPU format: "pid (x, y, z) idx (i, j)PREFIX(operand n) VALUE", one line per element
 * (the operand part only with several operands; PREFIX keeps Triton's spaces). */
ttref_status interp_op_print(ctx *c, const ir_op *op)
{
  FILE *out = c->L->print_out ? c->L->print_out : stdout;
  const ir_attr *pa = ir_op_attr(op, "prefix");
  const ir_attr *sg = ir_op_attr(op, "isSigned");
  const bool hex = ir_op_attr_int(op, "hex", 0) != 0;
  const char *prefix = pa && pa->s ? pa->s : "";
  const int plen = pa && pa->s ? (int)pa->slen : 0;
  if (op->nopnds == 0) {
    fprintf(out, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %.*s\n", c->pid[0], c->pid[1], c->pid[2], plen, prefix);
    return TTREF_OK;
  }
  for (int k = 0; k < op->nopnds; k++) {
    const ir_value *v = op->opnds[k];
    const slot *s = SL(v);
    const bool is_signed = !sg || k >= sg->nints || sg->ints[k] != 0;
    for (int64_t i = 0; i < s->n; i++) {
      char idx[160];
      idx[0] = 0;
      if (v->type->kind == IR_T_TENSOR) {
        interp_lane_index_str(v->type, i, idx, sizeof idx);
        char *p = strchr(idx, '(');
        memmove(idx, p ? p : idx, strlen(p ? p : idx) + 1);
      } else {
        snprintf(idx, sizeof idx, "()");
      }
      fprintf(out, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") idx %s%.*s", c->pid[0], c->pid[1], c->pid[2], idx, plen,
              prefix);
      if (op->nopnds > 1) fprintf(out, "(operand %d) ", k); /* the prefix carries its own spacing */
      print_elem(out, v, s->d[i], hex, is_signed);
      fputc('\n', out);
    }
  }
  return TTREF_OK;
}

ttref_status interp_op_assert(ctx *c, const ir_op *op)
{
  const slot *s = SL(op->opnds[0]);
  for (int64_t i = 0; i < s->n; i++)
    if (!s->d[i].i) {
      char what[400];
      if (op->code == IR_OP_ASSUME) {
        snprintf(what, sizeof what, "assumption is false");
      } else {
        const ir_attr *m = ir_op_attr(op, "message");
        snprintf(what, sizeof what, "device assertion failed: '%.*s'", m && m->s ? (int)m->slen : 0,
                 m && m->s ? m->s : "");
      }
      return interp_fault_at(c, op, op->opnds[0]->type, i, what);
    }
  return TTREF_OK;
}

/* nextafter in the result format (exact), and erfinv (no correctly rounded
 * oracle: Newton on erfl in long double, then one rounding; within 1 ulp). */
static ttref_status op_extern_special(ctx *c, const ir_op *op, const char *name)
{
  const int f = fmt_of(elem_scalar(&op->res[0]));
  const int bits = ir_scalar_bits(elem_scalar(&op->res[0]));
  const slot *a = SL(op->opnds[0]);
  const slot *b = op->nopnds > 1 ? SL(op->opnds[1]) : a;
  slot *r = SL(&op->res[0]);
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double x = a->d[i * sa].f, y = b->d[i * sb].f;
    if (name[0] == 'n') {
      if (isnan(x) || isnan(y)) r->d[i].f = x + y;
      else if (x == y) r->d[i].f = y;
      else if (x == 0) r->d[i].f = copysign(fp_min_subnormal((fp_format)f), y);
      else {
        uint64_t u = fp_encode((fp_format)f, x, FP_RNE, FP_OVF_INF);
        /* away from zero iff moving toward y's side beyond |x| */
        bool away = (y > x) == (x > 0);
        u = away ? u + 1 : u - 1;
        r->d[i].f = fp_decode((fp_format)f, u & ((bits >= 64) ? UINT64_MAX : ((UINT64_C(1) << bits) - 1)));
      }
    } else {
      if (isnan(x) || x < -1 || x > 1) r->d[i].f = NAN;
      else if (x == 1 || x == -1) r->d[i].f = copysign(INFINITY, x);
      else if (x == 0) r->d[i].f = x;
      else {
        long double yv = (long double)x, t = 0;
        /* initial guess (Giles' approximation is overkill: bisection-safe Newton) */
        long double w = -logl((1.0L - yv) * (1.0L + yv));
        t = copysignl(sqrtl(w), yv) * 0.8862269254527580L;
        if (fabsl(yv) < 0.9L) t = yv * 0.8862269254527580L;
        for (int it = 0; it < 100; it++) {
          long double e = erfl(t) - yv;
          long double d = 1.1283791670955125739L * expl(-t * t);
          long double nt = t - e / d;
          if (nt == t || !isfinite(nt)) break;
          t = nt;
        }
        r->d[i].f = rnd(c, f, (double)t);
      }
    }
  }
  return TTREF_OK;
}

ttref_status interp_op_extern(ctx *c, const ir_op *op)
{
  const ir_attr *sa = ir_op_attr(op, "symbol");
  char name[64];
  const char *sym = sa && sa->s ? sa->s : "";
  size_t len = sa && sa->s ? sa->slen : 0;
  const int f = fmt_of(elem_scalar(&op->res[0]));
  fp_math_fn fn;
  /* libdevice: __nv_tanhf (f32) / __nv_tanh (f64); ROCm: __ocml_tanh_f32 */
  if (len > 5 && memcmp(sym, "__nv_", 5) == 0) {
    snprintf(name, sizeof name, "%.*s", (int)(len - 5), sym + 5);
    size_t nl = strlen(name);
    if (f == FP_F32 && nl > 1 && name[nl - 1] == 'f') name[nl - 1] = 0;
  } else if (len > 7 && memcmp(sym, "__ocml_", 7) == 0) {
    snprintf(name, sizeof name, "%.*s", (int)(len - 7), sym + 7);
    char *u = strrchr(name, '_');
    if (u && (strcmp(u, "_f32") == 0 || strcmp(u, "_f64") == 0 || strcmp(u, "_f16") == 0)) *u = 0;
  } else {
    snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), sym);
  }
  if (strncmp(name, "fast_", 5) == 0) memmove(name, name + 5, strlen(name + 5) + 1);
  if (strcmp(name, "nextafter") == 0 || strcmp(name, "erfinv") == 0) return op_extern_special(c, op, name);
  if (!ir_scalar_is_float(elem_scalar(&op->res[0])) || op->nopnds < 1 || op->nopnds > 2 || !fp_math_lookup(name, &fn))
    return interp_fault(c, op, TTREF_E_UNSUPPORTED,
                        "'tt.extern_elementwise' symbol '%.*s' has no reference definition in ttref",
                        (int)(len < 100 ? len : 100), sym);
  const slot *a = SL(op->opnds[0]);
  const slot *b = op->nopnds > 1 ? SL(op->opnds[1]) : a;
  slot *r = SL(&op->res[0]);
  const int64_t n = LANES2(a, b), sa2 = a->n > 1, sb = b->n > 1;
  r->n = n;
  const fp_format ef = c->precise ? FP_F64 : (fp_format)f;
  for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, f, fp_math_eval(fn, ef, a->d[i * sa2].f, b->d[i * sb].f));
  return TTREF_OK;
}

/* A registered vendor op: its callback per lane or on whole tensors, then each result element
 * rounded once to the result type (floats; not in precise mode) or wrapped to its width (ints). */
static void vendor_type(const ir_type *t, ttref_type_info *o)
{
  memset(o, 0, sizeof *o);
  o->dtype = ir_scalar_name(ir_type_elem(t)->scalar);
  o->rank = t->kind == IR_T_TENSOR ? t->rank : 0;
  for (int d = 0; d < o->rank; d++) o->shape[d] = t->shape[d];
}

ttref_status interp_op_vendor(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ttref_op_def *d = op->vdef;
  const ttref_op_attrs *attrs = (const ttref_op_attrs *)op;
  const int k = op->nopnds;
  slot *r = SL(&op->res[0]);
  const ir_type *rt = op->res[0].type;
  const int64_t n = rt->kind == IR_T_TENSOR ? rt->numel : 1;
  ttref_value *scratch[IR_VENDOR_MAX_OPNDS] = {0};
  char msg[200] = "";
  r->n = n;
  if (d->elementwise) {
    ttref_value in[IR_VENDOR_MAX_OPNDS];
    for (int64_t i = 0; i < n; i++) {
      for (int j = 0; j < k; j++) {
        const slot *a = SL(op->opnds[j]);
        in[j] = a->d[a->n > 1 ? i : 0];
      }
      if (d->elementwise(d->ud, attrs, k, in, &r->d[i]) != 0) FAIL(interp_fault_at(c, op, rt, i, "vendor op failed"));
    }
  } else {
    ttref_tensor tin[IR_VENDOR_MAX_OPNDS], tout;
    for (int j = 0; j < k; j++) {
      const slot *a = SL(op->opnds[j]);
      const ir_type *t = op->opnds[j]->type;
      const int64_t m = t->kind == IR_T_TENSOR ? t->numel : 1;
      vendor_type(t, &tin[j].type);
      tin[j].numel = m;
      tin[j].data = a->d;
      if (a->n < m) { /* a splat held as one element: the callback sees the whole tensor */
        scratch[j] = ir_alloc((size_t)m * sizeof *scratch[j]);
        if (!scratch[j])
          FAIL(interp_fault(c, op, TTREF_E_NOMEM, "out of memory for an operand of '%s'", ir_op_label(op)));
        for (int64_t i = 0; i < m; i++) scratch[j][i] = a->d[0];
        tin[j].data = scratch[j];
      }
    }
    vendor_type(rt, &tout.type);
    tout.numel = n;
    tout.data = r->d;
    memset(r->d, 0, (size_t)n * sizeof *r->d);
    if (d->tensor(d->ud, attrs, k, tin, &tout, msg, sizeof msg) != 0) {
      msg[sizeof msg - 1] = 0;
      FAIL(interp_fault(c, op, TTREF_E_FAULT, "vendor op '%s' failed: %s: pid (%" PRId64 ", %" PRId64 ", %" PRId64 ")",
                        ir_op_label(op), msg[0] ? msg : "its callback returned an error", c->pid[0], c->pid[1],
                        c->pid[2]));
    }
  }
  const ir_scalar rs = ir_type_elem(rt)->scalar;
  if (ir_scalar_is_float(rs)) {
    const int f = fmt_of(rs);
    for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, f, r->d[i].f);
  } else {
    const int bits = ir_scalar_bits(rs);
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(bits, r->d[i].i);
  }
fail:
  for (int j = 0; j < k; j++)
    if (scratch[j])
      ir_free(scratch[j],
              (size_t)(op->opnds[j]->type->kind == IR_T_TENSOR ? op->opnds[j]->type->numel : 1) * sizeof *scratch[j]);
  return st;
}

ttref_status interp_op_poison(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int64_t n = slot_cap_of(op->res[0].type);
  for (int64_t i = 0; i < n; i++) r->d[i].i = 0;
  r->n = op->res[0].type->kind == IR_T_TENSOR ? op->res[0].type->numel : 1;
  c->stats.ub_poison++;
  return TTREF_OK;
}

ttref_status interp_op_program_id(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int axis = (int)ir_op_attr_int(op, "axis", 0);
  if (axis < 0 || axis > 2) return interp_fault(c, op, TTREF_E_INPUT, "program axis %d out of range", axis);
  r->d[0].i = wrap_int(32, op->code == IR_OP_GET_PROGRAM_ID ? c->pid[axis] : c->L->grid[axis]);
  r->n = 1;
  return TTREF_OK;
}
