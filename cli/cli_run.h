/*
 * cli_run.h: the `ttref run`, `ttref check` and `ttref fmt` subcommands,
 * written only against the public API (ttref.h), so the commands exercise what
 * embedders get.
 * Ownership: argv and the registry are borrowed.
 */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include "ttref.h"

/** `ttref run KERNEL ...` with argv[0] = "run" and the vendor ops of @p reg (NULL: none).
 *  @return the exit status: 0 ran, 1 the kernel faulted, 2 usage error or bad input. */
int cli_cmd_run(int argc, char **argv, const ttref_registry *reg);

/** `ttref check FILE [--sym/--dtype/--oob ...]` with argv[0] = "check".
 *  @return 0 valid, 2 usage error or an invalid file (its located error printed). */
int cli_cmd_check(int argc, char **argv, const ttref_registry *reg);

/** `ttref fmt FILE [-o OUT] [--probes] [--sym/--dtype/--oob ...]` with argv[0] = "fmt".
 *  @return 0 printed, 1 never, 2 usage error, bad input or an unwritable OUT. */
int cli_cmd_fmt(int argc, char **argv, const ttref_registry *reg);

#endif
