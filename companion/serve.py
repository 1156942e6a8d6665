"""`python -m companion.serve`: serve the app with waitress on all interfaces and say where."""

from __future__ import annotations

import os

from waitress import serve

from companion import create_app, qr


def main() -> None:
    """Create/migrate the database, print the addresses phones can use, and serve."""
    port = int(os.environ.get("PORT", "8000"))
    app = create_app()
    public = app.config["PUBLIC_URL"]
    print("Table companion is running. Open one of these on the host device:")
    if public:
        print(f"  {public}  (COMPANION_PUBLIC_URL)")
    lan = qr.lan_address()
    if lan:
        print(f"  http://{lan}:{port}/   <- phones on the same network use this one")
    print(f"  http://localhost:{port}/   <- this computer only")
    print("Stop with Ctrl+C. Tables are kept in", app.config["DATABASE"])
    serve(app, host=os.environ.get("HOST", "0.0.0.0"), port=port, threads=8)


if __name__ == "__main__":
    main()
