"""MkDocs hooks: pages made from the code and the repository at build time, never pasted.

A page holding ``{{ cli }}`` gets the ``rage`` command's reference, written by Typer's own docs
generator from the Typer app; a page holding ``{{ protocol }}`` gets proto/README.md, its links into
the site made relative to the page and its links to other repository files kept as their text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def cli_reference() -> str:
    """The ``rage`` command's every command, argument and option, from the Typer app."""
    import typer
    from rage_referee.cli import app
    from typer.cli import get_docs_for_click

    command = typer.main.get_command(app)
    with typer.Context(command) as context:
        return get_docs_for_click(obj=command, ctx=context, indent=1, name="rage")


def protocol_page(page_folder: str) -> str:
    """proto/README.md, as a page of the site in ``page_folder`` (a folder under docs/)."""
    text = (ROOT / "proto" / "README.md").read_text()
    up = "../" * (page_folder.count("/") + 1) if page_folder else ""

    def relink(match: re.Match[str]) -> str:
        label, target = match[1], match[2]
        if target.startswith(("http://", "https://", "#")):
            return match[0]
        if target.startswith("../docs/"):
            return f"[{label}]({up}{target.removeprefix('../docs/')})"
        return label

    return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", relink, text)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if "{{ cli }}" in markdown:
        markdown = markdown.replace("{{ cli }}", cli_reference())
    if "{{ protocol }}" in markdown:
        folder = str(Path(page.file.src_uri).parent).removeprefix(".")
        markdown = markdown.replace("{{ protocol }}", protocol_page(folder))
    return markdown
