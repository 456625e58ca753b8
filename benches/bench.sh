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

# Peak RSS (KB) and wall seconds of one command, from GNU time.
measure() {
  local label=$1; shift
  local out
  /usr/bin/time -o "$work/time.txt" -f "%e %M" "$@" >/dev/null 2>&1 || true
  out=$(tail -n 1 "$work/time.txt")
  printf '%-28s %8s s %10s KB\n' "$label" "${out% *}" "${out#* }"
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
  measure "check (mixed)" "$bin" check --format json --exit-zero "$mixed"
  measure "parse-only (mixed)" target/release/examples/parse_only "$mixed"
  measure "check (canonical)" "$bin" check --format json --exit-zero "$canon"
  measure "parse-only (canonical)" target/release/examples/parse_only "$canon"
  measure "cat (canonical)" sh -c "find '$canon' -name '*.json' -print0 | xargs -0 cat"
  if [ "$n" -le 10000 ]; then
    files=$(find "$canon" -name '*.json' | sort)
    if [ -x "$work/venv/bin/check-jsonschema" ]; then
      # shellcheck disable=SC2086
      measure "check-jsonschema" "$work/venv/bin/check-jsonschema" --schemafile schemas/result.schema.json $files
    fi
    if [ -x "$work/npm/node_modules/.bin/ajv" ]; then
      measure "ajv-cli" "$work/npm/node_modules/.bin/ajv" validate --spec=draft2020 -c ajv-formats -s schemas/result.schema.json -d "$canon/**/*.json" --errors=no
    fi
    if [ -x "$work/npm/node_modules/.bin/jsonschema" ]; then
      measure "sourcemeta jsonschema" "$work/npm/node_modules/.bin/jsonschema" validate schemas/result.schema.json "$canon"
    fi
  fi
done
