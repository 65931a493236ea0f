#!/usr/bin/env python3
"""Peak memory (resident set size) of `trajectories detect -` reading a 1080p stream from a
pipe, for a 10-second and a 10-minute stream: memory must stay flat however long the stream
is, so the two peaks should lie within 10 % of each other.

The stream is `trajectories synth --scene hd60 --seed 1` (1920x1080@60), played over and over
by ffmpeg (-stream_loop, stream copy, MPEG-TS on the pipe) until it lasts the wanted time.
detect writes JSON Lines, as on a live stream: a JSON document would hold every trajectory of
the stream until the end, which grows with its length by design.
The peak is the kernel's for the detect process alone (getrusage of the child, ru_maxrss). At
exec Linux also counts into it the high-water mark of the process it was started from; this
script's own, about 13 MB, is far below any detect run's (see the tests' CommandLineRunner).

The short stream is run --short-runs times and its highest peak is compared. A short run's peak
depends on whether the analysis hit a slow stretch while decoded frames were waiting, and it
varies by about 6 MiB from run to run: 89.4 to 95.7 MiB in four runs, against 100.1 to 100.4
for the long stream. The long stream meets such stretches many times, so its one peak is already
a highest. Every short peak is printed.

With --file, the looped stream is written to a local MP4 file first (stream copy) and detect
reads the file: a local H.264 file larger than the analysis size is decoded by two decoders
side by side, whose queues of waiting frames have a fixed budget (README, "Speed"), and the
peaks check that this memory too stays flat.

    Benchmarks/peak-rss.py [--short 10] [--long 600] [--short-runs 5] [--file]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build/release/trajectories")


def measure_file(clip, seconds, folder):
    """Writes `seconds` of the looped clip to a file and runs detect on it; returns (peak RSS in
    MiB, lines written, wall seconds)."""
    looped = os.path.join(folder, f"looped-{seconds:g}.mp4")
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-stream_loop", "-1", "-i", clip, "-t", str(seconds),
                    "-c", "copy", looped], check=True)
    start = time.perf_counter()
    detect = subprocess.Popen([BINARY, "detect", looped, "--format", "jsonl"], stdout=subprocess.PIPE)
    output = detect.stdout.read()
    _, status, usage = os.wait4(detect.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit(f"peak-rss: the {seconds}-s file failed (detect status {status})")
    lines = sum(1 for line in output.splitlines() if json.loads(line))
    return usage.ru_maxrss / 1024, lines, elapsed


def measure(clip, seconds):
    """Pipes `seconds` of the looped clip into detect; returns (peak RSS in MiB, lines written,
    wall seconds)."""
    source = subprocess.Popen(
        ["ffmpeg", "-nostdin", "-v", "error", "-stream_loop", "-1", "-i", clip, "-t", str(seconds), "-c", "copy",
         "-f", "mpegts", "pipe:1"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    start = time.perf_counter()
    detect = subprocess.Popen([BINARY, "detect", "-", "--format", "jsonl"], stdin=source.stdout, stdout=subprocess.PIPE)
    source.stdout.close()  # detect alone holds the pipe now
    output = detect.stdout.read()
    _, status, usage = os.wait4(detect.pid, 0)
    elapsed = time.perf_counter() - start
    source.wait()
    if status != 0 or source.returncode != 0:
        sys.exit(f"peak-rss: the {seconds}-s run failed (detect status {status}, ffmpeg {source.returncode})")
    lines = sum(1 for line in output.splitlines() if json.loads(line))
    return usage.ru_maxrss / 1024, lines, elapsed  # ru_maxrss is in KiB on Linux


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=float, default=10, help="seconds of the short stream")
    parser.add_argument("--long", type=float, default=600, help="seconds of the long stream")
    parser.add_argument("--short-runs", type=int, default=5, help="runs of the short stream; the highest peak counts")
    parser.add_argument("--file", action="store_true", help="write the streams to local files and detect on those")
    args = parser.parse_args()

    subprocess.run(["swift", "build", "-c", "release", "--product", "trajectories"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory(prefix="peak-rss-") as folder:
        subprocess.run([BINARY, "synth", "--scene", "hd60", "--seed", "1", "--out", folder],
                       check=True, stdout=subprocess.DEVNULL)
        clip = os.path.join(folder, "hd60-1.mp4")
        def run(seconds):
            return measure_file(clip, seconds, folder) if args.file else measure(clip, seconds)
        shorts = [(args.short, *run(args.short)) for _ in range(max(1, args.short_runs))]
        results = shorts + [(args.long, *run(args.long))]

    print(f"{'stream':>10} {'frames':>7} {'jsonl lines':>11} {'wall s':>7} {'peak RSS MiB':>12}")
    for seconds, peak, lines, elapsed in results:
        print(f"{seconds:9.0f}s {round(seconds * 60):7d} {lines:11d} {elapsed:7.1f} {peak:12.1f}")
    short_peak, long_peak = max(peak for _, peak, _, _ in shorts), results[-1][1]
    print(f"highest of the {len(shorts)} short runs: {short_peak:.1f} MiB")
    growth = long_peak / short_peak - 1
    print(f"long ÷ short peak: {long_peak / short_peak:.3f} ({growth:+.1%}; the goal is within ±10 %)")
    return 0 if abs(growth) <= 0.10 else 1


if __name__ == "__main__":
    sys.exit(main())
