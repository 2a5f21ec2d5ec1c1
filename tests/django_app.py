"""A real Django admin (PyPI `django`, server-rendered; nobody here wrote it) on a small SQLite database,
served by uvicorn in a thread on 127.0.0.1, port 0, for the shipped adapter adapters/django-admin.js.

The admin manages Django's own `auth.Group` model (no app of ours: the admin, its templates, its
delete confirmations and its messages are Django's), seeded with three groups; a staff user signs in
through the login page. Django is configured once per process (``settings.configure``)."""

from __future__ import annotations

import sys
import tempfile
import types
from pathlib import Path

from pling_browser.server.threaded import UvicornThread

GROUPS = ("Editors", "Reviewers", "Authors")
USER, PASSWORD = "admin", "pling-admin-pw"


def _configure(folder: Path) -> None:
    import django
    from django.conf import settings

    if settings.configured:
        return
    urls = types.ModuleType("pling_django_urls")
    sys.modules[urls.__name__] = urls
    settings.configure(
        DEBUG=False, SECRET_KEY="pling-tests-only-" + "x" * 40, ALLOWED_HOSTS=["127.0.0.1"], ROOT_URLCONF=urls.__name__,
        INSTALLED_APPS=["django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
                        "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles"],
        MIDDLEWARE=["django.middleware.security.SecurityMiddleware", "django.contrib.sessions.middleware.SessionMiddleware",
                    "django.middleware.common.CommonMiddleware", "django.middleware.csrf.CsrfViewMiddleware",
                    "django.contrib.auth.middleware.AuthenticationMiddleware",
                    "django.contrib.messages.middleware.MessageMiddleware"],
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True,
                    "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                                       "django.contrib.auth.context_processors.auth",
                                                       "django.contrib.messages.context_processors.messages"]}}],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(folder / "admin.sqlite3")}},
        STATIC_URL="/static/", USE_TZ=True, DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],  # fast, and only for this test database
    )
    django.setup()
    from django.contrib import admin
    from django.urls import path

    urls.urlpatterns = [path("admin/", admin.site.urls)]  # type: ignore[attr-defined]


class DjangoAdmin:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="pling-django-"))
        _configure(self.folder)
        from django.contrib.auth.models import Group, User
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        if not User.objects.filter(username=USER).exists():
            User.objects.create_superuser(USER, "admin@example.invalid", PASSWORD)
        self.reset()
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.core.asgi import get_asgi_application

        app = ASGIStaticFilesHandler(get_asgi_application())
        self.served = UvicornThread(app, name="Django", lifespan="off")
        self.port = self.served.port
        self.Group = Group

    def reset(self) -> None:
        """The three seed groups again, with the ids 1, 2, 3."""
        from django.contrib.auth.models import Group
        from django.db import connection

        Group.objects.all().delete()
        with connection.cursor() as cursor:  # SQLite: ids start at 1 again
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = 'auth_group'")
        for name in GROUPS:
            Group.objects.create(name=name)

    def groups(self) -> dict[str, str]:
        """The groups in the database now: id -> name."""
        return {str(g.pk): g.name for g in self.Group.objects.order_by("pk")}

    def drop(self, pk: str) -> None:
        """Delete a group directly, as another admin would: pages shown keep showing it."""
        self.Group.objects.filter(pk=pk).delete()

    def start(self) -> DjangoAdmin:
        self.served.start()
        return self

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.served.stop(10)
