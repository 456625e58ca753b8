#!/usr/bin/env bash
# The performance bench: for each corpus size, side by side in one run, it times
# `benchlint check` against ajv-cli (the schema alone), the parse-only floor and `cat` (the I/O
# floor), and prints the DESIGN.md targets with PASS or MISS:
#
# - clean corpus (complete, replicated canonical results with per-request samples; `check`
#   finds nothing): `check` at least 3x faster than ajv-cli;
# - findings-heavy corpus (the same results with about 25 findings a file): `check` in every
#   output format no slower than ajv-cli on that corpus;
# - peak RSS of `check` at the largest size at most 1.5x that at the smallest.
#
# A mixed corpus (half canonical, half the formats real harnesses write) measures `check`
# against parse-only, so the adapters are measured too.
#
# Usage: benches/bench.sh [SIZES...]        (default: 10000 100000)
# Environment:
#   BENCH_DIR     where corpora and tools go (default /tmp/benchlint-bench)
#   BENCH_REPEAT  runs of each timed command; the median is reported (default 3)
#   BENCH_ALL_FORMATS_UP_TO  every output format and the mixed corpus up to this many files;
#                 past it only `check --format json` on the clean and heavy corpora, for the
#                 memory rows (default 10000)
#   BENCH_SLOW_VALIDATORS=1  also time check-jsonschema and sourcemeta jsonschema on the clean
#                 corpus, up to 10,000 files (check-jsonschema takes minutes there)
# Needs: the Rust toolchain, GNU time; node with npm for ajv-cli (installed into BENCH_DIR;
# skipped with a message when unavailable); python3 with pip for check-jsonschema.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)
mapfile -t sizes < <(printf '%s\n' "${sizes[@]}" | sort -n)
work=${BENCH_DIR:-/tmp/benchlint-bench}
repeat=${BENCH_REPEAT:-3}
slow=${BENCH_SLOW_VALIDATORS:-0}
all_formats_up_to=${BENCH_ALL_FORMATS_UP_TO:-10000}
mkdir -p "$work"

cargo build --release --quiet
cargo build --release --quiet --example gen_corpus --example parse_only
bin=target/release/benchlint
schema=schemas/result.schema.json
formats=(json)
help=$("$bin" check --help)
# Every finding listed: the default run cap (100,000 findings) would cut the heavy corpus's
# 250,000 at 10,000 files and leave most of the writing untimed.
printf '[thresholds]\nmax_findings = 100000000\n' >"$work/list-all.toml"
all=(--config "$work/list-all.toml")
[[ $help == *json-lines* ]] && formats+=(json-lines)
formats+=(concise human github sarif junit grouped)

median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Runs a command $repeat times under GNU time and prints its median wall time, the spread, and
# the median peak RSS, with files/s and MB/s over the corpus being measured ($files files,
# $mb MB). Sets $last (median wall, s) and $last_rss (median peak RSS, MB). Standard output
# goes to $sink (default /dev/null). A run that fails stops the bench: a time for a failed
# command measures nothing.
measure() {
  local label=$1; shift
  local walls=() rsses=() k wall rss status
  for ((k = 0; k < repeat; k++)); do
    /usr/bin/time -o "$work/time.txt" -f "%e %M %x" "$@" >"${sink:-/dev/null}" 2>"$work/stderr.txt" || true
    read -r wall rss status < <(tail -n 1 "$work/time.txt")
    if [ "$status" != 0 ]; then
      echo "FAILED ($label): exit status $status from: $*" >&2
      tail -n 5 "$work/stderr.txt" >&2
      exit 1
    fi
    walls+=("$wall"); rsses+=("$rss")
  done
  last=$(median "${walls[@]}")
  last_rss=$(awk -v k="$(median "${rsses[@]}")" 'BEGIN { printf "%.0f", k / 1024 }')
  local spread
  spread=$(printf '%s\n' "${walls[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')
  awk -v l="$label" -v w="$last" -v s="$spread" -v r="$last_rss" -v n="$files" -v m="$mb" 'BEGIN {
    t = (w > 0) ? w : 0.001
    printf "  %-26s %7.2f s (%11s) %8.0f files/s %7.1f MB/s %7.0f MB peak\n", l, w, s, n / t, m / t, r }'
}

# Prints "a / b" against a target and records it for the final table.
targets=()
verdict() {
  local label=$1 a=$2 b=$3 op=$4 goal=$5 line
  line=$(awk -v l="$label" -v a="$a" -v b="$b" -v op="$op" -v t="$goal" 'BEGIN {
    if (!(a > 0 && b > 0)) { printf "%-52s %8s   target %s %sx   n/a", l, "-", op, t; exit }
    r = a / b; ok = (op == ">=") ? (r >= t) : (r <= t)
    printf "%-52s %7.2fx   target %s %sx   %s", l, r, op, t, ok ? "PASS" : "MISS" }')
  echo "  $line"
  targets+=("$line")
}

# Informational ratio, no target.
ratio() {
  awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN { if (a > 0 && b > 0) printf "  %-52s %7.2fx\n", l, a / b }'
}

tools() {
  if [ ! -x "$work/npm/node_modules/.bin/ajv" ] && command -v npm >/dev/null; then
    mkdir -p "$work/npm" && (cd "$work/npm" && npm install --silent --no-audit --no-fund ajv-cli ajv-formats >/dev/null 2>&1) || true
  fi
  [ "$slow" = 1 ] || return 0
  if [ ! -x "$work/venv/bin/check-jsonschema" ] && command -v python3 >/dev/null; then
    python3 -m venv "$work/venv" && "$work/venv/bin/pip" install --quiet check-jsonschema || true
  fi
  if [ ! -x "$work/npm/node_modules/.bin/jsonschema" ] && command -v npm >/dev/null; then
    (cd "$work/npm" && npm install --silent --no-audit --no-fund @sourcemeta/jsonschema >/dev/null 2>&1) || true
  fi
}
tools
ajv=$work/npm/node_modules/.bin/ajv
[ -x "$ajv" ] || { echo "ajv-cli is not available (npm missing or offline): the ajv rows and targets are skipped"; ajv=; }

# ajv as the bench runs it: one process, the corpus as a glob ajv expands itself (no argv limit).
run_ajv() {
  "$ajv" validate --spec=draft2020 -c ajv-formats -s "$schema" -d "$1/**/*.json" --errors=no
}

# ajv must really validate: it accepts a clean file and rejects the same file broken.
check_ajv() {
  local probe=$work/ajv-probe one
  # (awk reads to the end: `head` would close the pipe under `sort` and pipefail would stop us)
  one=$(find "$1" -name '*.json' | sort | awk 'NR == 1')
  rm -rf "$probe" && mkdir -p "$probe/good" "$probe/bad"
  cp "$one" "$probe/good/"
  sed 's/"outcome": "[a-z-]*"/"outcome": 17/' "$one" >"$probe/bad/broken.json"
  if ! run_ajv "$probe/good" >/dev/null 2>&1; then
    echo "ajv rejects a clean file ($one): its timings would measure nothing" >&2; exit 1
  fi
  if run_ajv "$probe/bad" >/dev/null 2>&1; then
    echo "ajv accepts a file that breaks the schema: its timings would measure nothing" >&2; exit 1
  fi
  echo "  ajv-cli checked: accepts $(basename "$one"), rejects it with a wrong-typed outcome"
}

# ajv prints one line per file it validated: all of them must be there and valid.
ajv_covered() {
  local seen
  seen=$(grep -c ' valid$' "$work/ajv.out" || true)
  if [ "$seen" != "$files" ]; then
    echo "ajv validated $seen of $files files (expected every one valid)" >&2; exit 1
  fi
}

# Counts from the JSON report of `check`: what the corpus claims to be.
findings() {
  "$bin" check "${all[@]}" --format json --exit-zero "$1" >"$work/report.json"
  local s e w i
  s=$(tail -c 400 "$work/report.json" | tr -d ' \n')
  get() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" <<<"$s"; }
  e=$(get errors); w=$(get warnings); i=$(get infos)
  awk -v f="$(get files)" -v r="$(get results)" -v e="$e" -v w="$w" -v i="$i" -v mb="$(du -sm "$work/report.json" | cut -f1)" 'BEGIN {
    t = e + w + i
    printf "  check reports: %d files, %d results, %d findings (%d errors, %d warnings, %d infos), %.1f per file, a %d MB JSON report\n", f, r, t, e, w, i, (f > 0) ? t / f : 0, mb }'
  rm -f "$work/report.json"
}

corpus() {
  local dir=$1 n=$2; shift 2
  [ -d "$dir" ] || target/release/examples/gen_corpus "$dir" "$n" 42 "$@" >/dev/null
  files=$(find "$dir" -name '*.json' -o -name '*.jsonl' | wc -l)
  mb=$(find "$dir" \( -name '*.json' -o -name '*.jsonl' \) -print0 | du -cm --files0-from=- | tail -n 1 | cut -f1)
}

declare -A rss_clean rss_heavy
echo "benchlint bench: sizes ${sizes[*]}, median of $repeat runs, $(nproc) cores, $(date -u +%FT%TZ)"
for n in "${sizes[@]}"; do
  clean="$work/clean-$n"; heavy="$work/heavy-$n"; mixed="$work/mixed-$n"

  corpus "$clean" "$n" --clean
  echo "== $n files, clean canonical corpus: $files files, $mb MB of JSON"
  findings "$clean"
  measure "check --format json" "$bin" check "${all[@]}" --format json --exit-zero "$clean"
  check_clean=$last; rss_clean[$n]=$last_rss
  measure "parse-only" target/release/examples/parse_only "$clean"; parse_clean=$last
  measure "cat" sh -c "find '$clean' -name '*.json' -print0 | xargs -0 cat"
  ratio "check / parse-only" "$check_clean" "$parse_clean"
  if [ -n "$ajv" ]; then
    check_ajv "$clean"
    sink=$work/ajv.out measure "ajv-cli" sh -c "\"\$0\" validate --spec=draft2020 -c ajv-formats -s '$schema' -d '$clean/**/*.json' --errors=no 2>&1" "$ajv"
    ajv_covered
    verdict "$n clean: ajv-cli / check (json)" "$last" "$check_clean" ">=" 3
  fi
  if [ "$slow" = 1 ] && [ "$n" -le 10000 ]; then
    if [ -x "$work/venv/bin/check-jsonschema" ]; then
      mapfile -t list < <(find "$clean" -name '*.json' | sort)
      measure "check-jsonschema" "$work/venv/bin/check-jsonschema" --schemafile "$schema" "${list[@]}"
      verdict "$n clean: check-jsonschema / check (json)" "$last" "$check_clean" ">=" 20
    fi
    if [ -x "$work/npm/node_modules/.bin/jsonschema" ]; then
      measure "sourcemeta jsonschema" "$work/npm/node_modules/.bin/jsonschema" validate "$schema" "$clean"
      ratio "sourcemeta / check (json)" "$last" "$check_clean"
    fi
  fi

  corpus "$heavy" "$n" --heavy
  echo "== $n files, findings-heavy canonical corpus: $files files, $mb MB of JSON"
  findings "$heavy"
  ajv_heavy=
  if [ -n "$ajv" ]; then
    sink=$work/ajv.out measure "ajv-cli" sh -c "\"\$0\" validate --spec=draft2020 -c ajv-formats -s '$schema' -d '$heavy/**/*.json' --errors=no 2>&1" "$ajv"
    ajv_covered
    ajv_heavy=$last
  fi
  measure "parse-only" target/release/examples/parse_only "$heavy"; parse_heavy=$last
  for f in "${formats[@]}"; do
    # Past BENCH_ALL_FORMATS_UP_TO files only the JSON report is timed (it gives the memory
    # row); every format at 100,000 files would take the better part of an hour.
    if [ "$f" != json ] && [ "$n" -gt "$all_formats_up_to" ]; then continue; fi
    measure "check --format $f" "$bin" check "${all[@]}" --format "$f" --exit-zero "$heavy"
    if [ "$f" = json ]; then
      rss_heavy[$n]=$last_rss
      ratio "check (json) / parse-only" "$last" "$parse_heavy"
    fi
    [ -z "$ajv_heavy" ] || verdict "$n heavy: ajv-cli / check ($f)" "$ajv_heavy" "$last" ">=" 1
  done

  [ "$n" -le "$all_formats_up_to" ] || continue
  corpus "$mixed" "$n"
  echo "== $n files, mixed corpus (canonical and harness formats): $files files, $mb MB"
  findings "$mixed"
  measure "check --format json" "$bin" check "${all[@]}" --format json --exit-zero "$mixed"; check_mixed=$last
  measure "parse-only" target/release/examples/parse_only "$mixed"
  ratio "check / parse-only" "$check_mixed" "$last"
done

small=${sizes[0]}; large=${sizes[${#sizes[@]} - 1]}
if [ "$small" != "$large" ]; then
  echo "== peak RSS of check --format json, $large against $small files"
  verdict "clean: peak RSS $large / $small (${rss_clean[$large]} / ${rss_clean[$small]} MB)" "${rss_clean[$large]}" "${rss_clean[$small]}" "<=" 1.5
  verdict "heavy: peak RSS $large / $small (${rss_heavy[$large]} / ${rss_heavy[$small]} MB)" "${rss_heavy[$large]}" "${rss_heavy[$small]}" "<=" 1.5
fi

echo
echo "== targets (DESIGN.md), median of $repeat runs"
printf '%s\n' "${targets[@]}"
