//! The layering checker: reads Rust sources, finds every `crate::` path in code (a `use` tree
//! or a path in an expression, type or macro; comments, strings and test-only code aside), maps
//! it to a layer through a table, and reports each import that climbs and each pair of modules
//! of one layer that import each other.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One layer: its name, the modules it holds (a top-level module, or `module::child` where a
/// module is split across layers), and what it owns.
pub struct Layer {
    pub name: &'static str,
    pub modules: &'static [&'static str],
    pub owns: &'static str,
}

/// A circle allowed inside one layer: two modules that import each other, and why.
pub struct Circle {
    pub a: &'static str,
    pub b: &'static str,
    pub why: &'static str,
}

/// One `crate::` path found in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// 1-based line.
    pub line: usize,
    /// The path's segments after `crate::` (at most the first two).
    pub segments: Vec<String>,
}

/// The module path of a source file under `src/` (`corpus/beside/folder.rs` →
/// `corpus::beside::folder`; `mod.rs` names its folder; `lib.rs` the root).
pub fn module_of(relative: &str) -> Vec<String> {
    let trimmed = relative.strip_suffix(".rs").unwrap_or(relative);
    let mut parts: Vec<String> = trimmed.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The source with comments and the contents of string and character literals blanked out
/// (newlines kept, so line numbers hold).
pub fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            for _ in i..=j {
                out.push(' ');
            }
            i = j + 1;
            while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                    for _ in 0..=hashes {
                        out.push(' ');
                    }
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() {
                if chars[i] == '\\' {
                    out.push(' ');
                    if let Some(&e) = chars.get(i + 1) {
                        out.push(blank(e));
                    }
                    i += 2;
                } else if chars[i] == '"' {
                    out.push(' ');
                    i += 1;
                    break;
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a) left as it is.
            if next == Some('\\') {
                let mut j = i + 2;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                for _ in i..=j.min(chars.len() - 1) {
                    out.push(' ');
                }
                i = j + 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                out.push_str("   ");
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` with every item under `#[cfg(test)]` blanked out: test code may reach any layer to
/// build realistic input; only the shipped code is layered.
pub fn without_tests(code: &str) -> String {
    let bytes: Vec<char> = code.chars().collect();
    let mut out: Vec<char> = bytes.clone();
    let needle: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + needle.len() <= bytes.len() {
        if bytes[i..i + needle.len()] != needle[..] {
            i += 1;
            continue;
        }
        // Blank from the attribute to the end of the item: the first `;` outside braces, or
        // the brace that closes the item's first `{`.
        let mut j = i;
        let mut depth = 0usize;
        let mut seen_brace = false;
        j += needle.len();
        while j < bytes.len() {
            match bytes[j] {
                '{' => {
                    depth += 1;
                    seen_brace = true;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if seen_brace && depth == 0 {
                        break;
                    }
                }
                ';' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let end = j.min(bytes.len() - 1);
        for c in &mut out[i..=end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end + 1;
    }
    out.into_iter().collect()
}

/// The names of the child modules declared `#[cfg(test)] mod name;` in `code` (files that are
/// test code as a whole).
pub fn test_children(code: &str) -> Vec<String> {
    let flat: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut names = Vec::new();
    let mut rest = flat.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let item = rest.trim_start();
        let item = item
            .strip_prefix("pub(crate) ")
            .or_else(|| item.strip_prefix("pub "))
            .unwrap_or(item);
        if let Some(after) = item.strip_prefix("mod ") {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let tail = after[name.len()..].trim_start();
            if tail.starts_with(';') {
                names.push(name);
            }
        }
    }
    names
}

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
fn paths_after(code: &str, prefix: &str, keep: usize) -> Vec<(usize, usize, Vec<String>)> {
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

/// Pairs of files that import each other (by `super::` or `crate::` paths), where neither is
/// the other's parent module: a circle between two files of one module is as much a tangle as
/// one between two modules. `(from, to) → first line`.
fn file_edges(files: &[(String, String)], skip: &[String]) -> BTreeMap<(String, String), String> {
    let known: Vec<Vec<String>> = files.iter().map(|(p, _)| module_of(p)).collect();
    let resolve = |full: &[String]| -> Option<Vec<String>> {
        (1..=full.len())
            .rev()
            .map(|n| full[..n].to_vec())
            .find(|m| known.contains(m))
    };
    let mut edges = BTreeMap::new();
    for (path, source) in files {
        if path == "main.rs" || path == "lib.rs" || skip.contains(path) {
            continue;
        }
        let module = module_of(path);
        let code = without_tests(&code_only(source));
        let mut found: Vec<(usize, Vec<String>)> = paths_after(&code, "crate::", usize::MAX)
            .into_iter()
            .map(|(line, _, s)| (line, s))
            .collect();
        for (line, ups, segments) in paths_after(&code, "super::", usize::MAX) {
            if ups > module.len() {
                continue;
            }
            let mut full = module[..module.len() - ups].to_vec();
            full.extend(segments);
            found.push((line, full));
        }
        for (line, full) in found {
            let Some(to) = resolve(&full) else { continue };
            // A parent and its child share items by design; files of two top-level modules are
            // checked as modules, by their layers.
            if to.starts_with(&module) || module.starts_with(&to) || to.first() != module.first() {
                continue;
            }
            edges
                .entry((module.join("::"), to.join("::")))
                .or_insert_with(|| format!("{path}:{line}"));
        }
    }
    edges
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

/// Where a module path sits: the table entry for its first two segments, else its first.
pub fn place<'t>(layers: &'t [Layer], segments: &[String]) -> Option<(usize, &'t str)> {
    let two = segments
        .iter()
        .take(2)
        .cloned()
        .collect::<Vec<_>>()
        .join("::");
    let one = segments.first()?.as_str();
    for key in [two.as_str(), one] {
        for (i, layer) in layers.iter().enumerate() {
            if let Some(m) = layer.modules.iter().find(|m| **m == key) {
                return Some((i, m));
            }
        }
    }
    None
}

/// The problems of a set of source files (`relative path under src/`, `source`): imports that
/// climb, modules of one layer that import each other (unless named in `circles`), and modules
/// the table does not place. Sorted, one line each.
pub fn check(files: &[(String, String)], layers: &[Layer], circles: &[Circle]) -> Vec<String> {
    let mut problems = Vec::new();
    let test_files = test_only_files(files);
    // (from, to) module → first place seen.
    let mut edges: BTreeMap<(&str, &str), String> = BTreeMap::new();
    for (path, source) in files {
        if path == "main.rs" || path == "lib.rs" || test_files.contains(path) {
            continue;
        }
        let module = module_of(path);
        let Some((from_layer, from)) = place(layers, &module) else {
            problems.push(format!(
                "{path}: module `{}` is in no layer",
                module.join("::")
            ));
            continue;
        };
        let code = without_tests(&code_only(source));
        for r in references(&code) {
            let shown = format!("crate::{}", r.segments.join("::"));
            let Some((to_layer, to)) = place(layers, &r.segments) else {
                problems.push(format!(
                    "{path}:{}: `{shown}` names a module in no layer",
                    r.line
                ));
                continue;
            };
            if to_layer > from_layer {
                problems.push(format!(
                    "{path}:{}: `{shown}` climbs from layer {} `{}` ({from}) to layer {} `{}` ({to})",
                    r.line,
                    from_layer + 1,
                    layers[from_layer].name,
                    to_layer + 1,
                    layers[to_layer].name,
                ));
            } else if to_layer == from_layer && to != from {
                edges
                    .entry((from, to))
                    .or_insert_with(|| format!("{path}:{}", r.line));
            }
        }
    }
    for ((a, b), at) in &edges {
        if a < b
            && let Some(back) = edges.get(&(*b, *a))
        {
            let named = circles
                .iter()
                .any(|c| (c.a == *a && c.b == *b) || (c.a == *b && c.b == *a));
            if !named {
                let (layer, _) = place(layers, &[(*a).to_string()]).unwrap_or((0, ""));
                problems.push(format!(
                    "{at}: `{a}` and `{b}` of layer `{}` import each other ({b} → {a} at {back}); break the circle or name it in docs/architecture.md",
                    layers[layer].name
                ));
            }
        }
    }
    let files_edges = file_edges(files, &test_files);
    for ((a, b), at) in &files_edges {
        if a < b
            && let Some(back) = files_edges.get(&(b.clone(), a.clone()))
        {
            let named = circles
                .iter()
                .any(|c| (c.a == a && c.b == b) || (c.a == b && c.b == a));
            if !named {
                problems.push(format!(
                    "{at}: files `{a}` and `{b}` import each other ({b} → {a} at {back}); break the circle or name it in docs/architecture.md"
                ));
            }
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

/// Files declared `#[cfg(test)] mod name;`, and everything under them.
fn test_only_files(files: &[(String, String)]) -> Vec<String> {
    let mut prefixes = Vec::new();
    for (path, source) in files {
        let module = module_of(path);
        for child in test_children(&code_only(source)) {
            let mut m = module.clone();
            m.push(child);
            prefixes.push(m);
        }
    }
    files
        .iter()
        .map(|(p, _)| p)
        .filter(|p| {
            let m = module_of(p);
            prefixes.iter().any(|t| m.starts_with(t))
        })
        .cloned()
        .collect()
}

/// The layer table as Markdown, as `docs/architecture.md` holds it.
pub fn table(layers: &[Layer]) -> String {
    let mut out = String::from("| # | layer | modules | owns |\n|---|---|---|---|\n");
    for (i, l) in layers.iter().enumerate() {
        let modules: Vec<String> = l.modules.iter().map(|m| format!("`{m}`")).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            i + 1,
            l.name,
            modules.join(", "),
            l.owns
        );
    }
    out
}

/// The named circles as Markdown.
pub fn circle_list(circles: &[Circle]) -> String {
    let mut out = String::new();
    for c in circles {
        let _ = writeln!(out, "- `{}` ↔ `{}`: {}", c.a, c.b, c.why);
    }
    out
}
