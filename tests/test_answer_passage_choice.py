"""The offline answer's passage choice (app/chat/extractive.py) on excerpts as the eval sets' sites
gave them (session 36): a sentence or step leading into a block the excerpt was cut before; a
sentence that only points elsewhere; the fix under a troubleshooting entry's error. Pure: the
chooser reads excerpts, no database."""

from __future__ import annotations

import dataclasses

from app.chat.answerers import Excerpt, ExtractiveAnswerer
from tests.test_extractive import assert_traceable as assert_traceable_in_text


def assert_traceable(answer: str, excerpts: list[Excerpt]) -> None:
    """Each quoted line is an excerpt's, of its text or of its section's next part (`rest`)."""
    assert_traceable_in_text(answer, [dataclasses.replace(e, text=f"{e.text}\n\n{e.rest}") for e in excerpts])

PIPECAT_LIMITS = (
    "Enforcing the limit inside the bot process requires **base image 0.1.27 or\nlater**. On older base images "
    "the limit only closes the platform's own request\nto your bot. If your agent relies\non that, raise "
    "`maxSessionDuration` before upgrading.\n\n"
    "By default, sessions are capped at **7200 seconds (2 hours)**. You can configure this per service between "
    "**60 seconds** and **14400 seconds (4 hours)**:")
PIPECAT_LIMITS_REST = (
    "- **Increase** the limit for agents that routinely run long (e.g. interview, tutoring, or support calls "
    "that legitimately last 3+ hours).\n- **Decrease** the limit as a cost safety net — for example, if your "
    "application is meant to have 60-second calls, capping sessions at 120s protects you from runaway sessions "
    "caused by bugs in your agent code.\n\nCLI\n\n```shell\npipecat cloud deploy my-agent "
    "your-docker-repository/my-agent:0.1 --max-session-duration 300\n```")


def test_a_sentence_leading_into_the_next_parts_block_is_quoted_with_it() -> None:
    """pipecat-07: the section is stored in two parts, cut between "…between **60 seconds** and
    **14400 seconds (4 hours)**:" and the list it introduces. The sentence was dropped as leading
    into nothing, and the list, quoted from the next part, came without the range asked for."""
    excerpts = [Excerpt(1, "Starting Pipecat Cloud Sessions", "u#limits", "Session duration limits",
                        PIPECAT_LIMITS, "Starting Pipecat Cloud Sessions › Session duration limits",
                        rest=PIPECAT_LIMITS_REST)]
    answer = ExtractiveAnswerer().answer("whats the longest a pipecat cloud session is allowed to run", excerpts)
    assert "**14400 seconds (4 hours)** [1]:\n\n- **Increase** the limit" in answer, answer
    assert_traceable(answer, excerpts)
    # Without the next part, the block is not shown, nor is the sentence leading into it.
    alone = [Excerpt(1, "Starting Pipecat Cloud Sessions", "u#limits", "Session duration limits",
                     PIPECAT_LIMITS, "Starting Pipecat Cloud Sessions › Session duration limits")]
    answer = ExtractiveAnswerer().answer("whats the longest a pipecat cloud session is allowed to run", alone)
    assert "14400" not in answer and "(2 hours)**. [1]" in answer, answer


def test_a_step_leading_into_a_block_is_quoted_with_it_or_not_at_all() -> None:
    """A numbered step ending in ":" leads into its block as a sentence does. Starlight's
    "1. Install `@astrojs/starlight-docsearch`:" was quoted over nothing (its tab's title line "npm"
    did not join the step), and OpenHands' last step "2. Wait until the server is running (see log
    below):" was quoted with the log cut away (starlight-20, openhands-08)."""
    text = ("If you have access to Algolia’s DocSearch program and want to use it instead of Pagefind, you can use "
            "the official Starlight DocSearch plugin.\n\n1. Install `@astrojs/starlight-docsearch`:\n\nnpm\n\n"
            "   ```sh\n   npm install @astrojs/starlight-docsearch\n   ```\n\npnpm\n\n"
            "   ```sh\n   pnpm add @astrojs/starlight-docsearch\n   ```")
    excerpts = [Excerpt(1, "Site Search", "u#docsearch", "Algolia DocSearch", text, "Site Search › Algolia DocSearch")]
    answer = ExtractiveAnswerer().answer("can i use algolia docsearch instead of pagefind", excerpts)
    assert "1. Install `@astrojs/starlight-docsearch`: [1]\n\nnpm [1]\n\n   ```sh\n   npm install" in answer, answer
    assert_traceable(answer, excerpts)
    steps = ("1. Check the installation guide and ensure all prerequisites are met before running OpenHands, then "
             "run:\n\n```bash\ndocker run -it --rm --name openhands-app docker.openhands.dev/openhands/openhands:1.8\n"
             "```\n\n2. Wait until the server is running (see log below):")
    excerpts = [Excerpt(1, "Local LLMs", "u#start", "5. Start OpenHands", steps, "Local LLMs › 5. Start OpenHands")]
    answer = ExtractiveAnswerer().answer("how do i start openhands with docker run", excerpts)
    assert "docker run -it" in answer and "Wait until the server" not in answer, answer
    assert_traceable(answer, excerpts)
