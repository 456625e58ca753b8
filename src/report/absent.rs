//! The fields one object lacks, shown as one finding: a file written by a harness that records
//! none of the engine's limits has five M007 findings on the same `{`, and five snippets of
//! that brace say less than one listing the five fields. The human, concise and grouped
//! formats show such findings together; the machine-readable formats (JSON, JSON Lines,
//! SARIF, GitHub, JUnit) keep one entry per field, since baselines and tools key on each, and
//! the counts and the exit code count fields everywhere.

use std::collections::BTreeMap;

use super::Prepared;
use crate::diagnostic::{Finding, Severity};
use crate::text::Text;

/// One finding as shown: the indices (into [`Prepared::findings`]) of the findings it stands
/// for, the first giving its place, rule and severity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Indices of the findings shown together; one unless they are absent fields of one
    /// object.
    pub members: Vec<usize>,
}

/// What findings of one file must share to be shown as one: document, rule and severity
/// (unless grouped across rules, where the worst is shown), pre-rule label and the place the
/// label lands on (the object that should hold the fields).
type Key = (usize, &'static str, Severity, bool, Option<usize>);

/// The findings `from..to` of `p`, one file's ([`file_runs`]), as shown: absent fields of one
/// object together (of one rule, or of every rule with `across_rules`), in the place of the
/// first of them; every other finding on its own.
pub fn items(p: &Prepared, from: usize, to: usize, across_rules: bool) -> Vec<Item> {
    debug_assert!(crate::diagnostic::one_path(&p.findings[from..to]));
    let mut out: Vec<Item> = Vec::new();
    let mut open: BTreeMap<Key, usize> = BTreeMap::new();
    for i in from..to {
        let f = &p.findings[i];
        if f.absent.is_none() || !f.related.is_empty() {
            out.push(Item { members: vec![i] });
            continue;
        }
        let key = (
            f.primary.doc_start,
            if across_rules { "" } else { f.rule.code },
            if across_rules {
                Severity::Info
            } else {
                f.severity
            },
            f.pre_rule,
            p.positions[i].map(|pos| pos.start),
        );
        if let Some(&at) = open.get(&key) {
            out[at].members.push(i);
        } else {
            open.insert(key, out.len());
            out.push(Item { members: vec![i] });
        }
    }
    out
}

/// Every finding of `p` as shown, file by file.
pub fn all_items(p: &Prepared) -> Vec<Item> {
    let mut out = Vec::new();
    for (from, to) in file_runs(&p.findings) {
        out.extend(items(p, from, to, false));
    }
    out
}

/// The ranges of `findings` (sorted by file) that lie in one file; the findings about the
/// corpus as a whole are a range of their own, even when the corpus is the one file checked.
pub fn file_runs(findings: &[Finding]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=findings.len() {
        if i == findings.len()
            || findings[i].primary.path != findings[start].primary.path
            || findings[i].corpus != findings[start].corpus
        {
            runs.push((start, i));
            start = i;
        }
    }
    runs
}

/// The message, label and help an item is shown with.
pub struct Words {
    /// What was found.
    pub message: Text,
    /// Under the value.
    pub label: Option<Text>,
    /// What to do: each member's help, once.
    pub help: Option<Text>,
}

/// The codes of `item`'s rules, sorted, once each.
fn codes(p: &Prepared, item: &Item) -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = item
        .members
        .iter()
        .map(|&i| p.findings[i].rule.code)
        .collect();
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// The code line of `item`: `M007(missing-engine-limits)`, or `M001, M002(not recorded)` for
/// the absent fields of several rules.
pub fn code(p: &Prepared, item: &Item) -> String {
    let first = &p.findings[item.members[0]];
    let codes = codes(p, item);
    let pre = if first.pre_rule { ", pre-rule" } else { "" };
    if codes.len() == 1 {
        format!("{}({}{pre})", first.rule.code, first.rule.name)
    } else {
        format!("{}(not recorded{pre})", codes.join(", "))
    }
}

/// The worst severity among `item`'s findings.
pub fn severity(p: &Prepared, item: &Item) -> Severity {
    item.members
        .iter()
        .map(|&i| p.findings[i].severity)
        .max()
        .unwrap_or(Severity::Info)
}

/// The words of `item`: a lone finding's own; for the absent fields of one rule, `not
/// recorded: A (`/a`), B (`/b`) and C (`/c`)` with each distinct help on its own line; for
/// those of several rules, their count, and the fields by rule in the help.
pub fn words(p: &Prepared, item: &Item) -> Words {
    let first = &p.findings[item.members[0]];
    if item.members.len() == 1 {
        return Words {
            message: first.message.clone(),
            label: first.label.clone(),
            help: first.help.clone(),
        };
    }
    let members: Vec<&Finding> = item.members.iter().map(|&i| &p.findings[i]).collect();
    let label = Some(Text::own(format!(
        "these {} fields belong here",
        members.len()
    )));
    let pre_rule = if first.pre_rule {
        " [measured before the rules were adopted: labelled, not failed]"
    } else {
        ""
    };
    let codes = codes(p, item);
    if codes.len() > 1 {
        // Each rule's fields on a line of their own: the rule says how to record them.
        let mut help = Text::own(
            "record them (`benchlint rule CODE` says how; `--format concise` lists them):",
        );
        for code in &codes {
            help.push_own(format!("\n{code} "));
            let fields = members
                .iter()
                .filter(|f| f.rule.code == *code)
                .filter_map(|f| f.absent.as_ref());
            for (k, a) in fields.enumerate() {
                if k > 0 {
                    help.push_own(", ");
                }
                help.push_own("`");
                help.push_text(a.field.clone());
                help.push_own("`");
            }
        }
        // Where the values go for a harness's file, once rather than under each field.
        if let Some(note) = members
            .iter()
            .find_map(|f| f.absent.as_ref().and_then(|a| a.sidecar.as_ref()))
        {
            help.push_own("\n");
            help.push_text(note.clone());
        }
        return Words {
            message: Text::own(format!(
                "not recorded: {} fields of the checklist{pre_rule}",
                members.len()
            )),
            label,
            help: Some(help),
        };
    }
    let mut message = Text::own("not recorded: ");
    for (k, f) in members.iter().enumerate() {
        if k > 0 {
            message.push_own(if k + 1 == members.len() {
                " and "
            } else {
                ", "
            });
        }
        if let Some(a) = &f.absent {
            message.push_text(a.what.clone());
        }
    }
    message.push_own(pre_rule);
    let mut help: Option<Text> = None;
    let mut seen: Vec<String> = Vec::new();
    for h in members.iter().filter_map(|f| f.help.as_ref()) {
        let raw = h.raw();
        if seen.contains(&raw) {
            continue;
        }
        seen.push(raw);
        match help.as_mut() {
            Some(all) => {
                all.push_own("\n");
                all.push_text(h.clone());
            }
            None => help = Some(h.clone()),
        }
    }
    Words {
        message,
        label,
        help,
    }
}

/// ` (shown as 12 findings: the fields one object lacks are listed together)` when `shown`
/// differs from the number of findings, else nothing: appended to the summary line so that
/// its counts, which the exit code follows, match what the reader sees.
pub fn note(findings: usize, shown: usize) -> String {
    if shown == findings {
        return String::new();
    }
    format!(
        " ({findings} findings listed as {shown}: the fields one object lacks are shown together)"
    )
}
