"""Every user-facing string has a Japanese and a Russian translation, placeholders intact."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import i18n  # noqa: E402

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def test_every_string_is_translated_into_japanese_and_russian():
    assert i18n.missing() == []


def test_every_part_has_its_catalogues():
    assert all(po.exists() for po in i18n.catalogues())


def test_translations_keep_their_placeholders():
    wrong = []
    for po in i18n.catalogues():
        with po.open("rb") as fh:
            for message in read_po(fh):
                if not message.id or not message.string:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                wanted = set(PLACEHOLDER.findall(ids[-1]))
                for text in strings:
                    if text and set(PLACEHOLDER.findall(text)) != wanted:
                        wrong.append(f"{po.relative_to(ROOT)}: {ids[0]!r} -> {text!r}")
    assert wrong == []
