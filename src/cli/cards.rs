//! `benchlint cards PATH..`: the model, engine and platform cards of each result the paths hold
//! (files in any format an adapter reads, and folders of them).
//!
//! One result prints its cards as one object, as it always has; several print an array in
//! path order, each card set with its `result` id followed by the `path` of the file it was
//! read from, since a folder's cards are no use without saying which run each is. Files of a folder that
//! hold no result are skipped and counted on stderr (`benchlint check` says why); paths that
//! hold no result at all are exit 2, with the reason when it is one file's.
//!
//! The files are read as `check` reads them, with the `benchlint.toml` found upward from the
//! first path (its limits and sidecar globs; a bad one is exit 2), keeping only what the cards
//! read of each result. No `--config` or `--isolated`: `cards` takes paths alone.

use std::io::Write as _;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::{EXIT_CLEAN, Output};
use crate::corpus;

/// Prints the cards of every result `paths` hold.
pub fn run(paths: &[PathBuf]) -> Result<Output, String> {
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(format!("`{}` does not exist", missing.display()));
    }
    let shown = || {
        paths
            .iter()
            .map(|p| format!("`{}`", p.display()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // As `check` reads the corpus: the in-tree config's limits and sidecars, and only what
    // the cards read kept of each result.
    let options = match super::audit::config_options(paths, None, false) {
        Ok(o) => crate::corpus::Options {
            drop_claims: true,
            ..o
        },
        Err(rendered) => {
            let _ = std::io::stderr().write_all(rendered.as_bytes());
            return Ok(Output::stdout(Vec::new(), super::EXIT_TROUBLE));
        }
    };
    let corpus = corpus::load_results(paths, &options);
    if corpus::report_internal_errors(&corpus.internal_errors) {
        return Err(format!(
            "{} could not be read because of an internal error (above)",
            shown()
        ));
    }
    if corpus.results.is_empty() {
        let why = corpus.findings.first().map_or_else(
            || "no result in them".to_string(),
            |f| format!("{} {}", f.rule.code, f.message.raw()),
        );
        return Err(format!(
            "{} holds no result benchlint can read ({why})",
            shown()
        ));
    }
    let mut order: Vec<&corpus::LoadedResult> = corpus.results.iter().collect();
    order.sort_by(|a, b| {
        (&a.origin.path, a.origin.doc_start).cmp(&(&b.origin.path, b.origin.doc_start))
    });
    let with_results: std::collections::BTreeSet<&str> =
        order.iter().map(|r| r.origin.path.raw()).collect();
    let unread: std::collections::BTreeSet<&str> = corpus
        .findings
        .iter()
        .filter(|f| matches!(f.rule.code, "E001" | "E002" | "E003" | "E004"))
        .map(|f| f.primary.path.raw())
        .filter(|p| !with_results.contains(p))
        .collect();
    if !unread.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: {} held no result and {} skipped (`benchlint check` says why)",
            crate::numbers::plural(unread.len(), "file", "files"),
            if unread.len() == 1 { "was" } else { "were" }
        );
    }
    // Cards quote the file: every secret in them is redacted, hidden characters escaped.
    if let [one] = order.as_slice() {
        let bytes = crate::text::json::pretty_redacted(crate::cards::cards(&one.doc));
        return Ok(Output::stdout(bytes, EXIT_CLEAN));
    }
    // Several cards are written as they are made, not gathered: a card is a few kilobytes, and
    // a corpus of tens of thousands of results would hold them all. A closed pipe ends the
    // writing, as it is no error.
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let _ = crate::text::json::to_writer_pretty(&mut stdout, &Cards(&order))
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush());
    Ok(Output::stdout(Vec::new(), EXIT_CLEAN))
}

/// The cards of several results as one JSON array, each card made, redacted and written in
/// turn: the bytes the array made whole prints (a card is redacted alone as it is inside the
/// array), without holding every card at once.
struct Cards<'a>(&'a [&'a corpus::LoadedResult]);

impl serde::Serialize for Cards<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|r| {
            let mut card = card_with_path(r);
            crate::secrets::redact_value(&mut card);
            card
        }))
    }
}

/// The cards of `r`, with the path of its file after its id.
fn card_with_path(r: &corpus::LoadedResult) -> Value {
    let mut card = serde_json::Map::new();
    if let Value::Object(cards) = crate::cards::cards(&r.doc) {
        for (k, v) in cards {
            let id = k == "result";
            card.insert(k, v);
            if id {
                card.insert("path".into(), json!(r.origin.path));
            }
        }
    }
    Value::Object(card)
}
