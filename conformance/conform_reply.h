/*
 * conform_reply.h: the reply lines of batch adapters and plugin hosts
 * (docs/adapter-protocol.md): "ok|unsupported|error CASE_DIR [reason]",
 * classified against the case directory in flight. Pure: no I/O, so a
 * libFuzzer target (tests/fuzz/fuzz_reply.c) drives it alone.
 * Ownership: every argument is borrowed; *out_reason points into the line.
 */
#ifndef CONFORM_REPLY_H
#define CONFORM_REPLY_H

#include <stddef.h>

/** What one line from a batch adapter or plugin host is, for the case directory in flight. */
typedef enum conform_reply_kind {
  CONFORM_REPLY_OK,          /* "ok DIR" */
  CONFORM_REPLY_UNSUPPORTED, /* "unsupported DIR [reason]" */
  CONFORM_REPLY_ERROR,       /* "error DIR [reason]" */
  CONFORM_REPLY_OTHER,       /* a well-formed reply for another directory (late or doubled): ignored */
  CONFORM_REPLY_NOISE,       /* not a protocol line (a log line on stdout): ignored */
  CONFORM_REPLY_BAD          /* names DIR with an unknown word: a protocol error */
} conform_reply_kind;

/**
 * Classify the @p len bytes of @p line (no newline; may hold NULs) as a reply
 * for the case directory @p dir (NUL-terminated; "" matches nothing). For
 * OK, UNSUPPORTED and ERROR, *out_reason points into @p line just after DIR
 * and one space (its length is len - (*out_reason - line)), or at a static
 * "" when there is no reason; otherwise it is "".
 */
conform_reply_kind conform_reply_parse(const char *line, size_t len, const char *dir, const char **out_reason);

#endif
