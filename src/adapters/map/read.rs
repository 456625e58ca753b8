//! Reading values the way harnesses write them: numbers and numeric strings, counts, flags,
//! names, request rates (`inf` kept), and unit scaling that keeps decimal values exact.

use serde_json::Value;

/// A finite number, from a JSON number or a numeric string (llmperf writes `"550"`);
/// `NaN` and infinities (bare or as strings) are not numbers here.
pub(crate) fn number(v: &Value) -> Option<f64> {
    let f = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    f.is_finite().then_some(f)
}

/// A non-negative whole number (`66.0` counts; `66.5` does not).
pub(crate) fn count(v: &Value) -> Option<u64> {
    if let Some(u) = v.as_u64() {
        return Some(u);
    }
    let f = number(v)?;
    if !(f >= 0.0 && f.fract() == 0.0 && f < 9.0e15) {
        return None;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "checked whole, non-negative and in range"
    )]
    let n = f as u64;
    Some(n)
}

/// A boolean, also from the strings user metadata carries (`"true"`, `"False"`, `"1"`).
pub(crate) fn flag(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(true),
            "false" | "0" | "no" => Some(false),
            _ => None,
        },
        Value::Number(n) => match n.as_f64() {
            Some(1.0) => Some(true),
            Some(0.0) => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A non-empty string (numbers written where a name belongs are taken as their text).
pub(crate) fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A request rate as the harnesses write it: a number, vLLM's `"inf"`, `SGLang`'s bare
/// `Infinity` (a string after the tolerant parser), or a word such as `SGLang`'s `"trace"`.
pub(crate) fn rate(v: &Value) -> Option<Value> {
    match v {
        Value::Number(_) => number(v).filter(|f| *f >= 0.0).map(Value::from),
        Value::String(s) => {
            let t = s.trim();
            if matches!(
                t.to_ascii_lowercase().as_str(),
                "inf" | "+inf" | "infinity" | "+infinity"
            ) {
                Some(Value::from("inf"))
            } else if let Ok(f) = t.parse::<f64>() {
                (f.is_finite() && f >= 0.0).then(|| Value::from(f))
            } else if t.is_empty() || t.eq_ignore_ascii_case("nan") {
                None
            } else {
                Some(Value::from(t))
            }
        }
        _ => None,
    }
}

/// `value × scale`, dividing by the whole reciprocal for a unit step down (ms to s is `/ 1000`,
/// which keeps `388.1` ms as `0.3881` s where `× 0.001` would give `0.38810000000000006`).
pub(crate) fn scaled(value: f64, scale: f64) -> f64 {
    if scale > 0.0 && scale < 1.0 {
        let divisor = (1.0 / scale).round();
        if (divisor * scale - 1.0).abs() < 1e-9 {
            return value / divisor;
        }
    }
    value * scale
}
