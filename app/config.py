"""Settings, read once from the environment and `.env` (the environment wins)."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.errors import ConfigError
from app.home import find_home
from app.setting_values import (
    NAME,
    URL_TRICKS,
    CommaList,
    QuestionList,
    browser_origin,
    parse_mcp_tokens,
)

# The page files of a docs source (DOCS_INCLUDE's default, and a Source's).
DOCS_INCLUDE = ("**/*.md", "**/*.mdx", "**/*.markdown", "**/*.mdown", "**/*.mkdn", "**/*.mkd", "**/*.rst")


class Settings(BaseSettings):
    """Every knob of docschat. Environment variable names are the field names in upper case."""

    # get_settings() reads the project's .env as well (app/home.py)
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False)

    # --- storage -------------------------------------------------------------------------------
    database_url: str | None = Field(
        None, description="Postgres URL. Unset: an embedded server in DOCSCHAT_HOME/pg is started or reused."
    )
    database_pooler: Literal["none", "transaction"] = Field(
        "none", description="transaction: DATABASE_URL reaches Postgres through a pooler in transaction mode "
        "(PgBouncer, Supavisor, Supabase's port 6543): no server-side prepared statement is reused "
        "(asyncpg statement_cache_size=0) and migrations take transaction-level locks only.",
    )
    database_read_url: str | None = Field(
        None, description="A read replica's URL: retrieval (chat search, the search box, /llms.txt, MCP reads) "
        "goes there, every write to DATABASE_URL. Unset: everything on DATABASE_URL.",
    )
    docschat_home: Path = Field(
        default_factory=lambda: find_home().home,
        description="Folder for the embedded cluster, the embed cache and other local state. Unset: the "
        ".docschat of the nearest folder upwards holding a .docschat or a docschat.toml, else the per-user "
        "data folder (~/.local/share/docschat on Linux); see app/home.py.",
    )
    docschat_config: Path | None = Field(
        default_factory=lambda: find_home().config,
        description="docschat.toml listing several sources. Unset: the docschat.toml of the nearest folder "
        "upwards holding one (or a .docschat), else the DOCS_* settings describe the single source 'docs'.",
    )

    # --- compose -------------------------------------------------------------------------------
    docs_repo: Path = Field(Path("."), description="Git repository holding the docs.")
    branch: str = Field("main", description="Git branch (or any revision) the docs are read from.")
    docs_dir: str = Field("docs", description="Folder of the docs inside the repository ('' or '.' for the root).")
    docs_site: str = Field(
        "", description="Folder of the docs site inside DOCS_DIR ('.': DOCS_DIR itself, no search). Empty: "
        "DOCS_DIR's own site configuration, else the one found in its subfolders.",
    )
    docs_include: CommaList = Field(
        list(DOCS_INCLUDE),
        description="Comma-separated globs (relative to DOCS_DIR) of page files (`.markdown`, `.mdown`, `.mkdn` "
        "and `.mkd` are pages of an MkDocs site only, as MkDocs builds them; `.rst` of a Sphinx site only).",
    )
    docs_exclude: CommaList = Field(
        ["archive/**", "design/**", "marketing/**", "screenshots/**", "README.md", "**/README.md"],
        description="Comma-separated globs (relative to DOCS_DIR) never indexed.",
    )
    max_chunk_chars: int = Field(
        800, ge=200, description="Sections longer than this are split at paragraph breaks. 800 characters fit the "
        "offline model's 256-token window, so every part is read whole (measured: design/retrieval-defaults.md)."
    )
    max_code_chunk_chars: int = Field(
        2400, ge=200, description="A code symbol (class) longer than this is split into its methods."
    )
    docs_default_audience: str = Field(
        "internal", description="Audience of pages that declare none (front matter `audience:` or `public: true`). "
        "internal: fail closed, the chat widget never shows them."
    )
    docs_url_prefix: str = Field("/docs", description="Prefix of every href ('' allowed).")
    docs_base_url: str = Field(
        "http://127.0.0.1:8000", description="Origin that turns hrefs into absolute URLs (eval, links in answers, "
        "MCP). Unset: PUBLIC_URL, else http://127.0.0.1:PORT."
    )

    # --- embeddings ----------------------------------------------------------------------------
    embedding_provider: Literal["auto", "gemini", "openai", "local", "none"] = Field(
        "auto",
        description="auto: gemini with GEMINI_API_KEY, else openai with OPENAI_API_KEY, else the local model when "
        "installed, else none.",
    )
    gemini_api_key: SecretStr | None = Field(None, description="Enables Gemini embeddings and answers.")
    gemini_base_url: str | None = Field(None, description="Another endpoint for the google-genai client (tests).")
    gemini_embedding_model: str = Field("gemini-embedding-001", description="Gemini embedding model.")
    openai_api_key: SecretStr | None = Field(
        None, description="Key of an OpenAI-compatible server (OpenAI, vLLM, Ollama, LM Studio: any non-empty value)."
    )
    openai_base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (unset: api.openai.com)."
    )
    openai_embedding_model: str = Field("text-embedding-3-small", description="Embedding model on that server.")
    openai_embedding_dimensions: int = Field(
        768, ge=0, le=768,
        description="Dimensions asked of the server (OpenAI's text-embedding-3 take it); 0 = not sent, for servers "
        "that refuse it. Shorter vectors are zero-padded to 768; longer ones are refused.",
    )
    openai_chat_model: str = Field("gpt-4o-mini", description="Chat model on the OpenAI-compatible server.")
    embedding_batch_size: int = Field(20, ge=1, le=100, description="Texts per embedding request.")
    embedding_max_retries: int = Field(5, ge=0, description="Retries on 429/5xx before a sync gives up.")
    embedding_retry_base_seconds: float = Field(1.0, ge=0, le=60, description="First backoff; doubles each retry.")

    # --- retrieval -----------------------------------------------------------------------------
    chat_audiences: CommaList = Field(
        ["public"], description="Audiences the anonymous chat route may see (comma-separated)."
    )
    flag_public: bool = Field(
        False, description="Superseded by CHAT_AUDIENCES. true: every retrieval (CLI included) is public-only."
    )
    rrf_k: int = Field(
        60, ge=1, description="k of the rank part of fusion, 1/(k + rank) (app/search/fusion.py)."
    )
    leg_match_count: int = Field(
        40, ge=1, le=200, description="Rows each leg returns before fusion (parts of a long section count one each)."
    )
    max_pages: int = Field(3, ge=1, le=10, description="Pages kept in the final selection.")
    page_score_ratio: float = Field(
        0.3, gt=0, le=1, description="A page is kept only when its fused score is at least this share of the best."
    )
    demoted_pages: CommaList = Field(
        ["Privacy Policy", "Terms of Service", "Cucumber Tests"],
        description="Page titles or paths pushed down unless the question names them.",
    )
    leg_timeout_seconds: float = Field(
        2.0, gt=0, le=600,
        description="Timeout of each retrieval leg, and of a search-box search (its wait for the gate included).",
    )
    query_embedding_timeout_seconds: float = Field(
        5.0, gt=0, le=600, description="Timeout of embedding the question."
    )

    # --- judgment (app/judge/confidence.py; how the defaults were chosen: design/answer-floor.md)
    answer_floor: float | None = Field(
        None, ge=0, le=1, description="Confidence below which the chat says the docs do not cover the question. "
        "Unset: the default (cosine is put on a per-embedding-model scale first)."
    )
    low_confidence: float | None = Field(
        None, ge=0, le=1, description="Answered questions below this confidence are recorded as gaps. Unset: floor + 0.15."
    )
    keyword_answer_floor: float | None = Field(
        None, ge=0, le=1, description="The floor of keyword-only retrieval (no provider, or the vector leg failed)."
    )
    answer_check: bool = Field(
        True, description="Check that the retrieved sections hold the question's specific terms (names, numbers, "
        "options, versions); the answer then ends with a line naming what the docs found do not mention. It never "
        "refuses (app/judge/answer_check.py)."
    )
    answer_verifier: Literal["model", "off"] = Field(
        "off", description="'model': one bounded call to the chat model (Gemini or OpenAI-compatible) returns whether "
        "the excerpts answer the question (answerable / partly / not) before it answers; 'not' refuses. 'off': the offline "
        "check only."
    )
    answer_verifier_timeout_seconds: float = Field(
        5.0, gt=0, le=60, description="Timeout of the verification call; on timeout the offline check's verdict stands."
    )
    gap_retention_days: int = Field(
        90, ge=1, le=36500, description="Gaps not seen for this many days are deleted (at most a century)."
    )
    chat_retention_days: int = Field(
        30, ge=1, le=36500, description="Chat sessions and messages older than this many days, and cached question "
        "embeddings as old, are deleted (hourly, by the server; expired rate-limit rows too)."
    )
    cosine_scale: CommaList | None = Field(
        None, description="'unrelated,related': the best cosine this embedding model gives an unrelated question "
        "and a well-matched one. Unset: known per model (an unknown model gets the strict Gemini one)."
    )

    @field_validator("cosine_scale")
    @classmethod
    def _two_increasing_cosines(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        try:
            numbers = [float(v) for v in value]
        except ValueError:
            raise ValueError("must be two numbers, 'unrelated,related' (like 0.15,0.6)") from None
        if len(numbers) != 2 or not -1 <= numbers[0] < numbers[1] <= 1:
            raise ValueError("must be two cosines 'unrelated,related' with -1 <= unrelated < related <= 1")
        return value

    # --- chat ----------------------------------------------------------------------------------
    chat_model: str = Field("gemini-3.6-flash", description="Gemini model that writes the Summary.")
    answer_first_token_timeout_seconds: float = Field(
        15.0, gt=0, description="The model must send its first text within this; else the Summary is reported unavailable."
    )
    answer_timeout_seconds: float = Field(
        60.0, gt=0, description="The whole Summary must arrive within this; past it the answer stops with an error."
    )
    answer_provider: Literal["auto", "gemini", "openai", "extractive"] = Field(
        "auto", description="auto: gemini with GEMINI_API_KEY, else openai with OPENAI_API_KEY, else extractive."
    )
    chat_history_turns: int = Field(4, ge=0, description="Earlier messages of the session given to the model.")
    chat_max_excerpts: int = Field(4, ge=1, le=20, description="Sections given to the model per turn (and per search).")
    chat_excerpt_min_score: float | None = Field(
        None, ge=0, le=1,
        description="Score (cosine on the model's 0-1 scale, like the confidence) below which a section is not "
        "given to the model. Unset: the answer floor.",
    )
    chat_max_excerpt_chars: int = Field(
        7000, ge=200, description="Characters of excerpts given to the model per turn (and per search)."
    )
    chat_tool_calls_per_turn: int = Field(3, ge=0, le=10, description="search_docs calls the model may make a turn.")
    chat_tool_timeout_seconds: float = Field(5.0, gt=0, description="Timeout of one search_docs call.")
    query_rewrite_timeout_seconds: float = Field(
        3.0, ge=0, description="Timeout of the model's rewrite of a follow-up (Gemini only); 0 turns it off."
    )
    rate_limit_per_hour: int = Field(5, ge=1, description="Questions per client IP per hour.")
    rate_limit_per_day: int = Field(10, ge=1, description="Questions per client IP per day.")
    ip_hash_secret: SecretStr | None = Field(
        None, description="HMAC key for client IPs. Unset: a random one created once in the database and shared by every server."
    )
    trusted_proxies: CommaList = Field(
        [], description="Comma-separated proxy addresses or networks (10.0.0.0/8) whose X-Forwarded-For is believed."
    )
    cors_origins: CommaList = Field([], description="Comma-separated docs-site origins allowed to call the chat API.")
    feedback_per_hour: int = Field(30, ge=1, description="Yes/No ratings and comments per client IP per hour.")
    feedback_per_day: int = Field(100, ge=1, description="Yes/No ratings and comments per client IP per day.")
    search_rate_limit: int = Field(
        300, ge=1, description="Searches (GET /docs/search, one per pause in typing) per client IP per minute."
    )
    search_cache_size: int = Field(
        1024, ge=0, description="Keyword searches (GET /docs/search) whose results each server process keeps, "
        "checked against the index version on every request (one round trip); 0: none."
    )
    search_concurrency: int | None = Field(
        None, ge=0, description="Search-box statements (GET /docs/search) each server process runs at once; "
        "more wait their turn, in order. Unset: the cores this process may use (a container's CPU quota "
        "included); 0: no limit."
    )
    handoff_url: str | None = Field(
        None, description="A way out (support page, forum): linked when the docs do not cover a question and after a No."
    )
    handoff_text: str = Field("Ask a person", description="The text of the HANDOFF_URL link.")
    widget_greeting: str | None = Field(
        None, max_length=500, description="A first message in the widget's empty chat (the script's data-greeting "
        "wins)."
    )
    widget_examples: QuestionList = Field(
        [], max_length=6, description="Example questions offered in the widget's empty chat, separated by `|` "
        "(the script's data-examples wins)."
    )

    # --- server --------------------------------------------------------------------------------
    public_url: str | None = Field(
        None, description="The URL visitors reach the server at (https://docs.example.com, or a path behind a "
        "proxy). Links in answers, MCP and `docschat ask` use it, and the CLI uses the server there instead of "
        "loading the model itself. Unset: http://127.0.0.1:PORT, or the one a running `docschat serve` or demo "
        "of this DOCSCHAT_HOME recorded.",
    )
    host: str = Field("127.0.0.1", description="Address `docschat serve` binds.")
    port: int = Field(8000, ge=1, le=65535, description="Port `docschat serve` binds.")
    startup_wait_seconds: float = Field(
        60.0, gt=0, description="How long a question waits for the server to finish loading the model before a 503."
    )
    request_read_timeout_seconds: float = Field(
        10.0, gt=0, le=300, description="How long a client may take to send a whole request (its headers and body, "
        "from its first byte or the connection's opening); a slower one is disconnected."
    )
    max_connections: int = Field(
        8192, ge=16, description="Open connections per server process; more are answered 503 and closed at once "
        "(lowered to what the process's open-file limit allows)."
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field("info", description="debug, info, warning or error.")
    metrics_enabled: bool = Field(False, description="true: Prometheus metrics at /metrics (unauthenticated: "
                                  "keep it on an internal port or behind the proxy).")
    db_pool_size: int = Field(
        10, ge=2, le=200, description="Connections per worker process (total: workers × this, under the server's max); "
        "at least 2: a server's sync job holds one for its rows while it reads and writes through another."
    )
    sync_lease_seconds: float = Field(
        30.0, ge=1, le=3600, description="The sync job's lease: renewed every third of this while a job runs; a job "
        "whose process died blocks the next one for at most this long."
    )

    # --- doors: /llms.txt, MCP (app/doors/) -----------------------------------------------------
    site_name: str = Field("Documentation", description="The docs site's name: the title of /llms.txt and the MCP server's name.")
    site_summary: str = Field(
        "This product's documentation, page by page. /llms-full.txt holds the text of every page.",
        description="One line about the docs: the `>` summary of /llms.txt and the MCP server's instructions.",
    )
    mcp_tokens: SecretStr | None = Field(
        None, description="Bearer tokens of /mcp and the audiences each may see: 'token1=internal,public;token2=partner' "
        "(tokens of 16+ characters). Without a token /mcp sees CHAT_AUDIENCES; a token not listed is refused (401).",
    )
    mcp_rate_limit_per_hour: int = Field(300, ge=1, description="Requests to /mcp per client IP per hour.")
    mcp_rate_limit_per_day: int = Field(3000, ge=1, description="Requests to /mcp per client IP per day.")

    # --- operations (admin console, scheduler) --------------------------------------------------
    admin_token: SecretStr | None = Field(
        None, description="Enables /admin and /admin/api/ behind `Authorization: Bearer <token>`. Unset: 404."
    )
    admin_failures_per_hour: int = Field(10, ge=1, description="Wrong admin tokens per client IP per hour.")
    admin_failures_per_day: int = Field(50, ge=1, description="Wrong admin tokens per client IP per day.")
    sync_interval_seconds: float | None = Field(
        None, gt=0, description="Seconds between re-checks of each source's branch head (unset: no scheduler; 600 suggested)."
    )
    sync_start_delay_seconds: float = Field(
        15.0, ge=0, description="Seconds after start-up before the scheduler's first check (an empty index syncs then)."
    )

    @field_validator("chat_audiences")
    @classmethod
    def _audience_names(cls, value: list[str]) -> list[str]:
        # Fail closed and early: a value no page can match ("*", "", "Public ") used to leave the
        # chat silently seeing nothing, every question then recorded as a gap.
        names = sorted({name.strip().lower() for name in value})
        if not names:
            raise ValueError("needs at least one audience, e.g. public")
        for name in names:
            if not NAME.match(name):
                raise ValueError(f"{name[:80]!r} is not an audience name (letters, digits, - and _; no wildcard)")
        return names

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_addresses(cls, value: list[str]) -> list[str]:
        # Silently ignored, a range or a host name left every visitor behind the proxy sharing its
        # rate limit: the whole site locked out after a few questions.
        for entry in value:
            try:
                network = ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(f"{entry[:80]!r} is not an IP address or network (like 10.0.0.1 or 10.0.0.0/8)") from None
            if network.prefixlen == 0:  # every client could then name itself in X-Forwarded-For
                raise ValueError(f"{entry!r} trusts every address; name the proxies' own addresses or network")
        return value

    @field_validator("cors_origins")
    @classmethod
    def _origins(cls, value: list[str]) -> list[str]:
        # An origin is scheme://host[:port], as browsers send it: a trailing slash never matched,
        # and "null" (sandboxed frames, data: URLs) would share the session cookie with any page.
        origins = []
        for written in value:
            origin = written.rstrip("/")
            if "*" not in origin:  # the wildcard has its own message (app/server.py)
                origin = browser_origin(origin)
            origins.append(origin)
        return origins

    @field_validator("handoff_url", mode="before")
    @classmethod
    def _handoff_link(cls, value: object) -> object:
        # Drawn as a link in every visitor's widget: an absolute http(s) URL or nothing.
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        text = str(value).strip()
        parts = urlsplit(text)
        # The widget draws it only through safeUrl (widget.js): no user:password (which every visitor
        # would be sent), no control or space characters, no backslash.
        if (parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password
                or URL_TRICKS.search(text)):
            raise ValueError(f"{text[:80]!r} is not an absolute http(s) URL (like https://example.com/support)")
        return text

    @field_validator("public_url", mode="before")
    @classmethod
    def _public_url(cls, value: object) -> object:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        text = str(value).strip().rstrip("/")
        parts = urlsplit(text)
        if (parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password
                or parts.query or parts.fragment or URL_TRICKS.search(text)):
            raise ValueError(f"{text[:80]!r} is not an http(s) URL of the server (like https://docs.example.com)")
        return text

    @model_validator(mode="after")
    def _links_follow_the_public_url(self) -> Settings:
        # One setting names where the server is; links follow it unless DOCS_BASE_URL says otherwise
        # (they pointed at :8000 whatever PORT the server had).
        if "docs_base_url" not in self.model_fields_set:
            self.docs_base_url = self.public_url or f"http://127.0.0.1:{self.port}"
            self.__pydantic_fields_set__.discard("docs_base_url")  # still the default: the demo may set it
        return self

    def with_public_url(self, url: str) -> Settings:
        """These settings with PUBLIC_URL (and, unless DOCS_BASE_URL was chosen, the links) at `url`."""
        update: dict[str, object] = {"public_url": url.rstrip("/")}
        if "docs_base_url" not in self.model_fields_set:
            update["docs_base_url"] = url.rstrip("/")
        copy = self.model_copy(update=update)
        copy.__pydantic_fields_set__.discard("docs_base_url")
        return copy

    @field_validator("handoff_text")
    @classmethod
    def _handoff_label(cls, value: str) -> str:
        text = " ".join(value.split())[:120]
        if not text:
            raise ValueError("must not be empty (it is the text of the HANDOFF_URL link)")
        return text

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower_level(cls, value: object) -> object:
        # Python's own names are taken too (they worked before this setting was checked).
        level = value.strip().lower() if isinstance(value, str) else value
        return {"warn": "warning", "critical": "error", "fatal": "error"}.get(level, level) if isinstance(level, str) else level

    @field_validator("admin_token", mode="before")
    @classmethod
    def _admin_token_strength(cls, value: object) -> object:
        # Empty means unset (admin off); a short token is refused rather than guessed.
        raw = value.get_secret_value() if isinstance(value, SecretStr) else value
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None
        if isinstance(raw, str) and len(raw.strip()) < 16:
            raise ValueError("must be at least 16 characters (for example: openssl rand -hex 24)")
        return value

    @field_validator("site_name", "site_summary")
    @classmethod
    def _one_line(cls, value: str) -> str:
        text = " ".join(value.split())
        if not text:
            raise ValueError("must not be empty")
        return text

    @field_validator("mcp_tokens", mode="before")
    @classmethod
    def _empty_tokens(cls, value: object) -> object:
        raw = value.get_secret_value() if isinstance(value, SecretStr) else value
        return None if raw is None or (isinstance(raw, str) and not raw.strip()) else value

    @field_validator("mcp_tokens")
    @classmethod
    def _token_map(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            parse_mcp_tokens(value.get_secret_value())  # a ValueError names the entry by position, never the token
        return value

    @property
    def mcp_token_audiences(self) -> list[tuple[str, list[str]]]:
        """MCP_TOKENS as (token, audiences) pairs; FLAG_PUBLIC holds every token to public."""
        pairs = parse_mcp_tokens(self.mcp_tokens.get_secret_value()) if self.mcp_tokens else []
        return [(token, ["public"]) for token, _ in pairs] if self.flag_public else pairs

    @property
    def home_reason(self) -> str:
        """Why DOCSCHAT_HOME is the folder it is: the setting, or the file the search found."""
        if "docschat_home" in self.model_fields_set:
            return "DOCSCHAT_HOME"
        return find_home().reason

    @property
    def anonymous_audiences(self) -> list[str]:
        """What the anonymous chat may see: CHAT_AUDIENCES, or public alone under FLAG_PUBLIC."""
        return ["public"] if self.flag_public else sorted(set(self.chat_audiences))


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings; tests call `get_settings.cache_clear()` after changing the environment."""
    # The project's .env (the folder found as app/home.py finds it) is read too, the current
    # folder's winning: run from a subfolder, a project's DATABASE_URL still applies.
    project = find_home().project
    here = Path(".env")
    files = ([project / ".env"] if project is not None and (project / ".env").resolve() != here.resolve() else []) + [here]
    try:
        return Settings(_env_file=tuple(files))
    except UnicodeDecodeError as exc:  # the only file read here is .env
        raise ConfigError(f".env is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
