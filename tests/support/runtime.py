"""What a user's installation holds: the runtime requirements that pyproject.toml declares, and
everything they require in turn (extras included), read from the installed distributions'
metadata (importlib.metadata) — not what the test environment happens to have.

`import_folder()` lays out a folder that holds only those distributions (links to their files),
so that a Python started with `-S` (no site-packages) and that folder on its path can import
exactly what `pip install .` would give a user. A module that the code imports but that no
declared requirement brings in then fails to import, as it would on a fresh machine.
"""

from __future__ import annotations

import importlib.metadata as metadata
import tomllib
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def declared(pyproject: Path = ROOT / "pyproject.toml") -> list[Requirement]:
    """The runtime requirements pyproject.toml declares (not the test extras)."""
    project = tomllib.loads(pyproject.read_text())["project"]
    return [Requirement(line) for line in project["dependencies"]]


def applies(requirement: Requirement, extras: set[str]) -> bool:
    """Whether a requirement holds on this platform, for a distribution asked for with these
    extras (a requirement marked `extra == "gevent"` holds only when "gevent" was asked for)."""
    if requirement.marker is None:
        return True
    environment = default_environment()
    return any(
        requirement.marker.evaluate({**environment, "extra": extra}) for extra in extras or {""}
    )


def closure(requirements: list[Requirement]) -> dict[str, metadata.Distribution]:
    """Every installed distribution the requirements bring in, by canonical name; a requirement
    that is not installed raises PackageNotFoundError (the test environment must hold them)."""
    found: dict[str, metadata.Distribution] = {}
    asked: dict[str, set[str]] = {}
    todo = [(requirement, {""}) for requirement in requirements]
    while todo:
        requirement, wanted_by = todo.pop()
        if not applies(requirement, wanted_by):
            continue
        name = canonicalize_name(requirement.name)
        extras = set(requirement.extras) | {""}
        if name in asked and extras <= asked[name]:
            continue
        asked[name] = asked.get(name, set()) | extras
        distribution = found.setdefault(name, metadata.distribution(requirement.name))
        for line in distribution.requires or []:
            todo.append((Requirement(line), asked[name]))
    return found


def top_level(distribution: metadata.Distribution) -> set[str]:
    """The names a distribution puts at the top of site-packages (packages, modules, shared
    libraries, its .dist-info), from its RECORD."""
    names = set()
    for file in distribution.files or []:
        first = file.parts[0]
        if first not in ("..", "__pycache__") and not first.endswith(".pth"):
            names.add(first)
    return names


def import_folder(folder: Path, distributions: dict[str, metadata.Distribution]) -> Path:
    """A folder that holds the given distributions and nothing else (links to their files)."""
    folder.mkdir(parents=True, exist_ok=True)
    for distribution in distributions.values():
        base = Path(str(distribution.locate_file("")))
        for name in top_level(distribution):
            target = folder / name
            if not target.exists() and (base / name).exists():
                target.symlink_to(base / name)
    return folder


def runtime_import_folder(folder: Path) -> Path:
    """A folder holding exactly the runtime requirements' closure."""
    return import_folder(folder, closure(declared()))
