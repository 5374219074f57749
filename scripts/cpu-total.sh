# cpu-total.sh -- sourced by the papers' experiment scripts (scripts/*-experiments.sh):
# at exit, print to stderr the CPU time (user + system) of every process the
# script ran and waited for -- the simulator runs of its sweeps, builds and
# table scripts included -- from bash's `times` (issue 28: each paper's
# experiment script prints its total CPU time).  A resumed sweep counts only
# the runs it executed in this invocation.
#
#   source scripts/cpu-total.sh; cpu_total_at_exit NAME
cpu_total_report() {
	local line tf
	# `times` in this shell (a pipe or $(...) would run it in a subshell, which has no children);
	# its second line is the children's user and system time: "XmY.YYYs XmY.YYYs"
	tf=$(mktemp) || return 0
	times >"$tf"
	line=$(tail -n 1 "$tf")
	rm -f "$tf"
	awk -v name="$1" -v t="$line" 'BEGIN {
		n = split(t, a, " "); s = 0
		for (i = 1; i <= n; i++) { split(a[i], b, "m"); sub("s", "", b[2]); s += b[1] * 60 + b[2] }
		printf "%s: CPU time of everything it ran (user + system): %.1f s\n", name, s > "/dev/stderr"
	}'
}
cpu_total_at_exit() {
	# shellcheck disable=SC2064 # the name is fixed when the trap is set
	trap "cpu_total_report '$1'" EXIT
}
