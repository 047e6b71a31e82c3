/*
 * conform_reply.c: classifies batch-adapter reply lines. A reply counts only
 * when it names the case directory in flight, so a stray log line, a late
 * or doubled reply, or a fragment of an over-long line never stands in for
 * the answer of another case.
 */
#include "config.h"
#include "conform_reply.h"

#include <stdbool.h>
#include <string.h>

static bool word_is(const char *w, size_t wl, const char *lit) { return wl == strlen(lit) && memcmp(w, lit, wl) == 0; }

/* reply -> ("ok" | "unsupported" | "error") " " CASE_DIR [" " reason] */
conform_reply_kind conform_reply_parse(const char *line, size_t len, const char *dir, const char **out_reason)
{
  const char *sp = memchr(line, ' ', len);
  size_t wl = sp ? (size_t)(sp - line) : len, dl = strlen(dir);
  bool known = word_is(line, wl, "ok") || word_is(line, wl, "unsupported") || word_is(line, wl, "error");
  *out_reason = "";
  if (!sp) return CONFORM_REPLY_NOISE;
  const char *rest = sp + 1;
  size_t rl = len - wl - 1;
  if (dl > 0 && rl >= dl && memcmp(rest, dir, dl) == 0 && (rl == dl || rest[dl] == ' ')) {
    if (!known) return CONFORM_REPLY_BAD;
    if (rl > dl) *out_reason = rest + dl + 1;
    if (word_is(line, wl, "ok")) return CONFORM_REPLY_OK;
    return word_is(line, wl, "error") ? CONFORM_REPLY_ERROR : CONFORM_REPLY_UNSUPPORTED;
  }
  /* the reply form with another absolute directory: a late or second answer */
  return known && rl > 0 && rest[0] == '/' ? CONFORM_REPLY_OTHER : CONFORM_REPLY_NOISE;
}
