/*
 * cmd_tools.c -- the `warpsim ptx` (load and summarise a PTX file) and
 * `warpsim config` (print the effective configuration or the parameter
 * list) subcommands.
 *
 * Models no hardware.
 */
#include <string.h>

#include "cli.h"

int cli_cmd_ptx(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	const char *path = a->pos[0];
	const char *fname = cli_opt_get(a, "function");
	if (fname && !fname[0])
		return cli_usage_error(cmd, "--function needs a function name");
	ws_config *cfg = wsConfigCreate();
	if (!cfg)
		return cli_fail(cmd, "out of memory");
	ws_sim *sim = NULL;
	ws_result r = wsSimCreate(&sim, cfg);
	wsConfigDestroy(cfg);
	if (r != WS_SUCCESS) {
		if (sim)
			wsSimDestroy(sim);
		return cli_fail(cmd, "cannot create the simulator: %s", wsGetErrorString(r));
	}
	ws_module *mod = NULL;
	r = wsModuleLoad(sim, &mod, path);
	if (r != WS_SUCCESS) {
		const char *detail = wsSimLastError(sim);
		int rc = cli_fail(cmd, "%s: %s", wsGetErrorName(r), detail[0] ? detail : wsGetErrorString(r));
		if (r == WS_ERROR_FILE_NOT_FOUND && !strstr(detail, path))
			fprintf(stderr, "(file: %s)\n", path);
		wsSimDestroy(sim);
		return rc;
	}
	cli_print_module_warnings(cmd, mod);
	int rc = CLI_EXIT_OK;
	if (!fname) {
		wsModulePrintSummary(mod, stdout);
	} else {
		ws_function *fn = NULL;
		if (wsModuleGetFunction(&fn, mod, fname) != WS_SUCCESS) {
			fflush(stdout);
			fprintf(stderr, "warpsim ptx: error: --function %s: %s\n", fname, wsSimLastError(sim));
			rc = CLI_EXIT_USAGE;
		} else {
			int np = wsFunctionParamCount(fn);
			printf("function %s\n", wsFunctionName(fn));
			printf("  parameters: %d\n", np);
			for (int i = 0; i < np; i++) {
				size_t sz = wsFunctionParamSize(fn, i);
				printf("    %d: %zu byte%s\n", i, sz, sz == 1 ? "" : "s");
			}
		}
	}
	wsModuleUnload(mod);
	wsSimDestroy(sim);
	return rc;
}

int cli_cmd_config(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	if (cli_opt_get(a, "list")) {
		if (cli_opt_get(a, "config") || cli_opt_get(a, "set"))
			return cli_usage_error(cmd, "--list cannot be combined with --config or --set");
		wsConfigPrintList(stdout);
		return CLI_EXIT_OK;
	}
	ws_config *cfg;
	int rc = cli_build_config(a, &cfg);
	if (rc)
		return rc;
	wsConfigPrint(cfg, stdout);
	wsConfigDestroy(cfg);
	return CLI_EXIT_OK;
}
