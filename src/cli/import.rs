//! `benchlint import`: canonical files from whatever was read (harness formats, sidecars,
//! derivations), each with a provenance file saying where every value came from. The outputs
//! mirror the inputs: each is named by the path of its file relative to the argument that
//! reached it (`vllm/run.json` and `vllm/run.provenance.json`, `sglang/run.jsonl.json`), and
//! each input that gave no result is named with the reason.
//!
//! The files are read as `check` reads them, with the `benchlint.toml` found upward from the
//! first path (its limits and sidecar globs; a bad one is exit 2 with its diagnostic), and each
//! result written as soon as its file is read.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use super::{EXIT_CLEAN, Output, output};

mod names;
mod stage;

#[cfg(test)]
mod names_tests;

use crate::corpus;
use stage::{staging_dir, write_staged};

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

/// A file name from a name an input gave (a file's name, an id): letters, digits, `.`, `_` and
/// `-` kept, the rest `_`; a name longer than [`STEM_MAX`] keeps its first [`STEM_HEAD`]
/// characters and its end, joined by `~`.
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
    let s = s.trim_matches('.');
    if s.is_empty() {
        "result".into()
    } else if s.len() <= STEM_MAX {
        s.to_string()
    } else {
        // The head and the tail, `~` between: what tells sibling runs apart is as often at the
        // end of a name (`..._run=3`) as at its start, and a cut tail made every run of a sweep
        // the same name.
        let tail = STEM_MAX - STEM_HEAD - 1;
        format!("{}~{}", &s[..STEM_HEAD], &s[s.len() - tail..])
    }
}

/// The longest name part written (far under the 255 bytes file systems allow, leaving room for
/// the suffixes and `.provenance.json`).
const STEM_MAX: usize = 150;
/// What a longer part keeps of its head; the rest of [`STEM_MAX`] is its tail.
const STEM_HEAD: usize = 100;

/// Runs `import`.
///
/// Each result is written as the loader hands it over ([`corpus::load_streaming`]), into a
/// staging folder of the output, and dropped: memory holds the results of the files being read,
/// never the corpus's canonical JSON. Once every result is read, each pair of files is moved to its
/// name.
pub fn run(args: &ImportArgs) -> Result<Output, String> {
    output::check_output_dir(&args.output, &args.paths, args.allow_inside_corpus)?;
    // The config found upward from the first path, as `check` reads it (its limits and
    // sidecar globs); not lean: each result's canonical JSON is what is written.
    let mut options = match super::audit::config_options(&args.paths, None, false) {
        Ok(o) => crate::corpus::Options {
            drop_claims: true,
            ..o
        },
        Err(rendered) => {
            let _ = std::io::Write::write_all(&mut std::io::stderr(), rendered.as_bytes());
            return Ok(Output::stdout(Vec::new(), super::EXIT_TROUBLE));
        }
    };
    options.lean = false;
    options.samples_apart = true;
    // No finding is reported but why an input gave no result: the other rules' findings
    // would be made and dropped.
    options.selection = options.selection.only(&corpus::UNREADABLE);
    output::create_dir(&args.output)?;
    let staging = staging_dir(&args.output);
    output::create_dir(&staging)?;
    let written = write_staged(args, &options, &staging);
    let _ = std::fs::remove_dir_all(&staging);
    let (loaded, places, redacted, mut refused) = written?;
    let mut text = format!(
        "imported {} results from {} files into {}",
        places.len() - refused.len(),
        loaded.files,
        crate::text::line(&args.output.to_string_lossy())
    );
    if redacted > 0 {
        let _ = write!(
            text,
            "; {redacted} secret values were replaced by \"<redacted>\""
        );
    }
    text.push('\n');
    // Each input that gave no result because it could not be read, with the reason.
    let with_results: BTreeSet<&str> = places.iter().map(|(path, _)| path.raw()).collect();
    let mut skipped: std::collections::BTreeMap<&str, String> = std::collections::BTreeMap::new();
    for f in &loaded.findings {
        let path = f.primary.path.raw();
        if corpus::says_unreadable(f.rule.code) && !with_results.contains(path) {
            skipped
                .entry(path)
                .or_insert_with(|| format!("{} {}", f.rule.code, f.message.raw()));
        }
    }
    for (path, why) in &skipped {
        let _ = writeln!(
            text,
            "skipped {}: {}",
            crate::text::line(path),
            crate::text::line(why)
        );
    }
    // Two inputs that map to one output name: the later is refused (not written over the
    // other's output), and the run fails so that no one takes the output for complete.
    refused.sort_unstable();
    refused.dedup();
    for (path, other) in &refused {
        let _ = writeln!(
            text,
            "refused {}: its output files would be named as those of {} (rename one of the two inputs)",
            crate::text::line(path),
            crate::text::line(other)
        );
    }
    let code = if corpus::report_internal_errors(&loaded.internal_errors) {
        super::EXIT_TROUBLE
    } else if !refused.is_empty() {
        super::EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    Ok(Output::stdout(text.into_bytes(), code))
}
