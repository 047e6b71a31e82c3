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
  const char *cwd;         /**< NULL: inherit */
  const char *out_path;    /**< stdout+stderr go here (created/truncated); NULL: /dev/null */
  double timeout_s;        /**< <= 0: no limit */
} conform_spawn;

/**
 * Run @p s to completion or until its time limit, then kill its whole process
 * group. @return TTREF_OK with *out filled, or TTREF_E_IO when fork fails.
 */
ttref_status conform_sys_run(const conform_spawn *s, conform_exit *out, ttref_error *err);

/** A long-lived child with line pipes (batch adapters). */
typedef struct conform_pipe_child {
  pid_t pid;
  int to_fd;    /**< write end of its stdin */
  int from_fd;  /**< read end of its stdout */
  char buf[4096];
  size_t nbuf;
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
/**
 * Send @p line (a newline is added) and read one reply line into @p reply
 * (NUL-terminated, newline stripped) within @p timeout_s.
 * @return TTREF_OK; TTREF_E_LIMIT on timeout; TTREF_E_IO when the child
 * closed its stdout (died).
 */
ttref_status conform_sys_pipe_ask(conform_pipe_child *c, const char *line, char *reply, size_t n,
                                  double timeout_s, ttref_error *err);
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
ttref_status conform_sys_write_file_in(const char *root, const char *rel, const void *data, size_t len, ttref_error *err);
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

#endif
