/*
 * slurm.h -- running a sweep's jobs through Slurm (`warpsim sweep --slurm`):
 * job-array scripts, submission with sbatch, waiting with squeue, and
 * collecting the results from the sweep directory.
 *
 * Models no hardware.  Slurm is used only through its commands (sbatch,
 * squeue, scontrol), run with fork/exec; no accounting database is needed,
 * because completion is read from the sweep's own result files.  The jobs
 * of one array task (--pack K of them) run in `warpsim sweep-task`, on
 * $SLURM_CPUS_PER_TASK workers.  Arrays larger than the cluster's
 * MaxArraySize (`scontrol show config`) are split.  See docs/sweeps.md.
 */
#ifndef WARPSIM_CLI_SLURM_H
#define WARPSIM_CLI_SLURM_H

#include "sweep_spec.h"

struct slurm_opts {
	const char *partition, *time; /* sbatch --partition / --time (NULL: cluster default) */
	int pack;                     /* jobs per array task */
	int cpus;                     /* --cpus-per-task: workers inside a task */
	const char **sbatch_args;     /* extra sbatch arguments, passed as given */
	int nsbatch_args;
	double poll;                  /* seconds between squeue polls */
	int no_wait, quiet, skip_failed;
};

struct slurm_result {
	int ok, failed;     /* jobs of this submission that finished / failed */
	int interrupted;    /* signal that stopped the wait (the Slurm jobs keep running) */
	int submitted_only; /* --no-wait: submitted, not waited for */
};

/* Submit every job of s in dir that has no result, wait, record jobs that
 * left no result as failed.  0, or -1 after printing an error. */
int slurm_run(const char *dir, const struct sweep_spec *s, const struct slurm_opts *o, struct slurm_result *r);

/* Run argv[0] (looked up in PATH) with argv; capture its standard output and
 * error (malloc'd, NUL-terminated; either pointer may be NULL to discard).
 * Killed after timeout_s seconds.  Returns its exit status, 127 when it
 * could not be executed, or -1 on timeout or another failure. */
int slurm_exec(char *const argv[], char **out, char **err, double timeout_s);

/* MaxArraySize from `scontrol show config`.  0, or -1 with the reason in err. */
int slurm_max_array_size(long *out, char *err, size_t errsz);

#endif
