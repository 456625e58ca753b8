//! Timestamps as harnesses write them (Unix seconds, compact `YYYYMMDD-HHMMSS`, ISO 8601 with or
//! without an offset), converted to RFC 3339.

/// RFC 3339 (UTC, whole seconds) of a Unix time in seconds.
pub(crate) fn from_epoch_seconds(secs: f64) -> Option<String> {
    // 1990 to 2100: anything else is not a wall-clock time (a monotonic clock, a unit slip).
    if !(631_152_000.0..4_102_444_800.0).contains(&secs) {
        return None;
    }
    #[expect(clippy::cast_possible_truncation, reason = "range checked above")]
    let s = secs.floor() as i64;
    let (days, rem) = (s.div_euclid(86_400), s.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    Some(format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    ))
}

/// Year, month, day of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// RFC 3339 of vLLM's `date` (`%Y%m%d-%H%M%S`, local time without offset, read as UTC).
pub(crate) fn from_compact_date(s: &str) -> Option<String> {
    let b = s.trim().as_bytes();
    if b.len() != 15
        || b[8] != b'-'
        || !b
            .iter()
            .enumerate()
            .all(|(i, c)| i == 8 || c.is_ascii_digit())
    {
        return None;
    }
    let t = std::str::from_utf8(b).ok()?;
    stamp(
        [
            &t[0..4],
            &t[4..6],
            &t[6..8],
            &t[9..11],
            &t[11..13],
            &t[13..15],
        ],
        "Z",
    )
}

/// RFC 3339 of an ISO 8601 date-time (`2026-01-15T06:27:34.166021`, with or without an
/// offset; without one it is read as UTC). Fractions of a second are dropped.
pub(crate) fn from_iso(s: &str) -> Option<String> {
    let t = s.trim();
    let b = t.as_bytes();
    if b.len() < 19
        || !b[..19].is_ascii()
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't' | b' ')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let mut rest = &t[19..];
    if let Some(r) = rest.strip_prefix('.') {
        rest = r.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let offset = match rest {
        "" | "Z" | "z" => "Z".to_string(),
        o if o.len() == 6
            && (o.starts_with('+') || o.starts_with('-'))
            && o.bytes().enumerate().all(|(i, c)| {
                i == 0 || (i == 3 && c == b':') || (i != 3 && c.is_ascii_digit())
            }) =>
        {
            o.to_string()
        }
        _ => return None,
    };
    stamp(
        [
            &t[0..4],
            &t[5..7],
            &t[8..10],
            &t[11..13],
            &t[14..16],
            &t[17..19],
        ],
        &offset,
    )
}

/// `YYYY-MM-DDTHH:MM:SS` + `offset` from the digit fields year, month, day, hour, minute,
/// second, when they form a plausible time.
fn stamp(fields: [&str; 6], offset: &str) -> Option<String> {
    let mut v = [0u32; 6];
    for (slot, f) in v.iter_mut().zip(fields) {
        *slot = f.parse().ok()?;
    }
    let ok = (1990..2100).contains(&v[0])
        && (1..=12).contains(&v[1])
        && (1..=31).contains(&v[2])
        && v[3] < 24
        && v[4] < 60
        && v[5] < 60;
    let [year, month, day, hour, minute, second] = fields;
    ok.then(|| format!("{year}-{month}-{day}T{hour}:{minute}:{second}{offset}"))
}
