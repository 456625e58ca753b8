#!/usr/bin/env bash
# The performance bench: generates corpora of 1,000, 10,000 and 100,000 files, and times
# `benchlint check` against the parse-only floor, `cat` (the I/O floor) and the schema-only
# validators users would otherwise reach for, on the same canonical files and the same schema.
#
# Usage: benches/bench.sh [SIZES...]        (default: 1000 10000 100000)
# Needs: the Rust toolchain; python3 with pip and node with npm for the validators (installed
# into /tmp by this script; skipped with a message when unavailable).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
work=${BENCH_DIR:-/tmp/benchlint-bench}
mkdir -p "$work"

cargo build --release --quiet
cargo build --release --quiet --example gen_corpus --example parse_only
bin=target/release/benchlint

# Wall seconds and peak RSS of one command, from GNU time, with files/s and MB/s over the
# corpus being measured ($files files, $mb MB). The wall time is kept in $last for the ratios.
measure() {
  local label=$1; shift
  local wall rss
  /usr/bin/time -o "$work/time.txt" -f "%e %M" "$@" >/dev/null 2>&1 || true
  read -r wall rss < <(tail -n 1 "$work/time.txt")
  last=$wall
  awk -v l="$label" -v w="$wall" -v r="$rss" -v n="$files" -v m="$mb" 'BEGIN {
    s = (w > 0) ? w : 0.001
    printf "%-24s %8.2f s %9.0f files/s %7.1f MB/s %8.0f MB peak\n", l, w, n / s, m / s, r / 1024 }'
}

# "a is N x b", from two wall times.
ratio() {
  awk -v a="$2" -v b="$3" -v l="$1" 'BEGIN { if (a > 0 && b > 0) printf "  %-40s %6.2fx\n", l, a / b }'
}

tools() {
  if [ ! -x "$work/venv/bin/check-jsonschema" ] && command -v python3 >/dev/null; then
    python3 -m venv "$work/venv" && "$work/venv/bin/pip" install --quiet check-jsonschema || true
  fi
  if [ ! -x "$work/npm/node_modules/.bin/ajv" ] && command -v npm >/dev/null; then
    mkdir -p "$work/npm" && (cd "$work/npm" && npm install --silent --no-audit --no-fund ajv-cli ajv-formats @sourcemeta/jsonschema >/dev/null 2>&1) || true
  fi
}
tools

for n in "${sizes[@]}"; do
  mixed="$work/mixed-$n"; canon="$work/canonical-$n"
  [ -d "$mixed" ] || target/release/examples/gen_corpus "$mixed" "$n" 42 >/dev/null
  [ -d "$canon" ] || target/release/examples/gen_corpus "$canon" "$n" 42 --canonical-only >/dev/null
  echo "== $n files: mixed $(du -sm "$mixed" | cut -f1) MB, canonical $(du -sm "$canon" | cut -f1) MB"
  files=$(find "$mixed" -type f | wc -l); mb=$(du -sm "$mixed" | cut -f1)
  measure "check (mixed)" "$bin" check --format json --exit-zero "$mixed"; check_mixed=$last
  measure "parse-only (mixed)" target/release/examples/parse_only "$mixed"; parse_mixed=$last
  files=$(find "$canon" -type f | wc -l); mb=$(du -sm "$canon" | cut -f1)
  measure "check (canonical)" "$bin" check --format json --exit-zero "$canon"; check_canon=$last
  measure "parse-only (canonical)" target/release/examples/parse_only "$canon"; parse_canon=$last
  measure "cat (canonical)" sh -c "find '$canon' -name '*.json' -print0 | xargs -0 cat"
  echo "  ratios:"
  ratio "check / parse-only (mixed)" "$check_mixed" "$parse_mixed"
  ratio "check / parse-only (canonical)" "$check_canon" "$parse_canon"
  if [ "$n" -le 10000 ]; then
    if [ -x "$work/venv/bin/check-jsonschema" ]; then
      # One process for the whole corpus, as a user would run it (the file list fits argv).
      mapfile -t list < <(find "$canon" -name '*.json' | sort)
      measure "check-jsonschema" "$work/venv/bin/check-jsonschema" --schemafile schemas/result.schema.json "${list[@]}"
      ratio "check-jsonschema / check (canonical)" "$last" "$check_canon"
    fi
    if [ -x "$work/npm/node_modules/.bin/ajv" ]; then
      measure "ajv-cli" "$work/npm/node_modules/.bin/ajv" validate --spec=draft2020 -c ajv-formats -s schemas/result.schema.json -d "$canon/**/*.json" --errors=no
      ratio "ajv-cli / check (canonical)" "$last" "$check_canon"
    fi
    if [ -x "$work/npm/node_modules/.bin/jsonschema" ]; then
      measure "sourcemeta jsonschema" "$work/npm/node_modules/.bin/jsonschema" validate schemas/result.schema.json "$canon"
      ratio "sourcemeta / check (canonical)" "$last" "$check_canon"
    fi
  fi
done
