//! Files that are not JSON: what each one is, and the documents read from those an adapter
//! can read (YAML reports, MLPerf loadgen logs).
//!
//! A file no reader takes gets exactly one finding for the whole file, saying what it looks
//! like (E004 for a recognisable document no adapter reads, E002 for text that is not JSON),
//! never one per line or per document. When a folder is walked, `.yaml` / `.yml` files and
//! `mlperf_log_*.txt` are read too (discovery picks them up); a walked YAML file that no
//! adapter claims is skipped silently, as any other file of the folder that is not a result
//! (DESIGN.md, "Real formats read in place"), unless reading it hit a bound or it looks like a
//! report (a top-level `benchmarks:`) that could not be read.

use std::fmt::Write as _;
use std::path::Path;

use super::discover::Entry;
use super::translate::finding_at;
use crate::adapters;
use crate::diagnostic::{Finding, Location};
use crate::json::Document;
use crate::rules;
use crate::yaml;

/// The formats of documents read from text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// YAML.
    Yaml,
    /// A harness's own text format (MLPerf loadgen logs).
    HarnessText,
}

/// How a file's text is read.
pub(super) enum Reading {
    /// JSON or JSON Lines: the JSON reader takes it.
    Json,
    /// Documents for the adapters.
    Documents(Form, Vec<Document>),
    /// A walked file that is not a result (a YAML file no adapter claims): skipped quietly.
    Quiet,
    /// A file the named harness writes beside its results (MLPerf's `mlperf.conf`, ...):
    /// named as a companion of the results read beside it, or reported when none is.
    Companion(&'static str),
    /// One finding for the whole file.
    Report(Box<Finding>),
}

/// The help of a finding about a file benchlint does not read.
const READS: &str = "benchlint reads JSON, JSON Lines, YAML reports and MLPerf loadgen logs: export the result as JSON from the harness, or move the file out of the corpus";

/// Whether `file_name` ends in one of `extensions` (any case).
fn has_extension(file_name: &str, extensions: &[&str]) -> bool {
    Path::new(file_name)
        .extension()
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Whether `text` is read as JSON: a `.jsonl` / `.ndjson` name, a text that opens an object
/// or an array, or one whose first line is a JSON value on its own.
pub(crate) fn is_json(file_name: &str, text: &str) -> bool {
    has_extension(file_name, &["jsonl", "ndjson"]) || crate::positions::is_json_text(text)
}

/// Decides how the text of `entry` is read.
pub(super) fn read(
    entry: &Entry,
    file_name: &str,
    text: &str,
    limits: &yaml::Limits,
    in_run: &dyn Fn(&Path) -> bool,
) -> Reading {
    let lower = file_name.to_ascii_lowercase();
    // Loadgen creates its trace and accuracy logs and leaves them empty when they are off.
    if adapters::mlperf::is_empty_side_file(&lower, text) {
        return Reading::Quiet;
    }
    if is_json(file_name, text) {
        return Reading::Json;
    }
    let path = entry.display.raw();
    if let Some(reading) = adapters::mlperf::read_log(text, entry.path(), in_run) {
        return match reading {
            adapters::mlperf::LogReading::Document(value) => {
                Reading::Documents(Form::HarnessText, vec![Document::of_value(value, 0, 0)])
            }
            adapters::mlperf::LogReading::Companion => Reading::Companion("mlperf"),
        };
    }
    if adapters::mlperf::is_text_companion(&lower, text) {
        return Reading::Companion("mlperf");
    }
    let yaml_name = has_extension(file_name, &["yaml", "yml"]);
    let walked_yaml = yaml_name && !entry.named;
    match yaml::parse(text, limits) {
        Ok(docs)
            if docs
                .iter()
                .any(|d| d.value.is_object() || d.value.is_array()) =>
        {
            return Reading::Documents(
                Form::Yaml,
                docs.into_iter()
                    .map(|d| Document::of_value(d.value, d.start, d.index))
                    .collect(),
            );
        }
        Ok(_) if walked_yaml => return Reading::Quiet,
        Err(e) if e.kind == yaml::ErrorKind::Bound => {
            return Reading::Report(Box::new(yaml_error(path, &e, "YAML refused")));
        }
        Err(e) if yaml_name => {
            if walked_yaml && !looks_like_a_report(text) {
                return Reading::Quiet;
            }
            return Reading::Report(Box::new(yaml_error(
                path,
                &e,
                "YAML that could not be read",
            )));
        }
        Ok(_) | Err(_) => {}
    }
    if let Some(what) = adapters::non_serving_text(text) {
        return Reading::Report(Box::new(not_a_serving_result(path, what)));
    }
    Reading::Report(Box::new(not_json(path, text, 0, None)))
}

/// The one finding (E004) of a text that is the report of a benchmark other than serving.
pub(super) fn not_a_serving_result(path: &str, what: &str) -> Finding {
    let mut f = finding_at(
        &rules::e004_unknown_format::RULE,
        Location::new(path, ""),
        format!("`{path}` is {what}; no adapter reads it, so it was skipped"),
        Some("benchlint checks serving benchmarks (a server under load); measure the engine with a serving harness (vLLM, SGLang, GuideLLM, AIPerf, ...) or move the file out of the corpus".into()),
    );
    f.label = Some("not a serving benchmark".into());
    f
}

/// A top-level `benchmarks:` key: a GuideLLM report, whatever its name.
fn looks_like_a_report(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("benchmarks:"))
}

fn yaml_error(path: &str, e: &yaml::Error, what: &str) -> Finding {
    let mut loc = Location::new(path, "");
    loc.offset = Some(e.offset);
    let mut f = finding_at(
        &rules::e002_invalid_json::RULE,
        loc,
        format!("`{path}`: {what}: {}", e.message),
        Some(match e.kind {
            yaml::ErrorKind::Bound => "a report a harness wrote never comes near this bound: find out where the file came from before reading it any other way".into(),
            yaml::ErrorKind::Syntax => "fix the YAML, or save the report as JSON".into(),
        }),
    );
    f.label = Some("reading stopped here".into());
    f
}

/// The one finding of a text that is not JSON, at byte `offset`; `stopped` is the parser's
/// word when a JSON parse was attempted.
pub(super) fn not_json(path: &str, text: &str, offset: usize, stopped: Option<&str>) -> Finding {
    let mut loc = Location::new(path, "");
    loc.offset = Some(offset);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let mut message = format!(
        "`{path}` is not JSON: it looks like {}, {lines} line{}; no adapter reads it, so it was skipped",
        describe_text(text),
        if lines == 1 { "" } else { "s" }
    );
    if let Some(why) = stopped {
        let _ = write!(message, " (the JSON parser stopped here: {why})");
    }
    let mut f = finding_at(
        &rules::e002_invalid_json::RULE,
        loc,
        message,
        Some(READS.into()),
    );
    f.label = Some("not JSON".into());
    f
}

/// What a text that is not JSON looks like, in a few words.
pub(crate) fn describe_text(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let Some(first) = lines.first() else {
        return "an empty text".into();
    };
    if first.trim_start().starts_with('<') {
        return "HTML or XML".into();
    }
    for (sep, name) in [(',', "CSV"), ('\t', "tab-separated values")] {
        let cells = first.matches(sep).count();
        if cells > 0
            && lines.len() > 1
            && lines
                .iter()
                .take(5)
                .all(|l| l.matches(sep).count() == cells)
        {
            let header: Vec<&str> = first.split(sep).map(str::trim).take(4).collect();
            return format!(
                "{name} with {} columns ({}{})",
                cells + 1,
                header.join(", "),
                if cells + 1 > 4 { ", …" } else { "" }
            );
        }
    }
    let logged = lines
        .iter()
        .filter(|l| {
            ["INFO", "WARNING", "WARN", "ERROR", "DEBUG"]
                .iter()
                .any(|w| l.contains(w))
                || l.as_bytes().iter().take(4).all(u8::is_ascii_digit)
        })
        .count();
    if logged * 2 >= lines.len() && lines.len() > 1 {
        return "a log".into();
    }
    if first.starts_with("# ") {
        return "Markdown".into();
    }
    "text".into()
}

/// The one E004 of a file whose documents no adapter reads: `unknown` holds each such
/// document's index, start and description.
pub(super) fn unknown_documents(
    path: &str,
    form: Option<Form>,
    unknown: &[(usize, usize, String)],
    doc_count: usize,
) -> Option<Finding> {
    let &(index, start, ref what) = unknown.first()?;
    let kind = match form {
        Some(Form::Yaml) => "a YAML document: ",
        _ => "",
    };
    let message = if doc_count == 1 {
        format!("`{path}` is {kind}{what}; no adapter reads it, so it was skipped")
    } else if unknown.len() == 1 {
        format!(
            "document {} of `{path}` is {kind}{what}; no adapter reads it, so it was skipped",
            index + 1
        )
    } else {
        let same = unknown.iter().all(|u| u.2 == *what);
        let which = if unknown.len() == doc_count {
            format!("none of the {doc_count} documents of `{path}` is in a format an adapter reads")
        } else {
            format!(
                "{} of the {doc_count} documents of `{path}` are in no format an adapter reads",
                unknown.len()
            )
        };
        let first = if same {
            "each is ".to_string()
        } else {
            format!("the first, document {}, is ", index + 1)
        };
        format!("{which} ({first}{kind}{what}); they were skipped")
    };
    let mut f = finding_at(
        &rules::e004_unknown_format::RULE,
        Location {
            path: path.into(),
            doc_start: start,
            pointer: "".into(),
            offset: None,
        },
        message,
        Some(crate::text::Text::own(format!(
            "write it as `{}`, convert it with `benchlint import`, or move it out of the corpus",
            crate::model::RESULT_SCHEMA
        ))),
    );
    f.label = Some("unknown format".into());
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_told_from_text_by_its_first_line() {
        assert!(is_json("a.json", "  {\"a\": 1}"));
        assert!(is_json("a.txt", "[1, 2]"));
        assert!(is_json("a.txt", "1\n2\n3\n"));
        assert!(is_json("a.jsonl", "not json"));
        assert!(is_json("a.json", ""));
        assert!(!is_json("a.yaml", "benchmarks:\n- a: 1\n"));
        assert!(!is_json("a.txt", "# notes\nmore\n"));
    }

    #[test]
    fn text_is_described_by_its_shape() {
        assert_eq!(
            describe_text("a,b,c\n1,2,3\n4,5,6\n"),
            "CSV with 3 columns (a, b, c)"
        );
        assert_eq!(
            describe_text("a\tb\n1\t2\n"),
            "tab-separated values with 2 columns (a, b)"
        );
        assert_eq!(
            describe_text("INFO 05-10 started\nINFO 05-10 ready\nWARNING slow\n"),
            "a log"
        );
        assert_eq!(describe_text("<html><body></body></html>"), "HTML or XML");
        assert_eq!(describe_text("# Results\nsome words\n"), "Markdown");
        assert_eq!(describe_text("just some words\n"), "text");
    }
}
