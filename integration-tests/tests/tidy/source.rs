//! Rust source read as the tidy checks need it: string and character
//! literals and comments blanked (a path in a message or a doc comment is
//! not code), and `#[cfg(test)]` items cut out (a test may reach across
//! layers). Blanking keeps every newline and every delimiter, so what
//! remains lines up with the file.

/// `text` with the insides of comments, strings and chars as spaces.
pub(crate) fn blank_strings_and_comments(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    let mut out = s.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to.min(s.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < s.len() {
        let next = s.get(i + 1).copied();
        match s[i] {
            '/' if next == Some('/') => {
                let end = s[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(s.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            '/' if next == Some('*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < s.len() && depth > 0 {
                    if s[j] == '/' && s.get(j + 1) == Some(&'*') {
                        depth += 1;
                        j += 1;
                    } else if s[j] == '*' && s.get(j + 1) == Some(&'/') {
                        depth -= 1;
                        j += 1;
                    }
                    j += 1;
                }
                blank(&mut out, i, j);
                i = j;
            }
            'r' if (i == 0 || !ident(s[i - 1]) || raw_after_b(&s, i))
                && matches!(next, Some('"' | '#')) =>
            {
                let hashes = s[i + 1..].iter().take_while(|&&c| c == '#').count();
                if s.get(i + 1 + hashes) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let start = i + 2 + hashes;
                let mut j = start;
                while j < s.len() {
                    if s[j] == '"'
                        && s[j + 1..]
                            .iter()
                            .take(hashes)
                            .filter(|&&c| c == '#')
                            .count()
                            == hashes
                    {
                        break;
                    }
                    j += 1;
                }
                blank(&mut out, start, j);
                i = j + 1 + hashes;
            }
            '"' => {
                let mut j = i + 1;
                while j < s.len() && s[j] != '"' {
                    j += if s[j] == '\\' { 2 } else { 1 };
                }
                blank(&mut out, i + 1, j);
                i = j + 1;
            }
            '\'' => {
                // A char literal ('x', '\n', '\u{1F600}'), not a lifetime ('a).
                let end = if next == Some('\\') {
                    s[i + 2..]
                        .iter()
                        .position(|&c| c == '\'')
                        .map(|n| i + 2 + n)
                } else if s.get(i + 2) == Some(&'\'') {
                    Some(i + 2)
                } else {
                    None
                };
                match end {
                    Some(end) => {
                        blank(&mut out, i + 1, end);
                        i = end + 1;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    out.into_iter().collect()
}

/// `br"..."`: the `r` follows a `b` that starts a token.
fn raw_after_b(s: &[char], i: usize) -> bool {
    i >= 1 && s[i - 1] == 'b' && (i < 2 || !(s[i - 2].is_alphanumeric() || s[i - 2] == '_'))
}

/// `code` (already blanked) with every `#[cfg(test)]` item as spaces: the
/// attribute, any attributes after it, and the item up to its `;` or the
/// `}` that closes its first `{`.
pub(crate) fn without_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out: Vec<char> = code.chars().collect();
    let text: Vec<char> = out.clone();
    let mut from = 0;
    while let Some(at) = find(&text, MARK, from) {
        let mut j = at + MARK.len();
        let mut depth = 0usize;
        while j < text.len() {
            match text[j] {
                ';' if depth == 0 => break,
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let end = (j + 1).min(text.len());
        for c in &mut out[at..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        from = end;
    }
    out.into_iter().collect()
}

fn find(text: &[char], needle: &str, from: usize) -> Option<usize> {
    let needle: Vec<char> = needle.chars().collect();
    (from..text.len().saturating_sub(needle.len() - 1)).find(|&i| text[i..].starts_with(&needle))
}

#[test]
fn strings_comments_and_tests_are_not_code() {
    let text = "use crate::a; // crate::b\nlet s = \"crate::c\"; let r = r#\"crate::d\"#;\n\
                let c = '\"'; fn f<'a>() {} /* crate::e */\n#[cfg(test)]\nmod tests { use crate::f; }\nuse crate::g;\n";
    let code = without_test_items(&blank_strings_and_comments(text));
    assert!(code.contains("crate::a"), "{code}");
    assert!(code.contains("crate::g"), "{code}");
    assert!(code.contains("fn f<'a>()"), "{code}");
    for gone in ["crate::b", "crate::c", "crate::d", "crate::e", "crate::f"] {
        assert!(!code.contains(gone), "{gone} left in:\n{code}");
    }
    assert_eq!(code.lines().count(), text.lines().count());
}
