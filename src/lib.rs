//! benchlint: a linter and audit tool for the result files of LLM inference serving
//! benchmarks. It loads a corpus of result files (canonical `benchlint/result/v1` or the
//! formats real harnesses write), checks each against a publication checklist and measurement
//! rules, and reports every finding at the exact value in the file.

pub mod adapters;
pub mod audit;
pub mod baseline;
pub mod capture;
pub mod cards;
pub mod claims;
pub mod cli;
pub mod config;
pub mod copies;
pub mod corpus;
pub mod diagnostic;
pub mod engine;
pub mod fingerprint;
pub mod guard;
pub mod io;
pub mod json;
pub mod model;
pub mod numbers;
pub mod output;
pub mod positions;
pub mod regress;
pub mod replication;
pub mod report;
pub mod rules;
pub mod schema;
pub mod secrets;
#[cfg(test)]
mod seeded;
pub mod serve_command;
pub mod server_log;
pub mod skeleton;
pub mod stats;
mod swar;
pub mod text;
pub mod thresholds;
pub mod yaml;
