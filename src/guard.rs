//! Containing bugs: a panic in the loader or in one rule becomes an internal error for that
//! file or rule, and the rest of the run goes on.
//!
//! The panic hook is the standard one (its message and location still reach stderr); the run
//! then reports the internal error, prints every other finding, and exits 2.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `f`; a panic becomes `Err` with the panic's message.
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic without a message".to_string()
        }
    })
}

/// The message of an internal error: what failed, where (a file in backticks, or "the
/// corpus"), and the request for a report.
pub fn internal_error(what: &str, place: &str, message: &str) -> String {
    format!(
        "internal error in {what} on {place}: {message}; the other findings are complete, but this is a bug in benchlint: please report it (with the file, if you can share it)"
    )
}

/// Writes each internal error to stderr; whether there was any (the run then exits 2).
pub fn report_internal_errors(errors: &[String]) -> bool {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    for e in errors {
        // The panic's message may quote the file: masked and escaped as any input is.
        let _ = writeln!(err, "benchlint: error: {}", crate::text::line(e));
    }
    !errors.is_empty()
}

/// Test-only: panics when the file's name asks `what` to (`benchlint-test-panic-<what>...`).
#[cfg(test)]
pub(crate) fn injected(path: &str, what: &str) {
    let name = path.rsplit('/').next().unwrap_or(path);
    if let Some(rest) = name.strip_prefix("benchlint-test-panic-")
        && rest.split(['.', '-']).next() == Some(what)
    {
        panic!("injected panic for {what}");
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::corpus::{Options, load};

    const RESULT: &str = r#"{"schema": "benchlint/result/v1", "id": "x", "measured_at": "2026-01-01T00:00:00Z", "outcome": "ok",
        "levels": [{"concurrency": 1}], "notes": "key Bearer abcdefghijklmnopqrstuvwxyz"}"#;

    fn corpus_with(names: &[&str]) -> (tempfile::TempDir, Vec<PathBuf>) {
        let dir = tempfile::tempdir().unwrap();
        for n in names {
            std::fs::write(dir.path().join(n), RESULT).unwrap();
        }
        let arg = vec![dir.path().to_path_buf()];
        (dir, arg)
    }

    #[test]
    fn a_panic_is_caught_with_its_message() {
        assert_eq!(catch_panic(|| 3), Ok(3));
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r: Result<(), String> = catch_panic(|| panic!("boom {}", 1));
        let s: Result<(), String> = catch_panic(|| std::panic::panic_any(5u8));
        std::panic::set_hook(prev);
        assert_eq!(r, Err("boom 1".to_string()));
        assert_eq!(s, Err("a panic without a message".to_string()));
    }

    #[test]
    fn a_panicking_file_does_not_stop_the_others() {
        let (_dir, args) = corpus_with(&["a.json", "benchlint-test-panic-loader.json", "z.json"]);
        let corpus = load(&args, &Options::default());
        assert_eq!(
            corpus.internal_errors.len(),
            1,
            "{:?}",
            corpus.internal_errors
        );
        let e = &corpus.internal_errors[0];
        assert!(
            e.contains("internal error in the loader on `")
                && e.contains("benchlint-test-panic-loader.json"),
            "{e}"
        );
        assert!(
            e.contains("injected panic for loader") && e.contains("please report it"),
            "{e}"
        );
        // The other two files were read and checked.
        let m018 = corpus
            .findings
            .iter()
            .filter(|f| f.rule.code == "M018")
            .count();
        assert_eq!(m018, 2);
    }

    #[test]
    fn a_panicking_rule_does_not_stop_the_other_rules() {
        let (_dir, args) = corpus_with(&["a.json", "benchlint-test-panic-M018.json"]);
        let corpus = load(&args, &Options::default());
        assert_eq!(
            corpus.internal_errors.len(),
            1,
            "{:?}",
            corpus.internal_errors
        );
        assert!(
            corpus.internal_errors[0]
                .starts_with("internal error in rule M018 (secret-in-result) on `")
        );
        // M018 still ran on the other file; the other rules ran on both.
        assert_eq!(
            corpus
                .findings
                .iter()
                .filter(|f| f.rule.code == "M018")
                .count(),
            1
        );
        assert_eq!(corpus.results.len(), 2);
    }

    #[test]
    fn a_panicking_corpus_rule_is_reported_and_the_run_goes_on() {
        let (_dir, args) = corpus_with(&["a.json", "benchlint-test-panic-S009.json"]);
        let checked = crate::engine::check(&args, &Options::default());
        let errors = &checked.corpus.internal_errors;
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("internal error in rule S009 (curated-corpus) on the corpus"),
            "{errors:?}"
        );
        assert!(checked.findings.iter().any(|f| f.rule.code == "M018"));
    }
}
