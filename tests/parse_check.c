/*
 * parse_check.c -- what the PTX front-end tests share (see parse_check.h).
 */
#include <string.h>

#include "parse_check.h"

struct ptx_module *parse_ok(struct test_ctx *t, const char *src, const char *file, int line)
{
	struct ptx_error e;
	struct ptx_module *m = ptx_parse(src, strlen(src), "t.ptx", &e);
	if (!m)
		test_fail(t, file, line, "parse failed: %u:%u: %s", e.line, e.col, e.msg);
	return m;
}

void parse_err(struct test_ctx *t, const char *src, uint32_t line, uint32_t col, const char *msg, const char *file,
	       int at)
{
	struct ptx_error e;
	struct ptx_module *m = ptx_parse(src, strlen(src), "bad.ptx", &e);
	if (m) {
		test_fail(t, file, at, "parse unexpectedly succeeded (wanted %u:%u: %s)", line, col, msg);
		ptx_module_destroy(m);
		return;
	}
	if (e.line != line || e.col != col || !strstr(e.msg, msg))
		test_fail(t, file, at, "got %u:%u: %s -- wanted %u:%u: ...%s...", e.line, e.col, e.msg, line, col, msg);
	if (strcmp(e.file, "bad.ptx") != 0)
		test_fail(t, file, at, "error file '%s'", e.file);
}

void check_ir(struct test_ctx *t, const struct ptx_module *m, const char *what)
{
	int bad = 0;
#define IRC(c)                                                                                 \
	do {                                                                                   \
		if (!(c) && bad++ < 5)                                                         \
			test_fail(t, __FILE__, __LINE__, "%s: IR invariant %s", what, #c);     \
	} while (0)
	for (uint32_t i = 0; i < m->nvars; i++) {
		const struct ptx_var *v = &m->vars[i];
		IRC(v->name && v->func >= -1 && v->func < (int32_t)m->nfuncs);
		IRC(v->align && !(v->align & (v->align - 1)));
		for (uint32_t k = 0; k < v->ninit_syms; k++) {
			const struct ptx_init_sym *s = &v->init_syms[k];
			IRC((s->sym >= 0) != (s->func >= 0));
			IRC(s->byte_off + s->width <= v->size);
		}
	}
	for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
		const struct ptx_function *f = &m->funcs[fi];
		for (uint32_t k = 0; k < f->nparams; k++)
			IRC(m->vars[f->params[k]].func == (int32_t)fi && m->vars[f->params[k]].space == SPACE_PARAM);
		for (uint32_t i = 0; i < f->ninsns; i++) {
			const struct ptx_insn *in = &f->insns[i];
			IRC(in->op < OP_COUNT && in->nopd <= PTX_MAX_OPDS);
			IRC(in->guard >= -1 && in->guard < (int32_t)f->nregs);
			for (unsigned k = 0; k < in->nopd; k++) {
				const struct ptx_operand *o = &in->opd[k];
				if (o->kind == OPD_REG)
					IRC(o->reg >= 0 && o->reg < (int32_t)f->nregs && o->reg2 < (int32_t)f->nregs);
				if (o->kind == OPD_SINK)
					IRC(o->reg2 >= -1 && o->reg2 < (int32_t)f->nregs);
				if (o->kind == OPD_SYM || (o->kind == OPD_ADDR && o->abase == ABASE_SYM))
					IRC(o->sym >= 0 && o->sym < (int32_t)m->nvars);
				if (o->kind == OPD_ADDR && o->abase == ABASE_REG)
					IRC(o->reg >= 0 && o->reg < (int32_t)f->nregs);
				if (o->kind == OPD_FUNC)
					IRC(o->func >= 0 && o->func < (int32_t)m->nfuncs);
				if (o->kind == OPD_LABEL && in->op != OP_CALL)
					IRC(o->target >= 0 && o->target <= (int32_t)f->ninsns);
				if (o->kind == OPD_VEC)
					for (unsigned e = 0; e < o->nelem; e++)
						if (o->elem[e].kind == OPD_REG)
							IRC(o->elem[e].reg >= 0 && o->elem[e].reg < (int32_t)f->nregs);
				if (o->kind == OPD_LIST)
					for (uint32_t e = 0; e < o->nlist; e++)
						IRC(in->op == OP_BRX ? o->list[e] >= 0 && o->list[e] <= (int32_t)f->ninsns
								     : o->list[e] >= 0 && o->list[e] < (int32_t)m->nvars);
			}
		}
	}
#undef IRC
}
