#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Renders `ordercheck report` in headless Chromium and checks the page shows its tables and
figures (not a blank page). Skipped, with a message, where Chromium is not installed."""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

exe = sys.argv[1]
from harness import expect, finish  # noqa: E402
browser = shutil.which("chromium") or shutil.which("chromium-browser")
if not browser:
    print("SKIPPED: chromium is not installed (apt-get install chromium); the HTML report was not rendered")
    sys.exit(77)  # meson: skipped


def png_rows(path):
    """Decodes an 8-bit RGB/RGBA PNG into rows of bytes (enough to tell a blank page)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return rows, channels


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "report")
    p = subprocess.run([exe, "report", "--out", out, "SB", "R+shrinker_bit"], capture_output=True, text=True,
                       timeout=600)
    expect("report exits 0", p.returncode == 0, p.stdout + p.stderr)
    page = "file://" + os.path.join(out, "index.html")
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + os.path.join(tmp, "profile")]
    dom = subprocess.run(flags + ["--dump-dom", page], capture_output=True, text=True, timeout=120).stdout
    tables = len(re.findall(r"<table\b", dom))
    svgs = len(re.findall(r"<svg\b", dom))
    expect("the browser parsed the page", "<h1>ordercheck report</h1>" in dom, dom[:300])
    expect("variant tables for both models", len(re.findall(r'<table class="variants"', dom)) == 2, tables)
    expect("necessity tables", 'class="necessity"' in dom)
    expect("figures inline", svgs >= 4, f"{svgs} svg elements")
    expect("every variant row shows a status", dom.count('class="pass"') >= 12, dom.count('class="pass"'))
    shot = os.path.join(tmp, "shot.png")
    subprocess.run(flags + ["--window-size=1200,1600", "--screenshot=" + shot, page], capture_output=True,
                   timeout=120)
    expect("screenshot taken", os.path.exists(shot))
    if os.path.exists(shot):
        rows, channels = png_rows(shot)
        distinct_rows = len(set(rows))
        dark = sum(1 for r in rows for i in range(0, len(r), channels) if r[i] < 128)
        expect("the page is not blank", distinct_rows > 100 and dark > 1000, f"{distinct_rows} rows, {dark} dark px")

finish()
