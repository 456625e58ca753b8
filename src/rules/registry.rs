//! The registry: every rule, in code order. One line per rule.

use super::{
    Check, Rule, e001_unreadable_file as e001, e002_invalid_json as e002,
    e003_schema_violation as e003, e004_unknown_format as e004, e005_nonstandard_json as e005,
    e006_duplicate_result_id as e006, m001_missing_hardware as m001,
    m002_missing_engine_identity as m002, m003_missing_serve_command as m003,
    m004_retyped_serve_command as m004, m005_missing_speculative_config as m005,
    m006_missing_graph_mode as m006, m007_missing_engine_limits as m007,
    m008_missing_precision as m008, m009_missing_parallelism as m009,
    m010_missing_fabric as m010, m011_missing_parity_check as m011,
    m012_missing_load_snapshot as m012, m013_missing_harness_provenance as m013,
    m014_missing_paired_artifacts as m014, m015_serve_command_mismatch as m015,
    m016_placeholder_value as m016, m017_missing_artifact_file as m017,
    m018_secret_in_result as m018, m019_sidecar_conflict as m019,
    r012_non_monotonic_ladder as r012, r013_ladder_not_saturated as r013,
    r014_ascending_level_order as r014, r015_thinking_enabled as r015,
    r016_requested_not_measured as r016, r017_summary_mismatch_raw as r017,
    r018_speculation_on_random_tokens as r018, r019_unbounded_request_rate as r019,
    r020_output_shortfall as r020, r021_quality_gate_failed as r021,
    l001_unlabeled_throughput as l001, l002_ttft_without_prompt_length as l002,
    l003_aggregate_without_per_user as l003, l004_cost_without_basis as l004,
    l005_power_kind_unlabeled as l005,
};

/// Every rule, sorted by code.
pub static RULES: &[Rule] = &[
    Rule { meta: &e001::RULE, check: Check::Builtin },
    Rule { meta: &e002::RULE, check: Check::Builtin },
    Rule { meta: &e003::RULE, check: Check::Builtin },
    Rule { meta: &e004::RULE, check: Check::Builtin },
    Rule { meta: &e005::RULE, check: Check::Builtin },
    Rule { meta: &e006::RULE, check: Check::Builtin },
    Rule { meta: &m001::RULE, check: Check::Result(m001::check) },
    Rule { meta: &m002::RULE, check: Check::Result(m002::check) },
    Rule { meta: &m003::RULE, check: Check::Result(m003::check) },
    Rule { meta: &m004::RULE, check: Check::Result(m004::check) },
    Rule { meta: &m005::RULE, check: Check::Result(m005::check) },
    Rule { meta: &m006::RULE, check: Check::Result(m006::check) },
    Rule { meta: &m007::RULE, check: Check::Result(m007::check) },
    Rule { meta: &m008::RULE, check: Check::Result(m008::check) },
    Rule { meta: &m009::RULE, check: Check::Result(m009::check) },
    Rule { meta: &m010::RULE, check: Check::Result(m010::check) },
    Rule { meta: &m011::RULE, check: Check::Result(m011::check) },
    Rule { meta: &m012::RULE, check: Check::Result(m012::check) },
    Rule { meta: &m013::RULE, check: Check::Result(m013::check) },
    Rule { meta: &m014::RULE, check: Check::Result(m014::check) },
    Rule { meta: &m015::RULE, check: Check::Result(m015::check) },
    Rule { meta: &m016::RULE, check: Check::Result(m016::check) },
    Rule { meta: &m017::RULE, check: Check::Result(m017::check) },
    Rule { meta: &m018::RULE, check: Check::Document(m018::check) },
    Rule { meta: &m019::RULE, check: Check::Builtin },
    Rule { meta: &r012::RULE, check: Check::Result(r012::check) },
    Rule { meta: &r013::RULE, check: Check::Result(r013::check) },
    Rule { meta: &r014::RULE, check: Check::Result(r014::check) },
    Rule { meta: &r015::RULE, check: Check::Result(r015::check) },
    Rule { meta: &r016::RULE, check: Check::Result(r016::check) },
    Rule { meta: &r017::RULE, check: Check::Result(r017::check) },
    Rule { meta: &r018::RULE, check: Check::Result(r018::check) },
    Rule { meta: &r019::RULE, check: Check::Result(r019::check) },
    Rule { meta: &r020::RULE, check: Check::Result(r020::check) },
    Rule { meta: &r021::RULE, check: Check::Result(r021::check) },
    Rule { meta: &l001::RULE, check: Check::Result(l001::check) },
    Rule { meta: &l002::RULE, check: Check::Result(l002::check) },
    Rule { meta: &l003::RULE, check: Check::Result(l003::check) },
    Rule { meta: &l004::RULE, check: Check::Result(l004::check) },
    Rule { meta: &l005::RULE, check: Check::Result(l005::check) },
];

/// The rule with this code (case-insensitive) or name.
pub fn find_rule(code_or_name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.meta.code.eq_ignore_ascii_case(code_or_name) || r.meta.name == code_or_name)
}
