//! Results put away in a temporary file come back as they went in: every result of the
//! bundled fixtures and of the real files, and drawn variants of them whose numbers, strings and
//! optional parts take the shapes a round trip could lose (negative zero, the extreme finite
//! floats, the largest integers, control characters, absent parts).

use std::path::{Path, PathBuf};

use benchlint::corpus::{LoadedResult, Options, load_results};
use benchlint::model::loaded::spool::ResultSpool;

use crate::support::hostile_gen::Rng;
use crate::support::realworld::REALWORLD;

/// Every result under `roots`, loaded as the reading commands load them (lean).
fn lean_results(roots: &[PathBuf]) -> Vec<LoadedResult> {
    let options = Options {
        lean: true,
        ..Options::default()
    };
    load_results(roots, &options).results
}

/// What a result is compared by: its origin and its document, the document also as JSON text
/// (which tells `-0.0` from `0.0` and keeps the order of free-form maps).
fn seen(r: &LoadedResult) -> (String, usize, &'static str, String) {
    (
        r.origin.path.raw().to_string(),
        r.origin.doc_start,
        r.origin.format,
        serde_json::to_string(&r.doc).expect("a document writes"),
    )
}

fn assert_round_trip(results: &[LoadedResult], what: &str) {
    let mut spool = ResultSpool::default();
    let numbers: Vec<usize> = results
        .iter()
        .map(|r| spool.put(r).expect("put away"))
        .collect();
    assert_eq!(numbers, (0..results.len()).collect::<Vec<_>>());
    // Read back last first: each by its own number, whatever was read before.
    for (k, r) in results.iter().enumerate().rev() {
        let back = spool.get(k).expect("read back");
        assert_eq!(
            back.doc,
            r.doc,
            "{what}: result {k} ({})",
            r.origin.path.raw()
        );
        assert_eq!(seen(&back), seen(r), "{what}: result {k}");
        assert!(back.doc.levels.is_packed() || back.doc.levels.is_empty());
        // Read in part: a run without its artifacts, cost and notes, a setup without its
        // levels too; every other field as it went in.
        let mut run = r.doc.clone();
        (run.artifacts, run.cost, run.notes) = (None, None, None);
        let back_run = spool.get_run(k).expect("a run read back");
        assert_eq!(back_run.doc, run, "{what}: run {k}");
        assert_eq!(
            serde_json::to_string(&back_run.doc).unwrap(),
            serde_json::to_string(&run).unwrap(),
            "{what}: run {k}"
        );
        assert_eq!(back_run.origin, back.origin);
        assert!(back_run.doc.levels.is_packed() || back_run.doc.levels.is_empty());
        run.levels = benchlint::model::Levels::default();
        assert_eq!(
            spool.get_setup(k).expect("a setup read back").doc,
            run,
            "{what}: setup {k}"
        );
    }
}

#[test]
fn every_bundled_and_real_result_comes_back_as_it_went_in() {
    let mut roots = vec![PathBuf::from("testdata")];
    if Path::new(REALWORLD).exists() {
        roots.push(PathBuf::from(REALWORLD));
    } else {
        println!("skipping the real files: {REALWORLD} not found");
    }
    for root in &roots {
        let results = lean_results(std::slice::from_ref(root));
        assert!(
            results.len() > 50,
            "{}: {} results",
            root.display(),
            results.len()
        );
        assert_round_trip(&results, &root.display().to_string());
    }
}

/// A float from the shapes a round trip may lose.
fn awkward_float(rng: &mut Rng) -> f64 {
    match rng.below(8) {
        0 => -0.0,
        1 => f64::MAX,
        2 => f64::MIN_POSITIVE,
        3 => 5e-324,
        4 => -f64::MAX,
        5 => 0.1 + 0.2,
        // Any finite float: an exponent from 1 to 2046, any sign and mantissa.
        6 => f64::from_bits(rng.next() & !(0x7ff << 52) | ((rng.next() % 2046 + 1) << 52)),
        _ => f64::from(u32::try_from(rng.below(1_000_000)).expect("small")) / 7.0,
    }
}

/// A string with control characters, a NUL, astral characters and escapes.
fn awkward_text(rng: &mut Rng) -> String {
    let pieces = [
        "\0",
        "\u{1b}[31m",
        "é",
        "😀",
        "\\u0000",
        "\"",
        "\n",
        "plain",
        "\u{202e}",
    ];
    (0..rng.below(6)).map(|_| rng.pick(&pieces)).collect()
}

/// Drawn variants of real results: their level figures set to awkward floats, their id and
/// notes to awkward text, integers to the largest, optional parts taken away.
#[test]
fn drawn_variants_of_real_results_come_back_as_they_went_in() {
    let base = lean_results(&[PathBuf::from("testdata/corpora")]);
    assert!(!base.is_empty());
    let mut rng = Rng(0x0005_eed5_b001);
    let mut variants = Vec::new();
    for round in 0..400 {
        let mut r = base[round % base.len()].clone();
        r.doc.id = awkward_text(&mut rng);
        if rng.below(2) == 0 {
            r.doc.notes = Some(awkward_text(&mut rng));
        }
        if rng.below(3) == 0 {
            r.doc.repeat = Some(u64::MAX - rng.below(3) as u64);
        }
        match rng.below(6) {
            0 => r.doc.engine = None,
            1 => r.doc.workload = None,
            2 => r.doc.launch = None,
            3 => r.doc.labels = None,
            _ => {}
        }
        let mut levels = r.doc.levels.as_slice().into_owned();
        for level in &mut levels {
            if let Some(t) = level.throughput_tok_s.as_mut() {
                t.aggregate = Some(awkward_float(&mut rng));
                if rng.below(2) == 0 {
                    t.decode = None;
                }
            }
            if let Some(ttft) = level.ttft_s.as_mut() {
                ttft.p50 = Some(awkward_float(&mut rng));
            }
        }
        r.doc.levels = levels.into();
        r.doc.levels.pack();
        variants.push(r);
    }
    assert_round_trip(&variants, "drawn variants");
}

/// Without a temporary folder the results are held and still come back.
#[test]
fn without_a_temporary_folder_results_are_held_and_come_back() {
    let results = lean_results(&[PathBuf::from("testdata/corpora/gb10-audit")]);
    assert!(!results.is_empty());
    let mut spool = ResultSpool::in_folder(&std::env::temp_dir().join("benchlint-no-such/folder"));
    for r in &results {
        spool.put(r).expect("held");
    }
    for (k, r) in results.iter().enumerate() {
        assert_eq!(seen(&spool.get(k).expect("held")), seen(r));
    }
    assert!(spool.get(results.len()).is_err(), "no such result");
}
