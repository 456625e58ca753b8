//! Placing findings stays linear in their number whatever the layout of the text they lie in:
//! a compact document of many rows on one line, where every finding's value starts in the same
//! line. The test times two sizes four times apart and bounds the ratio (`scaling::MAX_RATIO`:
//! linear is 4, quadratic 16). `BENCHLINT_SCALING_BIN` measures another build instead.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::scaling::{exec, time, uncapped};
use crate::scaling_shapes::{args, assert_linear};

/// An InferenceX aggregate of `n` rows written compact, the whole document on one line (as
/// `json.dump` writes it): each row a result whose findings are placed in that line.
pub(crate) fn one_line_rows(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string("testdata/adapters/inferencex/agg_bmk.json").unwrap();
    let rows: Vec<Value> = serde_json::from_str(&text).unwrap();
    let all: Vec<Value> = (0..n)
        .map(|i| {
            let mut row = rows[i % rows.len()].clone();
            row["conc"] = json!([4, 8, 16, 32, 64, 128][i % 6]);
            row["tp"] = json!([1, 2, 4, 8][(i / 6) % 4]);
            row
        })
        .collect();
    let folder = dir.join(format!("rows-{n}"));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("agg_bmk.json");
    std::fs::write(&path, serde_json::to_string(&all).unwrap()).unwrap();
    path
}

/// Placing a finding in a compact document looked for the end of the line its value starts
/// on, and then for the value's end within it: in a document on one line, the rest of the file
/// for every finding (a 20 MB aggregate of 20,000 rows took 233 s).
#[test]
fn findings_in_a_document_on_one_line_are_placed_in_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let run = |n: usize| {
        let path = one_line_rows(tmp.path(), n);
        let a = args(&[&"check", &"--config", &config, &"--format", &"json", &path]);
        let r = exec(&a);
        let d: Value = serde_json::from_str(&r.out()).unwrap();
        assert_eq!(d["summary"]["results"], n, "a result a row");
        let placed = d["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["line"] == 1 && f["pointer"].as_str().is_some_and(|p| p.len() > 1))
            .count();
        assert!(
            placed >= n,
            "{placed} findings placed in the one line of {n} rows"
        );
        time(&a)
    };
    let (small, large) = (run(400), run(1_600));
    assert_linear("findings placed in one line of rows", small, large);
}
