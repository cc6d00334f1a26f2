#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run-fuzzer.sh FUZZER SEED_DIR [SIDE_FILE]: runs a libFuzzer target for
# ${SP_FUZZ_SECONDS:-30} seconds times ${SP_FUZZ_WEIGHT:-1} (the target's
# share, set in meson.build) on a fresh copy of the ${SP_FUZZ_SEEDS:-*.spool}
# files in SEED_DIR (libFuzzer adds inputs to its corpus directory, and the
# vectors must stay as they are). With SIDE_FILE, each seed is also given followed
# by the mark fuzz-profile-open.c splits on and SIDE_FILE. Exits non-zero
# when the fuzzer finds a crash, a leak or a sanitizer report; the input
# that did it is kept, and named.
set -eu

fuzzer=$1
seeds=$2
side_file=${3:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/sp-fuzz.XXXXXX")
mkdir "$work/corpus" "$work/crashes"
# shellcheck disable=SC2086 # the pattern is meant to expand
cp "$seeds"/${SP_FUZZ_SEEDS:-*.spool} "$work/corpus/"
if [ -n "$side_file" ]; then
  for seed in "$seeds"/*.spool; do
    { cat "$seed"; printf '\nSPULSE-SIDE-FILE\n'; cat "$side_file"; } \
      > "$work/corpus/$(basename "$seed" .spool)-with-side-file.spool"
  done
fi

# Undefined behaviour is a failure, not a warning (meson sets these too).
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"

status=0
"$fuzzer" \
  -max_total_time="$(( ${SP_FUZZ_SECONDS:-30} * ${SP_FUZZ_WEIGHT:-1} ))" \
  -timeout=10 \
  -rss_limit_mb=2048 \
  -print_final_stats=1 \
  -artifact_prefix="$work/crashes/" \
  "$work/corpus" || status=$?

if [ "$status" -ne 0 ]; then
  echo "run-fuzzer.sh: $(basename "$fuzzer") failed with status $status;" \
       "its inputs are in $work/crashes" >&2
  exit 1
fi
rm -rf "$work"
