import PasskeyApplication

/// A `RandomGenerator` on the system's CSPRNG, for use cases over the real database: IDs, codes
/// and challenges differ between use cases, pools and runs (a sequential fake would repeat its
/// sequence in each use case built with it, and the IDs would collide in one database).
struct SystemRandomBytes: RandomGenerator {
    func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
