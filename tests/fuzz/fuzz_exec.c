/*
 * fuzz_exec.c -- libFuzzer target for `warpsim exec`'s argument and
 * input-file parsing (docs/cli.md, "warpsim exec").
 *
 * Models no hardware.  The input is an exec command line, one word a line
 * (the PTX file and kernel name first, as the command takes them); a line
 * "@@" ends the words, and the bytes after it are written to a scratch file
 * that every "@F" in a word names (--arg buf:x:f32:file=@F, --arg file:@F,
 * --set-var v=file:@F).  The words go through the command-line parser with
 * exec's own option table, then cli_exec_check: the launch shape, every
 * --arg/--tex/--set-var/--out/--print spec, the input files (at most 1 MiB
 * each) and the initial values of the buffers -- no PTX module and no
 * simulation.  Built by `make fuzz`; run as
 *   build/fuzz-exec tests/fuzz/corpus-exec -max_len=4096
 * Any crash, sanitizer report, leak or hang is a bug in src/cli/cmd_exec.c
 * (or opts.c, types.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64

static char scratch[64];

static void scratch_remove(void) { unlink(scratch); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(scratch, sizeof scratch, "/tmp/warpsim-fuzz-exec-%d.bin", (int)getpid());
	atexit(scratch_remove);
	/* the command's error messages: not the fuzzer's output (libFuzzer and
	 * the sanitizers keep their own handle on the real stderr) */
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		stderr = null;
		stdout = null;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the words (with "@F" replaced) and, after "@@", the scratch file's bytes */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *file = NULL;
	size_t file_len = 0;
	char *sep = strstr(text, "\n@@\n");
	if (sep) {
		*sep = '\0';
		file = sep + 4;
		file_len = size - (size_t)(file - text);
	}
	FILE *f = fopen(scratch, "wb");
	if (f) {
		if (file_len)
			fwrite(file, 1, file_len, f);
		fclose(f);
	}
	char *argv[MAX_WORDS];
	int argc = 0;
	for (char *w = text; w && argc < MAX_WORDS;) {
		char *nl = strchr(w, '\n');
		if (nl)
			*nl = '\0';
		size_t n = strlen(w), at = 0;
		for (const char *p = w; (p = strstr(p, "@F")); p += 2)
			at++;
		char *word = malloc(n + at * strlen(scratch) + 1);
		if (!word)
			break;
		char *o = word;
		for (const char *p = w; *p;) {
			if (p[0] == '@' && p[1] == 'F') {
				o += sprintf(o, "%s", scratch);
				p += 2;
			} else
				*o++ = *p++;
		}
		*o = '\0';
		argv[argc++] = word;
		w = nl ? nl + 1 : NULL;
	}
	static const struct cli_cmd exec_cmd = {"exec", "PTX KERNEL", "", NULL, 2, 2, cli_exec_opts, NULL};
	struct cli_args a;
	if (cli_args_parse(&exec_cmd, argc, argv, &a) == CLI_EXIT_OK) {
		cli_exec_check(&a, (size_t)1 << 20);
		cli_args_free(&a);
	}
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(text);
	return 0;
}
