//! The registry: every rule, in code order. One line per rule.

use super::{
    Check, Reach, Rule, c001_mixed_precision as c001, c002_mixed_speculation as c002,
    c003_mixed_graph_mode as c003, c004_mixed_sequence_cap as c004,
    c005_constant_total_concurrency as c005, c006_mixed_power_basis as c006,
    c007_mixed_prompt_shape as c007, c008_mixed_engine_settings as c008,
    c009_below_control_noise as c009, c010_single_launch_difference as c010,
    c011_tie_within_variance as c011, c012_mismatched_service_level as c012,
    c013_claim_not_reproducible as c013, c014_missing_quality_gate as c014,
    c015_claim_source_missing as c015, e001_unreadable_file as e001, e002_invalid_json as e002,
    e003_schema_violation as e003, e004_unknown_format as e004, e005_nonstandard_json as e005,
    e006_duplicate_result_id as e006, l001_unlabeled_throughput as l001,
    l002_ttft_without_prompt_length as l002, l003_aggregate_without_per_user as l003,
    l004_cost_without_basis as l004, l005_power_kind_unlabeled as l005,
    m001_missing_hardware as m001, m002_missing_engine_identity as m002,
    m003_missing_serve_command as m003, m004_retyped_serve_command as m004,
    m005_missing_speculative_config as m005, m006_missing_graph_mode as m006,
    m007_missing_engine_limits as m007, m008_missing_precision as m008,
    m009_missing_parallelism as m009, m010_missing_fabric as m010,
    m011_missing_parity_check as m011, m012_missing_load_snapshot as m012,
    m013_missing_harness_provenance as m013, m014_missing_paired_artifacts as m014,
    m015_serve_command_mismatch as m015, m016_placeholder_value as m016,
    m017_missing_artifact_file as m017, m018_secret_in_result as m018,
    m019_sidecar_conflict as m019, r001_stream_chunks_counted as r001,
    r002_token_count_mismatch as r002, r003_short_output as r003, r004_nonzero_temperature as r004,
    r005_warmup_included as r005, r006_failed_requests as r006, r007_all_zero_level as r007,
    r008_low_clock_under_load as r008, r009_burst_window as r009, r010_ttft_tail_knee as r010,
    r011_aggregate_per_user_mismatch as r011, r012_non_monotonic_ladder as r012,
    r013_ladder_not_saturated as r013, r014_ascending_level_order as r014,
    r015_thinking_enabled as r015, r016_requested_not_measured as r016,
    r017_summary_mismatch_raw as r017, r018_speculation_on_random_tokens as r018,
    r019_unbounded_request_rate as r019, r020_output_shortfall as r020,
    r021_quality_gate_failed as r021, r022_client_tokenizer_mismatch as r022,
    r023_backend_is_client_api as r023, r024_high_error_rate as r024,
    r025_summary_counts_contradict as r025, r026_validity_overridden as r026,
    r027_rate_not_achieved as r027, r028_ttft_without_streaming as r028,
    s001_speculative_few_runs as s001, s002_few_runs as s002, s003_single_launch as s003,
    s004_few_ladders as s004, s005_high_variation as s005, s006_unresolved_runs as s006,
    s007_single_workload_speculative as s007, s008_decode_only_suite as s008,
    s009_curated_corpus as s009, s010_duplicate_run as s010,
};

/// Every rule, sorted by code.
pub static RULES: &[Rule] = &[
    Rule {
        meta: &e001::RULE,
        check: Check::Builtin,
    },
    Rule {
        meta: &e002::RULE,
        check: Check::Builtin,
    },
    Rule {
        meta: &e003::RULE,
        check: Check::Builtin,
    },
    Rule {
        meta: &e004::RULE,
        check: Check::Builtin,
    },
    Rule {
        meta: &e005::RULE,
        check: Check::Builtin,
    },
    Rule {
        meta: &e006::RULE,
        check: Check::Builtin,
    },
    Rule {
        meta: &m001::RULE,
        check: Check::Result(m001::check),
    },
    Rule {
        meta: &m002::RULE,
        check: Check::Result(m002::check),
    },
    Rule {
        meta: &m003::RULE,
        check: Check::Result(m003::check),
    },
    Rule {
        meta: &m004::RULE,
        check: Check::Result(m004::check),
    },
    Rule {
        meta: &m005::RULE,
        check: Check::Result(m005::check),
    },
    Rule {
        meta: &m006::RULE,
        check: Check::Result(m006::check),
    },
    Rule {
        meta: &m007::RULE,
        check: Check::Result(m007::check),
    },
    Rule {
        meta: &m008::RULE,
        check: Check::Result(m008::check),
    },
    Rule {
        meta: &m009::RULE,
        check: Check::Result(m009::check),
    },
    Rule {
        meta: &m010::RULE,
        check: Check::Result(m010::check),
    },
    Rule {
        meta: &m011::RULE,
        check: Check::Result(m011::check),
    },
    Rule {
        meta: &m012::RULE,
        check: Check::Result(m012::check),
    },
    Rule {
        meta: &m013::RULE,
        check: Check::Result(m013::check),
    },
    Rule {
        meta: &m014::RULE,
        check: Check::Result(m014::check),
    },
    Rule {
        meta: &m015::RULE,
        check: Check::Result(m015::check),
    },
    Rule {
        meta: &m016::RULE,
        check: Check::Result(m016::check),
    },
    Rule {
        meta: &m017::RULE,
        check: Check::Result(m017::check),
    },
    Rule {
        meta: &m018::RULE,
        check: Check::Document(m018::check),
    },
    Rule {
        meta: &m019::RULE,
        check: Check::Builtin,
    },
    Rule {
        meta: &r001::RULE,
        check: Check::Result(r001::check),
    },
    Rule {
        meta: &r002::RULE,
        check: Check::Result(r002::check),
    },
    Rule {
        meta: &r003::RULE,
        check: Check::Result(r003::check),
    },
    Rule {
        meta: &r004::RULE,
        check: Check::Result(r004::check),
    },
    Rule {
        meta: &r005::RULE,
        check: Check::Result(r005::check),
    },
    Rule {
        meta: &r006::RULE,
        check: Check::Result(r006::check),
    },
    Rule {
        meta: &r007::RULE,
        check: Check::Result(r007::check),
    },
    Rule {
        meta: &r008::RULE,
        check: Check::Result(r008::check),
    },
    Rule {
        meta: &r009::RULE,
        check: Check::Result(r009::check),
    },
    Rule {
        meta: &r010::RULE,
        check: Check::Result(r010::check),
    },
    Rule {
        meta: &r011::RULE,
        check: Check::Result(r011::check),
    },
    Rule {
        meta: &r012::RULE,
        check: Check::Result(r012::check),
    },
    Rule {
        meta: &r013::RULE,
        check: Check::Result(r013::check),
    },
    Rule {
        meta: &r014::RULE,
        check: Check::Result(r014::check),
    },
    Rule {
        meta: &r015::RULE,
        check: Check::Result(r015::check),
    },
    Rule {
        meta: &r016::RULE,
        check: Check::Result(r016::check),
    },
    Rule {
        meta: &r017::RULE,
        check: Check::Result(r017::check),
    },
    Rule {
        meta: &r018::RULE,
        check: Check::Result(r018::check),
    },
    Rule {
        meta: &r019::RULE,
        check: Check::Result(r019::check),
    },
    Rule {
        meta: &r020::RULE,
        check: Check::Result(r020::check),
    },
    Rule {
        meta: &r021::RULE,
        check: Check::Result(r021::check),
    },
    Rule {
        meta: &r022::RULE,
        check: Check::Result(r022::check),
    },
    Rule {
        meta: &r023::RULE,
        check: Check::Result(r023::check),
    },
    Rule {
        meta: &r024::RULE,
        check: Check::Result(r024::check),
    },
    Rule {
        meta: &r025::RULE,
        check: Check::Result(r025::check),
    },
    Rule {
        meta: &r026::RULE,
        check: Check::Result(r026::check),
    },
    Rule {
        meta: &r027::RULE,
        check: Check::Result(r027::check),
    },
    Rule {
        meta: &r028::RULE,
        check: Check::Result(r028::check),
    },
    Rule {
        meta: &l001::RULE,
        check: Check::Result(l001::check),
    },
    Rule {
        meta: &l002::RULE,
        check: Check::Result(l002::check),
    },
    Rule {
        meta: &l003::RULE,
        check: Check::Result(l003::check),
    },
    Rule {
        meta: &l004::RULE,
        check: Check::Result(l004::check),
    },
    Rule {
        meta: &l005::RULE,
        check: Check::Result(l005::check),
    },
    Rule {
        meta: &s001::RULE,
        check: Check::Corpus(Reach::Configuration, s001::check),
    },
    Rule {
        meta: &s002::RULE,
        check: Check::Corpus(Reach::Configuration, s002::check),
    },
    Rule {
        meta: &s003::RULE,
        check: Check::Corpus(Reach::Configuration, s003::check),
    },
    Rule {
        meta: &s004::RULE,
        check: Check::Corpus(Reach::Configuration, s004::check),
    },
    Rule {
        meta: &s005::RULE,
        check: Check::Corpus(Reach::Configuration, s005::check),
    },
    Rule {
        meta: &s006::RULE,
        check: Check::Corpus(Reach::Configuration, s006::check),
    },
    Rule {
        meta: &s007::RULE,
        check: Check::Corpus(Reach::Setup, s007::check),
    },
    Rule {
        meta: &s008::RULE,
        check: Check::Corpus(Reach::Tally, s008::check),
    },
    Rule {
        meta: &s009::RULE,
        check: Check::Corpus(Reach::Tally, s009::check),
    },
    Rule {
        meta: &s010::RULE,
        check: Check::Corpus(Reach::Copies, s010::check),
    },
    Rule {
        meta: &c001::RULE,
        check: Check::Corpus(Reach::Claims, c001::check),
    },
    Rule {
        meta: &c002::RULE,
        check: Check::Corpus(Reach::Claims, c002::check),
    },
    Rule {
        meta: &c003::RULE,
        check: Check::Corpus(Reach::Claims, c003::check),
    },
    Rule {
        meta: &c004::RULE,
        check: Check::Corpus(Reach::Claims, c004::check),
    },
    Rule {
        meta: &c005::RULE,
        check: Check::Corpus(Reach::Claims, c005::check),
    },
    Rule {
        meta: &c006::RULE,
        check: Check::Corpus(Reach::Claims, c006::check),
    },
    Rule {
        meta: &c007::RULE,
        check: Check::Corpus(Reach::Claims, c007::check),
    },
    Rule {
        meta: &c008::RULE,
        check: Check::Corpus(Reach::Claims, c008::check),
    },
    Rule {
        meta: &c009::RULE,
        check: Check::Corpus(Reach::Claims, c009::check),
    },
    Rule {
        meta: &c010::RULE,
        check: Check::Corpus(Reach::Claims, c010::check),
    },
    Rule {
        meta: &c011::RULE,
        check: Check::Corpus(Reach::Claims, c011::check),
    },
    Rule {
        meta: &c012::RULE,
        check: Check::Corpus(Reach::Claims, c012::check),
    },
    Rule {
        meta: &c013::RULE,
        check: Check::Corpus(Reach::Claims, c013::check),
    },
    Rule {
        meta: &c014::RULE,
        check: Check::Corpus(Reach::Claims, c014::check),
    },
    Rule {
        meta: &c015::RULE,
        check: Check::Corpus(Reach::Claims, c015::check),
    },
];

/// The rule with this code (case-insensitive) or name.
pub fn find_rule(code_or_name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.meta.code.eq_ignore_ascii_case(code_or_name) || r.meta.name == code_or_name)
}
