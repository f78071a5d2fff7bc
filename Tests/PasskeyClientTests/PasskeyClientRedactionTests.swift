import Foundation
import PasskeyClient
import Testing

/// No token or recovery code prints: `print`, interpolation, `String(reflecting:)` and `dump`
/// (what the debugger's `po` and SwiftUI previews show) name the value without its secret.
@Suite struct PasskeyClientRedactionTests {
    static let token = "tok_SECRET_0123456789abcdef"

    /// Every way a value reaches a log or a console.
    static func renderings(_ value: some Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return ["\(value)", String(describing: value), String(reflecting: value), dumped]
    }

    @Test func aSessionNeverPrintsItsToken() async throws {
        let stub = StubServer()
        stub.respond(status: 200, ContractAnswers.session(token: Self.token))
        let session = try await stub.client().signIn(email: "taro@example.com", password: "secret words")
        for text in Self.renderings(session) {
            #expect(!text.contains(Self.token), "\(text)")
            #expect(text.contains("redacted"), "\(text)")
        }
        #expect(session.accessToken == Self.token, "the value itself is unchanged")
    }

    @Test func aStoredTokenNeverPrintsItsToken() {
        let stored = PasskeyStoredToken(accessToken: Self.token, expiresAt: Date(timeIntervalSince1970: 0))
        for text in Self.renderings(stored) + Self.renderings([stored]) + Self.renderings(Optional(stored)) {
            #expect(!text.contains(Self.token), "\(text)")
        }
    }

    @Test func recoveryCodesNeverPrint() {
        let codes = PasskeyRecoveryCodes(codes: ["7KQ4-M2XD-9TPA-WB3E", "AAAA-BBBB-CCCC-DDDD"], createdAt: Date())
        for text in Self.renderings(codes) {
            #expect(!text.contains("7KQ4"), "\(text)")
            #expect(!text.contains("AAAA"), "\(text)")
            #expect(text.contains("2"), "how many is said: \(text)")
        }
    }
}
