//! The publication checklist (M001–M014) as the gaps a result leaves: the canonical pointers of
//! its absent values, which `benchlint sidecar` turns into a skeleton, and the help such a
//! finding gets on a file a harness wrote.
//!
//! A harness's file is not the team's to edit (rewriting a vLLM or GuideLLM report loses what
//! the harness wrote, and the next run overwrites it), so on such a file the help of a missing
//! value says where the value goes instead: the sidecar beside the file, with the exact keys,
//! how to write a skeleton of it, and `benchlint capture` for what a running engine can tell
//! (its serve command and environment). A canonical file is the team's own document: its help
//! stays the rule's ("add `platform.host`"). The rules themselves never learn which harness
//! wrote a file; the loader chooses the wording from where the result was read.

use std::path::Path;

use serde_json::Value;

use super::{LoadedResult, Options, sidecar};
use crate::rules::{self, Check, Emitter, ResultCtx};
use crate::serve_command::{self, ServeSettings};
use crate::text::Text;

/// The codes of the checklist rules whose absent values a sidecar can supply.
pub const CHECKLIST: std::ops::RangeInclusive<&str> = "M001"..="M014";

/// One absent checklist value of a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// The rule that reports it.
    pub code: &'static str,
    /// Canonical pointer of the value (`/platform/host`).
    pub pointer: String,
    /// What is missing, in the rule's words ("the host name").
    pub what: String,
}

/// The serve command a canonical value records, parsed (an argv array or one string).
pub fn serve_settings(value: &Value) -> Option<ServeSettings> {
    match value.pointer("/engine/serve_command")? {
        Value::Array(items) => Some(serve_command::parse(
            &items
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect::<Vec<_>>(),
        )),
        Value::String(s) => Some(serve_command::parse(&serve_command::split_command_line(s))),
        _ => None,
    }
}

/// The checklist items `r` leaves absent, as the M001–M014 rules report them on its file with
/// `options` (its selection and per-file ignores included), in rule order. `r` must keep its
/// canonical JSON (loaded without `Options::lean`); a result without it has no gaps to tell.
pub fn gaps(r: &LoadedResult, options: &Options) -> Vec<Gap> {
    if r.value.is_null() {
        return Vec::new();
    }
    let serve = serve_settings(&r.value);
    let ctx = ResultCtx {
        result: &r.doc,
        value: &r.value,
        provenance: &r.provenance,
        serve: serve.as_ref(),
        // No checklist item reads whether an artifact exists (M017 does, and it is no gap).
        artifacts: &[],
        thresholds: &options.thresholds,
    };
    let mut out = Vec::new();
    for rule in rules::RULES {
        let Check::Result(check) = rule.check else {
            continue;
        };
        let code = rule.meta.code;
        if !CHECKLIST.contains(&code) || !options.selection.runs_on(r.origin.path.raw(), code) {
            continue;
        }
        let mut emits = Vec::new();
        check(&ctx, &mut Emitter::new(rule.meta, &mut emits));
        out.extend(emits.into_iter().filter_map(|e| {
            e.absent.map(|a| Gap {
                code,
                pointer: e.pointer,
                what: a.words,
            })
        }));
    }
    out
}

/// The sidecar a result file read from `path` (as reached from the command line) takes: the
/// one attached to it already when one is (`sides` holds what was merged, beside sidecar
/// first), else the name `check` looks for first (`run.meta.json` beside `run.json`). The
/// flag says whether it exists.
pub fn sidecar_place(path: &str, sides: &[(String, Value)]) -> (String, bool) {
    let names: Vec<String> = sidecar::candidates(Path::new(path))
        .iter()
        .map(|c| {
            let s = c.to_string_lossy();
            s.strip_prefix("./").unwrap_or(&s).to_string()
        })
        .collect();
    if let Some((attached, _)) = sides.iter().find(|(p, _)| names.contains(p)) {
        return (attached.clone(), true);
    }
    (names.into_iter().next().unwrap_or_default(), false)
}

/// `{"platform": {"devices_per_node": …}}` for `/platform/devices_per_node`: the keys a
/// sidecar sets for a canonical pointer.
pub fn keys_example(pointer: &str) -> String {
    let tokens: Vec<String> = pointer
        .trim_start_matches('/')
        .split('/')
        .map(crate::json::unescape_token)
        .collect();
    let mut out = String::from("…");
    for t in tokens.iter().rev() {
        out = format!("{{{}: {out}}}", Value::from(t.as_str()));
    }
    out
}

/// Whether `benchlint capture` supplies the value at `pointer`: the serve command, what a
/// verbatim command derives (engine settings, the model), the image digest of a container,
/// the collective-library settings of its environment. The engine's version is not in its
/// command line.
fn capture_supplies(pointer: &str) -> bool {
    (pointer.starts_with("/engine/") && pointer != "/engine/version")
        || pointer == "/platform/fabric/collectives"
}

/// A path as a shell argument: quoted when it holds anything but plain path characters.
fn shell_word(path: &str) -> String {
    if !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '=' | '+'))
    {
        path.to_string()
    } else {
        format!("'{}'", path.replace('\'', r"'\''"))
    }
}

/// The help of an absent checklist value on a result a harness wrote (format `format`) into
/// `path`: the rule's own help, then where the value goes instead of the file. The paths are
/// the input's text (masked and escaped by every writer), the rest benchlint's words.
pub fn harness_help(
    rule_help: Option<Text>,
    pointer: &str,
    format: &'static str,
    path: &str,
    (sidecar, exists): (&str, bool),
) -> Text {
    let names_capture = rule_help
        .as_ref()
        .is_some_and(|h| h.raw().contains("benchlint capture"));
    let mut help = rule_help.unwrap_or_default();
    if !help.raw().is_empty() {
        help.push_own("; ");
    }
    help.push_own("this ");
    help.push_own(format);
    let keys = keys_example(pointer);
    if exists {
        help.push_own(" file is a harness's output, so set it in its sidecar `");
        help.push_file(sidecar);
        help.push_own(format!("` as `{keys}`"));
    } else {
        help.push_own(" file is a harness's output, so rather than edit it put the value in a sidecar beside it, `");
        help.push_file(sidecar);
        help.push_own(format!("`, as `{keys}` (`benchlint sidecar "));
        help.push_file(shell_word(path));
        help.push_own("` writes one with every key the file lacks)");
    }
    if capture_supplies(pointer) && !names_capture {
        help.push_own(
            "; `benchlint capture --pid PID` reads the serve command and environment of the running engine",
        );
    }
    help
}

/// Where the absent values of a harness's file (format `format`) go, said once for all of
/// them: the sidecar beside it (by its name: the file's own path heads the diagnostic), the
/// command that writes one, and `capture` for the serve command and environment.
pub fn harness_note(format: &'static str, (sidecar, exists): (&str, bool)) -> Text {
    let name = sidecar.rsplit(['/', '\\']).next().unwrap_or(sidecar);
    let mut note = Text::own(format!("this {format} file is a harness's output: "));
    if exists {
        note.push_own("set them in its sidecar `");
        note.push_file(name);
        note.push_own("`");
    } else {
        note.push_own("rather than edit it, put them in a sidecar beside it, `");
        note.push_file(name);
        note.push_own("` (`benchlint sidecar` on this file writes one with every key it lacks)");
    }
    note.push_own(
        "; `benchlint capture --pid PID` reads the serve command and environment of the running engine",
    );
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_a_pointer() {
        assert_eq!(
            keys_example("/platform/devices_per_node"),
            r#"{"platform": {"devices_per_node": …}}"#
        );
        assert_eq!(keys_example("/a~1b"), r#"{"a/b": …}"#);
    }

    #[test]
    fn the_sidecar_named_is_the_attached_one_or_the_first_looked_for() {
        assert_eq!(
            sidecar_place("r/run.json", &[]),
            ("r/run.meta.json".to_string(), false)
        );
        let attached = vec![("r/run.json.meta.json".to_string(), Value::Null)];
        assert_eq!(
            sidecar_place("r/run.json", &attached),
            ("r/run.json.meta.json".to_string(), true)
        );
        assert_eq!(
            sidecar_place("report.yaml", &[]),
            ("report.yaml.meta.json".to_string(), false)
        );
    }

    #[test]
    fn help_names_the_sidecar_the_keys_and_the_commands() {
        let h = harness_help(
            Some(Text::own("add `engine.max_num_seqs`")),
            "/engine/max_num_seqs",
            "vllm",
            "results (1)/run.json",
            ("results (1)/run.meta.json", false),
        )
        .raw();
        assert!(
            h.starts_with("add `engine.max_num_seqs`; this vllm file"),
            "{h}"
        );
        assert!(h.contains(r#"`{"engine": {"max_num_seqs": …}}`"#), "{h}");
        assert!(
            h.contains("`benchlint sidecar 'results (1)/run.json'`"),
            "{h}"
        );
        assert!(h.contains("benchlint capture"), "{h}");
        let h = harness_help(
            None,
            "/platform/host",
            "sglang",
            "a.jsonl",
            ("a.meta.json", true),
        );
        assert!(h.contains("set it in its sidecar `a.meta.json`"), "{h}");
        assert!(!h.contains("capture"), "{h}");
    }
}
