//! A document that is an array, read an item at a time (`parse::items_apart`): an InferenceX
//! aggregate of twenty thousand rows, a vLLM list of runs, llmperf's per-request records. The
//! parser leaves the array out of the document's value; here the adapters' tallies recognise
//! it from its items ([`adapters::Census`]) while the document rules (M018) read each item where
//! it lies, then the items read as results are parsed again, each read alone and let go before
//! the next. An array no adapter reads is rebuilt whole, as the parser would have held it, for
//! what describes an unknown document.
//!
//! What comes of it is what reading the array whole gives (`items_tests.rs`).

use serde_json::Value;

use super::documents::run_document_rules_under;
use super::{FileOutcome, parse, run_document_rules};
use crate::adapters::{self, ItemsVerdict, MapItem, Mapped, Source};
use crate::config::Selection;
use crate::json::{Document, Step, Within, read_apart};

#[cfg(test)]
thread_switch!(
    /// Every document that is an array parsed whole on this thread, for a test to compare with
    /// reading it an item at a time.
    WHOLE,
    read_whole,
    reads_whole
);

/// What the adapters make of a document that is an array.
pub(super) enum Recognised {
    /// The adapter `name` reads a result from each of `items` (ascending), with `map`.
    Results {
        name: &'static str,
        items: Vec<usize>,
        map: MapItem,
    },
    /// A companion of the adapter `name`.
    Companion(&'static str),
    /// No adapter reads it: the document's value is now the whole array, to be read as any
    /// other document is.
    Whole,
}

/// Whether `doc` is an array the parser left out of its value, to be read here.
pub(super) fn is_apart(doc: &Document) -> bool {
    doc.apart.as_ref().is_some_and(|a| a.within == Within::Root)
}

/// Recognises the array `doc` of `text` (read from `source`, the file `path`) from its items,
/// one at a time, and runs the document rules `selection` runs (M018) on each item as the item
/// lies in the document, adding their findings to `out`. An array with an item that is no
/// object or array (a rule may read such items together, as M018 reads an argv), or on whose
/// item a rule failed, is rebuilt whole and its rules run on it whole. `Err` only if the text is
/// not the one the document was parsed from.
pub(super) fn recognise(
    text: &str,
    doc: &mut Document,
    source: &Source<'_>,
    (path, selection): (&str, &Selection),
    out: &mut FileOutcome,
) -> Result<Recognised, String> {
    let rules = parse::document_rules_run(selection);
    let mut census = adapters::Census::new();
    let (mut found, mut failed) = (Vec::new(), Vec::new());
    let mut alone = true;
    let mut index = 0;
    let doc_start = doc.start;
    read_apart(text, doc, |item| {
        census.see(&item);
        if rules && alone {
            alone = item.is_object() || item.is_array();
            if alone {
                let under = [Step::Index(index)];
                run_document_rules_under(
                    path,
                    (doc_start, &item, &under),
                    selection,
                    &mut found,
                    &mut failed,
                );
                alone = failed.is_empty();
            }
        }
        index += 1;
    })?;
    let verdict = census.verdict(source);
    if !alone {
        rebuild(text, doc)?;
        run_document_rules(path, doc, selection, out);
        return Ok(Recognised::Whole);
    }
    out.findings.append(&mut found);
    Ok(match verdict {
        Some((name, ItemsVerdict::Results { items, map })) => {
            Recognised::Results { name, items, map }
        }
        Some((name, ItemsVerdict::Companion)) => Recognised::Companion(name),
        Some((_, ItemsVerdict::NotMine)) | None => {
            rebuild(text, doc)?;
            Recognised::Whole
        }
    })
}

/// The array `doc` of `text` as the parser would have held it: its value the whole array.
fn rebuild(text: &str, doc: &mut Document) -> Result<(), String> {
    let mut whole = Vec::new();
    read_apart(text, doc, |item| whole.push(item))?;
    doc.value = Value::Array(whole);
    doc.apart = None;
    Ok(())
}

/// Reads the result of each of `items` (ascending indices into the array `doc` of `text`) with
/// `map`, handing each to `each` before the next item is parsed.
pub(super) fn read_results(
    text: &str,
    doc: &Document,
    source: &Source<'_>,
    (items, map): (&[usize], MapItem),
    mut each: impl FnMut(Mapped),
) -> Result<(), String> {
    let mut wanted = items.iter().copied().peekable();
    let mut index = 0;
    read_apart(text, doc, |item| {
        if wanted.next_if_eq(&index).is_some() {
            let base = format!("/{index}");
            each(map(&adapters::stand_in(index, item), source, &base));
        }
        index += 1;
    })
}
