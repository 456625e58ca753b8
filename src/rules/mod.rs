//! The rule catalogue: what a rule is, the contexts rules read, and the registry.
//!
//! One rule is one file: its documentation (the `///` lines of `declare_rule!`), its metadata
//! and its check function. Adding a rule touches that file, one line of `registry.rs` and one
//! fixture folder `testdata/rules/<CODE>-<name>/`.

mod context;
mod registry;
pub mod served;
pub mod support;
pub mod tally;

pub mod c001_mixed_precision;
pub mod c002_mixed_speculation;
pub mod c003_mixed_graph_mode;
pub mod c004_mixed_sequence_cap;
pub mod c005_constant_total_concurrency;
pub mod c006_mixed_power_basis;
pub mod c007_mixed_prompt_shape;
pub mod c008_mixed_engine_settings;
pub mod c009_below_control_noise;
pub mod c010_single_launch_difference;
pub mod c011_tie_within_variance;
pub mod c012_mismatched_service_level;
pub mod c013_claim_not_reproducible;
pub mod c014_missing_quality_gate;
pub mod c015_claim_source_missing;
pub mod e001_unreadable_file;
pub mod e002_invalid_json;
pub mod e003_schema_violation;
pub mod e004_unknown_format;
pub mod e005_nonstandard_json;
pub mod e006_duplicate_result_id;
pub mod l001_unlabeled_throughput;
pub mod l002_ttft_without_prompt_length;
pub mod l003_aggregate_without_per_user;
pub mod l004_cost_without_basis;
pub mod l005_power_kind_unlabeled;
pub mod m001_missing_hardware;
pub mod m002_missing_engine_identity;
pub mod m003_missing_serve_command;
pub mod m004_retyped_serve_command;
pub mod m005_missing_speculative_config;
pub mod m006_missing_graph_mode;
pub mod m007_missing_engine_limits;
pub mod m008_missing_precision;
pub mod m009_missing_parallelism;
pub mod m010_missing_fabric;
pub mod m011_missing_parity_check;
pub mod m012_missing_load_snapshot;
pub mod m013_missing_harness_provenance;
pub mod m014_missing_paired_artifacts;
pub mod m015_serve_command_mismatch;
pub mod m016_placeholder_value;
pub mod m017_missing_artifact_file;
pub mod m018_secret_in_result;
pub mod m019_sidecar_conflict;
pub mod r001_stream_chunks_counted;
pub mod r002_token_count_mismatch;
pub mod r003_short_output;
pub mod r004_nonzero_temperature;
pub mod r005_warmup_included;
pub mod r006_failed_requests;
pub mod r007_all_zero_level;
pub mod r008_low_clock_under_load;
pub mod r009_burst_window;
pub mod r010_ttft_tail_knee;
pub mod r011_aggregate_per_user_mismatch;
pub mod r012_non_monotonic_ladder;
pub mod r013_ladder_not_saturated;
pub mod r014_ascending_level_order;
pub mod r015_thinking_enabled;
pub mod r016_requested_not_measured;
pub mod r017_summary_mismatch_raw;
pub mod r018_speculation_on_random_tokens;
pub mod r019_unbounded_request_rate;
pub mod r020_output_shortfall;
pub mod r021_quality_gate_failed;
pub mod r022_client_tokenizer_mismatch;
pub mod r023_backend_is_client_api;
pub mod r024_high_error_rate;
pub mod r025_summary_counts_contradict;
pub mod r026_validity_overridden;
pub mod r027_rate_not_achieved;
pub mod r028_ttft_without_streaming;
pub mod s001_speculative_few_runs;
pub mod s002_few_runs;
pub mod s003_single_launch;
pub mod s004_few_ladders;
pub mod s005_high_variation;
pub mod s006_unresolved_runs;
pub mod s007_single_workload_speculative;
pub mod s008_decode_only_suite;
pub mod s009_curated_corpus;
pub mod s010_duplicate_run;

pub use context::{ArtifactState, CorpusCtx, DocumentCtx, Emit, Emitter, ResultCtx};
pub use registry::{RULES, find_rule};
pub use tally::CorpusTally;

pub use crate::diagnostic::{RuleMeta, Scope};

/// How a rule is run.
#[derive(Clone, Copy)]
pub enum Check {
    /// Emitted by the loader or the engine, not called per item.
    Builtin,
    /// Called once per raw document.
    Document(fn(&DocumentCtx<'_>, &mut Emitter<'_>)),
    /// Called once per canonical result.
    Result(fn(&ResultCtx<'_>, &mut Emitter<'_>)),
    /// Called once for the whole corpus (group rules over configuration fingerprints); each
    /// finding names the result it is placed on (`Emitter::emit_on`). What the rule reads of the
    /// corpus ([`Reach`]) lets a run that puts its results away call it on the part it reads.
    Corpus(Reach, fn(&CorpusCtx<'_>, &mut Emitter<'_>)),
}

/// What a corpus-wide rule reads of the corpus. A run that puts its results away as they are
/// read (`check`) holds none of them when the corpus-wide rules run: it reads back the part
/// each rule reads and calls the rule on that part alone, as a corpus of its own. A rule whose
/// findings on that part could depend on any result outside it must say so here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// One configuration's runs ([`CorpusCtx::identified_configurations`] and their
    /// results): called on each configuration alone, its runs read back without their
    /// artifacts, cost and notes (what a run is and what it measured).
    Configuration,
    /// The successful runs of one speculative setup, whatever their workloads: called on the
    /// results of each setup alone (with any others whose setup hashes alike), read back
    /// without their levels, artifacts, cost and notes: such a rule reads what a result is,
    /// never what it measured.
    Setup,
    /// Results that may be copies of one another (one copy key): called on each set of copies
    /// alone.
    Copies,
    /// Only the counts of the whole corpus ([`CorpusCtx::tally`]): called once, with no result.
    Tally,
    /// The claims and every result: called once with every result, read back when the corpus
    /// has claims.
    Claims,
}

/// A registered rule.
pub struct Rule {
    /// Its metadata.
    pub meta: &'static RuleMeta,
    /// How it runs.
    pub check: Check,
}

/// Declares a rule's metadata, keeping its `///` documentation as its doc page.
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis static $ident:ident = {
            code: $code:literal,
            name: $name:literal,
            severity: $severity:ident,
            scope: $scope:ident,
            $(since: $since:literal,)?
            source: $source:literal,
            summary: $summary:literal $(,)?
        }
    ) => {
        $vis static $ident: $crate::diagnostic::RuleMeta = $crate::diagnostic::RuleMeta {
            code: $code,
            name: $name,
            severity: $crate::diagnostic::Severity::$severity,
            scope: $crate::diagnostic::Scope::$scope,
            since: declare_rule!(@since $($since)?),
            source: $source,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
        };
    };
    (@since $since:literal) => { Some($since) };
    (@since) => { None };
}
pub(crate) use declare_rule;
