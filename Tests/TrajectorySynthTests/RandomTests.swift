import Foundation
import Testing
import TrajectorySynth

@Suite struct RandomTests {
    @Test("the generator is xoshiro256** seeded by SplitMix64: its first outputs match the reference algorithm")
    func matchesReference() {
        // Computed with an independent implementation of the published algorithms.
        var zero = SeededGenerator(seed: 0)
        #expect([zero.next(), zero.next(), zero.next()] == [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0])
        var other = SeededGenerator(seed: 12345)
        #expect([other.next(), other.next(), other.next()] == [0xBE6A_3637_4160_D49B, 0x214A_AA06_37A6_88C6, 0xF69D_16DE_9954_D388])
    }

    @Test("Gaussian draws have mean 0 and deviation 1 (within 0.01 over 200 000 draws)")
    func gaussianMoments() {
        var generator = SeededGenerator(seed: 99)
        let draws = (0..<200_000).map { _ in generator.gaussian() }
        let mean = draws.reduce(0, +) / Double(draws.count)
        let variance = draws.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(draws.count)
        #expect(abs(mean) < 0.01)
        #expect(abs(variance.squareRoot() - 1) < 0.01)
        // About 4.55 % of a normal lies beyond two deviations.
        let tails = Double(draws.filter { abs($0) > 2 }.count) / Double(draws.count)
        #expect(abs(tails - 0.0455) < 0.003)
    }

    @Test("uniform integers cover their range evenly", arguments: [1...6, -3...3])
    func integersCoverRange(range: ClosedRange<Int>) {
        var generator = SeededGenerator(seed: 5)
        var counts = [Int: Int]()
        for _ in 0..<70_000 { counts[generator.integer(in: range), default: 0] += 1 }
        #expect(Set(counts.keys) == Set(range))
        let expected = 70_000.0 / Double(range.count)
        #expect(counts.values.allSatisfy { abs(Double($0) - expected) < expected * 0.05 })
    }

    @Test("portable sin, cos and log agree with the platform's to 1e-13")
    func portableMath() {
        for x in stride(from: -50.0, through: 50, by: 0.0137) {
            #expect(abs(PortableMath.sin(x) - sin(x)) < 1e-13)
            #expect(abs(PortableMath.cos(x) - cos(x)) < 1e-13)
        }
        for x in [1e-300, 1e-9, 0.001, 0.5, 0.7071, 1, 1.4142, 2, 10, 12345.678, 1e200] {
            #expect(abs(PortableMath.log(x) - log(x)) <= 1e-13 * max(1, abs(log(x))))
        }
    }

    @Test("a smooth random curve passes through its knots and changes little between close times")
    func smoothCurve() {
        let curve = SmoothRandomCurve(key: 42)
        for knot in 0..<20 {
            #expect(curve.value(at: Double(knot)) == Hashing.signedUnit(42, knot))
            let step = abs(curve.value(at: Double(knot) + 0.51) - curve.value(at: Double(knot) + 0.5))
            #expect(step < 0.05)
        }
    }
}
