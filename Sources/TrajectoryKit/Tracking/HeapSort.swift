extension MutableCollection where Self: RandomAccessCollection {
    /// Sorts the collection in place by heapsort, without allocating.
    ///
    /// The standard library's `sort` is stable, and for a large collection takes its scratch
    /// buffer from the heap; the associator sorts its candidate pairs every frame, so it uses
    /// this instead. Heapsort is not stable: give `areInIncreasingOrder` a total order (ties
    /// broken by identity) so the result does not depend on the algorithm.
    ///
    /// - Complexity: O(n log n), no allocation.
    mutating func heapSort(by areInIncreasingOrder: (Element, Element) -> Bool) {
        let count = self.count
        guard count > 1 else { return }
        func position(_ offset: Int) -> Index { index(startIndex, offsetBy: offset) }
        /// Moves the element at `root` down until the max-heap of the first `end` offsets holds.
        func siftDown(_ root: Int, end: Int) {
            var parent = root
            while true {
                let left = 2 * parent + 1
                guard left < end else { return }
                var largest = left
                let right = left + 1
                if right < end, areInIncreasingOrder(self[position(left)], self[position(right)]) { largest = right }
                guard areInIncreasingOrder(self[position(parent)], self[position(largest)]) else { return }
                swapAt(position(parent), position(largest))
                parent = largest
            }
        }
        for root in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(root, end: count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            swapAt(startIndex, position(end))
            siftDown(0, end: end)
        }
    }
}
