/*
 * devrt.c -- the device runtime functions CUDA code calls: vprintf (what
 * printf compiles to), __assertfail (a failed assert) and malloc/free (the
 * device heap; C++ new and delete lower to them).
 *
 * Models the CUDA device runtime's observable behaviour, not its timing
 * (the call costs what a call costs in the timing model).  printf output is
 * formatted per thread, threads of a warp in lane order, when the call
 * executes, and written to the simulator's printf stream (stdout unless
 * wsSimSetPrintfStream changes it) -- deterministic, like everything else.
 * vprintf(fmt, args): fmt is a generic pointer to the format string, args a
 * generic pointer to a local buffer holding the arguments, each aligned to
 * its size (ints 4 bytes, long/long long/pointers/doubles 8; floats arrive
 * promoted to double), as nvcc lays them out.
 */
#include <stdio.h>
#include <string.h>

#include "func/devrt.h"
#include "func/memop.h"

#define FMT_MAX 1024
#define OUT_MAX 4096

static bool read_string(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane, uint64_t addr,
			char *buf, size_t cap)
{
	size_t n = 0;
	for (; n + 1 < cap; n++) {
		if (!func_read_generic(L, c, w, lane, addr + n, &buf[n], 1))
			return false;
		if (!buf[n])
			return true;
	}
	buf[n] = 0;
	return true;
}

/* Format one thread's printf; returns the number of arguments consumed, -1 on error. */
static int format_one(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane, uint64_t fmt_addr,
		      uint64_t args, char *out, size_t outcap)
{
	char fmt[FMT_MAX];
	if (!fmt_addr)
		return -1;
	if (!read_string(L, c, w, lane, fmt_addr, fmt, sizeof fmt))
		return -2;
	size_t o = 0;
	uint64_t off = 0;
	int nargs = 0;
	for (const char *p = fmt; *p && o + 1 < outcap;) {
		if (*p != '%') {
			out[o++] = *p++;
			continue;
		}
		if (p[1] == '%') {
			out[o++] = '%';
			p += 2;
			continue;
		}
		/* one conversion: %[flags][width][.precision][length]conv */
		char spec[32];
		size_t k = 0;
		spec[k++] = *p++;
		while (*p && strchr("-+ #0", *p) && k < 20)
			spec[k++] = *p++;
		while (*p >= '0' && *p <= '9' && k < 24)
			spec[k++] = *p++;
		if (*p == '.') {
			spec[k++] = *p++;
			while (*p >= '0' && *p <= '9' && k < 28)
				spec[k++] = *p++;
		}
		int longs = 0;
		while (*p && strchr("hlzjtL", *p)) {
			if (*p == 'l' || *p == 'z' || *p == 'j' || *p == 't' || *p == 'L')
				longs++;
			p++;
		}
		char conv = *p ? *p++ : 0;
		char piece[512];
		int n = 0;
		if (strchr("diouxXc", conv) && conv) {
			unsigned sz = longs ? 8 : 4;
			uint64_t v = 0;
			off = (off + sz - 1) / sz * sz;
			if (!func_read_generic(L, c, w, lane, args + off, &v, sz))
				return -2;
			off += sz;
			if (longs) {
				spec[k++] = 'l';
				spec[k++] = 'l';
			}
			spec[k++] = conv;
			spec[k] = 0;
			if (conv == 'd' || conv == 'i')
				n = longs ? snprintf(piece, sizeof piece, spec, (long long)v)
					  : snprintf(piece, sizeof piece, spec, (long long)(int32_t)v);
			else if (conv == 'c')
				n = snprintf(piece, sizeof piece, "%c", (int)(v & 0xff));
			else
				n = snprintf(piece, sizeof piece, spec, longs ? (unsigned long long)v : (unsigned long long)(uint32_t)v);
		} else if (conv && strchr("fFeEgGaA", conv)) {
			double d;
			off = (off + 7) / 8 * 8;
			if (!func_read_generic(L, c, w, lane, args + off, &d, 8))
				return -2;
			off += 8;
			spec[k++] = conv;
			spec[k] = 0;
			n = snprintf(piece, sizeof piece, spec, d);
		} else if (conv == 's' || conv == 'p') {
			uint64_t ptr = 0;
			off = (off + 7) / 8 * 8;
			if (!func_read_generic(L, c, w, lane, args + off, &ptr, 8))
				return -2;
			off += 8;
			if (conv == 'p')
				n = snprintf(piece, sizeof piece, "0x%llx", (unsigned long long)ptr);
			else {
				char str[256];
				if (!ptr)
					snprintf(str, sizeof str, "(null)");
				else if (!read_string(L, c, w, lane, ptr, str, sizeof str))
					return -2;
				spec[k++] = 's';
				spec[k] = 0;
				n = snprintf(piece, sizeof piece, spec, str);
			}
		} else {
			/* unknown conversion: print it literally, consume nothing */
			spec[k++] = conv;
			spec[k] = 0;
			n = snprintf(piece, sizeof piece, "%s", spec);
			nargs--;
		}
		nargs++;
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof piece)
			n = sizeof piece - 1;
		for (int i = 0; i < n && o + 1 < outcap; i++)
			out[o++] = piece[i];
	}
	out[o] = 0;
	return nargs;
}

/* The value of a caller's call-site .param variable for a lane (its first 8 bytes). */
static uint64_t param_value(struct func_launch *L, struct func_warp *w, const struct simt_entry *caller, int32_t var,
			    unsigned lane)
{
	const struct ptx_var *v = &L->mod->vars[var];
	uint64_t val = 0;
	memcpy(&val, w->local + (uint64_t)lane * w->local_cap + caller->local_base + v->addr, v->size < 8 ? v->size : 8);
	return val;
}

bool func_is_builtin(const struct ptx_function *f)
{
	return f->is_extern && (strcmp(f->name, "vprintf") == 0 || strcmp(f->name, "__assertfail") == 0 ||
				strcmp(f->name, "malloc") == 0 || strcmp(f->name, "free") == 0);
}

/* Store v into a caller's call-site .param variable for a lane. */
static void param_store(struct func_warp *w, const struct simt_entry *caller, const struct ptx_var *v, unsigned lane,
			uint64_t val)
{
	memcpy(w->local + (uint64_t)lane * w->local_cap + caller->local_base + v->addr, &val, v->size < 8 ? v->size : 8);
}

/* malloc(size) / free(ptr): the device heap (dmem_heap_alloc), per thread in
 * lane order; malloc returns NULL when the heap (8 MiB unless
 * cudaDeviceSetLimit(cudaLimitMallocHeapSize) / wsSimSetMallocHeapSize
 * changed it) is exhausted, free(NULL) does nothing, and freeing anything
 * but a live heap block is an error. */
static bool heap_call(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct ptx_insn *in,
		      const struct ptx_function *f, uint64_t exec)
{
	const struct simt_entry *caller = &w->stack[w->sp - 1];
	const struct ptx_operand *args = &in->opd[2], *rets = &in->opd[0];
	bool is_malloc = strcmp(f->name, "malloc") == 0;
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(m);
		uint64_t a = args->nlist >= 1 ? param_value(L, w, caller, args->list[0], lane) : 0;
		if (is_malloc) {
			uint64_t p = 0;
			if (dmem_heap_alloc(L->mem, a, &p))
				p = 0;
			if (rets->nlist >= 1)
				param_store(w, caller, &L->mod->vars[rets->list[0]], lane, p);
		} else if (a && dmem_heap_free(L->mem, a)) {
			return func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_ADDRESS,
					 "free(0x%llx): not a block of the device heap (malloc'ed on the device and not "
					 "yet freed)",
					 (unsigned long long)a);
		}
	}
	return true;
}

bool func_call_builtin(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct ptx_insn *in,
		       const struct ptx_function *f, uint64_t exec)
{
	const struct simt_entry *caller = &w->stack[w->sp - 1];
	const struct ptx_operand *args = &in->opd[2], *rets = &in->opd[0];
	if (strcmp(f->name, "malloc") == 0 || strcmp(f->name, "free") == 0)
		return heap_call(L, c, w, in, f, exec);
	if (strcmp(f->name, "__assertfail") == 0) {
		unsigned lane = (unsigned)__builtin_ctzll(exec);
		char msg[256] = "?", file[256] = "?", func[128] = "?";
		if (args->nlist >= 4) {
			read_string(L, c, w, lane, param_value(L, w, caller, args->list[0], lane), msg, sizeof msg);
			read_string(L, c, w, lane, param_value(L, w, caller, args->list[1], lane), file, sizeof file);
			read_string(L, c, w, lane, param_value(L, w, caller, args->list[3], lane), func, sizeof func);
		}
		unsigned line = args->nlist >= 3 ? (unsigned)param_value(L, w, caller, args->list[2], lane) : 0;
		if (L->err == WS_SUCCESS)
			return func_fail(L, c, w, (int)lane, WS_ERROR_TRAP, "assertion '%s' failed in %s, %s:%u", msg, func,
					 file, line);
		return false;
	}
	/* vprintf */
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(m);
		uint64_t fmt = args->nlist >= 1 ? param_value(L, w, caller, args->list[0], lane) : 0;
		uint64_t buf = args->nlist >= 2 ? param_value(L, w, caller, args->list[1], lane) : 0;
		char out[OUT_MAX];
		int r = format_one(L, c, w, lane, fmt, buf, out, sizeof out);
		if (r == -2)
			return false; /* a bad pointer: the error is recorded */
		if (r >= 0 && L->printf_out)
			fputs(out, L->printf_out);
		if (rets->nlist >= 1) {
			const struct ptx_var *v = &L->mod->vars[rets->list[0]];
			int32_t rv = r;
			memcpy(w->local + (uint64_t)lane * w->local_cap + caller->local_base + v->addr, &rv,
			       v->size < 4 ? v->size : 4);
		}
	}
	return true;
}
