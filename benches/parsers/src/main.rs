//! Measures candidate JSON parsers on benchlint's own result files.
//!
//! Every `*.json` file under FOLDER is read into memory first; then each candidate parses every
//! file, single-threaded, `--repeat` times, and the best pass is reported. A second, untimed
//! pass compares what each candidate read with what serde_json reads from the same bytes.
//!
//! Usage:
//!   parsers [--repeat N] [--limit N] [--only NAME,..] [--dom-only] [--jsonl]
//!           [--blank-samples] [--no-verify] [--show N] FOLDER
//!   parsers --adversarial
//!   parsers --list
//!
//! `--limit N` keeps the first N files in path order; `--only` runs the named candidates
//! (`--list` prints the names; `none` runs none, to measure loading alone); `--dom-only` keeps
//! the whole-document candidates (for files that are not canonical results); `--jsonl` also
//! reads each line of every `*.jsonl` file as one document; `--blank-samples` empties every
//! `levels[].samples.*` array first (rewritten by serde_json, in the file's style), to measure
//! the part of a canonical document benchlint gives its parser; `--show N` lists up to N
//! differences per candidate (default 5).

// A measurement tool: the casts below turn counts into rates.
#![allow(clippy::cast_precision_loss)]

mod adversarial;
mod candidates;
mod dump;
mod model;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use candidates::{Candidate, Finger, Kind, Outcome};

/// The allocator benchlint's binary uses, with the same settings, so allocation costs weigh
/// here as they do there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Args {
    folder: Option<PathBuf>,
    repeat: usize,
    limit: Option<usize>,
    only: Option<Vec<String>>,
    dom_only: bool,
    jsonl: bool,
    blank_samples: bool,
    verify: bool,
    show: usize,
}

fn usage() -> ! {
    eprintln!(
        "usage: parsers [--repeat N] [--limit N] [--only NAME,..] [--dom-only] [--jsonl] \
         [--blank-samples] [--no-verify] [--show N] FOLDER\n       parsers --adversarial\n       \
         parsers --list"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut args = Args {
        folder: None,
        repeat: 3,
        limit: None,
        only: None,
        dom_only: false,
        jsonl: false,
        blank_samples: false,
        verify: true,
        show: 5,
    };
    let mut it = std::env::args().skip(1);
    let number =
        |v: Option<String>| -> usize { v.and_then(|v| v.parse().ok()).unwrap_or_else(|| usage()) };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--repeat" => args.repeat = number(it.next()).max(1),
            "--limit" => args.limit = Some(number(it.next())),
            "--show" => args.show = number(it.next()),
            "--only" => {
                let v = it.next().unwrap_or_else(|| usage());
                args.only = Some(v.split(',').map(str::to_owned).collect());
            }
            "--dom-only" => args.dom_only = true,
            "--jsonl" => args.jsonl = true,
            "--blank-samples" => args.blank_samples = true,
            "--no-verify" => args.verify = false,
            "--adversarial" => {
                print_cpu();
                adversarial::report();
                std::process::exit(0)
            }
            "--adversarial-one" => {
                let case = number(it.next());
                let parser = number(it.next());
                adversarial::run_one(case, parser);
                std::process::exit(0)
            }
            "--list" => {
                for c in candidates::all() {
                    println!("{:<18} {}", c.name, c.label);
                }
                std::process::exit(0)
            }
            "-h" | "--help" => usage(),
            s if s.starts_with('-') => usage(),
            _ if args.folder.is_none() => args.folder = Some(PathBuf::from(a)),
            _ => usage(),
        }
    }
    if args.folder.is_none() {
        usage()
    }
    args
}

fn print_cpu() {
    println!(
        "serde_json features: preserve_order{}",
        if cfg!(feature = "float-roundtrip") {
            ", float_roundtrip"
        } else {
            " (no float_roundtrip, as benchlint)"
        }
    );
    #[cfg(target_arch = "x86_64")]
    {
        println!(
            "CPU: avx2 {}, pclmulqdq {}, sse4.2 {}, avx512f {} (detected at run time)",
            std::arch::is_x86_feature_detected!("avx2"),
            std::arch::is_x86_feature_detected!("pclmulqdq"),
            std::arch::is_x86_feature_detected!("sse4.2"),
            std::arch::is_x86_feature_detected!("avx512f"),
        );
    }
    println!(
        "compiled for: avx2 {}, pclmulqdq {} (target features fixed at build time)",
        cfg!(target_feature = "avx2"),
        cfg!(target_feature = "pclmulqdq"),
    );
    #[cfg(feature = "simd")]
    println!(
        "simd-json: {} (chosen at run time)",
        simd_json::Deserializer::algorithm()
    );
    #[cfg(feature = "sonic")]
    println!(
        "sonic-rs: {} (chosen at build time)",
        if cfg!(all(
            target_arch = "x86_64",
            target_feature = "avx2",
            target_feature = "pclmulqdq"
        )) {
            "AVX2 + PCLMULQDQ code"
        } else {
            "portable fallback code (no AVX2 in the build's target features)"
        }
    );
}

struct Doc {
    name: String,
    bytes: Vec<u8>,
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => collect(&p, out),
            Ok(t) if t.is_file() => out.push(p),
            _ => {}
        }
    }
}

fn load(args: &Args) -> Vec<Doc> {
    let folder = args.folder.as_ref().expect("folder");
    let mut paths = Vec::new();
    collect(folder, &mut paths);
    paths.sort();
    let mut docs = Vec::new();
    for p in paths {
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        let name = p.strip_prefix(folder).unwrap_or(&p).display().to_string();
        if ext == "json" {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            docs.push(Doc { name, bytes });
        } else if ext == "jsonl" && args.jsonl {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
                if line.iter().any(|b| !b.is_ascii_whitespace()) {
                    docs.push(Doc {
                        name: format!("{name}:{}", i + 1),
                        bytes: line.to_vec(),
                    });
                }
            }
        }
        if args.limit.is_some_and(|n| docs.len() >= n) {
            docs.truncate(args.limit.unwrap_or(usize::MAX));
            break;
        }
    }
    docs
}

/// Empties every `levels[].samples.*` array, rewriting the document with serde_json in the
/// style it was written in (indented or compact). Documents serde_json rejects stay as they are.
fn blank_samples(docs: &mut [Doc]) {
    for d in docs {
        let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&d.bytes) else {
            continue;
        };
        let Some(levels) = v.get_mut("levels").and_then(|l| l.as_array_mut()) else {
            continue;
        };
        for l in levels {
            if let Some(s) = l.get_mut("samples").and_then(|s| s.as_object_mut()) {
                for a in s.values_mut() {
                    if a.is_array() {
                        *a = serde_json::Value::Array(Vec::new());
                    }
                }
            }
        }
        let pretty = d.bytes.windows(3).any(|w| w == b"\n  ");
        let mut out = if pretty {
            serde_json::to_vec_pretty(&v)
        } else {
            serde_json::to_vec(&v)
        }
        .expect("serialise");
        if d.bytes.last() == Some(&b'\n') {
            out.push(b'\n');
        }
        d.bytes = out;
    }
}

#[derive(Default)]
struct Pass {
    ok: usize,
    failed: usize,
    levels: usize,
    samples: usize,
    first_error: Option<String>,
}

/// One timed pass of a candidate over every document. Kept out of line: the instruction
/// counts (`valgrind --toggle-collect=*timed_pass*`) are taken inside it.
#[inline(never)]
fn timed_pass(run: fn(&[u8]) -> Result<Outcome, String>, docs: &[Doc]) -> Pass {
    let mut p = Pass::default();
    for d in docs {
        match run(&d.bytes) {
            Ok(o) => {
                p.ok += 1;
                p.levels += o.levels;
                p.samples += o.samples;
            }
            Err(e) => {
                p.failed += 1;
                if p.first_error.is_none() {
                    p.first_error = Some(format!("{}: {e}", d.name));
                }
            }
        }
    }
    p
}

struct Row {
    label: &'static str,
    pass: Pass,
    best: Duration,
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn main() {
    let args = parse_args();
    print_cpu();
    let mut docs = load(&args);
    if args.blank_samples {
        blank_samples(&mut docs);
    }
    let bytes: usize = docs.iter().map(|d| d.bytes.len()).sum();
    println!(
        "input: {} documents, {:.2} MB, from {}{}{}",
        docs.len(),
        mb(bytes),
        args.folder.as_ref().expect("folder").display(),
        if args.jsonl {
            " (with JSON Lines, one document a line)"
        } else {
            ""
        },
        if args.blank_samples {
            " (samples arrays emptied)"
        } else {
            ""
        },
    );

    let selected: Vec<Candidate> = candidates::all()
        .into_iter()
        .filter(|c| !args.dom_only || matches!(c.kind, Kind::Dom | Kind::Copy))
        .filter(|c| {
            args.only
                .as_ref()
                .is_none_or(|o| o.iter().any(|n| n == c.name))
        })
        .collect();

    let mut rows = Vec::new();
    for c in &selected {
        let mut best = Duration::MAX;
        let mut first = None;
        for _ in 0..args.repeat {
            let start = Instant::now();
            let pass = timed_pass(c.run, &docs);
            best = best.min(start.elapsed());
            first.get_or_insert(pass);
        }
        rows.push(Row {
            label: c.label,
            pass: first.expect("one pass"),
            best,
        });
    }
    if !rows.is_empty() {
        print_times(&rows, bytes, args.repeat);
    }
    if args.verify && !selected.is_empty() {
        verify(&selected, &docs, args.show);
    }
}

fn print_times(rows: &[Row], bytes: usize, repeat: usize) {
    let base = rows
        .iter()
        .find(|r| r.label.starts_with("serde_json Value"))
        .map(|r| r.best.as_secs_f64());
    println!("\n## Throughput (single thread, best of {repeat})\n");
    println!(
        "| candidate | files ok | failed | levels read | sample numbers read | MB | best s | MB/s | speed vs Value |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let s = r.best.as_secs_f64();
        let ratio = base.map_or_else(|| "-".to_owned(), |b| format!("{:.2}x", b / s));
        println!(
            "| {} | {} | {} | {} | {} | {:.1} | {:.3} | {:.0} | {} |",
            r.label,
            r.pass.ok,
            r.pass.failed,
            r.pass.levels,
            r.pass.samples,
            mb(bytes),
            s,
            mb(bytes) / s,
            ratio
        );
    }
    for r in rows {
        if let Some(e) = &r.pass.first_error {
            println!("first failure of {}: {}", r.label, clip(e, 300));
        }
    }
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() > n {
        format!("{}...", s.chars().take(n).collect::<String>())
    } else {
        s.to_owned()
    }
}

#[derive(Default)]
struct Tally {
    accepted: usize,
    both_reject: usize,
    rejects_accepted: usize,
    accepts_rejected: usize,
    reads_differently: usize,
    /// Of those, files where the only differences are floats one ULP apart.
    floats_only: usize,
    /// Numbers read one ULP apart, in those files.
    floats: usize,
    examples: Vec<String>,
}

/// How a candidate's read differs from the reference's.
struct Difference {
    /// Every difference is a float read one unit in the last place apart (the same digits
    /// rounded to the neighbouring double); the count of such numbers.
    floats_one_ulp: Option<usize>,
    what: String,
}

/// Splits an exact printing into its tokens (numbers, strings, names).
fn tokens(s: &str) -> Vec<&str> {
    s.split([',', ':', '{', '}', '[', ']', '(', ')', ' '])
        .filter(|t| !t.is_empty())
        .collect()
}

/// When two printings differ only in numbers whose doubles are neighbours, how many.
fn only_neighbouring_floats(a: &str, b: &str) -> Option<usize> {
    let (ta, tb) = (tokens(a), tokens(b));
    if ta.len() != tb.len() {
        return None;
    }
    let mut n = 0;
    for (x, y) in ta.iter().zip(&tb) {
        if x == y {
            continue;
        }
        let (Ok(x), Ok(y)) = (x.parse::<f64>(), y.parse::<f64>()) else {
            return None;
        };
        if x.is_sign_negative() != y.is_sign_negative() || x.to_bits().abs_diff(y.to_bits()) > 1 {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// What differs between a candidate's read and the reference's, if anything.
fn differs(c: &Finger, r: &Finger) -> Option<Difference> {
    let other = |what: String| {
        Some(Difference {
            floats_one_ulp: None,
            what,
        })
    };
    if let (Some(a), Some(b)) = (&c.id, &r.id)
        && a != b
    {
        return other(format!("id {a:?} where the reference reads {b:?}"));
    }
    if let (Some(a), Some(b)) = (c.levels, r.levels)
        && a != b
    {
        return other(format!("{a} levels where the reference reads {b}"));
    }
    for (what, a, b) in [
        ("document", &c.full, &r.full),
        ("typed document", &c.typed, &r.typed),
    ] {
        if let (Some(a), Some(b)) = (a, b)
            && a != b
        {
            let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            let from = (0..=at.saturating_sub(40))
                .rev()
                .find(|&i| a.is_char_boundary(i) && b.is_char_boundary(i))
                .unwrap_or(0);
            return Some(Difference {
                floats_one_ulp: only_neighbouring_floats(a, b),
                what: format!(
                    "{what} differs at byte {at} of its printing: ...{} where the reference has ...{}",
                    clip(&a[from..], 100),
                    clip(&b[from..], 100)
                ),
            });
        }
    }
    if let (Some(a), Some(b)) = (c.samples, r.samples)
        && (a.0 != b.0 || a.1.to_bits() != b.1.to_bits())
    {
        return other(format!(
            "samples: {} numbers summing to {:?}, the reference {} summing to {:?}",
            a.0, a.1, b.0, b.1
        ));
    }
    None
}

/// The untimed comparison of every candidate's read with serde_json's. Whole-document, lazy
/// and serde_json typed candidates are compared with serde_json's `Value`; the other typed
/// candidates with serde_json's read of the same typed model.
fn verify(selected: &[Candidate], docs: &[Doc], show: usize) {
    let find = |name: &str| {
        candidates::all()
            .into_iter()
            .find(|c| c.name == name)
            .and_then(|c| c.check)
            .expect("reference")
    };
    let value_ref = find("serde-value");
    let typed_ref = find("serde-typed");
    let skip_ref = find("serde-typed-skip");
    let mut tallies: Vec<Tally> = selected.iter().map(|_| Tally::default()).collect();
    for d in docs {
        let base = value_ref(&d.bytes);
        let needs = |k: Kind| {
            selected
                .iter()
                .any(|c| c.kind == k && !c.name.starts_with("serde"))
        };
        let typed_base = needs(Kind::TypedSamples).then(|| typed_ref(&d.bytes));
        let skip_base = needs(Kind::TypedSkip).then(|| skip_ref(&d.bytes));
        for (c, t) in selected.iter().zip(tallies.iter_mut()) {
            let Some(check) = c.check else { continue };
            let reference = match (c.kind, c.name.starts_with("serde")) {
                (Kind::TypedSamples, false) => typed_base.as_ref().expect("typed reference"),
                (Kind::TypedSkip, false) => skip_base.as_ref().expect("typed reference"),
                _ => &base,
            };
            let note = |t: &mut Tally, msg: String| {
                if t.examples.len() < show {
                    t.examples.push(format!("{}: {}", d.name, clip(&msg, 400)));
                }
            };
            match (check(&d.bytes), reference) {
                (Ok(f), Ok(r)) => {
                    t.accepted += 1;
                    if let Some(d) = differs(&f, r) {
                        t.reads_differently += 1;
                        if let Some(n) = d.floats_one_ulp {
                            t.floats_only += 1;
                            t.floats += n;
                            note(
                                t,
                                format!("reads {n} float(s) one ULP apart, first: {}", d.what),
                            );
                        } else {
                            note(t, format!("reads differently: {}", d.what));
                        }
                    }
                }
                (Err(e), Ok(_)) => {
                    t.rejects_accepted += 1;
                    note(t, format!("rejects what the reference accepts: {e}"));
                }
                (Ok(_), Err(e)) => {
                    t.accepted += 1;
                    t.accepts_rejected += 1;
                    note(t, format!("accepts what the reference rejects ({e})"));
                }
                (Err(e), Err(_)) => {
                    t.both_reject += 1;
                    if c.name == "serde-value" {
                        note(t, format!("rejected: {e}"));
                    }
                }
            }
        }
    }
    println!("\n## What each candidate read, against serde_json (untimed)\n");
    println!(
        "| candidate | reference | accepted | both reject | rejects, serde_json accepts | accepts, serde_json rejects | reads differently | of which only floats 1 ULP apart (numbers) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for (c, t) in selected.iter().zip(&tallies) {
        if c.check.is_none() {
            continue;
        }
        let reference = match (c.kind, c.name.starts_with("serde")) {
            (Kind::TypedSamples | Kind::TypedSkip, false) => "serde_json, same typed model",
            _ => "serde_json Value",
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} ({}) |",
            c.label,
            reference,
            t.accepted,
            t.both_reject,
            t.rejects_accepted,
            t.accepts_rejected,
            t.reads_differently,
            t.floats_only,
            t.floats
        );
    }
    for (c, t) in selected.iter().zip(&tallies) {
        for e in &t.examples {
            println!("- {}: {e}", c.label);
        }
    }
}
