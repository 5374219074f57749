/*
 * test_bows_experiments.c -- the BOWS paper's experiment specs
 * (experiments/bows-*.spec, run by scripts/bows-experiments.sh) expand to the
 * jobs docs/bows.md describes: each parses and validates (`warpsim sweep
 * --dry-run`, which checks every job's configuration), has the expected
 * number of jobs, and the runs that several figures share have the same job
 * ids, so that the script's --reuse runs them once (Fig. 2 within Fig. 9,
 * Figs. 11-13 = Fig. 10, the paper's DDOS configuration in four of Table I's
 * five sub-tables, Fig. 9's GTO column within the fast paper-size set), and the
 * paper-size sets (Fig. 9's columns, the adaptive-delay readings) run at paper size.  Runs the built binary ($WARPSIM_BIN, default
 * build/warpsim) from the repository root; nothing is simulated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_check.h"
#include "test.h"

/* `warpsim sweep experiments/bows-NAME.spec --dry-run`, stdout+stderr in a
 * malloc'd string (NULL on failure); *rc the exit status. */
static char *bx_dry_run(const char *name, int *rc)
{
	char args[256], *out = NULL;
	snprintf(args, sizeof args, "sweep experiments/bows-%s.spec --dry-run --out /tmp/warpsim-bows-dry-%d-%s", name,
	         (int)getpid(), name);
	*rc = cli_run(args, 1, &out);
	return out;
}

static int bx_count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *q = s; (q = strstr(q, needle)); q += strlen(needle))
		n++;
	return n;
}

/* Every description line ("<id> pending <description>") of a appears in b. */
static int bx_subset(const char *a, const char *b)
{
	const char *q = a;
	while ((q = strstr(q, " pending "))) {
		const char *id = q;
		while (id > a && id[-1] != '\n')
			id--;
		const char *e = strchr(q, '\n');
		size_t n = e ? (size_t)(e - id) : strlen(id);
		char line[1024];
		if (n >= sizeof line)
			return 0;
		memcpy(line, id, n);
		line[n] = '\0';
		if (!strstr(b, line))
			return 0;
		q += 9;
	}
	return 1;
}

TEST(bows_experiment_specs)
{
	if (access(cli_bin(), X_OK) != 0) {
		CHECK_MSG(0, "%s is not an executable (build it, or set WARPSIM_BIN)", cli_bin());
		return;
	}
	static const struct {
		const char *name;
		int jobs;
	} specs[] = {
	    {"fig2", 8 * 3},	  {"fig9", 8 * 6},	{"fig15", 8 * 6},     {"fig10", 8 * 7},
	    {"fig11-13", 8 * 7},  {"fig14", 13 * 3},	{"fig16", 5 * 4},     {"table1-h", 21 * 4},
	    {"table1-m", 21 * 4}, {"table1-t", 21 * 4}, {"table1-l", 21 * 4}, {"table1-sh", 21 * 4},
	    {"adaptive", 8 * 6},  {"occupancy", 8 * 4},
	    /* the paper-size sets (index 14 on): Fig. 9's columns and the adaptive-delay readings */
	    {"fig9-paper-fast", 4 * 6}, {"fig9-paper-gto", 7 * 2}, {"fig9-paper-ht", 6},
	    {"adaptive-paper", 5 * (4 * 2 - 3)},
	};
	char *out[sizeof specs / sizeof specs[0]];
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		int rc = -1;
		out[i] = bx_dry_run(specs[i].name, &rc);
		CHECK_MSG(out[i] && rc == 0, "bows-%s.spec: %s", specs[i].name, out[i] ? out[i] : "(no output)");
		if (!out[i])
			out[i] = calloc(1, 1);
		CHECK_MSG(bx_count(out[i], " pending ") == specs[i].jobs, "bows-%s.spec: %d jobs, want %d",
			  specs[i].name, bx_count(out[i], " pending "), specs[i].jobs);
	}
	/* Fig. 2's runs are Fig. 9's; Figs. 11-13 are Fig. 10's runs */
	CHECK(bx_subset(out[0], out[1]));
	CHECK(bx_subset(out[4], out[3]) && bx_subset(out[3], out[4]));
	/* Fig. 10: one adaptive job per kernel, the GTO baseline once per kernel */
	CHECK_EQ(bx_count(out[3], "bows_delay=adaptive"), 8);
	CHECK_EQ(bx_count(out[3], "sched=gto-rotate;"), 8);
	/* Table I: the paper's configuration (XOR, m=k=8, t=4, l=8, no sharing)
	 * has one id in the h, m, l and sh sub-tables */
	const char *paper = "bench=ht;size=paper;config=configs/gtx480.cfg;sched=bows:gto-rotate;ddos_hash=xor;"
			    "ddos_history=8;ddos_share=0;ddos_threshold=4;ddos_width=8\n";
	for (size_t i = 7; i <= 11; i++)
		CHECK_MSG((i == 9) != (strstr(out[i], paper) != NULL), "bows-%s.spec: %s", specs[i].name,
			  i == 9 ? "t sub-table is at m=k=4" : "lacks the paper's configuration");
	/* the paper-size sets run at paper size only; Fig. 9's GTO column shares the four
	 * fast kernels' runs with the fast set (8 jobs); the adaptive readings keep FRAC2 = 0.8
	 * except the one FRAC2 = 0.5 reading (with FRAC1 = 0.05), once per kernel */
	for (size_t i = 14; i < sizeof specs / sizeof specs[0]; i++)
		CHECK_MSG(bx_count(out[i], ";size=paper;") == specs[i].jobs, "bows-%s.spec: not all at paper size",
			  specs[i].name);
	int shared = 0;
	for (const char *q = out[15]; (q = strstr(q, " pending ")); q++) {
		const char *e = strchr(q, '\n');
		char line[512];
		size_t n = e ? (size_t)(e - q) : strlen(q);
		if (n < sizeof line) {
			memcpy(line, q, n);
			line[n] = '\0';
			shared += strstr(out[14], line) != NULL;
		}
	}
	CHECK_EQ(shared, 8);
	CHECK_EQ(bx_count(out[17], "bows_frac2=0.5"), 5);
	CHECK_EQ(bx_count(out[17], "bows_delay=adaptive"), 25);
	/* Fig. 14: MODULO only under BOWS, with the 5000-cycle fixed delay */
	CHECK_EQ(bx_count(out[5], "ddos_hash=modulo"), 13);
	CHECK_EQ(bx_count(out[5], "bows_delay_limit=5000"), 39);
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
		free(out[i]);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf /tmp/warpsim-bows-dry-%d-*", (int)getpid());
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove the dry-run directories\n");
}
