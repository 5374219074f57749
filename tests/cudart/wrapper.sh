#!/bin/sh
# wrapper.sh -- a wrapper script, as installations put in front of a program:
# it changes the directory and runs the real program (bin/vecadd beside it)
# as its child with its own arguments, then reports its exit status.
# `warpsim cuda -- tests/cudart/wrapper.sh 500` runs vecadd on the simulator
# (tests/test_cudart.c, cudart_wrapper_script).
bin=$(cd "$(dirname "$0")/bin" && pwd) || exit 1
cd / || exit 1
"$bin/vecadd" "$@"
status=$?
echo "wrapper: vecadd exited $status"
exit $status
