import Foundation
import PasskeyTestSupport
import PasskeyWire
import Testing

/// The web client's message catalogues (`WebClient/assets/catalogue-en.js` and `catalogue-ja.js`,
/// issue 40): every code of the contract has a sentence a person can act on, in both languages,
/// so no error falls back to "The request failed (HTTP 409)". (The catalogues' other keys are
/// checked by scripts/check-web-catalogue.py.)
@Suite struct WebClientMessagesTests {
    @Test(arguments: ["catalogue-en.js", "catalogue-ja.js"])
    func everyErrorCodeHasAMessage(catalogue: String) throws {
        let url = PackagePaths.root.appendingPathComponent("WebClient/assets/\(catalogue)")
        let source = try String(contentsOf: url, encoding: .utf8)
        for code in ErrorCode.allCases {
            #expect(
                source.contains("\n  \"code.\(code.rawValue)\": \""), "\(catalogue) has no message for \(code.rawValue)"
            )
        }
    }
}
