import PasskeyTestSupport

extension SoftwareAuthenticatorCBOR {
    /// The integer value when this is `.int` (to find COSE labels in tests).
    var encodedInt: Int? {
        if case .int(let value) = self { return value }
        return nil
    }
}
