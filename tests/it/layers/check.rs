//! The layering checker: reads Rust sources, finds every `crate::` path in code (a `use` tree
//! or a path in an expression, type or macro; comments, strings and test-only code aside), maps
//! it to a layer through a table, and reports each import that climbs and each pair of modules
//! of one layer that import each other.

mod paths;
mod source;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use paths::{paths_after, references};
use source::{code_only, test_children, without_tests};

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
