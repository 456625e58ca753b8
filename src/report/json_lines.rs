//! `--format json-lines`: one diagnostic object per line, the same fields as the diagnostics
//! of `--format json`, and nothing else (no summary).

use super::Prepared;

/// Renders one line per finding.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = Vec::new();
    write(p, &mut out).expect("writing to memory cannot fail");
    out
}

/// Writes the same lines to `out`, one finding at a time.
pub fn write(p: &Prepared, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for i in 0..p.findings.len() {
        crate::text::json::to_writer(&mut *out, &super::json::diagnostic(p, i))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
