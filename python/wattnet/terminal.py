"""Text from scenarios and files, made safe to print on a terminal.

Names and messages can hold anything a TOML string can: escape sequences that retitle or
clear a terminal, or rich markup such as ``[/bold]``. Everything wattnet prints from them goes
through ``printable`` (control characters escaped), and rich displays show it as plain text.
"""

from __future__ import annotations

import unicodedata


def printable(text: str) -> str:
    """``text`` with every control or format character (C0, DEL, C1, bidirectional overrides)
    written as its escape (``\\x1b``, ``\\u202e``), so the terminal shows it and never obeys it."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    if ch == " " or unicodedata.category(ch) == "Zs":
        return ch  # spaces are harmless, though not "printable" for str.isprintable
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
