import PasskeyApplication
import PasskeyPasswordHashing
import Testing

/// Anything that is not a well-formed hash of a known kind is a mismatch, never a crash.
@Suite struct MalformedPasswordHashTests {
    let hasher = Argon2PasswordHasher(width: 1)

    static let bcryptTail = "s7iMwPWFKLPfhpwy37CI0.qXLzjJzwaE/Xni1lXqekVvv.K0xUhm6"
    static let argon2Tail = "e1JL9Ii5m5bapIIVwfAYxw$fNOMugFFOhQnSiB+6cL/ejzxiGKAQgrMkkDRB2Mckck"
    static let pbkdf2Tail = "iVHqPWds7T0nRIhxTkmJsQ$rCuD8oTxuYDagBkv3bp4hc3cn4wx4hCcuzRVUjr3m4s"

    static let garbage: [String] = [
        "", "$", "$$", "$$$$$$", "correct horse battery staple", "argon2id", "$argon2id$",
        "$argon2id$v=19$m=19456,t=2,p=1$", "$argon2id$v=19$m=19456,t=2,p=1$$",
        "$argon2d$v=19$m=19456,t=2,p=1$\(argon2Tail)",
        "$argon2id$v=16$m=19456,t=2,p=1$\(argon2Tail)",
        "$argon2id$m=19456,t=2,p=1$\(argon2Tail)",
        "$argon2id$v=19$t=2,m=19456,p=1$\(argon2Tail)",
        "$argon2id$v=19$m=-1,t=2,p=1$\(argon2Tail)",
        "$argon2id$v=19$m=99999999999,t=2,p=1$\(argon2Tail)",
        "$argon2id$v=19$m=4194304,t=2,p=1$\(argon2Tail)",  // 4 GiB: over the limit, never allocated
        "$argon2id$v=19$m=19456,t=4294967295,p=1$\(argon2Tail)",
        "$argon2id$v=19$m=19456,t=2,p=0$\(argon2Tail)",
        "$argon2id$v=19$m=19456,t=2,p=1$e1JL9Ii5m5bapIIVwfAYxw$***",
        "$2b$04$", "$2b$4$\(bcryptTail)", "$2b$03$\(bcryptTail)", "$2b$31$\(bcryptTail)",
        "$2b$99$\(bcryptTail)", "$2b$xx$\(bcryptTail)", "$2x$04$\(bcryptTail)", "$2$04$\(bcryptTail)",
        "$2b$04$\(bcryptTail)x", "$2b$04$\(bcryptTail.dropLast())!", "$2b$04$\(bcryptTail)$",
        "$pbkdf2-sha256$", "$pbkdf2-sha256$1000$", "$pbkdf2-sha256$0$\(pbkdf2Tail)",
        "$pbkdf2-sha256$-1000$\(pbkdf2Tail)", "$pbkdf2-sha256$10000001$\(pbkdf2Tail)",
        "$pbkdf2-sha256$i=10000001$\(pbkdf2Tail)", "$pbkdf2-sha256$99999999999$\(pbkdf2Tail)",
        "$pbkdf2-sha256$i=$\(pbkdf2Tail)", "$pbkdf2-sha256$1000,l=32$\(pbkdf2Tail)",
        "$pbkdf2-sha256$1000$$rCuD8oTxuYDagBkv3bp4hc3cn4wx4hCcuzRVUjr3m4s",
        "$pbkdf2-sha256$1000$iVHqPWds7T0nRIhxTkmJsQ==$rCuD8oTxuYDagBkv3bp4hc3cn4wx4hCcuzRVUjr3m4s",
        "$pbkdf2-sha256$1000$iVHqPWds7T0nRIhxTkmJsQ$rCuD8oTx",
        "$pbkdf2-sha256$1000$iVHqPWds7T0nRIhxTkmJsQ$rCuD8oTxuYDagBkv3bp4hc3cn4wx4hCcuzRVUjr3m4s$",
        "$pbkdf2-sha256$1000$iVHq-Wds7T0nRIhxTkmJsQ$rCuD8oTxuYDagBkv3bp4hc3cn4wx4hCcuzRVUjr3m4s",
        "$pbkdf2-sha1$1000$\(pbkdf2Tail)", "$pbkdf2-sha512$1000$\(pbkdf2Tail)",
        "$argon2id$v=19$m=19456,t=2,p=1$e1JL9Ii5m5bapIIVwfAYxw$fNOMugFFOhQnSiB+6cL/ejzxiGKAQgrMkkDRB2Mckck\u{0}",
        "$2b$04$s7iMwPWFKLPfhpwy37CI0.qXLzjJzwaE/Xni1lXqekVvv.K0xUhm\u{E9}",
        " $2b$04$\(bcryptTail)", "$2b$04$\(bcryptTail) ", "\u{1F511}\u{1F511}\u{1F511}",
        String(repeating: "$", count: 10_000), "$argon2id$" + String(repeating: "A", count: 10_000),
    ]

    @Test(arguments: garbage)
    func garbageHashIsAMismatch(hash: String) async throws {
        #expect(try await hasher.verify(PasswordHashVector.staple, against: hash) == .mismatch)
    }

    /// Every cut of a valid hash fails, and none crashes (Argon2 cuts sampled: each costs a hash).
    @Test(arguments: PasswordHashVector.all)
    func truncatedHashIsAMismatch(vector: PasswordHashVector) async throws {
        let stride = vector.hash.hasPrefix("$argon2") ? 5 : 1
        for length in Swift.stride(from: 0, to: vector.hash.count, by: stride) {
            let cut = String(vector.hash.prefix(length))
            #expect(try await hasher.verify(vector.password, against: cut) == .mismatch, "\(cut)")
        }
    }

    @Test(arguments: PasswordHashVector.all)
    func passwordOver1024BytesIsAMismatchForEveryFormat(vector: PasswordHashVector) async throws {
        let tooLong = String(repeating: "a", count: 1025)
        #expect(try await hasher.verify(tooLong, against: vector.hash) == .mismatch)
    }

    @Test func passwordOver1024BytesIsAMismatchEvenWhenItsHashIsRight() async throws {
        // A hash made elsewhere of a 1025-byte password: refused by length, not by content.
        let weak = Argon2PasswordHasher(parameters: .init(opsLimit: 1, memoryLimitKiB: 8192), width: 1)
        let password = String(repeating: "b", count: 1024)
        let hash = try await weak.hash(password)
        #expect(try await hasher.verify(password, against: hash) == .match(needsRehash: true))
        #expect(try await hasher.verify(password + "b", against: hash) == .mismatch)
    }
}
