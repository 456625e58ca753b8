//! Resolving many pointers into one text: the containers on the way indexed once, so a file with
//! thousands of findings is not rescanned for each.

use super::locate::{Span, next_structural, skip_value, skip_ws, unescape_token};
use super::strings::skip_string;

/// Resolves many pointers into one text, scanning each container at most once.
///
/// A report may hold thousands of findings in one file, most of them past a large `levels`
/// array; walking from the start for each would rescan it every time. The locator remembers,
/// for every container it has entered, where each of its members starts, and for every container
/// it has stepped over, where it ends: indexing the root steps over the `levels` array once, and
/// indexing that array and then one of its levels finds each member's end already known, rather
/// than crossing the levels' samples twice more.
#[derive(Debug, Default)]
pub struct Locator {
    children: foldhash::HashMap<usize, Members>,
    ends: Ends,
}

/// Where each container stepped over ends (one past its closing bracket), by where it opens.
type Ends = foldhash::HashMap<usize, usize>;

/// The members of one container: an array by index, an object by key (the first of a
/// repeated key, as a scan finds it). Keys are kept as where they are written in the text, so
/// indexing an object allocates nothing per member; a large object (a claims file with 100,000
/// claims, or an object with as many keys) is looked up through a map instead of member by
/// member for each pointer.
#[derive(Debug)]
enum Members {
    Array(Vec<usize>),
    Object(Vec<(Key, usize)>),
    Large(foldhash::HashMap<String, usize>),
}

/// A member's key: where it is written in the text, or decoded when it holds an escape.
#[derive(Debug)]
enum Key {
    At(usize, usize),
    Decoded(String),
}

impl Key {
    fn as_str<'t>(&'t self, text: &'t str) -> &'t str {
        match self {
            Key::At(start, end) => &text[*start..*end],
            Key::Decoded(s) => s,
        }
    }
}

/// Objects with more members than this are looked up through a map.
const LINEAR_MEMBERS: usize = 32;

impl Members {
    fn of(text: &str, open: usize, ends: &mut Ends) -> Self {
        if text.as_bytes().get(open) == Some(&b'[') {
            return Members::Array(elements(text.as_bytes(), open, ends));
        }
        let list = keys(text, open, ends);
        if list.len() <= LINEAR_MEMBERS {
            return Members::Object(list);
        }
        let mut map = <foldhash::HashMap<_, _> as foldhash::HashMapExt>::with_capacity(list.len());
        for (k, at) in list {
            map.entry(k.as_str(text).to_string()).or_insert(at);
        }
        Members::Large(map)
    }

    fn get(&self, text: &str, token: &str) -> Option<usize> {
        match self {
            // A pointer's array index: digits, no leading zero (as `index.to_string()` writes).
            Members::Array(items) => {
                if token.is_empty()
                    || (token.len() > 1 && token.starts_with('0'))
                    || !token.bytes().all(|b| b.is_ascii_digit())
                {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?).copied()
            }
            Members::Object(list) => list
                .iter()
                .find(|(k, _)| k.as_str(text) == token)
                .map(|&(_, at)| at),
            Members::Large(map) => map.get(token).copied(),
        }
    }
}

impl Locator {
    /// Like [`locate`](super::locate), with the span's end cut at the end of its first line
    /// (what a snippet shows), so a large value is never scanned to its end.
    pub fn locate_first_line(
        &mut self,
        text: &str,
        doc_start: usize,
        pointer: &str,
    ) -> Option<Span> {
        let bytes = text.as_bytes();
        let mut pos = skip_ws(bytes, doc_start);
        if pos >= bytes.len() {
            return None;
        }
        let mut exact = true;
        for raw in pointer.split('/').skip(1) {
            let token = if raw.contains('~') {
                std::borrow::Cow::Owned(unescape_token(raw))
            } else {
                std::borrow::Cow::Borrowed(raw)
            };
            let ends = &mut self.ends;
            let kids = self
                .children
                .entry(pos)
                .or_insert_with(|| Members::of(text, pos, ends));
            if let Some(child) = kids.get(text, &token) {
                pos = child;
            } else {
                exact = false;
                break;
            }
        }
        let end = if exact {
            first_line_end(bytes, pos)
        } else {
            (pos + 1).min(bytes.len())
        };
        Some(Span {
            start: pos,
            end,
            exact,
        })
    }
}

/// The keys of the object at `open` and where each value starts.
fn keys(text: &str, open: usize, ends: &mut Ends) -> Vec<(Key, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    if bytes.get(open) != Some(&b'{') {
        return out;
    }
    let mut i = skip_ws(bytes, open + 1);
    while i < bytes.len() && bytes[i] == b'"' {
        let key_end = skip_string(bytes, i);
        // An unclosed key (a truncated text) ends the members: the slice needs its quote.
        if key_end <= i + 1 || bytes[key_end - 1] != b'"' {
            break;
        }
        let key = if text[i + 1..key_end - 1].contains('\\') {
            Key::Decoded(
                serde_json::from_str::<String>(&text[i..key_end])
                    .unwrap_or_else(|_| text[i + 1..key_end - 1].to_string()),
            )
        } else {
            Key::At(i + 1, key_end - 1)
        };
        i = skip_ws(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            break;
        }
        i = skip_ws(bytes, i + 1);
        if i >= bytes.len() {
            break;
        }
        out.push((key, i));
        i = skip_ws(bytes, step_over(bytes, i, ends));
        if bytes.get(i) != Some(&b',') {
            break;
        }
        i = skip_ws(bytes, i + 1);
    }
    out
}

/// Where each element of the array at `open` starts.
fn elements(bytes: &[u8], open: usize, ends: &mut Ends) -> Vec<usize> {
    let mut out = Vec::new();
    if bytes.get(open) != Some(&b'[') {
        return out;
    }
    let mut i = skip_ws(bytes, open + 1);
    while i < bytes.len() && bytes[i] != b']' {
        out.push(i);
        i = skip_ws(bytes, step_over(bytes, i, ends));
        if bytes.get(i) != Some(&b',') {
            break;
        }
        i = skip_ws(bytes, i + 1);
    }
    out
}

/// One past the value at `i`, as [`skip_value`] finds it, remembering in `ends` where every
/// container inside it ends and stepping over any container whose end is already known.
fn step_over(bytes: &[u8], i: usize, ends: &mut Ends) -> usize {
    if !matches!(bytes.get(i), Some(b'{' | b'[')) {
        return skip_value(bytes, i);
    }
    if let Some(&end) = ends.get(&i) {
        return end;
    }
    // The containers open around `j`, innermost last; a closing bracket of either kind closes
    // the innermost, as skip_value counts depth.
    let mut open: Vec<usize> = vec![i];
    let mut j = i + 1;
    while j < bytes.len() {
        j = next_structural(bytes, j);
        if j >= bytes.len() {
            break;
        }
        match bytes[j] {
            b'"' => {
                j = skip_string(bytes, j);
                continue;
            }
            b'{' | b'[' => {
                if let Some(&end) = ends.get(&j) {
                    j = end;
                    continue;
                }
                open.push(j);
            }
            _ => {
                let start = open
                    .pop()
                    .expect("one container is open until the outermost closes");
                ends.insert(start, j + 1);
                if open.is_empty() {
                    return j + 1;
                }
            }
        }
        j += 1;
    }
    bytes.len()
}

/// One past the value at `i`, or the end of its first line if it spans several.
fn first_line_end(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i) {
        Some(b'{' | b'[') => {
            let line_end = bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| i + n);
            let end = skip_value(&bytes[..line_end], i);
            end.min(line_end)
        }
        Some(_) => skip_value(bytes, i),
        None => bytes.len(),
    }
}
