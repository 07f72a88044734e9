"""The README's Python subscriber ("Write a subscriber", its first python
block), run as written from an empty directory, asked through the real
gateway and shim with Claude Code, Cline and Codex payloads, then stopped
with SIGTERM."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from hookgate.testing import Kit, repository


def readme_example() -> str:
    readme = (repository() / "README.md").read_text()
    section = readme.split("\n## Write a subscriber\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"^```python\n(.*?)^```$", section, re.M | re.S)
    assert match, "README.md: no python block in \"Write a subscriber\""
    code = match.group(1)
    assert len(code.splitlines()) <= 15, "the README's example is at most 15 lines"
    return code


def _accepts(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def test_the_readme_example_denies_destroy_and_greets(tmp_path: Path) -> None:
    (tmp_path / "policy.py").write_text(readme_example())
    process = subprocess.Popen([sys.executable, "policy.py"], cwd=tmp_path, close_fds=False)
    try:
        socket_path = tmp_path / "policy.sock"
        deadline = time.monotonic() + 20
        while not _accepts(socket_path):
            assert process.poll() is None, "the example exited"
            assert time.monotonic() < deadline, "the example did not listen"
            time.sleep(0.02)
        with Kit(endpoint=f"unix://{socket_path}") as kit:
            for agent in ("claude-code", "codex"):
                for command in ("terraform destroy", "cd infra && terraform destroy -auto-approve"):
                    hook = kit.shell(agent, command).json()["hookSpecificOutput"]
                    assert hook["permissionDecision"] == "deny", (agent, command)
                    assert hook["permissionDecisionReason"] == "no terraform destroy"
                start = kit.sample(f"{agent}/SessionStart").json()["hookSpecificOutput"]
                assert start["additionalContext"] == "hello from python"
                assert kit.shell(agent, "terraform plan").stdout == "", "no opinion"
            cline = kit.shell("cline", "terraform destroy").json()
            assert cline == {"context": "no terraform destroy", "overrideInput": {}}
            legacy = kit.shell("cline-legacy", "terraform destroy").json()
            assert legacy == {"cancel": True, "errorMessage": "no terraform destroy"}
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0, "a clean exit on SIGTERM"
        assert not socket_path.exists(), "its socket removed"
    finally:
        process.kill()
        process.wait()
