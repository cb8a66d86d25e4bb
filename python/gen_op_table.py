#!/usr/bin/env python3
"""Writes google_mlir/_op_table.py from the dialect's op definitions.

    gen_op_table.py LLVM_TBLGEN GoogleOps.td INCLUDE_DIR... -o OUT

llvm-tblgen --dump-json gives every record of GoogleOps.td; each google op
becomes one entry: its operands (and which are variadic), attributes (with their kinds), assembly
format, whether it is elementwise and float-only, and the Python names and
numpy expression of its record (GoogleBase.td, Google_Op). The Python front
end takes its op lists and IR syntax from this table only.
"""

import argparse
import json
import pprint
import subprocess


def classify(records, name):
    """'operand' for a type constraint, the attribute def name otherwise."""
    supers = records[name]["!superclasses"]
    if "Attr" in supers or "AttrConstraint" in supers:
        return name
    return "operand"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tblgen")
    parser.add_argument("td")
    parser.add_argument("includes", nargs="*")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    command = [args.tblgen, "--dump-json", args.td]
    for include in args.includes:
        command += ["-I", include]
    records = json.loads(subprocess.run(command, check=True,
                                        capture_output=True,
                                        text=True).stdout)
    ops = {}
    for name in sorted(records["!instanceof"]["Google_Op"]):
        record = records[name]
        operands, attributes, variadic, float_only = [], [], [], True
        for constraint, arg in record["arguments"]["args"]:
            kind = classify(records, constraint["def"])
            if kind == "operand":
                operands.append(arg)
                if "Variadic" in records[constraint["def"]]["!superclasses"]:
                    variadic.append(arg)
                float_only &= constraint["def"] == "Google_FloatTensor"
            else:
                attributes.append((arg, kind))
        traits = [t["def"] for t in record["traits"]]
        ops[record["opName"]] = {
            "operands": tuple(operands),
            "variadic": tuple(variadic),
            "attributes": tuple(attributes),
            "results": tuple(r for _, r in record["results"]["args"]),
            "format": " ".join(record["assemblyFormat"].split()),
            "elementwise": "Google_Elementwise" in traits,
            "float_only": bool(operands) and float_only,
            "python_name": record["pythonName"],
            "ufunc": record["ufunc"],
            "numpy_eager": record["numpyEager"],
        }
    with open(args.output, "w") as out:
        out.write('"""The google ops, generated from GoogleOps.td by '
                  'python/gen_op_table.py:\ndo not edit."""\n\nOPS = ')
        out.write(pprint.pformat(ops, width=79, sort_dicts=True))
        out.write("\n")


if __name__ == "__main__":
    main()
