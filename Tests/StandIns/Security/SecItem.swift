// A TEST-ONLY STAND-IN for Apple's Security framework (the Keychain item calls a
// `KeychainTokenStore` makes), so that Keychain code type-checks and runs on Linux. Signatures
// copied by hand from Apple's documentation, with their availability; the "keychain" is a
// dictionary in memory. Never part of a product (Package.swift declares it on Linux hosts only).
// Test hooks are in StandInKeychain.swift.
public import Foundation
internal import Synchronization

/// `typealias OSStatus = Int32`
public typealias OSStatus = Int32
/// `CFDictionary` (toll-free bridged with `NSDictionary`).
public typealias CFDictionary = NSDictionary
/// `CFString` (toll-free bridged with `NSString`).
public typealias CFString = NSString
/// `typealias CFTypeRef = AnyObject`
public typealias CFTypeRef = AnyObject

/// `var errSecSuccess: OSStatus { get }`
public let errSecSuccess: OSStatus = 0
/// `var errSecItemNotFound: OSStatus { get }` (−25300)
public let errSecItemNotFound: OSStatus = -25300
/// `var errSecDuplicateItem: OSStatus { get }` (−25299)
public let errSecDuplicateItem: OSStatus = -25299
/// `var errSecInteractionNotAllowed: OSStatus { get }` (−25308: the device is locked)
public let errSecInteractionNotAllowed: OSStatus = -25308
/// `var errSecParam: OSStatus { get }` (−50)
public let errSecParam: OSStatus = -50

/// `let kSecClass: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// `let kSecClassGenericPassword: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// `let kSecAttrService: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// `let kSecAttrAccount: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// `let kSecAttrAccessible: CFString` (iOS 4.0, macOS 10.9)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// `let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString` (iOS 4.0, macOS 10.9)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString`
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString`
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
/// `let kSecAttrAccessGroup: CFString`
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// `let kSecValueData: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// `let kSecReturnData: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// `let kSecMatchLimit: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// `let kSecMatchLimitOne: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// `let kSecUseDataProtectionKeychain: CFString` (iOS 13.0, macOS 10.15)
@available(iOS 13.0, macOS 10.15, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

/// `func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    StandInKeychain.add(attributes)
}

/// `func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    StandInKeychain.copyMatching(query, result)
}

/// `func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    StandInKeychain.update(query, attributesToUpdate)
}

/// `func SecItemDelete(_ query: CFDictionary) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { StandInKeychain.delete(query) }
