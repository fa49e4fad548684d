"""optimus.core.data: a package's files read by its loader, from a folder or from a zip
(as the page imports a game: web/lazy.py)."""

from __future__ import annotations

import base64
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import optimus
from optimus.core import data
from optimus.ui import howto


@pytest.fixture
def zipped_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A game package ``optimus.zgame`` imported from a zip, as the page mounts one."""
    archive = tmp_path / "zgame.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("optimus/zgame/__init__.py", "")
        z.writestr("optimus/zgame/sheets/one.txt", "línea\n")
        z.writestr("optimus/zgame/howto.pt.html", '<p>Olá</p><img src="howto-image:d.svg">')
        z.writestr("optimus/zgame/howto.en.html", "<p>Hello</p>")
        z.writestr("optimus/zgame/howto-d.svg", "<svg/>")
    monkeypatch.setattr(optimus, "__path__", [*optimus.__path__, f"{archive}/optimus"])
    yield "optimus.zgame"
    sys.modules.pop("optimus.zgame", None)


def test_a_zipped_packages_files_are_read_from_their_folder(zipped_game: str) -> None:
    assert data.text(zipped_game, "sheets/one.txt") == "línea\n"
    assert data.exists(zipped_game, "sheets/one.txt")
    assert not data.exists(zipped_game, "sheets/two.txt")
    with pytest.raises(OSError):
        data.read(zipped_game, "sheets/two.txt")


def test_the_how_to_play_comes_in_the_language_asked_with_its_images_inlined(
    zipped_game: str,
) -> None:
    page = howto.read("zgame", "pt")
    svg = base64.b64encode(b"<svg/>").decode()
    assert page == f'<p>Olá</p><img src="data:image/svg+xml;base64,{svg}">'
    assert howto.read("zgame", "ca") == "<p>Hello</p>", "a language without one: English"
    assert howto.read("nogame", "pt") == ""


def test_a_files_absence_is_an_os_error_whatever_the_package() -> None:
    with pytest.raises(OSError):
        data.read("optimus.optimus", "sheets/nowhere.txt")
    assert data.text("optimus.optimus2", "sheets/standard.json").startswith("{")
