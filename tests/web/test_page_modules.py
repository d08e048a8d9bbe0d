"""The pages' scripts are native ES modules (static/js/), with no build step: loaded by module tags,
speaking to each other through import and export, never through globals. What a page's modules
import is asked for beside them (modulepreload), not one file after another as each import is
read; and in production an import names its neighbour's hashed name, the very file the page's
tags load, so no module runs twice (mighty_ledger/http/static_files.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
MODULES = {path.name: path.read_text() for path in sorted((ROOT / "static" / "js").glob("*.js"))}
TEMPLATES = {path.relative_to(ROOT / "templates").as_posix(): path.read_text()
             for path in sorted((ROOT / "templates").rglob("*.html"))}
# `import { a, b } from "./name.js";`, on one line or several
IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s"\./([\w.]+)";', re.M)
SCRIPT = re.compile(r"<script\b[^>]*\bsrc=\"\{% static '([^']+)' %\}\"[^>]*>")
PRELOAD = re.compile(r"<link rel=\"modulepreload\" href=\"\{% static '([^']+)' %\}\"[^>]*>")


def imports(name: str) -> set[str]:
    """Every module ``name`` imports, and what those import in turn."""
    found: set[str] = set()
    waiting = [name]
    while waiting:
        for imported in IMPORT.findall(MODULES[waiting.pop()]):
            if imported not in found:
                found.add(imported)
                waiting.append(imported)
    return found


def test_every_script_of_ours_a_page_loads_is_a_module():
    # (htmx and its extensions, django-htmx's files, are classic scripts)
    for template, text in TEMPLATES.items():
        for tag in re.findall(r"<script\b[^>]*\bsrc=\"\{% static 'js/[^>]*>", text):
            assert 'type="module"' in tag, f"{template}: {tag}"


def test_no_module_speaks_through_a_global_or_an_old_wrapper():
    for name, text in MODULES.items():
        assert "window.Mighty" not in text and "self.Mighty" not in text, name
        assert not re.search(r"^\s*var\s", text, re.M), f"{name} declares with var"
        assert "(function (" not in text and "importScripts" not in text, name


def test_every_import_names_a_module_that_is_there():
    for name in MODULES:
        for imported in imports(name):
            assert imported in MODULES, f"{name} imports {imported}"


def test_what_the_base_pages_modules_import_is_asked_for_beside_them_after_the_stylesheets():
    base = TEMPLATES["base.html"]
    # a module is fetched at high priority unless told otherwise, and Lighthouse then counts every
    # one of them into the first paint (docs/performance.md, "Phone pages")
    for tag in re.findall(r"<(?:script type=\"module\"|link rel=\"modulepreload\")[^>]*>", base):
        assert 'fetchpriority="low"' in tag, tag
    loaded = {path.removeprefix("js/") for path in SCRIPT.findall(base) + PRELOAD.findall(base)}
    for template, text in TEMPLATES.items():
        own = {path.removeprefix("js/") for path in SCRIPT.findall(text) if path.startswith("js/")}
        for name in own:
            missing = imports(name) - loaded - own
            assert not missing, f"{template}: {name} imports {sorted(missing)}, asked for only once it is read"


def test_the_service_worker_imports_the_names_it_keeps_where_the_static_files_are():
    # the worker is served from the site's root (/sw.js), not beside stores.js: it names the folder
    assert f'from "/{settings.STATIC_URL.strip("/")}/js/stores.js";' in MODULES["sw.js"]


def test_in_production_a_module_imports_its_neighbours_by_their_hashed_names(settings, tmp_path):
    # the app's own files only (the admin's and the API docs' are collected as they always were)
    settings.STATIC_ROOT = tmp_path
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "mighty_ledger.http.static_files.StaticFiles"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    hashed = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    named = 0
    for name, text in MODULES.items():
        served = (tmp_path / hashed[f"js/{name}"]).read_text()
        for imported in IMPORT.findall(text):
            assert f'from "./{Path(hashed[f"js/{imported}"]).name}";' in served, f"{name} imports {imported}"
            named += 1
    assert named >= 10  # the outbox, the flow rule, what waits, the form's key, its line of news
