/// Where a change came from, for the mails (and, with the activity log, the events) it causes:
/// the resolved client address (`TRUSTED_PROXIES`) and the request's `User-Agent`.
package struct RequestOrigin: Hashable, Sendable {
    package let clientAddress: String
    package let userAgent: String?

    package init(clientAddress: String, userAgent: String? = nil) {
        self.clientAddress = clientAddress
        self.userAgent = userAgent
    }

    /// A change made with the `passkey-server` command (`recovery-code`), not over HTTP: its
    /// notices say it came from the `command line`.
    package static let commandLine = RequestOrigin(clientAddress: "command line")
}
