/// Storage answered something the application's rules exclude (a signed-in account without a
/// summary): a `FailureCause` that names the rule for the operator's log.
package struct BrokenInvariant: Error, Hashable, Sendable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
