/*
 * test_cudart.c -- tests of the CUDA runtime library (build/libcudart.so.13,
 * src/cudart/) and `warpsim cuda`: the CUDA programs of tests/cudart/ (*.cu),
 * built with `nvcc -cudart shared` (`make cudart-bins` rebuilds the
 * committed executables in tests/cudart/bin/, so no nvcc is needed here),
 * run through $WARPSIM_BIN cuda.  Each test checks the program's exit
 * status, its own standard output, and warpsim's standard error: the
 * per-kernel statistics, the located fault reports, the "no PTX" error.
 *
 * The executables need glibc 2.34 and libstdc++ (Debian 12, Ubuntu 22.04); where the host's
 * dynamic loader cannot start them (an older glibc), the tests say so and
 * pass without checking anything else.  suites_fixture runs
 * tests/suites-fixture/test.sh (scripts/suites.sh on a local fixture suite).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#define CUDA_BIN TEST_DATA_DIR "/cudart/bin/"

static const char *cu_bin(void)
{
	const char *b = getenv("WARPSIM_BIN");
	return b && *b ? b : "build/warpsim";
}

static char *cu_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 14, n = 0, got;
	char *buf = malloc(cap + 1);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

struct cu_run {
	int status; /* exit status, -1 if it did not exit */
	char *out, *err;
	char dir[64]; /* scratch directory (stats, trace files) */
};

/* Run the shell command LINE with stdout and stderr captured separately in a
 * scratch directory r->dir ("@/" in LINE names a file there).  Returns 0,
 * or 1 when a CUDA executable cannot start on this host (reported, and the
 * caller stops). */
static int cu_run_line(struct test_ctx *t, const char *line, struct cu_run *r)
{
	memset(r, 0, sizeof *r);
	snprintf(r->dir, sizeof r->dir, "/tmp/warpsim-cudart-XXXXXX");
	if (!mkdtemp(r->dir)) {
		CHECK_MSG(0, "mkdtemp failed");
		return 1;
	}
	/* "@/" in the line stands for the scratch directory */
	char o[2048] = "";
	for (size_t i = 0, k = 0; line[i] && k + 64 < sizeof o; i++) {
		if (line[i] == '@' && line[i + 1] == '/') {
			k += (size_t)snprintf(o + k, sizeof o - k, "%s/", r->dir);
			i++;
		} else {
			o[k++] = line[i];
			o[k] = '\0';
		}
	}
	char cmd[2300];
	/* run from the repository root: the paths are relative to it */
	snprintf(cmd, sizeof cmd, "( %s ) >%s/out 2>%s/err", o, r->dir, r->dir);
	fflush(stdout);
	int st = system(cmd);
	r->status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	char path[128];
	snprintf(path, sizeof path, "%s/out", r->dir);
	r->out = cu_slurp(path);
	snprintf(path, sizeof path, "%s/err", r->dir);
	r->err = cu_slurp(path);
	if (!r->out)
		r->out = strdup("");
	if (!r->err)
		r->err = strdup("");
	if (r->status == 127 && (strstr(r->err, "GLIBC") || strstr(r->err, "libstdc++.so.6: cannot open"))) {
		printf("  (the committed executable cannot start on this host: %.200s; rebuild it with "
		       "'make cudart-bins' where nvcc exists)\n",
		       r->err);
		return 1;
	}
	return 0;
}

/* Run "warpsim cuda OPTS -- tests/cudart/bin/PROG" (cu_run_line). */
static int cu_run(struct test_ctx *t, const char *opts, const char *prog, struct cu_run *r)
{
	char line[1024];
	snprintf(line, sizeof line, "%s cuda %s -- " CUDA_BIN "%s", cu_bin(), opts, prog);
	return cu_run_line(t, line, r);
}

static void cu_done(struct cu_run *r)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", r->dir);
	if (system(cmd) != 0) {
		/* leftover scratch files are harmless */
	}
	free(r->out);
	free(r->err);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* a successful run: status 0, the program's line on stdout, warpsim's
 * statistics (and nothing of warpsim's) on stderr */
static void cu_expect_ok(struct test_ctx *t, const char *opts, const char *prog, const char *line, int launches)
{
	struct cu_run r;
	if (cu_run(t, opts, prog, &r)) {
		cu_done(&r);
		return;
	}
	CHECK_MSG(r.status == 0, "%s: exit status %d\nstdout:\n%s\nstderr:\n%s", prog, r.status, r.out, r.err);
	CHECK_MSG(strstr(r.out, line), "%s: expected \"%s\" on stdout:\n%s\nstderr:\n%s", prog, line, r.out, r.err);
	CHECK_MSG(!strstr(r.out, "warpsim"), "%s: warpsim wrote to the program's stdout:\n%s", prog, r.out);
	char want[64];
	snprintf(want, sizeof want, "== warpsim: %d kernel launch%s", launches, launches == 1 ? "" : "es");
	CHECK_MSG(strstr(r.err, want), "%s: expected \"%s\" on stderr:\n%s", prog, want, r.err);
	CHECK_MSG(strstr(r.err, "stall breakdown") && strstr(r.err, "simulated cycles"),
	          "%s: no per-kernel statistics on stderr:\n%s", prog, r.err);
	CHECK_MSG(!strstr(r.err, "warpsim cudart:"), "%s: unexpected message from the runtime:\n%s", prog, r.err);
	cu_done(&r);
}

TEST(cudart_vecadd)
{
	cu_expect_ok(t, "", "vecadd", "vecadd: n=1000 PASSED", 1);
}

/* every device attribute answered (helper_cuda.h's findCudaDevice asks the
 * compute mode first), properties agreeing with them, cudaLaunchKernelExC
 * with attributes, and stream handles that are not streams refused */
TEST(cudart_device_attributes_launch_ex_streams)
{
	struct cu_run r;
	if (cu_run(t, "", "device", &r)) {
		cu_done(&r);
		return;
	}
	CHECK_MSG(r.status == 0, "device: exit status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	CHECK_STR_CONTAINS(r.out, "attributes: 124 answered, 37 invalid");
	CHECK_STR_CONTAINS(r.out, "device: PASSED");
	CHECK_STR_CONTAINS(r.err, "thread-block clusters (2x1x1) are not supported");
	CHECK_STR_CONTAINS(r.err, "not a stream of this program");
	cu_done(&r);
}

/* the fat binary forms: nvcc's defaults (SASS + zstd PTX), LZ4, uncompressed, two PTX versions */
TEST(cudart_fatbin_forms)
{
	cu_expect_ok(t, "", "vecadd_default", "vecadd: n=1000 PASSED", 1);
	cu_expect_ok(t, "", "vecadd_lz4", "vecadd: n=1000 PASSED", 1);
	cu_expect_ok(t, "", "vecadd_nocomp", "vecadd: n=1000 PASSED", 1);
	cu_expect_ok(t, "", "vecadd_multi", "vecadd: n=1000 PASSED", 1);
	/* the highest virtual architecture is the one loaded */
	struct cu_run r;
	if (cu_run(t, "--quiet --stats @/multi.jsonl", "vecadd_multi", &r) == 0) {
		char path[128];
		snprintf(path, sizeof path, "%s/multi.jsonl", r.dir);
		char *s = cu_slurp(path);
		CHECK_MSG(s && strstr(s, "\"ptx\":\"compute_80\""), "expected compute_80 chosen:\n%s",
		          s ? s : "(none)");
		free(s);
	}
	cu_done(&r);
}

/* the SASS of a fat binary gives ptxas's register counts (EIATTR_REGCOUNT of
 * its cubin: 12 for vecadd at sm_75); the occupancy report says so */
TEST(cudart_sass_register_counts)
{
	static const struct {
		const char *opts, *prog, *want;
	} c[] = {
	    {"--set reg_counts=estimate", "vecadd_default",
	     "regs/thread 10 (PTX estimate; ptxas assigns 12 (sass sm_75) -> 8 CTAs/SM"},
	    {"", "vecadd_default", "regs/thread 12 (ptxas, fatbin SASS sm_75)"}, /* reg_counts=ptxas: the default */
	    /* PTX only: no count known without ptxas */
	    {"--set reg_counts=estimate", "vecadd", "regs/thread 10 (PTX estimate)\n"},
	    /* ptxas asked for, none to run: the estimate, with a warning */
	    {"", "vecadd", "no ptxas register count for _Z6vecaddPKfS0_Pfi"},
	};
	for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct cu_run r;
		if (i == 3)
			setenv("WARPSIM_PTXAS", "/nonexistent/ptxas", 1);
		int skip = cu_run(t, c[i].opts, c[i].prog, &r);
		unsetenv("WARPSIM_PTXAS");
		if (skip) {
			cu_done(&r);
			return;
		}
		CHECK_MSG(r.status == 0, "%s: exit status %d\n%s", c[i].prog, r.status, r.err);
		CHECK_MSG(strstr(r.err, "occupancy: _Z6vecaddPKfS0_Pfi: "), "%s: no occupancy line:\n%s", c[i].prog,
		          r.err);
		CHECK_MSG(strstr(r.err, c[i].want), "%s %s: expected \"%s\":\n%s", c[i].opts, c[i].prog, c[i].want,
		          r.err);
		cu_done(&r);
	}
	/* the per-launch JSON lines carry it too */
	struct cu_run r;
	if (cu_run(t, "--quiet --set reg_counts=estimate --stats @/s.jsonl", "vecadd_default", &r) == 0) {
		char path[128];
		snprintf(path, sizeof path, "%s/s.jsonl", r.dir);
		char *s = cu_slurp(path);
		CHECK_MSG(s && strstr(s, "\"ctas_per_sm\":8,\"limit\":\"max_ctas_per_sm\",\"regs_per_thread\":10,"
		                         "\"regs_source\":\"estimate\",\"ptxas_regs\":12,\"ptxas_ctas_per_sm\":8"),
		          "no occupancy in the JSON line:\n%s", s ? s : "(none)");
		free(s);
	}
	cu_done(&r);
}

/* nvcc -rdc=true: the PTX of each translation unit is in its own fat binary */
TEST(cudart_rdc)
{
	cu_expect_ok(t, "", "rdc", "rdc: cudaSuccess, h[10] = 27: PASSED", 2);
}

TEST(cudart_reduce_symbols)
{
	cu_expect_ok(t, "", "reduce", "reduce: sum 4497 PASSED", 1);
	cu_expect_ok(t, "", "reduce", "device: SMs 15, warp size 32, attribute agrees 1", 1);
	cu_expect_ok(t, "", "reduce", "occupancy: 8 CTAs of 128 threads per SM", 1);
	/* the device described is the configured one */
	cu_expect_ok(t, "--config configs/titanx-pascal.cfg", "reduce", "device: SMs 28, warp size 32", 1);
	cu_expect_ok(t, "--set num_sms=3 --set warp_size=16", "reduce", "device: SMs 3, warp size 16", 1);
}

TEST(cudart_pipeline_streams_events)
{
	cu_expect_ok(t, "--sched gto", "pipeline", "pipeline: elapsed positive, first part shorter yes", 4);
	cu_expect_ok(t, "", "pipeline", "pipeline: 4 kernels PASSED", 4);
	cu_expect_ok(t, "", "pipeline", "pipeline: host function ran 1 time, 2D copy ok", 4);
}

/* a Thrust program: CUB's kernels, after cudaFuncGetAttributes and occupancy
 * queries; its stable_sort with a comparator launches through
 * cudaLaunchKernelExC with a scheduling attribute */
TEST(cudart_thrust)
{
	cu_expect_ok(t, "", "thrust", "thrust: sum 499500, scan 500 1000, sort ok, stable_sort ok: PASSED", 15);
}

/* CUDA arrays, texture and surface objects, in both models */
TEST(cudart_texture)
{
	cu_expect_ok(t, "", "texture", "texture: create cudaSuccess, bilinear ok", 3);
	cu_expect_ok(t, "", "texture", "texture: surface cudaSuccess, scaled ok", 3);
	cu_expect_ok(t, "", "texture", "texture: memcpy3D cudaSuccess, fetch and 3D ok", 3);
	cu_expect_ok(t, "--functional", "texture", "texture: PASSED", 3);
}

/* concurrent host threads, each launching on its own stream */
TEST(cudart_host_threads)
{
	cu_expect_ok(t, "", "threads", "threads: PASSED", 40);
}

TEST(cudart_managed)
{
	cu_expect_ok(t, "", "managed", "managed: list sum 10, pinned[7] 77", 3);
	cu_expect_ok(t, "", "managed", "managed: __managed__ hits 132, weights 3 8, symbol copy 7", 3);
	cu_expect_ok(t, "--functional", "managed", "managed: PASSED", 3);
}

/* --stats writes one JSON line per launch, --trace a Chrome trace of the launches */
TEST(cudart_stats_trace)
{
	struct cu_run r;
	if (cu_run(t, "--quiet --stats @/p.jsonl --trace @/p.json --summary @/s.json --sched gto", "pipeline", &r)) {
		cu_done(&r);
		return;
	}
	CHECK_MSG(r.status == 0, "exit status %d:\n%s", r.status, r.err);
	CHECK_MSG(!strstr(r.err, "== warpsim"), "--quiet printed statistics:\n%s", r.err);
	char path[3][128];
	snprintf(path[0], sizeof path[0], "%s/p.jsonl", r.dir);
	snprintf(path[1], sizeof path[1], "%s/p.json", r.dir);
	snprintf(path[2], sizeof path[2], "%s/s.json", r.dir);
	char *s = cu_slurp(path[0]), *tr = cu_slurp(path[1]);
	CHECK_MSG(s && count(s, "\n") == 4 && count(s, "{\"launch\":") == 4, "stats:\n%s", s ? s : "(none)");
	CHECK_MSG(s && strstr(s, "\"kernel\":\"_Z6squarePii\"") && strstr(s, "\"grid\":[4,1,1],\"block\":[128,1,1]") &&
	              strstr(s, "\"cycles\":") && strstr(s, "\"ipc\":") && strstr(s, "\"stall_data\":") &&
	              strstr(s, "\"error\":null"),
	          "stats:\n%s", s ? s : "(none)");
	CHECK_MSG(tr && strstr(tr, "\"traceEvents\"") && count(tr, "\"ph\":\"X\"") == 4 &&
	              strstr(tr, "_Z3addPKiS0_Pii"),
	          "trace:\n%s", tr ? tr : "(none)");
	char *sum = cu_slurp(path[2]);
	CHECK_MSG(sum && strstr(sum, "\"kernels\": 4") && strstr(sum, "\"sched\": \"gto\""), "summary:\n%.2000s",
	          sum ? sum : "(none)");
	free(sum);
	free(s);
	free(tr);
	cu_done(&r);
}

/* a fault: the matching CUDA error from the next synchronizing call (sticky),
 * warpsim's located report on stderr */
static void cu_expect_fault(struct test_ctx *t, const char *opts, const char *prog, const char *line,
                            const char *report)
{
	struct cu_run r;
	if (cu_run(t, opts, prog, &r)) {
		cu_done(&r);
		return;
	}
	CHECK_MSG(r.status == 3, "%s: exit status %d\nstdout:\n%s\nstderr:\n%s", prog, r.status, r.out, r.err);
	CHECK_MSG(strstr(r.out, line), "%s: expected \"%s\" on stdout:\n%s", prog, line, r.out);
	CHECK_MSG(strstr(r.err, report), "%s: expected \"%s\" on stderr:\n%s", prog, report, r.err);
	cu_done(&r);
}

TEST(cudart_fault_oob)
{
	cu_expect_fault(t, "", "faults oob",
	                "faults oob: launch cudaErrorIllegalAddress, synchronize cudaErrorIllegalAddress, next call "
	                "cudaErrorIllegalAddress",
	                "out-of-bounds write of 4 bytes at global address");
	cu_expect_fault(t, "", "faults oob", "", "compute_75.ptx:");
}

TEST(cudart_fault_assert_deadlock)
{
	cu_expect_fault(t, "", "faults assert", "synchronize cudaErrorAssert",
	                "assertion 'p[threadIdx.x] == 0' failed in void check(const int *), tests/cudart/faults.cu:17");
	cu_expect_fault(t, "--set livelock_cycles=20000", "faults deadlock", "synchronize cudaErrorLaunchTimeout",
	                "waiting at barrier 0");
}

/* SASS only: one clear error naming the nvcc flags, the launch fails */
TEST(cudart_no_ptx)
{
	struct cu_run r;
	if (cu_run(t, "--quiet", "noptx", &r)) {
		cu_done(&r);
		return;
	}
	CHECK_MSG(r.status == 4, "exit status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	CHECK_STR_CONTAINS(r.out, "noptx: launch cudaErrorNoKernelImageForDevice");
	CHECK_MSG(count(r.err, "error") == 1 && strstr(r.err, "no PTX, only SASS for sm_75") &&
	              strstr(r.err, "-gencode arch=compute_75,code=compute_75"),
	          "expected one error naming the flags:\n%s", r.err);
	cu_done(&r);
}

/* an unimplemented call: cudaErrorNotSupported and one line naming it.  Run
 * without `warpsim cuda`: LD_LIBRARY_PATH and WARPSIM_* only. */
TEST(cudart_unsupported_call_env)
{
	char dir[64] = "/tmp/warpsim-cudart-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK_MSG(0, "mkdtemp failed");
		return;
	}
	/* the library lives beside the warpsim binary */
	char libdir[512];
	snprintf(libdir, sizeof libdir, "%s", cu_bin());
	char *slash = strrchr(libdir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(libdir, sizeof libdir, ".");
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "LD_LIBRARY_PATH=%s WARPSIM_SET='num_sms=2;warp_size=32' WARPSIM_SCHED=gto "
	         "WARPSIM_STATS=%s/s.jsonl " CUDA_BIN "unsupported >%s/out 2>%s/err",
	         libdir, dir, dir, dir);
	int st = system(cmd);
	char path[128];
	snprintf(path, sizeof path, "%s/out", dir);
	char *out = cu_slurp(path);
	snprintf(path, sizeof path, "%s/err", dir);
	char *err = cu_slurp(path);
	snprintf(path, sizeof path, "%s/s.jsonl", dir);
	char *stats = cu_slurp(path);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && err && strstr(err, "GLIBC")) {
		printf("  (the committed executable cannot start on this host: %.200s)\n", err);
	} else {
		CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d:\n%s", st, err ? err : "");
		CHECK_MSG(out &&
		              strstr(out, "cudaGraphCreate cudaErrorNotSupported, last error cudaErrorNotSupported") &&
		              strstr(out, "then a kernel: cudaSuccess, h[31] = 31"),
		          "stdout:\n%s", out ? out : "");
		CHECK_MSG(err && count(err, "warpsim cudart:") == 1 &&
		              strstr(err, "warpsim cudart: cudaGraphCreate is not supported by warpsim"),
		          "stderr:\n%s", err ? err : "");
		CHECK_MSG(stats && count(stats, "\n") == 1 && strstr(stats, "\"kernel\":\"_Z1kPi\""), "stats:\n%s",
		          stats ? stats : "(none)");
	}
	free(out);
	free(err);
	free(stats);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0) {
		/* leftover scratch files are harmless */
	}
}

/* "warpsim ARGS" (cu_run_line): exit status `status`, `err` on stderr,
 * nothing on stdout (the program did not run, or printed nothing) */
static void cu_expect_line(struct test_ctx *t, const char *args, int status, const char *err)
{
	char line[1024];
	snprintf(line, sizeof line, "%s %s", cu_bin(), args);
	struct cu_run r;
	if (cu_run_line(t, line, &r) == 0)
		CHECK_MSG(r.status == status && strstr(r.err, err) && r.out[0] == '\0',
		          "%s: status %d (expected %d), expected \"%s\" on "
		          "stderr:\n%s\nstdout:\n%s",
		          args, r.status, status, err, r.err, r.out);
	cu_done(&r);
}

/* `warpsim cuda` itself: bad options exit 2 before the program runs; a
 * program that cannot run (not executable, a directory, missing) or an
 * output path that cannot be written is refused before anything runs,
 * saying why */
TEST(cudart_cli_errors)
{
	struct cu_run r;
	if (cu_run(t, "--set no_such_param=1", "vecadd", &r) == 0) {
		CHECK_MSG(r.status == 2 && strstr(r.err, "no_such_param") && r.out[0] == '\0', "status %d:\n%s",
		          r.status, r.err);
	}
	cu_done(&r);
	cu_expect_line(t, "cuda -- " TEST_DATA_DIR "/main.c", 1,
	               "tests/main.c is not executable (Permission denied): make it executable");
	cu_expect_line(t, "cuda -- " TEST_DATA_DIR "/cudart", 1, "tests/cudart is a directory, not a program");
	cu_expect_line(t, "cuda -- " CUDA_BIN "nothing", 1, "bin/nothing: cannot run it: No such file or directory");
	cu_expect_line(t, "cuda -- no-such-program-here", 1, "no-such-program-here: no such program on PATH");
	/* every output path is checked before the program runs (--stats: tests/test_cli_docs.c) */
	cu_expect_line(t, "cuda --summary /nonexistent-dir/s.json -- " CUDA_BIN "vecadd", 1,
	               "--summary /nonexistent-dir/s.json: cannot create: No such file or directory");
	cu_expect_line(t, "cuda --trace " TEST_DATA_DIR "/cudart -- " CUDA_BIN "vecadd", 1,
	               "--trace tests/cudart: is a directory");
	/* without "--", the words after the program are its own (here --quiet is vecadd's argv[2]) */
	char cmd[512], buf[1024];
	snprintf(cmd, sizeof cmd, "%s cuda --set num_sms=2 " CUDA_BIN "vecadd 50 --quiet 2>&1", cu_bin());
	FILE *p = popen(cmd, "r");
	size_t n = p ? fread(buf, 1, sizeof buf - 1, p) : 0;
	buf[n] = '\0';
	char rest[512];
	while (p && fread(rest, 1, sizeof rest, p) > 0)
		; /* the rest, so the writer never meets a closed pipe */
	int st = p ? pclose(p) : -1;
	if (!(WIFEXITED(st) && WEXITSTATUS(st) == 127 && strstr(buf, "GLIBC")))
		CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(buf, "vecadd: n=50 PASSED") &&
		              strstr(buf, "== warpsim: 1 kernel launch"),
		          "status %d:\n%s", st, buf);
}

/* a report file left by a warpsim that was killed (its pid no longer runs)
 * is removed by the next `warpsim cuda` in the same TMPDIR; a live
 * process's, another name and the run's own are left alone / removed as
 * usual */
TEST(cudart_stale_report_removed)
{
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	CHECK(dead > 0);
	int st;
	waitpid(dead, &st, 0); /* reaped: the pid names no process now */
	struct cu_run r;
	char line[1024];
	snprintf(line, sizeof line,
	         "touch @/warpsim-cuda.%ld.AbC123 @/warpsim-cuda.%ld.AbC123 @/warpsim-cuda.x.AbC123 && TMPDIR=@/. "
	         "%s cuda -- " CUDA_BIN "vecadd && ls @/.",
	         (long)dead, (long)getpid(), cu_bin());
	if (cu_run_line(t, line, &r)) {
		cu_done(&r);
		return;
	}
	CHECK_MSG(r.status == 0, "exit status %d\n%s\n%s", r.status, r.out, r.err);
	char name[64];
	snprintf(name, sizeof name, "warpsim-cuda.%ld.AbC123", (long)dead);
	CHECK_MSG(!strstr(r.out, name), "the stale report was not removed:\n%s", r.out);
	snprintf(name, sizeof name, "warpsim-cuda.%ld.AbC123", (long)getpid());
	CHECK_MSG(strstr(r.out, name), "a live process's report was removed:\n%s", r.out);
	CHECK_STR_CONTAINS(r.out, "warpsim-cuda.x.AbC123");
	CHECK_EQ(count(r.out, "warpsim-cuda."), 2); /* the run's own is gone */
	cu_done(&r);
}

/* a program linked with an RPATH to another CUDA runtime (DT_RPATH, which
 * LD_LIBRARY_PATH does not override; here bin/nvidia-rt/, a stand-in for
 * NVIDIA's runtime without a driver) runs on warpsim's, which is preloaded */
TEST(cudart_rpath)
{
	cu_expect_ok(t, "", "vecadd_rpath", "vecadd: n=1000 PASSED", 1);
}

/* a wrapper script that changes the directory and runs the program as its
 * child: the program runs on warpsim; a relative --stats path is the
 * caller's */
TEST(cudart_wrapper_script)
{
	char root[1024], line[3200];
	if (!getcwd(root, sizeof root)) {
		CHECK_MSG(0, "getcwd failed");
		return;
	}
	const char *w = cu_bin();
	snprintf(line, sizeof line,
	         "cd @/ && %s%s%s cuda --quiet --stats s.jsonl -- %s/" TEST_DATA_DIR "/cudart/wrapper.sh 500",
	         w[0] == '/' ? "" : root, w[0] == '/' ? "" : "/", w, root);
	struct cu_run r;
	if (cu_run_line(t, line, &r) == 0) {
		CHECK_MSG(r.status == 0 && strstr(r.out, "vecadd: n=500 PASSED") &&
		              strstr(r.out, "wrapper: vecadd exited 0"),
		          "status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
		CHECK_MSG(!strstr(r.err, "warpsim cuda:"), "unexpected message:\n%s", r.err);
		char path[128];
		snprintf(path, sizeof path, "%s/s.jsonl", r.dir);
		char *s = cu_slurp(path);
		CHECK_MSG(s && count(s, "\n") == 1 && strstr(s, "\"grid\":[4,1,1]"), "stats:\n%s", s ? s : "(none)");
		free(s);
	}
	cu_done(&r);
}

/* After the run, whether any CUDA call reached warpsim: a program that made
 * none gets a warning with what its file tells (its exit status stays); a
 * process that had another CUDA runtime loaded is an error naming it */
TEST(cudart_no_call_reached)
{
	cu_expect_line(t, "cuda -- /bin/sh -c 'exit 3'", 3,
	               "warning: no CUDA call of /bin/sh reached warpsim, so nothing ran on the simulator (it is not "
	               "linked with the CUDA runtime)");
	char line[1024];
	snprintf(line, sizeof line, "printf '#!/bin/sh\\ntrue\\n' > @/s.sh && chmod +x @/s.sh && %s cuda -- @/s.sh",
	         cu_bin());
	struct cu_run r;
	if (cu_run_line(t, line, &r) == 0)
		CHECK_MSG(r.status == 0 &&
		              strstr(r.err, "s.sh reached warpsim, so nothing ran on the simulator (it is a "
		                            "script: the programs it runs must be built with 'nvcc -cudart "
		                            "shared'"),
		          "status %d:\n%s", r.status, r.err);
	cu_done(&r);
	/* an interpreter that opens a CUDA runtime by its path (here the stand-in for NVIDIA's) */
	if (system("python3 -c '' 2>/dev/null") != 0) {
		printf("  (no python3: the case of a runtime opened by its path is not checked)\n");
		return;
	}
	cu_expect_line(t, "cuda -- python3 -c \"import ctypes; ctypes.CDLL('" CUDA_BIN "nvidia-rt/libcudart.so.13')\"",
	               1,
	               "nvidia-rt/libcudart.so.13 loaded, a CUDA runtime opened by its path rather than by its name");
}

/* --stats appends (each line with the pid of its run); --trace and
 * --summary are replaced whole, with no temporary left; --threads reaches
 * the simulator */
TEST(cudart_outputs_append_threads)
{
	char line[1024];
	snprintf(line, sizeof line,
	         "%s cuda --quiet --stats @/a.jsonl -- " CUDA_BIN "pipeline && %s cuda --quiet --threads 2 --stats "
	         "@/a.jsonl --trace @/t.json --summary @/s.json -- " CUDA_BIN "vecadd && ls @/",
	         cu_bin(), cu_bin());
	struct cu_run r;
	if (cu_run_line(t, line, &r) == 0) {
		CHECK_MSG(r.status == 0, "status %d:\n%s", r.status, r.err);
		char path[128];
		snprintf(path, sizeof path, "%s/a.jsonl", r.dir);
		char *s = cu_slurp(path);
		CHECK_MSG(s && count(s, "\n") == 5 && count(s, "{\"launch\":0,\"pid\":") == 2 &&
		              count(s, "\"pid\":") == 5 && strstr(s, "_Z6vecaddPKfS0_Pfi"),
		          "stats of two runs:\n%s", s ? s : "(none)");
		free(s);
		snprintf(path, sizeof path, "%s/s.json", r.dir);
		s = cu_slurp(path);
		CHECK_MSG(s && strstr(s, "\"threads\": 2"), "summary:\n%.1000s", s ? s : "(none)");
		free(s);
		CHECK_MSG(!strstr(r.out, ".tmp") && strstr(r.out, "t.json"), "files:\n%s", r.out);
	}
	cu_done(&r);
}

/* a CTA that does not fit on an SM: the launch fails naming the limit and
 * the --set that runs it */
TEST(cudart_cta_does_not_fit)
{
	struct cu_run r;
	if (cu_run(t, "--quiet --set regs_per_sm=512 --set reg_counts=estimate --set reg_alloc_unit=1", "vecadd", &r) == 0) {
		CHECK_MSG(r.status == 1 && strstr(r.out, "cudaErrorLaunchOutOfResources"), "status %d:\n%s", r.status,
		          r.out);
		CHECK_STR_CONTAINS(r.err, "limit: regs_per_sm = 512; one CTA needs 1280: run it with --set "
		                          "regs_per_sm=2048");
	}
	cu_done(&r);
}

/* scripts/suites.sh on the fixture suite of tests/suites-fixture/ (its own
 * script checks the CSV rows, verdicts, resumption and errors; about 15 s) */
TEST(suites_fixture)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "WARPSIM_BIN=%s tests/suites-fixture/test.sh > /tmp/warpsim-suites-test.%d.out 2>&1",
	         cu_bin(), (int)getpid());
	int st = system(cmd);
	snprintf(cmd, sizeof cmd, "/tmp/warpsim-suites-test.%d.out", (int)getpid());
	char *out = cu_slurp(cmd);
	CHECK_MSG(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "tests/suites-fixture/test.sh failed:\n%s",
	          out ? out : "(no output)");
	CHECK_MSG(out && strstr(out, " passed, 0 failed"), "tests/suites-fixture/test.sh:\n%s", out ? out : "");
	free(out);
	unlink(cmd);
}

/* ---- the bundled benchmarks as CUDA programs (`make cuda-hosts`, tools/cuda-hosts/) ----
 * `make test` builds a few of them where nvcc is found and names them in
 * WARPSIM_CUDA_HOSTS (their folder in WARPSIM_CUDA_HOST_DIR); without nvcc, or
 * in a sanitizer build, these tests say so and check nothing. */
static const char *cu_hosts(const char **dir)
{
	const char *names = getenv("WARPSIM_CUDA_HOSTS"), *d = getenv("WARPSIM_CUDA_HOST_DIR");
	*dir = d && *d ? d : "build/cuda-hosts";
	if (names && *names)
		return names;
	printf("  SKIP: WARPSIM_CUDA_HOSTS names no CUDA host program (`make test` builds and names some where nvcc is "
	       "found, not in the sanitizer builds)\n");
	return NULL;
}

/* Each program's own check passes under `warpsim cuda`, the PTX in its fat
 * binary is the committed kernel.ptx, and its cycles equal `warpsim run`'s
 * (scripts/cuda-hosts-check.sh); vecadd and cp (no 32-bit fill, no spin-branch
 * notes) have every statistic equal. */
TEST(cudart_bench_hosts_match_run)
{
	const char *dir, *names = cu_hosts(&dir);
	if (!names)
		return;
	char line[1024];
	snprintf(line, sizeof line, "scripts/cuda-hosts-check.sh --require-equal --bin %s --hosts %s %s", cu_bin(), dir,
	         names);
	struct cu_run r;
	if (cu_run_line(t, line, &r) == 0) {
		CHECK_MSG(r.status == 0, "status %d:\n%s\n%s", r.status, r.out, r.err);
		char name[64];
		for (const char *p = names; sscanf(p, "%63s", name) == 1; p = strstr(p, name) + strlen(name)) {
			const char *row = strstr(r.out, "\n");
			while (row && strncmp(row + 1, name, strlen(name)) != 0)
				row = strstr(row + 1, "\n");
			const char *end = row ? strchr(row + 1, '\n') : NULL;
			char text[256] = "";
			if (row)
				snprintf(text, sizeof text, "%.*s", end ? (int)(end - row - 1) : 200, row + 1);
			int all = strcmp(name, "vecadd") == 0 || strcmp(name, "cp") == 0;
			CHECK_MSG(strstr(text, " PASSED ") && strstr(text, " same ") &&
			              strstr(text, all ? " stats equal" : " equal"),
			          "%s: no passing row with the committed PTX and equal %s:\n%s", name,
			          all ? "statistics" : "cycles", r.out);
		}
	}
	cu_done(&r);
}

/* The configuration queries (stn sizes its grid to the CTAs that fit) are
 * answered for the configs/NAME.cfg that `warpsim cuda --config` names, with
 * its --set values; an unknown --config is refused with the known names. */
TEST(cudart_bench_host_config)
{
	const char *dir;
	if (!cu_hosts(&dir))
		return;
	char line[1024];
	snprintf(line, sizeof line,
	         "%s cuda --functional --quiet --config configs/titanx-pascal.cfg --set num_sms=4 --stats @/s.jsonl -- "
	         "%s/stn paper && WARPSIM_HOST_CONFIG=tesla-dwr %s/stn --config nope tiny",
	         cu_bin(), dir, dir);
	struct cu_run r;
	if (cu_run_line(t, line, &r) == 0) {
		CHECK_MSG(r.status == 2, "status %d:\n%s\n%s", r.status, r.out, r.err);
		CHECK_STR_CONTAINS(r.out, "configuration queries: titanx-pascal (WARPSIM_CONFIG)");
		CHECK_STR_CONTAINS(r.out, "verification: PASSED");
		char path[128];
		snprintf(path, sizeof path, "%s/s.jsonl", r.dir);
		char *s = cu_slurp(path);
		/* 2 CTAs of 512 threads per SM on 4 SMs (the whole grid must be resident) */
		CHECK_MSG(s && strstr(s, "\"grid\":[8,1,1]"), "stn's grid:\n%s", s ? s : "(none)");
		free(s);
		CHECK_STR_CONTAINS(r.err, "stn: --config names 'nope', which has no configuration table; known: gtx1080ti "
		                          "gtx480 tesla-dwr titanx-pascal");
	}
	cu_done(&r);
}
