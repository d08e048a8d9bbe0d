"""The REST API (Django REST framework), schema by drf-spectacular."""
