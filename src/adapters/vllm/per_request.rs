//! The per-request arrays of a run (`--save-detailed` in vLLM, `--output-details` in `SGLang`):
//! which requests succeeded, their prompt lengths, and the TTFT, output-token and TPOT samples.

use serde_json::Value;

use crate::adapters::map::{Builder, at, count, number, ptr};

/// The per-request arrays that vLLM's `--save-detailed` and `SGLang`'s `--output-details` write
/// (`input_lens`, `output_lens`, `ttfts` in seconds, `errors`): which requests succeeded, the
/// prompt lengths, the TTFT and output-token samples. Without `input_lens` the mean prompt
/// length is `total_input_tokens / completed` (`total_src`). Returns the success mask.
pub(crate) fn detailed(
    b: &mut Builder<'_>,
    base: &str,
    total_src: &str,
    completed: Option<u64>,
) -> Vec<bool> {
    let doc = b.doc();
    let p = |k: &str| ptr(base, &[k]);
    // A request succeeded when its error is empty (both harnesses keep "" for success).
    let keep: Vec<bool> = at(doc, &p("errors"))
        .and_then(Value::as_array)
        .map(|errs| {
            errs.iter()
                .map(|e| e.as_str().is_none_or(str::is_empty))
                .collect()
        })
        .unwrap_or_default();
    let lens: Vec<f64> = at(doc, &p("input_lens"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .enumerate()
                .filter(|(i, _)| keep.get(*i).copied().unwrap_or(true))
                .filter_map(|(_, v)| number(v).filter(|n| *n >= 0.0))
                .collect()
        })
        .unwrap_or_default();
    if lens.is_empty() {
        let total = at(doc, total_src).and_then(number).filter(|t| *t >= 0.0);
        if let (Some(t), Some(c)) = (total, completed.filter(|c| *c > 0)) {
            #[expect(
                clippy::cast_precision_loss,
                reason = "request counts are far below 2^52"
            )]
            let mean = t / c as f64;
            b.put("/workload/prompt_tokens/mean", mean, total_src);
        }
    } else {
        let src = p("input_lens");
        let min = lens.iter().copied().fold(f64::INFINITY, f64::min);
        let max = lens.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        #[expect(
            clippy::cast_precision_loss,
            reason = "request counts are far below 2^52"
        )]
        let mean = lens.iter().sum::<f64>() / lens.len() as f64;
        b.put("/workload/prompt_tokens/min", min, &src);
        b.put("/workload/prompt_tokens/max", max, &src);
        b.put("/workload/prompt_tokens/mean", mean, &src);
    }
    b.samples("/levels/0/samples/ttft_s", &p("ttfts"), &keep, 1.0);
    b.samples(
        "/levels/0/samples/output_tokens",
        &p("output_lens"),
        &keep,
        1.0,
    );
    keep
}

/// vLLM's TPOT of each request is `(latency - ttft) / (output_len - 1)`, and the chunk gaps
/// `itls` add up to `latency - ttft` (formats.md §1.3): the per-request TPOT, ms, for the
/// successful requests with more than one output token, as vLLM itself counts them.
pub(super) fn tpot_samples(b: &mut Builder<'_>, base: &str, keep: &[bool]) {
    let doc = b.doc();
    let (Some(itls), Some(lens)) = (
        at(doc, &ptr(base, &["itls"])).and_then(Value::as_array),
        at(doc, &ptr(base, &["output_lens"])).and_then(Value::as_array),
    ) else {
        return;
    };
    let tpots: Vec<Value> = itls
        .iter()
        .zip(lens)
        .enumerate()
        .filter(|(i, _)| keep.get(*i).copied().unwrap_or(true))
        .filter_map(|(_, (gaps, len))| {
            let n = count(len).filter(|n| *n > 1)?;
            let sum: f64 = gaps.as_array()?.iter().filter_map(number).sum();
            #[expect(
                clippy::cast_precision_loss,
                reason = "token counts are far below 2^52"
            )]
            let per = sum * 1000.0 / (n - 1) as f64;
            (per.is_finite() && per >= 0.0).then(|| Value::from(per))
        })
        .collect();
    if !tpots.is_empty() {
        b.put("/levels/0/samples/tpot_ms", tpots, &ptr(base, &["itls"]));
    }
}
