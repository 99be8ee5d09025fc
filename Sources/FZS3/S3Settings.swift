#if canImport(Glibc)
import Glibc
#endif

/// The region, endpoint and addressing style, from the same places and in the same order as
/// the AWS CLI: the region from `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`,
/// else `us-east-1`; the endpoint from `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's
/// `s3.endpoint_url` or `endpoint_url` (none of them when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS`
/// is `true`), else AWS's regional endpoint; path style when the profile's
/// `s3.addressing_style` is `path`, when asked (`pathStyle`), or for an IP or localhost endpoint.
public struct S3Settings: Sendable, Equatable {
    public let region: String
    public let endpoint: S3Endpoint
    public let config: SharedConfig

    public init(environment: [String: String], pathStyle: Bool = false) throws(S3Failure) {
        let config = SharedConfig(environment: environment)
        func nonEmpty(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        region = nonEmpty("AWS_REGION") ?? nonEmpty("AWS_DEFAULT_REGION") ?? config["region"] ?? "us-east-1"
        let path = pathStyle || config["s3.addressing_style"] == "path"
        let ignore = environment["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"]?.lowercased() == "true"
        let url =
            ignore
            ? nil
            : nonEmpty("AWS_ENDPOINT_URL_S3") ?? nonEmpty("AWS_ENDPOINT_URL") ?? config["s3.endpoint_url"]
                ?? config["endpoint_url"]
        endpoint =
            try url.map { url throws(S3Failure) in try S3Endpoint(url: url, pathStyle: path) }
            ?? S3Endpoint.aws(region: region, pathStyle: path)
        self.config = config
    }

    /// The process's environment as a dictionary (the chain takes one, so tests pass their own).
    public static func processEnvironment() -> [String: String] {
        var out: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                out[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return out
    }
}
