#!/usr/bin/env python3
"""A classical OpenCV pipeline that finds balls in flight, for comparison with `trajectories`.

What a competent OpenCV user would write for a fixed camera, tuned on the same kind of footage:

  cv2.VideoCapture -> grey, Gaussian blur
    -> motion mask: three-frame differencing with a noise-adaptive threshold (default), or MOG2;
       opening removes speckle, closing joins the pieces of one moving thing (so an arm's
       outline becomes one region, too big to pass for a ball)
    -> blobs: connectedComponentsWithStats, kept when ball-sized, not too elongated, and
       filling their bounding box as a disc (or a motion-blurred disc) does
    -> tracks: greedy nearest-neighbour association inside a gate around a constant-velocity
       prediction; the gate grows with every missed frame; a track ends after a few misses
    -> trajectories: np.polyfit over the last N points; a track is reported once such a window
       moved far enough and fits a parabola with a small residual; a later window that does not
       fit (a bounce, a catch) closes the trajectory and the track starts a new one

It prints the JSON document of `trajectories detect` (schemaVersion 1, see
Schemas/trajectories.schema.json), so that one scorer judges both tools. Spatial tunables are
fractions of the frame width, as Vision's radii are, so the defaults carry across resolutions.

Usage: opencv_baseline.py VIDEO [--length N] [--method diff3|mog2] [--output FILE] [tunables]
       (--help lists the tunables with their defaults; diagnostics go to stderr)
"""

import argparse
import json
import random
import sys
import time
import uuid
import warnings
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np


def parse_arguments(argv=None):
    parser = argparse.ArgumentParser(
        description="Find balls in flight with a classical OpenCV pipeline; print trajectories as JSON.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("video", help="video file or URL that cv2.VideoCapture can open")
    parser.add_argument("--length", type=int, default=10,
                        help="points a trajectory needs before it is reported (Vision's trajectoryLength, 5 or more)")
    parser.add_argument("--method", choices=["diff3", "mog2"], default="diff3",
                        help="motion detection: three-frame differencing or MOG2 background subtraction")
    parser.add_argument("-o", "--output", help="write the JSON document here instead of stdout")
    parser.add_argument("--analysis-width", type=int, default=0,
                        help="analyse frames shrunk to at most this width, for speed (0: full resolution)")

    motion = parser.add_argument_group("motion mask")
    motion.add_argument("--blur", type=int, default=5, help="Gaussian blur kernel before detection, odd pixels (0: none)")
    motion.add_argument("--threshold", type=float, default=12,
                        help="smallest grey-level change counted as motion (diff3)")
    motion.add_argument("--noise-factor", type=float, default=4,
                        help="raise the threshold to this many times the frame's noise level, estimated per frame (diff3)")
    motion.add_argument("--open", type=float, default=0.002,
                        help="opening kernel, fraction of the width (0: none): removes speckle (3 px at 1280 wide)")
    motion.add_argument("--close", type=float, default=0.016,
                        help="closing kernel, fraction of the width (0: none): joins the pieces of one moving thing, "
                             "so that an arm's outline becomes one region too big to be a ball (21 px at 1280 wide)")
    motion.add_argument("--mog2-history", type=int, default=200, help="frames MOG2 learns the background from")
    motion.add_argument("--mog2-var-threshold", type=float, default=25,
                        help="MOG2's squared Mahalanobis distance for foreground")

    blobs = parser.add_argument_group("blob filter (sizes are fractions of the frame width)")
    blobs.add_argument("--min-radius", type=float, default=0.002, help="smallest ball radius (2.6 px at 1280 wide)")
    blobs.add_argument("--max-radius", type=float, default=0.05, help="largest ball radius (64 px at 1280 wide)")
    blobs.add_argument("--max-aspect", type=float, default=4, help="longest over shortest side of a blob's box (motion blur stretches balls)")
    blobs.add_argument("--min-fill", type=float, default=0.3, help="fraction of its box a blob fills (a disc: 0.79)")

    tracking = parser.add_argument_group("tracking (distances are fractions of the frame width)")
    tracking.add_argument("--max-speed", type=float, default=0.1,
                          help="how far a ball may move between a track's first two points, per frame")
    tracking.add_argument("--gate", type=float, default=0.03,
                          help="match radius around the constant-velocity prediction, multiplied by (1 + missed frames)")
    tracking.add_argument("--max-missed", type=int, default=3, help="frames without a match before a track ends")
    tracking.add_argument("--fit", choices=["xy", "time"], default="xy",
                          help="residual of y=f(x) (fitted along the axis the ball moves most on) or of x(t) linear, y(t) quadratic")
    tracking.add_argument("--max-residual", type=float, default=0.004, help="largest RMS residual of the window's fit")
    tracking.add_argument("--min-travel", type=float, default=0.02, help="how far a window's points must spread (the larger side of their box)")

    options = parser.parse_args(argv)
    if options.analysis_width < 0:
        parser.error("--analysis-width must be 0 (full resolution) or a width in pixels")
    if options.length < 5:
        parser.error("--length must be 5 or more (Vision's minimum)")
    if options.blur < 0 or (options.blur and options.blur % 2 == 0):
        parser.error(f"--blur must be 0 or an odd number of pixels, got {options.blur}")
    if not (0 <= options.open < 1 and 0 <= options.close < 1):
        parser.error("--open and --close must be fractions of the width in [0, 1)")
    if not 0 <= options.min_radius <= options.max_radius <= 1:
        parser.error("--min-radius and --max-radius must satisfy 0 <= min <= max <= 1")
    if options.max_missed < 0 or options.max_aspect < 1 or not 0 <= options.min_fill <= 1:
        parser.error("--max-missed must be >= 0, --max-aspect >= 1 and --min-fill in [0, 1]")
    return options


# ---------------------------------------------------------------------------------------------
# Detection


@dataclass(frozen=True)
class Blob:
    """A moving, ball-like region: centroid and radius in pixels, top-left origin."""
    x: float
    y: float
    radius: float


class MotionDetector:
    """Grey frames in, ball-like moving blobs out.

    Three-frame differencing answers for the middle of the last three frames (`lag` = 1): the
    ball is where frame t differs from both t-1 and t+1, so neither ghost position survives.
    """

    def __init__(self, options, width):
        self.options = options
        self.width = width
        self.lag = 1 if options.method == "diff3" else 0
        self.recent = deque(maxlen=3)
        self.open_kernel = self._disc(options.open * width)
        self.close_kernel = self._disc(options.close * width)
        self.subtractor = None
        if options.method == "mog2":
            self.subtractor = cv2.createBackgroundSubtractorMOG2(
                history=options.mog2_history, varThreshold=options.mog2_var_threshold, detectShadows=False)

    @staticmethod
    def _disc(pixels):
        """An elliptic kernel of the odd size nearest `pixels`, or None for no morphology."""
        if pixels <= 0:
            return None
        size = 2 * round((pixels - 1) / 2) + 1
        return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))

    def detect(self, grey):
        """Blobs of the frame `lag` frames back, or None while the detector is still filling up."""
        if self.options.blur:
            grey = cv2.GaussianBlur(grey, (self.options.blur, self.options.blur), 0)
        mask = self.subtractor.apply(grey) if self.subtractor else self._difference_mask(grey)
        if mask is None:
            return None
        if self.open_kernel is not None:
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self.open_kernel)
        if self.close_kernel is not None:
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, self.close_kernel)
        return self._ball_like_blobs(mask)

    def _difference_mask(self, grey):
        self.recent.append(grey)
        if len(self.recent) < 3:
            return None
        before, middle, after = self.recent
        earlier_change = cv2.absdiff(middle, before)
        motion = cv2.min(earlier_change, cv2.absdiff(after, middle))
        # Noise level: for pure noise the median |difference| is 0.6745 sigma; moving things
        # cover a small part of the frame and barely move the median. A sparse grid is enough.
        sigma = float(np.median(earlier_change[::4, ::4])) / 0.6745
        threshold = max(self.options.threshold, self.options.noise_factor * sigma)
        _, mask = cv2.threshold(motion, threshold, 255, cv2.THRESH_BINARY)
        return mask

    def _ball_like_blobs(self, mask):
        _, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        stats, centroids = stats[1:], centroids[1:]  # label 0 is the background
        w = stats[:, cv2.CC_STAT_WIDTH].astype(np.float64)
        h = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float64)
        area = stats[:, cv2.CC_STAT_AREA]
        # Motion blur stretches a ball along its path; across the path it is still as wide as
        # the ball, so the shorter side of the box measures the diameter.
        radius = 0.5 * np.minimum(w, h)
        o = self.options
        keep = ((radius >= o.min_radius * self.width) & (radius <= o.max_radius * self.width)
                & (np.maximum(w, h) <= o.max_aspect * np.minimum(w, h))
                & (area >= o.min_fill * w * h))
        return [Blob(float(x), float(y), float(r)) for (x, y), r in zip(centroids[keep], radius[keep])]


# ---------------------------------------------------------------------------------------------
# Tracking


@dataclass(frozen=True)
class Point:
    frame: int
    time: float
    x: float  # pixels, top-left origin
    y: float
    radius: float


@dataclass
class Track:
    uuid: str
    points: list
    missed: int = 0
    first_reported: int | None = None  # index of the first point of the first window that fitted
    last_fitted: int = 0  # number of points when a window last fitted

    def predicted(self, frame):
        """Where the ball should be in `frame`, moving on at its last velocity."""
        last = self.points[-1]
        if len(self.points) < 2:
            return last.x, last.y
        previous = self.points[-2]
        steps = (frame - last.frame) / (last.frame - previous.frame)
        return last.x + steps * (last.x - previous.x), last.y + steps * (last.y - previous.y)

    def trajectory(self):
        """The points that belong to fitted windows, or None if no window ever fitted."""
        return None if self.first_reported is None else self.points[self.first_reported:self.last_fitted]


def fit_residual(points, fit):
    """RMS residual, in pixels, of the parabola fitted to `points`."""
    t = np.array([p.time for p in points]) - points[0].time
    x = np.array([p.x for p in points])
    y = np.array([p.y for p in points])
    if fit == "time":  # free flight: x linear in time, y quadratic
        rx = x - np.polyval(np.polyfit(t, x, 1), t)
        ry = y - np.polyval(np.polyfit(t, y, 2), t)
        return float(np.sqrt(np.mean(rx * rx + ry * ry)))
    # y = f(x) is ill-conditioned when the ball moves mostly up and down (a toss): fit along
    # the axis on which it moves most instead.
    u, v = (x, y) if np.ptp(x) >= np.ptp(y) else (y, x)
    r = v - np.polyval(np.polyfit(u, v, 2), u)
    return float(np.sqrt(np.mean(r * r)))


class Tracker:
    """Nearest-neighbour tracker; `update` reads top to bottom: predict, associate, update, create, reap."""

    def __init__(self, options, width, seed=0):
        self.options = options
        self.width = width
        self.ids = random.Random(seed)  # reproducible uuids, one factory per tracker
        self.tracks = []
        self.finished = []  # (uuid, points) of trajectories that ended

    def update(self, frame, time_s, blobs):
        matches, missed_tracks, new_blobs = self._associate(frame, blobs)
        for track, blob in matches:
            track.points.append(Point(frame, time_s, blob.x, blob.y, blob.radius))
            track.missed = 0
            self._check_window(track)
        for track in missed_tracks:
            track.missed += 1
        for blob in new_blobs:
            self.tracks.append(Track(self._new_id(), [Point(frame, time_s, blob.x, blob.y, blob.radius)]))
        for track in [t for t in self.tracks if t.missed > self.options.max_missed]:
            self._close(track)
            self.tracks.remove(track)

    def finish(self):
        """Closes every track; returns (uuid, points) of every trajectory, in order of start."""
        for track in self.tracks:
            self._close(track)
        self.tracks = []
        return sorted(self.finished, key=lambda trajectory: trajectory[1][0].frame)

    def _associate(self, frame, blobs):
        """Greedy nearest-neighbour matching inside each track's gate; tracks with a velocity go first."""
        if not blobs:
            return [], list(self.tracks), []
        positions = np.array([(b.x, b.y) for b in blobs])
        candidates = []
        for track in self.tracks:
            distances = np.hypot(*(positions - track.predicted(frame)).T)
            if len(track.points) < 2:  # no velocity yet: anywhere a ball could get to
                gate = self.options.max_speed * self.width * (frame - track.points[-1].frame)
            else:
                gate = self.options.gate * self.width * (1 + track.missed)
            candidates += [(len(track.points) < 2, d, id(track), track, i)
                           for i, d in enumerate(distances) if d <= gate]
        candidates.sort(key=lambda c: c[:3])
        matches, used_tracks, used_blobs = [], set(), set()
        for _, _, key, track, i in candidates:
            if key not in used_tracks and i not in used_blobs:
                matches.append((track, blobs[i]))
                used_tracks.add(key)
                used_blobs.add(i)
        missed = [t for t in self.tracks if id(t) not in used_tracks]
        return matches, missed, [b for i, b in enumerate(blobs) if i not in used_blobs]

    def _check_window(self, track):
        """Reports the track once its last N points fit; a misfit after that ends the trajectory."""
        n = self.options.length
        if len(track.points) < n:
            return
        window = track.points[-n:]
        # How far the window spans (not first-to-last: a toss comes back down where it started).
        travel = max(max(p.x for p in window) - min(p.x for p in window),
                     max(p.y for p in window) - min(p.y for p in window))
        fits = (travel >= self.options.min_travel * self.width
                and fit_residual(window, self.options.fit) <= self.options.max_residual * self.width)
        if fits:
            if track.first_reported is None:
                track.first_reported = len(track.points) - n
            track.last_fitted = len(track.points)
        elif track.first_reported is not None:
            # A bounce or a catch: the flight is over. The newest point may start the next one.
            self._close(track)
            track.uuid, track.points = self._new_id(), track.points[-1:]
            track.first_reported, track.last_fitted = None, 0

    def _close(self, track):
        points = track.trajectory()
        if points:
            self.finished.append((track.uuid, list(points)))

    def _new_id(self):
        return str(uuid.UUID(int=self.ids.getrandbits(128), version=4)).upper()


# ---------------------------------------------------------------------------------------------
# Output: the `trajectories detect` JSON document


def trajectory_document(points, uuid_string, width, height, options):
    """One trajectory in normalized coordinates (bottom-left origin, radius / width), as Vision reports it."""
    def normalized(p):
        return p.x / width, 1 - p.y / height

    detected = points[-options.length:]
    xs, ys = np.array([normalized(p) for p in detected]).T
    with warnings.catch_warnings():  # a vertical toss makes y = f(x) ill-conditioned; lstsq stays finite
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        a, b, c = np.polyfit(xs, ys, 2)
    residual = fit_residual(detected, options.fit) / (options.max_residual * width)
    return {
        "uuid": uuid_string,
        "timeRange": {"start": points[0].time, "duration": points[-1].time - points[0].time},
        "points": [{"frame": p.frame, "time": round(p.time, 6), "x": round(normalized(p)[0], 6),
                    "y": round(normalized(p)[1], 6), "radius": round(p.radius / width, 6)} for p in points],
        "detectedPoints": [{"x": round(x, 6), "y": round(y, 6)} for x, y in zip(xs, ys)],
        "projectedPoints": [{"x": round(x, 6), "y": round(float(np.polyval((a, b, c), x)), 6)} for x in xs[-5:]],
        "equationCoefficients": {"a": float(a), "b": float(b), "c": float(c)},
        "confidence": round(max(0.0, 1.0 - residual), 4),  # 1 for a perfect fit, 0 at the residual limit
        "movingAverageRadius": round(float(np.mean([p.radius for p in detected])) / width, 6),
    }


def video_rotation(capture):
    """Display rotation in degrees clockwise; OpenCV applies it to the frames it returns."""
    degrees = int(round(capture.get(cv2.CAP_PROP_ORIENTATION_META))) % 360
    return degrees if degrees in (0, 90, 180, 270) else 0


def grey_frames(capture, fps):
    """(index, presentation time in seconds, grey image) of every frame, in presentation order."""
    index = 0
    while True:
        ok, image = capture.read()
        if not ok:
            return
        # The FFmpeg backend gives the frame's presentation time; others may give nothing.
        milliseconds = capture.get(cv2.CAP_PROP_POS_MSEC)
        seconds = milliseconds / 1000 if milliseconds > 0 or index == 0 else index / fps
        yield index, seconds, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        index += 1


def main(argv=None):
    options = parse_arguments(argv)
    capture = cv2.VideoCapture(options.video)
    if not capture.isOpened():
        print(f"opencv_baseline: cannot open {options.video}", file=sys.stderr)
        return 1
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    source = {"uri": options.video, "width": 0, "height": 0, "frameRate": fps, "frameCount": 0,
              "duration": 0.0, "rotation": video_rotation(capture)}
    detector = tracker = None
    pending = deque()  # (frame, time) of frames the detector has not answered for yet
    started = time.perf_counter()
    for index, seconds, grey in grey_frames(capture, fps):
        if detector is None:
            height, width = grey.shape
            scale = min(1.0, options.analysis_width / width) if options.analysis_width else 1.0
            analysed_size = (round(width * scale), round(height * scale))
            detector, tracker = MotionDetector(options, analysed_size[0]), Tracker(options, width)
            source.update(width=width, height=height)
        source.update(frameCount=index + 1, duration=seconds + 1 / fps)
        if scale < 1:
            grey = cv2.resize(grey, analysed_size, interpolation=cv2.INTER_AREA)
        pending.append((index, seconds))
        blobs = detector.detect(grey)
        if len(pending) > detector.lag:
            frame, frame_time = pending.popleft()
            if blobs is not None:  # back to full-frame pixels (pixel centres at +0.5)
                tracker.update(frame, frame_time, [Blob((b.x + 0.5) / scale - 0.5, (b.y + 0.5) / scale - 0.5,
                                                        b.radius / scale) for b in blobs])
    capture.release()
    if tracker is None:
        print(f"opencv_baseline: no frame could be decoded from {options.video}", file=sys.stderr)
        return 1
    trajectories = tracker.finish()
    elapsed = time.perf_counter() - started
    print(f"opencv_baseline: {source['frameCount']} frames in {elapsed:.2f} s "
          f"({source['frameCount'] / elapsed:.1f} frames/s), {len(trajectories)} trajectories", file=sys.stderr)

    document = {
        "schemaVersion": 1,
        "source": source,
        "request": {"trajectoryLength": options.length, "frameAnalysisSpacing": 0,
                    "objectMinimumNormalizedRadius": options.min_radius,
                    "objectMaximumNormalizedRadius": options.max_radius,
                    "regionOfInterest": {"x": 0, "y": 0, "width": 1, "height": 1},
                    "coordinates": "normalized"},
        "trajectories": [trajectory_document(points, track_id, source["width"], source["height"], options)
                         for track_id, points in trajectories],
        "warnings": [],
    }
    text = json.dumps(document, indent=2) + "\n"
    if options.output:
        with open(options.output, "w") as file:
            file.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
