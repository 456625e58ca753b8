//! Reading counts the way each engine's argument parser reads them.

use serde_json::Value;

use super::flags::NumStyle;

use super::is_digits;

/// A count as the engine would read it.
pub(super) enum Count {
    Value(u64),
    /// `auto` / `-1`: the engine chooses, or the feature is off; nothing to record.
    EngineChooses,
    Invalid,
}

/// Reads a count written in `style`.
pub(super) fn parse_count(v: &str, style: NumStyle) -> Count {
    // Python's int() ignores surrounding whitespace and a leading `+`.
    let v = v.trim();
    let sentinel = match style {
        NumStyle::HumanOrAuto => v == "-1" || v.eq_ignore_ascii_case("auto"),
        NumStyle::PlainOrOff => v == "-1",
        NumStyle::Plain | NumStyle::Human => false,
    };
    if sentinel {
        return Count::EngineChooses;
    }
    let digits = v.strip_prefix('+').unwrap_or(v);
    if let Ok(n) = digits.parse::<u64>()
        && is_digits(digits)
    {
        return Count::Value(n);
    }
    let human = matches!(style, NumStyle::Human | NumStyle::HumanOrAuto);
    match human.then(|| human_count(v)).flatten() {
        Some(n) => Count::Value(n),
        None => Count::Invalid,
    }
}

/// vLLM's `human_readable_int`: `k m g t` are powers of 1000 and allow a decimal part
/// (`25.6k`), `K M G T` are powers of 1024 and do not. Decimals are truncated, as `int()` does.
fn human_count(v: &str) -> Option<u64> {
    let suffix = v.chars().last()?;
    let number = &v[..v.len() - suffix.len_utf8()];
    let (mult, decimal): (u64, bool) = match suffix {
        'k' => (1_000, true),
        'm' => (1_000_000, true),
        'g' => (1_000_000_000, true),
        't' => (1_000_000_000_000, true),
        'K' => (1 << 10, false),
        'M' => (1 << 20, false),
        'G' => (1 << 30, false),
        'T' => (1 << 40, false),
        _ => return None,
    };
    let (int, frac) = match number.split_once('.') {
        Some((int, frac)) if decimal && is_digits(frac) => (int, frac),
        Some(_) => return None,
        None => (number, ""),
    };
    if !is_digits(int) {
        return None;
    }
    let whole = int.parse::<u64>().ok()?.checked_mul(mult)?;
    // The fraction contributes frac * mult / 10^len; only the first digits can matter.
    let mut part = 0u64;
    let mut scale = mult;
    for d in frac.bytes().take(13) {
        scale /= 10;
        part += u64::from(d - b'0') * scale;
    }
    whole.checked_add(part)
}

/// A token count in JSON: a number, or a string of digits (pydantic coerces those).
pub(super) fn json_count(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => match parse_count(s, NumStyle::Plain) {
            Count::Value(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}
