//! The paths in code: every `crate::` and `super::` path, a `use` tree expanded into its paths.

use super::Reference;

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every `crate::` (and `$crate::`) path in `code`, a `use` tree expanded into its paths.
pub fn references(code: &str) -> Vec<Reference> {
    paths_after(code, "crate::", 2)
        .into_iter()
        .map(|(line, _, segments)| Reference { line, segments })
        .collect()
}

/// Every path after `prefix` (`crate::`, `super::`) in `code`: (line, how many `super::` in a
/// row, the first `keep` segments), a `use` tree expanded into its paths.
pub(super) fn paths_after(
    code: &str,
    prefix: &str,
    keep: usize,
) -> Vec<(usize, usize, Vec<String>)> {
    let chars: Vec<char> = code.chars().collect();
    let mut lines = Vec::with_capacity(chars.len());
    let mut line = 1;
    for &c in &chars {
        lines.push(line);
        if c == '\n' {
            line += 1;
        }
    }
    let needle: Vec<char> = prefix.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i + needle.len() <= chars.len() {
        let starts_word = i == 0 || !is_ident(chars[i - 1]) || chars[i - 1] == '$';
        if chars[i..i + needle.len()] == needle[..] && starts_word {
            let mut at = i + needle.len();
            let mut ups = 1;
            while chars.get(at..at + needle.len()) == Some(&needle[..]) {
                ups += 1;
                at += needle.len();
            }
            let mut paths = Vec::new();
            let end = tree(&chars, at, Vec::new(), &mut paths);
            for segments in paths {
                if !segments.is_empty() {
                    found.push((lines[i], ups, segments.into_iter().take(keep).collect()));
                }
            }
            i = end.max(at);
        } else {
            i += 1;
        }
    }
    found
}

/// Reads a path (or a `{...}` group of paths) starting at `at`, each prefixed by `prefix`;
/// returns where it ended.
fn tree(chars: &[char], mut at: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let skip_space = |at: &mut usize| {
        while *at < chars.len() && chars[*at].is_whitespace() {
            *at += 1;
        }
    };
    let mut path = prefix;
    loop {
        skip_space(&mut at);
        if chars.get(at) == Some(&'{') {
            at += 1;
            loop {
                skip_space(&mut at);
                match chars.get(at) {
                    None => return at,
                    Some('}') => return at + 1,
                    Some(',') => at += 1,
                    Some(_) => {
                        let before = at;
                        at = tree(chars, at, path.clone(), out);
                        // Skip `as name` and anything else up to the next `,` or `}`.
                        while at < chars.len() && chars[at] != ',' && chars[at] != '}' {
                            if chars[at] == '{' {
                                break;
                            }
                            at += 1;
                        }
                        if at == before {
                            at += 1;
                        }
                    }
                }
            }
        }
        let start = at;
        while at < chars.len() && is_ident(chars[at]) {
            at += 1;
        }
        if at == start {
            out.push(path);
            return at;
        }
        let word: String = chars[start..at].iter().collect();
        if word != "self" {
            path.push(word);
        }
        if chars.get(at) == Some(&':') && chars.get(at + 1) == Some(&':') {
            at += 2;
        } else {
            out.push(path);
            return at;
        }
    }
}
