"""Function views: each parses the request, calls `scoring` or a service, and renders."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from mighty_ledger.pages.forms import GroupCreateForm


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"form": GroupCreateForm()})
