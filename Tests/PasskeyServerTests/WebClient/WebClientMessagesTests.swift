import Foundation
import PasskeyTestSupport
import PasskeyWire
import Testing

/// The web client's message table (`WebClient/assets/messages.js`): every code of the contract
/// has a sentence a person can act on, so no error falls back to "The request failed (HTTP 409)".
@Suite struct WebClientMessagesTests {
    /// The text of `const CODES = { … };`.
    private static func codeTable() throws -> String {
        let url = PackagePaths.root.appendingPathComponent("WebClient/assets/messages.js")
        let source = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(source.range(of: "const CODES = {"))
        let end = try #require(source.range(of: "\n};", range: start.upperBound..<source.endIndex))
        return String(source[start.upperBound..<end.lowerBound])
    }

    @Test func everyErrorCodeHasAMessage() throws {
        let table = try Self.codeTable()
        for code in ErrorCode.allCases {
            let quoted = table.contains("\n  \"\(code.rawValue)\":")
            let bare = table.contains("\n  \(code.rawValue):")
            #expect(quoted || bare, "messages.js has no message for \(code.rawValue)")
        }
    }
}
