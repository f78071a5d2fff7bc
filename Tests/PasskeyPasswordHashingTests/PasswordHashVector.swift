import Testing

/// A stored hash from another implementation and the password that produced it.
///
/// Produced offline once (no network at test time) with Python 3.11 in a virtualenv holding
/// `bcrypt` 4.0.1, `passlib` 1.7.4 and `argon2-cffi` 25.1.0:
///
///     bcrypt.hashpw(pw, bcrypt.gensalt(rounds=4, prefix=b"2b"))        # $2b$, and prefix=b"2a"
///     passlib.hash.bcrypt.using(rounds=4, ident="2y").hash(pw)          # $2y$
///     passlib.hash.pbkdf2_sha256.using(rounds=1000).hash(pw)            # $pbkdf2-sha256$1000$…
///     argon2.PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, type=Type.ID).hash(pw)
///     # PHC-style PBKDF2: "$pbkdf2-sha256$i=1000$" + b64(salt) + "$" + b64(hashlib.pbkdf2_hmac(
///     #     "sha256", pw, salt, 1000)), b64 = standard base64 with "=" stripped
///     crypt.crypt(pw, "$6$rounds=1000$saltsaltsalt$")                    # sha512crypt (refused)
struct PasswordHashVector: Sendable, CustomTestStringConvertible {
    let name: String
    let password: String
    let hash: String

    var testDescription: String { name }

    static let staple = "correct horse battery staple"
    /// 609 bytes: beyond bcrypt's 72 and libxcrypt's 512-byte passphrase limit.
    static let longPassword = String(repeating: "correct horse battery staple ", count: 21)

    static let bcrypt: [PasswordHashVector] = [
        .init(
            name: "bcrypt $2b$", password: staple,
            hash: "$2b$04$s7iMwPWFKLPfhpwy37CI0.qXLzjJzwaE/Xni1lXqekVvv.K0xUhm6"),
        .init(
            name: "bcrypt $2a$", password: "Tr0ub4dor&3",
            hash: "$2a$04$Dw6KJWu4hg/JjzwLE6kC6.NN8bkTpQR.GdHQjtVnj4zOoM6c052iS"),
        .init(
            name: "bcrypt $2y$ (non-ASCII)", password: "p\u{E4}ssw\u{F6}rd-\u{FC}nicode",
            hash: "$2y$04$06/WUlKVCurZXCHH4p.OduO/rD6YL9dkDtOWJMn20k4ooMWL/18qe"),
        .init(
            name: "bcrypt $2b$ 609-byte password", password: longPassword,
            hash: "$2b$04$0XXR0UGEsMEW7mJqPpvCAeNbBuHtX0CUW8FKdbUgcdNP9xyyJnxXi"),
        .init(
            name: "bcrypt $2b$ empty password", password: "",
            hash: "$2b$04$.g5JJ584EunhC0MI.3zwyeBXIphW2jCr49GfAlv6NnAJ3ca68ihsq"),
    ]

    static let pbkdf2: [PasswordHashVector] = [
        .init(
            name: "passlib pbkdf2_sha256 1000 rounds", password: staple,
            hash: "$pbkdf2-sha256$1000$iVHqPWds7T0nRIhxTkmJsQ$rCuD8oTxuYDagBkv3bp4hc3cn4wx4hCcuzRVUjr3m4s"),
        .init(
            name: "passlib pbkdf2_sha256 with ab64 '.'", password: "hunter2hunter2",
            hash: "$pbkdf2-sha256$1000$g7DWmjPmHEMo5RwjxPi/Vw$IdhWkpiNnjDfkL0dmPa0o.nY7PHoKeGwwcBCTtTBxJ8"),
        .init(
            name: "passlib pbkdf2_sha256 default 29000 rounds", password: staple,
            hash: "$pbkdf2-sha256$29000$U0qptVYKwbh3bq1VqrWWkg$mCjDySAAaO3Qrgps/hwu.2Pxvae34cGRZNQvw5X.Eyo"),
        .init(
            name: "PHC pbkdf2-sha256 i= with '+'", password: staple,
            hash: "$pbkdf2-sha256$i=1000$28RXmuKzqykyE/QruFJwbg$4sr5WffRKVvuRQDbs5r47ZSMuFaI+VwwIOLID1mqPPw"),
    ]

    static let argon2idFromArgon2CFFI = PasswordHashVector(
        name: "argon2-cffi argon2id m=19456,t=2,p=1", password: staple,
        hash: "$argon2id$v=19$m=19456,t=2,p=1$e1JL9Ii5m5bapIIVwfAYxw$fNOMugFFOhQnSiB+6cL/ejzxiGKAQgrMkkDRB2Mckck")

    static let argon2iFromArgon2CFFI = PasswordHashVector(
        name: "argon2-cffi argon2i m=19456,t=2,p=1", password: staple,
        hash: "$argon2i$v=19$m=19456,t=2,p=1$Qp1p/eukDtKInEr0FG82eQ$gGoG6DzpRtTprTBgQQmmvAyF03SEQ2wHOK0aakpw18g")

    /// Every accepted legacy and foreign vector.
    static let all: [PasswordHashVector] = bcrypt + pbkdf2 + [argon2idFromArgon2CFFI, argon2iFromArgon2CFFI]
}
