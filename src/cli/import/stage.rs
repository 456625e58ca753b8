//! Each result of an `import` written as the loader hands it over, into a staging folder of
//! the output, then moved to its name once every name is known.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value, json};

use super::super::output;
use super::names::Namer;
use super::{ImportArgs, PROVENANCE_SCHEMA};
use crate::corpus::{self, LoadedResult, translate};
use crate::json::escape_pointer_token;
use crate::model::Provenance;
use crate::text::PathText;

/// Loads the corpus, staging each result's files as it comes ([`stage`]), then moves them to
/// their names; the results refused a name are named with the input whose name they would
/// take. `Err` at the first file that cannot be written.
#[expect(
    clippy::type_complexity,
    reason = "the loaded corpus, where each result was read, the secrets replaced and the inputs \
              refused, used once"
)]
pub(super) fn write_staged(
    args: &ImportArgs,
    options: &corpus::Options,
    staging: &Path,
) -> Result<(corpus::Corpus, Vec<Place>, usize, Vec<(String, String)>), String> {
    let next = AtomicUsize::new(0);
    // Each staged result by its file, its document and its place among the document's
    // results, with its staging number; the first failure; the secret values replaced.
    let staged: Mutex<BTreeMap<(PathText, usize, usize), usize>> = Mutex::new(BTreeMap::new());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let redacted = AtomicUsize::new(0);
    // How many results of each document of the files being read were handed so far: a
    // document's results are handed in its order, a batch at a time when it holds many.
    let in_document: Mutex<BTreeMap<(String, usize), usize>> = Mutex::new(BTreeMap::new());
    let hand = |handed: corpus::Handed<'_>| {
        for r in handed.results.iter_mut() {
            if failed.lock().is_ok_and(|f| f.is_some()) {
                return;
            }
            let place = in_document
                .lock()
                .map_or((r.origin.doc_start, 0), |mut counts| {
                    let count = counts
                        .entry((r.origin.path.raw().to_string(), r.origin.doc_start))
                        .or_insert(0);
                    *count += 1;
                    (r.origin.doc_start, *count - 1)
                });
            let k = next.fetch_add(1, Ordering::Relaxed);
            match stage(r, (handed.text, handed.base), staging, k) {
                Ok(n) => {
                    redacted.fetch_add(n, Ordering::Relaxed);
                }
                Err(e) => {
                    if let Ok(mut f) = failed.lock() {
                        f.get_or_insert(e);
                    }
                }
            }
            if let Ok(mut s) = staged.lock() {
                s.insert((r.origin.path.clone(), place.0, place.1), k);
            }
        }
        // The file's documents are all handed: their counts go.
        if handed.last
            && let Ok(mut counts) = in_document.lock()
        {
            let mut rest = counts.split_off(&(handed.path.to_string(), 0));
            let mut after = rest.split_off(&(format!("{}\0", handed.path), 0));
            counts.append(&mut after);
        }
    };
    // A JSON Lines file's results are written a chunk of lines at a time; of each, once
    // written, only where it was read is kept, to name its files.
    let mut places: Vec<Place> = Vec::new();
    let options = corpus::Options {
        put_away: true,
        ..options.clone()
    };
    let loaded = corpus::load_streaming_into(
        &args.paths,
        &options,
        corpus::Handing {
            to: &hand,
            in_chunks: true,
        },
        &mut |r| places.push((r.origin.path, r.origin.doc_start)),
    );
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e);
    }
    let staged = staged.into_inner().unwrap_or_default();
    // In path order, so that a file's results are numbered in the order the file holds them
    // (results of one document in the order read).
    places.sort_by(|a, b| (a.0.raw(), a.1).cmp(&(b.0.raw(), b.1)));
    // Each kept result's staging number, found by its place (a result the loader dropped after
    // it was staged, on a bug, is not written), and its name, given as it is moved: the names
    // are never all held.
    let mut place = (None, usize::MAX, 0);
    let mut namer = Namer::new(&args.paths);
    let mut refused = Vec::new();
    let mut made: BTreeSet<PathBuf> = BTreeSet::new();
    let mut in_file = 0;
    for (at, (path, doc_start)) in places.iter().enumerate() {
        let raw = Some(path.raw());
        let first_of_file = place.0 != raw;
        place = if (place.0, place.1) == (raw, *doc_start) {
            (raw, place.1, place.2 + 1)
        } else {
            (raw, *doc_start, 0)
        };
        let Some(k) = staged.get(&(path.clone(), place.1, place.2)).copied() else {
            return Err(format!(
                "the result of `{}` at byte {doc_start} was read but not written",
                crate::text::line(path.raw()),
            ));
        };
        // The places are in path order: a file's results lie together.
        if first_of_file {
            in_file = places[at..]
                .iter()
                .take_while(|(p, _)| p.raw() == path.raw())
                .count();
        }
        let name = match namer.name(path.raw(), in_file) {
            Ok(name) => name,
            Err(other) => {
                refused.push((path.raw().to_string(), other.clone()));
                continue;
            }
        };
        for (from, to) in [
            (staged_file(staging, k, ".json"), format!("{name}.json")),
            (
                staged_file(staging, k, ".provenance.json"),
                format!("{name}.provenance.json"),
            ),
        ] {
            let path = args.output.join(to);
            // Each folder made once, not asked after for each file.
            if let Some(parent) = path.parent()
                && !made.contains(parent)
            {
                output::create_dir(parent)?;
                made.insert(parent.to_path_buf());
            }
            output::move_file(&from, &path)?;
        }
    }
    Ok((loaded, places, redacted.into_inner(), refused))
}

/// Where a result was read: its file and the byte its document starts at.
pub(super) type Place = (PathText, usize);

/// The provenance of every leaf value of `r`, keyed by canonical pointer.
fn provenance_of(r: &LoadedResult) -> Value {
    let mut out = Map::new();
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), &r.value)];
    while let Some((pointer, v)) = stack.pop() {
        match v {
            Value::Object(map) if !map.is_empty() => {
                for (k, child) in map {
                    stack.push((format!("{pointer}/{}", escape_pointer_token(k)), child));
                }
            }
            Value::Array(items)
                if !items.is_empty()
                    && !pointer.ends_with("serve_command")
                    && !pointer.contains("/samples/") =>
            {
                for (i, child) in items.iter().enumerate() {
                    stack.push((format!("{pointer}/{i}"), child));
                }
            }
            _ => {
                let loc = translate(&r.origin, &r.provenance, &pointer);
                let entry = match r
                    .provenance
                    .lookup(&pointer)
                    .as_ref()
                    .map(|(p, rest)| (&**p, *rest))
                {
                    Some((Provenance::Sidecar { .. }, _)) => {
                        json!({ "kind": "sidecar", "path": loc.path, "pointer": loc.pointer })
                    }
                    Some((Provenance::Derived { from, .. }, _)) => {
                        json!({ "kind": "derived", "from": from, "pointer": loc.pointer })
                    }
                    Some((Provenance::ServerLog { path, offset }, _)) => {
                        json!({ "kind": "server-log", "path": path, "offset": offset })
                    }
                    Some((Provenance::LaunchCommand { path }, _)) => {
                        json!({ "kind": "launch-command", "path": path })
                    }
                    _ => json!({ "kind": "recorded", "path": loc.path, "pointer": loc.pointer }),
                };
                out.insert(pointer, entry);
            }
        }
    }
    let mut sorted: Vec<(String, Value)> = out.into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Object(sorted.into_iter().collect())
}

/// Where each result's two files are written while the corpus is read, before the names are
/// known (a name depends on every result of the run): a folder of the output that no output
/// name can be, since [`file_stem`] never starts one with a dot.
pub(super) fn staging_dir(output: &Path) -> PathBuf {
    output.join(format!(".benchlint-import.{}", std::process::id()))
}

/// Where the staged file of result `k` ending in `suffix` goes: folders of a thousand results,
/// so that no folder of the staging grows to tens of thousands of files, where each file made
/// or moved costs a search of its folder on some file systems.
fn staged_file(staging: &Path, k: usize, suffix: &str) -> PathBuf {
    staging
        .join(format!("{}", k / 1000))
        .join(format!("{k}{suffix}"))
}

/// Writes `r`'s canonical file and provenance file into `staging` ([`staged_file`]), and counts
/// the secret values replaced.
fn stage(
    r: &mut LoadedResult,
    (text, base): (&str, usize),
    staging: &Path,
    k: usize,
) -> Result<usize, String> {
    let mut provenance = json!({
        "schema": PROVENANCE_SCHEMA,
        "result": r.doc.id,
        "source": { "path": r.origin.path, "format": r.origin.format },
        "values": provenance_of(r),
    });
    // Pointers are made of the file's keys, and paths and ids are the file's text too.
    crate::secrets::redact_value(&mut provenance);
    // A published canonical file carries no credential: secrets become "<redacted>". The
    // canonical JSON is taken, not copied: the loader keeps the result lean afterwards.
    let (mut value, mut apart) = std::mem::take(&mut r.value).into_parts();
    // Where the arrays lie in `text`, a chunk of the file's lines starting at `base`.
    for s in &mut apart {
        let (Some(start), Some(end)) = (s.start.checked_sub(base), s.end.checked_sub(base)) else {
            return Err(format!(
                "`{}`: a sample array lies before the lines handed over",
                r.origin.path.raw()
            ));
        };
        (s.start, s.end) = (start, end);
    }
    let redacted = crate::secrets::redact_value(&mut value);
    // Written as it is serialised, the sample arrays read from the file's text as they are
    // reached: a result of millions of samples is hundreds of megabytes of pretty JSON, and
    // several times that as JSON values.
    let whole = crate::json::WithSamples::new(&value, &apart, text);
    let canonical = staged_file(staging, k, ".json");
    if let Some(folder) = canonical.parent() {
        output::create_dir(folder)?;
    }
    output::write_new_file_with(&canonical, &mut |sink| {
        crate::text::json::pretty_line_to(sink, &whole)
    })?;
    drop(value);
    output::write_new_file_with(&staged_file(staging, k, ".provenance.json"), &mut |sink| {
        crate::text::json::pretty_line_to(sink, &provenance)
    })?;
    Ok(redacted)
}
