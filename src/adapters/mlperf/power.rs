//! The power an MLPerf power run measured at the wall, read from the PTD sample log beside the
//! loadgen logs.
//!
//! A power run (`performance/run_1/`, and the `ranging/` run before it) keeps `spl.txt` beside
//! its logs: SPEC PTDaemon's record of the power analyzer between the outlet and the system,
//! one line a second (`Time,06-03-2025 14:20:13.427,Watts,86.410000,Volts,...,Mark,...`). The
//! loadgen detail log records the measured window as `power_begin` and `power_end`, in the same
//! `MM-DD-YYYY HH:MM:SS.fff` form. That window and the samples are all the submission checker
//! uses for the power metric, and this mapping does the same:
//!
//! - **Mean.** `power_w.mean` is the mean of the positive Watts readings strictly inside
//!   (`power_begin`, `power_end`), compared as written, as the checker compares them (PTD writes
//!   a non-positive reading for a sample it could not take). A summary log records no window:
//!   it takes the window from the detail log of its run beside it. Without a window (no detail
//!   log, or one without the two records) the mean is over every positive reading of the file,
//!   which includes the seconds the analyzer ran before and after the load, and the provenance
//!   says so. A window that no sample falls in (the two clocks disagree: the checker rejects
//!   such a run) gives no mean.
//! - **Kind.** `wall`: PTD reads a power analyzer at the outlet, never the accelerators' rails.
//! - **Trace.** `artifacts.power_trace` names `spl.txt` with kind `wall` whenever it holds PTD
//!   samples, so a comparison that cannot name the run's level still knows its power basis.
//! - Loadgen's only `power_*` records are those two timestamps: no mean power comes from the logs
//!   themselves.
//! - **Bounded.** The file is streamed a line at a time ([`Folder::scan_lines`]); a line longer
//!   than [`MAX_LINE_BYTES`] is not a sample, and a file of more than [`MAX_LINES`] lines or
//!   [`MAX_BYTES`] bytes (days of samples) gives no mean rather than the mean of a part.

use serde_json::Value;

use crate::adapters::map::Builder;
use crate::io::beside::{Folder, Place};

/// The PTD sample log of a run.
const SAMPLE_LOG: &str = "spl.txt";
/// Longest sample line read; PTD writes about 110 bytes a line, 250 with two channels.
const MAX_LINE_BYTES: usize = 4096;
/// Most lines read from one sample log (over eleven days at one sample a second).
const MAX_LINES: usize = 1_000_000;
/// Most bytes read from one sample log: below the stream's own cap
/// ([`crate::io::beside::MAX_SCAN_BYTES`]), so that a longer file is known to be cut.
const MAX_BYTES: usize = 48 * 1024 * 1024;

/// The window loadgen measured, in microseconds on the clock both logs write, with the words
/// that say where it was read and the pointer findings land on (`""` for a summary).
struct Window {
    begin: i64,
    end: i64,
    words: String,
    pointer: &'static str,
}

/// What the sample log gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Average {
    /// Lines that are PTD samples (`Time,<stamp>,Watts,<number>,...`).
    pub samples: usize,
    /// Positive readings averaged.
    pub used: usize,
    /// Their mean, watts.
    pub mean: Option<f64>,
}

/// Maps the power of the run whose log `b` reads, when its folder holds a PTD sample log;
/// `summary` says the log is a summary, which takes its window from the detail log beside it.
pub(super) fn map(b: &mut Builder<'_>, folder: Option<&Folder<'_>>, summary: bool) {
    let Some(folder) = folder else { return };
    if !b.has("/levels/0") {
        return;
    }
    let window = if summary {
        detail_window(folder, &folder.own_name().replace("summary", "detail"))
    } else {
        own_window(b.doc())
    };
    let mut truncated = false;
    let mut average = Accumulator::new(window.as_ref().map(|w| (w.begin, w.end)));
    let read = folder.scan_lines(Place::Here, SAMPLE_LOG, |offset, line| {
        if average.lines >= MAX_LINES || offset >= MAX_BYTES {
            truncated = true;
            return false;
        }
        average.add(line);
        true
    });
    let got = average.finish();
    if !read || got.samples == 0 {
        return;
    }
    let path = folder.display(Place::Here, SAMPLE_LOG);
    let src = window.as_ref().map_or("", |w| w.pointer);
    let wall = "SPEC PTDaemon's sample log, a power analyzer between the outlet and the system";
    b.derived(
        "/artifacts/power_trace/path",
        SAMPLE_LOG,
        &format!("{path} beside the log: {wall}"),
        src,
    );
    b.derived("/artifacts/power_trace/kind", "wall", wall, src);
    let (Some(mean), false) = (got.mean, truncated) else {
        return;
    };
    let how = match &window {
        Some(w) => format!(
            "the mean of the {} positive Watts readings of {path} strictly between {}",
            got.used, w.words
        ),
        None => format!(
            "the mean of all {} positive Watts readings of {path}: no power_begin and power_end to align with, so the \
             seconds the analyzer ran before and after the load are included",
            got.used
        ),
    };
    b.derived("/levels/0/power_w/mean", mean, &how, src);
    b.derived("/levels/0/power_w/kind", "wall", wall, src);
}

/// The window a detail log's own `power_begin` and `power_end` give.
fn own_window(doc: &Value) -> Option<Window> {
    let text = |k: &str| doc.get(k).and_then(Value::as_str).map(str::trim);
    let (b, e) = (text("power_begin")?, text("power_end")?);
    let (begin, end) = (ptd_time(b)?, ptd_time(e)?);
    (end > begin).then(|| Window {
        begin,
        end,
        words: format!("the log's power_begin ({b}) and power_end ({e})"),
        pointer: "/power_begin",
    })
}

/// The window in the detail log `name` beside a summary, streamed until both records are seen.
fn detail_window(folder: &Folder<'_>, name: &str) -> Option<Window> {
    let (mut begin, mut end): (Option<String>, Option<String>) = (None, None);
    folder.scan_lines(Place::Here, name, |_, line| {
        let Some(record) = line.trim_start().strip_prefix(":::MLLOG") else {
            return true;
        };
        if !record.contains("\"power_") {
            return true;
        }
        if let Ok(v) = serde_json::from_str::<Value>(record.trim()) {
            let at = v
                .get("value")
                .and_then(Value::as_str)
                .map(|t| t.trim().to_string());
            match v.get("key").and_then(Value::as_str) {
                Some("power_begin") if begin.is_none() => begin = at,
                Some("power_end") if end.is_none() => end = at,
                _ => {}
            }
        }
        begin.is_none() || end.is_none()
    });
    let (b, e) = (begin?, end?);
    let (begin, end) = (ptd_time(&b)?, ptd_time(&e)?);
    (end > begin).then(|| Window {
        begin,
        end,
        words: format!(
            "power_begin ({b}) and power_end ({e}) of {}, the detail log of the run",
            folder.display(Place::Here, name)
        ),
        pointer: "",
    })
}

/// Running mean of the samples of one log.
struct Accumulator {
    window: Option<(i64, i64)>,
    lines: usize,
    samples: usize,
    used: usize,
    sum: f64,
}

impl Accumulator {
    fn new(window: Option<(i64, i64)>) -> Self {
        Accumulator {
            window,
            lines: 0,
            samples: 0,
            used: 0,
            sum: 0.0,
        }
    }

    fn add(&mut self, line: &str) {
        self.lines += 1;
        if line.len() > MAX_LINE_BYTES {
            return;
        }
        let Some((at, watts)) = sample(line) else {
            return;
        };
        self.samples += 1;
        let inside = self.window.is_none_or(|(b, e)| b < at && at < e);
        if inside && watts > 0.0 {
            self.used += 1;
            self.sum += watts;
        }
    }

    fn finish(&self) -> Average {
        #[expect(
            clippy::cast_precision_loss,
            reason = "a count of lines, far below 2^52"
        )]
        let mean = (self.used > 0).then(|| self.sum / self.used as f64);
        Average {
            samples: self.samples,
            used: self.used,
            mean: mean.filter(|m| m.is_finite()),
        }
    }
}

/// The mean of the sample lines `lines` inside `window` (all of them without one).
#[cfg(test)]
pub(super) fn average<'l>(
    lines: impl IntoIterator<Item = &'l str>,
    window: Option<(i64, i64)>,
) -> Average {
    let mut acc = Accumulator::new(window);
    for l in lines {
        acc.add(l);
    }
    acc.finish()
}

/// The time and Watts reading of a PTD sample line: `Time,<stamp>,Watts,<number>,...` (with
/// two channels, the first Watts is the total, as the checker reads it).
fn sample(line: &str) -> Option<(i64, f64)> {
    let mut fields = line.trim().split(',');
    if fields.next()? != "Time" {
        return None;
    }
    let at = ptd_time(fields.next()?)?;
    if fields.next()? != "Watts" {
        return None;
    }
    let watts = fields.next()?.trim().parse::<f64>().ok()?;
    watts.is_finite().then_some((at, watts))
}

/// Microseconds since 1970 of `MM-DD-YYYY HH:MM:SS[.f]`, the form both PTD and loadgen write
/// (read as written: neither says its time zone).
pub(super) fn ptd_time(s: &str) -> Option<i64> {
    let s = s.trim();
    let (date, time) = s.split_once(' ')?;
    let mut d = date.split('-');
    let (month, day, year) = (d.next()?, d.next()?, d.next()?);
    if d.next().is_some() || month.len() != 2 || day.len() != 2 || year.len() != 4 {
        return None;
    }
    let (clock, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut t = clock.split(':');
    let (hour, minute, second) = (t.next()?, t.next()?, t.next()?);
    if t.next().is_some() || fraction.len() > 9 {
        return None;
    }
    let whole = |f: &str| {
        (!f.is_empty() && f.len() <= 4 && f.bytes().all(|c| c.is_ascii_digit()))
            .then(|| f.parse::<i64>().ok())
            .flatten()
    };
    let (year, month, day) = (whole(year)?, whole(month)?, whole(day)?);
    let (hour, minute, second) = (whole(hour)?, whole(minute)?, whole(second)?);
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
        || !fraction.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let micros = format!("{fraction:0<6}")[..6].parse::<i64>().ok()?;
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute) * 60_000_000 + second * 1_000_000 + micros)
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: [&str; 6] = [
        "Time,06-03-2025 14:20:10.412,Watts,38.120000,Volts,229.810000,Amps,0.301220,PF,0.550700,Mark,2025-06-03_14-17-02_testing",
        "Time,06-03-2025 14:20:11.418,Watts,-1.000000,Volts,229.790000,Amps,0.301010,PF,0.551000,Mark,2025-06-03_14-17-02_testing",
        "Time,06-03-2025 14:20:12.421,Watts,84.500000,Volts,229.120000,Amps,0.611330,PF,0.603300,Mark,2025-06-03_14-17-02_testing",
        "Time,06-03-2025 14:20:13.427,Watts,86.500000,Volts,229.100000,Amps,0.625410,PF,0.603700,Mark,2025-06-03_14-17-02_testing",
        "not a sample",
        "Time,06-03-2025 14:20:14.433,Watts,37.900000,Volts,229.840000,Amps,0.299900,PF,0.549800,Mark,2025-06-03_14-17-02_testing",
    ];

    #[test]
    fn stamps_read_as_loadgen_and_ptd_write_them() {
        assert_eq!(ptd_time("01-01-1970 00:00:00.000"), Some(0));
        assert_eq!(ptd_time("01-01-1970 00:00:01.5"), Some(1_500_000));
        // 2024-07-26T16:54:58.531Z, a real power_begin.
        assert_eq!(
            ptd_time("07-26-2024 16:54:58.531"),
            Some(1_722_012_898_531_000)
        );
        for bad in [
            "2024-07-26 16:54:58.531",
            "13-26-2024 16:54:58.531",
            "07-26-2024 16:54",
            "07-26-2024T16:54:58",
            "",
        ] {
            assert_eq!(ptd_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_mean_is_over_positive_readings_strictly_inside_the_window() {
        let begin = ptd_time("06-03-2025 14:20:12.000").unwrap();
        let end = ptd_time("06-03-2025 14:20:14.433").unwrap();
        let got = average(LINES, Some((begin, end)));
        // The reading at the end itself is outside, as in the checker.
        assert_eq!((got.samples, got.used), (5, 2));
        assert_eq!(got.mean, Some(85.5));
        // Without a window: every positive reading (-1 is a sample PTD could not take).
        let all = average(LINES, None);
        assert_eq!(all.used, 4);
        assert!((all.mean.unwrap() - (38.12 + 84.5 + 86.5 + 37.9) / 4.0).abs() < 1e-12);
        // A window the log does not cover gives no mean.
        let later = ptd_time("06-03-2025 15:20:12.000").unwrap();
        let none = average(LINES, Some((later, later + 1_000_000)));
        assert_eq!((none.samples, none.mean), (5, None));
        // Text that is not PTD's has no samples.
        assert_eq!(average(["a,b,c", "Time,soon,Watts,1"], None).samples, 0);
    }
}
