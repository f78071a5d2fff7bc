import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The key set's life: the first key, the periodic rotation, `keys rotate`, `keys revoke` and
/// `keys list`, over the in-memory store.
@Suite struct SigningKeyRotationUseCaseTests {
    @Test func theFirstKeySignsAtOnceAndIsMadeOnce() async throws {
        let f = TokenFixture()
        let made = try #require(try await f.rotation.ensure())
        #expect(made.retiring == nil)
        #expect(made.key.signsFrom == f.clock.now)
        #expect(made.key.createdAt == f.clock.now)
        #expect(try await f.rotation.ensure() == nil)
        #expect(f.store.tables.signingKeys.count == 1)
        // The private half is stored sealed, bound to the key's ID.
        let key = try #require(f.store.tables.signingKeys.first)
        #expect(f.sealer.open(key.sealedPrivateKey, context: key.id.value) != nil)
        #expect(f.sealer.open(key.sealedPrivateKey, context: "another-key") == nil)
        #expect(LabelledSecretSealer(name: "data-key-2").open(key.sealedPrivateKey, context: key.id.value) == nil)
    }

    @Test func aKeyIsRotatedOnceItHasSignedForTheInterval() async throws {
        let f = TokenFixture()
        let first = try #require(try await f.rotation.ensure()).key
        f.clock.advance(by: f.policy.rotationInterval - 1)
        #expect(try await f.rotation.ensure() == nil)
        f.clock.advance(by: 1)
        let next = try #require(try await f.rotation.ensure())
        #expect(next.retiring == first.id)
        #expect(next.key.signsFrom == f.clock.now.addingTimeInterval(SigningKeySet.publicationLead))
        #expect(f.store.tables.signingKeys.first { $0.id == first.id }?.retiredAt == next.key.signsFrom)
        // While the next key waits, nothing more is due.
        #expect(try await f.rotation.ensure() == nil)
        #expect(f.store.tables.signingKeys.count == 2)
    }

    @Test func keysRotateMakesTheNextKeyOrReturnsTheOneOnItsWay() async throws {
        let f = TokenFixture()
        // With no key at all, the first signs at once.
        let first = try await f.rotation.rotate()
        #expect(first.key.signsFrom == f.clock.now)
        let next = try await f.rotation.rotate()
        #expect(next.retiring == first.key.id)
        #expect(next.key.signsFrom == f.clock.now.addingTimeInterval(SigningKeySet.publicationLead))
        let again = try await f.rotation.rotate()
        #expect(again.key.id == next.key.id)
        #expect(f.store.tables.signingKeys.count == 2)
    }

    @Test func revokingTheSigningKeyReplacesItAtOnce() async throws {
        let f = TokenFixture()
        let first = try await f.rotation.rotate().key
        let next = try await f.rotation.rotate().key
        let replacement = try #require(try await f.rotation.revoke(first.id))
        #expect(replacement.key.signsFrom == f.clock.now)
        let keys = f.store.tables.signingKeys
        #expect(keys.first { $0.id == first.id }?.revokedAt == f.clock.now)
        // The rotation's key on its way stops too: the replacement signs now.
        #expect(keys.first { $0.id == next.id }?.revokedAt == f.clock.now)
        #expect(SigningKeySet(keys).current(at: f.clock.now)?.id == replacement.key.id)
    }

    @Test func revokingARetiredKeyMakesNoNewKey() async throws {
        let f = TokenFixture()
        let first = try await f.rotation.rotate().key
        let next = try await f.rotation.rotate().key
        f.clock.advance(by: SigningKeySet.publicationLead)
        #expect(try await f.rotation.revoke(first.id) == nil)
        #expect(f.store.tables.signingKeys.count == 2)
        #expect(SigningKeySet(f.store.tables.signingKeys).current(at: f.clock.now)?.id == next.id)
    }

    @Test func anUnknownOrRevokedKeyCannotBeRevoked() async throws {
        let f = TokenFixture()
        let first = try await f.rotation.rotate().key
        await #expect(throws: SigningKeyRotationError.unknownKey) {
            try await f.rotation.revoke(SigningKeyID(random: Array(repeating: 9, count: 16)))
        }
        _ = try await f.rotation.revoke(first.id)
        let before = f.store.tables.signingKeys
        await #expect(throws: SigningKeyRotationError.unknownKey) { try await f.rotation.revoke(first.id) }
        #expect(f.store.tables.signingKeys == before, "a refused revocation changes nothing")
    }

    @Test func theListSaysWhatEachKeyDoes() async throws {
        let f = TokenFixture(lifetime: 300)
        let first = try await f.rotation.rotate().key
        let second = try await f.rotation.rotate().key
        var states = try await f.rotation.list(repository: f.store).map { [$0.key.id: $0.state] }
        #expect(states == [[first.id: .signing], [second.id: .next]])
        f.clock.advance(by: SigningKeySet.publicationLead)
        let third = try await f.rotation.rotate().key
        states = try await f.rotation.list(repository: f.store).map { [$0.key.id: $0.state] }
        #expect(states == [[first.id: .retired], [second.id: .signing], [third.id: .next]])
        f.clock.advance(by: 300)
        _ = try await f.rotation.revoke(third.id)
        let listed = try await f.rotation.list(repository: f.store)
        #expect(listed.first { $0.key.id == first.id }?.state == .expired)
        #expect(listed.first { $0.key.id == third.id }?.state == .revoked)
        #expect(listed.filter { $0.state == .signing }.count == 1)
    }

    @Test func aDatabaseAwayChangesNothing() async throws {
        let f = TokenFixture()
        f.store.failNext(.unavailable)
        await #expect(throws: SigningKeyRotationError.unavailable) { try await f.rotation.ensure() }
        #expect(f.store.tables.signingKeys.isEmpty)
    }
}
