//! `benchlint completions SHELL` (clap_complete) and `benchlint manpage` (clap_mangen): the
//! page of benchlint and one page per command, as the main page's SEE ALSO names them.

use std::path::Path;

use clap::CommandFactory;

use super::{Cli, EXIT_CLEAN, Output};

/// The completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Output {
    let mut cmd = Cli::command();
    let mut bytes = Vec::new();
    clap_complete::generate(shell, &mut cmd, "benchlint", &mut bytes);
    Output::stdout(bytes, EXIT_CLEAN)
}

/// Every page: `(file name, roff)`, benchlint's own first, then one per command in the order
/// `--help` lists them (`benchlint-check.1`, ...).
pub fn pages() -> Result<Vec<(String, Vec<u8>)>, String> {
    // Built once so each command's display name is `benchlint-<command>`, the name the main
    // page's SEE ALSO gives it.
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = vec![render(cmd.clone())?];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        out.push(render(sub.clone())?);
    }
    Ok(out)
}

fn render(cmd: clap::Command) -> Result<(String, Vec<u8>), String> {
    let man = clap_mangen::Man::new(cmd);
    let mut bytes = Vec::new();
    man.render(&mut bytes)
        .map_err(|e| format!("the man page could not be rendered: {e}"))?;
    Ok((man.get_filename(), bytes))
}

/// `benchlint manpage [COMMAND] [--dir DIR]`: one page on stdout, or every page into `dir`.
pub fn manpage(command: Option<&str>, dir: Option<&Path>) -> Result<Output, String> {
    let pages = pages()?;
    if let Some(dir) = dir {
        super::output::check_output_dir(dir, &[], true)?;
        super::output::create_dir(dir)?;
        for (name, bytes) in &pages {
            super::output::write_file(&dir.join(name), bytes)?;
        }
        return Ok(Output::stdout(Vec::new(), EXIT_CLEAN));
    }
    let wanted = command.map_or_else(|| "benchlint.1".to_string(), |c| format!("benchlint-{c}.1"));
    let Some((_, bytes)) = pages.into_iter().find(|(name, _)| *name == wanted) else {
        return Err(format!(
            "no command `{}`; `benchlint --help` lists them",
            command.unwrap_or_default()
        ));
    };
    Ok(Output::stdout(bytes, EXIT_CLEAN))
}
