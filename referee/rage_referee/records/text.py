"""Cards, plays, bids and tricks as coloured Rich text, for the commands that print games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rage_sdk.actions import Action, Bid, Play
from rage_sdk.cards import CHANGE, WILD, Card, Colour
from rich.text import Text

from ..text import name_text

COLOUR_STYLES = {"r": "red", "o": "dark_orange", "y": "yellow", "g": "green", "b": "blue", "p": "magenta"}


def card_text(play: Play) -> Text:
    """A play as coloured text: ``g12``, ``wild=b``, ``change->r``."""
    card = play.card
    text = Text(card.token, style=COLOUR_STYLES[card.token[0]] if card.is_coloured else "bold")
    if play.colour is not None:
        declared = play.colour.letter + ("" if play.value is None else str(play.value))
        text.append(f"={declared}", style=COLOUR_STYLES[play.colour.letter])
    if play.trump is not None:
        text.append(f"->{play.trump.letter}", style=COLOUR_STYLES[play.trump.letter])
    return text


def cards_text(cards: Sequence[Card]) -> Text:
    """Cards as coloured tokens, in the order given."""
    return Text(" ").join(card_text(Play(card)) for card in cards)


def colour_text(colour: Colour | None) -> Text:
    if colour is None:
        return Text("none", style="dim")
    return Text(str(colour), style=COLOUR_STYLES[colour.letter])


def action_text(action: Action) -> Text:
    return Text(f"bid {action.tricks}", style="bold") if isinstance(action, Bid) else card_text(action)


def legal_text(legal: Sequence[Action]) -> Text:
    """Legal actions, short: bids as a range, the many declarations of a wild or a change as one entry."""
    if legal and isinstance(legal[0], Bid):
        bids = [action.tricks for action in legal if isinstance(action, Bid)]
        if bids == list(range(bids[0], bids[-1] + 1)):
            return Text(f"bid {bids[0]}-{bids[-1]}" if len(bids) > 1 else f"bid {bids[0]}")
        return Text("bid " + ",".join(map(str, bids)))
    parts: list[Text] = []
    plays = [action for action in legal if isinstance(action, Play)]
    wilds = [play for play in plays if play.card.id == WILD]
    changes = [play for play in plays if play.card.id == CHANGE and play.trump is not None]
    for play in plays:
        if play not in wilds and play not in changes:
            parts.append(card_text(play))
    if wilds:
        parts.append(Text("wild=" + ("any colour and value" if wilds[0].value is not None else "any colour")))
    if changes:
        parts.append(Text("change->" + "/".join(play.trump.letter for play in changes if play.trump is not None)))
    return Text(" ").join(parts)


def seat_names(players: Sequence[str]) -> list[str]:
    """Each seat's name as a game's lines and tables show it (:func:`~rage_referee.text.name_text`), its seat number
    after it where two seats would show alike (``A (seat 0)``, ``A (seat 1)``): a record may name every seat ``A``."""
    shown = [name_text(name) for name in players]
    if len(set(shown)) == len(shown):
        return shown
    alike = Counter(shown)
    marked = [f"{name} (seat {seat})" if alike[name] > 1 else name for seat, name in enumerate(shown)]
    if len(set(marked)) < len(marked):  # a name that reads as another's marked one: mark every seat
        marked = [f"{name} (seat {seat})" for seat, name in enumerate(shown)]
    return marked


def trick_text(plays: Sequence[tuple[int, Play]], names: Sequence[str]) -> Text:
    """A trick's plays so far, each after its seat's name as :func:`seat_names` shows it."""
    return Text(" ").join(Text(f"{names[seat]} ") + card_text(play) for seat, play in plays)
