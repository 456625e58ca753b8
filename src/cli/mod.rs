//! The command line: arguments (clap), dispatch to each command, exit codes (as ruff: 0 no
//! finding at error level, 1 findings at error level, 2 the tool could not do its job).

mod audit;
mod capacity;
mod capture;
mod cards;
mod check;
mod ci;
mod compare;
mod completions;
mod import;
mod inputs;
mod lint_args;
mod notices;
use crate::output;
mod progress;
mod regress;
mod rule;

pub use output::write_file;
mod rule_pages;
mod setup;
mod sidecar;
mod stdin;
mod summary;

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Exit code: no finding at error level.
pub const EXIT_CLEAN: u8 = 0;
/// Exit code: findings at error level.
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code: the tool could not do its job.
pub const EXIT_TROUBLE: u8 = 2;

/// The error of a command that has already written its diagnostic to stderr.
const ALREADY_SHOWN: &str = "";

/// Lint and audit LLM inference benchmark result files.
#[derive(Debug, Parser)]
#[command(name = "benchlint", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint result files and folders: every rule that applies to a file or a group of files.
    Check(CheckArgs),
    /// Explain one rule.
    Rule {
        /// Rule code (`M005`) or name (`missing-speculative-config`).
        code: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DocFormat::Text)]
        format: DocFormat,
    },
    /// List every rule.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = DocFormat::Text)]
        format: DocFormat,
        /// Write one Markdown page per rule (`<CODE>-<name>.md`, as `benchlint rule` prints it)
        /// and an index (`README.md`) into this folder, removing pages of rules that are gone.
        #[arg(long, value_name = "DIR")]
        markdown: Option<PathBuf>,
    },
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page of benchlint or of one command (roff), or write every page to a
    /// folder (`benchlint.1`, `benchlint-check.1`, ...).
    Manpage {
        /// The command whose page to print (`check`); default: the page of benchlint itself.
        command: Option<String>,
        /// Write every page into this folder instead (created if missing).
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
    /// Write canonical files (and the provenance of every value) from any readable format.
    Import(import::ImportArgs),
    /// Write a sidecar with the serve command read from a running process or a container.
    Capture(capture::CaptureArgs),
    /// Write the skeleton of a sidecar for each result file that misses checklist items.
    ///
    /// The skeleton (`run.meta.json` for `run.json`) holds exactly the keys the checklist rules
    /// (M001-M014) report absent on that file, each null, and values benchlint can work out
    /// already, filled in and listed under `"$benchlint".derived`. Replace each null with the
    /// value in force, put the file beside the result, and run `benchlint check` again: the
    /// file itself is never edited. Prints one skeleton, or writes them with `-o DIR` (never into
    /// the corpus) or `--write-beside` (into it, when asked). Exit status: 0 when done, 2 when
    /// a skeleton could not be written (an existing file without `--force`, a symbolic link).
    Sidecar(sidecar::SidecarArgs),
    /// Per configuration and level: median, min, max, n, launches, CV and 95% CI of throughput.
    Summary(summary::SummaryArgs),
    /// Per configuration, the highest concurrency whose per-user rate clears a floor at every
    /// level up to it, with the aggregate there (the service-level basis of seed 004).
    Capacity(capacity::CapacityArgs),
    /// The A/B verdict for two configurations (result ids or fingerprints): difference, tie
    /// within noise or not decidable, with the noise floor it rests on and every mismatch.
    Compare(compare::CompareArgs),
    /// The corpus report, and with `--claims` the retractions report on top of it.
    ///
    /// The corpus report: what each file records and lacks of the publication checklist, the
    /// findings by file and by rule, every configuration's ladder with its intervals and what
    /// is missing before a figure could be published. With `--claims`, a verdict per published
    /// claim comes first. Prints Markdown (or JSON with `--format json`), or with `-o DIR`
    /// writes `report.md`, `report.html` (self-contained, with charts), `report.json` and the
    /// rule pages they link (`rules/`) into DIR. Exit status: with `--claims`, 0 when every
    /// claim is upheld or pre-rule and 1 when any is restated, unresolved or retracted;
    /// without, 0 when no finding is at error level and 1 otherwise; 2 on bad arguments or an
    /// unreadable claims file.
    Audit(audit::AuditArgs),
    /// Corpus against corpus, for CI: per matched configuration, level and metric, did HEAD get
    /// worse than BASE beyond noise, with the engine launch as the unit of replication.
    ///
    /// Verdicts, first match wins: NOT COMPARABLE / MISSING, NOT DECIDABLE (fewer than 2
    /// launches on a side), REGRESSION (Benjamini–Hochberg q < α and worse than T; confirmed
    /// when the whole interval is), IMPROVED, EQUIVALENT (TOST within ±T), SLOWER / FASTER
    /// WITHIN T, INCONCLUSIVE (with the launches per side that would settle it). Exit status:
    /// 0 when no cell meets --fail-on, 1 when one does, 2 on bad arguments, unreadable input or
    /// no comparable cell at all.
    Regress(regress::RegressArgs),
    /// Print the model, engine and platform cards of each result as JSON.
    ///
    /// One result gives its cards as one object; several (a file of several runs, a folder)
    /// give an array, each with the `path` of the file its result was read from. Exit status 2 when the
    /// paths hold no result benchlint can read.
    Cards {
        /// Result files (canonical or a harness format) and folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print a bundled JSON Schema: result, claims, report, audit or regress.
    Schema {
        /// Which schema.
        #[arg(value_parser = ["result", "claims", "report", "audit", "regress"])]
        name: String,
    },
}

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Files and folders to check (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human, env = "BENCHLINT_OUTPUT_FORMAT")]
    pub format: Format,
    /// Largest file read, in bytes (larger files are reported as E001, never read).
    #[arg(long, value_name = "BYTES")]
    pub max_file_size: Option<u64>,
    /// Selection, config, baseline, fail threshold, colour, output file.
    #[command(flatten)]
    pub ci: ci::CiArgs,
    /// Quiet, silent, exclusions, standard input.
    #[command(flatten)]
    pub lint: lint_args::LintArgs,
}

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Diagnostics with a snippet of the file and a label on the value.
    Human,
    /// One line per finding.
    Concise,
    /// The findings under their file, one line each, then the files worst first.
    Grouped,
    /// One JSON document (schemas/report.schema.json).
    Json,
    /// One JSON diagnostic per line (the `diagnostics` items of `json`).
    JsonLines,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions annotations (`::error file=...::message`).
    Github,
    /// JUnit XML.
    Junit,
    /// GitLab Code Quality JSON (`artifacts:reports:codequality`).
    Gitlab,
}

/// Output formats of `rule` and `rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocFormat {
    /// Markdown text.
    Text,
    /// JSON.
    Json,
}

/// Writes a panic as the standard hook does (thread, place, message), the message masked and
/// escaped: a bug's message may quote a file.
fn panic_hook(info: &std::panic::PanicHookInfo<'_>) {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(ToString::to_string)
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "Box<dyn Any>".to_string());
    let thread = std::thread::current();
    let place = info.location().map(ToString::to_string).unwrap_or_default();
    let _ = writeln!(
        std::io::stderr(),
        "\nthread '{}' panicked at {place}:\n{}",
        thread.name().unwrap_or("<unnamed>"),
        crate::text::line(&message)
    );
}

/// Parses the process arguments and runs; returns the exit code.
pub fn main() -> u8 {
    std::panic::set_hook(Box::new(panic_hook));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_TROUBLE
            } else {
                EXIT_CLEAN
            };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Rule { code, format } => rule::explain(&code, format),
        Command::Rules {
            markdown: Some(dir),
            ..
        } => rule_pages::write(&dir),
        Command::Rules {
            format,
            markdown: None,
        } => Ok(rule::list(format)),
        Command::Completions { shell } => Ok(completions::completions(shell)),
        Command::Manpage { command, dir } => {
            completions::manpage(command.as_deref(), dir.as_deref())
        }
        Command::Summary(args) => summary::run(&args),
        Command::Capacity(args) => capacity::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Cards { paths } => cards::run(&paths),
        Command::Capture(args) => capture::run(&args),
        Command::Sidecar(args) => sidecar::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Regress(args) => regress::run(&args),
        Command::Schema { name } => crate::schema::by_name(&name)
            .map(|s| Output::stdout(s.as_bytes().to_vec(), EXIT_CLEAN))
            .ok_or_else(|| format!("unknown schema `{name}`")),
    };
    match result {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`benchlint check | head`) is not an error.
            let _ = stdout.write_all(&out.bytes);
            let _ = stdout.flush();
            out.code
        }
        Err(message) if message == ALREADY_SHOWN => EXIT_TROUBLE,
        Err(message) => {
            // An error names paths and quotes files: masked and escaped as any input is.
            let _ = writeln!(
                std::io::stderr(),
                "benchlint: error: {}",
                crate::text::line(&message)
            );
            EXIT_TROUBLE
        }
    }
}

/// What a command prints and how it exits.
pub struct Output {
    /// Bytes for stdout.
    pub bytes: Vec<u8>,
    /// Exit code.
    pub code: u8,
}

impl Output {
    /// Output for stdout with an exit code.
    pub fn stdout(bytes: Vec<u8>, code: u8) -> Self {
        Output { bytes, code }
    }
}
