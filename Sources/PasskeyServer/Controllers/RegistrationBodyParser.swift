internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

/// Turns a registration finish body (flattened fields or `credential` = toJSON()) into the
/// verifier's input. Everything here is refused before any challenge is consumed.
struct RegistrationBodyParser: Sendable {
    let support: ControllerSupport

    struct Parsed {
        let response: RegistrationResponse
        let residentKey: Bool?
        let name: PasskeyName?
    }

    func parse(_ body: RegistrationFinishRequestBody) throws(Problem) -> Parsed {
        let credentialID: String
        let clientDataJSON: String
        let attestationObject: String
        let transports: [String]?
        var residentKey: Bool?
        if let credential = body.credential {
            guard !body.hasFlattenedFields else {
                throw Problem.invalidRequest("Send either credential or the flattened fields, not both.")
            }
            guard let attestation = credential.response.attestationObject else {
                throw Problem.invalidRequest("credential.response.attestationObject is required.")
            }
            credentialID = credential.rawId ?? credential.id
            clientDataJSON = credential.response.clientDataJSON
            attestationObject = attestation
            transports = credential.response.transports
            residentKey = credential.clientExtensionResults?.credProps?.rk
        } else {
            credentialID = try support.required(body.credentialID, field: "credentialID")
            clientDataJSON = try support.required(body.clientDataJSON, field: "clientDataJSON")
            attestationObject = try support.required(body.attestationObject, field: "attestationObject")
            transports = body.transports
        }
        var name: PasskeyName?
        if let raw = body.name {
            guard let parsed = PasskeyName(raw) else { throw Problem.invalidRequest("name is invalid.") }
            name = parsed
        }
        let response = RegistrationResponse(
            credentialID: try support.bytes(credentialID, field: "credentialID"),
            clientDataJSON: try support.bytes(clientDataJSON, field: "clientDataJSON"),
            attestationObject: try support.bytes(attestationObject, field: "attestationObject"),
            transports: try support.transports(transports))
        guard !response.credentialID.isEmpty else { throw Problem.invalidRequest("credentialID is empty.") }
        return Parsed(response: response, residentKey: residentKey, name: name)
    }
}
