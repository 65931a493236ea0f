#!/usr/bin/env python3
"""End-to-end speed of `trajectories detect` next to FFmpeg's own decoding and the OpenCV
baseline, on a 1920x1080@60 and a 1280x720@30 clip made by the scene generator, in one run.

Decoding is the floor: no tool can analyse a frame faster than FFmpeg decodes it. For each clip
the script times, best of --repeats runs each (the machine is shared; the best run is the one
least disturbed by other work), in rounds that run each command once:

    ffmpeg -v error -threads 0 -i CLIP -f null -
    ffmpeg -v error -threads 1 -i CLIP -f null -      (decoding on one thread)
    trajectories detect CLIP
    Benchmarks/baseline/run-baseline.sh CLIP          (the OpenCV pipeline)

and prints frames per second, `trajectories detect` ÷ ffmpeg (the goal is at least 0.8) and
`trajectories detect` ÷ OpenCV (at least 3), then the CPU time per frame of the same runs,
which other work on the machine sways far less than wall time, and last detect ÷ ffmpeg in each
round, where the two ran moments apart.

On two cores `trajectories detect` with one decoder decodes on one thread and analyses on the
other, so it cannot outrun FFmpeg decoding on one thread: the table's "1-thread÷ffmpeg" column is
that ceiling for detect÷ffmpeg, measured in the same run. At 1080p detect decodes a local file
with two decoders side by side (README, "Speed"), which lift that ceiling. The clips are
`trajectories synth --scene hd60 --seed 1` and `--scene walkers --seed 1` (or the --scenes
named), each played --loops times in a row (stream copy, no re-encoding; each loop starts at a
keyframe) so a run lasts long enough that starting a process does not count. The analysis's time per frame depends on how much moves in the picture: --scenes
foliage,crowd,no-ball-clutter times the busiest scenes.

With --skip-loop-filter it also times `trajectories detect CLIP --skip-loop-filter`, which
decodes without the codec's deblocking filter (faster decoding, slightly lower accuracy: README,
"Speed"), and prints its rate and ratio to ffmpeg after the table.

    Benchmarks/compare-throughput.py [--repeats 3] [--loops 10] [--no-baseline] [--skip-loop-filter]
                                     [--scenes hd60,walkers]
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build/release/trajectories")
BASELINE = os.path.join(ROOT, "Benchmarks/baseline/run-baseline.sh")
SCENES = "hd60,walkers"


# Seconds one timed run may take: each takes a few. Once, an `ffmpeg -f null` run spun on one
# core for nine minutes (the same command then took 2 s); a hung run must end the comparison
# with a message, not stall it for ever.
TIME_LIMIT = 600


def run(command):
    """Runs a command, discarding its output; returns its wall time and the CPU time (user +
    system) it and its children used, in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        sys.exit(f"compare-throughput: `{' '.join(command)}` ran over {TIME_LIMIT} s and was stopped; run the comparison again")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def make_clip(scene, folder, loops):
    """Renders the scene with seed 1 and plays it `loops` times in a row into one file."""
    subprocess.run([BINARY, "synth", "--scene", scene, "--seed", "1", "--out", folder],
                   check=True, stdout=subprocess.DEVNULL)
    rendered = os.path.join(folder, f"{scene}-1.mp4")
    looped = os.path.join(folder, f"{scene}-1-x{loops}.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-stream_loop", str(loops - 1), "-i", rendered,
                    "-c", "copy", looped], check=True)
    return looped


def frame_count(clip):
    """The clip's frames and size, from its container (`trajectories info`), without decoding it."""
    info = json.loads(subprocess.run([BINARY, "info", clip], capture_output=True, check=True).stdout)
    return info["frameCount"], f"{info['width']}x{info['height']}@{info['frameRate']:g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each command; the best counts")
    parser.add_argument("--loops", type=int, default=10, help="times each generated clip is played in a row")
    parser.add_argument("--no-baseline", action="store_true", help="leave out the OpenCV baseline")
    parser.add_argument("--skip-loop-filter", action="store_true",
                        help="also time detect --skip-loop-filter")
    parser.add_argument("--scenes", default=SCENES,
                        help=f"comma-separated `trajectories synth` scenes to time (default {SCENES})")
    args = parser.parse_args()

    if shutil.which("ffmpeg") is None:
        subprocess.run([os.path.join(ROOT, "Scripts/install-system-packages"), "ffmpeg"], check=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "trajectories"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    known = [line.split()[0] for line in subprocess.run(
        [BINARY, "synth", "--list"], capture_output=True, text=True, check=True).stdout.splitlines() if line.strip()]
    scenes = args.scenes.split(",")
    unknown = [scene for scene in scenes if scene not in known]
    if unknown:
        sys.exit(f"compare-throughput: no scene {', '.join(unknown)}; the scenes are {', '.join(known)}")
    if not args.no_baseline:
        subprocess.run([BASELINE, "--self-check"], check=True, stdout=subprocess.DEVNULL)  # sets up its venv

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="compare-throughput-") as folder:
        rows = []
        for scene in scenes:
            clip = make_clip(scene, folder, args.loops)
            frames, shape = frame_count(clip)
            commands = {
                "ffmpeg": ["ffmpeg", "-v", "error", "-threads", "0", "-i", clip, "-f", "null", "-"],
                "ffmpeg-1": ["ffmpeg", "-v", "error", "-threads", "1", "-i", clip, "-f", "null", "-"],
                "detect": [BINARY, "detect", clip, "--output", "/dev/null"],
            }
            if args.skip_loop_filter:
                commands["detect-skip"] = commands["detect"] + ["--skip-loop-filter"]
            if not args.no_baseline:
                commands["opencv"] = [BASELINE, clip, "--output", "/dev/null"]
            # Rounds of one run of each command, so that the commands' runs are spread alike over
            # the minutes the machine's speed drifts in (all of ffmpeg's runs, then all of
            # detect's, once gave a one-thread ceiling of 1.14). The run with the best wall time
            # counts, with the CPU time it took.
            timings = {name: [] for name in commands}
            for _ in range(args.repeats):
                for name, command in commands.items():
                    timings[name].append(run(command))
            best = {name: min(runs) for name, runs in timings.items()}
            paired = [ffmpeg_wall / detect_wall
                      for (ffmpeg_wall, _), (detect_wall, _) in zip(timings["ffmpeg"], timings["detect"])]
            rows.append((f"{scene}-1 x{args.loops}", shape, frames,
                         {name: frames / wall for name, (wall, _) in best.items()},
                         {name: cpu * 1000 / frames for name, (_, cpu) in best.items()}, paired))

    print(f"best of {args.repeats} runs each, taken in rounds of one run of each command; load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after (2 cores: above 2 means other work shared them)")
    print(f"{'clip':22} {'size':14} {'frames':>6} {'ffmpeg f/s':>10} {'detect f/s':>10} {'OpenCV f/s':>10} "
          f"{'detect÷ffmpeg':>13} {'detect÷OpenCV':>13} {'1-thread÷ffmpeg':>15}")
    for name, shape, frames, fps, _, _ in rows:
        opencv = fps.get("opencv")
        print(f"{name:22} {shape:14} {frames:6d} {fps['ffmpeg']:10.0f} {fps['detect']:10.0f} "
              f"{opencv if opencv else float('nan'):10.1f} {fps['detect'] / fps['ffmpeg']:13.2f} "
              f"{fps['detect'] / opencv if opencv else float('nan'):13.1f} {fps['ffmpeg-1'] / fps['ffmpeg']:15.2f}")
    for name, _, _, fps, _, _ in rows:
        if "detect-skip" in fps:
            print(f"{name:22} detect --skip-loop-filter: {fps['detect-skip']:.0f} f/s, "
                  f"÷ ffmpeg {fps['detect-skip'] / fps['ffmpeg']:.2f}")
    # CPU time does not depend on how many cores other work left free: with both cores to
    # itself, detect's rate would be ffmpeg's times ffmpeg's CPU per frame ÷ detect's.
    print(f"\nCPU time (user + system) per frame of the same runs, ms:")
    print(f"{'clip':22} {'ffmpeg':>8} {'detect':>8} {'OpenCV':>8} {'ffmpeg÷detect':>13}")
    for name, _, _, _, cpu, _ in rows:
        opencv = cpu.get("opencv")
        print(f"{name:22} {cpu['ffmpeg']:8.2f} {cpu['detect']:8.2f} {opencv if opencv else float('nan'):8.2f} "
              f"{cpu['ffmpeg'] / cpu['detect']:13.2f}")
    # Within a round ffmpeg and detect run moments apart, so their ratio is spared most of the
    # machine's drift; how far the rounds' ratios spread tells how far to trust the table's.
    print(f"\ndetect÷ffmpeg in each round (wall time of the round's two runs):")
    for name, _, _, _, _, paired in rows:
        print(f"{name:22} {' '.join(f'{ratio:.2f}' for ratio in paired)}   median {statistics.median(paired):.2f}")


if __name__ == "__main__":
    sys.exit(main())
