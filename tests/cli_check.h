/* cli_check.h -- helpers of the CLI tests (cli_check.c). */
#ifndef WARPSIM_TESTS_CLI_CHECK_H
#define WARPSIM_TESTS_CLI_CHECK_H

#include <stddef.h>

#include "test.h"

#define CLI_PTX TEST_DATA_DIR "/ptx/exec/"

const char *cli_bin(void);
int cli_missing(struct test_ctx *t);
int cli_run(const char *args, int merge, char **out);
void cli_expect(struct test_ctx *t, const char *args, int status, const char *needle);
void cli_expect_stderr1(struct test_ctx *t, const char *args, int status, const char *first);
int cli_tmpdir(struct test_ctx *t, char dir[64]);
void cli_path(char *buf, size_t sz, const char *dir, const char *name);
char *cli_slurp(const char *path, size_t *len);

#endif
