internal import PasskeyApplication
internal import PasskeyDomain

/// Names for well-known passkey providers by AAGUID (from the community passkey AAGUID list);
/// used when the client gives no name. The one copy of the table: the web client gets it as
/// `/assets/authenticator-names.js`, made from `names` when it is loaded (`AuthenticatorNamesScript`).
struct KnownAuthenticatorNames: AuthenticatorNames {
    static let names: [String: String] = [
        "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
        "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain (Managed)",
        "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
        "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
        "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
        "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
        "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
        "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
        "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
        "531126d6-e717-415c-9320-3d9aa6981239": "Dashlane",
        "53414d53-554e-4700-0000-000000000000": "Samsung Pass",
        "b84e4048-15dc-4dd0-8640-f4f60813c8af": "NordPass",
        "0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6": "Keeper",
        "f3809540-7f14-49c1-a8b3-8f813b225541": "Enpass",
        "cb69481e-8ff7-4039-93ec-0a2729a154a8": "YubiKey 5",
        "ee882879-721c-4913-9775-3dfcce97072a": "YubiKey 5",
        "fa2b99dc-9e39-4257-8f92-4a30d23c4118": "YubiKey 5 NFC",
        "2fc0579f-8113-47ea-b116-bb5a8db9202a": "YubiKey 5 NFC",
        "c5ef55ff-ad9a-4b9f-b580-adebafe026d0": "YubiKey 5Ci",
    ]

    func name(for aaguid: AAGUID) -> String? { Self.names[aaguid.description] }
}
