internal import PasskeyJSON
internal import PasskeyWire

/// A request body the passkey sign-in path reads without `JSONDecoder` when it is a flat object
/// of plain strings (`FlatJSONObject`); `WireJSON.request` falls back to `JSONDecoder` for
/// every other body, so the result is the same for every input (`FlatJSONReadableTests`).
protocol FlatJSONReadable {
    /// Nil when the object is not this body's flat form or `JSONDecoder` would refuse it (the
    /// caller then asks `JSONDecoder`, which gives the answer).
    init?(flat object: FlatJSONObject)
}

extension AuthenticationFinishRequestBody: FlatJSONReadable {
    init?(flat object: FlatJSONObject) {
        // The toJSON form (`credential`) is nested: JSONDecoder's business.
        guard object["credential"] == nil || object["credential"] == .null,
            case .string(let challengeID) = object["challengeID"]
        else { return nil }
        var optional: [String?] = []
        for name in ["credentialID", "clientDataJSON", "authenticatorData", "signature", "userHandle"] {
            switch object[name] {
            case .string(let value): optional.append(value)
            case .null, nil: optional.append(nil)
            case .bool: return nil
            }
        }
        self.init(
            readChallengeID: challengeID, credentialID: optional[0], clientDataJSON: optional[1],
            authenticatorData: optional[2], signature: optional[3], userHandle: optional[4])
    }
}
