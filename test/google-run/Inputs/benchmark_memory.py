"""Runs google-run --benchmark with few and with many calls and prints
'flat' when the peak memory of the two runs differs by less than 8 MiB."""
import os
import subprocess
import sys


def peak_kib(command):
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        sys.exit(f"{command} failed with status {status}")
    return usage.ru_maxrss


command = sys.argv[1:]
peak_kib(command + ["--benchmark=1"])  # fills the compile cache
few = peak_kib(command + ["--benchmark=1000"])
many = peak_kib(command + ["--benchmark=3000000"])
print("flat" if many - few < 8 * 1024 else f"grows: {few} KiB -> {many} KiB")
