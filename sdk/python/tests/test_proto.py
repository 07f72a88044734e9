"""The committed protobuf modules (src/hookgate/v1/) are what protoc makes
of the repository's proto today. Regenerate them after a proto change,
from the repository root:

    python -m grpc_tools.protoc -I proto --python_out=sdk/python/src \\
        --pyi_out=sdk/python/src hookgate/v1/hookgate.proto

with grpcio-tools 1.75.1 (the `test` extra pins it), so the output and
the protobuf runtime it asks for do not change with the tool's version.
"""

from __future__ import annotations

from pathlib import Path

from hookgate.testing import repository

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "hookgate" / "v1"


def test_generated_modules_match_the_proto(tmp_path: Path) -> None:
    from grpc_tools import protoc  # the `test` extra; missing it fails the test

    proto = repository() / "proto"
    status = protoc.main(
        [
            "protoc",
            f"-I{proto}",
            f"--python_out={tmp_path}",
            f"--pyi_out={tmp_path}",
            str(proto / "hookgate" / "v1" / "hookgate.proto"),
        ]
    )
    assert status == 0
    for name in ("hookgate_pb2.py", "hookgate_pb2.pyi"):
        fresh = (tmp_path / "hookgate" / "v1" / name).read_text()
        committed = (PACKAGE / name).read_text()
        assert committed == fresh, f"{name} is stale: regenerate it (see this file's docstring)"
