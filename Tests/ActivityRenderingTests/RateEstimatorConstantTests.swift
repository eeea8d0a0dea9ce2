import Foundation
import Testing

@testable import ActivityRendering

@Suite("RateEstimator's decay constant")
struct RateEstimatorConstantTests {
    @Test("the literal is ln(0.1) / window: old rates fade to a tenth in one window")
    func literal() {
        #expect(RateEstimator.logTenthPerWindow == log(0.1) / RateEstimator.window)
        #expect(abs(RateEstimator.retention(RateEstimator.window) - 0.1) < 1e-15)
    }
}
