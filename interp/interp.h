/*
 * interp.h: the execution engine: runs one launch (function + grid + bound
 * arguments) of a TTIR kernel over registered memory allocations.
 * Ownership: interp_mem_new's result is owned by the caller (interp_mem_free);
 * interp_mem_add takes ownership of the data it is given (name "_take").
 * The module and function of a launch are borrowed.
 */
#ifndef INTERP_H
#define INTERP_H

#include <stdbool.h>
#include <stdio.h>
#include "ir.h"

/* One runtime element: ints sign-extended to 64 bits (i1 as 0/1), floats as
 * the exact double value of their format, pointers as 64-bit addresses. */
typedef ttref_value interp_elem; /* the public type, so vendor-op callbacks see slots as they are */

/* ---- memory: every pointer argument's buffer is a registered allocation ---- */
#define INTERP_ADDR_SHIFT 40 /* allocation k lives at [(k+1) << 40, +nbytes) */

typedef struct interp_alloc {
  char *name;    /* argument name, for messages and output files */
  uint8_t *data; /* owned */
  size_t nbytes;
  ir_scalar elem;  /* element type of the pointer argument it came from */
  uint32_t *owner; /* per element: who accessed it (parallel runs) or the last writer's linear
                          pid + 1 (--check-races) */
  int64_t owner_n;
  double *pv, *pb; /* precise mode: binary64 value and magnitude bound per element (float allocations) */
  int64_t pn;      /* number of elements in pv/pb */
  bool uninit;     /* declared uninitialised (`@new:`): --check-uninit reports reads before writes */
  bool borrowed;   /* data is the caller's (interp_mem_add_borrowed): never freed */
  uint8_t *snap;   /* parallel runs: data (and pv/pb) before the launch's first store to it */
  double *snap_pv, *snap_pb;
  int snap_state;          /* 0 none, 1 being copied, 2 copied */
  bool track_reads;        /* parallel runs: a store may write it, so race detection records reads too */
  const uint8_t *pristine; /* NULL, or a read-only copy of data's bytes as they are now (a mapped
                          input before its first run): a parallel run's snapshot borrows it */
  bool snap_borrowed;      /* snap is pristine: never freed */
  bool mapped;             /* data is a private (copy-on-write) mapping of an input file */
} interp_alloc;

typedef struct interp_mem {
  interp_alloc *allocs;
  int n, cap;
} interp_mem;

interp_mem *interp_mem_new(void);
void interp_mem_free(interp_mem *m);
/* Register @data_take (nbytes, malloc'd through ir_alloc) as a new allocation;
 * *out_addr receives its base address. */
ttref_status interp_mem_add_take(interp_mem *m, const char *name, void *data_take, size_t nbytes, ir_scalar elem,
                                 int64_t *out_addr, ttref_error *err);
/* Register caller memory @data (nbytes; NULL only when nbytes is 0) as a new
 * allocation that interp_mem_free leaves alone (the public API's buffers). */
ttref_status interp_mem_add_borrowed(interp_mem *m, const char *name, void *data, size_t nbytes, ir_scalar elem,
                                     int64_t *out_addr, ttref_error *err);

/* Before a parallel run on @p nthreads threads: make the pages of every file-mapped allocation
 * that a store may write (track_reads) private and writable at once, threads on disjoint
 * stretches. Faulting them one store at a time, threads wait on each other's page locks of the
 * one file (measured: docs/performance.md). Contents are unchanged. */
void interp_mem_prefault(interp_mem *m, int nthreads);

/* ---- launch ----------------------------------------------------------------- */
typedef struct interp_stats {
  int64_t ub_div_zero;     /* integer division or remainder by zero */
  int64_t ub_div_overflow; /* INT_MIN / -1 */
  int64_t ub_shift;        /* shift amount >= width (or negative) */
  int64_t ub_fptoi;        /* float to int out of range or NaN */
  int64_t ub_masked_other; /* masked-off loads without `other` (value 0) */
  int64_t ub_poison;       /* reads of ub.poison */
  int64_t ub_overflow;     /* overflow of addi/subi/muli marked nsw/nuw */
  int64_t races;           /* 1 when programs conflicted in a parallel run (one accessed an element
                              another wrote, without atomics; the launch then re-ran in program
                              order); with --check-races, the conflicts seen */
  int64_t programs;        /* programs run */
} interp_stats;

/* The most programs one launch may have (grid x*y*z): 2^40, hours of work even for an empty kernel. */
#define INTERP_MAX_PROGRAMS ((int64_t)1 << 40)
/* The most threads one launch may use (`--threads`); libgomp fails or crashes creating thousands. */
#define INTERP_MAX_THREADS  256
typedef struct interp_launch {
  const ir_module *mod;
  const ir_func *fn;
  int64_t grid[3];
  interp_elem *args; /* one per fn argument: scalar value or pointer address */
  interp_mem *mem;
  int threads;                /* 0 = OpenMP default; 1 = sequential; at most INTERP_MAX_THREADS */
  bool ftz;                   /* flush float subnormals (compare with FTZ hardware) */
  bool contract;              /* fuse a single-use mulf into its addf/subf (LLVM FMA contraction) */
  bool check_races;           /* fault at the first cross-program conflict (write-write, or a read of
                           another program's write); runs programs in order */
  bool precise;               /* precise mode: no rounding of float results (binary64 throughout) and a
                           magnitude bound per float element; float memory lives in alloc->pv/pb */
  int64_t max_steps;          /* ops one program may execute (`--max-steps`); 0 = no limit. Past it the
                           launch stops with TTREF_E_FAULT naming the op (a kernel that never ends) */
  int inject_op;              /* testing aid (`ttref run --inject-fault OP`): opcode + 1 whose float results
                           grow by a relative 2^-6 (zeros: 2^-6); 0 = none */
  const char *inject_vendor;  /* with inject_op IR_OP_VENDOR + 1: the vendor op's registered name */
  FILE *print_out;            /* tt.print destination (default stdout) */
  struct interp_debug *debug; /* interp_debug.h: located UB reports, dumps, traps; NULL = counts only */
  bool debug_ops;             /* debug hooks run around every op (programs then run in order) */
  interp_stats stats;         /* out */
} interp_launch;

/*
 * Run the launch. TTREF_OK when every program finished; TTREF_E_FAULT when the
 * kernel faulted (out-of-bounds access, failed tt.assert or llvm.intr.assume):
 * *err names the op, its .ttir position, kernel-source location, program id,
 * lane and allocation. TTREF_E_UNSUPPORTED for ops that cannot be interpreted.
 * Deterministic: outputs do not depend on L->threads.
 */
ttref_status interp_run(interp_launch *L, ttref_error *err);

/*
 * Precise mode: give every float allocation of @p m its binary64 shadow (pv,
 * decoded from the data) and bound (pb = |pv|) before a run with
 * L->precise set. Freed with the memory.
 */
ttref_status interp_mem_make_precise(interp_mem *m, ttref_error *err);

#endif
