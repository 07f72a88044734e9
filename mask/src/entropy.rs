//! Random-looking strings: the generic key, token or password that no
//! provider pattern knows, when it stands in an assignment
//! ([`looks_random`]) or alone as an argument or a JSON key
//! ([`looks_generated`], stricter: nothing names it a secret).

use std::sync::LazyLock;

use regex::Regex;

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

/// Longest a standalone word may be: longer runs are data (base64 file
/// content, embedded images), and keys without a prefix are shorter.
const MAX_GENERATED_LEN: usize = 128;
/// Letters in word-like runs (`User`, `Provider`, `HTTP`, 4 or more
/// letters) as a share of the whole: identifiers and file names are
/// mostly words; random keys of 20+ characters almost never reach this.
const MAX_WORDY_SHARE: f64 = 0.6;
const MIN_WORD_LEN: usize = 4;

static WORDISH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Z]?[a-z]+|[A-Z]+").expect("constant mask regex is valid"));

/// Compiles [`WORDISH`] now.
pub(super) fn prepare() {
    LazyLock::force(&WORDISH);
}

/// A word that is random by more than entropy: not made of words, and none
/// of the shapes that are public by design (SSH public key blobs
/// `AAAA...`, subresource integrity `sha512-...`, file names `name.ext`).
pub(super) fn looks_generated(value: &str) -> bool {
    if value.len() > MAX_GENERATED_LEN
        || value.starts_with(['-', '.'])
        || value.starts_with("AAAA")
        || sri_hash(value)
        || file_name(value)
        || !looks_random(value)
    {
        return false;
    }
    let wordy: usize = WORDISH
        .find_iter(value)
        .map(|m| m.len())
        .filter(|&len| len >= MIN_WORD_LEN)
        .sum();
    (wordy as f64) < MAX_WORDY_SHARE * value.len() as f64
}

/// `sha256-...`, `sha512-...`: an integrity hash, public.
fn sri_hash(value: &str) -> bool {
    ["sha1-", "sha256-", "sha384-", "sha512-"]
        .iter()
        .any(|p| value.starts_with(p))
}

/// Ends in a short extension after a dot (`Report2024Q3Final.pdf`).
fn file_name(value: &str) -> bool {
    value.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
    })
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

    #[test]
    fn generated_words_not_identifiers_names_or_public_blobs() {
        for random in [
            "q8Xz2LmP4vN7tR1wY6bK9sD3",
            "aB3dE5gH7jK9mN1pQ3sT5vX7zA",
            "Zk9Qw2Er7Ty4Ui1Op6As3Df8Gh5Jk0Lz",
        ] {
            assert!(looks_generated(random), "{random}");
        }
        for plain in [
            "useQueryClientProvider2Hook",
            "Screenshot2024at10PMFinalVersion",
            "Report2024Q3FinalDraftX.pdf",
            "AAAAC3NzaC1lZDI1NTE5AAAAIHk3Q9r2Lm8",
            "sha512-Vq3Zx8Kp2Lm5Nt7Rw1Yb4Sd6Fg9Hj0Kl",
            "--with-Option2Name-AbCdEfGh",
        ] {
            assert!(!looks_generated(plain), "{plain}");
        }
    }
}
