import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The operator check: OPERATOR_TOKEN is the admin `operator`; each role includes the ones before
/// it; 404 (disabled) only while no operator exists and OPERATOR_TOKEN is unset; 401 for an unknown
/// token, always after one lookup; 403 for a known one without the role.
@Suite struct OperatorAuthorizationUseCaseTests {
    @Test func theRolesMatrix() async throws {
        let fixture = OperatorFixture()
        var tokens: [OperatorRole: String] = [:]
        for role in OperatorRole.allCases {
            tokens[role] = try await fixture.addition.execute(name: "op-\(role.rawValue)", role: role.rawValue).token
        }
        let authorization = fixture.authorization()
        for held in OperatorRole.allCases {
            for required in OperatorRole.allCases {
                let token = try #require(tokens[held])
                if held >= required {
                    #expect(try await authorization.execute(bearer: token, requires: required).role == held)
                } else {
                    await #expect(throws: OperatorAuthorizationError.forbidden, "\(held) for \(required)") {
                        try await authorization.execute(bearer: token, requires: required)
                    }
                }
            }
        }
    }

    @Test func theConfiguredTokenIsTheAdminNamedOperator() async throws {
        let fixture = OperatorFixture()
        let authorization = fixture.authorization(configuredToken: "the-configured-operator-token")
        let found = try await authorization.execute(bearer: "the-configured-operator-token", requires: .admin)
        #expect(found.name.value == "operator" && found.role == .admin)
        #expect(fixture.repository.lookups.withLock { $0 } == 0, "the configured token needs no lookup")
        await #expect(throws: OperatorAuthorizationError.unauthorized) {
            try await authorization.execute(bearer: "the-configured-operator-token!", requires: .viewer)
        }
        await #expect(throws: OperatorAuthorizationError.unauthorized) {
            try await authorization.execute(bearer: nil, requires: .viewer)
        }
        #expect(try await authorization.isEnabled())
    }

    @Test func withoutOperatorsOrTheConfiguredTokenTheEndpointsDoNotExist() async throws {
        let fixture = OperatorFixture()
        let authorization = fixture.authorization()
        #expect(!(try await authorization.isEnabled()))
        for bearer in [nil, "", "anything"] {
            await #expect(throws: OperatorAuthorizationError.disabled) {
                try await authorization.execute(bearer: bearer, requires: .viewer)
            }
        }
        _ = try await fixture.addition.execute(name: "Ann", role: "viewer")
        #expect(try await authorization.isEnabled())
        await #expect(throws: OperatorAuthorizationError.unauthorized) {
            try await authorization.execute(bearer: "anything", requires: .viewer)
        }
    }

    @Test func everyUnknownTokenCostsOneLookupAndAnOverlongOneNone() async throws {
        let fixture = OperatorFixture()
        _ = try await fixture.addition.execute(name: "Ann", role: "viewer")
        let authorization = fixture.authorization(configuredToken: "configured")
        for bearer in ["a", String(repeating: "b", count: 43), String(repeating: "c", count: 512)] {
            await #expect(throws: OperatorAuthorizationError.unauthorized) {
                try await authorization.execute(bearer: bearer, requires: .viewer)
            }
        }
        #expect(fixture.repository.lookups.withLock { $0 } == 3)
        await #expect(throws: OperatorAuthorizationError.unauthorized) {
            try await authorization.execute(bearer: String(repeating: "d", count: 513), requires: .viewer)
        }
        #expect(fixture.repository.lookups.withLock { $0 } == 3)
    }

    @Test func anUnavailableDatabaseIsSaidSo() async throws {
        let fixture = OperatorFixture()
        fixture.repository.failure.withLock { $0 = .unavailable }
        await #expect(throws: OperatorAuthorizationError.unavailable) {
            try await fixture.authorization().execute(bearer: "token", requires: .viewer)
        }
    }
}
