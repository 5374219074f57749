/*
 * ka.h -- the kernel-aware (KA) warp scheduler's operations, shared by ka
 * (ka.c) and kaws (kaws.c, KA plus the warp-sharing control unit).
 */
#ifndef WARPSIM_SCHED_KA_H
#define WARPSIM_SCHED_KA_H

#include "sched/sched.h"

void *sched_ka_create(const struct sched_create_args *a);
void sched_ka_destroy(void *st);
uint32_t sched_ka_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order);
void sched_ka_on_kernel_event(void *st, const struct sched_view *v, enum sched_kernel_event ev);

#endif
