#!/usr/bin/env python3
"""Edit -> browser reloaded, as issue 12 budgets it: starts `devserver`, listens on the
live-reload stream (/__livereload, the EventSource every served page opens) as a browser
does, appends a unique paragraph to one Markdown file and times the moment the reload event
arrives; repeats. The shared `edit_to_served.py` times the first HTTP answer with the new text,
which for a post comes before the rebuild ends (the post is written first); a browser reloads
only when the whole rebuild is done, so this is the figure the budget is about.

  python3 bench/edit_to_reload.py --server target/release/devserver --root DIR \
      --file content/blog/x.md [--edits 15] [--port 19330]

Also prints the start-up (until the server answered) and the server's idle CPU.
The edited file is restored at the end.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def listen(port, events, ready):
    """Reads the SSE stream; appends the arrival time of every `data:` line."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /__livereload HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    buf = b""
    while True:
        chunk = s.recv(4096)
        if not chunk:
            return
        buf += chunk
        if b"\r\n\r\n" in buf and not ready.is_set():
            ready.set()
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            if line.startswith(b"data:"):
                events.append(time.monotonic())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--edits", type=int, default=15)
    ap.add_argument("--port", type=int, default=19330)
    ap.add_argument("--log", default="/tmp/edit_to_reload.log")
    a = ap.parse_args()

    path = os.path.join(a.root, a.file)
    original = open(path, encoding="utf-8").read()
    log = open(a.log, "w")
    t_start = time.monotonic()
    proc = subprocess.Popen([a.server, "--root", a.root, "--port", str(a.port)],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        while True:
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/" % a.port, timeout=2).read()
                break
            except Exception:
                if proc.poll() is not None or time.monotonic() - t_start > 300:
                    sys.exit("devserver did not come up; see %s" % a.log)
                time.sleep(0.02)
        started = time.monotonic() - t_start
        time.sleep(1)
        c0, w0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(5)
        idle = (cpu_seconds(proc.pid) - c0) / (time.monotonic() - w0)

        times = []
        for i in range(a.edits):
            # The server sends one reload and ends the stream; the reloaded page reconnects.
            events, ready = [], threading.Event()
            threading.Thread(target=listen, args=(a.port, events, ready), daemon=True).start()
            ready.wait(10)
            seen = 0
            with open(path, "w", encoding="utf-8") as f:
                f.write(original + "\n\nThe new paragraph %d-%d.\n" % (os.getpid(), i))
            t0 = time.monotonic()
            while len(events) == seen:
                if time.monotonic() - t0 > 60:
                    sys.exit("edit %d never reloaded; see %s" % (i, a.log))
                time.sleep(0.001)
            times.append(events[seen] - t0)
            time.sleep(0.5)
        times.sort()
        print("start-up (until the server answered): %.2f s" % started)
        print("idle CPU: %.1f %% of one core" % (100 * idle))
        print("edit -> reload event: median %.0f ms, min %.0f, max %.0f (n=%d)" % (
            1000 * statistics.median(times), 1000 * times[0], 1000 * times[-1], len(times)))
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
