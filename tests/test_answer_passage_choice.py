"""The offline answer's passage choice (app/chat/extractive.py) on excerpts as the eval sets' sites
gave them (session 36): a sentence or step leading into a block the excerpt was cut before; the
fix under a troubleshooting entry's error. Pure: the chooser reads excerpts, no database."""

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


LXD_ZFS = (
    "If you are running LXD on Ubuntu 22.04 LTS or earlier, you might be missing support for ZFS 2.2 in the kernel "
    "(see the requirements).\n\n"
    "If LXD fails to start, check the `/var/snap/lxd/common/lxd/logs/lxd.log` log file for the following error to "
    "see if the reason is missing ZFS support:\n\n```\nError: Required tool ‘zpool’ is missing\n```\n\n"
    "If you are on Ubuntu 22.04 LTS, you can resolve the issue by installing the HWE kernel and rebooting the nodes "
    "to provide the required kernel drivers for ZFS 2.2:\n\n```\nsudo apt-get update\nsudo apt-get install "
    "linux-generic-hwe-22.04\n```\n\nIf you are on earlier versions of Ubuntu, you should use a compatible LTS "
    "release of LXD.")
FLASK_IN_USE = (
    "If another program is already using port 5000, you’ll see an `OSError`\nwhen the server tries to start. It may "
    "have one of the following\nmessages:\n\n- `OSError: [Errno 98] Address already in use`\n\n- `OSError: "
    "[WinError 10013] An attempt was made to access a socket in a way forbidden by its access permissions`\n\n"
    "Either identify and stop the other program, or use\n`flask run --port 5001` to pick a different port.\n\n"
    "You can use `netstat` or `lsof` to identify what process id is using\na port, then use other operating system "
    "tools stop that process.")
FLASK_POINTER = (
    "If another program is already using port 5000, you’ll see\n`OSError: [Errno 98]` or `OSError: [WinError "
    "10013]` when the\nserver tries to start. See Address already in use for how to\nhandle that.")


def test_a_troubleshooting_question_gets_the_fix_under_the_error_it_pastes() -> None:
    """lxd-02 and fl-04: the passage holding the asker's error (with its code block or list of
    messages) matched best and was quoted alone; the fix is the next passage of the same entry (on
    Flask, the tutorial's and the CLI page's pointers to that entry were quoted after it instead)."""
    excerpts = [Excerpt(1, "Frequently asked questions", "u#zfs", "Why does LXD not start on Ubuntu 22.04 LTS or "
                        "earlier?", LXD_ZFS, "Frequently asked questions › Why does LXD not start on Ubuntu 22.04 LTS "
                        "or earlier?")]
    answer = ExtractiveAnswerer().answer("lxd wont start on ubuntu 22.04, lxd.log says Error: Required tool 'zpool' "
                                         "is missing", excerpts)
    assert "sudo apt-get install linux-generic-hwe-22.04" in answer, answer
    assert_traceable(answer, excerpts)
    excerpts = [Excerpt(1, "Development Server", "u1#in-use", "Address already in use", FLASK_IN_USE,
                        "Development Server › Command Line › Address already in use"),
                Excerpt(2, "Application Setup", "u2#run", "Run The Application", FLASK_POINTER,
                        "Application Setup › Run The Application"),
                Excerpt(3, "Command Line Interface", "u3#run", "Run the Development Server", FLASK_POINTER,
                        "Command Line Interface › Run the Development Server")]
    answer = ExtractiveAnswerer().answer("OSError: [Errno 98] Address already in use when i do flask run", excerpts)
    assert "`flask run --port 5001`" in answer, answer
    assert_traceable(answer, excerpts)
    # A title line cut from its body after the error's passage is not brought (mem0-08: "Pick Providers").
    text = ("- `Cannot find module` (Node): import from the OSS entry point, `import { Memory } from \"mem0ai/oss\"`, "
            "and install the provider SDK you configured.\n- `Connection refused`: start the vector store first.\n\n"
            "Pick Providers")
    excerpts = [Excerpt(1, "Configure the OSS Stack", "u#r", "Quick recovery", text, "Configure › Quick recovery")]
    answer = ExtractiveAnswerer().answer("Cannot find module error when importing Memory in node", excerpts)
    assert "mem0ai/oss" in answer and "Pick Providers" not in answer, answer
    # Nor is prose naming nothing to run or set: a warning about another case (vitest-08).
    text = ("```\nReferenceError: __dirname is not defined\n\n\"__dirname\" is a CommonJS variable that is not available "
            "in ES modules, and \"injectCjsGlobals\" is disabled.\n```\n\nWARNING\n\nThis option doesn't affect "
            "externalized modules which are always executed by the native runtime.")
    excerpts = [Excerpt(1, "injectCjsGlobals", "u#i", "", text, "injectCjsGlobals")]
    answer = ExtractiveAnswerer().answer("ReferenceError: __dirname is not defined in my vitest test", excerpts)
    assert "__dirname is not defined" in answer and "externalized modules" not in answer, answer


RAY_RETRIES = (
    "When a worker is executing a task, if the worker dies unexpectedly, either because the process crashed or "
    "because the machine failed, Ray will rerun the task until either the task succeeds or the maximum number of "
    "retries is exceeded. The default number of retries is 3 and can be overridden by specifying `max_retries` in "
    "the `@ray.remote` decorator.\n\nYou can experiment with this behavior by running the following code.")


def test_a_sentence_pointing_at_the_following_code_is_not_quoted_without_it() -> None:
    """ray-01, ray-18: the answer ended on "You can experiment with this behavior by running the
    following code." and the code is in no excerpt (the corpus has none there). A sentence pointing
    ahead with a period leads into nothing, as one ending in ":" does; "the following minute" is
    no such pointer (dify-01 kept its sentence)."""
    excerpts = [Excerpt(1, "Task Fault Tolerance", "u#retrying", "Retrying failed tasks", RAY_RETRIES,
                        "Task Fault Tolerance › Retrying failed tasks")]
    answer = ExtractiveAnswerer().answer("how many times does ray retry a task if the worker dies?", excerpts)
    assert "The default number of retries is 3" in answer and "following code" not in answer, answer
    assert_traceable(answer, excerpts)
    # With its code shown, the sentence is quoted over it.
    shown = [dataclasses.replace(excerpts[0], text=f"{RAY_RETRIES}\n\n```python\n@ray.remote(max_retries=1)\n"
                                                  "def potentially_fail():\n    ...\n```")]
    answer = ExtractiveAnswerer().answer("how many times does ray retry a task if the worker dies?", shown)
    assert "running the following code. [1]\n\n```python\n@ray.remote(max_retries=1)" in answer, answer
    # "the following minute" points at no block: the sentence stays.
    minute_text = RAY_RETRIES.split("\n\n")[0] + "\n\nIf a task fails twice, its worker waits during the following minute."
    minute = [dataclasses.replace(excerpts[0], text=minute_text)]
    answer = ExtractiveAnswerer().answer("what happens when a task fails twice, does the worker wait?", minute)
    assert "during the following minute. [1]" in answer, answer
