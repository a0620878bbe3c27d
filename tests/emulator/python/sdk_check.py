"""Strict checks of the emulator's raw responses against the Python SDK's own response models.

Every call goes through the SDK's raw-response wrapper: the body is validated with pydantic in strict mode against
the type the SDK declares for that call (an integer field refuses 2.0, a required field must be there, a union must
match one variant exactly), fields the SDK does not declare are refused unless they are the emulator's own
`emulator_*` figures, and only then does the SDK parse it as a user's program would see it.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterator, List, Optional, Set

from pydantic import BaseModel, TypeAdapter
from turbopuffer.types import (
    CopyFromNamespaceOperation,
    NamespaceBranchFromResponse,
    NamespaceCopyFromResponse,
    NamespaceDeleteAllResponse,
    NamespaceExplainQueryResponse,
    NamespaceHintCacheWarmResponse,
    NamespaceMetadata,
    NamespaceMultiQueryResponse,
    NamespaceQueryResponse,
    NamespaceRecallResponse,
    NamespaceSchemaResponse,
    NamespaceStartCopyFromResponse,
    NamespaceSummary,
    NamespaceUpdateSchemaResponse,
    NamespaceWriteResponse,
    Row,
)
from turbopuffer.types.operation_error import Detail

# The type each namespace call declares for its response body.
MODELS: Dict[str, Any] = {
    "write": NamespaceWriteResponse,
    "branch_from": NamespaceBranchFromResponse,
    "query": NamespaceQueryResponse,
    "multi_query": NamespaceMultiQueryResponse,
    "explain_query": NamespaceExplainQueryResponse,
    "metadata": NamespaceMetadata,
    "update_metadata": NamespaceMetadata,
    "schema": NamespaceSchemaResponse,
    "update_schema": NamespaceUpdateSchemaResponse,
    "hint_cache_warm": NamespaceHintCacheWarmResponse,
    "recall": NamespaceRecallResponse,
    "delete_all": NamespaceDeleteAllResponse,
    "copy_from": NamespaceCopyFromResponse,
    "start_copy_from": NamespaceStartCopyFromResponse,
    "poll_copy_from": CopyFromNamespaceOperation,
}

# Documented by turbopuffer's metadata reference and served by the service, but not declared in the SDK's model.
DOCUMENTED_EXTRAS = {"last_write_at"}

# QueryPerformance extends the SDK's ClientPerformance, whose fields the SDK measures and fills in after parsing;
# they are never on the wire, so the strict check supplies them.
CLIENT_FIELDS = {
    "client_total_ms": 0.0,
    "client_compress_ms": 0.0,
    "client_response_ms": None,
    "client_body_read_ms": None,
    "client_deserialize_ms": 0.0,
}
QUERY_MODELS = (NamespaceQueryResponse, NamespaceMultiQueryResponse)


class NamespacePage(BaseModel):
    """GET /v1/namespaces, as the SDK's SyncNamespacePage declares it."""

    namespaces: List[NamespaceSummary]
    next_cursor: Optional[str] = None


# Every SDK call the suite has made (for the coverage test at the end of the run).
CALLED: Set[str] = set()


def undeclared(value: Any, path: str = "") -> Iterator[str]:
    """Paths of fields in a validated value that its model does not declare (rows carry attributes: skipped)."""
    if isinstance(value, Row):
        return
    if isinstance(value, BaseModel):
        for key in value.model_extra or {}:
            if not key.startswith("emulator_") and key not in DOCUMENTED_EXTRAS:
                yield f"{path}.{key}"
        for name in type(value).model_fields:
            yield from undeclared(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from undeclared(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from undeclared(item, f"{path}.{key}")


def strict(model: Any, raw_text: str) -> Any:
    """Validates a raw JSON body strictly against `model`; fails on any field the SDK does not declare."""
    data = json.loads(raw_text)
    if model in QUERY_MODELS and isinstance(data.get("performance"), dict):
        data["performance"] = {**CLIENT_FIELDS, **data["performance"]}
    value = TypeAdapter(model).validate_json(json.dumps(data), strict=True)
    extra = list(undeclared(value))
    assert not extra, f"fields the SDK does not declare in {model}: {extra}"
    return value


def check_error(body: object) -> Detail:
    """An error body is turbopuffer's envelope {"status": "error", "error": "..."}, exactly."""
    return strict(Detail, json.dumps(body))


class Checked:
    """A namespace of the SDK whose every call is checked by `strict` before the SDK parses the response."""

    def __init__(self, client: Any, name: str) -> None:
        self.name = name
        self._raw = client.with_raw_response.namespace(name)
        self._plain = client.namespace(name)

    def exists(self) -> bool:
        CALLED.add("exists")
        return self._plain.exists()

    def __getattr__(self, method: str) -> Callable[..., Any]:
        model = MODELS[method]

        def call(*args: Any, **kwargs: Any) -> Any:
            CALLED.add(method)
            raw = getattr(self._raw, method)(*args, **kwargs)
            strict(model, raw.http_response.text)
            return raw.parse()

        return call
