#!/bin/bash
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the libFuzzer targets of tests/fuzz (see tests/fuzz/README.md).
#
# Usage:
#   tests/fuzz/run-fuzz.sh [--ci | --long] [--seconds N] [--build DIR] [TARGET...]
#       Sets up DIR (default _build_fuzz) with clang, libFuzzer, ASan and UBSan
#       if needed, builds it, and runs each TARGET (default: all, e.g.
#       `marshal pstats`) for N seconds through `meson test --suite fuzz`, two
#       at a time. --ci: 60 s each (the default). --long: 3600 s each, or N.
#       Exit status 0 only if no target crashed, leaked, hung or ran out of
#       memory. Inputs a target found interesting stay in DIR/fuzz-corpus/,
#       crashes in DIR/fuzz-artifacts/<target>/.
#   tests/fuzz/run-fuzz.sh --one EXE TARGET
#       What `meson test` runs for one target: fuzzes it for $FUZZ_SECONDS
#       (default 60) and prints one TAP line with what was tried.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# -max_len per target: a bit above the largest seed, and enough to hold every
# structure the parser knows.
max_len_of () {
  case "$1" in
    interval-name) echo 256 ;;
    job) echo 8192 ;;
    pevents) echo 65536 ;;   # a real timeline seed is 56 KB
    aws-config|aws-credentials|s3-error) echo 8192 ;;
    *) echo 32768 ;;
  esac
}

run_one () {
  local exe="$1" name="$2"
  local build seconds corpus artifacts log
  build="$(cd "$(dirname "$exe")/../.." && pwd)"
  seconds="${FUZZ_SECONDS:-60}"
  corpus="$build/fuzz-corpus/$name"
  artifacts="$build/fuzz-artifacts/$name"
  log="$build/fuzz-logs/$name.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"

  local dict=()
  [ -f "$here/dicts/$name.dict" ] && dict=(-dict="$here/dicts/$name.dict")
  local seeds=()
  for d in "$here/corpus/$name" "$here/regressions/$name"; do
    [ -d "$d" ] && [ -n "$(ls -A "$d")" ] && seeds+=("$d")
  done

  export ASAN_OPTIONS="halt_on_error=1:print_stacktrace=1:detect_leaks=1:${ASAN_OPTIONS_EXTRA:-}"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  export LSAN_OPTIONS="suppressions=$root/.ci/lsan.supp:print_suppressions=0"
  command -v llvm-symbolizer >/dev/null && export ASAN_SYMBOLIZER_PATH="$(command -v llvm-symbolizer)"

  local start end rc
  start=$(date +%s)
  "$exe" "${dict[@]}" \
    -max_total_time="$seconds" -max_len="$(max_len_of "$name")" \
    -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" \
    "$corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  end=$(date +%s)

  local runs new rss
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  new=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  echo "1..1"
  if [ "$rc" -eq 0 ]; then
    echo "ok 1 - fuzz-$name: ${runs:-?} inputs in $((end - start)) s, ${new:-0} new, corpus $(ls "$corpus" | wc -l), peak ${rss:-?} MB"
    return 0
  fi
  echo "not ok 1 - fuzz-$name: libFuzzer exited $rc after ${runs:-?} inputs in $((end - start)) s"
  local crash
  crash=$(ls -t "$artifacts" 2>/dev/null | head -1)
  [ -n "$crash" ] && echo "# input: $artifacts/$crash (copy it to tests/fuzz/regressions/$name/ once fixed)"
  grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|fuzz check failed|SUMMARY:|Timeout|out-of-memory' "$log" \
    | head -8 | sed 's/^/# /'
  echo "# full log: $log"
  return 1
}

if [ "${1:-}" = "--one" ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --one EXE TARGET" >&2; exit 2; }
  run_one "$2" "$3"
  exit $?
fi

build="$root/_build_fuzz"
seconds=60
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) seconds=60 ;;
    --long) seconds=3600 ;;
    --seconds) seconds="$2"; shift ;;
    --build) build="$2"; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done

cd "$root"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized || exit 1
fi
# Only the fuzz targets (and the core they link): the rest of the project is
# built and tested by the other CI steps.
fuzzers=$(meson introspect "$build" --targets | python3 -c '
import json, sys
print(" ".join(t["name"] for t in json.load(sys.stdin) if t["name"].startswith("fuzz-")))')
if [ -z "$fuzzers" ]; then
  echo "run-fuzz.sh: no fuzz targets in $build (set up without -Dfuzzing=true?)" >&2
  exit 1
fi
# shellcheck disable=SC2086
meson compile -C "$build" $fuzzers || exit 1

suites=(--suite fuzz)
if [ ${#targets[@]} -gt 0 ]; then
  suites=()
  for t in "${targets[@]}"; do suites+=("fuzz-${t#fuzz-}"); done
fi
FUZZ_SECONDS="$seconds" meson test -C "$build" --num-processes 2 --print-errorlogs \
  --logbase testlog-fuzz --no-rebuild "${suites[@]}"
