"""The committed protocol code is what ``proto/generate.py`` makes of ``proto/``, byte for byte.

A ``.proto`` edited without regenerating, or a generated file edited by hand, fails here.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("grpc_tools")

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto"
COMMITTED = ROOT / "sdk" / "rage_sdk" / "pb"


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rage_proto_generate", PROTO / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def differences(generated: list[Path]) -> list[str]:
    """How the committed package differs from freshly generated files (empty when it does not)."""
    found = []
    names = {path.name for path in generated}
    committed = {path.name for path in COMMITTED.iterdir() if path.suffix in (".py", ".pyi")}
    found += [f"{name}: committed but not generated" for name in sorted(committed - names)]
    for path in generated:
        target = COMMITTED / path.name
        if not target.is_file():
            found.append(f"{path.name}: generated but not committed")
        elif target.read_bytes() != path.read_bytes():
            found.append(f"{path.name}: differs from what proto/generate.py makes")
    return found


def test_committed_code_is_what_generate_makes(tmp_path: Path) -> None:
    generated = load_generator().generate(tmp_path / "pb")
    assert {path.name for path in generated} >= {"__init__.py", "bot_pb2.py", "bot_pb2.pyi", "bot_pb2_grpc.py"}
    assert all(path.parent == tmp_path / "pb" for path in generated)
    assert differences(generated) == []


def test_a_stale_file_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A field added to the .proto without regenerating makes the comparison fail."""
    generator = load_generator()
    copy = tmp_path / "proto"
    shutil.copytree(PROTO, copy, ignore=shutil.ignore_patterns("__pycache__"))
    proto = copy / "rage" / "v1" / "bot.proto"
    text = proto.read_text()
    assert "message View {\n" in text
    proto.write_text(text.replace("message View {\n", "message View {\n  uint32 peek = 99;\n", 1))
    monkeypatch.setattr(generator, "ROOT", copy)
    monkeypatch.setattr(generator, "PACKAGE", copy / "rage" / "v1")
    found = differences(generator.generate(tmp_path / "pb"))
    assert "bot_pb2.py: differs from what proto/generate.py makes" in found
    assert "bot_pb2.pyi: differs from what proto/generate.py makes" in found
