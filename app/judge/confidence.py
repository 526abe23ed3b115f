"""Whether the docs hold the answer: a confidence (0–1) from evidence comparable across corpora.

RRF scores are rank-only: the best hit of a nonsense question fuses as high as the best hit of a
good one. The evidence here is absolute instead:

- `best_cosine`: the vector leg's best cosine similarity, placed on a 0–1 scale between what the
  embedding model gives unrelated text (`unrelated`) and what it gives a passage on the question's
  topic (`related`). Models differ (MiniLM's unrelated pairs sit near 0.1, Gemini's near 0.5), so
  the scale is per model.
- `coverage`: the share of the question's IDF weight that the best section matches
  (`docs_term_coverage`). A question of words the docs never use ("xyzzy plugh", "capital of
  France") covers next to nothing, whatever the corpus. Coverage made of common words only
  ("thanks, that was helpful") is weak evidence: it counts in full only once the matched words
  weigh as much as one word the docs never use (`specific_idf`, the corpus's highest IDF: about
  7 for 500 sections, 7.7 for 1,100), in proportion below.
- `legs_agree`: the two legs' top pages share a page. It counts as far as the cosine says that
  page is related: two legs agreeing on an unrelated page (small talk) is agreement on noise.

Keyword-only retrieval (no provider, or the vector leg failed) has only coverage: its confidence
is the specific coverage alone, held to its own floor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.config import Settings

# Cosine scale of each embedding model: (unrelated, related). How these were chosen is written
# down in design/answer-floor.md.
COSINE_SCALES: dict[str, tuple[float, float]] = {
    "all-MiniLM-L6-v2": (0.15, 0.60),  # measured (design/answer-floor.md)
    "gemini-embedding-001": (0.50, 0.80),  # not measured here: the range Gemini is known to give
    "text-embedding-3-small": (0.15, 0.55),  # not measured here: OpenAI's low-cosine range
    "text-embedding-3-large": (0.15, 0.55),
}
# An unknown model gets the stricter (Gemini-like) scale: a miscalibrated default refuses more,
# it never answers more (fail closed). COSINE_SCALE sets the scale of any model.
DEFAULT_COSINE_SCALE = (0.50, 0.80)

# Weights of the evidence in the hybrid confidence; they add up to 1.
COSINE_WEIGHT = 0.55
COVERAGE_WEIGHT = 0.30
AGREEMENT_WEIGHT = 0.15

# Defaults of the settings ANSWER_FLOOR, LOW_CONFIDENCE, KEYWORD_ANSWER_FLOOR.
DEFAULT_ANSWER_FLOOR = 0.45
DEFAULT_LOW_CONFIDENCE_MARGIN = 0.15  # the low-confidence line sits this far above the floor
DEFAULT_KEYWORD_ANSWER_FLOOR = 0.40


@dataclass(frozen=True)
class Evidence:
    """What retrieval saw, independent of ranks. None: that leg did not run or failed."""

    best_cosine: float | None = None
    coverage: float | None = None
    matched_idf: float | None = None
    specific_idf: float | None = None  # matched IDF at which coverage counts in full
    legs_agree: bool | None = None
    model: str | None = None


@dataclass(frozen=True)
class Floors:
    """The lines a confidence is held against (settings; None: the default). What differs between
    embedding models is the cosine scale above, so one floor holds for every model and corpus."""

    answer_floor: float | None = None
    low_confidence: float | None = None
    keyword_answer_floor: float | None = None
    cosine_scale: tuple[float, float] | None = None  # (unrelated, related) instead of the model's


@dataclass(frozen=True)
class Judgment:
    confidence: float
    floor: float
    low_confidence: float
    would_answer: bool
    rule: str  # "hybrid", "vector_only", "keyword_only" or "empty"
    explanation: dict[str, object] = field(default_factory=dict)

    @property
    def is_low(self) -> bool:
        """Answered, but below the low-confidence line (recorded as a gap)."""
        return self.would_answer and self.confidence < self.low_confidence

    def to_dict(self) -> dict[str, object]:
        return {"confidence": self.confidence, "floor": self.floor, "would_answer": self.would_answer}


def floors_from_settings(settings: Settings) -> Floors:
    """The floors the settings draw (ANSWER_FLOOR, LOW_CONFIDENCE, KEYWORD_ANSWER_FLOOR, COSINE_SCALE)."""
    scale = settings.cosine_scale
    return Floors(settings.answer_floor, settings.low_confidence, settings.keyword_answer_floor,
                  (float(scale[0]), float(scale[1])) if scale else None)


def cosine_scale(model: str | None) -> tuple[float, float]:
    """(unrelated, related) cosine of `model`; model names may carry a suffix ("…@384-padded-768")."""
    if model:
        base = model.split("@", 1)[0]
        for name, scale in COSINE_SCALES.items():
            if base == name or base.endswith("/" + name):
                return scale
    return DEFAULT_COSINE_SCALE


def scaled_cosine(cosine: float, model: str | None, scale: tuple[float, float] | None = None) -> float:
    unrelated, related = scale or cosine_scale(model)
    return _clip((cosine - unrelated) / (related - unrelated))


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def judge(evidence: Evidence, floors: Floors = Floors()) -> Judgment:
    """The confidence, the floor it is held against, and whether to answer, with how it was made."""
    if evidence.best_cosine is None and evidence.coverage is None:
        floor = floors.answer_floor if floors.answer_floor is not None else DEFAULT_ANSWER_FLOOR
        return Judgment(0.0, floor, _low_line(floors, floor), False, "empty", {"reason": "nothing retrieved"})
    if evidence.best_cosine is None:
        return _judge_keyword_only(evidence, floors)
    unrelated, related = floors.cosine_scale or cosine_scale(evidence.model)
    scaled = scaled_cosine(evidence.best_cosine, evidence.model, (unrelated, related))
    explanation: dict[str, object] = {
        "best_cosine": round(evidence.best_cosine, 4),
        "cosine_scale": {"unrelated": unrelated, "related": related},
        "scaled_cosine": round(scaled, 4),
    }
    if evidence.coverage is None:  # vector only: cosine is all there is
        confidence, rule = scaled, "vector_only"
    else:
        # The legs agreeing on a page the vector leg finds unrelated is agreement on noise (small
        # talk finds the same common words everywhere): it counts in proportion to the cosine.
        agree = scaled if evidence.legs_agree else 0.0
        specific = specific_coverage(evidence)
        confidence = COSINE_WEIGHT * scaled + COVERAGE_WEIGHT * specific + AGREEMENT_WEIGHT * agree
        rule = "hybrid"
        explanation |= {
            "coverage": round(evidence.coverage, 4), "matched_idf": round(evidence.matched_idf or 0.0, 4),
            "specific_idf": round(evidence.specific_idf or 0.0, 4),
            "specific_coverage": round(specific, 4), "legs_agree": bool(evidence.legs_agree),
            "weights": {"cosine": COSINE_WEIGHT, "coverage": COVERAGE_WEIGHT, "agreement": AGREEMENT_WEIGHT},
        }
    floor = floors.answer_floor if floors.answer_floor is not None else DEFAULT_ANSWER_FLOOR
    confidence = round(_clip(confidence), 4)
    explanation["rule"] = rule
    return Judgment(confidence, floor, _low_line(floors, floor), confidence >= floor, rule, explanation)


def specific_coverage(evidence: Evidence) -> float:
    """Coverage, scaled down when the matched words are too common to say what the question is about."""
    coverage, matched_idf = evidence.coverage or 0.0, evidence.matched_idf or 0.0
    if not evidence.specific_idf:
        return coverage
    return _clip(coverage * min(1.0, matched_idf / evidence.specific_idf))


def _judge_keyword_only(evidence: Evidence, floors: Floors) -> Judgment:
    """Specific coverage alone, held to the keyword floor."""
    floor = floors.keyword_answer_floor if floors.keyword_answer_floor is not None else DEFAULT_KEYWORD_ANSWER_FLOOR
    confidence = round(specific_coverage(evidence), 4)
    explanation: dict[str, object] = {
        "rule": "keyword_only", "coverage": round(evidence.coverage or 0.0, 4),
        "matched_idf": round(evidence.matched_idf or 0.0, 4), "specific_idf": round(evidence.specific_idf or 0.0, 4),
    }
    return Judgment(confidence, floor, _low_line(floors, floor), confidence >= floor, "keyword_only", explanation)


def _low_line(floors: Floors, floor: float) -> float:
    if floors.low_confidence is not None:
        return max(floors.low_confidence, floor)
    return min(1.0, floor + DEFAULT_LOW_CONFIDENCE_MARGIN)
