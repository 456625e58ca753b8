//! The progress line of a long `check`: on stderr, only when a person is watching it.
//!
//! Decisions (README, "Options of check"): shown only when stderr is a terminal, no `CI`
//! variable is set (every CI service sets it; their logs are no terminal to redraw), the run is
//! neither `--quiet` nor `--silent`, and the report does not go to the same terminal while the
//! line is drawn (a streamed format to a terminal would interleave with it). It appears after
//! one second, redraws four times a second with the files checked so far (when the format
//! counts them) and the time taken, and is erased before anything else is written. Our own
//! few lines: a spinner-free line needs no crate.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// After how long the line appears.
const AFTER: Duration = Duration::from_secs(1);
/// How often it is redrawn.
const EVERY: Duration = Duration::from_millis(250);

/// Whether to draw the line, from what the run knows of its streams and the `CI` variable
/// (set to anything but empty, `0` or `false`: no line).
pub fn wanted(
    stderr_terminal: bool,
    report_to_terminal_while_running: bool,
    quiet: bool,
    ci: Option<&std::ffi::OsStr>,
) -> bool {
    let in_ci = ci.is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
    stderr_terminal && !report_to_terminal_while_running && !quiet && !in_ci
}

/// A drawn (or not) progress line; erased when dropped.
pub struct Progress {
    done: Arc<AtomicBool>,
    /// Files checked so far, for whoever counts them.
    pub files: Arc<AtomicUsize>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts the line when `enabled`; otherwise a counter nobody draws.
    pub fn start(enabled: bool) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        let files = Arc::new(AtomicUsize::new(0));
        let thread = enabled.then(|| {
            let (done, files) = (done.clone(), files.clone());
            std::thread::spawn(move || draw(&done, &files))
        });
        Progress {
            done,
            files,
            thread,
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn draw(done: &AtomicBool, files: &AtomicUsize) {
    let start = Instant::now();
    let mut drawn = false;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        let elapsed = start.elapsed();
        if elapsed < AFTER || (drawn && elapsed.as_millis() % EVERY.as_millis() > 60) {
            continue;
        }
        let n = files.load(Ordering::Relaxed);
        let count = if n == 0 {
            String::new()
        } else {
            format!(" {n} files,")
        };
        let _ = write!(
            std::io::stderr(),
            "\r\x1b[2Kbenchlint: checking,{count} {:.0} s",
            elapsed.as_secs_f64()
        );
        drawn = true;
    }
    if drawn {
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_for_a_person_at_a_terminal() {
        let ci = |v: &str| Some(std::ffi::OsString::from(v));
        assert!(wanted(true, false, false, None));
        assert!(wanted(true, false, false, ci("").as_deref()));
        assert!(wanted(true, false, false, ci("false").as_deref()));
        assert!(!wanted(false, false, false, None), "a pipe or a log file");
        assert!(
            !wanted(true, true, false, None),
            "the report on the same terminal"
        );
        assert!(!wanted(true, false, true, None), "--quiet or --silent");
        assert!(!wanted(true, false, false, ci("true").as_deref()), "CI");
    }

    #[test]
    fn a_line_not_enabled_draws_nothing_and_stops() {
        let p = Progress::start(false);
        p.files.fetch_add(3, Ordering::Relaxed);
        assert!(p.thread.is_none());
        drop(p);
    }
}
