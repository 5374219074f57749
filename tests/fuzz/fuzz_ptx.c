/*
 * fuzz_ptx.c -- libFuzzer target for the PTX front end.
 *
 * Models no hardware.  Feeds arbitrary bytes to ptx_parse and, when the
 * parse succeeds, to ptx_analyse; then frees the module.  Built by
 * `make fuzz` (clang -fsanitize=fuzzer,address,undefined); run as
 *   build/fuzz-ptx tests/fuzz/corpus -max_len=8192
 * Any crash, sanitizer report, leak or hang is a bug in src/ptx/.
 */
#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptx_error err;
	struct ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &err);
	if (m) {
		(void)ptx_analyse(m, &err);
		ptx_module_destroy(m);
	}
	return 0;
}
