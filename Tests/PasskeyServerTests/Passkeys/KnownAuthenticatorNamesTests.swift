import PasskeyApplication
import PasskeyDomain
import Testing

@testable import PasskeyServer

/// The production `AuthenticatorNames`: a passkey without a client-given name is named after its
/// provider when the table knows its AAGUID, and not at all otherwise.
@Suite struct KnownAuthenticatorNamesTests {
    let names: any AuthenticatorNames = KnownAuthenticatorNames()

    @Test(arguments: [
        ("fbfc3007-154e-4ecc-8c0b-6e020557d7bd", "iCloud Keychain"),
        ("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", "Google Password Manager"),
        ("bada5566-a7aa-401f-bd96-45619a55120d", "1Password"),
    ])
    func aKnownAAGUIDHasItsProvidersName(aaguid: String, name: String) throws {
        let known = try #require(AAGUID(string: aaguid))
        #expect(names.name(for: known) == name)
    }

    @Test func theAAGUIDsBytesDecideNotHowItWasWritten() throws {
        let upper = try #require(AAGUID(string: "FBFC3007-154E-4ECC-8C0B-6E020557D7BD"))
        #expect(names.name(for: upper) == "iCloud Keychain")
    }

    @Test func anUnknownAAGUIDHasNoName() throws {
        let unknown = try #require(AAGUID(string: "00112233-4455-6677-8899-aabbccddeeff"))
        #expect(names.name(for: unknown) == nil)
        // One bit off a known one is another authenticator.
        let nearly = try #require(AAGUID(string: "fbfc3007-154e-4ecc-8c0b-6e020557d7bc"))
        #expect(names.name(for: nearly) == nil)
    }

    @Test func theUndisclosedAAGUIDHasNoName() {
        #expect(names.name(for: .zero) == nil)
    }

    @Test func everyEntryOfTheTableIsAnAAGUIDThatAnswersItsName() throws {
        for (aaguid, name) in KnownAuthenticatorNames.names {
            let parsed = try #require(AAGUID(string: aaguid), "\(aaguid)")
            #expect(names.name(for: parsed) == name, "\(aaguid)")
        }
    }
}
