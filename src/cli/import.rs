//! `benchlint import`: canonical files from whatever was read (harness formats, sidecars,
//! derivations), each with a provenance file saying where every value came from.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::{EXIT_CLEAN, Output, output};
use crate::corpus::{self, LoadedResult, Options, translate};
use crate::json::escape_pointer_token;
use crate::model::Provenance;

/// The `schema` of a provenance file written beside each imported result.
pub const PROVENANCE_SCHEMA: &str = "benchlint/provenance/v1";

/// Arguments of `import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Files and folders to read.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Folder to write the canonical files into (created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: PathBuf,
    /// Allow the output folder to sit inside a folder being read.
    #[arg(long)]
    pub allow_inside_corpus: bool,
}

/// A file name from a result id: letters, digits, `.`, `_` and `-` kept, the rest `_`.
fn file_stem(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let s = s.trim_matches('.').to_string();
    if s.is_empty() {
        "result".into()
    } else {
        s.chars().take(150).collect()
    }
}

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
                let entry = match r.provenance.lookup(&pointer) {
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

/// Runs `import`.
pub fn run(args: &ImportArgs) -> Result<Output, String> {
    output::check_output_dir(&args.output, &args.paths, args.allow_inside_corpus)?;
    let loaded = corpus::load(&args.paths, &Options::default());
    output::create_dir(&args.output)?;
    let mut used = BTreeSet::new();
    let mut redacted = 0;
    for r in &loaded.results {
        // A file name is an output too: an id holding a credential does not name a file.
        let stem = file_stem(&crate::text::masked(&r.doc.id));
        let mut name = stem.clone();
        let mut n = 2;
        while !used.insert(name.clone()) {
            name = format!("{stem}-{n}");
            n += 1;
        }
        let mut provenance = json!({
            "schema": PROVENANCE_SCHEMA,
            "result": r.doc.id,
            "source": { "path": r.origin.path, "format": r.origin.format },
            "values": provenance_of(r),
        });
        // Pointers are made of the file's keys, and paths and ids are the file's text too.
        crate::secrets::redact_value(&mut provenance);
        let write = |file: String, v: &Value| {
            output::write_file(&args.output.join(file), &crate::text::json::pretty_line(v))
        };
        // A published canonical file carries no credential: secrets become "<redacted>".
        let mut value = r.value.clone();
        redacted += crate::secrets::redact_value(&mut value);
        write(format!("{name}.json"), &value)?;
        write(format!("{name}.provenance.json"), &provenance)?;
    }
    let problems = loaded
        .findings
        .iter()
        .filter(|f| f.rule.code.starts_with('E'))
        .count();
    let mut text = format!(
        "imported {} results from {} files into {}",
        loaded.results.len(),
        loaded.files,
        crate::text::line(&args.output.to_string_lossy())
    );
    if redacted > 0 {
        let _ = write!(
            text,
            "; {redacted} secret values were replaced by \"<redacted>\""
        );
    }
    if problems > 0 {
        let _ = write!(
            text,
            "; {problems} input problems were skipped (`benchlint check` shows them)"
        );
    }
    text.push('\n');
    let code = if corpus::report_internal_errors(&loaded.internal_errors) {
        super::EXIT_TROUBLE
    } else {
        EXIT_CLEAN
    };
    Ok(Output::stdout(text.into_bytes(), code))
}
