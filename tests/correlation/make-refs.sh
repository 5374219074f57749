#!/usr/bin/env bash
# make-refs.sh -- GPGPU-Sim reference runs of bundled benchmarks for `warpsim correlate`
# (docs/correlation.md says how GPGPU-Sim is built and run; each config directory's README
# says which GPGPU-Sim configuration, overrides and size its runs used).
#
#   tests/correlation/make-refs.sh DIR GSIM_CFG WARPSIM_CFG SIZE "EXTRA OPTIONS" BENCH...
#     DIR          tests/correlation/DIR/BENCH_POLICY/gpgpusim-out.txt is written, POLICY lrr and gto
#     GSIM_CFG     a directory of GPGPU-Sim's configs/tested-cfgs (SM6_TITANX, ...)
#     WARPSIM_CFG  the configs/WARPSIM_CFG.cfg compared (the host program answers its
#                  configuration queries for it, as `warpsim correlate --config` does)
#     SIZE         tiny | small | paper
#     EXTRA        GPGPU-Sim options appended to its gpgpusim.config (a later option wins);
#                  -gpgpu_scheduler lrr|gto is appended after them
# env: GPGPUSIM_ROOT (the directory ../shared/tools/gpgpusim/rebuild.sh built; required),
#      GPGPUSIM_TOOLS (default /work/shared/tools/gpgpusim: its run.sh),
#      RUN_TIMEOUT (seconds per run, default 900), FORCE=1 (redo existing references),
#      POWER=XML: AccelWattch on (-power_simulation_enabled 1 with GPGPU-Sim's XML file of the
#      config directory, e.g. accelwattch_ptx_sim.xml): each reference also gets
#      accelwattch.txt, the per-kernel average power and its components (scripts/energy-compare.py
#      compares them with warpsim's energy estimate).  A reference that exists is rerun for its
#      power only when it lacks accelwattch.txt, and the rerun must give the same cycles.
# Needs build/cuda-hosts/BENCH (make cuda-hosts).  One GPGPU-Sim at a time, niced; an
# existing reference is kept (resumable).  Machine paths in the output become <path>.
# DIR/BENCH_POLICY/size names SIZE (warpsim correlate runs that size).
# A run is kept only when the benchmark printed its verification PASS; its wall time is
# appended to DIR/wall.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 6 ] || { sed -n '2,20p' "$0"; exit 2; }
dir=$1 gcfg=$2 wcfg=$3 size=$4 extra=$5
shift 5
root=${GPGPUSIM_ROOT:?set GPGPUSIM_ROOT to the directory rebuild.sh built}
tools=${GPGPUSIM_TOOLS:-/work/shared/tools/gpgpusim}
out=tests/correlation/$dir
mkdir -p "$out"
for b in "$@"; do
	[ -x build/cuda-hosts/$b ] || { echo "make-refs.sh: build/cuda-hosts/$b missing (make cuda-hosts)" >&2; exit 1; }
	for p in lrr gto; do
		ref=$out/${b}_$p/gpgpusim-out.txt
		power=()
		if [ -n "${POWER:-}" ]; then
			power=(-power_simulation_enabled 1 -power_simulation_mode 0 -accelwattch_xml_file "$POWER")
			[ -f "$out/${b}_$p/accelwattch.txt" ] && [ -z "${FORCE:-}" ] && { echo "$b $p: power kept"; continue; }
		else
			[ -f "$ref" ] && [ -z "${FORCE:-}" ] && { echo "$b $p: kept"; continue; }
		fi
		run=$(mktemp -d /tmp/make-refs.XXXXXX)
		echo "$b $p: running in $run"
		rc=0
		GPGPUSIM_ROOT=$root WARPSIM_HOST_CONFIG=$wcfg timeout "${RUN_TIMEOUT:-900}" nice -n 10 \
			"$tools/run.sh" "$gcfg" "$run" "$extra ${power[*]} -gpgpu_scheduler $p" "$PWD/build/cuda-hosts/$b" "$size" || rc=$?
		if [ $rc -ne 0 ] || ! grep -q "verification: PASSED" "$run/out.txt"; then
			echo "make-refs.sh: $b $p: rc $rc or no PASS; output kept in $run" >&2
			continue
		fi
		mkdir -p "$out/${b}_$p"
		if [ -n "${POWER:-}" ]; then
			# the kernels' average power sections only (the maximum/minimum ones are per sample)
			awk '/^kernel_name/ || /^kernel_launch_uid/ { print; next } /^Kernel Average Power Data/ { on = 1 }
			     /^Kernel (Maximum|Minimum) Power Data/ || /^Accumulative/ { on = 0 } on' \
				"$run/accelwattch_power_report.log" > "$out/${b}_$p/accelwattch.txt"
			if [ -f "$ref" ] && [ -z "${FORCE:-}" ]; then
				# the power model does not change the timing: the kept reference's cycles must be these
				if [ "$(grep '^gpu_sim_cycle' "$ref")" != "$(grep '^gpu_sim_cycle' "$run/out.txt")" ]; then
					echo "make-refs.sh: $b $p: the power run's cycles differ from $ref; output kept in $run" >&2
					rm -f "$out/${b}_$p/accelwattch.txt"
					continue
				fi
				echo "$b $p: power added"
				rm -rf "$run"
				continue
			fi
		fi
		sed -e "s#$root#<path>#g; s#$run#<path>#g; s#$PWD#<path>#g" "$run/out.txt" > "$ref.tmp"
		mv "$ref.tmp" "$ref"
		echo "$size" > "$out/${b}_$p/size"
		echo "$b $p $size $(cat "$run/wall.txt") s" >> "$out/wall.txt"
		rm -rf "$run"
	done
done
