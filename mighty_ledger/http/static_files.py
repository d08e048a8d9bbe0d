"""The static files production serves: whitenoise's compressed files under hashed names, and the
pages' own modules (static/js/) naming each other by those hashed names.

A module imports its neighbour by its plain name (``import { items } from "./outbox.js";``) and
no build step rewrites it, so collectstatic does, with the pattern Django keeps for ES modules
(``HashedFilesMixin.support_js_module_import_aggregation``). Left as written, a page would load
``pending.<hash>.js`` by its tag and ``pending.js`` again through an import: two copies of one
module, each with its own state and listeners, and a plain name the phone may keep a minute
after a new version. Only static/js/ is read so: the scripts other apps ship (htmx's
extensions, the API's docs) name files that are not collected, and are served as they come.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

# `import { a, b } from "./name.js";` as static/js/ writes it, on one line or several
MODULE_IMPORT = (
    r"""(?P<matched>import(?s:(?P<import>[\s\{].*?))\s*from\s*["'](?P<url>\./[^"']+)["']\s*;)""",
    'import%(import)s from "%(url)s";',
)


class StaticFiles(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("js/*.js", (MODULE_IMPORT,)))
