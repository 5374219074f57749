/* cutil.h -- warpsim's stand-in for the utility header of the old CUDA SDK
 * (NVIDIA GPU Computing SDK 2.x-4.x "cutil"), which the ISPASS-2009 programs
 * that GPGPU-Sim ships include and which no CUDA toolkit has carried since
 * CUDA 5.  scripts/suites.sh puts this directory on the include path so those
 * programs build unmodified with today's nvcc.  Only what they call is here:
 * the error-checking macros and the host timers.  Our own code, written from
 * the calls' documented meaning (a CUDA error or a cutil failure prints the
 * file and line and exits with status 1; a timer measures host wall time in
 * milliseconds); no SDK code. */
#ifndef WARPSIM_SUITES_CUTIL_H
#define WARPSIM_SUITES_CUTIL_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef enum { CUTFalse = 0, CUTTrue = 1 } CUTBoolean;

#define CUDA_SAFE_CALL_NO_SYNC(call)                                                   \
	do {                                                                           \
		cudaError_t cutil_err_ = (call);                                       \
		if (cutil_err_ != cudaSuccess) {                                       \
			fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n",  \
				__FILE__, __LINE__, cudaGetErrorString(cutil_err_));   \
			exit(EXIT_FAILURE);                                            \
		}                                                                      \
	} while (0)

#define CUDA_SAFE_CALL(call)                                                           \
	do {                                                                           \
		CUDA_SAFE_CALL_NO_SYNC(call);                                          \
		CUDA_SAFE_CALL_NO_SYNC(cudaDeviceSynchronize());                       \
	} while (0)

#define CUT_SAFE_CALL(call)                                                            \
	do {                                                                           \
		if ((call) != CUTTrue) {                                               \
			fprintf(stderr, "Cut error in file '%s' in line %i.\n",        \
				__FILE__, __LINE__);                                   \
			exit(EXIT_FAILURE);                                            \
		}                                                                      \
	} while (0)

#define CUT_CHECK_ERROR(msg)                                                           \
	do {                                                                           \
		cudaError_t cutil_err_ = cudaGetLastError();                           \
		if (cutil_err_ == cudaSuccess)                                         \
			cutil_err_ = cudaDeviceSynchronize();                          \
		if (cutil_err_ != cudaSuccess) {                                       \
			fprintf(stderr, "Cuda error: %s in file '%s' in line %i : %s.\n", \
				(msg), __FILE__, __LINE__, cudaGetErrorString(cutil_err_)); \
			exit(EXIT_FAILURE);                                            \
		}                                                                      \
	} while (0)

/* Host timers: a small fixed table, as a program makes a few. */
#define CUTIL_TIMERS 32
struct cutil_timer_ {
	int used, running;
	double start_ms, total_ms;
};
static struct cutil_timer_ cutil_timers_[CUTIL_TIMERS];

static inline double cutil_now_ms_(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline struct cutil_timer_ *cutil_timer_get_(unsigned int t)
{
	return t < CUTIL_TIMERS && cutil_timers_[t].used ? &cutil_timers_[t] : NULL;
}

static inline CUTBoolean cutCreateTimer(unsigned int *name)
{
	for (unsigned int i = 0; i < CUTIL_TIMERS; i++)
		if (!cutil_timers_[i].used) {
			cutil_timers_[i].used = 1;
			cutil_timers_[i].running = 0;
			cutil_timers_[i].total_ms = 0;
			*name = i;
			return CUTTrue;
		}
	return CUTFalse;
}

static inline CUTBoolean cutDeleteTimer(unsigned int name)
{
	struct cutil_timer_ *t = cutil_timer_get_(name);
	if (!t)
		return CUTFalse;
	t->used = 0;
	return CUTTrue;
}

static inline CUTBoolean cutStartTimer(unsigned int name)
{
	struct cutil_timer_ *t = cutil_timer_get_(name);
	if (!t)
		return CUTFalse;
	t->running = 1;
	t->start_ms = cutil_now_ms_();
	return CUTTrue;
}

static inline CUTBoolean cutStopTimer(unsigned int name)
{
	struct cutil_timer_ *t = cutil_timer_get_(name);
	if (!t)
		return CUTFalse;
	if (t->running)
		t->total_ms += cutil_now_ms_() - t->start_ms;
	t->running = 0;
	return CUTTrue;
}

static inline CUTBoolean cutResetTimer(unsigned int name)
{
	struct cutil_timer_ *t = cutil_timer_get_(name);
	if (!t)
		return CUTFalse;
	t->total_ms = 0;
	if (t->running)
		t->start_ms = cutil_now_ms_();
	return CUTTrue;
}

/* Milliseconds measured so far, the running interval included. */
static inline float cutGetTimerValue(unsigned int name)
{
	struct cutil_timer_ *t = cutil_timer_get_(name);
	if (!t)
		return 0.0f;
	double ms = t->total_ms;
	if (t->running)
		ms += cutil_now_ms_() - t->start_ms;
	return (float)ms;
}

#endif
