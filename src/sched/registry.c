/*
 * registry.c -- the table of warp-scheduling and fetch policies, by name.
 *
 * Models no hardware.  Every policy lives in its own file under src/sched/
 * and is listed here once; the simulator, `warpsim policies` and config
 * validation look policies up by the names below (docs/policies.md
 * describes each one).  To add a policy: define
 * `const struct sched_policy sched_NAME` (or `fetch_NAME`) in its file,
 * declare it here and append it to the list.
 */
#include <string.h>

#include "sched/sched.h"

extern const struct sched_policy sched_lrr;
extern const struct sched_policy sched_gto;
extern const struct sched_policy sched_tls;
extern const struct sched_policy sched_gto_rotate;
extern const struct sched_policy sched_mwf_lrr;
extern const struct sched_policy sched_mwf_gto;
extern const struct sched_policy sched_saws;

extern const struct fetch_policy fetch_rr;
extern const struct fetch_policy fetch_cff;
extern const struct fetch_policy fetch_fef;

const struct sched_policy *const sched_policies[] = {
	&sched_lrr,
	&sched_gto,
	&sched_tls,
	&sched_gto_rotate,
	&sched_mwf_lrr,
	&sched_mwf_gto,
	&sched_saws,
	NULL,
};

const struct fetch_policy *const fetch_policies[] = {
	&fetch_rr,
	&fetch_cff,
	&fetch_fef,
	NULL,
};

const struct sched_policy *sched_policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; sched_policies[i]; i++)
		if (strcmp(sched_policies[i]->name, name) == 0)
			return sched_policies[i];
	return NULL;
}

const struct fetch_policy *fetch_policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; fetch_policies[i]; i++)
		if (strcmp(fetch_policies[i]->name, name) == 0)
			return fetch_policies[i];
	return NULL;
}
