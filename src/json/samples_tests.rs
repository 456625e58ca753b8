//! The sample reader against serde_json's doubles, over drawn spellings and lengths.

use super::*;

/// `serde_json`'s doubles for the array `text`.
fn by_serde(text: &str) -> Vec<u64> {
    serde_json::from_str::<Vec<f64>>(text)
        .unwrap()
        .into_iter()
        .map(f64::to_bits)
        .collect()
}

#[test]
fn short_decimals_are_the_doubles_serde_json_reads() {
    // A deterministic spread of digit counts, fraction lengths and values.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut tokens = vec![
        "0".to_string(),
        "0.0".into(),
        "0.000000000000001".into(),
        "0.0000000000000000000001".into(),
        "0.00000123456789012345".into(),
        "999999999999999".into(),
        "900719925474.993".into(),
    ];
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let digits = 1 + (x % 15) as usize;
        let body = format!("{:015}", x % 1_000_000_000_000_000);
        let body = body[15 - digits..].trim_start_matches('0');
        let body = if body.is_empty() { "0" } else { body };
        let fraction = ((x >> 20) % (body.len() as u64 + 1)) as usize;
        let token = if fraction == 0 || fraction == body.len() {
            if fraction == 0 {
                body.to_string()
            } else {
                format!("0.{body}")
            }
        } else {
            format!(
                "{}.{}",
                &body[..body.len() - fraction],
                &body[body.len() - fraction..]
            )
        };
        tokens.push(token);
    }
    let text = format!("[{}]", tokens.join(",\n  "));
    let (fast, end) = short_decimals(text.as_bytes(), usize::MAX).unwrap();
    assert_eq!(end, text.len());
    let fast: Vec<u64> = fast.into_iter().map(f64::to_bits).collect();
    assert_eq!(fast, by_serde(&text));
}

#[test]
fn other_spellings_go_to_serde_json() {
    for text in [
        "[1e3]",
        "[1234567890123456]",
        "[0.1234567890123456]",
        "[0.00000000000000000000001]",
        "[01]",
        "[1.]",
        "[.5]",
        "[1,]",
        "[-1]",
        "[1]x",
    ] {
        assert_eq!(short_decimals(text.as_bytes(), 10), None, "{text}");
    }
    assert_eq!(read_numbers("[1e3, 2]", 10), Some((vec![1000.0, 2.0], 8)));
    assert_eq!(short_decimals(b"[ ]", 10), Some((vec![], 3)));
    assert_eq!(short_decimals(b"[1, 2, 3]", 2), None);
    assert_eq!(any_numbers("[1e0, 2, 3]", 2), None);
    assert_eq!(any_numbers("[1e0, 2]", 2), Some((vec![1.0, 2.0], 8)));
    assert_eq!(any_numbers("[1e0, 2]x", 2), None);
    assert_eq!(any_numbers("[ ]", 2), Some((vec![], 3)));
}

#[test]
fn numbers_from_zero_up_are_read_with_the_array_length() {
    let text = "[1, 0.5,\n 2e3, 0]  , 7";
    let (values, end) = read_numbers(text, 10).unwrap();
    assert_eq!(values, [1.0, 0.5, 2000.0, 0.0]);
    assert_eq!(&text[..end], "[1, 0.5,\n 2e3, 0]");
}

#[test]
fn anything_the_schema_or_the_scan_would_report_is_left_alone() {
    for text in [
        "[1, \"2\"]",
        "[1, null]",
        "[1, NaN]",
        "[Infinity]",
        "[1e999]",
        "[18446744073709551616]",
        "[[1]]",
        "[1, {}]",
        "[1, 2",
        "[1 2]",
        "{}",
    ] {
        assert_eq!(read_numbers(text, 10), None, "{text}");
    }
    assert_eq!(read_numbers("[1, 2, 3]", 2), None, "over the array bound");
}

#[test]
fn the_same_doubles_as_the_value_path() {
    let text = "[0.1, 3, 12345678901234567, 2.5e-308, 8.9e18, 0.30000000000000004, 1E2, 0e0]";
    let (values, _) = read_numbers(text, 100).unwrap();
    let via_value: Vec<u64> = serde_json::from_str::<Value>(text)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_f64)
        .map(f64::to_bits)
        .collect();
    assert_eq!(
        values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        via_value
    );
    assert_eq!(read_numbers("[9.3e18]", 10), None, "may be a wide integer");
    assert_eq!(read_numbers("[-9.3e18]", 10), None, "may be a wide integer");
    let (negative, _) = read_numbers("[1, -2, -0, -0.0, -1.5e2]", 10).unwrap();
    assert_eq!(
        negative.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        by_serde("[1, -2, -0, -0.0, -1.5e2]")
    );
}

#[test]
fn a_long_array_is_read_into_a_list_of_its_own_length() {
    // Arrays of drawn lengths, of short decimals (read here) and of exponents (read by
    // serde_json): the same numbers as serde_json reads, and past the first few thousand a
    // list made to the array's length, not grown by doubling (a file of millions of
    // latencies held three times their size).
    let mut state = 29;
    for round in 0..24 {
        let n = match round {
            0 => SIZED_FROM - 1,
            1 => SIZED_FROM,
            2 => SIZED_FROM + 1,
            _ => crate::seeded::below(&mut state, 200_000),
        };
        let short = round % 2 == 0;
        let numbers: Vec<String> = (0..n)
            .map(|k| {
                let d = crate::seeded::below(&mut state, 100_000);
                if short {
                    format!("{}.{}", d / 100, d % 100 + k % 3)
                } else {
                    format!("{d}e-{}", k % 4)
                }
            })
            .collect();
        let text = format!("[{}]", numbers.join(", "));
        let (values, end) = read_numbers(&text, 1_000_000).expect("numbers");
        assert_eq!((values.len(), end), (n, text.len()), "round {round}");
        let expected: Vec<f64> = serde_json::from_str(&text).expect("JSON");
        assert!(
            values
                .iter()
                .zip(&expected)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        if n > SIZED_FROM || !short {
            assert_eq!(values.capacity(), n, "round {round}: {n} numbers");
        }
    }
    // Past the bound, the list stops at the bound too.
    let text = format!("[{}]", vec!["7"; 50].join(","));
    assert_eq!(read_numbers(&text, 10), None);
    let long = format!("[{}]", vec!["7"; SIZED_FROM * 2].join(","));
    assert_eq!(read_numbers(&long, SIZED_FROM + 10), None);
}
