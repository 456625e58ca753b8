#!/usr/bin/env bash
# Measures candidate JSON parsers (serde_json, simd-json, sonic-rs) on benchlint's own files,
# with the standalone crate in benches/parsers (not part of benchlint's build):
#
# - throughput, single-threaded, best of PARSERS_REPEAT passes, on the clean and heavy
#   generated corpora (whole documents, and with the per-request samples arrays emptied: the
#   part of a canonical document benchlint hands its parser), then on the real files of
#   shared/realworld (whole-document parsers only);
# - for every file, whether each candidate read what serde_json reads (accepts the same
#   files, same values);
# - odd and hostile inputs (surrogates, huge numbers, duplicate keys, deep nesting, ...);
# - instructions executed (valgrind's callgrind) on the first 300 files of the clean corpus;
# - serde_json built with float_roundtrip (correctly rounded floats, as simd-json and sonic-rs
#   read them): the real files compared again, and its cost;
# - optionally a second build with `-C target-cpu=native` (plus `x86-64-v3` for the instruction
#   counts, as valgrind cannot run AVX-512 code), and cold build times per dependency.
#
# Usage: benches/parsers.sh [N]        (N files per generated corpus, default 10000)
# Environment:
#   PARSERS_DIR          where the corpora go (default /tmp/benchlint-parsers)
#   PARSERS_TARGET       the crate's target dir (default /tmp/benchlint-parsers-target)
#   PARSERS_GEN_TARGET   the corpus generator's target dir (default /tmp/parsers-gen-target)
#   PARSERS_REPEAT       timed passes per candidate, the best is reported (default 3)
#   PARSERS_REALWORLD    folder of real result files (default ../shared/realworld beside the repo)
#   PARSERS_CALLGRIND=0  skip the instruction counts
#   PARSERS_NATIVE=1     also build and measure with RUSTFLAGS="-C target-cpu=native"
#                        (and count instructions of a "-C target-cpu=x86-64-v3" build)
#   PARSERS_BUILD_TIMES=1  also time cold builds of the crate with each parser dependency
#   PARSERS_NICE         priority of builds and runs (default 10)
# Needs: the Rust toolchain; valgrind for the instruction counts; GNU time for build times.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
n=${1:-10000}
work=${PARSERS_DIR:-/tmp/benchlint-parsers}
target=${PARSERS_TARGET:-/tmp/benchlint-parsers-target}
gen_target=${PARSERS_GEN_TARGET:-/tmp/parsers-gen-target}
repeat=${PARSERS_REPEAT:-3}
realworld=${PARSERS_REALWORLD:-$repo/../shared/realworld}
nice_=(nice -n "${PARSERS_NICE:-10}")
mkdir -p "$work"

# The corpora are made once (same seed, same bytes); the generator is built only to make them.
for kind in clean heavy; do
  dir=$work/$kind-$n
  if [ ! -f "$dir/.complete" ]; then
    echo "== building the corpus generator, writing the $kind corpus"
    CARGO_TARGET_DIR=$gen_target "${nice_[@]}" cargo build --release --quiet --example gen_corpus
    rm -rf "$dir"
    "${nice_[@]}" "$gen_target/release/examples/gen_corpus" "$dir" "$n" 42 "--$kind"
    touch "$dir/.complete"
  fi
done

echo "== building the measurement crate"
(cd benches/parsers && CARGO_TARGET_DIR=$target "${nice_[@]}" cargo build --release --quiet --locked)
bin=$target/release/parsers

run() {
  echo
  echo "== parsers $*"
  "${nice_[@]}" "$bin" --repeat "$repeat" "$@"
}

run "$work/clean-$n"
run --blank-samples "$work/clean-$n"
run "$work/heavy-$n"
run --blank-samples "$work/heavy-$n"
if [ -d "$realworld" ]; then
  run --dom-only --jsonl --show 50 "$realworld"
else
  echo "(no $realworld: the real files are skipped)"
fi
"${nice_[@]}" "$bin" --adversarial

# build DIR [FEATURES]: the crate into target dir DIR, with RUSTFLAGS as set by the caller.
build() {
  (cd benches/parsers && CARGO_TARGET_DIR=$1 "${nice_[@]}" cargo build --release --quiet --locked \
    ${2:+--features "$2"})
}

# instructions BINARY: instructions executed inside the timed pass, per candidate.
instructions() {
  echo
  echo "| candidate | whole documents | samples emptied |"
  echo "|---|---:|---:|"
  for c in $("$1" --list | awk '{print $1}'); do
    row="| $c"
    for mode in "" --blank-samples; do
      count=$("${nice_[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='*timed_pass*' "$1" --limit 300 --repeat 1 --no-verify \
        --only "$c" $mode "$work/clean-$n" 2>&1 >/dev/null |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
      row="$row | $count"
    done
    echo "$row |"
  done
}

callgrind=${PARSERS_CALLGRIND:-1}
if [ "$callgrind" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "(valgrind is not installed: no instruction counts)"
  callgrind=0
fi
if [ "$callgrind" = 1 ]; then
  echo
  echo "== instructions inside the timed pass (callgrind), first 300 files of $work/clean-$n"
  instructions "$bin"
fi

echo
echo "== serde_json with float_roundtrip (correctly rounded floats; benchlint builds without it)"
roundtrip=$target-roundtrip
build "$roundtrip" float-roundtrip
if [ -d "$realworld" ]; then
  echo
  echo "== parsers (float_roundtrip) --dom-only --jsonl $realworld"
  "${nice_[@]}" "$roundtrip/release/parsers" --repeat "$repeat" --dom-only --jsonl --show 50 "$realworld"
fi
if [ "$callgrind" = 1 ]; then
  echo
  echo "== instructions of serde_json Value inside the timed pass, without and with float_roundtrip"
  echo
  echo "| input | without | with float_roundtrip |"
  echo "|---|---:|---:|"
  inputs=("--limit 300 $work/clean-$n" "--limit 300 --blank-samples $work/clean-$n")
  [ -d "$realworld" ] && inputs+=("--dom-only --jsonl $realworld")
  for input in "${inputs[@]}"; do
    row="| $input"
    for b in "$bin" "$roundtrip/release/parsers"; do
      # shellcheck disable=SC2086 # the input is a list of arguments
      count=$("${nice_[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='*timed_pass*' "$b" --repeat 1 --no-verify --only serde-value $input \
        2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
      row="$row | $count"
    done
    echo "$row |"
  done
fi
for mode in "" --blank-samples; do
  echo
  echo "== parsers (float_roundtrip) $mode $work/clean-$n, serde_json only"
  "${nice_[@]}" "$roundtrip/release/parsers" --repeat "$repeat" --no-verify \
    --only serde-value,serde-typed,serde-typed-skip $mode "$work/clean-$n"
done

if [ "${PARSERS_NATIVE:-0}" = 1 ]; then
  echo
  echo "== the same crate built with -C target-cpu=native"
  native=$target-native
  RUSTFLAGS="-C target-cpu=native" build "$native"
  for mode in "" --blank-samples; do
    echo
    echo "== parsers (native) $mode $work/clean-$n"
    "${nice_[@]}" "$native/release/parsers" --repeat "$repeat" --no-verify $mode "$work/clean-$n"
  done
  if [ "$callgrind" = 1 ]; then
    # valgrind cannot run AVX-512 code, which target-cpu=native may use: x86-64-v3 (AVX2,
    # PCLMULQDQ) gives sonic-rs its SIMD code and runs under valgrind.
    echo
    echo "== instructions, crate built with -C target-cpu=x86-64-v3"
    v3=$target-v3
    RUSTFLAGS="-C target-cpu=x86-64-v3" build "$v3"
    "$v3/release/parsers" --list >/dev/null
    instructions "$v3/release/parsers"
  fi
fi

if [ "${PARSERS_BUILD_TIMES:-0}" = 1 ]; then
  echo
  echo "== cold release builds of the crate (fresh target dir each; registry already downloaded)"
  echo
  echo "| features | packages | wall s | CPU s (user+sys) |"
  echo "|---|---:|---:|---:|"
  for features in "" simd sonic simd,sonic; do
    fresh=$(mktemp -d /tmp/benchlint-parsers-cold.XXXXXX)
    args=(--no-default-features)
    [ -n "$features" ] && args+=(--features "$features")
    (cd benches/parsers && CARGO_TARGET_DIR=$fresh /usr/bin/time -f "%e %U %S" -o "$fresh/time" \
      "${nice_[@]}" cargo build --release --quiet --locked "${args[@]}")
    packages=$(cd benches/parsers && cargo tree --quiet --locked -e normal,build --prefix none \
      "${args[@]}" | sed 's/ (\*)$//' | sort -u | wc -l)
    read -r wall user sys <"$fresh/time"
    echo "| serde_json${features:+ + $features} | $packages | $wall | $(awk "BEGIN {print $user + $sys}") |"
    rm -rf "$fresh"
  done
fi
