#!/usr/bin/env python3
"""ARCHITECTURE.md's "Adding an agent" checklist names every file that
enumerates the agents, and nothing it names is gone.

A file that mentions (nearly) every agent is a list someone must extend
for the next one; if the checklist does not name it, the next agent is
added without it and is silently missing there. Exit 1 with each gap.
"""
import fnmatch
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# One pattern per agent: its Rust variant, its config name, its module.
AGENTS = {
    "claude-code": r"ClaudeCode|claude-code|claude_code",
    "cursor": r"Cursor|cursor",
    "cline": r"Cline|cline",
    "gemini-cli": r"GeminiCli|gemini",
    "codex": r"Codex|codex",
    "copilot": r"Copilot|copilot",
    "qwen-code": r"QwenCode|qwen",
    "droid": r"Droid|droid",
}
# Cursor has no CLI here, so lists of real agents name the other seven.
AT_LEAST = len(AGENTS) - 1
CODE = ("*.rs", "*.proto", "*.py", "*.sh", "*.toml")


def checklist() -> str:
    text = (ROOT / "ARCHITECTURE.md").read_text()
    start = text.index("## Adding an agent")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


def named_paths(section: str) -> list[str]:
    """Every backticked repository path in the checklist, `<agent>` as `*`."""
    paths = []
    for token in re.findall(r"`([^`\s]+)`", section):
        if "/" in token and re.match(r"^[\w.<>/-]+$", token):
            paths.append(token.replace("<agent>", "*").replace("<Event>", "*"))
    return paths


def covered(path: str, patterns: list[str]) -> bool:
    for pattern in patterns:
        if pattern.endswith("/") and path.startswith(pattern.rstrip("*")):
            return True
        if fnmatch.fnmatch(path, pattern) or fnmatch.fnmatch(path, pattern + "*"):
            return True
    return False


def main() -> int:
    files = subprocess.run(
        ["git", "ls-files", "--", *CODE],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()
    section = checklist()
    patterns = named_paths(section)
    problems = []
    for path in files:
        if path.startswith(".ci/"):
            continue
        text = (ROOT / path).read_text(errors="replace")
        named = [a for a, pat in AGENTS.items() if re.search(pat, text)]
        if len(named) >= AT_LEAST and not covered(path, patterns):
            problems.append(f"{path} names {len(named)} agents but the checklist does not name it")
    for pattern in patterns:
        if "*" in pattern:
            continue
        if not (ROOT / pattern.rstrip("/")).exists():
            problems.append(f"the checklist names {pattern}, which does not exist")
    for problem in problems:
        print(f"check-agent-template: {problem}", file=sys.stderr)
    if not problems:
        print(f"check-agent-template: {len(patterns)} checklist paths, every agent list named")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
