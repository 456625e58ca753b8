#!/usr/bin/env bash
# Whether two builds of benchlint print and write the same bytes: every format of every command
# that reads a corpus (`check`, `summary`, `cards`, `capacity`, `compare`, `audit` printed and
# with `-o`, `audit --claims` for each claims fixture, `import -o`, `sidecar -o`, `regress`) on
# every folder of `testdata/corpora`, the adapter fixtures, the sidecar, clean and CLI fixtures,
# and the real result files (`REALWORLD`, default /work/shared/realworld, and each folder in
# it). Each run's stdout, stderr and exit status are compared, and the files an `-o` run wrote.
# Prints how many outputs were compared; exits 1 on the first difference kept (all are listed).
#
# Usage: benches/same_outputs.sh OLD NEW
# Environment:
#   SAME_DIR    where outputs go (default /tmp/benchlint-same)
#   REALWORLD   the real result files (default /work/shared/realworld; skipped when absent)
#   SAME_SKIP   folders to leave out, space-separated (say, one whose config the new build
#               reads and the old did not)
set -uo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1")
new=$(realpath "$2")
work=${SAME_DIR:-/tmp/benchlint-same}
realworld=${REALWORLD:-/work/shared/realworld}
rm -rf "$work"
mkdir -p "$work"
compared=0
differ=0

# JSON Lines files long enough to be read in several chunks of lines (`src/corpus/lines.rs`),
# with broken lines, non-standard tokens, repeated keys, wide integers and enough findings to
# pass the per-file cap, and files that are not JSON at all.
jsonl="$work/jsonl"
mkdir -p "$jsonl/mixed" "$jsonl/capped" "$jsonl/scalars" "$jsonl/small-cap"
python3 - "$jsonl" <<'PY'
import json, sys
out = sys.argv[1]
sgl = [l for l in open("testdata/adapters/sglang/late-2025-server-info.jsonl") if l.strip()]
canon = [l for l in open("testdata/sidecar/canonical/typed-command.jsonl") if l.strip()]
def lines(n, pick):
    rows = []
    for i in range(n):
        if i % 97 == 5:
            rows.append('{"broken": ' + str(i))
        elif i % 89 == 7:
            rows.append('{"id": "dup", "id": "dup2", "levels": [' + str(i))
        elif i % 83 == 3:
            rows.append("")
        else:
            d = json.loads(pick[i % len(pick)])
            if isinstance(d.get("levels"), list) and i % 5 == 0:
                d["levels"] = d["levels"] * 2
            text = json.dumps(d)
            if i % 13 == 0:
                text = text.replace('}', ', "extra_key": 1, "extra_key": 2}', 1)
            if i % 17 == 0:
                text = text.replace('}', ', "wide": 123456789012345678901234567890}', 1)
            if i % 19 == 0:
                text = text.replace('}', ', "nan": NaN, "inf": Infinity}', 1)
            if "id" in d:
                text = text.replace('"id": "' + d["id"] + '"', '"id": "' + d["id"] + "-" + str(i) + '"', 1)
            rows.append(text)
    return "\n".join(rows) + "\n"
open(out + "/mixed/sglang.jsonl", "w").write(lines(700, sgl))
open(out + "/mixed/canonical.jsonl", "w").write(lines(600, canon))
open(out + "/capped/canonical.jsonl", "w").write(lines(2500, canon))
open(out + "/scalars/numbers.jsonl", "w").write("\n".join(str(i) for i in range(600)) + "\n{broken\n[1,\n")
open(out + "/scalars/one-broken.ndjson", "w").write("\n".join(str(i) for i in range(600)) + "\n{broken\n")
open(out + "/small-cap/canonical.jsonl", "w").write(lines(900, canon))
for cap in (7, 40, 300):
    open(out + "/cap%d.toml" % cap, "w").write("[thresholds]\nmax_findings_per_file = %d\nmax_levels = 1\n" % cap)
PY

folders=("$jsonl/mixed" "$jsonl/capped" "$jsonl/scalars" "$jsonl/small-cap")
for d in testdata/corpora/*/ testdata/adapters/ testdata/adapters/*/ testdata/sidecar/*/ \
  testdata/clean/*/ testdata/cli/*/ testdata/regress/base/ testdata/regress/head/; do
  folders+=("${d%/}")
done
if [ -d "$realworld" ]; then
  folders+=("$realworld")
  for d in "$realworld"/*/; do folders+=("${d%/}"); done
fi

# Runs "$@" (its first word OLD or NEW standing for the binary) with each build, in the same
# place with the same output folder, and compares stdout, stderr, exit status and `$work/out`.
same() {
  local k side bin
  k=$((compared + differ))
  for side in old new; do
    if [ "$side" = old ]; then bin=$old; else bin=$new; fi
    rm -rf "$work/out"
    mkdir -p "$work/$side"
    timeout 600 "$bin" "$@" >"$work/$side/stdout" 2>"$work/$side/stderr"
    echo $? >"$work/$side/status"
    rm -rf "$work/$side/out"
    [ -e "$work/out" ] && mv "$work/out" "$work/$side/out"
  done
  if diff -r "$work/old" "$work/new" >"$work/diff.txt" 2>&1; then
    compared=$((compared + 1))
  else
    differ=$((differ + 1))
    echo "DIFFERENT: benchlint $*" >&2
    head -n 20 "$work/diff.txt" >&2
  fi
  rm -rf "$work/old" "$work/new"
}

for f in "${folders[@]}"; do
  case " ${SAME_SKIP:-} " in *" $f "*) continue ;; esac
  for fmt in human concise json sarif junit; do
    same check --format "$fmt" --exit-zero "$f"
  done
  for fmt in table json csv markdown; do
    same summary --format "$fmt" "$f"
  done
  same cards "$f"
  for fmt in table json; do
    same capacity --format "$fmt" "$f"
  done
  for fmt in markdown json; do
    same audit --format "$fmt" "$f"
  done
  same audit -o "$work/out" "$f"
  same import -o "$work/out" "$f"
  same sidecar -o "$work/out" "$f"
  # A comparison of the first configuration with each other one (at most three).
  mapfile -t prints < <("$old" summary --format json "$f" 2>/dev/null |
    python3 -c 'import json,sys
try:
    d = json.load(sys.stdin)
except Exception:
    sys.exit(0)
for c in d.get("configurations", [])[:4]:
    print(c["fingerprint"])' 2>/dev/null)
  for ((i = 1; i < ${#prints[@]}; i++)); do
    for fmt in text json; do
      same compare "${prints[0]}" "${prints[$i]}" "$f" --format "$fmt"
    done
  done
done

# A per-file cap small enough to cut into each kind of finding of a JSON Lines file.
for cap in 7 40 300; do
  for f in "$jsonl/small-cap" "$jsonl/mixed"; do
    for fmt in json concise; do
      same check --config "$jsonl/cap$cap.toml" --format "$fmt" --exit-zero "$f"
    done
  done
done

# Every claims fixture, audited in its folder.
while IFS= read -r claims; do
  dir=$(dirname "$claims")
  for fmt in markdown json; do
    same audit --format "$fmt" --claims "$claims" "$dir"
  done
  same audit -o "$work/out" --claims "$claims" "$dir"
done < <(find testdata -name '*claims*.json' -type f | sort)

for fmt in text json markdown; do
  same regress testdata/regress/base testdata/regress/head --format "$fmt"
done

echo "compared $((compared + differ)) outputs: $compared the same, $differ different"
[ "$differ" = 0 ]
