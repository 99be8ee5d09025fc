import Testing

@testable import FZPNG
@testable import FZSystem

@Suite struct ChecksumTests {
    /// FIPS 180-4's examples (csrc.nist.gov, SHA256.pdf and the NIST SHA-2 test vectors).
    @Test(
        "SHA-256 matches the FIPS 180 test vectors",
        arguments: [
            ("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                1,
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
            ("a", 1_000_000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ])
    func sha256(message: String, repeats: Int, digest: String) {
        var hash = SHA256()
        let bytes = Array(message.utf8)
        for _ in 0..<repeats { hash.update(bytes) }
        #expect(hash.finalizeHex() == digest)
    }

    @Test("SHA-256 gives the same digest however the input is split")
    func sha256Splits() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var whole = SHA256()
        whole.update(data)
        var pieces = SHA256()
        var i = 0
        for n in [1, 63, 64, 65, 127, 200, 480] {
            pieces.update(Array(data[i..<(i + n)]))
            i += n
        }
        #expect(whole.finalizeHex() == pieces.finalizeHex())
    }

    /// The CRC-32 check value (the CRC catalogue's "check" for CRC-32/ISO-HDLC) and PNG's
    /// own IEND chunk CRC.
    @Test func crc32() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(CRC32.checksum([]) == 0)
    }
}
