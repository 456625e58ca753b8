//! Markdown (and HTML) from text whose parts keep their origin. Benchlint's own words may hold
//! `` `...` `` spans, which become code spans (`<code>` in HTML); text from an input never
//! opens or closes one: its backticks are content, and a span is fenced with one backtick more
//! than the longest run it holds (CommonMark), so nothing inside can end it.

use super::Origin;

/// Markdown text on one line: `\`, `` ` ``, `[`, `]`, `|` escaped, `<`, `>`, `&` as
/// entities, and the `://` of a bare URL and the dot of `www.` escaped so GitHub makes no link.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    let mut prev3 = String::new();
    while let Some(c) = chars.next() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '[' | ']' | '|' | '`' => {
                out.push('\\');
                out.push(c);
            }
            ':' if chars.peek() == Some(&'/') => out.push_str("\\:"),
            '.' if prev3.eq_ignore_ascii_case("www") => out.push_str("\\."),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
        prev3.push(c);
        if prev3.len() > 3 {
            prev3.remove(0);
        }
    }
    out
}

/// A code span holding `s` (on one line), fenced so that no backtick in it can close it.
pub fn code(s: &str, in_table: bool) -> String {
    let s: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let s = if in_table { s.replace('|', "\\|") } else { s };
    if s.is_empty() {
        return "` `".to_string();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    // A space on each side when the content starts or ends with a backtick (or both with a
    // space): CommonMark strips one space from each side of such a span.
    let pad = s.starts_with('`')
        || s.ends_with('`')
        || (s.starts_with(' ') && s.ends_with(' ') && s.trim() != "");
    if pad {
        format!("{fence} {s} {fence}")
    } else {
        format!("{fence}{s}{fence}")
    }
}

/// Splits pieces `(origin, text)` into spans: `(code, [(from_input, text)])`, at the
/// backticks of benchlint's own pieces and of its quoting sentences. An unclosed span is text.
fn spans(pieces: &[(Origin, String)]) -> Vec<(bool, Vec<(bool, String)>)> {
    let mut out: Vec<(bool, Vec<(bool, String)>)> = vec![(false, Vec::new())];
    for (origin, s) in pieces {
        if *origin == Origin::File {
            out.last_mut().expect("one span").1.push((true, s.clone()));
            continue;
        }
        // A quoting sentence is masked and escaped as a whole, then split at its backticks.
        let quoting = *origin == Origin::Quoting;
        let s = if quoting {
            super::line(s).into_owned()
        } else {
            s.clone()
        };
        let mut first = true;
        for chunk in s.split('`') {
            if !first {
                let code = !out.last().expect("one span").0;
                out.push((code, Vec::new()));
            }
            first = false;
            if !chunk.is_empty() {
                // Already masked and escaped: shown as benchlint's own from here.
                out.last_mut()
                    .expect("one span")
                    .1
                    .push((false, chunk.to_string()));
            }
        }
    }
    // An odd backtick: the last span never closed, so it was text after a literal backtick.
    if out.last().is_some_and(|s| s.0) {
        let (_, mut last) = out.pop().expect("checked");
        let prev = out.last_mut().expect("a span before a code span");
        prev.1.push((false, "`".to_string()));
        prev.1.append(&mut last);
    }
    out
}

/// Markdown on one line from pieces `(origin, text)`.
pub fn render(pieces: &[(Origin, String)], in_table: bool) -> String {
    let mut out = String::new();
    for (is_code, parts) in spans(pieces) {
        if is_code {
            let content: String = parts
                .iter()
                .map(|(file, s)| {
                    if *file {
                        super::line(s).into_owned()
                    } else {
                        s.clone()
                    }
                })
                .collect();
            out.push_str(&code(&content, in_table));
        } else {
            for (file, s) in parts {
                if file {
                    out.push_str(&text(&super::line(&s)));
                } else {
                    out.push_str(&text(&s));
                }
            }
        }
    }
    out
}

/// HTML from pieces `(origin, text)`: code spans as `<code>`, everything escaped.
pub fn render_html(pieces: &[(Origin, String)]) -> String {
    let mut out = String::new();
    for (is_code, parts) in spans(pieces) {
        let mut inner = String::new();
        for (file, s) in parts {
            if file {
                inner.push_str(&super::html_escape(&super::line(&s)));
            } else {
                inner.push_str(&super::html_escape(&s));
            }
        }
        if is_code {
            out.push_str("<code>");
            out.push_str(&inner);
            out.push_str("</code>");
        } else {
            out.push_str(&inner);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_cannot_be_closed_from_inside() {
        assert_eq!(code("a|b", false), "`a|b`");
        assert_eq!(code("a|b", true), "`a\\|b`");
        assert_eq!(code("a`b", false), "``a`b``");
        assert_eq!(code("``x", false), "``` ``x ```");
        assert_eq!(
            code("x` <img src=x onerror=alert(1)> `", false)
                .matches("``")
                .count(),
            2
        );
    }

    #[test]
    fn own_backticks_make_code_input_backticks_do_not() {
        let pieces = vec![
            (Origin::Own, "result `".to_string()),
            (
                Origin::File,
                "x`<img onerror=1>`[l](javascript:a)".to_string(),
            ),
            (Origin::Own, "` is missing; see https://x.y".to_string()),
        ];
        assert_eq!(
            render(&pieces, false),
            "result ``x`<img onerror=1>`[l](javascript:a)`` is missing; see https\\://x.y"
        );
        assert_eq!(
            render(
                &[(Origin::File, "<b>`x`</b> www.evil.com".to_string())],
                false
            ),
            "&lt;b&gt;\\`x\\`&lt;/b&gt; www\\.evil.com"
        );
        assert_eq!(
            render(&[(Origin::Own, "odd ` tick".to_string())], false),
            "odd \\` tick"
        );
        assert_eq!(
            render_html(&[
                (Origin::Own, "a `b` c".into()),
                (Origin::File, "<i>".into())
            ]),
            "a <code>b</code> c&lt;i&gt;"
        );
        // A quoting sentence: its backticks make code, never a backtick inside one.
        assert_eq!(
            render(&[(Origin::Quoting, "on `x`y` here".into())], false),
            "on `x`y\\` here"
        );
    }
}
