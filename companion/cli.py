"""Command-line tools of the app (`flask --app companion <command>`; `--app wsgi` in a checkout
works too): purge old tables, back up and restore the database."""

from __future__ import annotations

import os
from pathlib import Path

import click
from flask import Flask
from flask.cli import with_appcontext


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(purge_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


@click.command("purge")
@with_appcontext
@click.option(
    "--unfinished-days",
    type=float,
    default=None,
    help="Remove unfinished tables untouched for this many days "
    "(default: COMPANION_KEEP_UNFINISHED_DAYS, or 30).",
)
@click.option(
    "--finished-days",
    type=float,
    default=None,
    help="Remove finished tables older than this (default: "
    "COMPANION_KEEP_FINISHED_DAYS, or keep them). Their plays stay.",
)
def purge_command(unfinished_days: float | None, finished_days: float | None) -> None:
    """Remove old tables to keep the database small and private (the plays stay)."""
    from companion import get_db, plays, records

    if unfinished_days is None:
        unfinished_days = float(os.environ.get("COMPANION_KEEP_UNFINISHED_DAYS", "30"))
    if finished_days is None and os.environ.get("COMPANION_KEEP_FINISHED_DAYS"):
        finished_days = float(os.environ["COMPANION_KEEP_FINISHED_DAYS"])
    records.ensure_all_plays(get_db())  # the record of plays keeps what the exports need
    counts = plays.purge(get_db(), unfinished_days=unfinished_days, finished_days=finished_days)
    click.echo(
        f"removed {counts['unfinished']} unfinished and {counts['finished']} finished tables"
    )


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(path: Path) -> None:
    """Write a consistent copy of the database to PATH, safe while the app serves (SQLite: its
    online backup API; PostgreSQL: pg_dump's custom format)."""
    from flask import current_app

    from companion import backup

    try:
        backup.backup(current_app.config["DATABASE"], path)
    except backup.BackupError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"backed up {current_app.config['DATABASE']} to {path}")


@click.command("restore")
@with_appcontext
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def restore_command(path: Path) -> None:
    """Replace the database with the backup at PATH and upgrade it to this release's schema.
    SQLite keeps what it replaces as <file>.before-restore.bak; on PostgreSQL stop the app
    first (pg_restore remakes its tables)."""
    from flask import current_app

    from companion import backup

    url = current_app.config["DATABASE"]
    try:
        version = backup.restore(url, path)
    except backup.BackupError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"restored {path} (schema version {version}) into {url}")
