//! `benchlint capture`: a sidecar whose serve command is read, never retyped.

use std::path::PathBuf;

use super::{EXIT_CLEAN, Output};
use crate::capture;

/// Arguments of `capture`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("from").required(true).args(["pid", "container_inspect"])))]
pub struct CaptureArgs {
    /// The engine's process id (Linux: read from /proc).
    #[arg(long)]
    pub pid: Option<u32>,
    /// A file holding `docker inspect CONTAINER` output.
    #[arg(long, value_name = "FILE")]
    pub container_inspect: Option<PathBuf>,
    /// Write the sidecar here (for example `run1.meta.json` beside a result) instead of stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Largest `docker inspect` output read (a bounded read: never a device or a FIFO).
const INSPECT_LIMIT: u64 = 16 * 1024 * 1024;

/// Runs `capture`.
pub fn run(args: &CaptureArgs) -> Result<Output, String> {
    let captured = match (&args.pid, &args.container_inspect) {
        (Some(pid), _) => capture::from_process(*pid)?,
        (None, Some(file)) => {
            let (text, _) = crate::corpus::read_text(file, INSPECT_LIMIT)
                .map_err(|e| format!("cannot read `{}`: {}", file.display(), e.0))?;
            capture::from_container_inspect(&text)?
        }
        (None, None) => return Err("give --pid PID or --container-inspect FILE".into()),
    };
    let text = String::from_utf8(crate::text::json::pretty_redacted(capture::sidecar(
        &captured,
    )))
    .unwrap_or_default();
    match &args.output {
        Some(path) => {
            super::output::write_file(path, text.as_bytes())?;
            Ok(Output::stdout(Vec::new(), EXIT_CLEAN))
        }
        None => Ok(Output::stdout(text.into_bytes(), EXIT_CLEAN)),
    }
}
