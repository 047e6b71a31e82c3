/*
 * fuzz_suite.c: libFuzzer target for the conformance suite loader. Each input
 * is one case file (YAML, docs/suite-format.md); it is written as case.yaml
 * into a scratch suite directory whose kernels/ holds a copy of the core
 * suite's kernels (so most kernel: paths resolve and the case is validated
 * against a real signature), then loaded with conform_suite_load. Any status
 * is fine; a crash, sanitizer report, leak or hang is a bug.
 * Build and run: scripts/fuzz.sh (FUZZ_SUITE_DIR names the kernels' suite).
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conform_suite.h"

#ifndef FUZZ_SUITE_DIR
#define FUZZ_SUITE_DIR "conformance/suite/core"
#endif

static char scratch[256], case_path[300];

static void copy_file(const char *from, const char *to)
{
  FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
  char buf[65536];
  size_t n;
  while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  if (in) fclose(in);
  if (out) fclose(out);
}

/* remove the scratch suite at exit */
static void cleanup(void)
{
  char kdir[300], path[1024];
  snprintf(kdir, sizeof kdir, "%s/kernels", scratch);
  DIR *d = opendir(kdir);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", kdir, e->d_name);
    remove(path);
  }
  if (d) closedir(d);
  remove(kdir);
  remove(case_path);
  remove(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  char kdir[300], src[1024], dst[1024];
  snprintf(scratch, sizeof scratch, "/tmp/ttref-fuzz-suite.XXXXXX");
  if (!mkdtemp(scratch)) abort();
  snprintf(kdir, sizeof kdir, "%s/kernels", scratch);
  mkdir(kdir, 0700);
  DIR *d = opendir(FUZZ_SUITE_DIR "/kernels");
  for (struct dirent *e; d && (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    snprintf(src, sizeof src, "%s/kernels/%s", FUZZ_SUITE_DIR, e->d_name);
    snprintf(dst, sizeof dst, "%s/%s", kdir, e->d_name);
    copy_file(src, dst);
  }
  if (d) closedir(d);
  snprintf(case_path, sizeof case_path, "%s/case.yaml", scratch);
  atexit(cleanup);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > 65536) return 0;
  FILE *f = fopen(case_path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  conform_suite *s = NULL;
  ttref_error e;
  memset(&e, 0, sizeof e);
  if (conform_suite_load(case_path, &s, &e) == TTREF_OK) conform_suite_free(s);
  return 0;
}
