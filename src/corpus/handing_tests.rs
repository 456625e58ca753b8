//! Results handed to a command that writes them out (`import`, `sidecar`): each exactly once,
//! with the text it was read from; a JSON Lines file's a chunk of lines at a time when the
//! command takes them so, whole otherwise; and lean once handed.

use std::sync::Mutex;

use super::{Handed, Handing, LoadedResult, Options, load_streaming};
use crate::seeded::below;

/// `n` canonical results, one a line, with sample arrays of drawn lengths.
fn lines(n: usize) -> String {
    use std::fmt::Write as _;
    let mut state = 0x4A4E_D001;
    let mut text = String::new();
    for i in 0..n {
        let samples: Vec<String> = (0..below(&mut state, 6))
            .map(|_| below(&mut state, 900).to_string())
            .collect();
        let _ = writeln!(
            text,
            "{{\"schema\": \"benchlint/result/v1\", \"id\": \"r{i}\", \"measured_at\": \"2026-09-01T00:00:00Z\", \"outcome\": \"ok\", \"levels\": [{{\"concurrency\": 4, \"requests\": 10, \"duration_s\": 5.0, \"samples\": {{\"ttft_s\": [{}]}}}}]}}",
            samples.join(", ")
        );
    }
    text
}

/// What each handing saw: the ids handed, whether each still had its JSON, how many sample
/// arrays it held apart, and the text handed with them: where it starts in the file, the text,
/// and whether every result's document and sample arrays lie in it.
type Seen = Vec<(Vec<String>, usize, usize, (usize, String, bool))>;

fn hand_all(path: &std::path::Path, in_chunks: bool, apart: bool) -> (Seen, Vec<LoadedResult>) {
    let seen: Mutex<Seen> = Mutex::new(Vec::new());
    let to = |handed: Handed<'_>| {
        let (results, text, base) = (handed.results, handed.text, handed.base);
        let ids = results.iter().map(|r| r.doc.id.clone()).collect();
        let with_json = results.iter().filter(|r| !r.value.is_null()).count();
        let held_apart = results.iter().map(|r| r.value.samples_apart().len()).sum();
        let inside = |at: usize| (base..base + text.len()).contains(&at);
        let within = results.iter().all(|r| {
            inside(r.origin.doc_start)
                && r.value
                    .samples_apart()
                    .iter()
                    .all(|s| inside(s.start) && s.end <= base + text.len())
        });
        seen.lock()
            .unwrap()
            .push((ids, with_json, held_apart, (base, text.to_string(), within)));
    };
    let options = Options {
        samples_apart: apart,
        ..Options::default()
    };
    let loaded = load_streaming(
        &[path.to_path_buf()],
        &options,
        Handing { to: &to, in_chunks },
    );
    (seen.into_inner().unwrap(), loaded.results)
}

/// Handed in three batches or more, none over 256 results (a chunk of lines, a batch of a
/// document's results), every result with its JSON.
fn handed_in_batches(seen: &Seen) {
    assert!(seen.len() >= 3, "{} handings", seen.len());
    assert!(
        seen.iter().all(|s| s.0.len() <= 256),
        "at most a batch each"
    );
    assert!(
        seen.iter().all(|s| s.1 == s.0.len()),
        "every result handed with its JSON"
    );
}

#[test]
fn a_json_lines_file_is_handed_a_chunk_of_lines_at_a_time_each_result_once() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("runs.jsonl");
    let n = 700;
    let text = lines(n);
    std::fs::write(&path, &text).unwrap();
    let (seen, kept) = hand_all(&path, true, true);
    let handed: Vec<&String> = seen.iter().flat_map(|s| &s.0).collect();
    let expected: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
    assert_eq!(
        handed,
        expected.iter().collect::<Vec<_>>(),
        "each once, in file order"
    );
    handed_in_batches(&seen);
    // Each with the lines its results were read from, their offsets the file's.
    for (ids, _, _, (base, lines, within)) in &seen {
        assert_eq!(Some(lines.as_str()), text.get(*base..base + lines.len()));
        assert!(within, "{ids:?} lie outside their lines");
    }
    assert!(
        seen.iter().all(|s| s.3.1.len() < text.len() / 2),
        "never the file's whole text"
    );
    // Most lines hold samples, each array left in the text.
    assert!(seen.iter().map(|s| s.2).sum::<usize>() > n / 2);
    assert_eq!(kept.len(), n);
    assert!(kept.iter().all(|r| r.value.is_null()), "lean once handed");
}

#[test]
fn a_command_that_takes_a_file_whole_gets_it_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("runs.jsonl");
    std::fs::write(&path, lines(600)).unwrap();
    let (seen, kept) = hand_all(&path, false, false);
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].0.len(), 600);
    // Without `samples_apart` the JSON holds its arrays.
    assert_eq!(seen[0].2, 0);
    assert!(kept.iter().all(|r| r.value.is_null()));
}

/// An aggregate of `n` rows (the rows of the InferenceX fixture, each at a load of its own),
/// written on one line as `json.dump` writes it.
fn rows(n: usize) -> String {
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/adapters/inferencex/agg_bmk.json").unwrap(),
    )
    .unwrap();
    let rows = fixture.as_array().unwrap();
    let made: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut row = rows[i % rows.len()].clone();
            row["conc"] = serde_json::json!(i + 1);
            row
        })
        .collect();
    serde_json::to_string(&made).unwrap()
}

/// A file of one document of many results hands them a batch at a time as they are finished,
/// each once and in the document's order, with its JSON: they were all held until the file
/// was read. A command that takes a file whole still gets it in one handing.
#[test]
fn a_document_of_many_results_is_handed_a_batch_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("agg_bmk.json");
    std::fs::write(&path, rows(700)).unwrap();
    let (seen, kept) = hand_all(&path, true, false);
    let handed: Vec<&String> = seen.iter().flat_map(|s| &s.0).collect();
    let ids: Vec<&String> = kept.iter().map(|r| &r.doc.id).collect();
    assert_eq!(kept.len(), 700);
    assert_eq!(handed, ids, "each once, in the document's order");
    handed_in_batches(&seen);
    assert!(kept.iter().all(|r| r.value.is_null()), "lean once handed");
    let (whole, _) = hand_all(&path, false, false);
    assert_eq!(whole.len(), 1);
    assert_eq!(whole[0].0.len(), 700);
}

/// Handed results are put away once every result held was handed (a command that puts every
/// result away and takes them handed: `import`, `sidecar`), and come back at the file's end,
/// in order: what is handed, and what the command is given after, are those of holding them.
#[test]
fn handed_results_are_put_away_and_come_back_as_held() {
    use super::park::{PARK_AT, PARK_AT_TEST};
    use std::sync::atomic::Ordering;
    let tmp = tempfile::tempdir().unwrap();
    let aggregate = tmp.path().join("agg_bmk.json");
    std::fs::write(&aggregate, rows(700)).unwrap();
    let jsonl = tmp.path().join("runs.jsonl");
    std::fs::write(&jsonl, lines(600)).unwrap();
    let mut state = 0x9A4D;
    for round in 0..6 {
        let path = if round % 2 == 0 { &aggregate } else { &jsonl };
        let load = || {
            let seen: Mutex<Vec<Vec<String>>> = Mutex::new(Vec::new());
            let to = |handed: Handed<'_>| {
                let ids = handed.results.iter().map(|r| r.doc.id.clone()).collect();
                seen.lock().unwrap().push(ids);
            };
            let options = Options {
                put_away: true,
                ..Options::default()
            };
            let loaded = load_streaming(
                std::slice::from_ref(path),
                &options,
                Handing {
                    to: &to,
                    in_chunks: true,
                },
            );
            let kept: Vec<String> = loaded
                .results
                .iter()
                .map(|r| format!("{} {} {:?}", r.doc.id, r.origin.doc_start, r.value))
                .collect();
            assert!(
                loaded.internal_errors.is_empty(),
                "{:?}",
                loaded.internal_errors
            );
            let handed: Vec<String> = seen.into_inner().unwrap().concat();
            (handed, kept)
        };
        PARK_AT_TEST.store(usize::MAX, Ordering::Relaxed);
        let held = load();
        PARK_AT_TEST.store([1, 3, 100, 256][below(&mut state, 4)], Ordering::Relaxed);
        let parked = load();
        PARK_AT_TEST.store(PARK_AT, Ordering::Relaxed);
        assert_eq!(
            held.0.len(),
            held.1.len(),
            "round {round}: each handed once"
        );
        assert!(held.1.len() >= 600, "round {round}");
        assert_eq!(parked, held, "round {round}");
    }
}
