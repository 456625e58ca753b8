#!/usr/bin/env bash
# Seeds every target's corpus from testdata/ and runs each target for SECONDS (default 60),
# printing libFuzzer's final line per target. From the repository root: bash fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-60}"
export RUSTC_BOOTSTRAP=1
seed() { mkdir -p "corpus/$1"; }
for t in json_parse_text json_split_documents json_locate; do
  seed "$t"
  find ../testdata/hostile ../testdata/bad ../testdata/adapters ../testdata/corpora/demo -type f -name '*.json*' -size -64k \
    -exec sh -c 'for f; do cp "$f" "corpus/'"$t"'/$(basename "$(dirname "$f")")-$(basename "$f")"; done' sh {} +
done
seed adapters_read
for f in $(find ../testdata/adapters -type f -name '*.json*' -size -64k); do
  for b in 0 1 2 3 4 5 6 7; do
    { printf "\\x$b$b"; cat "$f"; } > "corpus/adapters_read/$b-$(basename "$f")" 2>/dev/null || true
  done
done
seed serve_command
printf 'vllm serve meta-llama/Llama-3.1-8B --tensor-parallel-size 2 --max-num-seqs 64 --api-key sk-abc --kv-cache-dtype fp8' > corpus/serve_command/vllm
printf 'python -m sglang.launch_server --model-path m --tp-size 4 --speculative-algorithm EAGLE3 --speculative-num-steps 3 --disable-cuda-graph' > corpus/serve_command/sglang
printf "HF_TOKEN=hf_x trtllm-serve m --tp_size 8 --extra_llm_api_options 'a b.yaml' --backend pytorch" > corpus/serve_command/trtllm
seed config_parse
printf 'select = ["E", "M"]\nignore = ["M010"]\n[thresholds]\nmax_depth = 32\nmax_levels = 10\n[severity]\nR003 = "info"\n[per-file-ignores]\n"a/*.json" = ["M001"]\n[[sidecar]]\nfiles = "x/*.json"\npath = "s.meta.json"\n' > corpus/config_parse/full.toml
seed output_writers
printf '{"api_key": "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP", "notes": "x"}\x01id`` <img src=x onerror=alert(1)> ``\x01/engine/environment/hf_abcdefghijklmnopqrstuvwxyz0123456789\x01\x1b]8;;http://e/\x07\n::error file=a::b\x01\xe2\x80\xae\xe2\x80\x8b--api-key plain99secret\x01Bearer abc123def [x](javascript:alert(1))\x01https://u:hunter22@db.example.com/x' > corpus/output_writers/hostile
printf 'javascript:alert(1).json\x01/levels/0\x01OPENAI_API_KEY=abc123xyz9 | `a`b`\x01\xe2\x80\xa8\r\n::warning::x' > corpus/output_writers/names
for t in json_parse_text json_split_documents adapters_read serve_command json_locate config_parse output_writers; do
  echo "== $t"
  cargo fuzz run -O --sanitizer none "$t" "corpus/$t" -- -max_total_time="$secs" -max_len=65536 -print_final_stats=1 2>&1 \
    | grep -E 'Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb|cov: .*corp|SUMMARY|panicked|crash-' | tail -5
done
# The variant generator over every fixture and real file, with more keys dropped per file.
echo "== variants"
(cd .. && BENCHLINT_VARIANTS=40 cargo test --test it variants:: 2>&1 | grep -E 'variants of|test result|broke an invariant' | tail -5)
