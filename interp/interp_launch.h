/*
 * interp_launch.h: binding a kernel's arguments from the command line
 * (NAME=@FILE.npy, NAME=VALUE, or by 0-based position), running the launch and
 * writing every pointer argument's buffer back as .npy.
 * Ownership: an interp_bound made by interp_bind is owned by the caller and
 * released with interp_bound_free; the module it refers to is borrowed.
 */
#ifndef INTERP_LAUNCH_H
#define INTERP_LAUNCH_H

#include "interp.h"
#include "npy_io.h"

typedef struct interp_bound {
  interp_launch L;
  interp_mem *mem;
  interp_elem *args;
  int nargs;
  npy_array *meta; /* per argument: dtype/shape of a pointer argument's file (data NULL; map:
                        the buffer's file mapping, owned, NULL when read into the heap) */
  int *alloc_of;   /* per argument: allocation index, or -1 for scalars */
} interp_bound;

/*
 * Bind @p nspecs "NAME=VALUE" strings (VALUE = @file.npy for pointers, a
 * literal typed by the signature for scalars: decimal, 0x hex, inf, nan,
 * true/false) to @p fn's arguments. NAME is the TTIR argument name (with or
 * without '%') or a 0-based position. Unknown, missing or duplicated
 * arguments, bad literals and element-size mismatches give TTREF_E_INPUT with
 * the kernel's signature in err->note.
 */
ttref_status interp_bind(const ir_module *m, const ir_func *fn, const char *const *specs, int nspecs, interp_bound *out,
                         ttref_error *err);
void interp_bound_free(interp_bound *b);

/* After a run of @p b's launch: its mapped buffers may now differ from their files, so parallel
 * runs no longer borrow the files' bytes as their snapshots (interp_alloc.pristine). */
void interp_bound_ran(interp_bound *b);

/* Refuse (TTREF_E_USAGE) pointer arguments whose output files in --out DIR
 * would collide: with @p precise, an argument named X.precise or X.bound next
 * to a pointer argument X (both would write X.precise.npy / X.bound.npy). */
ttref_status interp_check_out_names(const interp_bound *b, bool precise, ttref_error *err);

/*
 * Write every pointer argument's buffer of @p b (those @p only marks, when not NULL; indexed by
 * argument) to DIR/NAME.npy (input dtype and shape), creating DIR; then, when @p pb is not NULL
 * (a launch run with L.precise after interp_mem_make_precise), DIR/NAME.precise.npy and
 * DIR/NAME.bound.npy (f64, the argument's shape) for its float pointer arguments. A buffer
 * mapped from a file one of these writes would rewrite is copied to the heap first.
 */
ttref_status interp_write_outputs(const interp_bound *b, const interp_bound *pb, const char *dir, const bool *only,
                                  ttref_error *err);

/* The kernel signature "name(%x_ptr: !tt.ptr<f32>, %n: i32)" into buf. */
void interp_signature(const ir_func *fn, char *buf, size_t n);

/* The index of @p fn's argument named @p name (len bytes, with or without '%', or a 0-based
 * position), -1 when none. */
int interp_find_arg(const ir_func *fn, const char *name, size_t len);

/* Parse scalar literal @p s for scalar type @p t (the rules of interp_bind) into *out;
 * TTREF_E_INPUT (no message) when it is not a valid literal of @p t. */
ttref_status interp_parse_scalar(const ir_type *t, const char *s, interp_elem *out);

/* The scalar type of the elements a pointer argument of type @p t points to (i8 for an opaque
 * pointer, IR_S_PTR for pointers to pointers). */
ir_scalar interp_pointee_scalar(const ir_type *t);

#endif

/* ---- launch files (`ttref run --launch FILE.yaml`) ---------------------------------------- */
/* Ownership: interp_launch_file_free releases everything an interp_launch_file holds. */
typedef struct interp_launch_file {
  char *kernel;   /* path, resolved against the YAML file's directory; NULL if absent */
  char *function; /* NULL = the entry kernel */
  int64_t grid[3];
  bool has_grid;
  char **specs; /* "NAME=VALUE" strings; "@FILE" paths resolved like kernel */
  int nspecs, specs_cap;
  char *out;                  /* NULL if absent */
  int threads;                /* 0 if absent */
  int ftz, contract, precise; /* -1 if absent, else 0/1 */
} interp_launch_file;

/*
 * Read a launch file: a YAML mapping with keys kernel, function, grid (int or
 * list of up to 3), args (mapping NAME: VALUE, pointers as "@FILE.npy"), out,
 * threads, ftz, contract, precise, read through ir_yaml_load (a regular
 * file holding one document: a FIFO or device is TTREF_E_IO, never a hang).
 * Syntax errors, unknown keys and bad values give TTREF_E_INPUT with
 * FILE:LINE:COL.
 */
ttref_status interp_launch_file_read(const char *path, interp_launch_file *out, ttref_error *err);
void interp_launch_file_free(interp_launch_file *lf);
