//! How a command is written in the held-out guard corpus
//! (`test-data/guard-corpus/`, `category <TAB> source <TAB> command` rows):
//! `{{nl}}`, `{{tab}}` and `{{pad:N}}` stand for a newline, a tab and N
//! letters, anything else is as the shell gets it. One reader for the
//! integration tests' corpus (which also checks each row's form), the
//! config crate's tests and its measurements.

/// The longest `{{pad:N}}` a row may ask for (a line past the guard's
/// 1 MiB bound is refused as a whole, which tests nothing more).
pub const MAX_PAD: usize = 1 << 20;

/// `written` with `{{nl}}`, `{{tab}}` and `{{pad:N}}` expanded; any other
/// `{{...}}` (a Go template in a `docker inspect -f`) stays as written.
pub fn expand(written: &str) -> String {
    let mut out = String::with_capacity(written.len());
    let mut rest = written;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let token = tail.find("}}").map(|end| (&tail[2..end], end + 2));
        let expansion = token.and_then(|(name, len)| {
            let text = match name {
                "nl" => "\n".to_owned(),
                "tab" => "\t".to_owned(),
                _ => {
                    let n: usize = name.strip_prefix("pad:")?.parse().ok()?;
                    "x".repeat(n.min(MAX_PAD))
                }
            };
            Some((text, len))
        });
        match expansion {
            Some((text, len)) => {
                out.push_str(&text);
                rest = &tail[len..];
            }
            None => {
                out.push_str("{{");
                rest = &tail[2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The commands of a corpus file's `text`, expanded: its third field of
/// every row, `#` comments and blank lines skipped.
pub fn commands(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.splitn(3, '\t').nth(2))
        .map(expand)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_expand_and_templates_stay() {
        assert_eq!(expand("a{{nl}}b{{tab}}c"), "a\nb\tc");
        assert_eq!(expand("#{{pad:3}}!"), "#xxx!");
        assert_eq!(
            expand("docker inspect -f '{{.State}}'"),
            "docker inspect -f '{{.State}}'"
        );
        assert_eq!(expand("x {{ y"), "x {{ y");
        assert_eq!(expand(r"printf 'a\n'"), r"printf 'a\n'");
    }

    #[test]
    fn commands_are_the_third_fields_expanded() {
        let text = "# a comment\n\nnet\tlabel\tcurl x{{nl}}y\nfs\tother\tprintf 'a\\n'\n";
        assert_eq!(commands(text), ["curl x\ny", r"printf 'a\n'"]);
    }
}
