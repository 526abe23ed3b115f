"""What /schema says about the chat API beyond what Litestar infers: the request body, which the
route parses itself (so that no input can reach a 500), and every error response."""

from __future__ import annotations

from dataclasses import dataclass

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)

from app.chat.feedback import MAX_COMMENT_CHARS
from app.chat.requests import MAX_BODY_BYTES
from app.search.terms import MAX_QUESTION_CHARS


@dataclass
class ErrorBody:
    """Every 4xx and 503 answer: a short code and a sentence saying what was wrong."""

    error: str
    detail: str


@dataclass
class ApiOperation(Operation):
    """429 and 503 answers carry `Retry-After` (seconds)."""

    def __post_init__(self) -> None:
        for status, response in (self.responses or {}).items():
            if status in ("429", "503") and not isinstance(response, Reference):
                response.headers = {"Retry-After": OpenAPIHeader(
                    schema=Schema(type=OpenAPIType.STRING, pattern=r"^[0-9]+$"), required=True,
                    description="Seconds to wait before asking again.",
                )}


@dataclass
class ChatOperation(ApiOperation):
    """POST /docs/chat: documents the JSON body the handler reads from the raw request, and the
    200 answer, which is a server-sent event stream."""

    def __post_init__(self) -> None:
        super().__post_init__()
        ok = (self.responses or {}).get("200")
        if ok is not None and not isinstance(ok, Reference):
            ok.description = "The reply as an AI SDK UI message stream (server-sent events)."
            # Schema of one event: each `data:` line holds a JSON part, or the `[DONE]` sentinel.
            ok.content = {"text/event-stream": OpenAPIMediaType(schema=Schema(
                type=OpenAPIType.OBJECT, required=["data"],
                properties={"data": Schema(type=OpenAPIType.STRING)},
            ))}
        self.request_body = RequestBody(
            required=True,
            description=f"A question. At most {MAX_BODY_BYTES} bytes; longer questions are cut to "
            f"{MAX_QUESTION_CHARS} characters. An AI SDK `messages` list is also accepted.",
            content={"application/json": OpenAPIMediaType(schema=Schema(
                type=OpenAPIType.OBJECT,
                required=["message"],
                properties={"message": Schema(
                    type=OpenAPIType.STRING,
                    # Something other than whitespace and NUL, which are stripped.
                    pattern=r"[^\s\x00]",
                    description="The question; leading and trailing whitespace is ignored.",
                )},
            ))},
        )


@dataclass
class FeedbackOperation(ApiOperation):
    """POST /docs/chat/feedback: the JSON body the handler reads from the raw request."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.request_body = RequestBody(
            required=True,
            description="A rating of one answer of this chat session (the docs_chat_id cookie). Sent again, "
            "it replaces the rating; a comment, once given, is kept unless another replaces it.",
            content={"application/json": OpenAPIMediaType(schema=Schema(
                type=OpenAPIType.OBJECT,
                required=["messageId", "rating"],
                properties={
                    "messageId": Schema(type=OpenAPIType.STRING, pattern=r"^[A-Za-z0-9]{1,64}$",
                                        description="The answer's `messageId` (the stream's `start` part, or "
                                        "`id` in GET /docs/chat)."),
                    "rating": Schema(type=OpenAPIType.STRING, enum=["up", "down"]),
                    "comment": Schema(type=OpenAPIType.STRING, max_length=MAX_COMMENT_CHARS,
                                      description="Optional: what was missing."),
                },
            ))},
        )


@dataclass
class FeedbackRecorded:
    """The rating is stored; `handoff` (HANDOFF_URL and its text) after a No when one is set."""

    recorded: bool
    handoff: dict[str, str] | None


def _error(description: str) -> ResponseSpec:
    return ResponseSpec(data_container=ErrorBody, description=description, generate_examples=False)


UNAVAILABLE = {503: _error("The database is unreachable; retry after the `Retry-After` seconds.")}
CHAT_POST_RESPONSES = {
    400: _error("The body is not a usable question (not JSON, no `message`, empty, invalid Unicode)."),
    413: _error(f"The body is larger than {MAX_BODY_BYTES} bytes."),
    415: _error("The body is not sent as `application/json`."),
    429: _error("Too many questions from this client; `Retry-After` says when to come back."),
    **UNAVAILABLE,
}
FEEDBACK_RESPONSES = {
    200: ResponseSpec(data_container=FeedbackRecorded, description="Recorded.", generate_examples=False),
    400: _error("The body is not a rating (not JSON, no `messageId`, a rating other than up/down)."),
    404: _error("This chat session has no answer with that `messageId`."),
    415: _error("The body is not sent as `application/json`."),
    429: _error("Too much feedback from this client; `Retry-After` says when to come back."),
    **UNAVAILABLE,
}
