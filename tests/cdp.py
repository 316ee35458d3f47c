"""A small Chrome DevTools Protocol driver for headless Chromium, stdlib only.

It speaks CDP over `--remote-debugging-pipe` (fd 3: commands in, fd 4: replies out, one JSON
message per NUL-terminated frame), the transport Puppeteer uses: no port to pick or leak, no
websocket to implement, and the browser dies with its pipes.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]


def find_chromium() -> str | None:
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


def install_chromium() -> tuple[str | None, str]:
    """Debian's `chromium`, installed with apt-get when we are root; (path, why not)."""
    found = find_chromium()
    if found:
        return found, ""
    if not shutil.which("apt-get") or os.geteuid() != 0:
        return None, "chromium is not installed and apt-get is unavailable or we are not root"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (
        ["apt-get", "install", "-y", "-q", "chromium"],
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "chromium"],
    ):
        subprocess.run(cmd, env=env, capture_output=True, timeout=900, check=False)
        if find_chromium():
            return find_chromium(), ""
    return None, "apt-get install chromium failed"


class CDPError(RuntimeError):
    pass


class Browser:
    def __init__(self, exe: str, profile: Path, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.events: list[dict] = []
        self._next = 0
        self._buf = b""
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        # chromium expects the pipe on fds 3 and 4: park both above 10 first so neither dup2
        # overwrites the other, then place them (dup2 also makes them inheritable)
        hi_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD_CLOEXEC, 10)
        hi_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD_CLOEXEC, 10)

        def place() -> None:
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=place,
            close_fds=False,  # noqa: PLW1509 - only dup2, which is async-signal-safe stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for fd in (to_chrome_r, from_chrome_w, hi_r, hi_w):
            os.close(fd)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next += 1
        msg: dict = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise CDPError("no reply from chromium in time")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise CDPError(f"chromium closed the pipe (exit {self.proc.poll()})")
            self._buf += chunk
        frame, self._buf = self._buf.split(b"\0", 1)
        return json.loads(frame)

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._w, self._r):
            os.close(fd)


class Page:
    """One tab, attached with a flat session."""

    def __init__(self, browser: Browser, url: str, width: int = 1280, height: int = 900) -> None:
        self.b = browser
        self.target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        self.send("Page.navigate", {"url": url})

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.b.send(method, params, self.session)

    def js(self, expression: str):
        """Evaluate in the page and return the value (JSON-able), raising on a thrown exception."""
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise CDPError(f"{expression!r} threw: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.js(expression)
            except CDPError:
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise CDPError(f"timed out waiting for {expression!r}")

    def click(self, selector: str) -> None:
        """A real mouse click (pressed + released) at the centre of the element."""
        box = self.js(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        if box is None:
            raise CDPError(f"nothing matches {selector!r}")
        x, y = box
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def key(self, key: str, code: str, keycode: int, text: str | None = None) -> None:
        """One key press, as the keyboard sends it (Tab, Enter, ...)."""
        down = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": keycode}
        if text:
            down["text"] = text
        self.send("Input.dispatchKeyEvent", down)
        self.send(
            "Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keycode}
        )

    def type(self, text: str) -> None:
        self.send("Input.insertText", {"text": text})

    def color_scheme(self, scheme: str) -> None:
        self.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def screenshot(self, path: Path, clip: dict | None = None) -> None:
        params: dict = {"format": "png"}
        if clip:
            params["clip"] = dict(clip, scale=clip.get("scale", 1))
        data = self.send("Page.captureScreenshot", params)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        self.b.send("Target.closeTarget", {"targetId": self.target})

    def events(self, method: str) -> list[dict]:
        return [e for e in self.b.events if e.get("method") == method and e.get("sessionId") == self.session]
