"""BM25 through the Python SDK against a reference: on a fixed corpus the emulator's scores and order must equal
rank_bm25's (its Okapi tf and length normalisation, with the idf the emulator documents, ln(1 + (N - n + 0.5) / (n + 0.5)),
as Lucene and Tantivy use) to 1e-6 relative, for the default k1/b and for a schema's own, and with stemming on the
terms must be the official Snowball English stemmer's (snowballstemmer).
"""

from __future__ import annotations

import math
import re
from typing import Dict, List, Sequence

import pytest
import snowballstemmer
import turbopuffer
from rank_bm25 import BM25Okapi

from sdk_check import Checked

CORPUS = [
    "the quick brown fox jumps over the lazy dog",
    "a quick brown dog outpaces a quick fox",
    "walruses are large marine mammals with long tusks",
    "the walrus uses its tusks to haul itself onto the ice",
    "foxes and dogs are both canines but foxes are smaller",
    "marine biologists study walrus populations in the arctic",
    "lazy afternoons are for reading about marine mammals",
    "the brown bear is not a fox and not a dog",
    "arctic foxes change the colour of their coats",
    "dogs jumped over fences while the foxes watched",
    "a tusk is an elongated tooth",
    "running dogs and jumping foxes",
]
QUERIES = ["quick fox", "walrus tusks", "marine mammals arctic", "dog", "foxes jumping lazy", "elongated tooth ice"]
K3 = 8


class LuceneIdfBM25(BM25Okapi):
    """rank_bm25's Okapi BM25 with the non-negative idf the emulator documents (rank_bm25's own floors negative idf)."""

    def _calc_idf(self, nd: Dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


def words(text: str) -> List[str]:
    # The corpus is lowercase ASCII: word_v4's runs of alphanumeric codepoints are these.
    return re.findall(r"[a-z0-9]+", text.lower())


def expected(corpus: Sequence[List[str]], query: List[str], k1: float, b: float) -> List[tuple]:
    reference = LuceneIdfBM25(list(corpus), k1=k1, b=b)
    counts: Dict[str, int] = {}
    for term in query:
        counts[term] = counts.get(term, 0) + 1
    scores = [0.0] * len(corpus)
    for term, qtf in counts.items():
        weight = (K3 + 1) * qtf / (K3 + qtf)
        for i, s in enumerate(reference.get_scores([term])):
            scores[i] += weight * s
    hits = [(i + 1, s) for i, s in enumerate(scores) if any(t in corpus[i] for t in counts)]
    return sorted(hits, key=lambda h: (-h[1], h[0]))


def check(ns: Checked, corpus: Sequence[List[str]], query_text: str, query: List[str], k1: float, b: float) -> None:
    want = expected(corpus, query, k1, b)
    got = ns.query(rank_by=("text", "BM25", query_text), top_k=100).rows
    assert [r.id for r in got] == [i for i, _ in want], query_text
    for row, (_, score) in zip(got, want):
        assert row["$dist"] == pytest.approx(score, rel=1e-6), (query_text, row.id)


def seed(tpuf: turbopuffer.Turbopuffer, name: str, fts: object) -> Checked:
    ns = Checked(tpuf, name)
    ns.write(
        upsert_rows=[{"id": i + 1, "text": text} for i, text in enumerate(CORPUS)],
        schema={"text": {"type": "string", "full_text_search": fts}},
    )
    return ns


def test_bm25_equals_the_reference_with_default_and_custom_parameters(tpuf: turbopuffer.Turbopuffer) -> None:
    plain = {"remove_stopwords": False}
    corpus = [words(t) for t in CORPUS]
    ns = seed(tpuf, "py-bm25-ref", plain)
    for q in QUERIES:
        check(ns, corpus, q, words(q), 1.2, 0.75)
    # A repeated query term weighs (k3 + 1) * qtf / (k3 + qtf).
    check(ns, corpus, "fox fox quick", words("fox fox quick"), 1.2, 0.75)
    tuned = seed(tpuf, "py-bm25-ref-tuned", {**plain, "k1": 2.0, "b": 0.3})
    for q in QUERIES:
        check(tuned, corpus, q, words(q), 2.0, 0.3)


def test_stemmed_terms_are_snowball_english(tpuf: turbopuffer.Turbopuffer) -> None:
    stem = snowballstemmer.stemmer("english")
    corpus = [stem.stemWords(words(t)) for t in CORPUS]
    ns = seed(tpuf, "py-bm25-stemmed", {"stemming": True, "remove_stopwords": False})
    for q in QUERIES:
        check(ns, corpus, q, stem.stemWords(words(q)), 1.2, 0.75)
