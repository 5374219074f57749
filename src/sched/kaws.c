/*
 * kaws.c -- KAWS: the kernel-aware warp scheduler (ka.c) coordinated with
 * the warp-sharing control unit (warp_sharing.c), the KAWS paper's
 * complete proposal.  The order is KA's; `warp_sharing` makes the issue
 * stage share stalled warps between schedulers whatever the warp_sharing
 * parameter says (sched=kaws is sched=ka with warp_sharing=1).
 */
#include "sched/ka.h"

WS_POLICY(kaws, 120) = {
	.event_driven = true,
	.name = "kaws",
	.description = "KAWS: kernel-aware scheduling (ka) plus warp sharing between schedulers (warp_sharing=1)",
	.warp_sharing = true,
	.create = sched_ka_create,
	.destroy = sched_ka_destroy,
	.order = sched_ka_order,
	.on_kernel_event = sched_ka_on_kernel_event,
};
