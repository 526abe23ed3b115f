"""`docschat search` and `docschat eval`: retrieval (and, with `eval --answers`, answers) from the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from app.cli.base import cli_retriever, console, database_url, err_console, main, open_read_pool, print_json, run_async
from app.cli.options import MODE_CHOICE, audience_option, audiences_of, scored_as
from app.config import get_settings
from app.search.conversation import retrieve_in_conversation
from app.search.eval import EvalItem, evaluate, load_eval_file, load_facts_file
from app.search.hits import place_text
from app.search.retrieve import Mode


@main.command("search")
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--explain", is_flag=True, help="Show each leg's ranks, fused scores and page decisions.")
@click.option("--mode", type=MODE_CHOICE, default="hybrid", show_default=True)
@audience_option
@click.option("--history", "history", multiple=True, metavar="QUESTION",
              help="An earlier question of the conversation (repeat, oldest first): searched as the chat does.")
def search_command(
    question: str, as_json: bool, explain: bool, mode: Mode, audience: str | None, public_only: bool,
    history: tuple[str, ...],
) -> None:
    """Find the pages and excerpts that answer QUESTION.

    Beside a running server with ADMIN_TOKEN set here too, a plain search (hybrid, no --history,
    no --explain) is the server's retrieval tester: no model is loaded here."""
    audiences = audiences_of(audience, public_only)
    settings = get_settings()
    if settings.admin_token is not None and mode == "hybrid" and not history and not explain:
        from app.cli.remote import ServerRefused, find_server, search_server

        if (server := find_server(settings)) is not None:
            try:
                data = search_server(server, settings.admin_token.get_secret_value(), question, audiences)
            except ServerRefused as exc:
                err_console.print(escape(f"the server at {server} did not search ({exc}): searching the database "
                                         "here"), style="yellow", highlight=False, soft_wrap=True)
            else:
                if as_json:  # as the local search prints it: no explanation, no tester's extras
                    print_json({k: v for k, v in data.items() if k not in ("explain", "answer_check", "model_input")})
                else:
                    _print_search(as_retrieval(data), explain=False)
                return
    # google.genai: slow to import, kept off `docschat --help`
    from app.search.rewrite import build_query_rewriter

    url = database_url()

    async def go() -> Any:
        async with await open_read_pool(url) as pool:
            retriever = await cli_retriever(pool, settings, mode)
            return await retrieve_in_conversation(
                retriever, question, list(history), rewriter=build_query_rewriter(settings),
                mode=mode, audiences=audiences, explain=explain,
            )

    retrieval = run_async(go)
    if as_json:
        print_json(retrieval.to_dict(explain=explain))
        return
    _print_search(retrieval, explain)


def as_retrieval(data: dict[str, Any]) -> Any:
    """The server's retrieval (its JSON) with the attributes _print_search reads."""
    from types import SimpleNamespace

    pages = [SimpleNamespace(**page) for page in data.get("pages", [])]
    return SimpleNamespace(question=data.get("question", ""), standalone=data.get("standalone"),
                           degraded=data.get("degraded"), errors=(data.get("explain") or {}).get("errors") or {},
                           would_answer=data.get("would_answer"), confidence=data.get("confidence", 0.0),
                           floor=data.get("floor", 0.0), pages=pages)


def _print_search(retrieval: Any, explain: bool) -> None:
    standalone = retrieval.standalone or {}
    if explain or standalone.get("method", "as_asked") != "as_asked":
        console.print(f"query: [bold]{escape(retrieval.question)}[/] ({standalone.get('method', 'as_asked')})", highlight=False)
    if retrieval.degraded:
        console.print(f"[yellow]degraded: {retrieval.degraded}[/] ({escape('; '.join(retrieval.errors.values()))})",
                      highlight=False)
    verdict = "would answer" if retrieval.would_answer else "[yellow]would not answer[/]"
    console.print(f"confidence {retrieval.confidence:.3f} (floor {retrieval.floor:.2f}): {verdict}")
    if not retrieval.pages:
        console.print("no matching pages")
    for number, page in enumerate(retrieval.pages, 1):
        place = getattr(page, "place", ())  # tab › group in the site (a server before 0027 sends none)
        where = f" — {escape(place_text(place))}" if place else ""
        console.print(f"[bold]{number}. {escape(page.title)}[/]{where} [dim]{escape(page.href)}[/]  score {page.score:.4f}",
                      highlight=False)
        excerpt = page.excerpt if len(page.excerpt) < 400 else page.excerpt[:400] + " …"
        console.print(excerpt, markup=False, highlight=False)
        console.print()
    if explain:
        _print_explain(retrieval)


def _print_explain(retrieval: Any) -> None:
    audiences = ", ".join(retrieval.audiences) if retrieval.audiences is not None else "every audience"
    terms = Table("term", "ndoc", "idf", title=f"full-text terms (statistics as {audiences} see them)")
    for term in retrieval.terms:
        terms.add_row(Text(str(term["lexeme"])), str(term["ndoc"]), f"{term['idf']:.3f}")
    console.print(terms)
    table = Table("fused", "weight", "chunk", "keyword", "vector", title="fused ranking")
    for item in retrieval.ranking[:20]:
        table.add_row(
            f"{item.score:.5f}", f"{item.weight:g}", Text(item.hit.id), str(item.ranks.get("keyword", "-")),
            str(item.ranks.get("vector", "-")),
        )
    console.print(table)
    pages = Table("source", "page", "weight", "score", "decision", title="pages")
    for choice in retrieval.candidates:
        pages.add_row(Text(choice.source), Text(choice.title), f"{choice.weight:g}", f"{choice.score:.5f}",
                      Text(choice.reason))
    console.print(pages)
    console.print(f"confidence: {retrieval.to_dict(explain=True)['explain']['confidence']}", highlight=False)
    console.print(f"timings (ms): {retrieval.timings_ms}")
    if retrieval.standalone:
        console.print(f"standalone query: {retrieval.standalone}", markup=False, highlight=False)


@main.command("eval")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--mode", type=MODE_CHOICE, default="hybrid", show_default=True)
@click.option("--k", "k", type=click.IntRange(1, 50), default=3, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with per-question results.")
@audience_option
@click.option("--no-history", is_flag=True, help="Search every question alone, ignoring lines' \"history\".")
@click.option("--answers", is_flag=True,
              help="Score the chat's answers (the chat's own turn on each question) instead of retrieval.")
@click.option("--facts", "facts_file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FACTS",
              help='JSON lines {"id", "facts"}: reference facts for FILE\'s questions, by id (with --answers).')
def eval_command(
    file: Any, mode: Mode, k: int, as_json: bool, audience: str | None, public_only: bool, no_history: bool,
    answers: bool, facts_file: Path | None,
) -> None:
    """Score retrieval on FILE (JSON lines of {"question", "gold": [urls], "history"?: [earlier questions]});
    with --answers, score the chat's answers against each line's "facts"."""
    # google.genai: slow to import, kept off `docschat --help`
    from app.search.rewrite import build_query_rewriter

    audiences = audiences_of(audience, public_only)
    settings = get_settings()
    items = load_eval_file(file)
    if facts_file is not None:
        if not answers:
            raise click.UsageError("--facts goes with --answers (facts score answers, not retrieval)")
        items = load_facts_file(facts_file, items)
    if answers:
        if click.get_current_context().get_parameter_source("mode") != click.core.ParameterSource.DEFAULT or \
                click.get_current_context().get_parameter_source("k") != click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--mode and --k score retrieval: --answers runs the chat as configured")
        _eval_answers(items, as_json, audiences, not no_history)
        return
    url = database_url()

    async def go() -> Any:
        async with await open_read_pool(url) as pool:
            retriever = await cli_retriever(pool, settings, mode)
            return await evaluate(
                retriever, items, mode=mode, k=k, base_url=settings.docs_base_url, audiences=audiences,
                use_history=not no_history, rewriter=build_query_rewriter(settings),
            )

    report = run_async(go)
    report.setdefault("audiences", audiences)  # None: every audience
    if as_json:
        print_json(report)
        return
    console.print(f"{report['questions']} questions ({report['answerable']} answerable, "
                  f"{report['unanswerable']} unanswerable), mode {mode}, k={k}")
    console.print(escape(f"audiences scored: {scored_as(audiences, audience, public_only)}"), highlight=False)
    if report["answerable"]:
        console.print(
            f"answerable: precision {report['precision']:.3f}  recall {report['recall']:.3f}  "
            f"MRR {report['mrr']:.3f}  page recall {report['page_recall']:.3f}"
        )
        console.print(f"false refusal rate (answerable refused): {report['false_refusal_rate']:.3f}")
    if report["unanswerable"]:
        console.print(f"refusal rate (unanswerable refused): {report['refusal_rate']:.3f}")
    for kind, row in report.get("refusal_by_kind", {}).items():
        console.print(f"  {kind}: refused {row['refused']}/{row['questions']} ({row['refusal_rate']:.3f}), "
                      f"answered partly {row['partly']}", highlight=False)


def _eval_answers(items: list[EvalItem], as_json: bool, audiences: list[str] | None, use_history: bool) -> None:
    """`docschat eval --answers`: the chat's turn on each question, scored (app/evaluation/answers.py)."""
    # the chat's answerers (google.genai): slow to import, kept off `docschat --help`
    from app.chat.services import build_chat_services
    from app.cli.indexing import make_progress
    from app.evaluation.answers import evaluate_answers

    settings = get_settings()
    url = database_url()
    progress, update = make_progress("answering")

    async def go() -> Any:
        async with await open_read_pool(url) as pool:
            services = build_chat_services(pool, settings)
            await services.retriever.warm_up()  # the model loads once, before the first question
            return await evaluate_answers(services, items, audiences=audiences, use_history=use_history,
                                          progress=update)

    if progress is not None:
        with progress:
            report = run_async(go)
    else:
        report = run_async(go)
    if as_json:
        print_json(report)
        return
    console.print(f"{report['questions']} questions ({report['answerable']} answerable, "
                  f"{report['with_facts']} with facts), answerer {report['answerer']}", highlight=False)
    for name, figures in [("all", report), *report.get("by_split", {}).items()]:
        count = figures["questions"]
        console.print(f"[bold]{escape(name)}[/] ({count} question{'' if count == 1 else 's'})", highlight=False)
        for line in _answer_figures(figures):
            console.print(f"  {line}", highlight=False, soft_wrap=True)
    if report["errors"]:
        console.print(f"[yellow]{report['errors']} turns failed[/] (\"outcome\": \"error\" in --json)")


def _answer_figures(report: dict[str, Any]) -> list[str]:
    """The lines of an answer report's figures (a set without such questions has no such line)."""
    def share(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    lines = []
    if report["with_facts"]:
        low, high = report["fact_rate_95"]
        lines.append(f"states the fact {share(report['fact_rate'])} ({report['states_fact']}/{report['with_facts']}; "
                     f"95% interval {low:.3f}–{high:.3f})")
    if report["answerable"]:
        lines.append(f"answerable: false refusals {share(report['false_refusal_rate'])}, partly "
                     f"{share(report['partly_rate'])}, gold page listed {share(report['gold_page_rate'])}")
    for kind, row in report.get("unanswerable_by_kind", {}).items():
        lines.append(f"{kind}: refused or partly {share(row['refused_or_partly_rate'])} "
                     f"({row['refused']} refused, {row['partly']} partly, of {row['questions']})")
    return lines
