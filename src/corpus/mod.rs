//! Loading a corpus: discovery, reading, parsing (JSON, or the text formats `text` reads:
//! YAML reports, MLPerf loadgen logs), recognising each document, merging sidecars, deriving
//! from serve commands (and a per-user rate from a median TPOT), and running the per-document
//! and per-result rules, in parallel across files. Bad input becomes findings; nothing here
//! aborts the run.

mod artifacts;
pub mod beside;
mod bounds;
pub mod checklist;
mod claims;
mod derive;
mod discover;
mod guard;
mod parse;
mod per_user;
mod read;
mod run_folder;
pub mod sidecar;
mod text;
mod translate;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Deserialize as _;
use serde_json::Value;

use crate::adapters::{self, Reading, Source};
use crate::diagnostic::{Finding, Location, Omitted, keep_within};
use crate::json::Document;
use crate::model::{CLAIMS_SCHEMA, ProvenanceMap, RESULT_SCHEMA, ResultDoc};
use crate::rules::{self, Check, DocumentCtx, Emit, Emitter, ResultCtx, RuleMeta};
use crate::schema;
use crate::serve_command::ServeSettings;
use crate::thresholds::Thresholds;

pub use artifacts::normal as normal_path;
pub use derive::derive_settings;
pub use discover::{Entry, describe_io, discover, is_candidate};
#[cfg(test)]
pub(crate) use guard::injected as guard_injected;
pub use guard::{catch_panic, internal_error, report_internal_errors};
pub use parse::parse_json_text;
pub use read::read_text;
pub use translate::{Origin, finding_at, translate};

/// How to load.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Thresholds in force.
    pub thresholds: Thresholds,
    /// Which rules run, where, at what severity (`benchlint.toml`, `--select`, ...).
    pub selection: crate::config::Selection,
    /// Sidecars attached by glob in `benchlint.toml`, merged after `<file>.meta.json`.
    pub sidecars: crate::config::GlobSidecars,
    /// Keep only what corpus-wide rules need once a result's own rules have run: per-request
    /// samples and the canonical JSON are dropped, so memory holds summaries, not documents.
    /// `check` sets it; `import`, which writes the canonical JSON, does not.
    pub lean: bool,
}

/// One canonical result and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedResult {
    /// The file and document it was read from, and by which adapter.
    pub origin: Origin,
    /// The typed result.
    pub doc: ResultDoc,
    /// The canonical JSON (after sidecars and derivations).
    pub value: Value,
    /// Where each value came from.
    pub provenance: ProvenanceMap,
}

/// A claims document.
#[derive(Debug, Clone)]
pub struct LoadedClaims {
    /// Where it was read from.
    pub origin: Origin,
    /// The document (valid against the claims schema).
    pub value: Value,
}

/// Everything loaded from the command-line paths.
#[derive(Debug, Default)]
pub struct Corpus {
    /// Files read (results, claims, sidecars, harness companions, broken ones).
    pub files: usize,
    /// Canonical results, in path order.
    pub results: Vec<LoadedResult>,
    /// Claims documents.
    pub claims: Vec<LoadedClaims>,
    /// Findings of the loader and of per-document and per-result rules.
    pub findings: Vec<Finding>,
    /// Bugs caught while loading (a panic in the loader or a rule, see [`catch_panic`]): each
    /// makes the run exit 2 after the findings are printed.
    pub internal_errors: Vec<String>,
    /// Findings past `max_findings_per_file` or `max_findings`: counted, not stored.
    pub omitted: Omitted,
    /// Files whose findings went past `max_findings_per_file`, in path order.
    pub capped_files: Vec<String>,
    /// How each file was read, in the order found (`--show-files`, the overview).
    pub read: Vec<FileRead>,
}

/// How one file was read: by which adapters, or why by none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    /// The file as reached from the command line.
    pub path: crate::text::FileText,
    /// `canonical`, the adapters' names (`vllm`, `genai-bench`), `claims`, `sidecar`, or
    /// `none (E004 unknown-format)` with the rule that says why none read it.
    pub read_as: String,
    /// Canonical results read from it.
    pub results: usize,
}

impl FileRead {
    /// What the loader made of `path`: `outcome`'s results and claims, or the first loader
    /// finding on it as the reason nothing was read.
    fn of(path: &str, file_name: &str, outcome: &FileOutcome) -> Self {
        let mut formats: Vec<&'static str> =
            outcome.results.iter().map(|r| r.origin.format).collect();
        if !outcome.claims.is_empty() {
            formats.push("claims");
        }
        formats.sort_unstable();
        formats.dedup();
        let read_as = if !formats.is_empty() {
            formats.join(", ")
        } else if sidecar::is_sidecar_name(file_name) {
            "sidecar".to_string()
        } else if let Some(f) = outcome
            .findings
            .iter()
            .chain(&outcome.unknown)
            .find(|f| f.rule.code.starts_with('E') || f.rule.code.starts_with('S'))
        {
            format!("none ({} {})", f.rule.code, f.rule.name)
        } else {
            "none (read with its run, or not a result)".to_string()
        };
        FileRead {
            path: path.into(),
            read_as,
            results: outcome.results.len(),
        }
    }
}

impl Corpus {
    /// Frees the results on the worker threads that allocated them: freeing tens of thousands
    /// of results from one thread takes longer than a tenth of checking them.
    pub fn release(self) {
        self.results.into_par_iter().for_each(drop);
    }
}

#[derive(Default)]
struct FileOutcome {
    results: Vec<LoadedResult>,
    claims: Vec<LoadedClaims>,
    findings: Vec<Finding>,
    unknown: Vec<Finding>,
    artifact_refs: Vec<PathBuf>,
    internal: Vec<String>,
    omitted: Omitted,
    /// How many of `findings` and of `unknown` the selection was applied to.
    selected: (usize, usize),
}

impl FileOutcome {
    /// Drops the findings of rules the selection turns off on the file and gives the others
    /// their configured severity, then keeps at most `max_findings_per_file` (those made
    /// first), counting the rest: the caps count only findings that are shown. Called as
    /// findings are made (after each document), so each call selects only the new ones.
    fn cap(&mut self, options: &Options) {
        select_from(&mut self.findings, self.selected.0, options);
        select_from(&mut self.unknown, self.selected.1, options);
        let cap = options.thresholds.max_findings_per_file;
        keep_within(
            &mut self.findings,
            cap,
            &mut self.omitted,
            &options.selection,
        );
        let left = cap.saturating_sub(self.findings.len());
        keep_within(
            &mut self.unknown,
            left,
            &mut self.omitted,
            &options.selection,
        );
        self.selected = (self.findings.len(), self.unknown.len());
    }

    /// The last cap, once the file is checked: every finding selected (whatever was done to
    /// the list between caps) and exact repeats dropped first.
    fn finish(&mut self, options: &Options) {
        options.selection.apply(&mut self.findings);
        options.selection.apply(&mut self.unknown);
        self.selected = (self.findings.len(), self.unknown.len());
        crate::diagnostic::dedup_in_order(&mut self.findings);
        crate::diagnostic::dedup_in_order(&mut self.unknown);
        self.cap(options);
    }
}

/// Applies the selection to `findings[from..]`.
fn select_from(findings: &mut Vec<Finding>, from: usize, options: &Options) {
    if from < findings.len() {
        let mut new = findings.split_off(from);
        options.selection.apply(&mut new);
        findings.append(&mut new);
    }
}

/// Files processed in parallel between two merges: findings are merged in path order, so the
/// run's cap keeps the same findings whatever the threads do, and memory holds at most this
/// many files' findings beyond the cap.
const CHUNK: usize = 256;

/// Loads every file under `args`, its findings in [`Corpus::findings`].
pub fn load(args: &[PathBuf], options: &Options) -> Corpus {
    let mut findings = Vec::new();
    let mut corpus = load_each(args, options, &mut |_, mut f| findings.append(&mut f));
    findings.append(&mut corpus.findings);
    corpus.findings = findings;
    corpus
}

/// Loads every file under `args`, handing each file's findings to `on_file` as soon as that
/// file and every file before it are done, in path order, with the file's path (`None` for
/// findings on paths that could not be walked, handed first). What can only be known once
/// every file is read stays in [`Corpus::findings`]: a file no adapter reads (E004), since a
/// later result may name it as its artifact. The run's cap (`max_findings`) bounds what is
/// handed over; what is kept is left to the caller to bound with the rest of the run's
/// findings.
pub fn load_each(
    args: &[PathBuf],
    options: &Options,
    on_file: &mut dyn FnMut(Option<&str>, Vec<Finding>),
) -> Corpus {
    let (entries, problems) = discover(args);
    let mut corpus = Corpus {
        files: entries.len(),
        ..Corpus::default()
    };
    let mut unwalked = Vec::new();
    for p in problems {
        corpus.read.push(FileRead {
            path: p.display.as_str().into(),
            read_as: "none (E001 unreadable-file)".to_string(),
            results: 0,
        });
        unwalked.push(finding_at(
            &rules::e001_unreadable_file::RULE,
            Location::new(p.display.clone(), ""),
            format!("`{}` could not be read: {}", p.display, p.message),
            None,
        ));
    }
    // Findings handed over so far, for the run's cap.
    options.selection.apply(&mut unwalked);
    let mut handed = unwalked.len();
    on_file(None, unwalked);
    // The files read in this run: a run folder's logs read together make one result.
    let run: BTreeSet<PathBuf> = entries.iter().map(|e| e.path.clone()).collect();
    // What documents may consult beside themselves (a run folder's other files), shared so
    // that each folder is read once.
    let hood = beside::Neighbourhood::new(
        entries.iter().map(|e| e.path.as_path()),
        options.thresholds.json_limits(),
    );
    let mut unknown = Vec::new();
    let mut referenced = BTreeSet::new();
    let run_cap = options.thresholds.max_findings;
    // The next chunk is checked while this one is merged and its findings written: the
    // workers never wait for the writer, and at most two chunks beyond it are in memory.
    let (to_merge, merged) = std::sync::mpsc::sync_channel::<Vec<FileOutcome>>(1);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            for chunk in entries.chunks(CHUNK) {
                if to_merge
                    .send(check_chunk(chunk, options, (&run, &hood)))
                    .is_err()
                {
                    break;
                }
            }
            drop(to_merge);
        });
        for (chunk, outcomes) in entries.chunks(CHUNK).zip(merged.iter()) {
            for (e, mut o) in chunk.iter().zip(outcomes) {
                let file_name = e
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                corpus.read.push(FileRead::of(&e.display, &file_name, &o));
                if o.omitted.total() > 0 {
                    corpus.capped_files.push(e.display.clone());
                }
                corpus.omitted.add(o.omitted);
                // The files' own findings first; the E004s held back (one a file at most)
                // are bounded with the run's last findings, once those a result's artifact
                // withdraws are gone.
                keep_within(
                    &mut o.findings,
                    run_cap.saturating_sub(handed),
                    &mut corpus.omitted,
                    &options.selection,
                );
                corpus.results.extend(o.results);
                corpus.claims.extend(o.claims);
                handed += o.findings.len();
                on_file(Some(&e.display), o.findings);
                unknown.extend(o.unknown);
                referenced.extend(o.artifact_refs);
                corpus.internal_errors.extend(o.internal);
            }
        }
    });
    // A JSON artifact (a quality-gate output, say) is recognised for what it is, not reported
    // as an unknown format.
    let referenced: BTreeSet<String> = referenced.iter().map(|p| artifacts::normal(p)).collect();
    for r in &mut corpus.read {
        if r.results == 0 && referenced.contains(&artifacts::normal(Path::new(r.path.raw()))) {
            r.read_as = "artifact (named by a result)".to_string();
        }
    }
    corpus.findings.extend(
        unknown
            .into_iter()
            .filter(|f| !referenced.contains(&artifacts::normal(Path::new(f.primary.path.raw())))),
    );
    // A folder walked without finding one result checked nothing: a file in it in a format
    // no adapter reads is then an error, so the run does not pass. (A file named on its own
    // keeps its warning: the user asked about that file and is told what it is.)
    let walked = entries.iter().any(|e| !e.named);
    if walked && corpus.results.is_empty() && corpus.claims.is_empty() {
        for f in corpus
            .findings
            .iter_mut()
            .filter(|f| f.rule.code == rules::e004_unknown_format::RULE.code)
        {
            f.severity = crate::diagnostic::Severity::Error;
            f.message.push_own(
                " (no file of this run could be read as a result, so nothing was checked)",
            );
        }
    }
    corpus
}

/// Checks the files of `chunk` in parallel. A bug on one file is an internal error for that
/// file, not the end of the run.
fn check_chunk(
    chunk: &[Entry],
    options: &Options,
    (run, hood): (&BTreeSet<PathBuf>, &beside::Neighbourhood),
) -> Vec<FileOutcome> {
    chunk
        .par_iter()
        .map(|e| {
            catch_panic(|| process_file(e, options, (run, hood))).unwrap_or_else(|message| {
                FileOutcome {
                    internal: vec![internal_error(
                        "the loader",
                        &format!("`{}`", e.display),
                        &message,
                    )],
                    ..FileOutcome::default()
                }
            })
        })
        .collect()
}

fn process_file(
    entry: &Entry,
    options: &Options,
    (run, hood): (&BTreeSet<PathBuf>, &beside::Neighbourhood),
) -> FileOutcome {
    let mut out = FileOutcome::default();
    let path = entry.display.as_str();
    let (text, bom) = match read_text(&entry.path, options.thresholds.max_file_bytes) {
        Ok(t) => t,
        Err(e) => {
            out.findings.push(finding_at(
                &rules::e001_unreadable_file::RULE,
                Location::new(path, ""),
                format!("`{path}` could not be read: {}", e.0),
                Some(
                    "check the permissions and the encoding (UTF-8), or raise the size limit"
                        .into(),
                ),
            ));
            out.finish(options);
            return out;
        }
    };
    check_text(entry, &text, bom, options, (run, hood), &mut out);
    out.finish(options);
    // Positions are resolved now, while the text is in memory: the report never reads the
    // file again unless it shows a snippet.
    crate::positions::place_in_text(path, &text, &mut out.findings);
    crate::positions::place_in_text(path, &text, &mut out.unknown);
    // In the order shown, here on the worker: the run's cap then keeps the first shown, and
    // the writer has little left to sort.
    out.findings.sort_by(crate::diagnostic::output_order);
    out
}

/// Everything done with one file's text: parse, recognise, validate, check.
fn check_text(
    entry: &Entry,
    text: &str,
    bom: bool,
    options: &Options,
    (run, hood): (&BTreeSet<PathBuf>, &beside::Neighbourhood),
    out: &mut FileOutcome,
) {
    let path = entry.display.as_str();
    if bom {
        let mut loc = Location::new(path, "");
        loc.offset = Some(0);
        out.findings.push(finding_at(
            &rules::e005_nonstandard_json::RULE,
            loc,
            "the file starts with a UTF-8 byte order mark, which JSON forbids; the mark was ignored and the rest of the file read",
            Some("save the file as UTF-8 without a byte order mark".into()),
        ));
    }
    let file_name = entry
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    #[cfg(test)]
    guard::injected(path, "loader");
    let yaml_limits = crate::yaml::Limits {
        max_depth: options.thresholds.max_depth,
        ..crate::yaml::Limits::default()
    };
    let in_run = |p: &Path| run.contains(p);
    let (form, mut documents) = match text::read(entry, &file_name, text, &yaml_limits, &in_run) {
        text::Reading::Json => match parse::parse_json(entry, &file_name, text, options, out) {
            Some(documents) => (None, documents),
            None => return,
        },
        text::Reading::Documents(form, documents) => (Some(form), documents),
        text::Reading::Quiet => return,
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
        if doc.value.get("schema").and_then(Value::as_str) == Some(RESULT_SCHEMA)
            && let Some(had) = bounds::bound_levels(&mut doc.value, options.thresholds.max_levels)
        {
            let loc = Location {
                path: path.into(),
                doc_start: doc.start,
                pointer: "/levels".into(),
                offset: None,
            };
            out.findings.push(bounds::levels_finding(
                loc,
                had,
                options.thresholds.max_levels,
            ));
        }
    }
    let folder = hood.folder(&entry.path, &entry.root);
    check_documents(
        (entry, text),
        &file_name,
        form,
        documents,
        (options, &folder),
        out,
    );
}

/// Recognises each document (canonical result, claims, sidecar, a harness's format) and
/// checks what it holds.
fn check_documents(
    (entry, text): (&Entry, &str),
    file_name: &str,
    form: Option<text::Form>,
    mut documents: Vec<Document>,
    (options, folder): (&Options, &beside::Folder<'_>),
    out: &mut FileOutcome,
) {
    let path = entry.display.as_str();
    if sidecar::is_sidecar_name(file_name) {
        for doc in &documents {
            run_document_rules(
                path,
                doc,
                &options.selection,
                &mut out.findings,
                &mut out.internal,
            );
            let mut partial = doc.value.clone();
            sidecar::prepare(&mut partial);
            for e in schema::validate(schema::Kind::Sidecar, &partial) {
                out.findings.push(schema_finding(path, doc.start, &e));
            }
        }
        return;
    }
    // The sidecar beside the file first (the most specific), then the config's, in order.
    let sides: Vec<(String, Value)> = load_sidecar(&entry.path, &entry.root)
        .into_iter()
        .chain(options.sidecars.for_path(&entry.path))
        .collect();
    let doc_count = documents.len();
    let mut unknown = Vec::new();
    for doc in &mut documents {
        // Findings are kept within the file's bound as they are made, not after.
        out.cap(options);
        run_document_rules(
            path,
            doc,
            &options.selection,
            &mut out.findings,
            &mut out.internal,
        );
        let origin = |format: &'static str| Origin {
            path: path.into(),
            doc_start: doc.start,
            format,
        };
        let declared = doc.value.get("schema").and_then(Value::as_str);
        match declared {
            Some(RESULT_SCHEMA) => {
                // `[]` stands for each sample array read into numbers, checked as numbers.
                let errors = parse::result_schema_errors(&doc.value, &doc.samples);
                if errors.is_empty() {
                    let mut value = std::mem::take(&mut doc.value);
                    let mut samples = std::mem::take(&mut doc.samples);
                    // Sidecars never merge `levels` (`sidecar::NOT_MERGED`); should one hold
                    // levels that are merged, it meets the sample arrays as written.
                    if !samples.is_empty() && sides.iter().any(|(_, s)| s.get("levels").is_some()) {
                        crate::json::restore_samples(&mut value, &samples, text);
                        samples.clear();
                    }
                    finish_result(
                        entry,
                        origin("canonical"),
                        (value, samples),
                        ProvenanceMap::default(),
                        (&sides, folder),
                        options,
                        out,
                    );
                } else {
                    out.findings
                        .extend(errors.iter().map(|e| schema_finding(path, doc.start, e)));
                }
            }
            Some(CLAIMS_SCHEMA) => {
                let errors = schema::validate(schema::Kind::Claims, &doc.value);
                if errors.is_empty() {
                    let mut value = std::mem::take(&mut doc.value);
                    // JSON Schema counts `15.0` as an integer; the typed claim wants `15`.
                    whole_numbers_as_integers(&mut value);
                    out.findings
                        .extend(claims::unreadable(path, doc.start, &value));
                    out.claims.push(LoadedClaims {
                        origin: origin("claims"),
                        value,
                    });
                } else {
                    out.findings
                        .extend(errors.iter().map(|e| schema_finding(path, doc.start, e)));
                }
            }
            // `benchlint import` writes one beside each result: not a result, not unknown.
            Some("benchlint/provenance/v1") => {}
            Some(other) if other.starts_with("benchlint/") => {
                let mut f = finding_at(
                    &rules::e003_schema_violation::RULE,
                    Location {
                        path: path.into(),
                        doc_start: doc.start,
                        pointer: "/schema".into(),
                        offset: None,
                    },
                    format!(
                        "unknown schema \"{other}\"; this version reads \"{RESULT_SCHEMA}\" and \"{CLAIMS_SCHEMA}\""
                    ),
                    Some("use a schema this version knows, or upgrade benchlint".into()),
                );
                f.label = Some("unknown schema".into());
                out.findings.push(f);
            }
            _ => {
                let source = Source {
                    path,
                    file_name,
                    doc_index: doc.index,
                    doc_count,
                    folder: Some(folder),
                };
                match adapters::read(&doc.value, &source) {
                    Some((name, Reading::Results(mapped))) => {
                        for m in mapped {
                            finish_result(
                                entry,
                                origin(name),
                                (m.value, Vec::new()),
                                m.provenance,
                                (&sides, folder),
                                options,
                                out,
                            );
                        }
                    }
                    Some((_, Reading::Companion | Reading::NotMine)) => {}
                    None => {
                        unknown.push((doc.index, doc.start, adapters::describe_unread(&doc.value)));
                    }
                }
            }
        }
    }
    // One finding for the file, however many of its documents no adapter reads; a walked
    // YAML file that is not a result is skipped silently, as any other file of the folder.
    let walked_yaml = form == Some(text::Form::Yaml) && !entry.named;
    if !walked_yaml && let Some(f) = text::unknown_documents(path, form, &unknown, doc_count) {
        out.unknown.push(f);
    }
}

fn schema_finding(path: &str, doc_start: usize, e: &schema::SchemaError) -> Finding {
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
fn load_sidecar(path: &Path, root: &Path) -> Option<(String, Value)> {
    let (_, display, mut value) = beside_sidecar(path, root)?;
    sidecar::prepare(&mut value);
    Some((display, value))
}

/// The sidecar `check` merges into the results of the file at `path`: the first of
/// [`sidecar::candidates`] that exists, when it is a valid sidecar inside `root`, as written
/// (with its nulls and note), with its path and the path findings show for it. A
/// `run.meta.json` that is a symlink to a place outside the folder being checked is not merged
/// (discovery reports it, E001, and it is not followed here either).
pub fn beside_sidecar(path: &Path, root: &Path) -> Option<(PathBuf, String, Value)> {
    for candidate in sidecar::candidates(path) {
        if !candidate.is_file() {
            continue;
        }
        if !artifacts::resolves_inside(root, &candidate) {
            return None;
        }
        let (text, _) = read_text(&candidate, 16 * 1024 * 1024).ok()?;
        let value: Value = serde_json::from_str(&text).ok()?;
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

fn run_document_rules(
    path: &str,
    doc: &Document,
    selection: &crate::config::Selection,
    findings: &mut Vec<Finding>,
    internal: &mut Vec<String>,
) {
    let ctx = DocumentCtx { value: &doc.value };
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
                    path: path.into(),
                    doc_start: doc.start,
                    pointer: e.pointer.clone().into(),
                    offset: None,
                };
                findings.push(emit_to_finding(e, loc, Vec::new(), None));
            }
        }
    }
}

fn finish_result(
    entry: &Entry,
    origin: Origin,
    (mut value, samples): (Value, Vec<crate::json::SampleArray>),
    mut provenance: ProvenanceMap,
    (sides, folder): (&[(String, Value)], &beside::Folder<'_>),
    options: &Options,
    out: &mut FileOutcome,
) {
    if let Some(had) = bounds::bound_levels(&mut value, options.thresholds.max_levels) {
        out.findings.push(bounds::levels_finding(
            translate(&origin, &provenance, "/levels"),
            had,
            options.thresholds.max_levels,
        ));
    }
    for (side_path, side_value) in sides {
        let conflicts = sidecar::merge(&mut value, side_value, side_path, &mut provenance);
        for c in conflicts {
            let from = Location::new(side_path.clone(), c.pointer.clone());
            let said = format!("the sidecar `{side_path}` says");
            out.findings.push(run_folder::conflict_finding(
                &origin,
                &provenance,
                &c,
                &said,
                from,
            ));
        }
    }
    // What the run folder kept: the launch command, then the engine's own log.
    run_folder::merge(
        folder,
        &origin,
        &mut value,
        &mut provenance,
        &mut out.findings,
    );
    let command = value.pointer("/engine/serve_command").cloned();
    let serve: Option<ServeSettings> = checklist::serve_settings(&value);
    let verbatim = matches!(
        value
            .pointer("/engine/serve_command_source")
            .and_then(Value::as_str),
        Some("process" | "container-inspect" | "launch-command")
    );
    if let (Some(s), true) = (&serve, verbatim) {
        derive::derive_from_command(
            &mut value,
            s,
            command.as_ref().is_some_and(Value::is_array),
            &mut provenance,
        );
    }
    per_user::derive_per_user(&mut value, &mut provenance);
    // Read from a borrow: cloning a document with thousands of samples costs more than
    // checking it.
    let typed = ResultDoc::deserialize(&value).or_else(|_| {
        // JSON Schema counts `32.0` as an integer; the typed model wants `32`.
        let mut whole = value.clone();
        whole_numbers_as_integers(&mut whole);
        ResultDoc::deserialize(&whole)
    });
    let mut doc: ResultDoc = match typed {
        Ok(mut d) => {
            parse::fill_samples(&mut d, samples);
            d
        }
        Err(e) => {
            out.findings.push(finding_at(
                &rules::e003_schema_violation::RULE,
                translate(&origin, &provenance, ""),
                format!("the result could not be read as `{RESULT_SCHEMA}`: {e}"),
                None,
            ));
            return;
        }
    };
    // The schema asks every level for a concurrency or a request rate; an adapter that found
    // neither in the file (a corrupted or absent load) must not have one invented.
    if let Some(i) = doc
        .levels
        .iter()
        .position(|l| l.concurrency.is_none() && l.request_rate.is_none())
    {
        out.findings.push(finding_at(
            &rules::e003_schema_violation::RULE,
            translate(&origin, &provenance, &format!("/levels/{i}")),
            format!(
                "the result could not be read as `{RESULT_SCHEMA}`: level {i} records neither a concurrency nor a \
                 request rate (a request count is neither)"
            ),
            None,
        ));
        return;
    }
    let states = artifacts::check(&doc, &entry.path, &entry.root);
    out.artifact_refs
        .extend(artifacts::referenced(&doc, &entry.path));
    // Where a value absent from a harness's file goes instead (the help of its finding).
    let sidecar = checklist::sidecar_place(&origin.path, sides);
    let ctx = ResultCtx {
        result: &doc,
        value: &value,
        provenance: &provenance,
        serve: serve.as_ref(),
        artifacts: &states,
        thresholds: &options.thresholds,
    };
    for rule in rules::RULES {
        if let (Check::Result(check), true) = (rule.check, options.selection.runs(rule.meta.code)) {
            let mut emits = Vec::new();
            if let Err(message) = catch_panic(|| {
                #[cfg(test)]
                guard::injected(&origin.path, rule.meta.code);
                check(&ctx, &mut Emitter::new(rule.meta, &mut emits));
            }) {
                let what = format!("rule {} ({})", rule.meta.code, rule.meta.name);
                out.internal.push(internal_error(
                    &what,
                    &format!("`{}`", origin.path),
                    &message,
                ));
                continue;
            }
            for mut e in emits {
                if e.absent.is_some() && !origin.is_canonical() {
                    e.help = Some(checklist::harness_help(
                        e.help.take(),
                        &e.pointer,
                        origin.format,
                        &origin.path,
                        (&sidecar.0, sidecar.1),
                    ));
                    if let Some(a) = e.absent.as_mut() {
                        a.sidecar = Some(checklist::harness_note(
                            origin.format,
                            (&sidecar.0, sidecar.1),
                        ));
                    }
                }
                let loc = translate(&origin, &provenance, &e.pointer);
                let related = e
                    .related
                    .iter()
                    .map(|r| {
                        if r.path.is_empty() {
                            translate(&origin, &provenance, r.pointer.raw())
                        } else {
                            r.clone()
                        }
                    })
                    .collect();
                out.findings
                    .push(emit_to_finding(e, loc, related, doc.measured_date()));
            }
        }
    }
    if options.lean {
        drop_per_result_detail(&mut doc);
        value = Value::Null;
    }
    out.results.push(LoadedResult {
        origin,
        doc,
        value,
        provenance,
    });
}

/// What only the per-result rules read, dropped once they have run (`Options::lean`): the
/// per-request samples, the serve command and environment (their settings are already derived
/// into typed fields, which the corpus-wide rules compare) and the load snapshots. The
/// corpus-wide rules never read these, and they are most of a result's heap.
fn drop_per_result_detail(doc: &mut ResultDoc) {
    for level in &mut doc.levels {
        level.samples = None;
    }
    if let Some(engine) = doc.engine.as_mut() {
        engine.serve_command = None;
        engine.environment = None;
    }
    if let Some(platform) = doc.platform.as_mut() {
        platform.load_snapshot = None;
    }
}

/// Turns a rule's report into a finding, applying the rule's adoption date.
pub fn emit_to_finding(
    e: Emit,
    primary: Location,
    related: Vec<Location>,
    measured: Option<&str>,
) -> Finding {
    let rule: &'static RuleMeta = e.rule;
    let mut message = e.message;
    let mut severity = e.severity.unwrap_or(rule.severity);
    let mut pre_rule = false;
    if let (Some(since), Some(date)) = (rule.since, measured)
        && date < since
    {
        pre_rule = true;
        severity = crate::diagnostic::Severity::Info;
        message.push_text(crate::text!(
            " [measured {}, before this rule was adopted on {}: labelled, not failed]",
            date,
            crate::text::Own(since)
        ));
    }
    Finding {
        rule,
        severity,
        pre_rule,
        primary,
        related,
        message,
        label: e.label,
        help: e.help,
        absent: e.absent,
        placed: None,
        corpus: e.corpus,
    }
}

/// Rewrites every whole-number float (`32.0`) as an integer, in place.
fn whole_numbers_as_integers(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if n.is_f64() => {
                if let Some(f) = n.as_f64() {
                    #[expect(
                        clippy::cast_possible_truncation,
                        reason = "checked whole and in range"
                    )]
                    if f.fract() == 0.0 && f.abs() < 9.0e15 {
                        *v = Value::from(f as i64);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}
