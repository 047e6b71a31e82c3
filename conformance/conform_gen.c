/*
 * conform_gen.c: input generators. Random bits come only from gsl_rng_get
 * of mt19937 (32 bits per draw), uniforms are built from two draws with
 * integer arithmetic (genrand_res53), and every float is rounded once, RNE,
 * to its dtype by fp_encode; the dot-product sets use TOSA's portable LCG.
 */
#include "config.h"
#include "conform_gen.h"
#include "fp.h"
#include "ir_base_fs.h"
#include "ir_base.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

static const struct {
  const char *name;
  char kind;
  int bytes, fmt;
  ir_scalar sc;
} dtypes[] = {
#define X(name, str, kind, bytes, fmt, sc) {str, kind, bytes, fmt, sc},
#include "conform_dtype_list.h"
#undef X
};

static const struct {
  const char *name;
  int seeded;
} gens[] = {
#define X(name, str, seeded) {str, seeded},
#include "conform_gen_list.h"
#undef X
};

const char *conform_dtype_name(conform_dtype d)
{
  return (int)d >= 0 && d < CONFORM_DTYPE_COUNT ? dtypes[d].name : "<invalid>";
}

bool conform_dtype_lookup(const char *s, conform_dtype *out)
{
  for (int d = 0; d < CONFORM_DTYPE_COUNT; d++)
    if (strcmp(dtypes[d].name, s) == 0) {
      *out = (conform_dtype)d;
      return true;
    }
  return false;
}

char conform_dtype_kind(conform_dtype d) { return (int)d >= 0 && d < CONFORM_DTYPE_COUNT ? dtypes[d].kind : 0; }
int conform_dtype_bytes(conform_dtype d) { return (int)d >= 0 && d < CONFORM_DTYPE_COUNT ? dtypes[d].bytes : 0; }
int conform_dtype_fp(conform_dtype d) { return (int)d >= 0 && d < CONFORM_DTYPE_COUNT ? dtypes[d].fmt : -1; }
ir_scalar conform_dtype_scalar(conform_dtype d)
{
  return (int)d >= 0 && d < CONFORM_DTYPE_COUNT ? dtypes[d].sc : IR_S_I8;
}

bool conform_dtype_of_scalar(ir_scalar s, conform_dtype *out)
{
  for (int d = 0; d < CONFORM_DTYPE_COUNT; d++)
    if (dtypes[d].sc == s && dtypes[d].kind != 'u') { /* signed ints first */
      *out = (conform_dtype)d;
      return true;
    }
  for (int d = 0; d < CONFORM_DTYPE_COUNT; d++)
    if (dtypes[d].sc == s) {
      *out = (conform_dtype)d;
      return true;
    }
  return false;
}

const char *conform_gen_name(conform_gen g)
{
  return (int)g >= 0 && g < CONFORM_GEN_COUNT ? gens[g].name : "<invalid>";
}
bool conform_gen_needs_seed(conform_gen g) { return (int)g >= 0 && g < CONFORM_GEN_COUNT && gens[g].seeded; }

bool conform_gen_lookup(const char *s, conform_gen *out)
{
  for (int g = 0; g < CONFORM_GEN_COUNT; g++)
    if (strcmp(gens[g].name, s) == 0) {
      *out = (conform_gen)g;
      return true;
    }
  return false;
}

void conform_recipe_init(conform_recipe *r)
{
  memset(r, 0, sizeof *r);
  r->gen = CONFORM_GEN_ZEROS;
  r->fraction = 1.0;
  r->set = CONFORM_SPECIAL_AUTO;
  r->acc = CONFORM_DT_F32;
  r->k_stride = 1;
  r->step = 1.0;
}

/* ---- bit patterns ------------------------------------------------------- */

static uint64_t enc(int fmt, double v) { return fp_encode((fp_format)fmt, v, FP_RNE, FP_OVF_INF); }

static void store(void *data, int64_t i, int bytes, uint64_t bits)
{
  uint8_t *p = (uint8_t *)data + i * bytes;
  switch (bytes) { /* host order, as npy_io keeps arrays */
  case 1: {
    uint8_t v = (uint8_t)bits;
    memcpy(p, &v, 1);
    break;
  }
  case 2: {
    uint16_t v = (uint16_t)bits;
    memcpy(p, &v, 2);
    break;
  }
  case 4: {
    uint32_t v = (uint32_t)bits;
    memcpy(p, &v, 4);
    break;
  }
  default: memcpy(p, &bits, 8); break;
  }
}

static bool is_nonfinite(int fmt, uint64_t bits) { return !isfinite(fp_decode((fp_format)fmt, bits)); }

int conform_gen_specials(conform_dtype dt, int set, uint64_t *out, int cap)
{
  uint64_t v[40];
  int n = 0;
  const int fmt = conform_dtype_fp(dt);
  if (set == CONFORM_SPECIAL_AUTO) set = fmt >= 0 ? CONFORM_SPECIAL_FLOAT : CONFORM_SPECIAL_INT;
  if (set == CONFORM_SPECIAL_FLOAT && fmt >= 0) {
    const fp_format f = (fp_format)fmt;
    const int bits = fp_bits(f), mb = fp_precision(f) - 1;
    const uint64_t sign = (uint64_t)1 << (bits - 1);
    const uint64_t emask = (((uint64_t)1 << (bits - 1 - mb)) - 1) << mb;
    const uint64_t mmask = ((uint64_t)1 << mb) - 1;
    const uint64_t maxf = enc(fmt, fp_max_finite(f));
    v[n++] = 0;                            /* +0 */
    if (fp_has_neg_zero(f)) v[n++] = sign; /* -0 */
    v[n++] = enc(fmt, 1.0);
    v[n++] = enc(fmt, -1.0);
    v[n++] = enc(fmt, 0.5);
    v[n++] = 1; /* smallest subnormal */
    v[n++] = sign | 1;
    v[n++] = mmask; /* largest subnormal */
    v[n++] = sign | mmask;
    v[n++] = (uint64_t)1 << mb; /* smallest normal */
    v[n++] = sign | (uint64_t)1 << mb;
    v[n++] = maxf; /* largest finite */
    v[n++] = sign | maxf;
    v[n++] = maxf - 1;
    if (fp_has_inf(f)) {
      v[n++] = emask;        /* +inf */
      v[n++] = sign | emask; /* -inf */
    }
    if (fp_has_nan(f)) {
      if (fp_has_neg_zero(f) && !fp_has_inf(f) && (emask | mmask) != maxf) {
        v[n++] = emask | mmask; /* FN NaN S.1111.111 */
        v[n++] = sign | emask | mmask;
      } else if (!fp_has_neg_zero(f)) {
        v[n++] = sign; /* FNUZ NaN 0x80 */
      } else {
        const uint64_t q = (uint64_t)1 << (mb - 1);
        v[n++] = emask | q;                      /* quiet NaN */
        v[n++] = sign | emask | q;               /* negative quiet NaN */
        v[n++] = emask | 1;                      /* signalling NaN, payload 1 */
        v[n++] = emask | q | (mmask >> 1 & 0x5); /* quiet NaN with a payload */
      }
    }
  } else {
    const int w = conform_dtype_bytes(dt) * 8;
    if (dt == CONFORM_DT_BOOL) {
      v[n++] = 0;
      v[n++] = 1;
    } else {
      const uint64_t mask = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
      const uint64_t min = (uint64_t)1 << (w - 1), max = min - 1;
      v[n++] = 0;
      v[n++] = 1;
      v[n++] = mask; /* -1 / unsigned max */
      v[n++] = 2;
      v[n++] = min; /* signed min */
      v[n++] = max; /* signed max */
      v[n++] = min + 1;
      v[n++] = max - 1;
      v[n++] = mask - 1;
      v[n++] = 0x5555555555555555ULL & mask;
      v[n++] = 0xAAAAAAAAAAAAAAAAULL & mask;
    }
  }
  int k = n < cap ? n : cap;
  memcpy(out, v, sizeof *v * (size_t)k);
  return k;
}

/* ---- random streams --------------------------------------------------------- */

static uint64_t draw64(gsl_rng *r) { return (uint64_t)gsl_rng_get(r) << 32 | (uint64_t)gsl_rng_get(r); }

/* Uniform in [0, 1) with 53 random bits (genrand_res53). */
static double unif53(gsl_rng *r)
{
  uint64_t a = gsl_rng_get(r) >> 5, b = gsl_rng_get(r) >> 6;
  return ((double)a * 67108864.0 + (double)b) * 0x1p-53;
}

static int64_t draw_int(gsl_rng *r, int64_t lo, int64_t hi)
{
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
  uint64_t x = draw64(r);
  return (int64_t)((uint64_t)lo + (span ? x % span : x));
}

/* TOSA's portable primitive generator (generate_dot_product_states.cc). */
typedef struct lcg {
  uint32_t m, r;
} lcg;

static void lcg_init(lcg *g, uint32_t s)
{
  g->m = (8u * s + 1u) * 0x705A5E75u;
  g->r = g->m + 1u;
}

static double lcg_next(lcg *g)
{
  double sign = (g->r >> 31) == 0 ? 1.0 : -1.0;
  double v = sign * (double)(g->r & 0x7FFFFFFFu) / (double)0x7FFFFFFF;
  g->r = g->r * g->m + 1u;
  return v;
}

double conform_gen_dot_bound(conform_dtype dt, conform_dtype acc)
{
  const bool acc32 = acc == CONFORM_DT_F32 || acc == CONFORM_DT_F64;
  switch (dt) {
  case CONFORM_DT_F16: return acc == CONFORM_DT_F16 ? 255.875 : 65504.0;
  case CONFORM_DT_BF16: return acc32 ? 18374686479671623680.0 : 0;
  case CONFORM_DT_F32: return acc32 ? 18446742974197923840.0 : 0;
  case CONFORM_DT_F64: return acc32 ? 18446742974197923840.0 : 0;
  case CONFORM_DT_F8E4M3FN:
  case CONFORM_DT_F8E4M3FNUZ: return acc == CONFORM_DT_F16 ? 240.0 : 448.0;
  case CONFORM_DT_F8E5M2:
  case CONFORM_DT_F8E5M2FNUZ: return acc == CONFORM_DT_F16 ? 224.0 : 57344.0;
  default: return 0;
  }
}

/* The value of dot-product set @p s for operand @p p at contraction index k;
   @p s0k is the pairing draw of sets 0 and 4, a function of k alone, so that
   a[m][k] and b[k][n] agree on which of them is zero. */
static double dot_value(int s, int p, double B, int64_t ks, int64_t k, double s0k, lcg *g0, lcg *g1)
{
  const double KS = (double)ks;
  switch (s) {
  case 0: { /* products that sum to zero */
    double s0 = s0k, s1 = lcg_next(g1);
    if (p == CONFORM_OPERAND_A) return s0 < 0 ? 0.0 : s1;
    if (p == CONFORM_OPERAND_B) return s0 < 0 ? s1 : 0.0;
    return 0.0;
  }
  case 1: { /* large exponents */
    double s0 = lcg_next(g0), s1 = lcg_next(g0);
    double v = (s0 < 0 ? -0.75 : 0.75) + 0.25 * s1;
    return p != CONFORM_OPERAND_C ? B / sqrt(KS + 1) * v : B * B / (KS + 1) * v;
  }
  case 2: { /* small values onto a large first term */
    double sv = lcg_next(g0);
    if (p == CONFORM_OPERAND_C) return 0.0;
    return k == 0 ? 1.0 : sv / sqrt(KS);
  }
  case 3: { /* varying magnitudes onto +-16 */
    double s0 = lcg_next(g0), s1 = lcg_next(g0);
    if (p == CONFORM_OPERAND_C) return 0.0;
    return k == 0 ? (s0 < 0 ? -16.0 : 16.0) : exp(2 * s0) * s1;
  }
  case 4: { /* mixed zero and non-zero products */
    double s0 = s0k, s1 = lcg_next(g1);
    if (p == CONFORM_OPERAND_A) return k == ks / 2 ? (s0 < 0 ? -0.5 : 0.5) : s0 < 0 ? 0.0 : B / sqrt(KS) * s1;
    if (p == CONFORM_OPERAND_B) return k == ks / 2 ? (s0 < 0 ? 0.5 : -0.5) : s0 < 0 ? B / sqrt(KS) * s1 : 0.0;
    return 0.0;
  }
  default: { /* 5: signed values of large range */
    double sv = lcg_next(g0);
    return p != CONFORM_OPERAND_C ? B / sqrt(KS + 1) * sv : 0.0;
  }
  }
}

static int64_t int_min_of(conform_dtype dt)
{
  int w = conform_dtype_bytes(dt) * 8;
  if (dt == CONFORM_DT_BOOL || conform_dtype_kind(dt) == 'u') return 0;
  return w == 64 ? INT64_MIN : -((int64_t)1 << (w - 1));
}

static int64_t int_max_of(conform_dtype dt)
{
  int w = conform_dtype_bytes(dt) * 8;
  if (dt == CONFORM_DT_BOOL) return 1;
  if (conform_dtype_kind(dt) == 'u') return w == 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << w) - 1);
  return w == 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1;
}

/* x as int64, saturated (NaN: 0) */
static int64_t sat_i64(double x)
{
  if (!(x == x)) return 0;
  if (x >= 0x1p63) return INT64_MAX;
  if (x < -0x1p63) return INT64_MIN;
  return (int64_t)x;
}

ttref_status conform_gen_fill(const conform_recipe *r, conform_dtype dt, int rank, const int64_t *shape, npy_array *out,
                              ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  gsl_rng *rng = NULL;
  npy_array file = {0};
  int ffd = -1;
  double *s0tab = NULL;
  size_t s0tab_n = 0;
  const int fmt = conform_dtype_fp(dt), bytes = conform_dtype_bytes(dt);
  memset(out, 0, sizeof *out);
  if ((int)dt < 0 || dt >= CONFORM_DTYPE_COUNT) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad dtype"));
  TRY(npy_alloc(out, conform_dtype_kind(dt), bytes, rank, shape, err));
  const int64_t n = out->numel;
  if (conform_gen_needs_seed(r->gen) || r->gen == CONFORM_GEN_SPECIAL) {
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    gsl_rng_set(rng, (unsigned long)r->seed);
  }
  switch (r->gen) {
  case CONFORM_GEN_ZEROS: break;
  case CONFORM_GEN_FILL:
  case CONFORM_GEN_ARANGE:
    for (int64_t i = 0; i < n; i++) {
      if (fmt >= 0) {
        double v = r->gen == CONFORM_GEN_FILL ? r->value : r->start + (double)i * r->step;
        store(out->data, i, bytes, enc(fmt, v));
      } else {
        /* integer arange wraps in 64 bits (start/step saturated: casting a huge double is undefined) */
        int64_t v = r->gen == CONFORM_GEN_FILL
                        ? r->ivalue
                        : (int64_t)((uint64_t)sat_i64(r->start) + (uint64_t)i * (uint64_t)sat_i64(r->step));
        store(out->data, i, bytes, dt == CONFORM_DT_BOOL ? (uint64_t)(v != 0) : (uint64_t)v);
      }
    }
    break;
  case CONFORM_GEN_UNIFORM_BITS:
    for (int64_t i = 0; i < n; i++) {
      uint64_t b;
      int tries = 0;
      do {
        b = bytes == 8 ? draw64(rng) : (uint64_t)gsl_rng_get(rng);
        if (dt == CONFORM_DT_BOOL) b &= 1;
      } while (r->finite && fmt >= 0 && is_nonfinite(fmt, b) && ++tries < 1000);
      store(out->data, i, bytes, b);
    }
    break;
  case CONFORM_GEN_UNIFORM:
    for (int64_t i = 0; i < n; i++) {
      uint64_t b;
      int tries = 0;
      do { /* nonzero: redraw zeros (and floats that round to +-0), so divisors stay defined */
        if (++tries > 1000)
          FAIL(IR_ERR(err, TTREF_E_INPUT, none, "uniform with nonzero: true: the range draws only zeros in %s",
                      conform_dtype_name(dt)));
        if (fmt >= 0) {
          double lo = r->has_range ? r->lo : -1.0, hi = r->has_range ? r->hi : 1.0;
          b = enc(fmt, lo + (hi - lo) * unif53(rng));
        } else {
          int64_t lo = r->has_range ? r->ilo : int_min_of(dt), hi = r->has_range ? r->ihi : int_max_of(dt);
          b = (uint64_t)draw_int(rng, lo, hi);
        }
      } while (r->nonzero && (fmt >= 0 ? fp_decode((fp_format)fmt, b) == 0.0 : b == 0));
      store(out->data, i, bytes, b);
    }
    break;
  case CONFORM_GEN_INT_VALUED:
    for (int64_t i = 0; i < n; i++) {
      int64_t lo = r->has_range ? r->ilo : -8, hi = r->has_range ? r->ihi : 8;
      int64_t v = draw_int(rng, lo, hi);
      store(out->data, i, bytes, fmt >= 0 ? enc(fmt, (double)v) : (uint64_t)v);
    }
    break;
  case CONFORM_GEN_SPECIAL: {
    uint64_t sp[64];
    int ns = conform_gen_specials(dt, r->set, sp, 64);
    if (ns == 0) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "no special values for dtype %s", conform_dtype_name(dt)));
    for (int64_t i = 0; i < n; i++) {
      /* the first ns elements list the whole set once, in order */
      uint64_t b;
      if (i < ns) b = sp[i];
      else if (r->fraction >= 1.0 || unif53(rng) < r->fraction) b = sp[gsl_rng_get(rng) % (unsigned long)ns];
      else if (fmt >= 0) {
        double lo = r->has_range ? r->lo : -1.0, hi = r->has_range ? r->hi : 1.0;
        b = enc(fmt, lo + (hi - lo) * unif53(rng));
      } else {
        b = (uint64_t)draw_int(rng, r->has_range ? r->ilo : int_min_of(dt), r->has_range ? r->ihi : int_max_of(dt));
      }
      store(out->data, i, bytes, b);
    }
    break;
  }
  case CONFORM_GEN_DOT_PRODUCT: {
    if (fmt < 0)
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "dot_product needs a float dtype, not %s", conform_dtype_name(dt)));
    double B = conform_gen_dot_bound(dt, r->acc);
    if (B <= 0)
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "dot_product has no bound for %s with a %s accumulator",
                  conform_dtype_name(dt), conform_dtype_name(r->acc)));
    if (r->ks < 1 || r->k_stride < 1)
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "dot_product needs ks >= 1 and k_stride >= 1"));
    /* S0 and S4 use two streams 3S and 3S+1; the others one stream 3S+p;
       seed s shifts every stream id by 32 s (seed 0 is TOSA's data). */
    const uint32_t base = (uint32_t)(3 * r->set) + 32u * (uint32_t)r->seed;
    lcg g0, g1;
    if (r->set == 0 || r->set == 4) {
      lcg_init(&g0, base);
      lcg_init(&g1, base + 1);
    } else {
      lcg_init(&g0, base + (uint32_t)r->operand);
      lcg_init(&g1, base + (uint32_t)r->operand);
    }
    if (r->set == 0 || r->set == 4) {
      s0tab_n = (size_t)r->ks;
      s0tab = ir_calloc(s0tab_n, sizeof *s0tab);
      if (!s0tab) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      for (size_t k = 0; k < s0tab_n; k++) s0tab[k] = lcg_next(&g0);
    }
    for (int64_t i = 0; i < n; i++) {
      int64_t k = (i / r->k_stride) % r->ks;
      double s0k = s0tab ? s0tab[k] : 0.0;
      store(out->data, i, bytes, enc(fmt, dot_value(r->set, r->operand, B, r->ks, k, s0k, &g0, &g1)));
    }
    break;
  }
  case CONFORM_GEN_FILE:
    TRY(ir_fs_open_regular(r->file, NULL, IR_FS_FOLLOW, &ffd, NULL, err)); /* a FIFO would hang npy_read */
    close(ffd);
    TRY(npy_read(r->file, &file, err));
    if (file.elsize != bytes || file.numel != n)
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "'%s' has %lld %d-byte elements; the argument needs %lld of %s", r->file,
                  (long long)file.numel, file.elsize, (long long)n, conform_dtype_name(dt)));
    if (n) memcpy(out->data, file.data, (size_t)n * (size_t)bytes);
    break;
  default: FAIL(IR_ERR(err, TTREF_E_INTERNAL, none, "unknown generator %d", (int)r->gen));
  }
fail:
  if (rng) gsl_rng_free(rng);
  ir_free(s0tab, s0tab_n * sizeof *s0tab);
  npy_free(&file);
  if (st != TTREF_OK) npy_free(out);
  return st;
}
