import ActivityRendering
import Testing

@Suite("RateEstimator")
struct RateEstimatorTests {
    /// Feeds progress at `rate` per second for `seconds`, sampled `hertz` times a second.
    func feed(rate: Double, seconds: Double, hertz: Double, into estimator: inout RateEstimator, from start: Double = 0)
    {
        let samples = Int(seconds * hertz)
        for index in 0...samples {
            let time = start + Double(index) / hertz
            estimator.record(completed: rate * time, at: time)
        }
    }

    @Test("the estimate does not depend on how often events arrive", arguments: [2.0, 10.0, 1000.0])
    func frequencyIndependent(hertz: Double) throws {
        var estimator = RateEstimator()
        // 10/s for 20 s, then 40/s for 5 s: the same progress over time at every frequency.
        for index in 0...Int(25 * hertz) {
            let time = Double(index) / hertz
            let completed = time <= 20 ? 10 * time : 200 + 40 * (time - 20)
            estimator.record(completed: completed, at: time)
        }
        var reference = RateEstimator()
        for time in [0.0, 20, 25] {
            reference.record(completed: time <= 20 ? 10 * time : 200 + 40 * (time - 20), at: time)
        }
        let rate = try #require(estimator.rate(at: 25))
        let expected = try #require(reference.rate(at: 25))
        #expect(abs(rate - expected) < 1e-6 * expected)
        #expect(rate > 10 && rate < 40)
    }

    @Test("a steady rate is estimated exactly from the first seconds (bias correction)")
    func steady() throws {
        var estimator = RateEstimator()
        feed(rate: 7, seconds: 1, hertz: 20, into: &estimator)
        #expect(abs(try #require(estimator.rate(at: 1)) - 7) < 1e-9)
    }

    @Test("the rate decays while stalled; the ETA disappears")
    func stall() throws {
        var estimator = RateEstimator()
        feed(rate: 10, seconds: 10, hertz: 10, into: &estimator)
        #expect(estimator.eta(total: 200, at: 10) != nil)
        let later = try #require(estimator.rate(at: 25))
        #expect(later < 10 && later > 0)
        #expect(estimator.isStalled(at: 16))
        #expect(estimator.eta(total: 200, at: 16) == nil)
    }

    @Test("no ETA before a second of data; then remaining / rate")
    func eta() throws {
        var estimator = RateEstimator()
        feed(rate: 5, seconds: 0.5, hertz: 10, into: &estimator)
        #expect(estimator.eta(total: 100, at: 0.5) == nil)
        feed(rate: 5, seconds: 2, hertz: 10, into: &estimator, from: 0.5)
        let eta = try #require(estimator.eta(total: 100, at: 2.5))
        #expect(abs(eta - (100 - 12.5) / 5) < 1e-6)
    }

    @Test("progress going backwards starts a fresh estimate")
    func reset() {
        var estimator = RateEstimator()
        feed(rate: 100, seconds: 5, hertz: 10, into: &estimator)
        estimator.record(completed: 0, at: 6)
        #expect(estimator.rate(at: 6) == nil)
    }
}
