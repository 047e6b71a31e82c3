/*
 * conform_plugin.h: C plugin backends (`plugin:PATH.so`, ABI in
 * ttref_backend.h). The shared object is only ever loaded in a child: a probe
 * child checks it when the backend is opened, and a per-worker host child
 * keeps it loaded and runs items for conform_backend over the batch
 * protocol's line pipes (docs/adapter-protocol.md).
 * Ownership: every argument is borrowed; the request line from
 * conform_plugin_request is owned by the caller (ir_free(line, len + 1)).
 */
#ifndef CONFORM_PLUGIN_H
#define CONFORM_PLUGIN_H

#include <stddef.h>
#include "conform_suite.h"

/**
 * Load @p path in a child process (limit @p timeout_s) and check its entry
 * symbol and ABI version. @p desc receives "NAME VERSION" from its api table.
 * @return TTREF_OK; TTREF_E_USAGE with a message saying what is wrong (not a
 * loadable shared object, no ttref_backend_get_api, another ABI version, a
 * crash or hang while loading); TTREF_E_IO when no child can be started.
 */
ttref_status conform_plugin_probe(const char *path, double timeout_s, char *desc, size_t n, ttref_error *err);

/**
 * The host child's body (a conform_sys_pipe_start_fn function; @p path is
 * the plugin's absolute path): loads the plugin and calls init once, then
 * answers one request line per item (from conform_plugin_request) with a
 * batch reply line (`ok|unsupported|error CASE_DIR [reason]`) until end of
 * input, then calls fini. Each item's stdout and stderr go to
 * CASE_DIR/backend.log. @return the exit status (0).
 */
int conform_plugin_host(void *path);

/**
 * The request line for one staged item: "DIR" then, tab-separated, one
 * "NAME:DTYPE:i|o" per pointer argument of @p s in signature order ('o':
 * judged output). @return TTREF_OK; TTREF_E_INPUT if @p dir holds a tab or
 * newline; TTREF_E_NOMEM.
 */
ttref_status conform_plugin_request(const conform_case *c, const conform_spec *s, const char *dir, char **out_line,
                                    size_t *out_len, ttref_error *err);

#endif
