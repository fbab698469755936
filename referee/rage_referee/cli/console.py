"""The consoles every ``rage`` command prints through: ``out`` for results, ``err`` for messages."""

from __future__ import annotations

import os

from rich.console import Console, ConsoleDimensions

PIPED_WIDTH = 1000
"""Columns for output to a file or pipe with no COLUMNS set: wide enough that no table row is cut or wrapped."""


class CliConsole(Console):
    """A Rich console that, writing to no terminal, does not wrap at 80 columns.

    A terminal gives its width; COLUMNS, when set, wins as it does in Rich; otherwise output to a
    file or pipe (a CI log, ``rage ... | tee``) is :data:`PIPED_WIDTH` wide. Both are read as each
    thing is printed, so one console made at import follows wherever its stream goes.
    """

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if self.is_terminal or os.environ.get("COLUMNS", "").isdigit():
            return size
        return ConsoleDimensions(PIPED_WIDTH, size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self.width, self.height = new_size


# No text is ever read as console markup: names and messages come from league files, bots and the
# network, and a "[/]" in one would raise. Styles are given as styles (``style=``, :class:`rich.text.Text`).
out = CliConsole(highlight=False, markup=False)
err = CliConsole(stderr=True, highlight=False, markup=False, soft_wrap=True)  # a message stays one line when piped
