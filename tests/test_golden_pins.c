/*
 * test_golden_pins.c -- the golden files tell every policy from its base
 * (issue 24): for every issue policy, wrapper and fetch policy of
 * `warpsim policies`, and for warp sharing and DWR, a golden scenario on its
 * paper's GPU whose rows differ from its base policy's rows.
 *
 * The golden tests (test_golden.c, test_golden_configs.c, test_bows.c) make
 * fresh runs give exactly the rows of the files in tests/golden/, so a change that
 * makes a policy act as its base moves a pinned row and fails one of them.
 * This test reads the committed rows and fails when a file no longer tells a
 * policy from its base (e.g. after `make golden` regenerated it), and when
 * one of the simulator's policies has no pin here.  Rows are compared on the counters both
 * lines carry.  DDOS orders exactly as its inner policy: its rows must EQUAL
 * the inner policy's, and its pin is its detection counter.
 * docs/validation.md lists mutants of the policies and the tests that catch
 * them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_check.h"
#include "test.h"
#include "warpsim.h"

/* One pin: the rows `label` of `file` against the rows `base_label` of
 * `base_file`, benchmark by benchmark.  With `counter` NULL some benchmark's
 * rows must differ; otherwise every benchmark's rows must be equal and
 * `counter` (a counter of the policy's own) positive on some row. */
struct pin {
	const char *policy; /* a name of `warpsim policies`, or warp_sharing, dwr */
	const char *file, *label;
	const char *base_file, *base_label;
	const char *counter;
};

static const struct pin pins[] = {
	/* GTX480 (tiny.txt: the default configuration) */
	{"gto", "tiny.txt", "gto", "tiny.txt", "lrr", NULL},
	{"tls", "tiny.txt", "tls", "tiny.txt", "lrr", NULL},
	{"gto-rotate", "tiny.txt", "gto-rotate", "tiny.txt", "gto", NULL},
	{"cawa", "tiny.txt", "cawa", "tiny.txt", "gto", NULL},
	/* BAWS: GTX480, barrier suite; SAWS at small size (one CTA per SM at tiny) */
	{"mwf-lrr", "baws_tiny.txt", "mwf-lrr/rr", "baws_tiny.txt", "lrr/rr", NULL},
	{"mwf-gto", "baws_tiny.txt", "mwf-gto/rr", "baws_tiny.txt", "gto/rr", NULL},
	{"saws", "baws_small.txt", "saws/rr", "baws_small.txt", "gto/rr", NULL},
	{"saws", "baws_small.txt", "saws/cff", "baws_small.txt", "gto/cff", NULL},
	{"cff", "baws_tiny.txt", "lrr/cff", "baws_tiny.txt", "lrr/rr", NULL},
	{"cff", "baws_tiny.txt", "gto/cff", "baws_tiny.txt", "gto/rr", NULL},
	{"cff", "baws_tiny.txt", "mwf-lrr/cff", "baws_tiny.txt", "mwf-lrr/rr", NULL},
	{"cff", "baws_tiny.txt", "mwf-gto/cff", "baws_tiny.txt", "mwf-gto/rr", NULL},
	{"cff", "baws_small.txt", "saws/cff", "baws_small.txt", "saws/rr", NULL},
	{"fef", "baws_tiny.txt", "lrr/fef", "baws_tiny.txt", "lrr/rr", NULL},
	{"fef", "baws_tiny.txt", "gto/fef", "baws_tiny.txt", "gto/rr", NULL},
	{"fef", "baws_tiny.txt", "mwf-gto/fef", "baws_tiny.txt", "mwf-gto/rr", NULL},
	/* KAWS: TITAN X; cut to 2 SMs, KA's CTA-progress order acts */
	{"ka", "titanx_tiny.txt", "ka", "titanx_tiny.txt", "gto", NULL},
	{"ka", "titanx_2sm_tiny.txt", "ka/2sm", "titanx_2sm_tiny.txt", "gto/2sm", NULL},
	{"kaws", "titanx_tiny.txt", "kaws", "titanx_tiny.txt", "ka", NULL},
	{"kaws", "titanx_2sm_tiny.txt", "kaws/2sm", "titanx_2sm_tiny.txt", "ka/2sm", NULL},
	{"warp_sharing", "titanx_tiny.txt", "lrr+ws", "titanx_tiny.txt", "lrr", NULL},
	{"warp_sharing", "titanx_tiny.txt", "gto+ws", "titanx_tiny.txt", "gto", NULL},
	/* BOWS: GTX480 (bows_tiny.txt against tiny.txt) and GTX1080Ti */
	{"bows", "bows_tiny.txt", "bows:lrr", "tiny.txt", "lrr", NULL},
	{"bows", "bows_tiny.txt", "bows:gto", "tiny.txt", "gto", NULL},
	{"bows", "bows_tiny.txt", "bows:gto-rotate", "tiny.txt", "gto-rotate", NULL},
	{"bows", "bows_tiny.txt", "bows:cawa", "tiny.txt", "cawa", NULL},
	{"bows", "gtx1080ti_tiny.txt", "bows:lrr", "gtx1080ti_tiny.txt", "lrr", NULL},
	{"bows", "gtx1080ti_tiny.txt", "bows:gto", "gtx1080ti_tiny.txt", "gto", NULL},
	{"bows", "gtx1080ti_tiny.txt", "bows:gto-rotate", "gtx1080ti_tiny.txt", "gto-rotate", NULL},
	{"bows", "gtx1080ti_tiny.txt", "bows:cawa", "gtx1080ti_tiny.txt", "cawa", NULL},
	{"ddos", "gtx1080ti_tiny.txt", "ddos:gto", "gtx1080ti_tiny.txt", "gto", "ddos_true_detected"},
	/* DWR: the Tesla-like machine */
	{"dwr", "dwr_tiny.txt", "dwr16", "dwr_tiny.txt", "fixed8", NULL},
	{"dwr", "dwr_tiny.txt", "dwr32", "dwr_tiny.txt", "fixed8", NULL},
	{"dwr", "dwr_tiny.txt", "dwr64", "dwr_tiny.txt", "fixed8", NULL},
};
#define NPINS (sizeof pins / sizeof pins[0])

/* The policies that are only bases (every other one has a pin above). */
static const char *const pin_bases[] = {"lrr", "rr", NULL};

/* A golden file split into rows "BENCH LABEL key=value ...". */
#define ROW_TOKENS 96
struct grow {
	const char *bench, *label;
	const char *tok[ROW_TOKENS];
	unsigned ntok;
};
struct gfile {
	const char *name;
	char *text;
	struct grow *rows;
	unsigned nrows;
};

static bool gfile_load(struct gfile *g, const char *name)
{
	char path[256];
	snprintf(path, sizeof path, TEST_DATA_DIR "/golden/%s", name);
	g->name = name;
	g->text = golden_read(path);
	if (!g->text)
		return false;
	unsigned lines = 1;
	for (const char *c = g->text; *c; c++)
		lines += *c == '\n';
	g->rows = calloc(lines, sizeof *g->rows);
	if (!g->rows)
		return false;
	char *sl, *line;
	for (line = strtok_r(g->text, "\n", &sl); line; line = strtok_r(NULL, "\n", &sl)) {
		if (line[0] == '#')
			continue;
		struct grow *r = &g->rows[g->nrows];
		char *st, *w;
		unsigned n = 0;
		for (w = strtok_r(line, " ", &st); w; w = strtok_r(NULL, " ", &st), n++) {
			if (n == 0)
				r->bench = w;
			else if (n == 1)
				r->label = w;
			else if (r->ntok < ROW_TOKENS)
				r->tok[r->ntok++] = w;
		}
		g->nrows += n >= 2;
	}
	return true;
}

/* The value of `key` in the row, or NULL. */
static const char *grow_value(const struct grow *r, const char *key)
{
	size_t k = strlen(key);
	for (unsigned i = 0; i < r->ntok; i++)
		if (strncmp(r->tok[i], key, k) == 0 && r->tok[i][k] == '=')
			return r->tok[i] + k + 1;
	return NULL;
}

static const struct grow *gfile_row(const struct gfile *g, const char *bench, const char *label)
{
	for (unsigned i = 0; i < g->nrows; i++)
		if (strcmp(g->rows[i].bench, bench) == 0 && strcmp(g->rows[i].label, label) == 0)
			return &g->rows[i];
	return NULL;
}

/* Does some counter that both rows carry have different values? */
static bool grow_differ(const struct grow *a, const struct grow *b)
{
	for (unsigned i = 0; i < a->ntok; i++) {
		const char *eq = strchr(a->tok[i], '=');
		if (!eq)
			continue;
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)(eq - a->tok[i]), a->tok[i]);
		const char *vb = grow_value(b, key);
		if (vb && strcmp(eq + 1, vb) != 0)
			return true;
	}
	return false;
}

/* Each golden file once (the pins name a few files many times). */
struct gfiles {
	struct gfile f[16];
	unsigned n;
};

static const struct gfile *gfiles_get(struct test_ctx *t, struct gfiles *fs, const char *name)
{
	for (unsigned i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].name, name) == 0)
			return fs->f[i].text ? &fs->f[i] : NULL;
	if (fs->n == sizeof fs->f / sizeof fs->f[0])
		return NULL;
	struct gfile *g = &fs->f[fs->n++];
	bool ok = gfile_load(g, name);
	CHECK_MSG(ok, "cannot read tests/golden/%s", name);
	return ok ? g : NULL;
}

static void pin_check(struct test_ctx *t, struct gfiles *fs, const struct pin *p)
{
	const struct gfile *a = gfiles_get(t, fs, p->file), *b = gfiles_get(t, fs, p->base_file);
	if (!a || !b)
		return;
	unsigned rows = 0, differ = 0, counted = 0;
	for (unsigned i = 0; i < a->nrows; i++) {
		const struct grow *r = &a->rows[i];
		if (strcmp(r->label, p->label) != 0)
			continue;
		const struct grow *base = gfile_row(b, r->bench, p->base_label);
		CHECK_MSG(base && grow_value(r, "cycles") && grow_value(base, "cycles"),
			  "%s: %s '%s' has no row of %s with cycles in %s '%s'", p->policy, p->file, p->label, r->bench,
			  p->base_file, p->base_label);
		if (!base)
			continue;
		rows++;
		differ += grow_differ(r, base);
		const char *v = p->counter ? grow_value(r, p->counter) : NULL;
		counted += v && strtoull(v, NULL, 10) > 0;
	}
	CHECK_MSG(rows > 0, "%s: no rows labelled '%s' in tests/golden/%s", p->policy, p->label, p->file);
	if (!p->counter)
		CHECK_MSG(differ > 0,
			  "%s: each of the %u rows of '%s' in tests/golden/%s equals its base '%s' (%s): the golden files "
			  "no longer tell %s from its base",
			  p->policy, rows, p->label, p->file, p->base_label, p->base_file, p->policy);
	else {
		CHECK_MSG(differ == 0, "%s: %u of %u rows of '%s' in tests/golden/%s differ from '%s', which it must order as",
			  p->policy, differ, rows, p->label, p->file, p->base_label);
		CHECK_MSG(counted > 0, "%s: %s is 0 on every row of '%s' in tests/golden/%s", p->policy, p->counter,
			  p->label, p->file);
	}
}

/* Every pin holds in the committed golden files. */
TEST(policy_pins_differ_from_base)
{
	struct gfiles fs = {.n = 0};
	for (unsigned i = 0; i < NPINS; i++)
		pin_check(t, &fs, &pins[i]);
	for (unsigned i = 0; i < fs.n; i++) {
		free(fs.f[i].text);
		free(fs.f[i].rows);
	}
}

/* The policies, wrappers and fetch policies the simulator had when the pins
 * were made (frozen, like the policies of tests/golden/tiny.txt: a policy
 * added later is one new file, docs/policies.md, and may add a pin here). */
static const char *const pin_policies[] = {
	"lrr", "gto", "tls", "gto-rotate", "mwf-lrr", "mwf-gto", "saws", "cawa", "ka", "kaws", /* issue */
	"bows", "ddos",                                                                        /* wrappers */
	"rr",  "cff", "fef",                                                                   /* fetch */
	NULL,
};

static bool pinned(const char *name)
{
	for (unsigned i = 0; i < NPINS; i++)
		if (strcmp(pins[i].policy, name) == 0)
			return true;
	for (int i = 0; pin_bases[i]; i++)
		if (strcmp(pin_bases[i], name) == 0)
			return true;
	return false;
}

static bool registered(const char *name)
{
	for (int i = 0; wsSchedPolicyName(i); i++)
		if (strcmp(wsSchedPolicyName(i), name) == 0)
			return true;
	for (int i = 0; wsSchedWrapperName(i); i++)
		if (strcmp(wsSchedWrapperName(i), name) == 0)
			return true;
	for (int i = 0; wsFetchPolicyName(i); i++)
		if (strcmp(wsFetchPolicyName(i), name) == 0)
			return true;
	return false;
}

/* Each of those policies is still registered and has a pin. */
TEST(policy_pins_cover_every_policy)
{
	for (int i = 0; pin_policies[i]; i++) {
		CHECK_MSG(registered(pin_policies[i]), "%s is no longer a policy, wrapper or fetch policy",
			  pin_policies[i]);
		CHECK_MSG(pinned(pin_policies[i]), "%s has no pin in tests/test_golden_pins.c", pin_policies[i]);
	}
}
