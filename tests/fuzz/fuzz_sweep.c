/*
 * fuzz_sweep.c -- libFuzzer target for sweep specs (docs/sweeps.md).
 *
 * Models no hardware.  Feeds arbitrary bytes, as the text of a spec file, to
 * sweep_spec_parse: parsing, validation against the simulator's parameters,
 * policies and benchmarks, and the expansion into jobs.  Built by
 * `make fuzz`; run as
 *   build/fuzz-sweep tests/fuzz/corpus-sweep experiments -max_len=4096
 * Any crash, sanitizer report, leak or hang is a bug in src/cli/sweep_spec.c
 * (or sweep_files.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "cli/sweep_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1200];
	/* config files named by the spec are looked up beside this (nonexistent) path */
	struct sweep_spec *s = sweep_spec_parse((const char *)data, size, "/nonexistent/fuzz.spec", err, sizeof err);
	if (s)
		sweep_spec_free(s);
	return 0;
}
