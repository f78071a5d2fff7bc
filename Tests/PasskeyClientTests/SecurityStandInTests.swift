// The Security stand-in behaves as the Keychain calls a token store relies on, and
// KeychainTokenStore keeps its contract on it (Linux only). One serialized suite: the stand-in's
// keychain and its failure hook are process-wide.
#if os(Linux)
    import Foundation
    import PasskeyClient
    import PasskeyClientGlue
    import Security
    import Testing

    @Suite(.serialized) struct SecurityStandInTests {
        private let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "test-\(UUID())",
            kSecAttrAccount as String: "access-token",
        ]

        private func read() -> (OSStatus, Data?) {
            var query = item
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            return (status, result as? Data)
        }

        @Test func addUpdateCopyDeleteAsTheKeychainAnswers() throws {
            #expect(read().0 == errSecItemNotFound)
            let first = item.merging([kSecValueData as String: Data([1])]) { $1 }
            #expect(SecItemAdd(first as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(first as CFDictionary, nil) == errSecDuplicateItem)
            #expect(read().1 == Data([1]))
            let changes: [String: Any] = [
                kSecValueData as String: Data([2]),
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            #expect(SecItemUpdate(item as CFDictionary, changes as CFDictionary) == errSecSuccess)
            #expect(read().1 == Data([2]))
            let service = try #require(item[kSecAttrService as String] as? String)
            #expect(
                StandInKeychain.item(service: service, account: "access-token")?.attributes[
                    kSecAttrAccessible as String]
                    == kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
            StandInKeychain.failNext(with: errSecInteractionNotAllowed)
            #expect(read().0 == errSecInteractionNotAllowed)
            #expect(SecItemDelete(item as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(item as CFDictionary) == errSecItemNotFound)
        }

        // MARK: - KeychainTokenStore

        private func store() -> KeychainTokenStore { KeychainTokenStore(service: "test-\(UUID())") }
        private let token = PasskeyStoredToken(
            accessToken: "kept-token", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))

        @Test func theKeychainStoreKeepsOneTokenReadableWhenUnlockedOnThisDeviceOnly() throws {
            let store = store()
            #expect(try store.load() == nil)
            try store.save(token)
            #expect(try store.load() == token)
            let newer = PasskeyStoredToken(accessToken: "newer-token", expiresAt: token.expiresAt)
            try store.save(newer)
            #expect(try store.load() == newer)
            let stored = try #require(StandInKeychain.item(service: store.service, account: store.account))
            #expect(
                stored.attributes[kSecAttrAccessible as String]
                    == kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)
            #expect(stored.attributes[kSecAttrAccessGroup as String] == nil)
            try store.clear()
            #expect(try store.load() == nil)
            try store.clear()
        }

        /// An app that refreshes in the background, and one that shares the token with its
        /// extensions, say so; the item says it too.
        @Test func accessibilityAndAccessGroupAreTheAppsChoice() throws {
            let store = KeychainTokenStore(
                service: "test-\(UUID())", accessibility: .afterFirstUnlockThisDeviceOnly,
                accessGroup: "TEAMID.com.example.shared")
            try store.save(token)
            let stored = try #require(StandInKeychain.item(service: store.service, account: store.account))
            #expect(
                stored.attributes[kSecAttrAccessible as String]
                    == kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
            #expect(stored.attributes[kSecAttrAccessGroup as String] == "TEAMID.com.example.shared")
            #expect(try store.load() == token)
        }

        /// An access control holds the accessibility (the two attributes do not go together).
        @Test func anAccessControlAsksForTheUserOnEveryRead() throws {
            let store = KeychainTokenStore(service: "test-\(UUID())", accessControl: .biometryCurrentSet)
            try store.save(token)
            let stored = try #require(StandInKeychain.item(service: store.service, account: store.account))
            #expect(stored.attributes[kSecAttrAccessControl as String] == "access-control(aku,8)")
            #expect(stored.attributes[kSecAttrAccessible as String] == nil)
            #expect(try store.load() == token)
        }

        @Test func aFailedKeychainCallIsATypedErrorWithItsStatus() throws {
            let store = store()
            try store.save(token)
            StandInKeychain.failNext(with: errSecInteractionNotAllowed)
            #expect(throws: KeychainTokenStoreError(operation: .load, status: errSecInteractionNotAllowed)) {
                try store.load()
            }
            StandInKeychain.failNext(with: errSecInteractionNotAllowed)
            #expect(throws: KeychainTokenStoreError(operation: .save, status: errSecInteractionNotAllowed)) {
                try store.save(token)
            }
            StandInKeychain.failNext(with: errSecInteractionNotAllowed)
            #expect(throws: KeychainTokenStoreError(operation: .clear, status: errSecInteractionNotAllowed)) {
                try store.clear()
            }
            #expect(try store.load() == token)
        }

        @Test func aClientOnTheKeychainStoreIsSignedInAgainAfterARelaunch() async throws {
            let store = store()
            try store.save(token)
            let client = PasskeyClient(
                baseURL: URL(string: "https://example.com")!, tokenStore: store,
                now: Date(timeIntervalSince1970: 1_900_000_000))
            #expect(client.accessToken == "kept-token")
            client.setAccessToken(nil)
            #expect(try store.load() == nil)
        }
    }
#endif
