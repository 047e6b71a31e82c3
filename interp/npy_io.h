/*
 * npy_io.h: read and write NumPy .npy files (format versions 1.0, 2.0, 3.0)
 * for bool, signed/unsigned integer and float arrays of rank 0..8.
 * Ownership: an npy_array filled by npy_read/npy_read_map/npy_read_mem/npy_alloc
 * owns its data (or mapping) and is released with npy_free; every pointer
 * argument is borrowed.
 */
#ifndef NPY_IO_H
#define NPY_IO_H

#include <stddef.h>
#include <stdint.h>
#include "ttref.h"

#define NPY_MAX_RANK 8

/** A dense array in C order and host byte order. */
typedef struct npy_array {
  char kind;                   /**< 'b' bool, 'i' signed int, 'u' unsigned int, 'f' float */
  int elsize;                  /**< bytes per element: 1, 2, 4, 8 */
  int rank;                    /**< 0..NPY_MAX_RANK */
  int64_t shape[NPY_MAX_RANK]; /**< dims; entries past rank are 0 */
  int64_t numel;               /**< product of shape (1 for rank 0) */
  void *data;                  /**< numel*elsize bytes, C order, host byte order;
                                      owned; NULL when nbytes is 0 */
  size_t nbytes;               /**< numel*elsize */
  void *map;                   /**< npy_read_map: the file mapping data points into
                                      (owned; NULL: data is heap memory) */
  void *view;                  /**< npy_read_map: a second, read-only mapping of the same
                                      map_len bytes (owned; NULL if none): the file as read,
                                      whatever is later stored through data */
  size_t map_len;              /**< bytes mapped at map (and at view) */
  uint64_t map_dev, map_ino;   /**< the mapped file's st_dev and st_ino */
} npy_array;

/**
 * Read the .npy file at @p path into @p out (overwritten; on failure it is
 * left zeroed). Big-endian data is swapped to host order and fortran_order
 * data is transposed to C order. Bytes after the data are ignored.
 * @param[in]  path  file name, also used in error messages
 * @param[out] out   the array; release with npy_free
 * @param[out] err   detail on failure (may be NULL)
 * @return TTREF_OK; TTREF_E_IO (open/read failure), TTREF_E_INPUT (not a
 * valid .npy file or unsupported dtype), TTREF_E_LIMIT (rank > 8, size
 * overflow, oversized header), TTREF_E_NOMEM or TTREF_E_USAGE (NULL argument).
 */
ttref_status npy_read(const char *path, npy_array *out, ttref_error *err);

/** npy_read_map maps data of at least this many bytes; smaller arrays are read. */
#define NPY_MAP_MIN ((size_t)1 << 16)

/**
 * Like npy_read, but the data of a regular file is mapped instead of copied when it can be:
 * at least NPY_MAP_MIN bytes, in host byte order, C order (or rank < 2), starting at a file
 * offset that is a multiple of 16, and mmap succeeds. The mapping is private and writable
 * (MAP_PRIVATE): stores into out->data change this process's copy of a page, never the file.
 * Otherwise the file is read as npy_read does. out->map/map_len then hold the mapping,
 * out->view a second, read-only one of the same bytes (NULL if that mmap failed), and
 * map_dev/map_ino the file's identity; npy_free unmaps both (npy_release_maps releases them
 * from an npy_array whose data was handed on). The file must not be truncated while it is mapped (the process would
 * get SIGBUS): a writer of an output file checks npy_array's identity first (interp_launch.c).
 */
ttref_status npy_read_map(const char *path, npy_array *out, ttref_error *err);

/** Release a mapping made by npy_read_map (@p map NULL: no-op). */
void npy_unmap(void *map, size_t len);

/** Release @p a's mappings (map and view; data then dangles) and clear those fields. NULL-safe. */
void npy_release_maps(npy_array *a);

/**
 * Like npy_read, for files another process controls (a backend's outputs):
 * only a regular file is read (a FIFO, device, directory or a symlink in the
 * last component is TTREF_E_IO, never a hang), and a header whose data
 * exceeds @p max_data bytes is TTREF_E_LIMIT before any data is read.
 * @param[in] name  label used in error messages (NULL: @p path)
 */
ttref_status npy_read_bounded(const char *path, const char *name, size_t max_data, npy_array *out, ttref_error *err);

/**
 * Like npy_read, but parses the @p len bytes at @p buf (borrowed; copied).
 * @param[in] name  label used in error messages (e.g. the original file name)
 */
ttref_status npy_read_mem(const char *name, const void *buf, size_t len, npy_array *out, ttref_error *err);

/**
 * Write @p a to @p path (created or truncated) as a little-endian C-order
 * .npy file with a version 1.0 header ('<'/'|' descr, fortran_order False),
 * byte-identical to numpy >= 1.23's np.save: padded so that the data starts
 * on a 64-byte boundary. (A rank <= 8 header always fits 1.0's 16-bit
 * length, so 2.0 is never needed.)
 * A partially written file is removed on failure.
 * @return TTREF_OK; TTREF_E_INPUT (invalid or inconsistent @p a),
 * TTREF_E_LIMIT (shape overflows), TTREF_E_IO, TTREF_E_USAGE (NULL argument).
 */
ttref_status npy_write(const char *path, const npy_array *a, ttref_error *err);

/**
 * Like npy_write, but only creates a new file: fails with TTREF_E_IO when
 * @p path exists or is a symlink (O_CREAT|O_EXCL|O_NOFOLLOW), so nothing is
 * ever overwritten or written through a link.
 */
ttref_status npy_write_new(const char *path, const npy_array *a, ttref_error *err);

/** Free (or unmap) @p a's data and zero the struct. NULL-safe. */
void npy_free(npy_array *a);

/**
 * Fill @p a (overwritten) with a zeroed array of the given dtype and shape.
 * @param[in] shape  @p rank dims (may be NULL when rank is 0)
 * @return TTREF_OK; TTREF_E_INPUT (bad kind/elsize/rank, negative dim),
 * TTREF_E_LIMIT (size overflow), TTREF_E_NOMEM, TTREF_E_USAGE (NULL @p a).
 */
ttref_status npy_alloc(npy_array *a, char kind, int elsize, int rank, const int64_t *shape, ttref_error *err);

/**
 * Format @p a's dtype as the descr npy_write emits ("<f4", "|u1", "|b1")
 * into @p buf. @return buf; "<invalid>" (static) if the dtype is invalid.
 */
const char *npy_descr(const npy_array *a, char buf[8]);

#endif
