//! What inert means for a format: no cell a spreadsheet would evaluate in CSV, no live HTML or
//! link in Markdown and HTML.

/// The cells of a CSV text (RFC 4180: quoted cells may hold commas, quotes and line breaks).
fn csv_cells(text: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',' | '\n') => cells.push(std::mem::take(&mut cell)),
            (_, c) => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}

/// No cell starts with what makes a spreadsheet evaluate it (`=`, `+`, `@`, a tab, a carriage
/// return, or a `-` that does not begin a number), leading spaces aside.
pub(super) fn csv_is_inert(what: &str, text: &str) {
    for cell in csv_cells(text) {
        let t = cell.trim_start_matches(' ');
        let live = match t.chars().next() {
            Some('=' | '+' | '@' | '\t' | '\r') => true,
            Some('-') => t.parse::<f64>().is_err(),
            _ => false,
        };
        assert!(
            !live,
            "{what}: a CSV cell a spreadsheet evaluates: {cell:?}"
        );
    }
}

/// A rule page's file name as benchlint writes it: `e001-unreadable-file.md` (lowercased).
fn is_rule_page_name(t: &str) -> bool {
    let Some(stem) = t.strip_suffix(".md") else {
        return false;
    };
    let Some((code, name)) = stem.split_once('-') else {
        return false;
    };
    code.len() == 4
        && code.starts_with(|c: char| c.is_ascii_lowercase())
        && code[1..].chars().all(|c| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
}

/// Outside code spans (found as CommonMark finds them: a run of n backticks closed by the next
/// run of exactly n), Markdown holds no HTML tag and no link but benchlint's own rule pages
/// and anchors.
#[expect(clippy::many_single_char_names, reason = "a scanner's indices")]
pub(super) fn markdown_is_inert(what: &str, text: &str) {
    for line in text.lines() {
        let b: Vec<char> = line.chars().collect();
        let mut outside = String::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == '\\' && i + 1 < b.len() {
                outside.push(' ');
                i += 2;
                continue;
            }
            if b[i] == '`' {
                let n = b[i..].iter().take_while(|&&c| c == '`').count();
                // The closing run of exactly n backticks.
                let mut j = i + n;
                let mut close = None;
                while j < b.len() {
                    if b[j] == '`' {
                        let m = b[j..].iter().take_while(|&&c| c == '`').count();
                        if m == n {
                            close = Some(j + m);
                            break;
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                }
                if let Some(end) = close {
                    outside.push_str(" CODE ");
                    i = end;
                } else {
                    outside.push_str(&"`".repeat(n));
                    i += n;
                }
                continue;
            }
            outside.push(b[i]);
            i += 1;
        }
        let lower = outside.to_ascii_lowercase();
        let tag = lower
            .char_indices()
            .find(|&(k, c)| {
                c == '<'
                    && lower[k + 1..].chars().next().is_some_and(|n| {
                        n.is_ascii_alphabetic() || n == '/' || n == '!' || n == '?'
                    })
            })
            .map(|(k, _)| k);
        assert!(tag.is_none(), "{what}: live HTML in Markdown: {line:?}");
        // A `javascript:` is live only as a link's target: the check below.
        for (k, _) in lower.match_indices("](") {
            let target = &lower[k + 2..];
            // The index of the rule pages shipped beside a report links its sibling pages.
            let sibling_page =
                what.contains("/rules/") && target.split(')').next().is_some_and(is_rule_page_name);
            assert!(
                target.starts_with("rules/") || target.starts_with('#') || sibling_page,
                "{what}: a link that benchlint did not write: {line:?}"
            );
        }
    }
}

/// Every tag is one benchlint writes, no attribute is an event handler, no URL runs script.
pub(super) fn html_is_inert(what: &str, text: &str) {
    const TAGS: [&str; 43] = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "main",
        "h1",
        "h2",
        "h3",
        "p",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "a",
        "code",
        "strong",
        "span",
        "section",
        "blockquote",
        "ul",
        "li",
        "figure",
        "figcaption",
        "svg",
        "g",
        "line",
        "rect",
        "circle",
        "path",
        "text",
        "defs",
        "pattern",
        "polyline",
        "br",
        "footer",
        // The rule pages shipped beside an audit report (`rules/*.html`).
        "pre",
        // The corpus report's contents and scrolling tables.
        "nav",
        "div",
    ];
    let lower = text.to_ascii_lowercase();
    for (k, _) in lower.match_indices('<') {
        let rest = &lower[k + 1..];
        let name: String = rest
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
            .collect();
        assert!(
            TAGS.contains(&name.as_str()) || ["polygon", "tspan", "title"].contains(&name.as_str()),
            "{what}: a tag benchlint does not write: {:?}",
            &text[k..(k + 80).min(text.len())]
        );
        // The tag up to its `>`, attribute values (quoted) left out: only names remain.
        let mut unquoted = String::new();
        let mut quote = None;
        for c in rest.chars() {
            match (quote, c) {
                (None, '>') => break,
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, c) => unquoted.push(c),
                (Some(_), _) => {}
            }
        }
        let inside = unquoted.as_str();
        let handler = inside
            .split(|c: char| c.is_whitespace() || c == '/')
            .any(|a| a.starts_with("on") && a.contains('='));
        assert!(!handler, "{what}: an event handler in <{inside}>");
        assert!(
            !inside.contains("javascript:"),
            "{what}: a javascript: URL in <{inside}>"
        );
    }
}
