#!/usr/bin/env bash
# Instructions executed by `benchlint check` on one folder of the bench corpora, counted by
# valgrind's cachegrind: the same count on every run, however busy the machine, so two binaries
# (a change and the code before it) compare to a fraction of a percent where wall times on a
# shared 2-core machine move by a tenth. It counts work, not time: a change that saves cache
# misses or waiting shows only in the bench (benches/bench.sh).
#
# Usage: benches/instructions.sh [FORMAT] [BINARY...]
#   FORMAT   a `check --format` (default json)
#   BINARY   binaries to compare (default: target/release/benchlint, built first)
# Environment:
#   BENCH_DIR  where benches/bench.sh wrote its corpora (default /tmp/benchlint-bench); the
#              first folder (973 results) of the 10,000-file clean and heavy corpora is counted
# Needs: valgrind, and the corpora of `benches/bench.sh 10000`.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/benchlint-bench}
format=${1:-json}
shift || true
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  cargo build --release --quiet
  bins=(target/release/benchlint)
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
for corpus in clean heavy; do
  folder=$work/$corpus-10000/d000
  [ -d "$folder" ] || { echo "$folder is missing: run benches/bench.sh 10000 first" >&2; exit 1; }
  for bin in "${bins[@]}"; do
    count=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
      "$bin" check "$folder" --config "$work/list-all.toml" --exit-zero --format "$format" \
      2>&1 >/dev/null | awk '/I *refs/ {print $NF}')
    printf '%-6s %-10s %-40s %s instructions\n' "$corpus" "$format" "$bin" "$count"
  done
done
