//! ARCHITECTURE.md's "Adding an agent" checklist names every file that
//! lists the agents, and nothing it names is gone. A file that mentions
//! (nearly) every agent is a list someone must extend for the next one; if
//! the checklist does not name it, the next agent is added without it and
//! is silently missing there. And the agents added last live only in the
//! checklist's files: adding one touches nothing else.

use std::process::Command;

use crate::walk::root;

/// Each agent by the spellings that name it: its Rust variant, its config
/// name, its module.
const AGENTS: [(&str, &[&str]); 10] = [
    ("claude-code", &["ClaudeCode", "claude-code", "claude_code"]),
    ("cursor", &["Cursor", "cursor"]),
    ("cline", &["Cline", "cline"]),
    ("gemini-cli", &["GeminiCli", "gemini"]),
    ("codex", &["Codex", "codex"]),
    ("copilot", &["Copilot", "copilot"]),
    ("qwen-code", &["QwenCode", "qwen"]),
    ("droid", &["Droid", "droid"]),
    ("hermes", &["Hermes", "hermes"]),
    ("opencode", &["OpenCode", "opencode"]),
];
/// Cursor has no CLI here, so lists of real agents name the others.
const AT_LEAST: usize = AGENTS.len() - 1;
/// The files that can hold such a list: code (the SDKs' JavaScript and
/// type declarations too), contracts, scripts, config.
const CODE: [&str; 7] = [".rs", ".proto", ".py", ".sh", ".toml", ".js", ".ts"];

#[test]
fn the_agent_checklist_names_every_list_of_agents() {
    let checklist = checklist();
    let patterns = named_paths(&checklist);
    assert!(patterns.len() > 10, "the checklist names only {patterns:?}");
    let mut problems = Vec::new();
    for path in tracked_code() {
        if path.starts_with(".ci/") {
            continue;
        }
        let Ok(text) = std::fs::read(root().join(&path)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&text);
        let named = AGENTS
            .iter()
            .filter(|(_, spellings)| spellings.iter().any(|s| text.contains(s)))
            .count();
        if named >= AT_LEAST && !patterns.iter().any(|p| covers(p, &path)) {
            problems.push(format!(
                "{path} names {named} agents but the checklist does not name it"
            ));
        }
    }
    for pattern in patterns.iter().filter(|p| !p.contains('*')) {
        if !root().join(pattern.trim_end_matches('/')).exists() {
            problems.push(format!(
                "the checklist names {pattern}, which does not exist"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md, \"Adding an agent\":\n{}",
        problems.join("\n")
    );
}

/// The agents added last, by following the checklist alone.
const ADDED_BY_THE_CHECKLIST: [&str; 2] = ["hermes", "opencode"];

/// Adding an agent touches only the checklist's files: every code file
/// that names one of the agents added last is one the checklist names (a
/// file that knows one agent only is a place the next one may need too).
#[test]
fn the_newest_agents_live_only_in_the_checklists_files() {
    let patterns = named_paths(&checklist());
    let problems: Vec<String> = tracked_code()
        .into_iter()
        .filter(|path| !path.starts_with(".ci/") && !patterns.iter().any(|p| covers(p, path)))
        .filter_map(|path| {
            let text = std::fs::read(root().join(&path)).ok()?;
            let text = String::from_utf8_lossy(&text).to_lowercase();
            let named: Vec<&str> = ADDED_BY_THE_CHECKLIST
                .into_iter()
                .filter(|agent| text.contains(agent))
                .collect();
            (!named.is_empty()).then(|| format!("{path} names {named:?}"))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md, \"Adding an agent\", does not name:\n{}",
        problems.join("\n")
    );
}

#[test]
fn checklist_paths_and_globs_read_as_intended() {
    let paths =
        named_paths("see `adapters/src/<agent>/` and `dialect/src/detect.rs`, not `Agent::ALL`");
    assert_eq!(paths, ["adapters/src/*/", "dialect/src/detect.rs"]);
    assert!(covers("adapters/src/*/", "adapters/src/codex/events.rs"));
    assert!(covers(
        "adapters/test_data/*/",
        "adapters/test_data/qwen/x.json"
    ));
    assert!(covers("dialect/src/detect.rs", "dialect/src/detect.rs"));
    assert!(covers("dialect/src/detect", "dialect/src/detect/tests.rs"));
    assert!(!covers("dialect/src/detect.rs", "dialect/src/fallback.rs"));
}

/// The section "## Adding an agent" of ARCHITECTURE.md.
fn checklist() -> String {
    let text =
        std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("read ARCHITECTURE.md");
    let start = text
        .find("## Adding an agent")
        .expect("ARCHITECTURE.md has a section \"## Adding an agent\"");
    let end = text[start + 1..]
        .find("\n## ")
        .map_or(text.len(), |at| start + 1 + at);
    text[start..end].to_owned()
}

/// Every backticked repository path in `section`, `<agent>` and
/// `<Event>` as `*`.
fn named_paths(section: &str) -> Vec<String> {
    section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|token| {
            token.contains('/')
                && token
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_.<>/-".contains(c))
        })
        .map(|token| token.replace("<agent>", "*").replace("<Event>", "*"))
        .collect()
}

/// Whether checklist entry `pattern` names `path`: a folder (ending in
/// `/`) names what is under it; otherwise `pattern` as a glob (`*` any
/// run of characters), or a prefix of it.
fn covers(pattern: &str, path: &str) -> bool {
    (pattern.ends_with('/') && path.starts_with(pattern))
        || glob(pattern, path)
        || glob(&format!("{pattern}*"), path)
}

/// `*` matches any run of characters, `/` included (as Python's fnmatch).
fn glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// The repository's tracked code files (`git ls-files`), relative paths.
fn tracked_code() -> Vec<String> {
    let globs: Vec<String> = CODE.iter().map(|ext| format!("*{ext}")).collect();
    let out = Command::new("git")
        .arg("ls-files")
        .arg("--")
        .args(&globs)
        .current_dir(root())
        .output()
        .expect("run git ls-files (the tidy test reads the repository as git lists it)");
    assert!(
        out.status.success(),
        "git ls-files: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}
