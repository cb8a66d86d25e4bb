#!/usr/bin/python3
"""Writes the device binaries of a module (google-opt's pipeline output) to
files, so that ptxas, llvm-readelf and llvm-objdump can check them.

  device_binaries.py MODULE.mlir OUTDIR

For each object of each gpu.binary @NAME it writes OUTDIR/NAME.ptx (PTX),
NAME.fatbin (a CUDA fatbin; its ELF image also goes to NAME.cubin),
NAME.cubin or NAME.hsaco, and prints one line per object:
`NAME: <target> <format> <bytes> bytes [images: elf sm_90, ptx sm_90]`.
"""

import os
import re
import struct
import sys


def mlir_string(text, start):
    """Decodes the MLIR string literal whose opening quote is at `start`;
    returns (bytes, index after the closing quote)."""
    out = bytearray()
    i = start + 1
    while text[i] != '"':
        if text[i] == "\\":
            if text[i + 1] in '\\"':
                out.append(ord(text[i + 1]))
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out += text[i].encode("utf-8")
            i += 1
    return bytes(out), i + 1


def fatbin_images(data):
    """The (kind, sm, payload) entries of a CUDA fatbin."""
    magic, _, header_size, size = struct.unpack_from("<IHHQ", data, 0)
    if magic != 0xBA55ED50:
        sys.exit("error: not a CUDA fatbin")
    images = []
    offset = header_size
    while offset < header_size + size:
        kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data,
                                                            offset)
        sm, = struct.unpack_from("<I", data, offset + 28)
        body = data[offset + entry_header:offset + entry_header + payload]
        images.append(({1: "ptx", 2: "elf"}.get(kind, str(kind)), sm, body))
        offset += entry_header + payload
    return images


def main():
    module, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    text = open(module, encoding="utf-8").read()
    for binary in re.finditer(r"gpu\.binary @(\w+)\s*\[", text):
        name = binary.group(1)
        for obj in re.finditer(r"#gpu\.object<#(\w+)\.target<([^>]*)>",
                               text[binary.end():]):
            target, params = obj.group(1), obj.group(2)
            chip = re.search(r'chip = "(\w+)"', params).group(1)
            start = binary.end() + obj.end()
            # The object's data is its last string: skip the properties
            # and kernel metadata, which hold none at the top level.
            depth, i, keyword = 1, start, ""
            while True:
                c = text[i]
                if c == '"' and depth == 1:
                    keyword = text[start:i].rstrip().rsplit(",", 1)[-1]
                    data, i = mlir_string(text, i)
                    break
                if c == '"':
                    _, i = mlir_string(text, i)
                    continue
                depth += c in "<{[("
                depth -= c in ">}])"
                i += 1
            keyword = keyword.strip().rstrip("=").strip()
            if target == "rocdl":
                fmt, ext = "hsaco", "hsaco"
            elif keyword == "assembly":
                fmt, ext = "ptx", "ptx"
            elif keyword == "bin":
                fmt, ext = "cubin", "cubin"
            else:
                fmt, ext = "fatbin", "fatbin"
            with open(os.path.join(outdir, f"{name}.{ext}"), "wb") as f:
                f.write(data)
            line = f"{name}: {target} {chip} {fmt} {len(data)} bytes"
            if fmt == "fatbin":
                images = fatbin_images(data)
                described = []
                for kind, sm, payload in images:
                    described.append(f"{kind} sm_{sm}")
                    if kind == "elf":
                        with open(os.path.join(outdir, f"{name}.cubin"),
                                  "wb") as f:
                            f.write(payload)
                line += " images: " + ", ".join(described)
            print(line)
            break  # one object per binary here


if __name__ == "__main__":
    main()
