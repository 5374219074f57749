/*
 * main.c -- entry point of the `warpsim` command-line tool: the table of
 * subcommands and their options, `warpsim help`, `--version`, dispatch.
 *
 * Models no hardware.  See docs/cli.md for the user documentation.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "cli.h"

static const struct cli_opt run_opts[] = {
    {"size", "tiny|small|paper|paper-kaws", 0, "input size (default small)"},
    {"config", "FILE", 0, "load parameters from FILE (\"key = value\" lines)"},
    {"set", "KEY=VALUE", CLI_OPT_REPEAT, "set one parameter, applied after --config, in order"},
    {"functional", NULL, 0, "functional simulation only (sets mode=functional, after every --set)"},
    {"stats", "FILE.json", CLI_OPT_OUTFILE, "write every counter and the configuration as JSON"},
    {"launch-stats", "FILE.jsonl", CLI_OPT_OUTFILE, "write one JSON line per kernel launch: its kernel, occupancy and every counter in that launch alone"},
    {"quiet", NULL, 0, "do not echo the effective configuration, print no progress lines during a long run"},
    {"sched", "POLICY", 0, "warp-scheduling policy (same as --set sched=POLICY; see 'warpsim policies')"},
    {"fetch", "POLICY", 0, "fetch policy (same as --set fetch=POLICY)"},
    {"threads", "N", 0, "host threads ticking the SMs (same as --set threads=N; 0 = every core this process may use; results identical for every N)"},
    {"oversubscribe", NULL, 0, "keep a threads value above the cores this process may use (default: lowered to them, with a warning)"},
    {"timeline", "FILE.svg", CLI_OPT_OUTFILE, "write an SVG warp-phase timeline (warps against cycles)"},
    {"timeline-sm", "N", 0, "SM shown in the timeline (default 0)"},
    {"timeline-ctas", "A[-B]", 0, "CTAs shown in the timeline (default: all CTAs the SM ran)"},
    {"timeline-launch", "N", 0, "kernel launch shown in the timeline (default: the last)"},
    {"trace", "FILE.json", CLI_OPT_OUTFILE, "write every warp-phase as a Chrome trace (open in Perfetto)"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt bench_opts[] = {
    {"size", "tiny|small|paper|paper-kaws", 0, "input size (default small)"},
    {"sched", "POLICY", 0, "warp-scheduling policy (same as --set sched=POLICY)"},
    {"fetch", "POLICY", 0, "fetch policy (same as --set fetch=POLICY)"},
    {"threads", "N", 0, "host threads ticking the SMs (same as --set threads=N; 0 = every core this process may use; results identical for every N)"},
    {"oversubscribe", NULL, 0, "keep a threads value above the cores this process may use (default: lowered to them, with a warning)"},
    {"config", "FILE", 0, "load parameters from FILE"},
    {"set", "KEY=VALUE", CLI_OPT_REPEAT, "set one parameter, applied after --config, in order"},
    {"functional", NULL, 0, "functional simulation only (sets mode=functional)"},
    {"load-mb", "MB[,MB...]", 0, "PTX-loading rows for generated files of these sizes (default 5,50 without BENCH names; 0: none)"},
    {"table", NULL, 0, "each kernel in the timing and functional models, --paper kernels, idle-scaling rows (make bench)"},
    {"paper", "BENCH[,BENCH...]", 0, "with --table: also run these at paper size (default mm,sp; none: no paper rows)"},
    {"idle-sms", "N[,N...]", 0, "with --table: one warp of work on these SM counts (default 15,120,960; 0: none)"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt characterize_opts[] = {
    {"size", "tiny|small|paper|paper-kaws", 0, "input size (default paper)"},
    {"jobs", "N", 0, "worker processes (default: the number of cores)"},
    {"out", "FILE.md", 0, "output file (default docs/characterization.md; the SVG goes beside it)"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt correlate_opts[] = {
    {"bench", "NAME", 0, "the bundled benchmark of every REF (default: NAME of a BENCH_POLICY directory)"},
    {"sched", "POLICY", 0, "the policy of every REF (default: the -gpgpu_scheduler the output echoes)"},
    {"size", "tiny|small|paper|paper-kaws", 0, "input size the references were run at (default paper)"},
    {"config", "FILE", 0, "load parameters from FILE"},
    {"set", "KEY=VALUE", CLI_OPT_REPEAT, "set one parameter, applied after --config, in order"},
    {"jobs", "N", 0, "worker processes (default: the number of cores; fewer when their --set threads add up to more)"},
    {"out", "DIR", 0, "also write DIR/correlation.md, correlation.csv and correlation.svg"},
    {"max-cycle-error", "PCT", 0, "exit 1 if any run's cycle count is off by more than PCT percent"},
    {"max-ratio-error", "R", 0, "exit 1 if any benchmark's GTO-over-LRR speedup is off by more than R"},
    {"known", "BENCH[,BENCH]", 0, "benchmarks with a documented difference: misses are reported, not failed"},
    {"oversubscribe", NULL, 0, "run --jobs runs at once even when their threads add up to more than the cores (default: fewer at once)"},
    {"quiet", NULL, 0, "no progress output"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt list_opts[] = {
    {"long", NULL, 0, "print every field of each entry: computation, synchronization, geometry, sizes, paper, suite"},
    {"suite", "NAME", 0, "only the benchmarks of a suite: barrier (BAWS Table 2), syncfree (BAWS 6.5), bows (BOWS busy-wait kernels), kaws (KAWS section 5) or dwr (DWR Table 1)"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt policies_opts[] = {
    {"names", NULL, 0, "print only the issue-policy names, space-separated (for scripts)"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt ptx_opts[] = {
    {"function", "NAME", 0, "print only the parameters of function NAME"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt config_opts[] = {
    {"list", NULL, 0, "list every parameter (name, type, default, range, help)"},
    {"config", "FILE", 0, "load parameters from FILE"},
    {"set", "KEY=VALUE", CLI_OPT_REPEAT, "set one parameter, applied after --config, in order"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt cuda_opts[] = {
    {"config", "FILE", 0, "load parameters from FILE"},
    {"set", "KEY=VALUE", CLI_OPT_REPEAT, "set one parameter, applied after --config, in order"},
    {"sched", "POLICY", 0, "warp-scheduling policy (same as --set sched=POLICY)"},
    {"fetch", "POLICY", 0, "fetch policy (same as --set fetch=POLICY)"},
    {"threads", "N", 0, "host threads ticking the SMs (same as --set threads=N; 0 = every core this process may use; results identical for every N)"},
    {"oversubscribe", NULL, 0, "keep a threads value above the cores this process may use (default: lowered to them, with a warning)"},
    {"functional", NULL, 0, "functional simulation only (sets mode=functional)"},
    {"stats", "FILE.jsonl", CLI_OPT_OUTFILE, "append one JSON line of statistics per kernel launch to FILE"},
    {"trace", "FILE.json", CLI_OPT_OUTFILE, "write the kernel launches as a Chrome trace (open in Perfetto)"},
    {"summary", "FILE.json", CLI_OPT_OUTFILE, "at exit, write every counter over all launches and the configuration as JSON"},
    {"quiet", NULL, 0, "do not print the per-kernel statistics at exit"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt sweep_opts[] = {
    {"out", "DIR", 0, "output directory (default results/NAME, NAME from the spec)"},
    {"jobs", "N", 0, "local worker processes (default: $SLURM_CPUS_PER_TASK, else the number of CPUs)"},
    {"oversubscribe", NULL, 0, "run --jobs jobs at once even when their host threads add up to more than the cores (default: fewer at once)"},
    {"timeout", "SECONDS", 0, "wall-clock limit of each job (overrides the spec's 'timeout')"},
    {"dry-run", NULL, 0, "list the jobs (id, status, description) and run nothing"},
    {"skip-failed", NULL, 0, "do not rerun jobs that failed before"},
    {"reuse", "DIR", CLI_OPT_REPEAT, "copy results of the same jobs (same ids) from another sweep's DIR"},
    {"keep-stale", NULL, 0, "count results made by another warpsim binary as done (default: rerun them)"},
    {"quiet", NULL, 0, "no progress output"},
    {"slurm", NULL, 0, "run the jobs as Slurm job arrays (sbatch), wait for them and collect"},
    {"partition", "P", 0, "Slurm partition (sbatch --partition)"},
    {"time", "T", 0, "Slurm time limit of each array task (sbatch --time, e.g. 30:00)"},
    {"pack", "K", 0, "jobs run by each Slurm array task (default 1)"},
    {"cpus-per-task", "N", 0, "CPUs of each Slurm array task; its jobs run on N workers (default 1)"},
    {"sbatch-arg", "ARG", CLI_OPT_REPEAT, "extra sbatch argument, e.g. --sbatch-arg=--account=abc"},
    {"poll", "SECONDS", 0, "seconds between squeue polls while waiting (default 10)"},
    {"no-wait", NULL, 0, "submit and return; rerun the same command later to wait and collect"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt sweep_task_opts[] = {
    {"list", "FILE", 0, "run the job ids on line TASK+1 of FILE (an array's job list)"},
    {"task", "N", 0, "array task number (default $SLURM_ARRAY_TASK_ID)"},
    {"jobs", "N", 0, "worker processes (default $SLURM_CPUS_PER_TASK, else 1)"},
    {"oversubscribe", NULL, 0, "run --jobs jobs at once even when their host threads add up to more than the cores"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt collect_opts[] = {
    {"stats", "LIST", 0, "statistics to include: names or globs, comma-separated (default: the spec's)"},
    {"output", "FILE.csv", 0, "write the CSV to FILE (default: standard output)"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_opt report_opts[] = {
    {"baseline", "K=V[,K=V]", 0, "baseline of the speedups (default: the spec's, else the first configuration)"},
    {"metric", "cycles|ipc", 0, "speedup = baseline cycles / cycles, or IPC / baseline IPC (default: the spec's)"},
    {"output", "FILE.html", 0, "where to write the page (default DIR/report.html; - for standard output)"},
    {NULL, NULL, 0, NULL},
};

static const struct cli_cmd commands[] = {
    {"run", "BENCH", "Run one bundled benchmark and verify it against its CPU reference.",
     "Prints \"verification: PASSED\" or \"verification: FAILED: why\", each kernel's occupancy\n"
     "(\"occupancy: KERNEL: N CTAs/SM, limited by PARAM; regs/thread R (source)\"; see\n"
     "reg_counts in 'warpsim config --list'), every counter, the simulator's own speed,\n"
     "and last the effective configuration (unless --quiet).\n"
     "Output files are created before the run (a bad path fails at once) and renamed\n"
     "into place at the end.\n"
     "Exit status 0 only if verification passed.\n",
     1, 1, run_opts, cli_cmd_run},
    {"list", "[BENCH...]", "List the bundled benchmarks (the benchmark table).",
     "Without --long: one line per benchmark (name, CTAs/SM, warps/CTA, paper, what it\n"
     "computes).  With --long, or with benchmark names: every field of each entry,\n"
     "including the synchronization pattern and the tiny, small and paper input sizes.\n",
     0, -1, list_opts, cli_cmd_list},
    {"policies", "", "List the warp-scheduling and fetch policies.", NULL, 0, 0, policies_opts, cli_cmd_policies},
    {"bench", "[BENCH...]", "Report the simulator's speed on the bundled benchmarks.",
     "Runs the given benchmarks (default: all) and prints one table row each: verified,\n"
     "warp and thread instructions, wall-clock seconds, thread instructions per second,\n"
     "and simulated cycles and cycles per second when the timing model ran.\n"
     "Then PTX loading: time and peak memory per PTX byte of wsModuleLoad on generated\n"
     "files (--load-mb; by default 5 and 50 MiB when no benchmark is named).\n"
     "--table (what make bench runs): each kernel in the timing and the functional model\n"
     "side by side (rates per second of CPU time), the --paper kernels again at paper size,\n"
     "and idle-scaling rows: one warp of work on 15, 120 and 960 SMs (--idle-sms).\n"
     "A performance report, not a test; exit status 1 if any benchmark failed.\n",
     0, -1, bench_opts, cli_cmd_bench},
    {"ptx", "FILE", "Load a PTX file and summarise it, or report its first error.",
     "Prints every function (kind, parameters, registers, instructions, static\n"
     "shared/local memory) and variable, or the error as file:line:col (exit status 1).\n",
     1, 1, ptx_opts, cli_cmd_ptx},
    {"config", "", "Print the effective configuration, or list every parameter.",
     "Without --list, prints \"key = value\" lines: the defaults, then --config FILE,\n"
     "then each --set in order.\n",
     0, 0, config_opts, cli_cmd_config},
    {"exec", "FILE.ptx KERNEL", "Run any kernel of a PTX file without a host program.",
     "argument specs (one --arg per kernel parameter, in order):\n"
     "  TYPE:VALUE                 scalar; TYPE is u8 u16 u32 u64 s8 s16 s32 s64 b8 b16\n"
     "                             b32 b64 f32 f64; integers decimal or 0x-hex\n"
     "  hex:BYTES                  raw parameter bytes in memory order, e.g. hex:0100000002000000\n"
     "  buf:NAME:TYPE:COUNT        device buffer of COUNT elements, zero-filled;\n"
     "                             the parameter receives its 64-bit device address\n"
     "  buf:NAME:TYPE:COUNT=v1,v2  first elements given, the rest zero\n"
     "  buf:NAME:TYPE:COUNT=iota[:START[:STEP]]   START, START+STEP, ... (default 0, 1)\n"
     "  buf:NAME:TYPE:COUNT=fill:V every element V\n"
     "  buf:NAME:TYPE:file=PATH    contents of a binary file (COUNT = size / element size)\n"
     "  tex:NAME                   the 64-bit handle of texture/surface NAME (--tex)\n"
     "texture and surface specs (--tex NAME:TYPE[xN]:W[xH[xD]][:OPT,...][=INIT]):\n"
     "  TYPE u8 s8 u16 s16 u32 s32 f32, xN channels (x1 x2 x4); INIT as for buf (elements\n"
     "  = texels x channels, x fastest); OPT: point linear (filter), clamp wrap mirror\n"
     "  border (addressing), normalized (coordinates), readnorm (8/16-bit integers read\n"
     "  as [0,1] / [-1,1]), layered, cube, memory (linear memory, tex1Dfetch), pitch\n"
     "  (pitch-2D memory), surface (a surface object), @VAR (also bind to .texref VAR).\n"
     "  --print/--out NAME show a texture's texels after the run.\n"
     "output formats of --out: bin (default, raw bytes), hex (one element per line as\n"
     "hex digits of its bits), txt (one element per line as in --print).\n"
     "--print NAME writes one line \"NAME = v0 v1 ...\" to standard output, then the\n"
     "kernel's occupancy is printed (\"occupancy: KERNEL: ...\", as warpsim run prints it).\n"
     "example:\n"
     "  warpsim exec saxpy.ptx saxpy --grid 4 --block 256 --arg u32:1000 --arg f32:2 \\\n"
     "      --arg buf:x:f32:1024=iota --arg buf:y:f32:1024=fill:1 --print y:8\n"
     "See docs/cli.md for the details.\n",
     2, 2, cli_exec_opts, cli_cmd_exec},
    {"cuda", "PROGRAM [ARGS...]", "Run an unmodified CUDA program (nvcc -cudart shared) on the simulator.",
     "Runs PROGRAM with warpsim's libcudart.so.13 standing in for NVIDIA's CUDA runtime:\n"
     "its kernels run on the simulated GPU (the PTX embedded in the executable), its\n"
     "output is its own, and at exit the per-kernel statistics (grid, cycles, IPC,\n"
     "stall breakdown), each kernel's occupancy and register source (the SASS in the\n"
     "executable gives ptxas's counts) and the simulator's speed are printed on standard error.\n"
     "warpsim's options come before PROGRAM; every word after PROGRAM is the program's.\n"
     "PROGRAM may be a wrapper script or an interpreter; what it starts inherits the runtime.\n"
     "Exit status: the program's (2 for a bad warpsim option, 1 if it cannot start, or if\n"
     "its CUDA work went to another CUDA runtime: warpsim says which after the run).\n"
     "Build the program with:  nvcc -cudart shared app.cu -o app\n"
     "example:\n"
     "  warpsim cuda --sched gto --stats app.jsonl -- ./app 1024\n"
     "See docs/cuda.md for the supported CUDA calls.\n",
     1, -1, cuda_opts, cli_cmd_cuda},
    {"characterize", "", "Regenerate docs/characterization.md: barrier stalls of the BAWS suite (Figure 1).",
     "Runs every barrier-intensive benchmark under LRR and GTO (in parallel worker\n"
     "processes) and writes a markdown table of barrier and exit stall fractions,\n"
     "warp-phases, RTRU, IPC and the stall breakdown, plus an SVG chart beside it.\n",
     0, 0, characterize_opts, cli_cmd_characterize},
    {"correlate", "REF...", "Correlate warpsim with GPGPU-Sim outputs of the same benchmarks (table, CSV, SVG).",
     "Each REF is a GPGPU-Sim output file or a directory holding gpgpusim-out.txt.  The\n"
     "benchmark comes from a BENCH_POLICY directory name (or --bench), the policy from\n"
     "the output's -gpgpu_scheduler echo (or the name, or --sched).  warpsim runs each\n"
     "on its own configuration (--config/--set) and prints per metric both values and\n"
     "the error, the mean absolute percentage error and Pearson's r, and the GTO/LRR\n"
     "cycle ratios.  See docs/correlation.md.\n"
     "example:\n"
     "  warpsim correlate tests/correlation/gpgpusim/*_* --out docs/correlation\n",
     1, -1, correlate_opts, cli_cmd_correlate},
    {"sweep", "SPEC", "Run a parameter sweep (benchmarks x configurations) locally or on Slurm.",
     "SPEC is a text file of 'keyword value...' lines (see docs/sweeps.md):\n"
     "  name NAME | bench B... | size S... | config FILE... | sched P... | fetch P...\n"
     "  policy SCHED[+FETCH]... | set KEY V1 V2... | fixed KEY=V... | exclude K=V...\n"
     "  baseline K=V... | stats NAME-OR-GLOB... | metric cycles|ipc | timeout SECONDS\n"
     "Every job (one benchmark run) gets a stable id; jobs whose DIR/jobs/ID.json exists\n"
     "are skipped, so a rerun resumes an interrupted sweep.  Exit status 0 if every job\n"
     "succeeded, 1 if any failed (their logs are listed), 2 for a bad spec.\n"
     "example:\n"
     "  warpsim sweep experiments/baws-fig8.spec && warpsim report results/baws-fig8\n",
     1, 1, sweep_opts, cli_cmd_sweep},
    {"sweep-task", "DIR [JOBID...]", "Run jobs of a sweep (used by the Slurm array tasks of 'sweep --slurm').",
     "Runs the given jobs of the sweep in DIR (or those on one line of --list), skipping\n"
     "finished ones, on $SLURM_CPUS_PER_TASK workers.  Exit status 1 if any failed.\n",
     1, -1, sweep_task_opts, cli_cmd_sweep_task},
    {"collect", "DIR", "Write a sweep's results as a tidy CSV (one row per job).",
     "Columns: job_id, status (ok, failed, pending), bench, size, config, sched, fetch,\n"
     "every parameter of the spec, then the chosen statistics (counters and derived\n"
     "metrics, exactly as the runs wrote them).  Rows in the spec's job order.\n",
     1, 1, collect_opts, cli_cmd_collect},
    {"report", "DIR", "Write a self-contained HTML report of a sweep (SVG plots and tables).",
     "Plots the speedup of every configuration over its baseline per benchmark with\n"
     "the geometric mean, the stall breakdown normalized to the baseline, and tables of\n"
     "cycles, IPC, speedup, barrier stall fraction and RTRU per benchmark.\n",
     1, 1, report_opts, cli_cmd_report},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct cli_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: warpsim [--version] [--help] COMMAND [ARGS] [OPTIONS]\n\n"
	             "warpsim is a cycle-level SIMT GPU simulator for warp-scheduling research.\n\n"
	             "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-13s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "  %-13s %s\n", "help", "Print this help, or the help of one command.");
	fprintf(out, "\nRun 'warpsim help COMMAND' or 'warpsim COMMAND --help' for details.\n"
	             "Exit status: 0 success, 1 the work failed, 2 bad command line.\n");
}

/* `warpsim cuda [OPTIONS] PROGRAM ARGS...`: the program's own arguments are
 * not warpsim's options even without "--".  Returns a copy of words with
 * "--" inserted before the first positional word (NULL if there is none, or
 * "--" is already there, or out of memory: then words are parsed as given). */
static char **end_options_at_program(const struct cli_cmd *cmd, int n, char **words)
{
	int i = 0;
	while (i < n) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0)
			return NULL;
		if (w[0] != '-' || w[1] == '\0')
			break; /* the program */
		const char *name = w + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		int takes_value = 0;
		for (const struct cli_opt *o = cmd->opts; w[1] == '-' && o->name; o++)
			if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
				takes_value = o->metavar && !eq;
		i += takes_value ? 2 : 1;
	}
	if (i >= n)
		return NULL;
	char **out = malloc((size_t)(n + 2) * sizeof *out);
	if (!out)
		return NULL;
	memcpy(out, words, (size_t)i * sizeof *out);
	out[i] = (char *)"--";
	memcpy(out + i + 1, words + i, (size_t)(n - i) * sizeof *out);
	out[n + 1] = NULL;
	return out;
}

/* A sweep's job is exec'd through /proc/self/exe (cmd_sweep.c), which names
 * the process "exe"; give it its program's name back for ps, top and pkill. */
static void name_process(const char *argv0)
{
	char comm[16] = {0};
	if (prctl(PR_GET_NAME, comm) != 0 || strcmp(comm, "exe") != 0 || !argv0)
		return;
	const char *b = strrchr(argv0, '/');
	b = b ? b + 1 : argv0;
	if (*b)
		prctl(PR_SET_NAME, b);
}

int main(int argc, char **argv)
{
	name_process(argc > 0 ? argv[0] : NULL);
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	const char *w = argv[1];
	int rc;
	if (strcmp(w, "--version") == 0 || strcmp(w, "--help") == 0 || strcmp(w, "-h") == 0) {
		if (argc > 2)
			return cli_usage_error(NULL, "unexpected argument '%s' after %s", argv[2], w);
		if (w[2] == 'v')
			printf("warpsim %s\n", CLI_VERSION);
		else
			usage(stdout);
		rc = CLI_EXIT_OK;
	} else if (strcmp(w, "help") == 0) {
		if (argc > 3)
			return cli_usage_error(NULL, "unexpected argument '%s' (usage: warpsim help [COMMAND])",
			                       argv[3]);
		if (argc == 2) {
			usage(stdout);
		} else if (strcmp(argv[2], "help") == 0) {
			printf("usage: warpsim help [COMMAND]\n\nPrint the list of commands, or the help of COMMAND "
			       "(the same as 'warpsim COMMAND --help').\n");
		} else {
			const struct cli_cmd *cmd = find_command(argv[2]);
			if (!cmd)
				return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
			cli_print_cmd_help(cmd, stdout);
		}
		rc = CLI_EXIT_OK;
	} else if (w[0] == '-') {
		return cli_usage_error(NULL, "unknown option '%s'", w);
	} else {
		const struct cli_cmd *cmd = find_command(w);
		if (!cmd)
			return cli_usage_error(NULL, "unknown command '%s'", w);
		struct cli_args a;
		char **words = argv + 2;
		int nwords = argc - 2;
		char **program_argv = NULL;
		if (cmd->fn == cli_cmd_cuda && (program_argv = end_options_at_program(cmd, nwords, words))) {
			words = program_argv;
			nwords++;
		}
		rc = cli_args_parse(cmd, nwords, words, &a);
		if (rc < 0)
			rc = CLI_EXIT_OK; /* --help */
		else if (rc == CLI_EXIT_OK) {
			rc = cmd->fn(&a);
			cli_args_free(&a);
		}
		free(program_argv);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "warpsim: error: writing standard output failed\n");
		if (rc == CLI_EXIT_OK)
			rc = CLI_EXIT_FAIL;
	}
	return rc;
}
