"""Writes the worked example of `benchlint regress` (README "regress"): testdata/regress/base
and testdata/regress/head, canonical result files (benchlint/result/v1).

BASE is vLLM 0.11.0, HEAD vLLM 0.11.1, each on 3 engine launches with 2 ladder runs per launch,
for two configurations on one H100:
  a-*: Llama 3.1 8B bf16, no speculation, levels 1, 16 and 64 streams:
       1 stream   the same on both sides (equivalent),
       16 streams HEAD about 9% slower (a regression),
       64 streams launch-to-launch spread of about 10% (too noisy to decide);
  s-*: the same model with EAGLE-3 speculative decoding, levels 1 and 4 streams, launch CV of
       12-19% as speculative decoding shows (it needs dozens of launches per side to settle 5%).
Values are fixed here, not drawn at random, so the expected table never moves. Run from the
repository root: python3 testdata/regress/make_example.py
"""
import json
import os

ROOT = os.path.dirname(os.path.abspath(__file__))

# Per configuration and level: (aggregate tok/s, TPOT p50 ms) per launch, per side.
LAUNCHES = {
    "a": {
        1: {"base": [(95.1, 10.52), (94.6, 10.57), (95.4, 10.49)],
            "head": [(95.3, 10.50), (94.9, 10.54), (95.0, 10.53)]},
        16: {"base": [(1210.0, 13.10), (1198.0, 13.22), (1205.0, 13.15)],
             "head": [(1102.0, 14.38), (1110.0, 14.29), (1095.0, 14.47)]},
        64: {"base": [(3050.0, 20.9), (3400.0, 18.8), (2800.0, 22.8)],
             "head": [(2900.0, 22.0), (3300.0, 19.3), (3150.0, 20.2)]},
    },
    "s": {
        1: {"base": [(160.0, 6.25), (205.0, 4.88), (175.0, 5.71)],
            "head": [(185.0, 5.41), (150.0, 6.67), (200.0, 5.00)]},
        4: {"base": [(520.0, 7.69), (640.0, 6.25), (560.0, 7.14)],
            "head": [(600.0, 6.67), (500.0, 8.00), (610.0, 6.56)]},
    },
}
VERSIONS = {"base": ("0.11.0", "sha256:" + "1" * 64, "2026-11-02"),
            "head": ("0.11.1", "sha256:" + "2" * 64, "2026-11-09")}
# Two runs per launch, a little apart (the median of two is their mean).
RUN_FACTORS = (0.998, 1.002)


def doc(config, side, launch, repeat):
    version, digest, day = VERSIONS[side]
    spec = config == "s"
    launch_id = f"{side}-{config}-launch-{launch + 1}"
    levels = []
    for conc, sides in LAUNCHES[config].items():
        agg, tpot = sides[side][launch]
        f = RUN_FACTORS[repeat]
        agg, tpot = round(agg * f, 2), round(tpot / f, 3)
        duration = 120.0
        out_tokens = int(agg * duration)
        levels.append({
            "concurrency": conc,
            "requests": max(1, out_tokens // 256),
            "failed": 0,
            "duration_s": duration,
            "output_tokens": out_tokens,
            "throughput_tok_s": {"aggregate": agg},
            "tpot_ms": {"p50": tpot},
        })
    hour = 8 + launch * 2 + repeat
    return {
        "schema": "benchlint/result/v1",
        "id": f"{side}-{config}-l{launch + 1}-r{repeat + 1}",
        "measured_at": f"{day}T{hour:02d}:30:00Z",
        "outcome": "ok",
        "harness": {"name": "vllm-bench-serve", "version": version,
                    "revision": ("a" if side == "base" else "b") * 40, "dirty": False},
        "launch": {"id": launch_id, "started_at": f"{day}T{8 + launch * 2:02d}:00:00Z"},
        "repeat": repeat + 1,
        "platform": {"host": f"ci-h100-{launch + 1}", "nodes": 1, "devices_per_node": 1,
                     "device": {"model": "NVIDIA H100 80GB HBM3", "memory_gib": 80},
                     "shared_host": False},
        "engine": {
            "name": "vllm", "version": version, "image": f"vllm/vllm-openai:v{version}",
            "image_digest": digest,
            "serve_command": ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct",
                              "--max-num-seqs", "256", "--max-model-len", "8192"]
            + (["--speculative-config",
                '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 4}']
               if spec else []),
            "serve_command_source": "launcher-script",
            "speculative": ({"enabled": True, "method": "eagle3", "num_speculative_tokens": 4,
                             "draft_model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"}
                            if spec else {"enabled": False}),
            "enforce_eager": False, "kv_cache_dtype": "auto", "max_num_seqs": 256,
            "max_model_len": 8192, "max_num_batched_tokens": 8192,
            "enable_prefix_caching": False, "tensor_parallel_size": 1,
            "pipeline_parallel_size": 1, "expert_parallel_size": 1, "data_parallel_size": 1,
        },
        "model": {"name": "meta-llama/Llama-3.1-8B-Instruct",
                  "revision": "0e9e39f249a16976918f6564b8830bc894c89659",
                  "precision": "bf16", "kernel": "flash-attn-3", "thinking": False},
        "workload": {"name": "random-1024-256", "kind": "other", "prompts": "random-tokens",
                     "dataset": "random", "prompt_tokens": {"min": 1024, "max": 1024, "mean": 1024},
                     "max_output_tokens": 256, "ignore_eos": True, "temperature": 0.0,
                     "seed": 0, "warmup_requests": 16, "warmup_excluded": True,
                     "level_order": "random",
                     "window": {"mode": "steady", "ramp_s": 10, "measure_s": 120},
                     "token_count_source": "server-usage"},
        "labels": {"suite": "ci-nightly"},
        "levels": levels,
    }


for side in ("base", "head"):
    os.makedirs(os.path.join(ROOT, side), exist_ok=True)
    for config in LAUNCHES:
        for launch in range(3):
            for repeat in range(2):
                d = doc(config, side, launch, repeat)
                name = f"{config}-l{launch + 1}" + ("" if repeat == 0 else f"-r{repeat + 1}") + ".json"
                with open(os.path.join(ROOT, side, name), "w") as fh:
                    json.dump(d, fh, indent=2)
                    fh.write("\n")
