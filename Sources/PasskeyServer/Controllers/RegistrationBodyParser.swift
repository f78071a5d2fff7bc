internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

/// Turns a registration finish body (flattened fields or `credential` = toJSON()) into the
/// verifier's input. Everything here is refused before any challenge is consumed.
enum RegistrationBodyParser {
    struct Parsed {
        let response: RegistrationResponse
        let residentKey: Bool?
        let name: PasskeyName?
    }

    static func parse(_ body: RegistrationFinishRequestBody) throws(Problem) -> Parsed {
        let fields = try body.credentialFields()
        let credentialID = try fields.required(fields.credentialID, "credentialID")
        let clientDataJSON = try fields.required(fields.clientDataJSON, "clientDataJSON")
        let attestationObject = try fields.required(fields.attestationObject, "attestationObject")
        let transports = fields.transports
        let residentKey = fields.residentKey
        var name: PasskeyName?
        if let raw = body.name {
            guard let parsed = PasskeyName(raw) else { throw Problem.invalidRequest("name is invalid.") }
            name = parsed
        }
        let response = RegistrationResponse(
            credentialID: try BodyField.bytes(credentialID, field: "credentialID"),
            clientDataJSON: try BodyField.bytes(clientDataJSON, field: "clientDataJSON"),
            attestationObject: try BodyField.bytes(attestationObject, field: "attestationObject"),
            transports: try BodyField.transports(transports))
        guard !response.credentialID.isEmpty else { throw Problem.invalidRequest("credentialID is empty.") }
        return Parsed(response: response, residentKey: residentKey, name: name)
    }
}
