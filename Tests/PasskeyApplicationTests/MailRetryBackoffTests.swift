import PasskeyApplication
import Testing

@Suite struct MailRetryBackoffTests {
    let backoff = MailRetryBackoff(base: 30, maximum: 3_600)

    @Test func theNominalDelayDoublesUpToTheCap() {
        #expect(
            (1...9).map { backoff.nominalDelay(afterAttempts: $0) } == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(backoff.nominalDelay(afterAttempts: 1_000) == 3_600)
    }

    @Test(arguments: 1...10)
    func theJitteredDelayStaysWithinHalfAndAllOfTheNominal(attempts: Int) {
        let nominal = backoff.nominalDelay(afterAttempts: attempts)
        for unit in [-1, 0, 0.25, 0.5, 0.999, 1, 2.0] {
            let delay = backoff.delay(afterAttempts: attempts, unit: unit)
            #expect(delay >= nominal / 2 && delay <= nominal)
        }
        #expect(backoff.delay(afterAttempts: attempts, unit: 0) == nominal / 2)
        #expect(backoff.delay(afterAttempts: attempts, unit: 1) == nominal)
    }
}
