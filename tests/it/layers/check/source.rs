//! Rust source reduced to the code the checker reads: comments and literals blanked, test-only
//! items blanked, and the child modules declared test-only named.

/// The source with comments and the contents of string and character literals blanked out
/// (newlines kept, so line numbers hold).
pub fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            for _ in i..=j {
                out.push(' ');
            }
            i = j + 1;
            while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                    for _ in 0..=hashes {
                        out.push(' ');
                    }
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() {
                if chars[i] == '\\' {
                    out.push(' ');
                    if let Some(&e) = chars.get(i + 1) {
                        out.push(blank(e));
                    }
                    i += 2;
                } else if chars[i] == '"' {
                    out.push(' ');
                    i += 1;
                    break;
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a) left as it is.
            if next == Some('\\') {
                let mut j = i + 2;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                for _ in i..=j.min(chars.len() - 1) {
                    out.push(' ');
                }
                i = j + 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                out.push_str("   ");
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` with every item under `#[cfg(test)]` blanked out: test code may reach any layer to
/// build realistic input; only the shipped code is layered.
pub fn without_tests(code: &str) -> String {
    let bytes: Vec<char> = code.chars().collect();
    let mut out: Vec<char> = bytes.clone();
    let needle: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + needle.len() <= bytes.len() {
        if bytes[i..i + needle.len()] != needle[..] {
            i += 1;
            continue;
        }
        // Blank from the attribute to the end of the item: the first `;` outside braces, or
        // the brace that closes the item's first `{`.
        let mut j = i;
        let mut depth = 0usize;
        let mut seen_brace = false;
        j += needle.len();
        while j < bytes.len() {
            match bytes[j] {
                '{' => {
                    depth += 1;
                    seen_brace = true;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if seen_brace && depth == 0 {
                        break;
                    }
                }
                ';' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let end = j.min(bytes.len() - 1);
        for c in &mut out[i..=end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end + 1;
    }
    out.into_iter().collect()
}

/// The names of the child modules declared `#[cfg(test)] mod name;` in `code` (files that are
/// test code as a whole).
pub fn test_children(code: &str) -> Vec<String> {
    let flat: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut names = Vec::new();
    let mut rest = flat.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let item = rest.trim_start();
        let item = item
            .strip_prefix("pub(crate) ")
            .or_else(|| item.strip_prefix("pub "))
            .unwrap_or(item);
        if let Some(after) = item.strip_prefix("mod ") {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let tail = after[name.len()..].trim_start();
            if tail.starts_with(';') {
                names.push(name);
            }
        }
    }
    names
}
