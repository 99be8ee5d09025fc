import Testing

@testable import FZS3

/// HMAC-SHA256 against RFC 4231's test cases. Adds well under a second.
@Suite struct DigestTests {
    @Test(
        "HMAC-SHA256 matches RFC 4231",
        arguments: [
            // Test case 1: a 20-byte key of 0x0b, "Hi There".
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            // Test case 2: "Jefe", "what do ya want for nothing?".
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            // Test case 6: a 131-byte key (longer than a block, hashed first).
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
        ])
    func hmac(key: [UInt8], message: [UInt8], expected: String) {
        #expect(Digest.hex(Digest.hmac(key: key, message)) == expected)
    }

    @Test("Hex round-trips through bytes")
    func hexRoundTrip() {
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        #expect(Digest.bytes(hex: Digest.hex(bytes)) == bytes)
    }
}
