//! `sidecar`'s skeletons written out once every file is read: the one skeleton on stdout, or
//! each into its place (`-o DIR`, `--write-beside`), taken back from the spool they were put in
//! as they were made, and a line for each file.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use super::{EXIT_TROUBLE, Output, Plan, SidecarArgs};
use crate::config::paths;
use crate::corpus;
use crate::io::Spool;
use crate::numbers::plural;

/// Without an output: the one skeleton on stdout, the rest said on stderr.
pub(super) fn print_one(plan: &Plan, spool: &Spool, mut code: u8) -> Result<Output, String> {
    let mut err = std::io::stderr().lock();
    for why in plan.failed() {
        code = EXIT_TROUBLE;
        let _ = writeln!(err, "benchlint: error: {why}");
    }
    for (file, why) in &plan.skipped {
        let _ = writeln!(
            err,
            "benchlint: skipped `{}`: {}",
            crate::text::line(file),
            crate::text::line(why)
        );
    }
    for file in plan.complete() {
        let _ = writeln!(
            err,
            "benchlint: `{}` misses no checklist item: no skeleton",
            crate::text::line(file)
        );
    }
    let mut skeletons = plan.skeletons();
    match (skeletons.next(), skeletons.next()) {
        (None, _) => Ok(Output::stdout(Vec::new(), code)),
        (Some((file, one)), None) => spool
            .take(&one.skeleton.text)
            .map(|bytes| Output::stdout(bytes, code))
            .map_err(|e| unreadable(file, &e)),
        (Some((first, _)), Some(_)) => Err(format!(
            "{} files need a skeleton ({first}, ...); write them with `-o DIR`, or beside each file with `--write-beside`",
            plan.skeletons().count(),
        )),
    }
}

/// With `-o DIR` or `--write-beside`: every skeleton written, and a line for each file.
pub(super) fn write_all(args: &SidecarArgs, plan: &Plan, spool: &Spool, mut code: u8) -> Output {
    let mut text = String::new();
    let mut written = 0;
    for why in plan.failed() {
        code = EXIT_TROUBLE;
        let _ = writeln!(std::io::stderr(), "benchlint: error: {why}");
    }
    for (file, p) in plan.skeletons() {
        let target = p.target(args, file);
        let shown = crate::text::line(&paths::slashes(&target)).into_owned();
        let result = spool
            .take(&p.skeleton.text)
            .map_err(|e| unreadable(file, &e))
            .and_then(|bytes| {
                args.output
                    .as_deref()
                    .map_or(Ok(()), |dir| make_folders(dir, &target))
                    .and_then(|()| write_new(&target, &bytes, args.force))
            });
        match result {
            Ok(()) => {
                written += 1;
                let _ = write!(
                    text,
                    "wrote {shown} for {}: {} to fill",
                    crate::text::line(file),
                    plural(p.skeleton.missing, "key", "keys")
                );
                if p.skeleton.derived > 0 {
                    let _ = write!(
                        text,
                        ", {} filled in by benchlint (check them)",
                        plural(p.skeleton.derived, "value", "values")
                    );
                }
                text.push('\n');
            }
            Err(e) => {
                code = EXIT_TROUBLE;
                let _ = writeln!(std::io::stderr(), "benchlint: error: {e}");
            }
        }
    }
    for file in plan.complete() {
        let _ = writeln!(
            text,
            "nothing missing in {}: no skeleton",
            crate::text::line(file)
        );
    }
    for (file, why) in &plan.skipped {
        let _ = writeln!(
            text,
            "skipped {}: {}",
            crate::text::line(file),
            crate::text::line(why)
        );
    }
    if written > 0 {
        let next = if args.write_beside {
            "replace each null with the value in force, then run `benchlint check` again"
        } else {
            "replace each null with the value in force, put each file beside its result (the tree mirrors the corpus), then run `benchlint check` again"
        };
        let _ = writeln!(text, "{}: {next}", plural(written, "skeleton", "skeletons"));
    }
    Output::stdout(text.into_bytes(), code)
}

/// Why the skeleton of `file`, put away until every file was read, cannot be written.
/// Why `file` has no skeleton: the results of its lines put away until its last line could
/// not be read back.
pub(super) fn unreadable_results(file: &str, e: &std::io::Error) -> String {
    format!(
        "no skeleton for `{}`: its results could not be read back from their temporary file: {}",
        crate::text::line(file),
        corpus::describe_io(e)
    )
}

fn unreadable(file: &str, e: &std::io::Error) -> String {
    format!(
        "the skeleton of `{}` could not be read back from its temporary file: {}",
        crate::text::line(file),
        corpus::describe_io(e)
    )
}

/// Creates the folders between `dir` and `target`, refusing a symbolic link among them.
fn make_folders(dir: &Path, target: &Path) -> Result<(), String> {
    let parent = target.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent).map_err(|e| {
        format!(
            "cannot create `{}`: {}",
            parent.display(),
            corpus::describe_io(&e)
        )
    })?;
    let mut at = parent;
    while at.starts_with(dir) {
        if std::fs::symlink_metadata(at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "`{}` is a symbolic link; benchlint never writes through one",
                at.display()
            ));
        }
        match at.parent() {
            Some(up) if up != at => at = up,
            _ => break,
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` as a new file; an existing one is replaced only with `force`, and
/// never when it is a symbolic link or not a regular file.
fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
    let cannot = |e: &std::io::Error| {
        format!(
            "cannot write `{}`: {}",
            path.display(),
            corpus::describe_io(e)
        )
    };
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "`{}` is a symbolic link; benchlint never writes through one",
            path.display()
        )),
        Ok(m) if !m.is_file() => Err(format!(
            "`{}` exists and is not a regular file; nothing was written",
            path.display()
        )),
        Ok(_) if !force => Err(format!(
            "`{}` exists; nothing was written (--force replaces it, keeping the values of a sidecar it started from)",
            path.display()
        )),
        // Replaced through a fresh file renamed over it: a link made meanwhile is replaced, not
        // followed.
        Ok(_) => crate::output::write_file(path, bytes),
        Err(_) => {
            // Created exclusively: a link or file made meanwhile is refused, not followed.
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| cannot(&e))?;
            file.write_all(bytes).map_err(|e| cannot(&e))
        }
    }
}
