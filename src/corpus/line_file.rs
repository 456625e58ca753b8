//! A JSON Lines file checked straight from the file, a chunk of lines at a time, its text never
//! held whole: checked once for what makes a file unreadable (as a file read whole is), then
//! read line by line and checked ([`check_lines`]), then read once more, line by line, to place
//! its findings. What comes out is what reading the file whole gives.

use crate::diagnostic::{Finding, Location, Placed};
use crate::io::{LineFile, ReadError};
use crate::rules;

use super::documents::bom_finding;
use super::{
    Entry, FileOutcome, Hand, Options, beside, check_lines, finding_at, parse, sidecar, text,
};
#[cfg(test)]
use crate::guard;

/// Whether the file `entry` is read this way: a JSON Lines file by its name (neither a sidecar,
/// whose documents decide together whether it attaches to a result, nor a loadgen side file,
/// which is read as empty or not), and no command needs its results handed over all at once.
pub(super) fn reads_by_line(entry: &Entry, hand: Hand<'_>) -> bool {
    is_line_file(entry.path()) && hand.is_none_or(|h| h.in_chunks)
}

/// Whether the file at `path` is a JSON Lines file the loader reads a line at a time, never
/// whole: its findings are placed reading it a line at a time too.
pub fn is_line_file(path: &std::path::Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    let name = name.to_string_lossy();
    let lower = name.to_ascii_lowercase();
    parse::by_line(&name)
        && !sidecar::is_sidecar_name(&name)
        && !lower.starts_with("mlperf_log_trace")
        && !lower.starts_with("mlperf_log_accuracy")
}

/// Checks the JSON Lines file `entry` from the file (see the module's words).
pub(super) fn process_line_file(
    entry: &Entry,
    options: &Options,
    hood: &beside::Neighbourhood<'_>,
    hand: Hand<'_>,
) -> FileOutcome {
    let mut out = FileOutcome::default();
    let path = entry.display.raw();
    let limit = options.thresholds.max_file_bytes;
    let mut file = match LineFile::open(entry.path(), limit, entry.seen) {
        Ok(file) => file,
        Err(e) => {
            out.findings.push(unreadable(path, &e));
            out.finish(options);
            return out;
        }
    };
    if file.bom() {
        out.findings.push(bom_finding(path));
    }
    #[cfg(test)]
    guard::injected(path, "loader");
    let file_name = entry
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = hood.folder(entry.path(), &entry.root);
    // Described from the whole text, read again: only a file that is not JSON at all.
    let not_json = |offset: usize, message: &str| {
        let (text, _) = crate::io::read_seen(entry.path(), limit, entry.seen)?;
        Ok(text::not_json(path, &text, offset, Some(message)))
    };
    let len = usize::try_from(file.len()).unwrap_or(usize::MAX);
    if let Err(e) = check_lines(
        (entry, &mut file, len),
        (&file_name, &not_json),
        (options, &folder, hand),
        &mut out,
    ) {
        // The file changed under the read: nothing read of it stands. Results handed over
        // already are not handed over as the file's last, so no command writes them.
        let mut unread = FileOutcome::default();
        unread.findings.push(unreadable(path, &e));
        unread.finish(options);
        return unread;
    }
    out.finish(options);
    place(path, file, &mut out);
    out.findings.sort_by(crate::diagnostic::output_order);
    if let Some(hand) = hand {
        out.hand_over(hand, (path, ("", 0), true), options);
    }
    out
}

/// Places the findings and unknown-format findings of `out` in the file `path`, read once more a
/// line at a time from the file opened to check it. A file that can no longer be read as it
/// was (cut short since, say) places them nowhere, as a file the loader refused: it is never
/// read again to place or quote them.
fn place(path: &str, file: LineFile, out: &mut FileOutcome) {
    let placed = file.rewind().map_err(|e| e.0).and_then(|mut lines| {
        crate::positions::place_in_lines(
            path,
            &mut lines,
            &mut [&mut out.findings, &mut out.unknown],
        )
    });
    if placed.is_err() {
        for f in out.findings.iter_mut().chain(out.unknown.iter_mut()) {
            if crate::positions::to_place_in(path, f) {
                f.placed = Some(Placed {
                    primary: None,
                    related: vec![None; f.related.len()],
                });
            }
        }
    }
}

/// The error of a file that could not be read (E001), placed nowhere: a file the loader refused
/// is never opened again to place or draw a snippet of it.
pub(super) fn unreadable(path: &str, e: &ReadError) -> Finding {
    let mut f = finding_at(
        &rules::e001_unreadable_file::RULE,
        Location::new(path, ""),
        format!("`{path}` could not be read: {}", e.0),
        Some("check the permissions and the encoding (UTF-8), or raise the size limit".into()),
    );
    f.placed = Some(Placed {
        primary: None,
        related: Vec::new(),
    });
    f
}
