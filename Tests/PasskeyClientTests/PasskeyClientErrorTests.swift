import Foundation
import PasskeyClient
import PasskeyWire
import Testing

/// How answers that are not a success reach the app: the contract's problem+json as typed
/// values, anything else with its status and the reason it was refused.
@Suite struct PasskeyClientErrorTests {
    private static func problem(_ status: Int, _ code: String, detail: String, reason: String? = nil) -> String {
        let reasonField = reason.map { #","reason":"\#($0)""# } ?? ""
        return """
            {"code":"\(code)","detail":"\(detail)","status":\(status),"title":"Error","type":"about:blank"\(reasonField)}
            """
    }

    @Test func aProblemWithAKnownCodeIsAServerError() async throws {
        let stub = StubServer()
        stub.respond(status: 409, Self.problem(409, "email-taken", detail: "An account with this email exists."))
        await #expect(
            throws: PasskeyClientError.server(
                PasskeyServerError(code: .emailTaken, status: 409, detail: "An account with this email exists."))
        ) {
            _ = try await stub.client().createPasswordAccount(
                email: "taro@example.com", displayName: "Taro", password: "correct horse")
        }
    }

    @Test func aRegistrationVerificationFailureCarriesItsReason() async throws {
        let stub = StubServer()
        stub.respond(
            status: 400,
            Self.problem(400, "registration-verification-failed", detail: "Not verified.", reason: "rpIdHashMismatch"))
        let error = await #expect(throws: PasskeyClientError.self) {
            try await stub.client(accessToken: "t").finishPasskeyRegistration(
                challengeID: "ch-1", credential: ClientEndpoint.registration)
        }
        #expect(error?.code == .registrationVerificationFailed)
        guard case .server(let problem) = error else { throw try #require(error) }
        #expect(problem.reason == "rpIdHashMismatch")
        #expect(problem.status == 400)
    }

    /// Spec v3: a start or finish beyond `MAX_PASSKEYS_PER_ACCOUNT` is 409 `passkey-limit-reached`.
    @Test func aFullAccountIsThePasskeyLimitAtStartAndFinish() async throws {
        let detail = "The account holds as many passkeys as it may; delete one before adding another."
        let limit = PasskeyClientError.server(
            PasskeyServerError(code: .passkeyLimitReached, status: 409, detail: detail))
        let stub = StubServer()
        stub.respond(status: 409, Self.problem(409, "passkey-limit-reached", detail: detail))
        await #expect(throws: limit) { _ = try await stub.client(accessToken: "t").startPasskeyRegistration() }
        stub.respond(status: 409, Self.problem(409, "passkey-limit-reached", detail: detail))
        let error = await #expect(throws: PasskeyClientError.self) {
            try await stub.client(accessToken: "t").finishPasskeyRegistration(
                challengeID: "ch-1", credential: ClientEndpoint.registration)
        }
        #expect(error == limit)
        #expect(error?.code == .passkeyLimitReached)
    }

    /// Spec v3: the email endpoints' own codes reach the app typed, with their status.
    @Test(
        arguments: [
            (400, "invalid-code", PasskeyErrorCode.invalidCode),
            (409, "email-already-verified", PasskeyErrorCode.emailAlreadyVerified),
            (503, "mail-unavailable", PasskeyErrorCode.mailUnavailable),
        ] as [(Int, String, PasskeyErrorCode)])
    func theEmailCodesAreServerErrors(status: Int, code: String, expected: PasskeyErrorCode) async throws {
        let stub = StubServer()
        stub.respond(status: status, Self.problem(status, code, detail: "Detail of \(code)."))
        await #expect(
            throws: PasskeyClientError.server(
                PasskeyServerError(code: expected, status: status, detail: "Detail of \(code)."))
        ) { _ = try await stub.client(accessToken: "t").confirmEmailVerification(code: "123456") }
    }

    /// Spec v3: beyond `EMAIL_SENDS_PER_HOUR` a code request is 429 with `Retry-After`; with mail
    /// off every email endpoint, the unauthenticated ones too, is 503 `mail-unavailable`.
    @Test func aCodeRequestBeyondTheLimitCarriesRetryAfterAndMailOffIsUnavailable() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "t")
        stub.respond(
            status: 429, Self.problem(429, "rate-limited", detail: "Too many codes."), headers: ["Retry-After": "1800"])
        await #expect(
            throws: PasskeyClientError.server(
                PasskeyServerError(code: .rateLimited, status: 429, detail: "Too many codes.", retryAfter: 1800))
        ) { try await client.requestEmailVerification() }
        let off = Self.problem(503, "mail-unavailable", detail: "Mail is off.")
        stub.respond(status: 503, off)
        stub.respond(status: 503, off)
        stub.respond(status: 503, off)
        let unavailable = PasskeyClientError.server(
            PasskeyServerError(code: .mailUnavailable, status: 503, detail: "Mail is off."))
        await #expect(throws: unavailable) { try await client.changeEmail(to: "new@example.com") }
        await #expect(throws: unavailable) { try await client.requestEmailSignInCode(email: "taro@example.com") }
        await #expect(throws: unavailable) {
            _ = try await client.signInWithEmailCode(email: "taro@example.com", code: "123456")
        }
        #expect(client.accessToken == "t")
    }

    /// `Retry-After` in seconds (as this server sends it) becomes `retryAfter`; anything that is
    /// neither seconds nor an HTTP-date is nil.
    @Test(arguments: [("17", 17), (" 5 ", 5), (nil, nil), ("soon", nil), ("-3", nil)] as [(String?, Int?)])
    func aRateLimitCarriesRetryAfter(header: String?, seconds: Int?) async throws {
        let stub = StubServer()
        stub.respond(
            status: 429, Self.problem(429, "rate-limited", detail: "Too many attempts."),
            headers: header.map { ["Retry-After": $0] } ?? [:])
        await #expect(
            throws: PasskeyClientError.server(
                PasskeyServerError(code: .rateLimited, status: 429, detail: "Too many attempts.", retryAfter: seconds))
        ) { try await stub.client().signIn(email: "taro@example.com", password: "wrong password") }
    }

    /// The HTTP-date form of `Retry-After` is the seconds until that time (0 once it has passed).
    /// The date is an hour ahead and a minute of slack is allowed: the answer is read on the
    /// wall clock, after however long a busy machine takes between writing and reading it.
    @Test func anHTTPDateRetryAfterIsTheSecondsUntilIt() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let stub = StubServer()
        stub.respond(
            status: 503, Self.problem(503, "service-unavailable", detail: "Busy."),
            headers: ["Retry-After": formatter.string(from: Date().addingTimeInterval(3600))])
        stub.respond(
            status: 503, Self.problem(503, "service-unavailable", detail: "Busy."),
            headers: ["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"])
        let client = stub.client()
        let later = await #expect(throws: PasskeyClientError.self) { try await client.startPasskeySignIn() }
        #expect((3540...3601).contains(later?.retryAfter ?? -1), "\(String(describing: later))")
        #expect(later?.code == .serviceUnavailable)
        let past = await #expect(throws: PasskeyClientError.self) { try await client.startPasskeySignIn() }
        #expect(past?.retryAfter == 0)
    }

    /// A code newer than this client reaches the app as a server error with its raw code.
    @Test func aCodeThisClientDoesNotKnowIsAServerErrorWithItsRawCode() async throws {
        let stub = StubServer()
        stub.respond(status: 400, Self.problem(400, "quota-exceeded", detail: "Too many passkeys."))
        await #expect(
            throws: PasskeyClientError.server(
                PasskeyServerError(
                    code: PasskeyErrorCode(rawValue: "quota-exceeded"), status: 400, detail: "Too many passkeys."))
        ) { try await stub.client().startPasskeySignIn() }
    }

    /// Every code of the contract has its constant, with the contract's spelling.
    @Test func everyCodeOfTheContractHasItsConstant() {
        let constants: [PasskeyErrorCode] = [
            .invalidRequest, .weakPassword, .emailTaken, .invalidCredentials, .rateLimited, .unauthorized,
            .conditionalNotAllowed, .challengeUnavailable, .registrationUnavailable, .registrationMismatch,
            .registrationVerificationFailed, .credentialExists, .authenticationFailed, .unknownCredential,
            .lastCredential, .passkeyNotYetUsed, .notFound, .methodNotAllowed, .payloadTooLarge, .serviceUnavailable,
            .internal, .reauthenticationRequired, .recoveryNotSetUp, .passkeyLimitReached, .invalidCode,
            .emailAlreadyVerified, .mailUnavailable, .tokensUnavailable, .webhooksUnavailable, .forbidden,
            .accountLocked,
        ]
        #expect(Set(constants.map(\.rawValue)) == Set(ErrorCode.allCases.map(\.rawValue)))
        #expect(constants.count == ErrorCode.allCases.count)
        for code in ErrorCode.allCases {
            #expect(PasskeyErrorCode(code).contractCode == code)
            #expect(PasskeyErrorCode(rawValue: code.rawValue) == PasskeyErrorCode(code))
        }
        #expect(PasskeyErrorCode(rawValue: "quota-exceeded").contractCode == nil)
    }

    /// A proxy's own error page: not problem+json, so not a server error, but its status and the
    /// decoder's reason reach the app.
    @Test func aProxysHTMLPageKeepsItsStatusAndWhyItWasRefused() async throws {
        let stub = StubServer()
        stub.respond(
            status: 502, "<html><body><h1>502 Bad Gateway</h1></body></html>", contentType: "text/html",
            headers: ["Retry-After": "30"])
        let error = await #expect(throws: PasskeyClientError.self) { try await stub.client().startPasskeySignIn() }
        guard case .unexpectedResponse(let message, let status, let retryAfter, let cause) = error else {
            throw try #require(error)
        }
        #expect(message.contains("HTTP 502"))
        #expect(status == 502 && error?.status == 502)
        #expect(retryAfter == 30 && error?.retryAfter == 30)
        #expect(error?.code == nil)
        #expect(cause?.hasPrefix("invalid value at the top level") == true, "\(cause ?? "nil")")
    }

    /// A 2xx answer that is not the contract's shape says which field and why, with its status.
    @Test(arguments: [
        (
            ContractAnswers.session().replacingOccurrences(of: #""expiresAt":"2026-12-01T20:00:00Z","#, with: ""),
            #"missing key "expiresAt" at the top level"#
        ),
        (
            ContractAnswers.session().replacingOccurrences(of: "2026-12-01T20:00:00Z", with: "tomorrow"),
            "invalid value at expiresAt: not an RFC 3339 UTC timestamp"
        ),
        (
            ContractAnswers.session().replacingOccurrences(of: #""accessToken":"token-1""#, with: #""accessToken":7"#),
            "expected String at accessToken"
        ),
        (
            ContractAnswers.session().replacingOccurrences(of: #""accountID":"acc-1""#, with: #""accountID":null"#),
            "null where String was expected at accountID"
        ),
    ])
    func aSuccessThatIsNotTheContractsShapeSaysWhy(body: String, cause expected: String) async throws {
        let stub = StubServer()
        stub.respond(status: 200, body)
        let error = await #expect(throws: PasskeyClientError.self) {
            try await stub.client().signIn(email: "taro@example.com", password: "correct horse")
        }
        guard case .unexpectedResponse(let message, let status, _, let cause) = error else {
            throw try #require(error)
        }
        #expect(message.contains("SessionResponseBody"))
        #expect(status == 200)
        #expect(cause?.hasPrefix(expected) == true, "\(cause ?? "nil")")
    }

    @Test func aWrongTypeDeepInAnAnswerIsFoundByItsPath() async throws {
        let stub = StubServer()
        stub.respond(
            status: 200,
            ContractAnswers.account.replacingOccurrences(
                of: #""backupEligible":true"#, with: #""backupEligible":"yes""#))
        let error = await #expect(throws: PasskeyClientError.self) { try await stub.client(accessToken: "t").account() }
        guard case .unexpectedResponse(_, _, _, let cause) = error else { throw try #require(error) }
        #expect(cause?.hasPrefix("expected Bool at passkeys[0].backupEligible") == true, "\(cause ?? "nil")")
    }

    /// A credential ID or user handle that is not base64url is not the contract's: the call
    /// fails with the field in the cause, rather than giving the app bytes that are not the ID.
    @Test(arguments: [
        (
            ContractAnswers.account.replacingOccurrences(of: #""credentialID":"-_-_""#, with: #""credentialID":"a b""#),
            #"passkeys[0]: credentialID is not base64url: "a b""#
        ),
        (
            ContractAnswers.account.replacingOccurrences(of: #""userHandle":"BAUG""#, with: #""userHandle":"!!""#),
            #"userHandle is not base64url: "!!""#
        ),
    ])
    func aBinaryValueThatIsNotBase64URLIsUnexpected(body: String, cause expected: String) async throws {
        let stub = StubServer()
        stub.respond(status: 200, body)
        let error = await #expect(throws: PasskeyClientError.self) { try await stub.client(accessToken: "t").account() }
        guard case .unexpectedResponse(let message, let status, _, let cause) = error else {
            throw try #require(error)
        }
        #expect(message.contains("AccountResponseBody"))
        #expect(status == 200)
        #expect(cause == expected)
    }

    @Test func aSessionsCredentialIDThatIsNotBase64URLIsUnexpected() async throws {
        let stub = StubServer()
        stub.respond(
            status: 200,
            ContractAnswers.sessions.replacingOccurrences(of: #""credentialID":null"#, with: #""credentialID":"%%""#))
        let error = await #expect(throws: PasskeyClientError.self) {
            try await stub.client(accessToken: "t").sessions()
        }
        guard case .unexpectedResponse(_, _, _, let cause) = error else { throw try #require(error) }
        #expect(cause == #"[0]: credentialID is not base64url: "%%""#)
    }

    @Test func aRequestThatGetsNoAnswerIsATransportError() async throws {
        let stub = StubServer()
        stub.fail(.cannotConnectToHost)
        let error = await #expect(throws: PasskeyClientError.self) { try await stub.client().startPasskeySignIn() }
        guard case .transport(let code, _) = error else { throw try #require(error) }
        #expect(code == .cannotConnectToHost)
        #expect(error?.status == nil)
    }

    /// The `URLError` code reaches the app: offline is not a timeout.
    @Test(arguments: [URLError.Code.notConnectedToInternet, .timedOut, .networkConnectionLost])
    func aTransportErrorKeepsItsURLErrorCode(_ code: URLError.Code) async throws {
        let stub = StubServer()
        stub.fail(code)
        let error = await #expect(throws: PasskeyClientError.self) { try await stub.client().startPasskeySignIn() }
        guard case .transport(let kept, _) = error else { throw try #require(error) }
        #expect(kept == code)
    }

    @Test func aCancelledRequestIsCancelled() async throws {
        let stub = StubServer()
        stub.fail(.cancelled)
        await #expect(throws: PasskeyClientError.cancelled) { try await stub.client().startPasskeySignIn() }
    }

    @Test func anAuthenticatedCallWithoutATokenIsNotSent() async throws {
        let stub = StubServer()
        await #expect(throws: PasskeyClientError.notSignedIn) { try await stub.client().account() }
        #expect(stub.requests.isEmpty)
    }
}
