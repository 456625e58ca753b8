//! What a YAML scalar means as JSON: the YAML 1.2 core schema for plain scalars, plus the
//! YAML 1.1 booleans (`yes`, `no`, `on`, `off`) that PyYAML reads, since the files read here
//! are written and read back by Python tools. Quoted and block scalars are always strings.

use serde_json::{Number, Value};

/// The JSON value of a plain (unquoted) scalar.
///
/// Non-finite floats (`.inf`, `-.inf`, `.nan`) become the strings `"Infinity"`,
/// `"-Infinity"` and `"NaN"`, as the JSON reader reads Python's bare tokens, so adapters see
/// one spelling whichever format the file was saved in. An integer beyond 64 bits is read as
/// the nearest double, as the JSON reader does.
pub fn plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
            return Value::Bool(true);
        }
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            return Value::Bool(false);
        }
        _ => {}
    }
    if let Some(v) = integer(text) {
        return v;
    }
    if let Some(v) = float(text) {
        return v;
    }
    Value::String(text.to_string())
}

fn integer(text: &str) -> Option<Value> {
    if let Some(hex) = text.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok().map(Value::from);
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return u64::from_str_radix(oct, 8).ok().map(Value::from);
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let unsigned = text.strip_prefix('+').unwrap_or(text);
    if let Ok(i) = unsigned.parse::<i64>() {
        return Some(Value::from(i));
    }
    if let Ok(u) = unsigned.parse::<u64>() {
        return Some(Value::from(u));
    }
    // Wider than 64 bits: the nearest double, as serde_json reads such a number.
    unsigned
        .parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Value::Number)
}

fn float(text: &str) -> Option<Value> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    match body {
        ".inf" | ".Inf" | ".INF" => {
            let word = if negative { "-Infinity" } else { "Infinity" };
            return Some(Value::String(word.into()));
        }
        ".nan" | ".NaN" | ".NAN" if text == body => return Some(Value::String("NaN".into())),
        _ => {}
    }
    if !is_float_shape(body) {
        return None;
    }
    let f: f64 = text.strip_prefix('+').unwrap_or(text).parse().ok()?;
    // `1e999` is a number too large for a double: kept as written rather than invented.
    Some(Number::from_f64(f).map_or_else(|| Value::String(text.to_string()), Value::Number))
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema's float.
fn is_float_shape(body: &str) -> bool {
    let bytes = body.as_bytes();
    let mut i = 0;
    let int_digits = count_digits(&bytes[i..]);
    i += int_digits;
    let mut frac_digits = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = count_digits(&bytes[i..]);
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_digits = count_digits(&bytes[i..]);
        if exp_digits == 0 {
            return false;
        }
        i += exp_digits;
    }
    i == bytes.len()
}

fn count_digits(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_core_schema_and_python_booleans() {
        assert_eq!(plain("~"), Value::Null);
        assert_eq!(plain(""), Value::Null);
        assert_eq!(plain("True"), json!(true));
        assert_eq!(plain("off"), json!(false));
        assert_eq!(plain("42"), json!(42));
        assert_eq!(plain("-7"), json!(-7));
        assert_eq!(plain("+7"), json!(7));
        assert_eq!(plain("0x1F"), json!(31));
        assert_eq!(plain("0o17"), json!(15));
        assert_eq!(plain("18446744073709551615"), json!(u64::MAX));
        assert_eq!(plain("1.5e-3"), json!(0.0015));
        assert_eq!(plain("1e3"), json!(1000.0));
        assert_eq!(plain(".5"), json!(0.5));
        assert_eq!(plain("2."), json!(2.0));
        assert_eq!(plain(".inf"), json!("Infinity"));
        assert_eq!(plain("-.inf"), json!("-Infinity"));
        assert_eq!(plain(".nan"), json!("NaN"));
        assert_eq!(plain("1e999"), json!("1e999"));
    }

    #[test]
    fn anything_else_is_text() {
        for s in [
            "1.2.3",
            "v0.8.1",
            "e5",
            "1e",
            "-",
            ".",
            "0x",
            "12:30",
            "NaN",
            "yes please",
        ] {
            assert_eq!(plain(s), json!(s), "{s}");
        }
    }
}
