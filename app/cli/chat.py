"""`docschat serve`, `docschat ask` and `docschat mcp`: the chat over HTTP, in the terminal, and as MCP tools.

`ask` and `mcp` are the commands a person or an assistant runs again and again: beside a running
server they are its clients (app/cli/remote.py), so this module imports nothing heavy at its top.
"""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.markup import escape

from app.cli.base import (
    check_readable,
    console,
    database_label,
    database_url,
    err_console,
    main,
    open_read_pool,
    run_async,
    serve_until_stopped,
)
from app.cli.options import audience_option, audiences_of
from app.config import get_settings


@main.command("serve")
@click.option("--host", default=None, help="Address to bind (HOST, default 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port to bind (PORT, default 8000).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; each has its own pool of DB_POOL_SIZE connections.")
def serve_command(host: str | None, port: int | None, workers: int) -> None:
    """Serve the chat API, the widget and the demo page."""
    # litestar, google.genai, uvicorn: slow to import, kept off `docschat --help`
    from app.server import create_app, prepare_serving
    from app.serving import run_workers, serve

    settings = get_settings()
    database_url(create=True)  # a new embedded cluster is said, not made silently
    console.print(escape(f"database: {database_label(settings)}"), highlight=False, soft_wrap=True)
    # Once, before any worker starts: the embedded server, the schema and the IP secret, so
    # workers neither race to migrate nor each make a secret of their own.
    prepare_serving(settings)
    host, port = host or settings.host, port or settings.port
    if not settings.public_url and port != settings.port:  # --port: the links follow it
        settings = settings.with_public_url(f"http://127.0.0.1:{port}")
    console.print(f"docschat on [bold]http://{host}:{port}[/]  ({workers} worker{'s' if workers > 1 else ''};"
                  " API schema at /schema)")

    def ready(url: str) -> None:
        console.print(f"ready: /healthz answers; `docschat ask` and `docschat mcp` of this home use {url}",
                      highlight=False, soft_wrap=True)

    if workers == 1:
        serve_until_stopped(lambda: serve(create_app(settings), settings, host, port), settings, host, port, ready)
    else:
        serve_until_stopped(lambda: run_workers(host, port, workers, settings), settings, host, port, ready)


class _AnswerPrinter:
    """Prints an answer's stream parts as they come: Relevant Guides, then the Summary."""

    def __init__(self) -> None:
        self.printed_summary = False
        self.status = 0

    def __call__(self, part: dict[str, Any]) -> None:
        kind = part.get("type")
        if kind == "source-url":
            if part["sourceId"] == "source-1":
                console.print("[bold]Relevant Guides[/]")
            # Its page's place in the site (tab › group) tells apart the many pages titled "Overview".
            place = ((part.get("providerMetadata") or {}).get("docschat") or {}).get("place") or []
            where = f" — {escape(' › '.join(map(str, place)))}" if place else ""
            console.print(f"  • {escape(part['title'])}{where}  [dim]{escape(part['url'])}[/]", highlight=False,
                          soft_wrap=True)  # a URL cut in two is not one to copy
        elif kind == "text-delta":
            if not self.printed_summary:
                console.print("\n[bold]Summary[/]")
                self.printed_summary = True
            console.print(part["delta"], end="", markup=False, highlight=False)
        elif kind == "error":
            err_console.print(f"\n[bold red]error:[/] {escape(part['errorText'])}", highlight=False)
            self.status = 1


def _continue_hint(again: str, session_id: object) -> None:
    err_console.print(f"[dim]continue this conversation: docschat ask{escape(again)} --session {session_id}"
                      " \"…\"[/]", highlight=False, soft_wrap=True)


def _new_conversation_note(session_id: object) -> None:
    # A session belongs to the audiences it was opened for (app/chat/sessions.py).
    err_console.print(f"[yellow]session {session_id} was opened for other audiences (or by the chat "
                      "widget): this question starts a new conversation[/]", highlight=False)


def _ask_server(url: str, question: str, session: str | None) -> int | None:
    """The question asked of the server at `url`; None when it would not answer (said on stderr)."""
    from app.cli.remote import ServerRefused, ask_parts

    try:
        parts, cookies = ask_parts(url, question, session)
    except ServerRefused as exc:
        err_console.print(escape(f"the server at {url} did not answer ({exc}): searching the database here"),
                          style="yellow", highlight=False, soft_wrap=True)
        return None
    printer = _AnswerPrinter()
    for part in parts:
        printer(part)
    console.print()
    new_session = cookies.get("docs_chat_id")
    if session is not None and new_session and new_session != session:
        _new_conversation_note(session)
    if new_session:
        _continue_hint("", new_session)
    return printer.status


@main.command("ask")
@click.argument("question")
@audience_option
@click.option("--session", "session", default=None, metavar="ID",
              help="Continue this conversation (the id printed after an answer).")
def ask_command(question: str, audience: str | None, public_only: bool, session: str | None) -> None:
    """Ask a question in the terminal: Relevant Guides, then the Summary.

    Beside a running server of this database (PUBLIC_URL, or the one `docschat serve` or the demo
    recorded in DOCSCHAT_HOME), the server answers: no model is loaded here."""
    import uuid

    from app.chat.requests import BadChatRequest, parse_question
    from app.cli.remote import find_server

    try:
        question = parse_question(question)
    except BadChatRequest as exc:
        raise click.UsageError(str(exc)) from None
    audiences = audiences_of(audience, public_only)
    try:  # as app.chat.sessions.parse_session_id reads the cookie (that module brings asyncpg)
        session_id = uuid.UUID(session.strip()) if session else None
    except ValueError:
        session_id = None
    if session is not None and session_id is None:
        raise click.UsageError(f"--session must be a session id (a UUID), not {session!r}")
    settings = get_settings()
    # The server answers as the chat's visitors see: other audiences are searched here.
    if audiences == settings.anonymous_audiences and (server := find_server(settings)) is not None:
        status = _ask_server(server, question, str(session_id) if session_id else None)
        if status is not None:
            sys.exit(status)
    url = database_url()

    # google.genai: slow to import, kept off `docschat --help`
    from app.chat.services import build_chat_services
    from app.chat.turn import start_turn
    from app.cli.base import cli_retriever

    async def go() -> int:
        async with await open_read_pool(url) as pool:
            services = build_chat_services(pool, settings)
            await cli_retriever(pool, settings)  # the model, loaded where a person sees it happen
            await services.retriever.warm_up()
            turn = await start_turn(services, session_id, question, audiences)
            if session_id is not None and turn.session_id != session_id:
                _new_conversation_note(session_id)
            printer = _AnswerPrinter()
            async for part in turn.parts():
                printer(part)
            console.print()
            await turn.save()
            again = (" --all-audiences" if turn.audiences is None else "" if audience is None and not public_only
                     else f" --audience {','.join(turn.audiences)}")
            _continue_hint(again, turn.session_id)
            return printer.status

    sys.exit(run_async(go))


@main.command("mcp")
@click.option("--audience", "audience", default=None, metavar="A,B", help="What the caller may see (default: CHAT_AUDIENCES).")
def mcp_command(audience: str | None) -> None:
    """The MCP server on stdio (search_docs, get_page, read_file), for a coding assistant to start."""
    if audience is not None and not audience.replace(",", " ").strip():
        raise click.BadParameter("is empty: name an audience, or leave the option out for CHAT_AUDIENCES",
                                 param_hint="--audience")
    settings = get_settings()
    audiences = audiences_of(audience, False)
    if audiences == settings.anonymous_audiences:
        from app.cli.remote import find_server, relay_mcp

        if (server := find_server(settings)) is not None:  # the server's /mcp: no model loaded here
            sys.exit(relay_mcp(server))
    # the MCP SDK and the chat's answerers: slow to import, kept off `docschat --help` and the relay
    from app.doors.mcp_server import run_stdio

    url = database_url()  # no empty database made in the folder the MCP client started it in
    run_async(lambda: check_readable(url, indexed=True))
    run_async(lambda: run_stdio(settings, audiences))
