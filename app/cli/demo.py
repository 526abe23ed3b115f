"""`docschat demo`: the embedded database, this repository's docs/ synced offline, the demo page."""

from __future__ import annotations

import secrets
from typing import Any

import click
from pydantic import SecretStr
from rich.markup import escape

from app import PROJECT_ROOT
from app.cli.base import console, database_label, main, serve_until_stopped
from app.cli.indexing import sync_with_progress
from app.config import get_settings
from app.corpus.compose import DocsSource
from app.corpus.sources import SourcesConfig, config_path
from app.db.embedded import embedded_server_running, stop_embedded_server
from app.db.url import resolve_database_url
from app.embeddings.local import local_model_installed

# The demo is one person trying it on their own machine: the production limits (5 questions an
# hour, 10 a day) would stop them after five questions. Set RATE_LIMIT_PER_* to keep others.
DEMO_RATE_LIMITS = {"rate_limit_per_hour": 100, "rate_limit_per_day": 1000}


@main.command("demo")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port to serve on (PORT, default 8000).")
@click.option("--no-serve", is_flag=True, help="Prepare everything, then exit (used by tests).")
def demo_command(port: int | None, no_serve: bool) -> None:
    """Embedded database + this repository's docs/ synced offline + the demo page with the widget."""
    settings = get_settings()
    # A setting counts as chosen when the environment or .env gave it (pydantic's fields set).
    chosen = settings.model_fields_set
    if "embedding_provider" not in chosen and not settings.gemini_api_key:
        # The demo runs offline: the packaged model when installed, keyword-only otherwise.
        settings = settings.model_copy(update={"embedding_provider": "local" if local_model_installed() else "none"})
    settings = settings.model_copy(update={k: v for k, v in DEMO_RATE_LIMITS.items() if k not in chosen})

    if (path := config_path(settings)) is not None:
        # Its "docs" would take the place of the file's sources in the same database: refused before
        # the database is resolved (which may start the embedded server).
        raise click.UsageError(f"the demo syncs this repository's docs/ as its only source; the sources come from "
                               f"{path}: run it with another DOCSCHAT_HOME and no DOCSCHAT_CONFIG")
    embedded = not settings.database_url
    started_here = embedded and not embedded_server_running(settings.docschat_home)
    if embedded:
        # Which home, and why (the setting, the project found upwards, or the per-user folder): the
        # one `docschat ask` and `docschat status` find from any folder of it.
        console.print(escape(f"{'starting' if started_here else 'using'} {database_label(settings)}"),
                      highlight=False, soft_wrap=True)
    else:
        console.print("database: DATABASE_URL", soft_wrap=True)
    database = settings  # the settings that say which Postgres to stop, whatever the demo changes later
    # Ctrl+C (or a failure) at any step after this, the first sync included, stops the Postgres the
    # demo started: a newcomer who gives up during the model load is not left a server running.
    try:
        url = resolve_database_url(settings)
        if settings.embedding_provider == "local":
            console.print("loading the offline embedding model (10–30 s on a first run)", highlight=False, soft_wrap=True)
        source = DocsSource(PROJECT_ROOT, "HEAD", "docs").to_source(settings)  # the current branch, as committed
        # `only`: the rows of any other source in this database stay (a sync of all deletes them).
        report = sync_with_progress(url, SourcesConfig((source,)), settings, "embedding docs/", wait_for_lock=True,
                                    only=source.name)
        console.print(
            f"indexed docs/: {report.pages} pages, {report.chunks} sections ({report.new} new, {report.changed} changed, "
            f"{report.unchanged} unchanged, {report.deleted} deleted); embeddings: "
            f"{report.embedding_model or 'none (keyword search only)'}",
            highlight=False, soft_wrap=True,
        )
        if no_serve:
            return
        # litestar, google.genai: slow to import, kept off `docschat --help`
        from app.server import create_app
        from app.serving import serve

        port = port or settings.port
        if "public_url" not in chosen:
            # The demo serves the docs itself: links (answers, MCP, `docschat ask`) point at this server.
            settings = settings.with_public_url(f"http://127.0.0.1:{port}")
        settings, admin_token = demo_features(settings, chosen, port)
        stops = "the demo and its database" if started_here else "the demo"
        relaxed = any(name not in chosen for name in DEMO_RATE_LIMITS)
        whose = " (the demo's limits; RATE_LIMIT_PER_HOUR and RATE_LIMIT_PER_DAY set others)" if relaxed else ""
        limits = settings.rate_limit_per_hour, settings.rate_limit_per_day
        handoff_sample = "handoff_url" not in chosen

        def ready(url: str) -> None:  # only once /healthz answers: the model loaded, the database reachable
            console.print(f"\n[bold green]docschat demo:[/] open [bold]{url}[/] and ask a question"
                          f"   (Ctrl+C stops {stops})\n"
                          f"  up to {limits[0]} questions an hour and {limits[1]} a day per client{whose}\n"
                          "  another port: PORT=8080 make demo;  the command line: .venv/bin/docschat --help\n",
                          highlight=False, soft_wrap=True)
            if admin_token:  # printed here only: this run's token, kept nowhere
                console.print(f"  operator console: [bold]{url}/admin[/]  token: [bold]{admin_token}[/]"
                              "  (this run only; ADMIN_TOKEN sets your own)", highlight=False, soft_wrap=True)
            if handoff_sample:
                console.print("  a sample way out for questions the docs miss (HANDOFF_URL): the demo page's "
                              "\"Ask a person\" section", highlight=False, soft_wrap=True)

        console.print("starting the server (the model loads before it is ready) …", highlight=False)
        serve_until_stopped(lambda: serve(create_app(settings), settings, "127.0.0.1", port), settings, "127.0.0.1",
                            port, ready)
    finally:
        _stop_demo_database(database, started_here)


def demo_features(settings: Any, chosen: set[str], port: int) -> tuple[Any, str | None]:
    """What the demo turns on that a fresh install leaves off, unless the environment chose it:
    the operator console with a token made for this run (returned, to be printed once), a sample
    HANDOFF_URL (the demo page's "Ask a person" section), the site's name, a greeting and example
    questions."""
    update: dict[str, Any] = {}
    token = None
    if "admin_token" not in chosen:
        token = secrets.token_urlsafe(24)
        update["admin_token"] = SecretStr(token)
    if "handoff_url" not in chosen:
        update["handoff_url"] = f"http://127.0.0.1:{port}/#ask-a-person"
    defaults = {
        "site_name": "docschat",
        "widget_greeting": "Hi! I answer from the pages in this repository's docs/ folder.",
        "widget_examples": ["How do I embed the widget?", "How do I change the widget's colour?",
                            "What does docschat store about me?"],
    }
    update.update({name: value for name, value in defaults.items() if name not in chosen})
    return settings.model_copy(update=update), token


def _stop_demo_database(settings: Any, started_here: bool) -> None:
    """At the demo's exit: stop the embedded Postgres it started; say how to stop one it found running."""
    if settings.database_url:
        return
    if started_here:
        if stop_embedded_server(settings.docschat_home) is not None:
            console.print("stopped the embedded Postgres", highlight=False, soft_wrap=True)
    else:
        console.print("the embedded Postgres was running before the demo and keeps running: docschat db stop "
                      "stops it", highlight=False, soft_wrap=True)
