from django.contrib import admin
from django.urls import include, path

from mighty_ledger import views

urlpatterns = [
    path("", views.home, name="home"),
    # set_language: the language switcher in base.html posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
