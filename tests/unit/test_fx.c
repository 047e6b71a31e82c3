/*
 * test_fx.c: unit tests of the traced-graph front end (ir_fx, ir_fx_lower): every
 * spelling of the printed TK trace, the parsed structure, located errors, the
 * lowering (ops, dtypes, bounds policy, errors) and allocation failures.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_fx.h"
#include "ir_fx_lower.h"
#include "ir_parse.h"
#include "ir_verify.h"
#include "unit_fixture.h"

/* ---- the counting allocator is unit_alloc (tests/unit/unit_fixture.c) ---- */

/* ---- helpers ------------------------------------------------------------------------------ */
static ir_fx *parse_ok(const char *text)
{
  ir_fx *g = NULL;
  ttref_error err;
  memset(&err, 0, sizeof err);
  ttref_status st = ir_fx_parse_string("t.fx", text, strlen(text), &g, &err);
  if (st != TTREF_OK) print_error("unexpected error: %s\n", err.msg);
  assert_int_equal(st, TTREF_OK);
  assert_non_null(g);
  return g;
}

static void parse_err(const char *text, const char *want)
{
  ir_fx *g = NULL;
  ttref_error err;
  memset(&err, 0, sizeof err);
  ttref_status st = ir_fx_parse_string("t.fx", text, strlen(text), &g, &err);
  if (st == TTREF_OK || !strstr(err.msg, want)) print_error("want '%s', got status %d: %s\n", want, st, err.msg);
  assert_int_not_equal(st, TTREF_OK);
  assert_null(g);
  assert_non_null(strstr(err.msg, want));
}

static const ir_fx_node *node(const ir_fx *g, int region, const char *name)
{
  const ir_fx_region *r = &g->regions[region];
  for (int i = 0; i < r->nnodes; i++)
    if (!strcmp(r->nodes[i].name, name)) return &r->nodes[i];
  fail_msg("no node %s", name);
  return NULL;
}

/* lower with symbols (NULL-terminated "K=V" list); returns the TTIR text or NULL with err */
static char *lower(const char *text, const char *const *syms, const char *const *dtypes, int oob, ttref_error *err,
                   size_t *len)
{
  ir_fx *g = NULL;
  char *out = NULL;
  int ns = 0, nd = 0;
  while (syms && syms[ns]) ns++;
  while (dtypes && dtypes[nd]) nd++;
  ir_fx_bind b = {syms, ns, dtypes, nd, oob};
  memset(err, 0, sizeof *err);
  if (ir_fx_parse_string("t.fx", text, strlen(text), &g, err) == TTREF_OK) ir_fx_lower(g, &b, "k", &out, len, err);
  ir_fx_free(g);
  return out;
}

/* the lowering must parse and verify as TTIR */
static void verify_text(const char *t, size_t len)
{
  ir_module *m = NULL;
  ttref_error err;
  memset(&err, 0, sizeof err);
  ttref_status st = ir_parse_string("lowered.ttir", t, len, &m, &err);
  if (st == TTREF_OK) st = ir_verify_module(m, &err);
  if (st != TTREF_OK) print_error("%s\n%s\n", err.msg, t);
  assert_int_equal(st, TTREF_OK);
  ir_module_free(m);
}

static const char *SOFTMAX =
    "region_0:graph():\n"
    "    %input_1 : InputBuffer[M, K] = placeholder[target=input]\n"
    "    %output : OutputBuffer[M, K] = placeholder[target=output]\n"
    "    %thread_program_id : SymIndex\xe2\x88\x88[0, M) = call_function[target=thread_program_id](args = (0,))\n"
    "    %kernel_buffer_load = call_function[target=kernel_buffer_load](args = (%input_1, (%thread_program_id, 0), (1, "
    "K)))\n"
    "    %vector_max = call_function[target=vector_max](args = (%kernel_buffer_load,))\n"
    "    %sub = call_function[target=sub](args = (%kernel_buffer_load, %vector_max))\n"
    "    %exp2 = call_function[target=exp2](args = (%sub,), kwargs = {})\n"
    "    %vector_sum = call_function[target=vector_sum](args = (%exp2,))\n"
    "    %truediv = call_function[target=truediv](args = (%exp2, %vector_sum))\n"
    "    %kernel_buffer_store = call_function[target=kernel_buffer_store](args = (%output, (%thread_program_id, 0), "
    "%truediv))\n"
    "    return None\n";

static const char *LOOP =
    "region_0:graph():\n"
    "    %i : [num_users=1] = placeholder[target=i]\n"
    "    %acc : [num_users=1] = placeholder[target=acc]\n"
    "    %x : [num_users=1] = placeholder[target=x]\n"
    "    %kernel_buffer_load : [num_users=1] = "
    "call_function[target=shark_turbine.kernel.ops.memory.kernel_buffer_load](args = (%x, (i*BLOCK, 0), (BLOCK, N)), "
    "kwargs = {})\n"
    "    %add : [num_users=1] = call_function[target=operator.add](args = (%acc, %kernel_buffer_load), kwargs = {})\n"
    "    return (%add,)\n"
    "region_1:graph():\n"
    "    %x : InputBuffer[R, N] [num_users=1] = placeholder[target=x]\n"
    "    %out : Output[BLOCK, N].of(f32) [num_users=1] = placeholder[target=out]\n"
    "    %vector_constant : [num_users=1] = call_function[target=shark_turbine.kernel.ops.core.vector_constant](args = "
    "((BLOCK, N), f32, 0.0), kwargs = {})\n"
    "    %for_loop : [num_users=1] = call_function[target=shark_turbine.kernel.ops.control_flow.for_loop](args = (0, "
    "R//BLOCK, 1, [%vector_constant]),\n"
    "        kwargs = {subgraph: region_0, implicit_capture: [%x]})\n"
    "    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%for_loop, 0), kwargs = {})\n"
    "    %kernel_buffer_store : [num_users=0] = "
    "call_function[target=shark_turbine.kernel.ops.memory.kernel_buffer_store](args = (%out, (0, 0), %getitem), kwargs "
    "= {})\n"
    "    return None\n";

/* ---- parser: forms and spellings ------------------------------------------------------------ */
static void test_fx_parse_softmax_structure(void **state)
{
  (void)state;
  ir_fx *g = parse_ok(SOFTMAX);
  assert_int_equal(g->nregions, 1);
  assert_int_equal(g->root, 0);
  assert_string_equal(g->regions[0].name, "region_0");
  assert_int_equal(g->regions[0].nnodes, 11);
  const ir_fx_node *in = node(g, 0, "input_1");
  assert_int_equal(in->kind, IR_FX_N_PLACEHOLDER);
  assert_int_equal(in->buf_kind, IR_FX_BUF_INPUT);
  assert_string_equal(in->target, "input");
  assert_int_equal(in->dims->nitems, 2);
  assert_string_equal(in->dims->items[1]->s, "K");
  assert_int_equal(node(g, 0, "output")->buf_kind, IR_FX_BUF_OUTPUT);
  const ir_fx_node *pid = node(g, 0, "thread_program_id");
  assert_true(pid->sym_index);
  assert_int_equal(pid->op, IR_FX_THREAD_PROGRAM_ID);
  const ir_fx_node *ld = node(g, 0, "kernel_buffer_load");
  assert_int_equal(ld->op, IR_FX_LOAD);
  assert_int_equal(ld->args->nitems, 3);
  assert_int_equal(ld->args->items[0]->kind, IR_FX_A_REF);
  assert_int_equal(ld->args->items[0]->node, 0);
  assert_int_equal(ld->args->items[1]->kind, IR_FX_A_TUPLE);
  assert_int_equal(ld->args->items[1]->items[0]->node, 2);
  assert_int_equal(ld->line, 5);
  assert_int_equal(ld->col, 5);
  assert_int_equal(node(g, 0, "exp2")->kwargs->nitems, 0);
  assert_int_equal(g->regions[0].nodes[10].kind, IR_FX_N_OUTPUT);
  assert_int_equal(g->regions[0].nodes[10].args->items[0]->kind, IR_FX_A_NONE);
  ir_fx_free(g);
}

static void test_fx_parse_loop_root_and_capture(void **state)
{
  (void)state;
  ir_fx *g = parse_ok(LOOP);
  assert_int_equal(g->nregions, 2);
  assert_int_equal(g->root, 1); /* region_0 is the loop body */
  assert_true(g->regions[0].is_subgraph);
  const ir_fx_node *fl = node(g, 1, "for_loop");
  assert_int_equal(fl->op, IR_FX_FOR_LOOP);
  const ir_fx_arg *stop = fl->args->items[1];
  assert_int_equal(stop->kind, IR_FX_A_BIN);
  assert_string_equal(stop->s, "//");
  assert_string_equal(ir_fx_kwarg(fl, "subgraph")->s, "region_0");
  const ir_fx_arg *cap = ir_fx_kwarg(fl, "implicit_capture");
  assert_int_equal(cap->kind, IR_FX_A_LIST);
  assert_int_equal(cap->items[0]->kind, IR_FX_A_REF);
  const ir_fx_node *ld = node(g, 0, "kernel_buffer_load");
  const ir_fx_arg *ix = ld->args->items[1]->items[0];
  assert_int_equal(ix->kind, IR_FX_A_BIN); /* i*BLOCK */
  assert_string_equal(ix->s, "*");
  assert_string_equal(ix->items[0]->s, "i");
  const ir_fx_node *out = node(g, 1, "out");
  assert_int_equal(out->buf_kind, IR_FX_BUF_OUTPUT);
  assert_string_equal(out->dtype, "f32");
  assert_int_equal(out->num_users, 1);
  assert_int_equal(node(g, 1, "getitem")->op, IR_FX_GETITEM);
  ir_fx_free(g);
}

static void test_fx_parse_spellings(void **state)
{
  (void)state;
  /* header on two lines, [root] label, ASCII SymIndexE, short buffer kinds, aliases, <built-in ...> */
  ir_fx *g = parse_ok("region_3:\r\ngraph():\r\n"
                      "    %a : Input[N] = placeholder[target=a]\r\n"
                      "    %t : TemporaryBuffer[N].of(tkl.f16) = placeholder[target=t]\r\n"
                      "    %p : SymIndexE[0, N) [num_users=2] = "
                      "call_function[target=shark_turbine.kernel.lang.prims.program_id](args = (0,), kwargs = {})\r\n"
                      "    %q : SymIndex [num_users=0] = call_function[target=program_id](args = (1,))\r\n"
                      "    %r : SymIndex E[0, N] = call_function[target=<built-in function add>](args = (%p, -3))\r\n"
                      "    %c = call_function[target=constant](args = ((4, 2), DataType(f16), -0.0))\r\n"
                      "    %f = call_function[target=iree.turbine.kernel.ops.math.exp2](args = (%c,))\r\n"
                      "    return None\r\n"
                      "region_9 [root]:graph():\n"
                      "    return None\n");
  assert_int_equal(g->nregions, 2);
  assert_int_equal(g->root, 1);
  assert_int_equal(node(g, 0, "a")->buf_kind, IR_FX_BUF_INPUT);
  assert_int_equal(node(g, 0, "t")->buf_kind, IR_FX_BUF_TEMP);
  assert_string_equal(node(g, 0, "t")->dtype, "tkl.f16");
  assert_int_equal(node(g, 0, "p")->op, IR_FX_THREAD_PROGRAM_ID);
  assert_int_equal(node(g, 0, "p")->num_users, 2);
  assert_true(node(g, 0, "q")->sym_index);
  assert_int_equal(node(g, 0, "r")->op, IR_FX_ADD);
  assert_int_equal(node(g, 0, "r")->args->items[1]->i, -3);
  const ir_fx_arg *v = node(g, 0, "c")->args->items[2];
  assert_int_equal(v->kind, IR_FX_A_FLOAT);
  assert_true(v->f == 0.0 && signbit(v->f));
  assert_int_equal(node(g, 0, "c")->op, IR_FX_CONSTANT);
  assert_int_equal(node(g, 0, "f")->op, IR_FX_EXP2);
  ir_fx_free(g);
  /* a bare graph(): (str(fx_graph)), comments, literals */
  g = parse_ok("# a comment\ngraph():\n    %x : Output[4] = placeholder[target=x]  # trailing\n"
               "    %c = call_function[target=vector_constant](args = ([4], f32, inf))\n"
               "    %d = call_function[target=getitem](args = (%c,), kwargs = {value_hint: (1, [2, 3.5e-3], None, "
               "True, 'str', nan, -N_CTX, Mod(a, 2), floor(N/B))})\n"
               "    return None\n");
  assert_string_equal(g->regions[0].name, "graph");
  const ir_fx_arg *d = ir_fx_kwarg(&g->regions[0].nodes[2], "value_hint");
  assert_int_equal(d->kind, IR_FX_A_TUPLE);
  assert_int_equal(d->nitems, 9);
  assert_int_equal(d->items[1]->items[1]->kind, IR_FX_A_FLOAT);
  assert_int_equal(d->items[2]->kind, IR_FX_A_NONE);
  assert_int_equal(d->items[3]->kind, IR_FX_A_BOOL);
  assert_int_equal(d->items[4]->kind, IR_FX_A_STR);
  assert_true(isnan(d->items[5]->f));
  assert_int_equal(d->items[6]->kind, IR_FX_A_NEG);
  assert_int_equal(d->items[7]->kind, IR_FX_A_CALL);
  assert_string_equal(d->items[8]->s, "floor");
  assert_true(isinf(g->regions[0].nodes[1].args->items[2]->f));
  ir_fx_free(g);
}

static void test_fx_parse_sniff(void **state)
{
  (void)state;
  assert_true(ir_fx_sniff("k.fx", "", 0));
  const char *a = "\n# c\nregion_0:graph():\n";
  assert_true(ir_fx_sniff("k.txt", a, strlen(a)));
  assert_true(ir_fx_sniff(NULL, "graph():\n", 9));
  assert_true(ir_fx_sniff(NULL, "region_1 [root]:graph():", 24));
  const char *t = "module {\n  tt.func public @k() {\n";
  assert_false(ir_fx_sniff("k.ttir", t, strlen(t)));
  assert_false(ir_fx_sniff("k.ttir", "#loc = loc(unknown)\n", 20));
}

/* ---- parser: located errors ---------------------------------------------------------------------- */
static void test_fx_parse_errors_located(void **state)
{
  (void)state;
  static const char *const H = "region_0:graph():\n    %x : InputBuffer[M] = placeholder[target=x]\n";
  static const struct {
    const char *body, *want;
  } cases[] = {
      {"    %y = call_function[target=nope](args = (%x,))\n", "t.fx:3:31: error: unknown call_function target 'nope'"},
      {"    %y = call_function[target=exp2](args = (%z,))\n", "t.fx:3:45: error: '%z' is not defined in region_0"},
      /* a node in a buffer's dims (fuzz_fx: read before the environment) */
      {"    %o : OutputBuffer[%q] = placeholder[target=o]\n", "t.fx:3:23: error: '%q' is not defined in region_0"},
      {"    %y = call_function[target=exp2](args = (%w,))\n    %w = call_function[target=exp2](args = (%x,))\n",
       "t.fx:3:45: error: '%w' is used before its definition at line 4"},
      {"    %y = call_function[target=vector_max](args = (%x, 1, None, 4))\n",
       "t.fx:3:31: error: vector_max takes 1 to 3 arguments, got 4"},
      {"    %y = call_function[target=exp2](args = (%x,)\n", "t.fx:4:1: error: expected ',' or ')', found end of file"},
      {"    %y = call_function(args = (%x,))\n", "t.fx:3:23: error: expected '[', found '('"},
      {"    %y = call_method[target=exp2](args = (%x,))\n", "t.fx:3:10: error: unsupported node kind 'call_method'"},
      {"    %y : [num_users=x] = call_function[target=exp2](args = (%x,))\n",
       "t.fx:3:21: error: expected a user count"},
      {"    %y = call_function[target=exp2](args = [%x])\n", "t.fx:3:44: error: args must be a tuple"},
      {"    %y = call_function[target=exp2](args = (%x,), kwargs = {1: 2})\n",
       "t.fx:3:61: error: expected a keyword name"},
      {"    %y = call_function[target=exp2](args = (%x,)) extra\n", "t.fx:3:51: error: unexpected 'extra'"},
      {"    %y = call_function[target=exp2](args = (99999999999999999999,))\n",
       "t.fx:3:45: error: integer 99999999999999999999 does not fit"},
      {"    %y = call_function[target=exp2](args = (\"open,))\n", "t.fx:3:45: error: unterminated string"},
      {"    %y = call_function[target=exp2](args = (%x ** 2,))\n", "t.fx:3:49: error: '**' is not supported"},
      {"    %y = call_function[target=exp2](args = (%x,))\n    return None\n    return None\n",
       "t.fx:5:5: error: region_0 has a second return"},
      {"    return None\n    %y = call_function[target=exp2](args = (%x,))\n",
       "t.fx:4:5: error: node after the return"},
      {"    %f = call_function[target=for_loop](args = (0, 4, 1, []), kwargs = {})\n",
       "t.fx:3:31: error: for_loop needs kwargs subgraph"},
      {"    %f = call_function[target=for_loop](args = (0, 4, 1, []), kwargs = {subgraph: 3})\n",
       "t.fx:3:83: error: subgraph must name a region"},
      {"    %x = placeholder[target=x]\n", "t.fx:3:5: error: node '%x' is defined twice in region_0 (first at line 2)"},
      {"    %z : InputBuffer = placeholder[target=z]\n", "t.fx:3:22: error: expected '[' and the buffer's dims"},
      {"    %z : InputBuffer[M].of(3) = placeholder[target=z]\n", "t.fx:3:28: error: expected a dtype name"},
      {"    %z : SymIndex\xe2\x88\x88[0, M} = call_function[target=exp2](args = (%x,))\n",
       "t.fx:3:24: error: expected ')' or ']' closing"},
      {"    %y = call_function[target=exp2](args = (%x,)) \xc3\xa9\n",
       "t.fx:3:51: error: unexpected non-ASCII character"},
      {"    %y = call_function[target=exp2](args = (%x,)) $\n", "t.fx:3:51: error: unexpected character '$'"},
  };
  char buf[1024];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(buf, sizeof buf, "%s%s", H, cases[i].body);
    parse_err(buf, cases[i].want);
  }
  parse_err("", "t.fx:1:1: error: no graph in the trace");
  parse_err("    %x = placeholder[target=x]\n", "t.fx:1:5: error: node outside a graph");
  parse_err("region_0:graph():\n    return None\nregion_0:graph():\n",
            "t.fx:3:1: error: region 'region_0' is defined twice");
  parse_err("region_0:graph():\n    return None\nregion_1:graph():\n    return None\n",
            "t.fx:3:1: error: two root regions");
  parse_err("region_0:graph():\n    %f = call_function[target=for_loop](args = (0, 1, 1, []), kwargs = {subgraph: "
            "region_1})\n"
            "region_1:graph():\n    %g = call_function[target=for_loop](args = (0, 1, 1, []), kwargs = {subgraph: "
            "region_0})\n",
            "error: no root region");
  {
    static const char nul[] = "region_0:graph():\n    %y = call_function[target=exp2](args = (1,)) \0\n";
    ir_fx *g = NULL;
    ttref_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ir_fx_parse_string("t.fx", nul, sizeof nul - 1, &g, &err), TTREF_E_SYNTAX);
    assert_null(g);
    assert_non_null(strstr(err.msg, "t.fx:2:50: error: NUL byte"));
  }
  char deep[4096];
  strcpy(deep, "region_0:graph():\n    %y = call_function[target=exp2](args = (");
  size_t k = strlen(deep);
  for (int i = 0; i < 1500; i++) deep[k++] = i % 2 ? '[' : '(';
  deep[k] = 0;
  parse_err(deep, "nesting deeper than 200");
}

/* ---- lowering ---------------------------------------------------------------------------------------- */
static void test_fx_lower_softmax(void **state)
{
  (void)state;
  static const char *const syms[] = {"M=4", "K=16", NULL};
  ttref_error err;
  size_t len = 0;
  char *t = lower(SOFTMAX, syms, NULL, IR_FX_OOB_ERROR, &err, &len);
  if (!t) print_error("%s\n", err.msg);
  assert_non_null(t);
  assert_non_null(strstr(t, "tt.func public @k(%input: !tt.ptr<f32>"));
  assert_non_null(strstr(t, "math.exp2"));
  assert_non_null(strstr(t, "arith.maxnumf")); /* vector_max: NaN ignored */
  assert_non_null(strstr(t, "arith.divf"));
  assert_non_null(strstr(t, "tt.assert")); /* bounds are checked by default */
  assert_non_null(strstr(t, "loc(\"vector_max\"(#loc"));
  assert_non_null(strstr(t, "\"t.fx\":6:5"));
  verify_text(t, len);
  ir_free(t, len + 1);
  /* --oob zero: masked, no assert; --dtype changes the pointee */
  static const char *const dts[] = {"input=f16", "output=bf16", NULL};
  t = lower(SOFTMAX, syms, dts, IR_FX_OOB_ZERO, &err, &len);
  assert_non_null(t);
  assert_null(strstr(t, "tt.assert"));
  assert_non_null(strstr(t, "%input: !tt.ptr<f16>"));
  assert_non_null(strstr(t, "%output: !tt.ptr<bf16>"));
  assert_non_null(strstr(t, "arith.truncf")); /* the f16 result is converted for the bf16 buffer */
  verify_text(t, len);
  ir_free(t, len + 1);
  /* K = 100: vectors are padded to 128 lanes; the padding is masked on load and store
   * and holds the identity (NaN for maxnumf, -0 for addf) before each reduction */
  static const char *const odd[] = {"M=3", "K=100", NULL};
  t = lower(SOFTMAX, odd, NULL, IR_FX_OOB_ERROR, &err, &len);
  assert_non_null(t);
  assert_non_null(strstr(t, "tensor<1x128xf32>"));
  assert_non_null(strstr(t, "arith.constant dense<0x7FC00000> : tensor<1x128xf32>"));
  assert_non_null(strstr(t, "arith.constant dense<-0.0> : tensor<1x128xf32>"));
  assert_non_null(strstr(t, "arith.select"));
  verify_text(t, len);
  ir_free(t, len + 1);
}

static void test_fx_lower_loop(void **state)
{
  (void)state;
  static const char *const syms[] = {"R=64", "N=8", "BLOCK=16", NULL};
  ttref_error err;
  size_t len = 0;
  char *t = lower(LOOP, syms, NULL, IR_FX_OOB_ERROR, &err, &len);
  if (!t) print_error("%s\n", err.msg);
  assert_non_null(t);
  assert_non_null(strstr(t, "scf.for"));
  assert_non_null(strstr(t, "iter_args("));
  assert_non_null(strstr(t, "scf.yield"));
  assert_non_null(strstr(t, "arith.constant 4 : i64")); /* R//BLOCK folded */
  const char *a1 = strstr(t, "tt.assert"); /* the load at a runtime row is checked, the store at (0, 0) is not */
  assert_non_null(a1);
  assert_null(strstr(a1 + 1, "tt.assert"));
  verify_text(t, len);
  ir_free(t, len + 1);
  /* a kernel without buffers (found by fuzz_fx: the signature was left unset) */
  t = lower("graph():\n    return None\n", NULL, NULL, IR_FX_OOB_ERROR, &err, &len);
  assert_non_null(t);
  assert_non_null(strstr(t, "tt.func public @k() {"));
  verify_text(t, len);
  ir_free(t, len + 1);
}

static void test_fx_lower_errors_located(void **state)
{
  (void)state;
  static const char *const H = "region_0:graph():\n    %x : InputBuffer[M, N] = placeholder[target=x]\n";
  static const struct {
    const char *body, *want;
  } cases[] = {
      {"    %k = call_function[target=kernel_buffer_load](args = (%x, (0, 0), (0, N)))\n",
       "t.fx:3:5: error: vector shape (0, 8) of %k has an empty dimension"},
      {"    %k = call_function[target=kernel_buffer_load](args = (%x, (0,), (N,)))\n",
       "t.fx:3:63: error: multi_index has 1 indices"},
      {"    %k = call_function[target=kernel_buffer_load](args = (%x, (0, Q), (N,)))\n",
       "t.fx:3:67: error: symbol 'Q' is not bound"},
      {"    %k = call_function[target=kernel_buffer_load](args = (%x, (0, 0), (N,)))\n    %e = "
       "call_function[target=exp2](args = (%k, ))\n"
       "    %s = call_function[target=sub](args = (%e, 1.5))\n    %t = call_function[target=to_dtype](args = (%s, "
       "i32))\n",
       "t.fx:6:31: error: to_dtype f32 -> i32: TK has no float-to-integer conversion"},
      {"    %a = call_function[target=vector_constant](args = ((4, 8), f32, 0.0))\n    %b = "
       "call_function[target=vector_constant](args = ((4,), f32, 0.0))\n"
       "    %c = call_function[target=add](args = (%a, %b))\n",
       "t.fx:5:5: error: operands of %c do not broadcast: (4, 8) and (4,)"},
      {"    %a = call_function[target=vector_constant](args = ((4,), f16, 0.0))\n    %b = "
       "call_function[target=vector_constant](args = ((4,), f32, 0.0))\n"
       "    %c = call_function[target=mul](args = (%a, %b))\n",
       "t.fx:5:31: error: %c: element types differ (f16 and f32)"},
      {"    %a = call_function[target=vector_constant](args = ((4,), i32, 1))\n    %c = "
       "call_function[target=truediv](args = (%a, %a))\n",
       "t.fx:4:31: error: truediv of i32 values is not defined by TK"},
      {"    %a = call_function[target=vector_constant](args = ((4,), i32, 1.5))\n",
       "t.fx:3:67: error: float value for a i32 constant"},
      {"    %a = call_function[target=vector_constant](args = ((4,), f32, 1.0))\n    %m = "
       "call_function[target=vector_max](args = (%a, 2))\n",
       "t.fx:4:55: error: axis 2 is out of range"},
      {"    %a = call_function[target=vector_constant](args = ((4, 4), f32, 1.0))\n    %d = "
       "call_function[target=vector_dot](args = (%a, %a))\n",
       "t.fx:4:31: error: vector_dot needs an accumulator"},
      {"    %a = call_function[target=vector_constant](args = ((4, 4), f32, 1.0))\n    %t = "
       "call_function[target=vector_transpose](args = (%a, (0, 0)))\n",
       "t.fx:4:61: error: not a permutation"},
      {"    %p = call_function[target=thread_program_id](args = (3,))\n",
       "t.fx:3:58: error: program id axis must be 0, 1 or 2"},
      {"    %g = call_function[target=getitem](args = (%x, 0))\n",
       "t.fx:3:48: error: getitem needs the result of a for_loop"},
      {"    %d = call_function[target=floordiv](args = (M, 0))\n",
       "t.fx:3:49: error: division by zero in an index expression"},
      {"    %d = call_function[target=add](args = (1.5, 2))\n",
       "t.fx:3:31: error: %d: arithmetic on two Python numbers"},
      {"    %s = call_function[target=kernel_buffer_getitem](args = (%x, (0, slice(0, 8, 2))))\n",
       "t.fx:3:82: error: slice steps other than 1"},
      {"    %a = call_function[target=vector_constant](args = ((4,), i16, -2147483648))\n",
       "t.fx:3:67: error: integer value -2147483648 does not fit in a i16 constant"},
      {"    %a = call_function[target=vector_constant](args = ((4,), i8, 256))\n",
       "t.fx:3:66: error: integer value 256 does not fit in a i8 constant"},
      {"    %o : OutputBuffer[%x] = placeholder[target=o]\n", "t.fx:3:23: error: '%x' is not an index value"},
      /* missing operands (fuzz_fx found a NULL dereference here): reported at the node's target */
      {"    %k = call_function[target=kernel_buffer_load](args = (%x, (0, 0), (M, N)))\n    %m = "
       "call_function[target=mod](args = (%k,), kwargs = {axis: 1})\n",
       "t.fx:4:31: error: a required operand is missing"},
      {"    %k = call_function[target=kernel_buffer_load](args = (%x, (0, 0), (M, N)))\n    %t = "
       "call_function[target=to_dtype](args = (%k,), kwargs = {type: f32})\n",
       "t.fx:4:31: error: expected a dtype"},
  };
  static const char *const syms[] = {"M=4", "N=8", NULL};
  char buf[2048];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ttref_error err;
    size_t len = 0;
    snprintf(buf, sizeof buf, "%s%s    return None\n", H, cases[i].body);
    char *t = lower(buf, syms, NULL, IR_FX_OOB_ERROR, &err, &len);
    if (t || !strstr(err.msg, cases[i].want)) print_error("case %zu: want '%s', got '%s'\n", i, cases[i].want, err.msg);
    if (t) ir_free(t, len + 1);
    assert_null(t);
    assert_non_null(strstr(err.msg, cases[i].want));
  }
  /* bad bindings */
  ttref_error err;
  size_t len = 0;
  static const char *const bad_sym[] = {"M", NULL};
  assert_null(lower(SOFTMAX, bad_sym, NULL, IR_FX_OOB_ERROR, &err, &len));
  assert_non_null(strstr(err.msg, "--sym M: expected NAME=INTEGER"));
  static const char *const syms2[] = {"M=4", "K=8", NULL};
  static const char *const bad_dt[] = {"nope=f16", NULL};
  assert_null(lower(SOFTMAX, syms2, bad_dt, IR_FX_OOB_ERROR, &err, &len));
  assert_non_null(strstr(err.msg, "no kernel buffer named 'nope'"));
  static const char *const bad_dt2[] = {"input=f17", NULL};
  assert_null(lower(SOFTMAX, syms2, bad_dt2, IR_FX_OOB_ERROR, &err, &len));
  assert_non_null(strstr(err.msg, "unknown dtype 'f17'"));
}

/* ---- allocation failures: every failing allocation gives TTREF_E_NOMEM, no leak ---------------------- */
static void test_fx_oom_every_allocation(void **state)
{
  (void)state;
  static const char *const syms[] = {"R=64", "N=8", "BLOCK=16", NULL};
  unit_alloc_begin(0);
  ttref_error err;
  size_t len = 0;
  char *t = lower(LOOP, syms, NULL, IR_FX_OOB_ERROR, &err, &len);
  assert_non_null(t);
  ir_free(t, len + 1);
  long total = unit_alloc.requests;
  assert_int_equal(unit_alloc.live, 0);
  assert_int_equal(unit_alloc.size_mismatch, 0);
  ttref_set_alloc(NULL, NULL);
  for (long k = 1; k <= total; k++) {
    unit_alloc_begin(k);
    t = lower(LOOP, syms, NULL, IR_FX_OOB_ERROR, &err, &len);
    if (t) ir_free(t, len + 1);
    ttref_set_alloc(NULL, NULL);
    if (t) print_error("request %ld failed, but the lowering succeeded\n", k);
    assert_null(t);
    if (err.code != TTREF_E_NOMEM) print_error("request %ld: %s\n", k, err.msg);
    assert_int_equal(err.code, TTREF_E_NOMEM);
    assert_int_equal(unit_alloc.live, 0);
    assert_int_equal(unit_alloc.size_mismatch, 0);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fx_parse_softmax_structure),
      cmocka_unit_test(test_fx_parse_loop_root_and_capture),
      cmocka_unit_test(test_fx_parse_spellings),
      cmocka_unit_test(test_fx_parse_sniff),
      cmocka_unit_test(test_fx_parse_errors_located),
      cmocka_unit_test(test_fx_lower_softmax),
      cmocka_unit_test(test_fx_lower_loop),
      cmocka_unit_test(test_fx_lower_errors_located),
      cmocka_unit_test(test_fx_oom_every_allocation),
  };
  return cmocka_run_group_tests_name("test_fx", tests, NULL, NULL);
}
