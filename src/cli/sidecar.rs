//! `benchlint sidecar FILE.. [-o DIR | --write-beside] [--force]`: for each result file that
//! misses checklist items, the skeleton of the sidecar that supplies them (`src/skeleton`).
//!
//! Where it goes, decisions:
//! - Without `-o` or `--write-beside`, one skeleton is printed (the JSON alone on stdout, what
//!   was skipped on stderr); arguments that need several are refused (exit 2), since several
//!   documents on stdout would not be one sidecar anyone can save.
//! - `-o DIR` mirrors the corpus: `DIR/<folder of the file, relative to its argument>/<sidecar
//!   name>`, so two `summary.json` in two run folders never collide and the tree can be copied
//!   over the corpus once completed. The folder may not lie inside a folder being read
//!   (`--allow-inside-corpus` to allow it), as for `import` and `audit`.
//! - `--write-beside` writes the sidecar `check` reads, beside the file: into the corpus, which
//!   benchlint does only when asked by name.
//! - The sidecar's name is the one attached already when one is, else the first `check` looks
//!   for (`run.meta.json` beside `run.json`, `report.yaml.meta.json` beside `report.yaml`).
//! - Nothing is written through a symbolic link, nor over an existing file without `--force`;
//!   with `--force` a sidecar is replaced by a skeleton that started from it, so its values
//!   stay. A refused or failed write is named and the run exits 2 after the other files.
//! - A file with nothing missing gets no skeleton, and says so; a file no adapter reads is
//!   named with the reason (its E finding).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::{EXIT_CLEAN, EXIT_TROUBLE, Output};
use crate::corpus::{self, LoadedResult, checklist};
use crate::io::{Spool, Ticket};
use crate::skeleton;
use crate::text::PathText;

mod write;

use write::{print_one, write_all};

/// Arguments of `sidecar`.
#[derive(Debug, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "command-line switches, each its own flag"
)]
pub struct SidecarArgs {
    /// Result files, or folders of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write each skeleton into this folder (created if needed), at the file's place relative to
    /// its argument, instead of printing it.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Write each skeleton beside its result file, as the sidecar `check` reads: into the
    /// corpus, which benchlint does only when asked.
    #[arg(long, conflicts_with = "output")]
    pub write_beside: bool,
    /// Replace a file that exists (never a symbolic link); a sidecar replaced by its skeleton
    /// keeps its values.
    #[arg(long)]
    pub force: bool,
    /// Allow the output folder to sit inside a folder being read.
    #[arg(long)]
    pub allow_inside_corpus: bool,
    /// The config file to use instead of the `benchlint.toml` found upward from the first
    /// path (its selection decides which checklist items count).
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,
    /// Ignore every config file.
    #[arg(long)]
    pub isolated: bool,
}

/// One file's skeleton and what names its place. Held for every file until all are read: its
/// place is worked out when it is written ([`Planned::target`]), not held as a path beside the
/// file's own.
struct Planned {
    /// The skeleton as written (its text, put away in the spool until every file is read),
    /// how many keys it asks for and how many values it derived.
    skeleton: Written,
    /// The name of the sidecar already beside the file, which the skeleton is written over
    /// (`None`: the name a sidecar of the file takes).
    name: Option<Box<str>>,
}

impl Planned {
    /// Where the skeleton of `file` goes: into the output folder, at the file's place under its
    /// argument, or beside the file.
    fn target(&self, args: &SidecarArgs, file: &str) -> PathBuf {
        let name = self
            .name
            .as_deref()
            .map_or_else(|| checklist::sidecar_place(file, &[]).0, str::to_string);
        let name = Path::new(&name)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match &args.output {
            Some(dir) => {
                let rel = super::inputs::relative_to_argument(file, &args.paths);
                let folder = Path::new(&rel).parent().unwrap_or(Path::new(""));
                dir.join(folder).join(&name)
            }
            None => Path::new(file).with_file_name(&name),
        }
    }
}

/// A skeleton as it is written.
struct Written {
    text: Ticket,
    missing: usize,
    derived: usize,
}

impl Written {
    /// `s`'s text put away in `spool`.
    fn of(s: &skeleton::Skeleton, spool: &Mutex<Spool>) -> Self {
        let bytes = crate::text::json::pretty_line(&s.value);
        let text = match spool.lock() {
            Ok(mut spool) => spool.put(bytes),
            Err(_) => Ticket::Held(bytes),
        };
        Written {
            text,
            missing: s.missing,
            derived: s.derived,
        }
    }
}

/// What became of each input file, in path order.
#[derive(Default)]
struct Plan {
    /// Each file with results: its skeleton, `None` when it misses nothing, or why none could
    /// be made (its results put away could not be read back: each an error, and the run exits
    /// 2). Read in place, never copied into lists of each kind.
    files: BTreeMap<PathText, Result<Option<Planned>, String>>,
    skipped: Vec<(String, String)>,
}

impl Plan {
    /// Each file with a skeleton, and its skeleton.
    fn skeletons(&self) -> impl Iterator<Item = (&str, &Planned)> {
        self.files
            .iter()
            .filter_map(|(file, p)| Some((file.raw(), p.as_ref().ok()?.as_ref()?)))
    }

    /// Each file that misses nothing.
    fn complete(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .filter(|(_, p)| matches!(p, Ok(None)))
            .map(|(file, _)| file.raw())
    }

    /// Why each file whose skeleton could not be made has none.
    fn failed(&self) -> impl Iterator<Item = &str> {
        self.files
            .values()
            .filter_map(|p| p.as_ref().err().map(String::as_str))
    }
}

/// Runs `sidecar`.
pub fn run(args: &SidecarArgs) -> Result<Output, String> {
    if let Some(missing) = args.paths.iter().find(|p| !p.exists()) {
        return Err(format!("`{}` does not exist", missing.display()));
    }
    if let Some(dir) = &args.output {
        super::output::check_output_dir(dir, &args.paths, args.allow_inside_corpus)?;
    }
    let mut options =
        match super::audit::config_options(&args.paths, args.config.as_deref(), args.isolated) {
            Ok(o) => crate::corpus::Options {
                drop_claims: true,
                ..o
            },
            Err(rendered) => {
                let _ = std::io::stderr().write_all(rendered.as_bytes());
                return Ok(Output::stdout(Vec::new(), EXIT_TROUBLE));
            }
        };
    // The canonical JSON of each result is what the checklist rules read again: each file's
    // skeleton is made as the loader hands its results over, and the JSON dropped.
    options.lean = false;
    // No checklist item reads a sample array: they stay in the file's text.
    options.samples_apart = true;
    // Nothing is read of a result once its file's skeleton is made but its file.
    options.put_away = true;
    // Each file's skeleton (`None`: nothing missing), or why none could be made.
    let files: Mutex<BTreeMap<PathText, Result<Option<Planned>, String>>> =
        Mutex::new(BTreeMap::new());
    let spool = Mutex::new(Spool::default());
    // A file's results as its skeleton reads them (their JSON in the spool), until its last
    // are handed over.
    let partial: Mutex<BTreeMap<String, Vec<Kept>>> = Mutex::new(BTreeMap::new());
    let hand = |handed: corpus::Handed<'_>| {
        // Kept past this handing (a JSON Lines file's lines but its last): put away in the
        // spool.
        let packed = !handed.last;
        let mut these = kept(handed.results, &options, packed.then_some(&spool));
        if !handed.last {
            if let Ok(mut partial) = partial.lock() {
                partial
                    .entry(handed.path.to_string())
                    .or_default()
                    .append(&mut these);
            }
            return;
        }
        let mut all = partial
            .lock()
            .ok()
            .and_then(|mut p| p.remove(handed.path))
            .unwrap_or_default();
        all.append(&mut these);
        let planned = plan_files(args, all, &spool);
        if let Ok(mut files) = files.lock() {
            files.extend(planned);
        }
    };
    // A JSON Lines file's results a chunk of lines at a time, each kept without its levels
    // until the file's last: a skeleton is made of all of a file's results, and reads none of
    // their levels.
    // Of each result, once its file's skeleton is made, only its file is kept: to say which
    // files held none.
    let mut with_results: BTreeSet<crate::text::PathText> = BTreeSet::new();
    // The loader runs no rule but those that say an input could not be read: the others'
    // findings would be made, thrown away, and fill the caps the skipped inputs are listed
    // within. The checklist rules run on each result with the whole selection ([`kept`]).
    let load_options = crate::corpus::Options {
        selection: options.selection.clone().only(&corpus::UNREADABLE),
        ..options.clone()
    };
    let loaded = corpus::load_streaming_into(
        &args.paths,
        &load_options,
        corpus::Handing {
            to: &hand,
            in_chunks: true,
        },
        &mut |r| {
            if with_results.last() != Some(&r.origin.path) {
                with_results.insert(r.origin.path);
            }
        },
    );
    let plan = plan(
        args,
        (&loaded, &with_results),
        files.into_inner().unwrap_or_default(),
    );
    let spool = spool.into_inner().unwrap_or_default();
    let internal = corpus::report_internal_errors(&loaded.internal_errors);
    let code = if internal { EXIT_TROUBLE } else { EXIT_CLEAN };
    if args.output.is_none() && !args.write_beside {
        return print_one(&plan, &spool, code);
    }
    Ok(write_all(args, &plan, &spool, code))
}

/// A result as its file's skeleton reads it: its place, its canonical JSON but its levels
/// (which no checklist item nor derivation reads), and its checklist gaps, found on the
/// whole result. Kept until a later handing (the lines of a JSON Lines file before its last),
/// the JSON is written as compact text into the spool, out of memory, and read back one
/// result at a time when the skeleton is made ([`Kept::json`]): held in memory, the lines of a
/// long file were most of `sidecar`'s peak.
struct Kept {
    path: crate::text::PathText,
    doc_start: usize,
    json: KeptJson,
    /// Shared by the results of a chunk that lack the same items (most of a file's).
    gaps: Arc<[checklist::Gap]>,
}

/// Where a kept result's JSON is.
enum KeptJson {
    /// Handed over with the file's last results: held.
    Held(serde_json::Value),
    /// Put away in the spool.
    Spooled(Ticket),
}

impl Kept {
    /// The result's JSON, read back from the spool where it was put away; an error when the
    /// spool cannot give it back.
    fn json(self, spool: &Mutex<Spool>) -> std::io::Result<serde_json::Value> {
        match self.json {
            KeptJson::Held(value) => Ok(value),
            KeptJson::Spooled(ticket) => {
                let bytes = match spool.lock() {
                    Ok(spool) => spool.take(&ticket)?,
                    Err(_) => return Err(std::io::Error::other("the spool was poisoned")),
                };
                serde_json::from_slice(&bytes)
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
            }
        }
    }
}

/// `results` (one handing) kept for their file's skeleton, their JSON put away in `spool` as
/// text when there is one.
/// The distinct lists of gaps a handing shares ([`kept`]).
const MET_GAP_LISTS: usize = 32;

fn kept(
    results: &[LoadedResult],
    options: &corpus::Options,
    spool: Option<&Mutex<Spool>>,
) -> Vec<Kept> {
    // The lists of gaps met in this handing, each held once and shared by the results that
    // lack the same items: the rows of an aggregate take turns between a few lists, and one
    // list a row was most of what `sidecar` held of an aggregate of twenty thousand rows.
    let mut met: Vec<Arc<[checklist::Gap]>> = Vec::new();
    results
        .iter()
        .map(|r| {
            let found = checklist::gaps(r, options);
            let gaps = if let Some(same) = met.iter().find(|m| ***m == *found) {
                Arc::clone(same)
            } else {
                let made: Arc<[checklist::Gap]> = Arc::from(found);
                // A few dozen lists compared at most: past them a list is held on its own.
                if met.len() < MET_GAP_LISTS {
                    met.push(Arc::clone(&made));
                }
                made
            };
            let json = if let Some(spool) = spool {
                let bytes =
                    serde_json::to_vec(&WithoutLevels(&r.value)).expect("a JSON value is written");
                KeptJson::Spooled(match spool.lock() {
                    Ok(mut spool) => spool.put(bytes),
                    Err(_) => Ticket::Held(bytes),
                })
            } else {
                KeptJson::Held(match &*r.value {
                    serde_json::Value::Object(members) => serde_json::Value::Object(
                        members
                            .iter()
                            .filter(|(k, _)| k.as_str() != "levels")
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect(),
                    ),
                    other => other.clone(),
                })
            };
            Kept {
                path: r.origin.path.clone(),
                doc_start: r.origin.doc_start,
                json,
                gaps,
            }
        })
        .collect()
}

/// A canonical JSON written without its `levels`.
struct WithoutLevels<'v>(&'v serde_json::Value);

impl serde::Serialize for WithoutLevels<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let serde_json::Value::Object(members) = self.0 else {
            return self.0.serialize(s);
        };
        let mut map = s.serialize_map(None)?;
        for (k, v) in members.iter().filter(|(k, _)| k.as_str() != "levels") {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Decides the skeleton and its place of each file whose results are `results` (all of one
/// file's, as handed over): `None` for a file that misses nothing, an error for one whose
/// results put away could not be read back.
fn plan_files(
    args: &SidecarArgs,
    results: Vec<Kept>,
    spool: &Mutex<Spool>,
) -> Vec<(PathText, Result<Option<Planned>, String>)> {
    let mut files = Vec::new();
    // Keyed by the path each result shares with its file's entry: no copy of it a file.
    let mut by_file: BTreeMap<PathText, Vec<Kept>> = BTreeMap::new();
    for k in results {
        by_file.entry(k.path.clone()).or_default().push(k);
    }
    for (shown, mut kept) in by_file {
        let file = shown.raw();
        kept.sort_by_key(|k| k.doc_start);
        let mut tally = skeleton::Tally::new(kept.iter().map(|k| &*k.gaps));
        let mut unreadable = None;
        for k in kept {
            let gaps = Arc::clone(&k.gaps);
            match k.json(spool) {
                Ok(value) => tally.add(&value, &gaps),
                Err(e) => {
                    unreadable = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = unreadable {
            files.push((shown.clone(), Err(write::unreadable_results(file, &e))));
            continue;
        }
        let root = super::inputs::root_of(file, &args.paths);
        let beside = corpus::beside_sidecar(Path::new(file), &root);
        let base = beside.as_ref().map(|(_, _, v)| v);
        let planned = tally.finish(file, base).map(|skeleton| Planned {
            skeleton: Written::of(&skeleton, spool),
            name: beside.map(|(_, shown, _)| shown.into_boxed_str()),
        });
        files.push((shown.clone(), Ok(planned)));
    }
    files
}

/// What became of each file: its skeleton (`files`, from [`plan_files`]), or why it has none.
fn plan(
    args: &SidecarArgs,
    (loaded, with_results): (&corpus::Corpus, &BTreeSet<crate::text::PathText>),
    files: BTreeMap<PathText, Result<Option<Planned>, String>>,
) -> Plan {
    let mut out = Plan {
        files,
        skipped: Vec::new(),
    };
    // Files that hold no result: named with the reason when it is a finding, or when the user
    // named the file itself.
    // A set: one lookup per finding, not a walk of every result.
    let with_results: BTreeSet<&str> = with_results
        .iter()
        .map(crate::text::PathText::raw)
        .collect();
    let mut reasons: BTreeMap<String, String> = BTreeMap::new();
    for f in &loaded.findings {
        let path = f.primary.path.raw();
        if corpus::says_unreadable(f.rule.code) && !with_results.contains(path) {
            reasons
                .entry(path.to_string())
                .or_insert_with(|| format!("{} {}", f.rule.code, f.message.raw()));
        }
    }
    for arg in &args.paths {
        if arg.is_file() {
            let shown = arg.to_string_lossy();
            let shown = shown.strip_prefix("./").unwrap_or(&shown).to_string();
            if !with_results.contains(shown.as_str()) {
                reasons.entry(shown).or_insert_with(|| {
                    "it holds no result (a sidecar, a claims file or a file a harness writes beside its results)".to_string()
                });
            }
        }
    }
    out.skipped = reasons.into_iter().collect();
    out
}
