//! A file swapped after the walk: replaced by a link to a place outside the corpus, it is
//! refused when opened (the opened file is not the one the walk saw), never read or quoted.

use std::path::Path;

use super::{Entry, Options, beside, discover, per_file};

#[test]
fn a_file_swapped_for_a_link_outside_after_the_walk_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let result = corpus.join("r.json");
    std::fs::copy(
        "testdata/adapters/vllm/bench-serve-save-detailed.json",
        &result,
    )
    .unwrap();
    // Shaped as a result, so that reading it would show: its model is the secret.
    let secret = outside.join("secret.json");
    let text = std::fs::read_to_string(&result).unwrap().replacen(
        "\"model_id\": \"",
        "\"model_id\": \"TOPSECRET-",
        1,
    );
    std::fs::write(&secret, text).unwrap();
    let (entries, problems) = discover(std::slice::from_ref(&corpus));
    assert!(problems.is_empty());
    assert_eq!(entries.len(), 1);
    // Unswapped, the file is read.
    let options = Options::default();
    let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    let read = per_file::check_chunk(&entries, &options, (&run, &hood), None);
    assert_eq!(read[0].results.len(), 1);
    // Swapped after the walk.
    std::fs::remove_file(&result).unwrap();
    std::os::unix::fs::symlink(&secret, &result).unwrap();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    let swapped = per_file::check_chunk(&entries, &options, (&run, &hood), None);
    let o = &swapped[0];
    assert!(o.results.is_empty(), "the swapped file was read");
    assert_eq!(o.findings.len(), 1, "{:#?}", o.findings);
    assert_eq!(o.findings[0].rule.code, "E001");
    assert!(
        o.findings[0]
            .message
            .raw()
            .contains("changed while it was being checked")
    );
    assert!(!format!("{:?}", o.findings).contains("TOPSECRET"));
}

#[test]
fn a_file_the_loader_refused_is_not_opened_again_for_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let result = corpus.join("r.json");
    std::fs::copy(
        "testdata/adapters/vllm/bench-serve-save-detailed.json",
        &result,
    )
    .unwrap();
    let secret = outside.join("secret.json");
    std::fs::write(&secret, "TOPSECRET\n").unwrap();
    let (entries, _) = discover(std::slice::from_ref(&corpus));
    // Swapped between the walk and the reading: the loader refuses it (E001).
    std::fs::remove_file(&result).unwrap();
    std::os::unix::fs::symlink(&secret, &result).unwrap();
    let options = Options::default();
    let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    let mut swapped = per_file::check_chunk(&entries, &options, (&run, &hood), None);
    let findings = std::mem::take(&mut swapped[0].findings);
    assert_eq!(findings[0].rule.code, "E001");
    let p = crate::report::prepare(findings, crate::engine::Summary::default(), 1 << 28, false);
    // Neither placed in nor drawn from the file now at its path.
    assert_eq!(p.positions, vec![None]);
    let human = String::from_utf8(crate::report::human(&p)).unwrap();
    assert!(!human.contains("TOPSECRET"), "{human}");
    assert!(!human.contains("╭─["), "{human}");
}
