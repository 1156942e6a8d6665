"""The WSGI entry point: `waitress-serve wsgi:app` (see `make run`)."""

from companion import create_app

app = create_app()
