/*
 * conform_sha256.h: SHA-256 (FIPS 180-4) of byte strings and files, for the
 * golden MANIFEST.
 * Ownership: nothing is allocated; a conform_sha256 context is caller storage.
 */
#ifndef CONFORM_SHA256_H
#define CONFORM_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include "ttref.h"

typedef struct conform_sha256 {
  uint32_t h[8];
  uint64_t nbytes; /* total bytes hashed so far */
  uint8_t buf[64];
  size_t nbuf;
} conform_sha256;

/** Start a new hash in @p c. */
void conform_sha256_init(conform_sha256 *c);
/** Hash @p n more bytes of @p data (borrowed). */
void conform_sha256_update(conform_sha256 *c, const void *data, size_t n);
/** Finish: the 32-byte digest into @p out; @p c must be re-initialised to reuse. */
void conform_sha256_final(conform_sha256 *c, uint8_t out[32]);
/** The digest of @p data as 64 lowercase hex digits plus NUL into @p hex. */
void conform_sha256_hex(const void *data, size_t n, char hex[65]);
/**
 * Hash the file at @p path into @p hex (64 hex digits + NUL).
 * @return TTREF_OK or TTREF_E_IO (err names the file).
 */
ttref_status conform_sha256_file(const char *path, char hex[65], ttref_error *err);

#endif
