"""`docschat serve`, `docschat ask` and `docschat mcp`: the chat over HTTP, in the terminal, and as MCP tools."""

from __future__ import annotations

import sys

import click
import uvicorn
from rich.markup import escape

from app.chat.requests import BadChatRequest, parse_question
from app.chat.sessions import parse_session_id
from app.cli.base import (
    check_readable,
    console,
    database_label,
    database_url,
    err_console,
    main,
    open_read_pool,
    run_async,
)
from app.cli.options import audience_option, audiences_of
from app.config import get_settings
from app.serving import run_workers


@main.command("serve")
@click.option("--host", default=None, help="Address to bind (HOST, default 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port to bind (PORT, default 8000).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; each has its own pool of DB_POOL_SIZE connections.")
def serve_command(host: str | None, port: int | None, workers: int) -> None:
    """Serve the chat API, the widget and the demo page."""
    # litestar, google.genai: slow to import, kept off `docschat --help`
    from app.server import create_app, prepare_serving

    settings = get_settings()
    database_url(create=True)  # a new embedded cluster is said, not made silently
    console.print(escape(f"database: {database_label(settings)}"), highlight=False, soft_wrap=True)
    # Once, before any worker starts: the embedded server, the schema and the IP secret, so
    # workers neither race to migrate nor each make a secret of their own.
    prepare_serving(settings)
    host, port = host or settings.host, port or settings.port
    console.print(f"docschat on [bold]http://{host}:{port}[/]  ({workers} worker{'s' if workers > 1 else ''};"
                  " API schema at /schema)")
    if workers == 1:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="warning", proxy_headers=False)
    else:
        run_workers(host, port, workers)


@main.command("ask")
@click.argument("question")
@audience_option
@click.option("--session", "session", default=None, metavar="ID",
              help="Continue this conversation (the id printed after an answer).")
def ask_command(question: str, audience: str | None, public_only: bool, session: str | None) -> None:
    """Ask a question in the terminal: Relevant Guides, then the Summary."""
    # google.genai: slow to import, kept off `docschat --help`
    from app.chat.services import build_chat_services
    from app.chat.turn import start_turn

    try:
        question = parse_question(question)
    except BadChatRequest as exc:
        raise click.UsageError(str(exc)) from None
    audiences = audiences_of(audience, public_only)
    session_id = parse_session_id(session)
    if session is not None and session_id is None:
        raise click.UsageError(f"--session must be a session id (a UUID), not {session!r}")
    settings = get_settings()
    url = database_url()

    async def go() -> int:
        async with await open_read_pool(url) as pool:
            services = build_chat_services(pool, settings)
            await services.retriever.warm_up()
            turn = await start_turn(services, session_id, question, audiences)
            if session_id is not None and turn.session_id != session_id:
                # A session belongs to the audiences it was opened for (app/chat/sessions.py).
                err_console.print(f"[yellow]session {session_id} was opened for other audiences (or by the chat "
                                  "widget): this question starts a new conversation[/]", highlight=False)
            printed_summary = False
            status = 0
            async for part in turn.parts():
                kind = part["type"]
                if kind == "source-url":
                    if part["sourceId"] == "source-1":
                        console.print("[bold]Relevant Guides[/]")
                    console.print(f"  • {escape(part['title'])}  [dim]{escape(part['url'])}[/]", highlight=False,
                                  soft_wrap=True)  # a URL cut in two is not one to copy
                elif kind == "text-delta":
                    if not printed_summary:
                        console.print("\n[bold]Summary[/]")
                        printed_summary = True
                    console.print(part["delta"], end="", markup=False, highlight=False)
                elif kind == "error":
                    err_console.print(f"\n[bold red]error:[/] {escape(part['errorText'])}", highlight=False)
                    status = 1
            console.print()
            await turn.save()
            again = (" --all-audiences" if turn.audiences is None else "" if audience is None and not public_only
                     else f" --audience {','.join(turn.audiences)}")
            err_console.print(f"[dim]continue this conversation: docschat ask{escape(again)} --session {turn.session_id}"
                              " \"…\"[/]", highlight=False, soft_wrap=True)
            return status

    sys.exit(run_async(go))


@main.command("mcp")
@click.option("--audience", "audience", default=None, metavar="A,B", help="What the caller may see (default: CHAT_AUDIENCES).")
def mcp_command(audience: str | None) -> None:
    """The MCP server on stdio (search_docs, get_page, read_file), for a coding assistant to start."""
    # the MCP SDK and the chat's answerers: slow to import, kept off `docschat --help`
    from app.doors.mcp_server import run_stdio

    if audience is not None and not audience.replace(",", " ").strip():
        raise click.BadParameter("is empty: name an audience, or leave the option out for CHAT_AUDIENCES",
                                 param_hint="--audience")
    url = database_url()  # no empty database made in the folder the MCP client started it in
    run_async(lambda: check_readable(url, indexed=True))
    run_async(lambda: run_stdio(get_settings(), audiences_of(audience, False)))
