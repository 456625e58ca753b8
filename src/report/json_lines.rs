//! `--format json-lines`: one diagnostic object per line, the same fields as the diagnostics
//! of `--format json`, and nothing else (no summary).

use super::Prepared;

/// Renders one line per finding.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = Vec::new();
    write(p, &mut out).expect("writing to memory cannot fail");
    out
}

/// Writes the same lines to `out`, a buffer at a time.
pub fn write(p: &Prepared, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut buffer = Vec::new();
    for i in 0..p.findings.len() {
        super::json::diagnostic(&mut buffer, p, i, super::json::Layout::Compact, out)?;
        buffer.push(b'\n');
        if buffer.len() >= super::spill::CHUNK {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)
}
