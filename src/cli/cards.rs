//! `benchlint cards FILE`: the model, engine and platform cards of each result in a file.

use std::path::PathBuf;

use super::{EXIT_CLEAN, Output};
use crate::corpus::{self, Options};

/// Prints the cards of every result `file` holds (any format an adapter reads).
pub fn run(file: &PathBuf) -> Result<Output, String> {
    if !file.is_file() {
        return Err(format!("`{}` is not a file", file.display()));
    }
    let corpus = corpus::load(std::slice::from_ref(file), &Options::default());
    if corpus::report_internal_errors(&corpus.internal_errors) {
        return Err(format!(
            "`{}` could not be read because of an internal error (above)",
            file.display()
        ));
    }
    if corpus.results.is_empty() {
        let why = corpus.findings.first().map_or_else(
            || "no result in it".to_string(),
            |f| format!("{} {}", f.rule.code, f.message.raw()),
        );
        return Err(format!(
            "`{}` holds no result benchlint can read ({why})",
            file.display()
        ));
    }
    let cards: Vec<serde_json::Value> = corpus
        .results
        .iter()
        .map(|r| crate::cards::cards(&r.doc))
        .collect();
    let value = if cards.len() == 1 {
        cards.into_iter().next().expect("one")
    } else {
        serde_json::Value::Array(cards)
    };
    // Cards quote the file: every secret in them is redacted, hidden characters escaped.
    Ok(Output::stdout(
        crate::text::json::pretty_redacted(value),
        EXIT_CLEAN,
    ))
}
