/*
 * conform_sys.h: operating-system services of the harness: directories and
 * whole files, child processes in their own process group with a time limit
 * (a crash or hang becomes an outcome, never the harness's death), and line
 * pipes to long-lived batch adapters.
 * Ownership: buffers returned through out_ pointers are owned by the caller
 * and freed with ir_free(buf, len + 1); every other argument is borrowed.
 */
#ifndef CONFORM_SYS_H
#define CONFORM_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "ttref.h"

/** How a child process ended. */
typedef enum conform_exit_kind { CONFORM_EXITED, CONFORM_SIGNALED, CONFORM_TIMED_OUT } conform_exit_kind;

typedef struct conform_exit {
  conform_exit_kind kind;
  int code;       /**< exit status (EXITED) or signal number (SIGNALED) */
  double seconds; /**< wall time */
} conform_exit;

/** A child to run: either @p argv (execv) or @p fn(arg) in a forked copy of this process. */
typedef struct conform_spawn {
  const char *const *argv; /**< NULL-terminated; argv[0] is the executable path */
  int (*fn)(void *arg);    /**< used when argv is NULL; its return value is the exit status */
  void *arg;
  const char *cwd;      /**< NULL: inherit */
  const char *out_path; /**< stdout+stderr go here (created/truncated); NULL: /dev/null */
  double timeout_s;     /**< <= 0: no limit */
} conform_spawn;

/**
 * Run @p s to completion or until its time limit, then kill its whole process
 * group. @return TTREF_OK with *out filled, or TTREF_E_IO when fork fails.
 */
ttref_status conform_sys_run(const conform_spawn *s, conform_exit *out, ttref_error *err);

/** A long-lived child with line pipes (batch adapters). */
typedef struct conform_pipe_child {
  pid_t pid;
  int to_fd;   /**< write end of its stdin */
  int from_fd; /**< read end of its stdout */
  char buf[4096];
  size_t nbuf;
  bool skipping;  /**< inside an over-long line that conform_sys_pipe_readline discards */
  size_t skipped; /**< its bytes so far */
} conform_pipe_child;

/** Start @p argv with pipes; stderr goes to @p err_path (appended). */
ttref_status conform_sys_pipe_start(const char *const *argv, const char *err_path, conform_pipe_child *c,
                                    ttref_error *err);
/**
 * Like conform_sys_pipe_start, but the child is a forked copy of this process
 * running @p fn(@p arg) with the pipes on its stdin and stdout; its return
 * value is the exit status (it ends with _exit: no atexit handlers).
 */
ttref_status conform_sys_pipe_start_fn(int (*fn)(void *arg), void *arg, const char *err_path, conform_pipe_child *c,
                                       ttref_error *err);
/** Send @p line and a newline to the child. @return TTREF_OK or TTREF_E_IO (it closed its input). */
ttref_status conform_sys_pipe_send(conform_pipe_child *c, const char *line, ttref_error *err);
/**
 * Read the child's next stdout line into @p out (NUL-terminated, newline
 * stripped, cut to @p n - 1) by the monotonic time @p deadline
 * (conform_sys_now() seconds; <= 0: none). A line longer than the pipe
 * buffer (4096) is discarded as it arrives: then *out_dropped is its length
 * and @p out is "" (else *out_dropped is 0).
 * @return TTREF_OK; TTREF_E_LIMIT past the deadline; TTREF_E_IO when the
 * child closed its stdout.
 */
ttref_status conform_sys_pipe_readline(conform_pipe_child *c, char *out, size_t n, double deadline, size_t *out_dropped,
                                       ttref_error *err);
/** Close the pipes, kill the child's process group and reap it; *out may be NULL. */
void conform_sys_pipe_stop(conform_pipe_child *c, conform_exit *out);

/** mkdir -p. */
ttref_status conform_sys_mkdirs(const char *path, ttref_error *err);
/** rm -rf (best effort; symlinks are not followed). */
void conform_sys_rmtree(const char *path);
/** Whether @p path exists. */
bool conform_sys_exists(const char *path);
/** Read a whole file into a NUL-terminated buffer. */
ttref_status conform_sys_read_file(const char *path, char **out_buf, size_t *out_len, ttref_error *err);
/** Create or truncate @p path with @p len bytes of @p data. */
ttref_status conform_sys_write_file(const char *path, const void *data, size_t len, ttref_error *err);
/** Copy a file. */
ttref_status conform_sys_copy_file(const char *src, const char *dst, ttref_error *err);
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
const char *conform_sys_component_problem(const char *s);

/** mkdir -p of ROOT/REL (ROOT itself is created as given when missing). */
ttref_status conform_sys_mkdirs_in(const char *root, const char *rel, ttref_error *err);
/**
 * rm -rf of ROOT/REL: a symbolic link inside is removed as a link, never
 * followed. A missing ROOT/REL is fine. @return TTREF_E_IO when a component of
 * REL's parent is a symbolic link or a removal fails.
 */
ttref_status conform_sys_rmtree_in(const char *root, const char *rel, ttref_error *err);
/**
 * Open ROOT/REL for writing ("w": created or truncated, "a": created or
 * appended), refusing a symbolic link or any non-regular file there (a FIFO
 * is refused at once, without waiting for a reader). *out_f receives a
 * stream the caller fcloses (NULL on failure).
 */
ttref_status conform_sys_fopen_in(const char *root, const char *rel, const char *mode, FILE **out_f, ttref_error *err);
/** Like conform_sys_write_file for ROOT/REL, through conform_sys_fopen_in. */
ttref_status conform_sys_write_file_in(const char *root, const char *rel, const void *data, size_t len,
                                       ttref_error *err);
/** Copy @p src to ROOT/REL, through conform_sys_fopen_in. */
ttref_status conform_sys_copy_file_in(const char *src, const char *root, const char *rel, ttref_error *err);
/**
 * Whether @p path, with every symbolic link resolved, lies inside the
 * directory @p root_real (itself a realpath). False when @p path does not
 * exist (realpath fails); *out_errno then holds the reason, else 0.
 */
bool conform_sys_inside(const char *root_real, const char *path, int *out_errno);

/** The running executable's path (/proc/self/exe) into @p buf; false on failure. */
bool conform_sys_self_exe(char *buf, size_t n);
/** Seconds on a monotonic clock. */
double conform_sys_now(void);

/**
 * Open @p path for reading only if it is a regular file, without waiting on
 * a FIFO (O_NONBLOCK) and, unless @p follow, without following a symlink in
 * its last component (O_NOFOLLOW). Messages show @p name (NULL: @p path).
 * @return TTREF_OK with *out_fd (caller closes) and *out_size (may be NULL);
 * TTREF_E_IO naming the file and why ("not a regular file (a FIFO)",
 * "it is a symbolic link", strerror).
 */
ttref_status conform_sys_open_regular(const char *path, const char *name, bool follow, int *out_fd, int64_t *out_size,
                                      ttref_error *err);
/** conform_sys_open_regular (following symlinks) as a stdio stream; the caller fcloses *out. */
ttref_status conform_sys_fopen_regular(const char *path, bool follow, FILE **out, ttref_error *err);
/** conform_sys_read_file for a regular file only (a FIFO or device is TTREF_E_IO, never a hang). */
ttref_status conform_sys_read_regular(const char *path, char **out_buf, size_t *out_len, ttref_error *err);
/** write() all @p len bytes (EINTR retried). @return TTREF_OK or TTREF_E_IO with errno set. */
ttref_status conform_sys_write_all(int fd, const void *data, size_t len);

/** A file written whole or not at all: PATH.tmp.PID, then fsync and rename onto PATH. */
typedef struct conform_atomic {
  FILE *f; /**< write here */
  char path[4096], tmp[4200];
} conform_atomic;
/** Create @p path's temporary (O_EXCL, O_NOFOLLOW). @return TTREF_OK or TTREF_E_IO (strerror). */
ttref_status conform_sys_atomic_open(const char *path, conform_atomic *a, ttref_error *err);
/**
 * Flush, fsync and rename the temporary onto the path. On any failure the
 * temporary is removed and the old file is untouched. @return TTREF_OK or
 * TTREF_E_IO naming the file with strerror(errno).
 */
ttref_status conform_sys_atomic_commit(conform_atomic *a, ttref_error *err);
/** conform_sys_atomic_commit for the stream @p f that conform_sys_atomic_open made for @p path. */
ttref_status conform_sys_atomic_close(FILE *f, const char *path, ttref_error *err);
/** Write @p path whole or not at all (conform_sys_atomic_open, fwrite, commit). */
ttref_status conform_sys_write_atomic(const char *path, const void *data, size_t len, ttref_error *err);
/** The temporary name of a directory built whole: DIR.tmp.PID (trailing slashes dropped) into @p buf. */
void conform_sys_dir_tmp(const char *dir, char *buf, size_t n);
/**
 * fsync every file and directory under @p tmp, then rename it onto @p dir
 * (an existing @p dir is moved aside and removed after). On failure @p dir
 * is left as it was. @return TTREF_OK or TTREF_E_IO with strerror.
 */
ttref_status conform_sys_replace_dir(const char *tmp, const char *dir, ttref_error *err);
/** Close and remove the temporary (after an error). */
void conform_sys_atomic_abort(conform_atomic *a);
/**
 * Whether @p dir can take a file of @p bytes (written, fsync'd, removed): a
 * failed write there is the disk's fault, not a backend's. @return TTREF_OK or
 * TTREF_E_IO with strerror (ENOSPC, EFBIG, EDQUOT, ...).
 */
ttref_status conform_sys_space_probe(const char *dir, size_t bytes, ttref_error *err);
/**
 * Make this process the reaper of its orphaned descendants
 * (PR_SET_CHILD_SUBREAPER), so a daemon an adapter starts with setsid stays
 * findable, and ignore SIGXFSZ (a file-size limit becomes EFBIG).
 */
void conform_sys_become_subreaper(void);
/**
 * SIGKILL and reap every descendant of this process (found through /proc,
 * recursively, including orphans reparented to this subreaper) except
 * @p keep and its descendants (@p keep <= 0: none kept).
 * @return how many processes were killed.
 */
int conform_sys_reap_descendants(pid_t keep);

/**
 * @p path as reports show it: relative to the directory @p report (absolute,
 * canonical) when it names an existing file or directory ("../suite/core"),
 * so no report holds this machine's absolute paths; unchanged otherwise.
 */
void conform_sys_relpath(const char *report, const char *path, char *out, size_t n);

#endif
