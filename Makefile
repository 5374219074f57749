# warpsim -- GNU Make build.  Out-of-tree: everything goes to $(BUILD).
#   make            library build/libwarpsim.a, CLI build/warpsim and the CUDA
#                   runtime build/libcudart.so.13 (+ libcudart.so link names)
#   make test       build and run the test suite (ends with "N passed, N failed")
#   make bench      simulator speed on the bundled kernels, the spin and wavefront ones too (and 1 vs 2
#                   threads with a core kept busy); scripts/spin-ratio.sh: those at paper size (slow)
#   make tsan       the parallel-simulation tests under ThreadSanitizer
#   make golden     regenerate tests/golden/*.txt (golden statistics: tiny, bows_tiny, titanx_tiny, titanx_2sm_tiny, dwr_tiny,
#                   frontend_tiny, baws_tiny, baws_small, gtx1080ti_tiny) deliberately
#   make check-results  rerun a sample of the papers' documented runs and compare with the committed docs/*/ CSVs,
#                   and check that each paper's page regenerates from its CSVs (scripts/docs-tables-check.sh)
#   make ptx        regenerate committed bench/*/kernel.ptx with nvcc (if present), then make regs
#   make regs       regenerate committed bench/*/kernel.regs (ptxas's registers per kernel) from the PTX
#   make cuda-hosts build/cuda-hosts/NAME: each bundled benchmark as a CUDA program (needs nvcc; docs/cuda.md)
#   make asan       test suite under AddressSanitizer + UndefinedBehaviorSanitizer (the
#                   thread-count tests run under `make tsan` instead)
#   make fuzz       build the libFuzzer targets: PTX parser, config files, sweep specs, exec arguments (clang)
BUILD    ?= build
CC       ?= cc
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WFLAGS   := -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -Isrc -Ibench -I$(BUILD)/gen
LDLIBS   := -lm -lpthread
NVCC     ?= nvcc
NVCCFLAGS ?= -arch=compute_75 -ptx -O3

LIB_SRC   := $(sort $(wildcard src/ptx/*.c src/func/*.c src/gpu/*.c src/stats/*.c src/config/*.c src/util/*.c src/mem/*.c src/core/*.c src/sched/*.c))
CLI_SRC   := $(sort $(wildcard src/cli/*.c))
# a benchmark is bench/NAME/ with both host.c and the committed kernel.ptx
BENCHES   := $(sort $(patsubst bench/%/host.c,%,$(wildcard bench/*/host.c)))
BENCHES   := $(foreach b,$(BENCHES),$(if $(wildcard bench/$(b)/kernel.ptx),$(b)))
BENCH_SRC := $(foreach b,$(BENCHES),bench/$(b)/host.c) bench/bench_common.c bench/bench_sib.c bench/golden.c
TEST_SRC  := $(sort $(wildcard tests/*.c))
# the CUDA runtime library (docs/cuda.md): the simulator library built again
# position-independent under $(BUILD)/pic, without sanitizers (it is loaded
# into programs nvcc built), plus src/cudart; nothing of src/cli
CUDART_SRC := $(sort $(wildcard src/cudart/*.c))
PIC_OBJ   := $(LIB_SRC:%.c=$(BUILD)/pic/%.o) $(CUDART_SRC:%.c=$(BUILD)/pic/%.o)

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/bench_ptx.o $(BUILD)/gen/bench_table.o
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/test_list.o

LIB := $(BUILD)/libwarpsim.a
CLI := $(BUILD)/warpsim
TESTBIN := $(BUILD)/warpsim-tests
CUDART := $(BUILD)/libcudart.so.13
# `make cuda-hosts` (below): the CUDA programs, and those `make test` builds and runs
# (test cudart_bench_hosts) where nvcc is found; the sanitizer builds set it empty (nvcc
# cannot link their instrumented objects)
NVCC_FOUND      := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_HOSTS      ?= $(BENCHES)
CUDA_HOST_DIR   := $(BUILD)/cuda-hosts
CUDA_HOSTS_TEST ?= $(if $(NVCC_FOUND),vecadd cp mm stn ht)

.PHONY: all test bench ptx regs asan tsan fuzz clean format golden cudart-bins check-results cuda-hosts
all: $(LIB) $(CLI) $(CUDART)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@; ar rcs $@ $^

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(OPT) -g -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(CUDART): $(PIC_OBJ) src/cudart/libcudart.map
	$(CC) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=src/cudart/libcudart.map -Wl,-z,defs \
	  -o $@ $(PIC_OBJ) -lm -lpthread
	ln -sf libcudart.so.13 $(BUILD)/libcudart.so

$(CLI): $(CLI_OBJ) $(BENCH_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BENCH_OBJ) $(LIB) $(LDLIBS)

# ---- generated sources ----
# The set of benchmarks (and test files) is itself an input: rewrite a stamp
# whenever it changes so the generated tables are rebuilt.
LIST_STAMP := $(BUILD)/gen/lists.txt
BENCH_REGS := $(wildcard $(foreach b,$(BENCHES),bench/$(b)/kernel.regs))
$(shell mkdir -p $(BUILD)/gen; printf '%s\n' '$(BENCHES)' '$(TEST_SRC)' '$(BENCH_REGS)' | cmp -s - $(LIST_STAMP) || \
  printf '%s\n' '$(BENCHES)' '$(TEST_SRC)' '$(BENCH_REGS)' > $(LIST_STAMP))

# The policy registry (src/sched/registry.c includes it): one line per
# WS_POLICY(ident, rank) / WS_FETCH_POLICY(ident, rank) line in
# src/sched/*.c, ordered by rank then ident (sched.h), rewritten only when
# that list changes, so adding a policy is adding its file.
SCHED_REG := $(BUILD)/gen/sched_registry.inc
$(shell for k in POLICY FETCH_POLICY; do \
    grep -ho "^WS_$${k}([a-z0-9_]*, *[0-9]*)" src/sched/*.c | \
    sed "s/^WS_[A-Z_]*(\([a-z0-9_]*\), *\([0-9]*\))/\2 \1/" | sort -k1,1n -k2,2 | \
    sed "s/^[0-9]* \(.*\)/WS_REGISTER_$${k}(\1)/"; done > $(SCHED_REG).tmp; \
  cmp -s $(SCHED_REG).tmp $(SCHED_REG) && rm -f $(SCHED_REG).tmp || mv $(SCHED_REG).tmp $(SCHED_REG))
$(BUILD)/src/sched/registry.o $(BUILD)/pic/src/sched/registry.o: $(SCHED_REG)

$(BUILD)/tools/embed: tools/embed.c src/util/hash.h
	@mkdir -p $(dir $@)
	$(CC) -Isrc $(WFLAGS) -O1 -o $@ $<

# the committed register counts of the benchmarks (src/ptx/regs.c includes the table)
$(BUILD)/gen/bench_regs.inc: $(BUILD)/tools/embed $(LIST_STAMP) $(BENCH_REGS)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed --regs $(BENCHES) > $@.tmp && mv $@.tmp $@
$(BUILD)/src/ptx/regs.o $(BUILD)/pic/src/ptx/regs.o $(BUILD)/fuzz-obj/src/ptx/regs.o: $(BUILD)/gen/bench_regs.inc

$(BUILD)/gen/bench_ptx.c: $(BUILD)/tools/embed $(LIST_STAMP) $(foreach b,$(BENCHES),bench/$(b)/kernel.ptx)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed $(BENCHES) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/bench_table.c: Makefile $(LIST_STAMP) $(foreach b,$(BENCHES),bench/$(b)/host.c)
	@mkdir -p $(dir $@)
	{ echo '#include "bench.h"'; \
	  for b in $(BENCHES); do echo "extern const struct ws_bench_info bench_$$b;"; done; \
	  echo 'const struct ws_bench_info *const ws_bench_table[] = {'; \
	  for b in $(BENCHES); do echo "  &bench_$$b,"; done; \
	  echo '  0 };'; } > $@

$(BUILD)/gen/test_list.c: $(TEST_SRC) $(LIST_STAMP) Makefile
	@mkdir -p $(dir $@)
	{ echo '#include "test.h"'; \
	  grep -ho '^TEST([a-z0-9_]*)' $(TEST_SRC) | sed 's/TEST(\(.*\))/void test_\1(struct test_ctx *t);/'; \
	  echo 'const struct test_entry test_list[] = {'; \
	  grep -ho '^TEST([a-z0-9_]*)' $(TEST_SRC) | sed 's/TEST(\(.*\))/  {"\1", test_\1},/'; \
	  echo '  {0, 0} };'; } > $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CPPFLAGS) -Itests $(WFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BENCH_OBJ) $(TEST_OBJ): | $(BUILD)/gen/bench_ptx.c

# ---- tests ----
# the fat binary reader and the decompressors are unit-tested directly (tests/test_fatbin.c)
FATBIN_OBJ := $(BUILD)/src/cudart/fatbin.o $(BUILD)/src/cudart/zstd.o
$(TESTBIN): $(TEST_OBJ) $(BENCH_OBJ) $(LIB) $(FATBIN_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(BENCH_OBJ) $(FATBIN_OBJ) $(LIB) $(LDLIBS)

# WARPSIM_CC/CFLAGS/LIB: how the API examples test (api_examples_*) builds the
# examples of README.md and include/warpsim.h against this build's library
test: $(TESTBIN) $(CLI) $(CUDART) $(CUDA_HOSTS_TEST:%=$(CUDA_HOST_DIR)/%)
	WARPSIM_TEST_SKIP=$(WARPSIM_TEST_SKIP) WARPSIM_BIN=$(CLI) WARPSIM_CC="$(CC)" \
	  WARPSIM_CUDA_HOSTS="$(CUDA_HOSTS_TEST)" WARPSIM_CUDA_HOST_DIR=$(CUDA_HOST_DIR) \
	  WARPSIM_CFLAGS="$(CFLAGS) $(LDFLAGS)" WARPSIM_LIB=$(LIB) $(TESTBIN) $(TESTARGS)

# regenerate every tests/golden/*.txt deliberately (after an intended model change): the tests named golden_*
golden: $(TESTBIN) $(CLI)
	WARPSIM_GOLDEN_WRITE=1 WARPSIM_BIN=$(CLI) $(TESTBIN) golden_

# rerun the sample of the papers' documented runs in scripts/check-results.list and compare them with the
# committed CSVs in docs/{baws,bows,kaws,dwr}/, exactly (docs/validation.md); CHECK_JOBS workers (default: cores)
check-results: $(CLI)
	scripts/check-results.py --bin $(CLI) $(if $(CHECK_JOBS),--jobs $(CHECK_JOBS))
	scripts/docs-tables-check.sh

# every kernel at small size (nw1, nw2, tsp, ht and atm among them: a few warps
# spin or wait, as at paper size, where they take minutes), and at paper size
# mm, sp and the spin and wavefront kernels that take seconds there (nw,
# hashtable, cpds)
bench: $(CLI)
	$(CLI) bench --table --sched gto --paper mm,sp,nw,hashtable,cpds
	scripts/threads-busy.sh --quick --bin $(CLI)

asan:
	$(MAKE) BUILD=build-asan CC=clang OPT=-O1 \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" WARPSIM_TEST_SKIP=paper_,threads_ CUDA_HOSTS_TEST= test

# ThreadSanitizer: the parallel-simulation tests (threads=1,2,3 give identical
# statistics) on a few benchmarks that cover stores, atomics, locks, barriers
# and device printf-free paths; a data race fails the run.
TSAN_BENCH := sp,vecadd,hashtable,ht,atm,bfs,hotspot,histo
tsan:
	WARPSIM_THREADS_BENCH=$(TSAN_BENCH) TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	$(MAKE) BUILD=build-tsan CC=clang OPT=-O1 \
	  CFLAGS="-O1 -g -fsanitize=thread -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=thread" TESTARGS=threads_ CUDA_HOSTS_TEST= test

FUZZ_SRC := $(sort $(wildcard src/ptx/*.c src/util/*.c))
fuzz: $(BUILD)/fuzz-ptx $(BUILD)/fuzz-config $(BUILD)/fuzz-sweep $(BUILD)/fuzz-exec
$(BUILD)/fuzz-ptx: tests/fuzz/fuzz_ptx.c $(FUZZ_SRC) | $(BUILD)/gen/bench_regs.inc
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $^ -lm

# the config, sweep-spec and exec targets link the library (and the benchmark table)
# built with the fuzzer's instrumentation, in $(BUILD)/fuzz-obj/
FUZZ_CFLAGS := -std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz-obj/%.o)
FUZZ_BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/fuzz-obj/%.o) $(BUILD)/fuzz-obj/gen/bench_ptx.o $(BUILD)/fuzz-obj/gen/bench_table.o
$(BUILD)/fuzz-obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) -Itests $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fuzz-obj/%.o: %.c | $(BUILD)/gen/bench_ptx.c
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fuzz-config: tests/fuzz/fuzz_config.c $(FUZZ_LIB_OBJ)
	clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $^ -lm
$(BUILD)/fuzz-sweep: tests/fuzz/fuzz_sweep.c src/cli/sweep_spec.c src/cli/sweep_files.c src/cli/outfile.c src/cli/json.c $(FUZZ_BENCH_OBJ) $(FUZZ_LIB_OBJ)
	clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $^ -lm
# exec's argument and input-file parsing (cli_exec_check): the exec command and the CLI pieces it uses
FUZZ_EXEC_SRC := src/cli/cmd_exec.c src/cli/opts.c src/cli/types.c src/cli/outfile.c src/cli/common.c
$(BUILD)/fuzz-exec: tests/fuzz/fuzz_exec.c $(FUZZ_EXEC_SRC) $(FUZZ_BENCH_OBJ) $(FUZZ_LIB_OBJ)
	clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $^ -lm -lpthread

# ---- PTX generation (needs nvcc) ----
ptx:
	@command -v $(NVCC) >/dev/null || { echo "make ptx: nvcc not found; the committed PTX is used"; exit 1; }
	for b in $(BENCHES); do echo "nvcc bench/$$b/kernel.cu"; \
	  $(NVCC) $(NVCCFLAGS) bench/$$b/kernel.cu -o bench/$$b/kernel.ptx || exit 1; done
	$(MAKE) regs

# bench/<b>/kernel.regs: "KERNEL REGISTERS" lines, as ptxas assigns them for
# $(PTXAS_ARCH), the lowest architecture CUDA 13 supports (the GTX480's sm_20
# is gone; src/ptx/regs.h PTX_REGS_PTXAS_ARCH), under a header naming the
# ptxas and the hash of the PTX they were made from (checked at load)
PTXAS      ?= ptxas
PTXAS_ARCH := sm_75
regs: $(BUILD)/tools/embed
	@command -v $(PTXAS) >/dev/null || { echo "make regs: ptxas not found; the committed counts are used"; exit 1; }
	for b in $(BENCHES); do echo "ptxas bench/$$b/kernel.ptx"; \
	  { echo "# registers per thread: ptxas -arch=$(PTXAS_ARCH) -v ($$($(PTXAS) --version | tail -1)); make regs"; \
	    echo "# ptx fnv1a64 $$($(BUILD)/tools/embed --hash bench/$$b/kernel.ptx)"; \
	    $(PTXAS) -arch=$(PTXAS_ARCH) -v bench/$$b/kernel.ptx -o /dev/null 2>&1 | \
	    awk "/Compiling entry function/ { split(\$$0, a, \"'\"); k = a[2] } \
	         /Used [0-9]+ registers/ && k != \"\" { print k, \$$5; k = \"\" }"; } > bench/$$b/kernel.regs.tmp && \
	  mv bench/$$b/kernel.regs.tmp bench/$$b/kernel.regs || exit 1; done

# ---- CUDA test programs (need nvcc): tests/cudart/bin/ holds the committed
# executables that tests/test_cudart.c runs through `warpsim cuda`, so the
# runtime tests run without nvcc.  Most carry only compute_75 PTX (nvcc's
# default zstd compression); vecadd is also built with nvcc's default flags
# (SASS + PTX), with LZ4 compression, uncompressed, and with two PTX versions;
# rdc is two translation units built with -rdc=true (-cudadevrt none keeps the
# device runtime library, 1 MB of PTX for every architecture, out of the test);
# vecadd_rpath has an RPATH (DT_RPATH, which LD_LIBRARY_PATH does not
# override) to bin/nvidia-rt/, where nvidia_rt.c stands in for NVIDIA's
# runtime on a machine without a driver.
CUDART_PROGS := vecadd reduce pipeline managed faults unsupported threads thrust texture device
CUDART_NVCC  := $(NVCC) -cudart shared -O2 -Xlinker -s
PTX75        := -gencode arch=compute_75,code=compute_75
cudart-bins:
	@command -v $(NVCC) >/dev/null || { echo "make cudart-bins: nvcc not found; the committed executables are used"; exit 1; }
	@mkdir -p tests/cudart/bin
	for p in $(CUDART_PROGS); do echo "nvcc tests/cudart/$$p.cu"; \
	  $(CUDART_NVCC) $(PTX75) tests/cudart/$$p.cu -o tests/cudart/bin/$$p || exit 1; done
	$(CUDART_NVCC) tests/cudart/vecadd.cu -o tests/cudart/bin/vecadd_default
	$(CUDART_NVCC) $(PTX75) -Xfatbin -compress-mode=speed tests/cudart/vecadd.cu -o tests/cudart/bin/vecadd_lz4
	$(CUDART_NVCC) $(PTX75) --no-compress tests/cudart/vecadd.cu -o tests/cudart/bin/vecadd_nocomp
	$(CUDART_NVCC) $(PTX75) -gencode arch=compute_80,code=compute_80 tests/cudart/vecadd.cu -o tests/cudart/bin/vecadd_multi
	$(CUDART_NVCC) -gencode arch=compute_75,code=sm_75 tests/cudart/noptx.cu -o tests/cudart/bin/noptx
	$(CUDART_NVCC) $(PTX75) -rdc=true -cudadevrt none tests/cudart/rdc_main.cu tests/cudart/rdc_kernels.cu -o tests/cudart/bin/rdc
	$(CUDART_NVCC) $(PTX75) -Xlinker -rpath -Xlinker '$$ORIGIN/nvidia-rt' -Xlinker --disable-new-dtags \
	  tests/cudart/vecadd.cu -o tests/cudart/bin/vecadd_rpath
	for p in selfcheck wrongcheck; do \
	  $(CUDART_NVCC) $(PTX75) tests/suites-fixture/repo/$$p.cu -o tests/suites-fixture/bin/$$p || exit 1; done
	@mkdir -p tests/cudart/bin/nvidia-rt
	$(CC) -shared -fPIC -O2 -s $(WFLAGS) -Wl,-soname,libcudart.so.13 -Wl,--version-script=src/cudart/libcudart.map \
	  tests/cudart/nvidia_rt.c -o tests/cudart/bin/nvidia-rt/libcudart.so.13

# ---- the bundled benchmarks as CUDA programs (need nvcc; docs/cuda.md):
# build/cuda-hosts/NAME is bench/NAME/host.c and bench/bench_common.c (the
# objects `warpsim run` links), tools/cuda-hosts/shim.c (their warpsim calls on
# the CUDA runtime, and main) and gen/NAME.cu (kernel.cu and its kernels by
# name, tools/cuda-hosts/gen.sh), built as GPGPU-Sim reads programs: shared
# runtime, uncompressed compute_75 PTX only.  CUDA_HOSTS="a b" builds some.
# The compiler's CUDA headers are NVCC_FOUND's ../include.
CUDA_HOST_NVCC := $(NVCC) -cudart shared --no-compress -gencode arch=compute_75,code=compute_75
CUDA_HOST_OBJ  := $(CUDA_HOST_DIR)/obj/shim.o $(CUDA_HOST_DIR)/obj/configs.o $(BUILD)/bench/bench_common.o
ifeq ($(NVCC_FOUND),)
cuda-hosts:
	@echo "make cuda-hosts: $(NVCC) not found: the CUDA host programs need the CUDA toolkit (NVCC=path/to/nvcc)" >&2
	@exit 1
else ifneq ($(filter-out $(BENCHES),$(CUDA_HOSTS)),)
cuda-hosts:
	@echo "make cuda-hosts: CUDA_HOSTS names something that is not a bundled benchmark: $(filter-out $(BENCHES),$(CUDA_HOSTS)) (the benchmarks are bench/*/)" >&2
	@exit 1
else
cuda-hosts: $(CUDA_HOSTS:%=$(CUDA_HOST_DIR)/%)
endif
$(CUDA_HOST_DIR)/gen/%.cu: bench/%/kernel.ptx tools/cuda-hosts/gen.sh
	@mkdir -p $(dir $@)
	tools/cuda-hosts/gen.sh host $* > $@.tmp && mv $@.tmp $@
$(CUDA_HOST_DIR)/gen/configs.c: $(CLI) $(wildcard configs/*.cfg) tools/cuda-hosts/gen.sh
	@mkdir -p $(dir $@)
	tools/cuda-hosts/gen.sh configs $(CLI) $(sort $(wildcard configs/*.cfg)) > $@.tmp && mv $@.tmp $@
$(CUDA_HOST_DIR)/obj/shim.o: tools/cuda-hosts/shim.c tools/cuda-hosts/cuda_host.h bench/bench.h include/warpsim.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(dir $(realpath $(NVCC_FOUND)))../include $(WFLAGS) $(CFLAGS) -c $< -o $@
$(CUDA_HOST_DIR)/obj/configs.o: $(CUDA_HOST_DIR)/gen/configs.c tools/cuda-hosts/cuda_host.h
	$(CC) $(CPPFLAGS) -Itools/cuda-hosts $(WFLAGS) $(CFLAGS) -c $< -o $@
$(BENCHES:%=$(CUDA_HOST_DIR)/%): $(CUDA_HOST_DIR)/%: $(CUDA_HOST_DIR)/gen/%.cu bench/%/kernel.cu $(BUILD)/bench/%/host.o \
  $(CUDA_HOST_OBJ)
	$(CUDA_HOST_NVCC) -O2 -Ibench -Iinclude -Itools/cuda-hosts -o $@ $< $(BUILD)/bench/$*/host.o $(CUDA_HOST_OBJ) -lm

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) build-asan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
