//! Where a value of a parsed YAML document sits in its text: the place a finding about it is
//! drawn. One pass over the parser's events, no values built, aliases not followed.

use std::collections::{HashMap, HashSet};

use saphyr_parser::{Event, Parser};

use super::Offsets;
use crate::json::escape_pointer_token;

/// Byte offsets of the nodes at `wanted`, each a (document index, JSON pointer) pair as the
/// values of [`super::parse`] are addressed.
///
/// A mapping's member is placed at its key, so the line shows `key: value`; an item of a
/// sequence at the item; the document itself at its first node. A node the text does not
/// write out (an absent member, a value reached through an alias or a merge key) is placed at
/// its nearest ancestor that it does. `None` when the text has no such document, or stops
/// parsing before it.
pub fn locate(text: &str, wanted: &[(usize, &str)]) -> Vec<Option<usize>> {
    locate_by(text, wanted, false)
}

/// [`locate`] with each document named by the byte offset it starts at
/// ([`super::Document::start`]) instead of its index.
pub fn locate_at_starts(text: &str, wanted: &[(usize, &str)]) -> Vec<Option<usize>> {
    locate_by(text, wanted, true)
}

fn locate_by(text: &str, wanted: &[(usize, &str)], by_start: bool) -> Vec<Option<usize>> {
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut prefixes: HashSet<(usize, &str)> = HashSet::new();
    for &(doc, pointer) in wanted {
        prefixes.insert((doc, ""));
        prefixes.insert((doc, pointer));
        for (i, b) in pointer.bytes().enumerate() {
            if b == b'/' && i > 0 {
                prefixes.insert((doc, &pointer[..i]));
            }
        }
    }
    let last_doc = if by_start {
        None
    } else {
        wanted.iter().map(|w| w.0).max()
    };
    let mut found: HashMap<(usize, String), usize> = HashMap::new();
    let mut offsets = Offsets::new(text);
    let mut walk = Walk::default();
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else { break };
        let at = span.start.index();
        match event {
            Event::DocumentStart(_) => {
                let index = walk.doc_index.map_or(0, |d| d + 1);
                walk.doc_index = Some(index);
                walk.doc = Some(if by_start { offsets.byte(at) } else { index });
                if last_doc.is_some_and(|last| index > last) {
                    break;
                }
                walk.path.clear();
                walk.frames.clear();
            }
            Event::Scalar(ref s, ..) => {
                let token = escape_pointer_token(s);
                walk.node(at, Some(token), false, &prefixes, &mut found, &mut offsets);
            }
            Event::Alias(_) => walk.node(at, None, false, &prefixes, &mut found, &mut offsets),
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                let mapping = matches!(event, Event::MappingStart(..));
                walk.node(at, None, true, &prefixes, &mut found, &mut offsets);
                if let Some(frame) = walk.frames.last_mut() {
                    frame.mapping = mapping;
                }
            }
            Event::SequenceEnd | Event::MappingEnd => walk.close(),
            _ => {}
        }
    }
    wanted
        .iter()
        .map(|&(doc, pointer)| {
            let mut p = pointer;
            loop {
                if let Some(&o) = found.get(&(doc, p.to_string())) {
                    return Some(o);
                }
                if p.is_empty() {
                    return None;
                }
                p = &p[..p.rfind('/').unwrap_or(0)];
            }
        })
        .collect()
}

#[derive(Default)]
struct Frame {
    mapping: bool,
    /// Length of the path before this collection's own token.
    path_len: usize,
    /// Next item index (sequences).
    next: usize,
    /// The key waiting for its value, and where the key is written (mappings).
    key: Option<(String, usize)>,
    /// Inside a key that is itself a collection: nothing below is addressable.
    in_complex_key: bool,
}

#[derive(Default)]
struct Walk {
    /// The document's index in the stream.
    doc_index: Option<usize>,
    /// The document as the caller names it: its index, or its start.
    doc: Option<usize>,
    path: String,
    frames: Vec<Frame>,
}

impl Walk {
    /// A node starts at char index `at`. `scalar` is its text when it is a scalar.
    fn node(
        &mut self,
        at: usize,
        scalar: Option<String>,
        opens: bool,
        prefixes: &HashSet<(usize, &str)>,
        found: &mut HashMap<(usize, String), usize>,
        offsets: &mut Offsets<'_>,
    ) {
        let doc = self.doc.unwrap_or(0);
        let path_len = self.path.len();
        let mut addressable = true;
        let mut place = at;
        match self.frames.last_mut() {
            None => {}
            Some(f) if f.in_complex_key => addressable = false,
            Some(f) if f.mapping && f.key.is_none() => {
                // A key: remembered for the value that follows; a collection as a key is
                // not addressable (JSON has no such keys).
                match scalar {
                    Some(token) => f.key = Some((token, at)),
                    None if opens => {
                        f.key = Some((String::new(), at));
                        self.frames.push(Frame {
                            path_len,
                            in_complex_key: true,
                            ..Frame::default()
                        });
                    }
                    None => f.key = Some((String::new(), at)),
                }
                return;
            }
            Some(f) if f.mapping => {
                let (token, key_at) = f.key.take().unwrap_or_default();
                self.path.push('/');
                self.path.push_str(&token);
                place = key_at;
            }
            Some(f) => {
                self.path.push('/');
                self.path.push_str(&f.next.to_string());
                f.next += 1;
            }
        }
        if addressable && prefixes.contains(&(doc, self.path.as_str())) {
            found
                .entry((doc, self.path.clone()))
                .or_insert_with(|| offsets.byte(place));
        }
        if opens {
            self.frames.push(Frame {
                path_len,
                in_complex_key: !addressable,
                ..Frame::default()
            });
        } else {
            self.path.truncate(path_len);
        }
    }

    fn close(&mut self) {
        if let Some(frame) = self.frames.pop() {
            self.path.truncate(frame.path_len);
        }
    }
}
