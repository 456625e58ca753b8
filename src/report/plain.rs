//! A rule page's Markdown as plain text (SARIF's `help.text`, which viewers show as it is) and
//! the complete sentences that open it (SARIF's `fullDescription`).
//!
//! Only the Markdown benchlint's own rule pages use is undone: headings, code spans and
//! fences, strong emphasis, links and backslash escapes. Lists keep their `- ` markers, which
//! read as plain text too.

/// `markdown` as plain text: `# Heading` becomes `Heading`, a code fence's lines are indented
/// by four spaces without the fence, `` `code` `` loses its backticks, `**strong**` its stars,
/// `[text](target)` becomes `text (target)`, and `\*` becomes `*`.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut in_fence = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push_str("    ");
            out.push_str(line);
        } else if let Some(heading) = heading(trimmed) {
            out.push_str(&inline(heading));
        } else {
            out.push_str(&inline(line));
        }
        out.push('\n');
    }
    out
}

/// The text of an ATX heading line (`## Why`), if it is one.
fn heading(line: &str) -> Option<&str> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) {
        let rest = &line[hashes..];
        if rest.is_empty() || rest.starts_with(' ') {
            return Some(rest.trim());
        }
    }
    None
}

/// One line's inline Markdown undone.
fn inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if chars.get(i + 1).is_some_and(char::is_ascii_punctuation) => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '`' => {
                // A code span: its text as it is, backticks dropped.
                let ticks = chars[i..].iter().take_while(|&&c| c == '`').count();
                let body_start = i + ticks;
                let close = (body_start..chars.len()).find(|&k| {
                    chars[k..].iter().take_while(|&&c| c == '`').count() == ticks
                        && chars.get(k.wrapping_sub(1)) != Some(&'`')
                });
                match close {
                    Some(end) => {
                        out.extend(&chars[body_start..end]);
                        i = end + ticks;
                    }
                    // A span that goes on to the next line: its backticks dropped too.
                    None => i = body_start,
                }
            }
            '*' if chars.get(i + 1) == Some(&'*') => i += 2,
            '[' => {
                if let Some((text, target, next)) = link(&chars, i) {
                    out.push_str(&inline(&text));
                    out.push_str(" (");
                    out.push_str(&target);
                    out.push(')');
                    i = next;
                } else {
                    out.push(c);
                    i += 1;
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A link `[text](target)` starting at `chars[at]`: its text, target and the index past it.
fn link(chars: &[char], at: usize) -> Option<(String, String, usize)> {
    let close = (at + 1..chars.len()).find(|&k| chars[k] == ']')?;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let end = (close + 2..chars.len()).find(|&k| chars[k] == ')')?;
    Some((
        chars[at + 1..close].iter().collect(),
        chars[close + 2..end].iter().collect(),
        end + 1,
    ))
}

/// The complete sentences opening `markdown`'s first paragraph of prose, as plain text on one
/// line, at most `limit` characters: a paragraph that ends by announcing a list (`It
/// fires:`) keeps the sentences before that, and one with no complete sentence gives
/// `fallback`. Always ends with a full stop (or the `…` of a cut).
pub fn opening_sentences(markdown: &str, fallback: &str, limit: usize) -> String {
    let first = markdown
        .split("\n\n")
        .map(|p| {
            p.lines()
                .filter(|l| heading(l.trim_start()).is_none())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .find(|p| !p.trim().is_empty())
        .unwrap_or_default();
    let one_line = plain_text(&first)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let complete = complete_prefix(&one_line);
    let text = if complete.is_empty() {
        let fallback = plain_text(fallback);
        let mut f = if fallback.trim().is_empty() {
            one_line.clone()
        } else {
            fallback.trim().to_string()
        };
        if !f.ends_with(['.', '!', '?']) {
            f.push('.');
        }
        f
    } else {
        complete.to_string()
    };
    if text.chars().count() <= limit {
        return text;
    }
    // Too long: the complete sentences that fit, else a cut.
    let mut fitting: String = text.chars().take(limit).collect();
    let kept = complete_prefix(&fitting).len();
    if kept > 0 {
        fitting.truncate(kept);
        return fitting;
    }
    let mut cut: String = text.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The longest prefix of `s` that ends a sentence: at a `.`, `!` or `?` followed by a space
/// or the end (a `.` inside `e.g.` or `1.5` is followed by neither).
fn complete_prefix(s: &str) -> &str {
    let bytes = s.as_bytes();
    let mut end = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'!' | b'?') {
            let next = bytes.get(i + 1);
            let closes = next.is_none()
                || next == Some(&b' ')
                || (matches!(next, Some(b')' | b'"'))
                    && matches!(bytes.get(i + 2), None | Some(b' ')));
            if closes {
                end = if matches!(next, Some(b')' | b'"')) {
                    i + 2
                } else {
                    i + 1
                };
            }
        }
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_plain_text() {
        let md = "## What it checks\nThat `engine.version` is **recorded**; see [seed 004](../seeds/004.md) and \\*.\n\n```toml\nmin = 3\n```\n- a list item";
        assert_eq!(
            plain_text(md),
            "What it checks\nThat engine.version is recorded; see seed 004 (../seeds/004.md) and *.\n\n    min = 3\n- a list item\n"
        );
        // A code span across lines loses its backticks; brackets without a target stay.
        assert_eq!(plain_text("a `b\nc` d [e] f"), "a b\nc d [e] f\n");
    }

    #[test]
    fn the_description_is_complete_sentences() {
        let doc = "## What it checks\nThat each level was measured in a window of 120 s (its `duration_s`). It fires:\n\n- on a burst";
        assert_eq!(
            opening_sentences(doc, "levels not measured in a steady window", 1024),
            "That each level was measured in a window of 120 s (its duration_s)."
        );
        assert_eq!(
            opening_sentences("## What\nIt fires:\n\n- x", "a `summary`", 1024),
            "a summary."
        );
        // Too long: cut at the last sentence that fits; `e.g.` ends none.
        let long = "First sentence, e.g. this one. Second sentence is longer than the rest.";
        assert_eq!(
            opening_sentences(long, "", 40),
            "First sentence, e.g. this one."
        );
        assert_eq!(
            opening_sentences("No full stop at all here", "", 10),
            "No full s…"
        );
    }
}
