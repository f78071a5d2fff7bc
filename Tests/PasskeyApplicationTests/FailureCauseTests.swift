import PasskeyApplication
import PasskeyTestSupport
import Testing

/// A use case's failure cause is the error itself; causes compare by type and description, so
/// tests can expect one exactly and different errors never pass for each other.
@Suite struct FailureCauseTests {
    private struct OtherFailure: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    @Test func causesAreEqualOnlyForOneTypeAndOneDescription() {
        #expect(FailureCause(ScriptedFailure("boom")) == FailureCause(ScriptedFailure("boom")))
        #expect(FailureCause(ScriptedFailure("boom")) != FailureCause(ScriptedFailure("bang")))
        #expect(FailureCause(ScriptedFailure("boom")) != FailureCause(OtherFailure()))
    }

    @Test func repositoryFailuresCompareTheirOperationAndUnderlyingError() {
        #expect(RepositoryError.scripted("deleteAccount") == .scripted("deleteAccount"))
        #expect(RepositoryError.scripted("deleteAccount") != .scripted("removePassword"))
        #expect(
            RepositoryError.failure(operation: "deleteAccount", underlying: OtherFailure())
                != .scripted("deleteAccount"))
        #expect(RepositoryError.unavailable != .conflict(.emailTaken))
    }

    @Test func theCauseKeepsTheUnderlyingErrorItself() throws {
        let cause = FailureCause(RepositoryError.scripted("countHit"))
        #expect(cause.description == "countHit: boom")
        guard case .failure(let operation, let underlying) = try #require(cause.error as? RepositoryError) else {
            Issue.record("the cause lost its repository failure")
            return
        }
        #expect(operation == "countHit")
        #expect(underlying as? ScriptedFailure == ScriptedFailure("boom"))
    }
}
