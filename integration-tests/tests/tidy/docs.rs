//! The Markdown: every relative link reaches a file of the repository
//! (a moved or renamed page breaks no reader's link), and every page
//! under `docs/` is in the book (`docs/SUMMARY.md`), which mdBook builds
//! in CI.

use crate::walk::{files, root, shown};

/// The link targets of `text`'s inline links (`[text](target)`), outside
/// fenced code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans name things without linking to them.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split_whitespace().next().unwrap_or_default();
            targets.push(target.to_owned());
            rest = &rest[end..];
        }
    }
    targets
}

/// Whether `target` is a link into the repository (not a web address, a
/// mail address or an anchor on the same page).
fn is_relative(target: &str) -> bool {
    !(target.is_empty()
        || target.starts_with('#')
        || target.contains("://")
        || target.starts_with("mailto:"))
}

#[test]
fn every_relative_markdown_link_reaches_a_file() {
    let root = root();
    let (mut broken, mut checked) = (Vec::new(), 0);
    for page in files(&root, ".md") {
        let text = std::fs::read_to_string(&page)
            .unwrap_or_else(|err| panic!("{}: {err}", page.display()));
        let dir = page.parent().unwrap_or(&root);
        for target in link_targets(&text) {
            if !is_relative(&target) {
                continue;
            }
            checked += 1;
            let file = target.split('#').next().unwrap_or_default();
            if !dir.join(file).exists() {
                broken.push(format!("{}: {target}", shown(&page)));
            }
        }
    }
    assert!(checked > 0, "no relative link found: the reader is broken");
    assert!(
        broken.is_empty(),
        "links to no file:\n{}",
        broken.join("\n")
    );
}

#[test]
fn every_guide_page_is_in_the_book() {
    let docs = root().join("docs");
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).expect("docs/SUMMARY.md");
    let listed = link_targets(&summary);
    let missing: Vec<String> = files(&docs, ".md")
        .into_iter()
        .filter(|page| page.parent() == Some(docs.as_path()))
        .filter_map(|page| {
            let name = page.file_name()?.to_string_lossy().into_owned();
            (name != "SUMMARY.md" && !listed.contains(&name)).then_some(name)
        })
        .collect();
    assert!(
        missing.is_empty(),
        "pages under docs/ that docs/SUMMARY.md does not list (add them there): {missing:?}"
    );
}

#[test]
fn the_link_reader_sees_links_and_skips_code() {
    let text = "See [a](a.md) and [b](../b.md#part \"title\").\n\
                `[not](x.md)` is code.\n```\n[nor](y.md)\n```\n[web](https://example.org)";
    assert_eq!(
        link_targets(text),
        ["a.md", "../b.md#part", "https://example.org"]
    );
    assert!(!is_relative("https://example.org"));
    assert!(!is_relative("#anchor"));
    assert!(is_relative("../b.md#part"));
}
