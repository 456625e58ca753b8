//! A canonical document whose per-request sample arrays were left in the file's text written
//! out as if they had been read into it: each array's numbers are read from the text one at a
//! time as they are written, so a result of millions of samples is never held as JSON values
//! (32 bytes and more a number, against the text's few).
//!
//! The bytes are those of the document read whole: each number is read by `serde_json`, as it
//! is when the whole array is, and written by the same serializer.

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Number, Value};

use super::SampleArray;

/// Where one sample array held apart from its document lies: the level and metric it fills
/// (`levels[level].samples.<metric>`) and its text, `[` to `]`, in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleSpan {
    /// Index of the level in `levels`.
    pub level: usize,
    /// The metric, one of [`super::SAMPLE_METRICS`].
    pub metric: &'static str,
    /// Byte offset of the array's `[` in the file.
    pub start: usize,
    /// One past its `]`.
    pub end: usize,
}

impl From<&SampleArray> for SampleSpan {
    fn from(s: &SampleArray) -> Self {
        SampleSpan {
            level: s.level,
            metric: s.metric,
            start: s.start,
            end: s.end,
        }
    }
}

/// `value`, with each array of `spans` (read from `text`, the file the document was read
/// from) in the place that stands for it. Serialises as [`crate::json::restore_samples`] would
/// have made `value`: a span whose place is gone (its level cut at the bound) or holds anything
/// but the `[]` standing for it is left out, as that function leaves it. A span whose text is
/// no array of numbers is an error, never an empty array.
pub struct WithSamples<'a> {
    value: &'a Value,
    spans: &'a [SampleSpan],
    text: &'a str,
}

impl<'a> WithSamples<'a> {
    /// `value` with the arrays of `spans` read from `text`.
    pub fn new(value: &'a Value, spans: &'a [SampleSpan], text: &'a str) -> Self {
        WithSamples { value, spans, text }
    }

    /// The part of the document at `value`, found at `at`.
    fn node(&'a self, value: &'a Value, at: At) -> Node<'a> {
        Node {
            whole: self,
            value,
            at,
        }
    }
}

impl Serialize for WithSamples<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.spans.is_empty() {
            return self.value.serialize(s);
        }
        self.node(self.value, At::Root).serialize(s)
    }
}

/// Where a part lies on the way down to the sample arrays.
#[derive(Clone, Copy)]
enum At {
    Root,
    Levels,
    Level(usize),
    Samples(usize),
}

/// A part of the document on the way to its sample arrays.
struct Node<'a> {
    whole: &'a WithSamples<'a>,
    value: &'a Value,
    at: At,
}

/// What a member or an item is written as.
enum Part<'a> {
    Held(&'a Value),
    Node(Node<'a>),
    Numbers(Numbers<'a>),
}

impl Serialize for Part<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Part::Held(v) => v.serialize(s),
            Part::Node(n) => n.serialize(s),
            Part::Numbers(n) => n.serialize(s),
        }
    }
}

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let whole = self.whole;
        match (self.at, self.value) {
            (At::Levels, Value::Array(items)) => {
                let mut out = s.serialize_seq(Some(items.len()))?;
                for (i, level) in items.iter().enumerate() {
                    if whole.spans.iter().any(|sp| sp.level == i) {
                        out.serialize_element(&whole.node(level, At::Level(i)))?;
                    } else {
                        out.serialize_element(level)?;
                    }
                }
                out.end()
            }
            (at, Value::Object(map)) => {
                let mut out = s.serialize_map(Some(map.len()))?;
                for (key, v) in map {
                    out.serialize_entry(key, &self.member(at, key, v))?;
                }
                out.end()
            }
            (_, v) => v.serialize(s),
        }
    }
}

impl<'a> Node<'a> {
    /// How the member `key` (value `v`) of the object at `at` is written.
    fn member(&self, at: At, key: &str, v: &'a Value) -> Part<'a> {
        let whole = self.whole;
        match at {
            At::Root if key == "levels" => Part::Node(whole.node(v, At::Levels)),
            At::Level(i) if key == "samples" => Part::Node(whole.node(v, At::Samples(i))),
            // The place stands for the array only while it holds the `[]` put there; the last
            // span of a place wins, as restoring them in order leaves it.
            At::Samples(i) if matches!(v, Value::Array(a) if a.is_empty()) => whole
                .spans
                .iter()
                .rev()
                .find(|sp| sp.level == i && sp.metric == key)
                .map_or(Part::Held(v), |sp| {
                    Part::Numbers(Numbers {
                        text: whole.text.get(sp.start..sp.end),
                    })
                }),
            _ => Part::Held(v),
        }
    }
}

/// One sample array, read from its text a number at a time.
struct Numbers<'a> {
    /// The array's text, `[` to `]` (`None`: the span lies outside the file's text).
    text: Option<&'a str>,
}

impl Serialize for Numbers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let inner = self
            .text
            .and_then(|t| t.strip_prefix('['))
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(|| {
                S::Error::custom("a sample array held apart is no longer in its file's text")
            })?;
        let mut out = s.serialize_seq(None)?;
        // A number holds no comma: each piece between two is one number (`[]`: none at all).
        if !inner.trim().is_empty() {
            for token in inner.split(',') {
                let n: Number = serde_json::from_str(token).map_err(|e| {
                    S::Error::custom(format!(
                        "a sample array held apart no longer reads as numbers: {e}"
                    ))
                })?;
                out.serialize_element(&n)?;
            }
        }
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Limits, SAMPLE_METRICS, parse_text_typed, parse_text_with};
    use crate::seeded::below;
    use crate::text::json::pretty_line;

    const SCHEMA: &str = "benchlint/result/v1";

    /// A number as a harness may spell one: integers, decimals of every length, exponents,
    /// signs, zeros, integers past 2^53, each with drawn whitespace around it.
    fn token(state: &mut u64) -> String {
        let spellings = [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "7",
            "-3",
            "12.5",
            "0.000123",
            "1e3",
            "2.5E-4",
            "-1.5e+2",
            "123456789012345678",
            "9007199254740993",
            "0.1234567890123456789",
            "1E0",
            "100",
            "3.0",
            "4.10",
            "65535.25",
        ];
        let spaces = ["", " ", "\n  ", "\t", "\r\n"];
        format!(
            "{}{}{}",
            spaces[below(state, spaces.len())],
            spellings[below(state, spellings.len())],
            spaces[below(state, spaces.len())]
        )
    }

    /// A canonical document's text: levels with sample arrays among other members, in drawn
    /// orders, some arrays empty, some metrics absent, some written twice.
    fn document(state: &mut u64) -> String {
        let mut levels = Vec::new();
        for level in 0..=below(state, 3) {
            let mut members = vec![format!("\"concurrency\": {}", level + 1)];
            let mut samples = Vec::new();
            for metric in SAMPLE_METRICS {
                if below(state, 4) == 0 {
                    continue;
                }
                // A metric written twice now and then: the last is the one read.
                for _ in 0..=usize::from(below(state, 6) == 0) {
                    let n = [0, 1, 2, 5, 40][below(state, 5)];
                    let numbers: Vec<String> = (0..n).map(|_| token(state)).collect();
                    samples.push(format!("\"{metric}\": [{}]", numbers.join(",")));
                }
            }
            if below(state, 3) == 0 {
                samples.push("\"note\": \"not a metric\"".into());
            }
            let at = below(state, 2);
            members.insert(at, format!("\"samples\": {{{}}}", samples.join(", ")));
            members.push("\"requests\": 10".into());
            levels.push(format!("{{{}}}", members.join(", ")));
        }
        format!(
            "{{\"schema\": \"{SCHEMA}\", \"id\": \"r\", \"levels\": [{}], \"notes\": \"end\"}}",
            levels.join(", ")
        )
    }

    /// The document of `text` as read with its sample arrays left in the text.
    fn apart(text: &str) -> (Value, Vec<SampleSpan>) {
        let mut parsed = parse_text_typed(text, false, &Limits::default(), SCHEMA);
        let doc = parsed.documents.remove(0);
        let spans = doc.samples.iter().map(SampleSpan::from).collect();
        (doc.value, spans)
    }

    fn whole(text: &str) -> Value {
        parse_text_with(text, false, &Limits::default())
            .documents
            .remove(0)
            .value
    }

    #[test]
    fn a_document_written_with_its_samples_apart_is_the_document_read_whole() {
        let mut state = 0x5EED_0001;
        let mut held_apart = 0;
        for _ in 0..300 {
            let text = document(&mut state);
            let (value, spans) = apart(&text);
            held_apart += spans.len();
            assert_eq!(
                String::from_utf8(pretty_line(&WithSamples::new(&value, &spans, &text))).unwrap(),
                String::from_utf8(pretty_line(&whole(&text))).unwrap(),
                "{text}"
            );
        }
        // The generator reaches the path under test: most arrays are read apart.
        assert!(held_apart > 300, "{held_apart} arrays held apart");
    }

    #[test]
    fn a_place_that_no_longer_stands_for_its_array_is_written_as_held() {
        let text = format!(
            "{{\"schema\": \"{SCHEMA}\", \"levels\": [{{\"samples\": {{\"ttft_s\": [1, 2]}}}}, {{\"samples\": {{\"tpot_ms\": [3]}}}}]}}"
        );
        let (mut value, spans) = apart(&text);
        assert_eq!(spans.len(), 2);
        // The second level cut at a bound, the first's array replaced by a sidecar's value.
        value["levels"].as_array_mut().unwrap().truncate(1);
        value["levels"][0]["samples"]["ttft_s"] = serde_json::json!("given");
        let written = pretty_line(&WithSamples::new(&value, &spans, &text));
        assert_eq!(written, pretty_line(&value));
    }

    #[test]
    fn an_array_no_longer_in_the_text_is_an_error_not_an_empty_array() {
        let text = format!(
            "{{\"schema\": \"{SCHEMA}\", \"levels\": [{{\"samples\": {{\"ttft_s\": [1, 2]}}}}]}}"
        );
        let (value, spans) = apart(&text);
        // The text of another file, shorter; of one whose bytes there are no array; of one
        // whose array no longer reads as numbers.
        let other = text.replace("[1, 2]", "\"1, 2\"");
        let garbled = text.replace("[1, 2]", "[1, x]");
        for file in ["{}", other.as_str(), garbled.as_str()] {
            let mut out = Vec::new();
            let written = crate::text::json::to_writer_pretty(
                &mut out,
                &WithSamples::new(&value, &spans, file),
            );
            assert!(written.is_err(), "{file}");
        }
    }

    /// Numbers JSON does not allow, in a sample array: the document is read as the whole-text
    /// read reads it, and what is written back is that or an error, never other numbers.
    #[test]
    fn spellings_json_refuses_are_never_written_back_as_other_numbers() {
        for token in [
            "01", "1.", ".5", "+1", "-", "1e", "0x10", "1e400", "-1e400", "NaN", "Infinity", "1_0",
            "１",
        ] {
            let text = format!(
                "{{\"schema\": \"benchlint/result/v1\", \"levels\": [{{\"samples\": {{\"ttft_s\": [1, {token}, 2]}}}}]}}"
            );
            let limits = Limits::default();
            let mut typed = parse_text_typed(&text, false, &limits, "benchlint/result/v1");
            let mut whole = parse_text_with(&text, false, &limits);
            let (t, w) = match (typed.documents.pop(), whole.documents.pop()) {
                (Some(t), Some(w)) => (t, w),
                (None, None) => continue,
                _ => panic!("{token}: one read found a document and the other none"),
            };
            let spans: Vec<SampleSpan> = t.samples.iter().map(SampleSpan::from).collect();
            let mut out = Vec::new();
            let written = crate::text::json::to_writer_pretty(
                &mut out,
                &WithSamples::new(&t.value, &spans, &text),
            );
            if written.is_ok() {
                let mut expected = Vec::new();
                crate::text::json::to_writer_pretty(&mut expected, &w.value).unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    String::from_utf8(expected).unwrap(),
                    "{token}"
                );
            }
        }
    }
}
