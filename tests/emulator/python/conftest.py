"""Fixtures for the Python SDK suite: real `bench emulator` processes (dist/bench.js, built by vitest's global setup
or `npm run build`) and SDK clients pointed at them.

Two emulators: `fast` indexes as fast as it can; `held` indexes 1 byte per second under a 200-byte backlog limit, so a
namespace written there stays `updating` and a second write or a strong query gets 429 for the whole run.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest
import turbopuffer

ROOT = Path(__file__).resolve().parents[3]
BENCH_JS = Path(os.environ.get("BENCH_JS", ROOT / "dist" / "bench.js"))
NODE = os.environ.get("BENCH_NODE", "node")
START_TIMEOUT_S = 20


def _die_with_parent() -> None:
    # Linux: the emulator gets SIGTERM when this pytest process dies, even when it is killed before its teardown.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        pass


class Emulator:
    def __init__(self, *flags: str) -> None:
        if not BENCH_JS.exists():
            raise RuntimeError(f"{BENCH_JS} is missing: run `npm run build` (make test builds it) first")
        # stderr to a file: a pipe nobody reads could fill up and stall the emulator.
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [NODE, str(BENCH_JS), "emulator", "--port", "0", *flags],
            stdout=subprocess.PIPE,
            stderr=self.log,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        assert self.proc.stdout is not None
        # The emulator prints exactly one line, its base URL, once it listens.
        out = b""
        deadline = time.monotonic() + START_TIMEOUT_S
        while not out.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            chunk = os.read(self.proc.stdout.fileno(), 4096) if ready else b""
            if not chunk:
                self.stop()
                raise RuntimeError(f"emulator did not print its URL within {START_TIMEOUT_S} s: {self.stderr()}")
            out += chunk
        self.url = out.decode().strip()

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def client_for(emulator: Emulator, **options: object) -> turbopuffer.Turbopuffer:
    # max_retries=0: the 429 and 5xx paths must reach the test, not be retried away. The SDK's own response
    # validation is on as well, so every parsed response has passed its models.
    return turbopuffer.Turbopuffer(
        api_key="tpuf_emulator",
        base_url=emulator.url,
        max_retries=0,
        telemetry=False,
        _strict_response_validation=True,
        **options,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="session")
def fast_emulator() -> Iterator[Emulator]:
    emulator = Emulator()
    yield emulator
    emulator.stop()


@pytest.fixture(scope="session")
def held_emulator() -> Iterator[Emulator]:
    emulator = Emulator("--index-throughput", "1", "--backlog-limit", "200")
    yield emulator
    emulator.stop()


@pytest.fixture(scope="session")
def tpuf(fast_emulator: Emulator) -> turbopuffer.Turbopuffer:
    return client_for(fast_emulator, compression=True)


@pytest.fixture(scope="session")
def held(held_emulator: Emulator) -> turbopuffer.Turbopuffer:
    return client_for(held_emulator)
