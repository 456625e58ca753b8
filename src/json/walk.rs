//! Visiting every value of a document with its JSON pointer, built only when asked for.
//!
//! Rules that look at every string (placeholders, secrets) walk documents with thousands of
//! per-request numbers; formatting a pointer for each would cost more than the rule itself, so
//! the walk keeps the path as borrowed segments and formats it on demand.

use serde_json::Value;

use super::escape_pointer_token;

/// One step of a path: an object key or an array index.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    /// A member of an object.
    Key(&'a str),
    /// An item of an array.
    Index(usize),
}

/// The path from the document root to the value being visited.
#[derive(Debug, Default)]
pub struct Path<'a> {
    steps: Vec<Step<'a>>,
}

impl Path<'_> {
    /// The JSON pointer of the value (`""` for the root).
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        for step in &self.steps {
            out.push('/');
            match step {
                Step::Key(k) => out.push_str(&escape_pointer_token(k)),
                Step::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    /// How many steps from the root (0 at the root).
    pub fn depth(&self) -> usize {
        self.steps.len()
    }

    /// The nearest object key on the path: the key of the value, or of the array holding it.
    pub fn key(&self) -> Option<&str> {
        self.steps.iter().rev().find_map(|s| match s {
            Step::Key(k) => Some(*k),
            Step::Index(_) => None,
        })
    }

    /// The key of the object that holds the value's key (`environment` for
    /// `/engine/environment/OPENAI_KEY`), when there is one.
    pub fn parent_key(&self) -> Option<&str> {
        self.steps
            .iter()
            .rev()
            .filter_map(|s| match s {
                Step::Key(k) => Some(*k),
                Step::Index(_) => None,
            })
            .nth(1)
    }

    /// The last step, when there is one.
    pub fn last(&self) -> Option<Step<'_>> {
        self.steps.last().copied()
    }
}

/// What the visitor wants done with the children of the value it was shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visit {
    /// Visit the members or items.
    Descend,
    /// Leave them out.
    Skip,
}

/// Calls `visit` on `root` and on every value below it, parents before children, members in
/// document order. Depth is bounded by the parser's own nesting limit, so recursion is safe.
pub fn walk<'a>(root: &'a Value, visit: &mut dyn FnMut(&Path<'a>, &'a Value) -> Visit) {
    walk_under(&[], root, visit);
}

/// [`walk`] of `value`, which lies at the steps `under` of its document (an item of an array
/// read alone: `[Index(3)]`): every path the visitor is shown starts with them, as walking the
/// whole document shows it.
pub fn walk_under<'a>(
    under: &[Step<'a>],
    value: &'a Value,
    visit: &mut dyn FnMut(&Path<'a>, &'a Value) -> Visit,
) {
    let mut path = Path {
        steps: under.to_vec(),
    };
    walk_in(value, &mut path, visit);
}

fn walk_in<'a>(
    value: &'a Value,
    path: &mut Path<'a>,
    visit: &mut dyn FnMut(&Path<'a>, &'a Value) -> Visit,
) {
    if visit(path, value) == Visit::Skip {
        return;
    }
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.steps.push(Step::Key(k));
                walk_in(v, path, visit);
                path.steps.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.steps.push(Step::Index(i));
                walk_in(v, path, visit);
                path.steps.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_escaped_and_in_document_order() {
        let v: Value = serde_json::json!({"a/b": [1, {"c~d": "x"}], "e": null});
        let mut seen = Vec::new();
        walk(&v, &mut |p, _| {
            seen.push(p.pointer());
            Visit::Descend
        });
        assert_eq!(
            seen,
            ["", "/a~1b", "/a~1b/0", "/a~1b/1", "/a~1b/1/c~0d", "/e"]
        );
    }

    #[test]
    fn a_value_walked_under_its_place_shows_the_paths_of_the_whole() {
        let whole: Value = serde_json::json!([{"a": [1]}, {"env": {"KEY": "x"}}]);
        let mut of_whole = Vec::new();
        walk(&whole, &mut |p, _| {
            of_whole.push((p.pointer(), p.key().map(str::to_string), p.depth()));
            Visit::Descend
        });
        let mut of_items = Vec::new();
        for (i, item) in whole.as_array().unwrap().iter().enumerate() {
            walk_under(&[Step::Index(i)], item, &mut |p, _| {
                of_items.push((p.pointer(), p.key().map(str::to_string), p.depth()));
                Visit::Descend
            });
        }
        // All but the root itself.
        assert_eq!(of_items, of_whole[1..]);
    }

    #[test]
    fn skip_leaves_children_out_and_key_names_the_holder() {
        let v: Value = serde_json::json!({"samples": [1, 2], "argv": ["--x", "y"]});
        let mut seen = Vec::new();
        walk(&v, &mut |p, _| {
            seen.push((p.pointer(), p.key().map(str::to_string)));
            if p.key() == Some("samples") && p.depth() == 1 {
                Visit::Skip
            } else {
                Visit::Descend
            }
        });
        let pointers: Vec<&str> = seen.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(pointers, ["", "/samples", "/argv", "/argv/0", "/argv/1"]);
        assert_eq!(seen[4].1.as_deref(), Some("argv"));
    }
}
