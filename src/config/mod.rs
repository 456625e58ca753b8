//! `benchlint.toml`: rule selection, severities, thresholds, per-file ignores and sidecars by
//! glob. Found upward from the first path checked (or named with `--config`, or ignored with
//! `--isolated`). Any mistake in it (an unknown key, an unknown rule code, a wrong type, a bad
//! glob, a sidecar that breaks the result schema) stops the run with exit 2 and a diagnostic
//! pointing at the line and column.
//!
//! ```toml
//! select = ["ALL"]                 # codes, prefixes (`M`, `M01`), rule names or "ALL"
//! extend-select = []
//! ignore = ["R014"]
//!
//! [severity]                       # per code or prefix; the most specific wins
//! "M014" = "error"
//! "R" = "warning"
//!
//! [thresholds]                     # any field of `Thresholds`
//! min_window_s = 60
//!
//! [per-file-ignores]               # globs relative to this file's folder
//! "old/**" = ["M"]
//!
//! [[sidecar]]                      # a partial canonical document for every matching file
//! files = "old/gb10/**"
//! values = { platform = { accelerator = "GB10" } }
//!
//! [[sidecar]]
//! files = "old/h200/*.json"
//! path = "sidecars/h200.json"
//! ```

pub mod paths;
pub mod raw;
pub mod selection;
pub mod sidecars;
pub mod trust;

use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use selection::{Layer, PerFileIgnore, Selection, Selector};
pub use sidecars::{GlobSidecar, GlobSidecars};

use crate::diagnostic::Severity;
use crate::thresholds::Thresholds;
use raw::RawConfig;

/// The config file's name.
pub const FILE_NAME: &str = "benchlint.toml";

/// A config file, checked and resolved.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file, absolute.
    pub path: PathBuf,
    /// The file as messages show it.
    pub display: String,
    /// Its folder, absolute: globs and sidecar paths are relative to it.
    pub dir: PathBuf,
    /// `select`, `extend-select`, `ignore`.
    pub layer: Layer,
    /// `[severity]`.
    pub severity: Vec<(Selector, Severity)>,
    /// `[thresholds]` (every field not written keeps its default).
    pub thresholds: Option<Thresholds>,
    /// `[per-file-ignores]`.
    pub per_file_ignores: Vec<PerFileIgnore>,
    /// `[[sidecar]]`, in file order.
    pub sidecars: Vec<GlobSidecar>,
    /// Found by discovery (in the checked tree), so read with the limits of [`trust`].
    pub in_tree: bool,
}

/// Largest config file read, bytes: a config is a page of settings.
pub const CONFIG_LIMIT: u64 = 1024 * 1024;

/// Largest `[[sidecar]] path` file read, bytes (as a sidecar beside a result).
pub const SIDECAR_LIMIT: u64 = 16 * 1024 * 1024;

/// A mistake in the config file, with the place it is at.
#[derive(Debug, Clone)]
pub struct ConfigError {
    /// The file as messages show it.
    pub display: String,
    /// Its text, when it could be read.
    pub text: Option<String>,
    /// Byte range of the mistake.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
    /// Text under the span.
    pub label: String,
    /// What to do.
    pub help: Option<String>,
}

impl ConfigError {
    fn at(
        display: &str,
        text: &str,
        span: Range<usize>,
        message: String,
        label: &str,
    ) -> Box<Self> {
        Box::new(ConfigError {
            display: display.to_string(),
            text: Some(text.to_string()),
            span: Some(span),
            message,
            label: label.to_string(),
            help: None,
        })
    }

    fn with_help(mut self: Box<Self>, help: impl Into<String>) -> Box<Self> {
        self.help = Some(help.into());
        self
    }

    /// 1-based line and column of the mistake.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        let (text, span) = (self.text.as_ref()?, self.span.as_ref()?);
        let start = span.start.min(text.len());
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some((line, column))
    }

    /// The diagnostic as text: `path:line:column: message`, then a snippet with the label.
    /// The file's name, its text and the message (which may quote it) are input: secrets are
    /// masked and control, bidirectional and invisible characters escaped or replaced before
    /// anything reaches the terminal.
    pub fn render(&self, color: bool) -> String {
        let display = crate::text::line(&self.display);
        let message = crate::text::line(&self.message);
        let place = match self.line_column() {
            Some((l, c)) => format!("{display}:{l}:{c}"),
            None => display.to_string(),
        };
        let help = self.help.as_deref().map(crate::text::line);
        let (Some(text), Some(span)) = (&self.text, &self.span) else {
            let mut out = format!("benchlint: error: {place}: {message}\n");
            if let Some(h) = &help {
                let _ = writeln!(out, "  help: {h}");
            }
            return out;
        };
        let start = span.start.min(text.len());
        let len = span.end.min(text.len()).saturating_sub(start);
        // Same length, same offsets: the span still points where it did.
        let mut shown = text.clone();
        crate::report::mask_snippet(&mut shown);
        crate::text::stand_in(&mut shown);
        let mut out = format!("benchlint: error: bad config file {place}\n");
        let mut diag = miette::MietteDiagnostic::new(message.into_owned()).with_label(
            miette::LabeledSpan::new_primary_with_span(
                Some(crate::text::line(&self.label).into_owned()),
                (start, len),
            ),
        );
        if let Some(h) = help {
            diag = diag.with_help(h.into_owned());
        }
        let report = miette::Report::new(diag)
            .with_source_code(miette::NamedSource::new(&display, shown).with_language("toml"));
        let theme = if color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let handler = miette::GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .with_links(false);
        let mut snippet = String::new();
        if handler.render_report(&mut snippet, report.as_ref()).is_ok() {
            out.push_str(&snippet);
        }
        out
    }
}

/// The nearest `benchlint.toml` in the folder of `first` (or `first` itself when it is a
/// folder) and its ancestors.
pub fn discover(first: &Path) -> Option<PathBuf> {
    let abs = paths::absolute(first);
    let start = if abs.is_dir() {
        abs
    } else {
        abs.parent().map(Path::to_path_buf)?
    };
    start
        .ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// The config of a run: none with `--isolated`, the file named with `--config` as written,
/// else the one discovery finds from the first path. A discovered config inside the checked
/// paths (`benchlint check submissions/` finding `submissions/x/benchlint.toml`) was written
/// by whoever wrote the corpus: it is limited as [`trust`] says, and each limit that changed
/// what it asked is written to stderr as a warning. One above them (the repository's own) is
/// used as written.
pub fn for_run(
    paths: &[PathBuf],
    explicit: Option<&Path>,
    isolated: bool,
) -> Result<Option<Config>, Box<ConfigError>> {
    if isolated {
        return Ok(None);
    }
    if let Some(p) = explicit {
        return load(p).map(Some);
    }
    let Some(found) = paths.first().and_then(|p| discover(p)) else {
        return Ok(None);
    };
    if !inside_checked(&found, paths) {
        return load(&found).map(Some);
    }
    let (config, notes) = load_in_tree(&found)?;
    for n in notes {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: {}: {}",
            crate::text::line(&config.display),
            n
        );
    }
    Ok(Some(config))
}

/// Reads and checks the config file at `path`, named with `--config`: used as written.
pub fn load(path: &Path) -> Result<Config, Box<ConfigError>> {
    let text = read_config(path)?;
    parse_with(&text, path, false)
}

/// Reads and checks a config file found inside the checked paths: its sidecar files must lie in its own
/// folder, and it is limited as [`trust`] says. Returns the config and what was overridden.
pub fn load_in_tree(path: &Path) -> Result<(Config, Vec<String>), Box<ConfigError>> {
    let text = read_config(path)?;
    let mut config = parse_with(&text, path, true)?;
    let notes = config.limit_in_tree();
    Ok((config, notes))
}

/// The config file's text: a regular file of at most [`CONFIG_LIMIT`] bytes (a FIFO, a device
/// or `/dev/stdin` is refused from its metadata, never opened).
fn read_config(path: &Path) -> Result<String, Box<ConfigError>> {
    crate::corpus::read_text(path, CONFIG_LIMIT)
        .map(|(t, _)| t)
        .map_err(|e| {
            Box::new(ConfigError {
                display: paths::display(path),
                text: None,
                span: None,
                message: format!("the config file could not be read: {}", e.0),
                label: String::new(),
                help: None,
            })
        })
}

/// Checks the text of the config file at `path` (sidecar paths are read relative to it), as
/// a config named on the command line.
pub fn parse(text: &str, path: &Path) -> Result<Config, Box<ConfigError>> {
    parse_with(text, path, false)
}

/// Checks the text of the config file at `path`; `confined`: its sidecar files must resolve
/// inside its folder.
fn parse_with(text: &str, path: &Path, confined: bool) -> Result<Config, Box<ConfigError>> {
    let display = paths::display(path);
    let abs = paths::absolute(path);
    let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim_end().replace('\n', "; ");
        ConfigError::at(&display, text, span, message, "here")
    })?;
    let err = |span: Range<usize>, message: String, label: &str| {
        ConfigError::at(&display, text, span, message, label)
    };
    let selectors = |list: &[toml::Spanned<String>]| -> Result<Vec<Selector>, Box<ConfigError>> {
        list.iter()
            .map(|s| Selector::parse(s.get_ref()).map_err(|m| err(s.span(), m, "not a rule code")))
            .collect()
    };
    let layer = Layer {
        select: raw.select.as_deref().map(selectors).transpose()?,
        extend_select: selectors(&raw.extend_select)?,
        ignore: selectors(&raw.ignore)?,
    };
    let mut severity = Vec::new();
    for (k, v) in &raw.severity {
        let sel = Selector::parse(k.get_ref()).map_err(|m| err(k.span(), m, "not a rule code"))?;
        severity.push((sel, Severity::from(*v.get_ref())));
    }
    let mut per_file_ignores = Vec::new();
    for (glob, codes) in &raw.per_file_ignores {
        let sels = selectors(codes)?;
        let p = PerFileIgnore::new(glob.get_ref(), sels)
            .map_err(|m| err(glob.span(), m, "bad glob"))?;
        per_file_ignores.push(p);
    }
    let mut sidecars = Vec::new();
    for (i, entry) in raw.sidecar.iter().enumerate() {
        let s = entry.get_ref();
        let (value, shown, span) = match (&s.values, &s.path) {
            (Some(_), Some(p)) => {
                return Err(err(
                    p.span(),
                    "a [[sidecar]] takes `values` or `path`, not both".into(),
                    "remove one",
                ));
            }
            (None, None) => {
                return Err(err(
                    entry.span(),
                    "a [[sidecar]] needs `values` (inline) or `path` (a JSON file)".into(),
                    "this entry",
                ));
            }
            (Some(values), None) => {
                let json = raw::table_to_json(values.get_ref()).ok_or_else(|| {
                    err(
                        values.span(),
                        "sidecar values must be JSON values (no nan or inf)".into(),
                        "here",
                    )
                })?;
                (json, format!("{display}#sidecar-{}", i + 1), values.span())
            }
            (None, Some(p)) => {
                let file = dir.join(p.get_ref());
                if confined && !inside_folder(&dir, &file) {
                    return Err(err(
                        p.span(),
                        "the sidecar is outside the config file's folder; a config inside the checked paths reads sidecars only inside its own folder".into(),
                        "outside",
                    )
                    .with_help("move the sidecar next to the config, or name the config with --config"));
                }
                let side_text = crate::corpus::read_text(&file, SIDECAR_LIMIT)
                    .map(|(t, _)| t)
                    .map_err(|e| {
                        err(
                            p.span(),
                            format!("the sidecar could not be read: {}", e.0),
                            "this file",
                        )
                    })?;
                let json: Value = serde_json::from_str(&side_text).map_err(|e| {
                    err(
                        p.span(),
                        format!("the sidecar is not JSON: {e}"),
                        "this file",
                    )
                })?;
                (json, paths::display(&file), p.span())
            }
        };
        if !value.is_object() {
            return Err(err(
                span,
                "a sidecar must be a JSON object (a partial result)".into(),
                "not an object",
            ));
        }
        let mut value = value;
        crate::corpus::sidecar::prepare(&mut value);
        if let Some(e) = crate::schema::validate(crate::schema::Kind::Sidecar, &value).first() {
            let at = if e.pointer.is_empty() {
                "/"
            } else {
                &e.pointer
            };
            return Err(err(
                span,
                format!(
                    "the sidecar breaks the result schema at `{at}`: {}",
                    e.message
                ),
                "this sidecar",
            )
            .with_help(
                "a sidecar is a partial `benchlint/result/v1` document: `benchlint schema result`",
            ));
        }
        let g = GlobSidecar::new(s.files.get_ref(), shown, value)
            .map_err(|m| err(s.files.span(), m, "bad glob"))?;
        sidecars.push(g);
    }
    Ok(Config {
        path: abs,
        display,
        dir,
        layer,
        severity,
        thresholds: raw.thresholds,
        per_file_ignores,
        sidecars,
        in_tree: false,
    })
}

/// Whether the config file `found` lies inside one of the checked `paths` (a folder, or the
/// folder of a file argument), symlinks resolved.
fn inside_checked(found: &Path, paths: &[PathBuf]) -> bool {
    let Some(dir) = std::fs::canonicalize(found)
        .ok()
        .and_then(|f| f.parent().map(Path::to_path_buf))
    else {
        return true;
    };
    paths.iter().any(|p| {
        let root = if p.is_dir() {
            p.clone()
        } else {
            p.parent()
                .filter(|x| !x.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        };
        std::fs::canonicalize(root).is_ok_and(|r| dir.starts_with(r))
    })
}

/// Whether `file` (followed through symlinks, when it exists) lies inside `dir`.
fn inside_folder(dir: &Path, file: &Path) -> bool {
    let (Ok(real_dir), Ok(real_file)) = (std::fs::canonicalize(dir), std::fs::canonicalize(file))
    else {
        // A file that does not exist is reported when it is read; lexically outside is outside.
        return paths::normalize(file).starts_with(paths::normalize(dir));
    };
    real_file.starts_with(real_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Config, Box<ConfigError>> {
        parse(text, Path::new("benchlint.toml"))
    }

    #[test]
    fn a_full_config() {
        let c = parse_str(
            r#"select = ["E", "M"]
ignore = ["M014"]
[severity]
"M014" = "error"
"R" = "warning"
[thresholds]
min_window_s = 60
[per-file-ignores]
"old/**" = ["M"]
[[sidecar]]
files = "old/**"
values = { engine = { name = "vllm" } }
"#,
        )
        .unwrap();
        assert!((c.thresholds.unwrap().min_window_s - 60.0).abs() < 1e-9);
        assert_eq!(c.severity.len(), 2);
        assert_eq!(c.sidecars[0].value["engine"]["name"], "vllm");
        assert_eq!(c.sidecars[0].display, "benchlint.toml#sidecar-1");
    }

    #[test]
    fn mistakes_point_at_line_and_column() {
        let e = parse_str("select = [\"E\"]\nselec = [\"M\"]\n").unwrap_err();
        assert_eq!(e.line_column(), Some((2, 1)), "{e:?}");
        assert!(e.message.contains("selec"), "{}", e.message);
        let e = parse_str("ignore = [\"E\", \"Q123\"]\n").unwrap_err();
        assert_eq!(e.line_column(), Some((1, 16)), "{e:?}");
        let e = parse_str("[thresholds]\nmin_window_s = \"long\"\n").unwrap_err();
        assert_eq!(e.line_column().map(|x| x.0), Some(2), "{e:?}");
        let e = parse_str("[thresholds]\nmin_windows = 3\n").unwrap_err();
        assert_eq!(e.line_column().map(|x| x.0), Some(2), "{e:?}");
        let e = parse_str("[severity]\n\"M099x\" = \"error\"\n").unwrap_err();
        assert_eq!(e.line_column(), Some((2, 1)), "{e:?}");
        let e = parse_str("[severity]\nM005 = \"fatal\"\n").unwrap_err();
        assert_eq!(e.line_column().map(|x| x.0), Some(2), "{e:?}");
        assert!(e.render(false).contains("benchlint.toml:2:"));
    }
}
