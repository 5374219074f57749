#!/usr/bin/env bash
# setup.sh -- install what warpsim needs to build and test on Debian/Ubuntu:
# a C compiler, GNU Make, clang (sanitizer and fuzzer builds) and the
# libclang runtime.  Does nothing when everything is already present.
set -euo pipefail
need=()
command -v make  >/dev/null 2>&1 || need+=(make)
command -v gcc   >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v clang >/dev/null 2>&1 || need+=(clang)
if command -v clang >/dev/null 2>&1; then
  # libFuzzer and the sanitizer runtimes come with libclang-rt-*-dev (clang >= 14 on Debian 12)
  v=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
  if ! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long n){return 0;}' |
       clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    need+=("libclang-rt-${v}-dev")
  fi
fi
if [ ${#need[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "setup: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
