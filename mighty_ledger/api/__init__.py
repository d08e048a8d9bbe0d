"""A face: the REST API (Django REST framework, schema by drf-spectacular). Views parse a request,
call one read or one service, and serialise; calculators call the engine alone.

May import: the read side (``reads``), the write side (``services``), ``http``, ``live``, the
models and ``scoring``. Never the other face, ``pages``.
"""
