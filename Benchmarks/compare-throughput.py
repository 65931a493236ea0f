#!/usr/bin/env python3
"""End-to-end speed of `trajectories detect` next to FFmpeg's own decoding (and optionally the
OpenCV baseline) on the same clip, measured in one run.

The machines we run on are shared and noisy, so the commands are run in interleaved rounds and
each one's median wall time is reported, with frames per second and the ratio to FFmpeg's
decoding, which is the floor: no tool can analyse a frame faster than it can be decoded.

    Benchmarks/compare-throughput.py SampleClips/hd60-1.mp4 [--rounds 9] [--baseline]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command):
    """Runs a command, discarding its output; returns its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clip")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--baseline", action="store_true", help="also time Benchmarks/baseline (OpenCV)")
    args = parser.parse_args()

    if shutil.which("ffmpeg") is None:
        subprocess.run([os.path.join(ROOT, "Scripts/install-system-packages"), "ffmpeg"], check=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "trajectories"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    binary = os.path.join(ROOT, ".build/release/trajectories")
    report = json.loads(subprocess.run([binary, "detect", args.clip], capture_output=True, check=True).stdout)
    frames = report["source"]["frameCount"]

    commands = {
        "ffmpeg -threads 0 -i clip -f null -": ["ffmpeg", "-v", "error", "-threads", "0", "-i", args.clip, "-f", "null", "-"],
        "trajectories detect clip": [binary, "detect", args.clip, "--output", "/dev/null"],
    }
    if args.baseline:
        runner = os.path.join(ROOT, "Benchmarks/baseline/run-baseline.sh")
        subprocess.run([runner, "--self-check"], check=True, stdout=subprocess.DEVNULL)  # sets up its venv
        commands["OpenCV baseline (Benchmarks/baseline)"] = [runner, args.clip, "--output", "/dev/null"]

    times = {name: [] for name in commands}
    for _ in range(args.rounds):
        for name, command in commands.items():
            times[name].append(run(command))

    floor = statistics.median(times["ffmpeg -threads 0 -i clip -f null -"])
    print(f"{args.clip}: {frames} frames, {report['source']['width']}x{report['source']['height']}, "
          f"median of {args.rounds} interleaved rounds, load average {os.getloadavg()[0]:.1f}")
    print(f"{'command':42} {'median s':>9} {'frames/s':>9} {'÷ ffmpeg':>9}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:42} {median:9.3f} {frames / median:9.1f} {floor / median:9.2f}")


if __name__ == "__main__":
    sys.exit(main())
