"""Writes the .npy files the google-run tests read into the directory argv[1]."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def path(name):
    return os.path.join(out, name)


x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
np.save(path("x23.npy"), x)
np.save(path("x23_fortran.npy"), np.asfortranarray(x))
np.save(path("x23_big_endian.npy"), x.astype(">f4"))
np.save(path("x23_f64.npy"), x.astype(np.float64))
np.save(path("x13.npy"), x[:1])
np.save(path("x6.npy"), x.reshape(6))
np.save(path("scalar.npy"), np.array(0.5, np.float32))
np.save(path("bool.npy"), np.array([True, False, True, True]))
np.save(path("half.npy"), np.array([0.5, 1.5, -2.0], np.float16))
np.save(path("i64.npy"), np.array([1, -2], np.int64))
np.save(path("i32_22.npy"), np.array([[1, 2], [3, 4]], np.int32))
np.save(path("expected_stats1.npy"), np.array([4, 5, 6], np.float32))
np.save(path("expected_stats1_wrong.npy"), np.array([4, 5.01, 6], np.float32))
np.save(path("complex.npy"), np.array([1 + 2j], np.complex64))

# Truncated data: the header promises 6 floats, the file has 2.
with open(path("x23.npy"), "rb") as f:
    whole = f.read()
with open(path("truncated.npy"), "wb") as f:
    f.write(whole[:-16])
# Not a .npy file at all.
with open(path("garbage.npy"), "wb") as f:
    f.write(b"this is not a numpy file\n" * 4)
# A header claiming a shape far beyond the data (and 2^60 elements).
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1073741824, 1073741824), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(path("huge_shape.npy"), "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") +
            header.encode() + b"\0" * 16)
# A header length that runs past the end of the file.
with open(path("bad_header_length.npy"), "wb") as f:
    f.write(b"\x93NUMPY\x01\x00\xff\xff{'descr': '<f4'")
# Empty file.
open(path("empty.npy"), "wb").close()
