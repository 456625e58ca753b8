//! One document of many results (an InferenceX aggregate of rows) makes the findings of every
//! row before the file's cap applies: those that can never be shown are kept light (no help,
//! label or absent-field note), so a row costs what its result and the bare findings weigh.

use crate::scaling::exec;
use crate::scaling_placing::one_line_rows;

/// Peak resident set of `check --format json` over an aggregate of `n` rows, KiB.
fn peak(dir: &std::path::Path, n: usize) -> u64 {
    let path = one_line_rows(dir, n);
    let a: Vec<std::ffi::OsString> = ["check", "--exit-zero", "--format", "json"]
        .iter()
        .map(std::ffi::OsString::from)
        .chain([path.into_os_string()])
        .collect();
    let r = exec(&a);
    println!("{n} rows: peak {} MiB", r.peak_rss_kib / 1024);
    r.peak_rss_kib
}

#[test]
fn a_document_of_many_rows_keeps_its_findings_past_the_cap_light() {
    let tmp = tempfile::tempdir().unwrap();
    let (small, large) = (peak(tmp.path(), 1_000), peak(tmp.path(), 4_000));
    if small == 0 {
        return;
    }
    // Each row a result drawing about twenty findings, all but the first thousand past the cap:
    // kept whole they cost about 65 KiB a row, light about 33 (a release build).
    let per_row = large.saturating_sub(small) / 3_000;
    println!("{per_row} KiB a row");
    assert!(
        per_row <= 48,
        "{per_row} KiB a row between 1,000 and 4,000 rows"
    );
}
