//! The named thresholds of every rule, with the source each default comes from.
//!
//! The configuration file may override any of them; rules read them only from here.

/// Thresholds in force for a run.
///
/// `benchlint.toml` sets any of them under `[thresholds]`, by field name; a field not written
/// keeps its default, an unknown name or a wrong type is an error (exit 2).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Thresholds {
    /// Largest file read, bytes (E001). Default 256 MiB. The size is checked before the file
    /// is opened for reading, and no more than this is ever read (a file that grows meanwhile
    /// is refused too).
    pub max_file_bytes: u64,
    /// Deepest nesting of arrays and objects in one document (E002). Default 64; a canonical
    /// result nests about 6 levels. Checked by a scan that does not recurse, before the parser
    /// sees the document; a deeper document is reported and not parsed. Values above 128 act as
    /// 128, the parser's own limit.
    pub max_depth: usize,
    /// Most items read from any one array, the per-request samples of a level for instance
    /// (E001). Default 1,000,000. The items past the bound are dropped before parsing, so
    /// memory follows the bound, not the file; the finding gives the array's length. At least 1.
    pub max_array_items: usize,
    /// Most concurrency levels read from one result (E001). Default 1,000 (a real ladder has
    /// tens). Levels past the bound are dropped before the result is validated or checked,
    /// and the finding says how many there were.
    pub max_levels: usize,
    /// Most findings kept for one file. Default 1,000: a file with more is broken throughout,
    /// and a thousand findings say so. Past the bound findings are counted by severity (the
    /// summary and the exit code include them) but not stored or listed; the summary says how
    /// many.
    pub max_findings_per_file: usize,
    /// Most findings kept for a whole run. Default 100,000; past it, as per file: counted,
    /// not stored.
    pub max_findings: usize,
    /// Largest difference between the client's output token count and the server's counter,
    /// a fraction of the server's count (R002): DESIGN.md table R, "differ by more than 2%"
    /// (seed 000, the 40.7-vs-27.8 note).
    pub token_count_tolerance: f64,
    /// Smallest output cap per request, tokens, under which a warning is reported (R003):
    /// seed 002, "Below about 128, per-request fixed overhead dominates".
    pub min_output_tokens: u64,
    /// Output cap, tokens, under which a note is due (R003, not emitted until notes have a
    /// severity of their own; named in the help): seed 002, "The default is 256".
    pub note_output_tokens: u64,
    /// Smallest device clock under load, a fraction of the nominal clock (R008): DESIGN.md
    /// table R, "below 80% of nominal" (seed 000, 494 MHz instead of about 2,400 MHz).
    pub min_clock_fraction: f64,
    /// Shortest steady-state measured window of a level, seconds (R009): seed 004, "Keep N
    /// requests in flight for at least 120 seconds".
    pub min_window_s: f64,
    /// Shortest ramp dropped before the measured window, seconds (R009): seed 004, "count
    /// only tokens produced inside the window after a 20 second ramp".
    pub min_ramp_s: f64,
    /// Largest TTFT p95 as a multiple of the p50 before a level is past the knee (R010):
    /// seed 004, "flag any level whose 95th percentile exceeds five times its median".
    pub ttft_tail_ratio: f64,
    /// Largest relative difference between aggregate / streams and the per-user rate (R011):
    /// DESIGN.md table R, "differs from the per-user rate by more than 25%" (seed 004).
    pub aggregate_per_user_tolerance: f64,
    /// Slowest prefill, prompt tokens per second, that R011 takes a first-token latency to be
    /// prefill at: a median TTFT up to the time the prompts in flight take to prefill at this
    /// rate is prefill, the rest is waiting (a stall). 500, a quarter of the slowest prefill
    /// seed 004 reports (2,041 tok/s, a four-bit layer routed through a slow kernel on sm_121):
    /// seed 004's 6.1 s median TTFT on 41-token prompts at 16 streams is a stall at any rate.
    pub min_prefill_tok_s: f64,
    /// Largest fall of throughput from one level to the next that is still a plateau, a
    /// fraction (R012): DESIGN.md "Statistics", the static 2% throughput noise floor.
    pub ladder_dip_tolerance: f64,
    /// Gain of the top level over the one below from which a ladder is not saturated, a
    /// fraction (R013): DESIGN.md conventions, "the last level still gains at least 5%".
    pub saturation_gain: f64,
    /// Relative difference allowed between a reported summary and the value recomputed from
    /// the file's samples (R017), on top of half a unit in the last reported digit (rounding to
    /// the precision the file writes): 1%, so that only a real disagreement fires.
    pub summary_tolerance: f64,
    /// Smallest mean output per request, as a fraction of the fixed length asked for (R020):
    /// the `MLPerf` output-length guard accepts 0.9 to 1.1 times (research/peers.md).
    pub min_output_fraction: f64,
    /// Smallest mean output per request, as a fraction of the output cap, whatever `ignore_eos`
    /// says (R020): under it the outputs stopped far short of the cap, so the cap does not
    /// describe the workload that was measured. 60%, a judgment: a cap set for a dataset's
    /// natural outputs sits above most of them, but a mean under three fifths of it is a
    /// workload of another shape (the real case behind it: about 270 of 500 tokens, 54%).
    pub min_output_cap_fraction: f64,
    /// Largest share of a level's requests that may fail, `failed / (requests + failed)`, before
    /// the level's throughput is reported as a figure of the survivors only (R024). Default 5%, a
    /// judgment rather than a published figure: one request in twenty is more than the odd
    /// time-out, and far below the case behind the rule, research/formats.md §5 and §10, a real
    /// llmperf summary (`bedrock_70b`) that publishes its throughput with 49 of 150 requests
    /// failed (32.7%). Any failure at all is R006.
    pub max_failed_share: f64,
    /// Relative difference allowed between a published cost per million tokens and the one
    /// recomputed from the hourly cost and the measured peak (L004), on top of rounding: 5%.
    pub cost_tolerance: f64,
    /// Largest relative difference between a level's reported aggregate throughput and its
    /// own output tokens over its own duration (R025), on top of the rounding of the reported
    /// digits: DESIGN.md table R, "a throughput against tokens over duration by more than 2%".
    pub throughput_arithmetic_tolerance: f64,
    /// Smallest share of the requested rate an open-loop level must achieve (R027): DESIGN.md
    /// table R, "achieved less than 90% of the request rate it asked for".
    pub min_achieved_rate_fraction: f64,
    /// Largest TTFT p50 that is "near zero", seconds (R028): 1 ms, less than any server takes to
    /// receive a request over the network, tokenize it and prefill it (the fastest prefill in
    /// the sources, seed 000's 1,520 tok/s, needs 13 ms for 20 prompt tokens).
    pub ttft_near_zero_s: f64,
    /// Fewest runs of a speculative configuration, per workload (S001): seed 000, "n ≥ 15 with
    /// a 95% confidence interval for speculative-decoding configs" (spread 12–19% with
    /// speculation on; n = 15 gives ±3% at CV 5%, research/stats.md §7.1).
    pub min_runs_speculative: usize,
    /// Fewest runs of any other configuration (S002): seed 000, "Without speculation the
    /// spread was 1–3%, and n=5 is enough" (±3% at CV 2%, research/stats.md §7.1).
    pub min_runs: usize,
    /// Fewest full ladders per configuration (S004): seed 004, "At least three full ladders
    /// per configuration".
    pub min_ladders: usize,
    /// Fewest full ladders behind a published figure (S004's help; the audit): seed 004, "and
    /// five for anything on a page".
    pub min_ladders_published: usize,
    /// Fewest concurrency levels a run needs to count as a full ladder (S004): a single level
    /// re-measured is a spot check, not a ladder.
    pub min_ladder_levels: usize,
    /// Largest coefficient of variation of a level's throughput across runs (S005): seed 004,
    /// "Any level above 10 percent variation is investigated" (pyperf's check, `stats::HIGH_CV`).
    pub max_cv: f64,
    /// Relative difference (larger over smaller, minus one) beyond which two runs disagree
    /// (S006): the static throughput noise floor of DESIGN.md "Statistics", 2%
    /// (`stats::STATIC_NOISE_FLOOR_THROUGHPUT`).
    pub unresolved_noise_floor: f64,
    /// Shortest mean prompt, tokens, of the prefill-heavy shape (S008): seed 004, "a
    /// prefill-heavy shape of two to four thousand unique prompt tokens".
    pub prefill_heavy_min_prompt_tokens: f64,
    /// Longest mean prompt, tokens, of the prefill-heavy shape (S008): seed 004, as above.
    pub prefill_heavy_max_prompt_tokens: f64,
    /// Per-user floor, tokens per second, of the matched service level on which `benchlint
    /// check` restates a comparison (C009–C011 on the matched basis); `audit` and `capacity`
    /// take `--floor`: seed 004, "Set the floor at roughly 20 tokens per second per user".
    pub service_floor_tok_s: f64,
    /// Largest relative difference (larger over smaller, minus one) between the per-user rates
    /// of two compared sides before they are different service levels (C012): 15%, well inside
    /// seed 004's 10.5 against 20.1 tok/s.
    pub service_level_tolerance: f64,
    /// Largest relative difference (longer over shorter, minus one) between the prompt lengths
    /// or output caps of two compared sides before their shapes differ (C007): 25%.
    pub prompt_shape_tolerance: f64,
    /// Relative difference allowed between a published claim and the value recomputed from its
    /// runs (C013), on top of the rounding of its published digits: 2%, the static throughput
    /// noise floor.
    pub claim_tolerance: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            max_file_bytes: 256 * 1024 * 1024,
            max_depth: crate::json::DEFAULT_MAX_DEPTH,
            max_array_items: crate::json::DEFAULT_MAX_ARRAY_ITEMS,
            max_levels: 1_000,
            max_findings_per_file: 1_000,
            max_findings: 100_000,
            token_count_tolerance: 0.02,
            min_output_tokens: 128,
            note_output_tokens: 256,
            min_clock_fraction: 0.80,
            min_window_s: 120.0,
            min_ramp_s: 20.0,
            ttft_tail_ratio: 5.0,
            aggregate_per_user_tolerance: 0.25,
            min_prefill_tok_s: 500.0,
            ladder_dip_tolerance: 0.02,
            saturation_gain: 0.05,
            summary_tolerance: 0.01,
            min_output_fraction: 0.90,
            min_output_cap_fraction: 0.60,
            max_failed_share: 0.05,
            cost_tolerance: 0.05,
            throughput_arithmetic_tolerance: 0.02,
            min_achieved_rate_fraction: 0.90,
            ttft_near_zero_s: 0.001,
            min_runs_speculative: 15,
            min_runs: 5,
            min_ladders: 3,
            min_ladders_published: 5,
            min_ladder_levels: 2,
            max_cv: crate::stats::HIGH_CV,
            unresolved_noise_floor: crate::stats::STATIC_NOISE_FLOOR_THROUGHPUT,
            prefill_heavy_min_prompt_tokens: 2000.0,
            prefill_heavy_max_prompt_tokens: 4000.0,
            service_floor_tok_s: 20.0,
            service_level_tolerance: 0.15,
            prompt_shape_tolerance: 0.25,
            claim_tolerance: crate::stats::STATIC_NOISE_FLOOR_THROUGHPUT,
        }
    }
}

impl Thresholds {
    /// The bounds the JSON reader applies to each document.
    pub fn json_limits(&self) -> crate::json::Limits {
        crate::json::Limits {
            max_depth: self.max_depth,
            max_array_items: self.max_array_items.max(1),
            max_failures: self.max_findings_per_file,
        }
    }
}
