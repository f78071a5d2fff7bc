internal import Foundation
internal import PasskeyClient

/// What a screen says when a call fails: short, actionable, never the server's `detail` (which
/// is for developers), never a hint whether an address has an account.
enum UserMessage {
    /// The user closed the system sheet: nothing to say, the screen goes back to where it was.
    static func isUserCancellation(_ error: PasskeyClientError) -> Bool {
        if case .authorization(.cancelled) = error { return true }
        return false
    }

    static func text(for error: PasskeyClientError) -> String {
        switch error {
        case .authorization(let reason): return text(for: reason)
        case .notSignedIn: return "You are signed out. Sign in again."
        case .cancelled: return "Cancelled."
        case .transport(.notConnectedToInternet?, _), .transport(.networkConnectionLost?, _):
            return "You are offline. Connect to the internet and try again."
        case .transport(.timedOut?, _): return "The server took too long to answer. Try again."
        case .transport: return "The server cannot be reached. Try again later."
        case .unexpectedResponse(_, _, let retryAfter?, _):
            return "The service is busy. Try again in \(retryAfter) seconds."
        case .unexpectedResponse: return "Something went wrong on our side. Try again later."
        case .server(let problem): return text(forCode: problem.code, retryAfter: problem.retryAfter)
        }
    }

    private static func text(for reason: PasskeyAuthorizationError) -> String {
        switch reason {
        case .cancelled: return "Cancelled."
        case .matchedExcludedCredential: return "This device already has a passkey for your account."
        case .notInteractive, .notHandled:
            return "No passkey for this app was found on this device. Sign in another way."
        case .deviceNotConfiguredForPasskeyCreation:
            return "Set up a device passcode and iCloud Keychain to create a passkey."
        case .preferSignInWithApple: return "Sign in with Apple is not offered by this app."
        case .requestInProgress: return "Finish the passkey request on screen first."
        case .failed, .invalidResponse, .unknown, .other: return "The passkey request failed. Try again."
        }
    }

    private static func text(forCode code: PasskeyErrorCode, retryAfter: Int?) -> String {
        if code == .invalidCredentials { return "The email address or the password is wrong." }
        if code == .rateLimited { return "Too many attempts. Try again in \(retryAfter ?? 60) seconds." }
        if code == .reauthenticationRequired { return "For your safety, sign in again to do this." }
        if code == .unknownCredential {
            return "This passkey was removed from your account. Sign in another way and add a new one."
        }
        if code == .emailTaken { return "An account with this email address exists. Sign in instead." }
        if code == .lastCredential { return "This is the account's only way to sign in: add another passkey first." }
        if code == .passkeyNotYetUsed { return "Sign in with your passkey once before removing the password." }
        if code == .recoveryNotSetUp { return "Create recovery codes before removing the password." }
        if code == .accountLocked { return "This account is locked by support. Contact support to unlock it." }
        if code == .passkeyLimitReached { return "This account has the most passkeys allowed: delete one first." }
        if code == .invalidRequest || code == .weakPassword { return "Check what you typed and try again." }
        return "Something went wrong. Try again."
    }
}
