internal import PasskeyApplication

extension FailureCause {
    /// The cause as the operator's log shows it: a repository failure with its operation and
    /// its underlying error's `debugDescription` where it has one (a database error's: SQLSTATE
    /// and the database's message, which its `description` leaves out on purpose). Never sent to
    /// a client.
    var logText: String { Self.logText(of: error) }

    private static func logText(of error: any Error) -> String {
        switch error {
        case RepositoryError.failure(let operation, let underlying): "\(operation): \(logText(of: underlying))"
        case let diagnosable as any CustomDebugStringConvertible: diagnosable.debugDescription
        default: String(describing: error)
        }
    }
}
