"""The Python SDK (turbopuffer 3.1.0, pinned in requirements.txt) against real `bench emulator` processes: every call
the SDK offers, each raw response validated strictly against the SDK's models (sdk_check.py), and the 400/404/429
paths as the SDK's error classes; full-text search, multi-query fusion, schema drop, read-only namespaces and pinning
(issue 33). The call the emulator does not claim (branch_from) is made too and must fail with a 400 naming the feature.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Type

import pytest
import turbopuffer
from turbopuffer.lib.vector import b64decode_vector, b64encode_vector
from turbopuffer.resources.namespaces import NamespacesResource
from turbopuffer.types import copy_from_namespace_operation, copy_from_namespace_operation_result

from conftest import Emulator
from sdk_check import CALLED, Checked, NamespacePage, check_error, strict

DOCS = [
    {"id": 1, "vector": [1.0, 0.0, 0.0], "cat": "a", "price": 10, "tags": ["x", "y"]},
    {"id": 2, "vector": [0.0, 1.0, 0.0], "cat": "b", "price": 20, "tags": ["y"]},
    {"id": 3, "vector": [0.0, 0.0, 1.0], "cat": "a", "price": 30, "tags": []},
]


def seed(client: turbopuffer.Turbopuffer, name: str) -> Checked:
    ns = Checked(client, name)
    ns.write(
        upsert_rows=DOCS,
        distance_metric="euclidean_squared",
        schema={"cat": {"type": "string", "filterable": True}},
    )
    return ns


def eventually(read: Callable[[], Any], done: Callable[[Any], bool], timeout_s: float = 10) -> Any:
    """Polls `read` until `done` holds (the emulator indexes in the background)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = read()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


def fails(error: Type[turbopuffer.APIStatusError], call: Callable[[], Any]) -> str:
    """Runs a call that must fail with `error`; checks the error envelope and returns its message."""
    with pytest.raises(error) as caught:
        call()
    return check_error(caught.value.body).error


def test_writes_every_form_and_reports_affected_ids(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = Checked(tpuf, "py-writes")
    rows = ns.write(
        upsert_rows=DOCS,
        distance_metric="euclidean_squared",
        schema={"cat": {"type": "string", "filterable": True}},
        return_affected_ids=True,
    )
    assert (rows.status, rows.rows_affected, rows.rows_upserted, rows.upserted_ids) == ("OK", 3, 3, [1, 2, 3])
    assert rows.patched_ids is None and rows.deleted_ids is None
    assert rows.billing.billable_logical_bytes_written > 0
    assert isinstance(rows.performance.server_total_ms, int)

    columns = ns.write(
        upsert_columns={
            "id": [4, 5],
            "vector": [b64encode_vector([1.0, 1.0, 0.0]), b64encode_vector([0.0, 1.0, 1.0])],
            "cat": ["c", "c"],
            "price": [40, 50],
        }
    )
    assert columns.rows_upserted == 2
    patched = ns.write(
        patch_rows=[{"id": 1, "price": 11}],
        patch_columns={"id": [2], "cat": ["bb"]},
        deletes=[5],
        return_affected_ids=True,
    )
    assert (patched.rows_patched, patched.patched_ids, patched.rows_deleted, patched.deleted_ids) == (2, [1, 2], 1, [5])
    by_filter = ns.write(delete_by_filter=["cat", "Eq", "c"], patch_by_filter={"filters": ["id", "Eq", 3], "patch": {"price": 33}})
    assert (by_filter.rows_deleted, by_filter.rows_patched, by_filter.rows_remaining) == (1, 1, False)
    conditional = ns.write(
        upsert_rows=[{"id": 1, "vector": [1.0, 0.0, 0.0], "cat": "a", "price": 5}],
        upsert_condition=["price", "Lt", {"$ref_new": "price"}],
    )
    assert conditional.rows_upserted == 0  # 11 is not below 5: the stored document stays

    lookup = ns.query(rank_by=("id", "asc"), top_k=10, include_attributes=["cat", "price"])
    assert [(r.id, r["cat"], r["price"]) for r in lookup.rows] == [(1, "a", 11), (2, "bb", 20), (3, "a", 33)]


def test_queries_rank_filter_page_and_aggregate(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = seed(tpuf, "py-queries")
    ann = ns.query(rank_by=("vector", "ANN", [1.0, 0.0, 0.0]), top_k=2, include_attributes=["cat"])
    assert [(r.id, r["$dist"], r["cat"]) for r in ann.rows] == [(1, 0.0, "a"), (2, 2.0, "b")]
    perf = ann.performance
    assert isinstance(perf.server_total_ms, int) and isinstance(perf.query_execution_ms, int)
    assert perf.model_extra["emulator_server_total_ms"] >= perf.server_total_ms
    assert (perf.approx_namespace_size, perf.cache_temperature, perf.cache_hit_ratio) == (3, "hot", 1.0)
    assert ann.billing.billable_logical_bytes_queried == 256_000_000

    knn = ns.query(rank_by=("vector", "kNN", [0.0, 0.0, 1.0]), top_k=1, filters=["id", "Gte", 0])
    assert [r.id for r in knn.rows] == [3]
    second_page = ns.query(rank_by=("vector", "ANN", [1.0, 0.0, 0.0]), top_k=2, offset=1)
    assert [r.id for r in second_page.rows] == [2, 3]
    ordered = ns.query(
        rank_by=("price", "desc"),
        filters=("And", (("cat", "In", ["a", "b"]), ("price", "Gte", 15))),
        limit=10,
        exclude_attributes=["vector", "tags"],
    )
    assert [(r.id, r["price"], r["cat"]) for r in ordered.rows] == [(3, 30, "a"), (2, 20, "b")]
    per_cat = ns.query(rank_by=("price", "asc"), limit={"total": 10, "per": {"attributes": ["cat"], "limit": 1}})
    assert [r.id for r in per_cat.rows] == [1, 2]
    contains = ns.query(rank_by=("id", "asc"), filters=("tags", "Contains", "y"))
    assert [r.id for r in contains.rows] == [1, 2]

    encoded = ns.query(rank_by=("id", "asc"), top_k=1, include_attributes=True, vector_encoding="base64")
    assert b64decode_vector(encoded.rows[0].vector) == [1.0, 0.0, 0.0]
    eventual = ns.query(
        rank_by=("vector", "ANN", [0.0, 1.0, 0.0]),
        top_k=1,
        consistency={"level": "eventual", "max_staleness_seconds": 60},
    )
    assert [r.id for r in eventual.rows] == [2]

    counted = ns.query(aggregate_by={"n": ("Count",), "total": ("Sum", "price")})
    assert counted.aggregations == {"n": 3, "total": 60}
    grouped = ns.query(aggregate_by={"n": ("Count",)}, group_by=["cat"])
    assert grouped.aggregation_groups == [{"cat": "a", "n": 2}, {"cat": "b", "n": 1}]


def test_multi_query_and_explain(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = seed(tpuf, "py-multi")
    multi = ns.multi_query(
        queries=[
            {"rank_by": ("vector", "ANN", [0.0, 1.0, 0.0]), "top_k": 1},
            {"rank_by": ("price", "asc"), "top_k": 2, "offset": 1},
            {"aggregate_by": {"n": ("Count",)}},
        ],
        consistency={"level": "strong"},
    )
    assert [r.id for r in multi.results[0].rows] == [2]
    assert [r.id for r in multi.results[1].rows] == [2, 3]
    assert multi.results[2].aggregations == {"n": 3}
    assert isinstance(multi.performance.server_total_ms, int)
    plan = ns.explain_query(rank_by=("vector", "ANN", [0.0, 1.0, 0.0]), top_k=1)
    assert "ANN index" in plan.plan_text


def test_metadata_schema_and_exists(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = seed(tpuf, "py-meta")
    md = eventually(ns.metadata, lambda m: m.index.status == "up-to-date")
    assert (md.index.status, md.approx_row_count) == ("up-to-date", 3)
    assert md.approx_logical_bytes > 0 and md.encryption.mode == "default"
    assert md.schema_["cat"].filterable is True and md.schema_["price"].filterable is True
    assert md.schema_["vector"].ann.distance_metric == "euclidean_squared"
    assert md.created_at <= md.updated_at

    schema = ns.schema()
    assert schema["cat"].type == "string" and schema["vector"].ann is True
    updated = ns.update_schema(schema={"price": {"type": "int", "filterable": False}})
    assert updated["price"].filterable is False
    assert ns.metadata().schema_["price"].filterable is False
    assert ns.exists() is True
    assert Checked(tpuf, "py-never-written").exists() is False


def test_create_namespace(tpuf: turbopuffer.Turbopuffer) -> None:
    empty = Checked(tpuf, "py-created")
    created = empty.write(create_namespace=True, schema={"id": "uint", "name": "string"})
    assert (created.status, created.rows_affected) == ("OK", 0)
    assert empty.exists() is True
    md = empty.metadata()
    assert (md.approx_row_count, md.index.status, md.schema_["name"].type) == (0, "up-to-date", "string")
    assert empty.query(rank_by=("id", "asc")).rows == []
    missing = Checked(tpuf, "py-not-created")
    assert "was not found" in fails(
        turbopuffer.NotFoundError, lambda: missing.write(create_namespace=False, upsert_rows=[{"id": 1}])
    )
    assert missing.exists() is False
    message = fails(turbopuffer.BadRequestError, lambda: missing.write(create_namespace=True))
    assert message.startswith("create_namespace: ")


def test_copy_synchronous_and_asynchronous(tpuf: turbopuffer.Turbopuffer) -> None:
    seed(tpuf, "py-copy-source")
    copy = Checked(tpuf, "py-copy-sync").copy_from(source_namespace="py-copy-source")
    assert (copy.status, copy.rows_upserted) == ("OK", 3)

    dest = Checked(tpuf, "py-copy-async")
    token = dest.start_copy_from(source_namespace="py-copy-source").token
    op = eventually(lambda: dest.poll_copy_from(token), lambda o: o.status == "finished")
    assert isinstance(op, copy_from_namespace_operation.Finished)
    assert isinstance(op.result, copy_from_namespace_operation_result.Success)
    assert (op.result.success.status, op.result.success.rows_upserted) == ("OK", 3)
    assert op.start_time <= op.finish_time
    assert [r.id for r in dest.query(rank_by=("id", "asc")).rows] == [1, 2, 3]

    assert "must be empty" in fails(
        turbopuffer.BadRequestError, lambda: dest.start_copy_from(source_namespace="py-copy-source")
    )
    fails(turbopuffer.NotFoundError, lambda: dest.start_copy_from(source_namespace="py-no-such-source"))
    fails(turbopuffer.NotFoundError, lambda: dest.poll_copy_from("no-such-token"))
    fails(turbopuffer.NotFoundError, lambda: Checked(tpuf, "py-copy-sync").poll_copy_from(token))
    fails(
        turbopuffer.BadRequestError,
        lambda: Checked(tpuf, "py-copy-x").start_copy_from(source_namespace="py-copy-source", source_region="gcp-us-central1"),
    )


def test_list_pages_and_delete(tpuf: turbopuffer.Turbopuffer) -> None:
    for name in ("py-list-a", "py-list-b", "py-list-c"):
        Checked(tpuf, name).write(upsert_rows=[{"id": 1, "n": 1}])
    CALLED.add("namespaces")
    first = tpuf.with_raw_response.namespaces(prefix="py-list-", page_size=2)
    page = strict(NamespacePage, first.http_response.text)
    assert ([n.id for n in page.namespaces], page.next_cursor) == (["py-list-a", "py-list-b"], "py-list-b")
    assert [n.id for n in tpuf.namespaces(prefix="py-list-", page_size=2)] == ["py-list-a", "py-list-b", "py-list-c"]

    doomed = Checked(tpuf, "py-list-b")
    assert doomed.delete_all().status == "OK"
    assert doomed.exists() is False
    fails(turbopuffer.NotFoundError, lambda: doomed.query(rank_by=("id", "asc")))
    fails(turbopuffer.NotFoundError, doomed.metadata)
    fails(turbopuffer.NotFoundError, doomed.delete_all)
    assert [n.id for n in tpuf.namespaces(prefix="py-list-")] == ["py-list-a", "py-list-c"]


def test_cache_warm_recall_and_metadata_updates(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = seed(tpuf, "py-cache")
    assert ns.hint_cache_warm().status == "ACCEPTED"
    recall = ns.recall(num=2, top_k=2, include_ground_truth=True)
    assert (recall.avg_recall, recall.avg_ann_count, recall.avg_exhaustive_count) == (1.0, 2.0, 2.0)
    assert len(recall.ground_truth) == 2 and len(recall.ground_truth[0].nearest_neighbors) == 2
    # rank_by gives the one query to measure (the emulator ignored it before and sampled 25 stored vectors).
    given = ns.recall(rank_by=("vector", "ANN", [0.0, 0.0, 1.0]), top_k=1, include_ground_truth=True)
    assert (given.avg_recall, len(given.ground_truth)) == (1.0, 1)
    assert given.ground_truth[0].query_vector == [0.0, 0.0, 1.0]
    assert [r.id for r in given.ground_truth[0].nearest_neighbors] == [3]
    pinned = ns.update_metadata(pinning={"replicas": 2})
    assert pinned.pinning is not None and pinned.pinning.replicas == 2
    assert pinned.pinning.status is not None and pinned.pinning.status.ready_replicas == 2
    assert ns.metadata().pinning.replicas == 2
    unpinned = ns.update_metadata(pinning=None, read_only=False)
    assert (unpinned.pinning, unpinned.read_only) == (None, None)
    assert ns.update_metadata(pinning=True).pinning.replicas == 1

    frozen = ns.update_metadata(read_only=True)
    assert frozen.read_only is True and ns.metadata().read_only is True
    assert "read-only" in fails(turbopuffer.PermissionDeniedError, lambda: ns.write(upsert_rows=[{"id": 9, "vector": [0.0, 0.0, 1.0]}]))
    fails(turbopuffer.PermissionDeniedError, lambda: ns.update_schema(schema={"price": {"type": "int", "filterable": False}}))
    assert [r.id for r in ns.query(rank_by=("id", "asc")).rows] == [1, 2, 3]
    assert ns.update_metadata(read_only=False).read_only is None
    assert ns.write(upsert_rows=[{"id": 9, "vector": [0.0, 0.0, 1.0]}]).rows_upserted == 1
    fails(turbopuffer.NotFoundError, lambda: Checked(tpuf, "py-nowhere").update_metadata(pinning=True))


def test_backlog_429_and_the_updating_index(held: turbopuffer.Turbopuffer, held_emulator: Emulator) -> None:
    ns = Checked(held, "py-held")
    ns.write(upsert_rows=[{"id": 1, "vector": [1.0, 0.0], "pad": "x" * 300}], distance_metric="cosine_distance")
    md = ns.metadata()
    # The updating variant, with both of its required counts (the SDK raised here before unindexed_rows existed).
    assert (md.index.status, md.index.unindexed_rows) == ("updating", 1)
    assert md.index.unindexed_bytes > 200
    assert md.approx_row_count == 0  # approx_* come from indexing, which has not reached the write

    with pytest.raises(turbopuffer.RateLimitError) as caught:
        ns.write(upsert_rows=[{"id": 2, "vector": [0.0, 1.0]}])
    assert int(caught.value.response.headers["retry-after-ms"]) >= 1
    check_error(caught.value.body)
    fails(turbopuffer.RateLimitError, lambda: ns.query(rank_by=("vector", "ANN", [1.0, 0.0])))
    eventual = ns.query(rank_by=("vector", "ANN", [1.0, 0.0]), consistency={"level": "eventual"})
    assert [r.id for r in eventual.rows] == [1]
    assert (eventual.performance.approx_namespace_size, eventual.performance.exhaustive_search_count) == (1, 1)
    unthrottled = ns.write(upsert_rows=[{"id": 2, "vector": [0.0, 1.0]}], disable_backpressure=True)
    assert unthrottled.rows_upserted == 1


def test_400_paths_name_the_field(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = seed(tpuf, "py-errors")
    assert "appears more than once" in fails(
        turbopuffer.BadRequestError, lambda: ns.write(upsert_rows=[{"id": 9, "n": 1}, {"id": 9, "n": 2}])
    )
    assert fails(
        turbopuffer.BadRequestError, lambda: ns.query(rank_by=("id", "asc"), top_k=1, limit=1)
    ) == "top_k: use top_k or limit, not both"
    assert fails(turbopuffer.BadRequestError, lambda: ns.query(filters=["id", "Eq", 1], offset=1)).startswith("offset: ")
    assert "dimensions" in fails(turbopuffer.BadRequestError, lambda: ns.query(rank_by=("vector", "ANN", [1.0])))
    assert "branching" in fails(turbopuffer.BadRequestError, lambda: ns.branch_from(source_namespace="py-errors"))
    assert fails(
        turbopuffer.BadRequestError, lambda: ns.query(rank_by=("id", "asc"), rerank_by={"model": "any"})
    ).startswith("rerank_by: ")
    fails(turbopuffer.NotFoundError, lambda: Checked(tpuf, "py-missing").query(rank_by=("id", "asc")))


WALRUS = [
    "Walruses are large marine mammals with long tusks and whiskers",
    "They primarily inhabit the cold Arctic regions",
    "Walruses use their tusks to help haul themselves onto ice",
    "Their diet mainly consists of mollusks and other sea creatures",
    "Walrus populations are affected by climate change and melting ice",
]


def test_full_text_search(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = Checked(tpuf, "py-fts")
    ns.write(
        upsert_rows=[{"id": i + 1, "text": t, "vector": [float(i), 1.0]} for i, t in enumerate(WALRUS)],
        distance_metric="euclidean_squared",
        schema={
            "text": {
                "type": "string",
                "full_text_search": {"language": "english", "stemming": True, "remove_stopwords": True, "case_sensitive": False},
            }
        },
    )
    fts = ns.metadata().schema_["text"].full_text_search
    assert (fts.stemming, fts.k1, fts.b, fts.tokenizer, ns.schema()["text"].filterable) == (True, 1.2, 0.75, "word_v4", False)
    summed = ns.query(rank_by=("Sum", [("text", "BM25", "large tusk"), ("text", "BM25", "mollusk diet")]), top_k=10)
    assert [r.id for r in summed.rows] == [4, 1, 3]
    assert summed.rows[0]["$dist"] > summed.rows[1]["$dist"] > summed.rows[2]["$dist"] > 0
    weighted = ns.query(rank_by=("Product", 2.0, ("text", "BM25", "diet")), top_k=1)
    plain = ns.query(rank_by=("text", "BM25", "diet"), top_k=1)
    assert weighted.rows[0]["$dist"] == pytest.approx(2 * plain.rows[0]["$dist"])
    typed = ns.query(
        rank_by=("text", "BM25", "walrus me", {"last_as_prefix": True}),
        filters=("text", "ContainsAnyToken", "walrus me", {"last_as_prefix": True}),
        top_k=10,
    )
    assert [r.id for r in typed.rows][0] == 5
    assert [r.id for r in ns.query(rank_by=("id", "asc"), filters=("text", "ContainsAllTokens", "marine mammals")).rows] == [1]
    assert [r.id for r in ns.query(rank_by=("id", "asc"), filters=("text", "ContainsTokenSequence", "melting ice")).rows] == [5]

    fused = ns.multi_query(
        queries=[
            {"rank_by": ("text", "BM25", "walrus ice"), "top_k": 10},
            {"rank_by": ("vector", "ANN", [4.0, 1.0]), "top_k": 2},
        ],
        rerank_by=("RRF", {"rank_constant": 60, "weights": [1.0, 1.0]}),
        limit=3,
        consistency={"level": "eventual"},
    )
    assert len(fused.results) == 1 and len(fused.results[0].rows) == 3
    # 5 is first by ANN and second by BM25 (3, shorter, holds both terms too): 1/(60+1) + 1/(60+2).
    assert fused.results[0].rows[0].id == 5
    assert fused.results[0].rows[0]["$dist"] == pytest.approx(1 / 61 + 1 / 62, rel=1e-12)
    assert fails(turbopuffer.BadRequestError, lambda: ns.multi_query(queries=[{"rank_by": ("id", "asc")}], offset=1)).startswith("offset: ")


def test_schema_drop_and_sharding(tpuf: turbopuffer.Turbopuffer) -> None:
    ns = Checked(tpuf, "py-drop")
    ns.write(upsert_rows=[{"id": 1, "keep": "k", "gone": "g"}], sharding={"num_shards": 2})
    assert ns.metadata().sharding.num_shards == 2
    assert ns.write(schema={"gone": {"drop": True}}).status == "OK"
    assert "gone" not in ns.schema()
    assert ns.query(rank_by=("id", "asc"), include_attributes=True).rows[0].model_extra == {"keep": "k"}
    assert "no attribute gone" in fails(turbopuffer.BadRequestError, lambda: ns.update_schema(schema={"gone": {"drop": True}}))
    message = fails(turbopuffer.BadRequestError, lambda: ns.write(upsert_rows=[{"id": 2}], sharding={"num_shards": 4}))
    assert message.startswith("sharding: ")


def test_async_client(fast_emulator: Emulator) -> None:
    async def run() -> None:
        client = turbopuffer.AsyncTurbopuffer(
            api_key="tpuf_emulator", base_url=fast_emulator.url, max_retries=0, telemetry=False, _strict_response_validation=True
        )
        ns = client.namespace("py-async")
        written = await ns.write(upsert_rows=DOCS, distance_metric="cosine_distance")
        assert written.rows_upserted == 3
        result = await ns.query(rank_by=("vector", "ANN", [0.0, 0.0, 1.0]), top_k=1)
        assert [r.id for r in result.rows] == [3]
        await client.close()

    asyncio.run(run())


def test_every_sdk_call_was_made() -> None:
    """Runs last: a call a newer SDK adds fails here until the suite makes it."""
    offered = {
        name
        for name in dir(NamespacesResource)
        if not name.startswith("_") and name not in ("with_raw_response", "with_streaming_response")
    } | {"namespaces"}
    assert offered - CALLED == set()
    print(f"\nSDK calls made: {len(CALLED)} of {len(offered)} offered: {', '.join(sorted(CALLED))}")
