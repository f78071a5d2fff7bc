import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Mailed codes: six digits, uniform, and a digest bound to the code's row.
@Suite struct EmailCodeMakerTests {
    /// Random bytes from a script, then zeros.
    private final class ScriptedRandom: RandomGenerator, @unchecked Sendable {
        private var script: [[UInt8]]
        private let lock = NSLock()
        init(_ script: [[UInt8]]) { self.script = script }
        func bytes(count: Int) -> [UInt8] {
            lock.withLock { script.isEmpty ? Array(repeating: 0, count: count) : script.removeFirst() }
        }
    }

    @Test func codesAreSixDigitsAndValuesPastTheLastWholeRangeAreDrawnAgain() {
        // 0xFFFFFFFF lies past the last multiple of 10^6 below 2^32: it would bias the low codes.
        let random = ScriptedRandom([[0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x0F, 0x42, 0x3F], [0, 0, 0, 7]])
        let maker = EmailCodeMaker(random: random, digester: PlainDigester())
        #expect(maker.newCode() == "999999")
        #expect(maker.newCode() == "000007")
    }

    @Test func theDigestIsBoundToTheRowAndTheMatcherIgnoresSpaces() {
        let maker = EmailCodeMaker(random: SequentialRandomGenerator(), digester: PlainDigester())
        let (a, b) = (UUID(), UUID())
        #expect(maker.digest(code: "123456", codeID: a) != maker.digest(code: "123456", codeID: b))
        let matches = maker.matcher(presented: " 123 456 ")
        #expect(matches(a, maker.digest(code: "123456", codeID: a)))
        #expect(!matches(a, maker.digest(code: "123456", codeID: b)))
        #expect(!matches(a, maker.digest(code: "123457", codeID: a)))
    }
}
