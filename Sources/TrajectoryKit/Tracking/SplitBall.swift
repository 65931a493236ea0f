/// A slow ball (around the apex of a steep flight filmed at a high frame rate) is sometimes
/// found as two blobs, one over each side of it: its middle changed too little against the frame
/// it was measured against. Each part's centre lies several pixels off the ball's, on either
/// side, and the two together centre near it: on hd60-6 at 60 fps, 4–6 px off for the part
/// nearer the prediction and 1–2 px for the pair.
///
/// A confirmed track that took one part takes the pair joined (`joined(_:_:)`) when another
/// blob is the other part (`otherPart(of:in:candidates:isAvailable:prediction:)`).
enum SplitBall {
    /// The blob among `candidates` (indices into `blobs`, scene coordinates) that is available
    /// (`isAvailable`) and is the other part of the ball whose track, predicted by
    /// `prediction`, took blob `part`: inside the track's gate, within the ball's diameter of
    /// `part`, and such that the two together centre nearer the prediction than either does
    /// alone. Of several, the one whose pair centres nearest. A whole ball's blob, close to the
    /// prediction itself, has no other part: joining anything to it moves the centre away.
    static func otherPart(
        of part: Int, in blobs: [Blob], candidates: ArraySlice<Int>, isAvailable: (Int) -> Bool,
        prediction: TrackPrediction
    ) -> Int? {
        let first = blobs[part]
        let predicted = prediction.center
        let firstMiss = first.center.distance(to: predicted)
        var best: (index: Int, miss: Double)?
        for index in candidates where index != part && isAvailable(index) {
            let other = blobs[index]
            let otherMiss = other.center.distance(to: predicted)
            guard otherMiss <= prediction.gateRadius, other.center.distance(to: first.center) <= 2 * prediction.radius
            else { continue }
            let pairMiss = joined(first, other).center.distance(to: predicted)
            guard pairMiss < min(firstMiss, otherMiss), pairMiss < best?.miss ?? .infinity else { continue }
            best = (index, pairMiss)
        }
        return best?.index
    }

    /// Two parts of one ball as one blob: centred where their pixels are (area-weighted), as
    /// wide as the wider part, as clear as their pixels on average, and as ragged and as
    /// elongated as the worse part.
    static func joined(_ first: Blob, _ second: Blob) -> Blob {
        let area = first.area + second.area
        let share = Double(first.area) / Double(max(area, 1))
        func mix(_ a: Double, _ b: Double) -> Double { share * a + (1 - share) * b }
        let wider = first.radius >= second.radius ? first : second
        return Blob(
            center: PixelPoint(x: mix(first.center.x, second.center.x), y: mix(first.center.y, second.center.y)),
            radius: wider.radius, area: area, contrast: mix(first.contrast, second.contrast),
            elongation: max(first.elongation, second.elongation), orientation: wider.orientation,
            solidity: min(first.solidity, second.solidity))
    }
}
