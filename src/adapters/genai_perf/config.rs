//! What a genai-perf / `AIPerf` run was configured with, from `input_config` in each version's
//! layout: the model, the client, the load and workload settings, and the extra inputs sent
//! with every request.

use serde_json::Value;

use super::phase;
use crate::adapters::map::{Builder, at, count, number, ptr};

/// The model, when `input_config` names exactly one (a list in every version).
pub(super) fn model(b: &mut Builder<'_>, doc: &Value) {
    let lists = [
        ("/input_config/models/items", "/name"),
        ("/input_config/endpoint/model_names", ""),
        ("/input_config/model_names", ""),
        ("/input_config/model", ""),
    ];
    for (src, leaf) in lists {
        match at(doc, src) {
            Some(Value::Array(names)) if names.len() == 1 => {
                b.string("/model/name", &format!("{src}/0{leaf}"));
                return;
            }
            Some(Value::String(_)) => {
                b.string("/model/name", src);
                return;
            }
            _ => {}
        }
    }
}

/// Streaming, the client API and the client's tokenizer (§4.1, §4.2). The API is the endpoint type the
/// requests were built for (`chat`, `completions`; `endpoint.type` in the sectioned configs,
/// `endpoint_type` in the flat one), else the service kind (`openai`, `triton`). genai-perf's
/// `backend` is not read: it names a Triton backend and is written with its default
/// (`tensorrtllm`) even when the service kind is `openai` and it played no part (the real
/// sample). The tokenizer is a string in the flat config and `tokenizer.name` in the newer
/// ones; the real `AIPerf` sample has none (not given: the default is the model's own, which
/// is not written, so nothing is filled in).
pub(super) fn client(b: &mut Builder<'_>) {
    // Whether responses were streamed: the time to first token is only timed when they were
    // (R028).
    let _ = b.boolean("/workload/streaming", "/input_config/endpoint/streaming")
        || b.boolean("/workload/streaming", "/input_config/streaming");
    let _ = b.string("/harness/backend", "/input_config/endpoint/type")
        || b.string("/harness/backend", "/input_config/endpoint_type")
        || b.string("/harness/backend", "/input_config/endpoint/service_kind")
        || b.string("/harness/backend", "/input_config/service_kind");
    let _ = b.string("/workload/tokenizer", "/input_config/tokenizer/name")
        || b.string("/workload/tokenizer", "/input_config/tokenizer");
}

/// Where each setting sits in `input_config`, by version (pointers into the document).
#[derive(Default)]
pub(super) struct Config {
    pub(super) concurrency: Option<(u64, String)>,
    pub(super) request_rate: Option<String>,
    output_mean: Option<String>,
    output_stddev: Option<String>,
    seed: Option<String>,
    warmup: Option<String>,
    warmup_excluded: Option<String>,
    extra: Option<String>,
    server_token_count: Option<String>,
}

impl Config {
    pub(super) fn read(doc: &Value) -> Self {
        let first = |srcs: &[String]| srcs.iter().find(|s| at(doc, s).is_some()).cloned();
        let owned = |srcs: &[&str]| srcs.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
        // AIPerf 0.13: the profiling and warm-up phases.
        let profiling = phase(doc, "profiling");
        let warmup_phase = phase(doc, "warmup");
        let in_phase = |leaf: &str| {
            profiling
                .iter()
                .map(|p| format!("{p}/{leaf}"))
                .collect::<Vec<_>>()
        };

        let mut concurrency_srcs = in_phase("concurrency");
        concurrency_srcs.extend(owned(&[
            "/input_config/loadgen/concurrency",
            "/input_config/concurrency",
            "/input_config/perf_analyzer/stimulus/concurrency",
        ]));
        let concurrency = concurrency_srcs.into_iter().find_map(|s| {
            at(doc, &s)
                .and_then(count)
                .filter(|n| *n >= 1)
                .map(|n| (n, s))
        });
        let mut request_rate = in_phase("rate");
        request_rate.extend(in_phase("request_rate"));
        request_rate.extend(in_phase("target_rate"));
        request_rate.extend(owned(&[
            "/input_config/loadgen/request_rate",
            "/input_config/request_rate",
            "/input_config/perf_analyzer/stimulus/request_rate",
        ]));
        let mut warmup: Vec<String> = warmup_phase
            .iter()
            .map(|p| format!("{p}/requests"))
            .collect();
        warmup.extend(owned(&[
            "/input_config/loadgen/warmup_request_count",
            "/input_config/warmup_request_count",
            "/input_config/perf_analyzer/warmup_request_count",
            "/input_config/input/request_count/warmup",
        ]));
        Config {
            concurrency,
            request_rate: first(&request_rate),
            output_mean: first(&owned(&[
                "/input_config/datasets/0/prompts/osl/mean",
                "/input_config/input/prompt/output_tokens/mean",
                "/input_config/input/output_tokens/mean",
                "/input_config/output_tokens_mean",
            ])),
            output_stddev: first(&owned(&[
                "/input_config/datasets/0/prompts/osl/stddev",
                "/input_config/input/prompt/output_tokens/stddev",
                "/input_config/input/output_tokens/stddev",
                "/input_config/output_tokens_stddev",
            ])),
            seed: first(&owned(&[
                "/input_config/datasets/0/random_seed",
                "/input_config/input/random_seed",
                "/input_config/random_seed",
                "/run_info/random_seed",
            ])),
            warmup: first(&warmup),
            warmup_excluded: warmup_phase
                .map(|p| format!("{p}/exclude_from_results"))
                .filter(|s| at(doc, s).is_some()),
            extra: first(&owned(&[
                "/input_config/endpoint/extra",
                "/input_config/input/extra",
                "/input_config/extra_inputs",
            ])),
            server_token_count: first(&owned(&[
                "/input_config/endpoint/use_server_token_count",
                "/input_config/use_server_token_count",
            ])),
        }
    }

    pub(super) fn apply(&self, b: &mut Builder<'_>) {
        let doc = b.doc();
        // The requested output length is a cap only when it does not vary (stddev 0 or none).
        if let Some(mean) = &self.output_mean {
            let fixed = self
                .output_stddev
                .as_ref()
                .is_none_or(|s| at(doc, s).and_then(number) == Some(0.0));
            if fixed {
                b.whole("/workload/max_output_tokens", mean, 1);
            }
        }
        if let Some(src) = &self.seed {
            b.whole("/workload/seed", src, 0);
        }
        if let Some(src) = &self.warmup
            && b.whole("/workload/warmup_requests", src, 0)
        {
            if let Some(flag) = &self.warmup_excluded {
                b.boolean("/workload/warmup_excluded", flag);
            } else if at(doc, src).and_then(count).is_some_and(|n| n > 0) {
                // Both harnesses run the warm-up requests as a phase of their own, outside
                // the profiled window.
                b.put("/workload/warmup_excluded", true, src);
            }
        }
        if let Some(extra) = &self.extra {
            extra_inputs(b, extra);
        }
        let server = self
            .server_token_count
            .as_ref()
            .filter(|s| at(doc, s).and_then(Value::as_bool) == Some(true));
        if let Some(src) = server {
            b.put("/workload/token_count_source", "server-usage", src);
        } else {
            b.put(
                "/workload/token_count_source",
                "client-tokenizer",
                "/input_config",
            );
            // AIPerf 0.13 also sums the server's usage counts: the figure R002 cross-checks.
            b.whole(
                "/levels/0/server_output_tokens",
                "/total_usage_completion_tokens/avg",
                0,
            );
        }
    }
}

/// `--extra-inputs` sent with every request: temperature, `ignore_eos`, `max_tokens`, and the
/// other sampling parameters as sent.
pub(super) fn extra_inputs(b: &mut Builder<'_>, base: &str) {
    let Some(obj) = at(b.doc(), base).and_then(Value::as_object) else {
        return;
    };
    for (k, v) in obj {
        let src = ptr(base, &[k]);
        match k.as_str() {
            "temperature" => {
                b.real("/workload/temperature", &src, 1.0);
            }
            "ignore_eos" => {
                b.boolean("/workload/ignore_eos", &src);
            }
            "max_tokens" | "max_completion_tokens" if !b.has("/workload/max_output_tokens") => {
                b.whole("/workload/max_output_tokens", &src, 1);
            }
            "top_p" | "top_k" | "min_p" | "repetition_penalty" | "presence_penalty"
            | "frequency_penalty" | "seed" | "min_tokens"
                if !v.is_null() =>
            {
                b.put(&ptr("/workload/sampling", &[k]), v.clone(), &src);
            }
            _ => {}
        }
    }
}
