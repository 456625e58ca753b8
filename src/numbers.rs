//! Numbers as people read them in messages, tables and reports: rounded to what they mean and
//! with thousands separated, the same everywhere.
//!
//! Decisions:
//! - A measured value is shown to 4 significant figures (`25.82`, `0.9902`, `1.544`), never as
//!   the binary float a harness wrote (`25.824770552328115`): the fifth digit of a throughput or
//!   a latency is noise, and a message that quotes it makes the reader parse it.
//! - The integer part is never rounded away: `21,028` and `3,553,312`, not `21,030` and
//!   `3,553,000`. A reader looks the value up in the file, and a count of tokens or requests is
//!   exact.
//! - Trailing zeros after the point are dropped (`15.1`, not `15.10`; `2`, not `2.000`), so a
//!   whole value reads as one.
//! - Thousands are separated with `,` in the integer part (`12,412`), as `summary` and the
//!   reports do.
//! - Fixed decimals ([`fixed`]) stay for columns that line up and for percentages.

/// Magnitudes from which a value is written in scientific form (`1.235e18`): no count or
/// measurement reaches it, and written out it would be a line of digits (`1e300` has 301).
pub const HUGE: f64 = 1e15;

/// What a value that is not a finite number is shown as: `∞`, `−∞`, or `undefined` (0/0).
/// Never `inf` or `NaN`, which read as a program's fault rather than the data's.
fn not_finite(x: f64) -> Option<String> {
    if x.is_finite() {
        None
    } else if x.is_nan() {
        Some("undefined".into())
    } else if x > 0.0 {
        Some("∞".into())
    } else {
        Some("−∞".into())
    }
}

/// `x` in scientific form to 4 significant figures (`1.235e18`, `-5e300`), for [`HUGE`] values.
fn scientific(x: f64) -> String {
    let s = format!("{x:.3e}");
    // `1.000e18` reads `1e18`.
    match s.split_once('e') {
        Some((m, e)) if m.contains('.') => {
            let m = m.trim_end_matches('0').trim_end_matches('.');
            format!("{m}e{e}")
        }
        _ => s,
    }
}

/// `x` to 4 significant figures, every integer digit kept, trailing zeros dropped, thousands
/// separated: `25.82`, `0.9902`, `12,412`, `-1,234`. From [`HUGE`] on, scientific (`1.235e18`);
/// not finite, `∞`, `−∞`, `undefined`.
pub fn num(x: f64) -> String {
    if let Some(s) = not_finite(x) {
        return s;
    }
    if x.abs() >= HUGE {
        return scientific(x);
    }
    if x == 0.0 {
        return "0".into();
    }
    // Digits before the point (a value below 1 has none): 4 significant figures leave
    // `4 - digits` decimals, at least none.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the magnitude of a finite f64 is within ±309"
    )]
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = usize::try_from((3 - magnitude).clamp(0, 15)).unwrap_or(0);
    let text = format!("{x:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    // `-0.00001` rounds to `-0`.
    if text == "-0" {
        return "0".into();
    }
    group_thousands(&text)
}

/// A count and the word it counts, as written in messages: `1 run`, `3 runs` (digits as
/// written, not grouped).
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A whole count with thousands separated: `159,787`.
pub fn count(n: impl std::fmt::Display) -> String {
    group_thousands(&n.to_string())
}

/// `x` to `decimals` places, thousands separated: `3,552.8`, `0.260` (scientific from
/// [`HUGE`] on, `∞` when not finite, as [`num`]).
pub fn fixed(x: f64, decimals: usize) -> String {
    group_thousands(&bounded(x, decimals))
}

/// `x` to `decimals` places as `format!("{x:.decimals$}")` writes it, but never a line of
/// digits (scientific from [`HUGE`] on) nor `inf` or `NaN` (see [`num`]): the form for a
/// percentage or a ratio computed from input values, which a value near zero can make
/// astronomically large.
pub fn bounded(x: f64, decimals: usize) -> String {
    if let Some(s) = not_finite(x) {
        return s;
    }
    if x.abs() >= HUGE {
        return scientific(x);
    }
    format!("{x:.decimals$}")
}

/// A list of values for messages: `740.4, 1,080`; more than `max` are cut with "…".
pub fn list(values: &[f64], max: usize) -> String {
    let mut shown: Vec<String> = values.iter().take(max).map(|v| num(*v)).collect();
    if values.len() > max {
        shown.push(format!("… ({} in all)", values.len()));
    }
    shown.join(", ")
}

/// Why an interval of a quantity that cannot be negative is shown from 0, in words every output
/// uses.
pub const CLIPPED_AT_ZERO: &str = "clipped at 0: too few launches for an interval above zero";

/// The lower bound to show for an interval of a quantity that cannot be negative (a throughput,
/// a rate, a latency), and whether it was raised to 0. A t interval over two or three launches
/// can be wider than the mean it surrounds (198.1 with bounds -428.3 and 824.5); the part below
/// zero is no value the quantity can take, so people are shown the interval from 0, said so
/// ([`CLIPPED_AT_ZERO`]); machine outputs keep the bound as computed.
pub fn nonnegative_low(low: f64) -> (f64, bool) {
    if low < 0.0 { (0.0, true) } else { (low, false) }
}

/// Inserts `,` between groups of three digits of the integer part of a decimal number; any
/// other text is returned as it is.
pub fn group_thousands(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return s.to_string();
    }
    let mut grouped = String::new();
    for (k, ch) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_significant_figures_and_every_integer_digit() {
        assert_eq!(num(25.824_770_552_328_115), "25.82");
        assert_eq!(num(15.095_331_992_022_693), "15.1");
        assert_eq!(num(0.990_2), "0.9902");
        assert_eq!(num(0.000_123_456), "0.0001235");
        assert_eq!(num(1_825.597_432_753), "1,826");
        assert_eq!(num(21_028.23), "21,028");
        assert_eq!(num(3_553_312.5), "3,553,312");
        assert_eq!(num(-1_234.0), "-1,234");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(9.999_9), "10");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(-0.000_000_000_000_000_01), "0");
        assert_eq!(num(f64::INFINITY), "∞");
    }

    #[test]
    fn no_value_prints_inf_nan_or_a_line_of_digits() {
        assert_eq!(num(f64::NEG_INFINITY), "−∞");
        assert_eq!(num(f64::NAN), "undefined");
        assert_eq!(num(1e300), "1e300");
        assert_eq!(num(-1.234_56e18), "-1.235e18");
        assert_eq!(num(999_999_999_999_999.0), "999,999,999,999,999");
        assert_eq!(num(1e15), "1e15");
        assert_eq!(num(123_456_789_012_345.0), "123,456,789,012,345");
        assert_eq!(fixed(1e300, 1), "1e300");
        assert_eq!(bounded(5e-324_f64.recip(), 1), "∞");
        assert_eq!(bounded(f64::NAN, 1), "undefined");
        assert_eq!(bounded(12.345, 1), "12.3");
        // Every value of every magnitude stays short.
        for e in -324..=308 {
            for m in [1.0, 4.9, 9.99] {
                let x: f64 = m * 10f64.powi(e);
                for s in [num(x), fixed(x, 1), bounded(x * 100.0, 1), num(1.0 / x)] {
                    assert!(s.len() < 40, "{x:e}: {s}");
                    assert!(!s.contains("inf") && !s.contains("NaN"), "{x:e}: {s}");
                }
            }
        }
    }

    #[test]
    fn counts_fixed_and_lists() {
        assert_eq!(count(3_072_000_u64), "3,072,000");
        assert_eq!(count(-12_i64), "-12");
        assert_eq!(fixed(3552.8, 1), "3,552.8");
        assert_eq!(fixed(0.26, 3), "0.260");
        assert_eq!(list(&[1.0, 2.5, 1080.1], 2), "1, 2.5, … (3 in all)");
        assert_eq!(group_thousands("inf"), "inf");
        assert_eq!(nonnegative_low(-428.3), (0.0, true));
        assert_eq!(nonnegative_low(31.9), (31.9, false));
    }
}
