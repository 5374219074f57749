/*
 * cmd_report.c -- `warpsim report DIR`: a self-contained HTML page (inline
 * CSS and SVG; no scripts, fonts or anything else from the network) with the
 * standard plots of a sweep: speedup over a baseline configuration per
 * benchmark with the geometric mean, the stall breakdown normalized to the
 * baseline, and per-benchmark tables.
 *
 * Models no hardware.  A "configuration" is one combination of the values
 * of every column that varies across the sweep's jobs other than the
 * benchmark (policies, config file, size, parameters).  The baseline
 * selector (`baseline` line of the spec or --baseline k=v,...) names values
 * of some of those columns; the baseline of a configuration is the one with
 * the selector's values in those columns and its own values elsewhere.  The
 * page is deterministic: the same results give the same bytes.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep_spec.h"

struct rconf {
	char **vals;  /* value of each varying column */
	char *label;
	int is_base;  /* matches the baseline selector */
	int base;     /* index of its baseline configuration, -1 if none */
	char color[8]; /* "#rrggbb" */
};

struct report {
	struct sweep_table t;
	int *vary;   /* indexes of the varying columns (not bench) */
	int nvary;
	struct rconf *conf;
	int nconf;
	char **bench;
	int nbench;
	int *cell;   /* cell[b * nconf + c] = row index or -1 */
	int *row_conf;
	char **stalls; /* stall_* counter names */
	int nstalls;
	struct sweep_kv *sel;
	int nsel;
	int ipc; /* speedup = IPC / baseline IPC (else baseline cycles / cycles) */
};

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2",
                                      "#edc948", "#ff9da7", "#9c755f", "#bab0ac", "#1f4e79", "#8c564b"};
#define NPALETTE (int)(sizeof palette / sizeof palette[0])

static const char *stall_color(const char *name, int i)
{
	static const char *const known[][2] = {
	    {"stall_data", "#4e79a7"},    {"stall_fetch", "#f28e2b"},   {"stall_structural", "#76b7b2"},
	    {"stall_control", "#b07aa1"}, {"stall_barrier", "#e15759"}, {"stall_exit", "#9c755f"},
	    {"stall_idle", "#bab0ac"},    {"stall_held", "#edc948"},
	};
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
		if (strcmp(known[k][0], name) == 0)
			return known[k][1];
	return palette[(i + 6) % NPALETTE];
}

/* ---- HTML helpers ---- */

static void esc(struct sweep_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sweep_buf_add(b, "&amp;", 5); break;
		case '<': sweep_buf_add(b, "&lt;", 4); break;
		case '>': sweep_buf_add(b, "&gt;", 4); break;
		case '"': sweep_buf_add(b, "&quot;", 6); break;
		default: sweep_buf_add(b, s, 1);
		}
	}
}

static void fmt_int(char *buf, size_t sz, double v)
{
	char raw[64];
	sweep_fmt(raw, sizeof raw, "%.0f", v);
	size_t l = strlen(raw), o = 0;
	for (size_t i = 0; i < l && o + 2 < sz; i++) {
		if (i && (l - i) % 3 == 0 && raw[i - 1] != '-')
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
}

/* A statistic of a row as a number; NAN if absent. */
static double stat(const struct report *R, int row, const char *name)
{
	if (row < 0)
		return NAN;
	const struct json *v = sweep_row_stat(&R->t.rows[row], name);
	return v && v->type == JSON_NUMBER ? v->num : NAN;
}

static double speedup(const struct report *R, int b, int c)
{
	const struct rconf *cf = &R->conf[c];
	if (cf->base < 0)
		return NAN;
	const char *m = R->ipc ? "ipc" : "cycles";
	double base = stat(R, R->cell[b * R->nconf + cf->base], m);
	double mine = stat(R, R->cell[b * R->nconf + c], m);
	if (!(base > 0) || !(mine > 0))
		return NAN;
	return R->ipc ? mine / base : base / mine;
}

static double nice_step(double range, int want)
{
	double raw = range / want;
	if (!(raw > 0))
		return 1;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	double step = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
	return step * mag;
}

static void fmt_tick(char *buf, size_t sz, double v, double step)
{
	int dec = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
	if (dec == 1 && fabs(step * 10 - round(step * 10)) > 1e-9)
		dec = 2;
	sweep_fmt(buf, sz, "%.*f", dec, v);
}

/* ---- building the model of the page ---- */

static const char *cell_val(const struct report *R, int row, int col) { return R->t.rows[row].cols[col]; }

static char *config_label(const struct report *R, char **vals)
{
	struct sweep_buf b = {0};
	sweep_buf_add(&b, "", 0);
	int isched = sweep_table_col(&R->t, "sched"), ifetch = sweep_table_col(&R->t, "fetch");
	int vs = -1, vf = -1;
	for (int k = 0; k < R->nvary; k++) {
		if (R->vary[k] == isched)
			vs = k;
		if (R->vary[k] == ifetch)
			vf = k;
	}
	if (vs >= 0 || vf >= 0) {
		/* the policies as SCHED+FETCH; their constant part is taken from any row */
		const char *s = vs >= 0 ? vals[vs] : cell_val(R, 0, isched);
		const char *f = vf >= 0 ? vals[vf] : cell_val(R, 0, ifetch);
		sweep_buf_printf(&b, "%s+%s", s, f);
	}
	for (int k = 0; k < R->nvary; k++) {
		if (k == vs || k == vf)
			continue;
		const char *name = R->t.cols[R->vary[k]], *v = vals[k];
		if (b.n)
			sweep_buf_add(&b, ", ", 2);
		if (strcmp(name, "config") == 0) {
			const char *base = strrchr(v, '/');
			base = base ? base + 1 : v;
			size_t l = strlen(base);
			if (l > 4 && strcmp(base + l - 4, ".cfg") == 0)
				l -= 4;
			sweep_buf_printf(&b, "%.*s", (int)l, base);
		} else if (strcmp(name, "size") == 0) {
			sweep_buf_printf(&b, "%s", v);
		} else {
			sweep_buf_printf(&b, "%s=%s", name, v[0] ? v : "(default)");
		}
	}
	if (!b.n)
		sweep_buf_printf(&b, "all jobs");
	return b.s;
}

/* Colors: when the innermost varying column (the last in expansion order)
 * has 2 or 3 values and the rest form at most 10 combinations, one hue per
 * combination of the others and one shade per inner value (e.g. a policy
 * with and without CFF); else one palette color per configuration. */
static void assign_colors(struct report *R)
{
	static const unsigned char hues[][3] = {{0x4e, 0x79, 0xa7}, {0xe1, 0x57, 0x59}, {0x59, 0xa1, 0x4f},
	                                        {0xf2, 0x8e, 0x2b}, {0xb0, 0x7a, 0xa1}, {0x76, 0xb7, 0xb2},
	                                        {0x9c, 0x75, 0x5f}, {0xed, 0xc9, 0x48}, {0x1f, 0x4e, 0x79},
	                                        {0x8c, 0x56, 0x4b}};
	int inner = R->nvary - 1, ninner = 0, nouter = 0;
	const char *iv[4];
	int outer_of[4096], inner_of[4096];
	int grouped = inner >= 0 && R->nconf <= 4096;
	for (int c = 0; grouped && c < R->nconf; c++) {
		int k = 0;
		while (k < ninner && strcmp(iv[k], R->conf[c].vals[inner]) != 0)
			k++;
		if (k == ninner) {
			if (ninner == 3) {
				grouped = 0;
				break;
			}
			iv[ninner++] = R->conf[c].vals[inner];
		}
		inner_of[c] = k;
		int o = -1;
		for (int d = 0; d < c && o < 0; d++) {
			int same = 1;
			for (int q = 0; q < inner && same; q++)
				same = strcmp(R->conf[c].vals[q], R->conf[d].vals[q]) == 0;
			if (same)
				o = outer_of[d];
		}
		outer_of[c] = o >= 0 ? o : nouter++;
	}
	if (ninner < 2 || nouter > 10 || nouter < 2)
		grouped = 0;
	static const double light[4][3] = {{0, 0, 0}, {0, 0, 0}, {0.5, 0, 0}, {0.6, 0.3, 0}};
	for (int c = 0; c < R->nconf; c++) {
		if (!grouped) {
			snprintf(R->conf[c].color, sizeof R->conf[c].color, "%s", palette[c % NPALETTE]);
			continue;
		}
		const unsigned char *h = hues[outer_of[c] % 10];
		double m = light[ninner][inner_of[c]];
		snprintf(R->conf[c].color, sizeof R->conf[c].color, "#%02x%02x%02x", (unsigned)(h[0] + (255 - h[0]) * m),
		         (unsigned)(h[1] + (255 - h[1]) * m), (unsigned)(h[2] + (255 - h[2]) * m));
	}
}

static int find_conf(const struct report *R, char **vals)
{
	for (int c = 0; c < R->nconf; c++) {
		int same = 1;
		for (int k = 0; k < R->nvary && same; k++)
			same = strcmp(R->conf[c].vals[k], vals[k]) == 0;
		if (same)
			return c;
	}
	return -1;
}

static void report_free(struct report *R)
{
	for (int c = 0; c < R->nconf; c++) {
		free(R->conf[c].vals);
		free(R->conf[c].label);
	}
	free(R->conf);
	free(R->vary);
	free(R->bench);
	free(R->cell);
	free(R->row_conf);
	sweep_free_strv(R->stalls, R->nstalls);
	for (int i = 0; i < R->nsel; i++) {
		free(R->sel[i].key);
		free(R->sel[i].value);
	}
	free(R->sel);
	sweep_table_free(&R->t);
}

/* Parse "k=v,k=v" / "k=v k=v" into R->sel.  0, or -1 with err. */
static int parse_selector(struct report *R, const char *text, char *err, size_t errsz)
{
	char *copy = sweep_strdup(text ? text : "");
	if (!copy)
		return sweep_fmt(err, errsz, "out of memory"), -1;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1]) {
			sweep_fmt(err, errsz, "baseline '%s': expected KEY=VALUE", tok);
			free(copy);
			return -1;
		}
		*eq = '\0';
		int col = sweep_table_col(&R->t, tok);
		if (col < 0 || strcmp(tok, "bench") == 0) {
			sweep_fmt(err, errsz, "baseline: '%s' is not a column of the sweep other than bench", tok);
			free(copy);
			return -1;
		}
		struct sweep_kv *ns = realloc(R->sel, (size_t)(R->nsel + 1) * sizeof *ns);
		if (!ns) {
			free(copy);
			return sweep_fmt(err, errsz, "out of memory"), -1;
		}
		R->sel = ns;
		ns[R->nsel].key = sweep_strdup(tok);
		ns[R->nsel].value = sweep_strdup(eq + 1);
		R->nsel++;
	}
	free(copy);
	return 0;
}

static int build(struct report *R, const char *baseline, char *err, size_t errsz)
{
	struct sweep_table *t = &R->t;
	if (t->nrows == 0)
		return sweep_fmt(err, errsz, "the sweep has no jobs"), -1;
	int ib = sweep_table_col(t, "bench");
	R->vary = calloc((size_t)t->ncols, sizeof *R->vary);
	R->bench = calloc((size_t)t->nrows, sizeof *R->bench);
	R->conf = calloc((size_t)t->nrows, sizeof *R->conf);
	R->row_conf = calloc((size_t)t->nrows, sizeof *R->row_conf);
	if (!R->vary || !R->bench || !R->conf || !R->row_conf)
		return sweep_fmt(err, errsz, "out of memory"), -1;
	for (int c = 0; c < t->ncols; c++) {
		if (c == ib)
			continue;
		int varies = 0;
		for (int r = 1; r < t->nrows && !varies; r++)
			varies = strcmp(t->rows[r].cols[c], t->rows[0].cols[c]) != 0;
		if (varies)
			R->vary[R->nvary++] = c;
	}
	for (int r = 0; r < t->nrows; r++) {
		const char *b = t->rows[r].cols[ib];
		int found = 0;
		for (int k = 0; k < R->nbench && !found; k++)
			found = strcmp(R->bench[k], b) == 0;
		if (!found)
			R->bench[R->nbench++] = t->rows[r].cols[ib];
		char **vals = calloc((size_t)R->nvary + 1, sizeof *vals);
		if (!vals)
			return sweep_fmt(err, errsz, "out of memory"), -1;
		for (int k = 0; k < R->nvary; k++)
			vals[k] = t->rows[r].cols[R->vary[k]];
		int c = find_conf(R, vals);
		if (c < 0) {
			c = R->nconf++;
			R->conf[c].vals = vals;
		} else {
			free(vals);
		}
		R->row_conf[r] = c;
	}
	for (int c = 0; c < R->nconf; c++)
		if (!(R->conf[c].label = config_label(R, R->conf[c].vals)))
			return sweep_fmt(err, errsz, "out of memory"), -1;
	assign_colors(R);
	R->cell = malloc((size_t)R->nbench * (size_t)R->nconf * sizeof *R->cell);
	if (!R->cell)
		return sweep_fmt(err, errsz, "out of memory"), -1;
	for (int i = 0; i < R->nbench * R->nconf; i++)
		R->cell[i] = -1;
	for (int r = 0; r < t->nrows; r++)
		for (int b = 0; b < R->nbench; b++)
			if (strcmp(R->bench[b], t->rows[r].cols[ib]) == 0)
				R->cell[b * R->nconf + R->row_conf[r]] = r;
	/* the baseline: the selector, or the first configuration */
	if (parse_selector(R, baseline, err, errsz))
		return -1;
	if (R->nsel == 0) {
		for (int k = 0; k < R->nvary; k++) {
			struct sweep_kv *ns = realloc(R->sel, (size_t)(R->nsel + 1) * sizeof *ns);
			if (!ns)
				return sweep_fmt(err, errsz, "out of memory"), -1;
			R->sel = ns;
			ns[R->nsel].key = sweep_strdup(t->cols[R->vary[k]]);
			ns[R->nsel].value = sweep_strdup(R->conf[0].vals[k]);
			R->nsel++;
		}
	}
	int nbase = 0;
	for (int c = 0; c < R->nconf; c++) {
		char **target = calloc((size_t)R->nvary + 1, sizeof *target);
		if (!target)
			return sweep_fmt(err, errsz, "out of memory"), -1;
		int is_base = 1, possible = 1;
		for (int k = 0; k < R->nvary; k++)
			target[k] = R->conf[c].vals[k];
		for (int s = 0; s < R->nsel; s++) {
			int col = sweep_table_col(t, R->sel[s].key);
			int k = -1;
			for (int q = 0; q < R->nvary; q++)
				if (R->vary[q] == col)
					k = q;
			if (k < 0) { /* a constant column: must agree */
				if (strcmp(t->rows[0].cols[col], R->sel[s].value) != 0)
					possible = 0;
				continue;
			}
			if (strcmp(target[k], R->sel[s].value) != 0)
				is_base = 0;
			target[k] = R->sel[s].value;
		}
		R->conf[c].is_base = is_base && possible;
		R->conf[c].base = possible ? find_conf(R, target) : -1;
		nbase += R->conf[c].is_base;
		free(target);
	}
	if (nbase == 0) {
		struct sweep_buf b = {0};
		for (int s = 0; s < R->nsel; s++)
			sweep_buf_printf(&b, "%s%s=%s", s ? "," : "", R->sel[s].key, R->sel[s].value);
		sweep_fmt(err, errsz, "baseline '%s' matches no configuration of the sweep", b.s ? b.s : "");
		sweep_buf_free(&b);
		return -1;
	}
	/* stall counters, in the simulator's order */
	for (int r = 0; r < t->nrows && !R->nstalls; r++) {
		const struct json *st = t->rows[r].result ? json_get(t->rows[r].result, "stats") : NULL;
		for (int k = 0; st && st->type == JSON_OBJECT && k < st->n; k++)
			if (strncmp(st->keys[k], "stall_", 6) == 0) {
				char **ns = realloc(R->stalls, (size_t)(R->nstalls + 1) * sizeof *ns);
				if (!ns)
					return sweep_fmt(err, errsz, "out of memory"), -1;
				R->stalls = ns;
				ns[R->nstalls++] = sweep_strdup(st->keys[k]);
			}
	}
	return 0;
}

/* ---- charts ---- */

static void legend(struct sweep_buf *b, const struct report *R, int only_non_base)
{
	sweep_buf_printf(b, "<div class=\"legend\">");
	for (int c = 0; c < R->nconf; c++) {
		if (only_non_base && R->conf[c].is_base)
			continue;
		sweep_buf_printf(b, "<span><i style=\"background:%s\"></i>", R->conf[c].color);
		esc(b, R->conf[c].label);
		sweep_buf_printf(b, "</span>");
	}
	sweep_buf_printf(b, "</div>\n");
}

static double geomean_of(const struct report *R, int c, int *count)
{
	double sum = 0;
	int n = 0;
	for (int b = 0; b < R->nbench; b++) {
		double s = speedup(R, b, c);
		if (s > 0) {
			sum += log(s);
			n++;
		}
	}
	*count = n;
	return n ? exp(sum / n) : NAN;
}

static void speedup_chart(struct sweep_buf *b, const struct report *R, double *axis_from)
{
	*axis_from = 0;
	int show[256], ns = 0;
	for (int c = 0; c < R->nconf && ns < 256; c++)
		if (!R->conf[c].is_base && R->conf[c].base >= 0)
			show[ns++] = c;
	if (ns == 0) {
		sweep_buf_printf(b, "<p class=\"note\">Every configuration of the sweep is a baseline configuration: "
		                    "there is no speedup to plot.</p>\n");
		return;
	}
	double ymax = 1.0, ymin = 1.0;
	for (int bi = 0; bi < R->nbench; bi++)
		for (int k = 0; k < ns; k++) {
			double s = speedup(R, bi, show[k]);
			if (s > ymax)
				ymax = s;
			if (s > 0 && s < ymin)
				ymin = s;
		}
	double gm[256];
	int gcount[256];
	for (int k = 0; k < ns; k++) {
		gm[k] = geomean_of(R, show[k], &gcount[k]);
		if (gm[k] > ymax)
			ymax = gm[k];
	}
	/* speedups near 1: the axis starts above 0 (said in the note below the chart) */
	double range = ymax - ymin < 0.05 ? 0.05 : ymax - ymin;
	double ybot = 0, step;
	if (ymin >= 0.5 && ymax <= 2.5) {
		step = nice_step(range * 1.25, 6);
		ybot = floor((ymin - range * 0.12) / step) * step;
		if (ybot < 0)
			ybot = 0;
	} else {
		step = nice_step(ymax * 1.08, 6);
	}
	double ytop = ceil((ymax + range * 0.08) / step) * step;
	if (ytop <= ybot)
		ytop = ybot + step;
	*axis_from = ybot;
	int ngroups = R->nbench + 1;
	double left = 56, right = 16, top = 14, plot_h = 300;
	double plot_w = ngroups * (34.0 * ns + 90);
	if (plot_w > 1180)
		plot_w = 1180;
	double gw = plot_w / ngroups;
	int maxlab = 5;
	for (int bi = 0; bi < R->nbench; bi++)
		if ((int)strlen(R->bench[bi]) > maxlab)
			maxlab = (int)strlen(R->bench[bi]);
	int rotate = maxlab * 7.0 > gw - 4;
	double bottom = rotate ? 14 + maxlab * 5.2 : 34;
	double W = left + plot_w + right, H = top + plot_h + bottom;
	sweep_buf_printf(b,
	                 "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
	                 "style=\"max-width:100%%;height:auto\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
	                 "aria-label=\"speedup over the baseline\">\n",
	                 W, H, W, H);
	/* grid and axis */
#define YPOS(v) (top + plot_h - ((v) - ybot) / (ytop - ybot) * plot_h)
	for (int i = 0;; i++) {
		double y = ybot + i * step;
		if (y > ytop + step * 1e-6)
			break;
		double py = YPOS(y);
		char lab[32];
		fmt_tick(lab, sizeof lab, y, step);
		sweep_buf_printf(b,
		                 "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
		                 "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n",
		                 left, left + plot_w, py, py, left - 6, py + 4, lab);
	}
	double y1 = YPOS(1.0);
	sweep_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"one\"/>\n", left,
	                 left + plot_w, y1, y1);
	sweep_buf_printf(b,
	                 "<text transform=\"translate(14 %.1f) rotate(-90)\" class=\"axis\" text-anchor=\"middle\">"
	                 "speedup (%s)</text>\n",
	                 top + plot_h / 2, R->ipc ? "IPC / baseline IPC" : "baseline cycles / cycles");
	double bw = (gw - 10) / ns;
	if (bw > 30)
		bw = 30;
	int labels = bw >= 20;
	for (int g = 0; g < ngroups; g++) {
		int is_gm = g == R->nbench;
		double gx = left + g * gw, x0 = gx + (gw - bw * ns) / 2;
		if (is_gm)
			sweep_buf_printf(b,
			                 "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"gmband\"/>\n",
			                 gx + 2, top, gw - 4, plot_h);
		for (int k = 0; k < ns; k++) {
			double s = is_gm ? gm[k] : speedup(R, g, show[k]);
			const char *col = R->conf[show[k]].color;
			double x = x0 + k * bw;
			if (!(s > 0)) {
				sweep_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"na\" text-anchor=\"middle\">n/a</text>\n",
				                 x + bw / 2, top + plot_h - 4);
				continue;
			}
			double v = s < ybot ? ybot : s > ytop ? ytop : s;
			double h = YPOS(ybot) - YPOS(v);
			double gap = bw >= 8 ? 1 : 0.5;
			sweep_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
			                 x + gap, top + plot_h - h, bw - 2 * gap, h, col);
			esc(b, is_gm ? "geometric mean" : R->bench[g]);
			sweep_buf_printf(b, ", ");
			esc(b, R->conf[show[k]].label);
			sweep_buf_printf(b, ": %.3fx", s);
			if (is_gm)
				sweep_buf_printf(b, " over %d benchmark%s", gcount[k], gcount[k] == 1 ? "" : "s");
			sweep_buf_printf(b, "</title></rect>\n");
			if (labels || (is_gm && bw >= 14))
				sweep_buf_printf(b,
				                 "<text x=\"%.1f\" y=\"%.1f\" class=\"val\" text-anchor=\"middle\">%.2f</text>\n",
				                 x + bw / 2, top + plot_h - h - 4, s);
			else if (is_gm && bw >= 7)
				sweep_buf_printf(b,
				                 "<text transform=\"translate(%.1f %.1f) rotate(-90)\" class=\"val\">%.3f</text>\n",
				                 x + bw / 2 + 3.5, top + plot_h - h - 4, s);
		}
		const char *name = is_gm ? "gmean" : R->bench[g];
		double lx = gx + gw / 2, ly = top + plot_h + 16;
		if (rotate)
			sweep_buf_printf(b,
			                 "<text transform=\"translate(%.1f %.1f) rotate(-40)\" class=\"%s\" "
			                 "text-anchor=\"end\">",
			                 lx + 4, ly - 4, is_gm ? "xlab gm" : "xlab");
		else
			sweep_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"middle\">", lx, ly,
			                 is_gm ? "xlab gm" : "xlab");
		esc(b, name);
		sweep_buf_printf(b, "</text>\n");
	}
	sweep_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"axisline\"/>\n", left,
	                 left + plot_w, top + plot_h, top + plot_h);
	sweep_buf_printf(b, "</svg>\n");
#undef YPOS
}

/* Normalized stall segments of row r over its baseline row's total. */
static double stall_total(const struct report *R, int row)
{
	double sum = 0;
	for (int s = 0; s < R->nstalls; s++) {
		double v = stat(R, row, R->stalls[s]);
		if (v > 0)
			sum += v;
	}
	return sum;
}

static void stall_charts(struct sweep_buf *b, const struct report *R)
{
	if (!R->nstalls) {
		sweep_buf_printf(b, "<p class=\"note\">No stall counters in the results.</p>\n");
		return;
	}
	sweep_buf_printf(b, "<div class=\"legend\">");
	for (int s = 0; s < R->nstalls; s++) {
		sweep_buf_printf(b, "<span><i style=\"background:%s\"></i>", stall_color(R->stalls[s], s));
		esc(b, R->stalls[s] + 6);
		sweep_buf_printf(b, "</span>");
	}
	sweep_buf_printf(b, "</div>\n");
	int maxlab = 4;
	for (int c = 0; c < R->nconf; c++)
		if ((int)strlen(R->conf[c].label) > maxlab)
			maxlab = (int)strlen(R->conf[c].label);
	double bw = R->nconf > 8 ? 16 : 24, left = 54, top = 24, plot_h = 200;
	double plot_w = R->nconf * (bw + 6) + 10, bottom = 12 + maxlab * 4.6;
	double W = left + plot_w + 8, H = top + plot_h + bottom;
	sweep_buf_printf(b, "<div class=\"panels\">\n");
	for (int bi = 0; bi < R->nbench; bi++) {
		/* each panel has its own scale (one outlier must not flatten the others) */
		double ymax = 1.0;
		for (int c = 0; c < R->nconf; c++) {
			int row = R->cell[bi * R->nconf + c];
			int brow = R->conf[c].base >= 0 ? R->cell[bi * R->nconf + R->conf[c].base] : -1;
			double bt = brow >= 0 ? stall_total(R, brow) : 0;
			if (row >= 0 && bt > 0 && stall_total(R, row) / bt > ymax)
				ymax = stall_total(R, row) / bt;
		}
		double step = nice_step(ymax * 1.05, 5);
		double ytop = ceil(ymax * 1.05 / step) * step;
		sweep_buf_printf(b,
		                 "<svg class=\"panel\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
		                 "xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n"
		                 "<text x=\"%.1f\" y=\"15\" class=\"ptitle\" text-anchor=\"middle\">",
		                 W, H, W, H, left + plot_w / 2);
		esc(b, R->bench[bi]);
		sweep_buf_printf(b, "</text>\n");
		/* y: each stall_* counter of the configuration (scheduler-cycles without
		 * an issue, by reason) over the sum of the baseline's stall_* counters */
		sweep_buf_printf(b,
		                 "<text transform=\"translate(13 %.1f) rotate(-90)\" class=\"ytitle\" "
		                 "text-anchor=\"middle\">stall cycles / baseline's total</text>\n",
		                 top + plot_h / 2);
		for (double y = 0; y <= ytop + step * 1e-6; y += step) {
			double py = top + plot_h - y / ytop * plot_h;
			char lab[32];
			fmt_tick(lab, sizeof lab, y, step);
			sweep_buf_printf(b,
			                 "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
			                 "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n",
			                 left, left + plot_w, py, py, left - 5, py + 4, lab);
		}
		for (int c = 0; c < R->nconf; c++) {
			double x = left + 8 + c * (bw + 6);
			int row = R->cell[bi * R->nconf + c];
			int brow = R->conf[c].base >= 0 ? R->cell[bi * R->nconf + R->conf[c].base] : -1;
			double bt = brow >= 0 ? stall_total(R, brow) : 0;
			if (row >= 0 && R->t.rows[row].result && bt > 0) {
				double y = top + plot_h;
				for (int s = 0; s < R->nstalls; s++) {
					double v = stat(R, row, R->stalls[s]);
					if (!(v > 0))
						continue;
					double h = v / bt / ytop * plot_h;
					y -= h;
					sweep_buf_printf(b,
					                 "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"%s\">"
					                 "<title>",
					                 x, y, bw, h, stall_color(R->stalls[s], s));
					esc(b, R->bench[bi]);
					sweep_buf_printf(b, ", ");
					esc(b, R->conf[c].label);
					sweep_buf_printf(b, ": %s %.3f of the baseline's stalls</title></rect>\n", R->stalls[s] + 6,
					                 v / bt);
				}
				if (R->conf[c].is_base)
					sweep_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"base\" text-anchor=\"middle\">"
					                    "base</text>\n",
					                 x + bw / 2, y - 3);
			} else {
				sweep_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"na\" text-anchor=\"middle\">n/a</text>\n",
				                 x + bw / 2, top + plot_h - 4);
			}
			sweep_buf_printf(b,
			                 "<text transform=\"translate(%.1f %.1f) rotate(-50)\" class=\"clab\" "
			                 "text-anchor=\"end\" fill=\"%s\">",
			                 x + bw / 2 + 3, top + plot_h + 10, "#333");
			esc(b, R->conf[c].label);
			sweep_buf_printf(b, "</text>\n");
		}
		sweep_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"axisline\"/>\n</svg>\n",
		                 left, left + plot_w, top + plot_h, top + plot_h);
	}
	sweep_buf_printf(b, "</div>\n");
}

/* ---- tables ---- */

static void num_cell(struct sweep_buf *b, double v, const char *fmt)
{
	if (isnan(v)) {
		sweep_buf_printf(b, "<td class=\"num na\">&ndash;</td>");
		return;
	}
	char s[64];
	if (!fmt)
		fmt_int(s, sizeof s, v);
	else
		sweep_fmt(s, sizeof s, fmt, v);
	sweep_buf_printf(b, "<td class=\"num\">%s</td>", s);
}

static void summary_table(struct sweep_buf *b, const struct report *R)
{
	sweep_buf_printf(b, "<table class=\"data\"><thead><tr><th>configuration</th><th>baseline</th>"
	                    "<th class=\"num\">gmean speedup</th><th class=\"num\">benchmarks</th>"
	                    "<th class=\"num\">jobs ok</th><th class=\"num\">failed</th></tr></thead><tbody>\n");
	for (int c = 0; c < R->nconf; c++) {
		int ok = 0, failed = 0, cnt;
		for (int bi = 0; bi < R->nbench; bi++) {
			int row = R->cell[bi * R->nconf + c];
			if (row < 0)
				continue;
			ok += R->t.rows[row].status == SWEEP_DONE;
			failed += R->t.rows[row].status == SWEEP_FAILED;
		}
		double g = geomean_of(R, c, &cnt);
		sweep_buf_printf(b, "<tr><td><i class=\"sw\" style=\"background:%s\"></i>",
		                 R->conf[c].color);
		esc(b, R->conf[c].label);
		sweep_buf_printf(b, "</td><td>");
		if (R->conf[c].is_base)
			sweep_buf_printf(b, "<b>baseline</b>");
		else if (R->conf[c].base >= 0)
			esc(b, R->conf[R->conf[c].base].label);
		else
			sweep_buf_printf(b, "none in the sweep");
		sweep_buf_printf(b, "</td>");
		num_cell(b, g, "%.3f");
		sweep_buf_printf(b, "<td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num%s\">%d</td></tr>\n",
		                 cnt, ok, failed ? " bad" : "", failed);
	}
	sweep_buf_printf(b, "</tbody></table>\n");
}

static void bench_tables(struct sweep_buf *b, const struct report *R)
{
	sweep_buf_printf(b, "<div class=\"cards\">\n");
	for (int bi = 0; bi < R->nbench; bi++) {
		sweep_buf_printf(b, "<div class=\"card\"><h3>");
		esc(b, R->bench[bi]);
		sweep_buf_printf(b, "</h3><table class=\"data\"><thead><tr><th>configuration</th><th class=\"num\">cycles</th>"
		                    "<th class=\"num\">IPC</th><th class=\"num\">speedup</th>"
		                    "<th class=\"num\">barrier stall</th><th class=\"num\">RTRU mean</th></tr></thead><tbody>\n");
		for (int c = 0; c < R->nconf; c++) {
			int row = R->cell[bi * R->nconf + c];
			if (row < 0)
				continue;
			const struct sweep_row *r = &R->t.rows[row];
			sweep_buf_printf(b, "<tr%s><td><i class=\"sw\" style=\"background:%s\"></i>",
			                 R->conf[c].is_base ? " class=\"baserow\"" : "", R->conf[c].color);
			esc(b, R->conf[c].label);
			sweep_buf_printf(b, "</td>");
			if (r->status != SWEEP_DONE) {
				sweep_buf_printf(b, "<td colspan=\"5\" class=\"bad\">%s (job %s)</td></tr>\n",
				                 r->status == SWEEP_FAILED    ? "failed"
				                 : r->status == SWEEP_INVALID ? "invalid result"
				                                              : "not run",
				                 r->id);
				continue;
			}
			num_cell(b, stat(R, row, "cycles"), NULL);
			num_cell(b, stat(R, row, "ipc"), "%.2f");
			if (R->conf[c].is_base)
				sweep_buf_printf(b, "<td class=\"num\">1 (base)</td>");
			else
				num_cell(b, speedup(R, bi, c), "%.3f");
			double bsf = stat(R, row, "barrier_stall_fraction");
			num_cell(b, isnan(bsf) ? bsf : 100 * bsf, "%.1f%%");
			num_cell(b, stat(R, row, "rtru_mean"), "%.3f");
			sweep_buf_printf(b, "</tr>\n");
		}
		sweep_buf_printf(b, "</tbody></table></div>\n");
	}
	sweep_buf_printf(b, "</div>\n");
}

static void failed_list(struct sweep_buf *b, const struct report *R, const char *dir)
{
	int n = 0;
	for (int r = 0; r < R->t.nrows; r++)
		n += R->t.rows[r].status != SWEEP_DONE;
	if (!n)
		return;
	sweep_buf_printf(b, "<h2>Jobs without results</h2>\n<table class=\"data\"><thead><tr><th>job</th><th>"
	                    "description</th><th>status</th><th>log</th></tr></thead><tbody>\n");
	for (int r = 0; r < R->t.nrows; r++) {
		const struct sweep_row *row = &R->t.rows[r];
		if (row->status == SWEEP_DONE)
			continue;
		char path[PATH_MAX + 64];
		sweep_job_path(path, sizeof path, dir, row->id, "failed");
		char *text = row->status == SWEEP_FAILED ? sweep_read_file(path, NULL) : NULL;
		const char *status = row->status == SWEEP_FAILED    ? "failed"
		                     : row->status == SWEEP_INVALID ? "invalid result (not collected)"
		                                                    : "not run",
		           *reason = "", *log = "";
		char *save = NULL;
		if (text)
			for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
				if (strncmp(l, "status=", 7) == 0)
					status = l + 7;
				else if (strncmp(l, "reason=", 7) == 0)
					reason = l + 7;
				else if (strncmp(l, "log=", 4) == 0)
					log = l + 4;
			}
		sweep_buf_printf(b, "<tr><td><code>%s</code></td><td>", row->id);
		esc(b, row->desc);
		sweep_buf_printf(b, "</td><td class=\"bad\">");
		esc(b, status);
		if (reason[0]) {
			sweep_buf_printf(b, ": ");
			esc(b, reason);
		}
		sweep_buf_printf(b, "</td><td><code>");
		esc(b, log);
		sweep_buf_printf(b, "</code></td></tr>\n");
		free(text);
	}
	sweep_buf_printf(b, "</tbody></table>\n");
}

static const char *const css =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;"
    "color:#222;background:#f6f7f9;margin:0}\n"
    "main{max-width:1320px;margin:0 auto;padding:24px 32px 48px}\n"
    "h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;padding-bottom:4px;"
    "border-bottom:1px solid #dde1e6}h3{font-size:15px;margin:0 0 8px}\n"
    ".meta{color:#555;margin:0 0 8px}.meta b{color:#222}.note{color:#666;font-style:italic}\n"
    "section{background:#fff;border:1px solid #e3e6ea;border-radius:8px;padding:16px 20px;margin-top:12px;"
    "overflow-x:auto}\n"
    ".legend{display:flex;flex-wrap:wrap;gap:6px 18px;margin:4px 0 10px;font-size:13px}\n"
    ".legend i,.sw{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px;"
    "vertical-align:-1px}\n"
    "svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;fill:#333}\n"
    ".grid{stroke:#e6e8eb;stroke-width:1}.axisline{stroke:#888;stroke-width:1}\n"
    ".one{stroke:#333;stroke-width:1.2;stroke-dasharray:5 4}\n"
    ".tick{font-size:11px;fill:#666}.axis{font-size:12px;fill:#444}.xlab{font-size:12px}\n"
    ".gm{font-weight:700}.gmband{fill:#f2f4f7}.val{font-size:10px;fill:#333}.na{font-size:9px;fill:#aaa}\n"
    ".ptitle{font-size:13px;font-weight:600}.clab{font-size:10px}.base{font-size:9px;fill:#666}\n"
    ".ytitle{font-size:11px;fill:#444}\n"
    ".panels{display:flex;flex-wrap:wrap;gap:8px 14px}\n"
    ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:14px}\n"
    ".card{border:1px solid #e3e6ea;border-radius:6px;padding:10px 12px;background:#fff}\n"
    "table.data{border-collapse:collapse;font-size:13px;width:100%}\n"
    "table.data th{text-align:left;font-weight:600;color:#444;border-bottom:2px solid #d5d9de;padding:4px 8px;"
    "white-space:nowrap}\n"
    "table.data th.num{text-align:right}h1 code{font-size:22px}\n"
    "table.data td{border-bottom:1px solid #eceef1;padding:3px 8px}\n"
    "table.data tbody tr:nth-child(even){background:#fafbfc}\n"
    ".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    ".baserow td{font-weight:600}.bad{color:#b3261e}\n"
    "code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\n"
    "pre{background:#f3f4f6;padding:10px;border-radius:6px;overflow-x:auto;font-size:12px}\n"
    "footer{color:#888;font-size:12px;margin-top:32px}\n";

int cli_cmd_report(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	const char *dir = a->pos[0];
	struct report R;
	memset(&R, 0, sizeof R);
	char err[1200];
	if (sweep_table_load(dir, &R.t, err, sizeof err))
		return cli_fail(cmd, "%s", err);
	const char *bopt = cli_opt_get(a, "baseline");
	const char *mopt = cli_opt_get(a, "metric");
	char *minfo = mopt ? NULL : sweep_info_get(dir, "metric");
	const char *metric = mopt ? mopt : minfo && minfo[0] ? minfo : "cycles";
	if (strcmp(metric, "cycles") && strcmp(metric, "ipc")) {
		free(minfo);
		sweep_table_free(&R.t);
		return mopt ? cli_usage_error(cmd, "--metric '%s': expected cycles or ipc", mopt)
		            : cli_fail(cmd, "%s/sweep.info: unknown metric '%s'", dir, metric);
	}
	R.ipc = metric[0] == 'i';
	free(minfo);
	char *binfo = bopt ? NULL : sweep_info_get(dir, "baseline");
	int rc = build(&R, bopt ? bopt : binfo, err, sizeof err);
	free(binfo);
	if (rc) {
		report_free(&R);
		return bopt ? cli_usage_error(cmd, "%s", err) : cli_fail(cmd, "%s", err);
	}
	int ok = 0, failed = 0, pending = 0;
	for (int r = 0; r < R.t.nrows; r++) {
		ok += R.t.rows[r].status == SWEEP_DONE;
		failed += R.t.rows[r].status == SWEEP_FAILED;
		pending += R.t.rows[r].status == SWEEP_PENDING || R.t.rows[r].status == SWEEP_INVALID;
	}
	struct sweep_buf b = {0};
	sweep_buf_printf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	esc(&b, R.t.name);
	sweep_buf_printf(&b, " - warpsim sweep report</title>\n<style>\n%s</style></head>\n<body><main>\n", css);
	sweep_buf_printf(&b, "<h1>Sweep <code>");
	esc(&b, R.t.name);
	sweep_buf_printf(&b, "</code></h1>\n<p class=\"meta\"><b>%d</b> jobs: <b>%d</b> ok, <b%s>%d</b> failed", R.t.nrows,
	                 ok, failed ? " class=\"bad\"" : "", failed);
	if (pending)
		sweep_buf_printf(&b, ", <b>%d</b> not run", pending);
	sweep_buf_printf(&b, " &middot; %d benchmark%s &times; %d configuration%s &middot; baseline: <b>", R.nbench,
	                 R.nbench == 1 ? "" : "s", R.nconf, R.nconf == 1 ? "" : "s");
	for (int s = 0; s < R.nsel; s++) {
		sweep_buf_printf(&b, "%s", s ? ", " : "");
		esc(&b, R.sel[s].key);
		sweep_buf_printf(&b, "=");
		esc(&b, R.sel[s].value);
	}
	if (!R.nsel)
		sweep_buf_printf(&b, "(single configuration)");
	sweep_buf_printf(&b, "</b>");
	char *spec = sweep_info_get(dir, "spec");
	if (spec && spec[0]) {
		sweep_buf_printf(&b, " &middot; spec <code>");
		esc(&b, spec);
		sweep_buf_printf(&b, "</code>");
	}
	free(spec);
	sweep_buf_printf(&b, "</p>\n");
	{
		const char *first = NULL;
		int mixed = 0;
		for (int r = 0; r < R.t.nrows && !mixed; r++) {
			const char *bin = json_get_str(json_get(R.t.rows[r].result, "job"), "binary");
			if (!bin || !bin[0])
				continue;
			if (!first)
				first = bin;
			else
				mixed = strcmp(first, bin) != 0;
		}
		if (mixed)
			sweep_buf_printf(&b, "<p class=\"meta bad\">Warning: the results come from different warpsim "
			                     "binaries (\"binary\" in the jobs' JSON); they may not be comparable.</p>\n");
	}
	/* constant columns, for the record */
	sweep_buf_printf(&b, "<p class=\"meta\">Held constant:");
	int nconst = 0;
	for (int c = 0; c < R.t.ncols; c++) {
		int varies = 0;
		for (int k = 0; k < R.nvary; k++)
			varies |= R.vary[k] == c;
		if (varies || strcmp(R.t.cols[c], "bench") == 0)
			continue;
		sweep_buf_printf(&b, "%s <code>", nconst++ ? "," : "");
		esc(&b, R.t.cols[c]);
		sweep_buf_printf(&b, "=");
		esc(&b, R.t.rows[0].cols[c][0] ? R.t.rows[0].cols[c] : "(built-in defaults)");
		sweep_buf_printf(&b, "</code>");
	}
	sweep_buf_printf(&b, "%s</p>\n", nconst ? "" : " nothing");

	sweep_buf_printf(&b, "<h2>Speedup over the baseline</h2>\n<section>\n");
	legend(&b, &R, 1);
	double axis_from;
	speedup_chart(&b, &R, &axis_from);
	char from[80] = "";
	if (axis_from > 0)
		snprintf(from, sizeof from, " The axis starts at %g, not 0.", axis_from);
	sweep_buf_printf(&b,
	                 "<p class=\"note\">Speedup = %s, per benchmark; gmean is the geometric mean over the "
	                 "benchmarks where both jobs succeeded. The dashed line marks the baseline (1.0).%s</p>\n"
	                 "</section>\n",
	                 R.ipc ? "IPC / IPC of the baseline configuration"
	                       : "cycles of the baseline configuration / cycles",
	                 from);
	sweep_buf_printf(&b, "<h2>Summary</h2>\n<section>\n");
	summary_table(&b, &R);
	sweep_buf_printf(&b, "</section>\n<h2>Stall breakdown</h2>\n<section>\n");
	stall_charts(&b, &R);
	sweep_buf_printf(&b, "<p class=\"note\">Scheduler-cycles without an issue, by reason (stall_* counters), "
	                     "normalized per benchmark to the total stall cycles of the configuration's baseline "
	                     "(marked <i>base</i>, height 1.0).</p>\n</section>\n");
	sweep_buf_printf(&b, "<h2>Per-benchmark results</h2>\n");
	bench_tables(&b, &R);
	failed_list(&b, &R, dir);
	char path[PATH_MAX + 32];
	sweep_fmt(path, sizeof path, "%s/sweep.spec", dir);
	char *text = sweep_read_file(path, NULL);
	if (text) {
		sweep_buf_printf(&b, "<h2>Sweep spec</h2>\n<section><pre>");
		esc(&b, text);
		sweep_buf_printf(&b, "</pre></section>\n");
		free(text);
	}
	sweep_buf_printf(&b, "<footer>Generated by warpsim %s (<code>warpsim report</code>) from ", CLI_VERSION);
	esc(&b, dir);
	sweep_buf_printf(&b, ". Self-contained: no scripts or network resources.</footer>\n</main></body></html>\n");

	char outbuf[PATH_MAX + 32];
	const char *out = cli_opt_get(a, "output");
	if (!out) {
		sweep_fmt(outbuf, sizeof outbuf, "%s/report.html", dir);
		out = outbuf;
	}
	rc = CLI_EXIT_OK;
	if (b.oom)
		rc = cli_fail(cmd, "out of memory");
	else if (strcmp(out, "-") == 0)
		fwrite(b.s, 1, b.n, stdout);
	else if (sweep_write_file_atomic(out, b.s, b.n) != 0)
		rc = cli_fail(cmd, "%s: cannot write: %s", out, strerror(errno));
	else
		printf("wrote %s (%d jobs: %d ok, %d failed, %d not run)\n", out, R.t.nrows, ok, failed, pending);
	sweep_buf_free(&b);
	report_free(&R);
	return rc;
}
