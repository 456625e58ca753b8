//! What a rule sees (a canonical result, or one raw document) and how it reports.

use serde_json::Value;

use crate::diagnostic::Location;
use crate::model::loaded::LoadedResult;
use crate::model::{ProvenanceMap, ResultDoc};
use crate::serve_command::ServeSettings;
use crate::text::Text;
use crate::thresholds::Thresholds;

use super::RuleMeta;

/// Whether an artifact named by a result exists, checked by the loader (rules do no I/O).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArtifactState {
    /// The file exists inside the corpus root.
    Present,
    /// The file does not exist.
    Missing,
    /// The path leaves the corpus root (`..` or absolute) and was not followed.
    OutsideCorpus,
}

/// One canonical result, with what the loader learned about it.
pub struct ResultCtx<'a> {
    /// The typed result.
    pub result: &'a ResultDoc,
    /// The same result as canonical JSON (after sidecars and derivations).
    pub value: &'a Value,
    /// Where each value came from.
    pub provenance: &'a ProvenanceMap,
    /// The serve command, parsed, when one is recorded.
    pub serve: Option<&'a ServeSettings>,
    /// Existence of each artifact, keyed by canonical pointer of its `path`.
    pub artifacts: &'a [(String, ArtifactState)],
    /// Thresholds in force.
    pub thresholds: &'a Thresholds,
}

impl ResultCtx<'_> {
    /// The canonical value at `pointer`, if present and not null.
    pub fn get(&self, pointer: &str) -> Option<&Value> {
        lookup(self.value, pointer).filter(|v| !v.is_null())
    }

    /// Whether the canonical value at `pointer` is present.
    pub fn has(&self, pointer: &str) -> bool {
        self.get(pointer).is_some()
    }
}

/// `Value::pointer` without its allocation per step: rules ask for thousands of pointers per
/// corpus, and only a key with `~` needs unescaping.
fn lookup<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let mut at = root;
    for raw in pointer.strip_prefix('/')?.split('/') {
        let unescaped;
        let token = if raw.contains('~') {
            unescaped = crate::json::unescape_token(raw);
            unescaped.as_str()
        } else {
            raw
        };
        at = match at {
            Value::Object(map) => map.get(token)?,
            Value::Array(items) => {
                if token.len() > 1 && token.starts_with('0') {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(at)
}

/// One raw document as the file holds it, whatever its format, or one item of a document that
/// is an array, read alone.
pub struct DocumentCtx<'a> {
    /// The parsed document, or the item.
    pub value: &'a Value,
    /// Where `value` lies in its document: nothing for the document, `[Index(3)]` for its
    /// fourth item. A rule walks `value` under it ([`crate::json::walk_under`]), so that what
    /// it reports of an item read alone is what it reports of the whole document.
    pub under: &'a [crate::json::Step<'a>],
}

/// The whole corpus, for rules over groups of results.
pub struct CorpusCtx<'a> {
    /// Every canonical result, in path order (losing runs included).
    pub results: &'a [LoadedResult],
    /// Indices of `results` sorted by path and place in the file
    /// ([`crate::fingerprint::path_order`]), computed once for every rule that walks them in
    /// that order.
    pub order: &'a [usize],
    /// Every claims document of the corpus (C rules).
    pub claims: &'a [crate::model::loaded::LoadedClaims],
    /// Thresholds in force.
    pub thresholds: &'a Thresholds,
    /// The counts of every result of the corpus, held or not (S008, S009).
    pub tally: &'a super::CorpusTally,
    /// The configurations of `results` ([`crate::replication::configurations`]), grouped once
    /// for every rule that needs them.
    pub configurations: &'a [crate::replication::Configuration],
    /// The C findings of every claim ([`crate::claims::claim_findings`]), made by the first C
    /// rule that asks and shared by the others: every C rule reports from the same analysis,
    /// and making it once per rule multiplied its cost by the number of C rules.
    pub claims_analysis: std::sync::OnceLock<Vec<crate::claims::ClaimFindings>>,
    /// Whether the rule of a code runs in this run (the selection): what is made for several
    /// rules at once, and held until the last of them ran, keeps only what those that run
    /// report.
    pub rule_runs: &'a dyn Fn(&str) -> bool,
}

impl CorpusCtx<'_> {
    /// The configurations the replication rules judge: the identified ones. An unidentified
    /// result (model name, engine name, device model, precision or workload not recorded) is a
    /// configuration of its own that no rule of replication judges until a sidecar supplies what
    /// is missing (DESIGN.md conventions: "unknown is never equal to unknown"); its M findings
    /// say what that is.
    pub fn identified_configurations(
        &self,
    ) -> impl Iterator<Item = &crate::replication::Configuration> {
        self.configurations.iter().filter(|c| c.is_identified())
    }
}

/// A finding as a rule reports it: a pointer (canonical for result rules, raw for document
/// rules), the message with its numbers, and optionally a label, a help line and related places.
#[derive(Debug, Clone)]
pub struct Emit {
    /// The rule.
    pub rule: &'static RuleMeta,
    /// Where (a canonical pointer of a result, or a raw pointer of a document).
    pub pointer: String,
    /// For corpus rules: the index in `CorpusCtx::results` of the result the finding is on.
    pub subject: Option<usize>,
    /// For corpus rules: a place in any file (a claim in a claims file), used as-is instead of
    /// `pointer` of `subject` when set.
    pub location: Option<Location>,
    /// For group rules: the finding is about the corpus as a whole ([`Emitter::emit_on_corpus`]),
    /// placed on the corpus (the checked paths) rather than on any file in it.
    pub corpus: bool,
    /// A severity for this finding only (a rule with a softer band, R003's note), instead of
    /// the rule's default.
    pub severity: Option<crate::diagnostic::Severity>,
    /// What was found.
    pub message: Text,
    /// Text under the value.
    pub label: Option<Text>,
    /// What to do.
    pub help: Option<Text>,
    /// Other places involved.
    pub related: Vec<Location>,
    /// For a field reported as not recorded ([`Emitter::missing`]): what it is and its
    /// pointer. The loader words the help of such a finding for the file it is on (a harness's
    /// file takes the value from a sidecar), `benchlint sidecar` lists these fields, and the
    /// human format shows the fields one object lacks together.
    pub absent: Option<crate::diagnostic::Absent>,
}

impl Emit {
    /// Sets the help line.
    pub fn help(&mut self, help: impl Into<Text>) -> &mut Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the label drawn under the value.
    pub fn label(&mut self, label: impl Into<Text>) -> &mut Self {
        self.label = Some(label.into());
        self
    }

    /// Reports this finding at `severity` instead of the rule's default.
    pub fn severity(&mut self, severity: crate::diagnostic::Severity) -> &mut Self {
        self.severity = Some(severity);
        self
    }

    /// Places the finding at `location`, as-is (a claim in a claims file).
    pub fn at(&mut self, location: Location) -> &mut Self {
        self.location = Some(location);
        self
    }

    /// Adds a related place.
    pub fn related(&mut self, location: Location) -> &mut Self {
        self.related.push(location);
        self
    }
}

/// Collects the findings of one rule.
pub struct Emitter<'o> {
    rule: &'static RuleMeta,
    out: &'o mut Vec<Emit>,
    /// Takes the findings made so far once there are [`DRAIN_AT`] of them ([`Emitter::draining`]).
    drain: Option<&'o mut Drain<'o>>,
}

/// What a draining emitter hands its findings to.
pub type Drain<'a> = dyn FnMut(&mut Vec<Emit>) + 'a;

/// Findings a draining emitter collects before handing them on.
const DRAIN_AT: usize = 1024;

impl<'o> Emitter<'o> {
    /// An emitter for `rule` writing into `out`.
    pub fn new(rule: &'static RuleMeta, out: &'o mut Vec<Emit>) -> Self {
        Emitter {
            rule,
            out,
            drain: None,
        }
    }

    /// An emitter for `rule` writing into `out` and handing what it holds to `drain` every
    /// thousand findings or so, so that a corpus-wide rule's findings (one per configuration,
    /// a hundred thousand of them) need not all be in memory at once. A finding is handed on
    /// only once the next one is made, when the rule can no longer change it.
    pub fn draining(
        rule: &'static RuleMeta,
        out: &'o mut Vec<Emit>,
        drain: &'o mut Drain<'o>,
    ) -> Self {
        Emitter {
            rule,
            out,
            drain: Some(drain),
        }
    }

    /// Reports a finding at `pointer`.
    pub fn emit(&mut self, pointer: impl Into<String>, message: impl Into<Text>) -> &mut Emit {
        if self.out.len() >= DRAIN_AT
            && let Some(drain) = &mut self.drain
        {
            drain(self.out);
        }
        self.out.push(Emit {
            rule: self.rule,
            pointer: pointer.into(),
            subject: None,
            location: None,
            corpus: false,
            severity: None,
            message: message.into(),
            label: None,
            help: None,
            related: Vec::new(),
            absent: None,
        });
        self.out.last_mut().expect("just pushed")
    }

    /// Reports a finding at canonical `pointer` of result `subject` (corpus rules).
    pub fn emit_on(
        &mut self,
        subject: usize,
        pointer: impl Into<String>,
        message: impl Into<Text>,
    ) -> &mut Emit {
        let e = self.emit(pointer, message);
        e.subject = Some(subject);
        e
    }

    /// Reports a finding about the corpus as a whole (a group rule's verdict on what the checked
    /// files can show together): placed on the corpus, the path or paths that were checked,
    /// with no file, line or snippet, rather than on whichever result comes first.
    pub fn emit_on_corpus(&mut self, message: impl Into<Text>) -> &mut Emit {
        let e = self.emit("", message);
        e.corpus = true;
        e
    }

    /// Reports an absent field at `pointer`: labelled on the object that should hold it.
    pub fn missing(&mut self, pointer: &str, what: &str, help: impl Into<Text>) -> &mut Emit {
        let dotted = pointer.trim_start_matches('/').replace('/', ".");
        let e = self.emit(
            pointer,
            crate::text!("not recorded: {} (`{}`)", what, pointer),
        );
        e.label(crate::text!("`{}` belongs here", &dotted));
        e.help(help);
        e.absent = Some(crate::diagnostic::Absent {
            what: crate::text!("{} (`{}`)", what, pointer),
            field: crate::text!("{}", dotted),
            words: what.to_string(),
            pointer: pointer.to_string(),
            sidecar: None,
        });
        e
    }
}

#[cfg(test)]
mod tests {
    use super::lookup;

    #[test]
    fn lookup_agrees_with_serde_json_pointer() {
        let v = serde_json::json!({"a/b": {"c~d": [10, 20]}, "levels": [{"x": 1}], "": 5});
        for p in [
            "",
            "/a~1b",
            "/a~1b/c~0d/1",
            "/levels/0/x",
            "/levels/00",
            "/levels/1",
            "/levels/-1",
            "/missing",
            "/",
            "x",
            "/levels/0/x/y",
        ] {
            assert_eq!(lookup(&v, p), v.pointer(p), "{p}");
        }
    }
}
