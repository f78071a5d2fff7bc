import Foundation
import PasskeyJSON
import Testing

/// The fast reader accepts only its subset, and for everything it accepts it agrees with
/// Foundation's own JSON parser; everything else is left to Foundation (nil).
@Suite struct FlatJSONObjectTests {
    static let accepted: [(json: String, members: [(String, FlatJSONObject.Value)])] = [
        ("{}", []),
        (" \n\t{ }\r\n", []),
        (#"{"a":"b"}"#, [("a", .string("b"))]),
        (
            #"{ "type" : "webauthn.get" , "crossOrigin" : false, "x": null, "y": true }"#,
            [("type", .string("webauthn.get")), ("crossOrigin", .bool(false)), ("x", .null), ("y", .bool(true))]
        ),
        (
            #"{"origin":"https://example.com:8443/a?b=c","":""}"#,
            [("origin", .string("https://example.com:8443/a?b=c")), ("", .string(""))]
        ),
    ]

    static let refused: [String] = [
        "", " ", "[]", "\"a\"", "null", "{", "}", "{,}", #"{"a":"b",}"#, #"{"a":"b""c":"d"}"#,
        #"{"a":1}"#, #"{"a":-1.5e3}"#, #"{"a":{}}"#, #"{"a":[]}"#, #"{"a":"b\"c"}"#, #"{"a":"\u0041"}"#,
        #"{"a\/b":"c"}"#, "{\"a\":\"é\"}", "{\"a\":\"\u{7F}\"}", "{\"a\":\"tab\there\"}", #"{"a":"b"} x"#,
        #"{"a":"b"}{}"#, #"{"a":"b","a":"c"}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":False}"#, #"{a:"b"}"#,
        "\u{FEFF}{}", #"{"a" "b"}"#, #"{"a":"unterminated}"#,
        "{" + (0...16).map { #""k\#($0)":"v""# }.joined(separator: ",") + "}",
    ]

    @Test(arguments: accepted.indices)
    func readsItsSubsetAsFoundationDoes(index: Int) throws {
        let (json, expected) = Self.accepted[index]
        let object = try #require(FlatJSONObject(Array(json.utf8)))
        #expect(object.members.map(\.name) == expected.map(\.0))
        #expect(object.members.map(\.value) == expected.map(\.1))
        try Self.expectSameAsFoundation(object, json)
    }

    @Test(arguments: refused)
    func leavesEverythingElseToFoundation(json: String) {
        #expect(FlatJSONObject(Array(json.utf8)) == nil)
    }

    @Test func sixteenMembersAreRead() throws {
        let json = "{" + (0..<16).map { #""k\#($0)":"v""# }.joined(separator: ",") + "}"
        #expect(try #require(FlatJSONObject(Array(json.utf8))).members.count == 16)
    }

    /// Random documents over a small JSON alphabet (a fixed seed, so a failure repeats):
    /// whatever the reader accepts, Foundation parses to the same members.
    @Test func randomDocumentsItAcceptsAreFoundationsToo() throws {
        // Objects built from member-shaped pieces, some of them outside the subset, with now and
        // then a stray piece: about half land in the subset.
        let names = [#""x""#, #""y""#, #""a b""#, #""x""#, #""\n""#, "\"é\"", #""""#]
        let separators = [":", " : ", "", "::"]
        let values = [#""1""#, "true", "false", "null", "1", #""\"""#, "{}", "nul", #""z""#, "[]"]
        let joiners = [",", " , ", "", ",,"]
        let strays = ["", "", "", "", "", "", "", "", " ", "}", "{", "\"", ","]
        var generator = SplitMix(seed: 0x5eed)
        func pick(_ choices: [String]) -> String { choices[Int(generator.next() % UInt64(choices.count))] }
        var accepted = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 4)
            var json = pick(strays) + "{"
            for index in 0..<count {
                if index > 0 { json += pick(joiners) }
                json += pick(names) + pick(separators) + pick(values) + pick(strays)
            }
            json += "}" + pick(strays)
            guard let object = FlatJSONObject(Array(json.utf8)) else { continue }
            accepted += 1
            try Self.expectSameAsFoundation(object, json)
        }
        #expect(accepted > 500, "the generator should hit the subset often (\(accepted))")
    }

    static func expectSameAsFoundation(_ object: FlatJSONObject, _ json: String) throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let dictionary = try #require(parsed as? [String: Any], "\(json)")
        #expect(dictionary.count == object.members.count, "\(json)")
        for (name, value) in object.members {
            switch value {
            case .string(let text): #expect(dictionary[name] as? String == text, "\(json)")
            case .bool(let flag):
                #expect(dictionary[name] as? Bool == flag, "\(json)")
            case .null: #expect(dictionary[name] is NSNull, "\(json)")
            }
        }
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
