/// An access key, its secret and, for temporary credentials, the session token, with where
/// they came from. Its `description` never shows the secret or the token and only the last
/// four characters of the key ID (as `aws configure list` does), so a credential that ends
/// up in a message, a JSON record or a journal shows nothing worth stealing.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let accessKeyID: String
    public let secretAccessKey: String
    /// Set for temporary credentials (STS, the container endpoint, IMDS): `x-amz-security-token`.
    public let sessionToken: String?
    /// When temporary credentials expire, in seconds since 1970; nil for long-lived keys.
    public let expiration: Int64?
    /// Where the chain found them: "environment", "profile prod in ~/.aws/credentials"...
    public let source: String

    public init(
        accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Int64? = nil,
        source: String
    ) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken.flatMap { $0.isEmpty ? nil : $0 }
        self.expiration = expiration
        self.source = source
    }

    /// The key ID with all but its last four characters masked.
    public var maskedKeyID: String {
        String(repeating: "*", count: max(0, min(16, accessKeyID.count - 4))) + accessKeyID.suffix(4)
    }

    public var description: String { "access key \(maskedKeyID) from \(source)" }
    public var debugDescription: String { description }

    /// True when they expire within `margin` seconds of `now`: refresh before signing.
    public func expires(within margin: Int64, of now: Int64) -> Bool {
        guard let expiration else { return false }
        return expiration - margin <= now
    }
}
