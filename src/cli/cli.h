/*
 * cli.h -- internals of the `warpsim` command-line tool (src/cli/).
 *
 * Models no hardware.  The CLI is a client of the public runtime API
 * (include/warpsim.h), of the benchmark table (bench/bench.h) and of the
 * speed measurement (stats/speed.h, which reads the public API too) only.
 *
 * Every subcommand is one row of a table (struct cli_cmd): its name, its
 * positional arguments, its options (a table of struct cli_opt) and the
 * function that runs it.  One generic parser turns argv into a struct
 * cli_args (options in command-line order plus positional arguments) and one
 * generic printer produces every `--help` text from the same tables.
 *
 * Exit status of every command: CLI_EXIT_OK (0) on success, CLI_EXIT_FAIL (1)
 * when the work itself failed (unreadable file, malformed PTX, launch error,
 * failed verification), CLI_EXIT_USAGE (2) when the command line is wrong
 * (unknown command or option, malformed or out-of-range value, invalid
 * configuration key or value).
 */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "stats/speed.h"
#include "warpsim.h"

#define CLI_VERSION "0.1.0"

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

/* ---- option and command tables ---- */
enum {
	CLI_OPT_REPEAT = 1u << 0,  /* option may be given more than once */
	CLI_OPT_OUTFILE = 1u << 1, /* the value is a file the command writes ("-": standard output): no two
	                            * such options of one command line may name the same file */
};

struct cli_opt {
	const char *name;    /* long name without the leading "--" */
	const char *metavar; /* value placeholder for help; NULL: a flag without value */
	unsigned flags;      /* CLI_OPT_* */
	const char *help;    /* one line */
};

struct cli_args;
struct cli_cmd {
	const char *name;
	const char *args;           /* synopsis of the positional arguments ("BENCH", "[BENCH...]") */
	const char *summary;        /* one line for `warpsim help` */
	const char *details;        /* further help text printed after the options (may be NULL) */
	int min_pos, max_pos;       /* number of positional arguments; max_pos < 0: unlimited */
	const struct cli_opt *opts; /* terminated by an entry with name == NULL */
	int (*fn)(const struct cli_args *a);
};

/* One option occurrence: index into cmd->opts and its value ("" for flags). */
struct cli_item {
	int opt;
	const char *value;
};

struct cli_args {
	const struct cli_cmd *cmd;
	struct cli_item *items; /* options in command-line order */
	int nitems;
	const char **pos; /* positional arguments */
	int npos;
};

/* Parse argv (the words after the command name).  Returns CLI_EXIT_OK,
 * CLI_EXIT_USAGE after printing an error, or -1 when --help/-h was given
 * (help already printed).  On CLI_EXIT_OK release with cli_args_free. */
int cli_args_parse(const struct cli_cmd *cmd, int argc, char **argv, struct cli_args *out);
void cli_args_free(struct cli_args *a);
/* Value of the last occurrence of option `name` (flags: ""), NULL if absent. */
const char *cli_opt_get(const struct cli_args *a, const char *name);
/* Is item i an occurrence of option `name`? */
int cli_item_is(const struct cli_args *a, int i, const char *name);

void cli_print_cmd_help(const struct cli_cmd *cmd, FILE *out);

/* "warpsim CMD: error: ..." on stderr. Returns CLI_EXIT_USAGE / CLI_EXIT_FAIL. */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_fail(const struct cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- numbers: whole-string checks, decimal or 0x-hex integers ---- */
/* Each returns 0 on success, or -1 with a reason written to err. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *v, char *err, size_t errsz);
int cli_parse_s64(const char *s, int64_t min, int64_t max, int64_t *v, char *err, size_t errsz);
int cli_parse_f64(const char *s, double *v, char *err, size_t errsz);
/* "X[,Y[,Z]]", every component 1..UINT32_MAX; missing components are 1. */
int cli_parse_dim3(const char *s, unsigned d[3], char *err, size_t errsz);

/* ---- element types of --arg scalars and buffers ---- */
enum cli_kind { CLI_K_UNSIGNED, CLI_K_SIGNED, CLI_K_FLOAT };
struct cli_type {
	const char *name; /* "u32", "f64", ... */
	unsigned size;    /* bytes */
	enum cli_kind kind;
};
/* Type named by the first len characters of name; NULL if unknown. */
const struct cli_type *cli_type_find(const char *name, size_t len);
/* Comma-separated list of the type names, for error messages. */
const char *cli_type_names(void);
/* Parse text as a value of type t and store its t->size bytes at dst
 * (host byte order, which is the device's little-endian order on the hosts
 * warpsim supports).  0 on success, -1 with a reason in err. */
int cli_value_parse(const struct cli_type *t, const char *s, void *dst, char *err, size_t errsz);
/* Value at src as a 64-bit pattern (signed types sign-extended) or a double. */
uint64_t cli_value_get_bits(const struct cli_type *t, const void *src);
double cli_value_get_f64(const struct cli_type *t, const void *src);
/* Store the low t->size bytes of bits / a double converted to t (floats only). */
void cli_value_set_bits(const struct cli_type *t, uint64_t bits, void *dst);
void cli_value_set_f64(const struct cli_type *t, double v, void *dst);
/* Element as text (decimal; floats exactly round-trip). */
void cli_value_print(const struct cli_type *t, const void *src, FILE *out);
/* Element as zero-padded lowercase hex of its bit pattern (2*size digits). */
void cli_value_print_hex(const struct cli_type *t, const void *src, FILE *out);

/* ---- shared pieces of run / bench / exec / config ---- */
/* An output file written whole or not at all (outfile.c): opened before the
 * work as a temporary file beside `path` (an unwritable path fails now, with
 * the reason in err), renamed into place by cli_out_commit.  Write to o->f. */
struct cli_out {
	FILE *f;
	char *path, *tmp;
	int unnamed; /* the temporary is an O_TMPFILE with no name yet */
};
int cli_out_open(struct cli_out *o, const char *path, char *err, size_t errsz);
/* Flush, close and rename into place; -1 with the reason (e.g. "No space
 * left on device") in err and errno, and nothing left behind (both
 * functions leave errno at the failure's reason). */
int cli_out_commit(struct cli_out *o, char *err, size_t errsz);
/* Drop the output (nothing is written); harmless on a zeroed or finished one. */
void cli_out_abort(struct cli_out *o);
/* Do the two paths name the same file: the same existing file (hard and
 * symbolic links included), or the same name in the same directory ("f",
 * "./f", "d/../f")?  Used to refuse two outputs, or an output and an input,
 * that would overwrite each other. */
int cli_same_file(const char *a, const char *b);

/* Build the effective configuration from --config FILE, every --set k=v in
 * order, and --functional (mode=functional) where the command has them.
 * Returns CLI_EXIT_OK with *out set, or an exit status after printing why. */
int cli_build_config(const struct cli_args *a, ws_config **out);

/* "42s", "3m05s", "1h02m03s" (common.c). */
void cli_format_duration(char *buf, size_t bufsz, double s);
/* Progress of a long run on standard error (common.c): installed with
 * wsSimSetProgress, it prints nothing for the first CLI_PROGRESS_AFTER
 * seconds of a command, then a line every CLI_PROGRESS_EVERY seconds:
 * "[LABEL] launch N: C/T CTAs done, cycle X, R warp-insts/s, elapsed E, ETA
 * Q" (the ETA from the CTAs done of this launch).  Host time is read only
 * here, never by the simulator. */
#define CLI_PROGRESS_AFTER 3.0
#define CLI_PROGRESS_EVERY 2.0
struct cli_progress {
	char label[96];
	double t0, last;               /* start of the command, last line printed */
	unsigned long long launch;     /* the launch of the three below */
	double launch_t0;              /* its first report: the time, warp instructions and CTAs done then */
	unsigned long long launch_insts, launch_ctas;
	int lines;                     /* lines printed */
};
void cli_progress_init(struct cli_progress *p, const char *label);
void cli_progress_report(void *user, const ws_progress *p);
/* Print the warnings of a loaded module on stderr ("warpsim CMD: warning: file:line:col: ..."). */
void cli_print_module_warnings(const struct cli_cmd *cmd, const ws_module *mod);
/* Parse --size (default small). Returns CLI_EXIT_OK or CLI_EXIT_USAGE. */
int cli_get_size(const struct cli_args *a, enum ws_bench_size *size);
/* The same with another default (characterize, correlate: paper). */
int cli_get_size_or(const struct cli_args *a, enum ws_bench_size dflt, enum ws_bench_size *size);

/* ---- independent jobs on forked worker processes (pool.c) ---- */
struct cli_pool {
	int njobs, workers;
	size_t result_size; /* bytes of one job's result; results[j] is at j * result_size */
	/* In the child: fill result (a plain struct, no pointers) for job j. */
	void (*run)(int job, void *result, void *ctx);
	/* In the parent: the job could not run or its worker died; fill result accordingly. */
	void (*fail)(int job, void *result, const char *why, void *ctx);
	/* Progress on stderr as "[tag] k/n runs (label)"; tag NULL: quiet. */
	const char *tag;
	void (*label)(int job, void *ctx, char *buf, size_t bufsz);
	void *ctx;
};
/* Runs every job; returns the number of jobs whose worker failed. */
int cli_pool_run(const struct cli_pool *p, void *results);
/* --jobs N (default: the cores this process may use, wsHostCores).  CLI_EXIT_OK or CLI_EXIT_USAGE. */
int cli_get_jobs(const struct cli_args *a, int *workers);
/* At most as many workers as let their runs' host threads (cfg's threads,
 * 0 = every core) fit the cores, unless --oversubscribe; lowering an
 * explicit --jobs is a warning. */
void cli_cap_jobs(const struct cli_args *a, const ws_config *cfg, int *workers);

/* The PTX-loading rows of `warpsim bench` (bench_load.c): load time and
 * peak memory per PTX byte of generated files of mb[0..nmb) MiB. */
int cli_bench_load(const struct cli_cmd *cmd, const unsigned *mb, int nmb);
/* `warpsim bench --table` (bench_table.c): list[0..n) at `size` in the timing
 * and functional models, --paper kernels at paper size, --idle-sms rows. */
int cli_bench_table(const struct cli_args *a, const ws_config *cfg, const struct ws_bench_info **list, int n,
		    enum ws_bench_size size);

/* ---- subcommands ---- */
int cli_cmd_run(const struct cli_args *a);
int cli_cmd_bench(const struct cli_args *a);
int cli_cmd_list(const struct cli_args *a);
int cli_cmd_ptx(const struct cli_args *a);
int cli_cmd_config(const struct cli_args *a);
int cli_cmd_exec(const struct cli_args *a);
extern const struct cli_opt cli_exec_opts[];
/* Everything `exec` checks before it needs the PTX module: parse the launch
 * shape and every --arg/--tex/--set-var/--out/--print spec, read the input
 * files (at most max_bytes each) and fill the buffers of at most max_bytes
 * with their initial values.  Runs no simulation; returns an exit status
 * after printing why (the fuzz target tests/fuzz/fuzz_exec.c calls it). */
int cli_exec_check(const struct cli_args *a, size_t max_bytes);
int cli_cmd_characterize(const struct cli_args *a);
int cli_cmd_correlate(const struct cli_args *a);
int cli_cmd_policies(const struct cli_args *a);
int cli_cmd_cuda(const struct cli_args *a);
/* parameter sweeps (docs/sweeps.md): cmd_sweep.c, cmd_collect.c, cmd_report.c */
int cli_cmd_sweep(const struct cli_args *a);
int cli_cmd_sweep_task(const struct cli_args *a);
int cli_cmd_collect(const struct cli_args *a);
int cli_cmd_report(const struct cli_args *a);

#endif
