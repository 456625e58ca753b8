//! Resolving many pointers into one text: the containers on the way indexed once, so a file with
//! thousands of findings is not rescanned for each.

use super::locate::{Span, next_structural, skip_container, skip_value, skip_ws, unescape_token};
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
        Some(b'{' | b'[') => skip_container::<true>(bytes, i),
        Some(_) => skip_value(bytes, i),
        None => bytes.len(),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::seeded::below;

    /// The end as it was first worked out: the line's end found first, then the value's end
    /// within the line.
    fn line_first(bytes: &[u8], i: usize) -> usize {
        let line_end = bytes[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |n| i + n);
        skip_value(&bytes[..line_end], i).min(line_end)
    }

    /// A drawn JSON value written with drawn whitespace (newlines among it), strings holding
    /// brackets, quotes and escapes; where each container opens is pushed to `opens`.
    fn value(state: &mut u64, depth: usize, out: &mut String, opens: &mut Vec<usize>) {
        let gap = |state: &mut u64, out: &mut String| {
            out.push_str(["", " ", "\n", "\n  ", "\r\n\t"][below(state, 5)]);
        };
        match below(state, if depth > 4 { 3 } else { 5 }) {
            0 => out.push_str(["1", "-2.5e3", "true", "null", "NaN"][below(state, 5)]),
            1 => out.push_str(
                ["\"a\"", "\"[{\"", "\"q\\\"}]\"", "\"\\n\\\\\"", "\"é\""][below(state, 5)],
            ),
            2 => out.push_str(["[]", "{}", "[ ]"][below(state, 3)]),
            kind => {
                let object = kind == 3;
                opens.push(out.len());
                out.push(if object { '{' } else { '[' });
                for k in 0..below(state, 5) {
                    if k > 0 {
                        out.push(',');
                    }
                    gap(state, out);
                    if object {
                        let _ = write!(out, "\"k{k}]\": ");
                    }
                    value(state, depth + 1, out, opens);
                    gap(state, out);
                }
                out.push(if object { '}' } else { ']' });
            }
        }
    }

    /// Found in one scan, a container's end on its first line is what finding the line's end
    /// first gave, for every container of drawn documents written on one line or on many.
    #[test]
    fn a_containers_first_line_end_is_found_without_reading_the_rest_of_the_line() {
        let mut state = 0x11_e4d_u64;
        let mut compared = 0;
        for _ in 0..1000 {
            let (mut text, mut opens) = (String::new(), Vec::new());
            for _ in 0..=below(&mut state, 3) {
                value(&mut state, 0, &mut text, &mut opens);
                text.push_str(["\n", " ", ""][below(&mut state, 3)]);
            }
            let bytes = text.as_bytes();
            for &open in &opens {
                assert_eq!(
                    skip_container::<true>(bytes, open),
                    line_first(bytes, open),
                    "at {open} of {text:?}"
                );
                compared += 1;
            }
            // A text cut anywhere: an unclosed container ends at its line or the text's end.
            let cut = below(&mut state, bytes.len() + 1);
            for &open in opens.iter().filter(|&&o| o < cut) {
                assert_eq!(
                    skip_container::<true>(&bytes[..cut], open),
                    line_first(&bytes[..cut], open)
                );
            }
        }
        assert!(compared > 2000, "{compared} containers compared");
    }
}
