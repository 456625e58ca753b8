//! `--format json-lines`: one diagnostic object per line, the same fields as the diagnostics
//! of `--format json`, and nothing else (no summary).

use super::Prepared;

/// Renders one line per finding.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..p.findings.len() {
        serde_json::to_writer(&mut out, &super::json::diagnostic(p, i))
            .expect("a JSON value serialises");
        out.push(b'\n');
    }
    out
}
