//! The words claims' messages share: stream counts, quoted lists of ids, percentages.

use crate::model::LevelKey;

/// "1 stream", "32 streams".
pub fn streams(c: u64) -> String {
    LevelKey::Streams(c).to_string()
}

/// "result `a`", "results `a`, `b`" (`one`/`many` empty: just the list).
pub fn quoted_list(items: &[String], one: &str, many: &str) -> String {
    let list: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    let word = if items.len() == 1 { one } else { many };
    if word.is_empty() {
        list.join(", ")
    } else {
        format!("{word} {}", list.join(", "))
    }
}

/// A value for messages: 4 significant figures, thousands separated (shared by every message).
pub use crate::numbers::num;

/// A relative difference as a signed percentage: `+4.8%`, `−12%`.
pub fn pct(rel: f64) -> String {
    let p = rel * 100.0;
    let digits = usize::from(p.abs() < 10.0);
    let s = crate::numbers::bounded(p.abs(), digits);
    if s.trim_start_matches(['0', '.']).is_empty() {
        return format!("{s}%");
    }
    if p < 0.0 {
        format!("−{s}%")
    } else {
        format!("+{s}%")
    }
}

/// A relative size as an unsigned percentage: `5.8%`.
pub fn pct_abs(rel: f64) -> String {
    let p = rel.abs() * 100.0;
    let digits = usize::from(p < 10.0);
    format!("{}%", crate::numbers::bounded(p, digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_read_well() {
        assert_eq!(pct(0.0476), "+4.8%");
        assert_eq!(pct(-0.23), "−23%");
        assert_eq!(pct(0.0), "0.0%");
        assert_eq!(pct_abs(0.058), "5.8%");
        // A per-user rate of 5e-324 against 1: the two are infinitely far apart, said so.
        assert_eq!(pct_abs(1.0 / 5e-324 - 1.0), "∞%");
        assert_eq!(pct_abs(1.0 / 1e-300 - 1.0), "1e302%");
        assert_eq!(num(537.63), "537.6");
        assert_eq!(num(1.0476), "1.048");
        assert_eq!(num(4623.36), "4,623");
    }
}
