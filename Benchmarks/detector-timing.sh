#!/usr/bin/env bash
# Per-frame time of the blob detector on the shared real clips, at 720p and scaled to 1080p,
# on frames decoded beforehand so that only the detector is timed.
#   Benchmarks/detector-timing.sh [CLIP...]   (default: every clip in ../shared/clips)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
clips_dir="$here/../../shared/clips"
[ -d "$clips_dir" ] || clips_dir="/work/shared/clips"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path "$here/DetectorTiming" >&2
binary="$(swift build -c release --package-path "$here/DetectorTiming" --show-bin-path)/DetectorTiming"

clips=("$@")
[ ${#clips[@]} -gt 0 ] || clips=("$clips_dir"/*.mp4)
for clip in "${clips[@]}"; do
    for size in 1280x720 1920x1080; do
        raw="$work/frames.gray"
        ffmpeg -v error -y -i "$clip" -vf "scale=${size/x/:}" -f rawvideo -pix_fmt gray "$raw"
        echo -n "$(basename "$clip") "
        "$binary" "$raw" "${size%x*}" "${size#*x}" --passes 5
    done
done
