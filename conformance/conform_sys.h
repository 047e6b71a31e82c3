/*
 * conform_sys.h: operating-system services of the harness: child processes
 * in their own process group with a time limit (a crash or hang becomes an
 * outcome, never the harness's death), line pipes to long-lived batch
 * adapters, and reaping every descendant. Files and paths: ir_base_fs.h.
 * Ownership: every argument is borrowed; a conform_pipe_child is caller
 * storage whose child and pipes conform_sys_pipe_stop releases.
 */
#ifndef CONFORM_SYS_H
#define CONFORM_SYS_H

#include <stdbool.h>
#include <stddef.h>
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
 * (ir_fs_now() seconds; <= 0: none). A line longer than the pipe
 * buffer (4096) is discarded as it arrives: then *out_dropped is its length
 * and @p out is "" (else *out_dropped is 0).
 * @return TTREF_OK; TTREF_E_LIMIT past the deadline; TTREF_E_IO when the
 * child closed its stdout.
 */
ttref_status conform_sys_pipe_readline(conform_pipe_child *c, char *out, size_t n, double deadline, size_t *out_dropped,
                                       ttref_error *err);
/** Close the pipes, kill the child's process group and reap it; *out may be NULL. */
void conform_sys_pipe_stop(conform_pipe_child *c, conform_exit *out);

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

#endif
