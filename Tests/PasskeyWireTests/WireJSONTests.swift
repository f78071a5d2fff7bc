import Foundation
import PasskeyWire
import Testing

@Suite struct WireJSONTests {
    @Test func timestampsAreRFC3339UTCBothWays() throws {
        let date = Date(timeIntervalSince1970: 1_795_975_200)  // 2026-11-29T18:00:00Z
        #expect(WireJSON.timestamp(date) == "2026-11-29T18:00:00Z")
        #expect(WireJSON.date("2026-11-29T18:00:00Z") == date)
        #expect(WireJSON.date("2026-11-29T18:00:00.250Z") == date.addingTimeInterval(0.25))
        #expect(WireJSON.date("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(WireJSON.date("2024-02-29T23:59:59Z").map(WireJSON.timestamp) == "2024-02-29T23:59:59Z")
        for bad in [
            "", "2026-11-29T18:00:00", "2026-11-29 18:00:00Z", "2026-13-01T00:00:00Z", "2026-11-29T18:00:00+09:00",
        ] {
            #expect(WireJSON.date(bad) == nil, "\(bad)")
        }
    }

    @Test func aSessionRoundTripsAndKeysAreSorted() throws {
        let session = SessionResponseBody(
            accessToken: "t", expiresAt: Date(timeIntervalSince1970: 0), accountID: "a", displayName: "Taro",
            method: "passkey")
        let data = try WireJSON.encode(session)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"accessToken":"t","accountID":"a","displayName":"Taro","expiresAt":"1970-01-01T00:00:00Z","method":"passkey","tokenType":"Bearer"}"#
        )
        #expect(try WireJSON.decode(SessionResponseBody.self, from: data) == session)
    }

    @Test func aPasskeyAlwaysCarriesLastUsedAtEvenWhenNull() throws {
        let passkey = PasskeyResponseBody(
            credentialID: "AQ", name: "Phone", createdAt: Date(timeIntervalSince1970: 0), lastUsedAt: nil,
            backupEligible: true, backupState: false, transports: ["internal"],
            aaguid: "00000000-0000-0000-0000-000000000000",
            attestationFormat: "none")
        let data = try WireJSON.encode(passkey)
        #expect(String(decoding: data, as: UTF8.self).contains(#""lastUsedAt":null"#))
        #expect(try WireJSON.decode(PasskeyResponseBody.self, from: data) == passkey)
    }

    @Test func problemsCarryTheContractsCodes() throws {
        #expect(ErrorCode.allCases.count == 31)
        let problem = ProblemDetails(title: "Bad Request", status: 400, detail: "x", code: .challengeUnavailable)
        let decoded = try WireJSON.decode(ProblemDetails.self, from: try WireJSON.encode(problem))
        #expect(decoded.errorCode == .challengeUnavailable)
        #expect(decoded.type == "about:blank")
        let unknown = try WireJSON.decode(
            ProblemDetails.self,
            from: Data(#"{"type":"about:blank","title":"T","status":418,"detail":"d","code":"teapot"}"#.utf8))
        #expect(unknown.errorCode == nil)
    }

    /// The hand-written writers give exactly JSONEncoder's bytes, escapes and key order included.
    @Test(arguments: [
        "plain", "", "quote \" backslash \\ slash / done", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}",
        "ユーザー 名前 😀", "line\u{2028}separator\u{2029}", "<script>&amp;</script>",
    ])
    func handWrittenBodiesMatchJSONEncoder(_ text: String) throws {
        func written<T: JSONWritable>(_ value: T) -> String {
            var writer = JSONWriter()
            value.write(to: &writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        let date = Date(timeIntervalSince1970: 1_795_975_200.75)  // Written truncated to the second.
        let session = SessionResponseBody(
            accessToken: text, expiresAt: date.addingTimeInterval(-0.75), accountID: "a\(text)", displayName: text,
            method: "passkey")
        #expect(written(session) == String(decoding: try WireJSON.encode(session), as: UTF8.self))
        let options = AuthenticationOptionsResponseBody(
            challengeID: text, relyingPartyID: "example.com", challenge: text, expiresAt: date,
            publicKey: RequestOptionsJSON(challenge: text, rpId: text, timeout: 300_000, userVerification: "required"))
        #expect(written(options) == String(decoding: try WireJSON.encode(options), as: UTF8.self))
        #expect(try WireJSON.decode(SessionResponseBody.self, from: Data(written(session).utf8)) == session)
    }
}
