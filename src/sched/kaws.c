/*
 * kaws.c -- KAWS: the kernel-aware warp scheduler (ka.c) coordinated with
 * the warp-sharing control unit (warp_sharing.c), the KAWS paper's
 * complete proposal.  The order is KA's; the policy presets the issue
 * stage's warp_sharing parameter to 1 whatever the configuration says
 * (sched=kaws is sched=ka with warp_sharing=1; the warp-sharing unit is
 * the issue stage's, not the policy's).
 */
#include "sched/ka.h"

WS_POLICY(kaws, 120) = {
	.name = "kaws",
	.description = "KAWS: kernel-aware scheduling (ka) plus warp sharing between schedulers (warp_sharing=1)",
	.presets = (const struct sched_preset[]){{"warp_sharing", 1}, {NULL, 0}},
	.create = sched_ka_create,
	.destroy = sched_ka_destroy,
	.order = sched_ka_order,
	.on_kernel_event = sched_ka_on_kernel_event,
};
