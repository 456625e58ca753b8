//! The loader fails closed and accounts for every file: a result disguised (renamed, under a
//! sidecar's name, wrapped in an array, with an odd value, its `schema` key in another case)
//! still fails the run beside a clean result; a sidecar or companion of nothing is reported
//! or read as what it is; a summary copied alone is read; a run that reads no result fails;
//! `import` refuses two inputs with one output name; a baseline names no file outside its
//! folder. The last test is a property over generated corpora (fixed seed, bounded).

mod accounted_for;
mod disguises;
mod generated;
mod refusals;

use crate::support::watchdog;

use std::path::{Path, PathBuf};

use benchlint::corpus::Options;
use benchlint::diagnostic::Severity;
use benchlint::engine::{self, Checked};
use serde_json::Value;
use watchdog::{LIMIT, bin, run};

/// The clean corpus every corpus here holds beside what it tests: it passes on its own.
const CLEAN: &str = "testdata/clean/replicated-corpus";

fn check(paths: &[&Path]) -> Checked {
    let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    engine::check(&paths, &Options::default())
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &target);
        } else {
            std::fs::copy(&p, &target).unwrap();
        }
    }
}

/// A folder holding a copy of the clean corpus.
fn clean_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(Path::new(CLEAN), dir.path());
    dir
}

fn errors(c: &Checked) -> Vec<String> {
    c.findings
        .iter()
        .filter(|f| f.severity == Severity::Error && !f.pre_rule)
        .map(|f| {
            format!(
                "{} {}: {}",
                f.rule.code,
                f.primary.path.raw(),
                f.message.raw()
            )
        })
        .collect()
}

fn exit_of(args: &[&str], path: &Path) -> (Option<i32>, String, String) {
    let r = run(
        {
            let mut c = bin();
            c.args(["check", "--isolated"]).args(args).arg(path);
            c
        },
        LIMIT,
    );
    r.assert_ran("check");
    (r.code, r.out(), r.err())
}

/// A vLLM result with errors of its own (a failed request among others: R006).
fn failing_vllm() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string("testdata/adapters/vllm/bench-serve-save-detailed.json").unwrap(),
    )
    .unwrap()
}

/// Whether every file `c` reached is read, a named companion or sidecar of a result read, a
/// named artifact, a walked YAML file that is not a result, or has a finding of its own.
fn unaccounted(c: &Checked) -> Vec<String> {
    c.corpus
        .read
        .iter()
        .filter(|r| {
            let fate = r.read_as.as_ref();
            let named = ["companion of `", "sidecar of `", "artifact", "skipped"]
                .iter()
                .any(|p| fate.starts_with(p));
            let found = c
                .findings
                .iter()
                .any(|f| f.primary.path.raw() == r.path.raw());
            r.results == 0 && !named && !found
        })
        .map(|r| format!("{} ({})", r.path.raw(), r.read_as))
        .collect()
}
