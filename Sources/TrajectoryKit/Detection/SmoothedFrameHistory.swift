/// The detector's own smoothed copies of recent frames: every one of the last few, which the
/// motion image compares, and sparser ones further back, against which a slow ball is seen
/// clear of where it is now.
///
/// Frame n (counting from the start of the stream) is kept while its age is at most
/// `recentAge` times the largest power of two that divides n, and never past `oldestAge`:
/// odd frames leave after `recentAge` frames, every second one after twice that, every fourth
/// after four times, and so on. So ages 0 … `recentAge` are always there, and beyond them one
/// frame in every stretch of a quarter to a half of its age (at most 11 frames for ages up to
/// 32, where consecutive frames would need 33).
///
/// The caller's luma plane is only lent for one call, so every frame is smoothed into a buffer
/// owned here, which is reused once its frame leaves: nothing is allocated once the first frame
/// of a given size has arrived. Rows are padded to a multiple of 16 bytes; padding stays zero.
struct SmoothedFrameHistory {
    /// Every frame up to this age is kept: the motion image compares the current frame with
    /// the three before it.
    static let recentAge = 4
    /// No frame older than this is kept.
    static let oldestAge = 32
    /// Buffers the rule needs at most: the frames of ages 0 … `recentAge`, and two more for
    /// each doubling from `recentAge` to `oldestAge` (their spacing doubles with the stretch).
    static let capacity: Int = {
        var doublings = 0
        while recentAge << doublings < oldestAge { doublings += 1 }
        return recentAge + 1 + 2 * doublings
    }()

    /// Layout of the stored buffers: the frames' size, rows padded to whole vectors.
    private(set) var layout: PlaneLayout?
    /// The ages of the stored frames, current (0) first, then older and older.
    private(set) var ages: [Int] = []
    /// Frames appended since the history started.
    private var appendedCount = 0
    private var buffers: [[UInt8]] = []
    /// For each buffer, the number of the frame it holds, or nil when it is free.
    private var frameNumbers: [Int?] = []
    /// For each buffer, where the camera had moved the picture in its frame since the start of
    /// the history (the sum of the motions from frame to frame).
    private var cameraPositions: [CameraMotion] = []
    private var smoother = BinomialSmoother()

    /// Whether the frame `age` frames before the current one is stored.
    func contains(age: Int) -> Bool {
        slot(ofAge: age) != nil
    }

    /// The stored frame `age` frames before the current one (0 is the current frame).
    ///
    /// Returns the buffer itself, not a copy; let go of it before the next ``append(_:layout:)``,
    /// or that call has to copy it.
    func frame(age: Int) -> [UInt8] {
        guard let slot = slot(ofAge: age) else { preconditionFailure("frame \(age) before the current one is not stored") }
        return buffers[slot]
    }

    /// Where the camera had moved the picture, since the start of the history, in the stored
    /// frame `age` frames before the current one.
    func cameraPosition(age: Int) -> CameraMotion {
        guard let slot = slot(ofAge: age) else { preconditionFailure("frame \(age) before the current one is not stored") }
        return cameraPositions[slot]
    }

    /// Records where the camera had moved the picture in the current frame.
    mutating func setCurrentCameraPosition(_ position: CameraMotion) {
        guard let slot = slot(ofAge: 0) else { preconditionFailure("no frame is stored") }
        cameraPositions[slot] = position
    }

    /// Stores a smoothed copy of `luma` as the current frame, after letting go of the frames
    /// the rule no longer keeps. A frame of another size than the stored ones starts the
    /// history afresh.
    mutating func append(_ luma: Span<UInt8>, layout sourceLayout: PlaneLayout) {
        if layout?.width != sourceLayout.width || layout?.height != sourceLayout.height {
            start(width: sourceLayout.width, height: sourceLayout.height)
        }
        guard let layout else { return }
        let number = appendedCount
        for slot in frameNumbers.indices {
            if let stored = frameNumbers[slot], number - stored > Self.keepingAge(ofFrame: stored) { frameNumbers[slot] = nil }
        }
        guard let free = frameNumbers.firstIndex(where: { $0 == nil }) else {
            preconditionFailure("the history's rule kept more than \(Self.capacity) frames")
        }
        // A span borrows the whole of `self` while it lives, so smooth into a buffer held
        // outside it (moving an array in and out is O(1) and does not copy its bytes).
        var frame: [UInt8] = []
        swap(&frame, &buffers[free])
        do {
            var destination = frame.mutableSpan
            smoother.smooth(luma, layout: sourceLayout, into: &destination, destinationBytesPerRow: layout.bytesPerRow)
        }
        swap(&frame, &buffers[free])
        frameNumbers[free] = number
        cameraPositions[free] = .zero
        appendedCount += 1
        listAges()
    }

    /// Forgets every stored frame (the buffers are kept for reuse).
    mutating func removeAll() {
        for slot in frameNumbers.indices { frameNumbers[slot] = nil }
        appendedCount = 0
        ages.removeAll(keepingCapacity: true)
    }

    /// How old frame `number` may grow before it leaves.
    private static func keepingAge(ofFrame number: Int) -> Int {
        // number & -number is the largest power of two dividing number; frame 0 is divisible by all.
        number == 0 ? oldestAge : min(oldestAge, recentAge * (number & -number))
    }

    private func slot(ofAge age: Int) -> Int? {
        let number = appendedCount - 1 - age
        return frameNumbers.firstIndex { $0 == number }
    }

    /// Lists the stored frames' ages in order (inserting one by one: a handful of them).
    private mutating func listAges() {
        ages.removeAll(keepingCapacity: true)
        for case let number? in frameNumbers {
            let age = appendedCount - 1 - number
            ages.insert(age, at: ages.firstIndex { $0 > age } ?? ages.endIndex)
        }
    }

    private mutating func start(width: Int, height: Int) {
        let chunk = ByteVector.scalarCount
        let paddedWidth = (width + chunk - 1) / chunk * chunk
        buffers = (0..<Self.capacity).map { _ in [UInt8](repeating: 0, count: paddedWidth * height) }
        frameNumbers = [Int?](repeating: nil, count: Self.capacity)
        cameraPositions = [CameraMotion](repeating: .zero, count: Self.capacity)
        ages.reserveCapacity(Self.capacity)
        appendedCount = 0
        layout = PlaneLayout(width: width, height: height, bytesPerRow: paddedWidth)
    }
}
