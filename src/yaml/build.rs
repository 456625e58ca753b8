//! Building JSON values from the parser's events, with every bound checked before a node is
//! produced: nodes and text counted (aliases expanded), depth measured, anchors kept with
//! what one copy of them costs.

use std::collections::HashMap;

use saphyr_parser::{ScalarStyle, Tag};
use serde_json::{Map, Value};

use super::{ErrorKind, Limits, scalar};

pub(super) type Step = Result<(), (ErrorKind, String)>;

/// An anchored node, kept to expand its aliases, with what one copy costs.
struct Anchored {
    value: Value,
    nodes: usize,
    bytes: usize,
    height: usize,
}

enum Key {
    /// The mapping waits for a key.
    Expected,
    /// The key of the value to come.
    Name(String),
    /// `<<`: the value to come is merged.
    Merge,
}

enum Container {
    Sequence(Vec<Value>),
    Mapping {
        map: Map<String, Value>,
        key: Key,
        merges: Vec<Value>,
    },
}

struct Frame {
    container: Container,
    anchor: usize,
    nodes_before: usize,
    bytes_before: usize,
    /// 1 + the height of the tallest child.
    height: usize,
}

pub(super) struct Builder {
    limits: Limits,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Anchored>,
    nodes: usize,
    bytes: usize,
    /// Nodes and bytes produced by copying anchored nodes, and the most they may reach for
    /// this text (see [`Limits::alias_budget`]).
    copied: (usize, usize),
    copy_budget: (usize, usize),
    root: Option<Value>,
}

impl Builder {
    /// A builder for a text of `text_len` bytes.
    pub(super) fn new(limits: Limits, text_len: usize) -> Self {
        Builder {
            limits,
            stack: Vec::new(),
            anchors: HashMap::new(),
            nodes: 0,
            bytes: 0,
            copied: (0, 0),
            copy_budget: limits.alias_budget(text_len),
            root: None,
        }
    }

    /// Counts `nodes` and `bytes` more produced by an alias, against what aliases may add to a
    /// text of this size: the work of expanding them, not only the size of the result.
    fn charge_copy(&mut self, nodes: usize, bytes: usize) -> Step {
        let total = (
            self.copied.0.saturating_add(nodes),
            self.copied.1.saturating_add(bytes),
        );
        if total.0 > self.copy_budget.0 || total.1 > self.copy_budget.1 {
            return Err((
                ErrorKind::Bound,
                format!(
                    "its aliases expand to more than {} nodes or {} bytes of copies (the bound on alias expansion for a text of this size); it was not read",
                    self.copy_budget.0, self.copy_budget.1
                ),
            ));
        }
        self.copied = total;
        Ok(())
    }

    /// The finished document, when one is complete.
    pub(super) fn take_root(&mut self) -> Option<Value> {
        self.root.take()
    }

    fn expecting_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                container: Container::Mapping {
                    key: Key::Expected,
                    ..
                },
                ..
            })
        )
    }

    /// Counts `nodes` and `bytes` more against the bounds, before they are produced.
    fn charge(&mut self, nodes: usize, bytes: usize) -> Step {
        let total_nodes = self.nodes.saturating_add(nodes);
        let total_bytes = self.bytes.saturating_add(bytes);
        if total_nodes > self.limits.max_nodes {
            return Err((
                ErrorKind::Bound,
                format!(
                    "the document expands to more than {} nodes (the bound on alias expansion and size); it was not read",
                    self.limits.max_nodes
                ),
            ));
        }
        if total_bytes > self.limits.max_text_bytes {
            return Err((
                ErrorKind::Bound,
                format!(
                    "the document expands to more than {} bytes of text (the bound on alias expansion and size); it was not read",
                    self.limits.max_text_bytes
                ),
            ));
        }
        (self.nodes, self.bytes) = (total_nodes, total_bytes);
        Ok(())
    }

    fn check_depth(&self, depth: usize) -> Step {
        if depth > self.limits.max_depth {
            return Err((
                ErrorKind::Bound,
                format!(
                    "sequences and mappings are nested more than {} levels deep (the `max_depth` bound); the document was not read",
                    self.limits.max_depth
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn scalar(
        &mut self,
        text: &str,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<&Tag>,
    ) -> Step {
        self.charge(1, text.len())?;
        if self.expecting_key() {
            let key = if style == ScalarStyle::Plain && text == "<<" {
                Key::Merge
            } else {
                Key::Name(text.to_string())
            };
            if anchor > 0 {
                self.remember(anchor, Value::String(text.to_string()), 1, text.len(), 0);
            }
            self.set_key(key);
            return Ok(());
        }
        let is_str = tag.is_some_and(|t| t.is_yaml_core_schema() && t.suffix == "str");
        let value = if style == ScalarStyle::Plain && !is_str {
            scalar::plain(text)
        } else {
            Value::String(text.to_string())
        };
        if anchor > 0 {
            self.remember(anchor, value.clone(), 1, text.len(), 0);
        }
        self.complete(value, 0);
        Ok(())
    }

    pub(super) fn open(&mut self, mapping: bool, anchor: usize) -> Step {
        if self.expecting_key() {
            return Err((
                ErrorKind::Syntax,
                "a sequence or mapping used as a mapping key cannot be read as JSON".into(),
            ));
        }
        self.check_depth(self.stack.len() + 1)?;
        let (nodes_before, bytes_before) = (self.nodes, self.bytes);
        self.charge(1, 0)?;
        let container = if mapping {
            Container::Mapping {
                map: Map::new(),
                key: Key::Expected,
                merges: Vec::new(),
            }
        } else {
            Container::Sequence(Vec::new())
        };
        self.stack.push(Frame {
            container,
            anchor,
            nodes_before,
            bytes_before,
            height: 1,
        });
        Ok(())
    }

    pub(super) fn close(&mut self) -> Step {
        let Some(frame) = self.stack.pop() else {
            return Err((
                ErrorKind::Syntax,
                "a collection closed that was never opened".into(),
            ));
        };
        let value = match frame.container {
            Container::Sequence(items) => Value::Array(items),
            Container::Mapping {
                mut map, merges, ..
            } => {
                for merged in merges {
                    merge_into(&mut map, merged);
                }
                Value::Object(map)
            }
        };
        if frame.anchor > 0 {
            self.remember(
                frame.anchor,
                value.clone(),
                self.nodes - frame.nodes_before,
                self.bytes - frame.bytes_before,
                frame.height,
            );
        }
        self.complete(value, frame.height);
        Ok(())
    }

    pub(super) fn alias(&mut self, id: usize) -> Step {
        let Some(anchored) = self.anchors.get(&id) else {
            return Err((
                ErrorKind::Syntax,
                "an alias to a node that contains it (a recursive alias) cannot be expanded".into(),
            ));
        };
        let (nodes, bytes, height) = (anchored.nodes, anchored.bytes, anchored.height);
        if self.expecting_key() {
            let Value::String(s) = &anchored.value else {
                return Err((
                    ErrorKind::Syntax,
                    "an alias to a sequence or mapping used as a mapping key cannot be read as JSON".into(),
                ));
            };
            let key = Key::Name(s.clone());
            self.charge_copy(nodes, bytes)?;
            self.charge(nodes, bytes)?;
            self.set_key(key);
            return Ok(());
        }
        self.check_depth(self.stack.len() + height)?;
        // Checked before the copy: the bound holds however far the aliases would expand.
        self.charge_copy(nodes, bytes)?;
        self.charge(nodes, bytes)?;
        let value = self.anchors[&id].value.clone();
        self.complete(value, height);
        Ok(())
    }

    fn remember(&mut self, anchor: usize, value: Value, nodes: usize, bytes: usize, height: usize) {
        self.anchors.insert(
            anchor,
            Anchored {
                value,
                nodes,
                bytes,
                height,
            },
        );
    }

    fn set_key(&mut self, new: Key) {
        if let Some(Frame {
            container: Container::Mapping { key, .. },
            ..
        }) = self.stack.last_mut()
        {
            *key = new;
        }
    }

    /// Hands a finished node to the collection that holds it (or makes it the root).
    fn complete(&mut self, value: Value, height: usize) {
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(value);
            return;
        };
        frame.height = frame.height.max(height + 1);
        match &mut frame.container {
            Container::Sequence(items) => items.push(value),
            Container::Mapping { map, key, merges } => {
                match std::mem::replace(key, Key::Expected) {
                    Key::Name(k) => {
                        map.insert(k, value);
                    }
                    Key::Merge => merges.push(value),
                    // Keys arrive through `set_key`; a value with no key cannot happen.
                    Key::Expected => {}
                }
            }
        }
    }
}

/// The merge key: a mapping's own keys win, then the merged mappings in order.
fn merge_into(map: &mut Map<String, Value>, merged: Value) {
    match merged {
        Value::Object(other) => {
            for (k, v) in other {
                map.entry(k).or_insert(v);
            }
        }
        Value::Array(items) => {
            for item in items {
                if let Value::Object(other) = item {
                    for (k, v) in other {
                        map.entry(k).or_insert(v);
                    }
                }
            }
        }
        // `<<: 3` merges nothing; kept under its own name rather than lost.
        other => {
            map.entry("<<").or_insert(other);
        }
    }
}
