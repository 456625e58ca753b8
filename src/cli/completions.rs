//! `benchlint completions SHELL` (clap_complete) and `benchlint manpage` (clap_mangen).

use clap::CommandFactory;

use super::{Cli, EXIT_CLEAN, Output};

/// The completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Output {
    let mut cmd = Cli::command();
    let mut bytes = Vec::new();
    clap_complete::generate(shell, &mut cmd, "benchlint", &mut bytes);
    Output::stdout(bytes, EXIT_CLEAN)
}

/// The man page of `benchlint` (roff).
pub fn manpage() -> Result<Output, String> {
    let mut bytes = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut bytes)
        .map_err(|e| format!("the man page could not be rendered: {e}"))?;
    Ok(Output::stdout(bytes, EXIT_CLEAN))
}
