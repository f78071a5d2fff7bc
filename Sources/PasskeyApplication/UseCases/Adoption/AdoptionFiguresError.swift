/// Why the adoption figures could not be given.
package enum AdoptionFiguresError: Error, Hashable, Sendable {
    /// `days` is not a whole number from 1 to 366.
    case invalidDays
    case unavailable
    /// Something unexpected; `cause` is for the operator's log.
    case internalFailure(cause: FailureCause)
}

extension AdoptionFiguresError: RepositoryBackedError {
    /// The figures write nothing, so no write can race a deletion.
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
