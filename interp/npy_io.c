/*
 * npy_io.c: NumPy .npy reader and writer. A small parser for the header's
 * Python dict literal, size checks against the real file size before any
 * data buffer is allocated, byte swapping and Fortran-to-C transposition.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat under -std=c11 */
#include "npy_io.h"
#include "ir_base.h"
#include "ir_base_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC          "\x93NUMPY"
#define MAGIC_LEN      6
#define ARRAY_ALIGN    64         /* numpy's data alignment */
#define GROWTH_DIGITS  21         /* numpy pads the header for this many digits of dim 0 */
#define MAX_HEADER_LEN (1u << 20) /* real headers are < 1 KiB; bounds the header buffer */
#define STREAM_CHUNK   ((size_t)1 << 20)
#define STR_CAP        32
#define MAP_ALIGN      16 /* npy_read_map: the data offset's alignment (malloc's) */

static const ttref_loc no_loc = {NULL, 0, 0};

/* What the header says, after validation. */
typedef struct header_info {
  char kind;
  int elsize;
  int swap;    /* data byte order differs from the host's */
  int fortran; /* fortran_order: True */
  int rank;
  int64_t shape[NPY_MAX_RANK];
  int64_t numel;
  size_t nbytes;
} header_info;

/* Where the bytes come from: a FILE or a memory buffer. */
typedef struct source {
  const char *name;
  FILE *f;
  const unsigned char *buf;
  size_t len, pos;
  int64_t size; /* total bytes; -1 when unknown (pipe, character device) */
  bool bounded; /* npy_read_bounded: the data may not exceed max_data */
  size_t max_data;
  bool mappable; /* npy_read_map: a regular file whose data may be mapped */
  uint64_t dev, ino;
} source;

/* Cursor over the header text. */
typedef struct lexer {
  const char *name;
  const char *s;
  size_t n, i;
  int allow_long; /* accept Python 2 "3L" dims (versions 1.0 and 2.0) */
  ttref_error *err;
} lexer;

static int host_is_le(void)
{
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

static int valid_dtype(char kind, int elsize)
{
  switch (kind) {
  case 'b': return elsize == 1;
  case 'i':
  case 'u': return elsize == 1 || elsize == 2 || elsize == 4 || elsize == 8;
  case 'f': return elsize == 2 || elsize == 4 || elsize == 8;
  default: return 0;
  }
}

/*
 * numel and nbytes of a shape. Returns 0, 1 for a negative dim, 2 when the
 * byte count does not fit in both int64_t and size_t.
 */
static int shape_size(int rank, const int64_t *shape, int elsize, int64_t *numel, size_t *nbytes)
{
  int64_t n = 1;
  int zero = 0;
  for (int d = 0; d < rank; d++) {
    if (shape[d] < 0) return 1;
    if (shape[d] == 0) zero = 1;
  }
  if (!zero) /* a zero dim makes any product of the others harmless */
    for (int d = 0; d < rank; d++) {
      if (n > INT64_MAX / shape[d]) return 2;
      n *= shape[d];
    }
  else n = 0;
  uint64_t limit = (uint64_t)INT64_MAX < (uint64_t)SIZE_MAX ? (uint64_t)INT64_MAX : (uint64_t)SIZE_MAX;
  if ((uint64_t)n > limit / (uint64_t)elsize) return 2;
  *numel = n;
  *nbytes = (size_t)n * (size_t)elsize;
  return 0;
}

static void swap_bytes(void *data, size_t numel, int elsize)
{
  unsigned char *p = data;
  for (size_t k = 0; k < numel; k++, p += elsize)
    for (int a = 0, b = elsize - 1; a < b; a++, b--) {
      unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

/* ---- header parser ---- */

static ttref_status malformed(lexer *lx, const char *what)
{
  return ir_error_set(lx->err, TTREF_E_INPUT, no_loc, "%s: malformed header: %s at offset %zu", lx->name, what, lx->i);
}

static int peek(const lexer *lx) { return lx->i < lx->n ? (unsigned char)lx->s[lx->i] : -1; }

static void skip_ws(lexer *lx)
{
  for (int c; (c = peek(lx)) == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';) lx->i++;
}

static int accept(lexer *lx, int c)
{
  skip_ws(lx);
  if (peek(lx) != c) return 0;
  lx->i++;
  return 1;
}

/* string -> "'" chars "'" | '"' chars '"'   (no escapes, at most STR_CAP-1 chars) */
static ttref_status parse_string(lexer *lx, char out[STR_CAP])
{
  skip_ws(lx);
  int q = peek(lx);
  if (q != '\'' && q != '"') return malformed(lx, "expected a quoted string");
  size_t start = ++lx->i, len;
  while (lx->i < lx->n && lx->s[lx->i] != q) {
    if (lx->s[lx->i] == '\\' || lx->s[lx->i] == '\n') return malformed(lx, "unsupported character in string");
    if ((unsigned char)lx->s[lx->i] < 0x20) return malformed(lx, "control character (e.g. NUL) in string");
    lx->i++;
  }
  if (lx->i >= lx->n) return malformed(lx, "unterminated string");
  len = lx->i - start;
  if (len >= STR_CAP) return malformed(lx, "string too long");
  memcpy(out, lx->s + start, len);
  out[len] = 0;
  lx->i++;
  return TTREF_OK;
}

/* bool -> "True" | "False" */
static ttref_status parse_bool(lexer *lx, int *out)
{
  skip_ws(lx);
  size_t left = lx->n - lx->i;
  if (left >= 4 && !memcmp(lx->s + lx->i, "True", 4)) {
    *out = 1;
    lx->i += 4;
  } else if (left >= 5 && !memcmp(lx->s + lx->i, "False", 5)) {
    *out = 0;
    lx->i += 5;
  } else return malformed(lx, "fortran_order is not True or False");
  int c = peek(lx);
  if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
    return malformed(lx, "fortran_order is not True or False");
  return TTREF_OK;
}

/* dim -> ["+" | "-"] digits ["L"] */
static ttref_status parse_dim(lexer *lx, int64_t *out)
{
  int neg = 0, ndig = 0;
  uint64_t v = 0;
  int big = 0;
  skip_ws(lx);
  size_t start = lx->i;
  if (peek(lx) == '-' || peek(lx) == '+') neg = lx->s[lx->i++] == '-';
  while (peek(lx) >= '0' && peek(lx) <= '9') {
    unsigned dig = (unsigned)(lx->s[lx->i++] - '0');
    if (v > ((uint64_t)INT64_MAX - dig) / 10) big = 1;
    else v = v * 10 + dig;
    ndig++;
  }
  if (ndig && lx->allow_long && peek(lx) == 'L') lx->i++;
  int c = peek(lx);
  if (!ndig || c == '.' || c == '_' || c == 'e' || c == 'E' || c == 'j' || c == 'x' || (c >= 'a' && c <= 'z') ||
      (c >= 'A' && c <= 'Z') || c == '\'' || c == '"')
    return ir_error_set(lx->err, TTREF_E_INPUT, no_loc, "%s: shape has a non-integer dimension at offset %zu", lx->name,
                        lx->i);
  if (neg && (v || big))
    return ir_error_set(lx->err, TTREF_E_INPUT, no_loc, "%s: shape has a negative dimension %.*s", lx->name,
                        (int)(lx->i - start > 24 ? 24 : lx->i - start), lx->s + start);
  if (big)
    return ir_error_set(lx->err, TTREF_E_LIMIT, no_loc, "%s: shape has a dimension larger than 2^63-1", lx->name);
  *out = (int64_t)v;
  return TTREF_OK;
}

/* shape -> "(" ")" | "(" dim "," ")" | "(" dim ("," dim)+ [","] ")" */
static ttref_status parse_shape(lexer *lx, header_info *h)
{
  ttref_status st = TTREF_OK;
  int commas = 0;
  if (!accept(lx, '(')) FAIL(malformed(lx, "shape is not a tuple"));
  h->rank = 0;
  while (!accept(lx, ')')) {
    int64_t dim = 0;
    if (h->rank > 0 && !accept(lx, ',')) FAIL(malformed(lx, "expected ',' or ')' in shape"));
    if (h->rank > 0) commas++;
    if (h->rank > 0 && accept(lx, ')')) break; /* trailing comma */
    TRY(parse_dim(lx, &dim));
    if (h->rank == NPY_MAX_RANK)
      FAIL(ir_error_set(lx->err, TTREF_E_LIMIT, no_loc, "%s: shape has more than %d dimensions (rank > %d)", lx->name,
                        NPY_MAX_RANK, NPY_MAX_RANK));
    h->shape[h->rank++] = dim;
  }
  if (h->rank == 1 && commas == 0) FAIL(malformed(lx, "shape (n) is not a tuple (needs a trailing comma)"));
fail:
  return st;
}

/* Decode a descr string into kind/elsize/swap. */
static ttref_status decode_descr(lexer *lx, const char *d, header_info *h)
{
  const char *p = d;
  char order = '=';
  static const char *const unsupported[][2] = {
      {"c", "complex"},     {"O", "object"},          {"U", "unicode string"}, {"S", "byte string"},
      {"a", "byte string"}, {"V", "void/structured"}, {"M", "datetime"},       {"m", "timedelta"},
  };
  if (*p && strchr("<>|=", *p)) order = *p++;
  char t = *p ? *p++ : 0;
  int size = 0, ndig = 0;
  while (*p >= '0' && *p <= '9' && ndig < 3) size = size * 10 + (*p++ - '0'), ndig++;
  if (t && ndig && !*p && (t == 'b' || t == 'i' || t == 'u' || t == 'f') && valid_dtype(t, size)) {
    h->kind = t;
    h->elsize = size;
    h->swap = size > 1 && ((order == '>' && host_is_le()) || (order == '<' && !host_is_le()));
    return TTREF_OK;
  }
  for (size_t k = 0; t && k < sizeof unsupported / sizeof unsupported[0]; k++)
    if (t == unsupported[k][0][0])
      return ir_error_set(lx->err, TTREF_E_INPUT, no_loc, "%s: unsupported descr '%s' (%s dtype)", lx->name, d,
                          unsupported[k][1]);
  return ir_error_set(lx->err, TTREF_E_INPUT, no_loc,
                      "%s: unknown or unsupported descr '%s' (expected bool, int, uint or float)", lx->name, d);
}

/* header -> "{" [entry ("," entry)* [","]] "}" ; entry -> string ":" value */
static ttref_status parse_header(lexer *lx, header_info *h)
{
  ttref_status st = TTREF_OK;
  int seen_descr = 0, seen_fortran = 0, seen_shape = 0;
  char key[STR_CAP], descr[STR_CAP];
  if (!accept(lx, '{')) FAIL(malformed(lx, "header is not a dict (expected '{')"));
  for (int first = 1; !accept(lx, '}'); first = 0) {
    if (!first && !accept(lx, ',')) FAIL(malformed(lx, "expected ',' or '}' in dict"));
    if (!first && accept(lx, '}')) break; /* trailing comma */
    TRY(parse_string(lx, key));
    if (!accept(lx, ':')) FAIL(malformed(lx, "expected ':' after key"));
    if (!strcmp(key, "descr")) {
      if (seen_descr++) FAIL(malformed(lx, "duplicate key 'descr'"));
      skip_ws(lx);
      if (peek(lx) == '[')
        FAIL(ir_error_set(lx->err, TTREF_E_INPUT, no_loc, "%s: unsupported descr (structured dtype given as a list)",
                          lx->name));
      TRY(parse_string(lx, descr));
    } else if (!strcmp(key, "fortran_order")) {
      if (seen_fortran++) FAIL(malformed(lx, "duplicate key 'fortran_order'"));
      TRY(parse_bool(lx, &h->fortran));
    } else if (!strcmp(key, "shape")) {
      if (seen_shape++) FAIL(malformed(lx, "duplicate key 'shape'"));
      TRY(parse_shape(lx, h));
    } else {
      FAIL(ir_error_set(lx->err, TTREF_E_INPUT, no_loc, "%s: malformed header: unknown key '%s'", lx->name, key));
    }
  }
  skip_ws(lx);
  if (lx->i != lx->n) FAIL(malformed(lx, "unexpected characters after the dict"));
  if (!seen_descr || !seen_fortran || !seen_shape)
    FAIL(ir_error_set(lx->err, TTREF_E_INPUT, no_loc, "%s: malformed header: missing key '%s'", lx->name,
                      !seen_descr     ? "descr"
                      : !seen_fortran ? "fortran_order"
                                      : "shape"));
  TRY(decode_descr(lx, descr, h));
  switch (shape_size(h->rank, h->shape, h->elsize, &h->numel, &h->nbytes)) {
  case 0: break;
  default:
    FAIL(ir_error_set(lx->err, TTREF_E_LIMIT, no_loc, "%s: shape is too large: numel * elsize overflows", lx->name));
  }
fail:
  return st;
}

/* ---- byte sources ---- */

/* Read up to n bytes; *got < n only at end of input. */
static ttref_status src_read(source *s, void *dst, size_t n, size_t *got, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  if (s->f) {
    *got = fread(dst, 1, n, s->f);
    if (*got < n && ferror(s->f))
      FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: read error: %s", s->name, strerror(errno)));
  } else {
    size_t left = s->len - s->pos;
    *got = n < left ? n : left;
    if (*got) memcpy(dst, s->buf + s->pos, *got);
  }
  s->pos += *got;
fail:
  return st;
}

static ttref_status claims_too_much(source *s, size_t claimed, uint64_t have, ttref_error *err)
{
  return ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: header claims %zu bytes of data but the file has %llu", s->name,
                      claimed, (unsigned long long)have);
}

/*
 * Read n data bytes from a source of unknown size: the buffer grows with
 * what actually arrives, so a lying header cannot make us allocate much.
 */
static ttref_status read_stream_data(source *s, size_t n, void **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  size_t cap = n < STREAM_CHUNK ? n : STREAM_CHUNK, have = 0, got = 0;
  unsigned char *buf = ir_alloc(cap);
  if (!buf) FAIL(ir_error_set(err, TTREF_E_NOMEM, no_loc, "%s: out of memory", s->name));
  for (;;) {
    TRY(src_read(s, buf + have, cap - have, &got, err));
    have += got;
    if (have == n) break;
    if (have < cap) FAIL(claims_too_much(s, n, have, err));
    size_t ncap = cap <= n / 2 ? cap * 2 : n;
    unsigned char *nb = ir_realloc(buf, cap, ncap);
    if (!nb) FAIL(ir_error_set(err, TTREF_E_NOMEM, no_loc, "%s: out of memory", s->name));
    buf = nb;
    cap = ncap;
  }
  *out = buf;
  buf = NULL;
fail:
  ir_free(buf, cap);
  return st;
}

/*
 * Map the file from offset 0 through the end of the n data bytes at s->pos, private and
 * writable, into out->map/map_len/data. False (nothing mapped) when mmap fails: the caller reads.
 */
static bool map_data(source *s, size_t n, npy_array *out)
{
  if (s->pos > SIZE_MAX - n) return false;
  const size_t len = s->pos + n;
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fileno(s->f), 0);
  if (p == MAP_FAILED) return false;
  out->map = p;
  out->map_len = len;
  void *v = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fileno(s->f), 0); /* the pristine bytes: optional */
  out->view = v == MAP_FAILED ? NULL : v;
  out->map_dev = s->dev;
  out->map_ino = s->ino;
  out->data = (unsigned char *)p + s->pos;
  return true;
}

void npy_unmap(void *map, size_t len)
{
  if (map) munmap(map, len);
}

void npy_release_maps(npy_array *a)
{
  if (!a) return;
  npy_unmap(a->map, a->map_len);
  npy_unmap(a->view, a->map_len);
  a->map = a->view = NULL;
  a->map_len = 0;
}

/* Transpose Fortran-order data in a->data to C order. */
static ttref_status fortran_to_c(npy_array *a, ttref_error *err, const char *name)
{
  ttref_status st = TTREF_OK;
  unsigned char *dst = NULL;
  const unsigned char *src = a->data;
  int64_t fstride[NPY_MAX_RANK], idx[NPY_MAX_RANK] = {0}, off = 0;
  const size_t es = (size_t)a->elsize;
  if (a->rank < 2 || a->numel == 0) return TTREF_OK;
  dst = ir_alloc(a->nbytes);
  if (!dst) FAIL(ir_error_set(err, TTREF_E_NOMEM, no_loc, "%s: out of memory", name));
  fstride[0] = 1;
  for (int d = 1; d < a->rank; d++) fstride[d] = fstride[d - 1] * a->shape[d - 1];
  for (int64_t k = 0; k < a->numel; k++) {
    memcpy(dst + (size_t)k * es, src + (size_t)off * es, es);
    for (int d = a->rank - 1; d >= 0; d--) { /* odometer, last axis fastest */
      off += fstride[d];
      if (++idx[d] < a->shape[d]) break;
      off -= fstride[d] * a->shape[d];
      idx[d] = 0;
    }
  }
  ir_free(a->data, a->nbytes);
  a->data = dst;
  dst = NULL;
fail:
  return st;
}

static ttref_status read_npy(source *s, npy_array *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  unsigned char pre[8 + 4];
  char *hdr = NULL;
  size_t got = 0, lenbytes, hlen = 0;
  void *data = NULL;
  header_info h;
  lexer lx;
  memset(&h, 0, sizeof h);

  /* magic -> "\x93NUMPY" major minor hlen(le16 | le32) */
  TRY(src_read(s, pre, 8, &got, err));
  if (got < MAGIC_LEN && !memcmp(pre, MAGIC, got))
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: not a .npy file: %zu bytes, too short for the magic string",
                      s->name, got));
  if (got < MAGIC_LEN || memcmp(pre, MAGIC, MAGIC_LEN))
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: not a .npy file: bad magic string", s->name));
  if (got < 8)
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: truncated .npy preamble: no format version", s->name));
  if (pre[6] < 1 || pre[6] > 3 || pre[7] != 0)
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: unknown .npy format version %d.%d", s->name, pre[6], pre[7]));
  lenbytes = pre[6] == 1 ? 2 : 4;
  TRY(src_read(s, pre + 8, lenbytes, &got, err));
  if (got < lenbytes)
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: truncated .npy preamble: no header length", s->name));
  for (size_t k = lenbytes; k-- > 0;) hlen = hlen << 8 | pre[8 + k];
  if (s->size >= 0 && (uint64_t)hlen > (uint64_t)s->size - s->pos)
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: header length %zu goes beyond the end of the file (%lld bytes)",
                      s->name, hlen, (long long)s->size));
  if (hlen > MAX_HEADER_LEN)
    FAIL(ir_error_set(err, TTREF_E_LIMIT, no_loc, "%s: header length %zu exceeds the limit of %u", s->name, hlen,
                      MAX_HEADER_LEN));
  hdr = ir_alloc(hlen + 1);
  if (!hdr) FAIL(ir_error_set(err, TTREF_E_NOMEM, no_loc, "%s: out of memory", s->name));
  TRY(src_read(s, hdr, hlen, &got, err));
  if (got < hlen)
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: truncated header: %zu of %zu bytes", s->name, got, hlen));

  lx = (lexer){s->name, hdr, hlen, 0, pre[6] <= 2, err};
  TRY(parse_header(&lx, &h));
  if (s->bounded && h.nbytes > s->max_data) /* refused from the header, before reading any data */
    FAIL(ir_error_set(err, TTREF_E_LIMIT, no_loc, "%s: header claims %zu bytes of data, expected %zu", s->name,
                      h.nbytes, s->max_data));

  if (s->size >= 0 && (uint64_t)h.nbytes > (uint64_t)s->size - s->pos)
    FAIL(claims_too_much(s, h.nbytes, (uint64_t)s->size - s->pos, err));
  if (h.nbytes > 0) {
    if (s->mappable && s->f && !h.swap && (!h.fortran || h.rank < 2) && h.nbytes >= NPY_MAP_MIN &&
        s->pos % MAP_ALIGN == 0 && map_data(s, h.nbytes, out)) {
      data = NULL; /* mapped: out->data points into out->map */
    } else if (s->size >= 0) {
      data = ir_alloc(h.nbytes);
      if (!data) FAIL(ir_error_set(err, TTREF_E_NOMEM, no_loc, "%s: out of memory", s->name));
      TRY(src_read(s, data, h.nbytes, &got, err));
      if (got < h.nbytes) FAIL(claims_too_much(s, h.nbytes, got, err)); /* shrank under us */
    } else {
      TRY(read_stream_data(s, h.nbytes, &data, err));
    }
  }
  if (h.swap) swap_bytes(data, (size_t)h.numel, h.elsize);

  out->kind = h.kind;
  out->elsize = h.elsize;
  out->rank = h.rank;
  memcpy(out->shape, h.shape, sizeof h.shape);
  out->numel = h.numel;
  if (!out->map) out->data = data;
  out->nbytes = h.nbytes;
  data = NULL;
  if (h.fortran) TRY(fortran_to_c(out, err, s->name));
fail:
  if (st != TTREF_OK) npy_free(out);
  ir_free(data, h.nbytes);
  ir_free(hdr, hlen + 1);
  return st;
}

/* How open_source opens a path. */
typedef enum open_how {
  OPEN_STREAM,  /* npy_read: any readable stream (a pipe too); a regular file's size is known */
  OPEN_MAP,     /* npy_read_map: the same, and a regular file's data may be mapped */
  OPEN_REGULAR, /* npy_read_bounded: a regular file only, never through a symlink, never waiting on a FIFO */
} open_how;

/* Open @p path into s->f (the caller fcloses it), with s->size (and the file's identity for OPEN_MAP). */
static ttref_status open_source(source *s, const char *path, open_how how, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  struct stat sb;
  int fd = -1;
  if (how == OPEN_REGULAR) {
    TRY(ir_fs_open_regular(path, s->name, IR_FS_NAME_FIRST, &fd, &s->size, err));
    s->f = fdopen(fd, "rb");
    if (!s->f) FAIL(ir_error_set(err, TTREF_E_NOMEM, no_loc, "%s: cannot open: %s", s->name, strerror(errno)));
    fd = -1;
    goto fail;
  }
  s->f = fopen(path, "rb");
  if (!s->f) FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: cannot open: %s", s->name, strerror(errno)));
  if (fstat(fileno(s->f), &sb) != 0)
    FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: cannot stat: %s", s->name, strerror(errno)));
  if (S_ISREG(sb.st_mode)) { /* a directory fails at fread (EISDIR) */
    s->size = (int64_t)sb.st_size;
    s->mappable = how == OPEN_MAP;
    s->dev = (uint64_t)sb.st_dev;
    s->ino = (uint64_t)sb.st_ino;
  }
fail:
  if (fd >= 0) close(fd);
  return st;
}

/* The three path readers: open, read, close (a mapping outlives its descriptor). */
static ttref_status read_path(source *s, const char *path, open_how how, npy_array *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  memset(out, 0, sizeof *out);
  TRY(open_source(s, path, how, err));
  TRY(read_npy(s, out, err));
fail:
  if (s->f) fclose(s->f);
  return st;
}

ttref_status npy_read(const char *path, npy_array *out, ttref_error *err)
{
  source s = {path, NULL, NULL, 0, 0, -1, false, 0, false, 0, 0};
  if (!out || !path) return ir_error_set(err, TTREF_E_USAGE, no_loc, "npy_read: NULL argument");
  return read_path(&s, path, OPEN_STREAM, out, err);
}

ttref_status npy_read_map(const char *path, npy_array *out, ttref_error *err)
{
  source s = {path, NULL, NULL, 0, 0, -1, false, 0, false, 0, 0};
  if (!out || !path) return ir_error_set(err, TTREF_E_USAGE, no_loc, "npy_read_map: NULL argument");
  return read_path(&s, path, OPEN_MAP, out, err);
}

ttref_status npy_read_bounded(const char *path, const char *name, size_t max_data, npy_array *out, ttref_error *err)
{
  source s = {name ? name : path, NULL, NULL, 0, 0, -1, true, max_data, false, 0, 0};
  if (!out || !path) return ir_error_set(err, TTREF_E_USAGE, no_loc, "npy_read_bounded: NULL argument");
  return read_path(&s, path, OPEN_REGULAR, out, err);
}

ttref_status npy_read_mem(const char *name, const void *buf, size_t len, npy_array *out, ttref_error *err)
{
  source s = {name ? name : "<memory>", NULL, buf, len, 0, (int64_t)len, false, 0, false, 0, 0};
  if (!out || (!buf && len)) return ir_error_set(err, TTREF_E_USAGE, no_loc, "npy_read_mem: NULL argument");
  memset(out, 0, sizeof *out);
  return read_npy(&s, out, err);
}

/* ---- writer ---- */

const char *npy_descr(const npy_array *a, char buf[8])
{
  if (!a || !valid_dtype(a->kind, a->elsize)) return "<invalid>";
  snprintf(buf, 8, "%c%c%d", a->elsize == 1 ? '|' : '<', a->kind, a->elsize);
  return buf;
}

/* Check that a is a consistent array. */
static ttref_status check_array(const npy_array *a, const char *name, ttref_error *err)
{
  int64_t numel = 0;
  size_t nbytes = 0;
  if (!valid_dtype(a->kind, a->elsize))
    return ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: invalid dtype kind '%c' elsize %d", name,
                        a->kind ? a->kind : '?', a->elsize);
  if (a->rank < 0 || a->rank > NPY_MAX_RANK)
    return ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: rank %d is outside 0..%d", name, a->rank, NPY_MAX_RANK);
  switch (shape_size(a->rank, a->shape, a->elsize, &numel, &nbytes)) {
  case 1: return ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: negative dimension in shape", name);
  case 2: return ir_error_set(err, TTREF_E_LIMIT, no_loc, "%s: shape is too large", name);
  default: break;
  }
  if (numel != a->numel || nbytes != a->nbytes || (nbytes && !a->data))
    return ir_error_set(err, TTREF_E_INPUT, no_loc, "%s: inconsistent array: numel/nbytes/data do not match the shape",
                        name);
  return TTREF_OK;
}

/* Format the padded header (magic .. '\n') into buf; *len gets its size. */
static void build_header(const npy_array *a, char *buf, size_t cap, size_t *len)
{
  char dict[400], descr[8];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", npy_descr(a, descr));
  for (int d = 0; d < a->rank; d++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, d ? ", %lld" : "%lld", (long long)a->shape[d]);
  n += snprintf(dict + n, sizeof dict - (size_t)n, "%s), }", a->rank == 1 ? "," : "");
  if (a->rank > 0) { /* numpy >= 1.23 leaves room to grow dim 0 in place */
    int digits = snprintf(NULL, 0, "%lld", (long long)a->shape[0]);
    for (int k = digits; k < GROWTH_DIGITS; k++) dict[n++] = ' ';
  }
  /* rank <= 8 keeps the dict under 400 bytes, so the v1.0 length field always fits */
  size_t hlen = (size_t)n + 1, pre = MAGIC_LEN + 2 + 2;
  size_t pad = ARRAY_ALIGN - (pre + hlen) % ARRAY_ALIGN; /* numpy pads 64 when already aligned */
  size_t field = hlen + pad;
  TTREF_ASSERT(field <= 0xffff && pre + field <= cap);
  (void)cap;
  memcpy(buf, MAGIC, MAGIC_LEN);
  buf[6] = 1;
  buf[7] = 0;
  buf[8] = (char)(field & 0xff);
  buf[9] = (char)(field >> 8);
  memcpy(buf + pre, dict, (size_t)n);
  memset(buf + pre + (size_t)n, ' ', pad);
  buf[pre + field - 1] = '\n';
  *len = pre + field;
}

/* Write the header and the data (little-endian); nonzero on failure. */
static int write_body(FILE *f, const char *hdr, size_t hlen, const npy_array *a)
{
  if (fwrite(hdr, 1, hlen, f) != hlen) return 1;
  if (a->elsize == 1 || host_is_le()) return a->nbytes && fwrite(a->data, 1, a->nbytes, f) != a->nbytes;
  unsigned char tmp[4096]; /* big-endian host: swap through a small buffer */
  const unsigned char *src = a->data;
  for (size_t off = 0; off < a->nbytes; off += sizeof tmp) {
    size_t n = a->nbytes - off < sizeof tmp ? a->nbytes - off : sizeof tmp;
    memcpy(tmp, src + off, n);
    swap_bytes(tmp, n / (size_t)a->elsize, a->elsize);
    if (fwrite(tmp, 1, n, f) != n) return 1;
  }
  return 0;
}

ttref_status npy_write(const char *path, const npy_array *a, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  FILE *f = NULL;
  char hdr[600];
  size_t hlen = 0;
  int rc, created = 0;
  struct stat sb;
  if (!path || !a) return ir_error_set(err, TTREF_E_USAGE, no_loc, "npy_write: NULL argument");
  TRY(check_array(a, path, err));
  build_header(a, hdr, sizeof hdr, &hlen);
  {
    /* never through a symbolic link (docs/security.md); O_NONBLOCK: a FIFO must not block the open */
    int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ELOOP)
      FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: refusing to write through a symbolic link", path));
    if (fd < 0) FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: cannot create: %s", path, strerror(errno)));
    int fl = fcntl(fd, F_GETFL);
    created = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode); /* never truncate or remove a device */
    if ((created && ftruncate(fd, 0) != 0) || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0 ||
        !(f = fdopen(fd, "wb"))) {
      int e = errno;
      close(fd);
      created = 0;
      FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: cannot create: %s", path, strerror(e)));
    }
  }
  if (write_body(f, hdr, hlen, a) != 0 || fflush(f) != 0)
    FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: write error: %s", path, strerror(errno)));
  rc = fclose(f);
  f = NULL;
  if (rc != 0) FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: write error: %s", path, strerror(errno)));
fail:
  if (f) fclose(f);
  if (st != TTREF_OK && created) remove(path); /* do not leave a partial file behind */
  return st;
}

ttref_status npy_write_new(const char *path, const npy_array *a, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  FILE *f = NULL;
  char hdr[600];
  size_t hlen = 0;
  int fd = -1, rc, created = 0;
  if (!path || !a) return ir_error_set(err, TTREF_E_USAGE, no_loc, "npy_write_new: NULL argument");
  TRY(check_array(a, path, err));
  build_header(a, hdr, sizeof hdr, &hlen);
  fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: cannot create: %s", path, strerror(errno)));
  created = 1;
  f = fdopen(fd, "wb");
  if (!f) FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: cannot create: %s", path, strerror(errno)));
  fd = -1;
  if (write_body(f, hdr, hlen, a) != 0 || fflush(f) != 0)
    FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: write error: %s", path, strerror(errno)));
  rc = fclose(f);
  f = NULL;
  if (rc != 0) FAIL(ir_error_set(err, TTREF_E_IO, no_loc, "%s: write error: %s", path, strerror(errno)));
fail:
  if (f) fclose(f);
  if (fd >= 0) close(fd);
  if (st != TTREF_OK && created) remove(path); /* ours: created just now, never through a link */
  return st;
}

void npy_free(npy_array *a)
{
  if (!a) return;
  if (a->map) npy_release_maps(a);
  else ir_free(a->data, a->nbytes);
  memset(a, 0, sizeof *a);
}

ttref_status npy_alloc(npy_array *a, char kind, int elsize, int rank, const int64_t *shape, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  if (!a) return ir_error_set(err, TTREF_E_USAGE, no_loc, "npy_alloc: NULL argument");
  memset(a, 0, sizeof *a);
  if (!valid_dtype(kind, elsize))
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "npy_alloc: invalid dtype kind '%c' elsize %d", kind ? kind : '?',
                      elsize));
  if (rank < 0 || rank > NPY_MAX_RANK || (rank > 0 && !shape))
    FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "npy_alloc: rank %d is outside 0..%d", rank, NPY_MAX_RANK));
  a->kind = kind;
  a->elsize = elsize;
  a->rank = rank;
  for (int d = 0; d < rank; d++) a->shape[d] = shape[d];
  switch (shape_size(rank, a->shape, elsize, &a->numel, &a->nbytes)) {
  case 1: FAIL(ir_error_set(err, TTREF_E_INPUT, no_loc, "npy_alloc: negative dimension in shape"));
  case 2: FAIL(ir_error_set(err, TTREF_E_LIMIT, no_loc, "npy_alloc: shape is too large"));
  default: break;
  }
  if (a->nbytes) {
    a->data = ir_calloc(a->nbytes, 1);
    if (!a->data) FAIL(ir_error_set(err, TTREF_E_NOMEM, no_loc, "npy_alloc: out of memory (%zu bytes)", a->nbytes));
  }
fail:
  if (st != TTREF_OK) memset(a, 0, sizeof *a);
  return st;
}
