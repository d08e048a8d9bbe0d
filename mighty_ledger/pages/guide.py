"""The players' guide (docs/table.md, and docs/table.ko.md where it is translated) as HTML.

The guide is written once, as Markdown beside the rest of the docs, and read in the app as well as
in the repository: the page renders the same file, so the two never drift apart. The files are
the project's own, so their HTML is trusted; links to the other docs (written for whoever hosts
or changes the app) become plain words, and pictures are served from docs/ by name.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import markdown
from django.conf import settings
from django.urls import reverse
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

DOCS = Path(settings.BASE_DIR) / "docs"
GUIDE_FILES = {"en": "table.md", "ko": "table.ko.md"}
# a picture the guide may show: a file name in docs/ or docs/images/, nothing that climbs out
PICTURE_NAME = re.compile(r"^(?:images/)?[a-z0-9][a-z0-9_-]*\.png$")


@dataclass(frozen=True)
class Guide:
    html: str
    language: str  # the language it is written in: "en" where no translation is there yet


class _GuideLinks(Treeprocessor):
    """Links within the guide stay links (to the guide in the other language: that page); links to
    the other docs become their words; pictures are served by the app (pages/views/guide.py)."""

    def __init__(self, md, shown: str):
        super().__init__(md)
        self.shown = shown  # the guide's file being drawn

    def run(self, root):
        for link in root.iter("a"):
            href = link.get("href", "")
            target = urlsplit(href)
            if target.scheme or href.startswith("#"):
                continue
            anchor = f"#{target.fragment}" if target.fragment else ""
            if target.path == self.shown:
                link.set("href", anchor or "#")
            elif target.path in GUIDE_FILES.values():
                language = next(code for code, name in GUIDE_FILES.items() if name == target.path)
                link.set("href", f"{reverse('guide')}?in={language}{anchor}")
            else:  # another doc, for whoever hosts the app: named, not linked
                link.tag = "span"
                link.attrib.pop("href", None)
        for picture in root.iter("img"):
            name = picture.get("src", "")
            if PICTURE_NAME.match(name):
                picture.set("src", reverse("guide_picture", args=[name]))
                picture.set("loading", "lazy")


class _GuideExtension(Extension):
    def __init__(self, shown: str):
        super().__init__()
        self.shown = shown

    def extendMarkdown(self, md):  # Markdown names it so
        md.treeprocessors.register(_GuideLinks(md, self.shown), "guide_links", 0)


def guide_file(language: str) -> tuple[Path, str]:
    """The guide's file for ``language`` and the language it is in: English where it is not translated."""
    short = language.split("-")[0]
    path = DOCS / GUIDE_FILES.get(short, GUIDE_FILES["en"])
    if path.is_file():
        return path, short if short in GUIDE_FILES else "en"
    return DOCS / GUIDE_FILES["en"], "en"


def guide_for(language: str) -> Guide:
    path, written_in = guide_file(language)
    return Guide(_rendered(path, path.stat().st_mtime_ns), written_in)


@functools.lru_cache(maxsize=4)
def _rendered(path: Path, modified: int) -> str:
    """The file as HTML, once per version of it (``modified`` keys the cache: an edited guide shows at once)."""
    # the headings' ids as GitHub makes them, so the docs' own #anchors land in the page too
    return markdown.markdown(
        path.read_text(encoding="utf-8"),
        extensions=["tables", "fenced_code", "sane_lists", "toc", _GuideExtension(path.name)],
        extension_configs={"toc": {"slugify": _slug}},
    )


def _slug(heading: str, separator: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens (Hangul kept)."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", separator)


def picture_path(name: str) -> Path | None:
    """The picture ``name`` of docs/ (or docs/images/), or None for anything else."""
    if not PICTURE_NAME.match(name):
        return None
    path = DOCS / name
    return path if path.is_file() else None
