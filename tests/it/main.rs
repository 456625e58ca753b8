//! The integration tests, one binary: each module is one area of the tool driven end to end
//! (through the library or the built binary), with the helpers they share in `support`.

mod support;

mod absent_fields;
mod adapters;
mod audit_report;
mod audit_verdicts;
mod bounds;
mod capture;
mod cards;
mod check;
mod claims;
mod cli;
mod corpus_findings;
mod corpus_report;
mod energy;
mod hostile;
mod hostile_yaml;
mod human_output;
mod import;
mod injection;
mod inputs;
mod measurement_verdicts;
mod metamorphic;
mod mlperf_power;
mod new_format_rules;
mod overview;
mod packed_levels;
mod realworld_output;
mod replication;
mod rule_pages;
mod rules;
mod run_folders;
mod safety;
mod scaling;
mod scaling_shapes;
mod sidecar;
mod streaming;
mod text_formats;
mod verdicts;
