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
use crate::replication::{Order, SpooledCorpus};

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
            // No finding is shown but why inputs gave no result: the other rules' findings
            // would be made, thrown away, and fill the caps those are bounded by.
            selection: o.selection.clone().only(&corpus::UNREADABLE),
            ..o
        },
        Err(rendered) => {
            let _ = std::io::stderr().write_all(rendered.as_bytes());
            return Ok(Output::stdout(Vec::new(), super::EXIT_TROUBLE));
        }
    };
    // Each result is put away as it is read and read back in path order as its cards are
    // written: a corpus of tens of thousands of results is held as where each one is.
    let options = corpus::Options {
        put_away: true,
        ..options
    };
    let mut spooled = SpooledCorpus::new(Order::ResultsOnly);
    let corpus = corpus::load_results_into(paths, &options, &mut |r| spooled.keep(&r));
    if corpus::report_internal_errors(&corpus.internal_errors) {
        return Err(format!(
            "{} could not be read because of an internal error (above)",
            shown()
        ));
    }
    if spooled.is_empty() {
        let why = corpus.findings.first().map_or_else(
            || "no result in them".to_string(),
            |f| format!("{} {}", f.rule.code, f.message.raw()),
        );
        return Err(format!(
            "{} holds no result benchlint can read ({why})",
            shown()
        ));
    }
    let with_results = spooled.paths();
    let unread: std::collections::BTreeSet<&str> = corpus
        .findings
        .iter()
        .filter(|f| corpus::says_unreadable(f.rule.code))
        .map(|f| f.primary.path.raw())
        .filter(|p| !with_results.contains(p))
        .collect();
    drop(with_results);
    if !unread.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: {} held no result and {} skipped (`benchlint check` says why)",
            crate::numbers::plural(unread.len(), "file", "files"),
            if unread.len() == 1 { "was" } else { "were" }
        );
    }
    let several = spooled.len() > 1;
    let mut results = spooled.in_path_order();
    // Cards quote the file: every secret in them is redacted, hidden characters escaped.
    if !several {
        return match results.next() {
            Some(Ok(one)) => {
                let bytes = crate::text::json::pretty_redacted(crate::cards::cards(&one.doc));
                Ok(Output::stdout(bytes, EXIT_CLEAN))
            }
            Some(Err(e)) => Err(e),
            None => Err(format!("{} holds no result", shown())),
        };
    }
    // Several cards are written as they are made, not gathered: a card is a few kilobytes, and
    // a corpus of tens of thousands of results would hold them all. A closed pipe ends the
    // writing, as it is no error; a result that cannot be read back ends it too, and is said.
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let cards = Cards {
        results: std::cell::RefCell::new(Some(results)),
        unread: std::cell::RefCell::new(None),
    };
    let _ = crate::text::json::to_writer_pretty(&mut stdout, &cards)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush());
    drop(stdout);
    if let Some(e) = cards.unread.into_inner() {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: error: {}; the cards are incomplete",
            crate::text::line(&e)
        );
        return Ok(Output::stdout(Vec::new(), super::EXIT_TROUBLE));
    }
    Ok(Output::stdout(Vec::new(), EXIT_CLEAN))
}

/// The cards of several results as one JSON array, each card made, redacted and written in
/// turn as its result is read back: the bytes the array made whole prints (a card is redacted
/// alone as it is inside the array), without holding every card or result at once. A result
/// that cannot be read back ends the array, and is kept in `unread`.
struct Cards<I> {
    results: std::cell::RefCell<Option<I>>,
    unread: std::cell::RefCell<Option<String>>,
}

impl<I: Iterator<Item = Result<corpus::LoadedResult, String>>> serde::Serialize for Cards<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let Some(results) = self.results.borrow_mut().take() else {
            return Err(S::Error::custom("the cards are written once"));
        };
        let mut seq = serializer.serialize_seq(None)?;
        for r in results {
            let r = match r {
                Ok(r) => r,
                Err(e) => {
                    *self.unread.borrow_mut() = Some(e.clone());
                    return Err(S::Error::custom(e));
                }
            };
            let mut card = card_with_path(&r);
            crate::secrets::redact_value(&mut card);
            seq.serialize_element(&card)?;
        }
        seq.end()
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
