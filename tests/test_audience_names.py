"""Audience names as people write them: case and spacing do not matter, `CHAT_AUDIENCES`-style
lists are read the same from front matter, docschat.toml and the command line."""

from __future__ import annotations

import pytest

from app.corpus.sources import parse_audience_filter, parse_audiences


def test_audience_names_are_case_insensitive_and_sorted() -> None:
    assert parse_audiences("Public") == ("public",)
    assert parse_audiences(" Developer , public ") == ("developer", "public")
    assert parse_audiences(["PUBLIC", "public"]) == ("public",)
    with pytest.raises(ValueError, match="not a name"):
        parse_audiences("pub lic")


def test_an_empty_audience_filter_means_every_audience() -> None:
    assert parse_audience_filter(None) is None and parse_audience_filter("  ") is None
    assert parse_audience_filter("Internal,,public") == ["internal", "public"]


def test_flag_public_holds_the_anonymous_chat_to_public() -> None:
    from app.config import Settings

    wide = Settings(chat_audiences=["internal", "public"])
    assert wide.anonymous_audiences == ["internal", "public"]
    assert Settings(chat_audiences=["internal", "public"], flag_public=True).anonymous_audiences == ["public"]
