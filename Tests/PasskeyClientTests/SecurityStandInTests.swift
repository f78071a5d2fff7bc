// The Security stand-in behaves as the Keychain calls a token store relies on (Linux only), so
// Keychain code placed in the glue directory runs against it.
#if os(Linux)
    import Foundation
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
    }
#endif
