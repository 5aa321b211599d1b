"""The service as a separate process on loopback, for the tests and `kiln bench api`.

    with ServiceProcess(env={"KILN_API_TOKENS": "t"}) as service:
        httpx.get(service.url + "/readyz")
        service.kill()      # SIGKILL: the API process dies mid-job
        service.start()     # a new process on the same store resumes what was unfinished

The process runs uvicorn with `api.main:create_app` in its own session, so `kill()` takes the
embedded Ray cluster it started with it; its output goes to `log_path`.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServiceProcess:
    def __init__(
        self, env: Mapping[str, str], port: int | None = None, log_path: Path | None = None
    ) -> None:
        self.env = {**os.environ, **env}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or Path(tempfile.mkstemp(prefix="kiln-api-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, ready_timeout: float = 180.0) -> None:
        """Starts the process and waits until /readyz says the farm has workers."""
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "api.main:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-level",
            "warning",
        ]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the service exited ({self.process.returncode}):\n{self.log()}")
            try:
                if httpx.get(self.url + "/readyz", timeout=10).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.kill()
        raise RuntimeError(f"the service was not ready in {ready_timeout:.0f} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        """SIGKILL to the process and everything it started: no shutdown code runs."""
        if self.process is not None:
            try:  # the group too: what the process started (Ray) may outlive it
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
        self.process = None

    def stop(self, timeout: float = 30.0) -> None:
        """A clean shutdown (SIGTERM: uvicorn runs the lifespan's end), then SIGKILL if needed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def __enter__(self) -> ServiceProcess:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
