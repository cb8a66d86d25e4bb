"""Rewrites the manifest of a compiled module in place, keeping its size:
`no-newline` replaces the final newline by a space, `no-nul` replaces the
terminating NUL by a newline."""
import sys

path, mode = sys.argv[1], sys.argv[2]
data = bytearray(open(path, "rb").read())
start = data.index(b"google-mlir-manifest 1\n")
nul = data.index(b"\0", start)
assert data[nul - 1:nul] == b"\n", "the manifest ends with a newline"
if mode == "no-newline":
    data[nul - 1] = ord(" ")
elif mode == "no-nul":
    data[nul] = ord("\n")
else:
    sys.exit(f"unknown mode {mode}")
open(path, "wb").write(data)
