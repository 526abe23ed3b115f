"""Settings, read once from the environment and `.env` (the environment wins)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, SecretStr
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def _split_list(value: object) -> object:
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return value


# A list setting is written in the environment as "a, b, c".
CommaList = Annotated[list[str], NoDecode, BeforeValidator(_split_list)]


class Settings(BaseSettings):
    """Every knob of docschat. Environment variable names are the field names in upper case."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    # --- storage -------------------------------------------------------------------------------
    database_url: str | None = Field(
        None, description="Postgres URL. Unset: an embedded server in DOCSCHAT_HOME/pg is started or reused."
    )
    docschat_home: Path = Field(
        Path(".docschat"), description="Folder for the embedded cluster, the embed cache and other local state."
    )
    docschat_config: Path | None = Field(
        None, description="docschat.toml listing several sources. Unset: ./docschat.toml when it exists, "
        "else the DOCS_* settings describe the single source 'docs'."
    )

    # --- compose -------------------------------------------------------------------------------
    docs_repo: Path = Field(Path("."), description="Git repository holding the docs.")
    branch: str = Field("main", description="Git branch (or any revision) the docs are read from.")
    docs_dir: str = Field("docs", description="Folder of the docs inside the repository ('' or '.' for the root).")
    docs_include: CommaList = Field(
        ["**/*.md", "**/*.mdx"], description="Comma-separated globs (relative to DOCS_DIR) of page files."
    )
    docs_exclude: CommaList = Field(
        ["archive/**", "design/**", "marketing/**", "screenshots/**", "README.md", "**/README.md"],
        description="Comma-separated globs (relative to DOCS_DIR) never indexed.",
    )
    max_chunk_chars: int = Field(2400, ge=200, description="Sections longer than this are split at paragraph breaks.")
    docs_default_audience: str = Field(
        "internal", description="Audience of pages that declare none (front matter `audience:` or `public: true`). "
        "internal: fail closed, the chat widget never shows them."
    )
    docs_url_prefix: str = Field("/docs", description="Prefix of every href ('' allowed).")
    docs_base_url: str = Field(
        "http://127.0.0.1:8000", description="Origin that turns hrefs into absolute URLs (eval, links in answers)."
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
    embedding_retry_base_seconds: float = Field(1.0, ge=0, description="First backoff; doubles each retry.")

    # --- retrieval -----------------------------------------------------------------------------
    chat_audiences: CommaList = Field(
        ["public"], description="Audiences the anonymous chat route may see (comma-separated)."
    )
    flag_public: bool = Field(
        False, description="Superseded by CHAT_AUDIENCES. true: every retrieval (CLI included) is public-only."
    )
    rrf_k: int = Field(60, ge=1, description="Reciprocal rank fusion constant k in 1/(k + rank).")
    leg_match_count: int = Field(20, ge=1, le=200, description="Rows each leg returns before fusion.")
    max_pages: int = Field(3, ge=1, le=10, description="Pages kept in the final selection.")
    page_score_ratio: float = Field(
        0.5, gt=0, le=1, description="A page is kept only when its fused score is at least this share of the best."
    )
    demoted_pages: CommaList = Field(
        ["Privacy Policy", "Terms of Service", "Cucumber Tests"],
        description="Page titles or paths pushed down unless the question names them.",
    )
    leg_timeout_seconds: float = Field(2.0, gt=0, description="Timeout of each retrieval leg.")
    query_embedding_timeout_seconds: float = Field(5.0, gt=0, description="Timeout of embedding the question.")

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
        None, ge=-1, le=1,
        description="Cosine similarity below which a section is not given to the model. Unset: the answer floor.",
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
        [], description="Comma-separated proxy IPs whose X-Forwarded-For is believed."
    )
    cors_origins: CommaList = Field([], description="Comma-separated docs-site origins allowed to call the chat API.")

    # --- server --------------------------------------------------------------------------------
    host: str = Field("127.0.0.1", description="Address `docschat serve` binds.")
    port: int = Field(8000, ge=1, le=65535, description="Port `docschat serve` binds.")
    log_level: str = Field("info", description="debug, info, warning or error.")
    metrics_enabled: bool = Field(False, description="true: Prometheus metrics at /metrics (unauthenticated: "
                                  "keep it on an internal port or behind the proxy).")
    db_pool_size: int = Field(
        10, ge=1, le=200, description="Connections per worker process (total: workers × this, under the server's max)."
    )

    @property
    def anonymous_audiences(self) -> list[str]:
        """What the anonymous chat may see: CHAT_AUDIENCES, or public alone under FLAG_PUBLIC."""
        return ["public"] if self.flag_public else sorted(set(self.chat_audiences))


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings; tests call `get_settings.cache_clear()` after changing the environment."""
    return Settings()
