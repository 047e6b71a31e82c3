/*
 * ir_base_fs.h: the base layer's filesystem, path and clock helpers, used by
 * the engine (output and dump directories, launch files, .npy inputs) and the
 * harness alike: mkdir -p and rm -rf, whole files, paths under a chosen
 * directory that never leave it (no "..", no symbolic link followed), opens
 * of regular files that never wait on a FIFO, and files and directories
 * written whole or not at all.
 * Ownership: buffers returned through out_ pointers are owned by the caller
 * and freed with ir_free(buf, len + 1); streams and descriptors returned are
 * the caller's to close; every other argument is borrowed.
 */
#ifndef IR_BASE_FS_H
#define IR_BASE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ttref.h"

/**
 * mkdir -p of @p path (an existing directory is fine). @p what names it in
 * messages ("output directory"; NULL: "directory"). @return TTREF_OK;
 * TTREF_E_USAGE for an empty or over-long name; TTREF_E_IO naming the
 * component that could not be created, with strerror.
 */
ttref_status ir_fs_mkdirs(const char *path, const char *what, ttref_error *err);
/** rm -rf (best effort; symlinks are not followed). */
void ir_fs_rmtree(const char *path);
/** Whether @p path exists. */
bool ir_fs_exists(const char *path);
/** Read a whole file into a NUL-terminated buffer. */
ttref_status ir_fs_read_file(const char *path, char **out_buf, size_t *out_len, ttref_error *err);
/** Create or truncate @p path with @p len bytes of @p data. */
ttref_status ir_fs_write_file(const char *path, const void *data, size_t len, ttref_error *err);
/** Copy a file. */
ttref_status ir_fs_copy_file(const char *src, const char *dst, ttref_error *err);
/* ---- paths under a chosen directory ------------------------------------------------------
 * ROOT is a directory the user chose (a report, golden or output directory); it is
 * resolved as given. REL is a relative path below it whose components are walked
 * with openat(O_NOFOLLOW): a symbolic link, "." or ".." component or a non-directory
 * on the way is an error (TTREF_E_IO, naming ROOT/REL), so nothing is ever created,
 * written or deleted outside ROOT. docs/security.md, Files and paths. */

/**
 * Whether @p s can be one path component made from suite data (a case name, a
 * variant key): non-empty, at most 200 bytes, no '/', no control character
 * (bytes < 0x20 and 0x7f) and no leading '.' (so never "." or "..", and never
 * a hidden name that could meet the harness's own dot-files).
 * @return NULL when it is fine, else a static phrase saying what is wrong.
 */
const char *ir_fs_component_problem(const char *s);

/** mkdir -p of ROOT/REL (ROOT itself is created as given when missing). */
ttref_status ir_fs_mkdirs_in(const char *root, const char *rel, ttref_error *err);
/**
 * rm -rf of ROOT/REL: a symbolic link inside is removed as a link, never
 * followed. A missing ROOT/REL is fine. @return TTREF_E_IO when a component of
 * REL's parent is a symbolic link or a removal fails.
 */
ttref_status ir_fs_rmtree_in(const char *root, const char *rel, ttref_error *err);
/**
 * Open ROOT/REL for writing ("w": created or truncated, "a": created or
 * appended), refusing a symbolic link or any non-regular file there (a FIFO
 * is refused at once, without waiting for a reader). *out_f receives a
 * stream the caller fcloses (NULL on failure).
 */
ttref_status ir_fs_fopen_in(const char *root, const char *rel, const char *mode, FILE **out_f, ttref_error *err);
/** Like ir_fs_write_file for ROOT/REL, through ir_fs_fopen_in. */
ttref_status ir_fs_write_file_in(const char *root, const char *rel, const void *data, size_t len, ttref_error *err);
/** Copy @p src to ROOT/REL, through ir_fs_fopen_in. */
ttref_status ir_fs_copy_file_in(const char *src, const char *root, const char *rel, ttref_error *err);
/**
 * Whether @p path, with every symbolic link resolved, lies inside the
 * directory @p root_real (itself a realpath). False when @p path does not
 * exist (realpath fails); *out_errno then holds the reason, else 0.
 */
bool ir_fs_inside(const char *root_real, const char *path, int *out_errno);

/** The running executable's path (/proc/self/exe) into @p buf; false on failure. */
bool ir_fs_self_exe(char *buf, size_t n);
/** Seconds on a monotonic clock. */
double ir_fs_now(void);

/** ir_fs_open_regular's flags. */
enum {
  IR_FS_FOLLOW = 1,    /**< follow a symbolic link in the last component */
  IR_FS_NAME_FIRST = 2 /**< word errors "NAME: WHY" (the .npy readers), not "cannot read 'NAME': WHY" */
};
/**
 * Open @p path for reading only if it is a regular file, without waiting on
 * a FIFO (O_NONBLOCK) and, unless IR_FS_FOLLOW is in @p flags, without
 * following a symlink in its last component (O_NOFOLLOW). Messages show
 * @p name (NULL: @p path).
 * @return TTREF_OK with *out_fd (caller closes) and *out_size (may be NULL);
 * TTREF_E_IO naming the file and why ("not a regular file (a FIFO)",
 * "it is a symbolic link, not a regular file", strerror).
 */
ttref_status ir_fs_open_regular(const char *path, const char *name, unsigned flags, int *out_fd, int64_t *out_size,
                                ttref_error *err);
/** ir_fs_open_regular (following symlinks) as a stdio stream; the caller fcloses *out. */
ttref_status ir_fs_fopen_regular(const char *path, bool follow, FILE **out, ttref_error *err);
/** ir_fs_read_file for a regular file only (a FIFO or device is TTREF_E_IO, never a hang). */
ttref_status ir_fs_read_regular(const char *path, char **out_buf, size_t *out_len, ttref_error *err);
/** write() all @p len bytes (EINTR retried). @return TTREF_OK or TTREF_E_IO with errno set. */
ttref_status ir_fs_write_all(int fd, const void *data, size_t len);

/** A file written whole or not at all: PATH.tmp.PID, then fsync and rename onto PATH. */
typedef struct ir_fs_atomic {
  FILE *f; /**< write here */
  char path[4096], tmp[4200];
} ir_fs_atomic;
/** Create @p path's temporary (O_EXCL, O_NOFOLLOW). @return TTREF_OK or TTREF_E_IO (strerror). */
ttref_status ir_fs_atomic_open(const char *path, ir_fs_atomic *a, ttref_error *err);
/**
 * Flush, fsync and rename the temporary onto the path. On any failure the
 * temporary is removed and the old file is untouched. @return TTREF_OK or
 * TTREF_E_IO naming the file with strerror(errno).
 */
ttref_status ir_fs_atomic_commit(ir_fs_atomic *a, ttref_error *err);
/** ir_fs_atomic_commit for the stream @p f that ir_fs_atomic_open made for @p path. */
ttref_status ir_fs_atomic_close(FILE *f, const char *path, ttref_error *err);
/** Write @p path whole or not at all (ir_fs_atomic_open, fwrite, commit). */
ttref_status ir_fs_write_atomic(const char *path, const void *data, size_t len, ttref_error *err);
/** The temporary name of a directory built whole: DIR.tmp.PID (trailing slashes dropped) into @p buf. */
void ir_fs_dir_tmp(const char *dir, char *buf, size_t n);
/**
 * fsync every file and directory under @p tmp, then rename it onto @p dir
 * (an existing @p dir is moved aside and removed after). On failure @p dir
 * is left as it was. @return TTREF_OK or TTREF_E_IO with strerror.
 */
ttref_status ir_fs_replace_dir(const char *tmp, const char *dir, ttref_error *err);
/** Close and remove the temporary (after an error). */
void ir_fs_atomic_abort(ir_fs_atomic *a);
/**
 * Whether @p dir can take a file of @p bytes (written, fsync'd, removed): a
 * failed write there is the disk's fault, not a backend's. @return TTREF_OK or
 * TTREF_E_IO with strerror (ENOSPC, EFBIG, EDQUOT, ...).
 */
ttref_status ir_fs_space_probe(const char *dir, size_t bytes, ttref_error *err);

/**
 * @p path as reports show it: relative to the directory @p report (absolute,
 * canonical) when it names an existing file or directory ("../suite/core"),
 * so no report holds this machine's absolute paths; unchanged otherwise.
 */
void ir_fs_relpath(const char *report, const char *path, char *out, size_t n);

#endif
