import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Contract v3: `credential-exists` before `email-taken`; at most five failing finishes per
/// registration, then it is used up; each `email-taken` counts against the address's sign-ups.
extension PasskeyAccountRegistrationFinishUseCaseTests {
    @Test func aRegisteredCredentialIsReportedBeforeATakenEmail() async throws {
        let f = Fixture()
        f.takeEmail("mika@example.com")
        f.registerCredentialID(DomainFixtures.credentialID([7, 7, 7]))
        let registration = try await f.registration()
        await #expect(throws: PasskeyAccountRegistrationFinishError.credentialExists) {
            try await f.finish(registration.id, email: "mika@example.com", credentialID: [7, 7, 7])
        }
    }

    @Test func fiveFailingFinishesUseTheRegistrationUp() async throws {
        let f = Fixture()
        let registration = try await f.registration()
        f.verifier.refuseRegistrations(.rpIdHashMismatch)
        for _ in 1...PasskeyAccountRegistration.maximumFailedFinishes {
            await #expect(throws: PasskeyAccountRegistrationFinishError.verificationFailed(.rpIdHashMismatch)) {
                try await f.finish(registration.id)
            }
        }
        #expect(try await !f.isUsable(registration.id))
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationUnavailable) {
            try await f.finish(registration.id)
        }
        // Not even a passkey that verifies completes it now.
        f.verifier.acceptRegistrations(
            as: ScriptedCredentialVerifier.verifiedRegistration(credentialID: DomainFixtures.credentialID([7, 7, 7])))
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationUnavailable) {
            try await f.finish(registration.id)
        }
        #expect(f.failedFinishes(id: registration.id) == 5)
        #expect(f.created.isEmpty)
    }

    @Test func everyFailureAfterTheLookUpCountsAndNoneBeforeIt() async throws {
        let f = Fixture()
        f.takeEmail("taken@example.com")
        f.registerCredentialID(DomainFixtures.credentialID([9, 9, 9]))
        let registration = try await f.registration(email: "mika@example.com")
        await #expect(throws: PasskeyAccountRegistrationFinishError.invalidRequest(field: "email")) {
            try await f.finish(registration.id, email: "no at sign")
        }
        #expect(f.failedFinishes(id: registration.id) == 0)
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationMismatch) {
            try await f.finish(registration.id, email: "other@example.com")
        }
        await #expect(throws: PasskeyAccountRegistrationFinishError.credentialExists) {
            try await f.finish(registration.id, credentialID: [9, 9, 9])
        }
        let open = try await f.registration()
        await #expect(throws: PasskeyAccountRegistrationFinishError.emailTaken) {
            try await f.finish(open.id, email: "taken@example.com")
        }
        #expect(f.failedFinishes(id: registration.id) == 2)
        #expect(f.failedFinishes(id: open.id) == 1)
    }

    @Test func aTakenEmailCountsAgainstTheAddressSignupBudget() async throws {
        var f = Fixture()
        f.signupLimit = 2
        f.takeEmail("taken@example.com")
        let first = try await f.registration()
        let second = try await f.registration()
        // A verification failure is not a sign-up: it does not touch the budget.
        f.verifier.refuseRegistrations(.rpIdHashMismatch)
        await #expect(throws: PasskeyAccountRegistrationFinishError.verificationFailed(.rpIdHashMismatch)) {
            try await f.finish(first.id)
        }
        f.verifier.acceptRegistrations(
            as: ScriptedCredentialVerifier.verifiedRegistration(credentialID: DomainFixtures.credentialID([7, 7, 7])))
        for registration in [first, second] {
            await #expect(throws: PasskeyAccountRegistrationFinishError.emailTaken) {
                try await f.finish(registration.id, email: "taken@example.com")
            }
        }
        await #expect(throws: PasskeyAccountRegistrationFinishError.rateLimited(retryAfter: 900)) {
            try await f.finish(second.id, email: "taken@example.com")
        }
        #expect(f.failedFinishes(id: second.id) == 2)
        // Over the budget nothing is refused but the taken email: a free one still signs up.
        let finish = try await f.finish(second.id, email: "free@example.com")
        #expect(finish.session.account.id == second.prospectiveAccountID)
    }

    @Test func ofConcurrentFailingFinishesOnlyFiveAnswerTheirFailure() async throws {
        let f = Fixture()
        let registration = try await f.registration()
        f.verifier.refuseRegistrations(.rpIdHashMismatch)
        let answers = await withTaskGroup(of: PasskeyAccountRegistrationFinishError?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do throws(PasskeyAccountRegistrationFinishError) {
                        _ = try await f.finish(registration.id)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [PasskeyAccountRegistrationFinishError?]()) { $0.append($1) }
        }
        #expect(answers.filter { $0 == .verificationFailed(.rpIdHashMismatch) }.count == 5)
        #expect(answers.filter { $0 == .registrationUnavailable }.count == 15)
    }
}
