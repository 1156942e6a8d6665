"""What the wheel carries beyond the Python packages (pyproject.toml holds everything else).

The core's templates/ and static/ stay at the top of the repository, where the app reads them in
a checkout; a built package carries them inside as companion/templates and companion/static
(create_app looks there first). The catalogues are compiled while building (.po to .mo, fuzzy
entries left out as `pybabel compile` does): the .mo files are not kept in git.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
CORE_DATA = ("templates", "static")
# Not carried: the sources static/js/app.js is built from (scripts/bundle_js.py; also pruned
# from the source distribution, MANIFEST.in).
NOT_CARRIED = (HERE / "static" / "js" / "src",)


def not_carried(folder: str, names: list[str]) -> set[str]:
    """copytree's ignore: the names in folder that the wheel leaves out."""
    return {name for name in names if Path(folder, name) in NOT_CARRIED}


def compile_catalogues(package: Path) -> None:
    """Every messages.po under the built package, compiled beside itself."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in package.rglob("LC_MESSAGES/*.po"):
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parent.parent.name)
        with po.with_suffix(".mo").open("wb") as fh:
            write_mo(fh, catalog)


class BuildWithData(build_py):
    """build_py, then the core's templates and static files copied in and the catalogues
    compiled. An editable install reads them from the checkout instead."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        package = Path(self.build_lib) / "companion"
        for name in CORE_DATA:
            shutil.copytree(HERE / name, package / name, dirs_exist_ok=True, ignore=not_carried)
        compile_catalogues(package)


setup(cmdclass={"build_py": BuildWithData})
