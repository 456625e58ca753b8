//! The packed canonical form stands in for the text exactly: over generated canonical forms
//! (any set of keys, values of every JSON kind, numbers that are prefixes of each other, keys
//! that are prefixes of each other, the `unpooled` key after the rest), it reads back to the
//! text byte for byte, hashes as the text does, and sorts every pair as the texts sort.

use super::fields::DEFINING_FIELDS;
use super::packed::{Packer, UNPOOLED, unpack};
use super::{Fingerprint, fnv1a, json_string};

/// Draws from [`crate::seeded`]: a fixed sequence, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        crate::seeded::below(&mut self.0, n)
    }

    /// A canonical JSON value: numbers chosen to be prefixes of one another, strings with
    /// escapes, control characters and non-ASCII text, literals, a labels object.
    fn value(&mut self) -> String {
        const NUMBERS: [&str; 10] = [
            "6", "60", "600", "6.5", "6.55", "0", "1", "16", "-1", "1e21",
        ];
        const WORDS: [&str; 9] = [
            "",
            "vllm",
            "vllm-0",
            "a\"b",
            "a\\b",
            "\u{1}",
            "\u{7f}x",
            "Qwen3 · fp8",
            "}",
        ];
        match self.below(5) {
            0 => NUMBERS[self.below(NUMBERS.len())].to_string(),
            1 => json_string(WORDS[self.below(WORDS.len())]),
            2 => ["true", "false"][self.below(2)].to_string(),
            3 => format!(
                "{{\"{}\":{}}}",
                WORDS[self.below(3)],
                json_string(WORDS[self.below(WORDS.len())])
            ),
            _ => {
                let s: String = (0..self.below(4))
                    .map(|_| char::from(b"ab,}:\"{ "[self.below(8)]))
                    .collect();
                json_string(&s)
            }
        }
    }

    /// Fields of a canonical form, sorted by key as the builder sorts them; sometimes the
    /// `unpooled` key after them. Few keys from a small pool, so that forms share prefixes.
    fn fields(&mut self) -> Vec<(&'static str, String)> {
        let pool = &DEFINING_FIELDS[..DEFINING_FIELDS.len().min(3 + self.below(8))];
        let mut keys: Vec<&'static str> = (0..self.below(5))
            .map(|_| pool[self.below(pool.len())])
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut fields: Vec<(&'static str, String)> =
            keys.into_iter().map(|k| (k, self.value())).collect();
        if self.below(4) == 0 {
            fields.push((UNPOOLED, json_string(&format!("r{}", self.below(3)))));
        }
        fields
    }
}

/// The canonical text as the builder always wrote it.
fn text(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", json_string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

fn packed(fields: &[(&str, String)]) -> Box<[u8]> {
    let mut packer = Packer::default();
    for (k, v) in fields {
        packer.field(k, v);
    }
    packer.finish()
}

#[test]
fn packed_forms_read_back_hash_and_sort_as_their_texts() {
    let mut rng = Rng(0x5eed_f1a9);
    let forms: Vec<(String, Box<[u8]>)> = (0..1500)
        .map(|_| {
            let fields = rng.fields();
            (text(&fields), packed(&fields))
        })
        .collect();
    for (t, p) in &forms {
        assert_eq!(&unpack(p), t);
        let mut hash = super::Fnv1a::default();
        super::packed::unpack_into(p, &mut |piece| hash.write(piece));
        assert_eq!(hash.0, fnv1a(t.as_bytes()), "{t}");
    }
    for (ta, pa) in &forms {
        for (tb, pb) in forms.iter().step_by(7) {
            assert_eq!(pa.cmp(pb), ta.cmp(tb), "{ta} against {tb}");
        }
    }
}

#[test]
fn a_number_that_begins_another_sorts_as_in_the_text() {
    // `6` begins `60`: in the text the shorter is followed by `,` (below `0`) when a key
    // follows and by `}` (above it) when the form ends there.
    let key = DEFINING_FIELDS[0];
    let later = DEFINING_FIELDS[1];
    let cases = [
        (vec![(key, "6".to_string())], vec![(key, "60".to_string())]),
        (
            vec![(key, "6".to_string()), (later, "1".to_string())],
            vec![(key, "60".to_string())],
        ),
        (
            vec![(key, "6".to_string())],
            vec![(key, "6".to_string()), (later, "1".to_string())],
        ),
        (vec![(key, "6".to_string())], vec![(key, "6.5".to_string())]),
    ];
    for (a, b) in cases {
        let (ta, tb) = (text(&a), text(&b));
        assert_ne!(ta.cmp(&tb), std::cmp::Ordering::Equal);
        assert_eq!(
            packed(&a).cmp(&packed(&b)),
            ta.cmp(&tb),
            "{ta} against {tb}"
        );
    }
}

#[test]
fn every_key_a_fingerprint_is_built_with_has_a_rank() {
    // Every key is written back by name, so none fell past the ranked table to `?`.
    let doc: crate::model::ResultDoc =
        serde_json::from_value(super::tests::complete()).expect("a complete result");
    for print in [
        Fingerprint::of(&doc),
        Fingerprint::setup_of(&doc),
        Fingerprint::unpooled(&doc, "r.json#0"),
    ] {
        let canonical = print.canonical();
        assert!(!canonical.contains("\"?\""), "{canonical}");
        let fields: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&canonical).expect("the canonical form is JSON");
        assert!(fields.len() > 20, "{canonical}");
        for key in fields.keys() {
            assert!(
                DEFINING_FIELDS.contains(&key.as_str()) || key == UNPOOLED,
                "{key}"
            );
        }
    }
}
