internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// What every controller uses: body decoding, base64 fields, JSON answers, bearer authentication.
struct ControllerSupport: Sendable {
    let bearer: BearerAuthenticationUseCase
    let logger: Logger
    let metrics: Metrics

    func decode<T: Decodable>(_ type: T.Type, _ context: RequestContext) throws(Problem) -> T {
        guard let value = WireJSON.request(type, from: context.request.body) else {
            throw Problem.invalidRequest("The body is not JSON of the expected shape (missing or mistyped field).")
        }
        return value
    }

    /// base64url (padded or not) or standard base64; names the field on failure.
    func bytes(_ value: String, field: String) throws(Problem) -> [UInt8] {
        guard let bytes = Base64URL.decode(value, lenient: true) else {
            throw Problem.invalidRequest("\(field) is not base64url.")
        }
        return bytes
    }

    func required(_ value: String?, field: String) throws(Problem) -> String {
        guard let value else { throw Problem.invalidRequest("\(field) is required.") }
        return value
    }

    func uuid(_ value: String?, field: String) throws(Problem) -> UUID {
        guard let value, let uuid = UUID(uuidString: value) else {
            throw Problem.invalidRequest("\(field) must be a UUID.")
        }
        return uuid
    }

    /// Authenticator transports: short lowercase tokens, at most 16.
    func transports(_ values: [String]?) throws(Problem) -> [String] {
        let values = values ?? []
        guard values.count <= 16,
            values.allSatisfy({ !$0.isEmpty && $0.count <= 32 && $0.allSatisfy { $0.isLowercase || $0 == "-" } })
        else { throw Problem.invalidRequest("transports must be at most 16 short lowercase tokens.") }
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }

    func json<T: Encodable>(_ status: Int, _ value: T) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: WireJSON.body(value))
    }

    /// The same for the bodies with a hand-written writer (chosen by the compiler for those types).
    func json<T: JSONWritable>(_ status: Int, _ value: T) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: WireJSON.body(value))
    }

    func noContent() -> HTTPResponse { HTTPResponse(status: 204) }

    /// The live session behind `Authorization: Bearer …`.
    func authenticate(_ context: RequestContext) async throws(Problem) -> ActiveSession {
        let token = AuthorizationHeader.bearerToken(context.request.header("authorization"))
        do {
            return try await bearer.execute(token: token)
        } catch {
            switch error {
            case .unauthorized: throw Problem.unauthorized
            case .unavailable: throw Problem.unavailable
            case .internalFailure(let cause): throw Problem.internalFailure(cause: cause)
            }
        }
    }

    /// Runs a controller body, turning a thrown problem into its response. A 500 is logged at
    /// `error` with the request ID, the route and its cause; the client learns nothing more.
    func respond(_ context: RequestContext, _ body: () async throws(Problem) -> HTTPResponse) async -> HTTPResponse {
        do {
            return try await body()
        } catch {
            if error.status >= 500, let cause = error.cause {
                logger.error([
                    "event": "internal_error", "route": context.route, "request_id": context.requestID,
                    "cause": cause,
                ])
            }
            return error.response
        }
    }

    /// A successful ceremony step: the answer, and what the log line and metric say about it.
    struct CeremonySuccess {
        var response: HTTPResponse
        var step: String
        var reason: String? = nil
    }

    /// Runs one ceremony step: on success one `succeeded` log line and metric, on failure one
    /// `failed` line and metric with the error's step and reason, and the error's problem.
    func ceremony<Failure: CeremonyFailure>(
        _ ceremony: Ceremony, _ context: RequestContext, _ body: () async throws(Failure) -> CeremonySuccess
    ) async throws(Problem) -> HTTPResponse {
        do {
            let success = try await body()
            logger.ceremony(
                ceremony.name, step: success.step, event: "succeeded", reason: success.reason,
                requestID: context.requestID)
            metrics.recordCeremony(ceremony.metricName, outcome: "succeeded", reason: success.reason ?? "")
            return success.response
        } catch {
            let (step, reason) = error.failure
            logger.ceremony(ceremony.name, step: step, event: "failed", reason: reason, requestID: context.requestID)
            metrics.recordCeremony(ceremony.metricName, outcome: "failed", reason: reason)
            throw error.problem
        }
    }

    func session(_ issued: IssuedSession) -> SessionResponseBody {
        SessionResponseBody(
            accessToken: issued.accessToken, expiresAt: issued.expiresAt, accountID: issued.account.id.description,
            displayName: issued.account.displayName.value, method: issued.method.rawValue)
    }

    func passkey(_ credential: PasskeyCredential) -> PasskeyResponseBody {
        PasskeyResponseBody(
            credentialID: Base64URL.encode(credential.id.bytes), name: credential.name.value,
            createdAt: credential.createdAt, lastUsedAt: credential.lastUsedAt,
            backupEligible: credential.backupEligible, backupState: credential.backupState,
            transports: credential.transports, aaguid: credential.aaguid.description,
            attestationFormat: credential.attestationFormat)
    }
}
