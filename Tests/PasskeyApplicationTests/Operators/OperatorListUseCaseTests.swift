import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Listing the operators: by name, with roles; an unavailable database is said so.
@Suite struct OperatorListUseCaseTests {
    @Test func operatorsAreListedByName() async throws {
        let fixture = OperatorFixture()
        _ = try await fixture.addition.execute(name: "Zoe", role: "admin")
        _ = try await fixture.addition.execute(name: "Ann", role: "viewer")
        let listed = try await fixture.list.execute()
        #expect(listed.map(\.name.value) == ["Ann", "Zoe"])
        #expect(listed.map(\.role) == [.viewer, .admin])
        fixture.repository.failure.withLock { $0 = .unavailable }
        await #expect(throws: OperatorManagementError.unavailable) { try await fixture.list.execute() }
    }
}
