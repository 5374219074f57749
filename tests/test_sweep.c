/*
 * test_sweep.c -- tests of parameter sweeps: `warpsim sweep`, `sweep-task`,
 * `collect` and `report` (src/cli/cmd_sweep.c, sweep_spec.c, sweep_files.c, cmd_collect.c,
 * cmd_report.c, json.c).  They run the built binary ($WARPSIM_BIN, by
 * default build/warpsim) from the repository root on small specs in
 * temporary directories: spec expansion and stable ids, malformed specs
 * (each error names FILE:LINE), a local sweep of experiments/smoke.spec,
 * resuming, a failing job, one array task, the CSV and the HTML report.
 * The Slurm path is tested for real by tests/slurm/test_slurm.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_check.h"
#include "test.h"

static int sw_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static char *sw_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	while (b) {
		if (n + 1 >= cap) {
			char *nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		size_t got = fread(b + n, 1, cap - n - 1, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	if (b)
		b[n] = '\0';
	return b;
}

static int sw_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static int sw_count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void sw_rmrf(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
}

static uint64_t sw_fnv(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Wrapper policies (bows:INNER) and their counters, CAWA and the energy metric in a spec. */
TEST(sweep_spec_bows)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char spec[300], args[800];
	snprintf(spec, sizeof spec, "%s/bows.spec", dir);
	sw_write(spec, "bench vecadd\nsize tiny\nsched bows:gto-rotate bows:cawa cawa ddos:lrr\n"
		       "set bows_delay adaptive fixed\nstats cycles bows_* ddos_* lock_* energy_j\n");
	snprintf(args, sizeof args, "sweep %s --dry-run --out %s/out", spec, dir);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "%s", out);
	CHECK_EQ(sw_count(out, " pending "), 8);
	CHECK_STR_CONTAINS(out, "sched=bows:cawa");
	free(out);
}

TEST(sweep_spec_expand)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char spec[300], args[800];
	snprintf(spec, sizeof spec, "%s/grid.spec", dir);
	sw_write(spec, "# a grid: 2 benchmarks x 3 policies x 2 I-buffer depths, minus 2 excluded\n"
	               "name grid\n"
	               "bench sp mm   # trailing comment\n"
	               "size tiny\n"
	               "sched lrr gto\n"
	               "fetch rr cff\n"
	               "exclude sched=lrr fetch=cff\n"
	               "set ibuf_depth 2 4\n"
	               "fixed num_schedulers=2\n"
	               "baseline sched=lrr fetch=rr ibuf_depth=2\n"
	               "stats cycles stall_*\n");
	snprintf(args, sizeof args, "sweep %s --dry-run --out %s/out", spec, dir);
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 0);
	/* 2 x (2x2 - 1) x 2 = 12 jobs */
	CHECK_EQ(sw_count(out, " pending "), 12);
	CHECK_STR_CONTAINS(out, "sweep grid: 12 jobs");
	CHECK(!strstr(out, "sched=lrr;fetch=cff"));
	/* canonical description: fixed key order, parameters sorted; id = FNV-1a 64 of it */
	const char *desc = "bench=mm;size=tiny;sched=gto;fetch=cff;ibuf_depth=4;num_schedulers=2";
	char line[200];
	snprintf(line, sizeof line, "%016llx pending %s\n", (unsigned long long)sw_fnv(desc), desc);
	CHECK_STR_CONTAINS(out, line);
	/* stable: the same spec gives the same ids, whatever the line order */
	sw_write(spec, "set ibuf_depth 2 4\nfixed num_schedulers=2\nfetch rr cff\nsched lrr gto\n"
	               "exclude fetch=cff sched=lrr\nsize tiny\nbench sp mm\nname grid\n");
	char *out2;
	rc = cli_run(args, 1, &out2);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out2, line);
	CHECK_EQ(sw_count(out2, " pending "), 12);
	/* `policy` lines give the same descriptions as sched x fetch */
	sw_write(spec, "bench mm\nsize tiny\npolicy gto+cff\nset ibuf_depth 4\nfixed num_schedulers=2\n");
	char *out3;
	rc = cli_run(args, 1, &out3);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out3, line);
	free(out);
	free(out2);
	free(out3);
	sw_rmrf(dir);
}

TEST(sweep_spec_errors)
{
	if (cli_missing(t))
		return;
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} bad[] = {
	    {"bench sp\nfrobnicate 3\n", 2, "unknown keyword 'frobnicate'"},
	    {"bench sp nosuchbench\n", 1, "unknown benchmark 'nosuchbench'"},
	    {"bench sp\n\nsize huge\n", 3, "unknown size 'huge'"},
	    {"bench sp\nsched lrr bogus\n", 2, "unknown scheduling policy 'bogus'"},
	    {"bench sp\nsched bows\n", 2, "wrappers, as WRAPPER:INNER: bows ddos"},
	    {"bench sp\nsched nope:gto\n", 2, "unknown scheduling policy 'nope:gto'"},
	    {"bench sp\nfetch xyz\n", 2, "unknown fetch policy 'xyz'"},
	    {"# c\nbench sp\nset no_such_param 1 2\n", 3, "unknown parameter 'no_such_param'"},
	    {"bench sp\nset ibuf_depth two\n", 2, "'two' is not an integer"},
	    {"bench sp\nset ibuf_depth\n", 2, "needs at least one value"},
	    {"bench sp\nfixed ibuf_depth\n", 2, "expected KEY=VALUE"},
	    {"bench sp\nsched lrr\nexclude nosuch=1\n", 3, "not a dimension of the sweep"},
	    {"bench sp\nsched lrr gto\nbaseline sched=tls\n", 3, "baseline matches no job"},
	    {"bench sp\nsched lrr gto\nexclude sched=tls\n", 3, "exclude matches no job"},
	    {"bench sp\nstats nosuchstat*\n", 2, "matches no counter or derived metric"},
	    {"bench sp\nconfig /nonexistent/x.cfg\n", 2, "config file '/nonexistent/x.cfg' not found"},
	    {"bench sp\nname a b\n", 2, "'name' takes one word"},
	    {"bench sp\ntimeout -3\n", 2, "timeout"},
	    {"bench sp sp\n", 1, "listed twice"},
	    {"bench sp\nsched lrr\npolicy gto\n", 3, "cannot be combined"},
	    {"bench sp\nset ibuf_depth 2\nfixed ibuf_depth=4\n", 3, "already given at line 2"},
	    {"bench sp\nset sched lrr\n", 2, "not as parameter 'sched'"},
	    {"bench sp\nname x\nname y\n", 3, "given twice (first at line 2)"},
	    {"bench sp\nmetric speed\n", 2, "metric"},
	    {"bench sp\npolicy gto+nofetch\n", 2, "unknown fetch policy 'nofetch'"},
	    {"size tiny\n", 0, "no 'bench' line"},
	};
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char spec[300], args[800], want[400];
		snprintf(spec, sizeof spec, "%s/bad%zu.spec", dir, i);
		sw_write(spec, bad[i].text);
		snprintf(args, sizeof args, "sweep %s --out %s/out", spec, dir);
		char *out;
		int rc = cli_run(args, 1, &out);
		CHECK_MSG(rc == 2, "spec %zu: exit status %d, expected 2 (%s)", i, rc, out);
		if (bad[i].line)
			snprintf(want, sizeof want, "warpsim sweep: error: %s:%d: ", spec, bad[i].line);
		else
			snprintf(want, sizeof want, "warpsim sweep: error: %s: ", spec);
		CHECK_STR_CONTAINS(out, want);
		CHECK_STR_CONTAINS(out, bad[i].msg);
		free(out);
	}
	/* nothing was run or written */
	char outdir[400];
	snprintf(outdir, sizeof outdir, "%s/out", dir);
	CHECK(!sw_exists(outdir));
	/* a missing spec is a failure to read (exit 1) */
	char args[600], *out;
	snprintf(args, sizeof args, "sweep %s/missing.spec", dir);
	CHECK_EQ(cli_run(args, 1, &out), 1);
	CHECK_STR_CONTAINS(out, "cannot read");
	free(out);
	sw_rmrf(dir);
}

/* A result made with another configuration (its config file edited since) is
 * stale, as one of another binary is: the sweep runs it again; with the file as
 * it was, the results made with the edit are the stale ones. */
TEST(sweep_config_file_edit_is_stale)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-cfg-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[600], spec[700], text[900], args[1600], *out;
	snprintf(path, sizeof path, "%s/t.cfg", dir);
	sw_write(path, "num_sms = 15\n");
	snprintf(spec, sizeof spec, "%s/t.spec", dir);
	snprintf(text, sizeof text, "name cfgedit\nbench vecadd\nsize tiny\nconfig %s\npolicy lrr gto\n", path);
	sw_write(spec, text);
	snprintf(args, sizeof args, "sweep %s --out %s/r", spec, dir);
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "sweep: %s", out);
	free(out);
	sw_write(path, "num_sms = 14\n");
	rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "rerun: %s", out);
	CHECK_STR_CONTAINS(out, "2 results came from another warpsim binary or configuration");
	CHECK_STR_CONTAINS(out, "2 done (2 now, 0 before)");
	free(out);
	snprintf(args, sizeof args, "sweep %s --out %s/r --dry-run", spec, dir);
	rc = cli_run(args, 1, &out);
	CHECK_STR_CONTAINS(out, "2 jobs (2 done, 0 failed, 0 to run)");
	free(out);
	sw_write(path, "num_sms = 15\n");
	rc = cli_run(args, 1, &out);
	CHECK_STR_CONTAINS(out, "2 jobs (0 done, 0 failed, 2 to run)");
	CHECK(strstr(out, " stale ") != NULL);
	free(out);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

TEST(sweep_local_resume_collect_report)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char args[800], path[600], *out;
	snprintf(args, sizeof args, "sweep experiments/smoke.spec --out %s/r --jobs 2", dir);
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "smoke sweep: exit status %d: %s", rc, out);
	CHECK_STR_CONTAINS(out, "sweep smoke: 8 jobs: 8 done (8 now, 0 before), 0 failed");
	CHECK_STR_CONTAINS(out, "8/8 done, 0 failed");
	/* the CPU time the eight children used, summed (wait4) */
	const char *cpu = strstr(out, "CPU time of the 8 runs executed: ");
	double user = -1, sys = -1;
	CHECK_MSG(cpu && (cpu = strchr(cpu, '(')) && sscanf(cpu, "(%lf s user + %lf s system)", &user, &sys) == 2,
	          "no CPU-time line: %s", out);
	CHECK_MSG(user + sys > 0, "eight runs took no CPU time: %s", out);
	free(out);
	/* every job has a result whose "job" object names it */
	snprintf(path, sizeof path, "%s/r/jobs.txt", dir);
	char *jobs = sw_read(path);
	CHECK(jobs != NULL);
	int njobs = 0;
	for (char *l = jobs; l && *l; njobs++) {
		char id[17];
		memcpy(id, l, 16);
		id[16] = '\0';
		snprintf(path, sizeof path, "%s/r/jobs/%s.json", dir, id);
		char *js = sw_read(path);
		CHECK_MSG(js != NULL, "missing %s", path);
		if (js) {
			char want[64];
			snprintf(want, sizeof want, "\"job\": {\"id\": \"%s\"", id);
			CHECK_STR_CONTAINS(js, want);
			CHECK_STR_CONTAINS(js, "\"stats\": {");
		}
		free(js);
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	CHECK_EQ(njobs, 8);
	free(jobs);
	/* resume: nothing to run */
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "8 done (0 now, 8 before)");
	CHECK_STR_CONTAINS(out, "8 done before, 0 to run");
	free(out);
	/* a result made by another warpsim binary is stale: it runs again, unless --keep-stale */
	{
		char first[17];
		snprintf(path, sizeof path, "%s/r/jobs.txt", dir);
		char *jl = sw_read(path);
		CHECK(jl != NULL);
		memcpy(first, jl ? jl : "0000000000000000", 16);
		first[16] = '\0';
		free(jl);
		for (int pass = 0; pass < 2; pass++) {
			snprintf(path, sizeof path, "%s/r/jobs/%s.json", dir, first);
			char *js = sw_read(path);
			char *b = js ? strstr(js, "\"binary\": \"") : NULL;
			CHECK(b != NULL);
			if (!b) {
				free(js);
				break;
			}
			memcpy(b + strlen("\"binary\": \""), "0000000000000000", 16);
			sw_write(path, js);
			free(js);
			char a2[900];
			snprintf(a2, sizeof a2, "%s%s", args, pass ? " --keep-stale" : "");
			rc = cli_run(a2, 1, &out);
			CHECK_MSG(rc == 0, "rerun: %s", out);
			if (pass == 0) {
				CHECK_STR_CONTAINS(out, "1 result came from another warpsim binary");
				CHECK_STR_CONTAINS(out, "7 done before, 1 to run");
				snprintf(path, sizeof path, "%s/r/jobs/%s.json.stale", dir, first);
				CHECK(sw_exists(path));
			} else {
				CHECK(strstr(out, "another warpsim binary") == NULL);
				CHECK_STR_CONTAINS(out, "8 done before, 0 to run");
			}
			free(out);
		}
		/* put the real binary back: the rest of the test compares results */
		snprintf(path, sizeof path, "%s/r/jobs/%s.json", dir, first);
		unlink(path);
		rc = cli_run(args, 1, &out);
		CHECK_STR_CONTAINS(out, "7 done before, 1 to run");
		free(out);
	}

	/* collect: header, 8 rows in job order, values as the runs wrote them */
	snprintf(args, sizeof args, "collect %s/r", dir);
	rc = cli_run(args, 0, &out);
	CHECK_EQ(rc, 0);
	CHECK(strncmp(out,
	              "job_id,status,bench,size,config,sched,fetch,cycles,warp_insts,ipc,stall_control,stall_data,"
	              "stall_structural,stall_barrier,stall_exit,stall_fetch,stall_idle,barrier_stall_fraction,"
	              "rtru_mean\n",
	              strlen("job_id,status,")) == 0);
	CHECK_STR_CONTAINS(out, ",stall_idle,barrier_stall_fraction,rtru_mean\n");
	CHECK_EQ(sw_count(out, "\n"), 9);
	CHECK_EQ(sw_count(out, ",ok,"), 8);
	CHECK_STR_CONTAINS(out, ",ok,sp,tiny,configs/gtx480.cfg,lrr,rr,");
	CHECK_STR_CONTAINS(out, ",ok,vecadd,tiny,configs/gtx480.cfg,gto,rr,");
	/* every row has as many fields as the header */
	int fields_hdr = 0;
	for (const char *c = out; *c && *c != '\n'; c++)
		fields_hdr += *c == ',';
	for (const char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		int f = 0;
		for (const char *c = l + 1; *c && *c != '\n'; c++)
			f += *c == ',';
		CHECK_EQ(f, fields_hdr);
	}
	char *csv1 = out;
	/* --output and --stats globs */
	snprintf(args, sizeof args, "collect %s/r --stats 'cycles,l1*_hit_rate' --output %s/x.csv", dir, dir);
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 0);
	free(out);
	snprintf(path, sizeof path, "%s/x.csv", dir);
	char *x = sw_read(path);
	const char *hdr = "job_id,status,bench,size,config,sched,fetch,cycles,l1d_hit_rate\n";
	CHECK(x && strncmp(x, hdr, strlen(hdr)) == 0);
	free(x);
	snprintf(args, sizeof args, "collect %s/r --stats nosuch", dir);
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 2);
	CHECK_STR_CONTAINS(out, "statistic 'nosuch' matches no counter");
	free(out);

	/* sweep-task reruns one job (as a Slurm array task would) and gets the same numbers */
	char id[17];
	memcpy(id, strchr(csv1, '\n') + 1, 16);
	id[16] = '\0';
	snprintf(path, sizeof path, "%s/r/jobs/%s.json", dir, id);
	CHECK_EQ(unlink(path), 0);
	snprintf(path, sizeof path, "%s/list", dir);
	char listtext[64];
	snprintf(listtext, sizeof listtext, "0000000000000000\n%s\n", id);
	sw_write(path, listtext);
	snprintf(args, sizeof args, "sweep-task %s/r --list %s/list --task 1", dir, dir);
	rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "sweep-task: exit status %d: %s", rc, out);
	free(out);
	snprintf(args, sizeof args, "collect %s/r", dir);
	rc = cli_run(args, 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_MSG(strcmp(out, csv1) == 0, "CSV changed after rerunning job %s in sweep-task", id);
	free(out);
	snprintf(args, sizeof args, "sweep-task %s/r not-an-id", dir);
	CHECK_EQ(cli_run(args, 1, &out), 2);
	free(out);

	/* report: self-contained HTML with SVG charts and the geometric mean */
	snprintf(args, sizeof args, "report %s/r", dir);
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 0);
	free(out);
	snprintf(path, sizeof path, "%s/r/report.html", dir);
	char *html = sw_read(path);
	CHECK(html != NULL);
	if (html) {
		CHECK(strncmp(html, "<!DOCTYPE html>", 15) == 0);
		CHECK_STR_CONTAINS(html, "<svg");
		CHECK_STR_CONTAINS(html, "geometric mean");
		CHECK_STR_CONTAINS(html, ">gmean</text>");
		CHECK_STR_CONTAINS(html, "Stall breakdown");
		CHECK_STR_CONTAINS(html, "baseline: <b>sched=lrr</b>");
		CHECK(!strstr(html, "<script"));
		CHECK(!strstr(html, "src=\"http"));
		CHECK(!strstr(html, "href=\"http"));
		CHECK_STR_CONTAINS(html, "</html>\n");
	}
	free(html);
	snprintf(args, sizeof args, "report %s/r --baseline sched=tls --output -", dir);
	CHECK_EQ(cli_run(args, 1, &out), 2);
	CHECK_STR_CONTAINS(out, "matches no configuration");
	free(out);
	free(csv1);
	sw_rmrf(dir);
}

TEST(sweep_failed_job)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char spec[300], args[800], path[600], *out;
	snprintf(spec, sizeof spec, "%s/fail.spec", dir);
	/* max_cycles=10 stops the simulation: the run fails, the other job succeeds */
	sw_write(spec, "name fail\nbench sp\nsize tiny\nset max_cycles 0 10\nset lat_int 4,13,4,5,145\n");
	snprintf(args, sizeof args, "sweep %s --out %s/r", spec, dir);
	int rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 1);
	CHECK_STR_CONTAINS(out, "2 jobs: 1 done (1 now, 0 before), 1 failed");
	CHECK_STR_CONTAINS(out, "warpsim sweep: 1 job failed");
	const char *desc = "bench=sp;size=tiny;lat_int=4,13,4,5,145;max_cycles=10";
	char id[17];
	snprintf(id, sizeof id, "%016llx", (unsigned long long)sw_fnv(desc));
	char want[300];
	snprintf(want, sizeof want, "FAILED %s %s: exit 1", id, desc);
	CHECK_STR_CONTAINS(out, want);
	snprintf(want, sizeof want, "-- log: %s/r/jobs/%s.log", dir, id);
	CHECK_STR_CONTAINS(out, want);
	free(out);
	snprintf(path, sizeof path, "%s/r/jobs/%s.failed", dir, id);
	char *f = sw_read(path);
	CHECK(f != NULL);
	if (f) {
		CHECK_STR_CONTAINS(f, "status=exit 1\n");
		CHECK_STR_CONTAINS(f, "max_cycles");
	}
	free(f);
	snprintf(path, sizeof path, "%s/r/jobs/%s.json", dir, id);
	CHECK(!sw_exists(path));
	/* the CSV has a failed row with empty statistics; a comma in a value is quoted */
	snprintf(args, sizeof args, "collect %s/r --stats cycles", dir);
	rc = cli_run(args, 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "job_id,status,bench,size,config,sched,fetch,max_cycles,lat_int,cycles\n");
	snprintf(want, sizeof want, "%s,failed,sp,tiny,,lrr,rr,10,\"4,13,4,5,145\",\n", id);
	CHECK_STR_CONTAINS(out, want);
	CHECK_EQ(sw_count(out, ",ok,sp,tiny,,lrr,rr,0,\"4,13,4,5,145\","), 1);
	free(out);
	/* --skip-failed leaves it alone; a plain rerun retries it */
	snprintf(args, sizeof args, "sweep %s --out %s/r --skip-failed", spec, dir);
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 1);
	CHECK_STR_CONTAINS(out, "0 to run");
	free(out);
	snprintf(args, sizeof args, "sweep %s --out %s/r", spec, dir);
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 1);
	CHECK_STR_CONTAINS(out, "1 to run");
	free(out);
	/* a damaged result file is an error naming it, not a crash */
	snprintf(path, sizeof path, "%s/r/jobs/%016llx.json", dir,
	         (unsigned long long)sw_fnv("bench=sp;size=tiny;lat_int=4,13,4,5,145;max_cycles=0"));
	sw_write(path, "{\"job\": {\"id\": \"x\", \"stats\": [1, 2,");
	snprintf(args, sizeof args, "collect %s/r", dir);
	rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 1);
	CHECK_STR_CONTAINS(out, "malformed JSON");
	CHECK_STR_CONTAINS(out, path);
	free(out);
	sw_rmrf(dir);
}

/* Jobs x host threads never exceed the cores (here $SLURM_CPUS_PER_TASK=2):
 * three 2-thread jobs under --jobs 3 run one at a time, with a note saying
 * so; --oversubscribe runs them at once. */
TEST(sweep_threads_capped_to_cores)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char spec[300], args[800], *out;
	snprintf(spec, sizeof spec, "%s/thr.spec", dir);
	sw_write(spec, "name thr\nbench sp mm vecadd\nsize tiny\nset threads 2\n");
	setenv("SLURM_CPUS_PER_TASK", "2", 1); /* the sweep's cores */
	snprintf(args, sizeof args, "sweep %s --out %s/r --jobs 3", spec, dir);
	int rc = cli_run(args, 1, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "3 jobs: 3 done (3 now, 0 before), 0 failed");
	CHECK_STR_CONTAINS(out, " waits: its 2 host threads and the 2 of the 1 running job add up to more than the 2 "
	                        "cores (--oversubscribe runs --jobs 3 at once; said once)");
	free(out);
	snprintf(args, sizeof args, "sweep %s --out %s/r2 --jobs 3 --oversubscribe", spec, dir);
	rc = cli_run(args, 1, &out);
	unsetenv("SLURM_CPUS_PER_TASK");
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, "3 jobs: 3 done (3 now, 0 before), 0 failed");
	CHECK_MSG(!strstr(out, " waits: "), "--oversubscribe still held jobs back: %s", out);
	free(out);
	sw_rmrf(dir);
}

/* Counters a scheduling policy exports (tls_demotions ...) can be named in a
 * spec's stats line and collected; rows of other policies leave them empty. */
TEST(sweep_policy_counters)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char spec[600], args[800], *out;
	snprintf(spec, sizeof spec, "%s/pc.spec", dir);
	sw_write(spec, "name pc\nbench vecadd\nsize tiny\nsched lrr tls\nstats cycles tls_* stall_held\n");
	snprintf(args, sizeof args, "sweep %s --out %s/r --jobs 1", spec, dir);
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "sweep: exit status %d: %s", rc, out);
	free(out);
	snprintf(args, sizeof args, "collect %s/r", dir);
	rc = cli_run(args, 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_STR_CONTAINS(out, ",cycles,tls_demotions,tls_promotions,stall_held");
	/* the tls row has numbers in both columns, the lrr row none */
	int tls_ok = 0, lrr_ok = 0;
	for (char *l = out; l && *l;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		char *tail = strstr(l, ",tls,") ? l : NULL;
		if (tail) {
			unsigned long long c, d, p, h;
			char *x = strrchr(l, ',');
			for (int k = 0; k < 3 && x > l; k++)
				for (x--; x > l && *x != ','; x--)
					;
			tls_ok = sscanf(x, ",%llu,%llu,%llu,%llu", &c, &d, &p, &h) == 4 && d > 0 && p > 0;
		}
		if (strstr(l, ",lrr,"))
			lrr_ok = strstr(l, ",,,") != NULL || strstr(l, ",,0") != NULL;
		l = nl ? nl + 1 : NULL;
	}
	CHECK_MSG(tls_ok, "tls row without its counters");
	CHECK_MSG(lrr_ok, "lrr row with tls counters");
	free(out);
	sw_rmrf(dir);
}

/* Replace the first `from` in the file with `to`; 0 if it was there. */
static int sw_subst(const char *path, const char *from, const char *to)
{
	char *s = sw_read(path);
	char *at = s ? strstr(s, from) : NULL;
	if (!at) {
		free(s);
		return -1;
	}
	size_t n = strlen(s) + strlen(to) + 1;
	char *o = malloc(n);
	if (!o) {
		free(s);
		return -1;
	}
	snprintf(o, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	int rc = sw_write(path, o);
	free(o);
	free(s);
	return rc;
}

/* collect does not trust result files: a tampered one (negative or
 * non-numeric statistic, a name with a newline, a missing statistic) and a
 * malformed one (truncated, binary junk) are each reported with the path and
 * the reason and skipped -- the row says "invalid" and has no statistics --,
 * the rest is collected and the exit status is 1 with a count; the next
 * sweep runs those jobs again (the same check), and then collect is clean. */
TEST(sweep_collect_tampered)
{
	if (cli_missing(t))
		return;
	char dir[] = "/tmp/warpsim-sweep-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char spec[600], args[800], path[700], *out;
	snprintf(spec, sizeof spec, "%s/tp.spec", dir);
	sw_write(spec, "name tp\nbench vecadd\nsize tiny\nsched lrr gto tls kaws gto-rotate mwf-lrr mwf-gto\nstats cycles\n");
	snprintf(args, sizeof args, "sweep %s --out %s/r --jobs 2 --quiet", spec, dir);
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "sweep: exit status %d: %s", rc, out);
	free(out);
	snprintf(path, sizeof path, "%s/r/jobs.txt", dir);
	char *jobs = sw_read(path);
	char ids[7][17];
	int n = 0;
	for (char *l = jobs; l && *l && n < 7; n++) {
		memcpy(ids[n], l, 16);
		ids[n][16] = '\0';
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	free(jobs);
	CHECK_EQ(n, 7);
	if (n != 7) {
		sw_rmrf(dir);
		return;
	}
	static const char *const why[] = {"statistic \"cycles\" is negative, not a count",
	                                  "job field \"bench\" has a control character (a newline?)",
	                                  "statistic \"cycles\" is not a number, not a count",
	                                  "no \"stats\" object with \"cycles\"",
	                                  "malformed JSON",
	                                  "malformed JSON"};
	char p[6][700];
	for (int i = 0; i < 6; i++)
		snprintf(p[i], sizeof p[i], "%s/r/jobs/%s.json", dir, ids[i]);
	CHECK_EQ(sw_subst(p[0], "\"cycles\": ", "\"cycles\": -"), 0);
	CHECK_EQ(sw_subst(p[1], "\"bench\": \"vecadd\"", "\"bench\": \"vec\\nadd\""), 0);
	CHECK_EQ(sw_subst(p[2], "\"cycles\": ", "\"cycles\": \"1\", \"x\": "), 0);
	CHECK_EQ(sw_subst(p[3], "\"cycles\": ", "\"cyclez\": "), 0);
	char *whole = sw_read(p[4]);
	if (whole)
		whole[strlen(whole) / 2] = '\0'; /* truncated mid-file */
	sw_write(p[4], whole ? whole : "");
	free(whole);
	sw_write(p[5], "\x7f" "ELF\x01\x02\x01");
	snprintf(args, sizeof args, "collect %s/r", dir);
	rc = cli_run(args, 2, &out); /* stderr */
	CHECK_EQ(rc, 1);
	for (int i = 0; i < 6; i++) {
		char want[4300];
		snprintf(want, sizeof want, "warpsim: warning: %s: ", p[i]);
		CHECK_STR_CONTAINS(out, want);
		CHECK_STR_CONTAINS(out, why[i]);
	}
	CHECK_STR_CONTAINS(out, "warpsim collect: error: 6 of 7 result files are not valid");
	free(out);
	rc = cli_run(args, 0, &out); /* the CSV: one good row, six invalid ones without statistics */
	CHECK_EQ(rc, 1);
	CHECK_EQ(sw_count(out, ",ok,vecadd,tiny,"), 1);
	CHECK_EQ(sw_count(out, ",invalid,vecadd,tiny,"), 6);
	CHECK(!strstr(out, ",-")); /* no negative number, no tampered name */
	CHECK(!strstr(out, "vec\nadd"));
	free(out);
	/* sweep's check is the same one: it runs the six again */
	snprintf(args, sizeof args, "sweep %s --out %s/r --jobs 2", spec, dir);
	rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "sweep: exit status %d: %s", rc, out);
	CHECK_EQ(sw_count(out, ": not a valid result: running job "), 6);
	CHECK_STR_CONTAINS(out, "7 jobs: 7 done (6 now, 1 before)");
	CHECK_STR_CONTAINS(out, "CPU time of the 6 runs executed: "); /* those run now only */
	free(out);
	snprintf(args, sizeof args, "collect %s/r", dir);
	rc = cli_run(args, 0, &out);
	CHECK_EQ(rc, 0);
	CHECK_EQ(sw_count(out, ",ok,vecadd,tiny,"), 7);
	free(out);
	sw_rmrf(dir);
}
