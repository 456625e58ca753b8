#!/usr/bin/env bash
# The scaling bench: every command on each adversarial corpus (examples/gen_corpus/shapes.rs)
# at two sizes, with the CPU time (user + system, the lower of BENCH_REPEAT runs) and the peak
# RSS of each, and the ratio of the larger size to the smaller (the CPU's, and its user time's
# alone). DESIGN.md ("No cliffs") asks for a CPU ratio of at most 2.3 and an RSS ratio of at
# most 1.3 for twice the results.
#
# Usage: benches/shapes.sh [SMALL LARGE]      (default: 10000 20000)
# Environment:
#   BENCH_DIR     where corpora and outputs go (default /tmp/benchlint-shapes)
#   BENCH_REPEAT  runs of each command; the lowest CPU time and the median peak RSS are kept
#                 (default 2; 3 or more for steady RSS ratios)
#   BENCH_BIN     the benchlint binary to measure (default: target/$BENCH_PROFILE/benchlint, built)
#   BENCH_PROFILE release (default) or debug: the profile of the generator and of the default
#                 binary
#   BENCH_SHAPES  the shapes to run, space-separated (default: all nine)
#   BENCH_COMMANDS  the commands to run, space-separated (default: all)
# Needs: the Rust toolchain and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
small=${1:-10000}
large=${2:-20000}
work=${BENCH_DIR:-/tmp/benchlint-shapes}
repeat=${BENCH_REPEAT:-2}
shapes=(${BENCH_SHAPES:-one-config shared distinct undated claims tiny huge jsonl rows})
commands=(${BENCH_COMMANDS:-check human summary capacity cards audit import sidecar regress compare})
profile=${BENCH_PROFILE:-release}
flags=(--quiet)
[ "$profile" = debug ] || flags+=(--profile "$profile")
mkdir -p "$work"
if [ -z "${BENCH_BIN:-}" ]; then
  cargo build "${flags[@]}"
  bin=${CARGO_TARGET_DIR:-target}/$profile/benchlint
else
  bin=$BENCH_BIN
fi
cargo build "${flags[@]}" --example gen_corpus
gen=${CARGO_TARGET_DIR:-target}/$profile/examples/gen_corpus
printf '[thresholds]\nmax_findings = 100000000\n' >"$work/list-all.toml"

# Runs "$@" $repeat times under GNU time; sets $cpu (the lowest user + system, s), $user (the
# user time of that run: the commands that write a file a result, `import` and `sidecar`, spend
# most of their CPU in the kernel making files, which on this machine's ext4 grows faster than
# the files made, and moves by a factor of three from run to run, for a script that makes
# nothing else as for them) and $rss (the median of the runs' peak RSS, MB: a single run's
# peak moves by up to 8 MB, which is enough to move a ratio near 1.3 either way, and the
# lowest-CPU run's is no steadier). An exit
# status other than 0 or 1 (clean, findings) stops the bench, but for `regress`'s "no
# comparable cell" and `compare`'s "cannot be compared" or "share no level" (2, said on
# standard error): a corpus of runs without launches or levels to compare gives the first, and
# the first two configurations of a shape may be runs with failed requests or other levels. The
# whole corpus is read and walked before either is known.
measure() {
  local k u s m x best= best_user= peaks=()
  for ((k = 0; k < repeat; k++)); do
    rm -rf "$work/out"
    # What the run before wrote reaches the disk first: a run that writes (`import`,
    # `sidecar`, `audit -o`) is otherwise charged, as system time, for the kernel's writeback
    # of the outputs of the run before it (`import` on 10,000 results: 1.6 to 6.9 s).
    sync
    /usr/bin/time -o "$work/time.txt" -f "%U %S %M %x" "$@" >/dev/null 2>"$work/stderr.txt" || true
    read -r u s m x < <(tail -n 1 "$work/time.txt")
    if [ "$x" = 2 ] && grep -qE "no comparable cell|cannot be compared|share no level" "$work/stderr.txt"; then
      x=0
    fi
    if [ "$x" != 0 ] && [ "$x" != 1 ]; then
      echo "FAILED: exit status $x from: $*" >&2
      tail -n 5 "$work/stderr.txt" >&2
      exit 1
    fi
    local t
    t=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$t
      best_user=$u
    fi
    peaks+=("$m")
  done
  cpu=$best
  user=$best_user
  rss=$(printf '%s\n' "${peaks[@]}" | sort -n | awk '{ v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.0f", m / 1024 }')
}

# The command line of `$1` on corpus `$2` (shape `$3`).
command_line() {
  local cmd=$1 dir=$2 shape=$3
  case $cmd in
    check) echo "$bin check --config $work/list-all.toml --format json --exit-zero $dir" ;;
    # `check` as run by hand: the default (human) format with its snippets, the default caps.
    human) echo "$bin check --exit-zero $dir" ;;
    summary) echo "$bin summary $dir" ;;
    capacity) echo "$bin capacity $dir" ;;
    cards) echo "$bin cards $dir" ;;
    audit)
      if [ "$shape" = claims ]; then
        echo "$bin audit --config $work/list-all.toml --claims $dir/claims.json -o $work/out $dir"
      else
        echo "$bin audit --config $work/list-all.toml -o $work/out $dir"
      fi ;;
    import) echo "$bin import -o $work/out $dir" ;;
    sidecar) echo "$bin sidecar -o $work/out $dir" ;;
    # The corpus against itself: every configuration matched, every cell compared.
    regress) echo "$bin regress $dir $dir" ;;
    # The first two configurations `summary` lists (the one twice when there is one), by
    # fingerprint: found before the timing, by a run that is not measured.
    compare)
      local pair
      pair=($("$bin" summary --format csv "$dir" | awk -F, 'NR > 1 { print $1 }' | uniq | head -n 2))
      echo "$bin compare ${pair[0]} ${pair[1]:-${pair[0]}} $dir" ;;
  esac
}

echo "benchlint scaling bench: $small and $large results, lowest CPU and median peak RSS of $repeat runs, $(nproc) cores, $(date -u +%FT%TZ)"
printf '%-11s %-9s %10s %10s %7s %7s %9s %9s %6s\n' shape command "cpu $small" "cpu $large" ratio user "MB $small" "MB $large" ratio
for shape in "${shapes[@]}"; do
  for n in "$small" "$large"; do
    [ -d "$work/$shape-$n" ] || "$gen" "$work/$shape-$n" "$n" 42 --shape "$shape" >/dev/null
  done
  for cmd in "${commands[@]}"; do
    # shellcheck disable=SC2046 # the command line is split into words on purpose
    measure $(command_line "$cmd" "$work/$shape-$small" "$shape"); c1=$cpu; u1=$user; r1=$rss
    # shellcheck disable=SC2046
    measure $(command_line "$cmd" "$work/$shape-$large" "$shape"); c2=$cpu; u2=$user; r2=$rss
    awk -v s="$shape" -v c="$cmd" -v a="$c1" -v b="$c2" -v ua="$u1" -v ub="$u2" -v x="$r1" -v y="$r2" 'BEGIN {
      printf "%-11s %-9s %10.2f %10.2f %6.2fx %6.2fx %9d %9d %5.2fx%s\n", s, c, a, b, (a > 0.05 ? b / a : 0), (ua > 0.05 ? ub / ua : 0), x, y, (x > 0 ? y / x : 0),
        ((a > 0.05 && b / a > 2.3) || (x > 0 && y / x > 1.3)) ? "  MISS" : "" }'
  done
done
