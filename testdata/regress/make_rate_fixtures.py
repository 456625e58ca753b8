"""Writes the rate-driven fixtures of the regress tests (testdata/regress/rates), from the
adapters' own fixtures, so that each is a real harness file with only its strategy changed:

- guidellm-constant.json: GuideLLM 0.8.1, `constant` profile at 2 and 4 req/s (fixed rates);
- guidellm-sweep-base.json / guidellm-sweep-head.json: the `sweep` profile, a synchronous run,
  a throughput run and constant rates the harness chose from them (3.1 and 5.7 req/s on one
  build, 3.3 and 6.0 on the other);
- mlperf-server/mlperf_log_summary.txt: an MLPerf Server summary at a target of 30 QPS, the
  adapters' INVALID one with its verdict turned to VALID.

Run from the repository root: python3 testdata/regress/make_rate_fixtures.py
"""
import copy
import json
import os

ROOT = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(ROOT, "..", "adapters")

with open(os.path.join(SRC, "guidellm", "v0.8.1-concurrent-sweep.json")) as fh:
    report = json.load(fh)
one, eight = report["benchmarks"]


def bench(template, strategy):
    b = copy.deepcopy(template)
    b["config"]["strategy"] = strategy
    return b


def write(name, benchmarks, label):
    r = copy.deepcopy(report)
    r["config"]["metadata"]["labels"] = {"run": label}
    r["benchmarks"] = benchmarks
    with open(os.path.join(ROOT, "rates", name), "w") as fh:
        json.dump(r, fh, indent=1)
        fh.write("\n")


def constant(rate):
    return {"type_": "constant", "rate": rate, "initial_burst": True, "max_concurrency": None}


write("guidellm-constant.json", [bench(eight, constant(2.0)), bench(eight, constant(4.0))],
      "constant-rates")
for side, rates in (("base", (3.1, 5.7)), ("head", (3.3, 6.0))):
    write(f"guidellm-sweep-{side}.json",
          [bench(one, {"type_": "synchronous"}),
           bench(eight, {"type_": "throughput", "max_concurrency": None})]
          + [bench(eight, constant(r)) for r in rates],
          "sweep")

with open(os.path.join(SRC, "mlperf", "server-invalid-summary-only", "mlperf_log_summary.txt")) as fh:
    text = fh.read()
text = text.replace("Result is : INVALID", "Result is : VALID").replace(
    "Performance constraints satisfied : NO", "Performance constraints satisfied : Yes")
with open(os.path.join(ROOT, "rates", "mlperf-server", "mlperf_log_summary.txt"), "w") as fh:
    fh.write(text)
