"""Generate the Python protobuf and gRPC code from ``proto/`` (``make proto``).

    python proto/generate.py [OUT_DIR]

Writes ``*_pb2.py``, ``*_pb2.pyi`` and ``*_pb2_grpc.py`` for every ``proto/rage/v1/*.proto``
into OUT_DIR (default ``sdk/rage_sdk/pb``), with imports between them made relative so the
code lives inside the ``rage_sdk`` package. The output depends only on the ``.proto`` files and
the pinned grpcio-tools version, so a test can regenerate it and compare.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "rage" / "v1"
DEFAULT_OUT = ROOT.parent / "sdk" / "rage_sdk" / "pb"
HEADER = '"""Generated from proto/rage/v1 by proto/generate.py (make proto): do not edit."""\n'


def generate(out: Path) -> list[Path]:
    """Write the generated modules into ``out``; return their paths."""
    protos = sorted(PACKAGE.glob("*.proto"))
    with tempfile.TemporaryDirectory() as scratch:
        args = [
            "grpc_tools.protoc",
            f"-I{ROOT}",
            f"--python_out={scratch}",
            f"--pyi_out={scratch}",
            f"--grpc_python_out={scratch}",
            *map(str, protos),
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for path in sorted((Path(scratch) / "rage" / "v1").iterdir()):
            text = re.sub(r"^from rage\.v1 import", "from . import", path.read_text(), flags=re.MULTILINE)
            target = out / path.name
            target.write_text(text)
            written.append(target)
    init = out / "__init__.py"
    init.write_text(HEADER)
    return [init, *written]


if __name__ == "__main__":
    for path in generate(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT):
        print(path)
