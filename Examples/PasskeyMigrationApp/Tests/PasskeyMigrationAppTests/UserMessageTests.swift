import Foundation
import PasskeyClient
import Testing

@testable import PasskeyMigrationApp

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the screens say for each kind of failure (no server needed: the errors are built here).
@Suite struct UserMessageTests {
    private static func server(_ code: PasskeyErrorCode, status: Int, retryAfter: Int? = nil) -> PasskeyClientError {
        .server(PasskeyServerError(code: code, status: status, detail: "for developers", retryAfter: retryAfter))
    }

    @Test func offlineIsToldApartFromATimeoutAndAnUnreachableServer() {
        #expect(
            UserMessage.text(for: .transport(.notConnectedToInternet, "offline"))
                == "You are offline. Connect to the internet and try again.")
        #expect(
            UserMessage.text(for: .transport(.timedOut, "timed out"))
                == "The server took too long to answer. Try again.")
        #expect(
            UserMessage.text(for: .transport(.cannotConnectToHost, "refused"))
                == "The server cannot be reached. Try again later.")
        #expect(UserMessage.text(for: .transport(nil, "?")) == "The server cannot be reached. Try again later.")
    }

    @Test func waitingTimesComeFromRetryAfter() {
        #expect(
            UserMessage.text(for: Self.server(.rateLimited, status: 429, retryAfter: 30))
                == "Too many attempts. Try again in 30 seconds.")
        #expect(
            UserMessage.text(for: .unexpectedResponse("HTTP 503", status: 503, retryAfter: 12))
                == "The service is busy. Try again in 12 seconds.")
    }

    /// The server's `detail` never reaches the screen, and a code this app does not know (a newer
    /// server's) gets the general message instead of breaking anything.
    @Test func unknownCodesAndDetailsStayOffTheScreen() {
        let newer = Self.server(PasskeyErrorCode(rawValue: "quantum-flux"), status: 409)
        #expect(UserMessage.text(for: newer) == "Something went wrong. Try again.")
        #expect(!UserMessage.text(for: Self.server(.internal, status: 500)).contains("for developers"))
    }

    @Test func aClosedSheetIsNotAnError() {
        #expect(UserMessage.isUserCancellation(.authorization(.cancelled)))
        #expect(!UserMessage.isUserCancellation(.authorization(.matchedExcludedCredential)))
        #expect(!UserMessage.isUserCancellation(.cancelled))
    }
}
