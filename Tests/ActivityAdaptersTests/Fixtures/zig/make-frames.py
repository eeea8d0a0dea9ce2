#!/usr/bin/env python3
"""Writes zig-build.bin: frames of Zig's ZIG_PROGRESS protocol, made from the source.

The layout is lib/std/Progress.zig's (ziglang/zig 00f26cb0a4d6: `serialize`, `writeIpc`,
`Node.Storage`): one byte N, N storages (u32 completed_count, u32 estimated_total_count, both
little-endian, then a name of max_name_len = 40 bytes, NUL-padded), then N parent bytes (255 for
the root, else the parent's index in the frame). Usage: make-frames.py > zig-build.bin
"""
import struct
import sys

ROOT = 255

# (name, completed, total, parent): a `zig build` of one executable, as its parent sees it.
FRAMES = [
    [("", 0, 0, ROOT), ("steps", 0, 2, 0)],
    [("", 0, 0, ROOT), ("steps", 0, 2, 0), ("compile exe hello Debug native", 0, 0, 1)],
    [
        ("", 0, 0, ROOT), ("steps", 0, 2, 0), ("compile exe hello Debug native", 0, 0, 1),
        ("Semantic Analysis", 1523, 0, 2), ("Code Generation", 40, 200, 2),
    ],
    [("", 0, 0, ROOT), ("steps", 1, 2, 0), ("install hello", 0, 0, 1)],
]


def frame(nodes):
    out = bytes([len(nodes)])
    for name, completed, total, _ in nodes:
        out += struct.pack("<II", completed, total) + name.encode()[:40].ljust(40, b"\0")
    return out + bytes(parent for *_, parent in nodes)


sys.stdout.buffer.write(b"".join(frame(nodes) for nodes in FRAMES))
