"""The README and docs a newcomer follows: set-up in a virtual environment, links that stay
inside this repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#]+)")
SHELL_BLOCK = re.compile(r"```sh\n(.*?)```", re.DOTALL)


def test_readme_sets_up_in_a_virtual_environment_that_git_ignores() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = [block.strip() for block in SHELL_BLOCK.findall(setup)]
    assert len(commands) == 2
    for command in commands:
        assert command.startswith("python -m venv .venv && . .venv/bin/activate && pip install")
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert ".venv/" in ignored


def test_docs_point_only_at_files_in_this_repository() -> None:
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        assert "../" not in text, f"{page.name} points outside the repository"
        for target in LINK.findall(text):
            if "://" in target:
                continue
            linked = (page.parent / target).resolve()
            assert linked.is_relative_to(ROOT) and linked.exists(), f"{page.name}: {target}"
