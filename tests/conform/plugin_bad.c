/*
 * plugin_bad.c: broken backend plugins for tests/conform/test_conform.sh.
 * -DBAD_ABI reports ABI version 99; -DNO_ENTRY exports no
 * ttref_backend_get_api; otherwise $TTREF_TEST_PLUGIN picks the behaviour:
 * "crash" (segfault on vadd cases, unsupported otherwise), "hang",
 * "init-fail" (init returns 7), anything else: unsupported.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttref_backend.h"

static int init(void **ctx)
{
  const char *mode = getenv("TTREF_TEST_PLUGIN");
  *ctx = NULL;
  return mode && strcmp(mode, "init-fail") == 0 ? 7 : TTREF_BACKEND_OK;
}

static int run_case(void *ctx, const char *kernel, const char *case_yaml, const ttref_backend_tensor *inputs,
                    int ninputs, ttref_backend_tensor *outputs, int noutputs)
{
  const char *mode = getenv("TTREF_TEST_PLUGIN");
  (void)ctx, (void)kernel, (void)inputs, (void)ninputs, (void)outputs, (void)noutputs;
  if (mode && strcmp(mode, "crash") == 0 && strstr(case_yaml, "/vadd")) {
    signal(SIGSEGV, SIG_DFL); /* a real fault, even under a sanitizer's handler */
    *(volatile int *)(uintptr_t)8 = 1;
  }
  if (mode && strcmp(mode, "hang") == 0)
    for (;;) pause();
  return TTREF_BACKEND_UNSUPPORTED;
}

#ifdef BAD_ABI
#define ABI 99
#else
#define ABI TTREF_BACKEND_ABI_VERSION
#endif

static const ttref_backend_api api = {ABI, "plugin_bad", "plugin_bad 0", init, run_case, NULL};

#ifdef NO_ENTRY
const ttref_backend_api *backend_get_api(void);
const ttref_backend_api *backend_get_api(void)
#else
const ttref_backend_api *ttref_backend_get_api(void)
#endif
{
  return &api;
}
