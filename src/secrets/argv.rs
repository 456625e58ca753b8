//! Secrets in a command line: the values of secret flags and assignments in an argv
//! (`--api-key VALUE`, `HF_TOKEN=VALUE`), and one-line commands that pass one.

use super::{classify, is_harmless, is_secret_key, memo, shapes};
use crate::swar;

/// Replaces every secret-looking `KEY=value` or `--flag value` in an argv with a redaction.
pub fn redact_argv(argv: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(argv.len());
    let mut redact_next = false;
    let mut user_next = false;
    let with_password_redacted = |a: &str, from: usize| {
        shapes::user_password(&a[from..]).map(|(s, _)| format!("{}<redacted>", &a[..from + s]))
    };
    for a in argv {
        // `curl -u user:password`, `--user user:password`, `--user=user:password`.
        if std::mem::take(&mut user_next)
            && let Some(r) = with_password_redacted(a, 0)
        {
            out.push(r);
            continue;
        }
        if matches!(a.as_str(), "-u" | "--user" | "--proxy-user" | "-U") {
            out.push(a.clone());
            user_next = true;
            continue;
        }
        if let Some(r) = ["--user=", "--proxy-user="]
            .iter()
            .find(|f| a.starts_with(*f))
            .and_then(|f| with_password_redacted(a, f.len()))
        {
            out.push(r);
            continue;
        }
        if redact_next {
            redact_next = false;
            // A flag given no value (`--api-key --port 8`) leaves the next flag alone.
            if !a.starts_with("--") {
                out.push("<redacted>".to_string());
                continue;
            }
        }
        if let Some((k, v)) = a.split_once('=') {
            let key = k.trim_start_matches('-');
            if classify(Some(key), v).is_some() {
                out.push(format!("{k}=<redacted>"));
                continue;
            }
        } else if a.starts_with("--") && is_secret_key(a.trim_start_matches('-')) {
            out.push(a.clone());
            redact_next = true;
            continue;
        }
        if classify(None, a).is_some() {
            out.push("<redacted>".to_string());
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// Positions in an argv whose values are secrets (`--api-key VALUE`, `--hf-token=VALUE`,
/// `HF_TOKEN=VALUE`, a token-shaped word): the places [`redact_argv`] redacts.
pub fn argv_secrets(argv: &[String]) -> Vec<usize> {
    let harmless = |a: &str| is_harmless(a.split_once('=').map_or(a, |(_, v)| v));
    redact_argv(argv)
        .iter()
        .zip(argv)
        .enumerate()
        .filter(|(_, (r, a))| r != a && !harmless(a))
        .map(|(i, _)| i)
        .collect()
}

/// [`argv_secrets`] of an argv given as borrowed items, remembered per thread when it finds
/// none: a corpus's serve commands repeat from file to file, and checking one builds and
/// redacts a copy of every argument.
pub fn argv_secrets_of(items: &[&str]) -> Vec<usize> {
    let key = argv_key(items);
    let memo = memo::worth(&key);
    if memo && memo::known_clean(memo::Check::Argv, &key) {
        return Vec::new();
    }
    let argv: Vec<String> = items.iter().map(|s| (*s).to_string()).collect();
    let found = argv_secrets(&argv);
    if memo && found.is_empty() {
        memo::remember_clean(memo::Check::Argv, &key);
    }
    found
}

/// The memo's key for an argv: each item with its length first, so that no two argvs share a
/// key. The digits are written by hand: a string per item cost more than the look-up.
fn argv_key(items: &[&str]) -> String {
    let mut key = String::with_capacity(items.iter().map(|s| s.len() + 4).sum());
    for item in items {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut n = item.len();
        loop {
            at -= 1;
            digits[at] = b'0' + u8::try_from(n % 10).expect("a digit");
            n /= 10;
            if n == 0 {
                break;
            }
        }
        key.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
        key.push(':');
        key.push_str(item);
    }
    key
}

/// Whether `line` holds `--`, `-u`, `-U` or `=`, as every flag and assignment
/// [`command_line_has_secret`] reads does. Asked of every string of every document: each `-`
/// or `=` is found eight bytes at a time and a `-` has the byte after it looked at, where a
/// search for each form cost more than the rest of the check.
fn may_pass_a_flag(line: &str) -> bool {
    let b = line.as_bytes();
    let mut from = 0;
    loop {
        let hits = |x| swar::equal(x, b'-') | swar::equal(x, b'=');
        let at = swar::first_hit(b, from, hits, |c| c == b'-' || c == b'=');
        match b.get(at) {
            None => return false,
            Some(b'=') => return true,
            _ if matches!(b.get(at + 1), Some(b'-' | b'u' | b'U')) => return true,
            _ => from = at + 1,
        }
    }
}

/// Whether a one-line command (`vllm serve m --api-key KEY`) passes a secret in an argument.
pub fn command_line_has_secret(line: &str) -> bool {
    if !may_pass_a_flag(line) {
        return false;
    }
    let memo = memo::worth(line);
    if memo && memo::known_clean(memo::Check::CommandLine, line) {
        return false;
    }
    let found = !argv_secrets(&crate::serve_command::split_command_line(line)).is_empty();
    if memo && !found {
        memo::remember_clean(memo::Check::CommandLine, line);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick test answers as a search for each form would, on every line of up to four
    /// characters drawn from the bytes it looks at and their neighbours, at every place of an
    /// eight-byte chunk and across two.
    #[test]
    fn a_flag_is_found_as_a_search_for_each_form_finds_it() {
        let alphabet = ['-', 'u', 'U', '=', 'a', ' ', 'é'];
        let mut cores = vec![String::new()];
        let mut longest = cores.clone();
        for _ in 0..4 {
            longest = longest
                .iter()
                .flat_map(|l| alphabet.iter().map(move |c| format!("{l}{c}")))
                .collect();
            cores.extend(longest.iter().cloned());
        }
        for core in &cores {
            for before in 0..=16 {
                for after in [0, 1, 9] {
                    let line = format!("{}{core}{}", "x".repeat(before), "-".repeat(after));
                    let any_form = ["--", "=", "-u", "-U"].iter().any(|f| line.contains(f));
                    assert_eq!(may_pass_a_flag(&line), any_form, "{line:?}");
                }
            }
        }
    }

    #[test]
    fn argv_redaction() {
        let argv: Vec<String> = [
            "vllm",
            "serve",
            "m",
            "--api-key",
            "abcdef123456",
            "--hf-token=hf_abcdefghijklmnopqrstuvwxyz0123456789",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        let r = redact_argv(&argv);
        assert_eq!(r[4], "<redacted>");
        assert_eq!(r[5], "--hf-token=<redacted>");
        assert_eq!(r[2], "m");
    }

    /// An argv's key spells each item's length in decimal before it.
    #[test]
    fn argv_keys_spell_each_length() {
        use std::fmt::Write as _;
        let long = "x".repeat(1234);
        for argv in [&["", "a", "0123456789"][..], &[long.as_str(), "-"][..]] {
            let mut key = String::new();
            for item in argv {
                write!(key, "{}:{item}", item.len()).expect("a String takes any text");
            }
            assert_eq!(argv_key(argv), key);
        }
    }

    /// The remembered verdict is the computed one, asked twice, for argvs with and without a
    /// secret, and for argvs that differ only in where one item ends and the next begins.
    #[test]
    fn argv_verdicts_remembered_are_the_computed_ones() {
        let argvs: [&[&str]; 5] = [
            &["vllm", "serve", "m", "--port", "8000", "--seed", "1234"],
            &["vllm", "serve", "m", "--api-key", "abcdef123456"],
            &["vllm", "serve", "m", "--api-key", "abcdef123456", "--port"],
            &["vllm", "serve", "m --api-key", "abcdef123456"],
            &["vllm", "serve", "m", "--api-key abcdef123456"],
        ];
        for _ in 0..2 {
            for argv in argvs {
                let owned: Vec<String> = argv.iter().map(ToString::to_string).collect();
                assert_eq!(argv_secrets_of(argv), argv_secrets(&owned), "{argv:?}");
            }
        }
        assert_eq!(argv_secrets_of(argvs[1]), vec![4]);
    }
}
