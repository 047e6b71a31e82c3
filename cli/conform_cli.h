/*
 * conform_cli.h: the harness's `ttref` subcommands: conform, golden,
 * coverage and report. Each takes argv[0] = the subcommand name and returns the exit
 * status (0 ok; 1 unexpected verdicts, drift or failed reference runs;
 * 2 usage error or bad input).
 * Ownership: argv is borrowed.
 */
#ifndef CONFORM_CLI_H
#define CONFORM_CLI_H

/** `ttref conform SUITE --backend NAME|ADAPTER ...` (see docs/suite-format.md, docs/adapter-protocol.md). */
int conform_cmd_conform(int argc, char **argv);
/** `ttref golden SUITE --out DIR` / `ttref golden SUITE --verify DIR`. */
int conform_cmd_golden(int argc, char **argv);
/** `ttref coverage SUITE... [-o FILE] [--allow FILE] [--check]` (conform_coverage.h). */
int conform_cmd_coverage(int argc, char **argv);
/** `ttref report merge DIR... --out DIR`. */
int conform_cmd_report(int argc, char **argv);

#endif
