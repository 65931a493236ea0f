#!/usr/bin/env python3
"""Self-check of the OpenCV baseline on small synthetic clips made here and thrown away.

Each scene is drawn with cv2 (a textured background, sensor noise, a motion-blurred ball whose
true centre is known in every frame), written with cv2.VideoWriter to a temporary folder, and
run through opencv_baseline.py as a user would run it. Checks:
  - every document validates against Schemas/trajectories.schema.json;
  - flight-with-box: the ball's flight is found, no trajectory follows the sliding box, and the
    reported equation (normalized, bottom-left origin) passes through the true ball positions;
  - vertical-toss: the flight is found and the ill-conditioned y = f(x) equation stays finite;
  - still: sensor noise and a flickering light alone give no trajectory;
  - equation: the design notes' ten reference points give Apple's coefficients.
A point is on the ball when within max(3 px, 1.5 radius) of its centre, the scorer's tolerance.

Usage: selfcheck.py [--keep DIR]   (--keep writes the clips and reports there instead)
"""

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import jsonschema
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import opencv_baseline  # noqa: E402  (the script under check, beside this file)

SCHEMA = HERE.parent.parent / "Schemas" / "trajectories.schema.json"
WIDTH, HEIGHT, FPS, FRAMES = 1280, 720, 30.0, 60


def background(rng):
    """A static, smoothly textured grey wall."""
    texture = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT // 8, WIDTH // 8)).astype(np.float32), (0, 0), 2)
    texture = cv2.resize(texture, (WIDTH, HEIGHT), interpolation=cv2.INTER_CUBIC)
    return 125 + 25 * texture / texture.std()


def ball_mask(centre_at, frame, radius):
    """Coverage in [0, 1] of a ball blurred over half a frame's exposure, centred on `frame`'s position."""
    mask = np.zeros((HEIGHT, WIDTH), np.float32)
    offsets = (-0.25, -0.083, 0.083, 0.25)
    for offset in offsets:
        layer = np.zeros_like(mask)
        x, y = centre_at(frame + offset)
        cv2.circle(layer, (round(x * 16), round(y * 16)), round(radius * 16), 1.0, -1, cv2.LINE_AA, shift=4)
        mask += layer / len(offsets)
    return mask


def write_scene(path, rng, ball=None, box=False, noise=3.0, flicker=0.0):
    """Writes the clip; returns the ball's true centre per frame where it is fully in the frame."""
    wall = background(rng)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (WIDTH, HEIGHT))
    truth = {}
    for frame in range(FRAMES):
        image = wall + flicker * math.sin(frame * 0.7)
        if box:  # a dark box sliding along the bottom at 8 px per frame
            left = 100 + 8 * frame
            image[560:640, left:left + 120] = 60
        if ball and ball["first"] <= frame <= ball["last"]:
            centre_at, radius = ball["centre_at"], ball["radius"]
            coverage = ball_mask(centre_at, frame, radius)
            image = image * (1 - coverage) + 215 * coverage
            x, y = centre_at(frame)
            if radius <= x <= WIDTH - radius and radius <= y <= HEIGHT - radius:
                truth[frame] = (x, y)
        image = np.clip(image + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
        writer.write(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
    writer.release()
    return truth


def parabola(x0, y0, vx, vy, gravity, first):
    """Centre (pixels, y down) of a ball launched at frame `first`: x linear, y quadratic in time."""
    return lambda t: (x0 + vx * (t - first), y0 + vy * (t - first) + 0.5 * gravity * (t - first) ** 2)


SCENES = {
    "flight-with-box": dict(ball=dict(centre_at=parabola(150, 600, 24, -45, 2.25, 10), radius=10, first=10, last=50),
                            box=True),
    "vertical-toss": dict(ball=dict(centre_at=parabola(640, 650, 0.5, -48, 2.4, 5), radius=12, first=5, last=45)),
    "still": dict(noise=5.0, flicker=3.0),
}


def pixel_points(trajectory):
    return [(p["frame"], p["x"] * WIDTH, (1 - p["y"]) * HEIGHT) for p in trajectory["points"]]


def on_ball(point, truth, tolerance):
    frame, x, y = point
    return frame in truth and math.dist((x, y), truth[frame]) <= tolerance


def check(name, report, truth, radius):
    """The problems found in one scene's report; empty when it is right."""
    problems = []
    trajectories = report["trajectories"]
    if not truth:
        return [f"{len(trajectories)} trajectories where there is no ball"] if trajectories else []
    tolerance = max(3.0, 1.5 * radius)
    covered = set()
    for trajectory in trajectories:
        points = pixel_points(trajectory)
        hits = [p for p in points if on_ball(p, truth, tolerance)]
        covered.update(frame for frame, _, _ in hits)
        if len(hits) < 0.8 * len(points):
            problems.append(f"trajectory {trajectory['uuid']} has only {len(hits)} of {len(points)} points on the ball")
        equation = trajectory["equationCoefficients"]
        if not all(math.isfinite(value) for value in equation.values()):
            problems.append(f"trajectory {trajectory['uuid']} has a non-finite equation {equation}")
    if len(covered) < 0.8 * len(truth):
        problems.append(f"the ball's flight is covered in {len(covered)} of {len(truth)} frames")
    if name == "flight-with-box":  # well-conditioned: the equation must go through the true ball
        for trajectory in trajectories:
            a, b, c = (trajectory["equationCoefficients"][k] for k in "abc")
            errors = [abs((a * x + b) * x + c - (1 - y / HEIGHT)) * HEIGHT
                      for x, y in ((x / WIDTH, y) for x, y in truth.values())
                      if min(p["x"] for p in trajectory["detectedPoints"]) <= x <= max(p["x"] for p in trajectory["detectedPoints"])]
            if errors and max(errors) > tolerance:
                problems.append(f"equation of {trajectory['uuid']} misses the true path by {max(errors):.1f} px")
    return problems


def check_reference_equation():
    """Apple's coefficients for the design notes' ten points, through the script's own output path."""
    reference = [(0.027778, 0.801562), (0.073618, 0.749221), (0.101400, 0.752338), (0.113900, 0.766406),
                 (0.119444, 0.767187), (0.122233, 0.774219), (0.130556, 0.789063), (0.136111, 0.789063),
                 (0.144444, 0.801562), (0.159733, 0.837897)]
    points = [opencv_baseline.Point(i, i / FPS, x * WIDTH, (1 - y) * HEIGHT, 5.0) for i, (x, y) in enumerate(reference)]
    options = opencv_baseline.parse_arguments(["unused.mp4"])
    found = opencv_baseline.trajectory_document(points, "unused", WIDTH, HEIGHT, options)["equationCoefficients"]
    expected = {"a": 15.57386, "b": -2.638611, "c": 0.8618334}
    return [f"{key} = {found[key]:.7g}, Apple's is {value}" for key, value in expected.items()
            if not math.isclose(found[key], value, rel_tol=1e-4)]


def run_scene(name, scene, seed, folder, schema):
    """Makes the scene's clip, runs the baseline on it as a user would; returns a summary and the problems."""
    clip = folder / f"{name}.mp4"
    truth = write_scene(clip, np.random.default_rng(seed), **scene)
    run = subprocess.run([sys.executable, str(HERE / "opencv_baseline.py"), str(clip)],
                         capture_output=True, text=True, check=True)
    (folder / f"{name}.json").write_text(run.stdout)
    report = json.loads(run.stdout)
    problems = [f"schema: {error.message}" for error in jsonschema.Draft202012Validator(schema).iter_errors(report)]
    problems += check(name, report, truth, scene["ball"]["radius"] if "ball" in scene else 0)
    return f"{name}: {len(report['trajectories'])} trajectories", problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="write clips and reports to this folder and keep them")
    options = parser.parse_args()
    schema = json.loads(SCHEMA.read_text())
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(options.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for seed, (name, scene) in enumerate(SCENES.items()):
            results.append(run_scene(name, scene, seed, folder, schema))
    results.append(("equation", check_reference_equation()))
    for summary, problems in results:
        print(f"{'FAIL' if problems else 'PASS'} {summary}" + "".join(f"\n    {problem}" for problem in problems))
    failed = sum(1 for _, problems in results if problems)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
