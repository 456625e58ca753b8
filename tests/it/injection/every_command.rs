//! Every command in every format over hostile corpora generated from seeds: no input reaches
//! any output raw.

use std::ffi::OsString;

use super::{Hostile, checked, corpus, every_file, kind_of, os};
use crate::support::hostile_gen::{Kind, Rng, check, hostile_name};

fn every_command_over(seed: u64) {
    let c = corpus(seed);
    let root: OsString = c.root.clone().into();
    for format in ["human", "concise", "json", "json-lines", "sarif", "junit"] {
        let mut a = os(&["check", "--isolated", "--format", format]);
        a.push(root.clone());
        checked(&c, &a, Kind::Plain);
    }
    let mut a = os(&["check", "--isolated", "--format", "github"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Github);
    let mut a = os(&["check", "--isolated", "--color", "always"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Coloured);
    let mut a = os(&["check", "--isolated", "--statistics"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Plain);
    for f in &c.files {
        let mut a = os(&["check", "--isolated", "--format", "concise"]);
        a.push(f.clone().into());
        checked(&c, &a, Kind::Plain);
        let mut a = os(&["cards"]);
        a.push(f.clone().into());
        checked(&c, &a, Kind::Plain);
    }
    for (format, kind) in [
        ("table", Kind::Plain),
        ("json", Kind::Plain),
        ("csv", Kind::Csv),
        ("markdown", Kind::Markdown),
    ] {
        let mut a = os(&["summary", "--format", format]);
        a.push(root.clone());
        checked(&c, &a, kind);
    }
    for format in ["table", "json"] {
        let mut a = os(&["capacity", "--format", format, "--floor", "20"]);
        a.push(root.clone());
        checked(&c, &a, Kind::Plain);
    }
    for format in ["text", "json"] {
        let mut a = os(&["compare", "--format", format]);
        a.push(c.ids[0].clone().into());
        a.push(c.ids[3].clone().into());
        a.push(root.clone());
        checked(&c, &a, Kind::Plain);
    }
    for (format, kind) in [("markdown", Kind::Markdown), ("json", Kind::Plain)] {
        let mut a = os(&["audit", "--isolated", "--format", format, "--claims"]);
        a.push(c.claims.clone().into());
        a.push(root.clone());
        checked(&c, &a, kind);
    }
    let mut a = os(&["audit", "--isolated", "--claims"]);
    a.push(c.claims.clone().into());
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("audit").into());
    let r = checked(&c, &a, Kind::Plain);
    assert!(matches!(r.code, Some(0 | 1)), "audit -o: {}", r.err());
    // The corpus report (no claims): file names in the tables, the matrix and the lists.
    for (format, kind) in [("markdown", Kind::Markdown), ("json", Kind::Plain)] {
        let mut a = os(&["audit", "--isolated", "--format", format]);
        a.push(root.clone());
        checked(&c, &a, kind);
    }
    let mut a = os(&["audit", "--isolated"]);
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("corpus-report").into());
    let r = checked(&c, &a, Kind::Plain);
    assert!(matches!(r.code, Some(0 | 1)), "audit -o: {}", r.err());
    let mut a = os(&["import"]);
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("import").into());
    checked(&c, &a, Kind::Plain);
    // Sidecar skeletons: printed one by one and written as a tree.
    for f in &c.files {
        let mut a = os(&["sidecar", "--isolated"]);
        a.push(f.clone().into());
        checked(&c, &a, Kind::Plain);
    }
    let mut a = os(&["sidecar", "--isolated"]);
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("sidecars").into());
    checked(&c, &a, Kind::Plain);
    // A folder's cards.
    let mut a = os(&["cards"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Plain);
    let written = every_file(&c.out);
    assert!(
        written.iter().any(|f| f.ends_with("report.html"))
            && written
                .iter()
                .filter(|f| f.starts_with(c.out.join("import")))
                .count()
                >= 4,
        "{written:?}"
    );
    for f in written {
        check(
            &f.display().to_string(),
            &std::fs::read(&f).unwrap(),
            kind_of(&f),
            &c.secrets,
        );
        // A file name written is an output too.
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        check(
            &format!("the name of {}", f.display()),
            name.as_bytes(),
            Kind::Plain,
            &c.secrets,
        );
    }
    // Errors on stderr: a missing path, an unknown id, both hostile.
    let mut rng = Rng(seed ^ 0xABCD);
    let mut more = c.secrets.clone();
    let missing = hostile_name(&mut rng, &mut more);
    let c2 = Hostile { secrets: more, ..c };
    let mut a = os(&["summary"]);
    a.push(c2.root.join(&missing).into());
    let r = checked(&c2, &a, Kind::Plain);
    assert_eq!(r.code, Some(2));
    let mut a = os(&["compare"]);
    a.push(missing.clone().into());
    a.push(missing.clone().into());
    a.push(root.clone());
    let r = checked(&c2, &a, Kind::Plain);
    assert_eq!(r.code, Some(2));
}

/// Eight corpora on every run (`BENCHLINT_INJECTION_SEEDS=N` runs N, for a longer search).
#[test]
fn no_input_reaches_any_output_raw() {
    let n: u64 = std::env::var("BENCHLINT_INJECTION_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let mut seeds = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..n {
        every_command_over(seeds.next());
    }
}
