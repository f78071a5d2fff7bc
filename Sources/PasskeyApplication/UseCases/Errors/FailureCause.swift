/// The error behind a use case's `internalFailure(cause:)`: a `RepositoryError`, a hasher's
/// failure, a broken invariant. It is for the operator's log (the server prints it there with
/// the request ID), never for the client.
///
/// Two causes are equal when their errors are of one type and describe themselves alike
/// (`String(reflecting:)`): errors in general are not `Equatable`, and the use-case errors that
/// carry a cause stay comparable so tests can expect one exactly.
package struct FailureCause: Hashable, Sendable, CustomStringConvertible {
    package let error: any Error & Sendable

    package init(_ error: any Error & Sendable) { self.error = error }

    package var description: String { String(describing: error) }

    package static func == (lhs: FailureCause, rhs: FailureCause) -> Bool {
        type(of: lhs.error) == type(of: rhs.error) && String(reflecting: lhs.error) == String(reflecting: rhs.error)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(String(reflecting: error))
    }
}
