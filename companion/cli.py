"""Command-line tools of the app (`flask --app wsgi <command>`): purge old tables."""

from __future__ import annotations

import os

import click
from flask import Flask
from flask.cli import with_appcontext


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(purge_command)


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
    from flask import current_app

    from companion import get_db, plays, records

    if unfinished_days is None:
        unfinished_days = float(os.environ.get("COMPANION_KEEP_UNFINISHED_DAYS", "30"))
    if finished_days is None and os.environ.get("COMPANION_KEEP_FINISHED_DAYS"):
        finished_days = float(os.environ["COMPANION_KEEP_FINISHED_DAYS"])
    with current_app.test_request_context():
        records.ensure_all_plays(get_db())  # the record of plays keeps what the exports need
        counts = plays.purge(get_db(), unfinished_days=unfinished_days, finished_days=finished_days)
    click.echo(
        f"removed {counts['unfinished']} unfinished and {counts['finished']} finished tables"
    )
