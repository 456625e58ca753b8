//! Run-folder companions: what a run folder kept besides the harness's result, merged into
//! every result read there (DESIGN.md "Real formats read in place", run-folder companions).
//!
//! - **The launch command** (`vllm_command.txt`, or any `*_command.txt`, as the launcher wrote
//!   it) whose words are a serve command benchlint can read (vLLM, `SGLang`, TensorRT-LLM): it
//!   fills `engine.serve_command` with `serve_command_source` `launch-command`, verbatim, so
//!   it satisfies the checklist like a captured command and the settings it names are
//!   derived from it. A client's command kept the same way (AIPerf's
//!   `benchmark_command.txt`, `vllm bench serve ...`) launches no engine and is passed over.
//! - **The engine's own log** (`server.log`, else another `*server*.log`): its name, version
//!   and settings as the engine printed them at start ([`crate::server_log`]), with
//!   provenance "server log" pointing at the line.
//!
//! Where: the result's own folder, and for a result in `aiperf_artifacts/` (the folder AIPerf
//! writes into inside an InferenceX run folder), the run folder above it. The first folder that
//! holds one wins, per companion. Like a sidecar, a companion fills only what the result does
//! not record; a value it contradicts is M019, and the result's value is kept. A command that
//! contradicts a recorded setting is M015's (the serve command mismatch). Each folder is read
//! once per run, whatever number of results it holds.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::beside::{Folder, MAX_TEXT_BYTES, Place};
use super::sidecar::{self, Conflict};
use super::translate::{Origin, finding_at, translate};
use crate::diagnostic::{Finding, Location};
use crate::model::{Provenance, ProvenanceMap};
use crate::rules;
use crate::serve_command::{self, EngineKind};
use crate::server_log::{LogFacts, LogScan};
use crate::text::Text;

/// The most log files and command files looked at in one folder.
const MAX_CANDIDATES: usize = 8;

/// What a result's run folder kept.
#[derive(Debug, Default)]
pub struct RunFolder {
    /// The launch command file (as reached from the command line), its command, and the
    /// engine it launches.
    pub command: Option<(String, String, EngineKind)>,
    /// The server log (as reached from the command line) and what it says.
    pub log: Option<(String, LogFacts)>,
}

impl RunFolder {
    /// The partial canonical document the launch command gives.
    pub fn command_document(&self) -> Option<(&str, Value)> {
        let (path, line, kind) = self.command.as_ref()?;
        let mut engine = Map::new();
        engine.insert("name".into(), kind.name().into());
        engine.insert("serve_command".into(), line.clone().into());
        engine.insert("serve_command_source".into(), "launch-command".into());
        let mut doc = Map::new();
        doc.insert("engine".into(), Value::Object(engine));
        Some((path, Value::Object(doc)))
    }

    /// The partial canonical document the server log gives, and the byte offset of the line
    /// behind each of its pointers.
    pub fn log_document(&self) -> Option<LogDocument<'_>> {
        let (path, facts) = self.log.as_ref()?;
        if facts.facts.is_empty() {
            return None;
        }
        let mut doc = Value::Object(Map::new());
        let mut offsets = Vec::new();
        for f in &facts.facts {
            crate::json::insert_at(&mut doc, &f.pointer, f.value.clone());
            offsets.push((f.pointer.clone(), f.offset));
        }
        Some((path, doc, offsets))
    }
}

/// The server log's path, its partial canonical document, and the offset of the line behind
/// each canonical pointer.
pub type LogDocument<'a> = (&'a str, Value, Vec<(String, usize)>);

/// The run-folder companions of a result read in `folder` (cached per folder).
pub fn of(folder: &Folder<'_>) -> Arc<RunFolder> {
    let mut places = vec![Place::Here];
    if folder
        .dir_name()
        .is_some_and(|n| n.eq_ignore_ascii_case("aiperf_artifacts"))
    {
        places.push(Place::Up);
    }
    let mut out = RunFolder::default();
    for place in places {
        let Some(found) = folder.cached(place, "run-folder", |f| read(f, place)) else {
            continue;
        };
        if out.command.is_none() {
            out.command.clone_from(&found.command);
        }
        if out.log.is_none() {
            out.log.clone_from(&found.log);
        }
    }
    Arc::new(out)
}

fn read(folder: &Folder<'_>, place: Place) -> RunFolder {
    let names = folder.names(place);
    RunFolder {
        command: launch_command(folder, place, &names),
        log: server_log(folder, place, &names),
    }
}

fn launch_command(
    folder: &Folder<'_>,
    place: Place,
    names: &[String],
) -> Option<(String, String, EngineKind)> {
    names
        .iter()
        .filter(|n| {
            let p = std::path::Path::new(n.as_str());
            p.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt"))
                && p.file_stem().is_some_and(|s| {
                    s.to_string_lossy()
                        .to_ascii_lowercase()
                        .ends_with("_command")
                })
        })
        .take(MAX_CANDIDATES)
        .find_map(|name| {
            let text = folder.text(place, name, MAX_TEXT_BYTES)?;
            let line = text.trim();
            let kind = serve_command::parse(&serve_command::split_command_line(line)).engine?;
            Some((folder.display(place, name), line.to_string(), kind))
        })
}

fn server_log(folder: &Folder<'_>, place: Place, names: &[String]) -> Option<(String, LogFacts)> {
    let logs = names
        .iter()
        .filter(|n| *n == "server.log")
        .chain(names.iter().filter(|n| {
            let p = std::path::Path::new(n.as_str());
            *n != "server.log"
                && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("log"))
                && n.to_ascii_lowercase().contains("server")
        }));
    logs.take(MAX_CANDIDATES).find_map(|name| {
        let mut scan = LogScan::default();
        if !folder.scan_lines(place, name, |offset, line| scan.line(offset, line)) {
            return None;
        }
        let facts = scan.finish();
        (!facts.facts.is_empty()).then(|| (folder.display(place, name), facts))
    })
}

/// Merges what `folder`'s run folder kept into the result `value` read from `origin`: the
/// launch command, then the server log, each filling only what is absent; every
/// contradiction is an M019 finding in `findings`.
pub(super) fn merge(
    folder: &Folder<'_>,
    origin: &Origin,
    value: &mut Value,
    provenance: &mut ProvenanceMap,
    findings: &mut Vec<Finding>,
) {
    let kept = of(folder);
    if let Some((path, doc)) = kept.command_document() {
        let made = |_: &str| Provenance::LaunchCommand {
            path: path.to_string(),
        };
        let conflicts = sidecar::merge_with(value, &doc, provenance, &|p| {
            (p.matches('/').count() > 1).then(|| made(p))
        });
        for c in conflicts {
            let mut from = Location::new(path, "");
            from.offset = Some(0);
            let said = format!("the launch command `{path}` says");
            findings.push(conflict_finding(origin, provenance, &c, &said, from));
        }
    }
    if let Some((path, doc, offsets)) = kept.log_document() {
        let at = |p: &str| offsets.iter().find(|(q, _)| q == p).map(|(_, o)| *o);
        let conflicts = sidecar::merge_with(value, &doc, provenance, &|p| {
            at(p).map(|offset| Provenance::ServerLog {
                path: path.to_string(),
                offset,
            })
        });
        for c in conflicts {
            let mut from = Location::new(path, "");
            from.offset = at(&c.pointer).or(Some(0));
            let said = format!("the server log `{path}` says");
            findings.push(conflict_finding(origin, provenance, &c, &said, from));
        }
    }
}

/// M019: a sidecar or a run-folder companion (`said`: "the server log `x` says") contradicts
/// the value the result holds at `c.pointer`; the finding sits on that value, with the
/// companion's place (`from`) beside it.
pub(super) fn conflict_finding(
    origin: &Origin,
    provenance: &ProvenanceMap,
    c: &Conflict,
    said: &str,
    from: Location,
) -> Finding {
    let loc = translate(origin, provenance, &c.pointer);
    // The value kept may itself come from a sidecar or a companion merged before.
    let holder = match provenance
        .lookup(&c.pointer)
        .as_ref()
        .map(|(p, rest)| (&**p, *rest))
    {
        Some((Provenance::Sidecar { path, .. }, _)) => format!("the sidecar `{path}` says"),
        Some((Provenance::ServerLog { path, .. }, _)) => format!("the server log `{path}` says"),
        Some((Provenance::LaunchCommand { path }, _)) => {
            format!("the launch command `{path}` says")
        }
        _ => "the file records".to_string(),
    };
    // A secret is named, never quoted: the value under `/engine/api_key` is not shown.
    let key = c.pointer.rsplit('/').next();
    let shown = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) if crate::secrets::classify(key, s).is_some() => {
            Text::own("a secret (not shown)")
        }
        v => Text::file(v.to_string()),
    };
    // `said` and `holder` name files: input text, as the values are.
    let mut message = Text::file(said);
    message.push_text(crate::text!(" `{}` is ", &c.pointer));
    message.push_text(shown(&c.sidecar_value));
    message.push_own(" but ");
    message.push_file(holder);
    message.push_own(" ");
    message.push_text(shown(&c.file_value));
    let mut f = finding_at(
        &rules::m019_sidecar_conflict::RULE,
        loc,
        message,
        Some(if said.starts_with("the sidecar") {
            "find out which is true and fix the sidecar (or re-export the file); the file's value is kept".into()
        } else {
            "find out which is true: the server log and the launch command are what the engine ran with, so a result that disagrees was likely mislabelled or measured against another launch; the file's value is kept".into()
        }),
    );
    let short = said.split(" `").next().unwrap_or(said);
    let mut label = Text::file(short);
    label.push_own(" ");
    label.push_text(shown(&c.sidecar_value));
    f.label = Some(label);
    f.related.push(from);
    f
}
