/*
 * cmd_policies.c -- `warpsim policies`: the registered warp-scheduling
 * (issue) and fetch policies with one-line descriptions.  Models no
 * hardware; the registry is src/sched/registry.c (see docs/policies.md).
 */
#include <stdio.h>

#include "cli.h"

int cli_cmd_policies(const struct cli_args *a)
{
	if (cli_opt_get(a, "names")) { /* issue-policy names on one line, for scripts */
		for (int i = 0; wsSchedPolicyName(i); i++)
			printf("%s%s", i ? " " : "", wsSchedPolicyName(i));
		printf("\n");
		return CLI_EXIT_OK;
	}
	printf("warp-scheduling (issue) policies  (--sched NAME, or --set sched=NAME)\n");
	for (int i = 0; wsSchedPolicyName(i); i++)
		printf("  %-12s %s\n", wsSchedPolicyName(i), wsSchedPolicyDescription(i));
	printf("\nwrappers  (--sched WRAPPER:INNER over any policy above, e.g. bows:gto)\n");
	for (int i = 0; wsSchedWrapperName(i); i++)
		printf("  %-12s %s\n", wsSchedWrapperName(i), wsSchedWrapperDescription(i));
	printf("\nfetch policies  (--fetch NAME, or --set fetch=NAME)\n");
	for (int i = 0; wsFetchPolicyName(i); i++)
		printf("  %-12s %s\n", wsFetchPolicyName(i), wsFetchPolicyDescription(i));
	printf("\nBAWS is --sched mwf-gto --fetch cff; SAWS+CFF is --sched saws --fetch cff (docs/policies.md);\n"
	       "BOWS is --sched bows:gto-rotate (or bows:lrr, bows:cawa; docs/bows.md).\n");
	return CLI_EXIT_OK;
}
