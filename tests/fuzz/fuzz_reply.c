/*
 * fuzz_reply.c: libFuzzer target for the batch-adapter reply classifier
 * (conformance/conform_reply.c). The input is "DIR\nLINE": LINE is classified
 * against DIR and the result checked against the protocol's definition; then
 * the three well-formed replies for DIR must be recognised. Built by
 * scripts/fuzz.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform_reply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *nl = memchr(data, '\n', size);
  size_t dl = nl ? (size_t)(nl - (const char *)data) : 0;
  char *dir = malloc(dl + 1), *line;
  const char *reason;
  if (!dir) abort();
  memcpy(dir, data, dl);
  dir[dl] = 0;
  dl = strlen(dir); /* a NUL in the directory cuts it */
  size_t len = nl ? size - (size_t)(nl - (const char *)data) - 1 : size;
  line = malloc(len + 1);
  if (!line) abort();
  memcpy(line, nl ? nl + 1 : (const char *)data, len);
  line[len] = 0;
  conform_reply_kind k = conform_reply_parse(line, len, dir, &reason);
  if (k == CONFORM_REPLY_OK || k == CONFORM_REPLY_UNSUPPORTED || k == CONFORM_REPLY_ERROR || k == CONFORM_REPLY_BAD) {
    /* the reply names DIR exactly, after the first space */
    const char *sp = memchr(line, ' ', len);
    if (!sp || dl == 0 || (size_t)(line + len - (sp + 1)) < dl || memcmp(sp + 1, dir, dl) != 0) abort();
    if (sp + 1 + dl < line + len && sp[1 + dl] != ' ') abort();
    if (reason[0] && (reason < line || reason > line + len)) abort();
  } else if (reason[0]) {
    abort();
  }
  if (dl > 0 && dl < 4000 && !memchr(dir, '\n', dl)) { /* the well-formed replies are recognised */
    static const char *const words[] = {"ok", "unsupported", "error"};
    static const conform_reply_kind kinds[] = {CONFORM_REPLY_OK, CONFORM_REPLY_UNSUPPORTED, CONFORM_REPLY_ERROR};
    char *msg = malloc(dl + 32);
    if (!msg) abort();
    for (int w = 0; w < 3; w++) {
      size_t n = (size_t)snprintf(msg, dl + 32, "%s %s why", words[w], dir);
      if (conform_reply_parse(msg, n, dir, &reason) != kinds[w] || strcmp(reason, "why") != 0) abort();
      n = (size_t)snprintf(msg, dl + 32, "%s %s", words[w], dir);
      if (conform_reply_parse(msg, n, dir, &reason) != kinds[w] || reason[0]) abort();
    }
    free(msg);
  }
  free(line);
  free(dir);
  return 0;
}
