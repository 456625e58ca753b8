//! Repeated findings of one rule in one file, in the human format: the first is drawn with its
//! snippet, and each later one becomes a line under it, `also at 14:3: <message>`, with its
//! own line, column and message. A JSON Lines file of nine levels has the same R009 on each of
//! its nine lines, and nine snippets of nine near-identical records tell the reader no more
//! than one snippet and eight lines. ruff and rustc draw a snippet per diagnostic, which suits
//! source code, where each finding is an edit of its own; the records of a result file are a
//! harness's copies of one another, so a repeat is better read as a place in a list, the way
//! rustc lists further places under one diagnostic (`and N others`). Only the human format
//! folds: concise, grouped and the formats for tools keep one entry per finding.

use super::Prepared;
use super::absent::{self, Item};
use crate::diagnostic::Severity;

/// An item drawn with its snippet, and the items of the same rule in the same file folded
/// under it.
pub struct Drawn {
    /// The item drawn in full.
    pub item: Item,
    /// The later items of the same rule (or set of rules) and severity, one line each.
    pub also: Vec<Item>,
}

/// What items must share to fold: the code line (one rule, or the set of rules whose absent
/// fields are shown together), the severity shown and the pre-rule label.
type Key = (String, Severity, bool);

/// `items` of one file, each later item of a rule already drawn folded under the first. An
/// item with no line and column (a file that could not be read again) is always drawn, since
/// its line would say nothing of where it is.
pub fn fold(p: &Prepared, items: Vec<Item>) -> Vec<Drawn> {
    let mut out: Vec<Drawn> = Vec::new();
    let mut first: Vec<(Key, usize)> = Vec::new();
    for item in items {
        let i = item.members[0];
        let f = &p.findings[i];
        if f.corpus || p.positions[i].is_none() {
            out.push(Drawn {
                item,
                also: Vec::new(),
            });
            continue;
        }
        let key = (
            absent::code(p, &item),
            absent::severity(p, &item),
            f.pre_rule,
        );
        if let Some(&(_, at)) = first.iter().find(|(k, _)| *k == key) {
            out[at].also.push(item);
        } else {
            first.push((key, out.len()));
            out.push(Drawn {
                item,
                also: Vec::new(),
            });
        }
    }
    out
}

/// The lines of `drawn`'s folded items, `  also at LINE:COLUMN: message`, wrapped at `width`
/// characters; empty when none is folded.
pub fn also_lines(p: &Prepared, drawn: &Drawn, width: usize) -> String {
    let mut out = String::new();
    for item in &drawn.also {
        let i = item.members[0];
        let Some(pos) = p.positions[i] else {
            continue;
        };
        let message = message(p, &drawn.item, item);
        let head = format!("  also at {}:{}: ", pos.line, pos.column);
        wrap_into(&mut out, &head, &message, width);
    }
    out
}

/// The message of a folded item: its own, except that the absent fields of several rules are
/// said against those of the drawn item (`the same 26 fields of the checklist`, or those
/// `at 1:1, plus `a`, less `b``), since their count alone would not say which.
fn message(p: &Prepared, drawn: &Item, item: &Item) -> String {
    let words = absent::words(p, item).message.line().into_owned();
    if !absent::code(p, item).contains("(not recorded") {
        return words;
    }
    let (mine, theirs) = (fields(p, item), fields(p, drawn));
    if mine == theirs {
        return format!(
            "not recorded: the same {} fields of the checklist",
            mine.len()
        );
    }
    let Some(at) = p.positions[drawn.members[0]] else {
        return words;
    };
    let list = |v: Vec<&String>| {
        v.iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let plus: Vec<&String> = mine.iter().filter(|f| !theirs.contains(f)).collect();
    let less: Vec<&String> = theirs.iter().filter(|f| !mine.contains(f)).collect();
    let mut s = format!(
        "not recorded: {} fields of the checklist, those at {}:{}",
        mine.len(),
        at.line,
        at.column
    );
    if !plus.is_empty() {
        s.push_str(", plus ");
        s.push_str(&list(plus));
    }
    if !less.is_empty() {
        s.push_str(", less ");
        s.push_str(&list(less));
    }
    s
}

/// The dotted fields an item says are not recorded, sorted.
fn fields(p: &Prepared, item: &Item) -> Vec<String> {
    let mut v: Vec<String> = item
        .members
        .iter()
        .filter_map(|&i| p.findings[i].absent.as_ref())
        .map(|a| a.field.line().into_owned())
        .collect();
    v.sort();
    v
}

/// Appends `head` and `text` wrapped at `width` characters, later lines indented by four
/// spaces, breaking at spaces (a word longer than a line is kept whole).
pub(super) fn wrap_into(out: &mut String, head: &str, text: &str, width: usize) {
    let indent = "    ";
    let mut line = head.to_string();
    let mut len = line.chars().count();
    let mut fresh = true;
    for word in text.split(' ') {
        let w = word.chars().count();
        if !fresh && len + 1 + w > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
            len = indent.len();
            fresh = true;
        }
        if !fresh {
            line.push(' ');
            len += 1;
        }
        line.push_str(word);
        len += w;
        fresh = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::wrap_into;

    #[test]
    fn wraps_at_spaces_with_an_indent() {
        let mut out = String::new();
        wrap_into(&mut out, "  also at 9:1: ", "one two three four five", 24);
        assert_eq!(out, "  also at 9:1: one two\n    three four five\n");
        let mut long = String::new();
        wrap_into(&mut long, "  also at 1:1: ", "x".repeat(30).as_str(), 20);
        assert_eq!(long, format!("  also at 1:1: {}\n", "x".repeat(30)));
    }
}
