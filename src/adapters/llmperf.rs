//! Anyscale / ray-project llmperf, `token_benchmark_ray.py` (formats.md §5).
//!
//! `*_summary.json` is one run at one concurrency: one result with one level. Its keys are
//! the results dictionary flattened with `_` (`results_ttft_s_quantiles_p95`), latencies in
//! seconds, some counts written as strings (`"550"`), the error counts per code as a Python
//! dict repr (`"{-100.0: 49}"`), user metadata merged at the top level, and `timestamp`
//! (Unix seconds). `version` is llmperf's results format date (`"2023-08-31"`), the only
//! version the file carries. Recognised by `num_concurrent_requests` with `results_*` keys.
//!
//! `*_individual_responses.json` is an array of per-request records of the same run. It is a
//! companion: it arrives as its own document and the summary it belongs to is not known here,
//! so its values cannot be attached as samples.
//!
//! No duration and no output token total are written; both are what llmperf computed its
//! rates from, so they are recovered exactly: the window is `completed × 60 /
//! results_num_completed_requests_per_min`, the tokens `results_number_output_tokens_mean ×
//! completed` (statistics are over successful requests only). Tokens are counted by the
//! client with a Llama tokenizer for every model (§0.3): `workload.tokenizer` is that
//! tokenizer, filled in although the file does not write it, with a "derived" provenance that
//! names llmperf as its source (like `token_count_source`, it is what the harness always
//! does). The output cap is `mean_output_tokens` when `stddev_output_tokens` is 0 (llmperf
//! sends `max_tokens` drawn from that distribution). `results_num_requests_started` and
//! `results_error_rate` are the harness's own total and error rate (`total_requests`,
//! `error_rate`), kept beside the counts they follow from (R025).

use serde_json::Value;

use super::items::{self, ItemsVerdict, Tally};
use super::map::{Builder, NONE_COMPLETED, at, count, from_epoch_seconds, known_keys, number, ptr};
use super::{Adapter, Mapped, Reading, Source};

/// The llmperf adapter.
pub struct Llmperf;

/// The tokenizer llmperf counts every model's tokens with, `LlamaTokenizerFast` loaded from
/// this id (formats.md §5): the Llama 2 `SentencePiece` tokenizer.
const LLMPERF_TOKENIZER: &str = "hf-internal-testing/llama-tokenizer";

fn is_summary(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.contains_key("num_concurrent_requests")
            && m.keys().any(|k| k.starts_with("results_"))
            && !m.contains_key("schema")
    })
}

/// An `*_individual_responses.json` record.
fn is_response(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.contains_key("error_code")
            && m.contains_key("number_output_tokens")
            && m.contains_key("end_to_end_latency_s")
    })
}

impl Adapter for Llmperf {
    fn name(&self) -> &'static str {
        "llmperf"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if is_summary(doc) {
            return Reading::results(vec![map_summary(doc, source)]);
        }
        items::read_array(Box::new(ResponsesTally::default()), doc, source)
    }

    fn items_tally(&self) -> Option<Box<dyn Tally>> {
        Some(Box::new(ResponsesTally::default()))
    }
}

/// What llmperf makes of an array: its `*_individual_responses.json` (every entry an object,
/// one a response: one record that lacks a key does not make the list unknown) is a companion.
#[derive(Default)]
struct ResponsesTally {
    responses: usize,
    not_objects: usize,
}

impl Tally for ResponsesTally {
    fn see(&mut self, item: &Value) {
        self.responses += usize::from(is_response(item));
        self.not_objects += usize::from(!item.is_object());
    }

    fn verdict(&self, _source: &Source<'_>) -> ItemsVerdict {
        if self.responses > 0 && self.not_objects == 0 {
            ItemsVerdict::Companion
        } else {
            ItemsVerdict::NotMine
        }
    }
}

/// Errors per code from the Python repr llmperf writes: `"{-100.0: 49, 429: 2}"`.
pub(crate) fn python_dict_counts(repr: &str) -> Option<u64> {
    let inner = repr.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut total = 0;
    for pair in inner.split(',').filter(|p| !p.trim().is_empty()) {
        let (_, n) = pair.rsplit_once(':')?;
        total += count(&Value::from(n.trim()))?;
    }
    Some(total)
}

fn map_summary(doc: &Value, source: &Source<'_>) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    let r = |k: &str| ptr("", &[&format!("results_{k}")]);
    if let Some(ts) = at(doc, "/timestamp")
        .and_then(number)
        .and_then(from_epoch_seconds)
    {
        b.measured_at(ts, "/timestamp");
    }
    b.put("/harness/name", "llmperf", "");
    b.string("/harness/version", "/version");
    b.string("/model/name", "/model");

    let completed = at(doc, &r("num_completed_requests")).and_then(count);
    let errors = at(doc, &r("number_errors"))
        .and_then(count)
        .map(|n| (n, r("number_errors")))
        .or_else(|| {
            let repr = at(doc, &r("error_code_frequency"))?.as_str()?;
            Some((python_dict_counts(repr)?, r("error_code_frequency")))
        });
    if completed == Some(0) && errors.as_ref().is_some_and(|(n, _)| *n > 0) {
        b.derived("/outcome", "failed", NONE_COMPLETED, "/levels/0/requests");
    }

    b.whole("/levels/0/concurrency", "/num_concurrent_requests", 1);
    b.whole("/levels/0/requests", &r("num_completed_requests"), 0);
    if let Some((n, src)) = &errors {
        b.put("/levels/0/failed", *n, src);
    }
    // The harness's own total and error rate, beside the counts they follow from (R025).
    b.whole("/levels/0/total_requests", &r("num_requests_started"), 0);
    if at(doc, &r("error_rate"))
        .and_then(number)
        .is_some_and(|e| (0.0..=1.0).contains(&e))
    {
        b.real("/levels/0/error_rate", &r("error_rate"), 1.0);
    }
    if let Some(c) = completed.filter(|c| *c > 0) {
        #[expect(
            clippy::cast_precision_loss,
            reason = "request counts are far below 2^52"
        )]
        let c = c as f64;
        let per_min_src = r("num_completed_requests_per_min");
        if let Some(per_min) = at(doc, &per_min_src).and_then(number).filter(|f| *f > 0.0) {
            b.put("/levels/0/duration_s", c * 60.0 / per_min, &per_min_src);
        }
        let mean_src = r("number_output_tokens_mean");
        if let Some(mean) = at(doc, &mean_src).and_then(number).filter(|f| *f >= 0.0) {
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "non-negative and far below 2^63"
            )]
            let total = (mean * c).round() as u64;
            b.put("/levels/0/output_tokens", total, &mean_src);
        }
        b.real(
            "/levels/0/throughput_tok_s/aggregate",
            &r("mean_output_throughput_token_per_s"),
            1.0,
        );
        b.real(
            "/levels/0/per_user_tok_s/mean",
            &r("request_output_throughput_token_per_s_mean"),
            1.0,
        );
        b.real(
            "/levels/0/per_user_tok_s/median",
            &r("request_output_throughput_token_per_s_quantiles_p50"),
            1.0,
        );
        for q in ["p50", "p95", "p99"] {
            b.real(
                &format!("/levels/0/ttft_s/{q}"),
                &r(&format!("ttft_s_quantiles_{q}")),
                1.0,
            );
        }
        for q in ["p50", "p95"] {
            b.real(
                &format!("/levels/0/tpot_ms/{q}"),
                &r(&format!("inter_token_latency_s_quantiles_{q}")),
                1000.0,
            );
            b.real(
                &format!("/levels/0/e2e_s/{q}"),
                &r(&format!("end_to_end_latency_s_quantiles_{q}")),
                1.0,
            );
        }
        b.real(
            "/workload/prompt_tokens/min",
            &r("number_input_tokens_min"),
            1.0,
        );
        b.real(
            "/workload/prompt_tokens/max",
            &r("number_input_tokens_max"),
            1.0,
        );
        b.real(
            "/workload/prompt_tokens/mean",
            &r("number_input_tokens_mean"),
            1.0,
        );
    }
    if at(doc, "/stddev_output_tokens").and_then(number) == Some(0.0) {
        b.whole("/workload/max_output_tokens", "/mean_output_tokens", 1);
    }
    b.put("/workload/token_count_source", "client-tokenizer", "");
    // llmperf has no tokenizer option and writes none: it counts every model with this one
    // (formats.md §0.3, §5). The value is the harness's, not the file's, and says so in its
    // provenance; R022 compares it with the model. A `tokenizer` key (user metadata, or a fork
    // that takes the option) is a recorded value and wins.
    if !b.string("/workload/tokenizer", "/tokenizer") {
        b.implied(
            "/workload/tokenizer",
            LLMPERF_TOKENIZER,
            "llmperf's fixed tokenizer (it counts every model with it; the file does not record it)",
        );
    }
    sampling_params(&mut b, doc);
    known_keys(&mut b, "");
    b.finish()
}

/// `additional_sampling_params_*` (flattened; an empty dict leaves no key): the temperature,
/// and every other parameter as sent.
fn sampling_params(b: &mut Builder<'_>, doc: &Value) {
    let Some(obj) = doc.as_object() else {
        return;
    };
    for (k, v) in obj {
        let Some(name) = k.strip_prefix("additional_sampling_params_") else {
            continue;
        };
        let src = ptr("", &[k]);
        if name == "temperature" {
            b.real("/workload/temperature", &src, 1.0);
        } else if !v.is_null() && !name.is_empty() {
            b.put(&ptr("/workload/sampling", &[name]), v.clone(), &src);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::python_dict_counts;

    #[test]
    fn python_dict_reprs_are_summed() {
        assert_eq!(python_dict_counts("{-100.0: 49}"), Some(49));
        assert_eq!(python_dict_counts("{429: 2, 500: 3}"), Some(5));
        assert_eq!(python_dict_counts("{}"), Some(0));
        assert_eq!(python_dict_counts("nonsense"), None);
    }
}
