#!/bin/sh
# gen_input.sh N FILE -- the fixture suite's input generator: writes the size N to FILE.
echo "$1" > "$2"
