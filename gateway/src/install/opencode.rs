//! OpenCode's hooks: hookgate's own plugin, one JavaScript file in
//! OpenCode's `plugin/` directory (`~/.config/opencode/plugin/` or a
//! project's `.opencode/plugin/`), which OpenCode 1.x loads at start. The
//! file is embedded in the gateway and written with the hook command every
//! other agent gets (`COMMAND`), which the plugin runs through `/bin/sh`.
//! A file of that name that is not hookgate's is left alone and reported.

use std::path::Path;

use hookgate_adapters::Agent;

use super::change::{self, Change};
use super::command::{self, HookCommand};
use super::script_dir::Skipped;

/// The plugin, with `COMMAND` still to set.
const TEMPLATE: &str = include_str!("opencode/hookgate.js");
/// The line that marks the file as hookgate's.
const MARKER: &str = "// hookgate: installed by `gateway install`; `gateway uninstall` removes it.";
/// The template's command line, and how the written file starts it.
const COMMAND_LINE: &str = r#"const COMMAND = "@COMMAND_LINE@";"#;
const COMMAND_PREFIX: &str = "const COMMAND = ";

/// The plugin running `command`.
pub(crate) fn plugin(command: &HookCommand) -> String {
    render(command.line_for(Agent::OpenCode, None, None, None))
}

/// The template with `line` as its command.
fn render(line: String) -> String {
    // A JSON string is a JavaScript string literal.
    let literal = serde_json::Value::String(line).to_string();
    TEMPLATE.replacen(COMMAND_LINE, &format!("{COMMAND_PREFIX}{literal};"), 1)
}

/// Whether a file's text is hookgate's plugin.
pub(crate) fn is_ours(text: &str) -> bool {
    text.lines().any(|line| line == MARKER)
}

/// The hookgate command the plugin runs.
pub(crate) fn command_of(text: &str) -> Option<String> {
    let literal = text
        .lines()
        .find_map(|line| line.strip_prefix(COMMAND_PREFIX))?
        .strip_suffix(';')?;
    let line: String = serde_json::from_str(literal).ok()?;
    command::is_ours(&line).then_some(line)
}

/// Whether `text` is the plugin this gateway writes for the command it
/// runs: an older hookgate's plugin (or an edited one) is not.
pub(crate) fn is_current(text: &str) -> bool {
    command_of(text).is_some_and(|line| text == render(line))
}

/// The change that writes the plugin at `path`, or why it is left alone.
pub(crate) fn install(path: &Path, command: &HookCommand) -> (Vec<Change>, Vec<Skipped>) {
    let path = change::resolve(path);
    let skip = |why: String| Skipped {
        event: "every event".to_owned(),
        path: path.clone(),
        why,
    };
    match change::read(&path) {
        Err(err) => (Vec::new(), vec![skip(format!("cannot be read ({err:#})"))]),
        Ok(Some(before)) if !is_ours(&before) => {
            (Vec::new(), vec![skip("is not hookgate's".to_owned())])
        }
        Ok(before) => (
            vec![Change {
                after: Some(plugin(command)),
                path,
                before,
                executable: false,
            }],
            Vec::new(),
        ),
    }
}

/// The change that removes hookgate's plugin at `path` (none when the file
/// is absent or not hookgate's).
pub(crate) fn uninstall(path: &Path) -> (Vec<Change>, Vec<Skipped>) {
    let path = change::resolve(path);
    match change::read(&path) {
        Ok(Some(before)) if is_ours(&before) => (
            vec![Change {
                path,
                before: Some(before),
                after: None,
                executable: false,
            }],
            Vec::new(),
        ),
        Ok(_) => (Vec::new(), Vec::new()),
        Err(err) => (
            Vec::new(),
            vec![Skipped {
                event: "every event".to_owned(),
                why: format!("cannot be read ({err:#})"),
                path,
            }],
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn command(fail_closed: bool) -> HookCommand {
        HookCommand {
            shim: PathBuf::from("/b/it's/gateway-shim"),
            gateway: PathBuf::from("/b/gateway"),
            socket: PathBuf::from("/s.sock"),
            fail_closed,
        }
    }

    #[test]
    fn the_plugin_runs_the_hook_command_and_is_recognised() {
        for fail_closed in [false, true] {
            let command = command(fail_closed);
            let text = plugin(&command);
            assert!(is_ours(&text));
            assert!(is_current(&text));
            assert_eq!(
                command_of(&text),
                Some(command.line_for(Agent::OpenCode, None, None, None))
            );
            assert!(!text.contains("@COMMAND_LINE@"));
            assert_eq!(
                text.contains(" --fail-closed\";"),
                fail_closed,
                "the plugin reads the fail mode from its command"
            );
        }
        let edited = plugin(&command(false)).replace("WAIT_MS = 120000", "WAIT_MS = 1");
        assert!(is_ours(&edited) && !is_current(&edited));
        assert!(!is_ours("export const Mine = async () => ({});\n"));
    }

    /// Whether the plugin, its shim missing, blocks `tool.execute.before`
    /// with `HOOKGATE_FAIL` set to `fail`, run by node (which the
    /// real-agent tests need too).
    #[expect(clippy::disallowed_methods, reason = "a test writing its own file")]
    fn plugin_blocks_without_a_shim(fail_closed: bool, fail: &str) -> bool {
        let dir = std::env::temp_dir().join(format!(
            "hookgate-plugin-{}-{fail_closed}-{}",
            std::process::id(),
            fail.trim()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let mut command = command(fail_closed);
        command.shim = dir.join("missing/gateway-shim");
        std::fs::write(dir.join("hookgate.mjs"), plugin(&command)).unwrap();
        let driver = r#"
            const { HookgateV1 } = await import("./hookgate.mjs");
            const hooks = await HookgateV1({ directory: "/" });
            const before = hooks["tool.execute.before"];
            await before({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "true" } })
              .then(() => console.log("allowed"), () => console.log("blocked"));
        "#;
        let out = std::process::Command::new("node")
            .args(["--input-type=module", "-e", driver])
            .current_dir(&dir)
            .env("HOOKGATE_FAIL", fail)
            .output()
            .unwrap_or_else(|err| panic!("running node (install Node.js 20 or later): {err}"));
        std::fs::remove_dir_all(&dir).ok();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout.trim() == "blocked"
    }

    /// With no shim to run, the plugin applies the fail mode as the shim
    /// reads it: the command's flag, else `HOOKGATE_FAIL` in any case
    /// (`CLOSED` once let the call through).
    #[test]
    fn the_plugin_fails_closed_as_the_shim_would() {
        for (fail_closed, fail, blocks) in [
            (true, "", true),
            (false, "", false),
            (false, "open", false),
            (false, "closed", true),
            (false, "CLOSED", true),
            (false, " closed ", true),
        ] {
            let got = plugin_blocks_without_a_shim(fail_closed, fail);
            assert_eq!(
                got, blocks,
                "--fail-closed: {fail_closed}, HOOKGATE_FAIL={fail:?}"
            );
        }
    }

    /// No npm import: OpenCode would fetch it at start (60 s offline).
    #[test]
    fn the_plugin_imports_only_node_builtins() {
        for line in TEMPLATE.lines().filter(|line| line.starts_with("import ")) {
            assert!(line.ends_with(r#"from "node:child_process";"#), "{line}");
        }
    }
}
