import Foundation
import PasskeyWebAuthn
import Testing

/// The client data is read without JSONDecoder when it is flat ASCII (`FlatJSONObject`), and
/// by JSONDecoder otherwise; both must agree on every input: the same fields, or both refuse.
@Suite struct CollectedClientDataTests {
    static let inputs: [String] = [
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","crossOrigin":false}"#,
        #"{"type":"webauthn.create","challenge":"AAEC","origin":"https://example.com"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a.example","crossOrigin":true,"topOrigin":"https://b.example"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a","crossOrigin":null,"topOrigin":null}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a","other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"android:apk-key-hash:abc","androidPackageName":"com.example"}"#,
        // Outside the fast subset (escapes, non-ASCII, numbers, nested): JSONDecoder's answer.
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https:\/\/example.com"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://ex\u0061mple.com"}"#,
        "{\"type\":\"webauthn.get\",\"challenge\":\"AAEC\",\"origin\":\"https://bücher.example\"}",
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a","extra":1}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a","tokenBinding":{"status":"present"}}"#,
        // Refused by both.
        #"{"type":"webauthn.get","challenge":"AAEC"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":null}"#,
        #"{"type":true,"challenge":"AAEC","origin":"https://a"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a","crossOrigin":"false"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a","topOrigin":false}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a"} trailing"#,
        "[]", "", "{}",
    ]

    @Test(arguments: inputs)
    func theFastPathAgreesWithJSONDecoder(json: String) {
        let bytes = Array(json.utf8)
        let read = CollectedClientData(bytes: bytes)
        let decoded = CollectedClientData.decodedByFoundation(bytes)
        #expect((read == nil) == (decoded == nil), "\(json)")
        if let read, let decoded {
            #expect(read.type == decoded.type)
            #expect(read.challenge == decoded.challenge)
            #expect(read.origin == decoded.origin)
            #expect(read.crossOrigin == decoded.crossOrigin)
            #expect(read.topOrigin == decoded.topOrigin)
            #expect(read.rawBytes == bytes)
        }
    }

    @Test func theUsualClientDataIsReadWithItsFields() throws {
        let json = #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a","crossOrigin":false}"#
        let read = try #require(CollectedClientData(bytes: Array(json.utf8)))
        #expect(read.type == "webauthn.get")
        #expect(read.challengeBytes == [0, 1, 2])
        #expect(read.origin == "https://a")
        #expect(read.crossOrigin == false)
        #expect(read.topOrigin == nil)
    }
}
