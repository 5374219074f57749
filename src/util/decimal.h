/*
 * decimal.h -- a whole decimal number from an environment variable's text.
 *
 * Models no hardware.  The one parser of the numeric WARPSIM_* variables
 * (WARPSIM_PTX_MAX_MB in gpu/runtime.c, WARPSIM_THREADS_SPIN_US in
 * gpu/par.c, WARPSIM_PTXAS_TIMEOUT_S in ptx/regs.c): digits only -- no sign,
 * space or suffix -- so that "-4", " 2" or "10us" are refused, not read as
 * something else; each caller names its variable and range in its message.
 */
#ifndef WARPSIM_UTIL_DECIMAL_H
#define WARPSIM_UTIL_DECIMAL_H

#include <stdbool.h>

/* s as a whole decimal number into *v, which stops growing once it passes
 * max (so any value above max reads as a value above max, without
 * overflow).  False when s is empty or holds anything but digits. */
static inline bool util_decimal(const char *s, unsigned long max, unsigned long *v)
{
	const char *d = s;
	*v = 0;
	for (; *d >= '0' && *d <= '9'; d++)
		*v = *v > max ? *v : *v * 10 + (unsigned long)(*d - '0');
	return d != s && !*d;
}

#endif
