/*
 * test_cli_docs.c -- tests of the `warpsim` command: misuse refused before
 * any work (issue 26), and docs/cli.md documenting every command and option.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_check.h"

/* Misuse that used to pass silently or fail late (issue 26): each is refused
 * before any work, with a message that names the problem. */
TEST(cli_misuse_refused_early)
{
	if (cli_missing(t))
		return;
	char dir[64], args[1024], fifo[128];
	if (cli_tmpdir(t, dir))
		return;
	cli_expect(t, "list vecadd --suite bows", 2, "benchmark 'vecadd' is not in suite 'bows'");
	cli_expect(t, "run sp --size tiny --quiet --sched gto --set sched=lrr", 2,
	           "--sched gto contradicts --set sched=lrr");
	cli_expect(t, "run sp --size tiny --quiet --sched gto --set sched=gto", 0, "verification: PASSED");
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	if (mkfifo(fifo, 0600) == 0) {
		/* used to block forever; a FIFO with a writer (--config <(...)) still works */
		snprintf(args, sizeof args, "run sp --size tiny --config %s", fifo);
		cli_expect(t, args, 1, "a FIFO that nothing wrote to within 5 s");
		snprintf(args, sizeof args, "run sp --size tiny --quiet --config %s & echo 'sched = gto' > %s; wait", fifo,
		         fifo);
		cli_expect(t, args, 0, "verification: PASSED");
		remove(fifo);
	}
	snprintf(args, sizeof args, "sweep experiments/smoke.spec --out %s/sw --reuse %s/nothing --quiet", dir, dir);
	cli_expect(t, args, 1, "not a sweep directory");
	snprintf(args, sizeof args, "%s/sw", dir);
	CHECK_MSG(access(args, F_OK) != 0, "a refused sweep created %s", args);
	snprintf(args, sizeof args,
	         "exec " CLI_PTX "saxpy.ptx saxpy --grid 1 --block 8 --arg u32:5 --arg f32:2 --arg buf:x:f32:8=iota "
	         "--arg buf:y:f32:8=fill:1 --out x=%s/f --out y=%s/f",
	         dir, dir);
	cli_expect(t, args, 2, "is already the output of --out x=...");
	snprintf(args, sizeof args, "correlate tests/correlation/gpgpusim/vecadd_lrr --out %s/no/such/dir", dir);
	cli_expect(t, args, 1, "cannot create the directory: No such file or directory");
	snprintf(args, sizeof args, "characterize --size tiny --out %s/no/c.md", dir);
	cli_expect(t, args, 1, "c.md: cannot create: No such file or directory");
	snprintf(args, sizeof args, "cuda --stats %s/no/s.jsonl -- " TEST_DATA_DIR "/cudart/bin/managed", dir);
	cli_expect(t, args, 1, "/no/s.jsonl: cannot write: No such file or directory");
	rmdir(dir);
}

/* ---- docs/cli.md covers every command and option ---- */

/* A letter, digit, '-' or '_': part of an option or command name. */
static int cli_doc_namechar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* Whether [from, to) contains `opt` ("--name") as a whole word: not part of
 * a longer option (--timeline in --timeline-sm does not count). */
static int cli_doc_mentions(const char *from, const char *to, const char *opt)
{
	size_t n = strlen(opt);
	for (const char *p = from; p < to && (p = strstr(p, opt)) && p + n <= to; p++)
		if ((p == from || !cli_doc_namechar(p[-1])) && !cli_doc_namechar(p[n]))
			return 1;
	return 0;
}

/* The section of docs/cli.md headed "## `warpsim CMD ..." (CMD followed by a
 * blank or the closing backquote): *from at its heading, *to at the next
 * "## " heading or the end.  0 if there is none. */
static int cli_doc_section(const char *doc, const char *cmd, const char **from, const char **to)
{
	size_t n = strlen(cmd);
	for (const char *l = doc; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "## `warpsim ", 12) != 0 || strncmp(l + 12, cmd, n) != 0 ||
		    (l[12 + n] != ' ' && l[12 + n] != '`'))
			continue;
		*from = l;
		const char *next = strstr(l + 1, "\n## ");
		*to = next ? next + 1 : l + strlen(l);
		return 1;
	}
	return 0;
}

/* Appends "text" to the list of problems (a fixed buffer; the end is cut). */
static void cli_doc_note(char *buf, size_t sz, const char *what, const char *cmd, const char *opt)
{
	size_t l = strlen(buf);
	if (l + 1 < sz)
		snprintf(buf + l, sz - l, "\n  %s: warpsim %s%s%s", what, cmd, opt ? " " : "", opt ? opt : "");
}

/* Every command that `warpsim --help` lists has a "## `warpsim CMD ...`"
 * section in docs/cli.md, and every option of `warpsim help CMD` appears as
 * --option in that section (up to the next "## " heading), or in the shared
 * "### Configuration options (`run`, ...)" section when its heading names the
 * command.  --help is every command's and is stated once in the
 * introduction.  The failure lists every missing command and option. */
TEST(cli_docs_cover_every_option)
{
	if (cli_missing(t))
		return;
	char *doc = cli_slurp("docs/cli.md", NULL);
	CHECK_MSG(doc != NULL, "cannot read docs/cli.md (the tests run from the repository root)");
	char *help = NULL;
	int rc = cli_run("--help", 0, &help);
	CHECK_MSG(rc == 0, "warpsim --help: exit status %d", rc);
	const char *cmds = help ? strstr(help, "\ncommands:\n") : NULL;
	CHECK_MSG(cmds != NULL, "warpsim --help has no \"commands:\" section:\n%s", help ? help : "");
	if (!doc || !cmds) {
		free(doc);
		free(help);
		return;
	}
	/* the shared "Configuration options" section counts for the commands its
	 * heading names (`run`, `bench`, ...), up to the next ## or ### heading */
	const char *cfg = strstr(doc, "\n### Configuration options");
	const char *cfg_end = NULL, *cfg_head_end = NULL;
	CHECK_MSG(cfg != NULL, "docs/cli.md has no \"### Configuration options\" section");
	if (cfg) {
		cfg++;
		cfg_head_end = strchr(cfg, '\n');
		cfg_head_end = cfg_head_end ? cfg_head_end : cfg + strlen(cfg);
		const char *h2 = strstr(cfg_head_end, "\n## "), *h3 = strstr(cfg_head_end, "\n### ");
		cfg_end = h2 && (!h3 || h2 < h3) ? h2 + 1 : h3 ? h3 + 1 : cfg + strlen(cfg);
	}
	/* --help is every command's: the introduction says so once */
	const char *first_cmd = strstr(doc, "\n## `warpsim ");
	CHECK_MSG(first_cmd && cli_doc_mentions(doc, first_cmd, "--help") && strstr(doc, "warpsim help COMMAND"),
	          "docs/cli.md's introduction (before the first command's section) must say that "
	          "'warpsim help COMMAND' and 'warpsim COMMAND --help' print a command's options");
	char missing[8192] = "";
	int ncmds = 0, nopts = 0;
	for (const char *l = strchr(cmds + 1, '\n') + 1; l[0] == ' ' && l[1] == ' ' && cli_doc_namechar(l[2]);
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		char cmd[64];
		size_t n = 0;
		for (const char *p = l + 2; cli_doc_namechar(*p) && n + 1 < sizeof cmd; p++)
			cmd[n++] = *p;
		cmd[n] = '\0';
		ncmds++;
		const char *from = NULL, *to = NULL;
		int have = cli_doc_section(doc, cmd, &from, &to);
		if (!have)
			cli_doc_note(missing, sizeof missing, "no \"## `warpsim CMD ...`\" section", cmd, NULL);
		/* does the shared section's heading name it (as `CMD`)? */
		char quoted[70];
		snprintf(quoted, sizeof quoted, "`%s`", cmd);
		const char *named = cfg ? strstr(cfg, quoted) : NULL;
		int shared = named && named < cfg_head_end;
		/* the options of `warpsim help CMD` (`help` itself has none) */
		char args[128], *out = NULL;
		snprintf(args, sizeof args, "help %s", cmd);
		rc = cli_run(args, 0, &out);
		const char *opts = out ? strstr(out, "\noptions:\n") : NULL;
		if (strcmp(cmd, "help") != 0)
			CHECK_MSG(rc == 0 && opts, "warpsim help %s: exit status %d, no \"options:\" section:\n%s", cmd, rc,
			          out ? out : "");
		for (const char *o = opts ? opts + 10 : ""; o[0] == ' ' && o[1] == ' ';
		     o = strchr(o, '\n') ? strchr(o, '\n') + 1 : "") {
			const char *p = o;
			while (*p == ' ')
				p++;
			if (p[0] != '-' || p[1] != '-')
				continue; /* a continuation line */
			char opt[64];
			size_t k = 0;
			while (cli_doc_namechar(p[k]) && k + 1 < sizeof opt) {
				opt[k] = p[k];
				k++;
			}
			opt[k] = '\0';
			nopts++;
			if (strcmp(opt, "--help") == 0)
				continue;
			if (have && cli_doc_mentions(from, to, opt))
				continue;
			if (shared && cli_doc_mentions(cfg_head_end, cfg_end, opt))
				continue;
			cli_doc_note(missing, sizeof missing, have ? "option not in its section" : "option", cmd, opt);
		}
		free(out);
	}
	CHECK_MSG(ncmds >= 10 && nopts >= 50,
	          "parsed only %d commands and %d options from 'warpsim --help' and 'warpsim help CMD': "
	          "did their format change?", ncmds, nopts);
	CHECK_MSG(missing[0] == '\0', "docs/cli.md does not document (add a section or the option):%s", missing);
	free(help);
	free(doc);
}
