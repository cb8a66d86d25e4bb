"""Helpers for the compile cache tests.

  cache_tool.py corrupt DIR truncate|flip   damage the one entry in DIR
  cache_tool.py list DIR                    print entries, leftovers and
                                            index records
  cache_tool.py swap DIR                    copy one of DIR's two entries
                                            over the other
  cache_tool.py concurrent N CMD...         run CMD N times at once; print
                                            each exit status and stdout
"""
import os
import subprocess
import sys


def entries(directory):
    return sorted(name for name in os.listdir(directory))


def main():
    action = sys.argv[1]
    if action == "corrupt":
        directory, how = sys.argv[2], sys.argv[3]
        [name] = [n for n in entries(directory) if n.endswith(".so")]
        path = os.path.join(directory, name)
        data = bytearray(open(path, "rb").read())
        if how == "truncate":
            data = data[: len(data) // 2]
        else:
            data[len(data) // 3] ^= 0xFF
        open(path, "wb").write(bytes(data))
    elif action == "swap":
        directory = sys.argv[2]
        first, second = [n for n in entries(directory) if n.endswith(".so")]
        data = open(os.path.join(directory, first), "rb").read()
        open(os.path.join(directory, second), "wb").write(data)
    elif action == "list":
        for name in entries(sys.argv[2]):
            if name == "index":
                for record in entries(os.path.join(sys.argv[2], name)):
                    print("index", record)
                continue
            print("tmp" if name.endswith(".tmp") else "entry", name)
    elif action == "concurrent":
        count, command = int(sys.argv[2]), sys.argv[3:]
        processes = [subprocess.Popen(command, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True)
                     for _ in range(count)]
        for process in processes:
            out, err = process.communicate()
            print("exit", process.returncode, out.strip(), err.strip())


main()
