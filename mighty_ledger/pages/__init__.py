"""A face: the htmx pages. ``views`` parse a request, call one read or one service, and render;
``forms`` turn what a player tapped into HAND_JSON and back; ``templatetags`` present what a
view hands them and read nothing (Django finds them through settings.TEMPLATES' "libraries").
``korean`` picks the Korean particles, ``preset_names`` names a system as players say it,
``app_shell`` holds what the installable app's views and the page's tags share (its colours, a
Save's wait).

May import: the read side (``reads``), the write side (``services``), ``http``, ``live``, the
models and ``scoring``. Never the other face, ``api``: both show the same session through the
same reads and services, so neither may lean on the other.
"""
