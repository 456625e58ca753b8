//! A long JSON Lines file read by a command that puts every result away itself (`summary`,
//! `capacity`, `cards`) is put away a chunk of lines at a time by the worker reading it: what
//! the command holds grows by what it keeps of a result in its own spool, not by every result
//! of the file held until its last line is read (about 1.75 KB a line before).
//! (`BENCHLINT_SCALING_BIN` measures another build.)

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::scaling::exec;
use crate::scaling_shapes::args;

/// A vLLM `--append-result` file of `n` runs of one model, each at its own concurrency and
/// date, from the fixture's line.
fn long_file(dir: &Path, n: usize) -> PathBuf {
    let fixture = std::fs::read_to_string("testdata/sidecar/vllm/qwen3-8b-fp8.jsonl").unwrap();
    let mut run: Value = serde_json::from_str(fixture.lines().next().unwrap()).unwrap();
    let mut text = String::new();
    for i in 0..n {
        run["max_concurrency"] = json!(1 + i % 64);
        run["date"] = json!(format!("20260311-{:06}", i % 240_000));
        #[expect(clippy::cast_precision_loss, reason = "small counts")]
        let duration = 41.87 + i as f64 * 1e-4;
        run["duration"] = json!(duration);
        text.push_str(&run.to_string());
        text.push('\n');
    }
    let path = dir.join(format!("runs-{n}.jsonl"));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_long_json_lines_file_is_not_held_by_commands_that_put_results_away() {
    let tmp = tempfile::tempdir().unwrap();
    let small_file = long_file(tmp.path(), 5_000);
    let large_file = long_file(tmp.path(), 25_000);
    for command in ["summary", "capacity", "cards"] {
        let small = exec(&args(&[&command, &small_file]));
        let large = exec(&args(&[&command, &large_file]));
        println!(
            "{command}: peak {} / {} MiB",
            small.peak_rss_kib / 1024,
            large.peak_rss_kib / 1024
        );
        // Every run is read: the last one is in the output.
        let out = large.out();
        assert!(
            out.contains("runs-25000.jsonl#") && !large.err().contains("could not be read"),
            "{command}: {}",
            large.err()
        );
        if small.peak_rss_kib == 0 {
            return;
        }
        // Measured (release): 120 to 470 bytes a line; 1.75 KB a line while a file's results
        // were held until its last line was read.
        let per_line = large.peak_rss_kib.saturating_sub(small.peak_rss_kib) * 1024 / 20_000;
        println!("{command}: {per_line} bytes a line");
        assert!(
            per_line <= 1_000,
            "{command}: {per_line} bytes a line between 5,000 and 25,000 lines"
        );
    }
}
