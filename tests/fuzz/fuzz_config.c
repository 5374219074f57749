/*
 * fuzz_config.c -- libFuzzer target for configuration files (the reader of
 * --config FILE and the `config` lines of sweep specs).
 *
 * Models no hardware.  Feeds arbitrary bytes, as the contents of a config
 * file, to cfg_load_stream (what wsConfigLoadFile runs after its checks of
 * the file), then checks the configuration as a whole and prints it to a
 * memory stream.  Built by `make fuzz`; run as
 *   build/fuzz-config tests/fuzz/corpus-config configs -max_len=4096
 * Any crash, sanitizer report, leak or hang is a bug in src/config/ (or in
 * the per-parameter checks of src/gpu/config_api.c that wsConfigSet adds).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ws_config *c = wsConfigCreate();
	if (!c)
		return 0;
	/* fmemopen of 0 bytes fails on some C libraries: give it one spare byte, not read */
	unsigned char *copy = malloc(size + 1);
	if (copy) {
		for (size_t i = 0; i < size; i++)
			copy[i] = data[i];
		FILE *f = fmemopen(copy, size ? size : 1, "r");
		if (f) {
			char err[512];
			if (size)
				(void)cfg_load_stream(c, f, "fuzz.cfg", wsConfigSet, err, sizeof err);
			fclose(f);
			(void)wsConfigCheck(c, err, sizeof err);
			char *out = NULL;
			size_t outlen = 0;
			FILE *o = open_memstream(&out, &outlen);
			if (o) {
				wsConfigPrint(c, o);
				fclose(o);
			}
			free(out);
		}
		free(copy);
	}
	wsConfigDestroy(c);
	return 0;
}
