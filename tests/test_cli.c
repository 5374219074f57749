/*
 * test_cli.c -- tests of the `warpsim` command-line tool (src/cli/): they
 * run the built binary through the shell (popen) and check its exit status
 * and output.  The binary is $WARPSIM_BIN, by default build/warpsim; the
 * tests run from the repository root.
 *
 * Covered: help/version, exit status 2 and the message for unknown commands,
 * options, bad values and malformed --arg specs; `list`, `config`, `ptx`;
 * `warpsim exec` round trips on the kernels in tests/ptx/exec/ (printed values, hex,
 * binary and text output files, binary input files, every scalar type and
 * raw bytes); `run` and `bench` on a bundled benchmark.  The helpers that
 * run the binary are in cli_check.c; misuse refused early and the check of
 * docs/cli.md are in test_cli_docs.c.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cli_check.h"
#include "test.h"

/* ---- general ---- */

TEST(cli_version_and_help)
{
	if (cli_missing(t))
		return;
	cli_expect(t, "--version", 0, "warpsim ");
	cli_expect(t, "help", 0, "commands:");
	cli_expect(t, "--help", 0, "exec");
	cli_expect(t, "help exec", 0, "buf:NAME:TYPE:COUNT");
	cli_expect(t, "run --help", 0, "--size tiny|small|paper|paper-kaws");
	cli_expect(t, "exec -h", 0, "--arg SPEC");
	cli_expect(t, "config --help", 0, "--list");
	/* usage to stderr and status 2 without a command */
	char *out;
	int rc = cli_run("", 0, &out);
	CHECK_EQ(rc, 2);
	CHECK_MSG(out && out[0] == '\0', "usage should go to stderr, stdout had: %s", out ? out : "");
	free(out);
}

TEST(cli_usage_errors)
{
	if (cli_missing(t))
		return;
	cli_expect(t, "frobnicate", 2, "unknown command 'frobnicate'");
	cli_expect(t, "help frobnicate", 2, "unknown command 'frobnicate'");
	cli_expect(t, "--bogus", 2, "unknown option '--bogus'");
	cli_expect(t, "--version extra", 2, "unexpected argument 'extra'");
	cli_expect(t, "list --bogus", 2, "unknown option '--bogus'");
	cli_expect(t, "list -x", 2, "unknown option '-x'");
	cli_expect(t, "list extra", 2, "unknown benchmark 'extra'");
	cli_expect(t, "list --suite nope", 2, "--suite 'nope': expected barrier, syncfree, bows, kaws or dwr");
	cli_expect(t, "run", 2, "missing argument BENCH");
	cli_expect(t, "run a b", 2, "unexpected argument 'b'");
	cli_expect(t, "run vecadd --size", 2, "option '--size' needs a value");
	cli_expect(t, "run vecadd --size huge", 2, "--size 'huge': expected tiny, small, paper or paper-kaws");
	cli_expect(t, "run vecadd --size=huge", 2, "--size 'huge'");
	cli_expect(t, "run vecadd --size tiny --size small", 2, "option '--size' given more than once");
	cli_expect(t, "run vecadd --quiet=yes", 2, "option '--quiet' takes no value");
	cli_expect(t, "run no_such_bench", 2, "unknown benchmark 'no_such_bench'");
	cli_expect(t, "bench --size big", 2, "--size 'big'");
	cli_expect(t, "bench vecadd no_such_bench", 2, "unknown benchmark 'no_such_bench'");
	cli_expect(t, "ptx", 2, "missing argument FILE");
	/* errors go to stderr, not stdout */
	char *out;
	int rc = cli_run("frobnicate", 0, &out);
	CHECK_EQ(rc, 2);
	CHECK_MSG(out && out[0] == '\0', "error should go to stderr, stdout had: %s", out ? out : "");
	free(out);
}

/* ---- list, config, ptx ---- */

TEST(cli_list)
{
	if (cli_missing(t))
		return;
	char *out;
	int rc = cli_run("list", 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "CTAs/SM");
	CHECK_STR_CONTAINS(out, "warps/CTA");
	CHECK_STR_CONTAINS(out, "description");
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *b = ws_bench_table[i];
		/* the row starts with the name and ends with the description */
		char row[256];
		snprintf(row, sizeof row, "\n%s ", b->name);
		CHECK_STR_CONTAINS(out, row);
		CHECK_STR_CONTAINS(out, b->description);
	}
	free(out);
}

/* list --long / list NAME: every field of the benchmark table, including
 * the synchronization pattern and the three input sizes; --suite filters. */
TEST(cli_list_long)
{
	if (cli_missing(t))
		return;
	char *out;
	int rc = cli_run("list --long", 0, &out);
	CHECK_EQ(rc, 0);
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *b = ws_bench_table[i];
		CHECK_STR_CONTAINS(out, b->description);
		CHECK_STR_CONTAINS(out, b->sync);
		for (int k = 0; k < WS_SIZE_COUNT; k++)
			if (b->sizes[k]) /* paper-kaws: NULL where it is the paper input */
				CHECK_STR_CONTAINS(out, b->sizes[k]);
	}
	free(out);
	rc = cli_run("list histo", 0, &out);
	CHECK_EQ(rc, 0);
	const struct ws_bench_info *h = ws_bench_find("histo");
	if (h) {
		CHECK_STR_CONTAINS(out, h->sync);
		CHECK_STR_CONTAINS(out, h->sizes[WS_SIZE_PAPER]);
	}
	CHECK_STR_CONTAINS(out, "CTAs/SM:       3");
	CHECK_STR_CONTAINS(out, "warps/CTA:     16");
	CHECK_STR_CONTAINS(out, "suite:         barrier");
	CHECK(strstr(out, "\nmm\n") == NULL); /* only the named benchmark */
	free(out);
	/* --suite barrier: exactly the 13 of BAWS Table 2 */
	rc = cli_run("list --suite barrier", 0, &out);
	CHECK_EQ(rc, 0);
	int rows = 0;
	for (const char *p = out; (p = strchr(p, '\n')) != NULL; p++)
		rows++;
	CHECK_EQ(rows, 14); /* header + 13 */
	CHECK_STR_CONTAINS(out, "\nhisto ");
	CHECK(strstr(out, "\nvecadd ") == NULL);
	free(out);
}

TEST(cli_config)
{
	if (cli_missing(t))
		return;
	char *out;
	int rc = cli_run("config --list", 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "warp_size");
	CHECK_STR_CONTAINS(out, "mode");
	free(out);

	rc = cli_run("config", 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "warp_size = 32");
	free(out);

	rc = cli_run("config --set warp_size=16 --set num_sms=3", 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "warp_size = 16");
	CHECK_STR_CONTAINS(out, "num_sms = 3");
	free(out);

	/* later --set wins; config file first, then --set */
	char dir[64], cfgp[128], args[512];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(cfgp, sizeof cfgp, dir, "test.cfg");
	FILE *f = fopen(cfgp, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "# test config\nwarp_size = 8\nnum_sms = 7\n");
		fclose(f);
	}
	snprintf(args, sizeof args, "config --config %s --set num_sms=2 --set num_sms=5", cfgp);
	rc = cli_run(args, 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "warp_size = 8");
	CHECK_STR_CONTAINS(out, "num_sms = 5");
	free(out);

	f = fopen(cfgp, "w");
	if (f) {
		fprintf(f, "warp_size = 8\nno_such_key = 3\n");
		fclose(f);
	}
	snprintf(args, sizeof args, "config --config %s", cfgp);
	cli_expect(t, args, 2, "no_such_key");
	remove(cfgp);
	rmdir(dir);

	cli_expect(t, "config --config /nonexistent/warpsim.cfg", 1, "--config /nonexistent/warpsim.cfg");
	cli_expect(t, "config --set warp_size", 2, "--set 'warp_size': expected KEY=VALUE");
	cli_expect(t, "config --set =3", 2, "expected KEY=VALUE");
	cli_expect(t, "config --set no_such_param=1", 2, "--set no_such_param=1");
	cli_expect(t, "config --set warp_size=1000", 2, "--set warp_size=1000");
	cli_expect(t, "config --set warp_size=abc", 2, "--set warp_size=abc");
	cli_expect(t, "config --list --set warp_size=8", 2, "--list cannot be combined");
}

TEST(cli_ptx)
{
	if (cli_missing(t))
		return;
	char *out;
	int rc = cli_run("ptx " CLI_PTX "saxpy.ptx", 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "saxpy");
	free(out);

	rc = cli_run("ptx " CLI_PTX "params.ptx --function params", 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "function params");
	CHECK_STR_CONTAINS(out, "parameters: 6");
	CHECK_STR_CONTAINS(out, "1: 1 byte\n");
	CHECK_STR_CONTAINS(out, "2: 2 bytes");
	CHECK_STR_CONTAINS(out, "5: 16 bytes");
	free(out);

	cli_expect(t, "ptx " CLI_PTX "saxpy.ptx --function nope", 2, "--function nope");
	cli_expect(t, "ptx /nonexistent/k.ptx", 1, "k.ptx");

	/* a syntax error is reported with file:line */
	char dir[64], p[128], args[256];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(p, sizeof p, dir, "bad.ptx");
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, ".version 7.0\n.target sm_75\n.address_size 64\n"
		           ".visible .entry k()\n{\n\tthis is not ptx;\n\tret;\n}\n");
		fclose(f);
	}
	snprintf(args, sizeof args, "ptx %s", p);
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 1);
	char where[160];
	snprintf(where, sizeof where, "%s:6:", p);
	CHECK_STR_CONTAINS(out, where);
	free(out);
	remove(p);
	rmdir(dir);
}

/* ---- exec ---- */

#define SAXPY "exec " CLI_PTX "saxpy.ptx saxpy --grid 2 --block 4 "

/* exec prints the kernel's occupancy after its outputs; a KERNEL.regs beside
 * the PTX gives ptxas's count (used with reg_counts=ptxas) */
TEST(cli_exec_occupancy)
{
	if (cli_missing(t))
		return;
	char dir[64], ptx[128], regs[128], args[1024], *out;
	if (cli_tmpdir(t, dir))
		return;
	cli_path(ptx, sizeof ptx, dir, "saxpy.ptx");
	cli_path(regs, sizeof regs, dir, "saxpy.regs");
	size_t len;
	char *text = cli_slurp(CLI_PTX "saxpy.ptx", &len);
	FILE *f = fopen(ptx, "w"), *g = fopen(regs, "w");
	CHECK(text && f && g && fputs(text, f) >= 0 && fputs("saxpy 40\n", g) >= 0);
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	free(text);
	static const char *const sets[] = {"--set reg_counts=estimate", ""}; /* ptxas: the default */
	static const char *const want[] = {
	    "y = 1 3\noccupancy: saxpy: 8 CTAs/SM, limited by max_ctas_per_sm; regs/thread 9 (PTX estimate; ptxas "
	    "assigns 40 (file ",
	    "y = 1 3\noccupancy: saxpy: 8 CTAs/SM, limited by max_ctas_per_sm; regs/thread 40 (ptxas, committed in "};
	for (int i = 0; i < 2; i++) {
		snprintf(args, sizeof args,
		         "exec %s saxpy --grid 2 --block 4 %s --arg u32:5 --arg f32:2 --arg buf:x:f32:8=iota "
		         "--arg buf:y:f32:8=fill:1 --print y:2",
		         ptx, sets[i]);
		int rc = cli_run(args, 0, &out);
		CHECK_MSG(rc == 0 && strstr(out, want[i]) && strstr(out, "saxpy.regs)"), "exit %d:\n%s", rc, out);
		free(out);
	}
}

/* `warpsim characterize` reports each run's own occupancy (wsLaunchOccupancy), not
 * the benchmark table's geometry: mm gets 2 CTAs/SM from ptxas's 60 registers
 * where the table (the BAWS paper's) says 6; sp's 3 agree, so no "(table" */
TEST(cli_characterize_occupancy)
{
	if (cli_missing(t))
		return;
	char dir[64], md[128], args[256], *out;
	if (cli_tmpdir(t, dir))
		return;
	cli_path(md, sizeof md, dir, "c.md");
	snprintf(args, sizeof args, "characterize --size tiny --jobs 1 --out %s", md);
	int rc = cli_run(args, 0, &out);
	CHECK_MSG(rc == 0, "exit %d:\n%s", rc, out);
	free(out);
	size_t len;
	char *text = cli_slurp(md, &len);
	CHECK_MSG(text && strstr(text, "| mm | 2 (table 6), 8 | lrr |") && strstr(text, "| sp | 3, 16 | gto |"),
	          "%s", text ? text : "(no file)");
	free(text);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

TEST(cli_exec_saxpy)
{
	if (cli_missing(t))
		return;
	/* 8 threads, n = 5: y[i] = 2 * i + 1 for i < 5, the rest keep 1 */
	char dir[64], hexp[128], binp[128], txtp[128], args[1024];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(hexp, sizeof hexp, dir, "y.hex");
	cli_path(binp, sizeof binp, dir, "y.bin");
	cli_path(txtp, sizeof txtp, dir, "x.txt");
	snprintf(args, sizeof args,
	         SAXPY "--arg u32:5 --arg f32:2 --arg buf:x:f32:8=iota --arg buf:y:f32:8=fill:1 "
	               "--print y --print x:3 --out y=%s:hex --out y=%s --out x=%s:txt",
	         hexp, binp, txtp);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "y = 1 3 5 7 9 1 1 1\n");
	CHECK_STR_CONTAINS(out, "x = 0 1 2\n");
	free(out);

	size_t len;
	char *hex = cli_slurp(hexp, &len);
	CHECK_MSG(
	    hex && strcmp(hex, "3f800000\n40400000\n40a00000\n40e00000\n41100000\n3f800000\n3f800000\n3f800000\n") == 0,
	    "hex file: %s", hex ? hex : "(missing)");
	free(hex);
	unsigned char *bin = (unsigned char *)cli_slurp(binp, &len);
	CHECK_EQ(len, 32);
	if (bin && len == 32) {
		float y[8];
		memcpy(y, bin, sizeof y);
		for (int i = 0; i < 8; i++)
			CHECK_MSG(y[i] == (i < 5 ? 2.0f * i + 1 : 1.0f), "y[%d] = %g", i, (double)y[i]);
	}
	free(bin);
	char *txt = cli_slurp(txtp, &len);
	CHECK_MSG(txt && strcmp(txt, "0\n1\n2\n3\n4\n5\n6\n7\n") == 0, "txt file: %s", txt ? txt : "(missing)");
	free(txt);

	/* the binary output fed back in as input: y' = 0.5 * x + y */
	snprintf(args, sizeof args,
	         SAXPY "--arg u32:8 --arg f32:0.5 --arg buf:x:f32:8=iota:0:2 --arg buf:y:f32:file=%s --print y", binp);
	rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "y = 1 4 7 10 13 6 7 8\n");
	free(out);
	remove(hexp);
	remove(binp);
	remove(txtp);
	rmdir(dir);
}

TEST(cli_exec_iadd)
{
	if (cli_missing(t))
		return;
	/* 2-D grid, signed values, value list with the rest zero, file input */
	char *out;
	int rc = cli_run("exec " CLI_PTX "iadd.ptx iadd --grid 2,2 --block 2 --arg buf:out:s32:8 "
	                 "--arg buf:in:s32:8=5,-7,0,100,0x10,-2147483648 --arg s32:-3 --arg u32:7 --print out",
	                 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "out = 2 -10 -3 97 13 2147483645 -3 0\n");
	free(out);

	char dir[64], inp[128], args[512];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(inp, sizeof inp, dir, "in.bin");
	FILE *f = fopen(inp, "wb");
	CHECK(f != NULL);
	if (f) {
		int32_t v[3] = {40, -50, 60};
		fwrite(v, sizeof v, 1, f);
		fclose(f);
	}
	snprintf(args, sizeof args,
	         "exec " CLI_PTX "iadd.ptx iadd --grid 1 --block 32 --arg buf:out:s32:3 --arg buf:in:s32:file=%s "
	         "--arg s32:2 --arg u32:3 --print out --print in:2",
	         inp);
	rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "out = 42 -48 62\n");
	CHECK_STR_CONTAINS(out, "in = 40 -50\n");
	free(out);

	/* a file whose size is not a multiple of the element size */
	f = fopen(inp, "wb");
	if (f) {
		fwrite("abcdef", 6, 1, f);
		fclose(f);
	}
	snprintf(args, sizeof args,
	         "exec " CLI_PTX "iadd.ptx iadd --grid 1 --block 32 --arg buf:out:s32:3 --arg buf:in:s32:file=%s "
	         "--arg s32:2 --arg u32:3",
	         inp);
	cli_expect(t, args, 1, "file size 6 is not a positive multiple of 4");
	remove(inp);
	rmdir(dir);
	snprintf(args, sizeof args,
	         "exec " CLI_PTX
	         "iadd.ptx iadd --grid 1 --block 32 --arg buf:out:s32:3 --arg buf:in:s32:file=%s/missing "
	         "--arg s32:2 --arg u32:3",
	         dir);
	cli_expect(t, args, 1, "cannot open");
}

TEST(cli_exec_scalars)
{
	if (cli_missing(t))
		return;
	/* every scalar width and raw bytes reach the kernel bit-exactly */
	char dir[64], hexp[128], args[1024];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(hexp, sizeof hexp, dir, "out.hex");
	snprintf(args, sizeof args,
	         "exec " CLI_PTX "params.ptx params --grid 1 --block 1 --arg buf:out:u64:6 --arg u8:200 "
	         "--arg u16:0xffff --arg f64:2.5 --arg s64:-5 --arg hex:01020304050607081112131415161718 "
	         "--out out=%s:hex --print out:2",
	         hexp);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "out = 200 65535\n");
	free(out);
	char *hex = cli_slurp(hexp, NULL);
	CHECK_MSG(hex && strcmp(hex, "00000000000000c8\n000000000000ffff\n4004000000000000\nfffffffffffffffb\n"
	                             "0807060504030201\n1817161514131211\n") == 0,
	          "hex file: %s", hex ? hex : "(missing)");
	free(hex);
	remove(hexp);
	rmdir(dir);

	/* typed printing of the same bits */
	rc =
	    cli_run("exec " CLI_PTX "params.ptx params --grid 1 --block 1 --arg buf:out:s64:6 --arg u8:0 "
	            "--arg u16:0 --arg f64:0 --arg s64:-9223372036854775808 --arg hex:00000000000000000000000000000000 "
	            "--print out:4",
	            1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "out = 0 0 0 -9223372036854775808\n");
	free(out);
	rc = cli_run("exec " CLI_PTX "params.ptx params --grid 1 --block 1 --arg buf:out:f64:6 --arg u8:0 "
	             "--arg u16:0 --arg f64:-0.1 --arg s64:0 --arg hex:00000000000000000000000000000000 --print out:3",
	             1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "out = 0 0 -0.10000000000000001\n");
	free(out);
}

TEST(cli_exec_errors)
{
	if (cli_missing(t))
		return;
	/* geometry */
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx saxpy --block 4", 2, "missing required option --grid");
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx saxpy --grid 1", 2, "missing required option --block");
	cli_expect(t, SAXPY "--grid 1", 2, "option '--grid' given more than once");
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx saxpy --grid 0 --block 4", 2,
	           "--grid '0': every dimension must be at least 1");
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx saxpy --grid 1,2,3,4 --block 4", 2, "more than 3 components");
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx saxpy --grid 1,,2 --block 4", 2, "--grid '1,,2'");
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx saxpy --grid 4294967296 --block 4", 2, "out of range");
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx saxpy --grid 2 --block x", 2, "--block 'x'");
	cli_expect(t, SAXPY "--shared -1", 2, "--shared");
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx", 2, "too few arguments");

	/* input files: regular files only, never read without bound (issue 26) */
	cli_expect(t, SAXPY "--arg u32:5 --arg f32:2 --arg buf:x:f32:file=/dev/zero --arg buf:y:f32:8=fill:1", 1,
	           "'/dev/zero' is not a regular file (a device or socket)");
	cli_expect(t, SAXPY "--arg u32:5 --arg file:/dev/zero --arg buf:x:f32:8=iota --arg buf:y:f32:8=fill:1", 1,
	           "'/dev/zero' is not a regular file");
	cli_expect(t, SAXPY "--arg u32:5 --arg f32:2 --arg buf:x:f32:file=" CLI_PTX " --arg buf:y:f32:8=fill:1", 1,
	           "is not a regular file (a directory)");
	{
		char big[512]; /* the warpsim binary itself: a file larger than 1 MiB of device memory */
		snprintf(big, sizeof big,
		         SAXPY "--set device_mem_mb=1 --arg u32:5 --arg f32:2 --arg buf:x:f32:file=%s --arg buf:y:f32:8=fill:1",
		         cli_bin());
		cli_expect(t, big, 1, "the most this input can take is 1048576 bytes");
	}

	/* a CTA too big for an SM: the message says what would run it (issue 26) */
	cli_expect(t,
	           "exec " CLI_PTX "saxpy.ptx saxpy --grid 1 --block 512 --set regs_per_thread=100 --arg u32:5 --arg f32:2 "
	           "--arg buf:x:f32:8=iota --arg buf:y:f32:8=fill:1",
	           1, "limit: regs_per_sm = 32768; one CTA needs 51200: run it with --set regs_per_sm=65536");

	/* scalar specs */
	cli_expect(t, SAXPY "--arg 5", 2, "--arg '5': expected TYPE:VALUE");
	cli_expect(t, SAXPY "--arg q32:5", 2, "unknown type 'q32'");
	cli_expect(t, SAXPY "--arg u8:256", 2, "'256' is out of range (0..255)");
	cli_expect(t, SAXPY "--arg s8:-129", 2, "'-129' is out of range (-128..127)");
	cli_expect(t, SAXPY "--arg s16:32768", 2, "out of range");
	cli_expect(t, SAXPY "--arg u32:-1", 2, "'-1' is negative");
	cli_expect(t, SAXPY "--arg u32:12abc", 2, "'12abc' is not an integer");
	cli_expect(t, SAXPY "--arg u32:", 2, "is not an integer");
	cli_expect(t, SAXPY "--arg 'u32: 5'", 2, "is not an integer");
	cli_expect(t, SAXPY "--arg u64:18446744073709551616", 2, "out of range");
	cli_expect(t, SAXPY "--arg s64:-9223372036854775809", 2, "out of range");
	cli_expect(t, SAXPY "--arg f32:1e39", 2, "out of range for f32");
	cli_expect(t, SAXPY "--arg f64:1e400", 2, "out of range");
	cli_expect(t, SAXPY "--arg f32:1.5x", 2, "'1.5x' is not a number");
	cli_expect(t, SAXPY "--arg hex:123", 2, "hex: odd number of hex digits (3)");
	cli_expect(t, SAXPY "--arg hex:zz", 2, "'zz' is not a hex byte");

	/* buffer specs */
	cli_expect(t, SAXPY "--arg buf:x:f32", 2, "expected buf:NAME:TYPE:COUNT");
	cli_expect(t, SAXPY "--arg buf:1x:f32:4", 2, "buffer name '1x'");
	cli_expect(t, SAXPY "--arg buf::f32:4", 2, "buffer name ''");
	cli_expect(t, SAXPY "--arg buf:x:f16:4", 2, "unknown element type 'f16'");
	cli_expect(t, SAXPY "--arg buf:x:f32:0", 2, "at least one element");
	cli_expect(t, SAXPY "--arg buf:x:f32:", 2, "expected an element count");
	cli_expect(t, SAXPY "--arg buf:x:f32:4x", 2, "element count '4x' is not an integer");
	cli_expect(t, SAXPY "--arg buf:x:f32:2=1,2,3", 2, "more than 2 values");
	cli_expect(t, SAXPY "--arg buf:x:f32:4=1,,3", 2, "empty element 1");
	cli_expect(t, SAXPY "--arg buf:x:u8:4=1,300", 2, "'300' is out of range");
	cli_expect(t, SAXPY "--arg buf:x:u8:4=fill:-1", 2, "'-1' is negative");
	cli_expect(t, SAXPY "--arg buf:x:s32:4=iota:1:x", 2, "'x' is not an integer");
	cli_expect(t, SAXPY "--arg buf:x:f32:4 --arg buf:x:f32:4", 2, "buffer 'x' is already defined");
	cli_expect(t, SAXPY "--arg buf:x:f32:file=", 2, "file= needs a path");

	/* outputs */
	cli_expect(t, SAXPY "--arg u32:5 --print z", 2, "--print 'z': no buffer named 'z'");
	cli_expect(t, SAXPY "--arg buf:y:f32:4 --print y:0", 2, "count must be at least 1");
	cli_expect(t, SAXPY "--arg buf:y:f32:4 --print y:q", 2, "--print 'y:q'");
	cli_expect(t, SAXPY "--arg u32:5 --out z=/tmp/z", 2, "--out 'z=/tmp/z': no buffer named 'z'");
	cli_expect(t, SAXPY "--arg buf:y:f32:4 --out y", 2, "expected NAME=PATH");
	cli_expect(t, SAXPY "--arg buf:y:f32:4 --out y=:hex", 2, "empty file name");

	/* checks against the kernel's signature */
	cli_expect(t, "exec " CLI_PTX "saxpy.ptx nosuch --grid 1 --block 1", 2,
	           "no kernel named 'nosuch' in " CLI_PTX "saxpy.ptx; its kernels (.entry): saxpy\n");
	/* a device function is not a kernel: said so, and only .entry kernels are listed */
	cli_expect(t, "exec " TEST_DATA_DIR "/ptx/func/reconv.ptx _Z3fibj --grid 1 --block 1", 2,
	           "'_Z3fibj' is a device function (.func at " TEST_DATA_DIR "/ptx/func/reconv.ptx:50), not a kernel; "
	           "the kernels (.entry) of " TEST_DATA_DIR "/ptx/func/reconv.ptx: nested_if loop_break_continue "
	           "early_return early_exit barrier_uniform barrier_after_exit recursion\n");
	cli_expect(t, SAXPY "--arg u32:5 --arg f32:2 --arg buf:x:f32:8", 2,
	           "kernel 'saxpy' takes 4 parameters but 3 --arg were given");
	cli_expect(t, SAXPY "--arg u32:5 --arg f64:2 --arg buf:x:f32:8 --arg buf:y:f32:8", 2,
	           "(parameter 1, counting from 0): the parameter is 4 bytes, but f64 is 8 bytes");
	cli_expect(t, SAXPY "--arg buf:n:u32:1 --arg f32:2 --arg buf:x:f32:8 --arg buf:y:f32:8", 2,
	           "a buffer passes its 8-byte device address");
	cli_expect(t, SAXPY "--arg u32:5 --arg f32:2 --arg buf:x:f32:8 --arg buf:y:f32:8 --print y:9", 2,
	           "buffer 'y' has only 8 elements");
	cli_expect(t, "exec /nonexistent/k.ptx k --grid 1 --block 1", 1, "k.ptx");
}

TEST(cli_exec_launch_error)
{
	if (cli_missing(t))
		return;
	/* n far beyond the buffers: the kernel reads out of bounds */
	cli_expect(t,
	           "exec " CLI_PTX "saxpy.ptx saxpy --grid 4096 --block 256 --arg u32:1048576 --arg f32:2 "
	           "--arg buf:x:f32:8 --arg buf:y:f32:8 --print y",
	           1, "launch of 'saxpy' failed");
	/* a CTA larger than any SM allows */
	cli_expect(t,
	           "exec " CLI_PTX "saxpy.ptx saxpy --grid 1 --block 100000 --arg u32:5 --arg f32:2 "
	           "--arg buf:x:f32:8 --arg buf:y:f32:8",
	           1, "launch of 'saxpy' failed");
}

TEST(cli_exec_counters_and_stats)
{
	if (cli_missing(t))
		return;
	char dir[64], js[128], args[1024];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(js, sizeof js, dir, "s.json");
	snprintf(args, sizeof args,
	         SAXPY "--arg u32:5 --arg f32:2 --arg buf:x:f32:8=iota --arg buf:y:f32:8 --counters --stats %s", js);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "thread instructions");
	CHECK_STR_CONTAINS(out, "as GPGPU-Sim does");
	free(out);
	char *j = cli_slurp(js, NULL);
	CHECK_MSG(j && j[0] == '{' && strstr(j, "thread_insts"), "stats JSON: %s", j ? j : "(missing)");
	free(j);
	remove(js);
	rmdir(dir);
}

/* ---- run, bench ---- */

TEST(cli_run_bench)
{
	if (cli_missing(t))
		return;
	if (!ws_bench_find("vecadd")) {
		CHECK_MSG(0, "benchmark vecadd is missing");
		return;
	}
	char dir[64], js[128], args[512];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(js, sizeof js, dir, "run.json");
	snprintf(args, sizeof args, "run vecadd --size tiny --stats %s", js);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "# effective configuration");
	CHECK_STR_CONTAINS(out, "warp_size = 32");
	CHECK_STR_CONTAINS(out, "verification: PASSED");
	CHECK_STR_CONTAINS(out, "thread instructions");
	CHECK_STR_CONTAINS(out, "thread-insts/s");
	free(out);
	char *j = cli_slurp(js, NULL);
	CHECK_MSG(j && j[0] == '{', "stats JSON: %s", j ? j : "(missing)");
	free(j);
	remove(js);
	rmdir(dir);

	rc = cli_run("run vecadd --size tiny --quiet --functional --set warp_size=16", 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_MSG(!strstr(out, "# effective configuration"), "--quiet still printed the configuration");
	CHECK_STR_CONTAINS(out, "verification: PASSED");
	free(out);

	cli_expect(t, "run vecadd --size tiny --set warp_size=7", 2, "--set warp_size=7");

	rc = cli_run("bench --size tiny vecadd histo", 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "thread-insts/s");
	CHECK_STR_CONTAINS(out, "\nvecadd    yes ");
	CHECK_STR_CONTAINS(out, "\nhisto     yes ");
	CHECK_STR_CONTAINS(out, "\ntotal ");
	free(out);
}

/* run --launch-stats: one JSON line per launch (backprop: 2 kernels), each
 * with its kernel, occupancy and counters; an empty name is refused. */
TEST(cli_run_launch_stats)
{
	if (cli_missing(t))
		return;
	char dir[64], js[128], args[512];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(js, sizeof js, dir, "launches.jsonl");
	snprintf(args, sizeof args, "run backprop --size tiny --quiet --launch-stats %s", js);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	free(out);
	char *j = cli_slurp(js, NULL);
	CHECK_MSG(j != NULL, "%s missing", js);
	if (j) {
		const char *l1 = strchr(j, '\n');
		CHECK_MSG(l1 && strchr(l1 + 1, '\n') && !strchr(strchr(l1 + 1, '\n') + 1, '\n'), "not 2 lines: %s", j);
		static const char first[] = "{\"launch\": 0, \"kernel\": \"bp_forward\", \"ctas_per_sm\": ";
		CHECK_MSG(strncmp(j, first, sizeof first - 1) == 0, "first line: %.80s", j);
		CHECK_STR_CONTAINS(j, "{\"launch\": 1, \"kernel\": \"bp_adjust\", ");
		CHECK_STR_CONTAINS(j, ", \"stats\": {\"kernels\": 1, ");
		CHECK_STR_CONTAINS(j, "\"l1d_res_fails\": ");
	}
	free(j);
	remove(js);
	rmdir(dir);
	cli_expect(t, "run vecadd --size tiny --launch-stats=", 2, "option '--launch-stats' has an empty value");
}

/* run --timeline / --trace write an SVG and a Chrome trace; a bad CTA range is
 * rejected before anything runs. */
TEST(cli_run_timeline_and_trace)
{
	if (cli_missing(t))
		return;
	char dir[64], svg[128], json[128], args[512];
	if (cli_tmpdir(t, dir) != 0)
		return;
	snprintf(svg, sizeof svg, "%s/t.svg", dir);
	snprintf(json, sizeof json, "%s/t.json", dir);
	snprintf(args, sizeof args, "run sp --size tiny --quiet --sched mwf-gto --fetch cff --timeline %s --timeline-ctas 0-1 --trace %s",
		 svg, json);
	char *out = NULL;
	CHECK_EQ(cli_run(args, 1, &out), 0);
	CHECK_STR_CONTAINS(out, "verification: PASSED");
	free(out);
	size_t n = 0;
	char *s = cli_slurp(svg, &n);
	CHECK_STR_CONTAINS(s, "<svg");
	CHECK_STR_CONTAINS(s, "CTA 0 w15"); /* sp tiny: CTA 0 on SM 0, CTA 1 on SM 1 */
	free(s);
	s = cli_slurp(json, &n);
	CHECK_STR_CONTAINS(s, "\"traceEvents\"");
	CHECK_STR_CONTAINS(s, "barrier wait");
	free(s);
	out = NULL;
	CHECK_EQ(cli_run("run sp --size paper --timeline x.svg --timeline-ctas 5-2", 1, &out), 2);
	CHECK_STR_CONTAINS(out, "--timeline-ctas '5-2': expected A or A-B");
	free(out);
	/* selections with nothing to draw fail, saying what there is (issue 26) */
	static const struct {
		const char *args;
		int rc;
		const char *msg;
	} bad[] = {
		{"--timeline-sm 99", 2, "--timeline-sm 99: this GPU has 15 SMs (0-14)"},
		{"--timeline-launch 5", 1, "nothing to draw: launch 5 has no records: the run had launches 1-1"},
		{"--timeline-ctas 200-300", 1, "SM 0 ran none of CTAs 200-300 in launch 1: it ran CTAs between 0 and 0"},
		{"--timeline-sm 14", 1, "SM 14 ran no CTA of launch 1: SMs 0-1 did"},
		{"--functional", 2, "--timeline needs the timing model"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		snprintf(args, sizeof args, "run sp --size tiny --quiet --timeline %s %s", svg, bad[k].args);
		out = NULL;
		CHECK_MSG(cli_run(args, 1, &out) == bad[k].rc, "%s: expected exit %d: %s", bad[k].args, bad[k].rc, out);
		CHECK_STR_CONTAINS(out, bad[k].msg);
		CHECK_MSG(!strstr(out, "trace_phases=1"), "%s: misleading hint: %s", bad[k].args, out);
		free(out);
	}
	/* dropped records: a warning, and a visible mark in both files */
	snprintf(args, sizeof args, "run ms --size small --quiet --set trace_max_events=1000 --timeline %s --trace %s",
		 svg, json);
	out = NULL;
	CHECK_EQ(cli_run(args, 2, &out), 0);
	CHECK_STR_CONTAINS(out, "warning: 8920 warp-phase records past trace_max_events were dropped");
	free(out);
	s = cli_slurp(svg, &n);
	CHECK_STR_CONTAINS(s, "INCOMPLETE: 8920 warp-phase records past trace_max_events were dropped");
	CHECK_STR_CONTAINS(s, "barrier wait</text>"); /* the legend */
	free(s);
	s = cli_slurp(json, &n);
	CHECK_STR_CONTAINS(s, "\"dropped_records\": 8920");
	CHECK_STR_CONTAINS(s, "\"name\": \"SM 0 (INCOMPLETE");
	free(s);
	remove(svg);
	remove(json);
	rmdir(dir);
}

/* ---- correlate ---- */

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* A minimal GPGPU-Sim output: the option echo, one kernel's block. */
static const char gpgpusim_mini[] =
    "-gpgpu_n_clusters                      15 # number of processing clusters\n"
    "-gpgpu_scheduler                      gto # Scheduler configuration\n"
    "kernel_name = vecadd \n"
    "gpu_sim_cycle = 1000\n"
    "gpu_sim_insn = 5000\n"
    "gpu_tot_sim_cycle = 1000\n"
    "gpu_tot_sim_insn = 5000\n"
    "gpu_tot_ipc =       5.0000\n"
    "\tL1D_total_cache_miss_rate = 1.0000\n"
    "L2_total_cache_accesses = 3\n"
    "L2_total_cache_misses = 1\n"
    "L2_total_cache_miss_rate = 0.5000\n"
    "n_cmd=100 n_nop=10 n_act=2 n_pre=1 n_ref_event=0 n_req=20 n_rd=20 n_rd_L2_A=0 n_write=0 n_wr_bk=0 bw_util=0.4\n"
    "averagemflatency = 300 \n";

/* warpsim correlate on a synthetic reference: the policy comes from the echoed
 * -gpgpu_scheduler (not the directory's suffix), the table, CSV, markdown and
 * SVG are written, the targets turn into an exit status, bad references fail. */
TEST(cli_correlate)
{
	if (cli_missing(t))
		return;
	char dir[64], ref[128], file[160], outd[160], p[200], args[768];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(ref, sizeof ref, dir, "vecadd_lrr"); /* the echo says gto */
	mkdir(ref, 0777);
	cli_path(file, sizeof file, ref, "gpgpusim-out.txt");
	CHECK(write_text(file, gpgpusim_mini) == 0);
	cli_path(outd, sizeof outd, dir, "out");
	snprintf(args, sizeof args, "correlate %s --size tiny --quiet --jobs 1 --out %s", ref, outd);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "vecadd_gto");
	CHECK_STR_CONTAINS(out, "l2_miss_rate");
	CHECK_STR_CONTAINS(out, "MAPE");
	CHECK_MSG(!strstr(out, "vecadd_lrr"), "policy taken from the directory name, not the echo:\n%s", out);
	free(out);
	static const char *const files[][2] = {{"correlation.csv", "bench,policy,metric,gpgpusim,warpsim,error_pct"},
					       {"correlation.md", "| cycles |"},
					       {"correlation.svg", "stroke-dasharray"}};
	for (unsigned i = 0; i < 3; i++) {
		cli_path(p, sizeof p, outd, files[i][0]);
		char *s = cli_slurp(p, NULL);
		CHECK_MSG(s && strstr(s, files[i][1]), "%s: missing or without \"%s\"", p, files[i][1]);
		/* the L2 miss rate from the totals (1 / 3), not the rounded rate line */
		CHECK_MSG(i || (s && strstr(s, ",l2_miss_rate,0.3333")), "%s: L2 miss rate not from the totals", p);
		free(s);
		remove(p);
	}
	rmdir(outd);
	/* 1000 cycles is not what vecadd takes: a 0.01% target fails, --known forgives it */
	snprintf(args, sizeof args, "correlate %s --size tiny --quiet --jobs 1 --max-cycle-error 0.01", file);
	cli_expect(t, args, 1, "cycle error");
	snprintf(args, sizeof args, "correlate %s --size tiny --quiet --jobs 1 --max-cycle-error 0.01 --known vecadd", file);
	cli_expect(t, args, 0, "(known difference)");
	/* a `size` file beside the output overrides --size (default paper): same table as --size tiny */
	char *tiny_out = NULL, *file_out = NULL, sizef[200];
	snprintf(args, sizeof args, "correlate %s --size tiny --quiet --jobs 1", ref);
	CHECK(cli_run(args, 1, &tiny_out) == 0);
	cli_path(sizef, sizeof sizef, ref, "size");
	CHECK(write_text(sizef, "tiny\n") == 0);
	snprintf(args, sizeof args, "correlate %s --quiet --jobs 1", ref);
	CHECK(cli_run(args, 1, &file_out) == 0);
	CHECK_MSG(tiny_out && file_out && strcmp(tiny_out, file_out) == 0, "size file ignored:\n%s\n--\n%s", tiny_out,
		  file_out);
	free(tiny_out);
	free(file_out);
	CHECK(write_text(sizef, "huge\n") == 0);
	cli_expect(t, args, 1, "is not a benchmark size");
	remove(sizef);
	/* --bench / --sched override */
	snprintf(args, sizeof args, "correlate %s --size tiny --quiet --jobs 1 --bench histo --sched lrr", file);
	cli_expect(t, args, 0, "histo_lrr");
	/* runs whose threads add up to more than the cores: fewer at once, with a warning */
	snprintf(args, sizeof args, "correlate %s --size tiny --quiet --jobs 256 --set threads=0 --bench histo --sched lrr",
	         file);
	cli_expect(t, args, 0, "runs of threads=");
	snprintf(args, sizeof args,
	         "correlate %s --size tiny --quiet --jobs 256 --set threads=0 --oversubscribe --bench histo --sched lrr",
	         file);
	char *co = NULL;
	CHECK(cli_run(args, 1, &co) == 0 && co && !strstr(co, "runs of threads="));
	free(co);
	/* bad references */
	cli_path(p, sizeof p, dir, "notes.txt");
	CHECK(write_text(p, "hello\n") == 0);
	snprintf(args, sizeof args, "correlate %s --bench vecadd", p);
	cli_expect(t, args, 1, "not a GPGPU-Sim output");
	remove(p);
	char odd[160], oddf[200];
	cli_path(odd, sizeof odd, dir, "mystery_gto");
	mkdir(odd, 0777);
	cli_path(oddf, sizeof oddf, odd, "gpgpusim-out.txt");
	CHECK(write_text(oddf, gpgpusim_mini) == 0);
	snprintf(args, sizeof args, "correlate %s", odd);
	cli_expect(t, args, 2, "cannot tell the benchmark");
	snprintf(args, sizeof args, "correlate %s --bench vecadd --sched nosuch", odd);
	cli_expect(t, args, 2, "nosuch");
	snprintf(args, sizeof args, "correlate %s/none", dir);
	cli_expect(t, args, 1, "No such file");
	remove(oddf);
	rmdir(odd);
	remove(file);
	rmdir(ref);
	rmdir(dir);
}

/* ---- input hardening (issue 17): every malformed input is a located error ---- */

/* Run "warpsim ARGS" and check the exit status and the first line of its
 * standard error (exactly; NULL: stderr must be empty). */
static void cli_expect_first(struct test_ctx *t, const char *args, int status, const char *first)
{
	size_t sz = strlen(args) + 32;
	char *a = malloc(sz), *out = NULL;
	if (!a) {
		CHECK_MSG(0, "out of memory");
		return;
	}
	/* stderr into the pipe, stdout away; cli_run's own redirection then applies to the exit */
	snprintf(a, sz, "%s 2>&1 >/dev/null; exit $?", args);
	int rc = cli_run(a, 0, &out);
	free(a);
	const char *o = out ? out : "";
	size_t len = strcspn(o, "\n");
	CHECK_MSG(rc == status, "warpsim %s: exit status %d, expected %d; stderr:\n%s", args, rc, status, o);
	if (first)
		CHECK_MSG(strlen(first) == len && strncmp(o, first, len) == 0,
		          "warpsim %s: first line of stderr\n  is   \"%.*s\"\n  want \"%s\"", args, (int)len, o, first);
	else
		CHECK_MSG(len == 0, "warpsim %s: expected no message, got \"%s\"", args, o);
	free(out);
}

static void cli_write(struct test_ctx *t, const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	CHECK_MSG(f && fwrite(data, 1, len, f) == len && fclose(f) == 0, "cannot write %s", path);
}

TEST(cli_ptx_input_files)
{
	if (cli_missing(t))
		return;
	char dir[64], p[128], args[512], want[1024];
	if (cli_tmpdir(t, dir))
		return;
	/* empty file, text without .version / .target, directory, devices */
	cli_path(p, sizeof p, dir, "empty.ptx");
	cli_write(t, p, "", 0);
	snprintf(args, sizeof args, "ptx %s", p);
	snprintf(want, sizeof want,
	         "warpsim ptx: error: WS_ERROR_INVALID_PTX: %s:1:1: error: empty file: not a PTX module (a PTX module "
	         "starts with .version and .target)", p);
	cli_expect_first(t, args, 1, want);
	cli_path(p, sizeof p, dir, "nover.ptx");
	cli_write(t, p, "// a comment\n.target sm_75\n", 27);
	snprintf(args, sizeof args, "ptx %s", p);
	snprintf(want, sizeof want,
	         "warpsim ptx: error: WS_ERROR_INVALID_PTX: %s:1:1: error: no .version directive: not a PTX module (a PTX "
	         "module starts with .version and .target)", p);
	cli_expect_first(t, args, 1, want);
	snprintf(args, sizeof args, "ptx %s", dir);
	snprintf(want, sizeof want, "warpsim ptx: error: WS_ERROR_NOT_A_FILE: %s: is a directory, not a PTX file", dir);
	cli_expect_first(t, args, 1, want);
	cli_expect_first(t, "ptx /dev/null", 1,
	                 "warpsim ptx: error: WS_ERROR_NOT_A_FILE: /dev/null: is a character device, not a PTX file");
	cli_expect_first(t, "ptx /dev/zero", 1,
	                 "warpsim ptx: error: WS_ERROR_NOT_A_FILE: /dev/zero: is a character device, not a PTX file");
	cli_expect_first(t, "ptx tests/ptx/bad/nul_byte.ptx", 1,
	                 "warpsim ptx: error: WS_ERROR_INVALID_PTX: tests/ptx/bad/nul_byte.ptx: file contains NUL bytes; "
	                 "not PTX text");
	/* the size limit (WARPSIM_PTX_MAX_MB, here 1 MiB) */
	cli_path(p, sizeof p, dir, "big.ptx");
	size_t big = (1u << 20) + 100;
	char *text = malloc(big);
	if (text) {
		memset(text, ' ', big);
		memcpy(text, ".version 7.0\n.target sm_75\n", 27);
		cli_write(t, p, text, big);
		free(text);
	}
	snprintf(args, sizeof args, "ptx %s", p);
	snprintf(want, sizeof want,
	         "warpsim ptx: error: WS_ERROR_INVALID_PTX: %s: file of %zu bytes is larger than the PTX size limit of 1 "
	         "MiB (set WARPSIM_PTX_MAX_MB to raise it)", p, big);
	setenv("WARPSIM_PTX_MAX_MB", "1", 1);
	cli_expect_first(t, args, 1, want);
	setenv("WARPSIM_PTX_MAX_MB", "2", 1);
	cli_expect_first(t, args, 0, NULL);
	/* a value that is not 1 to 65536 is an error naming the variable, not silently the default */
	static const char *const bad_mb[][2] = {{"abc", "is not a whole number of MiB"},
	                                        {"0", "is zero"},
	                                        {"-4", "is not a whole number of MiB"},
	                                        {"1.5", "is not a whole number of MiB"},
	                                        {" 2", "is not a whole number of MiB"},
	                                        {"65537", "is larger than 65536"},
	                                        {"99999999999999999999999", "is larger than 65536"}};
	for (size_t i = 0; i < sizeof bad_mb / sizeof bad_mb[0]; i++) {
		setenv("WARPSIM_PTX_MAX_MB", bad_mb[i][0], 1);
		snprintf(want, sizeof want,
		         "warpsim ptx: error: WS_ERROR_INVALID_VALUE: environment variable WARPSIM_PTX_MAX_MB='%s' %s "
		         "(expected 1 to 65536, or unset for 256)", bad_mb[i][0], bad_mb[i][1]);
		cli_expect_first(t, "ptx tests/ptx/exec/iadd.ptx", 1, want);
	}
	setenv("WARPSIM_PTX_MAX_MB", "", 1); /* empty: as if unset */
	cli_expect_first(t, "ptx tests/ptx/exec/iadd.ptx", 0, NULL);
	unsetenv("WARPSIM_PTX_MAX_MB");
	/* exec reports the same */
	snprintf(args, sizeof args, "exec %s/empty.ptx k --grid 1 --block 1", dir);
	snprintf(want, sizeof want,
	         "warpsim exec: error: WS_ERROR_INVALID_PTX: %s/empty.ptx:1:1: error: empty file: not a PTX module (a PTX "
	         "module starts with .version and .target)", dir);
	cli_expect_first(t, args, 1, want);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

/* The thread pool's environment variables: a value that is not one the
 * pool understands fails the launch with the variable named, in every mode
 * (not silently the default); empty is as if unset. */
TEST(cli_threads_env_bad_values)
{
	if (cli_missing(t))
		return;
	static const char *const bad[][3] = {
		{"WARPSIM_THREADS_PROFILE", "yes", "is neither 0 nor 1"},
		{"WARPSIM_THREADS_PROFILE", "2", "is neither 0 nor 1"},
		{"WARPSIM_THREADS_SPIN_US", "-5", "is not a whole number of microseconds from 0 to 1000000"},
		{"WARPSIM_THREADS_SPIN_US", "10us", "is not a whole number of microseconds from 0 to 1000000"},
		{"WARPSIM_THREADS_SPIN_US", "1000001", "is not a whole number of microseconds from 0 to 1000000"},
		{"WARPSIM_THREADS_SPIN_US", "99999999999999999999", "is not a whole number of microseconds"},
	};
	char want[200];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		setenv(bad[i][0], bad[i][1], 1);
		snprintf(want, sizeof want, "environment variable %s='%s' %s", bad[i][0], bad[i][1], bad[i][2]);
		cli_expect(t, "run vecadd --size tiny --threads 2", 1, want);
		cli_expect(t, "run vecadd --size tiny --threads 1", 1, want);
		unsetenv(bad[i][0]);
	}
	setenv("WARPSIM_THREADS_SPIN_US", "", 1);
	setenv("WARPSIM_THREADS_PROFILE", "0", 1);
	cli_expect(t, "run vecadd --size tiny --threads 2", 0, "verification: PASSED");
	setenv("WARPSIM_THREADS_SPIN_US", "1000000", 1);
	cli_expect(t, "run vecadd --size tiny --threads 2 --oversubscribe", 0, "verification: PASSED");
	unsetenv("WARPSIM_THREADS_SPIN_US");
	unsetenv("WARPSIM_THREADS_PROFILE");
}

TEST(cli_ptx_version_target)
{
	if (cli_missing(t))
		return;
	char dir[64], p[128], args[512], want[1024];
	if (cli_tmpdir(t, dir))
		return;
	static const struct {
		const char *header;
		int status;
		const char *first; /* after "warpsim ptx: " and the file name */
	} cases[] = {
	    {".version 99.9\n.target sm_75\n", 1,
	     "error: WS_ERROR_INVALID_PTX: %s:1:10: error: PTX ISA version 99.9 does not exist (warpsim knows 1.0 to 9.0)"},
	    {".version 0.5\n.target sm_75\n", 1,
	     "error: WS_ERROR_INVALID_PTX: %s:1:10: error: PTX ISA version 0.5 does not exist (warpsim knows 1.0 to 9.0)"},
	    {".version 7.0\n.target sm_1000\n", 1,
	     "error: WS_ERROR_INVALID_PTX: %s:2:9: error: target 'sm_1000' does not exist (warpsim knows sm_10 to sm_121)"},
	    {".version 7.0\n.target gpu\n", 1,
	     "error: WS_ERROR_INVALID_PTX: %s:2:9: error: unknown target 'gpu': expected sm_NN, a GPU architecture "
	     "(warpsim knows sm_10 to sm_121)"},
	    {".version 7.0\n.target sm_75, fast\n", 1,
	     "error: WS_ERROR_INVALID_PTX: %s:2:16: error: unknown .target option 'fast' (expected debug, texmode_unified, "
	     "texmode_independent or map_f64_to_f32)"},
	    {".version 9.5\n.target sm_75\n", 0,
	     "warning: %s:1:10: PTX ISA version 9.5 is newer than warpsim knows (1.0 to 9.0); loading it anyway"},
	    {".version 10.0\n.target sm_75\n", 0,
	     "warning: %s:1:10: PTX ISA version 10.0 is newer than warpsim knows (1.0 to 9.0); loading it anyway"},
	    {".version 9.0\n.target sm_150\n", 0,
	     "warning: %s:2:9: target 'sm_150' is not an architecture warpsim knows (sm_10 to sm_121); loading it anyway"},
	    {".version 9.0\n.target sm_90a, debug\n", 0, NULL},
	};
	cli_path(p, sizeof p, dir, "v.ptx");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cli_write(t, p, cases[i].header, strlen(cases[i].header));
		snprintf(args, sizeof args, "ptx %s", p);
		char fmt[400];
		if (cases[i].first) {
			snprintf(fmt, sizeof fmt, "warpsim ptx: %s", cases[i].first);
			snprintf(want, sizeof want, fmt, p);
		}
		cli_expect_first(t, args, cases[i].status, cases[i].first ? want : NULL);
	}
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

TEST(cli_option_values_rejected)
{
	if (cli_missing(t))
		return;
	/* exec --out: an unknown format, an empty one */
	const char *ex = "exec " CLI_PTX "saxpy.ptx saxpy --grid 1 --block 8 --arg u32:8 --arg f32:2 "
	                 "--arg buf:x:f32:8 --arg buf:y:f32:8";
	char args[512];
	snprintf(args, sizeof args, "%s --out y=/tmp/warpsim-never.out:xml", ex);
	cli_expect_first(t, args, 2,
	                 "warpsim exec: error: --out 'y=/tmp/warpsim-never.out:xml': unknown output format 'xml' (expected "
	                 "bin, hex or txt; for a file name with ':' add the format: PATH:bin)");
	snprintf(args, sizeof args, "%s --out y=/tmp/warpsim-never.out:", ex);
	cli_expect_first(t, args, 2,
	                 "warpsim exec: error: --out 'y=/tmp/warpsim-never.out:': unknown output format '' (expected "
	                 "bin, hex or txt; for a file name with ':' add the format: PATH:bin)");
	/* --set: integers are whole decimal or 0x-hex numbers; unknown keys name the closest */
	cli_expect_first(t, "config --set 'num_sms= 5'", 2,
	                 "warpsim config: error: --set num_sms= 5: parameter 'num_sms': ' 5' is not an integer (decimal, "
	                 "or hex with 0x)");
	cli_expect_first(t, "config --set num_sms=4x", 2,
	                 "warpsim config: error: --set num_sms=4x: parameter 'num_sms': '4x' is not an integer (decimal, "
	                 "or hex with 0x)");
	cli_expect_first(t, "config --set warpsize=32", 2,
	                 "warpsim config: error: --set warpsize=32: unknown parameter 'warpsize'; did you mean "
	                 "'warp_size'? (see `warpsim config --list`)");
	cli_expect_first(t, "config --set trace_phases=maybe", 2,
	                 "warpsim config: error: --set trace_phases=maybe: parameter 'trace_phases': 'maybe' is not a "
	                 "boolean (expected 1, true, yes, on, 0, false, no or off)");
	cli_expect_first(t, "config --set 'lat_int=4,13, 4,5,145'", 2,
	                 "warpsim config: error: --set lat_int=4,13, 4,5,145: parameter 'lat_int': '4,13, 4,5,145' is not "
	                 "a comma-separated list of integers");
	/* a list has exactly its default's count of values: a short one is not padded, a long one not cut */
	cli_expect_first(t, "config --set lat_int=1,2", 2,
	                 "warpsim config: error: --set lat_int=1,2: parameter 'lat_int': '1,2' has 2 values, expected 5 "
	                 "(integer latency: add,max,mul,mad,div (cycles))");
	cli_expect_first(t, "config --set ii_dp=1,2,3,4,5,6", 2,
	                 "warpsim config: error: --set ii_dp=1,2,3,4,5,6: parameter 'ii_dp': '1,2,3,4,5,6' has 6 values, "
	                 "expected 5 (double-precision initiation interval: add,max,mul,mad,div)");
	cli_expect_first(t, "config --set lat_fp=7", 2,
	                 "warpsim config: error: --set lat_fp=7: parameter 'lat_fp': '7' has 1 value, expected 5 "
	                 "(single-precision latency: add,max,mul,mad,div)");
	char *out;
	CHECK_EQ(cli_run("config --set num_sms=010", 0, &out), 0); /* ten, as on the command line, not octal eight */
	CHECK_STR_CONTAINS(out, "num_sms = 10\n");
	free(out);
	/* run's timeline options, bench's --load-mb */
	cli_expect_first(t, "run vecadd --size tiny --quiet --timeline-launch -1", 2,
	                 "warpsim run: error: --timeline-launch: '-1' is negative (expected 0..4294967295) (a launch "
	                 "number, 0 = the last)");
	cli_expect_first(t, "run vecadd --size tiny --quiet --timeline-sm ' 1'", 2,
	                 "warpsim run: error: --timeline-sm: ' 1' is not an integer (an SM number)");
	cli_expect_first(t, "run vecadd --size tiny --quiet --timeline-ctas 1-x", 2,
	                 "warpsim run: error: --timeline-ctas '1-x': expected A or A-B with A <= B (CTA numbers)");
	cli_expect_first(t, "run vecadd --size tiny --quiet --timeline-sm 1", 2,
	                 "warpsim run: error: --timeline-sm needs --timeline FILE.svg (it selects what the timeline shows)");
	/* no option has a meaningful empty value */
	cli_expect_first(t, "collect /nonexistent --stats ''", 2,
	                 "warpsim collect: error: option '--stats' has an empty value (expected LIST)");
	cli_expect_first(t, "report /nonexistent --baseline=", 2,
	                 "warpsim report: error: option '--baseline' has an empty value (expected K=V[,K=V])");
	cli_expect_first(t, "sweep x.spec --reuse ''", 2,
	                 "warpsim sweep: error: option '--reuse' has an empty value (expected DIR)");
	cli_expect_first(t, "bench vecadd --size tiny --load-mb 5,x", 2,
	                 "warpsim bench: error: --load-mb '5,x': 'x' is not an integer (sizes in MiB, 1 to 1024, or 0 for "
	                 "none)");
}

TEST(cli_config_files_rejected)
{
	if (cli_missing(t))
		return;
	char dir[64], p[128], args[512], want[1024];
	if (cli_tmpdir(t, dir))
		return;
	static const struct {
		const char *text;
		size_t len;
		const char *first; /* after "warpsim config: error: --config F: F" */
	} cases[] = {
	    {"warp_size = 32\nwarpsize = 16\n", 30,
	     ":2: unknown parameter 'warpsize'; did you mean 'warp_size'? (see `warpsim config --list`)"},
	    {"mode = fast\n", 12, ":1: parameter 'mode': 'fast' is not one of timing|functional"},
	    {"num_sms = 15 16\n", 16, ":1: parameter 'num_sms': '15 16' is not an integer (decimal, or hex with 0x)"},
	    {"num_sms 15\n", 11, ":1: expected 'key = value', got 'num_sms 15'"},
	    {"num_sms = 1\0 5\n", 15, ":1: contains a NUL byte: not a text file"},
	    /* a key given twice: both lines named, not "the later wins" */
	    {"num_sms = 2\n# more\nnum_sms = 3\n", 31, ":3: 'num_sms' is set again (first set at %s:1); give each key once"},
	    /* a list has exactly its default's count of values */
	    {"lat_int = 4,13\n", 15,
	     ":1: parameter 'lat_int': '4,13' has 2 values, expected 5 (integer latency: add,max,mul,mad,div (cycles))"},
	};
	cli_path(p, sizeof p, dir, "c.cfg");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cli_write(t, p, cases[i].text, cases[i].len);
		snprintf(args, sizeof args, "config --config %s", p);
		char first[256];
		snprintf(first, sizeof first, cases[i].first, p);
		snprintf(want, sizeof want, "warpsim config: error: --config %s: %s%s", p, p, first);
		cli_expect_first(t, args, 2, want);
	}
	/* a value checkable on its own is refused at its line (wsConfigSet checks it when it is set) */
	cli_write(t, p, "num_sms = 2\nwarp_size = 33\n", 27);
	snprintf(args, sizeof args, "config --config %s", p);
	snprintf(want, sizeof want, "warpsim config: error: --config %s: %s:2: parameter 'warp_size': 33 is not 8, 16, 32 "
	         "or 64", p, p);
	cli_expect_first(t, args, 2, want);
	/* an error of the whole configuration names the file:line of each key the file set */
	cli_write(t, p, "dwr_ilt_ways = 4\n\ndwr_ilt_entries = 10\n", 39);
	snprintf(want, sizeof want, "warpsim config: error: configuration: %s:3: parameter 'dwr_ilt_entries': 10 is not a "
	         "multiple of dwr_ilt_ways (4) (dwr_ilt_ways at %s:1)", p, p);
	cli_expect_first(t, args, 2, want);
	snprintf(args, sizeof args, "config --config %s --set dwr_ilt_entries=9", p); /* not the file's key: no prefix */
	snprintf(want, sizeof want, "warpsim config: error: configuration: parameter 'dwr_ilt_entries': 9 is not a "
	         "multiple of dwr_ilt_ways (4) (dwr_ilt_ways at %s:1)", p);
	cli_expect_first(t, args, 2, want);
	snprintf(args, sizeof args, "config --config %s", dir);
	snprintf(want, sizeof want, "warpsim config: error: --config %s: %s: not a config file (a directory)", dir, dir);
	cli_expect_first(t, args, 1, want);
	cli_expect_first(t, "config --config /dev/zero", 1,
	                 "warpsim config: error: --config /dev/zero: /dev/zero: not a config file (not a regular file)");
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

/* Two outputs of one command line into one file, however it is spelled (f,
 * ./f, d/../f, a link to f), or an output over the PTX input: exit 2 before
 * any work, instead of one output silently overwriting the other. */
TEST(cli_outputs_distinct)
{
	if (cli_missing(t))
		return;
	char dir[64], args[1024], want[1024];
	if (cli_tmpdir(t, dir))
		return;
	snprintf(args, sizeof args, "run vecadd --size tiny --quiet --stats %s/t.json --trace %s/./t.json", dir, dir);
	snprintf(want, sizeof want, "warpsim run: error: --stats %s/t.json and --trace %s/./t.json name the same file: "
	         "give each output its own", dir, dir);
	cli_expect_first(t, args, 2, want);
	snprintf(args, sizeof args, "touch %s/t.json && ln -s t.json %s/link.json", dir, dir);
	CHECK(system(args) == 0);
	snprintf(args, sizeof args, "run vecadd --size tiny --quiet --timeline %s/link.json --stats %s/t.json", dir, dir);
	snprintf(want, sizeof want, "warpsim run: error: --timeline %s/link.json and --stats %s/t.json name the same file: "
	         "give each output its own", dir, dir);
	cli_expect_first(t, args, 2, want);
	const char *ex = "exec " CLI_PTX "saxpy.ptx saxpy --grid 1 --block 8 --arg u32:8 --arg f32:2 "
	                 "--arg buf:x:f32:8 --arg buf:y:f32:8";
	snprintf(args, sizeof args, "%s --out x=%s/f --out y=%s/./f:txt", ex, dir, dir);
	snprintf(want, sizeof want, "warpsim exec: error: --out 'y=%s/./f:txt': file '%s/./f' is already the output of "
	         "--out x=...: one file per output", dir, dir);
	cli_expect_first(t, args, 2, want);
	snprintf(args, sizeof args, "%s --out x=%s/f --stats %s/f", ex, dir, dir);
	snprintf(want, sizeof want, "warpsim exec: error: --out 'x=%s/f': file '%s/f' is already the output of --stats: "
	         "one file per output", dir, dir);
	cli_expect_first(t, args, 2, want);
	/* (a copy of the PTX: a binary that does not refuse would overwrite it) */
	snprintf(args, sizeof args, "cp " CLI_PTX "saxpy.ptx %s/k.ptx", dir);
	CHECK(system(args) == 0);
	snprintf(args, sizeof args,
	         "exec %s/k.ptx saxpy --grid 1 --block 8 --arg u32:8 --arg f32:2 --arg buf:x:f32:8 --arg buf:y:f32:8 "
	         "--out y=%s/../%s/k.ptx:txt",
	         dir, dir, strrchr(dir, '/') + 1);
	snprintf(want, sizeof want, "warpsim exec: error: --out 'y=%s/../%s/k.ptx:txt': file '%s/../%s/k.ptx' is the PTX "
	         "file being run", dir, strrchr(dir, '/') + 1, dir, strrchr(dir, '/') + 1);
	cli_expect_first(t, args, 2, want);
	/* different files are fine */
	snprintf(args, sizeof args, "%s --out x=%s/f --out y=%s/g --stats %s/s.json", ex, dir, dir, dir);
	cli_expect_first(t, args, 0, NULL);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

TEST(cli_sweep_specs_rejected)
{
	if (cli_missing(t))
		return;
	char dir[64], p[128], args[512], want[1024];
	if (cli_tmpdir(t, dir))
		return;
	static const struct {
		const char *text;
		const char *first; /* after "warpsim sweep: error: F" */
	} cases[] = {
	    {"", ": empty file: not a sweep spec (see docs/sweeps.md for its 'keyword value...' lines)"},
	    {"# nothing\n\n", ": no keyword lines: not a sweep spec (see docs/sweeps.md for its 'keyword value...' lines)"},
	    {"bench vecadd\nsize tiny\nset num_sms 1 x\n",
	     ":3: parameter 'num_sms': 'x' is not an integer (decimal, or hex with 0x)"},
	    {"bench vecadd\nset warpsize 16\n",
	     ":2: unknown parameter 'warpsize'; did you mean 'warp_size'? (see `warpsim config --list`)"},
	    {"bench vecadd\nsize huge\n", ":2: unknown size 'huge' (expected tiny, small, paper or paper-kaws)"},
	    {"bench vecadd\nset num_sms 10 2 0xa\n", ":2: values '10' and '0xa' of 'num_sms' are the same setting"},
	    {"bench vecadd\nset trace_phases 1 true\n", ":2: values '1' and 'true' of 'trace_phases' are the same setting"},
	    {"bench vecadd\nmetric speed\n",
	     ":2: metric: expected 'cycles' (speedup = baseline cycles / cycles) or 'ipc' (speedup = IPC / baseline IPC)"},
	    {"bench vecadd\ntimeout 5x\n", ":2: timeout: expected a positive duration (seconds, or with s, m or h)"},
	    {"bench vecadd\nrepeat 3\n",
	     ":2: unknown keyword 'repeat' (expected one of: name, bench, size, config, sched, fetch, policy, set, fixed, "
	     "exclude, baseline, stats, metric, timeout)"},
	};
	cli_path(p, sizeof p, dir, "s.spec");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cli_write(t, p, cases[i].text, strlen(cases[i].text));
		snprintf(args, sizeof args, "sweep %s --dry-run --out %s/out", p, dir);
		snprintf(want, sizeof want, "warpsim sweep: error: %s%s", p, cases[i].first);
		cli_expect_first(t, args, 2, want);
	}
	snprintf(args, sizeof args, "sweep %s --dry-run --out %s/out", dir, dir);
	snprintf(want, sizeof want, "warpsim sweep: error: %s: a directory, not a sweep spec", dir);
	cli_expect_first(t, args, 2, want);
	snprintf(args, sizeof args, "sweep /dev/zero --dry-run --out %s/out", dir);
	cli_expect_first(t, args, 2,
	                 "warpsim sweep: error: /dev/zero: a device, socket or other special file, not a sweep spec");
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

/* make bench's PTX-loading rows: peak memory per PTX byte under 20 for both
 * shapes (not under the sanitizers, whose shadow memory and redzones are
 * part of every allocation) */
TEST(cli_bench_load_memory)
{
	if (cli_missing(t))
		return;
#if defined(__SANITIZE_ADDRESS__)
	return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return;
#endif
#endif
	char *out;
	int rc = cli_run("bench vecadd --size tiny --load-mb 2", 1, &out);
	CHECK_MSG(rc == 0, "bench --load-mb 2: exit status %d; output:\n%s", rc, out ? out : "");
	int rows = 0;
	for (const char *l = out; l && *l;) {
		const char *nl = strchr(l, '\n');
		double mb, s, rate, peak, bb;
		const char *rest = strncmp(l, "kernels ", 8) == 0 ? l + 8 : strncmp(l, "one kernel ", 11) == 0 ? l + 11 : NULL;
		if (rest && sscanf(rest, "%lf %lf %lf %lf %lf", &mb, &s, &rate, &peak, &bb) == 5) {
			rows++;
			CHECK_MSG(bb > 1 && bb < 20, "PTX loading needs %.1f bytes per PTX byte (limit 20):\n%.*s", bb,
			          (int)(nl ? nl - l : (long)strlen(l)), l);
		}
		l = nl ? nl + 1 : NULL;
	}
	CHECK_MSG(rows == 2, "expected 2 PTX-loading rows with memory figures in:\n%s", out ? out : "");
	free(out);
}

/* ---- issue 16: robustness ---- */

/* The functional model stops a spin loop that can never end with the timing
 * model's livelock report (it used to spin for 2e9 warp instructions). */
TEST(cli_exec_functional_livelock)
{
	if (cli_missing(t))
		return;
	cli_expect_stderr1(t,
	                   "exec " TEST_DATA_DIR "/ptx/func/faults.ptx spin_forever --functional --grid 2 --block 32 "
	                   "--set num_sms=1 --set max_ctas_per_sm=1 --set livelock_cycles=20000 --arg buf:f:u32:1",
	                   1, "kernel spin_forever livelocked: warps kept executing but none finished");
}

/* The stuck-warp report says when the issue policy holds a warp back, and
 * what each listed SM's LD/ST unit is working on: BOWS
 * with a fixed delay far beyond the watchdog holds ht's spinning warps, and
 * the deadlock report names them so (added when TSP's livelock under BOWS
 * had to be told apart from a held warp: docs/bows.md, "Table I at paper
 * size"). */
TEST(cli_deadlock_report_names_held_warps)
{
	if (cli_missing(t))
		return;
	char *out;
	int rc = cli_run("run ht --size tiny --set sched=bows:gto --set bows_sib=annotated --set bows_delay=fixed "
	                 "--set bows_delay_limit=10000000 --set watchdog_cycles=100000 --quiet",
	                 0, &out); /* the report is in the run's verification line (standard output) */
	CHECK_MSG(rc == 1, "exit status %d, expected 1", rc);
	CHECK_MSG(out && strstr(out, "kernel ht deadlocked: the watchdog fired") &&
	                  strstr(out, "scoreboard pending 0, in flight 0, held back by the issue policy"),
	          "no held warp in the report:\n%s", out ? out : "");
	/* after an SM's warps, its LD/ST unit: nothing in flight while every warp is held */
	CHECK_MSG(out && strstr(out, "\n    LD/ST: 0 of ") && strstr(out, "load-table entries used; L1D latency queue empty"),
	          "no LD/ST line in the report:\n%s", out ? out : "");
	free(out);
	/* without the hold (no back-off: plain GTO) it completes and nothing is reported */
	rc = cli_run("run ht --size tiny --set sched=gto --set watchdog_cycles=100000 --quiet", 0, &out);
	CHECK_MSG(rc == 0 && out && !strstr(out, "held back"), "exit status %d:\n%s", rc, out ? out : "");
	free(out);
}

/* --set-var sets .const/.global module variables before the launch; a
 * struct parameter of 32 KB passes as file: bytes or as hex: (it used to fail
 * with "needs an even number of hex digits (1 to 4096 bytes)"). */
TEST(cli_exec_set_var_and_big_struct)
{
	if (cli_missing(t))
		return;
	char dir[64], big[128];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(big, sizeof big, dir, "big.bin");
	FILE *f = fopen(big, "wb");
	CHECK(f != NULL);
	if (!f)
		return;
	unsigned char *b = calloc(32768, 1);
	b[0] = 0x44, b[1] = 0x33, b[2] = 0x22, b[3] = 0x11;
	b[32764] = 0xef, b[32765] = 0xbe, b[32766] = 0xad, b[32767] = 0xde;
	fwrite(b, 1, 32768, f);
	fclose(f);
	/* reg_counts=estimate: ptxas refuses a 32 KB parameter (too much parameter space), and its
	 * warning would come before the errors looked for below */
	char args[1024];
	snprintf(args, sizeof args,
	         "exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --arg file:%s "
	         "--set-var cscale=u32:42 --set-var gbias=u32:0x99 --set-var carr=f32:1,2,3.5,4 --print o",
	         big);
	cli_expect(t, args, 0, "o = 42 153 1080033280 3735928559 287454020");
	/* the same struct as 65536 hex digits on the command line */
	size_t n = strlen("exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --print o --arg hex:");
	char *cmd = malloc(n + 2 * 32768 + 1);
	strcpy(cmd, "exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --print o --arg hex:");
	for (size_t i = 0; i < 32768; i++)
		snprintf(cmd + n + 2 * i, 3, "%02x", b[i]);
	cli_expect(t, cmd, 0, "o = 1 7 0 3735928559 287454020");
	free(cmd);
	free(b);
	/* errors: exit 2 and one clear first line */
	snprintf(args, sizeof args,
	         "exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --arg file:%s --set-var nosuch=u32:1",
	         big);
	cli_expect_stderr1(t, args, 2, "--set-var 'nosuch=u32:1': wsMemcpyToSymbol: no module-scope .global or .const variable named 'nosuch'");
	snprintf(args, sizeof args,
	         "exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --arg file:%s --set-var cscale=u32:1,2",
	         big);
	cli_expect_stderr1(t, args, 2, "is outside 'cscale' (4 bytes)");
	cli_expect_stderr1(t, "exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --arg hex:123", 2,
	                   "--arg 'hex:123': hex: odd number of hex digits (3)");
	cli_expect_stderr1(t, "exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --arg hex:1234", 2,
	                   "the parameter is 32768 bytes, but hex is 2 bytes");
	cli_expect_stderr1(t, "exec " CLI_PTX "setvar.ptx vars --set reg_counts=estimate --grid 1 --block 1 --arg buf:o:u32:5 --set-var cscale", 2,
	                   "--set-var 'cscale': expected NAME=TYPE:VALUE");
	unlink(big);
	rmdir(dir);
}

/* `warpsim ptx` reports every error of a file, recovering at the next
 * statement (it used to stop at the first): exit 1, the first error on the
 * first line, then one line per further error. */
TEST(cli_ptx_reports_every_error)
{
	if (cli_missing(t))
		return;
	const char *f = TEST_DATA_DIR "/ptx/bad/multi_error.ptx";
	char args[256];
	snprintf(args, sizeof args, "ptx %s", f);
	cli_expect_stderr1(t, args, 1, "multi_error.ptx:10:20: error: register '%nosuch' is not declared");
	static const char *const more[] = {
	    "multi_error.ptx:11:2: error: unknown instruction 'frobnicate'",
	    "multi_error.ptx:12:10: error: register '%rd1' is not declared",
	    "multi_error.ptx:18:2: error: 'mul' expects 3 operands, got 2",
	    "multi_error.ptx:19:9: error: unknown modifier '.bogus' on 'sub'",
	};
	for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
		cli_expect(t, args, 1, more[i]);
	/* module level too: a bad directive, declaration and function header are each
	 * reported, and parsing goes on at the next module-level item */
	snprintf(args, sizeof args, "ptx %s", TEST_DATA_DIR "/ptx/bad/multi_error_module.ptx");
	cli_expect_stderr1(t, args, 1, "multi_error_module.ptx:5:18: error: unknown directive '.bogus'");
	static const char *const mod[] = {
	    "multi_error_module.ptx:6:16: error: expected an array size, got ';'",
	    "multi_error_module.ptx:7:40: error: expected a type in declaration, got ')'",
	    "multi_error_module.ptx:14:2: error: unknown instruction 'frobnicate'",
	};
	for (size_t i = 0; i < sizeof mod / sizeof mod[0]; i++)
		cli_expect(t, args, 1, mod[i]);
	/* 500 errors: the first 100 are shown (docs/ptx.md), the last line counts the other 400 */
	char dir[64], p[128];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(p, sizeof p, dir, "e500.ptx");
	FILE *fp = fopen(p, "w");
	CHECK(fp != NULL);
	if (!fp)
		return;
	fprintf(fp, ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n");
	for (int i = 0; i < 500; i++)
		fprintf(fp, "  bogus%d.op;\n", i);
	fprintf(fp, "}\n");
	fclose(fp);
	snprintf(args, sizeof args, "ptx %s", p);
	char *out;
	CHECK_EQ(cli_run(args, 1, &out), 1);
	unsigned lines = 0;
	for (const char *c = out; *c; c++)
		lines += *c == '\n';
	CHECK_EQ(lines, 101);
	CHECK_STR_CONTAINS(out, "e500.ptx:104:3: error: unknown instruction 'bogus98'\n");
	CHECK_STR_CONTAINS(out, "e500.ptx:105:3: error: unknown instruction 'bogus99'\n... and 400 more errors\n");
	free(out);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

/* A kernel that is only declared (no body) cannot be launched: an error
 * naming it and its file:line, not a silent exit 0. */
TEST(cli_exec_declared_only_kernel)
{
	if (cli_missing(t))
		return;
	char dir[64], p[128], args[512], want[512];
	if (cli_tmpdir(t, dir))
		return;
	cli_path(p, sizeof p, dir, "decl.ptx");
	static const char text[] = ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k();\n"
				   ".visible .entry m(.param .u32 a);\n";
	cli_write(t, p, text, sizeof text - 1);
	snprintf(args, sizeof args, "exec %s k --grid 1 --block 32", p);
	snprintf(want, sizeof want, "the kernel is only declared (%s:4), it has no body to run", p);
	cli_expect(t, args, 1, want);
	snprintf(args, sizeof args, "exec %s m --grid 1 --block 32 --arg u32:1", p);
	snprintf(want, sizeof want, "launch of m: the kernel is only declared (%s:5)", p);
	cli_expect(t, args, 1, want);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	CHECK(system(args) == 0);
}

TEST(cli_exec_tex)
{
	if (cli_missing(t))
		return;
	/* a linear-filtered 1D texture: 0.8 -> 77 (8-bit weight 77/256), 1.5 -> texel 1, clamped ends */
	char *out;
	int rc = cli_run("exec " TEST_DATA_DIR "/ptx/func/texture.ptx _Z5tex1dyPKfP6float4i --grid 1 --block 4 "
	                 "--tex t:f32:4:linear,clamp=0,256,512,768 --arg tex:t --arg buf:c:f32:4=0.8,1.5,-1,9 "
	                 "--arg buf:o:f32:16 --arg s32:4 --print o",
	                 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "o = 77 0 0 1 256 0 0 1 0 0 0 1 768 0 0 1\n");
	free(out);
	/* the same on the timing model reports texture-cache counters */
	rc = cli_run("exec " TEST_DATA_DIR "/ptx/func/texture.ptx _Z5tex1dyPKfP6float4i --grid 1 --block 4 "
	             "--tex t:f32:4:linear=0,256,512,768 --arg tex:t --arg buf:c:f32:4=0.8,1.5,-1,9 "
	             "--arg buf:o:f32:16 --arg s32:4 --counters",
	             1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "tex_accesses");
	free(out);
	/* a surface written by the kernel, printed after the run: out = 2 * in + 1 */
	rc = cli_run("exec " TEST_DATA_DIR "/ptx/func/texture.ptx _Z6surf2dyyiiii --grid 1,2 --block 3 "
	             "--tex a:f32:3x2:surface=iota --tex b:f32:3x2:surface --arg tex:a --arg tex:b "
	             "--arg s32:3 --arg s32:2 --arg s32:0 --arg s32:2 --print b --functional",
	             1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "b = 1 3 5 7 9 11\n");
	free(out);
	/* a .texref variable bound with @VAR, normalized u8 texels (readnorm) */
	rc = cli_run("exec " CLI_PTX "texref.ptx k --grid 1 --block 4 --tex img:u8:4x2:readnorm,@img=0,51,102,255,0,0,0,255 "
	             "--arg buf:o:f32:4 --print o",
	             1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "o = 0 0.200000003 0 1\n"); /* 51 / 255 as a float */
	free(out);
	/* mistakes are usage errors that name the spec */
	static const struct {
		const char *args, *msg;
	} bad[] = {
	    {"--tex t:f64:4 --arg tex:t", "element type must be"},
	    {"--tex t:f32:4:shiny --arg tex:t", "unknown option 'shiny'"},
	    {"--tex t:f32:0 --arg tex:t", "extent '0'"},
	    {"--tex t:f32:4x2:memory --arg tex:t", "'memory' (linear memory) is one-dimensional"},
	    {"--arg tex:nope", "no texture or surface named 'nope'"},
	    {"--tex t:f32:4=1,2,3,4,5 --arg tex:t", "more than 4 values"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char args[512];
		snprintf(args, sizeof args, "exec " CLI_PTX "texref.ptx k --grid 1 --block 1 %s", bad[i].args);
		rc = cli_run(args, 1, &out);
		CHECK_MSG(rc == 2, "%s: exit %d: %s", bad[i].args, rc, out);
		CHECK_STR_CONTAINS(out, bad[i].msg);
		free(out);
	}
	/* linear filtering of an integer texture is refused by the runtime (exit 1) */
	rc = cli_run("exec " CLI_PTX "texref.ptx k --grid 1 --block 1 --tex img:s32:4:linear,@img --arg buf:o:f32:4", 1, &out);
	CHECK_MSG(rc == 1, "exit %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "linear filtering needs a float result");
	free(out);
}

/* exec --cooperative: grid.sync() works; without it the kernel traps and the
 * error says to launch cooperatively (issue 16) */
TEST(cli_exec_cooperative)
{
	if (cli_missing(t))
		return;
	const char *args = "exec " TEST_DATA_DIR "/ptx/func/coop.ptx grid_stencil --grid 2 --block 8 "
			   "--arg buf:in:s32:10=iota --arg buf:tmp:s32:10 --arg buf:out:s32:10 --arg s32:10 --print out";
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s --cooperative", args);
	cli_expect(t, cmd, 0, "out = 66 36 36 36 36 36 66 66 96 66");
	cli_expect(t, args, 1, "launched cooperatively");
	snprintf(cmd, sizeof cmd, "%s --cooperative --set num_sms=1 --set max_ctas_per_sm=1", args);
	cli_expect(t, cmd, 1, "cannot be resident at once");
}

/* ---- long runs: progress, the CTA limit, the watchdog ---- */

struct progress_seen {
	unsigned calls;
	ws_progress last;
	int ordered; /* cycles, instructions and CTAs never went back */
};

static void progress_count(void *user, const ws_progress *p)
{
	struct progress_seen *s = user;
	if (s->calls && (p->cycle < s->last.cycle || p->warp_insts < s->last.warp_insts ||
	                 p->ctas_done < s->last.ctas_done))
		s->ordered = 0;
	s->calls++;
	s->last = *p;
}

/* The statistics JSON of saxpy over 600 CTAs of 256 threads in mode m, with
 * or without a progress hook (NULL: none). */
static char *progress_run(struct test_ctx *t, const char *mode, struct progress_seen *seen)
{
	ws_config *cfg = wsConfigCreate();
	char err[200], *text = NULL;
	size_t len = 0;
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	ws_function *fn = NULL;
	CHECK(cfg && wsConfigSet(cfg, "mode", mode, err, sizeof err) == WS_SUCCESS);
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	if (!sim)
		return NULL;
	if (seen)
		wsSimSetProgress(sim, progress_count, seen);
	CHECK(wsModuleLoad(sim, &mod, CLI_PTX "saxpy.ptx") == WS_SUCCESS);
	CHECK(mod && wsModuleGetFunction(&fn, mod, "saxpy") == WS_SUCCESS);
	unsigned n = 600 * 256;
	float a = 2;
	ws_deviceptr x = 0, y = 0;
	CHECK(wsMemAlloc(sim, &x, n * 4) == WS_SUCCESS && wsMemAlloc(sim, &y, n * 4) == WS_SUCCESS);
	void *args[] = {&n, &a, &x, &y};
	if (fn)
		CHECK(wsLaunchKernel(fn, 600, 1, 1, 256, 1, 1, 0, args) == WS_SUCCESS);
	FILE *f = open_memstream(&text, &len);
	if (f) {
		wsStatsWriteJSON(sim, f);
		fclose(f);
	}
	wsSimDestroy(sim);
	return text;
}

/* wsSimSetProgress: called during a launch of either model with where it is
 * (launch 1, CTAs of 600, cycles and instructions going forward), and every
 * statistic is the same with and without it. */
TEST(cli_progress_hook)
{
	static const char *const modes[] = {"timing", "functional"};
	for (int m = 0; m < 2; m++) {
		struct progress_seen s = {0, {0, 0, 0, 0, 0}, 1};
		char *with = progress_run(t, modes[m], &s), *without = progress_run(t, modes[m], NULL);
		CHECK_MSG(s.calls >= 2, "%s: %u progress calls", modes[m], s.calls);
		CHECK(s.ordered);
		CHECK_EQ(s.last.launch, 1);
		CHECK_EQ(s.last.ctas_total, 600);
		CHECK(s.last.ctas_done <= 600 && s.last.warp_insts > 0);
		CHECK_EQ(s.last.cycle > 0, m == 0); /* functional: no cycles */
		CHECK(with && without && strcmp(with, without) == 0);
		free(with);
		free(without);
	}
}

/* exec refuses a grid above --max-ctas (default 1048576) before anything
 * runs; past 3 s a run prints progress lines on stderr, --quiet none; the
 * deadlock watchdog says that it fired, its parameter, and the stuck warps. */
TEST(cli_long_runs)
{
	if (cli_missing(t))
		return;
	const char *ex = "exec " CLI_PTX "saxpy.ptx saxpy --block 32 --arg u32:0 --arg f32:2 --arg buf:x:f32:8 "
	                 "--arg buf:y:f32:8";
	char args[1024], want[1024];
	snprintf(args, sizeof args, "%s --grid 4294967295", ex);
	cli_expect_first(t, args, 2,
	                 "warpsim exec: error: --grid 4294967295 is 4294967295 CTAs, more than the 1048576 that exec runs "
	                 "without --max-ctas (a simulation of hours or days); give --max-ctas 4294967295 (or 0) to run "
	                 "it anyway");
	snprintf(args, sizeof args, "%s --grid 1024,1024,2 --max-ctas 2000000", ex);
	cli_expect_first(t, args, 2,
	                 "warpsim exec: error: --grid 1024,1024,2 is 2097152 CTAs, more than the 2000000 that exec runs "
	                 "without --max-ctas (a simulation of hours or days); give --max-ctas 2097152 (or 0) to run it "
	                 "anyway");
	snprintf(args, sizeof args, "%s --grid 1 --max-ctas x", ex);
	cli_expect_first(t, args, 2, "warpsim exec: error: --max-ctas 'x' is not an integer");
	snprintf(args, sizeof args, "%s --grid 1000 --max-ctas 1000 --quiet", ex); /* the limit itself is allowed */
	cli_expect_first(t, args, 0, NULL);
	/* progress: two runs of 4.5 s side by side, one with --quiet */
	char dir[64], cmd[2048];
	if (cli_tmpdir(t, dir))
		return;
	snprintf(cmd, sizeof cmd,
	         "{ timeout 4.5 %s %s --grid 100000000 --max-ctas 0 --functional 2>%s/p.err >/dev/null & "
	         "timeout 4.5 %s %s --grid 100000000 --max-ctas 0 --functional --quiet 2>%s/q.err >/dev/null; wait; }",
	         cli_bin(), ex, dir, cli_bin(), ex, dir);
	(void)!system(cmd);
	snprintf(want, sizeof want, "%s/p.err", dir);
	char *p = cli_slurp(want, NULL);
	snprintf(want, sizeof want, "%s/q.err", dir);
	char *q = cli_slurp(want, NULL);
	CHECK_MSG(p && strstr(p, "[exec saxpy] launch 1: ") && strstr(p, "/100000000 CTAs done, ") &&
	              strstr(p, " warp-insts/s, elapsed ") && strstr(p, ", ETA "),
	          "no progress line: %s", p ? p : "(none)");
	CHECK_MSG(!q || !strstr(q, "CTAs done"), "progress with --quiet: %s", q);
	free(p);
	free(q);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	/* the watchdog */
	snprintf(args, sizeof args,
	         "exec %s/ptx/func/faults.ptx named_barrier_deadlock --grid 1 --block 64 --arg buf:p:u32:256 "
	         "--set watchdog_cycles=1000",
	         TEST_DATA_DIR);
	char *out;
	CHECK_EQ(cli_run(args, 1, &out), 1);
	CHECK_STR_CONTAINS(out, "kernel named_barrier_deadlock deadlocked: the watchdog fired at cycle ");
	CHECK_STR_CONTAINS(out, ": for watchdog_cycles=1000 cycles no warp issued an instruction, wrote back a result "
	                        "or received a memory reply (raise watchdog_cycles if the kernel only waits that long); "
	                        "stuck warps:");
	CHECK_STR_CONTAINS(out, "warp 0: waiting at barrier 1");
	free(out);
}
