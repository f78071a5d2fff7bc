import Foundation
import PasskeyJSON
import PasskeyWire
import Testing

@testable import PasskeyServer

/// The passkey sign-in's finish body is read without JSONDecoder when flat; whatever the body,
/// `WireJSON.request` answers as JSONDecoder alone does (the same fields, or nil).
@Suite struct FlatJSONReadableTests {
    static let bodies: [String] = [
        #"{"challengeID":"c","credentialID":"id","clientDataJSON":"cd","authenticatorData":"ad","signature":"s","userHandle":"u"}"#,
        #"{"challengeID":"c","credentialID":"id","clientDataJSON":"cd","authenticatorData":"ad","signature":"s"}"#,
        #"{"challengeID":"c","credentialID":"id","userHandle":null,"credential":null,"unknown":true}"#,
        #"{"challengeID":"c"}"#,
        #" { "challengeID" : "c" , "signature" : "s" } "#,
        // JSONDecoder's business: nested, escaped, numbers.
        #"{"challengeID":"c","credential":{"id":"x","response":{"clientDataJSON":"cd"}}}"#,
        #"{"challengeID":"c\/d","credentialID":"id"}"#,
        #"{"challengeID":"c","credentialID":"id","extra":1}"#,
        // Refused by both.
        #"{"credentialID":"id"}"#,
        #"{"challengeID":null}"#,
        #"{"challengeID":true}"#,
        #"{"challengeID":"c","signature":false}"#,
        #"{"challengeID":"c","credential":"x"}"#,
        #"{"challengeID":"c"} {}"#,
        "", "[]", "null",
    ]

    @Test(arguments: bodies)
    func readingAgreesWithJSONDecoder(json: String) {
        let body = Array(json.utf8)
        let read = WireJSON.request(AuthenticationFinishRequestBody.self, from: body)
        let decoded = try? WireJSON.decode(AuthenticationFinishRequestBody.self, from: Data(body))
        #expect((read == nil) == (decoded == nil), "\(json)")
        if let read, let decoded {
            #expect(read.challengeID == decoded.challengeID)
            #expect(read.credentialID == decoded.credentialID)
            #expect(read.clientDataJSON == decoded.clientDataJSON)
            #expect(read.authenticatorData == decoded.authenticatorData)
            #expect(read.signature == decoded.signature)
            #expect(read.userHandle == decoded.userHandle)
            #expect((read.credential == nil) == (decoded.credential == nil))
            #expect(read.credential?.id == decoded.credential?.id)
        }
    }

    @Test func aFlatBodyTakesTheFastPath() throws {
        let json = #"{"challengeID":"c","credentialID":"id","signature":"s"}"#
        let flat = try #require(FlatJSONObject(Array(json.utf8)))
        let object = try #require(AuthenticationFinishRequestBody(flat: flat))
        #expect(object.challengeID == "c")
        #expect(object.signature == "s")
        #expect(object.userHandle == nil)
    }
}
