//! The streamed writers hand the output their text a chunk at a time: the findings known only at
//! the end of a run (tens of thousands on a corpus of distinct configurations) are never built
//! into one buffer.

use std::io::{self, Write};

use super::{Stream, Streamed};
use crate::diagnostic::{Finding, Location, Severity};
use crate::engine::Summary;
use crate::report::spill::CHUNK;
use crate::rules::RULES;
use crate::text::Text;

/// An output that keeps what it is given and the largest piece it was given at once.
#[derive(Default)]
struct Recording {
    bytes: Vec<u8>,
    largest: usize,
}

impl Write for Recording {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.largest = self.largest.max(buf.len());
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `n` corpus-wide findings, as a replication rule makes them: one per configuration, on
/// the corpus, with a message of about two hundred characters.
fn corpus_findings(n: usize) -> Vec<Finding> {
    (0..n)
        .map(|k| {
            let mut message = Text::own("configuration ");
            message.push_file(format!("cfg-{k:06}"));
            message.push_own(
                " was measured in 1 run from 1 launch; a published figure needs 15 runs from at \
                 least 3 launches so that its interval covers the spread between launches",
            );
            Finding {
                rule: RULES[k % RULES.len()].meta,
                severity: Severity::Warning,
                pre_rule: false,
                primary: Location::new("corpus", ""),
                corpus: true,
                related: Vec::new(),
                message,
                label: None,
                help: None,
                absent: None,
                key: None,
                placed: None,
            }
        })
        .collect()
}

/// The numbers of the configurations `text` names (`cfg-000123`), in the order named.
fn configurations_named(text: &str) -> Vec<usize> {
    text.match_indices("cfg-")
        .filter_map(|(at, _)| text.get(at + 4..at + 10)?.parse().ok())
        .collect()
}

fn streamed(format: Streamed, n: usize) -> Recording {
    let mut out = Recording::default();
    let mut stream = Stream::start(format, &mut out, 1 << 20);
    stream.write(corpus_findings(n));
    stream.finish(&Summary {
        warnings: n,
        ..Summary::default()
    });
    out
}

#[test]
fn the_last_findings_of_a_run_reach_the_output_in_chunks_not_whole() {
    let n = 8_000;
    for format in [Streamed::Json, Streamed::JsonLines, Streamed::Concise] {
        let out = streamed(format, n);
        assert!(
            out.bytes.len() > 20 * CHUNK,
            "{format:?}: {} bytes written",
            out.bytes.len()
        );
        // A chunk, plus the one finding that took it past the mark.
        assert!(
            out.largest < CHUNK + 4096,
            "{format:?}: a piece of {} bytes against a chunk of {CHUNK}",
            out.largest
        );
        let text = String::from_utf8(out.bytes).unwrap();
        let mut mentioned = configurations_named(&text);
        mentioned.sort_unstable();
        assert!(
            mentioned.iter().copied().eq(0..n),
            "{format:?}: every finding is written once"
        );
    }
}

#[test]
fn the_chunked_json_document_is_one_document_with_every_finding_in_order() {
    let n = 5_000;
    let out = streamed(Streamed::Json, n);
    let doc: serde_json::Value = serde_json::from_slice(&out.bytes).unwrap();
    let diagnostics = doc["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), n);
    for (k, d) in diagnostics.iter().enumerate() {
        let message = d["message"].as_str().unwrap();
        assert_eq!(
            configurations_named(message),
            [k],
            "diagnostic {k}: {message}"
        );
    }
    assert_eq!(doc["summary"]["warnings"], n);
}

#[test]
fn a_closed_output_stops_the_writing_without_a_panic() {
    struct Closed(usize);
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            self.0 += 1;
            Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    for format in [Streamed::Json, Streamed::JsonLines, Streamed::Concise] {
        let mut out = Closed(0);
        let mut stream = Stream::start(format, &mut out, 1 << 20);
        stream.write(corpus_findings(3_000));
        stream.write(corpus_findings(10));
        stream.finish(&Summary::default());
        assert!(
            out.0 <= 2,
            "{format:?}: {} writes after the pipe closed",
            out.0
        );
    }
}
