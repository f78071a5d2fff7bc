import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyLibpq
import PasskeyWire
import Testing

@testable import PasskeyServer

/// The mapping of use-case errors to answers, logs and metrics, in process (no socket, no
/// database): every case of the ceremony errors and the management error.
@Suite struct ProblemMappingTests {
    private static func check(
        _ error: some ProblemConvertible, _ status: Int, _ code: ErrorCode,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.problem.status == status, sourceLocation: sourceLocation)
        #expect(error.problem.code == code, sourceLocation: sourceLocation)
        #expect(
            error.problem.response.headers.contains {
                $0.name == "Content-Type" && $0.value == "application/problem+json"
            },
            sourceLocation: sourceLocation)
    }

    @Test func passkeySignInErrors() {
        let failure = CredentialVerificationFailure.signatureInvalid
        Self.check(PasskeyAuthenticationFinishError.invalidRequest(field: "x"), 400, .invalidRequest)
        Self.check(PasskeyAuthenticationFinishError.challengeUnavailable, 400, .challengeUnavailable)
        Self.check(PasskeyAuthenticationFinishError.unknownCredential, 401, .unknownCredential)
        Self.check(PasskeyAuthenticationFinishError.authenticationFailed(failure), 401, .authenticationFailed)
        Self.check(PasskeyAuthenticationFinishError.unavailable, 503, .serviceUnavailable)
        Self.check(
            PasskeyAuthenticationFinishError.internalFailure(cause: FailureCause(RepositoryError.unavailable)), 500,
            .internal)
        // The reason is logged and counted, never told.
        #expect(PasskeyAuthenticationFinishError.authenticationFailed(failure).problem.reason == nil)
        #expect(PasskeyAuthenticationFinishError.authenticationFailed(failure).failure.reason == "signatureInvalid")
        #expect(PasskeyAuthenticationFinishError.challengeUnavailable.failure.step == "authentication.consumeChallenge")
    }

    @Test func registrationErrorsTellTheirReason() {
        let failure = CredentialVerificationFailure.userPresentFlagNotSet
        let error = PasskeyRegistrationFinishError.verificationFailed(failure)
        Self.check(error, 400, .registrationVerificationFailed)
        #expect(error.problem.reason == "userPresentFlagNotSet")
        #expect(error.failure == ("registration.verifyCredential", "userPresentFlagNotSet"))
        Self.check(PasskeyRegistrationFinishError.credentialExists, 409, .credentialExists)
        Self.check(PasskeyRegistrationStartError.conditionalNotAllowed, 403, .conditionalNotAllowed)
        Self.check(PasskeyRegistrationStartError.reauthenticationRequired, 403, .reauthenticationRequired)
        Self.check(PasskeyAccountRegistrationFinishError.registrationMismatch, 400, .registrationMismatch)
        Self.check(PasskeyAccountRegistrationFinishError.registrationUnavailable, 400, .registrationUnavailable)
        Self.check(PasskeyAccountRegistrationFinishError.emailTaken, 409, .emailTaken)
    }

    @Test func passwordAndRecoveryErrors() {
        Self.check(PasswordAuthenticationError.invalidCredentials, 401, .invalidCredentials)
        Self.check(PasswordAuthenticationError.hashingBusy, 503, .serviceUnavailable)
        let limited = PasswordAuthenticationError.rateLimited(retryAfter: 42).problem
        #expect(limited.status == 429)
        #expect(limited.headers.contains { $0.name == "Retry-After" && $0.value == "42" })
        Self.check(PasswordAccountRegistrationError.weakPassword, 400, .weakPassword)
        Self.check(PasswordAccountRegistrationError.emailTaken, 409, .emailTaken)
        Self.check(RecoveryAuthenticationError.invalidCredentials, 401, .invalidCredentials)
        Self.check(RecoveryAuthenticationError.invalidRequest(field: "code"), 400, .invalidRequest)
    }

    @Test func managementErrors() {
        Self.check(AccountManagementError.notFound, 404, .notFound)
        Self.check(RecentSignInError.reauthenticationRequired, 403, .reauthenticationRequired)
        Self.check(AccountManagementError.lastCredential, 409, .lastCredential)
        Self.check(AccountManagementError.passkeyNotYetUsed, 409, .passkeyNotYetUsed)
        Self.check(AccountManagementError.recoveryNotSetUp, 409, .recoveryNotSetUp)
        // A 500 keeps its cause for the log (a database error with its diagnostic) and says nothing of it.
        let database = PostgresError(
            kind: .statement, sqlState: "42P01", diagnostic: "relation \"password_failures\" does not exist")
        let internalFailure = AccountManagementError.internalFailure(
            cause: FailureCause(
                RepositoryError.failure(operation: "PostgresRateLimitRepository.beginAttempt", underlying: database))
        ).problem
        #expect(internalFailure.cause == "PostgresRateLimitRepository.beginAttempt: \(database.logDescription)")
        #expect(internalFailure.cause?.contains("password_failures") == true)
        #expect(!String(decoding: internalFailure.response.body, as: UTF8.self).contains("42P01"))
    }

    @Test func ceremonyNamesHaveOneSpelling() {
        #expect(Ceremony.passkeyAuthentication.metricName == "passkey_authentication")
        #expect(Ceremony.passkeyAccountRegistration.metricName == "passkey_account_registration")
        #expect(Ceremony.passwordAuthentication.metricName == "password_authentication")
    }
}
