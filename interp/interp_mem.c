/*
 * interp_mem.c: the launch's memory: a table of allocations, one per pointer
 * argument. An address is (k+1) << INTERP_ADDR_SHIFT plus a byte offset, so
 * pointer arithmetic is plain integer arithmetic and every access can be
 * attributed to an allocation and bounds-checked.
 */
#define _DEFAULT_SOURCE /* madvise, MADV_POPULATE_WRITE */
#include "config.h"
#include "interp.h"

#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fp.h"

interp_mem *interp_mem_new(void) { return ir_calloc(1, sizeof(interp_mem)); }

void interp_mem_free(interp_mem *m)
{
  if (!m) return;
  for (int i = 0; i < m->n; i++) {
    interp_alloc *a = &m->allocs[i];
    if (!a->borrowed) ir_free(a->data, a->nbytes);
    if (a->name) ir_free(a->name, strlen(a->name) + 1);
    ir_free(a->owner, sizeof(uint32_t) * (size_t)a->owner_n);
    ir_free(a->pv, sizeof(double) * (size_t)a->pn);
    ir_free(a->pb, sizeof(double) * (size_t)a->pn);
    if (!a->snap_borrowed) ir_free(a->snap, a->nbytes);
    ir_free(a->snap_pv, sizeof(double) * (size_t)a->pn);
    ir_free(a->snap_pb, sizeof(double) * (size_t)a->pn);
  }
  ir_free(m->allocs, sizeof(interp_alloc) * (size_t)m->cap);
  ir_free(m, sizeof *m);
}

static ttref_status add(interp_mem *m, const char *name, void *data, size_t nbytes, ir_scalar elem, bool borrowed,
                        int64_t *out_addr, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  char *nm = NULL;
  if (nbytes >= ((size_t)1 << INTERP_ADDR_SHIFT) || m->n >= (1 << 20))
    FAIL(IR_ERR(err, TTREF_E_LIMIT, none, "allocation '%s' is too large (%zu bytes; limit 2^40)", name, nbytes));
  if (m->n == m->cap) {
    int ncap = m->cap ? m->cap * 2 : 8;
    interp_alloc *na =
        ir_realloc(m->allocs, sizeof(interp_alloc) * (size_t)m->cap, sizeof(interp_alloc) * (size_t)ncap);
    if (!na) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    m->allocs = na;
    m->cap = ncap;
  }
  nm = ir_strdup(name ? name : "?");
  if (!nm) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  interp_alloc *a = &m->allocs[m->n];
  memset(a, 0, sizeof *a);
  a->name = nm;
  a->data = data;
  a->nbytes = nbytes;
  a->elem = elem;
  a->borrowed = borrowed;
  *out_addr = (int64_t)((uint64_t)(m->n + 1) << INTERP_ADDR_SHIFT);
  m->n++;
fail:
  return st;
}

ttref_status interp_mem_add_take(interp_mem *m, const char *name, void *data_take, size_t nbytes, ir_scalar elem,
                                 int64_t *out_addr, ttref_error *err)
{
  ttref_status st = add(m, name, data_take, nbytes, elem, false, out_addr, err);
  if (st != TTREF_OK) ir_free(data_take, nbytes);
  return st;
}

ttref_status interp_mem_add_borrowed(interp_mem *m, const char *name, void *data, size_t nbytes, ir_scalar elem,
                                     int64_t *out_addr, ttref_error *err)
{
  return add(m, name, data, nbytes, elem, true, out_addr, err);
}

ttref_status interp_mem_make_precise(interp_mem *m, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  for (int k = 0; k < m->n; k++) {
    interp_alloc *a = &m->allocs[k];
    if (!ir_scalar_is_float(a->elem) || a->pv) continue;
    const int esz = ir_scalar_bytes(a->elem);
    const int64_t n = (int64_t)(a->nbytes / (size_t)esz);
    a->pv = ir_calloc((size_t)n + 1, sizeof(double));
    a->pb = ir_calloc((size_t)n + 1, sizeof(double));
    a->pn = n + 1;
    if (!a->pv || !a->pb) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory for precise mode"));
    for (int64_t i = 0; i < n; i++) {
      const uint8_t *p = a->data + (size_t)i * (size_t)esz;
      double v;
      switch (a->elem) {
      case IR_S_F32: {
        float f;
        memcpy(&f, p, 4);
        v = (double)f;
        break;
      }
      case IR_S_F64: memcpy(&v, p, 8); break;
      case IR_S_F16:
      case IR_S_BF16: {
        uint16_t u;
        memcpy(&u, p, 2);
        v = fp_decode(a->elem == IR_S_F16 ? FP_F16 : FP_BF16, u);
        break;
      }
      case IR_S_F8E4M3FN: v = fp_decode(FP_F8E4M3FN, p[0]); break;
      case IR_S_F8E5M2: v = fp_decode(FP_F8E5M2, p[0]); break;
      case IR_S_F8E4M3FNUZ: v = fp_decode(FP_F8E4M3FNUZ, p[0]); break;
      default: v = fp_decode(FP_F8E5M2FNUZ, p[0]); break;
      }
      a->pv[i] = v;
      a->pb[i] = fabs(v);
    }
  }
fail:
  return st;
}

void interp_mem_prefault(interp_mem *m, int nthreads)
{
  const size_t chunk = (size_t)2 << 20;
  long pg = sysconf(_SC_PAGESIZE);
  if (pg <= 0) pg = 4096;
  for (int k = 0; m && k < m->n; k++) {
    interp_alloc *a = &m->allocs[k];
    if (!a->mapped || !a->track_reads || a->nbytes < chunk / 2) continue;
    const int64_t nch = (int64_t)((a->nbytes + chunk - 1) / chunk);
    uint8_t *const data = a->data;
    const size_t nbytes = a->nbytes;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
    for (int64_t c = 0; c < nch; c++) {
      uint8_t *lo = data + (size_t)c * chunk;
      uint8_t *hi = (size_t)c * chunk + chunk < nbytes ? lo + chunk : data + nbytes;
#ifdef MADV_POPULATE_WRITE
      /* the page holding lo starts inside the same mapping (the file's header page at worst) */
      uint8_t *start = (uint8_t *)((uintptr_t)lo & ~(uintptr_t)(pg - 1));
      if (madvise(start, (size_t)(hi - start), MADV_POPULATE_WRITE) == 0) continue;
#endif
      for (volatile uint8_t *q = lo; q < hi; q += pg) *q = *q; /* older kernels: one write per page */
    }
  }
  (void)nthreads;
}
