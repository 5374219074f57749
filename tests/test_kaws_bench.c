/*
 * test_kaws_bench.c -- the KAWS paper's workloads that have their own
 * benchmark directories (bpt, mriq, qrg, conv3d, resnet): every kaws-suite
 * name resolves, each new benchmark is labelled with the paper, and its
 * verification can fail -- run at tiny size on PTX with one instruction
 * or constant deliberately broken, it must report WS_ERROR_VERIFY_FAILED
 * with a message naming the wrong element.  (Passing at tiny size under
 * every configuration and policy is covered by test_bench.c's config
 * suites and the golden statistics.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "test.h"

/* A copy of ptx with the first (last if `last`) occurrence of `from` replaced by `to`; NULL if absent. */
static char *kb_patch(const char *ptx, const char *from, const char *to, int last)
{
	const char *at = strstr(ptx, from);
	if (!at)
		return NULL;
	if (last)
		for (const char *n; (n = strstr(at + 1, from)) != NULL;)
			at = n;
	size_t pre = (size_t)(at - ptx), fl = strlen(from), tl = strlen(to), rest = strlen(at + fl);
	char *s = malloc(pre + tl + rest + 1);
	if (!s)
		return NULL;
	memcpy(s, ptx, pre);
	memcpy(s + pre, to, tl);
	memcpy(s + pre + tl, at + fl, rest + 1);
	return s;
}

static void kb_expect_fail(struct test_ctx *t, const char *name, const char *from, const char *to, int last,
                           const char *want)
{
	const struct ws_bench_info *bi = ws_bench_find(name);
	CHECK_MSG(bi != NULL, "%s missing from ws_bench_table", name);
	if (!bi)
		return;
	char *bad = kb_patch(bi->ptx, from, to, last);
	CHECK_MSG(bad != NULL, "%s PTX has no '%s' (regenerated? update this test)", name, from);
	if (!bad)
		return;
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim = NULL;
	ws_result r = cfg ? wsSimCreate(&sim, cfg) : WS_ERROR_OUT_OF_MEMORY;
	wsConfigDestroy(cfg);
	CHECK_MSG(r == WS_SUCCESS, "wsSimCreate: %s", wsGetErrorName(r));
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	ws_module *mod = NULL;
	if (r == WS_SUCCESS) {
		r = wsModuleLoadData(sim, &mod, bad, name);
		CHECK_MSG(r == WS_SUCCESS, "%s: broken PTX does not load: %s", name, wsSimLastError(sim));
	}
	if (r == WS_SUCCESS) {
		r = ws_bench_run(bi, sim, mod, WS_SIZE_TINY, &out);
		CHECK_MSG(r == WS_ERROR_VERIFY_FAILED, "%s with '%s' -> '%s': expected WS_ERROR_VERIFY_FAILED, got %s: %s",
		          name, from, to, wsGetErrorName(r), out.msg);
		CHECK_STR_CONTAINS(out.msg, want);
		CHECK_STR_CONTAINS(out.msg, "expected");
		wsModuleUnload(mod);
	}
	if (sim)
		wsSimDestroy(sim);
	free(bad);
}

TEST(kaws_bench_suite_complete)
{
	const char *const *s = ws_bench_suite("kaws");
	CHECK(s != NULL);
	int n = 0;
	for (; s && s[n]; n++) {
		const struct ws_bench_info *bi = ws_bench_find(s[n]);
		CHECK_MSG(bi != NULL, "kaws suite names '%s', which is not built", s[n]);
		if (bi)
			CHECK_MSG(strstr(bi->paper, "KAWS") != NULL, "%s: paper '%s' lacks KAWS", s[n], bi->paper);
	}
	CHECK_EQ(n, 9);
}

TEST(kaws_bench_verification_fails)
{
	/* the 3x3x3 filter's centre weight 2.0 becomes 1.0 */
	kb_expect_fail(t, "conv3d", "0f40000000", "0f3F800000", 0, "conv3d: B[");
	/* 2 pi becomes pi in the first phase */
	kb_expect_fail(t, "mriq", "0f40C90FDB", "0f40490FDB", 0, "mriq: Q");
	/* the Sobol XOR becomes OR */
	kb_expect_fail(t, "qrg", "xor.b32", "or.b32", 0, "qrg: point");
	/* the first conv layer's ReLU becomes min(0, x) */
	kb_expect_fail(t, "resnet", "max.f32", "min.f32", 0, "resnet: layer 0 (conv)");
	/* bpt_findrange's count = upper - lower becomes upper + lower */
	kb_expect_fail(t, "bpt", "sub.s32", "add.s32", 1, "bpt: count[");
}
