"""A small tool loop for Gemini function calling: the model may call tools, at most `max_steps`
model calls a turn, and the last call is made without tools so a turn always ends in text.

A tool is a name, a description, a JSON schema of its arguments and a function from arguments to
a JSON-able result. A tool that fails returns `{"error": ...}` to the model: bad arguments from the
model never crash the turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from google import genai
from google.genai import types

from app.errors import DocschatError
from app.logging import get_logger

log = get_logger(__name__)

MAX_MODEL_STEPS = 5


class ToolLoopError(RuntimeError):
    """The model was still calling tools when its last step ended."""


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments object
    run: Callable[..., dict[str, Any]]  # called with the arguments as keywords; may block (runs in a thread)

    def declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration(
            name=self.name, description=self.description, parameters_json_schema=self.parameters
        )


async def call_tool(tools: dict[str, Tool], call: types.FunctionCall) -> dict[str, Any]:
    tool = tools.get(call.name or "")
    if tool is None:
        return {"error": f"no tool named {call.name!r}; the tools are {', '.join(sorted(tools))}"}
    arguments = dict(call.args or {})
    allowed = set(tool.parameters.get("properties", {}))
    unknown = sorted(set(arguments) - allowed)
    if unknown:
        return {"error": f"unknown arguments {unknown}; {tool.name} takes {sorted(allowed)}"}
    try:
        return await asyncio.to_thread(tool.run, **arguments)
    except (ValueError, TypeError, OSError, DocschatError) as exc:  # bad path or argument, git cannot read
        return {"error": str(exc)[:500]}


async def stream_with_tools(
    client: genai.Client,
    model: str,
    contents: list[types.Content],
    config: types.GenerateContentConfig,
    tools: list[Tool],
    *,
    max_steps: int = MAX_MODEL_STEPS,
) -> AsyncIterator[str]:
    """Text deltas of the model's answer; tool calls are run between model steps."""
    by_name = {t.name: t for t in tools}
    contents = list(contents)
    for step in range(1, max_steps + 1):
        last = step == max_steps or not tools
        step_config = config.model_copy(
            update={
                "tools": None if last else [types.Tool(function_declarations=[t.declaration() for t in tools])],
                "automatic_function_calling": types.AutomaticFunctionCallingConfig(disable=True),
            }
        )
        calls: list[types.FunctionCall] = []
        model_parts: list[types.Part] = []
        wrote = False
        response = await client.aio.models.generate_content_stream(model=model, contents=contents, config=step_config)
        async for chunk in response:
            for candidate in chunk.candidates or []:
                for part in (candidate.content.parts if candidate.content else None) or []:
                    if part.function_call is not None:
                        calls.append(part.function_call)
                        model_parts.append(part)
                    elif part.text and not part.thought:
                        model_parts.append(part)
                        wrote = True
                        yield part.text
        if last:
            if not wrote:
                raise ToolLoopError(f"no answer after {step} model steps")
            return
        if not calls:
            return
        log.info("chat_tool_calls", step=step, tools=[c.name for c in calls])
        results = [await call_tool(by_name, c) for c in calls]
        contents.append(types.Content(role="model", parts=model_parts))
        contents.append(
            types.Content(
                role="user",
                parts=[
                    types.Part(function_response=types.FunctionResponse(id=c.id, name=c.name, response=r))
                    for c, r in zip(calls, results, strict=True)
                ],
            )
        )
