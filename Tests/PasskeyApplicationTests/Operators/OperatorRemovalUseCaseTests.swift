import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Removing an operator: its token stops at once; an unknown name is refused.
@Suite struct OperatorRemovalUseCaseTests {
    @Test func aRemovedOperatorsTokenStopsAtOnce() async throws {
        let fixture = OperatorFixture()
        let (_, token) = try await fixture.addition.execute(name: "Ann", role: "admin")
        let authorization = fixture.authorization()
        #expect(try await authorization.execute(bearer: token, requires: .admin).name.value == "Ann")
        try await fixture.removal.execute(name: "Ann")
        await #expect(throws: OperatorAuthorizationError.disabled, "no operator left, no OPERATOR_TOKEN") {
            try await authorization.execute(bearer: token, requires: .viewer)
        }
        await #expect(throws: OperatorManagementError.unknownOperator) {
            try await fixture.removal.execute(name: "Ann")
        }
        await #expect(throws: OperatorManagementError.unknownOperator) { try await fixture.removal.execute(name: "") }
    }
}
