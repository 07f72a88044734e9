//! Random-looking strings: the generic key, token or password that no
//! provider pattern knows, when it stands in an assignment.

/// Long enough that a word or identifier rarely passes.
const MIN_LEN: usize = 20;
/// Bits per character; lowercase hex (hashes, UUIDs) tops out at 4 and
/// lacks the mixed classes anyway.
const MIN_ENTROPY: f64 = 3.7;

/// A token-alphabet string of mixed case and digits with high entropy.
pub(super) fn looks_random(value: &str) -> bool {
    if value.len() < MIN_LEN
        || !value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-' | '.'))
        || value.matches('/').count() > 1
    {
        return false;
    }
    let has = |f: fn(&char) -> bool| value.chars().any(|c| f(&c));
    if !(has(char::is_ascii_digit)
        && has(char::is_ascii_uppercase)
        && has(char::is_ascii_lowercase))
    {
        return false;
    }
    shannon(value) >= MIN_ENTROPY
}

fn shannon(value: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in value.bytes() {
        counts[usize::from(b)] += 1;
    }
    let len = value.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / len;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_tokens_not_words_hashes_or_paths() {
        for random in ["q8Xz2LmP4vN7tR1wY6bK9sD3", "aB3dE5gH7jK9mN1pQ3sT5vX7zA"] {
            assert!(looks_random(random), "{random}");
        }
        for plain in [
            "production",
            "3f786850e387550fdab836ed7e6dc881de23001b",
            "550e8400-e29b-41d4-a716-446655440000",
            "src/components/Button.tsx",
            "ReactDOMServerRendering",
            "short1A",
        ] {
            assert!(!looks_random(plain), "{plain}");
        }
    }
}
