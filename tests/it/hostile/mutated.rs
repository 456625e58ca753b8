//! Mutated inputs through the functions the fuzz targets cover, from a fixed seed, and the
//! fuzz regressions kept fixed.

use std::path::{Path, PathBuf};

use crate::support::watchdog::{LIMIT, bin, run};

// ---------------------------------------------------------------------------------------------
// A deterministic random-input loop over the functions the fuzz targets cover (fuzz/), so CI,
// which does not fuzz, still runs a few thousand mutated inputs through each.

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n.max(1) as u64)).unwrap()
    }
}

/// Small mutations of `seed`: cut, splice a token, repeat a slice, flip a byte.
fn mutate(rng: &mut XorShift, seed: &[u8]) -> Vec<u8> {
    const TOKENS: [&[u8]; 14] = [
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b"\\",
        b",",
        b":",
        b"NaN",
        b"1e999",
        b"\xc3\xa9",
        b"\n",
        b"--api-key",
        b"18446744073709551616",
    ];
    let mut v = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(4) {
            0 => v.truncate(at),
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            2 => {
                let end = (at + rng.below(64)).min(v.len());
                let piece = v[at..end].to_vec();
                v.splice(at..at, piece);
            }
            _ => {
                if at < v.len() {
                    v[at] = u8::try_from(rng.below(256)).unwrap();
                }
            }
        }
    }
    v
}

#[test]
fn mutated_inputs_never_panic() {
    use benchlint::json::{
        Limits, Locator, cut, locate, parse_text, parse_text_with, position, scan, split_documents,
    };
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for dir in [
        "testdata/hostile",
        "testdata/hostile/secrets",
        "testdata/bad",
        "testdata/adapters/vllm",
        "testdata/adapters/sglang",
        "testdata/adapters/guidellm",
    ] {
        let Ok(read) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = read
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for f in files.into_iter().take(6) {
            let mut bytes = std::fs::read(&f).unwrap();
            bytes.truncate(4 * 1024);
            seeds.push(bytes);
        }
    }
    seeds.push(
        b"vllm serve m --api-key sk-abcdefghijklmnopqrstuvwx --max-num-seqs 8 'a b' \"c\\\"d\""
            .to_vec(),
    );
    seeds.push(
        b"select = [\"E\"]\n[thresholds]\nmax_depth = 3\n[severity]\nM001 = \"warning\"\n".to_vec(),
    );
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let tiny = Limits {
        max_depth: 4,
        max_array_items: 2,
        ..Limits::default()
    };
    let config = Path::new("/nonexistent-benchlint-test/benchlint.toml");
    for i in 0..1500 {
        let bytes = mutate(&mut rng, &seeds[i % seeds.len()]);
        let text = String::from_utf8_lossy(&bytes);
        for by_line in [false, true] {
            let _ = parse_text(&text, by_line);
            let p = parse_text_with(&text, by_line, &tiny);
            assert!(p.failures.iter().all(|f| f.offset <= text.len()));
            for s in split_documents(&text, by_line) {
                let piece = &text[s.start..s.end];
                let found = scan(piece, &tiny);
                let _ = cut(piece, &found.long_arrays);
            }
            for d in &p.documents {
                // Every result mapped (an adapter maps each as it is taken), read whole and read
                // to be let go alike.
                let source = benchlint::adapters::Source {
                    path: "x.json",
                    file_name: "x.json",
                    doc_index: 0,
                    doc_count: 1,
                    folder: None,
                    alone: false,
                };
                let whole = mapped(benchlint::adapters::read(&d.value, &source));
                let mut taken = d.value.clone();
                let let_go = mapped(benchlint::adapters::read_letting_go(&mut taken, &source));
                assert_eq!(let_go, whole, "mutation {i}");
            }
        }
        let pointer = ["/levels/0/samples/ttft_s/3", "/a", "/\u{e9}", "/0/1", ""][i % 5];
        let mut locator = Locator::default();
        for start in [0, 1, text.len() / 2, text.len()] {
            if let Some(s) = locate(&text, start, pointer) {
                assert!(s.start <= s.end && s.end <= text.len());
            }
            let _ = locator.locate_first_line(&text, start, pointer);
            let _ = position(&text, start);
        }
        let argv = benchlint::serve_command::split_command_line(&text);
        let _ = benchlint::serve_command::parse(&argv);
        let _ = benchlint::secrets::redact_argv(&argv);
        if let Err(e) = benchlint::config::parse(&text, config) {
            let _ = e.render(false);
        }
    }
}

#[test]
fn fuzz_regressions_stay_fixed() {
    let dir = Path::new("testdata/hostile/fuzz-regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 2);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let (pointer, rest) = text.split_once('\n').unwrap_or(("", &text));
        for (p, t) in [(pointer, rest), ("", &*text)] {
            for start in [0, 1, t.len()] {
                let _ = benchlint::json::locate(t, start, p);
                let _ = benchlint::json::Locator::default().locate_first_line(t, start, p);
            }
        }
        let _ = benchlint::json::parse_text(&text, false);
        let _ = benchlint::json::parse_text(&text, true);
        for format in ["human", "json", "concise"] {
            let mut cmd = bin();
            cmd.args(["check", "--isolated", "--format", format]).arg(f);
            run(cmd, LIMIT).assert_ran(&format!("{} ({format})", f.display()));
        }
    }
}

/// The results of a reading, as their JSON and provenance.
fn mapped(reading: Option<(&'static str, benchlint::adapters::Reading<'_>)>) -> Vec<String> {
    match reading {
        Some((_, benchlint::adapters::Reading::Results(mapped))) => mapped
            .map(|m| format!("{} {:?}", m.value, m.provenance.iter().collect::<Vec<_>>()))
            .collect(),
        _ => Vec::new(),
    }
}
