/*
 * ops_acme.c: a test ops plugin (ttref run --ops ops_acme.so): four vendor ops
 * of a made-up "acme" dialect, one per kind of rule and semantics. Built by
 * tests/vendor/test_vendor.sh; links against nothing of ttref (ttref_ops_api).
 * -DNO_ENTRY exports the entry under another name; -DBAD_INIT makes the entry fail.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ttref.h"

static const ttref_ops_api *host;

/* acme.scaled_add(a, b) {alpha = F} = a + alpha * b (alpha defaults to 1), any float type */
static int scaled_add(void *ud, const ttref_op_attrs *attrs, int n, const ttref_value *in, ttref_value *out)
{
  (void)ud;
  (void)n;
  double alpha = 1.0;
  host->attr_float(attrs, "alpha", &alpha);
  out->f = in[0].f + alpha * in[1].f;
  return 0;
}

/* acme.gt(a, b) -> i1 of their shape: a > b */
static int gt_verify(void *ud, const ttref_op_attrs *attrs, int n, const ttref_type_info *in, ttref_type_info *out,
                     char *msg, size_t msgn)
{
  (void)ud;
  (void)attrs;
  if (strcmp(in[0].dtype, in[1].dtype) != 0) {
    snprintf(msg, msgn, "operands must have one element type, not %s and %s", in[0].dtype, in[1].dtype);
    return 1;
  }
  (void)n;
  *out = in[0];
  out->dtype = "i1";
  return 0;
}
static int gt(void *ud, const ttref_op_attrs *attrs, int n, const ttref_value *in, ttref_value *out)
{
  (void)ud;
  (void)attrs;
  (void)n;
  out->i = in[0].f > in[1].f;
  return 0;
}

/* acme.ilog2(x) = floor(log2(x)) for integer x > 0; x <= 0 is a kernel fault */
static int ilog2(void *ud, const ttref_op_attrs *attrs, int n, const ttref_value *in, ttref_value *out)
{
  (void)ud;
  (void)attrs;
  (void)n;
  if (in[0].i <= 0) return 1;
  int64_t r = 0;
  for (int64_t v = in[0].i; v > 1; v >>= 1) r++;
  out->i = r;
  return 0;
}

/* acme.rev(x): a 1-D tensor reversed (whole-tensor semantics) */
static int rev_verify(void *ud, const ttref_op_attrs *attrs, int n, const ttref_type_info *in, ttref_type_info *out,
                      char *msg, size_t msgn)
{
  (void)ud;
  (void)attrs;
  (void)n;
  if (in[0].rank != 1) {
    snprintf(msg, msgn, "operand must be a 1-D tensor, not rank %d", in[0].rank);
    return 1;
  }
  *out = in[0];
  return 0;
}
static int rev(void *ud, const ttref_op_attrs *attrs, int n, const ttref_tensor *in, ttref_tensor *out, char *msg,
               size_t msgn)
{
  (void)ud;
  (void)attrs;
  (void)n;
  if (out->numel != in[0].numel) {
    snprintf(msg, msgn, "size mismatch");
    return 1;
  }
  for (int64_t i = 0; i < out->numel; i++) out->data[i] = in[0].data[in[0].numel - 1 - i];
  return 0;
}

#ifdef NO_ENTRY
#define ttref_ops_init acme_ops_init /* exported under another name: no entry symbol */
#endif
ttref_status ttref_ops_init(const ttref_ops_api *api, ttref_registry *reg, ttref_error *err);
ttref_status ttref_ops_init(const ttref_ops_api *api, ttref_registry *reg, ttref_error *err)
{
  if (api->abi != TTREF_OPS_ABI) return TTREF_E_UNSUPPORTED;
  host = api;
  const ttref_op_def defs[] = {
      {"acme.scaled_add", 2, NULL, scaled_add, NULL, NULL}, {"acme.gt", 2, gt_verify, gt, NULL, NULL},
      {"acme.ilog2", 1, NULL, ilog2, NULL, NULL},           {"acme.rev", 1, rev_verify, NULL, rev, NULL},
#ifdef BAD_INIT
      {"acme.rev", 1, rev_verify, NULL, rev, NULL}, /* registered twice: the entry fails */
#endif
  };
  for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
    ttref_status st = api->registry_add(reg, &defs[i], err);
    if (st != TTREF_OK) return st;
  }
  return TTREF_OK;
}
