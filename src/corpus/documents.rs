//! One file's text: parsed, each document recognised (canonical result, claims, sidecar, a
//! harness's format), the per-document rules run, and the sidecar beside a file found.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::diagnostic::{Finding, Location};
use crate::json::Document;
use crate::model::RESULT_SCHEMA;
use crate::rules::{self, Check, DocumentCtx, Emitter};
use crate::schema;
use crate::text::PathText;

use super::{
    DocumentRun, Entry, FileOutcome, Hand, Options, artifacts, beside, bounds, catch_panic,
    check_lines, emit_to_finding, finding_at, internal_error, parse, read_text, sidecar, text,
};
#[cfg(test)]
use crate::guard;

/// Everything done with one file's text: parse, recognise, validate, check.
pub(super) fn check_text(
    entry: &Entry,
    text: &str,
    bom: bool,
    options: &Options,
    (run, hood, hand): (&[&Path], &beside::Neighbourhood<'_>, Hand<'_>),
    out: &mut FileOutcome,
) {
    let path = entry.display.raw();
    if bom {
        out.findings.push(bom_finding(path));
    }
    let file_name = entry
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    #[cfg(test)]
    guard::injected(path, "loader");
    let yaml_limits = crate::yaml::Limits {
        max_depth: options.thresholds.max_depth,
        ..crate::yaml::Limits::default()
    };
    let in_run = |p: &Path| run.binary_search(&p).is_ok();
    let (form, mut documents) = match text::read(entry, &file_name, text, &yaml_limits, &in_run) {
        // JSON Lines a chunk of lines at a time (a sidecar's name aside: whether it attaches
        // to a result depends on all its documents).
        text::Reading::Json
            if parse::by_line(&file_name) && !sidecar::is_sidecar_name(&file_name) =>
        {
            let folder = hood.folder(entry.path(), &entry.root);
            let hand = hand.filter(|h| h.in_chunks);
            let not_json = |offset: usize, message: &str| {
                Ok(text::not_json(path, text, offset, Some(message)))
            };
            let lines = (entry, crate::json::TextLines(text), text.len());
            if let Err(e) = check_lines(
                lines,
                (&file_name, &not_json),
                (options, &folder, hand),
                out,
            ) {
                // A text in memory is read to its end.
                out.internal
                    .push(internal_error("the loader", &format!("`{path}`"), &e.0));
            }
            return;
        }
        text::Reading::Json => match parse::parse_json(entry, &file_name, text, options, out) {
            Some(documents) => (None, documents),
            None => return,
        },
        text::Reading::Documents(form, documents) => (Some(form), documents),
        text::Reading::Quiet => {
            out.skipped = true;
            return;
        }
        text::Reading::Companion(harness) => {
            out.companion = Some(harness);
            return;
        }
        text::Reading::Report(f) => {
            if f.rule.code == "E004" {
                out.unknown.push(*f);
            } else {
                out.findings.push(*f);
            }
            return;
        }
    };
    // Levels past the bound are dropped before validation (adapters' results: in finish_result).
    for doc in &mut documents {
        out.findings.extend(bound_levels(path, doc, options));
    }
    let folder = hood.folder(entry.path(), &entry.root);
    // A sidecar is one only beside a result of the run it attaches to: alone, it is read as
    // what its content is, so that no result hides under the name.
    let owner = if sidecar::is_sidecar_name(&file_name) && !entry.alone {
        sidecar::owners(entry.path())
            .into_iter()
            .find(|p| in_run(p))
    } else {
        None
    };
    check_documents(
        (entry, text),
        &file_name,
        form,
        documents,
        (options, &folder, owner, hand.filter(|h| h.in_chunks)),
        out,
    );
}

/// The finding of a file that starts with a UTF-8 byte order mark.
pub(super) fn bom_finding(path: &str) -> Finding {
    let mut loc = Location::new(path, "");
    loc.offset = Some(0);
    finding_at(
        &rules::e005_nonstandard_json::RULE,
        loc,
        "the file starts with a UTF-8 byte order mark, which JSON forbids; the mark was ignored and the rest of the file read",
        Some("save the file as UTF-8 without a byte order mark".into()),
    )
}

/// The finding of a canonical result `doc` with levels past the bound, which are dropped
/// before it is validated (an adapter's results are bounded in `finish_result`).
pub(super) fn bound_levels(path: &str, doc: &mut Document, options: &Options) -> Option<Finding> {
    if doc.value.get("schema").and_then(Value::as_str) != Some(RESULT_SCHEMA) {
        return None;
    }
    let had = bounds::bound_levels(&mut doc.value, options.thresholds.max_levels)?;
    if let Some(typed) = doc.levels.as_mut() {
        typed.levels.truncate(options.thresholds.max_levels);
    }
    let loc = Location {
        path: path.into(),
        doc_start: doc.start,
        pointer: "/levels".into(),
        offset: None,
    };
    Some(bounds::levels_finding(
        loc,
        had,
        options.thresholds.max_levels,
    ))
}

/// Recognises each document (canonical result, claims, sidecar, a harness's format) and
/// checks what it holds.
pub(super) fn check_documents(
    (entry, text): (&Entry, &str),
    file_name: &str,
    form: Option<text::Form>,
    mut documents: Vec<Document>,
    (options, folder, owner, hand): (&Options, &beside::Folder<'_>, Option<PathBuf>, Hand<'_>),
    out: &mut FileOutcome,
) {
    let path = entry.display.raw();
    if let Some(owner) = owner
        && documents.iter().all(|d| !is_result_shaped(&d.value))
    {
        out.sidecar_of = Some(owner);
        for doc in &mut documents {
            parse::whole_levels(doc, text);
            run_document_rules(path, doc, &options.selection, out);
            let mut partial = doc.value.clone();
            sidecar::prepare(&mut partial);
            for e in schema::validate(schema::Kind::Sidecar, &partial) {
                out.findings.push(schema_finding(path, doc.start, &e));
            }
        }
        return;
    }
    let doc_count = documents.len();
    let mut run = DocumentRun::new(entry, file_name, form, (options, folder)).parking();
    if doc_count == 1 {
        run = run.handing(hand);
    }
    #[cfg(test)]
    if super::recognise::checks_in_turn() {
        for doc in &mut documents {
            run.check(doc, (text, 0), doc_count, out);
        }
        run.finish(doc_count, out);
        return;
    }
    // Each document on a worker, into an outcome of its own, added to the file's in order and
    // capped as each is: what checking them one after another gives.
    let checking = &run;
    let apart: Vec<_> = documents
        .par_iter_mut()
        .map(|doc| checking.check_apart(doc, (text, 0), doc_count, false))
        .collect();
    for part in apart {
        out.cap(options);
        run.absorb(part, out);
    }
    run.finish(doc_count, out);
}

pub(super) fn schema_finding(path: &str, doc_start: usize, e: &schema::SchemaError) -> Finding {
    let mut f = finding_at(
        &rules::e003_schema_violation::RULE,
        Location {
            path: path.into(),
            doc_start,
            pointer: e.pointer.clone().into(),
            offset: None,
        },
        format!(
            "schema violation at `{}`: {}",
            if e.pointer.is_empty() {
                "/"
            } else {
                &e.pointer
            },
            e.message
        ),
        Some("see `benchlint schema result` for the field's type and unit".into()),
    );
    f.label = Some("does not match the schema".into());
    f
}

/// The sidecar beside `path`, if there is one inside `root`, ready to merge ([`beside_sidecar`]).
/// A candidate missing from the listing of `path`'s folder (read once per run, shared by
/// every file of the folder) is not looked up: most files have no sidecar, and asking the
/// file system for each candidate of each file costs a path lookup apiece.
pub(super) fn load_sidecar(
    path: &Path,
    root: &Path,
    folder: &beside::Folder<'_>,
) -> Option<(String, Value)> {
    let names = folder.names(beside::Place::Here);
    let may_exist = |candidate: &Path| {
        // An empty listing is a folder that could not be listed: ask for each candidate.
        names.is_empty()
            || candidate
                .file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|n| names.binary_search_by(|x| x.as_str().cmp(n)).is_ok())
    };
    let (_, display, mut value) = sidecar_where(path, root, may_exist)?;
    sidecar::prepare(&mut value);
    Some((display, value))
}

/// The sidecar `check` merges into the results of the file at `path`: the first of
/// [`sidecar::candidates`] that exists, when it is a valid sidecar inside `root`, as written
/// (with its nulls and note), with its path and the path findings show for it. A
/// `run.meta.json` that is a symlink to a place outside the folder being checked is not merged
/// (discovery reports it, E001, and it is not followed here either).
pub fn beside_sidecar(path: &Path, root: &Path) -> Option<(PathBuf, String, Value)> {
    sidecar_where(path, root, |_| true)
}

/// [`beside_sidecar`], looking only at the candidates `may_exist` does not rule out.
fn sidecar_where(
    path: &Path,
    root: &Path,
    may_exist: impl Fn(&Path) -> bool,
) -> Option<(PathBuf, String, Value)> {
    for candidate in sidecar::candidates(path) {
        if !may_exist(&candidate) || !candidate.is_file() {
            continue;
        }
        if !artifacts::resolves_inside(root, &candidate) {
            return None;
        }
        let (text, _) = read_text(&candidate, 16 * 1024 * 1024).ok()?;
        let value: Value = serde_json::from_str(&text).ok()?;
        if is_result_shaped(&value) {
            // A result under a sidecar's name is read as the result it is, not merged.
            return None;
        }
        let mut partial = value.clone();
        sidecar::prepare(&mut partial);
        if !partial.is_object() || !schema::validate(schema::Kind::Sidecar, &partial).is_empty() {
            return None;
        }
        let display = candidate.to_string_lossy();
        let display = display.strip_prefix("./").unwrap_or(&display).to_string();
        return Some((candidate, display, value));
    }
    None
}

/// Runs the per-document rules `selection` runs (M018) on the document `doc` of the file
/// `path`, into `out`'s findings (and its internal errors, for a rule that failed).
pub(super) fn run_document_rules(
    path: &str,
    doc: &Document,
    selection: &crate::config::Selection,
    out: &mut FileOutcome,
) {
    run_document_rules_under(
        path,
        (doc.start, &doc.value, &[]),
        selection,
        &mut out.findings,
        &mut out.internal,
    );
}

/// [`run_document_rules`] on `value`, at the steps `under` of the document that starts at byte
/// `doc_start` (an item of an array read alone, `corpus::items`).
pub(super) fn run_document_rules_under(
    path: &str,
    (doc_start, value, under): (usize, &Value, &[crate::json::Step<'_>]),
    selection: &crate::config::Selection,
    findings: &mut Vec<Finding>,
    internal: &mut Vec<String>,
) {
    let ctx = DocumentCtx { value, under };
    // Made at the first finding, shared by the rest.
    let mut shared: Option<PathText> = None;
    for rule in rules::RULES {
        if let (Check::Document(check), true) = (rule.check, selection.runs(rule.meta.code)) {
            let mut emits = Vec::new();
            if let Err(message) = catch_panic(|| {
                #[cfg(test)]
                guard::injected(path, rule.meta.code);
                check(&ctx, &mut Emitter::new(rule.meta, &mut emits));
            }) {
                internal.push(internal_error(
                    &format!("rule {} ({})", rule.meta.code, rule.meta.name),
                    &format!("`{path}`"),
                    &message,
                ));
                continue;
            }
            for e in emits {
                let loc = Location {
                    path: shared.get_or_insert_with(|| path.into()).clone(),
                    doc_start,
                    pointer: e.pointer.clone().into(),
                    offset: None,
                };
                findings.push(emit_to_finding(e, loc, Vec::new(), None));
            }
        }
    }
}

/// Whether a document is a result rather than a sidecar, whatever its name: it holds
/// `levels`, or it looks like a result of a harness or of benchlint. Such a document is
/// never merged into another file's results; it is read as what it is.
fn is_result_shaped(value: &Value) -> bool {
    !value.is_object()
        || value.get("levels").is_some()
        || crate::adapters::looks_like_result(value).is_some()
}
