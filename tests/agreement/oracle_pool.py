"""A pool of ``verl_oracle.py`` processes (verl 0.9.1's own checks), fed config dirs in parallel.

Each process pays verl's imports once (tens of seconds) and then about a second per config dir, so
the agreement test keeps several alive for the whole session: `judge_many` spreads a batch over all
of them, `judge` asks one synchronously (hypothesis's shrinking calls it one config at a time).
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from pathlib import Path

ORACLE = Path(__file__).resolve().parent / "verl_oracle.py"
START_TIMEOUT = 600  # seconds for verl's imports and the tiny models, on a loaded CI machine
ANSWER_TIMEOUT = 300  # seconds for one config dir


class OracleError(RuntimeError):
    """An oracle process died, hung, or answered out of protocol."""


class Oracle:
    """One running verl_oracle.py process."""

    def __init__(self, python: str, models_dir: Path, log: Path):
        self.log = log
        with open(log, "w") as err:
            self.proc = subprocess.Popen(
                [python, str(ORACLE), str(models_dir)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                bufsize=1,
            )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def read(self, timeout: float) -> dict:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise OracleError(f"verl oracle gave no answer within {timeout:.0f} s") from None
        if line is None:
            tail = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise OracleError(f"verl oracle exited (rc {self.proc.poll()}); its stderr ends:\n{tail}")
        answer = json.loads(line)
        if "fatal" in answer:
            raise OracleError(f"verl oracle failed on a request:\n{answer['fatal']}")
        return answer

    def wait_ready(self) -> None:
        if not self.read(START_TIMEOUT).get("ready"):
            raise OracleError("verl oracle did not start")

    def send(self, requests: list[dict]) -> None:
        for request in requests:
            self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


class OraclePool:
    """Several oracles; answers come back keyed by config dir."""

    def __init__(self, python: str, models_dir: Path, size: int):
        self.oracles = [Oracle(python, models_dir, models_dir / f"oracle-{i}.log") for i in range(max(1, size))]
        for oracle in self.oracles:
            oracle.wait_ready()
        self.lock = threading.Lock()

    def judge_many(self, requests: list[dict]) -> dict[str, dict]:
        """verl's answers for every request, {dir: answer}; the work is split evenly over the pool."""
        shares = [requests[i :: len(self.oracles)] for i in range(len(self.oracles))]
        answers: dict[str, dict] = {}
        errors: list[BaseException] = []

        def run(oracle: Oracle, share: list[dict]) -> None:
            try:
                writer = threading.Thread(target=oracle.send, args=(share,), daemon=True)
                writer.start()  # a separate writer: a full stdin pipe must not block the reading
                for _ in share:
                    answer = oracle.read(ANSWER_TIMEOUT)
                    answers[answer["dir"]] = answer
                writer.join()
            except BaseException as exc:
                errors.append(exc)

        with self.lock:
            threads = [
                threading.Thread(target=run, args=pair) for pair in zip(self.oracles, shares, strict=False) if pair[1]
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        if errors:
            raise errors[0]
        return answers

    def judge(self, request: dict) -> dict:
        """verl's answer for one request, from the first oracle."""
        with self.lock:
            self.oracles[0].send([request])
            return self.oracles[0].read(ANSWER_TIMEOUT)

    def close(self) -> None:
        for oracle in self.oracles:
            oracle.close()
